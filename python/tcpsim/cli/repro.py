"""``tcpsim repro``: reproduce the papers' experiments, print each one's claims and numbers as
its runs finish, write figures, summaries and (--update-readme) the README's status table."""

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from tcpsim.cli.command import TcpsimCommand
from tcpsim.cli.errors import EXIT_MISMATCH, CliError, reports_errors
from tcpsim.cli.options import DaskOpt, JobsOpt, JsonOpt, QuietOpt, StoreOpt, VerboseOpt, dask_address
from tcpsim.cli.output import print_json, rich_table, stdout_console
from tcpsim.cli.root import app

if TYPE_CHECKING:
    from rich.console import Console
    from rich.text import Text


@app.command(cls=TcpsimCommand)
@reports_errors
def repro(
    ids: Annotated[
        list[str],
        typer.Argument(
            metavar="ID",
            help="Experiment ids (moller.fig5), papers (moller, casetti, ...), globs ('casetti.fig1*') or 'all'.",
            show_default=False,
        ),
    ],
    quick: Annotated[
        bool,
        typer.Option(
            "--quick",
            help="Fewer seeds (and shorter runs where the experiment allows): a smoke test, not a reproduction.",
        ),
    ] = False,
    seeds: Annotated[
        int | None,
        typer.Option(min=1, metavar="N", help="Replications per point.", show_default="the experiment's own"),
    ] = None,
    jobs: JobsOpt = None,
    out: Annotated[
        str,
        typer.Option(
            metavar="DIR",
            help="Directory for figures (PNG, SVG, PDF), per-experiment JSON, summary.json and summary.md; the experiments' previous files there are replaced.",
        ),
    ] = "results",
    strict: Annotated[
        bool,
        typer.Option(
            "--strict", help="Exit 1 unless every claim of every main reading holds and every number matches."
        ),
    ] = False,
    status: Annotated[
        bool,
        typer.Option("--status", help="Print only the per-paper status table (markdown), as the README includes it."),
    ] = False,
    update_readme: Annotated[
        Path | None,
        typer.Option(
            metavar="FILE",
            help="Rewrite the status table of FILE between its '<!-- status:quick:begin/end -->' markers (with --quick; 'status:full' without).",
            show_default=False,
        ),
    ] = None,
    json_: JsonOpt = False,
    store: StoreOpt = None,
    html_report: Annotated[
        bool,
        typer.Option("--report", help="Also write the HTML report of DIR into DIR/report/ (see 'tcpsim report')."),
    ] = False,
    quiet: QuietOpt = False,
    verbose: VerboseOpt = False,
    dask: DaskOpt = None,
) -> None:
    """Reproduce figures and tables of the papers and check their claims and numbers.

    Each experiment's table is printed as soon as its own runs are done; progress goes to
    stderr. Exit status 0 when every experiment ran and was judged (a claim that does not hold
    is a result, reported in the tables, the JSON and summary.md); 1 if a run, an analysis or a
    figure failed, or, with --strict, if any claim or number does not match; 2 for an unknown
    id. Finished runs are kept in the result store (--store), so an interrupted or repeated
    reproduction does not recompute them.
    """
    from tcpsim.outpaths import output_dir
    from tcpsim.repro import execute, select
    from tcpsim.repro.status import replace_status_block, status_table, totals_line

    quiet = _output_options(quiet, verbose)
    out_dir = output_dir(out, "--out")
    if update_readme is not None:
        _read_readme(update_readme, quick)  # its mistakes before any run
    experiments = select(ids)
    console = stdout_console()
    tables = not (json_ or status or quiet)
    reports = execute(
        experiments,
        quick=quick,
        seeds=seeds,
        jobs=jobs,
        out_dir=out_dir,
        progress=True,
        cache_dir=store,
        on_report=(lambda r: _print_report(console, r)) if tables else None,
        dask_address=dask_address(dask),
    )
    if update_readme is not None:
        from tcpsim.outpaths import write_text

        # Read again: a full run takes half an hour, and edits made meanwhile must survive.
        readme_text = _read_readme(update_readme, quick)
        write_text(
            update_readme, replace_status_block(readme_text, "quick" if quick else "full", status_table(reports))
        )
    index = None
    if html_report:
        from tcpsim.report import write_report

        index = write_report(out_dir, out_dir / "report")
    if json_:
        print_json(reports)
    elif status:
        typer.echo(status_table(reports))
    else:
        console.print(f"{totals_line(reports)} Figures and summary in {out_dir}/")
        if index is not None:
            console.print(f"HTML report: {index}")
    if not all(r["completed"] and (r["ok"] or not strict) for r in reports):
        raise typer.Exit(EXIT_MISMATCH)


