"""Shared-buffer switches (`[[network.shared_buffers]]`): the scenario form, its errors, and
the dynamic threshold seen from a run's link table."""

from __future__ import annotations

import pytest
import tcpsim
from tcpsim.scenario import ScenarioError, load_scenario

WIRE_BYTES = 1040
"""A data packet on the wire: the 1000-byte MSS below and 40 bytes of headers."""


def two_ports(shared: dict | None, to_d2: int = 0) -> dict:
    """Switch r forwards four bulk NewReno flows from s to two 10 Mb/s ports r→d1 and r→d2,
    each with a 1000-packet queue; `to_d2` of the flows go to d2."""
    scenario = {
        "duration": "20s",
        "warmup": "2s",
        "tcp": {"mss": 1000, "header": 40},
        "links": [
            {"name": "in", "a": "s", "b": "r", "rate": "1Gbps", "delay": "5ms", "queue": "1000pkt"},
            {"name": "p1", "a": "r", "b": "d1", "rate": "10Mbps", "delay": "5ms", "queue": "1000pkt"},
            {"name": "p2", "a": "r", "b": "d2", "rate": "10Mbps", "delay": "5ms", "queue": "1000pkt"},
        ],
        "flows": [{"name": f"f{i}", "src": "s", "dst": "d2" if i >= 4 - to_d2 else "d1"} for i in range(4)],
    }
    if shared is not None:
        scenario["network"] = {"shared_buffers": [shared]}
    return scenario


def port(result: tcpsim.RunResult, name: str) -> dict:
    links = result.links
    return links[(links["name"] == name) & (links["src"] == "r")].iloc[0].to_dict()


def test_one_congested_port_holds_less_than_alpha_over_one_plus_alpha_of_the_buffer():
    # alpha = 1, 60 000 bytes: a lone congested port stops below 30 000 bytes (29 packets: the
    # 29th joins 28 · 1040 = 29 120 bytes while 30 880 are free). alpha = 3: below 45 000
    # (44 packets).
    for alpha, most in [(1, 29), (3, 44)]:
        result = tcpsim.run(two_ports({"node": "r", "size": "60000B", "alpha": alpha}), seed=3)
        p1 = port(result, "p1")
        assert p1["queue_max_pkts"] == most
        assert p1["drops_shared_buffer"] == p1["drops_queue"] > 0
        assert most * WIRE_BYTES < 60_000 * alpha / (1 + alpha) + WIRE_BYTES


def test_two_congested_ports_share_the_buffer_and_without_it_each_fills_its_own_queue():
    # Beside a second congested port the threshold falls as the other queue grows (both near
    # B/3 when both are full): neither passes the lone port's bound, and each is shorter on
    # average than a port alone.
    alone = port(tcpsim.run(two_ports({"node": "r", "size": "60000B"}), seed=3), "p1")
    shared = tcpsim.run(two_ports({"node": "r", "size": "60000B"}, to_d2=2), seed=3)
    for name in ("p1", "p2"):
        row = port(shared, name)
        assert row["queue_max_pkts"] <= 29
        assert row["queue_mean_bytes"] < 0.8 * alone["queue_mean_bytes"]
        assert row["drops_shared_buffer"] > 0
    own = tcpsim.run(two_ports(None, to_d2=2), seed=3)
    assert port(own, "p1")["queue_max_pkts"] > 100
    assert "drops_shared_buffer" not in own.links.columns


def test_a_scenario_without_shared_buffers_keeps_its_engine_form_and_hash():
    plain = load_scenario(two_ports(None))
    assert "shared_buffers" not in plain.to_engine()
    shared = load_scenario(two_ports({"node": "r", "size": "4MB"}))
    assert shared.to_engine()["shared_buffers"] == [{"node": 1, "size_bytes": 4_000_000, "alpha": 1.0}]
    assert shared.hash() != plain.hash()


@pytest.mark.parametrize(
    ("entry", "path", "message"),
    [
        (
            {"node": "x", "size": "1MB"},
            "network.shared_buffers[0].node",
            "'x' is not a node; known nodes: s, r, d1, d2",
        ),
        ({"node": "r", "size": "0B"}, "network.shared_buffers[0].size", ""),
        ({"node": "r", "size": "1MB", "alpha": 0}, "network.shared_buffers[0].alpha", "not a positive number"),
        ({"node": "r", "size": "1MB", "alpha": float("nan")}, "network.shared_buffers[0].alpha", "not a positive"),
        ({"node": "r"}, "network.shared_buffers[0].size", "required"),
        ({"node": "r", "size": "1MB", "slots": 3}, "network.shared_buffers[0].slots", ""),
    ],
)
def test_a_bad_shared_buffer_names_its_field(entry, path, message):
    with pytest.raises(ScenarioError) as caught:
        load_scenario(two_ports(entry))
    assert any(where == path and message in text for where, text in caught.value.errors), caught.value.errors


def test_a_node_given_two_shared_buffers_is_refused():
    scenario = two_ports({"node": "r", "size": "1MB"})
    scenario["network"]["shared_buffers"].append({"node": "r", "size": "2MB"})
    with pytest.raises(ScenarioError) as caught:
        load_scenario(scenario)
    assert caught.value.errors == [("network.shared_buffers[1].node", "'r' already has a shared buffer")]


def test_the_data_centre_generators_give_every_switch_a_shared_buffer_when_asked():
    from tcpsim.topologies import fat_tree, leaf_spine

    tree = load_scenario(fat_tree(k=4, shared_buffer="1MB"))
    switches = [b.node for b in tree.network.shared_buffers]
    assert len(switches) == 20 and not any(node.startswith("h_") for node in switches)
    assert {b.size_bytes for b in tree.network.shared_buffers} == {1_000_000}
    spine = load_scenario(leaf_spine(shared_buffer={"size": "2MB", "alpha": 0.5}))
    assert [(b.node, b.size_bytes, b.alpha) for b in spine.network.shared_buffers] == [
        *((f"leaf_{i}", 2_000_000, 0.5) for i in range(4)),
        *((f"spine_{i}", 2_000_000, 0.5) for i in range(2)),
    ]
    assert "shared_buffers" not in load_scenario(fat_tree(k=4)).to_engine()
