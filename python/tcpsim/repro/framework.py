"""What a paper reproduction is, and how a batch of them is run, judged and written out.

An experiment declares its runs, turns their results into series (for the figure), claims (the
paper's qualitative statements, each checked) and numbers (the paper's figures, each compared
within a tolerance or explained), as EXPERIMENTS.md asks. ``execute`` runs the runs of *all*
selected experiments in one pool, so a long experiment does not leave the other cores idle, and
isolates failures: one broken analysis becomes a failed claim in its report, not a lost batch.
"""

from __future__ import annotations

import json
import math
import time
import traceback
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tcpsim.runner import RunFailed, RunSpec, run_digest, run_many

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from tcpsim.result import RunResult

PAPERS = ("moller", "gangadhar", "macura", "podlesny", "casetti", "validation")


@dataclass
class Series:
    """One curve of a figure; the optional CI bounds are drawn as error bars."""

    label: str
    x: Sequence[Any]
    y: Sequence[float]
    y_ci_low: Sequence[float] | None = None
    y_ci_high: Sequence[float] | None = None

    def __post_init__(self) -> None:
        lengths = {len(v) for v in (self.x, self.y, self.y_ci_low, self.y_ci_high) if v is not None}
        if len(lengths) > 1:
            raise ValueError(f"series {self.label!r}: x, y and CI bounds differ in length {sorted(lengths)}")

    def to_dict(self) -> dict[str, Any]:
        return jsonable(
            {"label": self.label, "x": self.x, "y": self.y, "y_ci_low": self.y_ci_low, "y_ci_high": self.y_ci_high}
        )


@dataclass
class Claim:
    """A qualitative statement of the paper and whether our results bear it out; ``detail`` holds
    the evidence (the measured values the verdict was based on)."""

    text: str
    ok: bool
    detail: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"text": self.text, "ok": bool(self.ok), "detail": self.detail}


@dataclass
class Number:
    """A number the paper reports next to ours. It is ok when within ``tolerance`` (relative) or
    when an explanation of the gap is given; both facts are reported, so an explained miss is
    never mistaken for a match."""

    name: str
    paper: float
    measured: float
    tolerance: float = 0.15
    explanation: str | None = None

    @property
    def rel_error(self) -> float:
        """(measured − paper) / |paper|; for a paper value of 0, 0 if we also measure 0, else ±inf."""
        if self.paper == 0:
            return 0.0 if self.measured == 0 else math.copysign(math.inf, self.measured)
        return (self.measured - self.paper) / abs(self.paper)

    @property
    def within_tolerance(self) -> bool:
        return abs(self.rel_error) <= self.tolerance  # False for NaN

    @property
    def ok(self) -> bool:
        return self.within_tolerance or bool(self.explanation)

    def to_dict(self) -> dict[str, Any]:
        return jsonable(
            {
                "name": self.name,
                "paper": self.paper,
                "measured": self.measured,
                "tolerance": self.tolerance,
                "rel_error": self.rel_error,
                "within_tolerance": self.within_tolerance,
                "ok": self.ok,
                "explanation": self.explanation,
            }
        )


@dataclass
class Outcome:
    """Everything an experiment concluded; ``notes`` record choices the paper left open."""

    series: list[Series] = field(default_factory=list)
    claims: list[Claim] = field(default_factory=list)
    numbers: list[Number] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if isinstance(self.notes, str):  # one note given as a string, not split into characters
            self.notes = [self.notes]


class Experiment:
    """Base class of one figure or table of a paper.

    Subclasses set ``id`` (``<paper>.<name>``), ``title``, ``paper`` (one of ``PAPERS``) and the
    axis attributes, implement ``analyze`` and, unless the experiment is purely analytical,
    ``runs``. Keys of the returned RunSpecs are the experiment's own; ``analyze`` receives the
    results under the same keys.
    """

    id: str
    title: str
    paper: str
    xlabel: str = ""
    ylabel: str = ""
    xscale: str | None = None
    seeds_full: int = 5
    seeds_quick: int = 2

    def replications(self, quick: bool, seeds: int | None) -> list[int]:
        """Seeds 1..n: ``seeds`` if given, else ``seeds_quick`` or ``seeds_full``."""
        count = seeds if seeds is not None else self.seeds_quick if quick else self.seeds_full
        return list(range(1, count + 1))

    def runs(self, quick: bool, seeds: int | None) -> list[RunSpec]:
        """Simulations this experiment needs; none for analytical-model experiments."""
        return []

    def analyze(self, results: Mapping[Any, RunResult], quick: bool) -> Outcome:
        raise NotImplementedError(f"{type(self).__name__}.analyze")

    def plot(self, outcome: Outcome, fig: Figure) -> None:
        """Draw every series; those with CI bounds get error bars. Override for other layouts."""
        import numpy as np

        ax = fig.add_subplot()
        for series in outcome.series:
            if series.y_ci_low is not None and series.y_ci_high is not None:
                y = np.asarray(series.y, dtype=float)
                below = np.clip(y - np.asarray(series.y_ci_low, dtype=float), 0, None)
                above = np.clip(np.asarray(series.y_ci_high, dtype=float) - y, 0, None)
                ax.errorbar(series.x, y, yerr=[below, above], marker="o", markersize=3, capsize=3, label=series.label)
            else:
                ax.plot(series.x, series.y, label=series.label)
        ax.set_xlabel(self.xlabel)
        ax.set_ylabel(self.ylabel)
        ax.set_title(f"{self.id}: {self.title}", fontsize="medium")
        if self.xscale:
            ax.set_xscale(self.xscale)
        if any(series.label for series in outcome.series):
            ax.legend(fontsize="small")
        ax.grid(alpha=0.3)


