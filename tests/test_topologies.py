"""The topology generators: what they build, that the engine's static routing sends every flow
along its intended path, and that bad arguments are refused."""

from __future__ import annotations

import hashlib
import json
import re
import warnings

import pytest
import tcpsim
from tcpsim.limits import ScenarioWarning
from tcpsim.scenario import load_scenario
from tcpsim.topologies import chain, dumbbell, parking_lot
from tcpsim.units import parse_duration_ns


def digest(scenario: dict) -> str:
    return hashlib.sha256(json.dumps(scenario, sort_keys=True).encode()).hexdigest()


def delays_s(scenario: dict) -> dict[str, float]:
    return {link["name"]: parse_duration_ns(link["delay"]) / 1e9 for link in scenario["links"]}


def channels_used(scenario: dict, flow: str) -> set[tuple[str, str]]:
    """Link directions (from, to) that carried packets when `flow` runs alone for a second:
    its data path and its ACK path."""
    (spec,) = [f for f in scenario["flows"] if f["name"] == flow]
    alone = scenario | {"duration": "1s", "warmup": "0s", "flows": [spec | {"start": "0s", "start_jitter": "0s"}]}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ScenarioWarning)  # a one-second window is all this needs
        links = tcpsim.run(alone, seed=1, force=True).links
    return {(row.src, row.dst) for row in links.itertuples() if row.tx_packets > 0}


def both_ways(*nodes: str) -> set[tuple[str, str]]:
    hops = list(zip(nodes, nodes[1:], strict=False))
    return {*hops, *((b, a) for a, b in hops)}


# --- dumbbell --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        ({"forward": 3}, "edc863a52c87fe9aee2ce6a9bd0f0d1ef2e5f3405ec8b1afe1545ac7c93fc11d"),
        (
            {"forward": 200, "reverse": 200, "duration": "60s"},
            "e606f68303b0a723dd93f9df52a01a76f1ade1323a69134bae21e392940cc778",
        ),
        (
            {
                **{"forward": 5, "reverse": 2, "bottleneck_rate": "2Mbps", "access_rate": "100Mbps"},
                **{"rtt_range_s": (0.1, 0.1), "buffer_s": 0.1, "variant": "westwood", "mss_bytes": 1000},
                **{"duration": "100s", "warmup": "10s", "start_jitter": "0s", "access_queue": "100pkt"},
                **{"rtt_seed": 3, "tcp": {"delack_count": 1}},
            },
            "ad69a259adc14b725ba7d99105204dc90302e314ef18bdad63a628753d025735",
        ),
    ],
)
def test_the_dumbbell_is_unchanged_for_its_original_arguments(arguments, expected):
    """Digests of the generator's output before it gained per-flow options: existing
    experiments and benchmarks must see bit-identical scenarios."""
    assert digest(dumbbell(**arguments)) == expected


def test_the_dumbbell_takes_per_flow_rtts_variants_and_classes():
    scenario = dumbbell(
        forward=2,
        reverse=2,
        rtts_s=[0.040, 0.100, 0.060, 0.300],
        variant=["vegas", "newreno"],
        reverse_variant="reno",
        classes=["v", "n", "rev", "rev"],
    )
    delays = delays_s(scenario)
    for i, rtt in enumerate([0.040, 0.100, 0.060, 0.300]):
        left, right = (f"s{i}", f"d{i}") if i < 2 else (f"d{i}", f"s{i}")
        assert delays[f"{left}-r1"] == delays[f"r2-{right}"] == pytest.approx((rtt / 2 - 0.010) / 2, abs=1e-9)
    flows = scenario["flows"]
    assert [f["variant"] for f in flows] == ["vegas", "newreno", "reno", "reno"]
    assert [row.class_ for row in load_scenario(scenario).flow_table()] == ["v", "n", "rev", "rev"]
    both = dumbbell(forward=1, reverse=1, variant=["vegas", "sack"])
    assert [f["variant"] for f in both["flows"]] == ["vegas", "sack"]
    assert "class" not in both["flows"][0]


def test_the_dumbbell_bottleneck_takes_any_queue_in_one_or_both_directions():
    spec = {"kind": "drop_tail", "packets": 50}
    both = load_scenario(dumbbell(forward=1, queue=spec)).to_engine()["links"][0]
    assert both["ab"]["queue"]["limit_packets"] == both["ba"]["queue"]["limit_packets"] == 50
    one_way = dumbbell(forward=1, queue=spec, bottleneck_queue_both_directions=False)
    engine = load_scenario(one_way).to_engine()["links"][0]
    assert engine["ab"]["queue"]["limit_packets"] == 50
    assert engine["ba"]["queue"] == {"kind": "drop_tail", "limit_packets": None, "limit_bytes": 100e6 * 0.25 / 8}
    one_way["links"][0]["ab"]["queue"]["packets"] = 7
    assert spec["packets"] == 50  # the caller's spec is copied, not shared


