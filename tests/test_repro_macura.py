"""The `macura` experiments: each plans scenarios with what the paper states (checked on the
engine's canonical scenario), its claim checks fail on data that contradicts the paper, and
Table 1 runs end to end through the repro framework."""

import json
from collections import deque

import pytest
from tcpsim.repro import select
from tcpsim.repro.framework import execute
from tcpsim.repro.macura import bottleneck, checks, common, multihop, table1, wireless
from tcpsim.scenario import load_scenario

IDS = ["macura.table1", "macura.bottleneck", "macura.multihop", "macura.wireless"]


def engine(scenario: dict) -> dict:
    return load_scenario(scenario).to_engine()


def path(e: dict, flow_name: str) -> list[dict]:
    """The links (shortest path by hops) from the flow's source to its destination."""
    (f,) = [f for f in e["flows"] if f["name"] == flow_name]
    neighbours: dict[int, list[tuple[int, dict]]] = {}
    for link in e["links"]:
        neighbours.setdefault(link["a"], []).append((link["b"], link))
        neighbours.setdefault(link["b"], []).append((link["a"], link))
    previous = {f["src"]: None}
    todo = deque([f["src"]])
    while todo:
        node = todo.popleft()
        for other, link in neighbours.get(node, []):
            if other not in previous:
                previous[other] = (node, link)
                todo.append(other)
    links, node = [], f["dst"]
    while previous[node] is not None:
        node, link = previous[node]
        links.append(link)
    return links[::-1]


def rtt_s(e: dict, flow_name: str) -> float:
    return 2 * sum(link["delay_ns"] for link in path(e, flow_name)) / 1e9


def flow(e: dict, name: str) -> dict:
    (f,) = [f for f in e["flows"] if f["name"] == name]
    return f


def test_every_catalog_experiment_is_registered():
    assert [e.id for e in select(["macura"])] == IDS


@pytest.mark.parametrize("experiment_id", IDS)
def test_quick_runs_are_valid_scenarios(experiment_id):
    (experiment,) = select([experiment_id])
    specs = experiment.runs(quick=True, seeds=1)
    assert specs and len({spec.key for spec in specs}) == len(specs)
    for spec in specs:
        assert engine(spec.scenario)["flows"]
    assert len(experiment.runs(quick=False, seeds=None)) > len(specs)


def test_ns2_defaults_and_flavours():
    e = engine(table1.scenario(common.VEGAS))
    tcp = flow(e, table1.TCP1)["tcp"]
    # ns-2's Vegas data carry no header (tcp-vegas.cc output()); the sink's ACKs are 40 bytes.
    assert (tcp["mss_bytes"], tcp["header_bytes"], tcp["ack_bytes"]) == (1460, 0, 40)
    assert not tcp["limited_transmit"]
    assert (tcp["delack_count"], tcp["delack_timeout_ns"]) == (2, 100_000_000)  # ns-2 TCPSink/DelAck
    assert (tcp["min_rto_ns"], tcp["init_cwnd_segments"], tcp["timeout_ssthresh"]) == (200_000_000, 2, "every")
    assert tcp["rwnd_bytes"] > 1e9  # no receiver window
    cc = tcp["cc"]  # the ns2 flavour (ns-2 tcp-vegas.cc), podlesny's too: alpha 1, beta 3, gamma 1, rounded delta
    assert (cc["kind"], cc["alpha"], cc["beta"], cc["gamma"], cc["rtt"], cc["min_round_samples"]) == (
        "vegas",
        1.0,
        3.0,
        1.0,
        "mean",
        0,
    )
    assert (cc["diff"], cc["diff_rounding"], cc["increase"]) == ("ns2_in_flight", "nearest", "ns2_per_ack")
    assert flow(engine(table1.scenario(common.WESTWOOD_PLUS)), table1.TCP1)["tcp"]["cc"]["kind"] == "westwood_plus"
    sack = flow(engine(wireless.scenario(common.SACK, 0.01, wireless.ALONE, 10)), "tcp1")["tcp"]
    assert sack["recovery"] == "sack" and sack["delack_count"] == 1  # SACK without delayed ACKs (Sec. 5.5)
    assert common.goodput_mbps(1.46e6) == pytest.approx(1.5)  # whole 1500-byte packets


