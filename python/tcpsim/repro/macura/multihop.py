"""Sec. 5.3: the multi-bottleneck chain. C1 crosses N hops against 2N one-hop NewReno cross flows
and is NewReno, Vegas or Westwood+; C1's goodput against N."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from tcpsim.repro import register
from tcpsim.repro.aggregate import NON_NEGATIVE, Curve, fmt_ci
from tcpsim.repro.framework import Claim, Experiment, MissCause, Outcome
from tcpsim.repro.macura import checks
from tcpsim.repro.macura.common import (
    ACCESS_RATE,
    HEADER_BYTES,
    MSS_BYTES,
    NEWRENO,
    NS2_SCENARIO_TCP,
    PAPER,
    THREE,
    Flavour,
    goodput_mbps,
    with_flavour,
)
from tcpsim.repro.ns2_queue import ns2_drop_tail
from tcpsim.runner import RunSpec
from tcpsim.tidy import RunKey
from tcpsim.topologies import chain

if TYPE_CHECKING:
    from tcpsim.result import RunResult

HOP_RATE = "10Mbps"
HOP_DELAY_S = 0.010
"""Hop links 10 Mb/s, 10 ms (the catalog's assumption; the paper's 125-packet queues are the BDP of
10 Mb/s at 150 ms in 1500-byte packets)."""
EDGE_DELAY_S = 0.020
"""Entry/exit links: 100 Mb/s, 20 ms (Sec. 5.3)."""
QUEUE = ns2_drop_tail(125)
"""Every router queue: 125 packets (Sec. 5.3)."""
C1_START_S = 10.0
C1 = "C1"
DURATION_FULL_S = 1000.0
DURATION_QUICK_S = 150.0
N_FULL = (1, 2, 4, 6, 10)
N_QUICK = (1, 3)
MUCH_BELOW = 0.5
""""Westwood+ ≥ NewReno ≫ Vegas": Vegas's mean goodput at most half NewReno's at every N."""


def scenario(flavour: Flavour, hops: int, duration_s: float) -> dict[str, Any]:
    """Fig. 3 (`tcpsim.topologies.chain`): C1 across N hops, on each hop one NewReno cross flow
    each way (C2 … C2N+1) between hosts at its two routers, each host on its own entry/exit link.
    C1 starts at 10 s, the cross flows at 0 s + uniform [0, 1] s; C1's goodput is measured from
    10 s."""
    built = chain(
        hops=hops,
        c1_start=f"{C1_START_S:g}s",
        cross_variant=NEWRENO.variant,
        hop_rate=HOP_RATE,
        hop_delay_s=HOP_DELAY_S,
        access_rate=ACCESS_RATE,
        access_delay_s=EDGE_DELAY_S,
        queue=QUEUE,
        mss_bytes=MSS_BYTES,
        header_bytes=HEADER_BYTES,
        duration=f"{duration_s:g}s",
        warmup=f"{C1_START_S:g}s",
        cross_start_jitter="1s",
        tcp=NS2_SCENARIO_TCP,
    )
    built["name"] = f"macura Sec. 5.3: {flavour.label} C1 over {hops} hop(s)"
    return with_flavour(built, [C1], flavour)


def c1_goodput(result: RunResult) -> float:
    flows = result.flows.set_index("name")
    return goodput_mbps(flows.loc[C1, "goodput_bps"])


def c1_rtt_ratio(result: RunResult) -> float:
    """C1's smallest RTT sample over its mean: the fraction of its window Westwood+ keeps after a
    loss (cwnd = BWE·RTTmin, BWE about cwnd/RTT), against NewReno's one half."""
    flows = result.flows.set_index("name")
    return float(flows.loc[C1, "rtt_min_s"] / flows.loc[C1, "rtt_mean_s"])


