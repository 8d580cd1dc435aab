"""VCSched heuristics against the exact optimum and the LP bound over the memory-slack range.

The question of RR-6692 §4 (Casanova et al.): how far below the best achievable minimum yield do
the greedy and multi-capacity heuristics land, and does it depend on how tight memory is? For
each slack we generate instances (4 hosts, 12 jobs), solve each exactly (``milp``: the optimum,
proven), bound it (``lp-bound``: the LP relaxation's value, an upper bound on any placement) and
run the heuristics; every answer is verified by the engine. We plot the mean of each method's
minimum yield divided by the optimum (1 is optimal), with the LP bound over the optimum as the
ceiling a heuristic could be measured against when the optimum is out of reach.

Run: ``python examples/python/slack_range.py [--instances 5] [--out slack_range.png]``.
matplotlib is optional: without it the table is printed and no figure drawn.
"""

from __future__ import annotations

import argparse
import statistics

import vcalloc

HEURISTICS = ["gr", "sg", "gb", "mcb8", "rrnd"]


def ratios(slacks, instances, seed, time_limit):
    """Per method, per slack: the mean of objective / optimum over the instances that have a
    proven optimum (heuristics that place nothing count 0)."""
    table = {m: [] for m in HEURISTICS + ["lp-bound"]}
    for slack in slacks:
        per = {m: [] for m in table}
        for i in range(instances):
            inst = vcalloc.generate("vcsched", seed=seed + i, hosts=4, jobs=12, slack=slack,
                                    cv_mem=0.5, cv_cpu=0.5)
            exact = vcalloc.solve("vcsched", inst, method="milp", time_limit=time_limit)
            c = exact["certificate"]
            if c["status"] != "optimal" or not c["objective"]:
                continue  # no placement at all, or not proven in time
            best = c["objective"]
            for m in HEURISTICS:
                sol = vcalloc.solve("vcsched", inst, method=m, seed=seed + i)
                assert vcalloc.verify(inst, sol) == []
                per[m].append((sol["certificate"]["objective"] or 0.0) / best)
            bound = vcalloc.solve("vcsched", inst, method="lp-bound")["certificate"]["bound"]
            per["lp-bound"].append(bound / best)
        for m in table:
            table[m].append(statistics.mean(per[m]) if per[m] else float("nan"))
    return table


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--instances", type=int, default=5, help="instances per slack")
    ap.add_argument("--slacks", type=str, default="0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8,0.9")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--time-limit", type=float, default=30.0, help="seconds per exact solve")
    ap.add_argument("--out", default="slack_range.png", help="the figure (PNG)")
    a = ap.parse_args(argv)
    slacks = [float(s) for s in a.slacks.split(",")]
    table = ratios(slacks, a.instances, a.seed, a.time_limit)

    print("slack  " + "  ".join(f"{m:>8}" for m in table))
    for k, s in enumerate(slacks):
        print(f"{s:5.2f}  " + "  ".join(f"{table[m][k]:8.4f}" for m in table))

    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is not installed: no figure")
        return table
    fig, ax = plt.subplots(figsize=(7, 4.5))
    ax.axhline(1.0, color="black", lw=1, label="optimum (milp)")
    ax.plot(slacks, table["lp-bound"], "k--", label="LP bound / optimum")
    for m in HEURISTICS:
        ax.plot(slacks, table[m], marker="o", ms=3, label=m)
    ax.set_xlabel("memory slack")
    ax.set_ylabel("minimum yield / optimum (mean)")
    ax.set_title(f"VCSched, 4 hosts, 12 jobs, {a.instances} instances per slack")
    ax.legend(fontsize=8, ncol=2)
    fig.tight_layout()
    fig.savefig(a.out, dpi=120)
    print(f"figure: {a.out}")
    return table


if __name__ == "__main__":
    main()