def test_table1_setup():
    e = engine(table1.scenario(common.NEWRENO))
    bottleneck_link = e["links"][0]
    assert bottleneck_link["rate_bps"] == 2_000_000
    assert (
        bottleneck_link["ab"]["queue"]["limit_packets"] == bottleneck_link["ba"]["queue"]["limit_packets"] == 42 - 1
    )  # ns-2's queue-limit L: L - 1 waiting
    assert rtt_s(e, table1.TCP1) == pytest.approx(0.250)
    assert bottleneck_link in path(e, table1.TCP1)
    reverse = [f for f in e["flows"] if f["name"] != table1.TCP1]
    assert len(reverse) == 10
    for f in reverse:  # the ACK path of TCP1: the bottleneck the other way, same RTT, NewReno, ON/OFF
        assert f["app"] == {
            "kind": "on_off",
            "on_ns": [[250_000_000_000, 500_000_000_000], [750_000_000_000, 1_000_000_000_000]],
            "bytes": None,
        }
        assert f["tcp"]["recovery"] == "newreno" and f["tcp"]["cc"]["kind"] == "aimd"
        assert bottleneck_link in path(e, f["name"]) and rtt_s(e, f["name"]) == pytest.approx(0.250)
        assert path(e, f["name"])[1] == bottleneck_link and path(e, table1.TCP1)[1] == bottleneck_link
    assert e["duration_ns"] == 1_000_000_000_000 and e["trace"]["throughput_bin_ns"] == 250_000_000_000


def test_bottleneck_setup():
    m = 20
    e = engine(bottleneck.scenario(common.WESTWOOD_PLUS, m, 1000.0))
    assert e["links"][0]["rate_bps"] == 10_000_000 and e["links"][0]["ab"]["queue"]["limit_packets"] == 125 - 1
    forward = [f["name"] for f in e["flows"] if f["name"].startswith("fwd")]
    assert len(forward) == m
    rtts = sorted(rtt_s(e, name) for name in forward)
    assert rtts[0] == pytest.approx(0.020 + 0.230 / m) and rtts[-1] == pytest.approx(0.250)
    assert all(b - a == pytest.approx(0.230 / m) for a, b in zip(rtts, rtts[1:]))  # uniformly spread
    reverse = [f for f in e["flows"] if f["name"].startswith("rev")]
    assert len(reverse) == 10 and all(f["tcp"]["cc"]["kind"] == "aimd" for f in reverse)
    assert all(flow(e, name)["tcp"]["cc"]["kind"] == "westwood_plus" for name in forward)
    assert all(e["links"][0] in path(e, f["name"]) for f in e["flows"])
    control = engine(bottleneck.scenario(common.VEGAS, m, 1000.0, reverse=False))
    assert len(control["flows"]) == m


def test_multihop_setup():
    hops = 3
    e = engine(multihop.scenario(common.VEGAS, hops, 1000.0))
    c1 = path(e, multihop.C1)
    assert len(c1) == hops + 2
    assert [(link["rate_bps"], link["delay_ns"]) for link in (c1[0], c1[-1])] == [(100_000_000, 20_000_000)] * 2
    assert all((link["rate_bps"], link["delay_ns"]) == (10_000_000, 10_000_000) for link in c1[1:-1])
    assert all(
        link["ab"]["queue"]["limit_packets"] == 125 - 1 for link in e["links"]
    )  # ns-2's queue-limit L: L - 1 waiting
    assert flow(e, multihop.C1)["tcp"]["cc"]["rtt"] == "mean"  # the ns-2 Vegas flavour
    assert flow(e, multihop.C1)["app"]["start_ns"] == 10_000_000_000 and e["warmup_ns"] == 10_000_000_000
    cross = [f for f in e["flows"] if f["name"] != multihop.C1]
    assert len(cross) == 2 * hops and all(f["tcp"]["cc"]["kind"] == "aimd" for f in cross)
    hop_links = {link["name"] for link in c1[1:-1]}
    crossed = []
    for f in cross:  # each over exactly one hop link
        (hop,) = [link for link in path(e, f["name"]) if link["name"] in hop_links]
        crossed.append((hop["name"], path(e, f["name"])[0]["b"] == hop["a"]))
    assert sorted(crossed) == sorted((name, forward) for name in hop_links for forward in (True, False))


