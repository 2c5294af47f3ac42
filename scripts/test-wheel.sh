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
# A wheel users can install: a manylinux tag (maturin audits the glibc symbols the core uses),
# the LICENSE in its metadata, and a core without debug information (the release profile).
python3 - "$tmp"/dist/tcpsim-*.whl <<'PY'
import struct, sys, zipfile
wheel = sys.argv[1]
assert "-manylinux_" in wheel, f"not a manylinux wheel: {wheel}"
z = zipfile.ZipFile(wheel)
assert any(n.endswith(".dist-info/licenses/LICENSE") for n in z.namelist()), "LICENSE missing from the wheel"
# Package data beside the code: the figure style (tcpsim.STYLE) and the report's templates.
assert "tcpsim/tcpsim.mplstyle" in z.namelist(), "tcpsim.mplstyle missing from the wheel"
assert "tcpsim/report/templates/folder.html" in z.namelist(), "report templates missing from the wheel"
elf = z.read("tcpsim/_core.abi3.so")
shoff, = struct.unpack_from("<Q", elf, 0x28)
shentsize, shnum, shstrndx = struct.unpack_from("<HHH", elf, 0x3A)
def section(i):
    return struct.unpack_from("<IIQQQQIIQQ", elf, shoff + i * shentsize)
strtab = section(shstrndx)[4]
names = [elf[strtab + section(i)[0] : elf.index(b"\0", strtab + section(i)[0])].decode() for i in range(shnum)]
debug = [n for n in names if n.startswith(".debug")]
assert not debug, f"the core carries debug sections: {debug}"
PY
python3 -m venv "$tmp/venv"
"$tmp/venv/bin/python" -m pip install --quiet --disable-pip-version-check \
    --constraint "$repo/requirements.lock" "$tmp/dist"/tcpsim-*.whl

cd "$tmp"
# One version source: the workspace Cargo.toml.
version="$(sed -n 's/^version = "\(.*\)"$/\1/p' "$repo/Cargo.toml" | head -1)"
test "$("$tmp/venv/bin/tcpsim" --version)" = "tcpsim $version"
export TCPSIM_STORE="$tmp/store"
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
# A sweep's folder plotted and reported from the installed package (style file and templates).
"$tmp/venv/bin/tcpsim" -q sweep lossy_link --set duration=5s --grid 'links[1].rate=1Mbps,2Mbps' --out "$tmp/sweep" > /dev/null
"$tmp/venv/bin/tcpsim" plot "$tmp/sweep" --x 'links[1].rate' > /dev/null && test -s "$tmp/sweep/plot.png"
"$tmp/venv/bin/tcpsim" report "$tmp/sweep" > /dev/null && test -s "$tmp/sweep/report/index.html"
echo "wheel test: tcpsim bench, repro validation.single_flow (with its HTML report), and plot and report of a sweep ran from a fresh install"
