"""`validation.fq_codel`: FQ-CoDel (RFC 8290) isolates a sparse flow from the bulk flows' queue
and shares the link fairly among bulk flows of different round-trip times, where CoDel alone (one
FIFO) makes the sparse flow wait behind the standing queue.

The claims are RFC 8290's: §1 and §4.2 (a flow that sends less than its share finds its sub-queue
empty, joins the new list and is served ahead of the flows with a backlog, so its packets see
almost no queueing delay) and §1/§4 (deficit round robin gives each backlogged flow the same
bytes per round, so the capacity is shared evenly whatever the flows' RTTs). Set-up
(`scenarios/fq_codel.toml`), chosen before any run: four NewReno bulk flows with round-trip
propagation delays of 20, 40, 60 and 80 ms and one sparse NewReno flow (40 ms, held to two
1000-byte segments in flight by its receive window: about 0.42 Mb/s, a fifth of a fair share of
2 Mb/s) through a 10 Mb/s bottleneck managed by FQ-CoDel with Linux's defaults (10240 packets,
1024 flows hashed, quantum 1514 B, target 5 ms, interval 100 ms), or by CoDel alone with the same
buffer, target and interval; 60 s with the first 10 s discarded (quick: 30 s, 10 s).

Tolerances, chosen before running from the mechanisms: the sparse flow's queueing delay is its
mean RTT minus its minimum RTT (its reverse path carries only ACKs). Under FQ-CoDel a sparse
packet waits for the packet being sent and, for the second of its pair, for the first: at most
two packet times at 10 Mb/s, 1.664 ms, which is the bound claimed for the mean. Under CoDel alone
it waits behind the shared queue that CoDel steers to its 5 ms target: at least half the target
(2.5 ms; `validation.codel`'s ±50 % band). Fairness: Jain's index of the four bulk flows'
throughputs at least 0.99 (DRR's byte fairness among backlogged flows; a flow's share is lost
only while a halving leaves it without a backlog); utilization at least 0.9 (the project's
floor). Each holds in every run. Jain's index under CoDel alone, where throughput falls with RTT,
is reported, not claimed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from tcpsim.paths import builtin_scenario
from tcpsim.repro import register
from tcpsim.repro.baselines.pie import keeps_link_busy
from tcpsim.repro.framework import Claim, Experiment, MissCause, Outcome, Series
from tcpsim.runner import RunSpec
from tcpsim.stats import jain_index
from tcpsim.tidy import RunKey

if TYPE_CHECKING:
    from tcpsim.result import RunResult

LINK_BPS = 10e6
PACKET_BYTES = 1040
"""A 1000-byte segment with 40 bytes of headers."""
SPARSE_BOUND_S = 2 * PACKET_BYTES * 8 / LINK_BPS
"""Two packet times at the link rate: the wait of a sparse flow served first (1.664 ms)."""
TARGET_S = 0.005
"""CoDel's target (RFC 8289 §4.2), which the shared FIFO's standing queue is steered to."""
STANDING_FRACTION = 0.5
"""Under CoDel alone the sparse flow waits at least this fraction of the target."""
JAIN_FLOOR = 0.99
BULK = ("bulk20", "bulk40", "bulk60", "bulk80")
SPARSE = "sparse"
QUEUES = {"fq_codel": None, "codel": {"kind": "codel", "packets": 10240, "target": "5ms", "interval": "100ms"}}
"""The bottleneck queue of each run: the scenario's FQ-CoDel, or CoDel alone with the same buffer."""


# --- the claims' decisions, as pure functions of measured numbers (unit-tested on their own) -------


def sparse_isolated(delays_s: list[float], bound_s: float = SPARSE_BOUND_S) -> bool:
    """Every FQ-CoDel run's sparse-flow queueing delay is at most `bound_s`."""
    return bool(delays_s) and all(d <= bound_s for d in delays_s)


def sparse_behind_queue(delays_s: list[float], floor_s: float = STANDING_FRACTION * TARGET_S) -> bool:
    """Every CoDel-alone run's sparse-flow queueing delay is at least `floor_s`."""
    return bool(delays_s) and all(d >= floor_s for d in delays_s)


def shares_fairly(indices: list[float], floor: float = JAIN_FLOOR) -> bool:
    """Every run's Jain index of the bulk flows is at least `floor` (a NaN, no throughput, fails)."""
    return bool(indices) and all(j >= floor for j in indices)


def _flow(r: RunResult, name: str):
    return r.flows[r.flows["name"] == name].iloc[0]


def sparse_delay_s(r: RunResult) -> float:
    """The sparse flow's mean RTT minus its minimum: the queueing its packets meet."""
    f = _flow(r, SPARSE)
    return float(f["rtt_mean_s"]) - float(f["rtt_min_s"])


def bulk_throughputs(r: RunResult) -> list[float]:
    return [float(_flow(r, name)["throughput_bps"]) for name in BULK]


def _bottleneck(r: RunResult):
    return r.links[(r.links["name"] == "bottleneck") & (r.links["direction"] == "ab")].iloc[0]


