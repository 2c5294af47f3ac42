"""A parameter sweep declared once: its axes (name, values, quick values), run over the
experiment's seeds, giving ``RunSpec``s with named keys (``tcpsim.tidy.RunKey``).

    SWEEP = Sweep(Axis("flavour", FIVE), Axis("per", PER_FULL, quick=PER_QUICK))
    SWEEP.specs(lambda flavour, per: lossy_link(flavour, per=per), quick, seeds)  # build, quick, seeds

gives one run per (flavour, per, seed), keyed ``RunKey(flavour=..., per=..., seed=...)`` in
that order (the first axis varies slowest, the seed fastest).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from tcpsim.runner import RunSpec
from tcpsim.tidy import RunKey


@dataclass(frozen=True)
class Axis:
    """One swept parameter: its name (the key's and the table's column), its values and, if a
    quick run takes fewer, its quick values. ``key`` maps a value to what the run key holds
    (e.g. a flavour object to its name; default: the value itself)."""

    name: str
    values: Sequence[Any]
    quick: Sequence[Any] | None = None
    key: Callable[[Any], Any] | None = None

    def __post_init__(self) -> None:
        if not self.values:
            raise ValueError(f"sweep axis {self.name!r} has no values")
        if self.quick is not None and not self.quick:
            raise ValueError(f"sweep axis {self.name!r} has an empty quick grid")

    def grid(self, quick: bool) -> list[Any]:
        return list(self.quick if quick and self.quick is not None else self.values)

    def key_of(self, value: Any) -> Any:
        return self.key(value) if self.key is not None else value


class Sweep:
    """The cartesian product of its axes, in the order given, times the seeds."""

    def __init__(self, *axes: Axis) -> None:
        names = [axis.name for axis in axes]
        if len(set(names)) != len(names) or "seed" in names:
            raise ValueError(f"sweep axes {names}: names must be distinct and not 'seed'")
        self.axes = axes

    def points(self, quick: bool) -> list[dict[str, Any]]:
        """Every combination of axis values, as {axis name: value}."""
        grids = [axis.grid(quick) for axis in self.axes]
        return [dict(zip((a.name for a in self.axes), combo)) for combo in itertools.product(*grids)]

    def key(self, point: dict[str, Any], seed: int, /, **extra: Any) -> RunKey:
        """The run key of one point and seed; ``extra`` parameters come first (e.g. a condition)."""
        values = {axis.name: axis.key_of(point[axis.name]) for axis in self.axes}
        return RunKey(**extra, **values, seed=seed)

    def specs(self, build: Callable[..., Any], quick: bool, seeds: Sequence[int], /, **extra: Any) -> list[RunSpec]:
        """One RunSpec per point and seed: the scenario ``build(**point)``, made once per point,
        keyed by the ``extra`` parameters (fixed for the whole sweep), the axes and the seed."""
        specs = []
        for point in self.points(quick):
            built = build(**point)
            specs += [RunSpec(key=self.key(point, seed, **extra), scenario=built, seed=seed) for seed in seeds]
        return specs
