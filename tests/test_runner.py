"""The runner with a fake simulator: the result store, resumption, ordering and parallel equivalence.

The fake stands in for the compiled core (``tcpsim.runner._run_one``) and the scenario loader
(``_scenario_hash``, ``_canonical_text``), so these tests exercise scheduling and storing only.
"""

import json
import re
import sys
import time

import pandas as pd
import pytest
from tcpsim import runner
from tcpsim.result import RunResult
from tcpsim.runner import RunFailed, RunSpec, run_many
from tcpsim.store import Store
from tcpsim.store import key as store_key
from tcpsim.store.location import LEGACY_ENV, STORE_ENV
from tcpsim.sweeps import sweep

SCENARIO = {"flows": [{"name": "a"}, {"name": "b"}]}
CALLS: list = []
REAL_SCENARIO_HASH = runner._scenario_hash


def fake_run(spec: RunSpec) -> RunResult:
    """Deterministic in (overrides, seed); first spec of a batch is slowest (see ordering test)."""
    CALLS.append(spec.key)
    params = dict(spec.overrides)
    if params.get("fail"):
        raise ValueError("simulated engine failure")
    time.sleep(params.get("sleep", 0.0))
    rate = float(params.get("rate", 1.0))
    flows = pd.DataFrame(
        {
            "id": [0, 1],
            "name": ["a", "b"],
            "goodput_bps": [rate * spec.seed, rate * spec.seed / 2],
        }
    )
    return RunResult(flows=flows, links=pd.DataFrame(), meta={"seed": spec.seed, "wall_s": 0.01})


def fake_hash(spec: RunSpec) -> str:
    return json.dumps([spec.scenario, list(spec.overrides)], sort_keys=True)


@pytest.fixture(autouse=True)
def fake_core(monkeypatch, tmp_path):
    CALLS.clear()
    monkeypatch.setattr(runner, "_run_one", fake_run)
    monkeypatch.setattr(runner, "_scenario_hash", fake_hash)
    monkeypatch.setattr(runner, "_canonical_text", fake_hash)
    monkeypatch.setattr(store_key, "engine_version", lambda: "test-1")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv(STORE_ENV, raising=False)
    monkeypatch.delenv(LEGACY_ENV, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))  # the per-user default, here


def specs(n: int) -> list[RunSpec]:
    return [RunSpec(key=("rate", i), scenario=SCENARIO, seed=1, overrides=(("rate", i + 1),)) for i in range(n)]


def stored(root, status="ok"):
    """Keys of the runs the store at ``root`` holds with ``status``."""
    return [row["key"] for row in Store(root).catalog.runs("WHERE status = ?", (status,))]


def test_store_hit_avoids_recomputation(tmp_path):
    first = run_many(specs(3), jobs=1, cache_dir=tmp_path / "c", progress=False)
    assert len(CALLS) == 3
    second = run_many(specs(3), jobs=1, cache_dir=tmp_path / "c", progress=False)
    assert len(CALLS) == 3
    for key in first:
        pd.testing.assert_frame_equal(first[key].flows, second[key].flows)


def test_interrupted_run_resumes_without_recomputing(tmp_path, monkeypatch):
    def interrupted(spec):
        if len(CALLS) == 2:
            raise KeyboardInterrupt
        return fake_run(spec)

    monkeypatch.setattr(runner, "_run_one", interrupted)
    with pytest.raises(KeyboardInterrupt):
        run_many(specs(5), jobs=1, cache_dir=tmp_path / "c", progress=False)
    assert len(stored(tmp_path / "c")) == 2  # both finished runs were kept

    monkeypatch.setattr(runner, "_run_one", fake_run)
    CALLS.clear()
    results = run_many(specs(5), jobs=1, cache_dir=tmp_path / "c", progress=False)
    assert sorted(CALLS) == [("rate", 2), ("rate", 3), ("rate", 4)]
    assert list(results) == [("rate", i) for i in range(5)]


def test_results_are_in_spec_order_not_completion_order(tmp_path):
    # The first spec sleeps longest, so with two workers it finishes last.
    batch = [
        RunSpec(key=("k", i), scenario=SCENARIO, overrides=(("rate", i), ("sleep", 0.3 if i == 0 else 0.0)))
        for i in range(4)
    ]
    results = run_many(batch, jobs=2, cache_dir=tmp_path / "c", progress=False)
    assert list(results) == [("k", i) for i in range(4)]