def test_the_dumbbell_reverse_flows_can_be_on_off():
    """`macura` Sec. 5.1: the reverse traffic is on during [250 s, 500 s] and [750 s, 1000 s]."""
    scenario = dumbbell(forward=1, reverse=2, reverse_on=[("250s", "500s"), ("750s", "1000s")])
    forward, *backward = scenario["flows"]
    assert "on" not in forward and forward["start"] == "0s"
    for flow in backward:
        assert flow["on"] == [["250s", "500s"], ["750s", "1000s"]]
        assert "start" not in flow and "start_jitter" not in flow


def test_on_off_reverse_flows_send_only_while_on():
    scenario = dumbbell(forward=1, reverse=1, rtt_range_s=(0.05, 0.05), reverse_on=[("1s", "2s")], duration="3s")
    scenario["trace"] = {"throughput_bin": "250ms"}
    bins = tcpsim.run(scenario, seed=1).trace("throughput").pivot(index="time_s", columns="flow_name", values="bytes")
    assert bins.loc[:0.75, "rev1"].sum() == 0 and bins.loc[1.25:1.75, "rev1"].min() > 0
    assert bins.loc[2.25:, "rev1"].sum() == 0


def test_dumbbell_flows_cross_the_bottleneck_their_own_way():
    scenario = dumbbell(forward=1, reverse=1, rtt_range_s=(0.05, 0.05), access_rate="100Mbps", bottleneck_rate="10Mbps")
    assert channels_used(scenario, "fwd0") == both_ways("s0", "r1", "r2", "d0")
    assert channels_used(scenario, "rev1") == both_ways("s1", "r2", "r1", "d1")


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"forward": 2, "rtts_s": [0.1]}, "rtts_s: 1 values given for 2 flows"),
        ({"forward": 1, "rtts_s": [0.01]}, "rtts_s: 0.01s is below twice the bottleneck delay"),
        ({"forward": 2, "variant": ["vegas"]}, "variant: 1 values given for 2 flows"),
        ({"forward": 1, "reverse": 1, "reverse_variant": ["a", "b"]}, "reverse_variant: 2 values given for 1 flows"),
        ({"forward": 1, "rtt_range_s": (0.01, 0.1)}, r"rtt_range_s: low 0.01s is below the path's own round trip"),
    ],
)
def test_bad_dumbbell_arguments_are_refused(arguments, message):
    with pytest.raises(ValueError, match=message):
        dumbbell(**arguments)


# --- parking lot -----------------------------------------------------------------------------


def test_the_parking_lot_defaults_are_podlesny_fig11():
    """Five 100 Mb/s bottlenecks of 5 ms, 200 Mb/s access, pools A…F of 20 NewReno + 20 Vegas
    with A crossing all five, 20 + 20 reverse, RTTs uniform in 60…300 ms."""
    scenario = parking_lot()
    bottlenecks, access = scenario["links"][:5], scenario["links"][5:]
    assert [link["name"] for link in bottlenecks] == ["r0-r1", "r1-r2", "r2-r3", "r3-r4", "r4-r5"]
    assert {(link["rate"], link["delay"]) for link in bottlenecks} == {("100Mbps", "5.000000ms")}
    assert {link["rate"] for link in access} == {"200Mbps"} and len(access) == 2 * 7 * 40
    flows = scenario["flows"]
    assert len(flows) == 7 * 40
    pools: dict[str, list[str]] = {}
    for flow in flows:
        pools.setdefault(re.sub(r"\.?\d+$", "", flow["name"]), []).append(flow["variant"])
    assert {pool: (v.count("newreno"), v.count("vegas")) for pool, v in pools.items()} == {
        pool: (20, 20) for pool in ["long", "cross0", "cross1", "cross2", "cross3", "cross4", "rev"]
    }
    delays = delays_s(scenario)
    for flow in flows:
        crossed = 5 if flow["name"].startswith(("long", "rev")) else 1
        src_link = next(name for name in delays if name.startswith(flow["src"] + "-"))
        dst_link = next(name for name in delays if name.endswith("-" + flow["dst"]))
        rtt = 2 * (delays[src_link] + crossed * 0.005 + delays[dst_link])
        assert 0.060 - 1e-9 <= rtt <= 0.300 + 1e-9
    assert parking_lot() == scenario  # the RTTs are fixed by rtt_seed, not the run seed
    assert parking_lot(rtt_seed=1) != scenario


def test_parking_lot_flows_take_their_intended_paths():
    scenario = parking_lot(
        hops=3, long={"newreno": 1}, cross=[{"vegas": 1}, {"newreno": 1}, {"vegas": 1}], reverse={"vegas": 1}
    )
    assert [f["name"] for f in scenario["flows"]] == ["long0", "cross0.0", "cross1.0", "cross2.0", "rev0"]
    assert channels_used(scenario, "long0") == both_ways("long0.s", "r0", "r1", "r2", "r3", "long0.d")
    for hop in range(3):
        flow = f"cross{hop}.0"
        assert channels_used(scenario, flow) == both_ways(f"{flow}.s", f"r{hop}", f"r{hop + 1}", f"{flow}.d")
    assert channels_used(scenario, "rev0") == both_ways("rev0.s", "r3", "r2", "r1", "r0", "rev0.d")


