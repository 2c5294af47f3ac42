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
        "rtt_input": "sample",
        "diff": "cwnd",
        "diff_rounding": "none",
        "round_end": "ack_covers",
        "increase": "round_end",
        "base_rtt_reset": False,
        "closing_sample_next_round": False,
        "reno_increase": "ack",
    }
    assert engine_cc("vegas", variant="newreno")["cc"] == tcp["cc"]


# Each flavour's fields, checked against the source line the preset cites (VEGAS_FLAVOURS).
NS2_TCP_VEGAS_CC = {  # ns-2.35 tcp/tcp-vegas.cc rev. 1.37 and tcl/lib/ns-default.tcl
    "alpha": 1.0,  # Agent/TCP/Vegas set v_alpha_ 1
    "beta": 3.0,  # v_beta_ 3
    "gamma": 1.0,  # v_gamma_ 1
    "rtt": "mean",  # rtt = v_sumRTT_ / v_cntRTT_
    "slow_start": "every_other_rtt",  # v_inc_flag_ = !v_inc_flag_
    "slow_start_exit": "eighth",  # cwnd_ -= (cwnd_/8)
    "loss_decrease": 0.25,  # win -= (win >> 2)
    "ecn_decrease": 0.5,  # ecn(seqno): TcpAgent's CLOSE_CWND_HALF
    "timeout_cwnd_segments": 2,  # cwnd_ = double(v_slowstart_), v_slowstart_ = 2
    "min_round_samples": 0,  # else rtt = currentTime - v_begtime_
    "rtt_input": "sample",  # rtt = currentTime - sendTime, transmits == 1
    "diff": "ns2_in_flight",  # expect = (t_seqno_ - last_ack_)/v_baseRTT_; v_actual_ = rttLen/rtt
    "diff_rounding": "nearest",  # int((expect - v_actual_)*v_baseRTT_ + 0.5)
    "round_end": "ack_beyond",  # tcph->seqno() >= v_begseq_
    "increase": "ns2_per_ack",  # if (v_incr_ > 0 && (cwnd_ - (t_seqno_ - last_ack_)) <= 2) cwnd_ += v_incr_
    "base_rtt_reset": True,  # if (rtt < v_baseRTT_ || rttLen <= 1) v_baseRTT_ = rtt
    "closing_sample_next_round": True,  # v_sumRTT_ += rtt below the once-per-rtt section
    "reno_increase": "ack",
}
LINUX_TCP_VEGAS_C = {  # net/ipv4/tcp_vegas.c
    "alpha": 2.0,  # static int alpha = 2
    "beta": 4.0,  # static int beta = 4
    "gamma": 1.0,  # static int gamma = 1
    "rtt": "min",  # rtt = vegas->minRTT
    "slow_start": "every_rtt",  # else if (tcp_in_slow_start(tp)) tcp_slow_start(tp, acked)
    "slow_start_exit": "target",  # tp->snd_cwnd = min(tp->snd_cwnd, (u32)target_cwnd + 1)
    "loss_decrease": 0.5,  # .ssthresh = tcp_reno_ssthresh
    "ecn_decrease": None,
    "timeout_cwnd_segments": 1,  # tcp_enter_loss
    "min_round_samples": 3,  # if (vegas->cntRTT <= 2) tcp_reno_cong_avoid(sk, ack, acked)
    "rtt_input": "sample",  # vrtt = sample->rtt_us + 1
    "diff": "cwnd_over_base",  # diff = tp->snd_cwnd * (rtt - vegas->baseRTT) / vegas->baseRTT
    "diff_rounding": "floor",  # u32 diff
    "round_end": "ack_beyond",  # if (after(ack, vegas->beg_snd_nxt))
    "increase": "round_end",  # tp->snd_cwnd++ / tp->snd_cwnd--
    "base_rtt_reset": False,
    "closing_sample_next_round": False,
    "reno_increase": "segments",  # tcp_reno_cong_avoid(sk, ack, acked)
}
NS3_TCP_VEGAS_CC = {  # ns-3.44 src/internet/model/tcp-vegas.cc, tcp-socket-base.cc
    "alpha": 2.0,  # "Alpha" UintegerValue(2)
    "beta": 4.0,  # "Beta" UintegerValue(4)
    "gamma": 1.0,  # "Gamma" UintegerValue(1)
    "rtt": "min",  # m_minRtt = std::min(m_minRtt, rtt)
    "slow_start": "every_rtt",  # else if (tcb->m_cWnd < tcb->m_ssThresh) TcpNewReno::SlowStart
    "slow_start_exit": "target",  # segCwnd = std::min(segCwnd, targetCwnd + 1)
    "loss_decrease": "ns3",  # GetSsThresh
    "ecn_decrease": None,
    "timeout_cwnd_segments": 1,  # ReTxTimeout: m_cWnd = m_segmentSize
    "min_round_samples": 3,  # if (m_cntRtt <= 2) TcpNewReno::IncreaseWindow
    "rtt_input": "smoothed",  # PktsAcked(m_tcb, segsAcked, m_tcb->m_lastRtt); m_lastRtt = m_rtt->GetEstimate()
    "diff": "cwnd",  # diff = segCwnd - targetCwnd, targetCwnd = segCwnd * baseRtt / minRtt
    "diff_rounding": "ceil",  # static_cast<uint32_t>(segCwnd * tmp)
    "round_end": "ack_covers",  # if (tcb->m_lastAckedSeq >= m_begSndNxt)
    "increase": "round_end",
    "base_rtt_reset": False,
    "closing_sample_next_round": False,
    "reno_increase": "ack",  # TcpNewReno::CongestionAvoidance: one adder per call
}


@pytest.mark.parametrize(
    ("flavour", "expected"), [("ns2", NS2_TCP_VEGAS_CC), ("linux", LINUX_TCP_VEGAS_C), ("ns3", NS3_TCP_VEGAS_CC)]
)
def test_each_flavour_is_its_sources_rules(flavour, expected):
    assert engine_cc({"kind": "vegas", "flavour": flavour})["cc"] == {"kind": "vegas", **expected}


def test_fields_written_beside_a_flavour_override_it():
    cc = engine_cc({"kind": "vegas", "flavour": "ns3", "rtt_input": "sample", "timeout_cwnd": 2})["cc"]
    assert cc == {"kind": "vegas", **NS3_TCP_VEGAS_CC, "rtt_input": "sample", "timeout_cwnd_segments": 2}
    assert engine_cc({"kind": "vegas", "flavour": "ns2", "diff_rounding": "none"})["cc"]["diff_rounding"] == "none"


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
        ({"min_round_samples": -1}, "tcp.cc.min_round_samples: -1 is not a number of RTT samples"),
        ({"flavour": "ns4"}, "tcp.cc.flavour: 'ns4' is not a Vegas flavour; allowed: linux, ns2, ns3"),
        ({"flavour": "ns2", "slow_start": "every_rtt"}, "tcp.cc.increase: ns2_per_ack needs slow_start"),
        ({"diff": "exact"}, "tcp.cc.diff: "),
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
