"""`validation.bbr`: BBR v1 alone and against a loss-based TCP, in shallow and deep buffers.

The claims and their set-up were fixed from the literature before any run:

- **Alone** (Cardwell et al., "BBR: Congestion-Based Congestion Control", ACM Queue 2016): one
  BBR flow fills the bottleneck and keeps its queue near empty, whatever the buffer. Set-up: 20
  Mb/s, 40 ms round-trip propagation, drop-tail buffer of 8 BDP (800 kB, deep: a loss-based TCP
  would fill all of it). Checked: bottleneck utilization ≥ 0.9 (the project's "fills the link"
  floor) and mean queueing delay (time-average bytes queued / rate) < 0.25 × RTprop. The bound is
  the largest standing queue PROBE_BW's 1.25 gain phase can build (0.25 BDP at the end of one
  RTprop, drained by the 0.75 phase that follows); a mean above it would be a standing queue BBR
  is designed not to keep.
- **Against a loss-based TCP** (Hock, Bless & Zitterbart, "Experimental Evaluation of BBR
  Congestion Control", ICNP 2017; Cardwell et al. 2016): BBR takes most of the capacity when the
  buffer is shallow (losses cut the loss-based flow, not BBR) and the loss-based flow most when
  it is deep (it fills the buffer and BBR's in-flight cap, 2 × BtlBw × RTprop, limits BBR). The
  loss-based peer is CUBIC (RFC 9438, Hock et al.'s and Linux's default) and, as first run before
  tcpsim had CUBIC, NewReno (Hock et al. report the same pattern against Reno-like AIMD). Set-up:
  1 BBR + 1 CUBIC, and 1 BBR + 1 NewReno, same 20 Mb/s, 40 ms dumbbell, buffer 0.5 BDP (shallow)
  and 8 BDP (deep), 1460-byte segments, starts jittered over [0, 1] s, 120 s with the first 20 s
  excluded (60 s and 10 s in quick mode). Checked, for each peer: BBR's share of the two flows'
  throughput (mean over seeds) > 0.5 at 0.5 BDP and < 0.5 at 8 BDP — the qualitative pattern the
  literature reports, not its exact numbers (which depend on the run length).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

import numpy as np

from tcpsim.repro import register
from tcpsim.repro.aggregate import FRACTION, Curve
from tcpsim.repro.framework import Claim, Experiment, Outcome
from tcpsim.repro.sweep import Axis, Sweep
from tcpsim.runner import RunSpec
from tcpsim.tidy import RunKey, select_runs
from tcpsim.topologies import dumbbell

if TYPE_CHECKING:
    from tcpsim.result import RunResult

RATE_BPS = 20e6
RTT_S = 0.040
BUFFERS_BDP = (0.5, 8.0)
"""Shallow and deep drop-tail buffers, in bandwidth-delay products (20 Mb/s × 40 ms = 100 kB)."""

PEERS = {"cubic": "CUBIC", "newreno": "NewReno"}
"""The loss-based peers BBR competes with (variant: name)."""

UTILIZATION_FLOOR = 0.9
QUEUE_DELAY_FRACTION = 0.25
"""Mean queueing delay bound for BBR alone, as a fraction of RTprop (see the module docstring)."""


# --- the claims' decisions, as pure functions of measured numbers (unit-tested on their own) -------


def fills_link_with_empty_queue(
    utilization: float, mean_queue_delay_s: float, rtprop_s: float, fraction: float = QUEUE_DELAY_FRACTION
) -> bool:
    """alone: utilization ≥ 0.9 and mean queueing delay < `fraction` × RTprop."""
    return utilization >= UTILIZATION_FLOOR and mean_queue_delay_s < fraction * rtprop_s


def bbr_share(bbr_bps: float, other_bps: float) -> float:
    """BBR's fraction of the two flows' throughput."""
    total = bbr_bps + other_bps
    return bbr_bps / total if total > 0 else float("nan")


def shallow_to_bbr_deep_to_loss_based(shallow_shares: Sequence[float], deep_shares: Sequence[float]) -> bool:
    """competition: mean BBR share > 0.5 with the shallow buffer and < 0.5 with the deep one."""
    if not shallow_shares or not deep_shares:
        return False
    return float(np.mean(shallow_shares)) > 0.5 and float(np.mean(deep_shares)) < 0.5


def _scenario(variants: list[str], buffer_bdp: float, quick: bool):
    return dumbbell(
        forward=len(variants),
        variant=variants,
        bottleneck_rate="20Mbps",
        bottleneck_delay_s=0.010,
        access_rate="100Mbps",
        rtts_s=[RTT_S] * len(variants),
        buffer_s=RTT_S,
        queue=f"{buffer_bdp:g}BDP",
        mss_bytes=1460,
        duration="60s" if quick else "120s",
        warmup="10s" if quick else "20s",
        start_jitter="1s",
    )


@register
class BbrValidation(Experiment):
    id = "validation.bbr"
    kind = "validation"
    paper = "validation"
    seeds_quick = 1
    seeds_full = 5
    title = "BBR v1 alone (full link, empty queue) and against CUBIC and NewReno in shallow and deep buffers"
    setup = (
        "Dumbbell with a 20 Mb/s, 10 ms bottleneck, 100 Mb/s access links, 40 ms round-trip propagation, "
        "1460-byte segments, delayed ACKs. Alone: one BBR flow, drop-tail buffer 8 BDP (800 kB). Against a "
        "loss-based TCP: 1 BBR + 1 CUBIC and 1 BBR + 1 NewReno, buffer 0.5 BDP and 8 BDP, starts jittered "
        "over [0, 1] s. 120 s, first 20 s excluded (quick: 60 s, 10 s). Checked: alone, utilization ≥ 0.9 and "
        "mean queueing delay < 0.25 × RTprop (Cardwell et al. 2016); against each peer, BBR's mean share > 0.5 "
        "at 0.5 BDP and < 0.5 at 8 BDP (Hock et al. 2017)."
    )
    xlabel = "bottleneck buffer (BDP)"
    ylabel = "BBR's share of the throughput"

    def runs(self, quick: bool, seeds: int | None) -> list[RunSpec]:
        replications = self.replications(quick, seeds)
        mixed = [
            spec
            for peer in PEERS
            for spec in Sweep(Axis("buffer_bdp", BUFFERS_BDP)).specs(
                lambda buffer_bdp, peer=peer: _scenario(["bbr", peer], buffer_bdp, quick),
                quick,
                replications,
                mix=f"bbr+{peer}",
            )
        ]
        alone = _scenario(["bbr"], 8.0, quick)
        return mixed + [
            RunSpec(key=RunKey(mix="bbr", buffer_bdp=8.0, seed=s), scenario=alone, seed=s) for s in replications
        ]

    def analyze(self, results: Mapping[RunKey, RunResult], quick: bool) -> Outcome:
        shares: dict[str, dict[float, list[float]]] = {}
        detail: dict[str, list[str]] = {}
        for peer, name in PEERS.items():
            shares[peer], detail[peer] = {}, []
            for b in BUFFERS_BDP:
                shares[peer][b] = []
                for r in select_runs(results, mix=f"bbr+{peer}", buffer_bdp=b).values():
                    tput = r.flows.groupby("variant")["throughput_bps"].sum()
                    shares[peer][b].append(bbr_share(float(tput["bbr"]), float(tput[peer])))
                    detail[peer].append(
                        f"{b:g} BDP: BBR {tput['bbr'] / 1e6:.2f} Mb/s, {name} {tput[peer] / 1e6:.2f} Mb/s "
                        f"(share {shares[peer][b][-1]:.3f})"
                    )
        alone_runs = list(select_runs(results, mix="bbr").values())
        utils, delays, rtprops = [], [], []
        for r in alone_runs:
            link = r.links[(r.links["name"] == "bottleneck") & (r.links["direction"] == "ab")].iloc[0]
            utils.append(float(link["utilization"]))
            delays.append(float(link["queue_mean_bytes"]) * 8 / float(link["rate_bps"]))
            rtprops.append(float(r.flows.iloc[0]["rtt_min_s"]))
        util, delay, rtprop = float(np.mean(utils)), float(np.mean(delays)), float(np.mean(rtprops))
        competition = []
        for peer, name in PEERS.items():
            shallow, deep = shares[peer][BUFFERS_BDP[0]], shares[peer][BUFFERS_BDP[1]]
            competition.append(
                Claim(
                    f"BBR takes more than half against {name} in a shallow buffer (0.5 BDP), less in a deep one "
                    "(8 BDP)",
                    shallow_to_bbr_deep_to_loss_based(shallow, deep),
                    f"test: mean BBR share > 0.5 at 0.5 BDP and < 0.5 at 8 BDP; shallow {np.mean(shallow):.3f}, "
                    f"deep {np.mean(deep):.3f}; " + "; ".join(detail[peer]),
                )
            )
        return Outcome(
            series=[
                Curve.of(shares[peer], FRACTION).series(f"BBR vs {name}: BBR's share (mean, 95% CI)")
                for peer, name in PEERS.items()
            ],
            claims=[
                Claim(
                    "one BBR flow fills the link (≥ 90 %) with a near-empty queue (mean delay < 0.25 RTprop)",
                    fills_link_with_empty_queue(util, delay, rtprop),
                    f"test: utilization ≥ {UTILIZATION_FLOOR} and mean queueing delay < {QUEUE_DELAY_FRACTION} × "
                    f"RTprop (mean over {len(alone_runs)} seeds); utilization {util:.3f}, mean queueing delay "
                    f"{delay * 1e3:.2f} ms, RTprop (min RTT) {rtprop * 1e3:.1f} ms "
                    f"({delay / rtprop:.3f} RTprop); 8 BDP buffer",
                ),
                *competition,
            ],
            notes=[
                "BBR = Linux tcp_bbr.c v1 (variant 'bbr': SACK recovery, pacing, delivery-rate estimation); "
                "share = BBR throughput / (BBR + peer throughput) over the measurement window",
            ],
        )
