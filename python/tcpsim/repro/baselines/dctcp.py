"""`validation.dctcp`: DCTCP with step marking holds the queue near K at full utilization
(Alizadeh et al., "Data Center TCP (DCTCP)", SIGCOMM 2010, Sec. 3.3 and 4.1, Fig. 1 and 13).

Set-up (chosen from the paper before running): the paper's Fig. 1/13 experiment — two long
flows from two hosts, each on its own port, into one common port — scaled from 1 Gb/s to
100 Mb/s at the common port with the round-trip propagation time scaled up 10× (100 µs → 1 ms),
so the
bandwidth-delay product stays C·RTT ≈ 8.3 packets of 1500 bytes and the paper's K for 1 Gb/s,
20 packets, applies unchanged (its guideline K > C·RTT/7, eq. (13), holds). The common port has
the 700 KB the Triumph switch let the two flows take (Sec. 1, Fig. 1): step marking at K for
DCTCP (g = 1/16), drop-tail for NewReno, the same buffer. Linux-like hosts as the paper's:
1460-byte segments, initial window 10, delayed ACKs (2 segments, 40 ms), minimum RTO 200 ms.
The hosts' links run at 1 Gb/s, so that only the common port queues: a first full run had them
at 100 Mb/s, like the port, and the NewReno flow that got ahead kept most of its window in its
own host's 700 KB buffer (a host queue Linux's TCP small queues would not build), never losing
a packet while the other starved; that was a set-up error, and correcting it changed no claim
or tolerance. The second flow starts 100 ms after the first, each start jittered in [0, 10 ms]
per seed.
Quick: 10 s with the first 2 s excluded, 2 seeds; full: 60 s with the first 5 s excluded, 5 seeds.

Claims (tolerances fixed before running):
1. DCTCP keeps the port busy: utilization ≥ 0.95 (Sec. 4.1: full throughput with the
   recommended K).
2. DCTCP's time-average queue lies in the band the paper's fluid analysis predicts for N flows
   (Sec. 3.3): between Q_min = K + N − A and Q_max = K + N, A = ½·√(2N(C·RTT + K)) (eqs. 9, 10,
   12), widened by one packet on each side for what the model leaves out (a queue counted without
   the packet in service, windows in whole segments): with N = 2, K = 20, C·RTT = 8.33 packets,
   A = 5.32 and the band is [15.68, 23.0] packets.
3. NewReno with drop-tail, same buffer, holds a larger mean queue than DCTCP (Fig. 1, 13: "10X").
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from tcpsim.repro import register
from tcpsim.repro.framework import Claim, Experiment, Outcome, Series
from tcpsim.repro.sweep import Axis, Sweep
from tcpsim.tidy import RunKey, select_runs

if TYPE_CHECKING:
    from tcpsim.result import RunResult

RATE_BPS = 100e6
PACKET_BYTES = 1500
RTT_S = 1e-3
K_PACKETS = 20
FLOWS = 2
BUFFER = "700KB"
UTILIZATION_FLOOR = 0.95
BAND_SLACK_PACKETS = 1.0
VARIANTS = ("dctcp", "newreno")


# --- the claims' decisions, as pure functions of measured numbers (unit-tested on their own) -------


def bdp_packets(rate_bps: float = RATE_BPS, rtt_s: float = RTT_S, packet_bytes: int = PACKET_BYTES) -> float:
    """C·RTT in packets, exact: a quantity of the Sec. 3.3 model, not a buffer (so not
    `ns2_queue.bdp_packets`, which rounds to whole packets)."""
    return rate_bps * rtt_s / (8 * packet_bytes)


def queue_band(k: float, flows: int, bdp: float, slack: float = BAND_SLACK_PACKETS) -> tuple[float, float]:
    """DCTCP Sec. 3.3: [Q_min − slack, Q_max + slack] with Q_max = K + N (eq. 10) and
    Q_min = Q_max − ½·√(2N(C·RTT + K)) (eqs. 9, 12)."""
    q_max = k + flows
    amplitude = 0.5 * math.sqrt(2 * flows * (bdp + k))
    return q_max - amplitude - slack, q_max + slack


def full_utilization(utilization: list[float], floor: float = UTILIZATION_FLOOR) -> bool:
    """Claim 1: the port's utilization ≥ `floor` in every run."""
    return bool(utilization) and all(u >= floor for u in utilization)


