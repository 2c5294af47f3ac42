"""The `podlesny` experiments: the set-up each plans is the paper's (as ns-2.29 ran it), the claim
checks fail on data that contradict the paper, and fig1 runs end to end through the framework."""

import json
import math
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
from tcpsim.repro import select
from tcpsim.repro.framework import execute
from tcpsim.repro.podlesny import checks, common, dynamics, measure, multibottleneck, scalability, webtraffic
from tcpsim.repro.podlesny.unfairness import EXACT_DELTA, WINDOW20, Fig1
from tcpsim.repro.table import MAIN
from tcpsim.scenario import load_scenario

IDS = [
    "podlesny.fig1",
    "podlesny.fig4",
    "podlesny.fig5",
    "podlesny.fig6",
    "podlesny.fig7",
    "podlesny.fig8",
    "podlesny.fig9",
    "podlesny.fig10",
    "podlesny.fig12",
]


def engine(scenario):
    return load_scenario(scenario).to_engine()


def test_every_reproduced_experiment_is_registered():
    assert [e.id for e in select(["podlesny"])] == IDS


def test_common_setup_is_ns2_of_the_paper():
    e = engine(common.dumbbell_scenario(("newreno", "vegas"), bottleneck_bps=100e6, rtt_s=0.2))
    bottleneck, access = e["links"][0], e["links"][1]
    assert bottleneck["rate_bps"] == 100e6 and bottleneck["delay_ns"] == 10_000_000
    # C·250 ms in 1 KB packets
    assert bottleneck["ab"]["queue"] == {
        "kind": "drop_tail",
        "limit_packets": 3125 - 1,
        "limit_bytes": None,
    }  # ns-2's queue-limit L: L - 1 waiting
    assert access["rate_bps"] == 200e6
    assert e["duration_ns"] == 60 * 10**9 and e["warmup_ns"] == 5 * 10**9
    assert e["trace"]["throughput_bin_ns"] == 200_000_000
    newreno, vegas = (flow["tcp"] for flow in e["flows"])
    for tcp in (newreno, vegas):
        assert tcp["mss_bytes"] == 1000 and tcp["header_bytes"] == 40  # ns-2.29 useHeaders_
        assert tcp["delack_count"] == 1 and tcp["init_cwnd_segments"] == 2  # TCPSink, windowInit_ 2
        assert tcp["min_rto_ns"] == 200_000_000 and tcp["rwnd_bytes"] >= 2**30
    assert newreno["recovery"] == "newreno"
    assert vegas["recovery"] == "vegas_ns2"  # Agent/TCP/Vegas's own recv (tcp-vegas.cc)
    assert newreno["cc"]["kind"] == "aimd"
    cc = vegas["cc"]
    # the ns2 flavour: α = 1, β = 3, γ = 1 against ns-2's rounded δ from the packets outstanding,
    # ns-2's mean RTT of the round, a decision every round, per-ACK growth
    assert (cc["alpha"], cc["beta"], cc["gamma"], cc["diff_rounding"]) == (1, 3, 1, "nearest")
    assert (cc["diff"], cc["increase"], cc["base_rtt_reset"]) == ("ns2_in_flight", "ns2_per_ack", True)
    assert cc["rtt"] == "mean" and cc["min_round_samples"] == 0
    assert cc["loss_decrease"] == 0.25 and cc["timeout_cwnd_segments"] == 2
    assert cc["slow_start"] == "every_other_rtt" and cc["slow_start_exit"] == "eighth"
    assert cc["ecn_decrease"] == 0.5  # ns-2's Vegas answers an ECN echo with TcpAgent::ecn, a halving


