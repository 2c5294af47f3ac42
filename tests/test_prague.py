"""TCP Prague from a scenario file to the result tables: the `prague` variant pairs SACK recovery
with ECN and DCTCP's per-segment echo, holds a step-marking port's queue near K with the link
full, and (its reduced RTT-dependence) shares the port between a 5 ms and a 20 ms flow far more
evenly than DCTCP does."""

from pathlib import Path

import pytest
import tcpsim
from engine_schema import assert_canonical_shape
from tcpsim.cli import app
from tcpsim.scenario import load_scenario
from typer.testing import CliRunner

K_PACKETS = 20


def _scenario(tmp_path: Path, variant: str, rtts_ms: list[float], *, cc: str = "") -> Path:
    """Hosts s0, s1, … each with its own base RTT into one 100 Mb/s port that marks CE above
    K packets (step marking, as an L4S native AQM); the hosts' links are faster, so only the
    port queues. `cc` overrides the variant's congestion control."""
    text = f"""
name = "prague"
duration = "10s"
warmup = "4s"

[tcp]
mss = 1448
init_cwnd = 10
min_rto = "200ms"
delack_timeout = "40ms"
{cc}

[[links]]
name = "port"
a = "sw"
b = "r"
rate = "100Mbps"
delay = "50us"
queue = {{ kind = "step", limit = "2MB", threshold = "{K_PACKETS}pkt" }}

[[links]]
name = "egress"
a = "r"
b = "receiver"
rate = "10Gbps"
delay = "50us"
queue = "2MB"
"""
    for i, rtt in enumerate(rtts_ms):
        # RTT = 2 × (access + 50 µs + 50 µs) of propagation
        text += f"""
[[links]]
name = "h{i}"
a = "s{i}"
b = "sw"
rate = "1Gbps"
delay = "{rtt / 2 - 0.1:g}ms"
queue = "2MB"

[[flows]]
name = "f{i}"
src = "s{i}"
dst = "receiver"
variant = "{variant}"
start = "{10 * i}ms"
"""
    path = tmp_path / f"{variant}.toml"
    path.write_text(text)
    return path


def _port(result):
    links = result.links
    return links[(links["name"] == "port") & (links["direction"] == "ab")].iloc[0]


def test_the_variant_presets_sack_ecn_and_the_dctcp_receiver(tmp_path):
    engine = load_scenario(_scenario(tmp_path, "prague", [10])).to_engine()
    assert_canonical_shape(engine)
    tcp = engine["flows"][0]["tcp"]
    assert tcp["cc"] == {
        "kind": "prague",
        "g": 0.0625,
        "alpha_init": 0.0,
        "rtt_scaling": "rate",
        "rtt_target_ns": 25_000_000,
        "rtt_transition_rounds": 4,
        "pacing_ss_ratio": 2.0,
        "pacing_ca_ratio": 1.0,
    }
    assert (tcp["recovery"], tcp["ecn"], tcp["ecn_receiver"]) == ("sack", True, "dctcp")


@pytest.mark.parametrize(
    ("setting", "line"),
    [
        ("rtt_scaling=scalable", "tcp.cc.rtt_scaling: 'scalable' is invalid; input should be 'rate' or 'none'"),
        ("rtt_transition_rounds=-1", "tcp.cc.rtt_transition_rounds: -1 is not a number of rounds"),
    ],
)
def test_a_bad_prague_setting_exits_2_with_the_field_path(tmp_path, setting, line):
    path = _scenario(tmp_path, "prague", [10], cc='cc = {kind = "prague"}')
    result = CliRunner().invoke(app, ["validate", str(path), "--set", f"tcp.cc.{setting}"])
    assert result.exit_code == 2, result.output
    assert result.output.strip().splitlines()[0].startswith(f"error: {line}")


def test_prague_fills_a_step_marked_port_with_its_queue_near_k(tmp_path):
    r = tcpsim.run(_scenario(tmp_path, "prague", [10]), seed=1)
    port = _port(r)
    assert port["utilization"] > 0.99
    assert port["drops_queue"] == 0 and port["marks_ecn"] > 500
    assert K_PACKETS - 5 < port["queue_mean_pkts"] < K_PACKETS + 3 and port["queue_max_pkts"] <= K_PACKETS + 5
    flow = r.flows.iloc[0]
    assert flow["ecn_reductions"] > 5 and flow["bytes_retransmitted"] == 0


def test_prague_shares_a_port_between_rtts_far_more_evenly_than_dctcp(tmp_path):
    # Both RTTs are below Prague's 25 ms target, so both grow their rate by SMSS/(25 ms)² per
    # second and update α and cut at most every 25 ms: the 5 ms flow no longer outgrows the
    # 20 ms one four times over, as DCTCP's (one segment per round) does.
    def ratio(variant, cc=""):
        flows = tcpsim.run(_scenario(tmp_path, variant, [5, 20], cc=cc), seed=1).flows
        short, long = flows["throughput_bps"].to_numpy()
        assert short + long > 0.97 * 100e6
        return short / long

    prague, dctcp = ratio("prague"), ratio("dctcp")
    assert prague < 1.5 and dctcp > 4
    # The scaling is what does it: without it Prague is as RTT-unfair as DCTCP.
    assert ratio("prague", 'cc = {kind = "prague", rtt_scaling = "none"}') > 4