def test_jobs_1_and_jobs_2_give_equal_results(tmp_path):
    batch = [RunSpec(key=(i, s), scenario=SCENARIO, seed=s, overrides=(("rate", i),)) for i in range(3) for s in (1, 2)]
    serial = run_many(batch, jobs=1, cache_dir=tmp_path / "serial", progress=False)
    parallel = run_many(batch, jobs=2, cache_dir=tmp_path / "parallel", progress=False)
    assert list(serial) == list(parallel)
    for key in serial:
        pd.testing.assert_frame_equal(serial[key].flows, parallel[key].flows)
    assert len(stored(tmp_path / "parallel")) == len(batch)


def test_identical_runs_under_different_keys_are_computed_once(tmp_path):
    batch = [RunSpec(key=("x",), scenario=SCENARIO), RunSpec(key=("y",), scenario=dict(SCENARIO))]
    results = run_many(batch, jobs=1, cache_dir=tmp_path / "c", progress=False)
    assert len(CALLS) == 1
    assert results[("x",)] is results[("y",)]


def test_seed_and_version_are_part_of_the_store_key(tmp_path, monkeypatch):
    run_many([RunSpec(key=(1,), scenario=SCENARIO, seed=1)], jobs=1, cache_dir=tmp_path, progress=False)
    run_many([RunSpec(key=(1,), scenario=SCENARIO, seed=2)], jobs=1, cache_dir=tmp_path, progress=False)
    monkeypatch.setattr(store_key, "engine_version", lambda: "test-2")
    run_many([RunSpec(key=(1,), scenario=SCENARIO, seed=1)], jobs=1, cache_dir=tmp_path, progress=False)
    assert len(CALLS) == 3


def test_failed_runs_are_reported_after_the_others_finish_and_are_stored(tmp_path):
    batch = specs(3)
    batch[1] = RunSpec(key=("bad",), scenario=SCENARIO, overrides=(("fail", True),))
    with pytest.raises(RunFailed) as caught:
        run_many(batch, jobs=2, cache_dir=tmp_path / "c", progress=False)
    assert set(caught.value.failures) == {("bad",)}
    assert "simulated engine failure" in caught.value.failures[("bad",)]
    assert list(caught.value.results) == [("rate", 0), ("rate", 2)]
    assert len(stored(tmp_path / "c")) == 2
    assert len(stored(tmp_path / "c", "failed")) == 1  # recorded with its error, run again next time
    with pytest.raises(RunFailed):
        run_many(batch, jobs=1, cache_dir=tmp_path / "c", progress=False)
    assert CALLS == [("bad",)]  # the finished two were loaded (the first sweep ran in worker processes)


def test_unreadable_store_entry_is_reported_recomputed_and_healed(tmp_path, capsys):
    run_many(specs(1), jobs=1, cache_dir=tmp_path / "c", progress=False)
    (entry,) = (tmp_path / "c" / "runs").glob("*/*/flows.parquet")
    entry.write_bytes(b"not a table")
    result = run_many(specs(1), jobs=1, cache_dir=tmp_path / "c", progress=False)
    assert len(CALLS) == 2
    assert "flows.parquet does not match its checksum" in capsys.readouterr().err
    assert result[("rate", 0)].flows["goodput_bps"].tolist() == [1.0, 0.5]
    run_many(specs(1), jobs=1, cache_dir=tmp_path / "c", progress=False)
    assert len(CALLS) == 2 and "warning" not in capsys.readouterr().err  # the rewritten entry is used


def test_store_location_defaults_to_the_user_cache_dir_and_honours_the_environment(tmp_path, monkeypatch):
    run_many(specs(1), jobs=1, progress=False)
    assert len(stored(tmp_path / "xdg" / "tcpsim" / "store")) == 1
    assert not (tmp_path / ".tcpsim-cache").exists()  # not the working directory any more
    monkeypatch.setenv(LEGACY_ENV, str(tmp_path / "legacy"))  # the old variable still works...
    run_many(specs(1), jobs=1, progress=False)
    assert len(stored(tmp_path / "legacy")) == 1
    monkeypatch.setenv(STORE_ENV, str(tmp_path / "elsewhere"))  # ...but the new one wins
    run_many(specs(1), jobs=1, progress=False)
    assert len(stored(tmp_path / "elsewhere")) == 1
    run_many(specs(1), jobs=1, cache_dir=tmp_path / "named", progress=False)  # and an explicit one beats both
    assert len(stored(tmp_path / "named")) == 1
    assert len(CALLS) == 4
    assert not [p for p in (tmp_path / "elsewhere").rglob(".tmp-*")]


