"""Set-up shared by every `podlesny` experiment (Sec. IV): the ns-2.29 TCP defaults the paper
leaves implicit, its Vegas as ns-2's `tcp-vegas.cc` runs it, packet sizes, buffers, the
measurement window, and the dumbbell the experiments share."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from tcpsim.repro.ns2_queue import ns2_drop_tail
from tcpsim.topologies import dumbbell

if TYPE_CHECKING:
    from tcpsim.result import RunResult

PAPER = "podlesny"

# --- Sec. IV: "packets of size 1 KB", 60 s, 5 replications, the first 5 s excluded ---------

PAYLOAD_BYTES = 1000
"""ns-2's `packetSize_` 1000: the TCP payload of a data packet."""
HEADER_BYTES = 40
"""ns-2.29 adds the 40-byte TCP/IP header on the wire (`useHeaders_` true since 2001/11/28)."""
WIRE_BYTES = PAYLOAD_BYTES + HEADER_BYTES
WIRE_PER_PAYLOAD = WIRE_BYTES / PAYLOAD_BYTES
"""Delivered payload → link capacity used (what a link monitor in ns-2 counts)."""
DURATION_S = 60.0
WARMUP_S = 5.0
REPLICATIONS = 5
BIN_S = 0.2
"""Instantaneous utilization is plotted "every 0.2 s interval"."""
BUFFER_S = 0.250
"""Buffers of C·250 ms."""
ACCESS_RATE = "200Mbps"
ACCESS_BPS = 200e6
BOTTLENECK_DELAY_S = 0.010
START_JITTER_S = 1.0
"""The paper does not say what differs between its replications; here each flow starts at a
uniform time in [0, 1] s (its own random stream)."""

NS2_TCP: dict[str, Any] = {
    "delack_count": 1,
    "init_cwnd": 2,
    "min_rto": "200ms",
    "clock_granularity": "10ms",
    "ecn_sender": "ns2",
}
"""ns-2.29's defaults (tcl/lib/ns-default.tcl) for what the paper does not state: `TCPSink`
acknowledges every packet (no delayed ACKs), `windowInit_` 2 (since 2001/5/26), `minrto_`
0.2 s (since 2004/10/14), `tcpTick_` 0.01 s (since 2002/03/07). With ECN (RED/ECN runs), ns-2's
sender (`ecn_sender` "ns2", tcp/tcp.cc): retransmissions are ECT too, and CWR rides on the next
segment after any window reduction, `SetCWRonRetransmit_` true since 2005/06/19, so in ns-2.29
as well; chosen from the source before any run. The receiver window is left
unlimited: ns-2's `window_` default of 20 packets would cap a flow at 20 packets per RTT
(experiments state it as an alternative reading where it matters)."""

NS2_WINDOW = {"rwnd": f"{20 * PAYLOAD_BYTES}B"}
"""ns-2's default `window_` of 20 packets, for the alternative reading that keeps it."""

VEGAS_CC: dict[str, Any] = {"kind": "vegas", "flavour": "ns2"}
"""The paper's Vegas, α = 1, β = 3 (Sec. II-B) and γ = 1 (`v_gamma_`), as ns-2.29, the paper's
simulator, runs it: the `ns2` flavour (`tcpsim.scenario.tcp.VEGAS_FLAVOURS`, from ns-2.35's
`tcp/tcp-vegas.cc` rev. 1.37 of 2005/08/25, the file ns-2.29 shipped). δ = (expect −
actual)·BaseRTT is rounded to the nearest integer (`int(x + 0.5)`) before it is compared with
α, β, γ; expect counts the packets outstanding after the round's closing ACK, actual the packets
sent during the round over its mean RTT; growth comes per ACK while the window is used; a round
that sent one packet resets BaseRTT; slow start every other RTT, exit cwnd − cwnd/8, 3/4 cut on
duplicate ACKs, restart at 2 segments after a timeout; an ECN echo halves the window
(`TcpAgent::ecn`, RED/ECN runs only). The recovery half is `VEGAS_TCP`'s. Not modelled:
ns-2's Vegas data packets carry no 40-byte header
(`VegasTcpAgent::output` does not add `headersize()`), which the scenarios keep."""

