"""Sweeps as data: a scenario run over a parameter grid × seeds, returned as tidy tables.

``definition`` (what runs: grid, seeds, fixed overrides; the TOML sweep file), ``execute`` (the
sweep itself, its warnings and failures), ``tables`` (one row per run × flow / link / run, with
``quantities``' SI columns), ``gridview`` (the xarray view), ``resolve`` (a scenario with its
overrides applied, as data and TOML), ``outdir`` and ``provenance`` (the ``--out`` folder).
"""

from tcpsim.sweeps.definition import SweepDefinition, SweepDefinitionError, read_sweep_file
from tcpsim.sweeps.execute import SweepFailed, SweepWarning, sweep
from tcpsim.sweeps.result import SweepResult

__all__ = [
    "SweepDefinition",
    "SweepDefinitionError",
    "SweepFailed",
    "SweepResult",
    "SweepWarning",
    "read_sweep_file",
    "sweep",
]
