"""The engine caps the cwnd, rtt and queue traces at the canonical `trace.max_rows` rows
together and says in the run's meta that (and when) it stopped recording.

Most tests hand the engine a canonical scenario directly, the way `tcpsim.api.run` does; the
last one sets the cap through the scenario's `limits.max_trace_rows`."""

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import tcpsim
from tcpsim import _core
from tcpsim.limits import ScenarioWarning
from tcpsim.paths import builtin_scenario
from tcpsim.result import build_result
from tcpsim.scenario import load_scenario

LOSSY = builtin_scenario("lossy_link")
SCENARIO = Path(__file__).resolve().parent.parent / "python" / "tcpsim" / "scenarios" / "lossy_link.toml"
TRACES_ON = ["duration=0.5s", "trace.cwnd=true", "trace.queue=true", "trace.interval=1us"]


def run_canonical(canonical: dict, seed: int = 1) -> tcpsim.RunResult:
    summary_json, raw_traces, _ = _core.run(json.dumps(canonical), seed)
    variants = [f["name"] for f in canonical["flows"]]
    return build_result(json.loads(summary_json), raw_traces, canonical, variants, variants, {"seed": seed})


def test_traces_stop_at_max_rows_and_meta_says_when():
    canonical = load_scenario(LOSSY, overrides=TRACES_ON).to_engine()
    canonical["trace"]["max_rows"] = 1000
    r = run_canonical(canonical)
    cwnd, queue = r.trace("cwnd"), r.trace("queue")
    assert len(cwnd) + len(queue) == 1000
    assert r.meta["trace_truncated"] is True
    # One flow and two links (four queues): each 1 µs sample takes 5 rows, so the 1001st row
    # is the first of the sample at 200 µs.
    assert r.meta["trace_truncated_at_s"] == pytest.approx(200e-6)
    last = max(cwnd["time_s"].max(), queue["time_s"].max())
    assert last < r.meta["trace_truncated_at_s"]
    assert np.all(np.diff(cwnd["time_s"]) == pytest.approx(1e-6))


def test_a_truncated_trace_changes_no_summary():
    canonical = load_scenario(LOSSY, overrides=TRACES_ON).to_engine()
    full = run_canonical(canonical)
    canonical["trace"]["max_rows"] = 1000
    capped = run_canonical(canonical)
    assert full.meta["trace_truncated"] is False and full.meta["trace_truncated_at_s"] is None
    assert len(full.trace("cwnd")) + len(full.trace("queue")) == 5 * 500_001
    assert capped.flows.equals(full.flows) and capped.links.equals(full.links)


def test_runs_through_the_api_report_an_untruncated_trace():
    r = tcpsim.run(LOSSY, seed=1, duration="10s", **{"trace.cwnd": True})
    assert len(r.trace("cwnd")) > 0
    assert (r.meta["trace_truncated"], r.meta["trace_truncated_at_s"]) == (False, None)


def test_the_engine_refuses_a_cap_of_zero():
    canonical = load_scenario(LOSSY, overrides=TRACES_ON).to_engine()
    canonical["trace"]["max_rows"] = 0
    with pytest.raises(ValueError, match=r"trace\.max_rows: must be >= 1"):
        _core.run(json.dumps(canonical), 1)


def test_limits_max_trace_rows_caps_a_forced_run_and_says_so(tmp_path):
    """The scenario's limit reaches the engine: a forced run with fine traces stops recording at
    `limits.max_trace_rows`, and the CLI and the API both say so."""
    overrides = {
        "duration": "2s",
        "trace.cwnd": True,
        "trace.queue": True,
        "trace.interval": "1us",
        "limits.max_trace_rows": 500,
    }
    with pytest.warns(ScenarioWarning, match="limits.max_trace_rows: the traces stopped at 500 rows"):
        result = tcpsim.run(SCENARIO, seed=1, force=True, **overrides)
    rows = len(result.trace("cwnd")) + len(result.trace("queue"))
    assert rows == 500 and result.meta["trace_truncated"]
    sets = [
        f"--set={key}={str(value).lower() if isinstance(value, bool) else value}" for key, value in overrides.items()
    ]
    cli = subprocess.run(
        [str(Path(sys.executable).parent / "tcpsim"), "run", str(SCENARIO), "--force", "--json", *sets],
        capture_output=True,
        text=True,
    )
    assert cli.returncode == 0, cli.stderr
    assert "warning: limits.max_trace_rows: the traces stopped at 500 rows" in cli.stderr