VEGAS_TCP: dict[str, Any] = {"limited_transmit": False, "ecn": False, "recovery": "vegas_ns2"}
"""The per-flow TCP of a Vegas flow besides its `VEGAS_CC`, as ns-2's `Agent/TCP/Vegas` behaves
whatever the script sets (`tcp/tcp-vegas.cc`, chosen from the source before any result was
looked at): its own `recv` recovers as `vegas_ns2` (Brakmo's fine-grained timeout that may
retransmit on the first duplicate ACK, its own window cut, the "worried" checks after a new ACK)
rather than as TcpAgent's, and sends nothing on the first two duplicate ACKs (no limited transmit:
ns-2's `singledup_` is read only by the other agents); its own `output` never sets ECT
(`TcpAgent::output` does when `ecn_` is on), so under RED/ECN its packets are dropped where
NewReno's are marked."""


def vegas_tcp(**cc: Any) -> dict[str, Any]:
    """A Vegas flow's `tcp` table: `VEGAS_TCP` with `VEGAS_CC` (`cc` overrides its fields)."""
    return {**VEGAS_TCP, "cc": {**VEGAS_CC, **cc}}


def buffer_pkts(rate_bps: float) -> int:
    """C·250 ms in 1 KB packets, as ns-2's DropTail `limit_` (a packet count) would be set from
    `packetSize_`: the whole packets that fit.

    Not `ns2_queue.bdp_packets`: the paper's buffer is C·250 ms whatever the RTT, counted in
    payload-sized packets and truncated (the whole packets that fit), where casetti's and macura's
    BDP buffers round to the nearest whole packet."""
    return int(rate_bps * BUFFER_S / 8 / PAYLOAD_BYTES)


ACCESS_QUEUE = ns2_drop_tail(buffer_pkts(ACCESS_BPS))
"""Sec. IV sets "the buffer sizes" of the links to C·250 ms: the access links' too (6250
packets at 200 Mb/s), drop-tail."""


def dumbbell_scenario(
    variants: Sequence[str],
    *,
    bottleneck_bps: float,
    rtt_s: float,
    duration_s: float = DURATION_S,
    tcp: dict[str, Any] | None = None,
    bin_s: float = BIN_S,
) -> dict[str, Any]:
    """The Fig. 3 dumbbell: one forward flow per entry of ``variants`` (named ``<variant><i>``),
    all with round-trip propagation delay ``rtt_s``, 200 Mb/s access links, a bottleneck of
    ``bottleneck_bps`` with 10 ms delay and a drop-tail buffer of C·250 ms; Vegas flows run
    ``VEGAS_CC``. Per-flow throughput in ``bin_s`` bins and queue/cwnd samples every ``bin_s``."""
    scenario = _paper_dumbbell(
        bottleneck_bps,
        duration_s,
        forward=len(variants),
        rtt_range_s=(rtt_s, rtt_s),
        tcp={**NS2_TCP, **(tcp or {})},
    )
    scenario["name"] = f"podlesny dumbbell: {', '.join(variants)} over {bottleneck_bps / 1e6:g} Mb/s"
    scenario["links"][0]["queue"] = ns2_drop_tail(buffer_pkts(bottleneck_bps))
    for i, (flow, variant) in enumerate(zip(scenario["flows"], variants)):
        flow["name"] = f"{variant}{i}"
        flow["variant"] = variant
        if variant == "vegas":
            flow["tcp"] = vegas_tcp()
    scenario["trace"] = {"throughput_bin": f"{bin_s:g}s", "cwnd": True, "queue": True, "interval": f"{bin_s:g}s"}
    return scenario


def link_share(r: RunResult, flow: str, capacity_bps: float) -> float:
    """The fraction of the link's capacity a flow's delivered packets used over the measurement
    window (whole 1040-byte packets, as a link monitor counts them)."""
    rows = r.flows[r.flows["name"] == flow]
    return float(rows["throughput_bps"].iloc[0]) * WIRE_PER_PAYLOAD / capacity_bps


# --- Sec. IV: the dumbbell of Figs. 3–10 with NewReno and Vegas in each direction ------------

BOTTLENECK_BPS = 100e6
RTT_RANGE_S = (0.020, 0.300)
"""Propagation RTTs uniform in [20, 300] ms; drawn anew in each replication (the replication's
seed seeds the draw), the same draw for every queue discipline of that replication."""

