//! Issue 37: every bound carries a proof that `verify` re-derives or labels. Every method of
//! every family passes `verify` (no false rejection) and `verify --strict --deep` unless its
//! bound is a solver's claim; hand-edited answers of every family are rejected.

use crate::common;

use common::{vcalloc, vcalloc_ok};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The instance of each family the tests solve: a file of `data/examples/`, or one generated.
fn instances(dir: &Path) -> Vec<(&'static str, PathBuf)> {
    let ex = |f: &str| {
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("data/examples")
            .join(f)
    };
    let gen = |name: &str, args: &[&str]| {
        let p = dir.join(name);
        let mut a = vec!["generate"];
        a.extend_from_slice(args);
        a.extend_from_slice(&["--output", p.to_str().unwrap(), "-q"]);
        vcalloc_ok(&a);
        p
    };
    let vcsched = gen(
        "vcsched.json",
        &[
            "vcsched", "--seed", "5", "--hosts", "4", "--jobs", "8", "--slack", "0.2", "--cv-mem",
            "0.5", "--cv-cpu", "0.5",
        ],
    );
    let bins = gen("bins.json", &["binpacking", "--seed", "8", "--items", "30"]);
    let evolving = dir.join("evolving.json");
    common::small_evolving_instance(evolving.to_str().unwrap());
    let rebalance = dir.join("rebalance.json");
    common::small_rebalance_instance(rebalance.to_str().unwrap());
    vec![
        ("vcsched", vcsched),
        ("periodic", ex("periodic.json")),
        ("evolving", evolving),
        ("pcec", ex("pcec.json")),
        ("rebalance", rebalance),
        ("binpacking", bins),
        ("binpacking", ex("vbp.json")),
        ("socbp", ex("socbp.json")),
    ]
}

/// The methods of a family, from `vcalloc methods`.
fn methods(problem: &str) -> Vec<String> {
    let out = vcalloc_ok(&["methods", problem]);
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    let block = text
        .split("  methods:")
        .nth(1)
        .expect("a methods block")
        .split("  options")
        .next()
        .unwrap()
        .to_string();
    block
        .lines()
        .filter_map(|l| l.strip_prefix("    "))
        .filter(|l| !l.starts_with(' '))
        .filter_map(|l| l.split_whitespace().next())
        .map(String::from)
        .collect()
}

fn solve(problem: &str, inst: &Path, method: &str, out: &Path) {
    vcalloc_ok(&[
        "solve",
        problem,
        inst.to_str().unwrap(),
        "--method",
        method,
        "--time-limit",
        "20",
        "--output",
        out.to_str().unwrap(),
        "-q",
    ]);
}

fn verify(inst: &Path, sol: &Path, extra: &[&str]) -> (Option<i32>, String) {
    let mut args = vec!["verify", inst.to_str().unwrap(), sol.to_str().unwrap()];
    args.extend_from_slice(extra);
    let out = vcalloc(&args);
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!text.contains("panicked"), "{text}");
    (out.status.code(), text)
}

fn edit(sol: &Path, to: &Path, f: impl FnOnce(&mut Value)) {
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(sol).unwrap()).unwrap();
    f(&mut v);
    std::fs::write(to, serde_json::to_string_pretty(&v).unwrap()).unwrap();
}

/// Claims `optimal` with the bound at the objective (a consistent certificate).
fn claim_optimal(v: &mut Value) {
    let c = &mut v["certificate"];
    c["status"] = "optimal".into();
    c["bound"] = c["objective"].clone();
    c["gap"] = 0.0.into();
}

#[test]
fn every_method_passes_verify_and_strict_unless_its_bound_is_a_solvers_claim() {
    let dir = tempfile::tempdir().unwrap();
    let mut checked = 0;
    for (problem, inst) in instances(dir.path()) {
        for m in methods(problem) {
            if problem == "vcsched" && m == "adapt" {
                continue; // an adaptation needs current hosts
            }
            let sol = dir.path().join(format!("{problem}-{m}.sol.json"));
            if problem == "rebalance" && m == "brute" {
                // Refused on anything but the tiniest instance (too many placements).
                let out = vcalloc(&["solve", problem, inst.to_str().unwrap(), "--method", &m]);
                if out.status.code() == Some(2) {
                    continue;
                }
            }
            solve(problem, &inst, &m, &sol);
            let (code, text) = verify(&inst, &sol, &[]);
            assert_eq!(code, Some(0), "{problem} {m}: {text}");
            let (code, text) = verify(&inst, &sol, &["--strict", "--deep"]);
            // PC/EC and rebalance re-derive every bound (the fluid LP's duals, the exact
            // search as a second method for the MILP's): no claim is left.
            let claimed =
                text.contains("claimed by solver") && !["pcec", "rebalance"].contains(&problem);
            assert!(
                code == Some(0) || claimed,
                "{problem} {m}: strict rejected a checkable proof: {text}"
            );
            if code == Some(0) {
                checked += 1;
            }
            // An answer written before proofs existed still reads, as unproven.
            let old = dir.path().join("old.json");
            edit(&sol, &old, |v| {
                v["certificate"].as_object_mut().unwrap().remove("proof");
            });
            let (code, text) = verify(&inst, &old, &[]);
            assert_eq!(code, Some(0), "{problem} {m} without a proof: {text}");
        }
    }
    assert!(checked > 30, "only {checked} answers passed --strict");
}

