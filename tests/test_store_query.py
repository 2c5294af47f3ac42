"""Stored runs selected by the parameters of their scenario (`store ls --where`, `store export
--where`), and exports labelled with the parameters that tell the runs apart."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from tcpsim.store.query import Condition, QueryError, flatten, varying

TCPSIM = str(Path(sys.executable).parent / "tcpsim")


def tcpsim(store: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "TCPSIM_STORE": str(store)}
    return subprocess.run([TCPSIM, "-q", *args], capture_output=True, text=True, env=env)


@pytest.fixture(scope="module")
def store(tmp_path_factory) -> Path:
    """Six runs: the lossy link at 1, 2 and 5 Mb/s, seeds 1 and 2."""
    store = tmp_path_factory.mktemp("store")
    grid = ["--grid", "links[1].rate=1Mbps,2Mbps,5Mbps", "--seeds", "2", "--set", "duration=5s"]
    done = tcpsim(store, "sweep", "lossy_link", *grid)
    assert done.returncode == 0, done.stderr
    return store


def test_paths_name_tables_by_name_and_other_lists_by_position():
    scenario = {"nodes": ["a", "b"], "links": [{"name": "l1", "rate_bps": 10, "ab": {"loss": [{"p": 0.1}]}}]}
    assert dict(flatten(scenario)) == {
        "nodes": '["a", "b"]',
        "links[l1].name": "l1",
        "links[l1].rate_bps": 10,
        "links[l1].ab.loss[0].p": 0.1,
    }


@pytest.mark.parametrize(
    ("text", "fields", "holds"),
    [
        ("links[x].rate_bps >= 1e6", {"links[x].rate_bps": 2_000_000}, True),
        ("links[x].rate_bps >= 1e6", {"links[x].rate_bps": 999_999}, False),
        ("flows[f].tcp.cc.kind == vegas", {"flows[f].tcp.cc.kind": "vegas"}, True),
        ('flows[f].tcp.cc.kind = "aimd"', {"flows[f].tcp.cc.kind": "vegas"}, False),
        ("seed != 2", {"seed": 1}, True),
        ("tcp.ecn == true", {"tcp.ecn": True}, True),
        ("tcp.ecn > 0", {"tcp.ecn": True}, False),  # a flag is not a number
        ("links[x].rate_bps > fast", {"links[x].rate_bps": 5}, False),  # not comparable: no match
        ("missing.path == 1", {}, False),
    ],
)
def test_a_condition_compares_the_runs_value(text, fields, holds):
    assert Condition.parse(text).holds(fields) is holds


@pytest.mark.parametrize("text", ["rate_bps", ">= 5", "a ~ 3", "a =="])
def test_an_unreadable_condition_says_how_to_write_one(text):
    with pytest.raises(QueryError, match="PATH OP VALUE"):
        Condition.parse(text)


def test_varying_keeps_the_paths_that_tell_runs_apart():
    assert varying([{"a": 1, "b": 2}, {"a": 1, "b": 3, "c": 0}]) == ["b", "c"]
    assert varying([{"a": 1}]) == []
    # a path only some runs have varies, unless the others' null is its only value
    assert varying([{"a": None}, {}]) == []
    assert varying([{"a": 1}, {}]) == ["a"]
    # runs of one scenario share one dict; values compare as JSON (lists, tables)
    shared = {"q": {"kind": "red", "max_th": 15}, "r": [1, 2]}
    assert varying([shared, shared, {"q": {"max_th": 15, "kind": "red"}, "r": [1, 2]}]) == []
    assert varying([shared, shared, {"q": {"kind": "red", "max_th": 15}, "r": [2, 1]}]) == ["r"]


def test_ls_where_selects_by_parameter_and_seed(store):
    done = tcpsim(store, "store", "ls", "--json", "--where", "links[lossy].rate_bps >= 2e6", "--where", "seed == 2")
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stdout)
    assert len(rows) == 2 and {r["seed"] for r in rows} == {"2"}
    everything = json.loads(tcpsim(store, "store", "ls", "--json").stdout)
    assert len(everything) == 6
    assert json.loads(tcpsim(store, "store", "ls", "--json", "--status", "failed").stdout) == []


def test_a_path_no_run_has_is_an_error_that_shows_real_paths(store):
    done = tcpsim(store, "store", "ls", "--where", "links[bottleneck].rate_bps >= 2e6")
    assert done.returncode == 2
    assert "links[bottleneck].rate_bps: no stored run has this parameter; paths look like" in done.stderr


def test_export_where_writes_parameter_columns_and_a_scenarios_table(store, tmp_path):
    out = tmp_path / "export"
    done = tcpsim(
        store, "store", "export", "--out", str(out), "--format", "csv", "--where", "links[lossy].rate_bps < 5e6"
    )
    assert done.returncode == 0, done.stderr
    flows = pd.read_csv(out / "flows.csv")
    assert flows.columns[:3].tolist() == ["key", "seed", "links[lossy].rate_bps"]
    assert sorted(flows["links[lossy].rate_bps"]) == [1_000_000, 1_000_000, 2_000_000, 2_000_000]
    scenarios = pd.read_csv(out / "scenarios.csv")
    assert sorted(scenarios["links[lossy].rate_bps"]) == [1_000_000, 2_000_000]
    assert all(json.loads(text)["links"][1]["name"] == "lossy" for text in scenarios["canonical"])
    runs = pd.read_csv(out / "runs.csv")
    assert set(runs["key"]) == set(flows["key"]) and "links[lossy].rate_bps" in runs.columns


def test_export_keeps_the_where_paths_as_columns_even_when_one_value_is_chosen(store, tmp_path):
    out = tmp_path / "export"
    done = tcpsim(store, "store", "export", "--out", str(out), "--where", "links[lossy].rate_bps == 5e6")
    assert done.returncode == 0, done.stderr
    flows = pd.read_parquet(out / "flows.parquet")
    assert flows.columns[:3].tolist() == ["key", "seed", "links[lossy].rate_bps"]
    assert len(flows) == 2 and set(flows["links[lossy].rate_bps"]) == {5_000_000}
    assert pd.read_parquet(out / "scenarios.parquet")["links[lossy].rate_bps"].tolist() == [5_000_000]


def test_export_flattens_each_scenario_once_however_many_runs_share_it(tmp_path, monkeypatch):
    """200 runs of one 500-flow scenario (its flows' parameters are tens of thousands of paths)
    are flattened once, not once per run (issue 26: exporting a few thousand stored runs took
    longer than 10 minutes). The runs are one real short run stored again under other seeds."""
    import hashlib

    from tcpsim.paths import builtin_scenario
    from tcpsim.runner import RunSpec, run_many
    from tcpsim.store import Store, query
    from tcpsim.store.export import export

    root = tmp_path / "store"
    spec = RunSpec(key=(1,), scenario=builtin_scenario("lossy_link"), seed=1, overrides=(("duration", "100ms"),))
    result = run_many([spec], jobs=1, cache_dir=root, progress=False)[spec.key]
    store = Store(root)
    (real,) = store.catalog.runs()
    engine = json.loads(store.catalog.scenario(real["scenario_hash"]))
    real_flows, flow = len(engine["flows"]), engine["flows"][0]
    engine["flows"] = [flow | {"name": f"f{i}"} for i in range(500)]
    big = json.dumps(engine, sort_keys=True, separators=(",", ":"))
    big_hash = hashlib.sha256(big.encode()).hexdigest()
    for seed in range(2, 202):
        assert store.save(hashlib.sha256(f"big {seed}".encode()).hexdigest(), big_hash, lambda: big, seed, result)

    flattened = []
    real_parameters = query._parameters

    def counting(scenario, wanted):
        if wanted is None:
            flattened.append(len(scenario["flows"]))
        return real_parameters(scenario, wanted)

    monkeypatch.setattr(query, "_parameters", counting)
    written = export(store, tmp_path / "export", "parquet")
    assert sorted(flattened) == sorted([real_flows, 500])  # each of the two scenarios once
    assert written["runs"] == 201 and written["scenarios"] == 2
    runs = pd.read_parquet(tmp_path / "export" / "runs.parquet")
    assert sorted(runs["seed"]) == list(range(1, 202))
    assert runs["flows[f499].name"].notna().sum() == 200  # the parameter columns tell the scenarios apart

    flattened.clear()  # `store ls` looks at no parameter; `--where` only at the paths it names
    assert len(query.select(store)) == 201 and flattened == []
    assert len(query.select(store, ["flows[f7].tcp.ecn == false", "seed > 100"])) == 101 and flattened == []
