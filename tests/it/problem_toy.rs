//! The worked example of `docs/architecture.md`: a toy problem family — pick the largest
//! item that fits a capacity — implemented through the `Problem` trait and driven through the
//! registry's generic `Entry` exactly as the CLI and the experiment runner drive the real
//! families: settings and flags, load, solve under a deadline, verify, generate, sweep.

use serde::{Deserialize, Serialize};
use std::path::Path;
use vcalloc::problem::registry::Registered;
use vcalloc::problem::{
    Certificate, Common, Entry, Flag, Invalid, Problem, Sense, SolveRequest, Sweep, Target,
    Validate,
};
use vcalloc::solver::Deadline;
use vcalloc::{Result, Status, Violation};

struct Toy;

#[derive(Serialize, Deserialize)]
struct Inst {
    capacity: f64,
    items: Vec<f64>,
}

#[derive(Serialize, Deserialize)]
struct Sol {
    certificate: Certificate,
    pick: Option<usize>,
}

impl AsRef<Certificate> for Sol {
    fn as_ref(&self) -> &Certificate {
        &self.certificate
    }
}

#[derive(Clone, Copy, Debug)]
enum M {
    First,
    Best,
}

impl M {
    fn all() -> [M; 2] {
        [M::First, M::Best]
    }
    fn name(self) -> &'static str {
        match self {
            M::First => "first",
            M::Best => "best",
        }
    }
    fn description(self) -> &'static str {
        match self {
            M::First => "first item that fits",
            M::Best => "exact: the largest",
        }
    }
}

vcalloc::method_table!(M, all);

#[derive(Clone, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct Settings {
    /// Items below this are ignored.
    floor: f64,
}

impl Validate for Settings {
    fn validate(&self) -> std::result::Result<(), Invalid> {
        if self.floor < 0.0 {
            return Err(Invalid::new("floor", self.floor, "must be >= 0"));
        }
        Ok(())
    }
}

#[derive(Serialize, Deserialize)]
struct Spec {
    items: usize,
    seed: u64,
}

impl Validate for Spec {
    fn validate(&self) -> std::result::Result<(), Invalid> {
        Ok(())
    }
}

impl Problem for Toy {
    const NAME: &'static str = "toy";
    const TITLE: &'static str = "Toy: the largest item that fits";
    const SENSE: Sense = Sense::Maximize;
    type Instance = Inst;
    type Solution = Sol;
    type Method = M;
    type Settings = Settings;
    type Load = ();
    type Spec = Spec;
    type Memo = ();

    fn flags() -> Vec<Flag> {
        vec![
            Flag::takes(
                "floor",
                Target::Settings,
                "floor",
                "X",
                "ignore items below X",
            ),
            Flag::takes("items", Target::Spec, "items", "N", "number of items"),
        ]
    }
    fn configure(_: &mut Settings, _: &Common) {}
    fn load(path: &Path, _: &()) -> Result<Inst> {
        let text = std::fs::read_to_string(path).map_err(|source| vcalloc::Error::Io {
            path: path.into(),
            source,
        })?;
        serde_json::from_str(&text).map_err(|e| vcalloc::Error::Consistency(e.to_string()))
    }
    fn solve(inst: &Inst, m: M, s: &Settings, _: &Deadline, _: &()) -> Result<Sol> {
        let fits = |&(_, &v): &(usize, &f64)| v <= inst.capacity && v >= s.floor;
        let pick = match m {
            M::First => inst.items.iter().enumerate().find(fits),
            M::Best => inst
                .items
                .iter()
                .enumerate()
                .filter(fits)
                .max_by(|a, b| a.1.total_cmp(b.1)),
        };
        let mut certificate = Certificate::new("toy", &m.to_string(), Sense::Maximize);
        // The capacity bounds every pick; the exact method proves its own value.
        let bound = match m {
            M::Best => pick.map_or(0.0, |p| *p.1),
            M::First => inst.capacity,
        };
        match pick {
            Some((_, &v)) => certificate.scored(v, bound, 0.0),
            None if matches!(m, M::Best) => certificate.status = Status::Infeasible,
            None => {}
        }
        Ok(Sol {
            certificate,
            pick: pick.map(|p| p.0),
        })
    }
    fn verify(inst: &Inst, sol: &Sol) -> Vec<Violation> {
        let value = sol.pick.map(|i| inst.items[i]);
        let mut v = Vec::new();
        if value.is_some_and(|x| x > inst.capacity) {
            v.push(Violation {
                constraint: "capacity",
                detail: format!("{value:?} > {}", inst.capacity),
            });
        }
        if value != sol.certificate.objective {
            v.push(Violation {
                constraint: "objective",
                detail: format!(
                    "reported {:?}, recomputed {value:?}",
                    sol.certificate.objective
                ),
            });
        }
        v
    }
    fn generate(spec: &Spec) -> Result<Inst> {
        let items = (0..spec.items as u64)
            .map(|k| ((spec.seed.wrapping_mul(31) + 7 * k) % 13) as f64)
            .collect();
        Ok(Inst {
            capacity: 10.0,
            items,
        })
    }
    fn describe(inst: &Inst) -> String {
        format!("{} items", inst.items.len())
    }
    fn sweeps() -> Vec<Sweep<Spec>> {
        vec![Sweep {
            name: "toy-sweep",
            title: "five sizes",
            per_spec: 2,
            methods: vec!["first".into(), "best".into()],
            columns: vec!["items"],
            instances: |per_spec, seed| {
                let specs = (1..=5)
                    .map(|n| vcalloc::experiment::SpecEntry {
                        id: format!("n{n}"),
                        group: n,
                        params: vec![("items", n.to_string())],
                        spec: Spec { items: n, seed: 0 },
                    })
                    .collect();
                vcalloc::experiment::expand(specs, per_spec, seed, |s, seed| Spec {
                    items: s.items,
                    seed,
                })
            },
        }]
    }
}

