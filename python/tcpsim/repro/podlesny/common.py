"""Set-up shared by every `podlesny` experiment (Sec. IV): the ns-2.29 TCP defaults the paper
leaves implicit, its Vegas as ns-2's `tcp-vegas.cc` runs it, packet sizes, buffers, the
measurement window, and the dumbbell the experiments share."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

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
BOTTLENECK_DELAY_S = 0.010
START_JITTER_S = 1.0
"""The paper does not say what differs between its replications; here each flow starts at a
uniform time in [0, 1] s (its own random stream)."""

NS2_TCP: dict[str, Any] = {
    "delack_count": 1,
    "init_cwnd": 2,
    "min_rto": "200ms",
    "clock_granularity": "10ms",
}
"""ns-2.29's defaults (tcl/lib/ns-default.tcl) for what the paper does not state: `TCPSink`
acknowledges every packet (no delayed ACKs), `windowInit_` 2 (since 2001/5/26), `minrto_`
0.2 s (since 2004/10/14), `tcpTick_` 0.01 s (since 2002/03/07). The receiver window is left
unlimited: ns-2's `window_` default of 20 packets would cap a flow at 20 packets per RTT
(experiments state it as an alternative reading where it matters)."""

NS2_WINDOW = {"rwnd": f"{20 * PAYLOAD_BYTES}B"}
"""ns-2's default `window_` of 20 packets, for the alternative reading that keeps it."""

VEGAS_CC: dict[str, Any] = {
    "kind": "vegas",
    "alpha": 0.5,
    "beta": 3.5,
    "gamma": 1.5,
    "rtt": "mean",
    "min_round_samples": 1,
}
"""The paper's Vegas, α = 1, β = 3 (Sec. II-B) and γ = 1 (`v_gamma_`), as ns-2.29's
`tcp/tcp-vegas.cc` applies them: it rounds δ = (expect − actual)·BaseRTT to the nearest integer
(`int(x + 0.5)`) before comparing, so it grows while δ < 0.5, shrinks when δ ≥ 3.5 and leaves
slow start when δ ≥ 1.5 — exactly tcpsim's exact-δ comparison with α 0.5, β 3.5, γ 1.5. The
round's RTT is the mean of its samples (`v_sumRTT_ / v_cntRTT_`) and one sample decides a round
(no delayed ACKs here). The rest is the `vegas` defaults, ns-2's too: slow start every other RTT,
exit cwnd − cwnd/8, 3/4 cut on duplicate ACKs, restart at 2 segments after a timeout.
Not modelled: ns-2 resets BaseRTT to the round's RTT when a round sent at most one packet, and
Brakmo's fine-grained retransmission checks (both act only around losses)."""


def buffer_pkts(rate_bps: float) -> int:
    """C·250 ms in 1 KB packets, as ns-2's DropTail `limit_` (a packet count) would be set from
    `packetSize_`: the whole packets that fit."""
    return int(rate_bps * BUFFER_S / 8 / PAYLOAD_BYTES)


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
    scenario = dumbbell(
        forward=len(variants),
        bottleneck_rate=f"{round(bottleneck_bps)}bps",
        bottleneck_delay_s=BOTTLENECK_DELAY_S,
        access_rate=ACCESS_RATE,
        rtt_range_s=(rtt_s, rtt_s),
        buffer_s=BUFFER_S,
        mss_bytes=PAYLOAD_BYTES,
        header_bytes=HEADER_BYTES,
        duration=f"{duration_s:g}s",
        warmup=f"{WARMUP_S:g}s",
        start_jitter=f"{START_JITTER_S:g}s",
        tcp={**NS2_TCP, **(tcp or {})},
    )
    scenario["name"] = f"podlesny dumbbell: {', '.join(variants)} over {bottleneck_bps / 1e6:g} Mb/s"
    scenario["links"][0]["queue"] = f"{buffer_pkts(bottleneck_bps)}pkt"
    for i, (flow, variant) in enumerate(zip(scenario["flows"], variants)):
        flow["name"] = f"{variant}{i}"
        flow["variant"] = variant
        if variant == "vegas":
            flow["tcp"] = {"cc": dict(VEGAS_CC)}
    scenario["trace"] = {"throughput_bin": f"{bin_s:g}s", "cwnd": True, "queue": True, "interval": f"{bin_s:g}s"}
    return scenario


def link_share(r: RunResult, flow: str, capacity_bps: float) -> float:
    """The fraction of the link's capacity a flow's delivered packets used over the measurement
    window (whole 1040-byte packets, as a link monitor counts them)."""
    rows = r.flows[r.flows["name"] == flow]
    return float(rows["throughput_bps"].iloc[0]) * WIRE_PER_PAYLOAD / capacity_bps