def test_wireless_setup():
    e = engine(wireless.scenario(common.NEWRENO, 0.01, wireless.ALONE, 1000.0))
    assert len(e["flows"]) == 1 and rtt_s(e, "tcp1") == pytest.approx(0.250)
    last = path(e, "tcp1")[-1]
    assert (last["name"], last["rate_bps"], last["delay_ns"]) == ("wireless", 2_000_000, 20_000_000)
    for direction in ("ab", "ba"):  # losses in both directions
        (model,) = last[direction]["loss"]
        assert model == {
            "kind": "two_state",
            "good_sojourn_ns": 1_000_000_000,
            "bad_sojourn_ns": 10_000_000,
            "good_loss": 0.0,
            "bad_loss": 0.1,
            "p_bad": 0.5,
            "initial": "good",
        }
    loaded = engine(wireless.scenario(common.NEWRENO, 0.01, wireless.LOADED, 1000.0))
    cross = [f["name"] for f in loaded["flows"] if f["name"].startswith("cross")]
    reverse = [f["name"] for f in loaded["flows"] if f["name"].startswith("rev")]
    assert len(cross) == 5 and len(reverse) == 10
    assert sorted(rtt_s(loaded, n) for n in cross) == pytest.approx(common.spread(0.066, 0.250, 5))
    assert sorted(rtt_s(loaded, n) for n in reverse) == pytest.approx(common.spread(0.046, 0.250, 10))
    wired = [link for link in loaded["links"] if link["name"] == "wired"][0]
    assert all(wired in path(loaded, n) for n in cross + reverse + ["tcp1"])


def test_wireless_alternative_reading_runs_the_first_run_with_ns2_transitions():
    ns2 = engine(wireless.scenario(common.NEWRENO, 0.0001, wireless.ALONE, 1000.0, wireless.NS2_KEY))
    (model,) = [link for link in ns2["links"] if link["name"] == "wireless"][0]["ab"]["loss"]
    assert model["transitions"] == "ns2_multistate" and model["bad_sojourn_ns"] == 100_000
    specs = wireless.Wireless().runs(quick=True, seeds=None)
    main = {s.key for s in specs if "reading" not in s.key and s.key["traffic"] == wireless.ALONE}
    alternative = {s.key.without("reading") for s in specs if s.key.get("reading") == wireless.NS2_KEY}
    assert alternative == main  # same flavours, grid and seeds as the main reading's first run


# --- claim checks: each holds on the paper's shape and fails against it ----------------------


def test_near_capacity_and_worst():
    assert checks.near_capacity({"a": [1.9, 1.95], "b": [1.85, 1.88]}, 2.0, 0.9)[0]
    assert not checks.near_capacity({"a": [1.9, 1.95], "b": [1.7, 1.75]}, 2.0, 0.9)[0]
    on = {"NewReno": [1.6, 1.62, 1.64], "Vegas": [0.47, 0.48, 0.5], "Westwood+": [1.66, 1.68, 1.7]}
    assert checks.worst("Vegas", on)[0]
    assert not checks.worst("Vegas", {**on, "Vegas": [1.5, 1.7, 1.6]})[0]  # a tie with NewReno is not "worst"
    assert not checks.worst("Vegas", {**on, "Vegas": [1.8, 1.9, 1.85]})[0]


def test_slightly_above():
    assert checks.slightly_above([1.68, 1.69], [1.62, 1.64])[0]
    assert not checks.slightly_above([1.6, 1.61], [1.62, 1.64])[0]  # below
    assert not checks.slightly_above([1.95, 1.96], [1.3, 1.32])[0]  # far above is not "slightly"


def test_at_least_and_far_below():
    nr = {1: [4.0, 4.2, 4.1], 4: [1.0, 1.1, 1.05]}
    assert checks.at_least({1: [4.3, 4.4, 4.5], 4: [1.1, 1.2, 1.15]}, nr)[0]
    assert checks.at_least({1: [4.0, 4.1, 4.05], 4: [1.0, 1.05, 1.04]}, nr)[0]  # a tie within 15 %
    assert not checks.at_least({1: [4.3, 4.4, 4.5], 4: [0.5, 0.55, 0.6]}, nr)[0]
    assert checks.far_below({1: [0.3, 0.4], 4: [0.1, 0.1]}, {1: [4.0, 4.2], 4: [1.0, 1.1]}, 0.5)[0]
    assert not checks.far_below({1: [3.0, 3.1], 4: [0.1, 0.1]}, {1: [4.0, 4.2], 4: [1.0, 1.1]}, 0.5)[0]


