#!/usr/bin/env bash
# The executable of scripts/htcondor/sweep.sub: HTCondor numbers jobs from 0, shards from 1.
#   shard.sh PROCESS N
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
exec bash "$here/../cluster/shard.sh" "$(( ${1:?usage: shard.sh PROCESS N} + 1 ))" "${2:?usage: shard.sh PROCESS N}"
