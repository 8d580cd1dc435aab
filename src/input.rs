//! Reading input files: the two steps every file format shares, each turning failure into an
//! [`InputError`] that names the file and, for JSON, the field path.

use crate::error::{InputError, Location, Result};
use serde::de::DeserializeOwned;
use std::path::Path;
use std::sync::OnceLock;

/// True for the path `-`: standard input as an input file, standard output as `--output`.
pub fn is_stdio(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// Standard input, read to its end once: a loader may read its input twice (to choose the
/// format, then to parse it), and the second read of a pipe would find nothing.
fn stdin_bytes() -> std::result::Result<Vec<u8>, String> {
    static STDIN: OnceLock<std::result::Result<Vec<u8>, String>> = OnceLock::new();
    STDIN
        .get_or_init(|| {
            let mut buf = Vec::new();
            std::io::Read::read_to_end(&mut std::io::stdin().lock(), &mut buf)
                .map(|_| buf)
                .map_err(|e| e.to_string())
        })
        .clone()
}

/// The whole file (`-`: standard input) as bytes, or an error naming it.
pub fn read_bytes(path: &Path) -> Result<Vec<u8>> {
    let bytes = if is_stdio(path) {
        stdin_bytes()
    } else {
        std::fs::read(path).map_err(|e| e.to_string())
    };
    bytes.map_err(|e| {
        InputError::new(
            path,
            Location::File,
            "",
            format!("cannot read the file: {e}"),
        )
        .into()
    })
}

/// The whole file (`-`: standard input) as text, or an error naming it. A UTF-8 byte-order
/// mark is dropped; bytes that are not UTF-8 are reported with their offset.
pub fn read_text(path: &Path) -> Result<String> {
    let text = String::from_utf8(read_bytes(path)?).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        crate::Error::from(InputError::new(
            path,
            Location::File,
            "",
            format!("not UTF-8 text (byte {at}); JSON, CSV and the text formats must be UTF-8"),
        ))
    })?;
    Ok(match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_string(),
        None => text,
    })
}

/// A number as an error message shows it: plain when short, in scientific notation when its
/// plain form would run to dozens of digits (`1e308`, not 309 characters).
pub fn number(v: f64) -> String {
    let plain = v.to_string();
    if plain.len() > 24 {
        format!("{v:e}")
    } else {
        plain
    }
}

/// True when the text is a JSON document (its first non-blank character opens an object):
/// how a loader tells JSON from a family's text format when `--format` is not given.
pub fn looks_like_json(text: &str) -> bool {
    text.trim_start().starts_with('{')
}

/// The format a file's extension names among `known` (case-insensitive), if any.
pub fn format_by_extension<F: Copy>(path: &Path, known: &[(&str, F)]) -> Option<F> {
    let ext = path.extension()?.to_str()?;
    known
        .iter()
        .find(|(e, _)| e.eq_ignore_ascii_case(ext))
        .map(|&(_, f)| f)
}

/// The format to read `text` (from `path`) in: `given` (`--format`) when set; else JSON when
/// the content opens with `{`, whatever the extension says, since none of the text formats
/// can begin so (`generate … > x.cbp` writes JSON into a `.cbp` name; a warning says so);
/// else the format the extension names among `known`; else `by_content`.
pub fn choose_format<F: Copy + PartialEq>(
    given: Option<F>,
    path: &Path,
    text: &str,
    known: &[(&str, F)],
    json: F,
    by_content: impl FnOnce() -> F,
) -> F {
    if let Some(f) = given {
        return f;
    }
    let named = format_by_extension(path, known);
    if looks_like_json(text) {
        if named.is_some_and(|f| f != json) {
            log::warn!(
                "{}: its name says another format, but it holds JSON: read as JSON",
                path.display()
            );
        }
        return json;
    }
    named.unwrap_or_else(by_content)
}

/// Deserialises JSON, reporting the path of the offending field (`jobs[3].cpu`); `what`
/// names the document in the reason ("JSON", "solution").
pub fn parse_json<T: DeserializeOwned>(text: &str, file: &Path, what: &str) -> Result<T> {
    if text.trim().is_empty() {
        return Err(InputError::new(file, Location::File, "", "the file is empty").into());
    }
    let de = &mut serde_json::Deserializer::from_str(text);
    let value = serde_path_to_error::deserialize(&mut *de).map_err(|e| {
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
    })?;
    // One document per file: anything after it but white space is a mistake (two documents
    // concatenated, a truncated edit), not something to ignore.
    de.end().map_err(|e| {
        InputError::new(
            file,
            Location::File,
            "",
            format!("malformed {what}: data after the end of the JSON document ({e})"),
        )
    })?;
    Ok(value)
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
