"""Options and arguments that several commands share (typer ``Annotated`` types), and the
checks of their values when the command line is read."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

FileArg = Annotated[
    Path, typer.Argument(metavar="FILE", help="Scenario file (e.g. scenarios/*.toml).", show_default=False)
]
SetOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--set",
        metavar="PATH=VALUE",
        help=(
            "Override one scenario value, e.g. --set 'links[0].rate=5Mbps', "
            "--set 'links[bottleneck].rate=5Mbps' (the item of that name) or "
            "--set 'flows[*].variant=reno'. VALUE is read as TOML when it parses (numbers, "
            "true/false, arrays, quoted strings), else as text (10Mbps, 20ms). Repeatable."
        ),
        show_default=False,
    ),
]


JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON document on stdout instead of tables.")]
ForceOpt = Annotated[
    bool,
    typer.Option(
        "--force",
        help="Run even if the estimated cost (events, trace rows, memory) exceeds the scenario's [limits].",
    ),
]


def dask_address(text: str | None) -> str | None:
    """--dask checked when the command line is read (see `runner.check_dask_address`)."""
    if text is None:
        return None
    from tcpsim.runner import check_dask_address

    return check_dask_address(text)


DaskOpt = Annotated[
    str | None,
    typer.Option(
        metavar="ADDRESS",
        help="Run on a Dask cluster (scheduler address, e.g. tcp://host:8786) instead of local processes.",
        show_default=False,
    ),
]
JobsOpt = Annotated[
    int | None,
    typer.Option("--jobs", "-j", min=1, metavar="N", help="Parallel worker processes.", show_default="number of CPUs"),
]
StoreOpt = Annotated[
    str | None,
    typer.Option(
        "--store",
        metavar="DIR",
        help="Result store: finished runs are kept there and never recomputed (see 'tcpsim store').",
        show_default="$TCPSIM_STORE, else the per-user cache directory",
    ),
]

KeyStoreOpt = Annotated[
    str | None,
    typer.Option(
        "--store",
        metavar="DIR",
        help="The store a key is looked up in.",
        show_default="$TCPSIM_STORE, else the per-user cache directory",
    ),
]
"""For commands that read one stored run by its key (`plot`, `report`)."""


QuietOpt = Annotated[
    bool,
    typer.Option("--quiet", "-q", help="No progress on stderr, only the final summary on stdout; errors still show."),
]
VerboseOpt = Annotated[
    bool, typer.Option("--verbose", "-v", help="Log diagnostics (runs cached and simulated, timings) on stderr.")
]


PLOT_SUFFIXES = (".png", ".svg", ".pdf")
"""The figure files `plot --out` and `model moller --plot` write."""
