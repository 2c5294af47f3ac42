"""Running a sweep: every grid point × seed through the runner, then the tidy tables."""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tcpsim import runner
from tcpsim.sweeps.definition import SweepDefinition, merged, read_sweep_file
from tcpsim.sweeps.randomness import random_components
from tcpsim.sweeps.result import SweepResult
from tcpsim.sweeps.tables import labelled, parameter_frame, run_table
from tcpsim.tidy import RunKey

if TYPE_CHECKING:
    import os

    from tcpsim.result import RunResult
    from tcpsim.sweeps.resolve import Source

MAX_LISTED_RUNS = 3
"""Runs named per distinct error in a failure message; the others are counted."""
FLOW_COLUMNS = ["id", "name", "variant", "class", "src", "dst", "goodput_bps"]
LINK_COLUMNS = ["name", "direction", "src", "dst", "rate_bps", "utilization", "drops_queue", "queue_mean_pkts"]
"""Columns of an empty flows or links table (every run failed), so code reading it still works."""


class SweepWarning(UserWarning):
    """A sweep that runs but whose results may not mean what they seem, such as replications
    over seeds that cannot change anything."""


class SweepFailed(runner.RunFailed):
    """Some runs of a sweep raised. ``result`` holds the tables of the others (and the failed
    runs, with their errors, in ``result.runs``); ``failures`` and ``results`` are keyed by
    ``RunKey(point=..., seed=...)`` (:mod:`tcpsim.tidy`), as :class:`~tcpsim.runner.RunFailed`'s."""

    def __init__(self, failures: dict[RunKey, str], results: dict[RunKey, RunResult], result: SweepResult):
        super().__init__(failures, results)
        self.result = result
        self.args = (_failure_message(result),)


def sweep(
    scenario: Source,
    grid: Mapping[str, Sequence[Any]] | None = None,
    seeds: int | Iterable[int] | None = None,
    overrides: Mapping[str, Any] | None = None,
    sweep_file: str | os.PathLike[str] | None = None,
    jobs: int | None = None,
    cache_dir: str | os.PathLike[str] | None = None,
    progress: bool = True,
    dask_address: str | None = None,
    force: bool = False,
) -> SweepResult:
    """Run ``scenario`` at every point of ``grid`` (dotted path → values; the Cartesian product)
    × every seed, and return the tidy tables (:class:`SweepResult`: ``.flows``, ``.links``,
    ``.runs``, ``.to_xarray()``, ``.save(dir)``).

    ``seeds`` is a count (seeds 1..n) or explicit seeds; ``overrides`` (path → value) apply to
    every run; ``sweep_file`` is a TOML sweep definition (:mod:`tcpsim.sweeps.definition`), which
    ``grid``, ``seeds`` and ``overrides`` take precedence over, path by path. Runs are cached
    and never recomputed; ``jobs``, ``dask_address`` and ``force`` are as in
    :func:`tcpsim.runner.run_many`. Replicating a scenario in which nothing is random warns
    (:class:`SweepWarning`). If runs fail, the others still finish and :class:`SweepFailed`
    (carrying their tables in ``.result``) is raised.
    """
    definition = merged(read_sweep_file(sweep_file) if sweep_file is not None else None, grid, seeds, overrides)
    points = definition.combinations()
    if len(definition.seeds) > 1:
        _warn_if_seeds_cannot_matter(scenario, definition, points)
    specs = [
        runner.RunSpec(
            key=RunKey(point=index, seed=seed),
            scenario=scenario,
            seed=seed,
            overrides=definition.overrides(point),
            force=force,
        )
        for index, point in enumerate(points)
        for seed in definition.seeds
    ]
    failures: dict[RunKey, str] = {}
    try:
        results = runner.run_many(specs, jobs=jobs, cache_dir=cache_dir, progress=progress, dask_address=dask_address)
    except runner.RunFailed as failed:
        results, failures = failed.results, failed.failures
    result = _tables(scenario, definition, [spec.key for spec in specs], results, failures)
    if failures:
        raise SweepFailed(failures, results, result)
    return result


def _tables(
    scenario: Source,
    definition: SweepDefinition,
    keys: list[RunKey],
    results: Mapping[RunKey, RunResult],
    failures: Mapping[RunKey, str],
) -> SweepResult:
    parameters = parameter_frame(definition)
    finished = [key for key in keys if key in results]
    flows = labelled(parameters, [(key, results[key].flows, results[key].meta) for key in finished], FLOW_COLUMNS)
    links = labelled(parameters, [(key, results[key].links, results[key].meta) for key in finished], LINK_COLUMNS)
    runs = run_table(parameters, keys, results, failures)
    source = scenario if isinstance(scenario, Mapping) else Path(scenario)
    return SweepResult(scenario=source, definition=definition, flows=flows, links=links, runs=runs)


def _warn_if_seeds_cannot_matter(scenario: Source, definition: SweepDefinition, points: list[dict[str, Any]]) -> None:
    """Warn when some grid points have no random component: their seeds repeat one result."""
    from tcpsim.scenario import ScenarioError, load_scenario

    fixed = []
    for point in points:
        try:
            loaded = load_scenario(scenario, dict(definition.overrides(point)))
        except ScenarioError:
            return  # the runs report it, with every problem
        if not random_components(loaded.to_engine()):
            fixed.append(point)
    if not fixed:
        return
    seeds = len(definition.seeds)
    what = (
        "the scenario has no random component"
        if len(fixed) == len(points)
        else f"{len(fixed)} of {len(points)} grid points ({_point_text(fixed[0])}{', …' if len(fixed) > 1 else ''}) "
        "have no random component"
    )
    warnings.warn(
        f"{what} (random loss, a RED or RD queue, start_jitter, web traffic), so its {seeds} seeds give "
        "identical results and zero-width confidence intervals; use one seed, or add randomness",
        SweepWarning,
        stacklevel=3,
    )


def _point_text(point: Mapping[str, Any]) -> str:
    return ", ".join(f"{path}={value}" for path, value in point.items()) or "no parameters"


def _failure_message(result: SweepResult) -> str:
    """How many runs failed and why: each distinct error once, after the first runs it hit (an
    error may take several lines)."""
    failed = result.failed
    lines = [f"{len(failed)} of {len(result.runs)} runs failed:"]
    axes = list(result.definition.grid)
    for error, group in failed.groupby("error", sort=False):
        runs = [
            f"{_point_text({p: row[p] for p in axes})} seed {row['seed']}".removeprefix("no parameters ")
            for row in group.head(MAX_LISTED_RUNS).to_dict("records")
        ]
        more = f" and {len(group) - MAX_LISTED_RUNS} more" if len(group) > MAX_LISTED_RUNS else ""
        lines.append(f"  {len(group)} run{'s' if len(group) > 1 else ''} ({'; '.join(runs)}{more}): {error}")
    return "\n".join(lines)
