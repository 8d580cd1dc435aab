"""The command line and the module give the same answer on the same instance and seed."""

import json

import pytest
import vcalloc


def strip_times(v):
    """The answer without its clock readings (every key naming seconds)."""
    if isinstance(v, dict):
        return {k: strip_times(x) for k, x in v.items() if "seconds" not in k}
    if isinstance(v, list):
        return [strip_times(x) for x in v]
    return v


@pytest.mark.parametrize("method, seed", [("milp", None), ("rrnd", 7), ("rrnz", 11), ("mcb8", None)])
def test_same_answer_as_the_cli(cli, tmp_path, method, seed):
    inst = vcalloc.generate("vcsched", seed=5, hosts=4, jobs=10, slack=0.4, cv_mem=0.5, cv_cpu=0.5)
    gen = cli("generate", "vcsched", "--seed", 5, "--hosts", 4, "--jobs", 10, "--slack", 0.4,
              "--cv-mem", 0.5, "--cv-cpu", 0.5)
    assert json.loads(gen.stdout) == inst
    path = tmp_path / "inst.json"
    path.write_text(json.dumps(inst))
    args = ["solve", "vcsched", path, "--method", method, "--threads", 1]
    if seed is not None:
        args += ["--seed", seed]
    from_cli = json.loads(cli(*args).stdout)
    from_module = vcalloc.solve("vcsched", inst, method=method, seed=seed, threads=1)
    assert strip_times(from_module) == strip_times(from_cli)


def test_same_answer_on_every_family_file(cli, tmp_path):
    from conftest import CASES

    for problem, (options, _, heuristic) in CASES.items():
        inst = vcalloc.generate(problem, seed=4, **options)
        path = tmp_path / f"{problem}.json"
        path.write_text(json.dumps(inst))
        from_cli = json.loads(cli("solve", problem, path, "--method", heuristic, "--seed", 2).stdout)
        from_module = vcalloc.solve(problem, path, method=heuristic, seed=2)
        assert strip_times(from_module) == strip_times(from_cli), problem
