//! Reading input files: the two steps every file format shares, each turning failure into an
//! [`InputError`] that names the file and, for JSON, the field path.

use crate::error::{InputError, Location, Result};
use serde::de::DeserializeOwned;
use std::path::Path;

/// The whole file as text, or an error naming it.
pub fn read_text(path: &Path) -> Result<String> {
    std::fs::read_to_string(path).map_err(|e| {
        InputError::new(
            path,
            Location::File,
            "",
            format!("cannot read the file: {e}"),
        )
        .into()
    })
}

/// Deserialises JSON, reporting the path of the offending field (`jobs[3].cpu`); `what`
/// names the document in the reason ("JSON", "solution").
pub fn parse_json<T: DeserializeOwned>(text: &str, file: &Path, what: &str) -> Result<T> {
    if text.trim().is_empty() {
        return Err(InputError::new(file, Location::File, "", "the file is empty").into());
    }
    let de = &mut serde_json::Deserializer::from_str(text);
    serde_path_to_error::deserialize(de).map_err(|e| {
        let path = e.path().to_string();
        let loc = if path == "." {
            Location::File
        } else {
            Location::Field(path)
        };
        InputError::new(
            file,
            loc,
            "",
            format!("malformed {what}: {}", e.into_inner()),
        )
        .into()
    })
}