@register
class Multihop(Experiment):
    """Sec. 5.3 (Fig. 3): goodput of C1 across N hops against NewReno cross traffic, vs N."""

    id = "macura.multihop"
    kind = "simulation"
    miss_cause = MissCause(
        "statistics",
        (
            "Quick mode is too short to decide: at N = 1 Westwood+ 4.25 [−1.66, 10.1] against NewReno 5.05 [0.94,"
            " 9.16] Mb/s (95 % CIs, 2 seeds); the full run (1000 s, all seeds) reproduces it (issue 24)."
        ),
    )
    paper = PAPER
    figure = "Sec. 5.3"
    title = "multi-bottleneck chain: goodput of the connection crossing all hops vs hops"
    xlabel = "hops N"
    ylabel = "goodput of C1 (Mb/s)"
    setup = (
        "Fig. 3: C1 (NewReno, Vegas or Westwood+) crosses N hop links of 10 Mb/s and 10 ms (assumed); on each hop "
        "one NewReno cross flow each way (2N in all) between hosts at its two routers; entry/exit links 100 Mb/s "
        "and 20 ms, every router queue 125 packets (drop-tail), 1000 s (150 s in quick mode); the cross flows "
        "start at 0 s, C1 at 10 s, its goodput measured from 10 s; N in {1, 2, 4, 6, 10} ({1, 3} "
        "quick). Checked: Westwood+ ≥ NewReno at every N (mean at least NewReno's, or not significantly below, "
        "Welch 95 %, and within 15 %) and NewReno ≫ Vegas (Vegas's mean at most half NewReno's at every N). The "
        "paper states no numbers here."
    )
    seeds_full = 3
    seeds_quick = 2

    def runs(self, quick: bool, seeds: int | None) -> list[RunSpec]:
        duration = DURATION_QUICK_S if quick else DURATION_FULL_S
        specs = []
        for f in THREE:
            for n in N_QUICK if quick else N_FULL:
                built = scenario(f, n, duration)
                specs += [
                    RunSpec(RunKey(flavour=f.name, hops=n, seed=s), built, seed=s)
                    for s in self.replications(quick, seeds)
                ]
        return specs

    def analyze(self, results: Mapping[RunKey, RunResult], quick: bool) -> Outcome:
        g: dict[str, dict[int, list[float]]] = {}
        ratio: dict[int, list[float]] = {}
        for key in sorted(results, key=lambda k: k["seed"]):
            g.setdefault(key["flavour"], {}).setdefault(key["hops"], []).append(c1_goodput(results[key]))
            if key["flavour"] == "westwood_plus":
                ratio.setdefault(key["hops"], []).append(c1_rtt_ratio(results[key]))

        def hops(n: float) -> str:
            return f"N = {n:g}"

        claims = [
            Claim(
                "Westwood+ ≥ NewReno: Westwood+ grabs at least NewReno's goodput across the hops",
                *checks.at_least(g["westwood_plus"], g["newreno"], hops),
            ),
            Claim(
                "NewReno ≫ Vegas: Vegas cannot grab its share against NewReno cross traffic",
                *checks.far_below(g["vegas"], g["newreno"], MUCH_BELOW, hops),
            ),
        ]
        series = [Curve.of(g[f.name], NON_NEGATIVE).series(f.label) for f in THREE]
        notes = [
            f"{len(g['newreno'][min(g['newreno'])])} seeds per point; "
            f"{DURATION_QUICK_S if quick else DURATION_FULL_S:g} s runs; C1's goodput "
            + "; ".join(
                f"{f.label} " + ", ".join(f"N={n}: {fmt_ci(v, 2)}" for n, v in g[f.name].items()) for f in THREE
            )
            + " Mb/s",
            "Westwood+ C1's RTTmin / mean RTT, the fraction of its window it keeps after a loss (NewReno keeps 1/2): "
            + ", ".join(f"N={n}: {fmt_ci(v, 2)}" for n, v in ratio.items()),
        ]
        return Outcome(series=series, claims=claims, notes=notes)