def queue_in_band(mean_queues: list[float], band: tuple[float, float]) -> bool:
    """Claim 2: every run's time-average queue inside `band`."""
    low, high = band
    return bool(mean_queues) and all(low <= q <= high for q in mean_queues)


def shorter_queue(dctcp_means: list[float], newreno_means: list[float]) -> bool:
    """Claim 3: DCTCP's mean queue (over seeds) below NewReno's."""
    if not dctcp_means or not newreno_means:
        return False
    return sum(dctcp_means) / len(dctcp_means) < sum(newreno_means) / len(newreno_means)


def dctcp_scenario(variant: str, duration: str, warmup: str) -> dict[str, Any]:
    """The scaled Fig. 1 set-up: s1, s2 —1 Gb/s, 200 µs— sw —100 Mb/s, 300 µs— receiver."""
    port_queue: Any = (
        {"kind": "step", "limit": BUFFER, "threshold": f"{K_PACKETS}pkt"} if variant == "dctcp" else BUFFER
    )

    def access(host: str) -> dict[str, Any]:
        return {"name": host, "a": host, "b": "sw", "rate": "1Gbps", "delay": "200us", "queue": BUFFER}

    return {
        "name": f"{variant}, 2 long flows into one 100 Mb/s port",
        "duration": duration,
        "warmup": warmup,
        "tcp": {"mss": 1460, "header": 40, "init_cwnd": 10, "min_rto": "200ms", "delack_timeout": "40ms"},
        "links": [
            access("s1"),
            access("s2"),
            {"name": "port", "a": "sw", "b": "receiver", "rate": "100Mbps", "delay": "300us", "queue": port_queue},
        ],
        "flows": [
            {"name": "f1", "src": "s1", "dst": "receiver", "variant": variant, "start_jitter": "10ms"},
            {
                "name": "f2",
                "src": "s2",
                "dst": "receiver",
                "variant": variant,
                "start": "100ms",
                "start_jitter": "10ms",
            },
        ],
    }


