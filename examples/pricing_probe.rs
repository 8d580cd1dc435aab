//! Pricing probe: runs column generation on one periodic instance for at most S seconds,
//! records the duals of every call that reached the exact branch-and-bound, then re-solves
//! each of those knapsacks to a complete proof (threshold 1 + 1e-7, no partial stop) once per
//! variant — each node bound one node at a time, then the integer bound in batches of 8 and 32
//! nodes on 2 threads — printing nodes and seconds. Same knapsacks for every variant, so the
//! figures compare the variants alone (a whole CG run changes its trajectory with them).
//!
//! `cargo run --release --example pricing_probe -- INSTANCE.json [S]`
use std::path::Path;
use std::time::Instant;
use vcalloc::colgen::{self, CgSettings, CoveringMaster, Priced, Pricing};
use vcalloc::periodic::heuristics::{best_fit_decreasing, min_max_search};
use vcalloc::periodic::knapsack::{branch_and_bound, Bound, Search};
use vcalloc::periodic::{Instance, PeriodicPricing, PricingSettings};
use vcalloc::solver::Deadline;

struct Recorder<'a> {
    inner: PeriodicPricing<'a>,
    duals: Vec<Vec<f64>>,
}

impl Pricing for Recorder<'_> {
    fn price(&mut self, d: &[f64], dl: &Deadline) -> vcalloc::Result<Priced> {
        let before = self.inner.exact_calls;
        let r = self.inner.price(d, dl)?;
        if self.inner.exact_calls > before {
            self.duals.push(d.to_vec());
        }
        Ok(r)
    }
    fn settle(&mut self) {
        self.inner.settle()
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let inst = Instance::load(Path::new(&args[1]), None).unwrap();
    let secs: f64 = args.get(2).map_or(30.0, |s| s.parse().unwrap());
    let demands: Vec<f64> = inst.jobs.iter().map(|j| f64::from(j.tasks)).collect();
    let mut master = CoveringMaster::new(&demands);
    let mut seen = std::collections::BTreeSet::new();
    for (j, job) in inst.jobs.iter().enumerate() {
        let n = job
            .tasks
            .min((inst.capacity / job.peak() + 1e-12).floor() as u32)
            .max(1);
        master.add_column(vec![(j, f64::from(n))]).unwrap();
    }
    for m in best_fit_decreasing(&inst)
        .iter()
        .chain(&min_max_search(&inst))
    {
        let mut t = m.tasks.clone();
        t.sort_unstable();
        if seen.insert(t.clone()) {
            master
                .add_column(t.iter().map(|&(j, n)| (j, f64::from(n))).collect())
                .unwrap();
        }
    }
    let mut rec = Recorder {
        inner: PeriodicPricing::new(&inst, PricingSettings::default()),
        duals: Vec::new(),
    };
    rec.inner.remember(master.columns());
    let cg = colgen::run(
        &mut master,
        &mut rec,
        &CgSettings::default(),
        0.0,
        &Deadline::after(Some(secs)),
    )
    .unwrap();
    println!(
        "cg {:?} master {:.3} bound {:.3} exact pricings {}",
        cg.termination,
        cg.master_value,
        cg.bound,
        rec.duals.len()
    );
    let probe = PeriodicPricing::new(&inst, PricingSettings::default());
    for (bound, threads, batch) in [
        (Bound::Fractional, 1, 0),
        (Bound::Integer, 1, 0),
        (Bound::Integer, 2, 8),
        (Bound::Integer, 2, 32),
    ] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let (mut nodes, t0) = (0u64, Instant::now());
        let mut per = Vec::new();
        for d in &rec.duals {
            let k = probe.knapsack(d);
            let search = Search {
                threshold: 1.0 + 1e-7,
                keep_above: 1.0 + 1e-7,
                node_limit: 20_000_000,
                bound,
                batch,
                ..Search::default()
            };
            let s = pool
                .install(|| {
                    branch_and_bound(&k, vec![0; k.items.len()], &search, &Deadline::none())
                })
                .unwrap();
            nodes += s.nodes;
            per.push(s.nodes);
        }
        println!(
            "{bound:?}, {threads} thread(s), batch {batch}: {nodes} nodes, {:.2} s; last five {:?}",
            t0.elapsed().as_secs_f64(),
            &per[per.len().saturating_sub(5)..]
        );
    }
}
