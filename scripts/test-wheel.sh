#!/usr/bin/env bash
# A plain install works: build the wheel with maturin, install it into a fresh venv (its declared
# dependencies, pinned by requirements.lock; pip's cache makes this quick), then, from a
# directory outside the source tree, run a benchmark and a quick reproduction that read the
# scenarios shipped in the package.
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$PWD"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

PATH="$repo/.venv/bin:$PATH" maturin build --quiet --release --out "$tmp/dist" >/dev/null
python3 -m venv "$tmp/venv"
"$tmp/venv/bin/python" -m pip install --quiet --disable-pip-version-check \
    --constraint "$repo/requirements.lock" "$tmp/dist"/tcpsim-*.whl

cd "$tmp"
export TCPSIM_CACHE="$tmp/cache"
# The two quick workloads (each in a process of its own); the podlesny ones take a minute.
"$tmp/venv/bin/tcpsim" bench lossy_link dumbbell --json > bench.json
"$tmp/venv/bin/tcpsim" list --json > list.json
"$tmp/venv/bin/python" - <<'PY'
import json
rows = json.load(open("bench.json"))["workloads"]
assert {r["name"] for r in rows} == {"lossy_link", "dumbbell"} and all(r["events"] > 0 for r in rows), rows
assert all(r["process_wall_s"] > r["wall_s"] and r["peak_rss_mb"] > 0 for r in rows), rows
names = {w["name"] for w in json.load(open("list.json"))["workloads"]}
assert names == {"lossy_link", "dumbbell", "podlesny_1600", "podlesny_1g"}, names
PY
"$tmp/venv/bin/tcpsim" repro validation.single_flow --quick --report --out "$tmp/out" > /dev/null
test -s "$tmp/out/summary.json" && test -s "$tmp/out/validation.single_flow.png"
# The report's templates are package data: the pages exist only if they were shipped.
test -s "$tmp/out/report/index.html" && test -s "$tmp/out/report/validation.single_flow.html"
echo "wheel test: tcpsim bench and repro validation.single_flow (with its HTML report) ran from a fresh install"
