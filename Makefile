# The two commands of the README: `make demo` and `make test`. Both install what is missing
# (cmake, a C++ compiler, libclang-dev) and build in release.
CARGO ?= cargo

.PHONY: deps demo test bench lint clean

deps:
	@bash scripts/install-deps.sh

demo: deps
	$(CARGO) run --release --quiet -- demo

test: deps
	$(CARGO) build --release --all-targets
	$(CARGO) test --release

bench: deps
	$(CARGO) bench

lint:
	$(CARGO) fmt --check
	$(CARGO) clippy --release --all-targets -- -D warnings

clean:
	$(CARGO) clean
