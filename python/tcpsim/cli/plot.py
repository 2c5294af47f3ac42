"""``tcpsim plot``: a figure of a saved run or sweep (`tcpsim.saved`, drawn by `tcpsim.figures`)."""

from pathlib import Path
from typing import Annotated

import typer

from tcpsim.cli.command import TcpsimCommand
from tcpsim.cli.errors import CliError, reports_errors
from tcpsim.cli.options import PLOT_SUFFIXES, KeyStoreOpt
from tcpsim.cli.root import app


def _split(text: str | None) -> list[str] | None:
    return None if text is None else [part.strip() for part in text.split(",") if part.strip()]


@app.command(cls=TcpsimCommand)
@reports_errors
def plot(
    path: Annotated[
        str,
        typer.Argument(
            metavar="PATH",
            help="A folder 'tcpsim run --out' or 'tcpsim sweep --out' wrote, or a stored run's key "
            "(see 'tcpsim store ls'; its first 4 or more characters).",
            show_default=False,
        ),
    ],
    out: Annotated[
        str | None,
        typer.Option(
            "--out",
            "-o",
            metavar="FILE",
            help="The figure file: .png, .svg or .pdf.",
            show_default="PATH/plot.png; plot-KEY.png for a stored run",
        ),
    ] = None,
    what: Annotated[
        str | None,
        typer.Option(
            metavar="KINDS",
            help="A run's time series to draw, one panel each, comma-separated: cwnd, rtt, queue, throughput, "
            "class_throughput.",
            show_default="every series the run recorded",
        ),
    ] = None,
    x: Annotated[
        str | None,
        typer.Option(
            "--x",
            metavar="PARAM",
            help="A sweep's parameter on the x axis, as its grid names it (links[1].rate) or its SI column "
            "(links[1].rate_bps).",
            show_default="the sweep's only parameter",
        ),
    ] = None,
    y: Annotated[
        str | None,
        typer.Option(
            "--y",
            metavar="METRIC",
            help="A sweep's metric: a column of its flows.csv (goodput, rtt_mean_s, packets_dropped) or of its "
            "links.csv (links.utilization, links.queue_mean, drops_queue), its unit suffix optional.",
            show_default="goodput",
        ),
    ] = None,
    log_x: Annotated[bool, typer.Option("--log-x", help="A sweep's parameter on a log scale.")] = False,
    flow: Annotated[
        list[str] | None,
        typer.Option(
            metavar="NAME",
            help="Only this flow (repeatable): a sweep's lines, a run's per-flow panels (cwnd, rtt, throughput).",
            show_default="every flow",
        ),
    ] = None,
    link: Annotated[
        list[str] | None,
        typer.Option(
            metavar="NAME",
            help="Only this link, both directions (repeatable): a sweep's lines of a link metric.",
            show_default="every link direction, up to 8",
        ),
    ] = None,
    store: KeyStoreOpt = None,
) -> None:
    """Draw a figure of a run, a sweep or a stored run, in tcpsim's publication style.

    A run: one panel per recorded time series over time (--what chooses). A sweep: a per-flow
    metric (--y) against one parameter (--x), the mean over seeds with its 95 % confidence
    interval as error bars, one line per value of the other parameters (and per flow). The
    style is tcpsim.STYLE (see docs/plotting.md).
    """
    from tcpsim.figures import run_figure, run_panels, sweep_axis, sweep_figure, sweep_metric
    from tcpsim.outpaths import output_file
    from tcpsim.repro.plotting import save_as, style
    from tcpsim.saved import SavedRun, open_folder, open_stored

    folder = Path(path)
    saved = open_folder(folder) if folder.exists() else open_stored(path, store)
    default = folder / "plot.png" if folder.exists() else Path(f"plot-{path.strip().lower()[:16]}.png")
    target = output_file(out if out is not None else str(default), "--out", PLOT_SUFFIXES)
    with style():
        if isinstance(saved, SavedRun):
            if x is not None or y is not None or log_x or link:
                raise CliError(
                    f"{saved.label} is a run: --x, --y, --log-x and --link are for sweeps; a run takes --what"
                )
            fig = run_figure(saved.result, run_panels(saved.result, _split(what)), saved.title, flow)
        else:
            if what is not None:
                raise CliError(f"{saved.label} is a sweep: --what is for runs; a sweep takes --x, --y and --log-x")
            fig = sweep_figure(saved, sweep_axis(saved, x), sweep_metric(saved, y), flow, log_x, link)
        target.parent.mkdir(parents=True, exist_ok=True)
        save_as(fig, target)
    typer.echo(f"figure: {target}")