def test_fig1_runs_the_catalog_setup_and_its_readings():
    fig1 = Fig1()
    specs = fig1.runs(quick=True, seeds=None)
    readings = {spec.key["reading"] for spec in specs}
    assert readings == {MAIN, WINDOW20, EXACT_DELTA}
    assert len(specs) == 3 * common.REPLICATIONS
    scenarios = fig1.scenarios()
    main = engine(scenarios[MAIN])
    bottleneck = main["links"][0]
    assert bottleneck["rate_bps"] == 2e6 and bottleneck["ab"]["queue"]["limit_packets"] == 62 - 1
    # round-trip propagation: 2 × (10 ms bottleneck + 2 × 20 ms access) = 100 ms
    access_ns = sum(link["delay_ns"] for link in main["links"][1:3])
    assert 2 * (bottleneck["delay_ns"] + access_ns) == 100_000_000
    assert [f["name"] for f in main["flows"]] == ["newreno0", "vegas1"]
    window20 = engine(scenarios[WINDOW20])
    assert all(f["tcp"]["rwnd_bytes"] == 20_000 for f in window20["flows"])
    exact = engine(scenarios[EXACT_DELTA])["flows"][1]["tcp"]["cc"]
    assert (exact["alpha"], exact["beta"], exact["gamma"], exact["diff_rounding"]) == (1, 3, 1, "none")


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
    (report,) = execute(select(["podlesny.fig1"]), quick=True, seeds=2, jobs=1, out_dir=tmp_path, progress=False)
    assert report["completed"], report["claims"]
    (number,) = report["numbers"]
    assert number["kind"] == "point" and number["paper"] == 0.92
    assert number["status"] == ("matched" if abs(number["measured"] - 0.92) <= 0.03 else "missed")
    assert [r["name"] for r in report["readings"]] == [WINDOW20]
    assert (tmp_path / "podlesny.fig1.png").exists()
    assert json.loads((tmp_path / "podlesny.fig1.json").read_text())["id"] == "podlesny.fig1"


# --- figs. 4 and 5: RD against the flow ratio ----------------------------------------------------


def flows_by_prefix(e, prefix):
    return [f for f in e["flows"] if f["name"].startswith(prefix)]


@pytest.mark.parametrize(("experiment", "varied"), [(scalability.Fig4(), "newreno"), (scalability.Fig5(), "vegas")])
def test_figs_4_and_5_run_the_papers_grid_with_rd(experiment, varied):
    specs = experiment.runs(quick=False, seeds=None)
    rd = [s for s in specs if s.key["discipline"] == "rd" and s.key["setting"] == "paper"]
    assert sorted({s.key["varied"] for s in rd}) == [10, 50, 100, 200, 300, 500, 700]  # ratio 0.1 … 7
    assert {s.key["seed"] for s in rd} == set(range(1, 6))
    assert {s.key["varied"] for s in specs if s.key["discipline"] == "droptail"} == {100, 300, 700}
    spec = next(s for s in rd if s.key["varied"] == 300 and s.key["seed"] == 1)
    e = engine(spec.scenario)
    fixed = "vegas" if varied == "newreno" else "newreno"
    for direction in ("f", "r"):  # the same flows in each direction
        assert len(flows_by_prefix(e, f"{varied}.{direction}")) == 300
        assert len(flows_by_prefix(e, f"{fixed}.{direction}")) == 100
    bottleneck = e["links"][0]
    assert bottleneck["rate_bps"] == 100e6 and bottleneck["delay_ns"] == 10_000_000
    for direction in ("ab", "ba"):
        q = bottleneck[direction]["queue"]
        assert (q["kind"], q["limit_packets"], q["k"], q["d_share"]) == ("rd", 3125, 1.0, 0.1)
        assert (q["interval_ns"], q["counter_timeout_ns"], q["counter_slots"]) == (10**8, 10**9, 4096)
        assert q["counter_delay_multiple"] == 2.0
    assert e["duration_ns"] == 60 * 10**9 and e["warmup_ns"] == 5 * 10**9
    access = e["links"][1]
    assert (
        access["rate_bps"] == 200e6 and access["ab"]["queue"]["limit_packets"] == 6250 - 1
    )  # C·250 ms too, ns-2 limit
    for f in e["flows"]:
        cc = f["tcp"]["cc"]
        assert (cc["kind"] == "vegas") == f["name"].startswith("vegas")
        assert f["tcp"]["mss_bytes"] == 1000 and f["tcp"]["delack_count"] == 1
    # RTTs uniform in [20, 300] ms, drawn anew per replication
    access = [link["delay_ns"] for link in e["links"][1:]]
    rtts = [4 * a + 2 * bottleneck["delay_ns"] for a in access[::2]]
    assert 20e6 <= min(rtts) and max(rtts) <= 300e6 and np.std(rtts) > 60e6
    other = next(s for s in rd if s.key["varied"] == 300 and s.key["seed"] == 2)
    assert engine(other.scenario)["links"][1]["delay_ns"] != e["links"][1]["delay_ns"]


