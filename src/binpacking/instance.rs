//! A vector-packing instance: `D` bin capacities and, per item, `D` weights, all positive
//! integers (`D = 1`: bin packing). Read from BPPLIB text (`n`, `c`, then `n` weights, one per
//! line, CRLF tolerated), VPSolver `.vbp` (`D` / `W_1 … W_D` / `m` / `m` lines `w_1 … w_D b`, the
//! demand `b` expanded to `b` unit items, numbered type by type) or JSON
//! `{"capacity": [100, 100], "items": [[3, 40], [5, 13]]}` (one dimension:
//! `{"capacity": 150, "weights": [42, 69]}`).

use crate::error::{InputError, Location, Result};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Items at most (the branch-and-price has one row per item).
pub const MAX_ITEMS: usize = 100_000;

/// Dimensions at most.
pub const MAX_DIMS: usize = 16;

/// A validated instance.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "Raw")]
pub struct Instance {
    /// Bin capacity per dimension, `C_d`.
    pub capacity: Vec<u64>,
    /// Item weights per dimension, `1 ≤ Σ_d w_id`, `w_id ≤ C_d`.
    pub items: Vec<Vec<u64>>,
}

/// The JSON as written: a capacity or a list of them, `weights` (one dimension) or `items`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    capacity: OneOrMany,
    #[serde(default)]
    weights: Option<Vec<u64>>,
    #[serde(default)]
    items: Option<Vec<Vec<u64>>>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum OneOrMany {
    One(u64),
    Many(Vec<u64>),
}

impl TryFrom<Raw> for Instance {
    type Error = String;
    fn try_from(r: Raw) -> std::result::Result<Self, String> {
        let capacity = match r.capacity {
            OneOrMany::One(c) => vec![c],
            OneOrMany::Many(c) => c,
        };
        let items = match (r.weights, r.items) {
            (Some(w), None) => w.into_iter().map(|w| vec![w]).collect(),
            (None, Some(i)) => i,
            _ => return Err("give `weights` (one dimension) or `items`, exactly one".into()),
        };
        Ok(Instance { capacity, items })
    }
}

/// The formats of a bin-packing instance file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// `{"capacity": …, "items": …}` or `{"capacity": …, "weights": …}`.
    Json,
    /// VPSolver `.vbp`: `D`, the capacities, `m`, then per item type `D` weights and a demand.
    Vbp,
    /// BPPLIB: `n`, `C`, then `n` weights, one number per line.
    Bpplib,
}

impl Format {
    /// The format a text is in, by its content alone (see [`Instance::parse`]).
    pub fn of_content(text: &str) -> Format {
        if crate::input::looks_like_json(text) {
            Format::Json
        } else if text.lines().any(|l| l.split_whitespace().nth(1).is_some()) {
            Format::Vbp
        } else {
            Format::Bpplib
        }
    }
}

impl Instance {
    /// A one-dimensional instance.
    pub fn one_dimensional(capacity: u64, weights: Vec<u64>) -> Instance {
        Instance {
            capacity: vec![capacity],
            items: weights.into_iter().map(|w| vec![w]).collect(),
        }
    }

    /// The items' weights when the instance has one dimension; `None` otherwise.
    pub fn weights(&self) -> Option<Vec<u64>> {
        (self.dims() == 1).then(|| self.items.iter().map(|w| w[0]).collect())
    }

    /// Number of items.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// True without items (never, once validated).
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// Dimensions `D`.
    pub fn dims(&self) -> usize {
        self.capacity.len()
    }

    /// `max_d ⌈Σ_i w_id / C_d⌉`: no packing uses fewer bins.
    pub fn volume_bound(&self) -> u64 {
        (0..self.dims())
            .map(|d| {
                let total: u128 = self.items.iter().map(|w| u128::from(w[d])).sum();
                total.div_ceil(u128::from(self.capacity[d].max(1))) as u64
            })
            .max()
            .unwrap_or(0)
    }

    /// Item `i`'s size as a fraction of the bin, summed over dimensions (the order of the
    /// fit-decreasing heuristics).
    pub fn size(&self, i: usize) -> f64 {
        self.items[i]
            .iter()
            .zip(&self.capacity)
            .map(|(&w, &c)| w as f64 / c as f64)
            .sum()
    }

