//! Merkat's vertical policy suspends and resumes (§3.2, Algorithm 4), and the applications
//! manager starts apps on price (§4.2.2): a hand-checked tiny scenario where suspension must
//! happen, and conservation laws on random one-node scenarios — credits spent are the bids
//! billed, each uncapped VM's bid is price × share, no VM runs and nothing is billed while an
//! app is suspended, and resumed apps finish their work.

use vcalloc::market::{
    simulate, AppKind, AppSpec, Res, Scenario, SimResult, SimSettings, StartRule, SuspendRule,
};

fn app(name: &str, kind: AppKind, arrival: f64, work: f64, iters: u64, bid: f64) -> AppSpec {
    AppSpec {
        name: name.into(),
        kind,
        arrival_s: arrival,
        vms: 1,
        vm_size: Res::new(1.0, 900.0),
        iterations: iters,
        work,
        bid: Res::new(bid, 0.001),
        ..AppSpec::default()
    }
}

/// One 1-core node, two slots. `poor` (deadline 4,000 s, 100 credits, 20 iterations of 40 s)
/// runs alone from 0; at 400 s `rich` (best effort, fixed bid 99) arrives and takes nearly all
/// of the core. At 440 s poor's last iteration took ~4·10⁵ s (too slow) and its budget per
/// period, ~100/89 ≈ 1.1, cannot buy 0.75 core at the price 99 (cost 99·0.75/0.25 = 297): it
/// suspends. Rich, 2,000 core-s, has done ~40 by 440 and finishes at ~2,400 s; poor resumes at
/// the next period, 2,440 s, with ~10 iterations left: it finishes at ~2,840 s, by its
/// deadline.
fn tiny() -> Scenario {
    let mut poor = app("poor", AppKind::Deadline, 0.0, 800.0, 20, 1.0);
    poor.deadline_s = Some(4000.0);
    poor.budget = 100.0;
    let mut rich = app("rich", AppKind::BestEffort, 400.0, 2000.0, 100, 99.0);
    rich.budget = 1e6;
    Scenario {
        duration_s: 10_000.0,
        nodes: vec![Res::new(1.0, 2048.0)],
        max_vms_per_node: 2,
        renewal_interval_s: 100_000.0,
        apps: vec![poor, rich],
        ..Scenario::default()
    }
}

fn rows<'a>(r: &'a SimResult, name: &'a str) -> Vec<&'a vcalloc::market::sim::Row> {
    r.rows.iter().filter(|x| x.app == name).collect()
}

#[test]
fn a_poor_app_suspends_while_a_rich_one_runs_and_resumes_after() {
    let sc = tiny();
    let r = simulate(&sc, &SimSettings::default());
    let (poor, rich) = (&r.apps[0], &r.apps[1]);
    assert_eq!(poor.suspensions, 1, "{poor:?}");
    let rich_end = rich.finish_s.unwrap();
    assert!((rich_end - 2400.0).abs() < 0.1, "rich ends at {rich_end}");
    let suspended: Vec<f64> = rows(&r, "poor")
        .iter()
        .filter(|x| x.suspended)
        .map(|x| x.time_s)
        .collect();
    assert_eq!(suspended.first(), Some(&440.0));
    assert_eq!(suspended.last(), Some(&2400.0));
    assert_eq!(suspended.len(), 50);
    let end = poor.finish_s.unwrap();
    assert!((end - 2840.0).abs() < 0.1, "poor ends at {end}");
    assert_eq!(poor.met, Some(true));
    check_conservation(&r, &sc);

    // Without suspension poor keeps its VM through the expensive period and pays for it.
    let off = simulate(
        &sc,
        &SimSettings {
            suspend: SuspendRule::Off,
            ..SimSettings::default()
        },
    );
    assert_eq!(off.apps[0].suspensions, 0);
    assert!(
        off.apps[0].spent > poor.spent + 20.0,
        "off {} vs suspended {}",
        off.apps[0].spent,
        poor.spent
    );
    check_conservation(&off, &sc);
}

/// The start condition: with the price rule, poor arriving while rich runs waits until rich
/// leaves; with the slots rule it starts at once on a sliver of the core.
#[test]
fn the_price_start_condition_holds_back_an_app_its_budget_cannot_carry() {
    let mut sc = tiny();
    sc.apps[0].arrival_s = 400.0;
    sc.apps[1].arrival_s = 0.0;
    let price = simulate(&sc, &SimSettings::default());
    // Rich alone from 0: 2,000 core-s end at 2,000 s; poor starts at the next period.
    assert_eq!(price.apps[0].start_s, Some(2000.0));
    assert_eq!(price.apps[0].suspensions, 0);
    let slots = simulate(
        &sc,
        &SimSettings {
            start: StartRule::Slots,
            suspend: SuspendRule::Off,
            ..SimSettings::default()
        },
    );
    assert_eq!(slots.apps[0].start_s, Some(400.0));
    check_conservation(&price, &sc);
    check_conservation(&slots, &sc);
}

