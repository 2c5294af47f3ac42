"""A plain install (no extras) runs, validates and lists scenarios: pyarrow, scipy and matplotlib
are extras (`tcpsim.extras`), and a feature that needs one names the extra to install.

Each command runs in a subprocess in which those three modules cannot be imported
(``sys.modules[name] = None`` makes ``import name`` fail as if it were not installed), so the
test sees what a `pip install tcpsim` user sees; scripts/test-wheel.sh checks the same in a real
venv without them.
"""

import json
import subprocess
import sys

import pytest
from tcpsim.extras import EXTRA_OF

BLOCKED = sorted(EXTRA_OF)
CLI = """
import sys
blocked = {blocked!r}
for name in blocked:
    sys.modules[name] = None
sys.argv = ["tcpsim", *sys.argv[1:]]
from tcpsim.cli import main
try:
    main()
finally:
    loaded = sorted(name for name in {extras!r} if sys.modules.get(name) is not None)
    assert not blocked or not loaded, loaded
"""


def tcpsim_without_extras(*args: str, cwd, blocked: list[str] = BLOCKED) -> subprocess.CompletedProcess[str]:
    script = CLI.format(blocked=blocked, extras=BLOCKED)
    return subprocess.run([sys.executable, "-c", script, *args], capture_output=True, text=True, cwd=cwd, timeout=120)


def tcpsim_with_extras(*args: str, cwd) -> subprocess.CompletedProcess[str]:
    return tcpsim_without_extras(*args, cwd=cwd, blocked=[])


def test_run_json_needs_no_extra_and_gives_the_same_result(tmp_path):
    lean = tcpsim_without_extras("run", "lossy_link", "--json", "--seed", "3", cwd=tmp_path)
    assert lean.returncode == 0, lean.stderr
    full = tcpsim_with_extras("run", "lossy_link", "--json", "--seed", "3", cwd=tmp_path)
    assert full.returncode == 0, full.stderr
    lean_doc, full_doc = json.loads(lean.stdout), json.loads(full.stdout)
    for doc in (lean_doc, full_doc):  # the only fields that differ between two runs: timings
        for key in ("wall_s", "events_per_s", "sim_s_per_wall_s"):
            doc["meta"].pop(key)
    assert lean_doc == full_doc
    assert lean_doc["flows"][0]["goodput_bps"] > 0


def test_validate_and_list_need_no_extra(tmp_path):
    validated = tcpsim_without_extras("validate", "lossy_link", cwd=tmp_path)
    assert validated.returncode == 0, validated.stderr
    assert validated.stdout.startswith("ok: ")
    listed = tcpsim_without_extras("list", "--json", cwd=tmp_path)
    assert listed.returncode == 0, listed.stderr
    ids = {e["id"] for e in json.loads(listed.stdout)["experiments"]}
    assert {"validation.single_flow", "moller.fig3"} <= ids


@pytest.mark.parametrize(
    ("args", "extra"),
    [
        (["run", "lossy_link", "--set", "trace.cwnd=true", "--out", "out"], "parquet"),
        (["sweep", "lossy_link", "--grid", "links[1].rate=1Mbps,2Mbps", "-j", "1"], "stats"),
        (["repro", "validation.single_flow", "--quick", "-j", "1"], "parquet,stats,plot"),
        (["model", "moller", "--capacity", "10Mbps", "--rtt", "50ms", "--buffers", "2:4", "--json"], "stats"),
    ],
)
def test_a_feature_needing_an_extra_names_it(tmp_path, args, extra):
    done = tcpsim_without_extras(*args, cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert f"pip install 'tcpsim[{extra}]'" in done.stderr, done.stderr


def test_a_sweep_runs_without_the_store_when_pyarrow_is_missing(tmp_path):
    """The store keeps runs as Parquet; without pyarrow the runs still run, and are not kept."""
    done = tcpsim_without_extras("sweep", "lossy_link", "--grid", "links[1].rate=1Mbps,2Mbps", "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "pip install 'tcpsim[parquet]'" in done.stderr and "results are not kept" in done.stderr
    rows = json.loads(done.stdout)
    assert sorted(r["links[1].rate_bps"] for r in rows) == [1_000_000, 2_000_000]


def test_the_python_api_names_the_extra_a_method_needs(tmp_path):
    script = f"""
import sys
for name in {BLOCKED!r}:
    sys.modules[name] = None
import tcpsim
r = tcpsim.run("lossy_link", duration="5s", **{{"trace.cwnd": True}})
assert r.flows["goodput_bps"].iloc[0] > 0
for call in (lambda: r.plot("cwnd"), lambda: r.save("out")):
    try:
        call()
    except ImportError as error:
        print(error)
r.save("csv", trace_format="csv")
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "RunResult.plot needs matplotlib, which a plain install leaves out: pip install 'tcpsim[plot]' (or 'tcpsim[all]')",
        "saving traces as Parquet needs pyarrow, which a plain install leaves out: pip install 'tcpsim[parquet]' "
        "(or 'tcpsim[all]'); or save them as CSV: --trace-format csv (trace_format=\"csv\")",
    ]
    assert (tmp_path / "csv" / "trace_cwnd.csv").is_file()
