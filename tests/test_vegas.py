"""TCP Vegas end to end: alone on an idle path it fills the link with a backlog of α to β
packets (delayed ACKs on); against NewReno on drop-tail it gets less; runs are deterministic
and conserve packets; its parameters are validated by path."""

import tomllib
from pathlib import Path

import pytest
import tcpsim
from tcpsim.cli import app
from tcpsim.scenario import ScenarioError, load_scenario
from typer.testing import CliRunner

# single_flow: 2 Mb/s bottleneck, 250 ms round-trip propagation, 1460 B segments in 1500 B
# packets, drop-tail 1 BDP, delayed ACKs (delack_count 2).
IDLE_PATH = Path(__file__).resolve().parent.parent / "python" / "tcpsim" / "scenarios" / "single_flow.toml"
LINK_BPS = 2e6
PACKET_BITS = 1500 * 8
PAYLOAD_BPS = LINK_BPS * 1460 / 1500


def vegas_alone(cc=None, **overrides):
    settings = {"flows[*].variant": "vegas", "duration": "300s", "warmup": "50s", **overrides}
    if cc is not None:
        settings["tcp.cc"] = {"kind": "vegas", **cc}
    return tcpsim.run(IDLE_PATH, seed=1, **settings)


def bottleneck(result):
    return result.links[(result.links["name"] == "bottleneck") & (result.links["direction"] == "ab")].iloc[0]


@pytest.mark.parametrize(
    ("cc", "alpha", "beta"),
    [
        (None, 1, 3),  # the papers' α, β
        ({"alpha": 2, "beta": 4}, 2, 4),  # ns-3 and Linux
    ],
)
def test_alone_on_an_idle_path_vegas_fills_the_link_and_queues_alpha_to_beta_packets(cc, alpha, beta):
    r = vegas_alone(cc, **{"trace.cwnd": True, "trace.interval": "1s"})
    flow, link = r.flows.iloc[0], bottleneck(r)
    assert flow["throughput_bps"] >= 0.95 * LINK_BPS
    assert link["drops_queue"] == 0 and flow["timeouts"] == 0
    # Vegas's backlog (Brakmo & Peterson's "extra buffers"): the window beyond the
    # bandwidth-delay product at BaseRTT, and physically the packets at the bottleneck
    # (waiting, plus the one on the wire: the link is never idle).
    cwnd = r.trace("cwnd")
    cwnd = cwnd[cwnd["time_s"] >= 50]
    pipe_packets = LINK_BPS / PACKET_BITS * cwnd["min_rtt_s"]
    backlog = (cwnd["cwnd_bytes"] / 1460 - pipe_packets).mean()
    assert alpha <= backlog <= beta, backlog
    at_bottleneck = link["queue_mean_pkts"] + link["utilization"]
    assert alpha <= at_bottleneck <= beta, at_bottleneck
    assert link["queue_max_pkts"] <= beta


def test_delayed_acks_do_not_end_slow_start_early():
    """A round timed by one delayed ACK (the receiver's 200 ms wait) reads as queueing; with
    Linux's three-sample rule slow start runs on to the bandwidth-delay product (~43 packets)
    within a few seconds, without it Vegas leaves at 3 segments and crawls up by one per RTT."""
    robust = vegas_alone(duration="10s", warmup="4s")
    naive = vegas_alone({"min_round_samples": 1}, duration="10s", warmup="4s")
    assert robust.flows.iloc[0]["throughput_bps"] >= 0.95 * PAYLOAD_BPS
    assert naive.flows.iloc[0]["throughput_bps"] < 0.8 * PAYLOAD_BPS


def vegas_against_newreno(seed=1, warmup="20s"):
    scenario = tomllib.loads(IDLE_PATH.read_text())
    scenario["duration"], scenario["warmup"] = "120s", warmup
    base = scenario["flows"][0]
    scenario["flows"] = [base | {"name": "newreno", "variant": "newreno"}, base | {"name": "vegas", "variant": "vegas"}]
    return tcpsim.run(scenario, seed=seed)


def test_against_newreno_on_drop_tail_vegas_gets_less():
    r = vegas_against_newreno()
    newreno, vegas = r.flows.set_index("name")["throughput_bps"][["newreno", "vegas"]]
    assert vegas < newreno
    assert newreno + vegas >= 0.9 * PAYLOAD_BPS