def test_the_podlesny_parking_lot_runs_and_reports_both_classes():
    r = tcpsim.run(parking_lot(duration="2s", warmup="0s"), seed=1)
    classes = r.class_table(link="r0-r1").set_index("class")
    assert classes.loc[["newreno", "vegas"], "flows"].tolist() == [140, 140]
    assert classes["throughput_bps"].sum() > 0


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"hops": 0}, "hops: 0 must be a whole number >= 1"),
        ({"hops": 2, "cross": [{"vegas": 1}]}, "cross: 1 pools given for 2 hops"),
        ({"long": {"vegas": -1}}, r"long\['vegas'\]: -1 must be a whole number >= 0"),
        ({"reverse": 20}, "rev: 20 is not a pool"),
        ({"rtt_range_s": (0.02, 0.3)}, r"low 0.02s is below the path's own round trip \(0.05s\)"),
    ],
)
def test_bad_parking_lot_arguments_are_refused(arguments, message):
    with pytest.raises(ValueError, match=message):
        parking_lot(**arguments)


# --- chain -----------------------------------------------------------------------------------


def test_the_chain_is_macura_multi_bottleneck_scenario():
    """`macura` Sec. 5.3: C1 across N hops, 2N one-hop cross sources, entry/exit links
    100 Mb/s and 20 ms, router queues 125 packets (10 Mb/s, 10 ms hops assumed)."""
    scenario = chain(hops=4, c1_variant="vegas")
    flows = {f["name"]: f for f in scenario["flows"]}
    assert list(flows) == [f"C{k}" for k in range(1, 10)]
    assert flows["C1"]["variant"] == "vegas" and flows["C1"]["start"] == "10s"
    assert {flows[f"C{k}"]["variant"] for k in range(2, 10)} == {"newreno"}
    links = {link["name"]: link for link in scenario["links"]}
    hops = [links[f"r{i}-r{i + 1}"] for i in range(4)]
    assert {(link["rate"], link["delay"], link["queue"]) for link in hops} == {("10Mbps", "10.000000ms", "125pkt")}
    access = [link for name, link in links.items() if "C" in name]
    assert len(access) == 2 * 9
    assert {(link["rate"], link["delay"], link["queue"]) for link in access} == {("100Mbps", "20.000000ms", "125pkt")}
    engine = load_scenario(scenario).to_engine()
    assert {flow["tcp"]["mss_bytes"] + flow["tcp"]["header_bytes"] for flow in engine["flows"]} == {1500}


def test_chain_flows_take_their_intended_paths():
    scenario = chain(hops=3)
    assert channels_used(scenario, "C1") == both_ways("C1.s", "r0", "r1", "r2", "r3", "C1.d")
    for hop in range(3):
        forward, backward = f"C{2 * hop + 2}", f"C{2 * hop + 3}"
        assert channels_used(scenario, forward) == both_ways(f"{forward}.s", f"r{hop}", f"r{hop + 1}", f"{forward}.d")
        assert channels_used(scenario, backward) == both_ways(
            f"{backward}.s", f"r{hop + 1}", f"r{hop}", f"{backward}.d"
        )
    same_way = chain(hops=1, reverse_cross=False)
    assert channels_used(same_way, "C3") == both_ways("C3.s", "r0", "r1", "C3.d")


def test_the_chain_runs_with_c1_starting_late():
    r = tcpsim.run(chain(hops=2, duration="12s"), seed=1)
    flows = r.flows.set_index("name")
    assert flows.loc["C1", "bytes_delivered"] > 0
    assert (flows.loc[["C2", "C3", "C4", "C5"], "bytes_delivered"] > flows.loc["C1", "bytes_delivered"]).all()


def test_a_chain_needs_a_hop():
    with pytest.raises(ValueError, match="hops: 0 must be a whole number >= 1"):
        chain(hops=0)


@pytest.mark.parametrize(
    "generated",
    [
        lambda: dumbbell(
            forward=3,
            variant=["newreno", "vegas", "westwood_plus"],
            reverse=2,
            reverse_variant="reno",
            reverse_on=[["1s", "2s"]],
        ),
        lambda: parking_lot(
            hops=2, long={"newreno": 2, "vegas": 1}, cross={"newreno": 1}, reverse={"reno": 1}, warmup="0s"
        ),
        lambda: chain(hops=3, c1_start="0.5s"),
    ],
    ids=["dumbbell", "parking_lot", "chain"],
)
def test_a_generated_topology_saved_as_toml_is_the_same_scenario(generated, tmp_path):
    scenario = generated()
    path = scenario.save(tmp_path / "generated.toml")
    assert path.read_text() == scenario.to_toml()
    assert load_scenario(path).to_engine() == load_scenario(scenario).to_engine()
    assert tcpsim.run(path, duration="2s").flows.equals(tcpsim.run(scenario, duration="2s").flows)


def test_a_topology_with_an_unset_key_saves_without_it():
    scenario = dumbbell(forward=1)
    scenario["flows"][0]["class"] = None  # None means "not set" in a dict; TOML has no null
    assert "class" not in scenario.to_toml()
    import tomllib

    assert "class" not in tomllib.loads(scenario.to_toml())["flows"][0]
