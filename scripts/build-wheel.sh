#!/usr/bin/env bash
# Build the wheel users install: `scripts/build-wheel.sh DIR` writes tcpsim-*.whl into DIR.
#
# The core is linked by zig against glibc 2.17's symbols (maturin --zig; zig ships the old
# glibc's stubs, so no old system or container is needed), which makes the wheel
# manylinux_2_17 (manylinux2014): it installs on every Linux with glibc >= 2.17 (RHEL/CentOS 7
# and later, Rocky 8, Ubuntu 18.04 and later). A plain `maturin build` here would link against this machine's glibc
# (2.36) and be tagged manylinux_2_34. auditwheel, independent of maturin, then checks the tag.
# zig compiles into a target directory of its own so the development build (`target/release`,
# linked by the system's cc) is not rebuilt. Needs ./scripts/setup.sh first (maturin, ziglang
# and auditwheel come from requirements-dev.lock).
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:?usage: scripts/build-wheel.sh OUT_DIR}"
expected="manylinux_2_17_$(uname -m)"

# Profile-guided like the development build (scripts/setup.sh), from the same profile.
if ! profile="$(./scripts/pgo-profile.sh)"; then
    echo "warning: making the profile failed (above); building the core without profile-guided optimization" >&2
    profile=""
fi
if [ -n "$profile" ]; then
    export RUSTFLAGS="${RUSTFLAGS:-} -Cprofile-use=$profile"
fi
PATH="$PWD/.venv/bin:$PATH" maturin build --quiet --release --zig --compatibility manylinux2014 \
    --target-dir target/manylinux --out "$out" >/dev/null
wheel="$(ls -t "$out"/tcpsim-*.whl | head -1)"
shown="$(.venv/bin/auditwheel show "$wheel" | tr -s ' \n' ' ')"
case "$shown" in
*"consistent with the following platform tag: \"$expected\""*) ;;
*)
    echo "auditwheel: $wheel is not $expected: $shown" >&2
    exit 1
    ;;
esac
echo "$wheel"
