"""Sec. IV-C…F of `podlesny`: RD with web-like traffic beside the long-lived flows (Figs. 6–9).

The Sec. IV dumbbell with RD at the bottleneck, 100 NewReno and 100 Vegas long-lived flows in
each direction, and two web servers, one per variant, "connected to the bottleneck link": each
sends downloads to a client across the bottleneck (forward), every transfer a new connection of
the server's variant over a 100 ms propagation RTT, sizes Pareto (shape 1.3) of mean 30 KB.

Choices where the paper is silent, made before any run:
- the intensity ("1 fps … 300 fps") is the two servers' total, half each (one arrival process
  per server); the long-lived flows start as in every Sec. IV run;
- a class's utilization is that of the forward direction, the one the web traffic uses: the
  class's long-lived forward flows and its server's transfers, their data packets that crossed
  the bottleneck (sent − dropped, 1040 bytes each: a transfer's last, shorter packet is counted
  whole), over the capacity; Vegas's loss rate the same packets' drop ratio;
- the relative fairness index is the classes' utilizations each divided by its long-lived
  flows (100 each): with as many web transfers of each class on average, any per-flow count of
  them divides both sides alike.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import numpy as np

from tcpsim.repro import register
from tcpsim.repro.aggregate import FRACTION, NON_NEGATIVE, Curve
from tcpsim.repro.framework import Claim, Experiment, MissCause, Number, Outcome, Series
from tcpsim.repro.plotting import DOUBLE_IN, GREY, PALETTE, figure_legend, figure_title, finish_axes
from tcpsim.repro.podlesny import checks
from tcpsim.repro.podlesny.common import (
    ACCESS_QUEUE,
    ACCESS_RATE,
    BOTTLENECK_BPS,
    BOTTLENECK_DELAY_S,
    DURATION_S,
    PAPER,
    REPLICATIONS,
    RTT_RANGE_S,
    WARMUP_S,
    WIRE_BYTES,
    bottleneck_queue,
    mixed_dumbbell,
    vegas_tcp,
)
from tcpsim.repro.podlesny.measure import NEWRENO, VEGAS, check_no_drops_past_the_bottleneck
from tcpsim.runner import RunSpec
from tcpsim.tidy import RunKey
from tcpsim.topologies.common import link

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from tcpsim.result import RunResult

WEB_RTT_S = 0.100
SIZE_SHAPE = 1.3
MEAN_SIZE_BYTES = 30_000
LONG_FLOWS = 100


@dataclass(frozen=True)
class Point:
    """One set-up of a sweep: capacity, long-lived flows of each variant per direction, their
    RTT range, the web traffic (total transfers per second, mean size, Pareto arrival shape or
    None for Poisson) and the run length."""

    capacity_bps: float = BOTTLENECK_BPS
    long_flows: int = LONG_FLOWS
    rtt_range_s: tuple[float, float] = RTT_RANGE_S
    web_rate_per_s: float = 50.0
    mean_size_bytes: int = MEAN_SIZE_BYTES
    arrival_shape: float | None = None
    duration_s: float = DURATION_S


QUICK_SCALE = 10
"""Quick mode divides the capacity, the long-lived flows and the web intensity by 10 (20 s runs):
per-flow rates and buffers per flow stay the paper's."""


def quick(point: Point) -> Point:
    return replace(
        point,
        capacity_bps=point.capacity_bps / QUICK_SCALE,
        long_flows=point.long_flows // QUICK_SCALE,
        web_rate_per_s=point.web_rate_per_s / QUICK_SCALE,
        duration_s=20.0,
    )