def test_below_everywhere_and_hurt_most():
    vegas = {10: [2.5, 2.6, 2.4], 50: [7.0, 7.2, 7.1]}
    others = {"NewReno": {10: [9.0, 9.1, 8.9], 50: [9.7, 9.8, 9.75]}}
    assert checks.below_everywhere(vegas, others)[0]
    assert not checks.below_everywhere({**vegas, 50: [9.8, 9.7, 9.9]}, others)[0]
    with_traffic = {"NewReno": {10: [9.0, 9.1]}, "Vegas": {10: [2.5, 2.6]}}
    without = {"NewReno": {10: [9.9, 9.95]}, "Vegas": {10: [9.9, 9.95]}}
    assert checks.hurt_most(with_traffic, without, "Vegas")[0]
    assert not checks.hurt_most({**with_traffic, "Vegas": {10: [9.5, 9.6]}}, without, "Vegas")[0]  # NewReno hurt more
    assert not checks.hurt_most(with_traffic, {**without, "Vegas": {10: [2.55, 2.6]}}, "Vegas")[0]  # no impact


def test_fairer_and_improves():
    nr = {10: [0.85, 0.86, 0.84], 50: [0.9, 0.91, 0.92], 100: [0.93, 0.94, 0.93]}
    assert checks.fairer({10: [0.95, 0.96, 0.97], 50: [0.94, 0.95, 0.95], 100: [0.93, 0.935, 0.93]}, nr)[0]
    assert not checks.fairer({10: [0.8, 0.81, 0.8], 50: [0.94, 0.95, 0.95], 100: [0.94, 0.95, 0.94]}, nr)[0]
    assert not checks.fairer({10: [0.86, 0.85, 0.86], 50: [0.9, 0.9, 0.91], 100: [0.92, 0.93, 0.92]}, nr)[0]
    newreno = {0.001: [1.9, 1.91, 1.92], 0.01: [1.3, 1.35, 1.4], 0.1: [0.45, 0.46, 0.44]}
    assert checks.improves_mostly({0.001: [1.9, 1.92, 1.91], 0.01: [1.9, 1.91, 1.89], 0.1: [0.9, 0.92, 0.88]}, newreno)[
        0
    ]
    assert not checks.improves_mostly(
        {0.001: [1.9, 1.92, 1.91], 0.01: [1.3, 1.36, 1.4], 0.1: [0.9, 0.92, 0.88]}, newreno
    )[0]
    assert checks.not_below_and_above_at(
        {0.001: [1.9, 1.91], 0.1: [0.9, 0.91]}, {0.001: [1.9, 1.92], 0.1: [0.4, 0.41]}, 0.1
    )[0]
    assert not checks.not_below_and_above_at(
        {0.001: [1.5, 1.51], 0.1: [0.9, 0.91]}, {0.001: [1.9, 1.92], 0.1: [0.4, 0.41]}, 0.1
    )[0]
    assert not checks.not_below_and_above_at(
        {0.001: [1.9, 1.91], 0.1: [0.4, 0.42]}, {0.001: [1.9, 1.92], 0.1: [0.4, 0.41]}, 0.1
    )[0]


def test_table1_end_to_end(tmp_path):
    (report,) = execute(
        select(["macura.table1"]),
        quick=True,
        seeds=1,
        jobs=1,
        out_dir=tmp_path,
        progress=False,
        cache_dir=tmp_path / "cache",
    )
    assert report["completed"], report["claims"]
    assert [n["paper"] for n in report["numbers"]] == [v for row in table1.PAPER_TABLE.values() for v in row]
    assert all(n["status"] in ("matched", "missed") for n in report["numbers"])
    by_name = {n["name"]: n for n in report["numbers"]}
    assert by_name["Vegas goodput [500, 750] s (Mb/s)"]["status"] == "matched"  # Vegas fills the idle link
    assert by_name["Vegas goodput [250, 500] s (Mb/s)"]["measured"] < 0.6  # and collapses under reverse traffic
    assert len(report["claims"]) == 5 and any("sensitivity" in note for note in report["notes"])
    assert json.loads((tmp_path / "macura.table1.json").read_text())["id"] == "macura.table1"
    assert (tmp_path / "macura.table1.png").stat().st_size > 10_000
