"""What every `macura` experiment shares: the ns-2 defaults the paper leaves unstated, the TCP
flavours, goodput as the paper counts it, the topologies (built as plain scenario dicts) and
the paper's way of reporting per-seed values (the helpers the claims share are
`tcpsim.repro.aggregate`'s)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from tcpsim.repro import ns2_queue
from tcpsim.repro.ns2_queue import ns2_drop_tail
from tcpsim.topologies import dumbbell

PAPER = "macura"

# --- packets, goodput ----------------------------------------------------------------------

PACKET_BYTES = 1500
HEADER_BYTES = 40
MSS_BYTES = PACKET_BYTES - HEADER_BYTES
WIRE_PER_PAYLOAD = PACKET_BYTES / MSS_BYTES
"""Goodput counts whole 1500-byte packets (payload × 1500/1460): the paper's 1.99 Mb/s on a
2 Mb/s link (Table 1) is more than the 1.947 Mb/s of payload the link can carry, so its eq. (1)
counts packets as ns-2 sizes them."""


def goodput_mbps(payload_bps: float) -> float:
    """A flow's eq. (1) goodput ((sent − retransmitted) / time; the flows table's ``goodput_bps``,
    or delivered bytes per bin), in Mb/s of 1500-byte packets."""
    return float(payload_bps) * WIRE_PER_PAYLOAD / 1e6


def bdp_packets(rate_bps: float, rtt_s: float) -> int:
    """Bandwidth-delay product in 1500-byte packets (at least 1)."""
    return ns2_queue.bdp_packets(rate_bps, rtt_s, PACKET_BYTES)


# --- ns-2 defaults (the paper used ns-2; ns-2.35's `ns-default.tcl`, unchanged since 2004) ---

NS2_TCP: dict[str, Any] = {
    "mss": MSS_BYTES,
    "header": HEADER_BYTES,
    "delack_count": 2,
    "delack_timeout": "100ms",
    "init_cwnd": 2,
    "min_rto": "200ms",
    "clock_granularity": "10ms",
    "timeout_ssthresh": "every",
}
"""`Agent/TCPSink/DelAck` (one ACK per two segments, `interval_` 100 ms), `windowInit_` 2,
`minrto_` 0.2 s, `tcpTick_` 10 ms, and `TcpAgent::timeout`'s halving of ssthresh on every
expiry. No receiver window: ns-2's default `window_` of 20 packets would cap the Table 1 flow at
0.96 Mb/s, and the paper reports 1.97 Mb/s, so the authors raised it."""

NS2_VEGAS_CC: dict[str, Any] = {"kind": "vegas", "flavour": "ns2"}
"""ns-2's `Agent/TCP/Vegas`: the paper ran ns-2 (Sec. 3), so its Vegas is the `ns2` flavour
(`tcpsim.scenario.tcp.VEGAS_FLAVOURS`: ns-2.35 `tcp-vegas.cc` and `ns-default.tcl`) — α 1, β 3,
γ 1 (`v_alpha_`, `v_beta_`, `v_gamma_`) applied to δ rounded to an integer, the round's mean RTT,
δ from the packets outstanding after the round's closing ACK, per-ACK growth while the window
is used, the BaseRTT reset after a one-packet round. The same flavour as `podlesny`'s. Not
modelled: ns-2's Vegas data packets carry no 40-byte header (`VegasTcpAgent::output` does not
add `headersize()`); the scenarios keep 1500-byte packets for every TCP."""


@dataclass(frozen=True)
class Flavour:
    """A TCP as the paper ran it: a tcpsim variant and its per-flow [flows.tcp] overrides.

    Alike but not `gangadhar.common.Flavour`: an ns-2 agent here is a whole per-flow TCP table
    (Vegas's recovery, header and ACK sizes, delayed ACKs), where gangadhar's ns-3 classes override
    a preset's cc and recovery halves apart and some flavours are drawn but not judged."""

    name: str
    label: str
    variant: str
    tcp: Mapping[str, Any] = field(default_factory=dict, hash=False)


NEWRENO = Flavour("newreno", "NewReno", "newreno")
VEGAS = Flavour(
    "vegas",
    "Vegas",
    "vegas",
    {"cc": NS2_VEGAS_CC, "limited_transmit": False, "recovery": "vegas_ns2", "header": 0, "ack": HEADER_BYTES},
)
"""Vegas as ns-2.35's `Agent/TCP/Vegas`, congestion control and loss recovery both (chosen from
`tcp/tcp-vegas.cc` before any result was looked at): its own `recv` recovers by Brakmo's
fine-grained timeout (`vegas_ns2`: retransmit on the first duplicate ACK once the segment has
been out that long, its own window cut, the "worried" checks after a new ACK) and sends nothing
on the first two duplicate ACKs (no limited transmit); its own `output` never adds the 40-byte
header NewReno's data carry (`headersize()`), while the sink's ACKs keep their 40 bytes."""
WESTWOOD_PLUS = Flavour("westwood_plus", "Westwood+", "westwood_plus")
"""Westwood+ as its authors' Linux code (`tcp_westwood.c`): one bandwidth sample per RTT (at
least 50 ms), the two-stage 7/8 filter, over NewReno recovery; the paper's Sec. 2.1 pseudocode
(ssthresh = max(2, BWE·RTTmin/seg) and cwnd = ssthresh on three duplicate ACKs, cwnd = 1 after a
timeout)."""
VEGAS_TCPSIM = Flavour("vegas_tcpsim", "Vegas, round minimum (tcpsim default)", "vegas")
"""Sensitivity: tcpsim's default Vegas (the round's minimum RTT, three samples a round)."""
NO_DELACK = {"delack_count": 1}
NEWRENO_NODELACK = Flavour("newreno_nodelack", "NewReno, no delayed ACK", "newreno", NO_DELACK)
WESTWOOD_PLUS_NODELACK = Flavour("westwood_plus_nodelack", "Westwood+, no delayed ACK", "westwood_plus", NO_DELACK)
SACK = Flavour("sack", "SACK", "sack", NO_DELACK)
"""Sec. 5.5: "TCP SACK by default does not use delayed ACK" (ns-2's `TCPSink/Sack1`)."""
THREE = (NEWRENO, VEGAS, WESTWOOD_PLUS)


# --- scenario pieces -----------------------------------------------------------------------

ACCESS_QUEUE = "10000pkt"
"""Hosts' access links never queue: their buffers are large."""
ACCESS_RATE = "100Mbps"
"""Access links: the rate the paper gives its entry/exit links (Sec. 5.3)."""
NS2_SCENARIO_TCP = {k: v for k, v in NS2_TCP.items() if k not in ("mss", "header")}
"""`NS2_TCP` less the packet sizes, which the topology generators take apart."""


def with_flavour(scenario: dict[str, Any], names: Sequence[str], flavour: Flavour) -> dict[str, Any]:
    """`scenario` with the flows named `names` running `flavour` (its variant and per-flow TCP
    overrides), the generators giving only a variant name."""
    for spec in scenario["flows"]:
        if spec["name"] in names:
            apply_flavour(spec, flavour)
    return scenario


def apply_flavour(spec: dict[str, Any], flavour: Flavour) -> dict[str, Any]:
    spec["variant"] = flavour.variant
    if flavour.tcp:
        spec["tcp"] = dict(flavour.tcp)
    return spec


def flow(name: str, src: str, dst: str, flavour: Flavour, jitter_s: float = 1.0) -> dict[str, Any]:
    """A persistent flow starting at uniform[0, `jitter_s`] (its own random stream: replications
    differ where nothing else is random)."""
    spec = {"name": name, "src": src, "dst": dst, "start": "0s", "start_jitter": f"{jitter_s:g}s"}
    return apply_flavour(spec, flavour)


def spread(low_s: float, high_s: float, n: int) -> list[float]:
    """`n` RTTs spread uniformly over [low, high], both ends included (one: `high`)."""
    if n == 1:
        return [high_s]
    return [low_s + (high_s - low_s) * i / (n - 1) for i in range(n)]


def paper_rtts(m: int) -> list[float]:
    """Sec. 5.2's RTTs of M flows, uniformly spread in [20 + 230/M, 250] ms: 20 + 230·i/M, i = 1…M."""
    return [0.020 + 0.230 * i / m for i in range(1, m + 1)]


def macura_dumbbell(
    *,
    name: str,
    flavour: Flavour,
    forward_rtts: Sequence[float],
    reverse_rtts: Sequence[float] = (),
    reverse_on: Sequence[tuple[float, float]] | None = None,
    rate: str,
    delay_s: float,
    queue_pkts: int,
    duration_s: float,
) -> dict[str, Any]:
    """`tcpsim.topologies.dumbbell` as the paper's Secs. 5.1–5.2 use it: forward flows `fwd<i>` of
    one algorithm with the given RTTs, NewReno reverse flows `rev<i>` (ON only in `reverse_on`
    when given: one connection kept across the OFF periods, as an ns-2 FTP source started and
    stopped), a drop-tail bottleneck of `queue_pkts` packets each way (ns-2's `DropTail` counts
    packets), access links of 100 Mb/s, ns-2's TCP defaults."""
    forward, reverse = len(forward_rtts), len(reverse_rtts)
    built = dumbbell(
        forward=forward,
        reverse=reverse,
        bottleneck_rate=rate,
        bottleneck_delay_s=delay_s,
        access_rate=ACCESS_RATE,
        rtts_s=[*forward_rtts, *reverse_rtts],
        queue=ns2_drop_tail(queue_pkts),
        variant=flavour.variant,
        reverse_variant=NEWRENO.variant,
        reverse_on=None if reverse_on is None else [(f"{a:g}s", f"{b:g}s") for a, b in reverse_on],
        mss_bytes=MSS_BYTES,
        header_bytes=HEADER_BYTES,
        duration=f"{duration_s:g}s",
        access_queue=ACCESS_QUEUE,
        tcp=NS2_SCENARIO_TCP,
    )
    built["name"] = name
    return with_flavour(built, [f"fwd{i}" for i in range(forward)], flavour)


# --- per-seed values as the paper reports them ---------------------------------------------


def fmt_range(values: Sequence[float], digits: int = 2) -> str:
    """Mean (min–max) over seeds, as the paper reports its wireless runs."""
    v = np.asarray(values, dtype=float)
    return f"{v.mean():.{digits}f} ({v.min():.{digits}f}–{v.max():.{digits}f})"