def scenario(point: Point, seed: int) -> dict[str, Any]:
    """The dumbbell with RD, the long-lived flows of `point` and one web server per variant."""
    built = mixed_dumbbell(
        point.long_flows,
        point.long_flows,
        queue=bottleneck_queue("rd", point.capacity_bps, BOTTLENECK_DELAY_S),
        seed=seed,
        bottleneck_bps=point.capacity_bps,
        duration_s=point.duration_s,
        rtt_range_s=point.rtt_range_s,
    )
    access_s = (WEB_RTT_S / 2 - BOTTLENECK_DELAY_S) / 2
    arrivals: dict[str, Any] = {"process": "poisson", "rate": f"{point.web_rate_per_s / 2:g}/s"}
    if point.arrival_shape is not None:
        arrivals |= {"process": "pareto", "shape": point.arrival_shape}
    built["web"] = []
    for variant in (NEWRENO, VEGAS):
        server, client = f"www.{variant}", f"client.{variant}"
        built["links"] += [
            link(f"{server}-r1", server, "r1", ACCESS_RATE, access_s, ACCESS_QUEUE),
            link(f"r2-{client}", "r2", client, ACCESS_RATE, access_s, ACCESS_QUEUE),
        ]
        web: dict[str, Any] = {
            "name": f"web.{variant}",
            "server": server,
            "clients": [client],
            "variant": variant,
            "arrivals": dict(arrivals),
            "sizes": {"dist": "pareto", "mean": f"{point.mean_size_bytes}B", "shape": SIZE_SHAPE},
        }
        if variant == VEGAS:
            web["tcp"] = vegas_tcp()
        built["web"].append(web)
    built["name"] += f", web {point.web_rate_per_s:g}/s of mean {point.mean_size_bytes / 1000:g} KB"
    return built


def forward_use(r: RunResult, point: Point) -> dict[str, float]:
    """Per class on the forward link: utilization (long-lived forward flows and the class's web
    transfers, packets that crossed the bottleneck), the web part of it, the loss rate; and the
    relative fairness index (per long-lived flow)."""
    check_no_drops_past_the_bottleneck(r)
    capacity_bits = point.capacity_bps * float(r.meta["window_s"])
    out: dict[str, float] = {}
    for variant in (NEWRENO, VEGAS):
        flows = r.flows[r.flows["name"].str.startswith(f"{variant}.f")]
        web = r.web[r.web["name"] == f"web.{variant}"]
        sent = [float(flows["packets_sent"].sum()), float(web["packets_sent"].sum())]
        dropped = [float(flows["packets_dropped"].sum()), float(web["packets_dropped"].sum())]
        crossed = [(s - d) * WIRE_BYTES * 8 / capacity_bits for s, d in zip(sent, dropped)]
        out[f"{variant}_utilization"] = sum(crossed)
        out[f"{variant}_web"] = crossed[1]
        out[f"{variant}_loss_rate"] = sum(dropped) / sum(sent) if sum(sent) else math.nan
    newreno = out[f"{NEWRENO}_utilization"]
    out["index"] = out[f"{VEGAS}_utilization"] / newreno if newreno > 0 else math.nan
    return out


