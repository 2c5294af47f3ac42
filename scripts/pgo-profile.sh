#!/usr/bin/env bash
# Print the path of the profile for a profile-guided (PGO) build of the core from the current
# sources, making it first if there is none: the core built with counters
# (`-Cprofile-generate`, in target/pgo-generate), `scripts/pgo_train.py` run on it from a
# temporary copy of the package (the installed core is not touched), the counts merged by
# llvm-profdata into target/pgo/<key>.profdata. The key hashes the compiler's version, the
# training script and every file of the Rust workspace, so a profile is reused until one of them
# changes. Prints nothing when llvm-profdata (rustup's llvm-tools component, which this tries to
# add) is not available: the caller then builds without PGO.
set -euo pipefail
cd "$(dirname "$0")/.."
host="$(rustc -vV | sed -n 's/^host: //p')"
profdata="$(rustc --print sysroot)/lib/rustlib/$host/bin/llvm-profdata"
if [ ! -x "$profdata" ] && command -v rustup >/dev/null 2>&1; then
    rustup component add llvm-tools >/dev/null 2>&1 || true
fi
if [ ! -x "$profdata" ]; then
    echo "note: llvm-profdata not found (rustup component add llvm-tools): building the core without profile-guided optimization, which runs it about 5-15 % slower" >&2
    exit 0
fi
key="$(
    {
        rustc -vV
        sha256sum scripts/pgo_train.py
        find Cargo.toml Cargo.lock crates -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum
    } | sha256sum | cut -c1-16
)"
profile="$PWD/target/pgo/$key.profdata"
if [ ! -f "$profile" ]; then
    echo "building the core with counters and training it for the profile-guided build (about a minute)" >&2
    raw="$PWD/target/pgo/raw"
    rm -rf target/pgo
    mkdir -p "$raw"
    RUSTFLAGS="${RUSTFLAGS:-} -Cprofile-generate=$raw" PYO3_PYTHON="$PWD/.venv/bin/python" \
        CARGO_TARGET_DIR=target/pgo-generate cargo build --quiet --release -p tcpsim-py
    rm -f "$raw"/*.profraw # the build scripts' own counts
    package="$(mktemp -d)"
    trap 'rm -rf "$package"' EXIT
    cp -r python/tcpsim "$package/"
    cp target/pgo-generate/release/lib_core.so "$package/tcpsim/_core.abi3.so"
    PYTHONPATH="$package" .venv/bin/python scripts/pgo_train.py >/dev/null
    "$profdata" merge -o "$profile" "$raw"
    rm -rf "$raw"
fi
echo "$profile"