def jsonable(value: Any) -> Any:
    """A copy of ``value`` that ``json.dumps`` accepts and strict parsers read back: numpy and
    pandas scalars/arrays become Python values, NaN and ±inf become null, paths become strings."""
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, str | bytes):
        return value if isinstance(value, str) else value.decode()
    if isinstance(value, Path):
        return str(value)
    if hasattr(value, "tolist"):  # numpy arrays and scalars, pandas Series/Index
        return jsonable(value.tolist())
    if isinstance(value, Iterable):
        return [jsonable(v) for v in value]
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def _describe(error: BaseException) -> str:
    """Error text with the place it was raised, enough to start debugging from a report."""
    frames = traceback.extract_tb(error.__traceback__)
    where = f" (at {Path(frames[-1].filename).name}:{frames[-1].lineno})" if frames else ""
    return f"{type(error).__name__}: {error}{where}"


def _plan(experiment: Experiment, quick: bool, seeds: int | None) -> list[RunSpec]:
    """The experiment's runs, checked (scenarios valid, keys unique) before anything is run, so
    a mistake in one experiment fails that experiment rather than the shared pool."""
    specs = list(experiment.runs(quick, seeds))
    keys = [spec.key for spec in specs]
    if len(set(keys)) != len(keys):
        raise ValueError("runs() returned duplicate keys")
    for spec in specs:
        run_digest(spec)
    return specs


@dataclass
class _Inputs:
    """What ``execute`` gathered for one experiment before analysis."""

    results: dict[Any, RunResult] = field(default_factory=dict)
    failed_runs: dict[Any, str] = field(default_factory=dict)
    setup_error: str | None = None


def _analyze(experiment: Experiment, inputs: _Inputs, quick: bool) -> tuple[Outcome, bool]:
    """The outcome, and whether analysis produced something worth drawing."""
    if inputs.setup_error is not None:
        return Outcome(claims=[Claim("experiment set-up (runs) succeeds", False, inputs.setup_error)]), False
    if inputs.failed_runs:
        key, error = next(iter(inputs.failed_runs.items()))
        detail = f"{len(inputs.failed_runs)} run(s) failed; first {key!r}: {error}"
        return Outcome(claims=[Claim("all simulation runs succeed", False, detail)]), False
    try:
        outcome = experiment.analyze(inputs.results, quick)
    except Exception as error:  # noqa: BLE001 - isolate one experiment's bug from the batch
        return Outcome(claims=[Claim("analysis completes", False, _describe(error))]), False
    if not outcome.claims and not outcome.numbers:
        # Nothing checked is not a reproduction; do not let it pass as one.
        outcome.claims.append(Claim("the experiment checks at least one claim or number", False))
    return outcome, True


def _draw(experiment: Experiment, outcome: Outcome, out_dir: Path) -> Path | None:
    """Figure to ``<id>.png`` and ``<id>.svg``; a plotting error becomes a failed claim."""
    from matplotlib.figure import Figure

    # A bare Figure renders through Agg on savefig without touching pyplot's global state,
    # which is unsafe in a library and pointless without a display.
    fig = Figure(figsize=(7, 4.5), layout="constrained")
    png, svg = out_dir / f"{experiment.id}.png", out_dir / f"{experiment.id}.svg"
    for previous in (png, svg):
        previous.unlink(missing_ok=True)  # a figure that fails now must not leave the old one
    try:
        experiment.plot(outcome, fig)
        fig.savefig(png, dpi=150)
        fig.savefig(svg, metadata={"Date": None})
    except Exception as error:  # noqa: BLE001 - the numbers are still worth reporting
        outcome.claims.append(Claim("figure is drawn", False, _describe(error)))
        return None
    return png