class WebSweep(Experiment):
    """One of Figs. 6–9: RD with web traffic, one set-up per point of the sweep."""

    paper = PAPER
    seeds_full = REPLICATIONS
    seeds_quick = 2
    groups: tuple[str, ...] = ("",)
    """Series groups (fig9: one per mean size); "" for one curve per metric."""

    def points(self, quick_mode: bool) -> dict[Any, Point]:
        """The sweep: x (or (group, x)) → set-up, full scale; quick mode scales each (`quick`)."""
        raise NotImplementedError

    def grid(self, quick_mode: bool) -> dict[Any, Point]:
        full = self.points(quick_mode)
        return {x: quick(p) for x, p in full.items()} if quick_mode else full

    def runs(self, quick: bool, seeds: int | None) -> list[RunSpec]:
        return [
            RunSpec(key=RunKey(x=x, seed=seed), scenario=scenario(p, seed), seed=seed)
            for x, p in self.grid(quick).items()
            for seed in self.replications(quick, seeds)
        ]

    def table(self, results: Mapping[RunKey, RunResult], quick: bool) -> dict[Any, list[dict[str, float]]]:
        grid = self.grid(quick)
        out: dict[Any, list[dict[str, float]]] = {}
        for key in sorted(results):
            out.setdefault(key["x"], []).append(forward_use(results[key], grid[key["x"]]))
        return out

    @staticmethod
    def split(x: Any) -> tuple[str, Any]:
        """(group, x) of a point's key."""
        return x if isinstance(x, tuple) else ("", x)

    def samples(
        self, table: Mapping[Any, list[dict[str, float]]], column: str, group: str = ""
    ) -> dict[Any, list[float]]:
        return {
            self.split(x)[1]: [row[column] for row in rows] for x, rows in table.items() if self.split(x)[0] == group
        }

    def judge(self, table: Mapping[Any, list[dict[str, float]]]) -> tuple[list[Claim], list[Number]]:
        raise NotImplementedError

    def analyze(self, results: Mapping[RunKey, RunResult], quick: bool) -> Outcome:
        table = self.table(results, quick)
        claims, numbers = self.judge(table)
        series = []
        for group in self.groups:
            prefix = f"{group}: " if group else ""
            for column, label, valid in (
                (f"{NEWRENO}_utilization", "NewReno", FRACTION),
                (f"{VEGAS}_utilization", "Vegas", FRACTION),
                ("index", "relative fairness index", NON_NEGATIVE),
                (f"{VEGAS}_loss_rate", "Vegas loss rate", FRACTION),
            ):
                series.append(Curve.of(self.samples(table, column, group), valid).series(prefix + label))
        n = min(len(rows) for rows in table.values())
        notes = [
            f"{n} replications per point, the first {WARMUP_S:g} s excluded"
            + (
                f"; quick mode: capacity, long-lived flows and web intensity divided by {QUICK_SCALE}, 20 s runs"
                if quick
                else ""
            ),
            "two web servers (one per variant) send downloads across the bottleneck, each at half the stated "
            "intensity (assumed: the paper gives the total), Pareto sizes (shape 1.3), 100 ms propagation RTT, every "
            "transfer a new connection; utilizations and the index are the forward direction's, where the web "
            "traffic is; the index divides each class's utilization by its 100 long-lived flows",
            "web transfers' part of each class's utilization (mean): "
            + "; ".join(
                f"{self.fmt(x)}: NewReno {np.mean([r[f'{NEWRENO}_web'] for r in rows]):.1%}, "
                f"Vegas {np.mean([r[f'{VEGAS}_web'] for r in rows]):.1%}"
                for x, rows in table.items()
            ),
            "RD as Sec. III (k = 1, D = 10 % of the C·250 ms buffer), with tcpsim's defaults for the unstated "
            "recalculation interval (100 ms) and flow-count window (1 s + 2 × the class's queueing delay); their "
            "sensitivity is fig4's and fig10's",
        ]
        return Outcome(series=series, claims=claims, numbers=numbers, notes=notes)

    def fmt(self, x: Any) -> str:
        return str(x)

    def mean_at(self, table: Mapping[Any, list[dict[str, float]]], x: Any, column: str) -> float:
        return float(np.mean([row[column] for row in table[x]]))

    def index_range(
        self,
        table: Mapping[Any, list[dict[str, float]]],
        low: float,
        high: float,
        where: str,
        keep: Callable[[Any], bool],
    ) -> list[Number]:
        """The paper's "the index ranges between `low` and `high`" as two numbers: the lowest
        and the highest mean index over the points `keep` selects."""
        means = {x: self.mean_at(table, x, "index") for x in table if keep(x)}
        lowest, highest = min(means, key=means.get), max(means, key=means.get)
        return [
            Number(f"lowest relative fairness index {where} (at {self.fmt(lowest)})", low, means[lowest]),
            Number(f"highest relative fairness index {where} (at {self.fmt(highest)})", high, means[highest]),
        ]

    def plot(self, outcome: Outcome, fig: Figure) -> None:
        """(a) per-class utilization, (b) the relative fairness index, (c) Vegas's loss rate,
        against the sweep's parameter (95 % CI)."""
        fig.set_size_inches(DOUBLE_IN, 2.6)
        ax_use, ax_index, ax_loss = fig.subplots(1, 3)
        by_label = {s.label: s for s in outcome.series}
        styles = ("-", "--")
        for g, group in enumerate(self.groups):
            prefix = f"{group}: " if group else ""
            for i, name in enumerate(("NewReno", "Vegas")):
                _errorbar(ax_use, by_label[prefix + name], PALETTE[i], styles[g], f"{prefix}{name}")
            _errorbar(ax_index, by_label[prefix + "relative fairness index"], PALETTE[2], styles[g], group or None)
            _errorbar(ax_loss, by_label[prefix + "Vegas loss rate"], PALETTE[1], styles[g], group or None)
        band = self.paper_band()
        if band:
            ax_index.axhspan(*band, color=GREY, alpha=0.2, linewidth=0, label="paper's range")
        ax_index.axhline(1, color=GREY, linewidth=0.6)
        ax_use.set_ylim(0, 1)
        ax_index.set_ylim(bottom=0)
        for ax, ylabel, title in (
            (ax_use, "utilization (forward)", "(a) average utilization"),
            (ax_index, "relative fairness index", "(b) Vegas / NewReno per flow"),
            (ax_loss, "Vegas loss rate", "(c) Vegas loss rate"),
        ):
            finish_axes(ax, self.xlabel, ylabel, self.xscale, legend=False)
            ax.set_title(title)
        if len(self.groups) > 1 or band:
            ax_index.legend(loc="lower left")
        figure_legend(fig, ax_use, columns=4)
        fig.suptitle(figure_title(self))

    def paper_band(self) -> tuple[float, float] | None:
        return None


