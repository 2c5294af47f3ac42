"""The benchmark workloads build the scenarios they describe, and a run reports every figure
(timings themselves are not tested: speed is what `tcpsim bench` measures)."""

from __future__ import annotations

import importlib.util
from collections import Counter
from pathlib import Path

import pytest
import tcpsim.bench as bench
from tcpsim.bench.workloads import WORKLOADS, podlesny_dumbbell
from tcpsim.scenario import load_scenario
from tcpsim.units import parse_duration_ns

FIGURES = {"events", "wall_s", "events_per_s", "sim_s", "sim_s_per_wall_s", "python_s", "peak_rss_mb", "engine_build"}
ROOT = Path(__file__).resolve().parent.parent


def build(name: str):
    return load_scenario(WORKLOADS[name][1]())


def bottleneck_queues(sc) -> list[dict]:
    (link,) = [link for link in sc.to_engine()["links"] if link["name"] == "bottleneck"]
    return [link["ab"]["queue"], link["ba"]["queue"]]


def test_podlesny_1600_is_fig4_at_ratio_7_with_rd():
    sc = build("podlesny_1600")
    flows = sc.flow_table()
    assert len(flows) == 1600
    forward = Counter(f.variant for f in flows if f.name.startswith("fwd"))
    reverse = Counter(f.variant for f in flows if f.name.startswith("rev"))
    assert forward == reverse == {"newreno": 700, "vegas": 100}
    engine = sc.to_engine()
    assert len(engine["links"]) == 3201
    for queue in bottleneck_queues(sc):
        # RD with the paper's k = 1 and D share 10 % of C·250 ms at 100 Mb/s.
        assert (queue["kind"], queue["k"], queue["d_share"], queue["limit_bytes"]) == ("rd", 1.0, 0.1, 3_125_000)
    assert engine["duration_ns"] == 60 * 10**9


def test_podlesny_1g_is_fig7_at_1gbps_with_two_web_servers():
    sc = build("podlesny_1g")
    flows = sc.flow_table()
    assert Counter(f.variant for f in flows) == {"newreno": 200, "vegas": 200}
    engine = sc.to_engine()
    (bottleneck,) = [link for link in engine["links"] if link["name"] == "bottleneck"]
    assert bottleneck["rate_bps"] == 10**9
    assert all(q["kind"] == "rd" and q["limit_bytes"] == 31_250_000 for q in bottleneck_queues(sc))
    web = engine["web"]
    assert [w["tcp"]["cc"]["kind"] for w in web] == ["aimd", "vegas"]
    for w in web:
        assert w["arrivals"] == {"process": "poisson", "rate_per_s": 50.0}
        assert w["sizes"] == {"dist": "pareto", "mean_bytes": 30_000, "shape": 1.3}
    delays = {link["name"]: parse_duration_ns(link["delay"]) for link in WORKLOADS["podlesny_1g"][1]()["links"]}
    for variant in ("newreno", "vegas"):
        one_way = delays[f"web-{variant}-r1"] + delays["bottleneck"] + delays[f"r2-client-{variant}"]
        assert 2 * one_way == 100 * 10**6, "the web flows' round-trip propagation delay is 100 ms"


def test_dumbbell_10g_is_ten_thousand_flows_over_10_gbps_for_10_s():
    sc = build("dumbbell_10g")
    flows = sc.flow_table()
    assert len(flows) == 10_000 and {f.variant for f in flows} == {"newreno"}
    engine = sc.to_engine()
    (bottleneck,) = [link for link in engine["links"] if link["name"] == "bottleneck"]
    assert bottleneck["rate_bps"] == 10 * 10**9
    assert bottleneck_queues(sc)[0]["limit_bytes"] == 10 * 10**9 // 8 // 4  # C·250 ms
    assert engine["duration_ns"] == 10 * 10**9


def test_incast_100_runs_its_100_rounds_of_100_workers_through_one_port():
    import tcpsim

    sc = build("incast_100")
    (web,) = sc.to_engine()["web"]
    assert web["arrivals"]["rounds"] == 100 and len(web["clients"]) == 100
    r = tcpsim.run(sc.model_copy(update={"duration_ns": parse_duration_ns("50ms")}), seed=1)
    rounds = r.incast_rounds("query")
    # A short cut of the run: the rounds it completes are whole, each 100 × 100 KB.
    assert len(rounds) >= 3 and (rounds["senders"] == 100).all() and (rounds["bytes"] == 10**7).all()


