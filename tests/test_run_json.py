"""`tcpsim run --json` carries every column of the tables `--out` saves, from a real run."""

import json
from pathlib import Path

import pandas as pd
import pytest
from tcpsim.cli import app
from typer.testing import CliRunner

cli = CliRunner()


def test_run_json_has_every_column_of_the_saved_tables(tmp_path):
    scenario = str(Path(__file__).resolve().parent.parent / "scenarios" / "lossy_link.toml")
    args = ["--set", "duration=20s", "--set", "warmup=5s"]
    as_json = cli.invoke(app, ["run", scenario, *args, "--json"])
    assert as_json.exit_code == 0, as_json.output
    data = json.loads(as_json.stdout)
    saved = cli.invoke(app, ["run", scenario, *args, "--out", str(tmp_path / "r")])
    assert saved.exit_code == 0, saved.output
    for table in ("flows", "links"):
        columns = pd.read_csv(tmp_path / "r" / f"{table}.csv").columns.tolist()
        assert [list(row) for row in data[table]] == [columns] * len(data[table])
    flow = data["flows"][0]
    for column in ("packets_retransmitted", "dupacks_sent", "final_cwnd_bytes", "final_ssthresh_bytes"):
        assert column in flow
    # goodput (macura eq. 1: new data sent) minus throughput (delivered) is the new data not delivered
    new_sent = flow["bytes_sent"] - flow["bytes_retransmitted"]
    assert flow["goodput_bps"] - flow["throughput_bps"] == pytest.approx((new_sent - flow["bytes_delivered"]) * 8 / 15)


def test_a_bundled_scenario_runs_by_name_from_anywhere(tmp_path, monkeypatch):
    import tcpsim

    monkeypatch.chdir(tmp_path)  # no scenarios/ folder here, as for a pip user
    named = cli.invoke(app, ["run", "lossy_link", "--set", "duration=5s", "--json"])
    assert named.exit_code == 0, named.output
    by_file = tcpsim.run(str(Path(__file__).resolve().parent.parent / "scenarios" / "lossy_link.toml"), duration="5s")
    assert json.loads(named.stdout)["flows"] == by_file.to_json_dict()["flows"]
    assert tcpsim.run("red_ecn", duration="11s").meta["seed"] == 1
    missing = cli.invoke(app, ["run", "lossy_lnk"])
    assert missing.exit_code == 2
    assert "nor is it a bundled scenario (" in missing.output and "lossy_link, " in missing.output
    listed = json.loads(cli.invoke(app, ["list", "--json"]).stdout)
    assert "lossy_link" in [s["name"] for s in listed["scenarios"]]
    (tmp_path / "lossy_link").write_text('duration = "1s"\n')  # a file of that name wins
    mine = cli.invoke(app, ["validate", "lossy_link"])
    assert mine.exit_code == 2 and "links" in mine.output