def _errorbar(ax: Any, s: Series, color: str, linestyle: str, label: str | None) -> None:
    y = np.asarray(s.y, dtype=float)
    yerr = [y - np.asarray(s.y_ci_low, dtype=float), np.asarray(s.y_ci_high, dtype=float) - y]
    ax.errorbar(
        s.x, y, yerr=yerr, color=color, linestyle=linestyle, marker="o", markersize=3, elinewidth=0.7, label=label
    )


@register
class Fig6(WebSweep):
    id = "podlesny.fig6"
    kind = "simulation"
    miss_cause = MissCause(
        "setup",
        (
            "ns-2.35 with RD built in (peers/ns2/rd: Queue/RD, tcpsim's RD with its main-reading parameters) "
            "gives at the paper's scale (2 runs) an index from 1.11 at 1 fps down to 0.82 at 200 fps (ours 1.05 "
            "to 0.845; paper 0.96 to 0.75) and Vegas's loss rising from 0.14 % to 8.7 % (ours 0.24 % to 8.2 %); "
            "at the quick scale (3 runs) 1.08 down to 0.87 (ours 0.99 to 0.77). With DropTail and RED/ECN the "
            "two agree too (see the ns-2 values), so neither the NewReno and Vegas models nor tcpsim's RD code "
            "is where it misses. (Reproduced in full mode; quick mode cannot decide it.) What remains is RD as "
            "realised: the paper states neither the recalculation interval (100 ms here) nor the "
            "flow-counting window of its timestamp vector (here 1 s plus twice the class's longest queueing "
            "delay, tcpsim's choice: the cited counting papers give none), and the window alone moved the "
            "index at ratio 0.1 from 1.64 to 1.40 (one full-mode run)."
        ),
    )
    title = "RD with web-like traffic of 1…300 transfers per second"
    setup = (
        "The Sec. IV dumbbell with RD at the bottleneck (k = 1, D = 10 % of the C·250 ms buffer, 100 ms "
        "recalculation, flow-count window 1 s + 2 × the class's queueing delay), 100 NewReno and 100 Vegas long-lived flows in each direction "
        "(RTTs uniform in [20, 300] ms), and two web servers, one per variant, sending downloads across the "
        "bottleneck: Poisson arrivals of 1…300 transfers per second in all (half per server, assumed), Pareto "
        "sizes of mean 30 KB and shape 1.3, each a new connection over a 100 ms propagation RTT; 60 s, 5 "
        "replications, the first 5 s excluded. Utilizations of the forward direction (long-lived flows and the "
        "class's transfers). Checked: the index ranges over 0.75…0.96 (its lowest and highest mean over the "
        "intensities, ±15 % each) and Vegas's loss rate rises with the intensity (Welch, 95 %)."
    )
    xlabel = "web-like traffic (transfers/s)"
    xscale = "log"
    quick_undecided = (
        "quick mode divides the capacity, the long-lived flows and the web intensity by 10 and runs 20 s; with "
        "every intensity of the full grid it still passes (highest index 1.04, at 1 fps, within 15 % of 0.96), "
        "where the paper-scale runs fail (issue 24), so its verdict does not carry over"
    )
    rates = (1, 10, 50, 100, 200, 300)
    rates_quick = rates
    """Quick mode runs every intensity too (scaled, ``quick``): the paper's "the index ranges
    between 0.75 and 0.96 across the scenarios considered" is the lowest and highest index over all
    its intensities, 1…300 fps, which a subset of them cannot decide (without 1 and 50 fps, quick
    mode passed where the full grid fails)."""

    def points(self, quick_mode: bool) -> dict[Any, Point]:
        return {r: Point(web_rate_per_s=float(r)) for r in (self.rates_quick if quick_mode else self.rates)}

    def fmt(self, x: Any) -> str:
        return f"{x:g} fps (paper scale)"

    def judge(self, table: Mapping[Any, list[dict[str, float]]]) -> tuple[list[Claim], list[Number]]:
        claims = [
            Claim(
                "the packet loss rate of Vegas increases with the intensity of web-like traffic",
                *checks.changes(self.samples(table, f"{VEGAS}_loss_rate"), True, self.fmt),
            )
        ]
        return claims, self.index_range(table, 0.75, 0.96, "across intensities", lambda x: True)

    def paper_band(self) -> tuple[float, float] | None:
        return 0.75, 0.96


