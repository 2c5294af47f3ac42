"""gangadhar Fig. 10: cwnd of Westwood, Westwood+ and Reno over the lossy link."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from tcpsim.repro import register
from tcpsim.repro.framework import Claim, Outcome, Series
from tcpsim.repro.gangadhar.common import (
    DEFAULT_FLAVOURS,
    FLAVOUR_NOTE,
    FLAVOURS,
    MSS_BYTES,
    NS3_NOTE,
    RENO,
    THREE,
    WESTWOOD,
    WESTWOOD_PLUS,
    _TwoWindows,
    duration_s,
    lossy_link,
)
from tcpsim.repro.plotting import figure_title, plot_lines
from tcpsim.repro.sweep import Axis, Sweep
from tcpsim.runner import RunSpec
from tcpsim.tidy import RunKey

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from tcpsim.result import RunResult


def cwnd_order(averages: Mapping[str, Mapping[int, float]]) -> Claim:
    """fig10: Westwood's time-averaged cwnd above Westwood+'s above Reno's, in every run (the paper
    plots one run); `averages` maps flavour name → run → mean cwnd (segments), in the paper's order."""
    order = list(averages)
    seeds = sorted(averages[order[-1]])
    per_seed = [all(averages[a][s] > averages[b][s] for a, b in zip(order, order[1:])) for s in seeds]
    return Claim(
        "Westwood highest, Westwood+ second, Reno lowest (time-averaged cwnd, every run)",
        all(per_seed),
        "test: time-averaged cwnd strictly ordered Westwood > Westwood+ > Reno in every run; "
        + "; ".join(
            f"run {s}: " + " > ".join(f"{FLAVOURS[n].label} {averages[n][s]:.1f}" for n in order) for s in seeds
        )
        + " segments",
    )


@register
class Fig10(_TwoWindows):
    id = "gangadhar.fig10"
    kind = "simulation"
    title = "cwnd of Westwood, Westwood+ and Reno at PER 0.005, sampled every 3 s"
    setup = (
        "The set-up of fig5 at PER 0.005 with Westwood, Westwood+ and Reno, cwnd sampled every 3 s over the "
        "600 s run (200 s in quick mode), 2 runs each, under the 64 KB main reading and the 128 KB "
        "alternative reading; tcpsim's default Westwood flavours are reported unjudged. Checked: "
        "time-averaged cwnd ordered Westwood > Westwood+ > Reno in every run (the figure shows the first)."
    )
    xlabel = "time (s)"
    ylabel = "cwnd (segments of 400 B)"
    seeds_full = 2
    seeds_quick = 2
    TRACE = {"cwnd": True, "interval": "3s"}

    def judged_runs(self, quick: bool, seeds: list[int]) -> list[RunSpec]:
        sweep = Sweep(Axis("flavour", (*THREE, *DEFAULT_FLAVOURS), key=lambda f: f.name))
        return sweep.specs(
            lambda flavour: lossy_link(flavour, duration_s=duration_s(quick), trace=self.TRACE), quick, seeds
        )

    def judge(self, results: Mapping[RunKey, RunResult], quick: bool) -> Outcome:
        averages: dict[str, dict[int, float]] = {}
        series = []
        first_seed = min(key["seed"] for key in results)
        for key, r in sorted(results.items()):
            name, seed = key["flavour"], key["seed"]
            trace = r.trace("cwnd")
            segments = trace["cwnd_bytes"].to_numpy(dtype=float) / MSS_BYTES
            averages.setdefault(name, {})[seed] = float(segments.mean())
            if seed == first_seed and FLAVOURS[name].judged:
                series.append(Series(FLAVOURS[name].label, trace["time_s"].tolist(), segments.tolist()))
        order = [f.name for f in (WESTWOOD, WESTWOOD_PLUS, RENO)]
        claims = [cwnd_order({n: averages[n] for n in order})]
        series.sort(key=lambda s: [FLAVOURS[n].label for n in order].index(s.label))
        notes = [
            FLAVOUR_NOTE,
            NS3_NOTE,
            f"{duration_s(quick)} s, samples every 3 s (the paper's sampling); the figure shows run {first_seed}, "
            f"the claim compares the mean of the samples in every run",
            "tcpsim default flavours (not judged), time-averaged cwnd: "
            + "; ".join(
                f"{f.label} " + ", ".join(f"run {s} {averages[f.name][s]:.1f}" for s in sorted(averages[f.name]))
                for f in DEFAULT_FLAVOURS
                if f.name in averages
            ),
        ]
        return Outcome(series=series, claims=claims, notes=notes)

    def plot(self, outcome: Outcome, fig: Figure) -> None:
        plot_lines(fig, outcome.series, figure_title(self), self.xlabel, self.ylabel, markers=None)
