"""The result store keeps data, never code: exact round trips, and every damaged, foreign or
misplaced entry reported, recomputed and rewritten (issue 13, item 5; issue 17, item 1)."""

import json
import pickle
import sqlite3
from pathlib import Path

import pandas as pd
import pytest
from tcpsim import runner
from tcpsim.paths import builtin_scenario
from tcpsim.result import RunResult
from tcpsim.runner import RunSpec, run_many
from tcpsim.store import Store
from tcpsim.store.catalog import CATALOG
from tcpsim.store.key import source_digest

TRACES = (("trace.cwnd", True), ("trace.rtt", True), ("trace.queue", True), ("trace.throughput_bin", "1s"))
UDP = ("udp", [{"src": "source", "dst": "sink", "rate": "100kbps"}])


def spec(seed: int = 1) -> RunSpec:
    return RunSpec(
        key=(seed,), scenario=builtin_scenario("lossy_link"), seed=seed, overrides=(("duration", "5s"), *TRACES, UDP)
    )


@pytest.fixture
def computed(monkeypatch):
    """Keys of the runs actually simulated (not loaded from the store)."""
    keys = []
    real = runner._run_one

    def counting(s):
        keys.append(s.key)
        return real(s)

    monkeypatch.setattr(runner, "_run_one", counting)
    return keys


def row_of(root: Path, s: RunSpec) -> sqlite3.Row:
    return Store(root).catalog.get(runner.run_digest(s))


def dir_of(root: Path, s: RunSpec) -> Path:
    return root / row_of(root, s)["data_dir"]


TIMING = ("wall_s", "events_per_s", "sim_s_per_wall_s")


def assert_same(a: RunResult, b: RunResult, same_run: bool = True) -> None:
    """Equal tables and traces, dtypes included; equal meta too, timings included if ``same_run``
    (a recomputation takes another wall time)."""
    for table in ("flows", "links", "udp", "web", "transfers"):
        pd.testing.assert_frame_equal(getattr(a, table), getattr(b, table), check_exact=True)
    assert a.traces.keys() == b.traces.keys()
    for kind in a.traces:
        pd.testing.assert_frame_equal(a.traces[kind], b.traces[kind], check_exact=True)
    ignored = () if same_run else TIMING
    assert {k: v for k, v in a.meta.items() if k not in ignored} == {
        k: v for k, v in b.meta.items() if k not in ignored
    }


def run(root: Path, s: RunSpec) -> RunResult:
    return run_many([s], jobs=1, cache_dir=root, progress=False)[s.key]


def test_round_trip_is_exact_dtypes_included(tmp_path, computed, capsys):
    fresh = run(tmp_path, spec())
    loaded = run(tmp_path, spec())
    assert computed == [(1,)]
    assert "warning" not in capsys.readouterr().err  # a miss is not worth a warning, nor is a good entry
    assert set(loaded.traces) == {"cwnd", "rtt", "queue", "throughput"} and not loaded.udp.empty
    assert_same(fresh, loaded)


def test_an_entry_is_a_catalog_row_and_parquet_files_with_checksums(tmp_path):
    run(tmp_path, spec())
    row = row_of(tmp_path, spec())
    files = json.loads(row["files"])
    assert set(files) == {f.name for f in dir_of(tmp_path, spec()).iterdir()}
    assert {"flows.parquet", "links.parquet", "udp.parquet", "trace_cwnd.parquet", "trace_throughput.parquet"} <= set(
        files
    )
    assert row["status"] == "ok" and row["seed"] == "1" and row["engine_source"] == source_digest()
    assert (
        row["events"] > 0
        and row["wall_s"] > 0
        and row["bytes"] == sum(f.stat().st_size for f in dir_of(tmp_path, spec()).iterdir())
    )
    canonical = Store(tmp_path).catalog.scenario(row["scenario_hash"])
    assert json.loads(canonical)["links"] and runner._scenario_hash(spec()) == row["scenario_hash"]
    with sqlite3.connect(tmp_path / CATALOG) as db:  # another program can read the catalog
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


class _RunsCode:
    """Unpickling this creates a file: proof that a pickle was executed."""

    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return (Path.touch, (self.marker,))


def test_a_crafted_pickle_in_place_of_a_table_is_never_unpickled(tmp_path, computed, capsys):
    marker = tmp_path / "code-ran"
    payload = pickle.dumps(_RunsCode(marker))
    pickle.loads(payload)  # the payload is live: unpickling it runs code
    assert marker.exists()
    marker.unlink()
    root = tmp_path / "store"
    run(root, spec())
    flows = dir_of(root, spec()) / "flows.parquet"
    flows.write_bytes(payload)
    with sqlite3.connect(root / CATALOG) as db:  # even with a checksum that matches
        row = row_of(root, spec())
        files = json.loads(row["files"]) | {"flows.parquet": __import__("hashlib").sha256(payload).hexdigest()}
        db.execute("UPDATE runs SET files = ? WHERE key = ?", (json.dumps(files), row["key"]))
    result = run(root, spec())
    assert not marker.exists()
    assert computed == [(1,), (1,)] and isinstance(result, RunResult)
    assert "file flows.parquet is not a readable table" in capsys.readouterr().err
    assert_same(run(root, spec()), result)  # healed
    assert computed == [(1,), (1,)]


