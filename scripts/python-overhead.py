"""The cost of a solve call from Python against the command line, beyond the solve itself.

For each method, N solves of the demo instance (data/vcsched-demo.json) from Python (by path,
and as a dict) and N runs of `vcalloc solve` as a process; per call the wall time and the
certificate's `seconds` (the solve); prints the medians and the median of wall − seconds.

Run from the repository's root: `.venv/bin/python scripts/python-overhead.py [N]`.
"""

import json
import statistics
import subprocess
import sys
import time

import vcalloc

N = int(sys.argv[1]) if len(sys.argv) > 1 else 50
FILE = "data/vcsched-demo.json"
CLI = "target/release/vcalloc"


def measure(call):
    walls, solves, overheads = [], [], []
    for _ in range(N):
        began = time.perf_counter()
        sol = call()
        wall = time.perf_counter() - began
        walls.append(wall)
        solves.append(sol["certificate"]["seconds"])
        overheads.append(wall - sol["certificate"]["seconds"])
    return [1e3 * statistics.median(x) for x in (walls, solves, overheads)]


def cli(method):
    out = subprocess.run([CLI, "solve", "vcsched", FILE, "--method", method, "--threads", "1"],
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


inst = json.load(open(FILE))
print(f"vcalloc {vcalloc.__version__}, {N} calls each; medians in ms")
print("method  caller            wall     solve   wall-solve")
for method in ("mcb8", "milp"):
    for name, call in [
        ("python (path)", lambda: vcalloc.solve("vcsched", FILE, method=method, threads=1)),
        ("python (dict)", lambda: vcalloc.solve("vcsched", inst, method=method, threads=1)),
        ("cli process", lambda: cli(method)),
    ]:
        call()  # warm
        wall, solve, over = measure(call)
        print(f"{method:<7} {name:<15} {wall:8.3f}  {solve:8.3f}  {over:8.3f}")