@register
class Fig7(WebSweep):
    id = "podlesny.fig7"
    kind = "simulation"
    miss_cause = MissCause(
        "setup",
        (
            "ns-2.35 with RD built in (peers/ns2/rd: Queue/RD, tcpsim's RD with its main-reading parameters) "
            "misses the paper as tcpsim does: at 10 Mb/s (3 runs) its index is 0.71 and Vegas's loss 39 % "
            "(ours 0.77 and 38 %; paper 0.61 and 28 %). With DropTail and RED/ECN the two agree too (see the "
            "ns-2 values), so neither the NewReno and Vegas models nor tcpsim's RD code is where it misses. "
            "At 10 Mb/s ns-2 with DropTail gives index 1.08 and Vegas loss 26.6 %, tcpsim 1.31 "
            "and 27.8 %. Under RD tcpsim gives 0.78 against the paper's 0.61 and indices 0.96-1.05 above 10 "
            "Mb/s against 0.72-0.88. What remains is RD as realised: the paper states neither the "
            "recalculation interval (100 ms here) nor the flow-counting window of its timestamp vector (here "
            "1 s plus twice the class's longest queueing delay, tcpsim's choice: the cited counting papers "
            "give none), and the window alone moved the index at ratio 0.1 from 1.64 to 1.40 (one full-mode "
            "run)."
        ),
    )
    title = "RD with web-like traffic: bottleneck capacity 10 Mb/s…1 Gb/s"
    setup = (
        "fig6's set-up with the web traffic fixed at 50 transfers per second and the bottleneck capacity "
        "10 Mb/s…1 Gb/s (buffer C·250 ms, D = 10 % of it: 31.25 KB at 10 Mb/s); 100 NewReno and 100 Vegas "
        "long-lived flows in each direction at every capacity. Checked: the index at 10 Mb/s 0.61 and Vegas's "
        "loss there 28 % (±15 %), the index's lowest and highest above 10 Mb/s 0.72 and 0.88 (±15 %), the index "
        "lowest at 10 Mb/s, and Vegas's loss falling as the capacity grows (Welch, 95 %)."
    )
    xlabel = "bottleneck capacity (Mb/s)"
    xscale = "log"
    capacities_mbps = (10, 50, 100, 200, 500, 1000)
    capacities_quick = (10, 100, 1000)

    def points(self, quick_mode: bool) -> dict[Any, Point]:
        grid = self.capacities_quick if quick_mode else self.capacities_mbps
        return {c: Point(capacity_bps=c * 1e6) for c in grid}

    def fmt(self, x: Any) -> str:
        return f"{x:g} Mb/s (paper scale)"

    def judge(self, table: Mapping[Any, list[dict[str, float]]]) -> tuple[list[Claim], list[Number]]:
        index = self.samples(table, "index")
        claims = [
            Claim("the fairness is poorest at 10 Mb/s", *checks.lowest_at(index, 10, self.fmt)),
            Claim(
                "Vegas's loss rate decreases quickly as the capacity (and buffer) grows",
                *checks.changes(self.samples(table, f"{VEGAS}_loss_rate"), False, self.fmt),
            ),
        ]
        numbers = [
            Number("relative fairness index at 10 Mb/s", 0.61, self.mean_at(table, 10, "index")),
            Number("Vegas's loss rate at 10 Mb/s", 0.28, self.mean_at(table, 10, f"{VEGAS}_loss_rate")),
            *self.index_range(table, 0.72, 0.88, "above 10 Mb/s", lambda x: x != 10),
        ]
        return claims, numbers

    def paper_band(self) -> tuple[float, float] | None:
        return 0.72, 0.88