/// Credits spent = Σ over periods of the bids billed; every uncapped VM's CPU bid is price ×
/// share (Eq. 1); capped ones pay at least that; nothing runs or is billed while suspended;
/// every app that resumed and was not shut down for lack of credits finishes all its work.
fn check_conservation(r: &SimResult, sc: &Scenario) {
    for (k, out) in r.apps.iter().enumerate() {
        let mine = rows(r, &out.name);
        let billed: f64 = mine
            .iter()
            .map(|x| x.vms as f64 * (x.bid_cpu + x.bid_mem))
            .sum();
        assert!(
            (billed - out.spent).abs() <= 1e-6 * (1.0 + out.spent),
            "{}: billed {billed} spent {}",
            out.name,
            out.spent
        );
        assert!((r.ledger.accounts[k] - (out.granted - out.spent)).abs() < 1e-6);
        let cap = sc.apps[k].vm_size.cpu;
        for x in mine.iter().filter(|x| x.vms == 1) {
            let pay = x.price_cpu * x.alloc_cpu;
            if x.alloc_cpu < cap - 1e-9 {
                assert!(
                    (x.bid_cpu - pay).abs() <= 1e-9 * (1.0 + x.bid_cpu),
                    "{} at {}: bid {} price×share {pay}",
                    out.name,
                    x.time_s,
                    x.bid_cpu
                );
            } else {
                assert!(x.bid_cpu >= pay - 1e-9, "{} at {}", out.name, x.time_s);
            }
        }
        let mut resumed = false;
        for w in mine.windows(2) {
            if w[1].suspended {
                assert_eq!(w[1].vms, 0, "{} runs while suspended", out.name);
                assert_eq!(w[1].progress, w[0].progress, "{} progressed", out.name);
                assert_eq!(w[1].alloc_cpu, 0.0);
                if w[0].suspended {
                    assert_eq!(w[1].balance, w[0].balance, "{} billed", out.name);
                }
            }
            resumed |= w[0].suspended && !w[1].suspended;
        }
        if resumed && !out.shutdown {
            assert!(
                out.finish_s.is_some(),
                "{} resumed but never finished",
                out.name
            );
            assert_eq!(mine.last().unwrap().progress, 1.0);
        }
    }
    for p in &r.periods {
        assert!(p.imbalance.abs() < 1e-6 && p.min_balance >= -1e-9);
    }
}

/// Random one-node scenarios: deadline apps with budgets from poor to rich, best-effort apps
/// with fixed bids, one-VM apps so each row is one VM; every reading of the rules.
#[test]
fn credits_and_work_are_conserved_under_suspension() {
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (state >> 11) as f64 / (1u64 << 53) as f64
    };
    let mut suspended_runs = 0;
    for case in 0..48 {
        let n = 3 + (next() * 4.0) as usize;
        let apps = (0..n)
            .map(|i| {
                let work = 200.0 + next() * 1200.0;
                let mut a = if next() < 0.7 {
                    let mut a = app(&format!("d{i}"), AppKind::Deadline, 0.0, work, 20, 1.0);
                    a.deadline_s = Some(work * (1.5 + next() * 6.0));
                    a.budget = 10.0 + next() * 400.0;
                    a
                } else {
                    let mut a = app(&format!("b{i}"), AppKind::BestEffort, 0.0, work, 20, 0.0);
                    a.bid = Res::new(0.5 + next() * 40.0, 0.001);
                    a.budget = 1e6;
                    a
                };
                a.arrival_s = (next() * 1500.0 / 40.0).floor() * 40.0;
                a
            })
            .collect();
        let sc = Scenario {
            duration_s: 60_000.0,
            nodes: vec![Res::new(2.0, 8192.0)],
            max_vms_per_node: 3,
            renewal_interval_s: 100_000.0,
            apps,
            ..Scenario::default()
        };
        let suspend = [SuspendRule::Price, SuspendRule::BudgetCut][case % 2];
        let start = [StartRule::Price, StartRule::Slots][(case / 2) % 2];
        let set = SimSettings {
            suspend,
            start,
            ..SimSettings::default()
        };
        let r = simulate(&sc, &set);
        check_conservation(&r, &sc);
        suspended_runs += usize::from(r.apps.iter().any(|a| a.suspensions > 0));
    }
    // The scenarios do exercise suspension.
    assert!(suspended_runs >= 5, "{suspended_runs} runs suspended");
}
