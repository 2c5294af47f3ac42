"""`validation.l4s`: DualPI2 (RFC 9332) gives TCP Prague a sub-millisecond queue at full
utilization, holds classic CUBIC traffic near PI2's 15 ms target, and its coupling gives a
Prague flow and a CUBIC flow roughly equal windows.

The claims are RFC 9332's design goals: the L queue's native step marking at 1 ms of sojourn
keeps the queueing delay of scalable (L4S) traffic "under a millisecond on average" (RFC 9330
§1, §6.3; RFC 9332 §1.2 with Linux's default step threshold of 1 ms) with the link kept busy;
the classic queue's PI2 controller holds its delay near the 15 ms target (RFC 9332 §2.5.1,
A.1); and the coupling of the L queue's marking p_CL = k·p' to the classic p_C = p'², k = 2
(§2.1), equates the two response functions (a classic window of about 1.22/√p_C segments, a
scalable one of 2/p_L), so that the flows get "roughly equivalent throughput per flow" (the
RFC's abstract) at equal round trips: windows, not rates, are what it equalizes (Linux
tc-dualpi2(8): "maintaining window fairness"), and a classic flow's round trip holds the
classic queue's 15 ms where a Prague flow's holds under a millisecond. Set-up, chosen before any run: two long flows from two
hosts (1 Gb/s, 1 ms links) through a 100 Mb/s, 3 ms bottleneck managed by DualPI2 with its
defaults, to one receiver over a 1 Gb/s, 1 ms link (base RTT 10 ms, C·RTT ≈ 83 packets of 1500
bytes); 1460-byte segments, IW 10, minimum RTO 200 ms. Three mixes: two Prague flows, two CUBIC
flows, one of each (the second flow starts 100 ms after the first, each start jittered in
[0, 10 ms] per seed). Quick: 20 s with the first 5 s excluded; full: 60 s with the first 10 s
excluded.

Tolerances, chosen before running: (1) Prague alone: utilization ≥ 0.95 and average queueing
delay (Little's law: time-averaged queued bytes over the link rate) ≤ 1 ms in every run; (2)
CUBIC alone: average queueing delay within ±50 % of 15 ms (`validation.pie`'s band) and
utilization ≥ 0.9 in every run; (3) mixed: Prague's window over CUBIC's (each flow's
throughput times its mean RTT) within [0.5, 2] in every run. Claim 3 was first written for the
rates; reading the Linux manual page, before this experiment's first run but after one run of
the bundled `dualpi2` scenario (Prague beside NewReno at 40 Mb/s: rates 3.1 : 1, windows
1.85 : 1), it was restated for the windows the coupling equalizes, with the same band.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from tcpsim.repro import register
from tcpsim.repro.framework import Claim, Experiment, Outcome, Series
from tcpsim.repro.sweep import Axis, Sweep
from tcpsim.tidy import RunKey, select_runs

if TYPE_CHECKING:
    from tcpsim.result import RunResult

RATE_BPS = 100e6
L4S_DELAY_S = 0.001
"""The L queue's step threshold, and the average delay L4S aims below (RFC 9330 §1)."""
L4S_UTILIZATION_FLOOR = 0.95
CLASSIC_TARGET_S = 0.015
"""PI2's target for the classic queue (RFC 9332 §2.5.1, A.1)."""
CLASSIC_DELAY_BAND = 0.5
CLASSIC_UTILIZATION_FLOOR = 0.9
WINDOW_RATIO_BAND = (0.5, 2.0)
"""Prague's window over CUBIC's under the coupling: "roughly equal" (RFC 9332 §2.1)."""
MIXES = {"prague": ("prague", "prague"), "cubic": ("cubic", "cubic"), "prague+cubic": ("prague", "cubic")}


# --- the claims' decisions, as pure functions of measured numbers (unit-tested on their own) -------


def low_latency_at_full_rate(
    delays_s: list[float],
    utilizations: list[float],
    bound_s: float = L4S_DELAY_S,
    floor: float = L4S_UTILIZATION_FLOOR,
) -> bool:
    """Claim 1: every run's average queueing delay at most `bound_s`, its utilization at least `floor`."""
    return (
        bool(delays_s)
        and len(delays_s) == len(utilizations)
        and all(d <= bound_s and u >= floor for d, u in zip(delays_s, utilizations, strict=True))
    )


