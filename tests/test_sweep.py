"""Sweeps as data, with the real engine: tidy tables with SI columns, links, provenance, seeds
that cannot matter, failed runs (issue 17, item 2)."""

import sys
import warnings
from pathlib import Path

import pandas as pd
import pytest
import tcpsim
from tcpsim.sweeps import SweepFailed, SweepWarning
from tcpsim.sweeps.quantities import si_columns
from tcpsim.sweeps.randomness import random_components
from tcpsim.tidy import RunKey

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
LOSSY = SCENARIOS / "lossy_link.toml"
DETERMINISTIC = SCENARIOS / "single_flow.toml"
SHORT = {"duration": "5s"}


@pytest.fixture(autouse=True)
def own_cache(monkeypatch, tmp_path):
    monkeypatch.setenv("TCPSIM_STORE", str(tmp_path / "store"))
    monkeypatch.setenv("TCPSIM_STORE", str(tmp_path / "cache"))


def quiet_sweep(*args, **kwargs):
    return tcpsim.sweep(*args, jobs=1, progress=False, **kwargs)


def test_flows_table_has_si_columns_seed_hash_and_version():
    result = quiet_sweep(LOSSY, {"links[1].rate": ["2Mbps", "500kbps"]}, seeds=2, overrides=SHORT)
    flows = result.flows
    assert len(flows) == 2 * 2  # points × seeds × one flow
    assert list(flows.columns[:3]) == ["links[1].rate", "links[1].rate_bps", "seed"]
    assert flows["links[1].rate_bps"].tolist() == [2_000_000, 2_000_000, 500_000, 500_000]
    assert pd.api.types.is_integer_dtype(flows["links[1].rate_bps"])
    assert flows["seed"].tolist() == [1, 2, 1, 2]
    assert (flows["tcpsim_version"] == tcpsim.__version__).all()
    hashes = flows.groupby("point")["scenario_hash"].unique()
    assert [len(h) for h in hashes] == [1, 1] and hashes[0][0] != hashes[1][0]
    # the slower link delivers less: the SI column sorts the way the numbers do
    by_rate = flows.groupby("links[1].rate_bps")["goodput_bps"].mean()
    assert by_rate.index.tolist() == [500_000, 2_000_000] and by_rate.iloc[0] < by_rate.iloc[1]


def test_links_table_has_one_row_per_run_and_link_direction():
    result = quiet_sweep(LOSSY, {"links[1].queue": ["10pkt", "30KB"]}, overrides=SHORT)
    links = result.links
    assert len(links) == 2 * 2 * 2  # points × links × directions
    assert {"utilization", "drops_queue", "drops_error", "queue_mean_pkts", "queue_max_pkts"} <= set(links.columns)
    assert links["links[1].queue_pkts"].tolist()[:4] == [10] * 4 and links["links[1].queue_pkts"].isna().sum() == 4
    assert links["links[1].queue_bytes"].dropna().unique().tolist() == [30_000]
    lossy = links[(links["name"] == "lossy") & (links["direction"] == "ab")]
    assert (lossy["utilization"] > 0.3).all() and (lossy["drops_error"] > 0).all()
    assert result.runs["status"].tolist() == ["ok", "ok"]


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        (["45ms", "1.5s"], {"p_s": [0.045, 1.5]}),
        (["10Mbps", "2.5Gbps"], {"p_bps": [10_000_000, 2_500_000_000]}),
        (
            ["100pkt", "64KB", "1.5BDP"],
            {"p_pkts": [100, None, None], "p_bytes": [None, 64_000, None], "p_bdp": [None, None, 1.5]},
        ),
        (["50/s", "600/min"], {"p_per_s": [50.0, 10.0]}),
        (["1500B", "0B"], {"p_bytes": [1500, 0]}),
        (["reno", "cubic"], {}),
        ([0.01, 0.1], {}),
    ],
)
def test_si_columns(values, expected):
    assert si_columns("p", values) == expected


def test_several_seeds_of_a_scenario_without_randomness_warn():
    with pytest.warns(SweepWarning, match=r"no random component .* its 2 seeds give identical results"):
        result = quiet_sweep(DETERMINISTIC, seeds=2, overrides=SHORT)
    first, second = result.flows.drop(columns="seed").to_dict("records")
    assert first == second  # the warning is right


