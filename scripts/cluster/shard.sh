#!/usr/bin/env bash
# One shard of a sweep: the body of every batch task (SLURM array task, HTCondor job).
#   shard.sh K N      runs shard K of N (1-based) into $OUT/shard-K
# Environment: SET (sweep name, e.g. vcsched-large), OUT (a folder on shared storage),
# VCALLOC (the binary; default: vcalloc on PATH), THREADS (default 1), SWEEP_ARGS (more
# options of `vcalloc experiment SET`, e.g. "--instances-per-spec 10 --seed 1").
# Rerunning a task resumes its shard: rows already in its results.csv are skipped.
set -euo pipefail
k=${1:?usage: shard.sh K N}
n=${2:?usage: shard.sh K N}
: "${SET:?set SET to a sweep name (vcalloc methods lists them)}"
: "${OUT:?set OUT to a folder on shared storage}"
# SWEEP_ARGS is split on spaces on purpose: it holds several options.
# shellcheck disable=SC2086
exec "${VCALLOC:-vcalloc}" experiment "$SET" --output "$OUT/shard-$k" --shard "$k/$n" \
    --threads "${THREADS:-1}" ${SWEEP_ARGS:-}
