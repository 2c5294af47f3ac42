#!/usr/bin/env bash
# Create .venv with the locked Python dependencies and build the Rust core into it
# (release mode, profile-guided where possible). Needs only python3 >= 3.11 and cargo. Safe to run again: it only
# rebuilds what changed.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
fi
.venv/bin/python -m pip install --quiet --disable-pip-version-check -r requirements.lock -r requirements-dev.lock
# The core is built with profile-guided optimization where rustup's llvm-tools are available
# (scripts/pgo-profile.sh: 5-15 % faster engine, the same results), in a target directory of its
# own so that the development builds (`cargo test`, clippy) keep theirs.
if ! profile="$(./scripts/pgo-profile.sh)"; then
    echo "warning: making the profile failed (above); building the core without profile-guided optimization" >&2
    profile=""
fi
if [ -n "$profile" ]; then
    export RUSTFLAGS="${RUSTFLAGS:-} -Cprofile-use=$profile"
    export CARGO_TARGET_DIR=target/pgo-use
fi
# maturin (from the lock) is the build backend; it must be on PATH without build isolation.
PATH="$PWD/.venv/bin:$PATH" .venv/bin/python -m pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation -e .
# Byte-compile the package as a wheel install would (pip compiles what it installs; an
# editable install does not, and with PYTHONDONTWRITEBYTECODE set nothing would ever cache it,
# so every process would compile tcpsim's sources again). Stale files are recompiled on import.
.venv/bin/python -m compileall -q python/tcpsim