RD_PAPER: dict[str, Any] = {
    "k": 1,
    "d_share": 0.1,
    "interval": "100ms",
    "counter_slots": 4096,
    "counter_timeout": "1s",
    "counter_delay_multiple": 2,
}
"""RD as Sec. III sets it: k = 1, 10 % of the buffer to D. The paper is silent on the
recalculation interval and the flow counter; these are tcpsim's RD defaults, chosen before any
result (recalculation every 100 ms, 4096 slots per class, a flow active if seen within 1 s plus
twice its class's longest queueing delay in that window: one backed-off RTO behind the queue)."""

NS2_RED_MEAN_PKTSIZE = 500
"""ns-2's `Queue/RED mean_pktsize_`: the packet size RED's automatic settings assume."""


def ns2_red_ecn(rate_bps: float, link_delay_s: float) -> dict[str, Any]:
    """RED with ECN as ns-2.29's defaults (tcl/lib/ns-default.tcl and queue/red.cc
    `initialize_params`) configure it on a link of `rate_bps` and `link_delay_s`, the paper giving
    no parameter: byte mode (`bytes_` and `queue_in_bytes_` true since 10/11/2004), automatic
    thresholds (`thresh_` = `maxthresh_` = 0 since 12/29/01: min_th = max(5, targetdelay_·ptc/2)
    packets of `mean_pktsize_` 500 bytes with `targetdelay_` 5 ms, max_th = 3·min_th), the
    automatic weight of `q_weight_` −1 (w_q = 1 − exp(−1/(10·rtt·ptc)) with rtt = max(0.1 s,
    3·(delay + 1/ptc)), ptc the link's rate in 500-byte packets per second), `linterm_` 10
    (max_p 0.1), `gentle_` and `wait_` true, and ECN (`setbit_` true, as the paper's "RED/ECN")
    with `use_mark_p_` and `mark_p_` 0.1: mark while the probability is below 0.1, drop above;
    byte mode's drop spacing as `modify_p` computes it (`count_bytes`: the bytes since the last
    drop or mark in 500-byte units, the probability scaled by size/500 after the spacing), so a
    40-byte ACK counts 0.08 of a packet. Not modelled: in byte mode ns-2's hard limit is
    `limit_`·`mean_pktsize_` bytes (half the packet buffer here), and with `use_mark_p_` it has
    no forced drop above 2·max_th."""
    ptc = rate_bps / (8 * NS2_RED_MEAN_PKTSIZE)
    rtt_s = max(0.1, 3 * (link_delay_s + 1 / ptc))
    return {
        "kind": "red",
        "mode": "byte",
        "mean_packet": f"{NS2_RED_MEAN_PKTSIZE}B",
        "thresholds": "auto",
        "target_delay": "5ms",
        "w_q": 1 - math.exp(-1 / (10 * rtt_s * ptc)),
        "max_p": 0.1,
        "gentle": True,
        "wait": True,
        "ecn": True,
        "mark_p": 0.1,
        "count_bytes": True,
    }


def describe_ns2_red(rate_bps: float, link_delay_s: float) -> str:
    """`ns2_red_ecn`'s settings on a link, in words, for an experiment's notes."""
    q = ns2_red_ecn(rate_bps, link_delay_s)
    min_th = max(5.0, 0.005 * rate_bps / (8 * NS2_RED_MEAN_PKTSIZE) / 2) * NS2_RED_MEAN_PKTSIZE
    return (
        f"ns-2.29's RED as its defaults configure it for a {rate_bps / 1e6:g} Mb/s, {link_delay_s * 1e3:g} ms link "
        f"(the paper gives no parameter): byte mode, automatic thresholds min_th {min_th:,.0f} and max_th "
        f"{3 * min_th:,.0f} bytes (5 ms of the link in 500-byte packets, halved; three times that), automatic weight "
        f"w_q {q['w_q']:.2g}, max_p 0.1, gentle; ECN marks while the probability is below 0.1, ECN-capable TCP"
    )


NS2_RED_CLASSIC: dict[str, Any] = {
    "kind": "red",
    "mode": "packet",
    "min_th": "5pkt",
    "max_th": "15pkt",
    "w_q": 0.002,
    "max_p": 0.1,
    "gentle": True,
    "wait": True,
    "ecn": True,
    "mark_p": 0.1,
}
"""Sensitivity: RED/ECN with ns-2's classic fixed parameters (before the automatic configuration
of 12/29/01 and byte mode of 2004): 5 and 15 packets, w_q 0.002."""

DISCIPLINES = ("droptail", "red_ecn", "rd")
"""The paper's three (Sec. IV-G, IV-H); "red_ecn_classic" (`NS2_RED_CLASSIC`) is a sensitivity run."""
DISCIPLINE_LABELS = {"droptail": "DropTail", "red_ecn": "RED/ECN", "rd": "RD", "red_ecn_classic": "RED/ECN, classic"}


