#!/usr/bin/env bash
# `make fuzz`: every target for FUZZ_S seconds (default 600), a hang being an input slower
# than FUZZ_TIMEOUT seconds (10). Engine (FUZZ_ENGINE): `libfuzzer` (default) runs cargo-fuzz
# on nightly without a sanitizer (safe Rust: panics and hangs are what we look for, and the
# runs go faster); `stable` runs the mutation driver of stable/ on the main build's target
# folder (no nightly, no coverage feedback). Prints per target the seconds, executions and new
# crashes (inputs in fuzz/artifacts/<target>/); exits 1 if any.
set -uo pipefail
cd "$(dirname "$0")"
S=${FUZZ_S:-600}
TIMEOUT=${FUZZ_TIMEOUT:-10}
ENGINE=${FUZZ_ENGINE:-libfuzzer}
ALL="bpplib_txt cbp evolving_json market_json packing_json pcec_json periodic_json settings solution_json swf vbp vcsched_csv vcsched_json"
TARGETS=${FUZZ_TARGETS:-$ALL}
[ -d corpus ] || bash seed.sh
# The main crate's lock, so that both engines build the versions the project tests.
if [ "$ENGINE" = stable ]; then
  cp ../Cargo.lock stable/Cargo.lock
  (cd stable && CARGO_TARGET_DIR=../../target cargo build --release --quiet) || exit 2
else
  [ -f Cargo.lock ] || cp ../Cargo.lock Cargo.lock
  cargo +nightly fuzz build -s none || exit 2
fi
mkdir -p logs
printf '%-16s %8s %12s %8s\n' target seconds executions crashes
total=0
for t in $TARGETS; do
  mkdir -p "corpus/$t" "artifacts/$t"
  before=$(ls "artifacts/$t" | wc -l)
  start=$(date +%s)
  if [ "$ENGINE" = stable ]; then
    ../target/release/vcalloc-fuzz-stable "$t" "$S" "corpus/$t" "artifacts/$t" "$TIMEOUT" \
      > "logs/$t.log" 2>&1
    execs=$(grep -o '[0-9]* executions' "logs/$t.log" | grep -o '^[0-9]*' | tail -1)
  else
    cargo +nightly fuzz run -s none "$t" "corpus/$t" -- \
      -max_total_time="$S" -timeout="$TIMEOUT" -rss_limit_mb=2048 -print_final_stats=1 \
      > "logs/$t.log" 2>&1
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "logs/$t.log" | grep -o '[0-9]*$' | tail -1)
  fi
  secs=$(( $(date +%s) - start ))
  crashes=$(( $(ls "artifacts/$t" | wc -l) - before ))
  total=$(( total + crashes ))
  printf '%-16s %8s %12s %8s\n' "$t" "$secs" "${execs:-?}" "$crashes"
done
echo "fuzz ($ENGINE): $total new crash(es); inputs in fuzz/artifacts/, logs in fuzz/logs/"
[ "$total" -eq 0 ]