@register
class Fig8(WebSweep):
    id = "podlesny.fig8"
    kind = "simulation"
    miss_cause = MissCause(
        "setup",
        (
            "ns-2.35 with RD built in (peers/ns2/rd: Queue/RD, tcpsim's RD with its main-reading parameters) "
            "misses the paper as tcpsim does: at the Figs. 6-8 point (60 s, 2 runs) its index is 0.96 and "
            "Vegas's loss 0.45 % (ours 0.93 and 0.56 %; paper 0.83-0.87 and 0.01-0.29 %), and at maximum RTTs"
            " 30, 200 and 1000 ms (quick scale, 3 runs) Vegas loses 4.6, 1.8 and 1.8 % (ours 4.7, 1.1, 1.8 "
            "%). With DropTail and RED/ECN the two agree too (see the ns-2 values), so neither the NewReno "
            "and Vegas models nor tcpsim's RD code is where it misses. "
            "At the 100 Mb/s, 50 fps, 20-300 ms point at full scale ns-2 with DropTail gives "
            "index 0.22 and Vegas loss 0.51 %, tcpsim 0.22 and 0.75 %. Under RD tcpsim's Vegas loses 0.6-3.8 "
            "% against the paper's 0.01-0.29 %, so RD's split of the buffer between its queues (B_R, B_D) "
            "and its counts decide it. What remains is RD as realised: the paper states neither the "
            "recalculation interval (100 ms here) nor the flow-counting window of its timestamp vector (here "
            "1 s plus twice the class's longest queueing delay, tcpsim's choice: the cited counting papers "
            "give none), and the window alone moved the index at ratio 0.1 from 1.64 to 1.40 (one full-mode "
            "run)."
        ),
    )
    title = "RD with web-like traffic: long-lived flows' RTTs from 20 ms to 30 ms…1 s"
    setup = (
        "fig6's set-up with the web traffic fixed at 50 transfers per second and the long-lived flows' "
        "propagation RTTs uniform between 20 ms and a maximum of 30 ms…1 s. Checked: the index's lowest and "
        "highest 0.83 and 0.87 (±15 %); Vegas's loss below 1 % everywhere (a bound); its non-monotonic course, "
        "falling from the smallest maximum to 200 ms and rising from 200 ms to 1 s (Welch, 95 %); and the paper's "
        "loss rates 0.29 % (smallest maximum), 0.01 % (200 ms) and 0.11 % (1 s), ±15 %."
    )
    xlabel = "maximum RTT of the long-lived flows (ms)"
    max_rtts_ms = (30, 100, 200, 300, 500, 1000)
    max_rtts_quick = (30, 200, 1000)

    def points(self, quick_mode: bool) -> dict[Any, Point]:
        grid = self.max_rtts_quick if quick_mode else self.max_rtts_ms
        return {m: Point(rtt_range_s=(0.020, m / 1000)) for m in grid}

    def fmt(self, x: Any) -> str:
        return f"{x:g} ms"

    def judge(self, table: Mapping[Any, list[dict[str, float]]]) -> tuple[list[Claim], list[Number]]:
        loss = self.samples(table, f"{VEGAS}_loss_rate")
        xs = sorted(loss)
        first, last = xs[0], xs[-1]
        down = checks.changes({x: loss[x] for x in xs if x <= 200}, False, self.fmt)
        up = checks.changes({x: loss[x] for x in xs if x >= 200}, True, self.fmt)
        claims = [
            Claim(
                "Vegas's loss rate is well below 1 % at every setting",
                *checks.within_everywhere(loss, 0, 0.01, "Vegas loss rate", self.fmt),
            ),
            Claim(
                "Vegas's loss rate is non-monotonic: it falls up to 200 ms and rises beyond",
                down[0] and up[0],
                f"falling: {down[1]}. rising: {up[1]}",
            ),
        ]
        numbers = [
            *self.index_range(table, 0.83, 0.87, "across maximum RTTs", lambda x: True),
            Number(f"Vegas's loss rate at the smallest maximum RTT ({first} ms)", 0.0029, np.mean(loss[first])),
            Number("Vegas's loss rate at 200 ms", 0.0001, np.mean(loss[200])),
            Number(f"Vegas's loss rate at {last} ms", 0.0011, np.mean(loss[last])),
        ]
        return claims, numbers

    def paper_band(self) -> tuple[float, float] | None:
        return 0.83, 0.87


