"""The ``tcpsim`` command: run, validate, sweep, repro, report, plot, list, model, bench, store.

Two audiences share every command: people get rich tables and progress on stderr (a bar on a
terminal, plain lines in a pipe or log: ``tcpsim.progress``); scripts pass ``--json`` and get
exactly one JSON document on stdout. Mistakes in the input (bad scenario, bad ``--set``,
unknown id, bad unit, missing file) are reported as ``error: <message>`` lines on stderr with
exit status 2, never as a traceback; a traceback means a bug in tcpsim. Heavy modules (pandas, the compiled core, matplotlib) are imported
inside commands so ``tcpsim --help`` answers at once.
"""

from __future__ import annotations

import enum
import errno
import functools
import json
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, ParamSpec, TypeVar

import typer

from tcpsim.cli_command import TcpsimCommand
from tcpsim.result import tables as result_tables
from tcpsim.result.tables import num as _num

if TYPE_CHECKING:
    import pandas as pd
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text


def _posix_usage_name(argument: typer.core.TyperArgument) -> str:
    """Usage lines name a required argument `FILE` and an optional one `[NAME]`, as POSIX usage
    and click do; typer 0.29 writes `{FILE}`, which reads as a shell brace expansion."""
    name = argument.display_name_raw if argument.required else f"[{argument.display_name_raw}]"
    return name + ("..." if argument.nargs != 1 else "")


if hasattr(typer.core.TyperArgument, "_usage_display_name"):
    typer.core.TyperArgument._usage_display_name = _posix_usage_name  # type: ignore[method-assign]

app = typer.Typer(
    name="tcpsim",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)
model_app = typer.Typer(help="Analytical models, evaluated without simulation.", no_args_is_help=True)
app.add_typer(model_app, name="model")

P = ParamSpec("P")
R = TypeVar("R")

EXIT_MISMATCH = 1
"""A reproduction broke down (a run, analysis or figure failed), or with --strict a claim or
number does not match."""
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130
"""Ctrl-C (SIGINT): the shell's 128 + signal number. Finished runs of a sweep or reproduction
are already stored."""


class CliError(Exception):
    """A mistake in the command line itself (as opposed to one found in a scenario)."""


# ---------------------------------------------------------------------------------------------
# Error reporting


def _user_error_lines(error: Exception) -> list[str] | None:
    """The lines to show for an input error, or None if ``error`` is a bug (let it raise).

    Exception classes are looked up in ``sys.modules`` rather than imported: a module that was
    never imported cannot have raised, and importing it here would defeat lazy loading.
    """
    if isinstance(error, _loaded_class("tcpsim.scenario", "ScenarioError")):
        return str(error).splitlines() or [type(error).__name__]
    user_errors = (
        CliError,
        _loaded_class("tcpsim.repro", "UnknownExperiment"),
        _loaded_class("tcpsim.runner", "DaskUnavailable"),
        _loaded_class("tcpsim.outpaths", "OutputPathError"),
        _loaded_class("tcpsim.api", "SimulationError"),
        _loaded_class("tcpsim.report.load", "ReportError"),
        _loaded_class("tcpsim.repro", "PluginError"),
        _loaded_class("tcpsim.store.query", "QueryError"),
        _loaded_class("tcpsim.saved", "SavedError"),
        _loaded_class("tcpsim.figures", "FigureError"),
    )
    if isinstance(error, user_errors):
        return [str(error)]
    from tcpsim.extras import missing_extra_message

    if (missing := missing_extra_message(error)) is not None:
        return [missing]
    if isinstance(error, OSError) and error.errno in _FILE_SYSTEM_ERRNOS:
        where = f"{error.filename}: " if error.filename is not None else ""
        return [f"{where}{error.strerror or error}"]
    return None


