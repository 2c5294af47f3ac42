"""Sec. 5.2: M persistent flows of one algorithm share a 10 Mb/s bottleneck, RTTs spread uniformly
in [20 + 230/M, 250] ms, ten NewReno senders on the reverse path; total goodput and Jain's
fairness index against M."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from tcpsim.repro import register
from tcpsim.repro.aggregate import FRACTION, NON_NEGATIVE, Curve, fmt_ci, mean
from tcpsim.repro.framework import Claim, Experiment, MissCause, Outcome, Series
from tcpsim.repro.macura import checks
from tcpsim.repro.macura.common import PAPER, THREE, Flavour, goodput_mbps, macura_dumbbell, paper_rtts, spread
from tcpsim.repro.plotting import DOUBLE_IN, PALETTE, draw_series, figure_legend, figure_title, finish_axes
from tcpsim.runner import RunSpec
from tcpsim.stats import jain_index
from tcpsim.tidy import RunKey

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure

    from tcpsim.result import RunResult

RATE = "10Mbps"
DELAY_S = 0.005
"""Bottleneck one-way delay: below half the shortest RTT (21.15 ms at M = 200); the rest of each
RTT is on the access links."""
QUEUE_PKTS = 125
"""Buffers = BDP (the catalog): 10 Mb/s × 150 ms in 1500-byte packets, the "bandwidth delay
product of a typical RTT of 150 ms" the paper gives its 10 Mb/s routers (Sec. 5.3); the forward
RTTs average 135 ms."""
REVERSE_RTTS = spread(0.046, 0.250, 10)
"""The ten reverse NewReno senders' RTTs: the paper gives none here; its Sec. 5.5 spreads its ten
reverse NewReno connections in [46, 250] ms, taken here too."""
M_FULL = (10, 25, 50, 100, 150, 200)
M_QUICK = (10, 50)
DURATION_FULL_S = 1000.0
DURATION_QUICK_S = 150.0
WITH, WITHOUT = "with", "without"
"""The reverse traffic on (the paper's set-up) or off (control runs: is the reverse traffic the cause?)."""


def scenario(flavour: Flavour, m: int, duration_s: float, reverse: bool = True) -> dict[str, Any]:
    return macura_dumbbell(
        name=f"macura Sec. 5.2: {m} {flavour.label} flows" + (" + 10 NewReno reverse" if reverse else ""),
        flavour=flavour,
        forward_rtts=paper_rtts(m),
        reverse_rtts=REVERSE_RTTS if reverse else [],
        rate=RATE,
        delay_s=DELAY_S,
        queue_pkts=QUEUE_PKTS,
        duration_s=duration_s,
    )


def forward_flows(result: RunResult) -> pd.DataFrame:
    flows = result.flows
    return flows[flows["name"].str.match(r"^fwd\d+$")]


def forward_goodputs(result: RunResult) -> list[float]:
    """Each forward flow's eq. (1) goodput, Mb/s of 1500-byte packets."""
    return [goodput_mbps(v) for v in forward_flows(result)["goodput_bps"]]


def queueing_delay_s(result: RunResult) -> float:
    """The forward flows' mean RTT less their smallest, averaged over the flows: the queueing
    delay their RTT samples carry."""
    forward = forward_flows(result)
    return float((forward["rtt_mean_s"] - forward["rtt_min_s"]).mean())


Samples = dict[str, dict[int, list[float]]]
"""flavour name → M → per-seed value."""


@register
class Bottleneck(Experiment):
    """Sec. 5.2 (Fig. 2): total goodput and Jain's index of M flows of one algorithm vs M, with reverse traffic."""

    id = "macura.bottleneck"
    kind = "simulation"
    miss_cause = MissCause(
        "paper",
        (
            "Classed by issue 24's review as the paper contradicting itself. What tcpsim measures: with the "
            "reverse traffic every algorithm fills the 10 Mb/s link at M = 50 (Vegas 9.79, NewReno 9.73, "
            "Westwood+ 9.72 Mb/s, quick), where the paper has Vegas below the others at every M; at M = 10 Vegas "
            "is far below (2.46 against 8.97 Mb/s), as the paper says."
        ),
    )
    paper = PAPER
    figure = "Sec. 5.2"
    title = "single bottleneck with reverse traffic: total goodput and fairness vs number of flows"
    xlabel = "flows M"
    setup = (
        "Fig. 2: M persistent flows of one algorithm (NewReno, Vegas or Westwood+) over a 10 Mb/s drop-tail "
        "bottleneck of 125 packets (the paper's BDP at a typical 150 ms RTT), RTTs 20 + 230·i/M ms (i = 1…M, "
        "uniform in [20 + 230/M, 250] ms), ten NewReno senders on the reverse path (RTTs spread in [46, 250] ms, "
        "as Sec. 5.5's), 1000 s (150 s in quick mode), M in {10, 25, 50, 100, 150, 200} ({10, 50} quick). "
        "Control runs without the reverse senders. Total goodput (sum over the M flows) and Jain's index of the "
        "M goodputs. Checked: Vegas's total goodput below NewReno's and Westwood+'s at every M (Welch, 95 %); "
        "the reverse traffic costs Vegas significantly and more than the others (relative loss against the "
        "control runs) at every M; Westwood+'s Jain index above NewReno's at most M and significantly below at "
        "none. The paper states no numbers here."
    )
    seeds_full = 3
    seeds_quick = 2

    def runs(self, quick: bool, seeds: int | None) -> list[RunSpec]:
        duration = DURATION_QUICK_S if quick else DURATION_FULL_S
        specs = []
        for reverse in (WITH, WITHOUT):
            for f in THREE:
                for m in M_QUICK if quick else M_FULL:
                    built = scenario(f, m, duration, reverse == WITH)
                    specs += [
                        RunSpec(RunKey(reverse=reverse, flavour=f.name, m=m, seed=s), built, seed=s)
                        for s in self.replications(quick, seeds)
                    ]
        return specs

    def samples(self, results: Mapping[RunKey, RunResult]) -> dict[tuple[str, str], Samples]:
        """(reverse, metric) → flavour → M → per-seed values; metrics "total", "jain" and
        "queueing"."""
        out: dict[tuple[str, str], Samples] = {}
        for key in sorted(results, key=lambda k: k["seed"]):
            goodputs = forward_goodputs(results[key])
            metrics = (
                ("total", sum(goodputs)),
                ("jain", jain_index(goodputs)),
                ("queueing", queueing_delay_s(results[key])),
            )
            for metric, value in metrics:
                out.setdefault((key["reverse"], metric), {}).setdefault(key["flavour"], {}).setdefault(
                    key["m"], []
                ).append(value)
        return out

    def analyze(self, results: Mapping[RunKey, RunResult], quick: bool) -> Outcome:
        s = self.samples(results)
        total, jain = s[(WITH, "total")], s[(WITH, "jain")]
        control = s[(WITHOUT, "total")]
        label = {f.name: f.label for f in THREE}

        def m_label(m: float) -> str:
            return f"M = {m:g}"

        claims = [
            Claim(
                "Vegas is hurt by the reverse traffic: its total goodput is below NewReno's and Westwood+'s at every M",
                *checks.below_everywhere(
                    total["vegas"], {label[n]: total[n] for n in ("newreno", "westwood_plus")}, m_label
                ),
            ),
            Claim(
                "the TCP traffic on the backward path has a significant impact on Vegas",
                *checks.hurt_most(
                    {label[n]: total[n] for n in label}, {label[n]: control[n] for n in label}, "Vegas", m_label
                ),
            ),
            Claim(
                "Westwood+ improves fairness over NewReno (Jain's index)",
                *checks.fairer(jain["westwood_plus"], jain["newreno"], m_label),
            ),
        ]
        series = [Curve.of(total[f.name], NON_NEGATIVE).series(f"{f.label}: total goodput") for f in THREE]
        series += [
            Curve.of(control[f.name], NON_NEGATIVE).series(f"{f.label}: total goodput, no reverse traffic")
            for f in THREE
        ]
        series += [Curve.of(jain[f.name], FRACTION).series(f"{f.label}: Jain's index") for f in THREE]
        notes = [
            f"{len(next(iter(total['newreno'].values())))} seeds per point; "
            f"{DURATION_QUICK_S if quick else DURATION_FULL_S:g} s runs, goodput over the whole run",
            "Jain's index without reverse traffic: "
            + "; ".join(
                f"{label[n]} " + ", ".join(f"M={m}: {fmt_ci(v, 3)}" for m, v in s[(WITHOUT, "jain")][n].items())
                for n in label
            ),
            "why Vegas is hurt at small M only: each Vegas flow keeps α…β = 1…3 packets queued, so its rate is "
            "about (1…3)/q for a queueing delay q on its path, and M flows together send M·(1…3)/q; they fill the "
            "833 packets/s link while the delay the reverse traffic alone imposes stays below M·(1…3)/833 s "
            "(12–36 ms at M = 10, 60–180 ms at M = 50). Vegas flows' queueing delay (mean RTT − min RTT, averaged "
            "over the flows) with / without the reverse traffic: "
            + ", ".join(
                f"M={m}: {1e3 * mean(v):.0f} / {1e3 * mean(s[(WITHOUT, 'queueing')]['vegas'][m]):.0f} ms"
                for m, v in s[(WITH, "queueing")]["vegas"].items()
            ),
        ]
        return Outcome(series=series, claims=claims, notes=notes)

    def plot(self, outcome: Outcome, fig: Figure) -> None:
        """Total goodput (left; control runs without reverse traffic dashed) and Jain's index (right)."""
        fig.set_size_inches(DOUBLE_IN, 2.9)
        left, right = fig.subplots(1, 2)
        style = {f.label: (color, marker) for f, color, marker in zip(THREE, PALETTE, "os^")}

        def draw(ax: Any, series: list[Series], linestyle: str = "-") -> None:
            for s in series:
                color, marker = style[s.label.split(":")[0]]
                draw_series(ax, [s], colors=(color,), markers=(marker,), linestyle=linestyle)

        draw(left, [s for s in outcome.series if s.label.endswith("total goodput")])
        draw(left, [s for s in outcome.series if "no reverse" in s.label], "--")
        draw(right, [s for s in outcome.series if "Jain" in s.label])
        finish_axes(left, self.xlabel, "total goodput (Mb/s)", legend=False)
        finish_axes(right, self.xlabel, "Jain's fairness index", legend=False)
        left.set_ylim(bottom=0)
        right.set_ylim(top=1.0)
        fig.suptitle(figure_title(self))
        figure_legend(fig, left, columns=3)