@register
class Dctcp(Experiment):
    id = "validation.dctcp"
    kind = "validation"
    paper = "validation"
    title = "DCTCP with step marking holds the queue near K at full utilization (Alizadeh et al. 2010)"
    setup = (
        "Two long flows from two hosts (1 Gb/s links) into one common port (DCTCP Fig. 1/13) scaled to 100 Mb/s "
        "with a 1 ms round trip (C·RTT ≈ 8.3 packets, as 1 Gb/s and 100 µs), 700 KB buffer; DCTCP (g = 1/16) with step "
        "marking at K = 20 packets against NewReno with drop-tail; 1460-byte segments, IW 10, delayed ACKs, "
        "min RTO 200 ms; 10 s (2 s excluded) quick, 60 s (5 s excluded) full. Checked: DCTCP utilization ≥ "
        "0.95; DCTCP's mean queue within the paper's predicted oscillation band [K + N − A, K + N] ± 1 packet "
        "(Sec. 3.3); NewReno's mean queue larger than DCTCP's."
    )
    xlabel = "variant"
    ylabel = "mean queue (packets)"

    def runs(self, quick: bool, seeds: int | None) -> list:
        duration, warmup = ("10s", "2s") if quick else ("60s", "5s")
        return Sweep(Axis("variant", VARIANTS)).specs(
            lambda variant: dctcp_scenario(variant, duration, warmup), quick, self.replications(quick, seeds)
        )

    def analyze(self, results: Mapping[RunKey, RunResult], quick: bool) -> Outcome:
        def port(r: RunResult) -> Any:
            links = r.links
            return links[(links["name"] == "port") & (links["direction"] == "ab")].iloc[0]

        stats: dict[str, dict[str, list[float]]] = {}
        for variant in VARIANTS:
            rows = [port(r) for r in select_runs(results, variant=variant).values()]
            runs = list(select_runs(results, variant=variant).values())
            stats[variant] = {
                "queue": [float(row["queue_mean_pkts"]) for row in rows],
                "queue_max": [float(row["queue_max_pkts"]) for row in rows],
                "util": [float(row["utilization"]) for row in rows],
                "marks": [float(row["marks_ecn"]) for row in rows],
                "tx": [float(row["tx_packets"]) for row in rows],
                "drops": [float(row["drops_queue"]) for row in rows],
                "shares": [
                    float(r.flows["throughput_bps"].min() / max(r.flows["throughput_bps"].max(), 1.0)) for r in runs
                ],
            }
        d, n = stats["dctcp"], stats["newreno"]
        bdp = bdp_packets()
        band = queue_band(K_PACKETS, FLOWS, bdp)

        def mean(values: list[float]) -> float:  # plain mean, not `aggregate.mean`: NaNs are not dropped
            return sum(values) / len(values)

        def listed(values: list[float], fmt: str = ".2f") -> str:
            return ", ".join(format(v, fmt) for v in values)

        ratio = mean(n["queue"]) / mean(d["queue"]) if mean(d["queue"]) > 0 else math.inf
        claims = [
            Claim(
                "DCTCP keeps the port fully utilized (≥ 0.95)",
                full_utilization(d["util"]),
                f"test: utilization ≥ {UTILIZATION_FLOOR} in every run; DCTCP {listed(d['util'], '.4f')} "
                f"(NewReno {listed(n['util'], '.4f')})",
            ),
            Claim(
                "DCTCP's mean queue lies in the predicted band around K",
                queue_in_band(d["queue"], band),
                f"test: every run's time-average queue in [K + N − A − 1, K + N + 1] = [{band[0]:.2f}, {band[1]:.2f}] "
                f"packets (K = {K_PACKETS}, N = {FLOWS}, C·RTT = {bdp:.2f}, A = ½√(2N(C·RTT + K)) = "
                f"{0.5 * math.sqrt(2 * FLOWS * (bdp + K_PACKETS)):.2f}); mean queue {listed(d['queue'])}, "
                f"max {listed(d['queue_max'], '.0f')} packets",
            ),
            Claim(
                "NewReno with drop-tail holds a larger mean queue than DCTCP",
                shorter_queue(d["queue"], n["queue"]),
                f"test: mean over seeds of DCTCP's mean queue < NewReno's; DCTCP {mean(d['queue']):.1f}, NewReno "
                f"{mean(n['queue']):.1f} packets ({ratio:.1f}× larger; the paper's Fig. 1: about 10×)",
            ),
        ]
        marked = [m / t if t else 0.0 for m, t in zip(d["marks"], d["tx"], strict=True)]
        return Outcome(
            series=[
                Series("mean queue (packets)", list(VARIANTS), [mean(d["queue"]), mean(n["queue"])]),
            ],
            claims=claims,
            notes=[
                f"DCTCP: fraction of the port's packets marked CE {listed(marked, '.3f')}; queue drops "
                f"{listed(d['drops'], '.0f')}; throughput ratio of the slower flow to the faster "
                f"{listed(d['shares'], '.2f')} (not a claim: Fig. 1/13 are about the queue)",
                f"NewReno: queue drops {listed(n['drops'], '.0f')}; max queue {listed(n['queue_max'], '.0f')} packets; "
                f"throughput ratio {listed(n['shares'], '.2f')}",
                "100 Mb/s and 1 ms stand for the paper's 1 Gb/s and ~100 µs: the same C·RTT in packets, so the "
                "same K; 700 KB is the buffer the paper's switch let the two flows take",
            ],
        )
