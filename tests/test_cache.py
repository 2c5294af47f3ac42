"""The run cache stores data, never code: exact round trips, and every damaged, foreign or
misplaced entry reported, recomputed and rewritten (issue 13, item 5)."""

import io
import json
import pickle
import zipfile
from pathlib import Path

import pandas as pd
import pytest
from tcpsim import cache, runner
from tcpsim.paths import builtin_scenario
from tcpsim.result import RunResult
from tcpsim.runner import RunSpec, run_many

TRACES = (("trace.cwnd", True), ("trace.rtt", True), ("trace.queue", True), ("trace.throughput_bin", "1s"))
UDP = ("udp", [{"src": "source", "dst": "sink", "rate": "100kbps"}])


def spec(seed: int = 1) -> RunSpec:
    return RunSpec(
        key=(seed,), scenario=builtin_scenario("lossy_link"), seed=seed, overrides=(("duration", "5s"), *TRACES, UDP)
    )


@pytest.fixture
def computed(monkeypatch):
    """Keys of the runs actually simulated (not loaded from the cache)."""
    keys = []
    real = runner._run_one

    def counting(s):
        keys.append(s.key)
        return real(s)

    monkeypatch.setattr(runner, "_run_one", counting)
    return keys


def entry_of(root: Path, s: RunSpec) -> Path:
    return cache.entry_path(root, runner.run_digest(s))


def assert_same(a: RunResult, b: RunResult) -> None:
    for table in ("flows", "links", "udp"):
        pd.testing.assert_frame_equal(getattr(a, table), getattr(b, table), check_exact=True)
    assert a.traces.keys() == b.traces.keys()
    for kind in a.traces:
        pd.testing.assert_frame_equal(a.traces[kind], b.traces[kind], check_exact=True)
    assert a.meta == b.meta


def run(root: Path, s: RunSpec) -> RunResult:
    return run_many([s], jobs=1, cache_dir=root, progress=False)[s.key]


def test_round_trip_is_exact_dtypes_included(tmp_path, computed, capsys):
    fresh = run(tmp_path, spec())
    loaded = run(tmp_path, spec())
    assert computed == [(1,)]
    assert "warning" not in capsys.readouterr().err  # a miss is not worth a warning, nor is a good entry
    assert set(loaded.traces) == {"cwnd", "rtt", "queue", "throughput"} and not loaded.udp.empty
    assert_same(fresh, loaded)


def test_entry_is_a_zip_of_json_and_parquet_with_key_and_checksums(tmp_path):
    run(tmp_path, spec())
    entry = entry_of(tmp_path, spec())
    with zipfile.ZipFile(entry) as archive:
        manifest = json.loads(archive.read("manifest.json"))
        names = set(archive.namelist())
    assert manifest["format"] == "tcpsim-run/1" and manifest["key"] == runner.run_digest(spec())
    assert set(manifest["files"]) == names - {"manifest.json"}
    assert names >= {"summary.json", "trace_cwnd.parquet", "trace_throughput.parquet"}


class _RunsCode:
    """Unpickling this creates a file: proof that a pickle was executed."""

    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return (Path.touch, (self.marker,))


def test_a_crafted_pickle_at_an_entry_path_is_never_unpickled(tmp_path, computed, capsys):
    marker = tmp_path / "code-ran"
    payload = pickle.dumps(_RunsCode(marker))
    pickle.loads(payload)  # the payload is live: unpickling it runs code
    assert marker.exists()
    marker.unlink()
    entry = entry_of(tmp_path / "c", spec())
    entry.parent.mkdir(parents=True)
    entry.write_bytes(payload)
    entry.with_suffix(".pkl").write_bytes(payload)  # where older versions kept entries
    result = run(tmp_path / "c", spec())
    assert not marker.exists()
    assert computed == [(1,)] and isinstance(result, RunResult)
    assert f"warning: cache entry {entry} is not a tcpsim cache entry" in capsys.readouterr().err
    assert zipfile.is_zipfile(entry)  # healed


