//! One way to configure every problem: defaults, then a settings file (JSON, or TOML by its
//! `.toml` extension), then command-line flags, each checked as it is applied so that an
//! error names the file and key or the flag that brought the bad value.

use super::{Flag, FlagValue, Invalid, Validate};
use crate::error::{InputError, Location, Result};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;
use std::path::Path;

/// A flag given on the command line with its raw text (empty for a switch).
pub type Applied<'a> = (&'a Flag, &'a str);

/// A flag's text as a JSON value: numbers, booleans and `null` as such, anything else as a
/// string (`face`, `NaN`), so that the target's own deserialiser decides.
pub fn parse_value(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|_| Value::String(text.to_string()))
}

/// Reads a settings document: TOML when the file ends in `.toml`, JSON otherwise.
pub fn settings_from_file(path: &Path) -> Result<Value> {
    settings_from_text(&crate::input::read_text(path)?, path)
}

/// Parses a settings document's text: TOML when `path` ends in `.toml`, JSON otherwise;
/// `path` names it in errors.
pub fn settings_from_text(text: &str, path: &Path) -> Result<Value> {
    if path.extension().is_some_and(|e| e == "toml") {
        let table: toml::Table = toml::from_str(text).map_err(|e| {
            let line = e
                .span()
                .map(|s| text[..s.start.min(text.len())].lines().count().max(1));
            let loc = line.map_or(Location::File, |n| Location::Line(n, None));
            InputError::new(path, loc, "", format!("malformed TOML: {}", e.message()))
        })?;
        serde_json::to_value(table).map_err(|e| {
            InputError::new(path, Location::File, "", format!("unusable TOML: {e}")).into()
        })
    } else {
        crate::input::parse_json(text, path, "settings")
    }
}

/// Writes `value` at the dotted `key` of `doc`, creating objects on the way.
fn set_key(doc: &mut Value, key: &str, value: Value) {
    let mut at = doc;
    for part in key.split('.') {
        if !at.is_object() {
            *at = Value::Object(Default::default());
        }
        at = at
            .as_object_mut()
            .expect("made an object above")
            .entry(part.to_string())
            .or_insert(Value::Null);
    }
    *at = value;
}

/// Decodes `doc` into `T`, reporting the path of a field it rejects.
fn decode<T: DeserializeOwned>(doc: &Value) -> std::result::Result<T, (String, String)> {
    serde_path_to_error::deserialize(doc).map_err(|e| {
        let path = e.path().to_string();
        (path, e.into_inner().to_string())
    })
}

fn flag_value(flag: &Flag, raw: &str) -> Value {
    match flag.value {
        FlagValue::Takes(_) => parse_value(raw),
        FlagValue::Sets(lit) => serde_json::from_str(lit).expect("flag tables hold JSON literals"),
    }
}

fn argument(flag: &Flag, raw: &str, reason: impl Into<String>) -> crate::Error {
    InputError::new(
        "<arguments>",
        Location::Argument(format!("--{}", flag.long)),
        raw,
        reason,
    )
    .into()
}

/// The first rejected HiGHS option of any `highs` table in a settings document (every
/// family's solver options share [`crate::solver::HighsSettings`], wherever they sit).
fn bad_highs(doc: &Value, at: &str) -> Option<Invalid> {
    let Value::Object(map) = doc else {
        return None;
    };
    map.iter().find_map(|(key, v)| {
        let path = if at.is_empty() {
            key.clone()
        } else {
            format!("{at}.{key}")
        };
        if key == "highs" && v.is_object() {
            let h: crate::solver::HighsSettings = serde_json::from_value(v.clone()).ok()?;
            if let Some((field, value, why)) = h.invalid() {
                return Some(Invalid::new(&format!("{path}.{field}"), value, why));
            }
        }
        bad_highs(v, &path)
    })
}

/// [`Validate::validate`], then the HiGHS options found anywhere in the settings.
fn validate_all<T: Serialize + Validate>(t: &T) -> std::result::Result<(), Invalid> {
    t.validate()?;
    match bad_highs(&serde_json::to_value(t).expect("settings serialise"), "") {
        Some(bad) => Err(bad),
        None => Ok(()),
    }
}

fn in_file(file: &Path, bad: Invalid) -> crate::Error {
    InputError::new(file, Location::Field(bad.key), bad.value, bad.reason).into()
}

/// `file` written over `base` key by key: a table of the file goes into the table of the same
/// name (so a partial `[root_cg]` keeps the problem's own defaults of the fields it leaves out,
/// not those of the table's type), any other value replaces the default. A table with a key
/// the default's lacks (an enum variant, a misspelt field) replaces it whole, and decoding
/// then accepts or rejects it.
fn merge_over(base: &mut Value, file: Value) {
    match (base, file) {
        (Value::Object(b), Value::Object(f)) if f.keys().all(|k| b.contains_key(k)) => {
            for (k, v) in f {
                merge_over(b.get_mut(&k).expect("checked above"), v);
            }
        }
        (b, f) => *b = f,
    }
}

