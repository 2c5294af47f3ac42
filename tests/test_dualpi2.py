"""DualPI2 (RFC 9332) and ECT(1) (RFC 9331) end to end: a flow with ecn_codepoint = "ect1" is
served from the L queue and marked there, not dropped, at a small queueing delay, while a
classic flow in the C queue is dropped (the link's per-queue columns say which queue did what); the ect0 default leaves every other scenario's engine
form unchanged; the queue's defaults are Linux's and its parameters are validated by path."""

import pytest
import tcpsim
from engine_schema import assert_canonical_shape
from tcpsim.scenario import ScenarioError, load_scenario

SCENARIO = "scenarios/dualpi2.toml"


def dualpi2_scenario(queue: dict | None = None, tcp: dict | None = None) -> dict:
    return {
        "duration": "10s",
        "links": [
            {
                "a": "x",
                "b": "y",
                "rate": "20Mbps",
                "delay": "5ms",
                "queue": {"kind": "dualpi2"} | (queue or {}),
            }
        ],
        "flows": [{"src": "x", "dst": "y", "variant": "dctcp", "tcp": tcp or {}}],
    }


def engine(scenario: dict) -> dict:
    return load_scenario(scenario).to_engine()


def test_defaults_are_linuxs_in_engine_units():
    q = engine(dualpi2_scenario())["links"][0]["ab"]["queue"]
    assert q == {
        "kind": "dualpi2",
        "limit_packets": 10_000,
        "limit_bytes": None,
        "target_ns": 15_000_000,
        "t_update_ns": 16_000_000,
        "alpha": 0.16,
        "beta": 3.2,
        "coupling": 2.0,
        "step_thresh_ns": 1_000_000,
        "step_range_ns": 0,
        "pi_delay": "classic",
        "c_protection": 10,
        "drop_overload": True,
        "mtu_bytes": 1514,
    }
    assert_canonical_shape(engine(dualpi2_scenario({"step_range": "400us", "pi_delay": "max", "limit": "1MB"})))


def test_the_ect1_codepoint_reaches_the_engine_and_ect0_is_not_written():
    flow = engine(dualpi2_scenario(tcp={"ecn_codepoint": "ect1"}))["flows"][0]
    assert flow["tcp"]["ecn_codepoint"] == "ect1"
    default = engine(dualpi2_scenario())["flows"][0]
    assert "ecn_codepoint" not in default["tcp"], "ect0, the default, keeps other scenarios' hash"


@pytest.mark.parametrize(
    ("queue", "tcp", "path"),
    [
        ({"c_protection": 101}, {}, "links[0].queue.c_protection"),
        ({"coupling": 0}, {}, "links[0].queue.coupling"),
        ({"pi_delay": "l"}, {}, "links[0].queue.pi_delay"),
        ({"t_update": "0s"}, {}, "links[0].queue.t_update"),
        ({}, {"ecn_codepoint": "ect2"}, "flows[0].tcp.ecn_codepoint"),
    ],
)
def test_a_bad_setting_is_reported_at_its_path(queue, tcp, path):
    with pytest.raises(ScenarioError) as err:
        load_scenario(dualpi2_scenario(queue, tcp))
    assert [p for p, _ in err.value.errors] == [path], str(err.value)


def test_the_l4s_flow_is_marked_in_the_l_queue_while_the_classic_flow_is_dropped():
    r = tcpsim.run(SCENARIO, seed=1, duration="15s")
    flows = r.flows.set_index("name")
    l4s, classic = flows.loc["l4s"], flows.loc["classic"]
    assert l4s["ce_received"] > 100 and l4s["ecn_reductions"] > 50
    assert l4s["bytes_retransmitted"] == 0, "the L queue marks; it drops only in overload"
    assert classic["ce_received"] == 0 and classic["packets_retransmitted"] > 0, "p'^2 drops in the C queue"
    # The L queue's 1 ms step keeps the L4S flow's queueing delay small; the classic flow's
    # is steered towards the 15 ms target.
    base = l4s["rtt_min_s"]
    assert l4s["rtt_mean_s"] - base < 0.003 < classic["rtt_mean_s"] - base
    link = r.links[(r.links["name"] == "bottleneck") & (r.links["direction"] == "ab")].iloc[0]
    assert link["marks_ecn"] >= l4s["ce_received"] and link["drops_early"] > 0
    assert link["utilization"] > 0.95
    # The per-queue columns: every mark in L, every drop in C, and the L queue the shorter.
    assert link["l_marks_ecn"] == link["marks_ecn"] and link["c_marks_ecn"] == 0
    assert link["c_drops_early"] == link["drops_early"] and link["l_drops_early"] == 0
    assert link["l_queue_mean_pkts"] < 2 < link["c_queue_mean_pkts"]
    assert link["l_bytes_served"] + link["c_bytes_served"] == link["tx_bytes"]


def test_with_ect0_both_flows_share_the_classic_queue():
    r = tcpsim.run(SCENARIO, seed=1, duration="15s", **{"flows[0].tcp.ecn_codepoint": "ect0"})
    flows = r.flows.set_index("name")
    base = flows.loc["l4s", "rtt_min_s"]
    assert flows.loc["l4s", "rtt_mean_s"] - base > 0.003, "the DCTCP flow now waits in the C queue too"