def test_fig4s_sensitivity_changes_one_rd_setting_each_at_ratio_3():
    specs = [s for s in scalability.Fig4().runs(quick=False, seeds=1) if s.key["setting"] != "paper"]
    assert {s.key["varied"] for s in specs} == {300}
    queues = {s.key["setting"]: engine(s.scenario)["links"][0]["ab"]["queue"] for s in specs}
    assert queues["RD recalculation every 10 ms"]["interval_ns"] == 10**7
    assert queues["RD recalculation every 1 s"]["interval_ns"] == 10**9
    assert queues["flow-count timeout 0.5 s"]["counter_timeout_ns"] == 5 * 10**8
    assert queues["flow-count timeout 2 s"]["counter_timeout_ns"] == 2 * 10**9
    assert queues["fixed 1 s flow-count window"]["counter_delay_multiple"] == 0.0
    assert queues["fixed 1 s flow-count window"]["counter_timeout_ns"] == 10**9
    assert not [s for s in scalability.Fig5().runs(quick=False, seeds=1) if s.key["setting"] != "paper"]


def test_quick_mode_is_a_tenth_of_the_paper():
    spec = next(s for s in scalability.Fig4().runs(quick=True, seeds=None) if s.key["varied"] == 30)
    e = engine(spec.scenario)
    assert e["links"][0]["rate_bps"] == 10e6 and e["links"][0]["ab"]["queue"]["limit_packets"] == 312
    assert len(flows_by_prefix(e, "vegas.")) == 20 and len(flows_by_prefix(e, "newreno.")) == 60


def fake_run(flows, window_s=10.0, sender_side_drops=0, receiver_side_drops=0, bottleneck_bytes=0, rd_bytes=None):
    links = pd.DataFrame(
        {
            "name": ["bottleneck", "s0-r1", "r2-d0"],
            "src": ["r1", "s0", "r2"],
            "drops_queue": [5, sender_side_drops, receiver_side_drops],
            "tx_bytes": [bottleneck_bytes, 0, 0],
        }
    )
    if rd_bytes is not None:
        links["r_bytes_served"] = [rd_bytes[0], None, None]
        links["d_bytes_served"] = [rd_bytes[1], None, None]
    return SimpleNamespace(flows=pd.DataFrame(flows), links=links, meta={"window_s": window_s})


CROSSED = {
    "variant": ["newreno", "newreno", "vegas"],
    "packets_sent": [1000, 1000, 500],
    "packets_dropped": [100, 0, 5],
    "throughput_bps": [600_000.0, 800_000.0, 396_000.0],
}
"""NewReno: 1900 data packets crossed the bottleneck; Vegas: 495."""


def test_utilization_is_all_of_a_class_s_bytes_data_and_acks():
    # Sec. IV's "link utilization", whose 74 % + 24 % = 98 % data alone cannot fill: the link also
    # carried 2395 ACKs of 40 bytes, shared by the classes as their data packets (1900 : 495).
    data = (1900 + 495) * 1040
    r = fake_run(CROSSED, bottleneck_bytes=data + 2395 * 40)
    use = measure.class_use(r, capacity_bps=2e6, directions=1)
    assert use["newreno"]["utilization"] == pytest.approx(1900 * 1080 * 8 / 20e6)
    assert use["vegas"]["utilization"] == pytest.approx(495 * 1080 * 8 / 20e6)
    assert use["newreno"]["data"] == pytest.approx(1900 * 1040 * 8 / 20e6)
    # With RD at the bottleneck its queues' bytes per class (R: NewReno, D: Vegas) are the measure.
    rd = fake_run(CROSSED, bottleneck_bytes=data + 2395 * 40, rd_bytes=(2_100_000, 530_000))
    use = measure.class_use(rd, capacity_bps=2e6, directions=1)
    assert use["newreno"]["utilization"] == pytest.approx(2_100_000 * 8 / 20e6)
    assert use["vegas"]["utilization"] == pytest.approx(530_000 * 8 / 20e6)