@register
class Fig9(WebSweep):
    id = "podlesny.fig9"
    kind = "simulation"
    miss_cause = MissCause(
        "setup",
        (
            "ns-2.35 with RD built in (peers/ns2/rd: Queue/RD, tcpsim's RD with its main-reading parameters) "
            "misses the paper as tcpsim does: over 10 runs its index with 30 KB transfers is 0.86 at 50 fps "
            "and 1.01 at 200 fps, with 100 KB 0.94 and 0.94 (ours 0.87 and 0.93, 0.96 and 0.88; paper 0.9 and"
            " 0.69, 0.86 and 0.67): no decline in either. With DropTail and RED/ECN the two agree too (see "
            "the ns-2 values), so neither the NewReno and Vegas models nor tcpsim's RD code is where it "
            "misses. "
            "Under RD tcpsim's index falls from 0.90 to 0.87 (30 KB) and 0.88 to 0.80 (100 KB) "
            "between 50 and 200 fps, not significantly, where the paper's falls to 0.69 and 0.67. What "
            "remains is RD as realised: the paper states neither the recalculation interval (100 ms here) "
            "nor the flow-counting window of its timestamp vector (here 1 s plus twice the class's longest "
            "queueing delay, tcpsim's choice: the cited counting papers give none), and the window alone "
            "moved the index at ratio 0.1 from 1.64 to 1.40 (one full-mode run)."
        ),
    )
    title = "RD with bursty web-like traffic: Pareto arrivals (shape 1.1), mean sizes 30 KB and 100 KB"
    setup = (
        "fig6's set-up with the web transfers arriving with Pareto gaps (shape 1.1) at 50, 100 and 200 transfers "
        "per second in all, mean sizes 30 KB and 100 KB (Pareto, shape 1.3); the long-lived flows as in fig6. "
        "Checked: the index at 50 and 200 transfers per second, 0.9 and 0.69 (30 KB) and 0.86 and 0.67 (100 KB), "
        "±15 %; the index falling from 50 to 200 transfers per second and Vegas's loss rising (Welch, 95 %), for "
        "each size."
    )
    xlabel = "web-like traffic (transfers/s)"
    groups = ("30 KB", "100 KB")
    rates = (50, 100, 200)
    rates_quick = (50, 200)
    paper_index = {"30 KB": (0.9, 0.69), "100 KB": (0.86, 0.67)}

    def points(self, quick_mode: bool) -> dict[Any, Point]:
        sizes = {"30 KB": 30_000, "100 KB": 100_000}
        return {
            (group, r): Point(web_rate_per_s=float(r), mean_size_bytes=sizes[group], arrival_shape=1.1)
            for group in self.groups
            for r in (self.rates_quick if quick_mode else self.rates)
        }

    def fmt(self, x: Any) -> str:
        group, rate = self.split(x)
        return f"{group + ', ' if group else ''}{rate:g} fps (paper scale)"

    def judge(self, table: Mapping[Any, list[dict[str, float]]]) -> tuple[list[Claim], list[Number]]:
        claims, numbers = [], []
        for group in self.groups:
            index = self.samples(table, "index", group)
            loss = self.samples(table, f"{VEGAS}_loss_rate", group)
            low, high = min(index), max(index)
            two_ends = {x: index[x] for x in (low, high)}
            claims.append(
                Claim(
                    f"{group}: the relative fairness declines as the intensity grows",
                    *checks.changes(two_ends, False, lambda x: f"{x:g} fps"),
                )
            )
            claims.append(
                Claim(
                    f"{group}: Vegas's packet loss rate increases with the intensity",
                    *checks.changes({x: loss[x] for x in (low, high)}, True, lambda x: f"{x:g} fps"),
                )
            )
            at_low, at_high = self.paper_index[group]
            numbers += [
                Number(f"{group}: relative fairness index at 50 fps", at_low, float(np.mean(index[low]))),
                Number(f"{group}: relative fairness index at 200 fps", at_high, float(np.mean(index[high]))),
            ]
        return claims, numbers
