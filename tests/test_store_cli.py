"""`tcpsim store info | ls | show | export | gc | clear` on a store filled by real runs, and
their answers to bad input: one `error:` line, exit 2."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import time

import pandas as pd
import pytest
from tcpsim.cli import app
from tcpsim.paths import builtin_scenario
from tcpsim.runner import RunSpec, run_digest, run_many
from tcpsim.store import Store
from tcpsim.store.catalog import CATALOG
from typer.testing import CliRunner

cli = CliRunner()
SEEDS = (1, 2, 3)


def spec(seed: int) -> RunSpec:
    overrides = (("duration", "5s"), ("trace.cwnd", True))
    return RunSpec(key=(seed,), scenario=builtin_scenario("lossy_link"), seed=seed, overrides=overrides)


@pytest.fixture(scope="module")
def filled(tmp_path_factory):
    root = tmp_path_factory.mktemp("filled")
    results = run_many([spec(s) for s in SEEDS], jobs=1, cache_dir=root, progress=False)
    return root, results


def store_cmd(*args: str):
    return cli.invoke(app, ["store", *args])


def test_info_counts_runs_and_names_the_engine(filled):
    root, _ = filled
    result = store_cmd("info", "--store", str(root), "--json")
    assert result.exit_code == 0, result.output
    facts = json.loads(result.stdout)
    assert facts["runs"] == facts["runs_of_this_engine"] == 3 and facts["failed"] == 0 and facts["scenarios"] == 1
    assert facts["data_bytes"] > 0 and facts["root"] == str(root)
    text = store_cmd("info", "--store", str(root)).stdout
    assert "3 (3 of this engine build)" in text and str(root) in text


def test_info_follows_the_environment(filled, monkeypatch):
    root, _ = filled
    monkeypatch.setenv("TCPSIM_STORE", str(root))
    assert json.loads(store_cmd("info", "--json").stdout)["runs"] == 3


def test_ls_lists_every_run(filled):
    root, _ = filled
    rows = json.loads(store_cmd("ls", "--store", str(root), "--json").stdout)
    assert sorted(r["key"] for r in rows) == sorted(run_digest(spec(s)) for s in SEEDS)
    assert {r["seed"] for r in rows} == {"1", "2", "3"} and all(r["status"] == "ok" for r in rows)
    text = store_cmd("ls", "--store", str(root)).stdout
    assert "3 runs" in text and run_digest(spec(2))[:16] in text


def test_show_prints_the_record_scenario_and_tables_by_key_prefix(filled):
    root, results = filled
    key = run_digest(spec(2))
    shown = json.loads(store_cmd("show", key[:10], "--store", str(root), "--json").stdout)
    assert shown["run"]["key"] == key and shown["run"]["seed"] == "2"
    assert shown["scenario"]["links"][1]["name"] == "lossy"
    assert shown["result"]["flows"][0]["goodput_bps"] == results[(2,)].flows["goodput_bps"][0]
    text = store_cmd("show", key[:8], "--store", str(root)).stdout
    assert key in text and "goodput" in text and '"links"' in text


def test_export_writes_tidy_tables_labelled_by_run(filled, tmp_path):
    root, results = filled
    for fmt in ("parquet", "csv"):
        out = tmp_path / fmt
        result = store_cmd("export", "--format", fmt, "--out", str(out), "--store", str(root))
        assert result.exit_code == 0, result.output
        read = pd.read_parquet if fmt == "parquet" else pd.read_csv
        runs, flows, cwnd = (read(out / f"{name}.{fmt}") for name in ("runs", "flows", "trace_cwnd"))
        assert len(runs) == 3 and sorted(runs["seed"]) == [1, 2, 3]
        assert list(flows.columns[:2]) == ["key", "seed"] and len(flows) == 3
        mine = flows[flows["seed"] == 1]
        assert mine["goodput_bps"].tolist() == results[(1,)].flows["goodput_bps"].tolist()
        assert len(cwnd) == sum(len(r.traces["cwnd"]) for r in results.values())
        assert (out / f"links.{fmt}").exists() and (out / f"classes.{fmt}").exists()


def test_gc_removes_orphans_and_failures_then_evicts_least_recently_used(tmp_path):
    root = tmp_path / "store"
    run_many([spec(s) for s in SEEDS], jobs=1, cache_dir=root, progress=False)
    run_many([spec(1)], jobs=1, cache_dir=root, progress=False)  # seed 1 is now the most recently used
    orphan = root / "runs" / "ff" / ("f" * 64 + "-0000")
    orphan.mkdir(parents=True)
    (orphan / "flows.parquet").write_bytes(b"x" * 100)
    old = time.time() - 2 * 3600
    os.utime(orphan, (old, old))
    fresh_orphan = root / "runs" / "ff" / ".tmp-being-written"
    fresh_orphan.mkdir()
    result = store_cmd("gc", "--store", str(root))
    assert result.exit_code == 0, result.output
    assert "removed 0 runs, 0 failed-run records and 1 orphaned data directories" in result.stdout
    assert not orphan.exists() and fresh_orphan.exists()  # a write in progress is left alone

    catalog = json.loads(store_cmd("info", "--store", str(root), "--json").stdout)["catalog_bytes"]
    sizes = {r["seed"]: r["bytes"] for r in json.loads(store_cmd("ls", "--store", str(root), "--json").stdout)}
    limit = catalog + sizes["1"] + min(sizes.values()) // 2  # room for one run: the most recently used
    result = store_cmd("gc", "--max-size", f"{limit}B", "--store", str(root))
    assert "removed 2 runs" in result.stdout, result.output
    kept = [row["seed"] for row in Store(root).catalog.runs()]
    assert kept == ["1"]


def test_gc_max_size_0_keeps_no_run(filled, tmp_path):
    """0 is a size (issue 27: it was refused): nothing fits, so every run goes."""
    root = tmp_path / "store"
    shutil.copytree(filled[0], root)
    result = store_cmd("gc", "--max-size", "0", "--store", str(root))
    assert result.exit_code == 0, result.output
    assert Store(root).catalog.runs() == []


def test_clear_needs_yes_without_a_terminal_and_empties_the_store(tmp_path):
    root = tmp_path / "store"
    run_many([spec(1)], jobs=1, cache_dir=root, progress=False)
    (root / "compiled").mkdir()
    (root / "compiled" / f"{'0' * 64}.json").write_text("{}")  # `tcpsim run`'s kept scenarios
    refused = store_cmd("clear", "--store", str(root))
    assert refused.exit_code == 2 and "without --yes" in refused.output
    result = store_cmd("clear", "--yes", "--store", str(root))
    assert result.exit_code == 0 and "deleted 1 runs" in result.stdout
    assert Store(root).catalog.runs() == [] and not (root / "runs").exists() and not (root / "compiled").exists()


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["info", "--store", "{missing}"], "no result store there"),
        (["show", "zz", "--store", "{root}"], "at least its first 4 characters"),
        (["show", "0000000", "--store", "{root}"], "no stored run has a key starting with 0000000"),
        (["export", "--format", "xlsx", "--out", "{tmp}/x", "--store", "{root}"], "--format 'xlsx': use one of"),
        (["gc", "--max-size", "lots", "--store", "{root}"], "--max-size:"),
        (["gc", "--max-size", "-1GB", "--store", "{root}"], "--max-size:"),
        (["gc", "--max-size", "9" * 5000, "--store", "{root}"], "(5000 digits) is too large"),
    ],
)
def test_bad_input_is_one_error_line_and_exit_2(filled, tmp_path, args, fragment):
    root, _ = filled
    args = [a.format(root=root, missing=tmp_path / "nothing", tmp=tmp_path) for a in args]
    result = store_cmd(*args)
    assert result.exit_code == 2, result.output
    assert result.output.startswith("error: ") and fragment in result.output
    assert "Traceback" not in result.output and not (tmp_path / "nothing").exists()


DAMAGE = {
    "a seed that is no number": "UPDATE runs SET seed = 'notaseed'",
    "bytes where text belongs": "UPDATE runs SET meta = X'00ff10', git_commit = X'ff'",
    "a list where the file table belongs": "UPDATE runs SET files = '[1, 2]'",
    "no data directory": "UPDATE runs SET data_dir = NULL",
    "meta that is no JSON": "UPDATE runs SET meta = '{not json'",
    "text in the number columns": "UPDATE runs SET wall_s = 'abc', events = 'x', bytes = 'y'",
    "a scenario that is no JSON": "UPDATE scenarios SET canonical = 'garbage = ['",
}


@pytest.mark.parametrize("damage", DAMAGE)
def test_store_commands_on_a_damaged_catalog_warn_and_go_on(filled, tmp_path, damage):
    """Each of these once ended `ls`, `show` or `export` in a traceback (issue 27): a store is
    data, and what a damaged row cannot give is reported, never raised."""
    source, _ = filled
    root = tmp_path / "store"
    shutil.copytree(source, root)
    with sqlite3.connect(root / CATALOG) as db:
        db.execute(DAMAGE[damage])
    key = Store(root).catalog.runs()[0]["key"]
    for args in (["ls"], ["show", key[:8]], ["export", "--out", str(tmp_path / "x")], ["info"]):
        result = store_cmd(*args, "--store", str(root))
        assert result.exit_code == 0, (args, result.output)
        assert "Traceback" not in result.output


def test_a_damaged_entry_is_reported_as_what_each_command_does_with_it(filled, tmp_path):
    """The warning for a damaged entry ends with what happens next: `store show` and `report`
    show no results and recompute nothing, export leaves the run out; only a run or sweep that
    needs the result recomputes it (issue 27: `report KEY` said "recomputing the run")."""
    source, _ = filled
    for args, consequence in [
        (["store", "show"], "forgotten, its results are not shown"),
        (["report"], "forgotten, not recomputed here (a run or sweep of its scenario will)"),
        (["store", "export", "--out", str(tmp_path / "x")], "forgotten, left out of the export"),
    ]:
        root = tmp_path / args[-1].replace("/", "_")
        shutil.copytree(source, root)
        with sqlite3.connect(root / CATALOG) as db:
            db.execute("UPDATE runs SET data_dir = '/nonexistent/elsewhere'")
        key = Store(root).catalog.runs()[0]["key"]
        keyed = [*args, key[:12]] if args[-1] in ("show", "report") else args
        result = cli.invoke(app, [*keyed, "--store", str(root)])
        assert f"warning: store entry {key[:16]}" in result.stderr, result.output
        assert consequence in result.stderr, result.stderr
        assert "recomputing" not in result.stderr
