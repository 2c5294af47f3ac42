"""`validation.pie`: PIE (RFC 8033) holds the queueing delay of long-lived TCP flows near its
target with the link kept busy, where a drop-tail buffer of the same size keeps a standing queue.

The claim is RFC 8033's design goal (§3: "keep the queueing latency close to a reference delay
while maintaining high link utilization") and the result of Pan et al.'s evaluation (IEEE HPSR
2013, the paper behind the RFC: under long-lived TCP load PIE keeps the queueing delay around its
reference with throughput near the link capacity, where a large drop-tail buffer adds a standing
delay of a large fraction of a second). Set-up, chosen before any run in the shape of that
evaluation: five NewReno bulk flows (1460-byte segments) on a dumbbell with a 10 Mb/s bottleneck
and a 100 ms round-trip propagation delay, a large buffer of 1000 packets (1.2 s at the link
rate, about 12 BDP), PIE with RFC 8033's parameters (`scenarios/pie.toml`); 100 s with the first
20 s discarded (quick: 30 s, 10 s).

Tolerances, chosen before running: the average queueing delay (Little's law: the time-averaged
queued bytes over the link rate) within ±50 % of the 15 ms target ([7.5, 22.5] ms: the PI
controller's integral term zeroes the mean error of its samples, but the samples are of the
latest departure and the safeguards skip drops at low delay, so only the neighbourhood of the
target is claimed); utilization at least 0.9 (the project's floor for "fills the link", as
`validation.single_flow`); drop-tail's average delay at least five times the target (75 ms). Each
holds in every run, not only on average.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from tcpsim.paths import builtin_scenario
from tcpsim.repro import register
from tcpsim.repro.framework import Claim, Experiment, Outcome, Series
from tcpsim.runner import RunSpec
from tcpsim.tidy import RunKey

if TYPE_CHECKING:
    from tcpsim.result import RunResult

TARGET_S = 0.015
"""RFC 8033 §4.2's QDELAY_REF, PIE's default target."""
DELAY_BAND = 0.5
"""The average delay may differ from the target by this fraction of it."""
UTILIZATION_FLOOR = 0.9
"""The project's floor for "keeps the link busy" (as `validation.single_flow`)."""
STANDING_FACTOR = 5.0
"""Drop-tail's average delay is at least this many targets: a standing queue."""
LINK_BPS = 10e6
QUEUES = {"aqm": None, "drop_tail": "1000pkt"}
"""The bottleneck queue of each run: the scenario's AQM, or drop-tail of the same size."""


# --- the claims' decisions, as pure functions of measured numbers (unit-tested on their own) -------


def delay_near_target(delays_s: list[float], target_s: float = TARGET_S, band: float = DELAY_BAND) -> bool:
    """Every run's average queueing delay is within ±`band`·target of the target."""
    return bool(delays_s) and all(abs(d - target_s) <= band * target_s for d in delays_s)


def keeps_link_busy(utilizations: list[float], floor: float = UTILIZATION_FLOOR) -> bool:
    """Every run's bottleneck utilization is at least `floor`."""
    return bool(utilizations) and all(u >= floor for u in utilizations)


def standing_queue(delays_s: list[float], target_s: float = TARGET_S, factor: float = STANDING_FACTOR) -> bool:
    """Every drop-tail run's average queueing delay is at least `factor` targets."""
    return bool(delays_s) and all(d >= factor * target_s for d in delays_s)


def _bottleneck(r: RunResult):
    return r.links[(r.links["name"] == "bottleneck") & (r.links["direction"] == "ab")].iloc[0]


def mean_delay_s(r: RunResult, link_bps: float = LINK_BPS) -> float:
    """Little's law: the time-averaged queued bytes drain in this long at the link rate."""
    return float(_bottleneck(r)["queue_mean_bytes"]) * 8 / link_bps