    /// Checks the instance; errors name `file`, the field and the value.
    pub fn validate(&self, file: &Path) -> Result<()> {
        let bad = |field: String, value: String, why: String| -> crate::Error {
            InputError::new(file, Location::Field(field), value, why).into()
        };
        let d = self.dims();
        if d == 0 || d > MAX_DIMS {
            return Err(bad(
                "capacity".into(),
                format!("{:?}", self.capacity),
                format!("needs 1 … {MAX_DIMS} dimensions"),
            ));
        }
        for (k, &c) in self.capacity.iter().enumerate() {
            if c == 0 || c > (1 << 52) {
                return Err(bad(
                    format!("capacity[{k}]"),
                    c.to_string(),
                    "must be in 1 … 2^52".into(),
                ));
            }
        }
        if self.items.is_empty() {
            return Err(bad(
                "items".into(),
                "[]".into(),
                "at least one item is needed".into(),
            ));
        }
        if self.items.len() > MAX_ITEMS {
            return Err(bad(
                "items".into(),
                self.items.len().to_string(),
                format!("at most {MAX_ITEMS} items"),
            ));
        }
        for (i, w) in self.items.iter().enumerate() {
            if w.len() != d {
                return Err(bad(
                    format!("items[{i}]"),
                    format!("{w:?}"),
                    format!("needs {d} weights, one per capacity"),
                ));
            }
            for (k, (&x, &c)) in w.iter().zip(&self.capacity).enumerate() {
                if x > c {
                    return Err(bad(
                        format!("items[{i}][{k}]"),
                        x.to_string(),
                        format!("exceeds the capacity {c}"),
                    ));
                }
            }
            if w.iter().all(|&x| x == 0) {
                return Err(bad(
                    format!("items[{i}]"),
                    format!("{w:?}"),
                    "an item needs a positive weight".into(),
                ));
            }
        }
        Ok(())
    }

    /// Reads `path` (`-`: standard input) in the format of [`Instance::parse`].
    pub fn load(path: &Path) -> Result<Instance> {
        Instance::load_as(path, None)
    }

    /// Reads `path` in `format`, or as [`Instance::parse`] chooses when `None`.
    pub fn load_as(path: &Path, format: Option<Format>) -> Result<Instance> {
        Instance::parse(&crate::input::read_text(path)?, path, format)
    }

    /// Parses the text of `path` in the format its name or content says (as
    /// [`Instance::parse`]).
    pub fn from_text(text: &str, path: &Path) -> Result<Instance> {
        Instance::parse(text, path, None)
    }

    /// Parses `text` in `format`; when `None`, JSON when the content opens with `{`, else the
    /// format the extension of `path` names (`.json`, `.vbp`, `.txt`/`.bpp` for BPPLIB), else
    /// the content's: VPSolver when a line holds more than one number (its item lines hold `D`
    /// weights and a demand), BPPLIB (one number per line) otherwise.
    pub fn parse(text: &str, path: &Path, format: Option<Format>) -> Result<Instance> {
        let format = crate::input::choose_format(
            format,
            path,
            text,
            &[
                ("json", Format::Json),
                ("vbp", Format::Vbp),
                ("txt", Format::Bpplib),
                ("bpp", Format::Bpplib),
            ],
            Format::Json,
            || Format::of_content(text),
        );
        match format {
            Format::Json => {
                let inst: Instance = crate::input::parse_json(text, path, "JSON")?;
                inst.validate(path)?;
                Ok(inst)
            }
            Format::Vbp => Instance::from_vbp(text, path),
            Format::Bpplib => Instance::from_bpplib(text, path),
        }
    }