def test_utilization_counts_the_packets_that_crossed_the_bottleneck():
    r = fake_run(CROSSED)
    use = measure.class_use(r, capacity_bps=2e6, directions=1)
    assert use["newreno"]["data"] == pytest.approx(1900 * 1040 * 8 / 20e6)
    assert use["newreno"]["delivered"] == pytest.approx(1.4e6 * 1.04 / 2e6)
    assert use["vegas"]["loss_rate"] == pytest.approx(0.01)
    # per flow: Vegas 495 packets for 1 flow against NewReno's 1900 for 2
    assert measure.fairness_index(use, "data") == pytest.approx(495 / 950)
    # a drop before the bottleneck never crossed it; one after it did, and is refused
    assert measure.class_use(fake_run(r.flows, sender_side_drops=3), capacity_bps=2e6, directions=1) == use
    with pytest.raises(ValueError, match="past the bottleneck"):
        measure.class_use(fake_run(r.flows, receiver_side_drops=1), capacity_bps=2e6, directions=1)


def test_within_everywhere_needs_every_point_in_the_band():
    assert checks.within_everywhere({1: [0.95, 1.0], 2: [1.1, 1.05]}, 0.85, 1.15, "index")[0]
    assert not checks.within_everywhere({1: [0.95, 1.0], 2: [0.7, 0.8]}, 0.85, 1.15, "index")[0]
    assert not checks.within_everywhere({}, 0.85, 1.15, "index")[0]


LINEAR = {x: [0.001 * x + e, 0.001 * x - e] for x, e in zip((10, 50, 100, 300, 700), (1e-4, 2e-4, 1e-4, 3e-4, 2e-4))}
CONVEX = {
    x: [1e-8 * x**3 + e, 1e-8 * x**3 - e] for x, e in zip((10, 50, 100, 300, 700), (1e-4, 2e-4, 1e-4, 3e-4, 2e-4))
}
FLAT = {x: [0.01 + e, 0.01 - e] for x, e in zip((10, 50, 100, 300, 700), (1e-3, 2e-3, 1e-3, 3e-3, 2e-3))}


def test_linear_growth_fails_on_a_convex_or_flat_curve():
    assert checks.grows_linearly(LINEAR)[0]
    assert not checks.grows_linearly(CONVEX)[0]
    assert not checks.grows_linearly(FLAT)[0]


def test_nonlinear_growth_fails_on_a_straight_or_flat_curve():
    assert checks.grows_nonlinearly(CONVEX)[0]
    assert not checks.grows_nonlinearly(LINEAR)[0]
    assert not checks.grows_nonlinearly(FLAT)[0]


# --- fig. 10: sudden changes ---------------------------------------------------------------------


def active_at(e, prefix, t_s):
    t_ns = t_s * 10**9
    return sum(
        any(start <= t_ns < end for start, end in f["app"]["on_ns"]) for f in e["flows"] if f["name"].startswith(prefix)
    )


def test_fig10_schedule_holds_the_papers_stated_points():
    specs = dynamics.Fig10().runs(quick=False, seeds=None)
    assert {(s.key["discipline"], s.key["setting"]) for s in specs} >= {
        ("droptail", "paper"),
        ("red_ecn", "paper"),
        ("rd", "paper"),
    }
    e = engine(next(s for s in specs if s.key["discipline"] == "rd").scenario)
    assert e["duration_ns"] == 180 * 10**9
    assert not flows_by_prefix(e, "newreno.r") and not flows_by_prefix(e, "vegas.r"), "unidirectional"
    assert (active_at(e, "newreno", 70), active_at(e, "vegas", 70)) == (100, 20)  # [60, 80]: 100 + 20
    assert active_at(e, "vegas", 80) == 100  # Vegas → 100 at 80 s
    assert (active_at(e, "newreno", 99.9), active_at(e, "newreno", 100)) == (100, 0)  # NewReno → 0 at 100 s
    assert active_at(e, "newreno", 50) and active_at(e, "vegas", 50)  # both in [40, 60]
    timeline = [(active_at(e, "newreno", t + 10), active_at(e, "vegas", t + 10)) for t in range(0, 180, 20)]
    assert timeline == list(dynamics.SCHEDULE)
    assert e["trace"]["throughput_bin_ns"] == 200_000_000


