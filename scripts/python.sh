#!/usr/bin/env bash
# The Python package: `scripts/python.sh install` builds it (maturin, release, into the same
# target/ as cargo, so that only PyO3 and the binding are compiled) and installs it into
# .venv; `scripts/python.sh test` then runs its pytest suite against the CLI of
# target/release/vcalloc. Idempotent: the venv, maturin and pytest are made once.
set -euo pipefail
cd "$(dirname "$0")/.."

VENV=${VENV:-.venv}
PY=${PYTHON:-python3}
began=$(date +%s)

if [ ! -x "$VENV/bin/python" ]; then
  "$PY" -m venv "$VENV"
fi
if ! "$VENV/bin/python" -c "import maturin, pytest" >/dev/null 2>&1; then
  "$VENV/bin/pip" install -q --disable-pip-version-check "maturin>=1.5,<2" pytest
fi
# No build isolation: the venv's maturin builds the wheel (it must be on PATH for pip).
PATH="$PWD/$VENV/bin:$PATH" "$VENV/bin/pip" install -q --disable-pip-version-check \
  --no-build-isolation --no-deps --force-reinstall .
echo "python: vcalloc installed into $VENV in $(( $(date +%s) - began )) s"

if [ "${1:-install}" = test ]; then
  # The suite imports the installed package (python/vcalloc alone has no native module).
  VCALLOC_BIN="${VCALLOC_BIN:-$PWD/target/release/vcalloc}" \
    "$VENV/bin/python" -m pytest -q -p no:cacheprovider python/tests
  echo "python: build and tests in $(( $(date +%s) - began )) s"
fi
