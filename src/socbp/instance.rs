//! An SOC-capacity bin-packing instance (Xu, D'Ambrosio, Haddad-Vanier, Traversi 2022): a bin
//! of capacity `c` holds a set `S` of items when `Σ_{i∈S} a_i + D·√(Σ_{i∈S} b_i) ≤ c`. Read from
//! `.cbp` text (`type c n alpha` / `D` / the `n` terms `a_i` / the `n` terms `b_i`, one line
//! each) or JSON `{"capacity": 72, "d": 1.22, "a": [1.5, 14.7], "b": [0.3, 2.0]}`.

use crate::error::{InputError, Location, Result};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Items at most.
pub const MAX_ITEMS: usize = 100_000;

/// Round-off allowed on a bin's load, relative to the capacity: a bin holds `S` when
/// `Σa + D√Σb ≤ c·(1 + TOL)`. The pricing, the heuristics and `verify` all use [`Instance::fits`].
pub const TOL: f64 = 1e-9;

/// A validated instance.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Instance {
    /// Bin capacity `c`.
    pub capacity: f64,
    /// The coefficient `D ≥ 0` of the square root.
    pub d: f64,
    /// Linear terms `a_i ≥ 0` (mean demands).
    pub a: Vec<f64>,
    /// Terms under the root `b_i ≥ 0` (variances).
    pub b: Vec<f64>,
}

/// The formats of a SOC-packing instance file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// `{"capacity": …, "d": …, "a": […], "b": […]}`.
    Json,
    /// CloudSmall `.cbp`: header, `D`, the `a` terms, the `b` terms.
    Cbp,
}

impl Instance {
    /// Number of items.
    pub fn len(&self) -> usize {
        self.a.len()
    }

    /// True without items (never, once validated).
    pub fn is_empty(&self) -> bool {
        self.a.is_empty()
    }

    /// The load `Σa + D√Σb` of a bin with these sums.
    pub fn load(&self, sum_a: f64, sum_b: f64) -> f64 {
        sum_a + self.d * sum_b.max(0.0).sqrt()
    }

    /// Whether a bin with these sums is within the capacity (with [`TOL`]).
    pub fn fits(&self, sum_a: f64, sum_b: f64) -> bool {
        self.load(sum_a, sum_b) <= self.capacity * (1.0 + TOL)
    }

    /// The sums `(Σa, Σb)` of `items`, added in ascending index order (the same bits
    /// whatever order the caller holds them in).
    pub fn sums(&self, items: &[usize]) -> (f64, f64) {
        let mut s = items.to_vec();
        s.sort_unstable();
        s.iter()
            .fold((0.0, 0.0), |(x, y), &i| (x + self.a[i], y + self.b[i]))
    }

    /// A lower bound on the bins of any packing: every bin `k` has `Σa_k + D√(Σb_k) ≤ c`, and
    /// `√` is subadditive (`Σ_k √B_k ≥ √Σb`) and below its chord on `[0, B_max]`
    /// (`√B_k ≥ B_k/√B_max`, `B_max` the most `Σb` a bin can hold). So
    /// `m ≥ (Σa + D·max(√Σb, Σb/√B_max))/c`, rounded up after a `TOL` allowance.
    pub fn volume_bound(&self) -> u64 {
        let (sa, sb) = self.sums(&(0..self.len()).collect::<Vec<_>>());
        let a_min = self
            .a
            .iter()
            .copied()
            .fold(f64::INFINITY, f64::min)
            .max(0.0);
        let mut root = sb.sqrt();
        if self.d > 0.0 {
            let b_max = ((self.capacity * (1.0 + TOL) - a_min) / self.d).powi(2);
            if b_max > 0.0 {
                root = root.max(sb / b_max.sqrt());
            }
        }
        let need = (sa + self.d * root) / (self.capacity * (1.0 + TOL));
        (need * (1.0 - 1e-12)).ceil().max(1.0) as u64
    }

    /// Item `i`'s load alone, `a_i + D√b_i` (the order of the fit-decreasing heuristics).
    pub fn size(&self, i: usize) -> f64 {
        self.load(self.a[i], self.b[i])
    }

    /// Checks the instance; errors name `file`, the field and the value.
    pub fn validate(&self, file: &Path) -> Result<()> {
        let bad = |field: String, value: String, why: &str| -> crate::Error {
            InputError::new(file, Location::Field(field), value, why).into()
        };
        if !(self.capacity.is_finite() && self.capacity > 0.0) {
            return Err(bad(
                "capacity".into(),
                self.capacity.to_string(),
                "must be a finite number > 0",
            ));
        }
        if !(self.d.is_finite() && self.d >= 0.0) {
            return Err(bad(
                "d".into(),
                self.d.to_string(),
                "must be finite and ≥ 0",
            ));
        }
        if self.a.is_empty() || self.a.len() > MAX_ITEMS {
            return Err(bad(
                "a".into(),
                self.a.len().to_string(),
                "needs 1 … 100,000 items",
            ));
        }
        if self.b.len() != self.a.len() {
            return Err(bad(
                "b".into(),
                self.b.len().to_string(),
                "needs one term per item of `a`",
            ));
        }
        for (name, v) in [("a", &self.a), ("b", &self.b)] {
            if let Some((i, x)) = v
                .iter()
                .enumerate()
                .find(|(_, x)| !(x.is_finite() && **x >= 0.0))
            {
                return Err(bad(
                    format!("{name}[{i}]"),
                    x.to_string(),
                    "must be finite and ≥ 0",
                ));
            }
        }
        if let Some(i) = (0..self.len()).find(|&i| !self.fits(self.a[i], self.b[i])) {
            // Blame the term that alone overflows the bin, or both.
            let num = crate::input::number;
            let (field, value) = if self.a[i] > self.capacity {
                (format!("a[{i}]"), num(self.a[i]))
            } else if self.d * self.b[i].sqrt() > self.capacity {
                (format!("b[{i}]"), num(self.b[i]))
            } else {
                (
                    format!("a[{i}], b[{i}]"),
                    format!("{}, {}", num(self.a[i]), num(self.b[i])),
                )
            };
            return Err(bad(
                field,
                value,
                &format!(
                    "the item alone needs a + D·√b = {} > the capacity {}",
                    self.size(i),
                    self.capacity
                ),
            ));
        }
        Ok(())
    }