/// A heuristic's answer claimed `optimal` with bound = objective: its closed-form proof
/// re-derives a smaller bound (exit 1 always); without a proof, `--strict` refuses it.
#[test]
fn heuristic_answers_claimed_optimal_are_rejected_in_every_family() {
    let dir = tempfile::tempdir().unwrap();
    let all = instances(dir.path());
    // FFD packs 5, 4, 4, 3, 2, 2 in bins of 10 into three bins; two suffice.
    let crafted = common::write(
        &dir,
        "ffd3.json",
        r#"{"capacity": 10, "weights": [5, 4, 4, 3, 2, 2]}"#,
    );
    // A VCSched heuristic below the optimum (exact's).
    let vc = &all[0].1;
    let exact = dir.path().join("exact.json");
    solve("vcsched", vc, "exact", &exact);
    let opt = serde_json::from_str::<Value>(&std::fs::read_to_string(&exact).unwrap()).unwrap()
        ["certificate"]["objective"]
        .as_f64()
        .unwrap();
    let below = [
        "gr", "sg", "gb", "sgb", "mcb1", "mcb2", "mcb3", "mcb4", "mcb8",
    ]
    .into_iter()
    .find(|m| {
        let p = dir.path().join("h.json");
        solve("vcsched", vc, m, &p);
        let v: Value = serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap();
        v["certificate"]["objective"]
            .as_f64()
            .is_some_and(|y| y < opt - 1e-6)
    })
    .expect("a heuristic below the optimum");
    let cases = [
        ("vcsched", below),
        ("periodic", "bfd"),
        ("evolving", "rigid"),
        ("pcec", "ec"),
        ("rebalance", "keep"),
        ("binpacking", "ffd"),
        ("socbp", "ffd"),
    ];
    for (problem, method) in cases {
        let inst = if problem == "binpacking" {
            &crafted
        } else {
            &all.iter().find(|(p, _)| *p == problem).unwrap().1
        };
        let sol = dir.path().join(format!("{problem}.sol.json"));
        solve(problem, inst, method, &sol);
        let v: Value = serde_json::from_str(&std::fs::read_to_string(&sol).unwrap()).unwrap();
        let c = &v["certificate"];
        assert_ne!(
            c["status"], "optimal",
            "{problem} {method}: pick a non-optimal case"
        );
        assert_eq!(c["proof"]["kind"], "closed-form", "{problem} {method}");
        let bad = dir.path().join("bad.json");
        edit(&sol, &bad, claim_optimal);
        let (code, text) = verify(inst, &bad, &[]);
        assert_eq!(code, Some(1), "{problem} {method}: {text}");
        assert!(text.contains("bound-proof"), "{problem} {method}: {text}");
        // The proof removed: plain verify cannot tell, --strict refuses the claim.
        edit(&sol, &bad, |v| {
            claim_optimal(v);
            v["certificate"].as_object_mut().unwrap().remove("proof");
        });
        let (code, text) = verify(inst, &bad, &["--strict"]);
        assert_eq!(code, Some(1), "{problem} {method}: {text}");
        assert!(text.contains("strict:"), "{problem} {method}: {text}");
    }
}