@register
class FqCodelIsolation(Experiment):
    id = "validation.fq_codel"
    kind = "validation"
    paper = "validation"
    seeds_quick = 1
    miss_cause = MissCause(
        "test",
        (
            "The Jain floor asks more than RFC 8290 states (byte fairness among backlogged flows): behind a 5 ms "
            "per-flow target a halving leaves a long-RTT flow without a backlog for longer, so throughput falls with "
            "RTT (2.64, 2.33, 2.13, 1.96 Mb/s; Jain 0.985–0.989, 5 seeds; before the engine's tie order changed, "
            "0.987–0.991, also with the exact classifier and with SACK). ns-3.44's FqCoDelQueueDisc on the same "
            "set-up (peers/ns3/fq_codel.cc, SACK) gives 2.63, 2.32, 2.13, 2.01 Mb/s, Jain 0.988–0.990 "
            "(docs/ns3-comparison/fq_codel.md)."
        ),
    )
    title = "FQ-CoDel serves a sparse flow at once and shares the link evenly across RTTs; CoDel alone does not"
    setup = (
        "Four NewReno bulk flows (RTT 20, 40, 60, 80 ms, 1000-byte segments, starts jittered over 2 s) and one "
        "sparse NewReno flow (RTT 40 ms, receive window 2 segments: about 0.42 Mb/s) through a 10 Mb/s "
        "bottleneck managed by FQ-CoDel (RFC 8290, Linux defaults: 10240 packets, 1024 hashed flows, quantum "
        "1514 B, target 5 ms, interval 100 ms) or CoDel alone (same buffer, target, interval); 60 s, the first "
        "10 s discarded (quick: 30 s, 10 s). Checked, in every run: with FQ-CoDel the sparse flow's queueing "
        "delay (mean RTT − min RTT) ≤ 1.664 ms (two packet times), Jain's index of the bulk throughputs ≥ 0.99 "
        "and utilization ≥ 0.9; with CoDel alone the sparse flow's queueing delay ≥ 2.5 ms (half the target)."
    )
    xlabel = "flow"
    ylabel = "throughput (Mb/s), seed 1"
    scenario = "fq_codel"
    timing_full = (("duration", "60s"), ("warmup", "10s"))
    timing_quick = (("duration", "30s"), ("warmup", "10s"))

    def runs(self, quick: bool, seeds: int | None) -> list[RunSpec]:
        timing = self.timing_quick if quick else self.timing_full
        specs = []
        for queue, replacement in QUEUES.items():
            replace = (("links[0].queue", replacement),) if replacement else ()
            specs += [
                RunSpec(
                    key=RunKey(queue=queue, seed=seed),
                    scenario=builtin_scenario(self.scenario),
                    seed=seed,
                    overrides=timing + replace,
                )
                for seed in self.replications(quick, seeds)
            ]
        return specs

    def analyze(self, results: Mapping[RunKey, RunResult], quick: bool) -> Outcome:
        by_queue = {q: {k["seed"]: r for k, r in results.items() if k["queue"] == q} for q in QUEUES}
        fq, codel = by_queue["fq_codel"], by_queue["codel"]
        fq_sparse = [sparse_delay_s(r) for r in fq.values()]
        codel_sparse = [sparse_delay_s(r) for r in codel.values()]
        fq_jain = [jain_index(bulk_throughputs(r)) for r in fq.values()]
        codel_jain = [jain_index(bulk_throughputs(r)) for r in codel.values()]
        fq_util = [float(_bottleneck(r)["utilization"]) for r in fq.values()]
        ms = lambda values: ", ".join(f"{v * 1e3:.3f}" for v in values)  # noqa: E731
        fractions = lambda values: ", ".join(f"{v:.3f}" for v in values)  # noqa: E731
        names = [*BULK, SPARSE]
        series = [
            Series(
                label,
                list(range(len(names))),
                [float(_flow(runs[min(runs)], name)["throughput_bps"]) / 1e6 for name in names],
            )
            for label, runs in (("FQ-CoDel", fq), ("CoDel", codel))
        ]
        mbps = lambda r: ", ".join(f"{x / 1e6:.2f}" for x in bulk_throughputs(r))  # noqa: E731
        return Outcome(
            series=series,
            claims=[
                Claim(
                    "with FQ-CoDel the sparse flow's packets wait at most two packet times (new flows first)",
                    sparse_isolated(fq_sparse),
                    f"test: every run's mean RTT − min RTT of the sparse flow ≤ {SPARSE_BOUND_S * 1e3:.3f} ms; "
                    f"per seed {ms(fq_sparse)} ms",
                ),
                Claim(
                    "with FQ-CoDel the bulk flows of 20–80 ms RTT share the link evenly",
                    shares_fairly(fq_jain),
                    f"test: every run's Jain index of the four bulk throughputs ≥ {JAIN_FLOOR}; per seed "
                    f"{fractions(fq_jain)}",
                ),
                Claim(
                    "with the bottleneck at least 90 % utilized",
                    keeps_link_busy(fq_util),
                    f"test: every FQ-CoDel run's utilization ≥ 0.9; per seed {fractions(fq_util)}",
                ),
                Claim(
                    "with CoDel alone the sparse flow waits behind the standing queue (≥ half the 5 ms target)",
                    sparse_behind_queue(codel_sparse),
                    f"test: every CoDel run's mean RTT − min RTT of the sparse flow ≥ "
                    f"{STANDING_FRACTION * TARGET_S * 1e3:g} ms; per seed {ms(codel_sparse)} ms",
                ),
            ],
            notes=[
                f"Jain index of the bulk flows with CoDel alone (not claimed) per seed: {fractions(codel_jain)}",
                "bulk throughputs (Mb/s, RTT 20/40/60/80 ms) per seed: FQ-CoDel "
                + "; ".join(mbps(r) for r in fq.values())
                + " — CoDel "
                + "; ".join(mbps(r) for r in codel.values()),
                "x axis: the flows bulk20, bulk40, bulk60, bulk80, sparse; the set-up and the tolerances were "
                "fixed before the first run",
            ],
        )
