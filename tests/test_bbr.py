"""BBR v1 end to end: alone on a deep-buffered path it fills the link without filling the
buffer; the variant is Linux's BBR on SACK recovery; runs are deterministic; its parameters are
validated by path."""

from pathlib import Path

import pytest
import tcpsim
from tcpsim.scenario import ScenarioError, load_scenario

# bbr.toml: 10 Mb/s, 40 ms round-trip propagation, 8 BDP (400 kB) drop-tail, 1460 B segments.
SCENARIO = Path(__file__).resolve().parent.parent / "python" / "tcpsim" / "scenarios" / "bbr.toml"
BDP_BYTES = 10e6 * 0.040 / 8


def bottleneck(result):
    return result.links[(result.links["name"] == "bottleneck") & (result.links["direction"] == "ab")].iloc[0]


def test_alone_bbr_fills_the_link_and_keeps_the_deep_buffer_nearly_empty():
    r = tcpsim.run(SCENARIO, seed=1, warmup="5s")
    flow, link = r.flows.iloc[0], bottleneck(r)
    assert link["utilization"] >= 0.9
    # A loss-based TCP fills all 8 BDP before its first loss; BBR never loses a packet here and
    # its queue stays below a quarter BDP on average (PROBE_BW's 1.25 phase builds at most that).
    assert link["drops_queue"] == 0 and flow["packets_retransmitted"] == 0 and flow["timeouts"] == 0
    assert link["queue_mean_bytes"] < 0.25 * BDP_BYTES
    assert link["queue_max_pkts"] * 1500 < 2 * BDP_BYTES, "even STARTUP's queue stays under 2 BDP"


def test_a_loss_based_tcp_on_the_same_path_fills_the_buffer_instead():
    r = tcpsim.run(SCENARIO, seed=1, warmup="5s", **{"flows[*].variant": "newreno"})
    assert bottleneck(r)["queue_mean_bytes"] > 2 * BDP_BYTES


def test_bbr_runs_are_deterministic():
    a = tcpsim.run(SCENARIO, seed=3, duration="10s")
    b = tcpsim.run(SCENARIO, seed=3, duration="10s")
    assert a.flows.equals(b.flows) and a.links.equals(b.links)


def engine_tcp(cc=None, variant="bbr"):
    scenario = {
        "duration": "10s",
        "links": [{"a": "x", "b": "y", "rate": "1Mbps", "delay": "1ms", "queue": "10pkt"}],
        "flows": [{"src": "x", "dst": "y", "variant": variant, **({"tcp": {"cc": cc}} if cc else {})}],
    }
    return load_scenario(scenario).to_engine()["flows"][0]["tcp"]


def test_the_bbr_variant_is_linux_bbr_on_sack_recovery():
    tcp = engine_tcp()
    assert tcp["recovery"] == "sack"
    assert tcp["cc"] == {
        "kind": "bbr",
        "high_gain": 2.885,  # tcp_bbr.c bbr_high_gain = 2/ln 2
        "drain_gain": 1 / 2.885,  # bbr_drain_gain
        "cwnd_gain": 2.0,  # bbr_cwnd_gain
        "pacing_gain_cycle": [1.25, 0.75, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0],  # bbr_pacing_gain
        "cycle_rand": 7,  # bbr_cycle_rand
        "bw_window_rounds": 10,  # bbr_bw_rtts = CYCLE_LEN + 2
        "min_rtt_window_ns": 10_000_000_000,  # bbr_min_rtt_win_sec
        "probe_rtt_duration_ns": 200_000_000,  # bbr_probe_rtt_mode_ms
        "min_cwnd_segments": 4,  # bbr_cwnd_min_target
        "full_bw_threshold": 1.25,  # bbr_full_bw_thresh
        "full_bw_rounds": 3,  # bbr_full_bw_cnt
        "pacing_margin_percent": 1,  # bbr_pacing_margin_percent (4.20+)
        "tso_quanta": True,  # bbr_tso_segs_goal in bbr_target_cwnd
    }
    assert engine_tcp("bbr", variant="newreno")["cc"] == tcp["cc"], "cc = 'bbr' is the same model"
    other = engine_tcp({"kind": "bbr", "pacing_margin_percent": 0, "probe_rtt_duration": "100ms"})
    assert other["cc"]["pacing_margin_percent"] == 0 and other["cc"]["probe_rtt_duration_ns"] == 100_000_000


@pytest.mark.parametrize(
    ("cc", "message"),
    [
        ({"high_gain": 1}, "flows[0].tcp.cc.high_gain: 1 is not a gain; use a number > 1"),
        ({"drain_gain": 1.5}, "flows[0].tcp.cc.drain_gain: 1.5 is too large"),
        ({"pacing_gain_cycle": [1.25]}, "flows[0].tcp.cc.pacing_gain_cycle"),
        ({"cycle_rand": 9}, "flows[0].tcp.cc.cycle_rand: 9 must be at most the cycle's length (8)"),
        ({"pacing_margin_percent": 100}, "flows[0].tcp.cc.pacing_margin_percent: 100 is too large"),
    ],
)
def test_bad_parameters_are_reported_by_path(cc, message):
    with pytest.raises(ScenarioError) as error:
        engine_tcp({"kind": "bbr", **cc})
    assert message in str(error.value)
