//! A bin-packing instance: a capacity and item weights, all positive integers. Read from
//! BPPLIB text (`n`, `c`, then `n` weights, one per line, CRLF tolerated) or JSON
//! `{"capacity": 150, "weights": [42, 69, …]}`.

use crate::error::{InputError, Location, Result};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Items at most (the branch-and-price expands to one row per item).
pub const MAX_ITEMS: usize = 100_000;

/// A validated instance.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Instance {
    /// Bin capacity `C`.
    pub capacity: u64,
    /// Item weights `w_i`, `1 ≤ w_i ≤ C`.
    pub weights: Vec<u64>,
}

impl Instance {
    /// `⌈Σ w / C⌉`: no packing uses fewer bins.
    pub fn volume_bound(&self) -> u64 {
        let total: u128 = self.weights.iter().map(|&w| u128::from(w)).sum();
        total.div_ceil(u128::from(self.capacity.max(1))) as u64
    }

    /// Checks the instance; errors name `file`, the field and the value.
    pub fn validate(&self, file: &Path) -> Result<()> {
        let bad = |field: String, value: String, why: String| -> crate::Error {
            InputError::new(file, Location::Field(field), value, why).into()
        };
        if self.capacity == 0 || self.capacity > (1 << 52) {
            return Err(bad(
                "capacity".into(),
                self.capacity.to_string(),
                "must be in 1 … 2^52".into(),
            ));
        }
        if self.weights.is_empty() {
            return Err(bad(
                "weights".into(),
                "[]".into(),
                "at least one item is needed".into(),
            ));
        }
        if self.weights.len() > MAX_ITEMS {
            return Err(bad(
                "weights".into(),
                self.weights.len().to_string(),
                format!("at most {MAX_ITEMS} items"),
            ));
        }
        for (i, &w) in self.weights.iter().enumerate() {
            if w == 0 || w > self.capacity {
                return Err(bad(
                    format!("weights[{i}]"),
                    w.to_string(),
                    format!("must be in 1 … the capacity {}", self.capacity),
                ));
            }
        }
        Ok(())
    }

    /// Reads `path`: BPPLIB text unless it ends in `.json`.
    pub fn load(path: &Path) -> Result<Instance> {
        let text = crate::input::read_text(path)?;
        if path.extension().is_some_and(|e| e == "json") {
            let inst: Instance = crate::input::parse_json(&text, path, "JSON")?;
            inst.validate(path)?;
            Ok(inst)
        } else {
            Instance::from_bpplib(&text, path)
        }
    }

    /// Parses BPPLIB text.
    pub fn from_bpplib(text: &str, file: &Path) -> Result<Instance> {
        let mut lines = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.trim()))
            .filter(|(_, l)| !l.is_empty());
        let mut number = |what: &str| -> Result<(usize, u64)> {
            let (n, l) = lines.next().ok_or_else(|| {
                InputError::new(file, Location::File, "", format!("ends before the {what}"))
            })?;
            let v: u64 = l.parse().map_err(|_| {
                InputError::new(
                    file,
                    Location::Line(n, Some(what.into())),
                    l,
                    "not a whole number ≥ 0",
                )
            })?;
            Ok((n, v))
        };
        let (line, count) = number("n")?;
        if count == 0 || count > MAX_ITEMS as u64 {
            return Err(InputError::new(
                file,
                Location::Line(line, Some("n".into())),
                count.to_string(),
                format!("must be 1 … {MAX_ITEMS} items"),
            )
            .into());
        }
        let (line, capacity) = number("c")?;
        if capacity == 0 || capacity > (1 << 52) {
            return Err(InputError::new(
                file,
                Location::Line(line, Some("c".into())),
                capacity.to_string(),
                "must be in 1 … 2^52",
            )
            .into());
        }
        let mut weights = Vec::with_capacity(count as usize);
        for _ in 0..count {
            let (line, w) = number("weight")?;
            if w == 0 || w > capacity {
                return Err(InputError::new(
                    file,
                    Location::Line(line, Some("weight".into())),
                    w.to_string(),
                    format!("must be in 1 … the capacity {capacity}"),
                )
                .into());
            }
            weights.push(w);
        }
        if let Some((n, l)) = lines.next() {
            return Err(InputError::new(
                file,
                Location::Line(n, None),
                l,
                format!("more lines than the {count} items announced"),
            )
            .into());
        }
        Ok(Instance { capacity, weights })
    }
}
