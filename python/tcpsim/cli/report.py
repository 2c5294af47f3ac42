"""``tcpsim report``: the static HTML report of a reproduction's results, a run's or sweep's
folder, or a stored run."""

from pathlib import Path
from typing import Annotated

import typer

from tcpsim.cli.command import TcpsimCommand
from tcpsim.cli.errors import reports_errors
from tcpsim.cli.options import KeyStoreOpt
from tcpsim.cli.root import app


@app.command(cls=TcpsimCommand)
@reports_errors
def report(
    results_dir: Annotated[
        Path,
        typer.Argument(
            metavar="DIR",
            help="The directory 'tcpsim repro --out DIR' wrote (repro's default: results), a run's or "
            "sweep's folder ('tcpsim run --out DIR', 'tcpsim sweep --out DIR'), or a stored run's key "
            "(see 'tcpsim store ls'; its first 4 or more characters).",
            show_default=False,
        ),
    ],
    out: Annotated[
        str | None,
        typer.Option(
            metavar="DIR", help="Where to write the site.", show_default="DIR/report; report-KEY for a stored run"
        ),
    ] = None,
    store: KeyStoreOpt = None,
) -> None:
    """Write a static HTML report of a reproduction, a run or a sweep: DIR/report/index.html.

    A reproduction's results: an index of papers and experiments with their status, claims held
    and numbers matched, and one page per experiment: its figure, claims with evidence, numbers
    (paper vs measured vs tolerance), alternative readings, notes and run metadata (version, git
    commit, seeds, wall time); every experiment report in DIR is included, from however many
    'repro' runs wrote there. A run's or sweep's folder: one page with its figures (a run's time
    series; a sweep's goodput against each parameter, mean and 95 % CI over seeds), result
    tables, provenance (versions, git commit, engine source digest, seeds, command) and
    scenario. Open index.html from disk: no server, nothing fetched from the network.
    """
    from tcpsim.outpaths import output_dir
    from tcpsim.saved import is_key_prefix, is_run_folder, is_sweep_folder, open_folder, open_stored

    if is_run_folder(results_dir) or is_sweep_folder(results_dir):
        from tcpsim.report.folder import write_folder_report

        saved = open_folder(results_dir)
        site_dir = output_dir(out if out is not None else str(results_dir / "report"), "--out")
        typer.echo(f"HTML report: {write_folder_report(saved, str(results_dir), site_dir)}")
        return
    if not results_dir.exists() and is_key_prefix(str(results_dir)):
        from tcpsim.report.folder import write_folder_report

        saved = open_stored(str(results_dir), store)
        site_dir = output_dir(out if out is not None else f"report-{saved.provenance['key'][:16]}", "--out")
        source = f"the result store {saved.provenance['store']}, key {saved.provenance['key']}"
        typer.echo(f"HTML report: {write_folder_report(saved, source, site_dir)}")
        return
    from tcpsim.report import write_report
    from tcpsim.report.load import load_reports

    load_reports(results_dir)  # its mistakes first: the site's directory is made only for a good one
    site_dir = output_dir(out if out is not None else str(results_dir / "report"), "--out")
    typer.echo(f"HTML report: {write_report(results_dir, site_dir)}")
