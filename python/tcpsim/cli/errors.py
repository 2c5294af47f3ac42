"""How ``tcpsim`` commands fail: input mistakes become ``error:`` lines on stderr and exit
status 2 (never a traceback), failed runs exit 1, Ctrl-C exits 130 with one ``error:
interrupted`` line (`reports_errors`, the decorator of every command)."""

from __future__ import annotations

import errno
import functools
import sys
from collections.abc import Callable
from typing import NamedTuple, ParamSpec, TypeVar

import typer

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
        _loaded_class("tcpsim.engine_run", "SimulationError"),
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


def report_interrupt() -> None:
    """Print the one `error: interrupted` line of this process."""
    global _interrupt_reported
    if not _interrupt_reported:
        _interrupt_reported = True
        typer.echo("error: interrupted", err=True)


class ErrorReport(NamedTuple):
    """How a command that raised ends: its ``error:`` lines (escaped for the terminal) and exit status."""

    lines: list[str]
    status: int


def error_report(error: Exception) -> ErrorReport | None:
    """The report of an input error (exit 2) or a failed run (exit 1), or None if ``error`` is
    a bug (let it raise)."""
    lines = _user_error_lines(error)
    code = EXIT_USAGE
    if lines is None and isinstance(error, _loaded_class("tcpsim.runner", "RunFailed")):
        lines, code = str(error).splitlines(), EXIT_MISMATCH
    if lines is None:
        return None
    from tcpsim.terminal_text import visible

    return ErrorReport([f"error: {visible(line)}" for line in lines], code)


def reports_errors(command: Callable[P, R]) -> Callable[P, R]:
    """Turn input errors into ``error:`` lines + exit 2, failed runs into lines + exit 1, Ctrl-C
    into an ``error: interrupted`` line + exit 130."""

    @functools.wraps(command)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return command(*args, **kwargs)
        except KeyboardInterrupt:
            report_interrupt()
            raise typer.Exit(EXIT_INTERRUPTED) from None
        except Exception as error:
            report = error_report(error)
            if report is None:
                raise
            for line in report.lines:
                typer.echo(line, err=True)
            raise typer.Exit(report.status) from None

    return wrapper