    /// Parses VPSolver `.vbp`: whitespace-separated whole numbers, `D`, the `D` capacities,
    /// the number of item types `m`, then per type `D` weights and a demand.
    pub fn from_vbp(text: &str, file: &Path) -> Result<Instance> {
        let mut num = Numbers {
            file,
            items: text
                .lines()
                .enumerate()
                .flat_map(|(i, l)| l.split_whitespace().map(move |t| (i + 1, t))),
        };
        let (line, d) = num.next("D")?;
        if d == 0 || d > MAX_DIMS as u64 {
            return Err(num.bad(line, "D", d, format!("must be 1 … {MAX_DIMS} dimensions")));
        }
        let mut capacity = Vec::new();
        for k in 0..d {
            let (line, c) = num.next(&format!("W{}", k + 1))?;
            if c == 0 || c > (1 << 52) {
                return Err(num.bad(line, "capacity", c, "must be in 1 … 2^52".into()));
            }
            capacity.push(c);
        }
        let (line, m) = num.next("m")?;
        if m == 0 || m > MAX_ITEMS as u64 {
            return Err(num.bad(line, "m", m, format!("must be 1 … {MAX_ITEMS} item types")));
        }
        let mut items = Vec::new();
        for t in 0..m {
            let mut w = Vec::new();
            let mut first = 0;
            for (k, &cap) in capacity.iter().enumerate() {
                let what = format!("w{}", k + 1);
                let (line, x) = num.next(&what)?;
                if k == 0 {
                    first = line;
                }
                if x > cap {
                    return Err(num.bad(line, &what, x, format!("exceeds the capacity {cap}")));
                }
                w.push(x);
            }
            if w.iter().all(|&x| x == 0) {
                let why = format!("item type {} weighs nothing", t + 1);
                return Err(num.bad(first, "w1", 0, why));
            }
            let (line, b) = num.next("demand")?;
            if b == 0 || items.len() as u64 + b > MAX_ITEMS as u64 {
                let why = format!("must be ≥ 1, with at most {MAX_ITEMS} items in all");
                return Err(num.bad(line, "demand", b, why));
            }
            items.extend(std::iter::repeat_n(w, b as usize));
        }
        num.end(format!("more numbers than the {m} item types announced"))?;
        Ok(Instance { capacity, items })
    }

    /// Parses BPPLIB text: `n`, `c`, then `n` weights, one number per line.
    pub fn from_bpplib(text: &str, file: &Path) -> Result<Instance> {
        let mut num = Numbers {
            file,
            items: text
                .lines()
                .enumerate()
                .map(|(i, l)| (i + 1, l.trim()))
                .filter(|(_, l)| !l.is_empty()),
        };
        let (line, count) = num.next("n")?;
        if count == 0 || count > MAX_ITEMS as u64 {
            return Err(num.bad(line, "n", count, format!("must be 1 … {MAX_ITEMS} items")));
        }
        let (line, capacity) = num.next("c")?;
        if capacity == 0 || capacity > (1 << 52) {
            return Err(num.bad(line, "c", capacity, "must be in 1 … 2^52".into()));
        }
        let mut weights = Vec::with_capacity(count as usize);
        for _ in 0..count {
            let (line, w) = num.next("weight")?;
            if w == 0 || w > capacity {
                let why = format!("must be in 1 … the capacity {capacity}");
                return Err(num.bad(line, "weight", w, why));
            }
            weights.push(w);
        }
        num.end(format!("more lines than the {count} items announced"))?;
        Ok(Instance::one_dimensional(capacity, weights))
    }
}

/// Whole numbers read one by one from `(line, text)` pieces (lines for BPPLIB, tokens for
/// `.vbp`), every error naming the file, the line, the field and the value.
struct Numbers<'a, I> {
    file: &'a Path,
    items: I,
}

impl<'a, I: Iterator<Item = (usize, &'a str)>> Numbers<'a, I> {
    /// The next number, called `what` in errors.
    fn next(&mut self, what: &str) -> Result<(usize, u64)> {
        let (n, t) = self.items.next().ok_or_else(|| {
            InputError::new(
                self.file,
                Location::File,
                "",
                format!("ends before the {what}"),
            )
        })?;
        let v: u64 = t.parse().map_err(|_| {
            InputError::new(
                self.file,
                Location::Line(n, Some(what.into())),
                t,
                "not a whole number ≥ 0",
            )
        })?;
        Ok((n, v))
    }

    /// A number read at `line` is wrong for `why`.
    fn bad(&self, line: usize, what: &str, value: u64, why: String) -> crate::Error {
        InputError::new(
            self.file,
            Location::Line(line, Some(what.into())),
            value.to_string(),
            why,
        )
        .into()
    }

    /// Nothing may follow; `why` says what the file announced.
    fn end(&mut self, why: String) -> Result<()> {
        match self.items.next() {
            Some((n, t)) => Err(InputError::new(self.file, Location::Line(n, None), t, why).into()),
            None => Ok(()),
        }
    }
}
