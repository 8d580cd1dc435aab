//! The SOC-capacity bin-packing commands through the real binary: every method on the
//! CloudSmall instance in `data/cbp/` and on JSON, solve → verify, `bp` at the published
//! optimum, and bad input (exit code 2, the file, the line or field, the value, the reason).

use crate::common;

use common::{expect_input_error, vcalloc, write};
use std::path::Path;

fn solve(file: &str, method: &str, out: &Path) -> serde_json::Value {
    let o = vcalloc(&[
        "solve",
        "socbp",
        file,
        "--method",
        method,
        "--time-limit",
        "60",
        "--output",
        out.to_str().unwrap(),
    ]);
    assert!(
        o.status.success(),
        "{file} {method}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let v = vcalloc(&["verify", file, out.to_str().unwrap()]);
    assert!(
        v.status.success(),
        "{file} {method}: {}",
        String::from_utf8_lossy(&v.stdout)
    );
    serde_json::from_str(&std::fs::read_to_string(out).unwrap()).unwrap()
}

#[test]
fn every_method_verifies_and_bp_proves_the_published_optimum() {
    let d = tempfile::tempdir().unwrap();
    let json = write(
        &d,
        "p.json",
        r#"{"capacity": 10, "d": 1.0, "a": [4, 3, 3, 2, 5, 1], "b": [1, 4, 0, 2, 1, 9]}"#,
    );
    for (file, optimum) in [
        ("data/cbp/d_72_100_0.6_a.cbp", Some(8.0)),
        (json.to_str().unwrap(), None),
    ] {
        for m in ["ffd", "bfd", "cg", "bp"] {
            let sol = solve(file, m, &d.path().join(format!("{m}.json")));
            let c = &sol["certificate"];
            let (obj, bound) = (
                c["objective"].as_f64().unwrap(),
                c["bound"].as_f64().unwrap(),
            );
            assert!(bound <= obj, "{file} {m}");
            if let Some(opt) = optimum {
                assert!(obj >= opt && bound <= opt, "{file} {m}: {obj} / {bound}");
            }
            if m == "bp" {
                assert_eq!(c["status"], "optimal", "{file}");
                if let Some(opt) = optimum {
                    assert_eq!(obj, opt, "{file}");
                }
            }
        }
    }
}

fn rejects(name: &str, text: &str, fragments: &[&str]) {
    let d = tempfile::tempdir().unwrap();
    let f = write(&d, name, text);
    let mut all = vec![name];
    all.extend_from_slice(fragments);
    expect_input_error(
        &["solve", "socbp", f.to_str().unwrap(), "--method", "ffd"],
        &all,
    );
}

#[test]
fn malformed_cbp_and_json() {
    rejects(
        "a.cbp",
        "d 72 3 0.6\n1\n1 2 3\n",
        &["ends before the b line"],
    );
    rejects(
        "b.cbp",
        "d 72 3 0.6\n1\n1 2 x\n1 2 3\n",
        &["line 3", "`x`", "not a finite number"],
    );
    rejects(
        "c.cbp",
        "d 72 3 0.6\n-2\n1 2 3\n1 2 3\n",
        &["line 2", "`-2`"],
    );
    rejects(
        "d.cbp",
        "d 72 3 0.6\n1\n1 2 3 4\n1 2 3\n",
        &["line 3", "3 terms"],
    );
    rejects(
        "e.cbp",
        "d 72 2 0.6\n2\n71 1\n4 1\n",
        &["a[0]", "capacity 72"],
    );
    rejects(
        "f.json",
        r#"{"capacity": 10, "d": 1, "a": [1, 2], "b": [1]}"#,
        &["`b`", "one term per item"],
    );
    rejects(
        "g.json",
        r#"{"capacity": 10, "d": 1, "a": [1, -2], "b": [1, 1]}"#,
        &["a[1]", "≥ 0"],
    );
}

#[test]
fn generated_cloud_instance_solves_and_verifies() {
    let d = tempfile::tempdir().unwrap();
    // `generate socbp FLAGS --output path`; the file's text.
    let gen = |flags: &str, path: &Path| {
        let mut args = vec!["generate", "socbp"];
        args.extend(flags.split_whitespace());
        args.extend(["--output", path.to_str().unwrap()]);
        let o = vcalloc(&args);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        std::fs::read_to_string(path).unwrap()
    };
    let flags = "--type d --alpha 0.9 --items 400 --seed 3";
    let inst = d.path().join("d_72_400_0.9_3.cbp");
    let text = gen(flags, &inst);
    assert!(text.starts_with("d 72 400 0.9\n"), "{}", &text[..40]);
    assert_eq!(text.lines().count(), 4);
    let again = gen(flags, &d.path().join("again.cbp"));
    assert_eq!(again, text, "same seed, same bits");
    let sol = solve(inst.to_str().unwrap(), "ffd", &d.path().join("ffd.json"));
    assert!(sol["certificate"]["objective"].as_f64().unwrap() >= 1.0);
    // JSON when the file ends in .json.
    let json = gen("--type g --items 20 --seed 1", &d.path().join("g.json"));
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["a"].as_array().unwrap().len(), 20);
}

#[test]
fn generate_rejects_bad_alpha_and_type() {
    let gen = |extra: &[&str], fragments: &[&str]| {
        let mut args = vec!["generate", "socbp", "--seed", "1"];
        args.extend_from_slice(extra);
        expect_input_error(&args, fragments);
    };
    gen(
        &["--type", "d", "--alpha", "1.5"],
        &["--alpha", "1.5", "(0, 1)"],
    );
    gen(&["--type", "g", "--alpha", "0.3"], &["--alpha", "0.3"]);
    gen(&["--alpha", "0.9"], &["--alpha", "--type"]);
    gen(&["--type", "x"], &["--type", "`x`"]);
    gen(&["--type", "h", "--d", "2"], &["--d", "--alpha"]);
    gen(&["--type", "h", "--items", "0"], &["--items", "0"]);
}
