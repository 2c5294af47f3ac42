"""The ``tcpsim`` command: run, validate, sweep, repro, report, plot, list, model, bench, store.

Two audiences share every command: people get rich tables and progress on stderr (a bar on a
terminal, plain lines in a pipe or log: ``tcpsim.progress``); scripts pass ``--json`` and get
exactly one JSON document on stdout. Mistakes in the input (bad scenario, bad ``--set``,
unknown id, bad unit, missing file) are reported as ``error: <message>`` lines on stderr with
exit status 2, never as a traceback; a traceback means a bug in tcpsim. Heavy modules (pandas, the compiled core, matplotlib) are imported
inside commands so ``tcpsim --help`` answers at once.

One module per command group: `run` (run, validate), `listing` (list), `repro`, `report`,
`sweep`, `bench`, `model`, `plot`, `store`; each registers its commands on the typer app of
`root` (with the root options). What they share: `command` (the command class), `errors`
(error lines and exit status), `options` (shared options), `parsing` (option values) and
`output` (tables and JSON on stdout). No command module imports another.

The command modules leave their annotations evaluated (no ``from __future__ import
annotations``): typer reads every command's signature at each start, and as strings it would
compile and evaluate some 200 of them again (9 of the 15 ms it takes to build the commands).
"""

from __future__ import annotations

import sys

from tcpsim.cli.errors import EXIT_INTERRUPTED, report_interrupt
from tcpsim.cli.root import app

# Each module registers its commands on `app` when imported; --help lists them in this order.
# isort: off
from tcpsim.cli import run, listing, repro, report, sweep, bench, model, plot, store  # noqa: F401
# isort: on

__all__ = ["app", "main"]


def main() -> None:
    """The command line, as the console script (`tcpsim.launch`) runs it. A Ctrl-C that lands
    before a command starts (while typer parses, or a module loads) is turned by typer into a
    silent exit 130: it gets its `error: interrupted` line here."""
    try:
        app(prog_name="tcpsim")
    except SystemExit as stop:
        if stop.code == EXIT_INTERRUPTED:
            report_interrupt()
        raise
    except KeyboardInterrupt:
        report_interrupt()
        sys.exit(EXIT_INTERRUPTED)
