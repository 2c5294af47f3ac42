"""What a paper reproduction is, and how a batch of them is run, judged and written out.

An experiment declares its runs, turns their results into series (for the figure), claims (the
paper's qualitative statements, each checked) and numbers (the paper's figures, each matched
within its tolerance or missed, bounds checked as bounds), for its main reading and for each
alternative reading. ``execute`` runs the runs of *all* selected experiments in one pool, so a
long experiment does not leave the other cores idle, and isolates failures: one broken analysis
becomes a failed claim in its report, not a lost batch.
"""

from __future__ import annotations

import json
import logging
import math
import threading
import time
import traceback
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from queue import SimpleQueue
from typing import TYPE_CHECKING, Any

from tcpsim.outpaths import write_text
from tcpsim.repro.status import cell, misses_table, paper_value, readings_table, status_table
from tcpsim.runner import RunFailed, RunSpec, run_digest, run_many

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from tcpsim.repro.aggregate import Range
    from tcpsim.result import RunResult

log = logging.getLogger(__name__)

PAPERS = ("moller", "gangadhar", "macura", "podlesny", "casetti", "validation")

EXPERIMENT_KINDS = ("simulation", "model", "validation")
"""What an experiment is: "simulation", a paper figure or table reproduced by simulating it (the
headline count); "model", a figure that only evaluates the paper's analytical model (no
simulation); "validation", one of tcpsim's own self-checks (``validation.*``)."""

MISS_CLASSES = ("mechanism", "setup", "statistics", "test", "paper")
"""Why an experiment is not reproduced: tcpsim lacks a mechanism or models it unlike the paper's
tool ("mechanism"); a set-up parameter the paper does not state decides it ("setup"); too few or
too short runs to decide ("statistics"); the check asks something the paper does not ("test");
the paper contradicts itself or its own tool ("paper")."""

UNDECLARED = "undeclared"
"""The ``miss_cause`` class of a miss whose experiment declares no cause (a test fails on it)."""


@dataclass(frozen=True)
class MissCause:
    """Why an experiment is not reproduced when it is not: one of ``MISS_CLASSES`` and the best
    evidence for it, in one or two sentences with numbers (a sensitivity run, what ns-2 gives for
    the same set-up, or why ns-2 cannot run it). An experiment declares it as its ``miss_cause``;
    the report carries it only when the experiment is not reproduced."""

    cls: str
    evidence: str

    def __post_init__(self) -> None:
        if self.cls not in MISS_CLASSES:
            raise ValueError(f"miss cause class {self.cls!r} is not one of {', '.join(MISS_CLASSES)}")
        if not self.evidence.strip():
            raise ValueError(f"miss cause {self.cls!r}: the evidence is empty")

    def to_dict(self) -> dict[str, str]:
        return {"class": self.cls, "evidence": self.evidence}


@dataclass
class Series:
    """One curve of a figure; the optional CI bounds are drawn as error bars, clipped to the
    metric's ``valid`` range (e.g. ``aggregate.FRACTION`` for a Jain index) when it is given."""

    label: str
    x: Sequence[Any]
    y: Sequence[float]
    y_ci_low: Sequence[float] | None = None
    y_ci_high: Sequence[float] | None = None
    valid: Range | None = None

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


NUMBER_KINDS = ("point", "upper", "lower", "range")


