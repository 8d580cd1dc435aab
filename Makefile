# The two commands of the README: `make demo` and `make test`. Both install what is missing
# (cmake, a C++ compiler, libclang-dev, python3-venv); `make demo` builds in release, `make test`
# in the `ci` profile (release without the crate-local ThinLTO pass, Cargo.toml). `make test` ends
# with the Python package: built into .venv from the same target/ (beside the Rust tests), then
# its pytest suite (scripts/test.sh). `make soak` and `make fuzz` are
# the reliability runs (docs/guide.md, "Reliability"); neither is part of `make test`.
CARGO ?= cargo
# HiGHS (C++, built by highs-sys through cmake) as a unity build: the longest step of a fresh
# build, and every crate of ours waits for it (scripts/highs.cmake). Only the builds started
# here see it; cargo does not track the variable, so it causes no rebuild either way.
export CMAKE_TOOLCHAIN_FILE ?= $(CURDIR)/scripts/highs.cmake
FUZZ_S ?= 600
SOAK_CASES ?= 10000
SOAK_SEED ?= 1

.PHONY: deps demo test python python-test bench lint clean soak fuzz fuzz-seed

deps:
	@bash scripts/install-deps.sh

demo: deps
	$(CARGO) run --release --quiet -- demo

# What the tests need and no more: the library, the binary, their unit tests, the integration
# crate tests/it and the doc tests (benches and examples are compiled by `make lint`'s
# clippy --all-targets instead), then the Python package's suite; the package builds beside the
# Rust tests at the lowest CPU priority (scripts/test.sh). Two long unit-test sweeps run a
# quarter and a half of their seeds here and all of them in `make soak` (the `full_sweep` tests).
test: deps
	@CARGO="$(CARGO)" bash scripts/test.sh

# The Python package alone: installed into .venv (maturin, in release, reusing target/).
python: deps
	@bash scripts/python.sh install

python-test: deps
	$(CARGO) build --release
	@bash scripts/python.sh test

bench: deps
	$(CARGO) bench --features criterion

lint:
	$(CARGO) fmt --all --check
	$(CARGO) clippy --release --all-targets --features criterion -- -D warnings
	$(CARGO) clippy --release -p vcalloc-python -- -D warnings

# Randomised cross-checks of every family's exact methods, bounds and heuristics; exits
# non-zero on any disagreement, printing its seed and instance. First the unit-test sweeps
# `make test` runs in part (the periodic job tree on 400 seeds, market exact against milp on 24).
soak: deps
	$(CARGO) test --release --lib -- --ignored full_sweep
	$(CARGO) run --release --quiet -- selfcheck --cases $(SOAK_CASES) --seed $(SOAK_SEED)

# Every parser's fuzz target for FUZZ_S seconds each (cargo-fuzz, nightly toolchain;
# FUZZ_ENGINE=stable: the stable mutation driver of fuzz/stable/ instead).
fuzz: deps
	$(CARGO) build --release --quiet
	FUZZ_S=$(FUZZ_S) bash fuzz/run.sh

# (Re)seeds fuzz/corpus/ from data/ and fuzz/fixtures/.
fuzz-seed:
	$(CARGO) build --release --quiet
	rm -rf fuzz/corpus && bash fuzz/seed.sh

clean:
	$(CARGO) clean