_FILE_SYSTEM_ERRNOS = {
    errno.ENOSPC,
    errno.EDQUOT,
    errno.EROFS,
    errno.EACCES,
    errno.EPERM,
    errno.ENAMETOOLONG,
    errno.ELOOP,
    errno.EISDIR,
    errno.ENOTDIR,
    errno.EEXIST,
    errno.ENOENT,
    errno.EFBIG,
}
"""What the file system answers to a write the user's paths or disk cannot take (a full disk,
a name over 255 bytes, /proc): an `error:` line, not a traceback."""


class _NeverRaised(Exception):
    """Stands in for an exception class whose module was never imported."""


def _loaded_class(module: str, name: str) -> type[Exception]:
    return getattr(sys.modules.get(module), name, _NeverRaised)


_interrupt_reported = False


def _report_interrupt() -> None:
    """Print the one `error: interrupted` line of this process."""
    global _interrupt_reported
    if not _interrupt_reported:
        _interrupt_reported = True
        typer.echo("error: interrupted", err=True)


def _reports_errors(command: Callable[P, R]) -> Callable[P, R]:
    """Turn input errors into ``error:`` lines + exit 2, failed runs into lines + exit 1, Ctrl-C
    into an ``error: interrupted`` line + exit 130."""

    @functools.wraps(command)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return command(*args, **kwargs)
        except KeyboardInterrupt:
            _report_interrupt()
            raise typer.Exit(EXIT_INTERRUPTED) from None
        except Exception as error:
            lines = _user_error_lines(error)
            code = EXIT_USAGE
            if lines is None and isinstance(error, _loaded_class("tcpsim.runner", "RunFailed")):
                lines, code = str(error).splitlines(), EXIT_MISMATCH
            if lines is None:
                raise
            from tcpsim.terminal_text import visible

            for line in lines:
                typer.echo(f"error: {visible(line)}", err=True)
            raise typer.Exit(code) from None

    return wrapper


# ---------------------------------------------------------------------------------------------
# Parsing helpers


def _parse_value(text: str) -> Any:
    """A TOML value when ``text`` is one (3, 2.5, true, "x", [1, 2]), else the text itself
    (10Mbps, reno): the rule ``tcpsim.scenario`` applies to ``--set``, so both options agree."""
    from tcpsim.toml_input import TomlInputError, parse_toml

    try:
        return parse_toml(f"value = {text}")["value"]
    except TomlInputError:  # not TOML (or too deep, too long a number for the parser): text
        return text


def _parse_grid(items: Iterable[str]) -> dict[str, list[Any]]:
    """``PATH=V1,V2,...`` or ``PATH=[TOML array]`` (for values that themselves contain commas)."""
    grid: dict[str, list[Any]] = {}
    for item in items:
        path, sep, text = (part.strip() for part in item.partition("="))
        if not sep or not path or not text:
            raise CliError(f"--grid {item!r}: expected PATH=VALUES, e.g. --grid 'links[0].rate=1Mbps,2Mbps'")
        if path in grid:
            raise CliError(f"--grid {path} given twice")
        if text.startswith("["):
            values = _parse_value(text)
            if not isinstance(values, list) or not values:
                raise CliError(f"--grid {path}: {text!r} is not a non-empty array")
        else:
            values = [_parse_value(v.strip()) for v in text.split(",")]
            if "" in values:
                raise CliError(f"--grid {path}: empty value in {text!r}")
        grid[path] = values
    return grid


def _parse_set(items: Iterable[str]) -> dict[str, Any]:
    """``--set PATH=VALUE`` options of a sweep as path → value (VALUE read as in ``_parse_value``)."""
    fixed: dict[str, Any] = {}
    for item in items:
        path, sep, text = (part.strip() for part in item.partition("="))
        if not sep or not path:
            raise CliError(f"--set {item!r}: expected PATH=VALUE, e.g. --set 'duration=100s'")
        if path in fixed:
            raise CliError(f"--set {path} given twice; give each path once")
        fixed[path] = _parse_value(text)
    return fixed


