"""Sec. IV-A and IV-B of `podlesny`: RD's scalability in the number of flows (Figs. 4 and 5).

100 long-lived flows of one variant against 10…700 of the other, in each direction, on the
Sec. IV dumbbell with RD at the bottleneck; per-class utilization, the relative fairness index
and Vegas's loss rate against the flow ratio. A drop-tail baseline at a few ratios shows what RD
changes (the paper has none for these figures; it is labelled and not scored).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from tcpsim.repro import register
from tcpsim.repro.aggregate import FRACTION, NON_NEGATIVE, Curve
from tcpsim.repro.framework import Claim, Experiment, MissCause, Number, Outcome, Reading, Series
from tcpsim.repro.plotting import DOUBLE_IN, GREY, PALETTE, figure_legend, figure_title, finish_axes
from tcpsim.repro.podlesny import checks
from tcpsim.repro.podlesny.common import (
    BOTTLENECK_BPS,
    BOTTLENECK_DELAY_S,
    DURATION_S,
    PAPER,
    REPLICATIONS,
    WARMUP_S,
    bottleneck_queue,
    mixed_dumbbell,
)
from tcpsim.repro.podlesny.measure import CLASS_LABELS, NEWRENO, VEGAS, class_use, fairness_index, rd_split
from tcpsim.runner import RunSpec
from tcpsim.tidy import RunKey

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from tcpsim.result import RunResult

PAPER_SETTING = "paper"
INDEX_BAND = 0.15
"""The paper's "close to 1": the index within ±15 % (the house default precision)."""
DATA = "utilization as data packets only"
DATA_HYPOTHESIS = (
    "the paper's utilizations count a class's data packets on the link and not its ACKs (tcpsim's main reading "
    "until the paper's 74 % + 24 % = 98 % at ratio 3 decided it: data fill at most 1040/1080 = 96.3 % of a link "
    "that also carries the other direction's ACKs)"
)
DELIVERED = "utilization as delivered payload"
DELIVERED_HYPOTHESIS = (
    "the paper's utilizations count the payload the receivers got (sink-side counters) rather than the link "
    "capacity the class's packets occupied; nothing in the paper says which, and NewReno's retransmissions after "
    "timeouts, which the link carries but the receiver already had, separate the two"
)


@dataclass(frozen=True)
class Scale:
    """The runs of one mode: capacity, the fixed class's flows per direction, the varied class's
    grid, the run length, the ratios with a drop-tail baseline and the one with sensitivity runs."""

    capacity_bps: float
    fixed: int
    varied: tuple[int, ...]
    duration_s: float
    baseline: tuple[int, ...]
    sensitivity_at: int


FULL = Scale(BOTTLENECK_BPS, 100, (10, 50, 100, 200, 300, 500, 700), DURATION_S, (100, 300, 700), 300)
QUICK = Scale(BOTTLENECK_BPS / 10, 10, (1, 5, 10, 30, 70), 20.0, (30,), 30)
"""Quick mode: a tenth of everything (10 Mb/s with its C·250 ms buffer of 312 packets, 10 fixed
flows, 1…70 varied, five ratios), 20 s runs, sensitivity runs of one replication; per-flow rates,
buffer per flow and the ratios are the paper's."""

SENSITIVITY: dict[str, dict[str, Any]] = {
    "RD recalculation every 10 ms": {"interval": "10ms"},
    "RD recalculation every 1 s": {"interval": "1s"},
    "flow-count timeout 0.5 s": {"counter_timeout": "500ms"},
    "flow-count timeout 2 s": {"counter_timeout": "2s"},
    "fixed 1 s flow-count window": {"counter_delay_multiple": 0},
}
"""RD settings the paper leaves open, each changed alone from `RD_PAPER`, at one ratio (the
timeouts are the base of the counting window; the fixed window is tcpsim's earlier rule)."""


