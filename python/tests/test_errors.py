"""Bad input raises vcalloc.InputError (a ValueError) carrying the command line's message;
nothing panics across the boundary."""

import json

import pytest
import vcalloc

from conftest import REPO

BAD_JOB = {"hosts": 2, "jobs": [{"cpu": 2, "mem": 0.5}]}


def test_input_error_is_a_value_error():
    assert issubclass(vcalloc.InputError, ValueError)
    assert issubclass(vcalloc.SolverError, RuntimeError)


def test_a_bad_instance_dict_names_the_field():
    with pytest.raises(vcalloc.InputError) as e:
        vcalloc.solve("vcsched", BAD_JOB, method="milp")
    msg = str(e.value)
    assert "<instance>" in msg and "jobs[0].cpu" in msg and "`2`" in msg, msg
    assert "vcalloc-py-" not in msg, "the temporary file leaked into the message"


def test_the_message_is_the_command_lines(cli, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(BAD_JOB))
    run = cli("solve", "vcsched", bad, "--method", "milp", check=False)
    assert run.returncode == 2
    with pytest.raises(vcalloc.InputError) as e:
        vcalloc.solve("vcsched", bad, method="milp")
    assert run.stderr.strip() == f"error: {e.value}"
    # verify the same way.
    sol = tmp_path / "sol.json"
    sol.write_text('{"certificate": {}}')
    run = cli("verify", bad, sol, check=False)
    with pytest.raises(vcalloc.InputError) as e:
        vcalloc.verify(bad, sol)
    assert run.stderr.strip() == f"error: {e.value}"


@pytest.mark.parametrize(
    "call, words",
    [
        (lambda: vcalloc.solve("nosuch", BAD_JOB, method="milp"), ["problem", "nosuch", "vcsched"]),
        (lambda: vcalloc.solve("vcsched", BAD_JOB, method="nope"), ["method", "nope", "milp"]),
        (lambda: vcalloc.solve("vcsched", "/no/such/file.json", method="milp"), ["/no/such/file.json"]),
        (lambda: vcalloc.solve("vcsched", "data/vcsched-demo.json", method="milp", time_limit=-1), ["time_limit", "-1"]),
        (lambda: vcalloc.solve("vcsched", "data/vcsched-demo.json", method="milp", threads=0), ["threads"]),
        (lambda: vcalloc.solve("vcsched", "data/vcsched-demo.json", method="milp", seed=-3), ["seed"]),
        (lambda: vcalloc.solve("vcsched", "data/vcsched-demo.json", method="milp", bogus=1), ["bogus", "no_avg_phase"]),
        (lambda: vcalloc.solve("vcsched", "data/vcsched-demo.json", method="mcb8", no_avg_phase="maybe"), ["no_avg_phase", "switch"]),
        (lambda: vcalloc.solve("vcsched", "data/vcsched-demo.json", method="mcb8", settings={"mcb_tolerance": "wide"}), ["<settings>", "mcb_tolerance"]),
        (lambda: vcalloc.solve("vcsched", 42, method="milp"), ["instance"]),
        (lambda: vcalloc.solve("vcsched", {"hosts": float("nan")}, method="milp"), ["instance"]),
        (lambda: vcalloc.generate("vcsched", seed=1, hosts=4), ["--jobs", "missing"]),
        (lambda: vcalloc.generate("vcsched", seed=1, hosts="four", jobs=3, slack=0.1, cv_mem=0.1, cv_cpu=0.1), ["--hosts", "four"]),
        (lambda: vcalloc.generate("periodic", seed=1, tasks="huge", amplitude="small"), ["tasks", "huge"]),
        (lambda: vcalloc.verify(BAD_JOB, {"certificate": {"problem": "nosuch"}}), ["<solution>", "certificate.problem"]),
        (lambda: vcalloc.verify(BAD_JOB, {"jobs": []}), ["<solution>", "names no problem"]),
        (lambda: vcalloc.settings("nosuch"), ["nosuch"]),
        (lambda: vcalloc.methods("nosuch"), ["nosuch"]),
        (lambda: vcalloc.experiment("nosuch", out="unused"), ["nosuch", "vcsched-small"]),
    ],
)
def test_bad_input_raises_input_error(call, words, monkeypatch):
    monkeypatch.chdir(REPO)
    with pytest.raises(vcalloc.InputError) as e:
        call()
    for w in words:
        assert w in str(e.value), (w, str(e.value))


def test_garbage_instances_never_panic(tmp_path):
    # Each family fed each other family's instance and a few malformed documents: an
    # InputError every time (a panic would surface as RuntimeError or abort the process).
    docs = [{}, {"hosts": -1}, {"jobs": "x"}, {"items": [1, 2, 3]}, {"tasks": [{}]}]
    docs.append(vcalloc.generate("rebalance", seed=1))
    (tmp_path / "empty.json").write_text("")
    (tmp_path / "junk.txt").write_text("\x00\x01 not an instance\n")
    for problem in vcalloc.problems():
        method = next(iter(vcalloc.methods(problem)))
        for doc in docs + [tmp_path / "empty.json", tmp_path / "junk.txt"]:
            if problem == "rebalance" and doc is docs[-1]:
                continue
            with pytest.raises(vcalloc.InputError):
                vcalloc.solve(problem, doc, method=method, time_limit=5)