def _read_readme(path: Path, quick: bool) -> str:
    """The README whose status block ``repro --update-readme`` rewrites: read before any run to
    check it, and again after the runs to rewrite it."""
    from tcpsim.repro.status import status_block

    mode = "quick" if quick else "full"
    try:
        text = path.read_text()
    except OSError as error:
        raise CliError(f"{path}: cannot read ({error.strerror})") from error
    if status_block(text, mode) is None:
        raise CliError(f"{path}: no '<!-- status:{mode}:begin -->' … '<!-- status:{mode}:end -->' block to rewrite")
    return text


def _output_options(quiet: bool, verbose: bool) -> bool:
    """Apply a command's own --quiet/--verbose on top of those given before the command name;
    return whether the command is quiet."""
    from tcpsim import progress

    progress.configure(quiet=quiet or progress.is_quiet(), verbose=verbose or progress.is_verbose())
    return progress.is_quiet()


def _mark(ok: bool) -> "Text":
    from rich.text import Text

    return Text("✓", style="green") if ok else Text("✗", style="red")


def _paper_bound(number: dict[str, Any]) -> str:
    prefix = {"upper": "< ", "lower": "> "}.get(number["kind"], "")
    if number["kind"] == "range":
        return f"[{_sig(number['paper'])}, {_sig(number['paper_high'])}]"
    return prefix + _sig(number["paper"])


def _report_rows(group: dict[str, Any], reading: str) -> list[tuple[Any, ...]]:
    """Table rows of one reading of a report: its claims, numbers and model checks."""
    rows = [(_mark(c["ok"]), reading, "claim", c["text"], "", "", c["detail"]) for c in group["claims"]]
    checks = [("number", n) for n in group["numbers"]] + [("model check", m) for m in group.get("model_checks", [])]
    for kind, n in checks:
        error = "" if n["rel_error"] is None or n["kind"] != "point" else f" ({n['rel_error']:+.1%})"
        gap = (
            ""
            if n["status"] == "matched"
            else "missed: " + (f"outside ±{n['tolerance']:.0%}" if n["kind"] == "point" else "bound not met")
        )
        detail = "; ".join(t for t in (gap, n["precision"], n["explanation"]) if t)
        rows.append(
            (
                _mark(n["status"] == "matched"),
                reading,
                kind,
                n["name"],
                _paper_bound(n),
                _sig(n["measured"]) + error,
                detail,
            )
        )
    return rows


def _print_report(console: "Console", report: dict[str, Any]) -> None:
    """The main reading's claims and numbers, then each alternative reading's, in one table."""
    rows = _report_rows(report, "main")
    for reading in report["readings"]:
        rows += _report_rows(reading, reading["name"])
    title = _mark(report["ok"]) + f" {report['id']}: {report['title']} (main reading: {report['main_reading']})"
    console.print(rich_table(title, ["", "reading", "kind", "item", "paper", "measured", "detail"], rows))
    for reading in report["readings"]:
        console.print(f"  reading {reading['name']} ({reading['status']}): {reading['hypothesis']}")
    for note in report["notes"]:
        console.print(f"  note: {note}")


def _sig(value: Any) -> str:
    """A paper-vs-measured number: four significant digits, blank when missing."""
    return "" if value is None else f"{value:.4g}"