def test_fig10_red_ecn_is_ns2_29s_default_red_with_ecn():
    spec = next(s for s in dynamics.Fig10().runs(quick=False, seeds=1) if s.key["discipline"] == "red_ecn")
    e = engine(spec.scenario)
    q = e["links"][0]["ab"]["queue"]
    assert (q["kind"], q["mode"], q["ecn"], q["gentle"], q["max_p"], q["mark_p"]) == (
        "red",
        "byte",
        True,
        True,
        0.1,
        0.1,
    )
    # thresh_ 0 → max(5, 5 ms · 25 000 pkts/s / 2) = 62.5 packets of 500 bytes; q_weight_ −1
    assert (q["min_th"], q["max_th"]) == (31_250, 93_750)
    assert q["w_q"] == pytest.approx(1 - math.exp(-1 / (10 * 0.1 * 25_000)))
    # NewReno flows are ECN-capable; ns-2's Vegas agent never sets ECT (tcp-vegas.cc `output`).
    assert all(f["tcp"]["ecn"] == (f["tcp"]["cc"]["kind"] != "vegas") for f in e["flows"])
    assert {f["tcp"]["cc"]["kind"] for f in e["flows"]} == {"aimd", "vegas"}
    classic = next(s for s in dynamics.Fig10().runs(quick=False, seeds=1) if s.key["discipline"] == "red_ecn_classic")
    q = engine(classic.scenario)["links"][0]["ab"]["queue"]
    assert (q["mode"], q["min_th"], q["max_th"], q["w_q"]) == ("packet", 5, 15, 0.002)


def test_fig10_on_intervals_merge_consecutive_steps():
    assert dynamics.on_intervals([3, 3, 1, 3], 20.0, 2) == [["0s", "40s"], ["60s", "80s"]]
    assert dynamics.on_intervals([3, 3, 1, 3], 20.0, 0) == [["0s", "80s"]]
    assert dynamics.on_intervals([1, 1], 20.0, 5) == []


def test_fig10_interval_index_is_per_flow_and_undefined_without_both_classes():
    scale = dynamics.Scale(100e6, 1, 20.0)
    bins = int(scale.duration_s / common.BIN_S)
    time_s = np.arange(bins) * common.BIN_S
    step = np.minimum((time_s / 20).astype(int), 8)
    counts = np.asarray(scale.counts())
    flows = {"newreno": counts[step, 0].astype(float), "vegas": counts[step, 1].astype(float)}
    # every flow gets 0.5 Mb/s: fair
    t = dynamics.Timeline(time_s, {k: 0.5 * v for k, v in flows.items()}, flows)
    assert t.index(60, 80) == pytest.approx(1.0)
    assert math.isnan(t.index(100, 120)), "no NewReno flow"
    assert math.isnan(t.index(70, 90)), "the flow counts change inside"
    unfair = dynamics.Timeline(time_s, {"newreno": 0.9 * flows["newreno"], "vegas": 0.1 * flows["vegas"]}, flows)
    assert unfair.index(60, 80) == pytest.approx(1 / 9)


def test_ordered_and_clearly_below_fail_on_contradicting_data():
    rising = {"DropTail": [0.2, 0.25, 0.22], "RED/ECN": [0.6, 0.65, 0.62], "RD": [1.0, 0.98, 1.02]}
    assert checks.ordered(rising, "index")[0]
    assert not checks.ordered({**rising, "RED/ECN": [0.1, 0.12, 0.11]}, "index")[0]  # RED/ECN below DropTail
    assert not checks.ordered({**rising, "RED/ECN": [0.3, 1.0, 0.5]}, "index")[0]  # not significant
    assert checks.clearly_below([0.7, 0.72, 0.69], 0.85, 1.0, "index")[0]
    assert not checks.clearly_below([0.9, 0.95, 0.92], 0.85, 1.0, "index")[0]
    assert not checks.clearly_below([0.2, 1.4], 0.85, 1.0, "index")[0]  # mean below, CI across 1


# --- fig. 12: the parking lot --------------------------------------------------------------------