@dataclass
class Number:
    """A number the paper reports, next to ours; ``status`` is "matched" or "missed", nothing else.

    ``kind`` says what the paper states: "point" (≈ ``paper``; matched within ``tolerance``,
    relative), "upper" (a bound "below ``paper``"), "lower" ("above ``paper``") or "range"
    (``paper`` ≤ x ≤ ``paper_high``); bounds ignore ``tolerance``. ``precision`` says, in one
    sentence, why the tolerance is not the default 15 % when it is not. ``explanation`` is text
    about a gap (its cause, evidence): it never makes a number matched.
    """

    name: str
    paper: float
    measured: float
    tolerance: float = 0.15
    explanation: str | None = None
    kind: str = "point"
    paper_high: float | None = None
    precision: str | None = None

    def __post_init__(self) -> None:
        if self.kind not in NUMBER_KINDS:
            raise ValueError(f"number {self.name!r}: kind {self.kind!r} is not one of {', '.join(NUMBER_KINDS)}")
        if (self.kind == "range") != (self.paper_high is not None):
            raise ValueError(f"number {self.name!r}: paper_high is given exactly when kind is 'range'")
        if self.kind == "range" and not self.paper <= self.paper_high:
            raise ValueError(f"number {self.name!r}: range [{self.paper}, {self.paper_high}] is empty")

    @property
    def rel_error(self) -> float:
        """(measured − paper) / |paper|; for a range, the gap to the nearer end (0 inside); for a
        paper value of 0, 0 if we also measure 0, else ±inf."""
        reference = self.paper
        if self.kind == "range":
            if self.paper <= self.measured <= self.paper_high:
                return 0.0
            if self.measured > self.paper_high:
                reference = self.paper_high
        if reference == 0:
            return 0.0 if self.measured == 0 else math.copysign(math.inf, self.measured)
        return (self.measured - reference) / abs(reference)

    @property
    def matched(self) -> bool:
        """Within tolerance (point) or on the paper's side of the bound; False for NaN."""
        if self.kind == "upper":
            return self.measured < self.paper
        if self.kind == "lower":
            return self.measured > self.paper
        if self.kind == "range":
            return self.paper <= self.measured <= self.paper_high
        return abs(self.rel_error) <= self.tolerance

    @property
    def status(self) -> str:
        return "matched" if self.matched else "missed"

    @property
    def within_tolerance(self) -> bool:
        """Alias of ``matched``, for callers written before bounds and statuses."""
        return self.matched

    @property
    def ok(self) -> bool:
        """Alias of ``matched``: an explanation does not make a number ok."""
        return self.matched

    def to_dict(self) -> dict[str, Any]:
        return jsonable(
            {
                "name": self.name,
                "kind": self.kind,
                "paper": self.paper,
                "paper_high": self.paper_high,
                "measured": self.measured,
                "tolerance": self.tolerance,
                "precision": self.precision,
                "rel_error": self.rel_error,
                "status": self.status,
                "ok": self.matched,  # alias of status == "matched", for readers written before statuses
                "explanation": self.explanation,
            }
        )


class ModelCheck(Number):
    """An identity of an analytical model checked numerically (e.g. β = CT/(CT+B) at B = CT): the
    same fields and verdicts as a Number, but reported apart, because it tests our code against
    the model, not our results against the paper."""


@dataclass
class Reading:
    """An alternative reading of an experiment: a named set-up, different from the paper's own
    (the main reading), that someone believes the authors used; ``hypothesis`` gives it and its
    evidence in one sentence. Its claims and numbers are scored apart from the main reading's
    and never change the experiment's status."""

    name: str
    hypothesis: str
    claims: list[Claim] = field(default_factory=list)
    numbers: list[Number] = field(default_factory=list)
    series: list[Series] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if isinstance(self.notes, str):
            self.notes = [self.notes]

    @property
    def ok(self) -> bool:
        return all(c.ok for c in self.claims) and all(n.matched for n in self.numbers)

    def to_dict(self) -> dict[str, Any]:
        return jsonable(
            {
                "name": self.name,
                "hypothesis": self.hypothesis,
                "ok": self.ok,
                "status": _verdict(self.ok),
                "claims": [c.to_dict() for c in self.claims],
                "numbers": [n.to_dict() for n in self.numbers],
                "series": [s.to_dict() for s in self.series],
                "notes": list(self.notes),
            }
        )


def _verdict(ok: bool) -> str:
    return "reproduced" if ok else "not reproduced"


