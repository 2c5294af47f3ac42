"""What a sweep runs: fixed overrides (`set`), parameter axes (`grid`) and seeds, from the
command line or a sweep file (TOML).

A sweep file::

    seeds = 5                          # seeds 1..5, or a list: seeds = [1, 7, 42]

    [set]                              # applied to every run, before the grid
    duration = "60s"
    "tcp.mss" = 1000                   # a path with dots or brackets is quoted...

    [grid]                             # every combination of the axes runs, × every seed
    "links[1].rate" = ["1Mbps", "2Mbps", "5Mbps"]
    "links[1].loss[0].p" = [0.001, 0.01]
    tcp.variant = ["reno", "cubic"]    # ...or written as TOML dotted keys (same thing)

Nested tables are read as dotted paths (TOML's own meaning of `tcp.mss = 1000`), so a table
cannot be *replaced* through `[set]`; give such a value as a one-value axis instead:
`"links[1].queue" = [{kind = "red", ...}]`. Command-line options (`--set`, `--grid`, `--seeds`)
take precedence over the file, path by path.
"""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tcpsim.toml_input import TomlInputError, parse_toml

SWEEP_FILE_KEYS = ("seeds", "set", "grid")
MAX_SEED = 2**64 - 1
MAX_RUNS = 1_000_000
"""Most runs (grid points × seeds) one sweep may ask for: checked from the axes' lengths before
any list of points or seeds is built, so `--seeds 1000000000000` is an error, not a MemoryError.
A study larger than this is several sweeps (they share the result store)."""


class SweepDefinitionError(ValueError):
    """A sweep file or sweep option that cannot be used; the message names where and why."""


@dataclass(frozen=True)
class SweepDefinition:
    """Fixed overrides, axes (path → values, in order) and seeds of a sweep."""

    grid: dict[str, list[Any]] = field(default_factory=dict)
    seeds: list[int] = field(default_factory=lambda: [1])
    fixed: dict[str, Any] = field(default_factory=dict)
    """The sweep file's `set` (and `--set`): overrides every run gets."""

    def __post_init__(self) -> None:
        both = sorted(set(self.grid) & set(self.fixed))
        if both:
            raise SweepDefinitionError(f"{', '.join(both)}: both set and a grid axis; give each path one role")
        empty = [path for path, values in self.grid.items() if not values]
        if empty:
            raise SweepDefinitionError(f"grid {empty[0]}: no values; an axis needs at least one")
        if not self.seeds:
            raise SweepDefinitionError("seeds: none given; give a count (3) or a list ([1, 7])")
        if len(set(self.seeds)) != len(self.seeds):
            raise SweepDefinitionError(f"seeds: {self.seeds} repeats a seed; each replication needs its own")
        runs = math.prod(len(values) for values in self.grid.values()) * len(self.seeds)
        if runs > MAX_RUNS:
            shape = " × ".join(f"{len(v)} ({p})" for p, v in self.grid.items())
            raise SweepDefinitionError(
                f"grid × seeds: {shape + ' × ' if shape else ''}{len(self.seeds)} seeds = {runs} runs, more than "
                f"{MAX_RUNS} in one sweep; split it into several (they share the result store)"
            )
        for path, values in self.grid.items():
            # A repeated value would be run and shown once: the grid would not be what was asked.
            seen: set[str] = set()
            for value in values:
                if (text := json.dumps(value, sort_keys=True, default=str)) in seen:
                    raise SweepDefinitionError(f"grid {path}: {value!r} listed twice; give each value once")
                seen.add(text)

    def combinations(self) -> list[dict[str, Any]]:
        """Every point of the grid (path → value), the last axis varying fastest."""
        paths = list(self.grid)
        return [dict(zip(paths, combo)) for combo in itertools.product(*self.grid.values())]

    def overrides(self, point: Mapping[str, Any]) -> tuple[tuple[str, Any], ...]:
        """The overrides of one point: the fixed ones, then the point's axes."""
        return (*self.fixed.items(), *point.items())

    def to_toml_data(self) -> dict[str, Any]:
        """This definition as a sweep file's data (see the module docstring)."""
        from tcpsim.scenario import plain_data

        return plain_data(
            {"seeds": list(self.seeds), "set": dict(self.fixed), "grid": {p: list(v) for p, v in self.grid.items()}}
        )