def test_fig12_is_fig11s_parking_lot_with_each_discipline_on_every_bottleneck():
    specs = multibottleneck.Fig12().runs(quick=False, seeds=1)
    for spec in specs:
        e = engine(spec.scenario)
        bottlenecks = e["links"][:5]
        assert [b["name"] for b in bottlenecks] == [f"r{i}-r{i + 1}" for i in range(5)]
        assert {(b["rate_bps"], b["delay_ns"]) for b in bottlenecks} == {(100e6, 5_000_000)}
        kinds = {b[d]["queue"]["kind"] for b in bottlenecks for d in ("ab", "ba")}
        assert kinds == {"rd": {"rd"}, "droptail": {"drop_tail"}}.get(spec.key["discipline"], {"red"})
        names = [f["name"] for f in e["flows"]]
        for hop in range(5):
            crossing = [f for f in e["flows"] if multibottleneck.crosses(f["name"], hop)]
            assert len(crossing) == 80
            assert sum(f["tcp"]["cc"]["kind"] == "vegas" for f in crossing) == 40
        assert sum(n.startswith("rev") for n in names) == 40
        if spec.key["discipline"].startswith("red_ecn"):
            # ns-2's ECN sender (tcp/tcp.cc): NewReno ECN-capable, retransmissions ECT, CWR after
            # any cut; stock Vegas never ECN-capable
            for f in e["flows"]:
                assert f["tcp"]["ecn"] == (f["tcp"]["cc"]["kind"] != "vegas")
                assert f["tcp"]["ecn_sender"] == "ns2"


def test_fig12_link_accounting_follows_the_paths():
    assert multibottleneck.crosses("long7", 4) and multibottleneck.crosses("cross2.3", 2)
    assert not multibottleneck.crosses("cross1.3", 2) and not multibottleneck.crosses("rev0", 0)
    names = ["long0", "long1", "cross0.0", "cross0.1", "cross1.0", "cross1.1", "rev0"]
    variants = ["newreno", "vegas", "newreno", "vegas", "newreno", "vegas", "newreno"]
    throughput = [1e6, 1e6, 4e6, 2e6, 3e6, 3e6, 9e6]
    r = SimpleNamespace(flows=pd.DataFrame({"name": names, "variant": variants, "throughput_bps": throughput}))
    links = multibottleneck.link_classes(r)
    assert links[0]["newreno"] == pytest.approx(5 * 1.04) and links[0]["vegas"] == pytest.approx(3 * 1.04)
    assert links[0]["index"] == pytest.approx(3 / 5)
    assert links[1]["index"] == pytest.approx(1.0)
    assert links[2]["newreno"] == pytest.approx(1.04) and links[2]["newreno_flows"] == 1


# --- figs. 6–9: web-like traffic -----------------------------------------------------------------


def web_engine(experiment, x, quick=False):
    spec = next(s for s in experiment.runs(quick=quick, seeds=1) if s.key["x"] == x)
    return engine(spec.scenario)


def path_rtt_ns(e, *names):
    delays = {link["name"]: link["delay_ns"] for link in e["links"]}
    return 2 * sum(delays[name] for name in names)


def test_fig6_adds_one_web_server_per_variant_to_the_rd_dumbbell():
    e = web_engine(webtraffic.Fig6(), 300)
    assert len(flows_by_prefix(e, "newreno.f")) == len(flows_by_prefix(e, "vegas.r")) == 100
    assert e["links"][0]["ab"]["queue"]["kind"] == "rd"
    newreno, vegas = e["web"]
    assert (newreno["name"], vegas["name"]) == ("web.newreno", "web.vegas")
    for web in (newreno, vegas):
        assert web["arrivals"] == {"process": "poisson", "rate_per_s": 150.0}  # half the total each
        assert web["sizes"] == {"dist": "pareto", "mean_bytes": 30_000, "shape": 1.3}
        assert web["direction"] == "download" and web["tcp"]["mss_bytes"] == 1000
    assert (newreno["tcp"]["cc"]["kind"], vegas["tcp"]["cc"]["kind"]) == ("aimd", "vegas")
    assert vegas["tcp"]["cc"]["rtt"] == "mean"  # ns-2's Vegas, as the long-lived flows
    assert path_rtt_ns(e, "www.vegas-r1", "bottleneck", "r2-client.vegas") == 100_000_000
    assert sorted(webtraffic.Fig6().grid(False)) == [1, 10, 50, 100, 200, 300]


