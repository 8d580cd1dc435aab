#!/usr/bin/env bash
# The Python package: `scripts/python.sh install` builds it (maturin, release, into the same
# target/ as cargo, so that only PyO3 and the binding are compiled) and installs it into
# .venv; `scripts/python.sh test` then runs its pytest suite against the CLI of
# target/release/vcalloc; `scripts/python.sh pytest` runs the suite alone (the package
# installed before: `make test` builds it beside the Rust tests, scripts/test.sh).
# Idempotent: the venv, maturin and pytest are made once. PROFILE (default release) is the
# cargo profile of the module and of the CLI the suite runs (`make test` uses `ci`).
set -euo pipefail
cd "$(dirname "$0")/.."

VENV=${VENV:-.venv}
PY=${PYTHON:-python3}
began=$(date +%s)
PROFILE=${PROFILE:-release}
OUT=target/$PROFILE

install() {
  if [ ! -x "$VENV/bin/python" ]; then
    "$PY" -m venv "$VENV"
  fi
  if ! "$VENV/bin/python" -c "import maturin, pytest" >/dev/null 2>&1; then
    "$VENV/bin/pip" install -q --disable-pip-version-check "maturin>=1.5,<2" pytest
  fi
  # The vcalloc library as `cargo test --release` built it, if it did: the module's build must
  # reuse it (python/Cargo.toml); a newer one afterwards means the features drifted apart.
  local stamp had
  stamp=$(mktemp)
  had=$(find "$OUT/deps" -maxdepth 1 -name 'libvcalloc-*.rlib' 2>/dev/null | head -1)
  # No build isolation: the venv's maturin builds the wheel (it must be on PATH for pip).
  PATH="$PWD/$VENV/bin:$PATH" MATURIN_PEP517_ARGS="--profile $PROFILE" "$VENV/bin/pip" install -q --disable-pip-version-check \
    --no-build-isolation --no-deps --force-reinstall .
  if [ -n "$had" ] && [ -n "$(find "$OUT/deps" -maxdepth 1 -name 'libvcalloc-*.rlib' \
    -newer "$stamp" 2>/dev/null)" ]; then
    echo "python: warning: the module's build compiled the vcalloc crate again (its features" \
      "differ from those of \`cargo test --profile $PROFILE\`; see python/Cargo.toml)" >&2
  fi
  rm -f "$stamp"
  echo "python: vcalloc installed into $VENV in $(($(date +%s) - began)) s"
}

pytest() {
  # The suite imports the installed package (python/vcalloc alone has no native module).
  VCALLOC_BIN="${VCALLOC_BIN:-$PWD/$OUT/vcalloc}" \
    "$VENV/bin/python" -m pytest -q -p no:cacheprovider python/tests
}

case "${1:-install}" in
  install) install ;;
  test)
    install
    pytest
    echo "python: build and tests in $(($(date +%s) - began)) s"
    ;;
  pytest)
    pytest
    echo "python: tests in $(($(date +%s) - began)) s"
    ;;
  *)
    echo "usage: scripts/python.sh [install|test|pytest]" >&2
    exit 2
    ;;
esac
