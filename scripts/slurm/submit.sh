#!/usr/bin/env bash
# Submits a sweep to SLURM: the job array (one shard per task) and the merge job that
# depends on it. Run from anywhere:
#   SET=vcsched-large OUT=/shared/runs/large SHARDS=16 \
#     VCALLOC=$PWD/target/release/vcalloc SWEEP_ARGS="--seed 1" scripts/slurm/submit.sh
# Extra arguments go to both sbatch calls (e.g. --partition=long --account=me).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
: "${SET:?set SET to a sweep name}" "${OUT:?set OUT to a folder on shared storage}"
shards=${SHARDS:-8}
mkdir -p "$OUT"
export VCALLOC_SCRIPTS="$here/../cluster" SHARDS="$shards"
array=$(sbatch --parsable --array="1-$shards" --export=ALL "$@" "$here/sweep.sbatch")
array=${array%%;*}
merge=$(sbatch --parsable --dependency="afterok:$array" --export=ALL "$@" "$here/merge.sbatch")
echo "array job $array ($shards shards into $OUT/shard-K), merge job $merge ($OUT/merged)"
