"""``tcpsim store``: look into, export, trim and clear the result store (tcpsim.store).

Every command takes ``--store DIR`` (else ``$TCPSIM_STORE``, else the per-user default) and
refuses a directory that holds no store, so a mistyped path is an error, not a new empty store.
"""

import json
import sys
from typing import TYPE_CHECKING, Annotated, Any

import typer

from tcpsim.cli.command import TcpsimCommand
from tcpsim.cli.errors import CliError, reports_errors
from tcpsim.cli.output import flows_table, links_table, print_json, rich_table, stdout_console
from tcpsim.cli.parsing import whole_number
from tcpsim.cli.root import app
from tcpsim.saved import MIN_KEY_PREFIX

if TYPE_CHECKING:
    from tcpsim.store import Store

store_app = typer.Typer(help="The result store: finished runs kept as data (see docs/store.md).", no_args_is_help=True)
app.add_typer(store_app, name="store")

StoreDirOpt = Annotated[
    str | None,
    typer.Option(
        "--store",
        metavar="DIR",
        help="The store directory.",
        show_default="$TCPSIM_STORE, else the per-user cache directory",
    ),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON document on stdout.")]
WhereOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--where",
        metavar="COND",
        help="Only runs whose scenario meets PATH OP VALUE (OP: == != >= <= > <), e.g. "
        "'links[bottleneck].rate_bps >= 1e6', 'flows[f1].tcp.cc.kind == vegas', 'seed <= 3'. Paths are the "
        "canonical scenario's (base units: ns, bit/s, bytes; lists of named tables by name). Repeat to AND.",
        show_default=False,
    ),
]


def _bare_bytes(text: str) -> int | str:
    """A bare integer of ASCII digits is bytes, as --max-size's help says ("0": keep nothing);
    anything else stays text for the size parser."""
    digits = text.strip()
    if not (digits.isascii() and digits.isdigit()):
        return text
    number = whole_number(digits)
    if number is None:
        raise ValueError(f"{digits[:20]}… ({len(digits)} digits) is too large; at most 2^64 - 1 bytes")
    return number


def _open(directory: str | None) -> "Store":
    from tcpsim.store import Store, StoreUnavailable, store_root
    from tcpsim.store.catalog import CATALOG

    root = store_root(directory)
    if not (root / CATALOG).is_file():
        raise CliError(f"--store {root}: no result store there (no {CATALOG}); runs are stored by sweep and repro")
    try:
        return Store(root)
    except StoreUnavailable as error:
        raise CliError(str(error)) from None


def _size(n_bytes: float) -> str:
    """Bytes in decimal units, as the store's --max-size reads them (1 kB = 1000 B)."""
    if n_bytes < 1000:
        return f"{n_bytes:.0f} B"
    for unit in ("kB", "MB", "GB", "TB"):
        n_bytes /= 1000
        if n_bytes < 1000 or unit == "TB":
            break
    return f"{n_bytes:.1f} {unit}"


@store_app.command(cls=TcpsimCommand)
@reports_errors
def info(store: StoreDirOpt = None, json_: JsonOpt = False) -> None:
    """Where the store is, how many runs it holds (and how many this engine build can use), its size."""
    from tcpsim.store.maintenance import info as store_info

    facts = store_info(_open(store))
    if json_:
        print_json(facts)
        return
    console = stdout_console()
    console.print(f"store          {facts['root']} (schema {facts['schema']})")
    console.print(f"runs           {facts['runs']} ({facts['runs_of_this_engine']} of this engine build)")
    console.print(f"failed runs    {facts['failed']}")
    console.print(f"scenarios      {facts['scenarios']}")
    console.print(f"size           {_size(facts['data_bytes'] + facts['catalog_bytes'])}")
    console.print(f"engine source  {facts['engine_source']}")
    if facts["oldest"]:
        console.print(f"stored         {facts['oldest'][:19]} … {facts['newest'][:19]} UTC")


LISTED = (
    "key",
    "created",
    "status",
    "seed",
    "scenario_hash",
    "wall_s",
    "events",
    "bytes",
    "engine_source",
    "git_commit",
)


@store_app.command("ls", cls=TcpsimCommand)
@reports_errors
def ls(
    store: StoreDirOpt = None,
    json_: JsonOpt = False,
    where: WhereOpt = None,
    status: Annotated[
        str | None, typer.Option(metavar="STATUS", help="Only runs of this status: ok or failed.", show_default=False)
    ] = None,
) -> None:
    """One line per stored run, oldest first."""
    from tcpsim.result.tables import num
    from tcpsim.store.query import select

    if status not in (None, "ok", "failed"):
        raise CliError(f"--status {status!r}: use ok or failed")
    chosen = select(_open(store), where or (), status)
    rows = [{field: row[field] for field in LISTED} | {"error": row["error"]} for row, _ in chosen]
    if json_:
        print_json(rows)
        return
    header = ["key", "created (UTC)", "status", "seed", "scenario", "wall s", "events", "size"]
    lines = [
        (
            r["key"][:16],
            r["created"][:19],
            r["status"],
            r["seed"],
            r["scenario_hash"][:12],
            num(r["wall_s"]),
            "" if r["events"] is None else r["events"],
            _size(r["bytes"]),
        )
        for r in rows
    ]
    stdout_console().print(rich_table(f"{len(rows)} runs", header, lines))


