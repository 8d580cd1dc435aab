#!/usr/bin/env python3
"""Table 1 of RR-6692 (MCB1-8, average / maximum percent degradation from best, small set)
under every reading of "percent degradation from best" tried (issue 39), from the rows of

    vcalloc experiment vcsched-small --out DIR --methods exact,lp-bound,gr,sg,gb,sgb,\
mcb1,mcb2,mcb3,mcb4,mcb5,mcb6,mcb7,mcb8,rrnd,rrnz --threads 1 --seed 0

Usage: scripts/vcsched-table1-readings.py DIR/results.csv

A reading is four choices:
- yield: `search` (the MCB's binary-search yield, as the paper scores), `placement` (the
  placement's optimal minimum yield, ours) or `avg` (the average yield instead of the minimum);
- form: `rel` ((best - y) / best, in percent) or `abs` ((best - y) x 100, percentage points);
- best of: `mcb` (the eight MCBs) or `all` (also exact, GR, SG, GB, SGB, RRND, RRNZ);
- instances: `own` (those the MCB solved), `common` (those all eight solved) or `fail0`
  (every instance some method of the pool solved, a failure scored as yield 0).
Prints one markdown row per reading and the mean absolute distance to the paper's averages
and maxima, then the closest readings."""
import collections
import csv
import itertools
import sys

PAPER = {8: (1.06, 40.45), 5: (1.60, 38.67), 6: (1.83, 37.61), 7: (3.91, 40.71),
         3: (11.76, 55.73), 2: (14.21, 48.30), 1: (14.90, 55.84), 4: (17.32, 46.95)}
ORDER = (8, 5, 6, 7, 3, 2, 1, 4)
MCB = [f"mcb{k}" for k in range(1, 9)]
OTHERS = ["exact", "gr", "sg", "gb", "sgb", "rrnd", "rrnz"]


def load(path):
    rows = collections.defaultdict(dict)
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            if r["method"] == "lp-bound":
                continue
            ok = r["status"] in ("optimal", "feasible") and r["objective"] != ""
            rows[r["instance"]][r["method"]] = r if ok else None
    return rows


def value(r, method, metric):
    if r is None:
        return None
    if metric == "avg":
        return float(r["avg_yield"])
    if metric == "search" and method.startswith("mcb"):
        return float(r["search_yield"])
    return float(r["objective"])


def reading(rows, metric, form, best_of, instances):
    pool = MCB + (OTHERS if best_of == "all" else [])
    deg = {m: [] for m in MCB}
    for ms in rows.values():
        ys = {m: value(ms.get(m), m, metric) for m in pool}
        solved = [y for y in ys.values() if y is not None]
        if not solved or max(solved) <= 0:
            continue
        best = max(solved)
        if instances == "common" and any(ys[m] is None for m in MCB):
            continue
        for m in MCB:
            y = ys[m]
            if y is None:
                if instances != "fail0":
                    continue
                y = 0.0
            d = (best - y) / best * 100 if form == "rel" else (best - y) * 100
            deg[m].append(max(d, 0.0))
    return {int(m[3:]): (sum(v) / len(v), max(v), len(v)) for m, v in deg.items()}


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: vcsched-table1-readings.py RESULTS_CSV")
    rows = load(sys.argv[1])
    head = " | ".join(f"MCB{k}" for k in ORDER)
    print(f"| yield | form | best of | instances | {head} | dist. avg | dist. max |")
    print("|" + "---|" * 14)
    paper = " | ".join(f"{PAPER[k][0]:.2f} / {PAPER[k][1]:.2f}" for k in ORDER)
    print(f"| paper | | | | {paper} | | |")
    scored = []
    for choice in itertools.product(("search", "placement", "avg"), ("rel", "abs"),
                                    ("mcb", "all"), ("own", "common", "fail0")):
        res = reading(rows, *choice)
        da = sum(abs(res[k][0] - PAPER[k][0]) for k in ORDER) / 8
        dm = sum(abs(res[k][1] - PAPER[k][1]) for k in ORDER) / 8
        cells = " | ".join(f"{res[k][0]:.2f} / {res[k][1]:.2f}" for k in ORDER)
        print(f"| {' | '.join(choice)} | {cells} | {da:.2f} | {dm:.2f} |")
        scored.append((da, dm, choice))
    print()
    print("closest on the averages:", min(scored))
    print("closest on the maxima:", min(scored, key=lambda s: s[1]))
    print("closest on both (sum):", min(scored, key=lambda s: s[0] + s[1]))


if __name__ == "__main__":
    main()