def _parse_seeds(text: str) -> int | list[int]:
    """``--seeds``: a count N (seeds 1..N) or a comma list of seeds."""
    if "," in text:
        try:
            return [_parse_seed(part) for part in text.split(",")]
        except CliError as error:
            raise CliError(f"--seeds {text!r}: {str(error).split(': ', 1)[1]}") from None
    count = _whole_number(text)
    if count is None or count < 1:
        raise CliError(f"--seeds: {text!r} is neither a count >= 1 nor a list of seeds such as 1,7,42")
    return count


SEED_MAX = 2**64 - 1


def _parse_seed(text: str) -> int:
    """``--seed``: a whole number in [0, 2^64 − 1], the engine's u64 (ASCII digits only)."""
    seed = _whole_number(text)
    if seed is None or seed > SEED_MAX:
        raise CliError(f"--seed: {text!r} is not a seed; use a whole number from 0 to {SEED_MAX}, e.g. --seed 2")
    return seed


def _whole_number(text: str) -> int | None:
    """``text`` (spaces around allowed) as a whole number of ASCII digits that fits in 64 bits'
    20 digits, else None: full-width digits are not one, and a number of thousands of digits
    never reaches int(), which refuses it with a traceback."""
    digits = text.strip()
    if not (digits.isascii() and digits.isdigit()) or len(digits) > 20:
        return None
    return int(digits)


def _unit(parse: Callable[[str], int], text: str, option: str) -> int:
    try:
        return parse(text)
    except ValueError as error:
        raise CliError(f"{option}: {error}") from None


MAX_BUFFER_POINTS = 10_000
"""Most buffer sizes one `model moller` call evaluates: each is a table row (and a plot point)."""


def _parse_buffers(text: str) -> list[float]:
    """``A:B`` (every integer from A to B), ``A:B:STEP`` or ``a,b,c`` → buffer sizes (packets)."""
    try:
        if ":" in text:
            parts = [float(p) for p in text.split(":")]
            if len(parts) not in (2, 3):
                raise ValueError
            start, stop, step = (*parts, 1.0) if len(parts) == 2 else parts
            if step <= 0 or stop < start:
                raise CliError(f"--buffers {text!r}: need A <= B and STEP > 0")
            count = int((stop - start) / step + 1e-9) + 1
            if count > MAX_BUFFER_POINTS:
                raise CliError(
                    f"--buffers {text!r}: {count} buffer sizes; at most {MAX_BUFFER_POINTS} are allowed, use a larger STEP"
                )
            values = [start + i * step for i in range(count)]
        else:
            values = [float(p) for p in text.split(",")]
            if len(values) > MAX_BUFFER_POINTS:
                raise CliError(f"--buffers: {len(values)} buffer sizes; at most {MAX_BUFFER_POINTS} are allowed")
    except ValueError:
        raise CliError(f"--buffers {text!r}: use A:B, A:B:STEP or a comma list of packet counts") from None
    if any(v <= 0 for v in values):
        raise CliError(f"--buffers {text!r}: buffer sizes must be positive")
    return values


# ---------------------------------------------------------------------------------------------
# Output helpers


def _stdout() -> Console:
    """Console for human output: markup off, so text from results is printed literally; soft
    wrap, so long lines (paths) stay copy-pasteable; and when piped, wide enough that tables
    are not squeezed to rich's default of 80 columns."""
    from rich.console import Console

    console = Console(markup=False, soft_wrap=True)
    if not console.is_terminal:
        console.width = 200
    return console


def _print_json(value: Any) -> None:
    from tcpsim.repro.framework import jsonable

    typer.echo(json.dumps(jsonable(value), allow_nan=False))


def _table(title: str | Text | None, columns: list[str], rows: Iterable[Iterable[Any]]) -> Table:
    """A rich table; cells are shown literally (a claim such as "[0,250] s" is not markup)."""
    from rich import box
    from rich.table import Table
    from rich.text import Text

    table = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD)
    for column in columns:
        table.add_column(column, justify="left" if column in _TEXT_COLUMNS else "right", overflow="fold")
    from tcpsim.terminal_text import visible

    for row in rows:
        table.add_row(*(cell if isinstance(cell, Text) else Text(visible(str(cell))) for cell in row))
    return table


