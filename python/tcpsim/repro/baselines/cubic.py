"""`validation.cubic`: CUBIC's RTT-fairness against standard TCP, and one CUBIC flow filling a
link.

The claim (RFC 9438 §5 design principle 2, and Ha, Rhee & Xu, "CUBIC: A New TCP-Friendly
High-Speed TCP Variant", ACM SIGOPS OSR 42(5), 2008, Sec. 3–4): CUBIC's window is a function of
the time since the last loss, not of the number of round trips, so two CUBIC flows with
different RTTs grow their windows alike and share a bottleneck more fairly than two standard
(AIMD) TCP flows with the same RTTs. Under synchronized losses the throughput ratio of the
short-RTT flow to the long-RTT flow is about the RTT ratio for CUBIC (equal windows, rate =
window/RTT) and about its square for AIMD (window growth per RTT as well). So: CUBIC's
short/long throughput ratio is below AIMD's at every RTT ratio tried.

Set-up, fixed before any run: dumbbell, 20 Mb/s bottleneck with 5 ms one-way delay, 100 Mb/s
access links, two forward flows with round-trip propagation 20 ms and 40, 80 or 160 ms (RTT
ratios 2, 4, 8; quick: 4 only), drop-tail buffer of 125 kB in both bottleneck directions (one
BDP at 50 ms, the mean of the 20/80 ms pair; the same for every pair), 1460-byte segments,
delayed ACKs, starts jittered over [0, 1] s, 120 s measured after 20 s (quick: 60 s after
10 s), 5 seeds (quick 2). CUBIC is the `cubic` variant (RFC 9438 defaults, SACK recovery); the
baseline is the `sack` variant, RFC 5681 AIMD with the same RFC 6675 recovery, so only the
congestion control differs. The tolerance is none: the mean ratio over seeds must be strictly
lower for CUBIC. The second claim: one CUBIC flow alone on `scenarios/cubic.toml` (10 Mb/s,
40 ms, one-BDP drop-tail buffer) keeps goodput at ≥ 90 % of the link, the project's floor for
"fills the link" (`validation.FILL_FRACTION`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

import numpy as np

from tcpsim.paths import builtin_scenario
from tcpsim.repro import register
from tcpsim.repro.aggregate import NON_NEGATIVE, Curve
from tcpsim.repro.framework import Claim, Experiment, Outcome
from tcpsim.repro.sweep import Axis, Sweep
from tcpsim.repro.validation import FILL_FRACTION, fills_link
from tcpsim.runner import RunSpec
from tcpsim.tidy import RunKey, select_runs
from tcpsim.topologies import dumbbell

if TYPE_CHECKING:
    from tcpsim.result import RunResult

SHORT_RTT_S = 0.020
LONG_RTTS_S = (0.040, 0.080, 0.160)
LONG_RTTS_QUICK_S = (0.080,)
VARIANTS = ("cubic", "sack")
LABELS = {"cubic": "CUBIC", "sack": "AIMD (RFC 5681), SACK recovery"}
LINK_BPS = 10e6  # scenarios/cubic.toml's bottleneck


def throughput_ratio(short_bps: float, long_bps: float) -> float:
    """Short-RTT flow's throughput over the long-RTT flow's (inf if the long one got nothing)."""
    return short_bps / long_bps if long_bps > 0 else float("inf")


def cubic_fairer(cubic_ratios: list[float], aimd_ratios: list[float]) -> bool:
    """At every RTT ratio (same order in both lists) CUBIC's mean short/long throughput ratio is
    strictly below AIMD's."""
    return (
        bool(cubic_ratios)
        and len(cubic_ratios) == len(aimd_ratios)
        and all(c < a for c, a in zip(cubic_ratios, aimd_ratios, strict=True))
    )


