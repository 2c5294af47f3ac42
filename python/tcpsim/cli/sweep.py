"""``tcpsim sweep``: a scenario over a parameter grid × seeds, summarized per flow (mean
goodput and its 95 % CI) or printed as JSON, saved with --out."""

import sys
from pathlib import Path
from typing import Annotated

import typer

from tcpsim.cli.command import TcpsimCommand
from tcpsim.cli.errors import CliError, reports_errors
from tcpsim.cli.options import DaskOpt, FileArg, ForceOpt, JobsOpt, JsonOpt, SetOpt, StoreOpt, dask_address
from tcpsim.cli.output import print_json, rich_table, stdout_console
from tcpsim.cli.parsing import parse_grid, parse_seeds, parse_set
from tcpsim.cli.root import app


@app.command(cls=TcpsimCommand)
@reports_errors
def sweep(
    file: FileArg,
    sweep_file: Annotated[
        Path | None,
        typer.Option(
            "--sweep",
            metavar="SWEEP.toml",
            help="A sweep file: seeds, [set] overrides and [grid] axes (format: docs/sweeps.md). "
            "--seeds, --set and --grid take precedence over it, path by path.",
            show_default=False,
        ),
    ] = None,
    grid: Annotated[
        list[str] | None,
        typer.Option(
            metavar="PATH=V1,V2,...",
            help=(
                "A parameter axis: a scenario path and its values, e.g. --grid 'links[0].rate=1Mbps,2Mbps', "
                "or a TOML array for values containing commas. A value is read as TOML when it parses "
                '(500, true, "x"), else as text (10Mbps). '
                "Repeat for more axes; every combination runs."
            ),
            show_default=False,
        ),
    ] = None,
    set_: SetOpt = None,
    seeds: Annotated[
        str | None,
        typer.Option(
            metavar="N|S1,S2,...",
            help="Replications per combination: a count (seeds 1..N) or a list of seeds.",
            show_default="1",
        ),
    ] = None,
    jobs: JobsOpt = None,
    out: Annotated[
        str | None,
        typer.Option(
            metavar="DIR",
            help="Save flows.csv, links.csv and runs.csv (one row per run × flow / link / run), each run's "
            "scenario as TOML and provenance.json into DIR; `tcpsim run DIR/points/I/scenario.toml --seed N` "
            "(DIR/scenario.toml without --grid) repeats a run.",
            show_default=False,
        ),
    ] = None,
    dask: DaskOpt = None,
    json_: JsonOpt = False,
    force: ForceOpt = False,
    store: StoreOpt = None,
) -> None:
    """Run a scenario over a parameter grid × seeds; one row per (parameters, seed, flow).

    Parameter values written with units get numeric columns in SI units beside them
    (links[1].rate_bps, links[0].delay_s). Finished runs are kept in the result store (--store)
    and never recomputed. A combination beyond the scenario's [limits] fails with its reason
    (unless --force) while the others run; any failed run makes the exit status 1.
    Ctrl-C stops the sweep and its workers (exit 130), keeping finished runs.
    """
    import warnings

    out_dir = None if out is None else _sweep_out_dir(out)
    if out_dir is not None:
        from tcpsim.outpaths import not_replacing_inputs
        from tcpsim.sweeps.outdir import SWEEP_FILES

        not_replacing_inputs(out_dir, SWEEP_FILES, [file, sweep_file], "--out")
    from pandas.api.types import is_scalar as pd_is_scalar

    from tcpsim.result.tables import num
    from tcpsim.stats import summarize
    from tcpsim.sweeps import SweepFailed, SweepWarning, read_sweep_file
    from tcpsim.sweeps import sweep as run_sweep
    from tcpsim.sweeps.definition import SweepDefinitionError, merged

    try:
        definition = merged(
            read_sweep_file(sweep_file) if sweep_file is not None else None,
            parse_grid(grid or ()),
            None if seeds is None else parse_seeds(seeds),
            parse_set(set_ or ()),
        )
    except SweepDefinitionError as error:
        raise CliError(str(error)) from None
    if not json_:
        from tcpsim.extras import require

        require("scipy", purpose="the sweep's summary (confidence intervals)", otherwise="or print the runs: --json")
    with warnings.catch_warnings():
        warnings.simplefilter("always", SweepWarning)
        warnings.showwarning = lambda message, *_: typer.echo(f"warning: {message}", err=True)
        try:
            result = run_sweep(
                file,
                definition.grid,
                definition.seeds,
                definition.fixed,
                jobs=jobs,
                progress=True,
                dask_address=dask_address(dask),
                force=force,
                cache_dir=store,
            )
        except SweepFailed as failed:
            if out_dir is not None:  # keep what finished, and say which runs failed (runs.csv)
                failed.result.save(out_dir, sys.argv)
            raise
    if out_dir is not None:
        result.save(out_dir, sys.argv)
    df = result.flows
    if json_:
        print_json(df.to_dict("records"))
        return
    axes = list(definition.grid)
    # list- or table-valued parameters (`links[1].loss=[...]`) are grouped by their text
    labelled = df.assign(**{p: df[p].map(lambda v: v if pd_is_scalar(v) else str(v)) for p in axes})
    summary = summarize(labelled, [*axes, "name"], "goodput_bps", sort=False, bounds=(0, None))
    columns = [*axes, "flow", "goodput Mb/s", "95% CI", "seeds"]
    rows = (
        (
            *(r[p] for p in axes),
            r["name"],
            num(r["mean"], 1e6),
            f"{num(r['ci_low'], 1e6)} … {num(r['ci_high'], 1e6)}",
            r["n"],
        )
        for r in summary.to_dict("records")
    )
    console = stdout_console()
    console.print(rich_table("goodput per flow (mean over seeds)", columns, rows))
    if out_dir is not None:
        console.print(f"{len(result.runs)} runs ({len(df)} flow rows) saved to {out_dir}/")


def _sweep_out_dir(text: str) -> Path:
    """``--out`` of a sweep: a directory (a name ending in .csv or .parquet is the old meaning)."""
    from tcpsim.outpaths import OutputPathError, output_dir

    if Path(text).suffix.lower() in (".csv", ".parquet"):
        raise OutputPathError(
            f"--out {text}: give a directory; a sweep saves flows.csv, links.csv, runs.csv, "
            "its scenarios and provenance.json into it"
        )
    return output_dir(text, "--out")