/// An FFD packing relabelled `bp` and claimed optimal, with a forged search or pricing proof.
#[test]
fn forged_proofs_of_a_packing_are_rejected() {
    let dir = tempfile::tempdir().unwrap();
    // FFD: three bins; the optimum: two.
    let inst = common::write(
        &dir,
        "ffd3.json",
        r#"{"capacity": 10, "weights": [5, 4, 4, 3, 2, 2]}"#,
    );
    let sol = dir.path().join("ffd.json");
    solve("binpacking", &inst, "ffd", &sol);
    let n = 6;
    let bad = dir.path().join("bad.json");
    // A forged search proof: claimed, refused by --strict; --deep re-runs the search, which
    // reaches the true optimum only.
    edit(&sol, &bad, |v| {
        claim_optimal(v);
        v["certificate"]["method"] = "bp".into();
        v["certificate"]["proof"] =
            serde_json::json!({"kind": "search", "nodes": 1, "summary": "trust me"});
    });
    let (code, text) = verify(&inst, &bad, &["--strict"]);
    assert_eq!(code, Some(1), "{text}");
    let (code, text) = verify(&inst, &bad, &["--strict", "--deep", "--deep-seconds", "10"]);
    assert_eq!(code, Some(1), "{text}");
    // Doctored duals: all ones with one inflated — the best bin is worth more, the bound falls.
    let mut duals = vec![1.0; n];
    duals[0] = 100.0;
    edit(&sol, &bad, |v| {
        claim_optimal(v);
        v["certificate"]["method"] = "bp".into();
        v["certificate"]["proof"] =
            serde_json::json!({"kind": "pricing", "duals": duals, "best": 1.0});
    });
    let (code, text) = verify(&inst, &bad, &[]);
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("pricing proof gives"), "{text}");
    // Duals for another instance.
    edit(&sol, &bad, |v| {
        claim_optimal(v);
        v["certificate"]["proof"] =
            serde_json::json!({"kind": "pricing", "duals": [1.0], "best": 1.0});
    });
    let (code, text) = verify(&inst, &bad, &[]);
    assert_eq!(code, Some(1), "{text}");
    // A bad --deep-seconds is bad input.
    common::expect_input_error(
        &[
            "verify",
            inst.to_str().unwrap(),
            sol.to_str().unwrap(),
            "--deep-seconds",
            "-3",
        ],
        &["--deep-seconds"],
    );
}

/// A periodic column-generation answer whose bound rests on the root's duals: verify
/// re-proves it; doctored duals give a smaller bound and the answer is rejected.
#[test]
fn a_periodic_pricing_proof_is_re_derived_and_doctored_duals_are_rejected() {
    let dir = tempfile::tempdir().unwrap();
    let inst = dir.path().join("p.json");
    vcalloc_ok(&[
        "generate",
        "periodic",
        "--seed",
        "1",
        "--tasks",
        "large",
        "--amplitude",
        "large",
        "--output",
        inst.to_str().unwrap(),
        "-q",
    ]);
    let sol = dir.path().join("cg.json");
    solve("periodic", &inst, "cg", &sol);
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&sol).unwrap()).unwrap();
    assert_eq!(v["certificate"]["proof"]["kind"], "pricing", "{v:#}");
    let (code, text) = verify(&inst, &sol, &["--strict"]);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("bound checked (pricing)"), "{text}");
    let bad = dir.path().join("bad.json");
    edit(&sol, &bad, |v| {
        let d = v["certificate"]["proof"]["duals"].as_array_mut().unwrap();
        let top = d.iter().map(|x| x.as_f64().unwrap()).fold(0.0, f64::max);
        d[0] = (10.0 * top + 1.0).into();
    });
    let (code, text) = verify(&inst, &bad, &[]);
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("bound-proof"), "{text}");
}