@dataclass
class Outcome:
    """Everything an experiment concluded. ``claims``, ``numbers`` and ``model_checks`` belong to
    the main reading (the paper's own set-up, named ``main_reading``), which alone decides the
    experiment's status; ``readings`` are alternatives scored apart. ``notes`` record choices
    the paper left open."""

    series: list[Series] = field(default_factory=list)
    claims: list[Claim] = field(default_factory=list)
    numbers: list[Number] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    model_checks: list[ModelCheck] = field(default_factory=list)
    readings: list[Reading] = field(default_factory=list)
    main_reading: str = "paper"

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
    figure: str = ""
    """The paper's name of the figure ("Fig. 5", "Table 2"); derived from an id ending in
    ``.figN`` when empty (``plotting.figure_title``)."""
    setup: str = ""
    """One paragraph, in the project's words, on the set-up and what is compared, for the
    experiment reference (``tcpsim list --markdown``); the class docstring's first paragraph
    serves when empty."""
    seeds_full: int = 5
    seeds_quick: int = 2
    kind: str = "simulation"
    """One of ``EXPERIMENT_KINDS``; every registered experiment declares it in its own class (or
    its paper's base class), which a test checks."""
    miss_cause: MissCause | None = None
    """Why this experiment is not reproduced, when it is not (``MissCause``); a miss without one
    is reported with class ``UNDECLARED``."""
    quick_undecided: str | None = None
    """Why quick mode cannot decide this experiment, when it cannot (its verdict in quick mode
    does not carry over to the paper's set-up); the status table says so beside its count."""

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
        """Draw every series, those with CI bounds with their 95 % CI, in the shared publication
        style (``tcpsim.repro.plotting``). Override for other layouts."""
        from tcpsim.repro.plotting import figure_title, plot_lines

        plot_lines(fig, outcome.series, figure_title(self), self.xlabel, self.ylabel, self.xscale)

    def plot_readings(self, outcome: Outcome, fig: Figure) -> None:
        """Draw the alternative readings' series as dashed lines labelled with the reading's name
        on the figure's first axes, after ``plot``. Override when a reading's series belong on
        other axes."""
        from tcpsim.repro.plotting import draw_readings

        drawn = [(reading.name, series) for reading in outcome.readings for series in reading.series]
        if not drawn or not fig.axes:
            return
        ax = fig.axes[0]
        draw_readings(ax, drawn)
        ax.legend()


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
    """In the order the runs came back (cached first, then as the workers finish)."""
    planned: list[Any] = field(default_factory=list)
    """The run keys in the order the experiment planned them: the order analysis sees."""
    failed_runs: dict[Any, str] = field(default_factory=dict)
    setup_error: str | None = None
    seeds: list[int] = field(default_factory=list)
    waiting: int = 0
    """Runs whose result has not come back yet; at 0 the experiment is analyzed."""


def _analyze(experiment: Experiment, inputs: _Inputs, quick: bool) -> tuple[Outcome, bool]:
    """The outcome, and whether analysis produced something worth drawing."""
    if inputs.setup_error is not None:
        return Outcome(claims=[Claim("experiment set-up (runs) succeeds", False, inputs.setup_error)]), False
    if inputs.failed_runs:
        key, error = next(iter(inputs.failed_runs.items()))
        detail = f"{len(inputs.failed_runs)} run(s) failed; first {key!r}: {error}"
        return Outcome(claims=[Claim("all simulation runs succeed", False, detail)]), False
    # The plan's order, not the order the runs came back: sums over runs then add in the same
    # order whether the runs were computed, cached or both (a rerun after an interruption), so
    # the report is the same to the last bit.
    results = {key: inputs.results[key] for key in inputs.planned if key in inputs.results}
    try:
        outcome = experiment.analyze(results, quick)
    except Exception as error:  # noqa: BLE001 - isolate one experiment's bug from the batch
        return Outcome(claims=[Claim("analysis completes", False, _describe(error))]), False
    if not outcome.claims and not outcome.numbers:
        # Nothing checked is not a reproduction; do not let it pass as one.
        outcome.claims.append(Claim("the experiment checks at least one claim or number", False))
    return outcome, True


def _draw(experiment: Experiment, outcome: Outcome, out_dir: Path) -> Path | None:
    """Figure to ``<id>.png``, ``<id>.svg`` and ``<id>.pdf`` in the shared publication style
    (``tcpsim.repro.plotting``); a plotting error becomes a failed claim."""
    from tcpsim.repro.plotting import fit_titles, new_figure, save, style

    for suffix in ("png", "svg", "pdf"):
        # A figure that fails now must not leave the previous run's beside the new report.
        (out_dir / f"{experiment.id}.{suffix}").unlink(missing_ok=True)
    try:
        with style():
            # A bare Figure renders through Agg on savefig without touching pyplot's global
            # state, which is unsafe in a library and pointless without a display.
            fig = new_figure()
            experiment.plot(outcome, fig)
            experiment.plot_readings(outcome, fig)
            fit_titles(fig)
            png = save(fig, out_dir, experiment.id)
    except Exception as error:  # noqa: BLE001 - the numbers are still worth reporting
        outcome.claims.append(Claim("figure is drawn", False, _describe(error)))
        return None
    return png


