"""Registry of paper reproductions (``tcpsim repro ID``).

Each paper has a package here (``moller``, ``gangadhar``, ``casetti``, ...) that calls :func:`register`
for each of its experiments. Modules are imported only when the registry is first consulted,
so ``import tcpsim`` and ``tcpsim --help`` stay fast.

A user's own experiments come from installed packages: each entry point of the group
``tcpsim.experiments`` names a "paper" (the entry point's name, e.g. ``mylab``) and the module
that registers its experiments (ids ``mylab.<name>``). They are run, scored, counted in the
status tables and reported exactly like the shipped papers' (docs/your-experiments.md).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from fnmatch import fnmatchcase
from typing import TypeVar

from tcpsim.repro.framework import EXPERIMENT_KINDS, PAPERS, Experiment, MissCause, execute

__all__ = ["Experiment", "UnknownExperiment", "all_experiments", "execute", "register", "select"]

_MODULES = [
    "validation",
    "moller",
    "gangadhar",
    "macura",
    "podlesny",
    "casetti",
    "baselines.cubic",
    "baselines.pie",
    "baselines.dctcp",
    "baselines.codel",
    "baselines.fq_codel",
    "baselines.bbr",
    "baselines.l4s",
]

ENTRY_POINT_GROUP = "tcpsim.experiments"
"""Entry points of installed packages: name = the paper they add, value = the module registering it."""

_registry: dict[str, Experiment] = {}
_loaded = False
_plugin_papers: set[str] = set()
"""Papers added by installed packages (their entry points' names)."""

E = TypeVar("E", Experiment, type[Experiment])


class UnknownExperiment(LookupError):
    """A pattern given to :func:`select` matched no experiment."""


def register(experiment: E) -> E:
    """Add an experiment (an instance, or a class, which is instantiated) to the registry.

    Returns its argument, so it works as a class decorator. Re-registering an id from the same
    class (a module reload) replaces the entry; a clash between two classes is an error.
    """
    instance = experiment() if isinstance(experiment, type) else experiment
    for attribute in ("id", "title", "paper"):
        if not isinstance(getattr(instance, attribute, None), str):
            raise ValueError(f"{type(instance).__name__}: experiment needs a string {attribute!r}")
    if instance.paper not in PAPERS and instance.paper not in _plugin_papers:
        known = ", ".join([*PAPERS, *sorted(_plugin_papers)])
        raise ValueError(
            f"{instance.id}: unknown paper {instance.paper!r}; expected one of {known}, or the name of a "
            f"{ENTRY_POINT_GROUP!r} entry point"
        )
    if not instance.id.startswith(instance.paper + "."):
        raise ValueError(f"{instance.id}: id must start with its paper, '{instance.paper}.'")
    if instance.kind not in EXPERIMENT_KINDS:
        raise ValueError(f"{instance.id}: kind {instance.kind!r} is not one of {', '.join(EXPERIMENT_KINDS)}")
    if instance.kind == "validation" and instance.paper != "validation":
        raise ValueError(f"{instance.id}: kind 'validation' belongs to the validation paper only")
    if instance.miss_cause is not None and not isinstance(instance.miss_cause, MissCause):
        raise ValueError(f"{instance.id}: miss_cause must be a MissCause")
    previous = _registry.get(instance.id)
    if previous is not None and type(previous).__qualname__ != type(instance).__qualname__:
        raise ValueError(f"experiment id {instance.id!r} registered twice")
    _registry[instance.id] = instance
    return experiment


def _load_modules() -> None:
    """Import every paper module once. A module that does not exist yet is skipped; one that
    exists but fails to import raises, because hiding a broken module hides its experiments."""
    global _loaded
    if _loaded:
        return
    for name in _MODULES:
        module = f"{__name__}.{name}"
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as error:
            if error.name != module:
                raise
    _load_plugins()
    _loaded = True


class PluginError(RuntimeError):
    """An installed package's experiments could not be loaded; the message names the package."""


def _load_plugins() -> None:
    """Import each installed package's experiment module (entry point group
    :data:`ENTRY_POINT_GROUP`). Its experiments must belong to the paper the entry point names,
    which may not be one of the shipped papers."""
    from importlib.metadata import entry_points

    for point in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda p: p.name):
        where = f"entry point {point.name!r} = {point.value!r} (group {ENTRY_POINT_GROUP!r})"
        if point.name in PAPERS or not point.name.isidentifier():
            raise PluginError(
                f"{where}: the name is the paper it adds: a Python identifier, not one of {', '.join(PAPERS)}"
            )
        _plugin_papers.add(point.name)
        before = set(_registry)
        try:
            point.load()
        except Exception as error:  # noqa: BLE001 - any failure of a user's module is reported by name
            raise PluginError(f"{where}: importing it failed: {type(error).__name__}: {error}") from error
        strays = [i for i in set(_registry) - before if _registry[i].paper != point.name]
        if strays:
            raise PluginError(f"{where}: registered {', '.join(sorted(strays))}, not of paper {point.name!r}")


def all_experiments() -> list[Experiment]:
    """Every registered experiment, in registration order (paper by paper)."""
    _load_modules()
    return list(_registry.values())


def _matches(pattern: str, experiments: list[Experiment]) -> list[Experiment]:
    if pattern == "all":
        return experiments
    exact = [e for e in experiments if e.id == pattern]
    if exact:
        return exact
    if any(c in pattern for c in "*?["):
        return [e for e in experiments if fnmatchcase(e.id, pattern)]
    return [e for e in experiments if e.paper == pattern or e.id.startswith(pattern + ".")]


def select(patterns: Iterable[str]) -> list[Experiment]:
    """Experiments matching any pattern, without duplicates, in the order the patterns are given.

    A pattern is an exact id (``moller.fig5``), a paper or id prefix (``casetti``), a glob
    (``casetti.fig1*``) or ``all``. A pattern that matches nothing raises
    :class:`UnknownExperiment` naming what is known, so a typo never silently runs nothing.
    """
    experiments = all_experiments()
    chosen: dict[str, Experiment] = {}
    unknown = []
    for pattern in patterns:
        matched = _matches(pattern, experiments)
        if not matched:
            unknown.append(pattern)
        for experiment in matched:
            chosen.setdefault(experiment.id, experiment)
    if unknown:
        names = ", ".join(repr(p) for p in unknown)
        if not experiments:
            raise UnknownExperiment(f"unknown experiment {names}: no experiments are registered yet")
        papers = sorted({e.paper for e in experiments})
        raise UnknownExperiment(
            f"unknown experiment {names}; known papers: {', '.join(papers)}; "
            f"ids: {', '.join(e.id for e in experiments)} (globs like 'casetti.fig*' work too)"
        )
    return list(chosen.values())
