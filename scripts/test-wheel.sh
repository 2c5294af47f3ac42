#!/usr/bin/env bash
# A plain install works: build the wheel users install (scripts/build-wheel.sh: manylinux_2_17,
# checked by auditwheel), install it into a fresh venv without extras (versions pinned by
# requirements.lock; pip's cache makes this quick) and, from a directory outside the source
# tree, run, validate and list bundled scenarios and run a benchmark; then add the parquet, stats
# and plot extras and run a quick reproduction with its HTML report.
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$PWD"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

wheel="$(./scripts/build-wheel.sh "$tmp/dist")"
# A wheel users can install: a manylinux tag, the LICENSE and the project's description in its
# metadata, the three large packages only in extras, and a core without debug information.
python3 - "$wheel" <<'PY'
import struct, sys, zipfile
wheel = sys.argv[1]
platforms = wheel.removesuffix(".whl").rsplit("-", 1)[1].split(".")
assert any(p.startswith("manylinux_2_17_") for p in platforms), f"not a manylinux_2_17 wheel: {wheel}"
z = zipfile.ZipFile(wheel)
assert any(n.endswith(".dist-info/licenses/LICENSE") for n in z.namelist()), "LICENSE missing from the wheel"
# Package data beside the code: the figure style (tcpsim.STYLE) and the report's templates.
assert "tcpsim/tcpsim.mplstyle" in z.namelist(), "tcpsim.mplstyle missing from the wheel"
assert "tcpsim/report/templates/folder.html" in z.namelist(), "report templates missing from the wheel"
metadata = z.read(next(n for n in z.namelist() if n.endswith(".dist-info/METADATA"))).decode()
fields = [line.partition(": ") for line in metadata.split("\n\n")[0].splitlines()]
requires = [value for key, _, value in fields if key == "Requires-Dist"]
for module, extra in {"pyarrow": "parquet", "scipy": "stats", "matplotlib": "plot"}.items():
    lines = [r.replace('"', "'") for r in requires if r.startswith(module + ">=")]
    assert lines and all(f"extra == '{extra}'" in r for r in lines), requires
assert {"Author", "Classifier", "Keywords", "License-Expression"} <= {key for key, _, _ in fields}, fields
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
    --constraint "$repo/requirements.lock" "$wheel"
for module in pyarrow scipy matplotlib; do
    if "$tmp/venv/bin/python" -c "import $module" 2>/dev/null; then
        echo "a plain install brought $module" >&2
        exit 1
    fi
done

cd "$tmp"
# One version source: the workspace Cargo.toml; the commit is the one the wheel was built from
# ("unknown" from sources that are not a git checkout).
version="$(sed -n 's/^version = "\(.*\)"$/\1/p' "$repo/Cargo.toml" | head -1)"
commit="$(git -C "$repo" rev-parse HEAD 2>/dev/null || echo unknown)"
case "$("$tmp/venv/bin/tcpsim" --version)" in
"tcpsim $version (commit $commit"*) ;;
*)
    echo "tcpsim --version: $("$tmp/venv/bin/tcpsim" --version), expected $version and the commit" >&2
    exit 1
    ;;
esac
export TCPSIM_STORE="$tmp/store"
"$tmp/venv/bin/tcpsim" run lossy_link --json > run.json
"$tmp/venv/bin/tcpsim" validate lossy_link > /dev/null
# A file run twice: the second run is served from the scenario the first one kept compiled.
cp "$repo/scenarios/lossy_link.toml" s.toml
"$tmp/venv/bin/tcpsim" run s.toml --json > first.json
"$tmp/venv/bin/tcpsim" run s.toml --json > again.json
test "$(ls "$TCPSIM_STORE/compiled" | wc -l)" = 1
# The two quick workloads (each in a process of its own); the podlesny ones take a minute.
"$tmp/venv/bin/tcpsim" bench lossy_link dumbbell --json > bench.json
"$tmp/venv/bin/tcpsim" list --json > list.json
# The wheel's core is built as the development one is: profile-guided when scripts/setup.sh was.
dev_build="$("$repo/.venv/bin/python" -c 'import tcpsim._core as core; print(core.ENGINE_BUILD)')"
DEV_BUILD="$dev_build" "$tmp/venv/bin/python" - <<'PY'
import json, os
rows = json.load(open("bench.json"))["workloads"]
assert {r["name"] for r in rows} == {"lossy_link", "dumbbell"} and all(r["events"] > 0 for r in rows), rows
assert all(r["engine_build"] == os.environ["DEV_BUILD"] for r in rows), (os.environ["DEV_BUILD"], rows)
assert all(r["process_wall_s"] > r["wall_s"] and r["peak_rss_mb"] > 0 for r in rows), rows
names = {w["name"] for w in json.load(open("list.json"))["workloads"]}
from tcpsim.bench import WORKLOADS  # the installed package's own list: `list` shows every workload
assert names == set(WORKLOADS) and {"lossy_link", "dumbbell"} <= names, names
run = json.load(open("run.json"))
assert run["flows"][0]["goodput_bps"] > 0 and run["meta"]["build_commit"], run["meta"]
first, again = (json.load(open(name)) for name in ("first.json", "again.json"))
for document in (first, again):
    for clock in ("wall_s", "events_per_s", "sim_s_per_wall_s"):
        del document["meta"][clock]
assert first == again and first["flows"] == run["flows"], (first["meta"], again["meta"])
PY
"$tmp/venv/bin/python" -m pip install --quiet --disable-pip-version-check \
    --constraint "$repo/requirements.lock" "$wheel[parquet,stats,plot]"
"$tmp/venv/bin/tcpsim" repro validation.single_flow --quick --report --out "$tmp/out" > /dev/null
test -s "$tmp/out/summary.json" && test -s "$tmp/out/validation.single_flow.png"
# The report's templates are package data: the pages exist only if they were shipped.
test -s "$tmp/out/report/index.html" && test -s "$tmp/out/report/validation.single_flow.html"
# A sweep's folder plotted and reported from the installed package (style file and templates).
"$tmp/venv/bin/tcpsim" -q sweep lossy_link --set duration=5s --grid 'links[1].rate=1Mbps,2Mbps' --out "$tmp/sweep" > /dev/null
"$tmp/venv/bin/tcpsim" plot "$tmp/sweep" --x 'links[1].rate' > /dev/null && test -s "$tmp/sweep/plot.png"
"$tmp/venv/bin/tcpsim" report "$tmp/sweep" > /dev/null && test -s "$tmp/sweep/report/index.html"
echo "wheel test: $(basename "$wheel"): run, validate, list and bench from a plain install; repro validation.single_flow (with its HTML report) and plot and report of a sweep with the extras"