def _report(
    experiment: Experiment,
    outcome: Outcome,
    figure: Path | None,
    quick: bool,
    wall_s: float,
    inputs: _Inputs,
    made: Mapping[str, Any],
) -> dict[str, Any]:
    from tcpsim.repro.reference import setup_text

    ns2, ns2_numbers = _ns2(experiment, outcome)
    ok = (
        all(c.ok for c in outcome.claims)
        and all(n.matched for n in outcome.numbers)
        and all(m.matched for m in outcome.model_checks)
    )
    # ns-2 ran the main reading's set-up: its values stand beside the main reading's numbers only.
    readings = [{**r.to_dict(), "numbers": [_with_ns2(n, {}) for n in r.numbers]} for r in outcome.readings]
    report = jsonable(
        {
            "id": experiment.id,
            "title": experiment.title,
            "paper": experiment.paper,
            "kind": experiment.kind,
            "quick": quick,
            # The main reading's verdict alone: alternative readings never change it.
            "ok": ok,
            "status": _verdict(ok),
            # Every run, the analysis and the figure succeeded (claims may still fail: that is a
            # result, not a breakdown).
            "completed": figure is not None,
            "main_reading": outcome.main_reading,
            "series": [s.to_dict() for s in outcome.series],
            "claims": [c.to_dict() for c in outcome.claims],
            "numbers": [_with_ns2(n, ns2_numbers) for n in outcome.numbers],
            "model_checks": [m.to_dict() for m in outcome.model_checks],
            "readings": readings,
            "notes": list(outcome.notes),
            "miss_cause": None if ok else _miss_cause(experiment, ns2),
            "quick_undecided": experiment.quick_undecided if quick else None,
            "ns2": ns2,
            "figure": str(figure) if figure else None,
            "wall_s": wall_s,
            "setup": setup_text(experiment),
            "seeds": inputs.seeds,
            "runs": len(inputs.results) + len(inputs.failed_runs),
            "provenance": made,
        }
    )
    return report


def _ns2(experiment: Experiment, outcome: Outcome) -> tuple[dict[str, Any] | None, dict[str, Any]]:
    """The experiment's ns-2 reference (``tcpsim.repro.ns2_reference``) as the report carries it,
    with the names of its numbers that match none of the main reading's ("other ns-2 values"), and
    its numbers by name; (None, {}) without one. A file that cannot be read fails a claim of the
    main reading, naming the file."""
    from tcpsim.repro import ns2_reference

    try:
        reference = ns2_reference.load(experiment.id)
    except ns2_reference.Ns2ReferenceError as error:
        outcome.claims.append(Claim("the ns-2 reference data is readable", False, str(error)))
        return None, {}
    if reference is None:
        return None, {}
    names = {n.name for n in outcome.numbers}
    data = reference.to_dict()
    data["unmatched"] = [n["name"] for n in data["numbers"] if n["name"] not in names]
    return data, {n["name"]: {**n, "tool": reference.tool} for n in data["numbers"]}


def _with_ns2(number: Number, ns2_numbers: Mapping[str, Any]) -> dict[str, Any]:
    """The number's dict with ``ns2`` and ``ns2_ci`` (None when ns-2 has no value of that name)."""
    found = ns2_numbers.get(number.name)
    return {
        **number.to_dict(),
        "ns2": found["value"] if found else None,
        "ns2_ci": found["ci"] if found else None,
        "ns2_tool": found.get("tool") if found else None,
    }


def _miss_cause(experiment: Experiment, ns2: Mapping[str, Any] | None) -> dict[str, str]:
    """The declared cause of a miss (class ``UNDECLARED`` without one), its evidence followed by
    what ns-2 gives for the same set-up when the experiment has an ns-2 reference."""
    cause = experiment.miss_cause
    if cause is None:
        out = {"class": UNDECLARED, "evidence": f"{experiment.id} declares no miss_cause"}
    else:
        out = cause.to_dict()
    if ns2 is not None:
        values = "; ".join(f"{n['name']} = {n['value']:.4g}" for n in ns2["numbers"] if n["value"] is not None)
        tool = ns2.get("tool", "ns-2")
        out["evidence"] += f" {tool} ({ns2['ns2']}, {ns2['replications']} replications): {values or 'no values'}."
    return out


