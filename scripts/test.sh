#!/usr/bin/env bash
# The whole test suite: formatting and lint, Rust unit tests of the core, pytest against the built
# package, then the wheel, installed in a fresh venv and run from outside the source tree.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
./scripts/setup-system.sh
./scripts/lint.sh
cargo test --release -p tcpsim-core --quiet
.venv/bin/python -m pytest
./scripts/test-wheel.sh