def test_a_tiny_podlesny_dumbbell_runs_both_classes_through_rd(monkeypatch):
    def tiny():
        return podlesny_dumbbell(3, 2, "10Mbps") | {"duration": "2s"}

    monkeypatch.setitem(WORKLOADS, "tiny", ("3 + 2 flows each way", tiny))
    row = bench.measure("tiny")
    assert FIGURES <= row.keys()
    assert row["events"] > 0 and row["sim_s"] == 2.0 and row["peak_rss_mb"] > 0
    assert row["engine_build"] in ("pgo", "plain", "instrumented")
    # Vegas defaults to RD's D queue, NewReno to R: both carried packets.
    from tcpsim.api import run

    links = run(tiny(), seed=1).links
    forward = links[(links["name"] == "bottleneck") & (links["direction"] == "ab")].iloc[0]
    assert forward["r_bytes_served"] > 0 and forward["d_bytes_served"] > 0
    assert forward["r_flows"] == pytest.approx(6, abs=0.5) and forward["d_flows"] == pytest.approx(4, abs=0.5)


def test_each_workload_runs_in_a_process_of_its_own():
    (row,) = bench.run_benchmarks(["lossy_link"])
    assert FIGURES | {"name", "process_wall_s"} <= row.keys()
    assert row["process_wall_s"] > row["wall_s"] > 0
    with pytest.raises(ValueError, match="unknown workload 'nope'"):
        bench.run_benchmarks(["nope"])


def test_startup_times_first_and_repeat_runs_of_the_bundled_scenario_each_in_a_store_of_its_own():
    from tcpsim.bench.startup import bundled_scenario_file, measure_startup

    row = measure_startup(1)
    assert row["command"] == "tcpsim run lossy_link.toml --json" and row["runs"] == 1
    for key in ("first_run_s", "repeat_run_s"):
        assert 0 < row[key]["min"] <= row[key]["median"] <= row[key]["max"]
    assert Path(bundled_scenario_file("lossy_link")).read_text() == (ROOT / "scenarios" / "lossy_link.toml").read_text()
    with pytest.raises(ValueError, match="runs must be at least 1, not 0"):
        measure_startup(0)


def test_a_failing_run_is_reported_with_its_error(tmp_path):
    from tcpsim.bench.startup import measure_startup

    broken = tmp_path / "broken.toml"
    broken.write_text("duration = 'soon'\n")
    with pytest.raises(RuntimeError, match=r"failed \(exit \d+\): .*duration"):
        measure_startup(1, str(broken))


def _pgo_training():
    spec = importlib.util.spec_from_file_location("pgo_train", ROOT / "scripts" / "pgo_train.py")
    train = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(train)
    return train


def test_the_profile_guided_build_trains_on_every_benchmark_workload():
    train = _pgo_training()
    # A workload without a training duration would be compiled as cold code, and the training
    # refuses to run without one.
    assert set(train.BENCH_DURATIONS) == set(WORKLOADS)
    missing = dict(WORKLOADS, untrained=("a new workload", lambda: None))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(train, "WORKLOADS", missing)
        with pytest.raises(ValueError, match="untrained"):
            train.training_runs()


def test_the_profile_guided_build_trains_on_every_loss_model_and_queue_discipline_of_the_engine():
    import json

    schema = json.loads((ROOT / "crates" / "tcpsim-core" / "engine-schema.json").read_text())

    def kinds(name: str) -> set[str]:
        return {variant["properties"]["kind"]["const"] for variant in schema["$defs"][name]["oneOf"]}

    trained_losses, trained_queues = set(), set()
    for _, scenario in _pgo_training().training_runs():
        for link in scenario.to_engine()["links"]:
            for direction in (link["ab"], link["ba"]):
                trained_queues.add(direction["queue"]["kind"])
                trained_losses.update(model["kind"] for model in direction["loss"])
    assert trained_losses == kinds("LossConfig")
    assert trained_queues == kinds("QueueConfig")