@register
class CubicValidation(Experiment):
    id = "validation.cubic"
    kind = "validation"
    paper = "validation"
    title = "CUBIC (RFC 9438): RTT-fairness against AIMD, and one flow filling a link"
    setup = (
        "Two flows, round-trip propagation 20 ms and 40/80/160 ms (quick: 80 ms), on a 20 Mb/s, 5 ms "
        "dumbbell bottleneck with 100 Mb/s access links and a 125 kB drop-tail buffer; 1460-byte segments, "
        "delayed ACKs, starts jittered over [0, 1] s, 120 s after a 20 s warm-up (quick 60 s after 10 s); "
        "both flows CUBIC (RFC 9438 defaults, SACK recovery) or both AIMD (RFC 5681, SACK recovery). "
        "Checked: the short/long throughput ratio averaged over seeds is lower for CUBIC at every RTT ratio "
        "(RFC 9438 §5, Ha-Rhee-Xu 2008: CUBIC's window growth does not depend on RTT); and one CUBIC flow "
        "alone on a 10 Mb/s, 40 ms path with a one-BDP buffer (scenarios/cubic.toml, 60 s) has goodput "
        "≥ 90 % of the link."
    )
    xlabel = "RTT ratio (long / short)"
    ylabel = "throughput ratio (short / long)"
    xscale = "log"

    def runs(self, quick: bool, seeds: int | None) -> list[RunSpec]:
        sweep = Sweep(
            Axis("variant", VARIANTS),
            Axis("long_rtt_ms", [round(r * 1000) for r in LONG_RTTS_S], [round(r * 1000) for r in LONG_RTTS_QUICK_S]),
        )
        specs = sweep.specs(
            lambda variant, long_rtt_ms: dumbbell(
                forward=2,
                bottleneck_rate="20Mbps",
                bottleneck_delay_s=0.005,
                access_rate="100Mbps",
                rtts_s=[SHORT_RTT_S, long_rtt_ms / 1000],
                buffer_s=0.05,
                variant=variant,
                mss_bytes=1460,
                duration="70s" if quick else "140s",
                warmup="10s" if quick else "20s",
                start_jitter="1s",
            ),
            quick,
            self.replications(quick, seeds),
        )
        specs.append(RunSpec(key=RunKey(variant="cubic", alone=True), scenario=builtin_scenario("cubic"), seed=1))
        return specs

    def analyze(self, results: Mapping[RunKey, RunResult], quick: bool) -> Outcome:
        long_rtts = [round(r * 1000) for r in (LONG_RTTS_QUICK_S if quick else LONG_RTTS_S)]
        ratios: dict[str, dict[float, list[float]]] = {}
        for variant in VARIANTS:
            ratios[variant] = {}
            for long_ms in long_rtts:
                runs = select_runs(results, variant=variant, long_rtt_ms=long_ms).values()
                ratios[variant][long_ms / (SHORT_RTT_S * 1000)] = [
                    throughput_ratio(*r.flows.set_index("name")["throughput_bps"][["fwd0", "fwd1"]]) for r in runs
                ]
        curves = {v: Curve.of(ratios[v], NON_NEGATIVE) for v in VARIANTS}
        means = {v: curves[v].mean.tolist() for v in VARIANTS}
        detail = "; ".join(
            f"RTT ratio {x:g}: CUBIC {np.mean(ratios['cubic'][x]):.2f} (seeds {', '.join(f'{v:.2f}' for v in ratios['cubic'][x])}), "
            f"AIMD {np.mean(ratios['sack'][x]):.2f} (seeds {', '.join(f'{v:.2f}' for v in ratios['sack'][x])})"
            for x in ratios["cubic"]
        )
        alone = results[RunKey(variant="cubic", alone=True)]
        flow = alone.flows.iloc[0]
        goodput = float(flow["goodput_bps"])
        return Outcome(
            series=[curves[v].series(f"{LABELS[v]} (mean, 95% CI)") for v in VARIANTS],
            claims=[
                Claim(
                    "CUBIC shares a bottleneck between different RTTs more fairly than AIMD: its short/long "
                    "throughput ratio is lower at every RTT ratio",
                    cubic_fairer(means["cubic"], means["sack"]),
                    f"test: mean over seeds of throughput(20 ms flow)/throughput(long flow), CUBIC < AIMD at "
                    f"every RTT ratio; {detail}",
                ),
                Claim(
                    "one CUBIC flow fills a link with a one-BDP buffer: goodput ≥ 0.9 × capacity",
                    fills_link(goodput, LINK_BPS),
                    f"test: goodput ≥ {FILL_FRACTION} × {LINK_BPS / 1e6:g} Mb/s; goodput {goodput / 1e6:.3f} Mb/s, "
                    f"{int(flow['fast_retransmits'])} fast retransmits, {int(flow['timeouts'])} timeouts in 60 s",
                ),
            ],
            notes=[
                "the synchronized-loss model predicts ratio ≈ RTT ratio for CUBIC and ≈ its square for AIMD; "
                "queueing delay (up to 50 ms here) shrinks both effective RTT ratios",
                "AIMD is the `sack` variant: RFC 5681 congestion control with CUBIC's RFC 6675 recovery",
            ],
        )