def test_files_copied_from_another_run_are_detected(tmp_path, computed, capsys):
    one, two = run(tmp_path, spec(1)), run(tmp_path, spec(2))
    assert one.flows["goodput_bps"][0] != two.flows["goodput_bps"][0]
    for file in dir_of(tmp_path, spec(2)).iterdir():
        (dir_of(tmp_path, spec(1)) / file.name).write_bytes(file.read_bytes())
    again = run(tmp_path, spec(1))
    assert "from another run" in capsys.readouterr().err
    assert computed == [(1,), (2,), (1,)]
    pd.testing.assert_frame_equal(again.flows, one.flows)
    assert_same(run(tmp_path, spec(1)), again)  # healed: loaded now
    assert computed == [(1,), (2,), (1,)]


@pytest.mark.parametrize("damage", ["truncate", "garbage", "delete"])
def test_a_damaged_or_missing_file_is_reported_recomputed_and_rewritten(tmp_path, computed, capsys, damage):
    first = run(tmp_path, spec())
    old_dir = dir_of(tmp_path, spec())
    trace = old_dir / "trace_rtt.parquet"
    if damage == "truncate":
        trace.write_bytes(trace.read_bytes()[: trace.stat().st_size // 2])
    elif damage == "garbage":
        trace.write_bytes(b"\x00garbage" * 100)
    else:
        trace.unlink()
    again = run(tmp_path, spec())
    err = capsys.readouterr().err
    assert f"warning: store entry {runner.run_digest(spec())[:16]} ({old_dir})" in err
    assert ("missing its file trace_rtt.parquet" if damage == "delete" else "does not match its checksum") in err
    assert computed == [(1,), (1,)]
    assert_same(again, first, same_run=False)
    assert not old_dir.exists() and dir_of(tmp_path, spec()).exists()  # the damaged copy is gone
    run(tmp_path, spec())
    assert computed == [(1,), (1,)] and "warning" not in capsys.readouterr().err


def test_a_directory_in_place_of_a_file_is_reported_not_a_traceback(tmp_path, computed, capsys):
    run(tmp_path, spec())
    flows = dir_of(tmp_path, spec()) / "flows.parquet"
    flows.unlink()
    flows.mkdir()
    result = run(tmp_path, spec())
    assert "has a directory where its file flows.parquet belongs" in capsys.readouterr().err
    assert result.flows["name"].tolist() == ["bulk"] and computed == [(1,), (1,)]


def test_a_store_directory_that_cannot_be_created_still_runs(tmp_path, computed, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    result = run(blocker / "store", spec())
    assert f"warning: store directory {blocker / 'store'} cannot be created" in capsys.readouterr().err
    assert result.flows["name"].tolist() == ["bulk"] and computed == [(1,)]


def test_a_catalog_that_is_not_a_database_still_runs(tmp_path, computed, capsys):
    (tmp_path / CATALOG).write_bytes(b"garbage, not SQLite" * 100)
    result = run(tmp_path, spec())
    assert f"warning: store catalog {tmp_path / CATALOG}" in capsys.readouterr().err
    assert result.flows["name"].tolist() == ["bulk"] and computed == [(1,)]


def test_a_store_of_another_schema_is_not_read(tmp_path, computed, capsys):
    run(tmp_path, spec())
    with sqlite3.connect(tmp_path / CATALOG) as db:
        db.execute("UPDATE store SET value = '999' WHERE name = 'schema'")
    run(tmp_path, spec())
    assert "has schema version 999" in capsys.readouterr().err
    assert computed == [(1,), (1,)]


@pytest.mark.parametrize("where", ["absolute", "dotdot", "symlink", "file_name", "not_text"])
def test_a_row_pointing_outside_the_store_is_refused_and_nothing_there_is_deleted(tmp_path, computed, capsys, where):
    """A store is data someone may hand you: a catalog row whose data directory (or file name)
    leads outside it is a damaged entry, recomputed, and the place it names is left alone
    (issue 27: such a row once made `store show` delete files there)."""
    root = tmp_path / "store"
    victim = tmp_path / "precious"
    victim.mkdir()
    (victim / "flows.parquet").write_text("the user's own file")
    run(root, spec())
    row = row_of(root, spec())
    column, value = {
        "absolute": ("data_dir", str(victim)),
        "dotdot": ("data_dir", "runs/../../precious"),
        "symlink": ("data_dir", "runs/zz/link"),
        "file_name": ("files", json.dumps({"../../../precious/flows.parquet": "0" * 64})),
        "not_text": ("data_dir", 42),
    }[where]
    if where == "symlink":
        (root / "runs" / "zz").mkdir()
        (root / "runs" / "zz" / "link").symlink_to(victim)
    with sqlite3.connect(root / CATALOG) as db:
        db.execute(f"UPDATE runs SET {column} = ? WHERE key = ?", (value, row["key"]))
    result = run(root, spec())
    assert isinstance(result, RunResult) and computed == [(1,), (1,)]
    assert "recomputing the run" in capsys.readouterr().err
    assert (victim / "flows.parquet").read_text() == "the user's own file"
    if where == "symlink":
        assert (root / "runs" / "zz" / "link").is_symlink()
