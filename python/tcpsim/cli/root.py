"""The ``tcpsim`` typer app: its settings, the root options given before a command name
(--version, --quiet, --verbose) and its help text; the command modules register on `app`."""

from __future__ import annotations

import gc
from typing import Annotated

import typer

from tcpsim.cli.command import TcpsimGroup
from tcpsim.cli.options import QuietOpt, VerboseOpt


def _posix_usage_name(argument: typer.core.TyperArgument) -> str:
    """Usage lines name a required argument `FILE` and an optional one `[NAME]`, as POSIX usage
    and click do; typer 0.29 writes `{FILE}`, which reads as a shell brace expansion."""
    name = argument.display_name_raw if argument.required else f"[{argument.display_name_raw}]"
    return name + ("..." if argument.nargs != 1 else "")


if hasattr(typer.core.TyperArgument, "_usage_display_name"):
    typer.core.TyperArgument._usage_display_name = _posix_usage_name  # type: ignore[method-assign]


app = typer.Typer(
    name="tcpsim",
    cls=TcpsimGroup,
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


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
    if not gc.isenabled():
        # The console script loads the command line with the collector off (`tcpsim.launch`).
        # What it made lives as long as the process: frozen, it is left out of every later
        # collection, the one at exit included, and the command runs with the collector on.
        gc.freeze()
        gc.enable()
    from tcpsim import progress

    progress.configure(quiet=quiet, verbose=verbose)
