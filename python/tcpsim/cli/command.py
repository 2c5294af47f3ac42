"""The command classes of ``tcpsim``: `TcpsimGroup` (the app's) and `TcpsimCommand` (every
subcommand's, ``@app.command(cls=TcpsimCommand)``).

click reports a mistake on the command line (an unknown option, a missing argument, a value out
of range) as a usage block followed by ``Error: …``; every other input mistake of tcpsim is one
``error: …`` line, exit 2, and scripts and users read the first line of stderr. `TcpsimGroup`
turns click's usage errors, raised while parsing the root or any subcommand, into that line
(with a pointer to the command's help).

click keeps the last value of an option given twice (``--seed 1 --seed 2`` runs seed 2), so a
mistyped or pasted-over command line runs something the user did not ask for, exit 0. Here an
option that takes one value may be given once; options that collect values (``--set``,
``--grid``) and flags are unaffected.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import IO, Any

import typer

# The parser's exception classes. typer >= 0.26 carries its own copy of click (`typer._click`),
# older typer uses click itself: take them from the class typer exports.
UsageError: Any = typer.BadParameter.__mro__[1]
_NoArgsIsHelpError: Any = getattr(sys.modules[UsageError.__module__], "NoArgsIsHelpError", ())


class CommandLineError(UsageError):  # type: ignore[misc]
    """A usage error shown as tcpsim shows every input mistake: ``error: <message> (see
    'tcpsim run -h')`` on stderr, exit 2."""

    def show(self, file: IO[Any] | None = None) -> None:
        hint = f" (see '{self.ctx.command_path} -h')" if self.ctx is not None else ""
        typer.echo(f"error: {self.format_message()}{hint}", file=file, err=True)


class TcpsimGroup(typer.core.TyperGroup):
    """The app's group: a usage error raised while parsing its options, resolving a command or
    parsing a command's own options and arguments is shown as one `error:` line. A bare
    ``tcpsim`` still prints the help (click's no-args-is-help)."""

    def make_context(self, info_name: str | None, args: list[str], parent: Any = None, **extra: Any) -> Any:
        try:
            return super().make_context(info_name, args, parent=parent, **extra)
        except UsageError as error:
            raise _one_line(error) from None

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except UsageError as error:
            raise _one_line(error) from None


def _one_line(error: Any) -> Any:
    if isinstance(error, (CommandLineError, _NoArgsIsHelpError)):
        return error
    return CommandLineError(error.format_message(), error.ctx)


class TcpsimCommand(typer.core.TyperCommand):
    """A typer command that refuses a single-value option given more than once (a usage error,
    exit 2, like every other mistake the parser finds on the command line)."""

    def make_parser(self, ctx: Any) -> Any:
        parser = super().make_parser(ctx)
        parse = parser.parse_args

        def parse_once(args: Sequence[str]) -> Any:
            try:
                opts, rest, order = parse(args=list(args))
            except UsageError as error:
                # The parser raises some (an option missing its value) without the context
                # that names the command in the `(see 'tcpsim … -h')` pointer.
                error.ctx = error.ctx or ctx
                raise
            seen: set[str] = set()
            for param in order:
                if not _takes_one_value(param):
                    continue
                if param.name in seen:
                    ctx.fail(f"{' / '.join(param.opts)} given more than once; give it once")
                seen.add(param.name)
            return opts, rest, order

        parser.parse_args = parse_once
        return parser


def _takes_one_value(param: Any) -> bool:
    """An option (not an argument) that is neither a flag, a counter nor a collecting one."""
    return param.param_type_name == "option" and not (param.multiple or param.count or param.is_flag)
