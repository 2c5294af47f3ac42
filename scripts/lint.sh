#!/usr/bin/env bash
# Formatting and lint, enforced by the test command: rustfmt and clippy (warnings are errors)
# for the Rust crates, ruff (lint and format) for the Python code. Needs ./scripts/setup.sh first.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo fmt --all --check
# The bindings' build script looks for a Python interpreter: the project's own.
PYO3_PYTHON="$PWD/.venv/bin/python" cargo clippy --release --workspace --all-targets --quiet -- -D warnings
.venv/bin/ruff check python tests scripts
.venv/bin/ruff format --check python tests scripts