def bottleneck_queue(
    discipline: str, rate_bps: float, link_delay_s: float, overrides: dict[str, Any] | None = None
) -> str | dict[str, Any]:
    """The bottleneck queue of a discipline with the paper's buffer of C·250 ms (in 1 KB packets):
    drop-tail, RED/ECN (ns-2.29's defaults, `ns2_red_ecn`; or ns-2's classic `NS2_RED_CLASSIC`)
    or RD (`RD_PAPER`); `overrides` replace settings of the RED or RD table (sensitivity runs)."""
    limit = f"{buffer_pkts(rate_bps)}pkt"
    if discipline == "droptail":
        return ns2_drop_tail(buffer_pkts(rate_bps))
    if discipline == "red_ecn":
        return {**ns2_red_ecn(rate_bps, link_delay_s), "limit": limit, **(overrides or {})}
    if discipline == "red_ecn_classic":
        return {**NS2_RED_CLASSIC, "limit": limit, **(overrides or {})}
    if discipline == "rd":
        return {"kind": "rd", "limit": limit, **RD_PAPER, **(overrides or {})}
    raise ValueError(f"discipline {discipline!r} is not one of {', '.join(DISCIPLINES)}")


def _paper_dumbbell(bottleneck_bps: float, duration_s: float, **flows_and_queues: Any) -> dict[str, Any]:
    """`tcpsim.topologies.dumbbell` with what every Sec. IV dumbbell shares (Fig. 3): a 10 ms
    bottleneck of `bottleneck_bps`, 200 Mb/s access links, C·250 ms buffers, the paper's packet
    sizes, warm-up and start jitter; the flows, queues and TCP settings come as keywords."""
    return dumbbell(
        bottleneck_rate=f"{round(bottleneck_bps)}bps",
        bottleneck_delay_s=BOTTLENECK_DELAY_S,
        access_rate=ACCESS_RATE,
        buffer_s=BUFFER_S,
        mss_bytes=PAYLOAD_BYTES,
        header_bytes=HEADER_BYTES,
        duration=f"{duration_s:g}s",
        warmup=f"{WARMUP_S:g}s",
        start_jitter=f"{START_JITTER_S:g}s",
        **flows_and_queues,
    )


def mixed_dumbbell(
    newreno: int,
    vegas: int,
    *,
    queue: str | dict[str, Any],
    seed: int,
    reverse: bool = True,
    bottleneck_bps: float = BOTTLENECK_BPS,
    duration_s: float = DURATION_S,
    ecn: bool = False,
    rtt_range_s: tuple[float, float] = RTT_RANGE_S,
) -> dict[str, Any]:
    """The Sec. IV dumbbell: `newreno` NewReno and `vegas` Vegas long-lived flows forward and, if
    `reverse`, as many of each backward, named ``<variant>.f<j>`` / ``<variant>.r<j>`` (class: the
    variant); RTTs uniform in `rtt_range_s` ([20, 300] ms) drawn with the replication's `seed`;
    the bottleneck's `queue` in both directions; ns-2.29's TCP (with ECN if `ecn`, NewReno only) and the
    paper's Vegas."""
    variants = ["newreno"] * newreno + ["vegas"] * vegas
    directions = ("f", "r") if reverse else ("f",)
    scenario = _paper_dumbbell(
        bottleneck_bps,
        duration_s,
        forward=len(variants),
        reverse=len(variants) if reverse else 0,
        variant=variants * len(directions),
        rtt_range_s=rtt_range_s,
        queue=queue,
        access_queue=ACCESS_QUEUE,
        rtt_seed=seed,
        tcp={**NS2_TCP, **({"ecn": True} if ecn else {})},
    )
    scenario["name"] = (
        f"podlesny dumbbell: {newreno} NewReno + {vegas} Vegas {'each way' if reverse else 'forward'} over "
        f"{bottleneck_bps / 1e6:g} Mb/s"
    )
    for i, flow in enumerate(scenario["flows"]):
        direction, j = directions[i // len(variants)], i % len(variants)
        variant = flow["variant"]
        flow["name"] = f"{variant}.{direction}{j if variant == 'newreno' else j - newreno}"
        if variant == "vegas":
            flow["tcp"] = vegas_tcp()
    return scenario
