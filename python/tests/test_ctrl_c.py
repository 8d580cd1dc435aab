"""Ctrl-C during a solve: KeyboardInterrupt within a fraction of a second, carrying the answer
so far; the next solve in the same process runs normally."""

import signal
import subprocess
import sys
import time

from conftest import LONG_INSTANCE, LONG_SETTINGS, REPO

# The child restores Python's own SIGINT handler: a process started in the background by a
# non-interactive shell inherits SIGINT ignored, and Python then installs none (Ctrl-C could not
# reach it at all).
SCRIPT = f"""
import signal, sys, time, vcalloc
signal.signal(signal.SIGINT, signal.default_int_handler)
print("started", flush=True)
try:
    vcalloc.solve("binpacking", {LONG_INSTANCE!r}, method="bp", settings={LONG_SETTINGS!r},
                  time_limit=60)
    print("finished without an interrupt", flush=True)
except KeyboardInterrupt as e:
    stopped = time.monotonic()
    c = e.answer["certificate"]
    print("stopped", stopped, c["status"], c["objective"], c["bound"], flush=True)
    after = vcalloc.solve("vcsched", "data/vcsched-demo.json", method="milp", time_limit=30)
    print("after", after["certificate"]["status"], flush=True)
"""


def test_ctrl_c_stops_a_solve_within_a_second():
    p = subprocess.Popen([sys.executable, "-c", SCRIPT], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, cwd=REPO)
    assert p.stdout.readline().strip() == "started"
    time.sleep(1.5)
    sent = time.monotonic()
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=60)
    lines = out.splitlines()
    stopped = [l.split() for l in lines if l.startswith("stopped")]
    assert stopped, out + err
    _, at, status, objective, bound = stopped[0]
    assert float(at) - sent < 1.0, f"stopped {float(at) - sent:.2f} s after Ctrl-C"
    # The answer so far: an incumbent and a bound, not yet proven (60 s would not suffice).
    assert status == "feasible" and float(objective) >= float(bound) > 0
    # The interrupt was cleared: the next solve ran to its proof.
    assert "after optimal" in lines, out + err
    assert p.returncode == 0, err


THREADS = f"""
import signal, threading, time, vcalloc
signal.signal(signal.SIGINT, signal.default_int_handler)
other = {{}}
def solve_in_a_thread():
    began = time.monotonic()
    sol = vcalloc.solve("binpacking", {LONG_INSTANCE!r}, method="bp", settings={LONG_SETTINGS!r},
                        time_limit=60)
    other["status"], other["took"] = sol["certificate"]["status"], time.monotonic() - began
t = threading.Thread(target=solve_in_a_thread)
t.start()
print("started", flush=True)
try:
    vcalloc.solve("binpacking", {LONG_INSTANCE!r}, method="bp", settings={LONG_SETTINGS!r},
                  time_limit=60)
except KeyboardInterrupt as e:
    print("main stopped", e.answer["certificate"]["status"], flush=True)
t.join()
print("thread", other["status"], other["took"], flush=True)
"""


def test_ctrl_c_stops_the_solves_of_every_thread():
    p = subprocess.Popen([sys.executable, "-c", THREADS], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, cwd=REPO)
    assert p.stdout.readline().strip() == "started"
    time.sleep(1.5)
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=60)
    assert "main stopped feasible" in out, out + err
    thread = [l.split() for l in out.splitlines() if l.startswith("thread")]
    assert thread, out + err
    _, status, took = thread[0]
    # The other thread's solve returned its answer so far, long before its 60 s limit.
    assert status == "feasible" and float(took) < 20, out
