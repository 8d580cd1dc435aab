//! A solver-neutral linear (mixed-integer) model, built column-wise.
//!
//! One structure serves both the HiGHS adapter and the LP-file writer, so the model that is
//! exported is exactly the model that is solved.

/// Direction of optimisation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sense {
    /// Maximise the objective.
    Maximize,
    /// Minimise the objective.
    Minimize,
}

/// A closed interval `[lower, upper]`; infinite ends allowed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bounds {
    /// Lower end (may be `-inf`).
    pub lower: f64,
    /// Upper end (may be `+inf`).
    pub upper: f64,
}

impl Bounds {
    /// `[lower, upper]`.
    pub fn new(lower: f64, upper: f64) -> Self {
        Bounds { lower, upper }
    }
    /// `(-inf, upper]`.
    pub fn at_most(upper: f64) -> Self {
        Bounds::new(f64::NEG_INFINITY, upper)
    }
    /// `[lower, +inf)`.
    pub fn at_least(lower: f64) -> Self {
        Bounds::new(lower, f64::INFINITY)
    }
    /// `[value, value]`.
    pub fn equal(value: f64) -> Self {
        Bounds::new(value, value)
    }
}

/// Index of a row (constraint) in a [`LinearModel`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RowId(pub usize);

/// Index of a column (variable) in a [`LinearModel`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ColId(pub usize);

/// A row: a name and the interval its activity must lie in.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// Name used in LP files and logs.
    pub name: String,
    /// Allowed activity.
    pub bounds: Bounds,
}

/// A column: a name, objective coefficient, bounds, integrality and its matrix entries.
#[derive(Debug, Clone, PartialEq)]
pub struct Column {
    /// Name used in LP files and logs.
    pub name: String,
    /// Objective coefficient.
    pub cost: f64,
    /// Variable bounds.
    pub bounds: Bounds,
    /// Integer variable.
    pub integer: bool,
    /// Non-zero coefficients, by row.
    pub entries: Vec<(RowId, f64)>,
}

/// A linear or mixed-integer linear program.
#[derive(Debug, Clone, PartialEq)]
pub struct LinearModel {
    /// Optimisation direction.
    pub sense: Sense,
    /// Constraints, in creation order.
    pub rows: Vec<Row>,
    /// Variables, in creation order.
    pub cols: Vec<Column>,
}

impl LinearModel {
    /// An empty model.
    pub fn new(sense: Sense) -> Self {
        LinearModel {
            sense,
            rows: Vec::new(),
            cols: Vec::new(),
        }
    }

    /// Adds a constraint; its coefficients arrive with the columns.
    pub fn add_row(&mut self, name: impl Into<String>, bounds: Bounds) -> RowId {
        self.rows.push(Row {
            name: name.into(),
            bounds,
        });
        RowId(self.rows.len() - 1)
    }

    /// Adds a variable with its coefficients in existing rows.
    pub fn add_col(
        &mut self,
        name: impl Into<String>,
        cost: f64,
        bounds: Bounds,
        integer: bool,
        entries: Vec<(RowId, f64)>,
    ) -> ColId {
        debug_assert!(entries.iter().all(|(r, _)| r.0 < self.rows.len()));
        self.cols.push(Column {
            name: name.into(),
            cost,
            bounds,
            integer,
            entries,
        });
        ColId(self.cols.len() - 1)
    }

    /// Appends `other` (same sense) as an independent block: its rows and columns renamed
    /// `{prefix}{name}`. The optimum of the sum is the sum of the optima.
    pub fn append(&mut self, other: LinearModel, prefix: &str) {
        debug_assert_eq!(self.sense, other.sense);
        let base = self.rows.len();
        self.rows.extend(other.rows.into_iter().map(|r| Row {
            name: format!("{prefix}{}", r.name),
            ..r
        }));
        self.cols.extend(other.cols.into_iter().map(|c| {
            Column {
                name: format!("{prefix}{}", c.name),
                entries: c
                    .entries
                    .into_iter()
                    .map(|(r, a)| (RowId(base + r.0), a))
                    .collect(),
                ..c
            }
        }));
    }

    /// Rows, columns and nonzeros (matrix entries), as [`super::HighsSettings::refuse_model`]
    /// counts them.
    pub fn size(&self) -> (u64, u64, u64) {
        let nonzeros: usize = self.cols.iter().map(|c| c.entries.len()).sum();
        (
            self.rows.len() as u64,
            self.cols.len() as u64,
            nonzeros as u64,
        )
    }

    /// True when at least one variable is integer.
    pub fn is_mip(&self) -> bool {
        self.cols.iter().any(|c| c.integer)
    }

    /// The continuous relaxation: the same model with every integrality dropped.
    pub fn relaxed(&self) -> LinearModel {
        let mut m = self.clone();
        m.cols.iter_mut().for_each(|c| c.integer = false);
        m
    }

    /// True when every variable has finite bounds, so the model cannot be unbounded.
    pub fn all_bounded(&self) -> bool {
        self.cols
            .iter()
            .all(|c| c.bounds.lower.is_finite() && c.bounds.upper.is_finite())
    }

    /// Objective value of a column vector.
    pub fn objective_of(&self, x: &[f64]) -> f64 {
        self.cols.iter().zip(x).map(|(c, v)| c.cost * v).sum()
    }

    /// The largest violation of any row or column bound by `x` (0 when feasible).
    pub fn max_violation(&self, x: &[f64]) -> f64 {
        let mut activity = vec![0.0; self.rows.len()];
        let mut worst: f64 = 0.0;
        for (c, &v) in self.cols.iter().zip(x) {
            worst = worst.max(c.bounds.lower - v).max(v - c.bounds.upper);
            for &(r, a) in &c.entries {
                activity[r.0] += a * v;
            }
        }
        for (row, act) in self.rows.iter().zip(activity) {
            worst = worst
                .max(row.bounds.lower - act)
                .max(act - row.bounds.upper);
        }
        worst
    }
}