/// Settings (or load options) from the text of a settings file (JSON, or TOML when `path`
/// ends in `.toml`) written over their defaults ([`merge_over`]): decoded and validated,
/// errors naming `path` and the field.
pub fn settings_of_text<T>(text: &str, path: &Path) -> Result<T>
where
    T: Default + DeserializeOwned + Serialize + Validate,
{
    let mut doc = serde_json::to_value(T::default()).expect("settings serialise");
    merge_over(&mut doc, settings_from_text(text, path)?);
    let t: T = decode(&doc).map_err(|(field, why)| {
        let loc = if field == "." {
            Location::File
        } else {
            Location::Field(field)
        };
        InputError::new(path, loc, "", format!("malformed settings: {why}"))
    })?;
    validate_all(&t).map_err(|bad| in_file(path, bad))?;
    Ok(t)
}

/// Settings (or load options) from their defaults, an optional file, and flags, in that
/// order. The file is decoded and validated first (errors name its fields); each flag is then
/// written and the result decoded and validated again, so an error names the flag.
pub fn apply_flags<T>(file: Option<&Path>, flags: &[Applied<'_>]) -> Result<T>
where
    T: Default + Serialize + DeserializeOwned + Validate,
{
    let base = match file {
        Some(path) => settings_of_text(&crate::input::read_text(path)?, path)?,
        None => T::default(),
    };
    apply_flags_over(base, flags)
}

/// `flags` written over `base` (settings or load options already read), each checked as in
/// [`apply_flags`].
pub fn apply_flags_over<T>(base: T, flags: &[Applied<'_>]) -> Result<T>
where
    T: Serialize + DeserializeOwned + Validate,
{
    let mut current = base;
    for &(flag, raw) in flags {
        let mut doc = serde_json::to_value(&current).expect("settings serialise");
        set_key(&mut doc, flag.key, flag_value(flag, raw));
        let t: T = decode(&doc).map_err(|(_, why)| argument(flag, raw, why))?;
        validate_all(&t).map_err(|bad| argument(flag, raw, bad.reason.clone()))?;
        current = t;
    }
    Ok(current)
}

/// A generator specification from flags alone (it has no defaults for its main
/// parameters): a missing or bad field is reported as its flag.
pub fn spec_from_flags<T>(table: &[Flag], flags: &[Applied<'_>]) -> Result<T>
where
    T: DeserializeOwned + Validate,
{
    let mut doc = Value::Object(Default::default());
    for &(flag, raw) in flags {
        set_key(&mut doc, flag.key, flag_value(flag, raw));
    }
    let flag_of = |key: &str| table.iter().find(|f| f.key == key);
    let missing = missing_keys::<T>(&doc);
    if missing.len() > 1 {
        let names: Vec<String> = missing
            .iter()
            .map(|k| match flag_of(k) {
                Some(f) => match f.value {
                    FlagValue::Takes(v) => format!("--{} {v}", f.long),
                    FlagValue::Sets(_) => format!("--{}", f.long),
                },
                None => k.clone(),
            })
            .collect();
        return Err(InputError::new(
            "<arguments>",
            Location::Argument(names.join(", ")),
            "",
            format!("{} options are required and missing", names.len()),
        )
        .into());
    }
    let t: T = decode(&doc).map_err(|(path, why)| {
        // serde names a missing field in its message, the path being the document's root.
        let key = if path == "." {
            why.split('`').nth(1).unwrap_or("").to_string()
        } else {
            path
        };
        let raw = flags
            .iter()
            .find(|(f, _)| f.key == key)
            .map_or("", |(_, r)| *r);
        match flag_of(&key) {
            Some(f) => argument(f, raw, why),
            None => InputError::new("<arguments>", Location::Field(key), raw, why).into(),
        }
    })?;
    t.validate().map_err(|bad| match flag_of(&bad.key) {
        Some(f) => argument(f, &bad.value, bad.reason),
        None => InputError::new(
            "<arguments>",
            Location::Field(bad.key),
            bad.value,
            bad.reason,
        )
        .into(),
    })?;
    Ok(t)
}

/// Every key `T` requires that `doc` lacks, not just the first: serde names one missing field
/// per attempt, so each is filled with a stand-in (a number, else the first value the error
/// says it expects, else a string) and the document decoded again.
fn missing_keys<T: DeserializeOwned>(doc: &Value) -> Vec<String> {
    let mut doc = doc.clone();
    let mut missing: Vec<String> = Vec::new();
    let mut tries = 0;
    while let Err((path, why)) = decode::<T>(&doc) {
        tries += 1;
        if tries > 64 {
            break;
        }
        let key = if path == "." && why.starts_with("missing field") {
            let key = why.split('`').nth(1).unwrap_or_default().to_string();
            if key.is_empty() || missing.contains(&key) {
                break;
            }
            missing.push(key.clone());
            set_key(&mut doc, &key, Value::from(0));
            continue;
        } else {
            path
        };
        // A stand-in of the wrong type: a string next, then the first value the message
        // expects (`unknown variant `?`, expected one of `large`, …`).
        if !missing.contains(&key) {
            break;
        }
        let pointer = format!("/{}", key.replace('.', "/"));
        let next = match doc.pointer(&pointer) {
            Some(Value::Number(_)) => Some("?".to_string()),
            _ => why
                .split_once("expected")
                .and_then(|(_, rest)| rest.split('`').nth(1))
                .map(str::to_string)
                .filter(|v| v != "?"),
        };
        match next {
            Some(v) => set_key(&mut doc, &key, Value::from(v)),
            None => break,
        }
    }
    missing
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::Target;
    use serde::Deserialize;

    #[derive(Debug, Default, Serialize, Deserialize, PartialEq)]
    #[serde(default, deny_unknown_fields)]
    struct Inner {
        weight: f64,
    }

    #[derive(Debug, Default, Serialize, Deserialize, PartialEq)]
    #[serde(default, deny_unknown_fields)]
    struct S {
        limit: Option<f64>,
        on: bool,
        inner: Inner,
    }

    impl Validate for S {
        fn validate(&self) -> std::result::Result<(), Invalid> {
            if !(0.0..1.0).contains(&self.inner.weight) {
                return Err(Invalid::new(
                    "inner.weight",
                    self.inner.weight,
                    "must be in [0, 1)",
                ));
            }
            Ok(())
        }
    }

    const W: Flag = Flag::takes("weight", Target::Settings, "inner.weight", "W", "");
    const ON: Flag = Flag::sets("on", Target::Settings, "on", "true", "");

    #[test]
    fn flags_override_the_file_and_errors_name_their_source() {
        let d = tempfile::tempdir().unwrap();
        let json = d.path().join("s.json");
        std::fs::write(&json, r#"{"inner": {"weight": 0.5}}"#).unwrap();
        let s: S = apply_flags(Some(&json), &[(&ON, "")]).unwrap();
        assert_eq!((s.inner.weight, s.on), (0.5, true));
        let s: S = apply_flags(Some(&json), &[(&W, "0.25")]).unwrap();
        assert_eq!(s.inner.weight, 0.25);

        let e = apply_flags::<S>(Some(&json), &[(&W, "1.5")])
            .unwrap_err()
            .to_string();
        assert!(e.contains("--weight") && e.contains("[0, 1)"), "{e}");
        let e = apply_flags::<S>(None, &[(&W, "abc")])
            .unwrap_err()
            .to_string();
        assert!(e.contains("--weight") && e.contains("abc"), "{e}");

        let bad = d.path().join("bad.toml");
        std::fs::write(&bad, "[inner]\nweight = 2.0\n").unwrap();
        let e = apply_flags::<S>(Some(&bad), &[]).unwrap_err().to_string();
        assert!(e.contains("bad.toml") && e.contains("inner.weight"), "{e}");
        let unknown = d.path().join("u.json");
        std::fs::write(&unknown, r#"{"inner": {"wieght": 0.5}}"#).unwrap();
        let e = apply_flags::<S>(Some(&unknown), &[])
            .unwrap_err()
            .to_string();
        assert!(e.contains("u.json") && e.contains("wieght"), "{e}");
    }

    #[derive(Debug, Default, Serialize, Deserialize, PartialEq)]
    #[serde(default, deny_unknown_fields)]
    struct Pair {
        a: f64,
        b: f64,
    }

    /// Its table's defaults differ from the table type's own.
    #[derive(Debug, Serialize, Deserialize, PartialEq)]
    #[serde(default, deny_unknown_fields)]
    struct Outer {
        pair: Pair,
        n: u32,
    }

    impl Default for Outer {
        fn default() -> Self {
            Outer {
                pair: Pair { a: 1.0, b: 2.0 },
                n: 3,
            }
        }
    }

    impl Validate for Outer {
        fn validate(&self) -> std::result::Result<(), Invalid> {
            Ok(())
        }
    }

    #[test]
    fn a_partial_table_keeps_the_outer_defaults_of_the_fields_it_leaves_out() {
        let d = tempfile::tempdir().unwrap();
        let toml = d.path().join("p.toml");
        std::fs::write(&toml, "[pair]\nb = 5.0\n").unwrap();
        let s: Outer = apply_flags(Some(&toml), &[]).unwrap();
        assert_eq!(
            s,
            Outer {
                pair: Pair { a: 1.0, b: 5.0 },
                n: 3
            }
        );
        // A misspelt key is still refused, named with its table.
        std::fs::write(&toml, "[pair]\nbb = 5.0\n").unwrap();
        let e = apply_flags::<Outer>(Some(&toml), &[])
            .unwrap_err()
            .to_string();
        assert!(e.contains("p.toml") && e.contains("bb"), "{e}");
    }

    #[test]
    fn values_read_as_json_when_they_parse() {
        assert_eq!(parse_value("0.5"), serde_json::json!(0.5));
        assert_eq!(parse_value("true"), serde_json::json!(true));
        assert_eq!(parse_value("face"), serde_json::json!("face"));
        let mut doc = serde_json::json!({});
        set_key(&mut doc, "a.b.c", serde_json::json!(1));
        assert_eq!(doc, serde_json::json!({"a": {"b": {"c": 1}}}));
    }
}
