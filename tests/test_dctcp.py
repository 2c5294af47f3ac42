"""DCTCP from the scenario file to the result tables: the `dctcp` variant turns ECN and DCTCP's
receiver on, the step queue's mistakes exit 2 naming the field, and two DCTCP flows into a
step-marking port keep its queue near K with the link full and nothing lost."""

import pytest
import tcpsim
from engine_schema import assert_canonical_shape
from tcpsim.cli import app
from tcpsim.scenario import load_scenario
from typer.testing import CliRunner

SCENARIO = "scenarios/dctcp.toml"


def test_the_variant_presets_ecn_and_the_dctcp_receiver_unless_the_user_sets_them():
    engine = load_scenario(SCENARIO).to_engine()
    assert_canonical_shape(engine)
    tcp = engine["flows"][0]["tcp"]
    assert tcp["cc"] == {"kind": "dctcp", "g": 0.0625, "alpha_init": 1.0, "loss_decrease": "halve"}
    assert (tcp["ecn"], tcp["ecn_receiver"], tcp["recovery"]) == (True, "dctcp", "newreno")
    assert engine["links"][2]["ab"]["queue"] == {
        "kind": "step",
        "limit_packets": None,
        "limit_bytes": 700_000,
        "threshold": 20,
        "unit": "packets",
        "non_ect": "drop",
    }
    written = load_scenario(SCENARIO, overrides=["tcp.ecn_receiver=rfc3168"]).to_engine()["flows"][1]["tcp"]
    assert (written["ecn"], written["ecn_receiver"]) == (True, "rfc3168"), "the user's key wins"
    newreno = load_scenario(SCENARIO, overrides=["flows[*].variant=newreno"]).to_engine()["flows"][0]["tcp"]
    assert (newreno["ecn"], newreno["ecn_receiver"]) == (False, "rfc3168"), "other variants keep the defaults"


@pytest.mark.parametrize(
    ("setting", "line"),
    [
        (
            "threshold=20",
            "links[2].queue.threshold: 20 has no unit; a threshold is in packets ('20pkt') or bytes ('20B')",
        ),
        ("threshold=2.5pkt", "links[2].queue.threshold: '2.5pkt': K counts whole packets or bytes"),
        ("non_ect=mark", "links[2].queue.non_ect: 'mark' is invalid; input should be 'drop' or 'enqueue'"),
    ],
)
def test_a_bad_step_setting_exits_2_with_the_field_path(setting, line):
    result = CliRunner().invoke(app, ["validate", SCENARIO, "--set", f"links[2].queue.{setting}"])
    assert result.exit_code == 2, result.output
    assert result.output.strip().splitlines() == [f"error: {line}"]


def test_a_threshold_at_the_packet_limit_is_refused():
    result = CliRunner().invoke(
        app, ["validate", SCENARIO, "--set", "links[2].queue.limit=20pkt", "--set", "links[2].queue.threshold=20pkt"]
    )
    assert result.exit_code == 2, result.output
    assert "must be below the limit" in result.output


def test_dctcp_holds_the_queue_near_k_with_the_port_full_and_nothing_lost():
    r = tcpsim.run(SCENARIO, seed=1)
    port = r.links[(r.links["name"] == "port") & (r.links["direction"] == "ab")].iloc[0]
    assert port["utilization"] > 0.99
    assert port["drops_queue"] == 0 and port["marks_ecn"] > 1000
    # K = 20: the queue oscillates just above it (DCTCP Sec. 3.3: at most K + N plus a burst).
    assert 15 < port["queue_mean_pkts"] < 23 and port["queue_max_pkts"] <= 30
    assert (r.flows["ecn_reductions"] > 10).all() and (r.flows["bytes_retransmitted"] == 0).all()
    # DCTCP's cuts are gentle: RFC 3168 halving at every mark would empty a K-deep queue of a
    # path whose BDP is 8 packets; DCTCP's RTT never falls to the empty-queue 1 ms (plus serialization).
    assert (r.flows["rtt_min_s"] > 2.5e-3).all()


def test_whole_segment_growth_breaks_the_phase_lock_of_acks_per_segment():
    # With an ACK per segment and byte-exact growth the flow that started first keeps about
    # 72 of the 97 Mb/s (its smaller rival's packets arrive in a fixed order and are marked
    # more often); Linux's whole-segment growth, which ns-3's TcpDctcp shares, splits the port
    # evenly, as ns-3.44 does (docs/ns3-comparison/dctcp.md).
    def shares(*overrides):
        flows = tcpsim.run(SCENARIO, seed=1, **{"tcp.delack_count": 1, **dict(overrides)}).flows
        return flows["throughput_bps"].to_numpy() / 1e6

    exact = shares()
    linux = shares(("tcp.ca_increment", "linux"))
    assert exact[0] > 2.5 * exact[1]
    assert linux.min() > 0.9 * linux.max() and linux.sum() == pytest.approx(exact.sum(), rel=0.02)
    engine = load_scenario(SCENARIO, overrides=["tcp.ca_increment=linux"]).to_engine()
    assert {f["tcp"]["ca_increment"] for f in engine["flows"]} == {"linux"}
