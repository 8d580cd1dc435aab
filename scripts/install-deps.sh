#!/usr/bin/env bash
# Installs what building vcalloc needs on a fresh Debian/Ubuntu machine: HiGHS is compiled
# from source by highs-sys, which needs cmake, a C++ compiler and libclang (for bindgen); the
# Python package needs python3 with venv and ensurepip (Debian's python3-venv; maturin and
# pytest then come from PyPI into .venv, see scripts/python.sh).
# Does nothing when everything is already there.
set -euo pipefail

missing=()
command -v cmake >/dev/null 2>&1 || missing+=(cmake)
command -v c++ >/dev/null 2>&1 || missing+=(g++)
command -v make >/dev/null 2>&1 || missing+=(make)
dpkg -s libclang-dev >/dev/null 2>&1 || missing+=(libclang-dev)
command -v python3 >/dev/null 2>&1 || missing+=(python3)
python3 -c "import venv, ensurepip" >/dev/null 2>&1 || missing+=(python3-venv)

if [ ${#missing[@]} -gt 0 ]; then
  echo "install-deps: installing ${missing[*]}"
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || { echo "install-deps: need root or sudo to install ${missing[*]}" >&2; exit 1; }
    SUDO="sudo"
  fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

command -v cargo >/dev/null 2>&1 || { echo "install-deps: cargo is required (https://rustup.rs)" >&2; exit 1; }