class _Analyst:
    """Finishes experiments (analysis, figure, report) one at a time in the order they are
    handed over, on a thread of its own, so that the runs' completions, and the progress lines,
    go on while an experiment is analyzed and drawn. The thread starts only when ``start`` is
    called, once the worker processes exist: forking while it holds a lock could hang a worker."""

    def __init__(self, finish: Callable[[Experiment], None]):
        self.finish = finish
        self.queue: SimpleQueue[Experiment | None] = SimpleQueue()
        self.thread: threading.Thread | None = None
        self.error: BaseException | None = None

    def submit(self, experiment: Experiment) -> None:
        self.queue.put(experiment)

    def start(self) -> None:
        if self.thread is None:
            # A daemon: Ctrl-C must not wait for an analysis in progress.
            self.thread = threading.Thread(target=self._work, name="tcpsim-analysis", daemon=True)
            self.thread.start()

    def _work(self) -> None:
        while (experiment := self.queue.get()) is not None:
            if self.error is None:
                try:
                    self.finish(experiment)
                except BaseException as error:  # noqa: BLE001 - re-raised by join, in the caller's thread
                    self.error = error

    def join(self) -> None:
        """Wait for every experiment handed over; raise what finishing one raised."""
        self.start()
        self.queue.put(None)
        self.thread.join()
        if self.error is not None:
            raise self.error


def execute(
    experiments: Iterable[Experiment],
    quick: bool = False,
    seeds: int | None = None,
    jobs: int | None = None,
    out_dir: str | Path = "results",
    progress: bool = True,
    cache_dir: str | Path | None = None,
    on_report: Callable[[dict[str, Any]], None] | None = None,
    dask_address: str | None = None,
) -> list[dict[str, Any]]:
    """Run, analyze and draw the experiments; write ``<id>.png``, ``<id>.svg``, ``<id>.pdf``,
    ``<id>.json``, ``summary.json`` and ``summary.md`` to ``out_dir``; return one report dict per
    experiment.

    An experiment is analyzed, drawn and written as soon as its own runs are done, while the
    others' still run, and ``on_report`` is then called with its report (the CLI prints it),
    from a thread of its own (``_Analyst``). ``dask_address`` runs the simulations on a Dask
    cluster instead of local processes (analysis and figures stay in this process).
    ``wall_s`` of a report is the simulation time of its runs (as recorded when each was first
    computed, so cached runs count too) plus its analysis and plotting time.
    """
    from tcpsim.extras import require

    require("pyarrow", "scipy", "matplotlib", purpose="a reproduction (its result store, statistics and figures)")
    from tcpsim.report.provenance import provenance

    experiments = list({e.id: e for e in experiments}.values())
    by_id = {e.id: e for e in experiments}
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    made = provenance()

    inputs = {e.id: _Inputs() for e in experiments}
    specs: list[RunSpec] = []
    for experiment in experiments:
        try:
            planned = _plan(experiment, quick, seeds)
        except Exception as error:  # noqa: BLE001 - reported as this experiment's failure
            inputs[experiment.id].setup_error = _describe(error)
            continue
        inputs[experiment.id].seeds = sorted({spec.seed for spec in planned})
        inputs[experiment.id].planned = [spec.key for spec in planned]
        inputs[experiment.id].waiting = len(planned)
        specs += [replace(spec, key=(experiment.id, spec.key)) for spec in planned]

    reports: dict[str, dict[str, Any]] = {}

    def finish(experiment: Experiment) -> None:
        start = time.perf_counter()
        own = inputs[experiment.id]
        outcome, drawable = _analyze(experiment, own, quick)
        figure = _draw(experiment, outcome, out) if drawable else None
        sim_wall_s = sum(float(r.meta.get("wall_s", 0.0)) for r in own.results.values())
        report = _report(experiment, outcome, figure, quick, sim_wall_s + time.perf_counter() - start, own, made)
        write_text(out / f"{experiment.id}.json", json.dumps(report, indent=2, allow_nan=False) + "\n")
        log.info("%s: %s, analyzed and drawn in %.2f s", experiment.id, report["status"], time.perf_counter() - start)
        reports[experiment.id] = report
        if on_report is not None:
            on_report(report)

    analyst = _Analyst(finish)

    def run_done(key: tuple[str, Any], result: RunResult | None, error: str | None) -> None:
        analyst.start()  # the worker processes exist by now
        exp_id, run_key = key
        own = inputs[exp_id]
        if error is None:
            own.results[run_key] = result
        else:
            own.failed_runs[run_key] = error
        own.waiting -= 1
        if own.waiting == 0:
            analyst.submit(by_id[exp_id])

    for experiment in experiments:
        if inputs[experiment.id].waiting == 0:  # analytical, or its set-up failed
            analyst.submit(experiment)
    try:
        run_many(
            specs,
            jobs=jobs,
            cache_dir=cache_dir,
            progress=progress,
            progress_label=lambda spec: spec.key[0],
            on_done=run_done,
            dask_address=dask_address,
        )
    except RunFailed:
        pass  # each failed run has reached its experiment (run_done) and fails its report
    analyst.join()

    ordered = [reports[e.id] for e in experiments]
    write_text(out / "summary.json", json.dumps(ordered, indent=2, allow_nan=False) + "\n")
    write_text(out / "summary.md", summary_markdown(ordered))
    return ordered


