//! The bodies of the fuzz targets, shared by the cargo-fuzz binaries (`fuzz_targets/`,
//! libFuzzer on nightly) and the stable driver (`stable/`). Each asserts what every parser
//! owes its caller: an instance or an input error that names the file and says why — never a
//! panic (libFuzzer or the driver reports it), never a hang (`-timeout`, or the driver's).
#![allow(dead_code)]

use std::path::Path;
use vcalloc::{Error, Problem};

/// The input as text, as `read_text` would give it (non-UTF-8 files are a clean error there).
pub fn text(data: &[u8]) -> Option<&str> {
    std::str::from_utf8(data).ok()
}

/// An `Ok` or an input error naming `file` with a reason; anything else is a finding.
pub fn clean<T>(r: vcalloc::Result<T>, file: &Path) -> Option<T> {
    match r {
        Ok(t) => Some(t),
        Err(Error::Input(e)) => {
            assert_eq!(e.file, file, "the error names another file: {e}");
            assert!(!e.reason.is_empty(), "an error without a reason: {e:?}");
            None
        }
        Err(other) => panic!("bad input gave a non-input error: {other}"),
    }
}

/// BPPLIB `.txt`, as bin packing reads it and as the periodic family reads it (equal weights
/// merged into jobs).
pub fn bpplib_txt(data: &[u8]) {
    let Some(text) = text(data) else { return };
    let file = Path::new("fuzz.txt");
    clean(vcalloc::binpacking::Instance::from_text(text, file), file);
    clean(vcalloc::periodic::Instance::from_bpplib(text, file), file);
}

/// SOC bin packing `.cbp` (`vcalloc solve socbp d_72_100_0.6_a.cbp`).
pub fn cbp(data: &[u8]) {
    let Some(text) = text(data) else { return };
    let file = Path::new("fuzz.cbp");
    clean(vcalloc::socbp::Instance::from_text(text, file), file);
}

/// Evolving-applications instance JSON.
pub fn evolving_json(data: &[u8]) {
    let Some(text) = text(data) else { return };
    let file = Path::new("fuzz.json");
    clean(vcalloc::evolving::Instance::from_json(text, file), file);
}

/// Market: the rebalance instance JSON and the scenario of `vcalloc simulate rebalance`.
pub fn market_json(data: &[u8]) {
    let Some(text) = text(data) else { return };
    let file = Path::new("fuzz.json");
    clean(vcalloc::market::Instance::from_json(text, file), file);
    clean(vcalloc::market::Scenario::from_json(text, file), file);
}

/// The JSON instances of bin packing and SOC bin packing.
pub fn packing_json(data: &[u8]) {
    let Some(text) = text(data) else { return };
    let file = Path::new("fuzz.json");
    clean(vcalloc::binpacking::Instance::from_text(text, file), file);
    clean(vcalloc::socbp::Instance::from_text(text, file), file);
}

/// PC/EC: the instance JSON and the PM description of `vcalloc capacity pcec`.
pub fn pcec_json(data: &[u8]) {
    let Some(text) = text(data) else { return };
    let file = Path::new("fuzz.json");
    clean(vcalloc::pcec::Instance::from_json(text, file), file);
    clean(vcalloc::pcec::PmDescription::from_json(text, file), file);
}

/// Periodic-demand instance JSON (`vcalloc solve periodic inst.json`).
pub fn periodic_json(data: &[u8]) {
    let Some(text) = text(data) else { return };
    let file = Path::new("fuzz.json");
    clean(vcalloc::periodic::Instance::from_json(text, file), file);
}

/// Settings files (`--settings FILE`), JSON and TOML, read as every family's settings:
/// decoded and validated, or an error naming the file and the key.
pub fn settings(data: &[u8]) {
    let Some(text) = text(data) else { return };
    check_settings::<vcalloc::vcsched::VcSched>(text);
    check_settings::<vcalloc::periodic::Periodic>(text);
    check_settings::<vcalloc::evolving::Evolving>(text);
    check_settings::<vcalloc::pcec::Pcec>(text);
    check_settings::<vcalloc::market::Rebalance>(text);
    check_settings::<vcalloc::binpacking::BinPacking>(text);
    check_settings::<vcalloc::socbp::SocPacking>(text);
}

