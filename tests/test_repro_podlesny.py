"""The `podlesny` experiments: the set-up each plans is the paper's (as ns-2.29 ran it), the claim
checks fail on data that contradict the paper, and fig1 runs end to end through the framework."""

import json

from tcpsim.repro import select
from tcpsim.repro.framework import execute
from tcpsim.repro.podlesny import checks, common
from tcpsim.repro.podlesny.unfairness import EXACT_DELTA, WINDOW20, Fig1
from tcpsim.repro.table import MAIN
from tcpsim.scenario import load_scenario

IDS = ["podlesny.fig1"]


def engine(scenario):
    return load_scenario(scenario).to_engine()


def test_every_reproduced_experiment_is_registered():
    assert [e.id for e in select(["podlesny"])] == IDS


def test_common_setup_is_ns2_of_the_paper():
    e = engine(common.dumbbell_scenario(("newreno", "vegas"), bottleneck_bps=100e6, rtt_s=0.2))
    bottleneck, access = e["links"][0], e["links"][1]
    assert bottleneck["rate_bps"] == 100e6 and bottleneck["delay_ns"] == 10_000_000
    # C·250 ms in 1 KB packets
    assert bottleneck["ab"]["queue"] == {"kind": "drop_tail", "limit_packets": 3125, "limit_bytes": None}
    assert access["rate_bps"] == 200e6
    assert e["duration_ns"] == 60 * 10**9 and e["warmup_ns"] == 5 * 10**9
    assert e["trace"]["throughput_bin_ns"] == 200_000_000
    newreno, vegas = (flow["tcp"] for flow in e["flows"])
    for tcp in (newreno, vegas):
        assert tcp["mss_bytes"] == 1000 and tcp["header_bytes"] == 40  # ns-2.29 useHeaders_
        assert tcp["delack_count"] == 1 and tcp["init_cwnd_segments"] == 2  # TCPSink, windowInit_ 2
        assert tcp["min_rto_ns"] == 200_000_000 and tcp["rwnd_bytes"] >= 2**30
        assert tcp["recovery"] == "newreno"
    assert newreno["cc"]["kind"] == "aimd"
    cc = vegas["cc"]
    # α = 1, β = 3, γ = 1 with ns-2's rounded δ; ns-2's mean RTT of the round, one sample decides
    assert (cc["alpha"], cc["beta"], cc["gamma"]) == (0.5, 3.5, 1.5)
    assert cc["rtt"] == "mean" and cc["min_round_samples"] == 1
    assert cc["loss_decrease"] == 0.25 and cc["timeout_cwnd_segments"] == 2
    assert cc["slow_start"] == "every_other_rtt" and cc["slow_start_exit"] == "eighth"


def test_fig1_runs_the_catalog_setup_and_its_readings():
    fig1 = Fig1()
    specs = fig1.runs(quick=True, seeds=None)
    readings = {spec.key["reading"] for spec in specs}
    assert readings == {MAIN, WINDOW20, EXACT_DELTA}
    assert len(specs) == 3 * common.REPLICATIONS
    scenarios = fig1.scenarios()
    main = engine(scenarios[MAIN])
    bottleneck = main["links"][0]
    assert bottleneck["rate_bps"] == 2e6 and bottleneck["ab"]["queue"]["limit_packets"] == 62
    # round-trip propagation: 2 × (10 ms bottleneck + 2 × 20 ms access) = 100 ms
    access_ns = sum(link["delay_ns"] for link in main["links"][1:3])
    assert 2 * (bottleneck["delay_ns"] + access_ns) == 100_000_000
    assert [f["name"] for f in main["flows"]] == ["newreno0", "vegas1"]
    window20 = engine(scenarios[WINDOW20])
    assert all(f["tcp"]["rwnd_bytes"] == 20_000 for f in window20["flows"])
    exact = engine(scenarios[EXACT_DELTA])["flows"][1]["tcp"]["cc"]
    assert (exact["alpha"], exact["beta"], exact["gamma"]) == (1, 3, 1)


def test_dominates_throughout_needs_every_replication():
    leader = [[2.0, 2.0, 2.0, 2.0], [2.0, 2.0, 2.0, 2.0]]
    assert checks.dominates_throughout(leader, [[0.1] * 4, [0.1] * 4], 0.9)[0]
    # one replication where the other flow is ahead half of the time
    assert not checks.dominates_throughout(leader, [[0.1] * 4, [0.1, 0.1, 3.0, 3.0]], 0.9)[0]
    assert not checks.dominates_throughout([], [], 0.9)[0]


def test_fills_buffer_needs_a_high_queue_and_drops_in_every_replication():
    assert checks.fills_buffer([40, 45], [3, 4], 62, 0.5)[0]
    assert not checks.fills_buffer([40, 20], [3, 4], 62, 0.5)[0]  # one half-empty queue
    assert not checks.fills_buffer([40, 45], [3, 0], 62, 0.5)[0]  # never overflowed


def test_below_needs_the_whole_interval_below_the_bound():
    assert checks.below([0.06, 0.065, 0.062, 0.07, 0.058], 0.10, "share")[0]
    assert not checks.below([0.30, 0.35, 0.40], 0.10, "share")[0]
    assert not checks.below([0.02, 0.18], 0.10, "share")[0]  # mean below, CI across the bound


def test_fig1_end_to_end(tmp_path):
    (report,) = execute(select(IDS), quick=True, seeds=2, jobs=1, out_dir=tmp_path, progress=False)
    assert report["completed"], report["claims"]
    (number,) = report["numbers"]
    assert number["kind"] == "point" and number["paper"] == 0.92
    assert number["status"] == ("matched" if abs(number["measured"] - 0.92) <= 0.03 else "missed")
    assert [r["name"] for r in report["readings"]] == [WINDOW20]
    assert (tmp_path / "podlesny.fig1.png").exists()
    assert json.loads((tmp_path / "podlesny.fig1.json").read_text())["id"] == "podlesny.fig1"
