"""Shared fixtures of the Python suite: the repository, the command line, each family's case."""

import os
import pathlib
import subprocess

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]

#: Per family: generator options (the CLI's names), an exact method and a heuristic; all
#: solve in well under a second.
CASES = {
    "vcsched": (dict(hosts=4, jobs=8, slack=0.3, cv_mem=0.5, cv_cpu=0.5), "milp", "mcb8"),
    "periodic": (dict(tasks="large", amplitude="small", jobs=2), "bp", "bfd"),
    "evolving": (dict(apps="3..4", steps="1..3", step_nodes="1..8", nodes=16), "exact", "2x+c"),
    "pcec": (dict(), "enumerate", "pc"),
    "rebalance": (dict(nodes_min=4, nodes_max=6), "exact", "tabu"),
    "binpacking": (dict(items=20), "bp", "ffd"),
    "socbp": (dict(items=15), "bp", "ffd"),
}

#: A solve that runs well past 10 s unless stopped: branch-and-price alone on Hard28 BPP359
#: (the CLI's Ctrl-C test uses it too).
LONG_INSTANCE = str(REPO / "data/hard28/Hard28_BPP359.txt")
LONG_SETTINGS = {
    "local": {"enabled": False},
    "bp": {"enumeration": {"enabled": False}},
    "cuts": {"enabled": False},
}


@pytest.fixture(scope="session")
def cli():
    """The command line built by `cargo build --release` (`make test` builds it first)."""
    path = pathlib.Path(os.environ.get("VCALLOC_BIN", REPO / "target/release/vcalloc"))
    assert path.exists(), f"{path} is missing: run `cargo build --release` (make test does)"

    def run(*args, check=True):
        return subprocess.run(
            [str(path), *map(str, args)], capture_output=True, text=True, check=check, cwd=REPO
        )

    return run
