"""The README's mixed example: Vegas, NewReno and Westwood+ flows, RED queues marking ECN, a
web generator and ON/OFF reverse flows on a two-bottleneck parking lot, run from the CLI with
`--json`: every component is visible in the output, with per-class metrics."""

import json

from tcpsim.cli import app
from typer.testing import CliRunner


def test_the_mixed_parking_lot_runs_and_json_shows_every_class():
    result = CliRunner().invoke(
        app, ["run", "scenarios/parking_lot_mix.toml", "--seed", "2", "--json", "--set", "duration=20s"]
    )
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    classes = {row["class"]: row for row in out["classes"]}
    assert set(classes) == {"newreno", "vegas", "westwood_plus", "reverse", "web"}
    assert all(row["throughput_bps"] > 0 for row in classes.values())
    assert abs(sum(row["share"] for row in classes.values()) - 1) < 1e-9
    bottlenecks = [link for link in out["links"] if link["name"] in ("r0-r1", "r1-r2")]
    assert sum(link["marks_ecn"] for link in bottlenecks) > 0, "the RED queues mark"
    assert sum(row["ecn_reductions"] for row in out["flows"]) > 0, "the senders answer the marks"
    (web,) = out["web"]
    assert web["transfers_completed"] > 20, "started in the window and finished"
    assert len(out["transfers"]) >= web["transfers_started"], "the table lists warm-up transfers too"
    reverse = [row for row in out["flows"] if row["name"].startswith("reverse")]
    assert len(reverse) == 3 and all(row["bytes_delivered"] > 0 for row in reverse)