class FlowCountSweep(Experiment):
    """Figs. 4 and 5: `fixed` flows of one variant against `varied` of the other."""

    paper = PAPER
    xlabel = "flow ratio"
    seeds_full = REPLICATIONS
    seeds_quick = 2
    varied_variant: str
    fixed_variant: str
    sensitivity: Mapping[str, Mapping[str, Any]] = {}

    def scale(self, quick: bool) -> Scale:
        return QUICK if quick else FULL

    def counts(self, varied: int, scale: Scale) -> tuple[int, int]:
        """(NewReno, Vegas) flows per direction."""
        pair = {self.varied_variant: varied, self.fixed_variant: scale.fixed}
        return pair[NEWRENO], pair[VEGAS]

    def scenario(self, varied: int, scale: Scale, discipline: str, seed: int, rd: Mapping[str, Any]) -> dict[str, Any]:
        queue = bottleneck_queue(discipline, scale.capacity_bps, BOTTLENECK_DELAY_S, dict(rd))
        newreno, vegas = self.counts(varied, scale)
        return mixed_dumbbell(
            newreno, vegas, queue=queue, seed=seed, bottleneck_bps=scale.capacity_bps, duration_s=scale.duration_s
        )

    def runs(self, quick: bool, seeds: int | None) -> list[RunSpec]:
        scale = self.scale(quick)
        plan = [("rd", PAPER_SETTING, n) for n in scale.varied]
        plan += [("droptail", PAPER_SETTING, n) for n in scale.baseline]
        plan += [("rd", name, scale.sensitivity_at) for name in self.sensitivity]
        specs = []
        for discipline, setting, n in plan:
            rd = self.sensitivity.get(setting, {})
            seeds_of = self.replications(quick, seeds)
            for seed in seeds_of[:1] if quick and setting != PAPER_SETTING else seeds_of:
                key = RunKey(discipline=discipline, setting=setting, varied=n, seed=seed)
                specs.append(RunSpec(key=key, scenario=self.scenario(n, scale, discipline, seed, rd), seed=seed))
        return specs

    def ratio(self, varied: int, quick: bool) -> float:
        return varied / self.scale(quick).fixed

    def metrics(
        self, results: Mapping[RunKey, RunResult], quick: bool
    ) -> dict[tuple[str, str], dict[float, list[dict[str, float]]]]:
        """Per (discipline, setting), per flow ratio: each replication's metrics."""
        capacity = self.scale(quick).capacity_bps
        out: dict[tuple[str, str], dict[float, list[dict[str, float]]]] = {}
        for key in sorted(results):
            use = class_use(results[key], capacity, directions=2)
            metrics = ("utilization", "data", "delivered", "loss_rate")
            row = {f"{v}_{m}": use[v][m] for v in (NEWRENO, VEGAS) for m in metrics}
            row |= {"index": fairness_index(use), "index_data": fairness_index(use, "data")}
            row |= {"index_delivered": fairness_index(use, "delivered")}
            row |= rd_split(results[key])
            newreno, vegas = self.counts(key["varied"], self.scale(quick))
            # Each link direction carries every connection of a class: data one way, ACKs the other.
            row |= {"true_r": 2.0 * newreno, "true_d": 2.0 * vegas}
            group = out.setdefault((key["discipline"], key["setting"]), {})
            group.setdefault(self.ratio(key["varied"], quick), []).append(row)
        return out

    def judge(
        self, by_ratio: Mapping[float, list[dict[str, float]]], metric: str
    ) -> tuple[list[Claim], list[Number], list[Series]]:
        """Claims, numbers and series of the RD runs with utilizations measured as `metric`
        ("utilization", "data" or "delivered")."""
        index = "index" if metric == "utilization" else f"index_{metric}"

        def curve(column: str, valid: Any = NON_NEGATIVE) -> Curve:
            return Curve.of({x: [row[column] for row in rows] for x, rows in sorted(by_ratio.items())}, valid)

        fmt = "ratio {:g}".format
        indices = curve(index)
        claims = [
            Claim(
                "the classes share the link in proportion to their flow counts: relative fairness index close to 1 "
                "across the range",
                *checks.within_everywhere(
                    indices.samples, 1 - INDEX_BAND, 1 + INDEX_BAND, "relative fairness index", fmt
                ),
            ),
            self.loss_claim(curve("vegas_loss_rate").samples, fmt),
        ]
        series = [
            curve(f"{NEWRENO}_{metric}", FRACTION).series(CLASS_LABELS[NEWRENO]),
            curve(f"{VEGAS}_{metric}", FRACTION).series(CLASS_LABELS[VEGAS]),
            indices.series("relative fairness index"),
            curve("vegas_loss_rate", FRACTION).series("Vegas loss rate"),
        ]
        return claims, self.numbers(curve(f"{NEWRENO}_{metric}"), curve(f"{VEGAS}_{metric}"), indices), series

    def loss_claim(self, samples: Mapping[float, list[float]], fmt: Any) -> Claim:
        raise NotImplementedError

    def numbers(self, newreno: Curve, vegas: Curve, index: Curve) -> list[Number]:
        return []

    def analyze(self, results: Mapping[RunKey, RunResult], quick: bool) -> Outcome:
        table = self.metrics(results, quick)
        rd = table[("rd", PAPER_SETTING)]
        claims, numbers, series = self.judge(rd, "utilization")
        data_claims, data_numbers, data_series = self.judge(rd, "data")
        alt_claims, alt_numbers, alt_series = self.judge(rd, "delivered")
        baseline = table.get(("droptail", PAPER_SETTING), {})
        for column, label in ((f"{NEWRENO}_utilization", "NewReno"), (f"{VEGAS}_utilization", "Vegas")):
            values = {x: [row[column] for row in rows] for x, rows in sorted(baseline.items())}
            series.append(Curve.of(values, FRACTION).series(f"{label}, DropTail baseline"))
        values = {x: [row["index"] for row in rows] for x, rows in sorted(baseline.items())}
        series.append(Curve.of(values, NON_NEGATIVE).series("index, DropTail baseline"))
        scale = self.scale(quick)
        at = self.ratio(scale.sensitivity_at, quick)
        sensitivity = {name: table[("rd", name)][at] for name in self.sensitivity}
        if sensitivity:
            names = [PAPER_SETTING, *sensitivity]
            groups = [rd[at], *sensitivity.values()]
            stats = [Curve.of({0: [row["index"] for row in rows]}) for rows in groups]
            series.append(
                Series(
                    f"sensitivity at ratio {at:g}: relative fairness index",
                    names,
                    [float(s.mean[0]) for s in stats],
                    [float(s.ci_low[0]) for s in stats],
                    [float(s.ci_high[0]) for s in stats],
                )
            )
        return Outcome(
            series=series,
            claims=claims,
            numbers=numbers,
            notes=self.notes(rd, baseline, sensitivity, quick),
            readings=[
                Reading(DATA, DATA_HYPOTHESIS, claims=data_claims, numbers=data_numbers, series=data_series),
                Reading(DELIVERED, DELIVERED_HYPOTHESIS, claims=alt_claims, numbers=alt_numbers, series=alt_series),
            ],
        )

    def notes(
        self,
        rd: Mapping[float, list[dict[str, float]]],
        baseline: Mapping[float, list[dict[str, float]]],
        sensitivity: Mapping[str, list[dict[str, float]]],
        quick: bool,
    ) -> list[str]:
        scale = self.scale(quick)

        def mean(rows: list[dict[str, float]], column: str) -> float:
            return float(np.mean([row[column] for row in rows]))

        notes = [
            f"{len(next(iter(rd.values())))} replications of {scale.duration_s:g} s, the first {WARMUP_S:g} s excluded; "
            f"{scale.fixed} {CLASS_LABELS[self.fixed_variant]} and {scale.varied[0]}…{scale.varied[-1]} "
            f"{CLASS_LABELS[self.varied_variant]} flows in each direction over {scale.capacity_bps / 1e6:g} Mb/s"
            + (
                " (quick mode: a tenth of the paper's capacity and flows, 20 s runs, one replication per sensitivity run)"
                if quick
                else ""
            ),
            "utilization: the class's part of the link utilization (Sec. IV's \"average link utilization\"; its "
            "74 % + 24 % = 98 % needs the ACKs): all the class's packets that crossed the bottleneck, its flows' "
            "data (1040 bytes) and the other direction's flows' ACKs (40 bytes, in the flow's class, so RD counts a "
            "reverse flow in its class on the forward link too), as RD's queues served them (drop-tail: data packets "
            "plus the link's other bytes shared by data packets), over both directions' capacity",
            "RD as Sec. III: NewReno in R, Vegas in D, k = 1, D = 10 % of the C·250 ms buffer; not in the paper, "
            "tcpsim's defaults chosen before any result: recalculation every 100 ms, 4096-slot timestamp vectors, a "
            "flow counted while silent up to 1 s + 2 × its class's longest queueing delay within that window (one "
            "backed-off RTO behind the queue)",
            "data packets only and delivered payload (alternative readings) against link use, RD: "
            + "; ".join(
                f"ratio {x:g}: NewReno {mean(rows, 'newreno_data'):.1%}, {mean(rows, 'newreno_delivered'):.1%} vs "
                f"{mean(rows, 'newreno_utilization'):.1%}, Vegas {mean(rows, 'vegas_data'):.1%}, "
                f"{mean(rows, 'vegas_delivered'):.1%} vs {mean(rows, 'vegas_utilization'):.1%}"
                for x, rows in sorted(rd.items())
            ),
            "flows RD counted per link direction (mean over the window) against the connections crossing it (all of "
            "the class's, data one way, ACKs the other): "
            + "; ".join(
                f"ratio {x:g}: R {mean(rows, 'n_r'):.1f}/{mean(rows, 'true_r'):g}, D {mean(rows, 'n_d'):.1f}/"
                f"{mean(rows, 'true_d'):g} (R's part {mean(rows, 'r_counted_mean'):.1%} vs "
                f"{mean(rows, 'true_r') / (mean(rows, 'true_r') + mean(rows, 'true_d')):.1%})"
                for x, rows in sorted(rd.items())
            ),
        ]
        notes.append(
            "how RD split the link (R's part of the bytes served against its part of the counted flows, mean over the "
            "window, the share Fig. 2 aims at; the link's busy fraction): "
            + "; ".join(
                f"ratio {x:g}: {mean(rows, 'r_served'):.1%} vs {mean(rows, 'r_counted_mean'):.1%}, busy "
                f"{mean(rows, 'busy'):.1%}"
                for x, rows in sorted(rd.items())
            )
            + ". R serves less than its share when its queue runs empty (after NewReno's synchronized losses and "
            "timeouts), and Fig. 2 then gives the link to D: Vegas's index rises above 1"
        )
        losses = [(x, mean(rows, "vegas_loss_rate")) for x, rows in sorted(rd.items())]
        notes.append(
            "Vegas's loss rate, RD, and its rise per unit of flow ratio between neighbouring points: "
            + ", ".join(f"{x:g}: {v:.2%}" for x, v in losses)
            + "; "
            + ", ".join(f"{a:g}→{b:g}: {(vb - va) / (b - a):+.2%}" for (a, va), (b, vb) in zip(losses, losses[1:]))
        )
        if baseline:
            notes.append(
                "DropTail baseline (not in the paper's figure, not scored): "
                + "; ".join(
                    f"ratio {x:g}: NewReno {mean(rows, 'newreno_utilization'):.1%}, Vegas "
                    f"{mean(rows, 'vegas_utilization'):.1%}, index {mean(rows, 'index'):.2f}"
                    for x, rows in sorted(baseline.items())
                )
            )
        if sensitivity:
            at = self.ratio(scale.sensitivity_at, quick)
            notes.append(
                f"sensitivity of RD's unstated settings at ratio {at:g} (index; NewReno, Vegas utilization; Vegas "
                f"loss): paper set-up {mean(rd[at], 'index'):.3f}; {mean(rd[at], 'newreno_utilization'):.1%}, "
                f"{mean(rd[at], 'vegas_utilization'):.1%}; {mean(rd[at], 'vegas_loss_rate'):.2%}; "
                + "; ".join(
                    f"{name} {mean(rows, 'index'):.3f}; {mean(rows, 'newreno_utilization'):.1%}, "
                    f"{mean(rows, 'vegas_utilization'):.1%}; {mean(rows, 'vegas_loss_rate'):.2%}"
                    for name, rows in sensitivity.items()
                )
            )
        return notes

    def plot(self, outcome: Outcome, fig: Figure) -> None:
        """(a) per-class utilization against the flow ratio, RD (lines, 95 % CI) and the drop-tail
        baseline (hollow markers); (b) the relative fairness index with the ±15 % band; (c)
        Vegas's loss rate."""
        fig.set_size_inches(DOUBLE_IN, 2.6)
        ax_use, ax_index, ax_loss = fig.subplots(1, 3)
        by_label = {s.label: s for s in outcome.series}
        for i, variant in enumerate((NEWRENO, VEGAS)):
            label = CLASS_LABELS[variant]
            s = by_label[label]
            ax_use.errorbar(
                s.x,
                s.y,
                yerr=_yerr(s),
                color=PALETTE[i],
                marker="o",
                markersize=3,
                linewidth=1,
                elinewidth=0.7,
                label=f"{label}, RD",
            )
            base = by_label[f"{label}, DropTail baseline"]
            ax_use.plot(
                base.x, base.y, linestyle="none", marker="s", mfc="none", color=PALETTE[i], label=f"{label}, DropTail"
            )
        ax_use.set_ylim(0, 1)
        finish_axes(ax_use, self.xlabel, "utilization", legend=False)
        ax_use.set_title("(a) average utilization")
        index = by_label["relative fairness index"]
        ax_index.axhspan(1 - INDEX_BAND, 1 + INDEX_BAND, color=GREY, alpha=0.15, linewidth=0)
        ax_index.axhline(1, color=GREY, linewidth=0.6)
        ax_index.errorbar(index.x, index.y, yerr=_yerr(index), color=PALETTE[2], marker="o", markersize=3, label="RD")
        base = by_label["index, DropTail baseline"]
        ax_index.plot(base.x, base.y, linestyle="none", marker="s", mfc="none", color=PALETTE[2], label="DropTail")
        ax_index.set_ylim(bottom=0)
        finish_axes(ax_index, self.xlabel, "relative fairness index", legend=False)
        ax_index.set_title("(b) Vegas / NewReno per flow")
        loss = by_label["Vegas loss rate"]
        ax_loss.errorbar(loss.x, loss.y, yerr=_yerr(loss), color=PALETTE[1], marker="o", markersize=3)
        finish_axes(ax_loss, self.xlabel, "Vegas loss rate", legend=False)
        ax_loss.set_title("(c) Vegas loss rate, RD")
        figure_legend(fig, ax_use, columns=4)
        fig.suptitle(figure_title(self))

    def plot_readings(self, outcome: Outcome, fig: Figure) -> None:
        """The alternative readings' utilizations on panel (a): data packets dotted, delivered
        payload dashed."""
        ax = fig.axes[0]
        for reading, style in zip(outcome.readings, (":", "--")):
            for i, s in enumerate(reading.series[:2]):
                ax.plot(s.x, s.y, linestyle=style, linewidth=0.8, color=PALETTE[i], label=f"{s.label}, {reading.name}")