/// Solution JSON for `vcalloc verify`: read as every family's solution and, when it reads,
/// re-checked against that family's fixture instance. `verify` must report violations, not
/// panic, whatever the numbers.
pub fn solution_json(data: &[u8]) {
    check_solution::<vcalloc::vcsched::VcSched>(include_str!("../fixtures/vcsched.json"), data);
    check_solution::<vcalloc::periodic::Periodic>(include_str!("../fixtures/periodic.json"), data);
    check_solution::<vcalloc::evolving::Evolving>(include_str!("../fixtures/evolving.json"), data);
    check_solution::<vcalloc::pcec::Pcec>(include_str!("../fixtures/pcec.json"), data);
    check_solution::<vcalloc::market::Rebalance>(include_str!("../fixtures/rebalance.json"), data);
    check_solution::<vcalloc::binpacking::BinPacking>(
        include_str!("../fixtures/binpacking.json"),
        data,
    );
    check_solution::<vcalloc::socbp::SocPacking>(include_str!("../fixtures/socbp.json"), data);
}

/// SWF traces: the PC/EC reader (bytes, as from a file or a gzip stream) with the instance
/// built from it, and the market family's reader.
pub fn swf(data: &[u8]) {
    let file = Path::new("fuzz.swf");
    for max_jobs in [None, Some(3)] {
        let opts = vcalloc::pcec::swf::SwfOptions {
            serial_only: max_jobs.is_none(),
            max_jobs,
        };
        if let Some(trace) = clean(vcalloc::pcec::swf::parse_swf(data, file, &opts), file) {
            let vm = Default::default();
            clean(
                vcalloc::pcec::Instance::from_trace(trace, file, 2, 2, vm),
                file,
            );
        }
    }
    if let Some(text) = text(data) {
        clean(vcalloc::market::swf::parse_swf(text, file), file);
    }
}

/// VPSolver `.vbp` (`vcalloc solve binpacking CL_1_25_1.vbp`).
pub fn vbp(data: &[u8]) {
    let Some(text) = text(data) else { return };
    let file = Path::new("fuzz.vbp");
    clean(vcalloc::binpacking::Instance::from_text(text, file), file);
}

/// VCSched instance CSV (`vcalloc solve vcsched jobs.csv --hosts H`), with 0 to 3 hosts.
pub fn vcsched_csv(data: &[u8]) {
    let Some(text) = text(data) else { return };
    let file = Path::new("fuzz.csv");
    let hosts = text.len() % 4;
    clean(
        vcalloc::vcsched::Instance::from_csv(text, hosts, file),
        file,
    );
}

/// VCSched instance JSON (`vcalloc solve vcsched jobs.json`).
pub fn vcsched_json(data: &[u8]) {
    let Some(text) = text(data) else { return };
    let file = Path::new("fuzz.json");
    clean(vcalloc::vcsched::Instance::from_json(text, file), file);
}

fn check_solution<P: Fixture>(inst_text: &str, data: &[u8]) {
    let inst = P::load_text(inst_text);
    if let Ok(sol) = serde_json::from_slice::<P::Solution>(data) {
        let _ = P::verify(&inst, &sol);
    }
}

/// The fixture instance of a family, parsed as the CLI would.
trait Fixture: Problem {
    fn load_text(text: &str) -> Self::Instance;
}

macro_rules! fixture {
    ($p:ty, $parse:expr) => {
        impl Fixture for $p {
            fn load_text(text: &str) -> Self::Instance {
                $parse(text, Path::new("fixture.json")).expect("the fixture parses")
            }
        }
    };
}
fixture!(
    vcalloc::vcsched::VcSched,
    vcalloc::vcsched::Instance::from_json
);
fixture!(
    vcalloc::periodic::Periodic,
    vcalloc::periodic::Instance::from_json
);
fixture!(
    vcalloc::evolving::Evolving,
    vcalloc::evolving::Instance::from_json
);
fixture!(vcalloc::pcec::Pcec, vcalloc::pcec::Instance::from_json);
fixture!(
    vcalloc::market::Rebalance,
    vcalloc::market::Instance::from_json
);
fixture!(
    vcalloc::binpacking::BinPacking,
    vcalloc::binpacking::Instance::from_text
);
fixture!(
    vcalloc::socbp::SocPacking,
    vcalloc::socbp::Instance::from_text
);

fn check_settings<P: Problem>(text: &str) {
    for name in ["fuzz.json", "fuzz.toml"] {
        let file = Path::new(name);
        clean(
            vcalloc::problem::settings_of_text::<P::Settings>(text, file),
            file,
        );
    }
}

/// Every target by name.
pub const ALL: &[(&str, fn(&[u8]))] = &[
    ("bpplib_txt", bpplib_txt),
    ("cbp", cbp),
    ("evolving_json", evolving_json),
    ("market_json", market_json),
    ("packing_json", packing_json),
    ("pcec_json", pcec_json),
    ("periodic_json", periodic_json),
    ("settings", settings),
    ("solution_json", solution_json),
    ("swf", swf),
    ("vbp", vbp),
    ("vcsched_csv", vcsched_csv),
    ("vcsched_json", vcsched_json),
];
