#!/usr/bin/env bash
# The executable of scripts/htcondor/merge.sub.
#   merge.sh N
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
exec bash "$here/../cluster/merge.sh" "${1:?usage: merge.sh N}"
