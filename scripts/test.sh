#!/usr/bin/env bash
# The whole test suite: Rust unit tests of the core, then pytest against the built package.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
cargo test --release -p tcpsim-core --quiet
.venv/bin/python -m pytest