def test_vegas_runs_are_deterministic_and_conserve_packets():
    # No warm-up: the link counters then cover the whole run, as the packet counts do.
    a, b = vegas_against_newreno(seed=5, warmup="0s"), vegas_against_newreno(seed=5, warmup="0s")
    assert a.flows.equals(b.flows) and a.links.equals(b.links)
    p = a.meta["packets"]
    assert p["created"] == p["delivered"] + p["dropped"] + p["in_network"]
    assert p["dropped"] == a.links["drops_queue"].sum() + a.links["drops_error"].sum()


# --- configuration --------------------------------------------------------------------------


def engine_cc(cc=None, variant="vegas"):
    scenario = {
        "duration": "10s",
        "links": [{"a": "x", "b": "y", "rate": "1Mbps", "delay": "1ms", "queue": "10pkt"}],
        "flows": [{"src": "x", "dst": "y", "variant": variant, **({"tcp": {"cc": cc}} if cc else {})}],
    }
    return load_scenario(scenario).to_engine()["flows"][0]["tcp"]


def test_the_vegas_variant_is_the_papers_vegas_on_newreno_recovery():
    tcp = engine_cc()
    assert tcp["recovery"] == "newreno" and tcp["init_cwnd_segments"] == 2
    assert tcp["cc"] == {
        "kind": "vegas",
        "alpha": 1.0,
        "beta": 3.0,
        "gamma": 1.0,
        "rtt": "min",
        "slow_start": "every_other_rtt",
        "slow_start_exit": "eighth",
        "loss_decrease": 0.25,
        "ecn_decrease": None,
        "timeout_cwnd_segments": 2,
        "min_round_samples": 3,
    }
    assert engine_cc("vegas", variant="newreno")["cc"] == tcp["cc"]


def test_flavours_are_parameters_on_any_recovery():
    ns3 = {
        "kind": "vegas",
        "alpha": 2,
        "beta": 4,
        "slow_start": "every_rtt",
        "slow_start_exit": "target",
        "loss_decrease": "ns3",
        "timeout_cwnd": 1,
    }
    tcp = engine_cc(ns3, variant="sack")
    assert tcp["recovery"] == "sack"
    assert {k: tcp["cc"][k] for k in ("alpha", "beta", "loss_decrease", "timeout_cwnd_segments")} == {
        "alpha": 2.0,
        "beta": 4.0,
        "loss_decrease": "ns3",
        "timeout_cwnd_segments": 1,
    }
    assert engine_cc({"kind": "vegas", "rtt": "mean", "loss_decrease": 0.5})["cc"]["loss_decrease"] == 0.5
    assert engine_cc({"kind": "vegas", "ecn_decrease": 0.5})["cc"]["ecn_decrease"] == 0.5  # ns-2's halving


@pytest.mark.parametrize(
    ("cc", "message"),
    [
        ({"alpha": 4}, "tcp.cc.beta: 3 must be >= alpha (4)"),
        ({"gamma": -1}, "tcp.cc.gamma: -1 is not a number of segments; use a number >= 0, e.g. 1"),
        ({"rtt": "median"}, "tcp.cc.rtt: "),
        ({"loss_decrease": 1.5}, "tcp.cc.loss_decrease: 1.5 is not a window decrease"),
        ({"ecn_decrease": 0}, "tcp.cc.ecn_decrease: 0 is not a window decrease"),
        ({"timeout_cwnd": 0}, "tcp.cc.timeout_cwnd: 0 is not a count"),
        ({"min_round_samples": 0}, "tcp.cc.min_round_samples: 0 is not a count"),
    ],
)
def test_bad_vegas_parameters_are_one_error_line_with_exit_2(tmp_path, cc, message):
    path = tmp_path / "s.toml"
    path.write_text(IDLE_PATH.read_text())
    setting = 'tcp.cc={kind = "vegas", ' + ", ".join(f"{k} = {_toml(v)}" for k, v in cc.items()) + "}"
    result = CliRunner().invoke(app, ["validate", str(path), "--set", setting])
    assert result.exit_code == 2
    [line] = result.stderr.splitlines()
    assert line.startswith(f"error: {message}"), line
    with pytest.raises(ScenarioError):
        load_scenario(path, [setting])


def _toml(value):
    return f'"{value}"' if isinstance(value, str) else str(value)