def test_fig6_quick_mode_runs_every_intensity_the_range_is_taken_over():
    """ "The index ranges between 0.75 and 0.96 across the scenarios considered": the lowest and
    highest over all of 1…300 fps, which quick mode needs as well to decide it."""
    fig6 = webtraffic.Fig6()
    quick = sorted({s.key["x"] for s in fig6.runs(quick=True, seeds=1)})
    full = sorted({s.key["x"] for s in fig6.runs(quick=False, seeds=1)})
    assert quick == full == [1, 10, 50, 100, 200, 300]


def test_fig7_sweeps_the_capacity_with_its_c_250_ms_buffer():
    e = web_engine(webtraffic.Fig7(), 10)
    q = e["links"][0]["ab"]["queue"]
    assert e["links"][0]["rate_bps"] == 10e6 and q["limit_packets"] == 312  # D: 31 packets ≈ 31.25 KB
    assert all(w["arrivals"]["rate_per_s"] == 25.0 for w in e["web"])
    assert sorted(webtraffic.Fig7().grid(False)) == [10, 50, 100, 200, 500, 1000]
    quick = web_engine(webtraffic.Fig7(), 1000, quick=True)
    assert quick["links"][0]["rate_bps"] == 100e6 and len(flows_by_prefix(quick, "vegas.f")) == 10


def test_fig8_draws_the_long_lived_rtts_between_20_ms_and_the_maximum():
    e = web_engine(webtraffic.Fig8(), 1000)
    delays = {link["name"]: link["delay_ns"] for link in e["links"]}
    rtts = [2 * (2 * delays[f"s{i}-r1"] + delays["bottleneck"]) for i in range(200)]
    assert 20e6 <= min(rtts) and max(rtts) <= 1e9 and max(rtts) > 0.9e9


def test_fig9_has_pareto_arrivals_and_two_mean_sizes():
    e = web_engine(webtraffic.Fig9(), ("100 KB", 200))
    assert {w["arrivals"]["process"] for w in e["web"]} == {"pareto"}
    assert {w["arrivals"]["shape"] for w in e["web"]} == {1.1}
    assert {w["sizes"]["mean_bytes"] for w in e["web"]} == {100_000}


def test_forward_use_counts_long_lived_forward_flows_and_the_classs_transfers():
    flows = pd.DataFrame(
        {
            "name": ["newreno.f0", "vegas.f0", "newreno.r0"],
            "packets_sent": [1000, 500, 9999],
            "packets_dropped": [100, 0, 0],
        }
    )
    web = pd.DataFrame({"name": ["web.newreno", "web.vegas"], "packets_sent": [100, 400], "packets_dropped": [0, 50]})
    links = pd.DataFrame({"name": ["bottleneck"], "src": ["r1"], "drops_queue": [150]})
    r = SimpleNamespace(flows=flows, web=web, links=links, meta={"window_s": 10.0})
    point = webtraffic.Point(capacity_bps=1e6, long_flows=1)
    use = webtraffic.forward_use(r, point)
    assert use["newreno_utilization"] == pytest.approx(1000 * 8320 / 1e7)  # the reverse flow is not counted
    assert use["vegas_web"] == pytest.approx(350 * 8320 / 1e7)
    assert use["vegas_loss_rate"] == pytest.approx(50 / 900)
    assert use["index"] == pytest.approx(850 / 1000)


def test_rises_falls_and_lowest_at_fail_on_contradicting_data():
    up = {1: [0.01, 0.012, 0.011], 10: [0.02, 0.021, 0.019], 100: [0.05, 0.052, 0.049]}
    assert checks.changes(up, True)[0] and not checks.changes(up, False)[0]
    peaked = {**up, 10: [0.09, 0.091, 0.092]}  # a middle point significantly above the last
    assert not checks.changes(peaked, True)[0]
    index = {10: [0.6, 0.62, 0.61], 100: [0.8, 0.82, 0.81], 1000: [0.85, 0.84, 0.86]}
    assert checks.lowest_at(index, 10)[0]
    assert not checks.lowest_at(index, 100)[0]
    assert not checks.lowest_at({**index, 100: [0.55, 0.9, 0.6]}, 10)[0]  # a tie