_TEXT_COLUMNS = {
    "",
    "id",
    "name",
    "variant",
    "class",
    "path",
    "dir",
    "title",
    "paper",
    "kind",
    "item",
    "detail",
    "workload",
    "description",
    "flow",
}


def _flows_table(flows: pd.DataFrame) -> Table:
    return _table(*result_tables.flows_view(flows))


def _web_table(web: pd.DataFrame) -> Table:
    return _table(*result_tables.web_view(web))


def _links_table(links: pd.DataFrame) -> Table:
    return _table(*result_tables.links_view(links))


def _classes_table(classes: pd.DataFrame) -> Table:
    return _table(*result_tables.classes_view(classes))


def _meta_line(meta: dict[str, Any]) -> str:
    events_per_s = meta.get("events_per_s") or 0.0
    return (
        f"seed {meta.get('seed')} · {meta.get('events', 0):,} events in {meta.get('wall_s', 0.0):.3g} s "
        f"({events_per_s / 1e6:.2f} M events/s) · {meta.get('sim_s', 0.0):g} s simulated · "
        f"scenario {str(meta.get('scenario_hash', ''))[:12]} · tcpsim {meta.get('version')}"
    )


def _sig(value: Any) -> str:
    """A paper-vs-measured number: four significant digits, blank when missing."""
    return "" if value is None else f"{value:.4g}"


def _workload_description(entry: str | tuple[str, Any]) -> str:
    """``tcpsim.bench.WORKLOADS`` maps a name to its description, or to (description, factory)."""
    return entry if isinstance(entry, str) else entry[0]


# ---------------------------------------------------------------------------------------------
# Commands

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


class TraceFormat(enum.StrEnum):
    parquet = "parquet"
    csv = "csv"


JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON document on stdout instead of tables.")]
ForceOpt = Annotated[
    bool,
    typer.Option(
        "--force",
        help="Run even if the estimated cost (events, trace rows, memory) exceeds the scenario's [limits].",
    ),
]


def _dask_address(text: str | None) -> str | None:
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


def _output_options(quiet: bool, verbose: bool) -> bool:
    """Apply a command's own --quiet/--verbose on top of those given before the command name;
    return whether the command is quiet."""
    from tcpsim import progress

    progress.configure(quiet=quiet or progress.is_quiet(), verbose=verbose or progress.is_verbose())
    return progress.is_quiet()


def _show_version(value: bool) -> None:
    if value:
        from tcpsim import __commit__, __version__

        typer.echo(f"tcpsim {__version__} (commit {__commit__})")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool, typer.Option("--version", callback=_show_version, is_eager=True, help="Show the version and exit.")
    ] = False,
    quiet: QuietOpt = False,
    verbose: VerboseOpt = False,
) -> None:
    """Packet-level TCP simulator: run scenarios, sweep parameters, reproduce papers.

    Progress shows on stderr: a bar on a terminal, else a line as runs finish (at most one every
    2 s, and one as each experiment's runs are done). Exit status: 0 on success, 1 when a
    reproduction does not match the paper or simulation runs fail, 2 on input errors (reported
    as 'error: ...' lines on stderr).
    """
    from tcpsim import progress

    progress.configure(quiet=quiet, verbose=verbose)