@register
class PieDelay(Experiment):
    id = "validation.pie"
    kind = "validation"
    paper = "validation"
    seeds_quick = 1
    title = "PIE holds the queueing delay near 15 ms; drop-tail's large buffer keeps a standing queue"
    setup = (
        "Five NewReno bulk flows (1460-byte segments, starts jittered over 1 s) on senders —100 Mb/s, 1 ms— r1 "
        "—10 Mb/s, 48 ms— r2 —100 Mb/s, 1 ms— receivers (RTT 100 ms), a 1000-packet bottleneck buffer managed by "
        "PIE (RFC 8033: target 15 ms, T_UPDATE 15 ms, α 0.125, β 1.25, burst allowance 150 ms, timestamp "
        "delay) or drop-tail; 100 s, the first 20 s discarded (quick: 30 s, 10 s). Checked, in every run: PIE's "
        "average queueing delay (queued bytes over the link rate) within ±50 % of 15 ms and utilization ≥ 0.9; "
        "drop-tail's average delay ≥ 75 ms (5 targets)."
    )
    xlabel = "time (s)"
    ylabel = "queueing delay (ms), seed 1"
    scenario = "pie"
    """The bundled scenario: its bottleneck (`links[1]`, 10 Mb/s) runs the discipline."""
    discipline = "PIE"
    target_s = TARGET_S
    timing_full = (("duration", "100s"), ("warmup", "20s"))
    timing_quick = (("duration", "30s"), ("warmup", "10s"))
    set_up_notes = ("RFC 8033 defaults; the set-up and the tolerances were fixed before the first run",)

    def runs(self, quick: bool, seeds: int | None) -> list[RunSpec]:
        timing = self.timing_quick if quick else self.timing_full
        trace = (("trace.queue", True), ("trace.interval", "100ms"))
        specs = []
        for queue, drop_tail in QUEUES.items():
            replace = (("links[1].queue", drop_tail),) if drop_tail else ()
            specs += [
                RunSpec(
                    key=RunKey(queue=queue, seed=seed),
                    scenario=builtin_scenario(self.scenario),
                    seed=seed,
                    overrides=timing + trace + replace,
                )
                for seed in self.replications(quick, seeds)
            ]
        return specs

    def analyze(self, results: Mapping[RunKey, RunResult], quick: bool) -> Outcome:
        by_queue = {q: {k["seed"]: r for k, r in results.items() if k["queue"] == q} for q in QUEUES}
        pie, drop_tail = by_queue["aqm"], by_queue["drop_tail"]
        target = self.target_s
        pie_delays = [mean_delay_s(r) for r in pie.values()]
        pie_util = [float(_bottleneck(r)["utilization"]) for r in pie.values()]
        dt_delays = [mean_delay_s(r) for r in drop_tail.values()]
        dt_util = [float(_bottleneck(r)["utilization"]) for r in drop_tail.values()]
        ms = lambda values: ", ".join(f"{v * 1e3:.2f}" for v in values)  # noqa: E731
        fractions = lambda values: ", ".join(f"{v:.3f}" for v in values)  # noqa: E731
        series = []
        for queue, label in (("aqm", self.discipline), ("drop_tail", "drop-tail, 1000 packets")):
            first = by_queue[queue][min(by_queue[queue])]
            q = first.trace("queue")
            q = q[(q["link"] == "bottleneck") & (q["direction"] == "ab")]
            series.append(Series(label, q["time_s"].tolist(), (q["bytes"] * 8 / LINK_BPS * 1e3).tolist()))
        drops = [
            f"{int(_bottleneck(r)['drops_early'])} early of {int(_bottleneck(r)['drops_queue'])}" for r in pie.values()
        ]
        return Outcome(
            series=series,
            claims=[
                Claim(
                    f"{self.discipline} holds the average queueing delay within ±50 % of its "
                    f"{target * 1e3:g} ms target",
                    delay_near_target(pie_delays, target),
                    f"test: every run's mean delay in [{(1 - DELAY_BAND) * target * 1e3:g}, "
                    f"{(1 + DELAY_BAND) * target * 1e3:g}] ms; per seed {ms(pie_delays)} ms",
                ),
                Claim(
                    "with the bottleneck at least 90 % utilized",
                    keeps_link_busy(pie_util),
                    f"test: every run's utilization ≥ {UTILIZATION_FLOOR}; per seed {fractions(pie_util)}",
                ),
                Claim(
                    f"a drop-tail buffer of the same size keeps a standing queue (≥ 5 targets, "
                    f"{STANDING_FACTOR * target * 1e3:g} ms)",
                    standing_queue(dt_delays, target),
                    f"test: every drop-tail run's mean delay ≥ {STANDING_FACTOR * target * 1e3:g} ms; per seed "
                    f"{ms(dt_delays)} ms (utilization {fractions(dt_util)})",
                ),
            ],
            notes=[
                "queueing delay = time-averaged queued bytes × 8 / 10 Mb/s (Little's law for a busy link); the "
                "packet on the wire is not counted",
                f"{self.discipline} drops in the window (early of all) per seed: {'; '.join(drops)}",
                *self.set_up_notes,
            ],
        )