def _ns2_cell(number: Mapping[str, Any]) -> str:
    """The peer simulator's value of a number, with its CI when given and the tool's name when it
    is not ns-2; "–" without one."""
    value = number.get("ns2")
    if value is None:
        return "–"
    ci = number.get("ns2_ci")
    tool = number.get("ns2_tool")
    return (
        cell(value)
        + (f" [{cell(ci[0])}, {cell(ci[1])}]" if ci else "")
        + (f" ({cell(tool)})" if tool and tool != "ns-2" else "")
    )


def summary_markdown(reports: Sequence[Mapping[str, Any]]) -> str:
    """The headline and the status table per paper (paper figures reproduced by simulation first,
    model-only figures and self-checks apart), the misses with their causes, one row per reading
    per experiment, every claim and number (main reading first, then each alternative reading;
    ns-2's value beside the paper's where there is an ns-2 reference), the ns-2 set-ups, then
    the notes."""
    lines = [
        "# tcpsim repro summary",
        "",
        status_table(reports),
        "",
        *[
            f"- **{r['id']}**: quick mode cannot decide it: {cell(r['quick_undecided'])}"
            for r in reports
            if r.get("quick_undecided")
        ],
        "",
        "## Misses and their causes",
        "",
        misses_table(reports),
        "",
        "## Readings",
        "",
        readings_table(reports),
        "",
        "## Claims and numbers",
        "",
        "| experiment | reading | kind | item | paper | ns-2/ns-3 | measured | rel. error | status | detail |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for report in reports:
        groups = [("main", report)] + [(r["name"], r) for r in report["readings"]]
        for reading, group in groups:
            for c in group["claims"]:
                status = "holds" if c["ok"] else "FAILED"
                lines.append(
                    f"| {report['id']} | {cell(reading)} | claim | {cell(c['text'])} |  |  |  |  | {status} | {cell(c['detail'])} |"
                )
            checks = [("number", n) for n in group["numbers"]]
            checks += [("model check", m) for m in group.get("model_checks", [])]
            for kind, n in checks:
                error = "" if n["rel_error"] is None else f"{n['rel_error']:+.1%}"
                detail = "; ".join(cell(t) for t in (n["precision"], n["explanation"]) if t)
                lines.append(
                    f"| {report['id']} | {cell(reading)} | {kind} | {cell(n['name'])} | {cell(paper_value(n))} "
                    f"| {_ns2_cell(n)} | {cell(n['measured'])} | {error} | {n['status']} | {detail} |"
                )
    referenced = [r for r in reports if r.get("ns2")]
    if referenced:
        lines += ["", "## ns-2 / ns-3 reference runs", ""]
        for report in referenced:
            ns2 = report["ns2"]
            tool = ns2.get("tool", "ns-2")
            lines.append(
                f"- **{report['id']}** ({cell(ns2['ns2'])}, {ns2['replications']} replications; `{cell(ns2['command'])}`): "
                f"{cell(ns2['setup'])}"
            )
            lines += [f"  - observation: {cell(o)}" for o in ns2["observations"]]
            others = [n for n in ns2["numbers"] if n["name"] in ns2.get("unmatched", [])]
            lines += [
                f"  - other {tool} value: {cell(n['name'])} = {_ns2_cell({'ns2': n['value'], 'ns2_ci': n['ci']})}"
                for n in others
            ]
    noted = [(r["id"], note) for r in reports for note in r["notes"]]
    noted += [(f"{r['id']} [{g['name']}]", note) for r in reports for g in r["readings"] for note in g["notes"]]
    hypotheses = [(f"{r['id']} [{g['name']}]", g["hypothesis"]) for r in reports for g in r["readings"]]
    if hypotheses:
        lines += ["", "## Alternative readings", ""]
        lines += [f"- **{where}**: {cell(text)}" for where, text in hypotheses]
    if noted:
        lines += ["", "## Notes", ""]
        lines += [f"- **{where}**: {cell(note)}" for where, note in noted]
    return "\n".join(lines) + "\n"