def classic_near_target(
    delays_s: list[float],
    utilizations: list[float],
    target_s: float = CLASSIC_TARGET_S,
    band: float = CLASSIC_DELAY_BAND,
    floor: float = CLASSIC_UTILIZATION_FLOOR,
) -> bool:
    """Claim 2: every run's average delay within ±`band`·target of the target, utilization ≥ `floor`."""
    return (
        bool(delays_s)
        and len(delays_s) == len(utilizations)
        and all(
            abs(d - target_s) <= band * target_s and u >= floor for d, u in zip(delays_s, utilizations, strict=True)
        )
    )


def windows_roughly_equal(ratios: list[float], band: tuple[float, float] = WINDOW_RATIO_BAND) -> bool:
    """Claim 3: every run's Prague-over-CUBIC window ratio inside `band`."""
    low, high = band
    return bool(ratios) and all(low <= r <= high for r in ratios)


def l4s_scenario(mix: str, duration: str, warmup: str) -> dict[str, Any]:
    """s1, s2 —1 Gb/s, 1 ms— r1 —100 Mb/s, 3 ms, DualPI2— r2 —1 Gb/s, 1 ms— rx."""
    first, second = MIXES[mix]

    def link(name: str, a: str, b: str, rate: str, delay: str, queue: Any = "10000pkt") -> dict[str, Any]:
        return {"name": name, "a": a, "b": b, "rate": rate, "delay": delay, "queue": queue}

    return {
        "name": f"{mix} through DualPI2 at 100 Mb/s, 10 ms",
        "duration": duration,
        "warmup": warmup,
        "tcp": {"mss": 1460, "header": 40, "init_cwnd": 10, "min_rto": "200ms"},
        "links": [
            link("s1", "s1", "r1", "1Gbps", "1ms"),
            link("s2", "s2", "r1", "1Gbps", "1ms"),
            link("bottleneck", "r1", "r2", "100Mbps", "3ms", {"kind": "dualpi2"}),
            link("rx", "r2", "rx", "1Gbps", "1ms"),
        ],
        "flows": [
            {"name": "f1", "src": "s1", "dst": "rx", "variant": first, "start_jitter": "10ms"},
            {"name": "f2", "src": "s2", "dst": "rx", "variant": second, "start": "100ms", "start_jitter": "10ms"},
        ],
    }


def _bottleneck(r: RunResult) -> Any:
    links = r.links
    return links[(links["name"] == "bottleneck") & (links["direction"] == "ab")].iloc[0]


def queueing_delay_s(r: RunResult) -> float:
    """Little's law at the bottleneck: time-averaged queued bytes over the link rate."""
    return float(_bottleneck(r)["queue_mean_bytes"]) * 8 / RATE_BPS


def window_bytes(r: RunResult, flow: str) -> float:
    """A flow's average window: its throughput times its mean RTT (bytes)."""
    row = r.flows.set_index("name").loc[flow]
    return float(row["throughput_bps"]) * float(row["rtt_mean_s"]) / 8


def prague_over_cubic(r: RunResult) -> float:
    """The mixed run's window ratio (f1 is Prague, f2 CUBIC)."""
    return window_bytes(r, "f1") / max(window_bytes(r, "f2"), 1.0)


def throughput_ratio(r: RunResult) -> float:
    flows = r.flows.set_index("name")["throughput_bps"]
    return float(flows["f1"]) / max(float(flows["f2"]), 1.0)


def class_delays_ms(r: RunResult) -> tuple[float, float]:
    """The L and C queues' time-averaged lengths as delays at the link rate (ms; 1500-byte packets)."""
    row = _bottleneck(r)
    return tuple(float(row[f"{q}_queue_mean_pkts"]) * 1500 * 8 / RATE_BPS * 1e3 for q in ("l", "c"))  # type: ignore[return-value]