@store_app.command(cls=TcpsimCommand)
@reports_errors
def show(
    key: Annotated[str, typer.Argument(help=f"A run's key, or its first {MIN_KEY_PREFIX} or more characters.")],
    store: StoreDirOpt = None,
    json_: JsonOpt = False,
) -> None:
    """A run's record, its canonical scenario and (for a finished run) its flows and links."""
    from tcpsim.saved import SavedError, find_key

    opened = _open(store)
    try:
        row = find_key(opened, key)
    except SavedError as error:
        raise CliError(f"store show {error}") from None
    record = {name: row[name] for name in row.keys() if name not in ("meta", "files")}
    scenario = _scenario(opened.catalog.scenario(row["scenario_hash"]))
    result = opened.load(row["key"], damaged="its results are not shown") if row["status"] == "ok" else None
    if json_:
        print_json({"run": record, "scenario": scenario, "result": None if result is None else result.to_json_dict()})
        return
    console = stdout_console()
    for name, value in record.items():
        if value is not None:
            console.print(f"{name:15}{value}")
    console.print(json.dumps(scenario, indent=1))
    if result is not None:
        console.print(flows_table(result.flows))
        console.print(links_table(result.links))


def _scenario(text: str | None) -> Any:
    """The canonical scenario text as JSON: the engine input, with the flow classes if any."""
    if text is None:
        return None
    engine, _, classes = text.partition("\nclasses:")
    try:
        scenario = json.loads(engine)
        return scenario if not classes else {"engine": scenario, "classes": json.loads(classes)}
    except ValueError:
        typer.echo("warning: the stored scenario text is damaged; shown as it is", err=True)
        return text


@store_app.command(cls=TcpsimCommand)
@reports_errors
def export(
    out: Annotated[str, typer.Option("--out", metavar="DIR", help="Directory to write the tables into.")],
    format_: Annotated[str, typer.Option("--format", metavar="FORMAT", help="parquet or csv.")] = "parquet",
    store: StoreDirOpt = None,
    where: WhereOpt = None,
) -> None:
    """Every finished run (or those --where selects) as tidy tables: runs, scenarios, flows, links, udp, web,
    transfers, classes and traces, labelled by key, seed and the parameters that differ between the runs."""
    from tcpsim.outpaths import output_dir
    from tcpsim.store.export import FORMATS
    from tcpsim.store.export import export as write_tables

    if format_ not in FORMATS:
        raise CliError(f"--format {format_!r}: use one of {', '.join(FORMATS)}")
    opened = _open(store)
    target = output_dir(out, "--out")
    written = write_tables(opened, target, format_, where or ())
    for name, rows in written.items():
        typer.echo(f"{target / f'{name}.{format_}'}: {rows} rows")


@store_app.command(cls=TcpsimCommand)
@reports_errors
def gc(
    max_size: Annotated[
        str | None,
        typer.Option(
            "--max-size",
            metavar="SIZE",
            help="Evict the least recently used runs until the store fits, e.g. 1GB or 500MiB.",
            show_default=False,
        ),
    ] = None,
    store: StoreDirOpt = None,
) -> None:
    """Remove failed runs' records and leftovers of interrupted writes; with --max-size, also the least recently used runs."""
    from tcpsim.store.maintenance import gc as collect
    from tcpsim.units import parse_size_bytes

    limit = None
    if max_size is not None:
        try:
            limit = parse_size_bytes(_bare_bytes(max_size))
        except ValueError as error:
            raise CliError(f"--max-size: {error}") from None
    done = collect(_open(store), limit)
    typer.echo(
        f"removed {done.runs} runs, {done.failed} failed-run records and {done.orphans} orphaned data "
        f"directories; freed {_size(done.freed_bytes)}"
    )


@store_app.command(cls=TcpsimCommand)
@reports_errors
def clear(
    store: StoreDirOpt = None,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Do not ask for confirmation.")] = False,
) -> None:
    """Delete every stored run (asks first unless --yes)."""
    from tcpsim.store.maintenance import clear as clear_store

    opened = _open(store)
    if not yes:
        if not sys.stdin.isatty():
            raise CliError(f"store clear: refusing to delete {opened.root} without --yes (no terminal to ask on)")
        typer.confirm(f"Delete every run stored in {opened.root}?", abort=True)
    typer.echo(f"deleted {clear_store(opened)} runs from {opened.root}")