def test_a_valid_entry_copied_over_another_is_detected(tmp_path, computed, capsys):
    one, two = run(tmp_path, spec(1)), run(tmp_path, spec(2))
    assert one.flows["goodput_bps"][0] != two.flows["goodput_bps"][0]
    entry_of(tmp_path, spec(1)).write_bytes(entry_of(tmp_path, spec(2)).read_bytes())
    again = run(tmp_path, spec(1))
    assert "holds the run" in capsys.readouterr().err
    assert computed == [(1,), (2,), (1,)]
    pd.testing.assert_frame_equal(again.flows, one.flows)
    assert_same(run(tmp_path, spec(1)), again)  # healed: loaded now
    assert computed == [(1,), (2,), (1,)]


def test_a_truncated_entry_is_recomputed_and_rewritten(tmp_path, computed, capsys):
    first = run(tmp_path, spec())
    entry = entry_of(tmp_path, spec())
    entry.write_bytes(entry.read_bytes()[: entry.stat().st_size // 2])
    again = run(tmp_path, spec())
    assert "warning: cache entry" in capsys.readouterr().err
    assert computed == [(1,), (1,)]
    pd.testing.assert_frame_equal(again.flows, first.flows)
    run(tmp_path, spec())
    assert computed == [(1,), (1,)] and "warning" not in capsys.readouterr().err


def _rewrite(entry: Path, change) -> None:
    """Rewrite an entry's members through ``change(members)``, keeping its manifest."""
    with zipfile.ZipFile(entry) as archive:
        members = {name: archive.read(name) for name in archive.namelist()}
    change(members)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    entry.write_bytes(buffer.getvalue())


def test_an_altered_member_fails_its_checksum(tmp_path, computed, capsys):
    run(tmp_path, spec())
    entry = entry_of(tmp_path, spec())
    _rewrite(entry, lambda m: m.update({"summary.json": m["summary.json"].replace(b"bulk", b"blk!")}))
    assert run(tmp_path, spec()).flows["name"].tolist() == ["bulk"]
    assert "summary.json does not match its checksum" in capsys.readouterr().err
    assert computed == [(1,), (1,)]


def test_a_wrong_shaped_entry_with_good_checksums_is_recomputed(tmp_path, computed, capsys):
    run(tmp_path, spec())
    entry = entry_of(tmp_path, spec())

    def drop_flows(members):
        summary = json.loads(members["summary.json"])
        summary["flows"] = {"columns": ["id"], "dtypes": ["int64"], "data": []}
        members["summary.json"] = data = json.dumps(summary).encode()
        manifest = json.loads(members["manifest.json"])
        manifest["files"]["summary.json"] = cache._sha256(data)
        members["manifest.json"] = json.dumps(manifest).encode()

    _rewrite(entry, drop_flows)
    assert run(tmp_path, spec()).flows["name"].tolist() == ["bulk"]
    assert "malformed table 'flows'" in capsys.readouterr().err
    assert computed == [(1,), (1,)]


def test_a_directory_at_an_entry_path_is_reported_not_a_traceback(tmp_path, computed, capsys):
    entry = entry_of(tmp_path, spec())
    entry.mkdir(parents=True)
    result = run(tmp_path, spec())
    err = capsys.readouterr().err
    assert f"warning: cache entry {entry} is a directory, not a file" in err
    assert f"warning: cannot write cache entry {entry}: it is a directory; the result is not cached" in err
    assert result.flows["name"].tolist() == ["bulk"] and computed == [(1,)]


def test_a_cache_directory_that_cannot_be_created_still_runs(tmp_path, computed, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    result = run(blocker / "cache", spec())
    assert f"warning: cache directory {blocker / 'cache'} cannot be created" in capsys.readouterr().err
    assert result.flows["name"].tolist() == ["bulk"] and computed == [(1,)]