@register
class L4s(Experiment):
    id = "validation.l4s"
    kind = "validation"
    paper = "validation"
    title = "DualPI2 keeps Prague's queue under 1 ms, CUBIC's near 15 ms, and gives the two equal windows"
    setup = (
        "Two long flows from two hosts (1 Gb/s, 1 ms) through a 100 Mb/s, 3 ms bottleneck managed by DualPI2 "
        "(RFC 9332, its defaults: PI2 target 15 ms, k = 2, L step at 1 ms) to one receiver (1 Gb/s, 1 ms): base RTT "
        "10 ms; 1460-byte segments, IW 10, min RTO 200 ms; two Prague flows, two CUBIC flows, or one of each; "
        "20 s (5 s excluded) quick, 60 s (10 s excluded) full. Checked in every run: Prague alone utilization ≥ 0.95 "
        "with an average queueing delay ≤ 1 ms; CUBIC alone an average delay within ±50 % of 15 ms at utilization "
        "≥ 0.9; mixed, Prague's window (throughput × mean RTT) over CUBIC's within [0.5, 2]."
    )
    xlabel = "flows"
    ylabel = "average queueing delay (ms)"

    def runs(self, quick: bool, seeds: int | None) -> list:
        duration, warmup = ("20s", "5s") if quick else ("60s", "10s")
        return Sweep(Axis("mix", tuple(MIXES))).specs(
            lambda mix: l4s_scenario(mix, duration, warmup), quick, self.replications(quick, seeds)
        )

    def analyze(self, results: Mapping[RunKey, RunResult], quick: bool) -> Outcome:
        runs = {mix: list(select_runs(results, mix=mix).values()) for mix in MIXES}
        delay = {mix: [queueing_delay_s(r) for r in rs] for mix, rs in runs.items()}
        util = {mix: [float(_bottleneck(r)["utilization"]) for r in rs] for mix, rs in runs.items()}
        ratios = [prague_over_cubic(r) for r in runs["prague+cubic"]]
        rate_ratios = [throughput_ratio(r) for r in runs["prague+cubic"]]

        def ms(values: list[float]) -> str:
            return ", ".join(f"{v * 1e3:.2f}" for v in values)

        def fractions(values: list[float]) -> str:
            return ", ".join(f"{v:.3f}" for v in values)

        claims = [
            Claim(
                "Prague through DualPI2 keeps the link busy with a sub-millisecond queue",
                low_latency_at_full_rate(delay["prague"], util["prague"]),
                f"test: every run's average queueing delay ≤ {L4S_DELAY_S * 1e3:g} ms and utilization ≥ "
                f"{L4S_UTILIZATION_FLOOR}; delay {ms(delay['prague'])} ms, utilization {fractions(util['prague'])}",
            ),
            Claim(
                "CUBIC through DualPI2 sees the classic queue's 15 ms target",
                classic_near_target(delay["cubic"], util["cubic"]),
                f"test: every run's average delay within ±{CLASSIC_DELAY_BAND:.0%} of {CLASSIC_TARGET_S * 1e3:g} ms, "
                f"utilization ≥ {CLASSIC_UTILIZATION_FLOOR}; delay {ms(delay['cubic'])} ms, utilization "
                f"{fractions(util['cubic'])}",
            ),
            Claim(
                "The coupling gives Prague and CUBIC roughly equal windows",
                windows_roughly_equal(ratios),
                f"test: every run's Prague/CUBIC window ratio (throughput × mean RTT) in [{WINDOW_RATIO_BAND[0]:g}, "
                f"{WINDOW_RATIO_BAND[1]:g}]; ratios {fractions(ratios)}; throughput ratios {fractions(rate_ratios)}",
            ),
        ]
        mean_ms = [sum(delay[m]) / len(delay[m]) * 1e3 if delay[m] else float("nan") for m in MIXES]
        return Outcome(
            series=[Series("average queueing delay (ms)", list(MIXES), mean_ms)],
            claims=claims,
            notes=[
                "mixed: L and C queues' average lengths as delays "
                + ", ".join(f"{lq:.2f} / {cq:.2f} ms" for lq, cq in map(class_delays_ms, runs["prague+cubic"]))
                + f"; utilization {fractions(util['prague+cubic'])}",
            ],
        )
