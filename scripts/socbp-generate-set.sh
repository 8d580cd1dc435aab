#!/usr/bin/env bash
# Generates the 36-instance SOC-packing set of issue 34 (item 4): 6 instances (seeds 1..6) for
# each of the (type, alpha) pairs (g,0.6) (g,0.9) (h,0.7) (h,0.95) (d,0.8) (d,0.99), N items
# each, capacity 72, as CloudSmall-format .cbp files named <type>_72_<N>_<alpha>_<seed>.cbp,
# and an optima.tsv (optimum NA) so that `experiment socbp-cloud --input OUT_DIR` runs on it.
#
#   scripts/socbp-generate-set.sh OUT_DIR [N]        (N defaults to 400)
#
# Uses $VCALLOC when set, else target/release/vcalloc (build it with `cargo build --release`).
# Extra arguments after N go to every `generate` call (e.g. --datagen).
set -euo pipefail

if [ $# -lt 1 ]; then
  echo "usage: $0 OUT_DIR [N] [generate flags...]" >&2
  exit 2
fi
out=$1
n=${2:-400}
shift $(( $# >= 2 ? 2 : 1 ))
bin=${VCALLOC:-target/release/vcalloc}
[ -x "$bin" ] || { echo "$0: $bin not found; run cargo build --release or set VCALLOC" >&2; exit 1; }

mkdir -p "$out"
# No optimum is known: an optima.tsv of NA rows lets `experiment socbp-cloud --input OUT_DIR`
# sweep the set (proven counts, root convergence).
printf 'instance\toptimum\n' > "$out/optima.tsv"
for pair in g:0.6 g:0.9 h:0.7 h:0.95 d:0.8 d:0.99; do
  type=${pair%%:*}
  alpha=${pair#*:}
  for seed in 1 2 3 4 5 6; do
    "$bin" generate socbp --type "$type" --alpha "$alpha" --items "$n" --seed "$seed" "$@" \
      --output "$out/${type}_72_${n}_${alpha}_${seed}.cbp"
    printf '%s\tNA\n' "${type}_72_${n}_${alpha}_${seed}.cbp" >> "$out/optima.tsv"
  done
done
echo "$(ls "$out"/*_72_"$n"_*.cbp | wc -l) instances in $out"
