#!/bin/bash
# Fig. 2 of Belaid 2015 (issue 39): the one-column first phase's iteration count under each
# variant of docs/experiments/periodic-fig2/variants/*.toml, on the two large-task instances
# per amplitude of `experiment periodic-synthetic --instances-per-spec 2 --seed 1` (their
# generator seeds are in docs/experiments/periodic-fig2/paper/results.csv).
# Usage: scripts/periodic-fig2-variants.sh OUT_DIR [VARIANT…]   (default: every variant)
# Prints variant, instance, iterations, initial columns, exact pricings, first-phase seconds,
# converged (tab-separated).
set -euo pipefail
out=${1:?usage: periodic-fig2-variants.sh OUT_DIR [VARIANT…]}
shift
here=$(cd "$(dirname "$0")/.." && pwd)
v=${VCALLOC:-$here/target/release/vcalloc}
dir=$here/docs/experiments/periodic-fig2/variants
mkdir -p "$out"
declare -A seeds=([LL0]="6238072747940578789 large" [LL1]="2117524031394773289 large"
                  [LS0]="16490336266968443936 small" [LS1]="16945279476650760278 small")
for i in LL0 LL1 LS0 LS1; do
  set -- ${seeds[$i]} "$@"
  "$v" generate periodic --seed "$1" --tasks large --amplitude "$2" --output "$out/$i.json"
  shift 2
done
variants=("$@")
if [ ${#variants[@]} -eq 0 ]; then
  variants=($(cd "$dir" && ls *.toml | sed 's/\.toml$//'))
fi
for var in "${variants[@]}"; do
  for i in LL0 LL1 LS0 LS1; do
    nice -n 10 "$v" solve periodic --method cg --settings "$dir/$var.toml" --time-limit 60 \
      --threads 1 -q --output "$out/$i.$var.out" "$out/$i.json" >/dev/null
    python3 - "$out/$i.$var.out" "$i" "$var" <<'P'
import json, sys
d = json.load(open(sys.argv[1]))
s = d["certificate"]["stats"]
print(sys.argv[3], sys.argv[2], d["iterations"], int(s["columns_initial"]),
      int(s["exact_pricings"]), round(s["root_seconds"], 2), int(s["root_converged"]), sep="\t")
P
  done
done
