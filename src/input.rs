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

/// The element of `all` whose `name` is `s` (case-insensitive), or a message listing the names:
/// how method names on the command line become methods.
pub fn by_name<T, N: AsRef<str>>(
    s: &str,
    all: impl IntoIterator<Item = T>,
    name: impl Fn(&T) -> N,
) -> std::result::Result<T, String> {
    let all: Vec<T> = all.into_iter().collect();
    let wanted = s.to_ascii_lowercase();
    let names: Vec<String> = all.iter().map(|m| name(m).as_ref().to_string()).collect();
    match names.iter().position(|n| *n == wanted) {
        Some(k) => Ok(all.into_iter().nth(k).expect("position within all")),
        None => Err(format!(
            "unknown method `{s}`; expected one of {}",
            names.join(", ")
        )),
    }
}