def seed_list(seeds: int | Iterable[int], where: str = "seeds") -> list[int]:
    """A count n (seeds 1..n) or explicit seeds, each checked to be an engine seed (u64)."""
    if isinstance(seeds, bool):
        raise SweepDefinitionError(f"{where}: {seeds!r} is not a count or a list of seeds")
    if isinstance(seeds, int):
        if seeds < 1:
            raise SweepDefinitionError(f"{where}: {seeds} replications; give a count >= 1")
        if seeds > MAX_RUNS:
            raise SweepDefinitionError(f"{where}: {seeds} replications, more than {MAX_RUNS} runs in one sweep")
        return list(range(1, seeds + 1))
    listed = list(seeds)
    for seed in listed:
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
            raise SweepDefinitionError(f"{where}: {seed!r} is not a seed; seeds are whole numbers from 0 to {MAX_SEED}")
    return listed


def read_sweep_file(path: str | Path) -> SweepDefinition:
    """A sweep file's definition; every mistake is a :class:`SweepDefinitionError` naming the file."""
    try:
        data = parse_toml(Path(path).read_text(encoding="utf-8-sig"))
    except OSError as error:
        raise SweepDefinitionError(f"{path}: cannot read sweep file ({error.strerror})") from None
    except (UnicodeDecodeError, TomlInputError) as error:
        raise SweepDefinitionError(f"{path}: not a valid TOML sweep file: {error}") from None
    unknown = sorted(set(data) - set(SWEEP_FILE_KEYS))
    if unknown:
        raise SweepDefinitionError(f"{path}: unknown key {unknown[0]!r}; a sweep file has {', '.join(SWEEP_FILE_KEYS)}")
    for table in ("set", "grid"):
        if not isinstance(data.get(table, {}), dict):
            raise SweepDefinitionError(f"{path}: {table} must be a table ([{table}])")
    grid = dict(_dotted(data.get("grid", {})))
    for axis, values in grid.items():
        if not isinstance(values, list):
            raise SweepDefinitionError(f"{path}: grid.{axis}: {values!r} is not an array of values, e.g. [1, 2]")
    try:
        return SweepDefinition(
            grid=grid,
            seeds=seed_list(data.get("seeds", 1), f"{path}: seeds"),
            fixed=dict(_dotted(data.get("set", {}))),
        )
    except SweepDefinitionError as error:
        if str(error).startswith(str(path)):
            raise
        raise SweepDefinitionError(f"{path}: {error}") from None


def merged(
    base: SweepDefinition | None,
    grid: Mapping[str, Sequence[Any]] | None = None,
    seeds: int | Iterable[int] | None = None,
    fixed: Mapping[str, Any] | None = None,
) -> SweepDefinition:
    """``base`` (a sweep file's definition, or none) with command-line values taking precedence
    path by path. A path the command line sets moves out of the file's grid, and the reverse."""
    base = base or SweepDefinition()
    grid, fixed = dict(grid or {}), dict(fixed or {})
    file_grid = {p: v for p, v in base.grid.items() if p not in fixed}
    file_set = {p: v for p, v in base.fixed.items() if p not in grid}
    return SweepDefinition(
        grid=file_grid | {p: list(v) for p, v in grid.items()},
        seeds=base.seeds if seeds is None else seed_list(seeds),
        fixed=file_set | fixed,
    )


def _dotted(table: Mapping[str, Any], prefix: str = "") -> Iterator[tuple[str, Any]]:
    """(path, value) of every leaf of nested tables: {"tcp": {"mss": 1}} → ("tcp.mss", 1)."""
    for key, value in table.items():
        path = f"{prefix}{key}"
        if isinstance(value, dict):
            yield from _dotted(value, f"{path}.")
        else:
            yield path, value