/// A PC/EC answer's bound rests on the fluid LP's duals (`dual`, `fluid-lp`): verify re-derives
/// it from the instance and the duals; scaled duals, duals of the wrong length and an
/// `optimal` claim are rejected.
#[test]
fn a_pcec_fluid_proof_is_re_derived_and_doctored_duals_are_rejected() {
    let dir = tempfile::tempdir().unwrap();
    let inst = dir.path().join("pcec.json");
    vcalloc_ok(&[
        "generate",
        "pcec",
        "--pms",
        "1",
        "--vms-per-pm",
        "2",
        "--jobs",
        "8",
        "--mean-interarrival",
        "5",
        "--seed",
        "1",
        "--output",
        inst.to_str().unwrap(),
        "-q",
    ]);
    for method in ["pc", "ec", "ec-lb", "enumerate"] {
        let sol = dir.path().join(format!("{method}.json"));
        solve("pcec", &inst, method, &sol);
        let v: Value = serde_json::from_str(&std::fs::read_to_string(&sol).unwrap()).unwrap();
        let c = &v["certificate"];
        assert_eq!(c["proof"]["kind"], "dual", "{method}: {v:#}");
        assert_eq!(c["proof"]["lp"], "fluid-lp", "{method}");
        assert!(
            c["stats"]["fluid_bound"].as_f64().unwrap() > 1.0,
            "{method}: {c:#}"
        );
        let (code, text) = verify(&inst, &sol, &["--strict"]);
        assert_eq!(code, Some(0), "{method}: {text}");
        assert!(text.contains("bound checked (dual)"), "{method}: {text}");
    }
    let sol = dir.path().join("pc.json");
    let bad = dir.path().join("bad.json");
    for scale in [0.5, 3.0, -1.0] {
        edit(&sol, &bad, |v| {
            for d in v["certificate"]["proof"]["duals"].as_array_mut().unwrap() {
                *d = (d.as_f64().unwrap() * scale).into();
            }
        });
        let (code, text) = verify(&inst, &bad, &[]);
        assert_eq!(code, Some(1), "×{scale}: {text}");
        assert!(text.contains("bound-proof"), "×{scale}: {text}");
    }
    edit(&sol, &bad, |v| {
        v["certificate"]["proof"]["duals"]
            .as_array_mut()
            .unwrap()
            .pop();
    });
    let (code, text) = verify(&inst, &bad, &[]);
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("dual values"), "{text}");
    // The duals kept, the answer claimed optimal: they prove less.
    edit(&sol, &bad, claim_optimal);
    let (code, text) = verify(&inst, &bad, &[]);
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("the dual proof gives"), "{text}");
    // --lower-bound closed-form: the old certificate, checked in closed form.
    let closed = dir.path().join("closed.json");
    vcalloc_ok(&[
        "solve",
        "pcec",
        inst.to_str().unwrap(),
        "--method",
        "pc",
        "--lower-bound",
        "closed-form",
        "--output",
        closed.to_str().unwrap(),
        "-q",
    ]);
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&closed).unwrap()).unwrap();
    assert_eq!(v["certificate"]["proof"]["kind"], "closed-form");
}

/// A rebalance `milp` answer: HiGHS's bound is re-derived by the exact search (a second exact
/// method) in plain `verify`, so `--strict` accepts it.
#[test]
fn a_rebalance_milp_bound_is_re_derived_by_the_search() {
    let dir = tempfile::tempdir().unwrap();
    let inst = dir.path().join("rebalance.json");
    common::small_rebalance_instance(inst.to_str().unwrap());
    for method in ["milp", "exact"] {
        let sol = dir.path().join(format!("{method}.json"));
        solve("rebalance", &inst, method, &sol);
        let (code, text) = verify(&inst, &sol, &["--strict"]);
        assert_eq!(code, Some(0), "{method}: {text}");
        assert!(
            text.contains("bound checked (search)") || text.contains("bound checked (closed form)"),
            "{method}: {text}"
        );
    }
}

/// A packing bound proved by a subset-row cut round (`pricing` with `cuts`): five items of 4 in
/// bins of 10 need three bins while volume and L2 give two; item duals ½ and a cut over the
/// first three items at −0.1 prove `(2.5 − 0.1) / 1 = 2.4`, so three. Verify re-proves the best
/// bin under the cut duals; a five-row cut's proof too; doctored cut duals and malformed rows
/// are rejected.
#[test]
fn a_cut_pricing_proof_is_re_derived_and_doctored_cuts_are_rejected() {
    let dir = tempfile::tempdir().unwrap();
    let inst = common::write(
        &dir,
        "fives.json",
        r#"{"capacity": 10, "weights": [4, 4, 4, 4, 4]}"#,
    );
    let sol = dir.path().join("ffd.json");
    solve("binpacking", &inst, "ffd", &sol);
    let with = |cuts: serde_json::Value| {
        move |v: &mut Value| {
            claim_optimal(v);
            v["certificate"]["method"] = "bp".into();
            v["certificate"]["proof"] = serde_json::json!({
                "kind": "pricing", "duals": [0.5, 0.5, 0.5, 0.5, 0.5], "best": 1.0, "cuts": cuts
            });
        }
    };
    let good = dir.path().join("good.json");
    edit(
        &sol,
        &good,
        with(serde_json::json!([{"rows": [0, 1, 2], "dual": -0.1}])),
    );
    let (code, text) = verify(&inst, &good, &["--strict"]);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("bound checked (pricing)"), "{text}");
    // A five-row cut over all five items (right-hand side 2): (2.5 + 2·(−0.1)) / 1 = 2.3.
    edit(
        &sol,
        &good,
        with(serde_json::json!([{"rows": [0, 1, 2, 3, 4], "dual": -0.1}])),
    );
    let (code, text) = verify(&inst, &good, &["--strict"]);
    assert_eq!(code, Some(0), "{text}");
    let bad = dir.path().join("bad.json");
    for (cuts, says) in [
        // The cut's dual too negative: (2.5 − 0.6) / 1 = 1.9, two bins only.
        (
            serde_json::json!([{"rows": [0, 1, 2], "dual": -0.6}]),
            "pricing proof gives",
        ),
        // Five rows at −0.3: (2.5 − 2·0.3) / 1 = 1.9.
        (
            serde_json::json!([{"rows": [0, 1, 2, 3, 4], "dual": -0.3}]),
            "pricing proof gives",
        ),
        (
            serde_json::json!([{"rows": [0, 0, 2], "dual": -0.1}]),
            "increasing items",
        ),
        (
            serde_json::json!([{"rows": [0, 1, 5], "dual": -0.1}]),
            "increasing items",
        ),
    ] {
        edit(&sol, &bad, with(cuts.clone()));
        let (code, text) = verify(&inst, &bad, &[]);
        assert_eq!(code, Some(1), "{cuts}: {text}");
        assert!(text.contains(says), "{cuts}: {text}");
    }
}

