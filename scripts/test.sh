#!/usr/bin/env bash
# `make test` (and so .ci/run): every test the project has, in release.
#  1. builds what the Rust tests run (`cargo test --release --lib --bins --tests --no-run`;
#     `--timings`: where the build time went, target/cargo-timings/cargo-timing.html);
#  2. runs them (the library's unit tests beside the binary's and tests/it, then the doc tests) while the
#     Python package (scripts/python.sh install: .venv, maturin, PyO3 and the binding, reusing
#     target/) builds beside them at the lowest CPU priority (nice 19), so that it takes only
#     the CPU the tests leave idle (they wait on child processes, signals and time limits);
#  3. then the Python suite (pytest) against target/release/vcalloc.
# Prints the time of each part at the end (docs/results.md, "Set-up time on a fresh clone").
set -euo pipefail
cd "$(dirname "$0")/.."
CARGO=${CARGO:-cargo}

t0=$(date +%s)
"$CARGO" test --profile ci --lib --bins --tests --no-run --timings
t1=$(date +%s)

log=target/python-build.log
# A process group of its own (setsid), so that a failing Rust test stops the whole build
# (pip, maturin, cargo, rustc) and not only its shell. It starts 2 s late: cargo locks target/
# while it builds, and the `cargo test` below must take and release that lock first (its
# check that everything is fresh takes well under a second; it holds no lock while the tests
# run). Were the Python build's cargo first, the tests would wait for it: slower, not wrong.
setsid nice -n 19 bash -c 'sleep 2 && PROFILE=ci exec bash scripts/python.sh install' >"$log" 2>&1 &
py=$!
trap 'kill -- -"$py" 2>/dev/null || true' EXIT

# The library's unit tests run beside the binary's tests and tests/it, at a lower priority
# (nice 10): tests/it waits on child processes, signals and time limits and leaves a core
# idle much of the time, and its timing checks keep the first claim on the cores. The unit
# tests' output is printed once both are done.
unit_log=target/unit-tests.log
nice -n 10 "$CARGO" test --profile ci --lib >"$unit_log" 2>&1 &
unit=$!
trap 'kill "$unit" 2>/dev/null || true; kill -- -"$py" 2>/dev/null || true' EXIT
sleep 1
"$CARGO" test --profile ci --bins --test it
if ! wait "$unit"; then
  cat "$unit_log"
  echo "make test: the library's unit tests failed" >&2
  exit 1
fi
cat "$unit_log"
"$CARGO" test --profile ci --doc
t2=$(date +%s)

if ! wait "$py"; then
  trap - EXIT
  cat "$log"
  echo "make test: the Python package's build failed" >&2
  exit 1
fi
trap - EXIT
t3=$(date +%s)
cat "$log"
PROFILE=ci bash scripts/python.sh pytest
t4=$(date +%s)

echo "make test: build $((t1 - t0)) s, Rust tests $((t2 - t1)) s (the Python package built" \
  "beside them), waiting for that build $((t3 - t2)) s, pytest $((t4 - t3)) s; $((t4 - t0)) s in all"