def _report(
    experiment: Experiment, outcome: Outcome, figure: Path | None, quick: bool, wall_s: float
) -> dict[str, Any]:
    return jsonable({
        "id": experiment.id,
        "title": experiment.title,
        "paper": experiment.paper,
        "quick": quick,
        "ok": all(c.ok for c in outcome.claims) and all(n.ok for n in outcome.numbers),
        # Every run, the analysis and the figure succeeded (claims may still fail: that is a
        # result, not a breakdown).
        "completed": figure is not None,
        "series": [s.to_dict() for s in outcome.series],
        "claims": [c.to_dict() for c in outcome.claims],
        "numbers": [n.to_dict() for n in outcome.numbers],
        "notes": list(outcome.notes),
        "figure": str(figure) if figure else None,
        "wall_s": wall_s,
    })


def execute(
    experiments: Iterable[Experiment],
    quick: bool = False,
    seeds: int | None = None,
    jobs: int | None = None,
    out_dir: str | Path = "results",
    progress: bool = True,
    cache_dir: str | Path | None = None,
) -> list[dict[str, Any]]:
    """Run, analyze and draw the experiments; write ``<id>.png``, ``<id>.svg``, ``<id>.json``,
    ``summary.json`` and ``summary.md`` to ``out_dir``; return one report dict per experiment.

    ``wall_s`` of a report is the simulation time of its runs (as recorded when each was first
    computed, so cached runs count too) plus its analysis and plotting time.
    """
    experiments = list({e.id: e for e in experiments}.values())
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)

    inputs = {e.id: _Inputs() for e in experiments}
    specs: list[RunSpec] = []
    for experiment in experiments:
        try:
            planned = _plan(experiment, quick, seeds)
        except Exception as error:  # noqa: BLE001 - reported as this experiment's failure
            inputs[experiment.id].setup_error = _describe(error)
            continue
        specs += [replace(spec, key=(experiment.id, spec.key)) for spec in planned]

    try:
        results, failures = run_many(specs, jobs=jobs, cache_dir=cache_dir, progress=progress), {}
    except RunFailed as error:
        results, failures = error.results, error.failures
    for (exp_id, key), result in results.items():
        inputs[exp_id].results[key] = result
    for (exp_id, key), message in failures.items():
        inputs[exp_id].failed_runs[key] = message

    reports = []
    for experiment in experiments:
        start = time.perf_counter()
        outcome, drawable = _analyze(experiment, inputs[experiment.id], quick)
        figure = _draw(experiment, outcome, out) if drawable else None
        sim_wall_s = sum(float(r.meta.get("wall_s", 0.0)) for r in inputs[experiment.id].results.values())
        report = _report(experiment, outcome, figure, quick, sim_wall_s + time.perf_counter() - start)
        (out / f"{experiment.id}.json").write_text(json.dumps(report, indent=2, allow_nan=False) + "\n")
        reports.append(report)

    (out / "summary.json").write_text(json.dumps(reports, indent=2, allow_nan=False) + "\n")
    (out / "summary.md").write_text(summary_markdown(reports))
    return reports


def _cell(value: Any) -> str:
    text = "" if value is None else f"{value:.4g}" if isinstance(value, float) else str(value)
    return text.replace("|", r"\|").replace("\n", " ")


def summary_markdown(reports: Sequence[Mapping[str, Any]]) -> str:
    """One table of every claim and number of every experiment, then the notes."""
    claims = [c for r in reports for c in r["claims"]]
    numbers = [n for r in reports for n in r["numbers"]]
    explained = sum(1 for n in numbers if n["ok"] and not n["within_tolerance"])
    lines = [
        "# tcpsim repro summary",
        "",
        f"{len(reports)} experiment(s); claims: {sum(c['ok'] for c in claims)}/{len(claims)} hold; "
        f"numbers: {sum(n['ok'] for n in numbers)}/{len(numbers)} ok ({explained} of them explained rather than matched).",
        "",
        "| experiment | kind | item | paper | measured | rel. error | status | detail |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for report in reports:
        for c in report["claims"]:
            status = "ok" if c["ok"] else "FAILED"
            lines.append(f"| {report['id']} | claim | {_cell(c['text'])} |  |  |  | {status} | {_cell(c['detail'])} |")
        for n in report["numbers"]:
            status = "ok" if n["within_tolerance"] else "explained" if n["ok"] else "FAILED"
            error = "" if n["rel_error"] is None else f"{n['rel_error']:+.1%}"
            lines.append(
                f"| {report['id']} | number | {_cell(n['name'])} | {_cell(n['paper'])} | {_cell(n['measured'])} "
                f"| {error} | {status} | {_cell(n['explanation'])} |"
            )
    noted = [r for r in reports if r["notes"]]
    if noted:
        lines += ["", "## Notes", ""]
        lines += [f"- **{r['id']}**: {_cell(note)}" for r in noted for note in r["notes"]]
    return "\n".join(lines) + "\n"