def _yerr(s: Series) -> list[np.ndarray]:
    y = np.asarray(s.y, dtype=float)
    return [y - np.asarray(s.y_ci_low, dtype=float), np.asarray(s.y_ci_high, dtype=float) - y]


@register
class Fig4(FlowCountSweep):
    id = "podlesny.fig4"
    kind = "simulation"
    miss_cause = MissCause(
        "setup",
        (
            "ns-2.35 with RD built in (peers/ns2/rd: Queue/RD, tcpsim's RD with its main-reading parameters) "
            "misses the paper as tcpsim does: at the paper's scale (3 runs) its index is 1.17, 1.18 and 1.13 "
            "at flow ratios 0.1, 0.5 and 3 (Vegas ahead; paper about 1, 0.97 at ratio 3), NewReno / Vegas "
            "71.6 % / 26.9 % of the link at ratio 3 (ours 72.0 / 25.3, paper 74 / 24). With DropTail and "
            "RED/ECN the two agree too (see the ns-2 values), so neither the NewReno and Vegas models nor "
            "tcpsim's RD code is where it misses. "
            "Full mode: the index is 1.24 and 1.17 at flow ratios 0.1 and 0.5 (Vegas ahead), in "
            "[0.85, 1.15] from ratio 1 on. What remains is RD as realised: the paper states neither the "
            "recalculation interval (100 ms here) nor the flow-counting window of its timestamp vector (here "
            "1 s plus twice the class's longest queueing delay, tcpsim's choice: the cited counting papers "
            "give none), and the window alone moved the index at ratio 0.1 from 1.64 to 1.40 (one full-mode "
            "run)."
        ),
    )
    title = "RD: 100 Vegas flows against 10…700 NewReno flows in each direction"
    setup = (
        "The Sec. IV dumbbell (200 Mb/s access links with 6250-packet buffers, a 100 Mb/s, 10 ms bottleneck with "
        "a C·250 ms buffer of 3125 1 KB packets, RTTs uniform in [20, 300] ms drawn per replication) with RD at "
        "the bottleneck (NewReno in R, Vegas in D, k = 1, D = 10 % of the buffer; recalculation every 100 ms and "
        "a flow-count window of 1 s + 2 × the class's queueing delay, tcpsim's defaults, the paper being silent): "
        "100 Vegas and 10…700 NewReno "
        "long-lived flows (flow ratio 0.1…7) in each direction, ns-2.29's TCP and Vegas (α = 1, β = 3), 60 s, 5 "
        "replications, the first 5 s excluded. Utilization of a class: the bottleneck capacity all its packets "
        "occupied, data and ACKs (alternative readings: data packets only; the payload delivered). Checked: the "
        "relative fairness index (Vegas's "
        "per-flow utilization over NewReno's) within ±15 % of 1 at every ratio; Vegas's loss rate rising linearly"
        " with the NewReno flows (a significant rise, the best quadratic within 10 % of the rise from a straight "
        "line); at ratio 3 NewReno 74 % and Vegas 24 % (±3 points) and the index 0.97 (±15 %). Beside them, not "
        "scored: a drop-tail baseline at ratios 1, 3 and 7, and RD's recalculation interval (10 ms, 1 s) and "
        "flow-count window (base 0.5 s, 2 s; a fixed 1 s) at ratio 3."
    )
    varied_variant, fixed_variant = NEWRENO, VEGAS
    sensitivity = SENSITIVITY
    share_points = 0.03
    """The paper's "74 % and 24 %", printed to the percent from 5 replications: ±3 points."""

    def loss_claim(self, samples: Mapping[float, list[float]], fmt: Any) -> Claim:
        return Claim(
            "Vegas's loss rate grows linearly with the number of NewReno flows",
            *checks.grows_linearly(samples, fmt),
        )

    def numbers(self, newreno: Curve, vegas: Curve, index: Curve) -> list[Number]:
        precision = "the paper's percentages to the point, means of 5 replications: ±3 points of the link"
        return [
            Number(
                "NewReno's utilization at flow ratio 3",
                0.74,
                newreno.at(3.0),
                tolerance=self.share_points / 0.74,
                precision=precision,
            ),
            Number(
                "Vegas's utilization at flow ratio 3",
                0.24,
                vegas.at(3.0),
                tolerance=self.share_points / 0.24,
                precision=precision,
            ),
            Number("relative fairness index at flow ratio 3", 0.97, index.at(3.0)),
        ]


