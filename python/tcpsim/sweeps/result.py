"""What `tcpsim.sweep` returns: the tidy tables, the sweep that made them, and views of them."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from tcpsim.sweeps.definition import SweepDefinition

if TYPE_CHECKING:
    import pandas as pd
    import xarray

    from tcpsim.sweeps.resolve import Source


@dataclass(frozen=True)
class SweepResult:
    """A finished sweep.

    ``flows``: one row per run × flow; ``links``: one row per run × link direction (utilization,
    drops, queue); ``runs``: one row per run (status, error, wall time, events). Each starts with
    the parameter columns (as written, then in SI units) and ``seed`` and ends with ``point``,
    ``scenario_hash`` and ``tcpsim_version`` (see :mod:`tcpsim.sweeps.tables`).
    """

    scenario: Source
    definition: SweepDefinition
    flows: pd.DataFrame
    links: pd.DataFrame
    runs: pd.DataFrame

    @property
    def failed(self) -> pd.DataFrame:
        """The runs that raised, with their error."""
        return self.runs[self.runs["status"] == "failed"]

    def to_xarray(self, table: str = "flows") -> xarray.Dataset:
        """The ``flows`` (or ``links``) table as an xarray Dataset with one dimension per grid
        axis, seed and flow (link and direction); needs the ``xarray`` extra."""
        from tcpsim.sweeps.gridview import ENTITIES, to_dataset

        if table not in ENTITIES:
            raise ValueError(f"table: {table!r} is not one of {', '.join(ENTITIES)}")
        return to_dataset(getattr(self, table), self.definition, table)

    def save(self, directory: str | Path, command_line: list[str] | None = None) -> Path:
        """Write the tables, every run's scenario (TOML) and provenance into ``directory``
        (layout: :mod:`tcpsim.sweeps.outdir`)."""
        from tcpsim.sweeps.outdir import save_sweep

        return save_sweep(self, directory, command_line)

    def __repr__(self) -> str:
        grid = ", ".join(f"{path} ({len(values)})" for path, values in self.definition.grid.items()) or "no grid"
        return (
            f"<SweepResult {len(self.runs)} runs ({len(self.failed)} failed): {grid} × "
            f"{len(self.definition.seeds)} seeds; {len(self.flows)} flow rows, {len(self.links)} link rows>"
        )