    /// Reads `path` (`-`: standard input) in the format of [`Instance::parse`].
    pub fn load_file(path: &Path) -> Result<Instance> {
        Instance::load_as(path, None)
    }

    /// Reads `path` in `format`, or as [`Instance::parse`] chooses when `None`.
    pub fn load_as(path: &Path, format: Option<Format>) -> Result<Instance> {
        Instance::parse(&crate::input::read_text(path)?, path, format)
    }

    /// Parses the text of `path` in the format its name or content says.
    pub fn from_text(text: &str, path: &Path) -> Result<Instance> {
        Instance::parse(text, path, None)
    }

    /// Parses `text` in `format`; when `None`, JSON when the content opens with `{`, else the
    /// format the extension of `path` names (`.json`, `.cbp`), else `.cbp`.
    pub fn parse(text: &str, path: &Path, format: Option<Format>) -> Result<Instance> {
        let format = crate::input::choose_format(
            format,
            path,
            text,
            &[("json", Format::Json), ("cbp", Format::Cbp)],
            Format::Json,
            || Format::Cbp,
        );
        let inst: Instance = if format == Format::Json {
            crate::input::parse_json(text, path, "JSON")?
        } else {
            Instance::from_cbp(text, path)?
        };
        inst.validate(path)?;
        Ok(inst)
    }

    /// The `.cbp` text [`Instance::from_cbp`] reads back bit for bit (shortest round-trip
    /// decimals): line 1 `kind c n alpha`, line 2 `D`, then the `a` and the `b` line.
    pub fn to_cbp(&self, kind: &str, alpha: f64) -> String {
        let line = |v: &[f64]| {
            v.iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        };
        format!(
            "{kind} {} {} {alpha}\n{}\n{}\n{}",
            self.capacity,
            self.len(),
            self.d,
            line(&self.a),
            line(&self.b)
        )
    }

    /// Parses `.cbp`: line 1 `type c n alpha`, line 2 `D`, line 3 the `n` terms `a_i`, line 4
    /// the `n` terms `b_i` (blank lines skipped; nothing may follow).
    pub fn from_cbp(text: &str, file: &Path) -> Result<Instance> {
        let mut lines = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.trim()))
            .filter(|(_, l)| !l.is_empty());
        let mut line = |what: &str| {
            lines.next().ok_or_else(|| -> crate::Error {
                InputError::new(
                    file,
                    Location::File,
                    "",
                    format!("ends before the {what} line"),
                )
                .into()
            })
        };
        let at = |n: usize, what: &str, value: &str, why: String| -> crate::Error {
            InputError::new(file, Location::Line(n, Some(what.into())), value, why).into()
        };
        let real = |n: usize, what: &str, t: &str| -> Result<f64> {
            t.parse::<f64>()
                .ok()
                .filter(|x| x.is_finite())
                .ok_or_else(|| at(n, what, t, "not a finite number".into()))
        };
        let (n1, head) = line("header `type c n alpha`")?;
        let f: Vec<&str> = head.split_whitespace().collect();
        if f.len() != 4 {
            return Err(at(
                n1,
                "header",
                head,
                format!("needs 4 fields `type c n alpha`, found {}", f.len()),
            ));
        }
        let capacity = real(n1, "c", f[1])?;
        let n: usize = f[2]
            .parse()
            .ok()
            .filter(|&n| (1..=MAX_ITEMS).contains(&n))
            .ok_or_else(|| {
                at(
                    n1,
                    "n",
                    f[2],
                    format!("must be a whole number 1 … {MAX_ITEMS}"),
                )
            })?;
        real(n1, "alpha", f[3])?;
        let (n2, d_text) = line("D")?;
        let d = real(n2, "D", d_text)?;
        if d < 0.0 {
            return Err(at(n2, "D", d_text, "must be ≥ 0".into()));
        }
        let mut terms = |what: &str| -> Result<Vec<f64>> {
            let (k, l) = line(what)?;
            let v: Vec<f64> = l
                .split_whitespace()
                .map(|t| {
                    let x = real(k, what, t)?;
                    if x < 0.0 {
                        return Err(at(k, what, t, "must be ≥ 0".into()));
                    }
                    Ok(x)
                })
                .collect::<Result<_>>()?;
            if v.len() != n {
                return Err(at(
                    k,
                    what,
                    &v.len().to_string(),
                    format!("needs the {n} terms the header announced"),
                ));
            }
            Ok(v)
        };
        let a = terms("a")?;
        let b = terms("b")?;
        if let Some((k, l)) = lines.next() {
            return Err(at(k, "end", l, "nothing may follow the b line".into()));
        }
        Ok(Instance { capacity, d, a, b })
    }
}