def test_only_the_grid_points_without_randomness_are_named():
    with pytest.warns(SweepWarning, match=r"1 of 2 grid points \(links\[1\]\.loss\[0\]\.p=0\) have no random"):
        quiet_sweep(LOSSY, {"links[1].loss[0].p": [0, 0.01]}, seeds=2, overrides=SHORT)


def test_random_scenarios_and_single_seeds_do_not_warn():
    with warnings.catch_warnings():
        warnings.simplefilter("error", SweepWarning)
        quiet_sweep(LOSSY, seeds=2, overrides=SHORT)
        quiet_sweep(DETERMINISTIC, seeds=1, overrides=SHORT)


def engine(extra: dict) -> dict:
    base = {
        "duration": "1s",
        "links": [{"name": "l", "a": "x", "b": "y", "rate": "1Mbps", "delay": "1ms", "queue": "10pkt"}],
        "flows": [{"name": "f", "src": "x", "dst": "y", "variant": "reno"}],
    }
    return tcpsim.load_scenario(base, extra).to_engine()


@pytest.mark.parametrize(
    ("overrides", "found"),
    [
        ({}, []),
        (
            {"links[0].loss": [{"kind": "bernoulli", "p": 0.01}]},
            ["link 'l' (ab): bernoulli loss", "link 'l' (ba): bernoulli loss"],
        ),
        ({"links[0].loss": [{"kind": "bernoulli", "p": 1.0, "direction": "ab"}]}, []),
        ({"links[0].loss": [{"kind": "scripted", "flow": "f", "segments": [3]}]}, []),
        ({"flows[0].start_jitter": "10ms"}, ["flow 'f': start_jitter"]),
        (
            {"links[0].queue": {"kind": "red", "limit": "20pkt", "min_th": "5pkt", "max_th": "15pkt"}},
            ["link 'l' (ab): red queue", "link 'l' (ba): red queue"],
        ),
    ],
)
def test_random_components(overrides, found):
    assert random_components(engine(overrides)) == found


def test_failed_runs_keep_the_others_and_say_why():
    with pytest.raises(SweepFailed) as caught:
        quiet_sweep(LOSSY, {"trace.throughput_bin": ["1s", "1ns"]}, overrides={"duration": "10s"})
    result = caught.value.result
    assert result.runs["status"].tolist() == ["ok", "failed"]
    assert len(result.flows) == 1 and result.flows["trace.throughput_bin"].tolist() == ["1s"]
    message = str(caught.value)
    assert message.startswith("1 of 2 runs failed:")
    assert message.splitlines()[1].startswith("  1 run (trace.throughput_bin=1ns seed 1): RunTooLarge: limits.")
    # the runs are named as a reproduction's are: by the grid point and the seed
    assert list(caught.value.failures) == [RunKey(point=1, seed=1)]
    assert list(caught.value.results) == [RunKey(point=0, seed=1)]


def test_to_xarray_keeps_the_grid_order_and_si_coordinates():
    pytest.importorskip("xarray")
    result = quiet_sweep(
        LOSSY, {"links[1].rate": ["2Mbps", "500kbps"], "tcp.mss": [400, 1000]}, seeds=2, overrides=SHORT
    )
    ds = result.to_xarray()
    assert list(ds.goodput_bps.dims) == ["links[1].rate", "tcp.mss", "seed", "name"]
    assert ds["links[1].rate"].values.tolist() == ["2Mbps", "500kbps"]
    assert ds["links[1].rate_bps"].values.tolist() == [2_000_000, 500_000]
    row = result.flows[(result.flows["links[1].rate"] == "500kbps") & (result.flows["tcp.mss"] == 1000)]
    picked = ds.goodput_bps.sel({"links[1].rate": "500kbps", "tcp.mss": 1000, "seed": 2, "name": "bulk"})
    assert float(picked) == row[row["seed"] == 2]["goodput_bps"].item()
    links = result.to_xarray("links")
    assert links.utilization.sizes == {"links[1].rate": 2, "tcp.mss": 2, "seed": 2, "name": 2, "direction": 2}
    assert "id" not in ds.data_vars and "link" not in links.data_vars and "point" not in ds.data_vars