@register
class Fig5(FlowCountSweep):
    id = "podlesny.fig5"
    kind = "simulation"
    miss_cause = MissCause(
        "setup",
        (
            "ns-2.35 with RD built in (peers/ns2/rd: Queue/RD, tcpsim's RD with its main-reading parameters) "
            "misses the paper as tcpsim does: at the paper's scale (3 runs) its Vegas loss rises from 0 to "
            "10.4 % over flow ratios 0.1-7 as nearly a straight line (3 % from the chord; ours 0 to 10.2 %, 1"
            " %), not the paper's curve, with the index within 1 ± 0.2. With DropTail and RED/ECN the two "
            "agree too (see the ns-2 values), so neither the NewReno and Vegas models nor tcpsim's RD code is"
            " where it misses. "
            "Full mode: the index holds; Vegas's loss rate rises with the Vegas share but not the "
            "way the paper draws it (departure from the chord 1 % of the rise). What remains is RD as "
            "realised: the paper states neither the recalculation interval (100 ms here) nor the "
            "flow-counting window of its timestamp vector (here 1 s plus twice the class's longest queueing "
            "delay, tcpsim's choice: the cited counting papers give none), and the window alone moved the "
            "index at ratio 0.1 from 1.64 to 1.40 (one full-mode run)."
        ),
    )
    title = "RD: 100 NewReno flows against 10…700 Vegas flows in each direction"
    setup = (
        "Fig. 4's set-up with the roles swapped: 100 NewReno and 10…700 Vegas long-lived flows (flow ratio 0.1…7) "
        "in each direction over the Sec. IV dumbbell with RD at the bottleneck (NewReno in R, Vegas in D, k = 1, "
        "D = 10 % of the C·250 ms buffer; 100 ms recalculation, a flow-count window of 1 s + 2 × the class's "
        "queueing delay), 60 s, 5 replications, "
        "the first 5 s excluded. Checked: the relative fairness index within ±15 % of 1 at every ratio, and "
        "Vegas's loss rate rising non-linearly with the Vegas flows (a significant rise, the best quadratic more "
        "than 10 % of the rise from a straight line, its curvature significant). Utilization of a class: all its "
        "packets on the link, data and ACKs; alternative readings: data packets only, delivered payload. A "
        "drop-tail baseline at ratios 1, 3 and 7 is shown, not scored; the "
        "sensitivity to RD's unstated settings is fig4's and fig10's."
    )
    varied_variant, fixed_variant = VEGAS, NEWRENO

    def loss_claim(self, samples: Mapping[float, list[float]], fmt: Any) -> Claim:
        return Claim(
            "Vegas's loss rate grows non-linearly with the number of Vegas flows",
            *checks.grows_nonlinearly(samples, fmt),
        )