const TOY: Registered<Toy> = Registered(std::marker::PhantomData);

#[test]
fn a_new_family_runs_through_the_generic_entry() {
    let entry: &dyn Entry = &TOY;
    let d = tempfile::tempdir().unwrap();
    let file = d.path().join("toy.json");
    std::fs::write(&file, r#"{"capacity": 10, "items": [3, 12, 9, 7]}"#).unwrap();
    let floor = entry.flags()[0];
    for (method, flags, want) in [
        ("first", vec![], 3.0),
        ("best", vec![], 9.0),
        ("first", vec![(&floor, "5")], 9.0),
    ] {
        let a = entry
            .solve(&SolveRequest {
                file: &file,
                method,
                settings: None,
                flags: &flags,
                common: Common::default(),
                time_limit: Some(5.0),
            })
            .unwrap();
        assert_eq!(a.certificate.objective, Some(want), "{method}");
        // The written solution re-checks through the same entry.
        let sol = d.path().join("sol.json");
        std::fs::write(&sol, &a.json).unwrap();
        let violations = entry
            .verify(&file, &sol, &[], vcalloc::problem::Depth::shallow())
            .unwrap()
            .violations;
        assert!(violations.is_empty(), "{violations:?}");
    }
    let err = entry
        .solve(&SolveRequest {
            file: &file,
            method: "best",
            settings: None,
            flags: &[(&floor, "-1")],
            common: Common::default(),
            time_limit: None,
        })
        .unwrap_err()
        .to_string();
    assert!(err.contains("--floor") && err.contains(">= 0"), "{err}");
    // A doctored solution is caught.
    let sol = d.path().join("bad.json");
    std::fs::write(
        &sol,
        r#"{"certificate": {"problem": "toy", "method": "best", "status": "optimal",
            "sense": "maximize", "objective": 12, "bound": 12, "gap": 0, "seconds": 0},
            "pick": 1}"#,
    )
    .unwrap();
    let violations = entry
        .verify(&file, &sol, &[], vcalloc::problem::Depth::shallow())
        .unwrap()
        .violations;
    assert_eq!(violations.len(), 1);
}

#[test]
fn a_new_family_sweeps_and_bounds_hold() {
    let entry: &dyn Entry = &TOY;
    let refs = entry.sweep_instances("toy-sweep", 2, 7);
    assert_eq!(refs.len(), 10);
    let methods = ["first".to_string(), "best".to_string()];
    for r in &refs {
        let (_, runs) = entry
            .run_instance(r, &methods, None, &Common::default(), None)
            .unwrap();
        let first = runs[0].as_ref().unwrap();
        let best = runs[1].as_ref().unwrap();
        // The heuristic is never better than the exact method, and its bound is valid.
        if let (Some(h), Some(b)) = (first.0.objective, best.0.objective) {
            assert!(h <= b && first.0.bound.unwrap() >= b);
        }
    }
    // Same seed, same instances.
    assert_eq!(refs, entry.sweep_instances("toy-sweep", 2, 7));
}
