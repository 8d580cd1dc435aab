#!/usr/bin/env bash
# Joins the N shard folders $OUT/shard-1 … $OUT/shard-N into $OUT/merged (results.csv sorted
# by set, instance and method, report.md and plots): the files of the unsharded sweep.
#   merge.sh N
# Environment: OUT, VCALLOC (default: vcalloc on PATH). Fails, naming it, when a shard
# folder has no results.csv (a task that never ran).
set -euo pipefail
n=${1:?usage: merge.sh N}
: "${OUT:?set OUT to the folder of the sweep}"
dirs=()
for k in $(seq 1 "$n"); do
    dirs+=("$OUT/shard-$k")
done
exec "${VCALLOC:-vcalloc}" experiment merge "${dirs[@]}" --output "$OUT/merged"