def test_to_xarray_without_xarray_says_how_to_install_it(monkeypatch):
    result = quiet_sweep(LOSSY, {"tcp.mss": [400]}, overrides=SHORT)
    monkeypatch.setitem(sys.modules, "xarray", None)
    with pytest.raises(ImportError, match=r"pip install 'tcpsim\[xarray\]'"):
        result.to_xarray()


def cli_run(args):
    from tcpsim.cli import app
    from typer.testing import CliRunner

    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    return result


@pytest.mark.parametrize("grid", [True, False])
def test_a_run_of_the_out_folder_reproduces_its_flows_exactly(tmp_path, monkeypatch, grid):
    monkeypatch.chdir(tmp_path)
    axes = ["--grid", "links[1].rate=2Mbps,1Mbps", "--grid", "links[1].loss[0].p=0.01,0.02"] if grid else []
    cli_run(["sweep", str(LOSSY), *axes, "--set", "duration=8s", "--seeds", "1,5", "-j", "1", "--out", "out"])
    flows = pd.read_csv("out/flows.csv", dtype=str, keep_default_na=False)
    point, seed = (2, 5) if grid else (0, 5)
    scenario = f"out/points/{point}/scenario.toml" if grid else "out/scenario.toml"
    monkeypatch.setenv("TCPSIM_STORE", str(tmp_path / "other-store"))  # recomputed, not read back
    cli_run(["run", scenario, "--seed", str(seed), "--out", "again"])
    again = Path("again/flows.csv").read_text()
    rows = flows[(flows["point"] == str(point)) & (flows["seed"] == str(seed))]
    assert rows[list(pd.read_csv("again/flows.csv").columns)].to_csv(index=False) == again
    # and the run's own folder repeats itself the same way
    cli_run(["run", "again/scenario.toml", "--seed", str(seed), "--out", "third"])
    assert Path("third/flows.csv").read_text() == again


def test_the_out_folder_records_provenance(tmp_path, monkeypatch):
    import json

    monkeypatch.chdir(tmp_path)
    args = [
        "sweep",
        str(LOSSY),
        "--grid",
        "tcp.mss=400,1000",
        "--set",
        "duration=2s",
        "--seeds",
        "2",
        "-j",
        "1",
        "--out",
        "out",
    ]
    monkeypatch.setattr(sys, "argv", ["tcpsim", *args])  # as the console script sees it
    cli_run(args)
    record = json.loads(Path("out/provenance.json").read_text())
    assert record["tcpsim_version"] == tcpsim.__version__ and record["engine_version"]
    assert record["git"] is None or len(record["git"]["commit"]) == 40
    assert record["command_line"] == ["tcpsim", *args]
    assert record["sweep"] | {"file": None} == {
        "file": None,
        "seeds": [1, 2],
        "set": {"duration": "2s"},
        "grid": {"tcp.mss": [400, 1000]},
    }
    assert [p["scenario_file"] for p in record["points"]] == ["points/0/scenario.toml", "points/1/scenario.toml"]
    runs = pd.read_csv("out/runs.csv")
    assert runs.groupby("point")["scenario_hash"].first().tolist() == [p["scenario_hash"] for p in record["points"]]
    # the saved sweep file runs the same sweep again
    again = quiet_sweep("out/scenario.toml", sweep_file="out/sweep.toml")
    assert again.flows.drop(columns="point").equals(pd.read_csv("out/flows.csv").drop(columns="point"))


def test_a_dict_scenario_with_unset_fields_is_saved_and_repeatable(tmp_path):
    scenario = {
        "duration": "3s",
        "description": None,  # None is "not set", which TOML can only say by leaving it out
        "links": [{"a": "x", "b": "y", "rate": "1Mbps", "delay": "10ms", "queue": "20pkt", "name": None}],
        "flows": [{"name": "f", "src": "x", "dst": "y", "stop": None}],
    }
    result = quiet_sweep(scenario, {"links[0].rate": ["1Mbps", "3Mbps"]})
    result.save(tmp_path / "out")
    again = tcpsim.run(tmp_path / "out" / "points" / "1" / "scenario.toml", seed=1)
    assert again.meta["scenario_hash"] == result.flows["scenario_hash"].iloc[1]
    assert again.flows["goodput_bps"].item() == result.flows["goodput_bps"].iloc[1]