/// Issue 37: `lp-bound` on a budgeted adaptation (budget 0: the LP bound falls below both
/// closed forms) carries the relaxation's `dual` proof, which `verify --strict` re-derives;
/// the duals scaled, one short, sign-flipped or named for another LP are rejected
/// (`bound-proof`, exit 1).
#[test]
fn the_budgeted_lp_bounds_dual_proof_is_re_derived_and_tampering_rejected() {
    let dir = tempfile::tempdir().unwrap();
    let inst = dir.path().join("adapt.json");
    let args = "generate vcsched --seed 3 --hosts 4 --jobs 8 --slack 0.3 --cv-mem 0.5 \
                --cv-cpu 0.5 --adaptation 0 -q --output";
    let mut args: Vec<&str> = args.split_whitespace().collect();
    args.push(inst.to_str().unwrap());
    vcalloc_ok(&args);
    let sol = dir.path().join("lp.json");
    solve("vcsched", &inst, "lp-bound", &sol);
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&sol).unwrap()).unwrap();
    let c = &v["certificate"];
    assert_eq!(c["proof"]["kind"], "dual", "{c}");
    assert_eq!(c["proof"]["lp"], "vcsched-lp", "{c}");
    let closed = c["stats"]["lp_closed_form"].as_f64().unwrap();
    let bound = c["bound"].as_f64().unwrap();
    assert!(
        bound < closed - 1e-3,
        "the budget binds: {bound} vs {closed}"
    );
    let (code, text) = verify(&inst, &sol, &["--strict"]);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("bound checked (dual)"), "{text}");
    let bad = dir.path().join("bad.json");
    type Tamper = fn(&mut Vec<Value>);
    let tamper: [(&str, Tamper); 5] = [
        ("scaled by 2", |d| {
            d.iter_mut()
                .for_each(|x| *x = (2.0 * x.as_f64().unwrap()).into())
        }),
        ("halved", |d| {
            d.iter_mut()
                .for_each(|x| *x = (0.5 * x.as_f64().unwrap()).into())
        }),
        ("one short", |d| {
            d.pop();
        }),
        ("signs flipped", |d| {
            d.iter_mut()
                .for_each(|x| *x = (-x.as_f64().unwrap()).into())
        }),
        ("zeros", |d| d.iter_mut().for_each(|x| *x = 0.0.into())),
    ];
    for (what, f) in tamper {
        edit(&sol, &bad, |v| {
            f(v["certificate"]["proof"]["duals"].as_array_mut().unwrap())
        });
        let (code, text) = verify(&inst, &bad, &[]);
        assert_eq!(code, Some(1), "{what}: {text}");
        assert!(text.contains("bound-proof"), "{what}: {text}");
    }
    edit(&sol, &bad, |v| {
        v["certificate"]["proof"]["lp"] = "fluid-lp".into()
    });
    let (code, text) = verify(&inst, &bad, &["--strict"]);
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("vcsched-lp"), "{text}");
    // The bound lowered below what the duals prove: refuted too.
    edit(&sol, &bad, |v| {
        v["certificate"]["bound"] = (bound * 0.99).into()
    });
    let (code, text) = verify(&inst, &bad, &[]);
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("bound-proof"), "{text}");
}