@app.command(cls=TcpsimCommand)
@_reports_errors
def run(
    file: FileArg,
    seed: Annotated[
        str, typer.Option(metavar="N", help="Run seed, 0 to 2^64-1; the same seed always gives the same result.")
    ] = "1",
    set_: SetOpt = None,
    out: Annotated[
        str | None,
        typer.Option(
            metavar="DIR",
            help="Also save flows, links and traces (CSV/Parquet), the scenario as TOML and provenance.json into this "
            "directory (`tcpsim run DIR/scenario.toml --seed N` repeats the run); a previous run's files there are replaced.",
            show_default=False,
        ),
    ] = None,
    trace_format: Annotated[
        TraceFormat,
        typer.Option(help="File format of the traces saved by --out: Parquet, or CSV on request."),
    ] = TraceFormat.parquet,
    json_: JsonOpt = False,
    force: ForceOpt = False,
    pcap: Annotated[
        list[str] | None,
        typer.Option(
            metavar="LINK[:DIR]",
            help="Also capture the packets starting transmission on link LINK, direction ab or ba "
            "(both if omitted), into a pcap file LINK-DIR.pcap in the --out directory (else the current one). "
            "Repeatable; adds to the scenario's trace.pcap.",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Run one scenario and print per-flow and per-link results (per class too, given two or more).

    The run's cost is estimated first; beyond the scenario's [limits] it is refused unless
    --force. Ctrl-C stops it (exit 130). Packet captures (--pcap, trace.pcap) open in Wireshark.
    """
    import warnings

    from tcpsim.outpaths import output_dir
    from tcpsim.scenario import load_scenario

    run_seed = _parse_seed(seed)
    out_dir = None if out is None else output_dir(out, "--out")
    if out_dir is not None:
        from tcpsim.outpaths import not_replacing_inputs
        from tcpsim.result import SAVED_FILES
        from tcpsim.sweeps.outdir import RUN_FILES

        not_replacing_inputs(out_dir, [*SAVED_FILES, *RUN_FILES], [file], "--out")
    scenario = load_scenario(file, set_ or ())
    if pcap:
        from tcpsim.scenario.overrides import override_path

        # --pcap adds to trace.pcap, whether the file or a --set gave it: that --set is replaced
        # by the sum (setting the path twice would be an error).
        captures = json.dumps([*scenario.trace.pcap, *pcap])  # a JSON array of strings is TOML
        others = [entry for entry in set_ or () if override_path(entry) != ("trace", "pcap")]
        scenario = load_scenario(file, [*others, f"trace.pcap={captures}"])
    from tcpsim.api import run as simulate
    from tcpsim.limits import ScenarioWarning

    _check_before_run(scenario, force)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ScenarioWarning)  # printed above as warning: lines
        result = simulate(scenario, seed=run_seed, force=True, pcap_dir=out_dir or Path.cwd())
    if result.meta.get("trace_truncated"):
        from tcpsim.api import truncation_warning

        typer.echo(f"warning: {truncation_warning(result.meta, scenario.limits.max_trace_rows)}", err=True)
    if out_dir is not None:
        from tcpsim.sweeps.outdir import save_run_provenance

        result.save(out_dir, trace_format=trace_format.value)
        save_run_provenance(out_dir, file, set_ or [], run_seed, sys.argv)
    if json_:
        typer.echo(json.dumps(result.to_json_dict(), allow_nan=False))  # already plain JSON data
        return
    console = _stdout()
    console.print(_flows_table(result.flows))
    if not result.web.empty:
        console.print(_web_table(result.web))
    console.print(_links_table(result.links))
    if len(classes := result.classes) >= 2:
        console.print(_classes_table(classes))
    console.print(_meta_line(result.meta))
    if out_dir is not None:
        console.print(f"saved to {out_dir}/")
    for path in result.meta.get("pcap", ()):
        console.print(f"pcap: {path}")


def _check_before_run(scenario: Any, force: bool) -> None:
    """Print the scenario's warnings, then refuse it (RunTooLarge) if its estimated cost exceeds
    its limits and ``force`` is off."""
    from tcpsim.limits import check_flow_expansion, check_limits, estimate_cost, run_warnings

    if not force:
        check_flow_expansion(scenario)
    canonical = scenario.to_engine()
    from tcpsim.terminal_text import visible

    for path, message in run_warnings(scenario, canonical):
        typer.echo(f"warning: {visible(f'{path}: {message}')}", err=True)
    if not force:
        check_limits(scenario, estimate_cost(canonical))


@app.command(cls=TcpsimCommand)
@_reports_errors
def validate(file: FileArg, set_: SetOpt = None, force: ForceOpt = False) -> None:
    """Check a scenario file (and overrides) without running it; list every error found.

    Also estimates the run's cost against the scenario's [limits] (skipped with --force) and
    prints warnings about numbers that would mean little."""
    from tcpsim.scenario import load_scenario

    scenario = load_scenario(file, set_ or ())
    _check_before_run(scenario, force)
    count = len(scenario.web)
    web = f", {count} web generator{'' if count == 1 else 's'}" if count else ""
    typer.echo(
        f"ok: {len(scenario.node_names())} nodes, {len(scenario.links)} links, {len(scenario.flow_table())} flows{web}"
    )


@app.command("list", cls=TcpsimCommand)
@_reports_errors
def list_(
    json_: JsonOpt = False,
    markdown: Annotated[
        bool, typer.Option("--markdown", help="Print the experiment reference (docs/experiments.md) as markdown.")
    ] = False,
) -> None:
    """List the paper experiments (for 'repro'), the bundled scenarios (for 'run', 'sweep' and
    'validate', by name) and the benchmark workloads (for 'bench')."""
    from tcpsim.bench import WORKLOADS
    from tcpsim.paths import builtin_scenario, builtin_scenario_names
    from tcpsim.repro import all_experiments

    if markdown:
        from tcpsim.repro.reference import reference_markdown

        typer.echo(reference_markdown(all_experiments()), nl=False)
        return

    experiments = [{"id": e.id, "title": e.title, "paper": e.paper} for e in all_experiments()]
    workloads = [{"name": name, "description": _workload_description(entry)} for name, entry in WORKLOADS.items()]
    scenarios = [
        {"name": name, "description": " ".join(str(builtin_scenario(name).get("description", "")).split())}
        for name in builtin_scenario_names()
    ]
    if json_:
        _print_json({"experiments": experiments, "scenarios": scenarios, "workloads": workloads})
        return
    console = _stdout()
    console.print(
        _table(
            "experiments (tcpsim repro ID)",
            ["id", "paper", "title"],
            ((e["id"], e["paper"], e["title"]) for e in experiments),
        )
    )
    console.print(
        _table(
            "bundled scenarios (tcpsim run NAME, when no file NAME exists)",
            ["scenario", "description"],
            ((sc["name"], sc["description"]) for sc in scenarios),
        )
    )
    console.print(
        _table(
            "benchmark workloads (tcpsim bench NAME)",
            ["workload", "description"],
            ((w["name"], w["description"]) for w in workloads),
        )
    )


def _mark(ok: bool) -> Text:
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


def _print_report(console: Console, report: dict[str, Any]) -> None:
    """The main reading's claims and numbers, then each alternative reading's, in one table."""
    rows = _report_rows(report, "main")
    for reading in report["readings"]:
        rows += _report_rows(reading, reading["name"])
    title = _mark(report["ok"]) + f" {report['id']}: {report['title']} (main reading: {report['main_reading']})"
    console.print(_table(title, ["", "reading", "kind", "item", "paper", "measured", "detail"], rows))
    for reading in report["readings"]:
        console.print(f"  reading {reading['name']} ({reading['status']}): {reading['hypothesis']}")
    for note in report["notes"]:
        console.print(f"  note: {note}")


@app.command(cls=TcpsimCommand)
@_reports_errors
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
    console = _stdout()
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
        dask_address=_dask_address(dask),
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
        _print_json(reports)
    elif status:
        typer.echo(status_table(reports))
    else:
        console.print(f"{totals_line(reports)} Figures and summary in {out_dir}/")
        if index is not None:
            console.print(f"HTML report: {index}")
    if not all(r["completed"] and (r["ok"] or not strict) for r in reports):
        raise typer.Exit(EXIT_MISMATCH)


@app.command(cls=TcpsimCommand)
@_reports_errors
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


@app.command(cls=TcpsimCommand)
@_reports_errors
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

    from tcpsim.stats import summarize
    from tcpsim.sweeps import SweepFailed, SweepWarning, read_sweep_file
    from tcpsim.sweeps import sweep as run_sweep
    from tcpsim.sweeps.definition import SweepDefinitionError, merged

    try:
        definition = merged(
            read_sweep_file(sweep_file) if sweep_file is not None else None,
            _parse_grid(grid or ()),
            None if seeds is None else _parse_seeds(seeds),
            _parse_set(set_ or ()),
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
                dask_address=_dask_address(dask),
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
        _print_json(df.to_dict("records"))
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
            _num(r["mean"], 1e6),
            f"{_num(r['ci_low'], 1e6)} … {_num(r['ci_high'], 1e6)}",
            r["n"],
        )
        for r in summary.to_dict("records")
    )
    console = _stdout()
    console.print(_table("goodput per flow (mean over seeds)", columns, rows))
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


@app.command(cls=TcpsimCommand)
@_reports_errors
def bench(
    names: Annotated[
        list[str] | None,
        typer.Argument(metavar="NAME", help="Workloads to run (see 'tcpsim list').", show_default="all"),
    ] = None,
    jobs: Annotated[
        int,
        typer.Option(
            "--jobs", "-j", min=1, metavar="N", help="Workloads run at once (more than 1 disturbs the timings)."
        ),
    ] = 1,
    json_: JsonOpt = False,
) -> None:
    """Time the named benchmark workloads, each in a process of its own: the engine's events per
    second and simulated seconds per second, the whole process's wall and peak memory."""
    from tcpsim.bench import WORKLOADS, run_benchmarks

    unknown = [n for n in names or () if n not in WORKLOADS]
    if unknown:
        raise CliError(f"unknown workload {', '.join(map(repr, unknown))}; known: {', '.join(WORKLOADS)}")
    rows = run_benchmarks(names or None, jobs)
    if json_:
        _print_json({"workloads": rows})
        return
    _stdout().print(
        _table(
            "benchmarks",
            ["workload", "events", "engine s", "M events/s", "sim s / wall s", "process s", "peak MB"],
            (
                (
                    r["name"],
                    f"{r['events']:,}",
                    _num(r["wall_s"]),
                    _num(r["events_per_s"], 1e6, 2),
                    _num(r["sim_s_per_wall_s"], digits=1),
                    _num(r["process_wall_s"]),
                    _num(r["peak_rss_mb"], digits=0),
                )
                for r in rows
            ),
        )
    )


PLOT_SUFFIXES = (".png", ".svg", ".pdf")


@model_app.command("moller", cls=TcpsimCommand)
@_reports_errors
def model_moller(
    capacity: Annotated[str, typer.Option(metavar="RATE", help="Bottleneck capacity C, e.g. 10Mbps.")] = "10Mbps",
    rtt: Annotated[str, typer.Option(metavar="TIME", help="Round-trip propagation delay T, e.g. 50ms.")] = "50ms",
    buffers: Annotated[
        str,
        typer.Option(metavar="SPEC", help="Buffer sizes B in packets: A:B (every integer), A:B:STEP, or a comma list."),
    ] = "2:84",
    packet: Annotated[str, typer.Option(metavar="SIZE", help="Packet size, e.g. 1500B.")] = "1500B",
    modified: Annotated[
        bool, typer.Option("--modified", help="Modified Westwood+: after a loss the window never drops below half.")
    ] = False,
    json_: JsonOpt = False,
    plot: Annotated[
        str | None,
        typer.Option(metavar="FILE", help="Also draw the shares vs B to FILE (.png, .svg, .pdf).", show_default=False),
    ] = None,
) -> None:
    """Fluid model of NewReno vs Westwood+ at a drop-tail bottleneck (Möller et al., Sec. III).

    Prints the normalized throughput of each flow and their sum for each buffer size. The
    defaults are the paper's scenario 1 (C·T = 42 packets, B up to 2·C·T).
    """
    from tcpsim.outpaths import output_file
    from tcpsim.units import parse_duration_ns, parse_rate_bps, parse_size_bytes

    plot_file = None if plot is None else output_file(plot, "--plot", PLOT_SUFFIXES)
    capacity_bps = _unit(parse_rate_bps, capacity, "--capacity")
    rtt_s = _unit(parse_duration_ns, rtt, "--rtt") / 1e9
    if rtt_s <= 0:
        raise CliError(f"--rtt: {rtt!r} must be greater than zero; the model divides by the round-trip time")
    packet_bytes = _unit(parse_size_bytes, packet, "--packet")
    buffer_pkts = _parse_buffers(buffers)
    from tcpsim.models.moller import solve

    try:
        df = solve(capacity_bps, rtt_s, buffer_pkts, packet_bytes=packet_bytes, modified_westwood=modified)
    except ValueError as error:
        raise CliError(str(error)) from None
    bdp_pkts = capacity_bps / 8 * rtt_s / packet_bytes
    if plot_file is not None:
        _plot_moller(df, bdp_pkts, plot_file)
    if json_:
        columns = ["buffer_pkts", "buffer_over_bdp", "newreno", "westwood_plus", "utilization"]
        _print_json(
            {
                "model": "moller",
                "capacity_bps": capacity_bps,
                "rtt_s": rtt_s,
                "packet_bytes": packet_bytes,
                "modified_westwood": modified,
                "bdp_pkts": bdp_pkts,
            }
            | {c: df[c].tolist() for c in columns}
        )
        return
    console = _stdout()
    console.print(f"Möller model: C = {capacity}, T = {rtt}, C·T = {bdp_pkts:.1f} packets of {packet_bytes} B")
    console.print(
        _table(
            None,
            ["B pkts", "B/CT", "NewReno", "Westwood+", "sum"],
            (
                (
                    f"{r['buffer_pkts']:g}",
                    _num(r["buffer_over_bdp"], digits=2),
                    _num(r["newreno"]),
                    _num(r["westwood_plus"]),
                    _num(r["utilization"]),
                )
                for r in df.to_dict("records")
            ),
        )
    )
    if plot_file is not None:
        console.print(f"figure written to {plot_file}")


def _plot_moller(df: pd.DataFrame, bdp_pkts: float, path: Path) -> None:
    from matplotlib.figure import Figure

    fig = Figure(figsize=(7, 4.5), layout="constrained")
    ax = fig.add_subplot()
    ax.plot(df["buffer_pkts"], df["newreno"], label="NewReno")
    ax.plot(df["buffer_pkts"], df["westwood_plus"], label="Westwood+")
    ax.plot(df["buffer_pkts"], df["utilization"], label="sum", linestyle="--")
    ax.axvline(bdp_pkts, color="grey", linewidth=0.8, label="B = C·T")
    ax.set(xlabel="buffer B (packets)", ylabel="normalized throughput", ylim=(0, 1.05))
    ax.legend(fontsize="small")
    ax.grid(alpha=0.3)
    path.parent.mkdir(parents=True, exist_ok=True)
    from tcpsim.outpaths import replacing

    with replacing(path) as temporary:
        fig.savefig(temporary, dpi=150)


# `tcpsim plot` and `tcpsim store` live in modules of their own that use this one's helpers, so
# they are imported last; each registers itself on `app` (whichever module is imported first).
import tcpsim.cli_plot  # noqa: E402, F401
import tcpsim.cli_store  # noqa: E402, F401


def main() -> None:
    """Console-script entry point (``tcpsim = "tcpsim.cli:main"``). A Ctrl-C that lands
    before a command starts (while typer parses, or a module loads) is turned by typer into a
    silent exit 130: it gets its `error: interrupted` line here."""
    try:
        app(prog_name="tcpsim")
    except SystemExit as stop:
        if stop.code == EXIT_INTERRUPTED:
            _report_interrupt()
        raise
    except KeyboardInterrupt:
        _report_interrupt()
        sys.exit(EXIT_INTERRUPTED)