def test_duplicate_keys_are_rejected(tmp_path):
    with pytest.raises(ValueError, match="duplicate"):
        run_many(
            [RunSpec(key=(1,), scenario=SCENARIO), RunSpec(key=(1,), scenario=SCENARIO, seed=2)], cache_dir=tmp_path
        )


def test_jobs_must_be_positive(tmp_path):
    with pytest.raises(ValueError, match="jobs"):
        run_many(specs(1), jobs=0, cache_dir=tmp_path)


def test_missing_dask_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "dask.distributed", None)
    with pytest.raises(runner.DaskUnavailable, match="pip install"):
        run_many(specs(2), cache_dir=tmp_path, dask_address="tcp://127.0.0.1:8786", progress=False)


def test_sweep_returns_one_row_per_combination_seed_and_flow(tmp_path):
    df = sweep(
        SCENARIO, {"rate": [1, 2], "delay": ["10ms", "20ms"]}, seeds=2, jobs=2, cache_dir=tmp_path, progress=False
    ).flows
    assert len(df) == 2 * 2 * 2 * 2
    assert list(df.columns[:4]) == ["rate", "delay", "delay_s", "seed"]
    row = df[(df["rate"] == 2) & (df["delay"] == "20ms") & (df["seed"] == 2) & (df["name"] == "a")]
    assert row["goodput_bps"].tolist() == [4.0]


def test_sweep_accepts_explicit_seeds_and_list_values(tmp_path):
    df = sweep(SCENARIO, {"rtts": [[10, 20], [30, 40]]}, seeds=[7], jobs=1, cache_dir=tmp_path, progress=False).flows
    assert df["seed"].unique().tolist() == [7]
    assert df["rtts"].tolist() == [[10, 20], [10, 20], [30, 40], [30, 40]]


def test_a_dict_scenario_is_loaded_once_for_many_seeds(monkeypatch):
    import tcpsim.scenario

    loads = []

    class Loaded:
        def __init__(self, source, overrides):
            loads.append(overrides)
            self.text = json.dumps([source, overrides], sort_keys=True)

        def hash(self):
            return self.text

    monkeypatch.setattr(tcpsim.scenario, "load_scenario", Loaded)
    monkeypatch.setattr(runner, "_canonical_hashes", {})
    digests = {
        REAL_SCENARIO_HASH(RunSpec(key=(s,), scenario=SCENARIO, seed=s, overrides=(("rate", 2),))) for s in range(5)
    }
    assert len(digests) == 1 and loads == [{"rate": 2}]
    REAL_SCENARIO_HASH(RunSpec(key=(0,), scenario=SCENARIO, overrides=(("rate", 3),)))
    assert len(loads) == 2


@pytest.mark.parametrize(
    "address, problem",
    [
        ("garbage", "give host and port"),
        ("", "give host and port"),
        ("tcp://", "give host and port"),
        ("[::1", "IPv6 host goes in brackets"),
        ("tcp://::1:8786", "IPv6 host goes in brackets"),
        ("http://host:8786", "the scheme 'http' is not one a cluster is reached by"),
        ("inproc://", "the scheme 'inproc'"),
        ("ucx://host:1", "the scheme 'ucx'"),
        ("tcp://host:99999", "port '99999' is not a port number"),
    ],
)
def test_a_dask_address_is_checked_before_anything_runs(address, problem):
    """Each of these once ended in a traceback from inside distributed (issue 27)."""
    from tcpsim.cli import app
    from tcpsim.runner import DaskUnavailable, check_dask_address
    from typer.testing import CliRunner

    with pytest.raises(DaskUnavailable, match=re.escape(problem)):
        check_dask_address(address)
    result = CliRunner().invoke(app, ["sweep", "scenarios/lossy_link.toml", "--set", "duration=1s", "--dask", address])
    assert result.exit_code == 2 and result.stderr.startswith("error: --dask") and problem in result.stderr
    assert "Traceback" not in result.output


def test_good_dask_addresses_pass_the_check():
    from tcpsim.runner import check_dask_address

    assert check_dask_address("scheduler:8786") == "tcp://scheduler:8786"
    assert check_dask_address("tls://10.0.0.1:8786") == "tls://10.0.0.1:8786"
    assert check_dask_address("tcp://[::1]:8786") == "tcp://[::1]:8786"
