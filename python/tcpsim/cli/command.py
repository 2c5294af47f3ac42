"""The command class of every ``tcpsim`` subcommand (``@app.command(cls=TcpsimCommand)``).

click keeps the last value of an option given twice (``--seed 1 --seed 2`` runs seed 2), so a
mistyped or pasted-over command line runs something the user did not ask for, exit 0. Here an
option that takes one value may be given once; options that collect values (``--set``,
``--grid``) and flags are unaffected.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import typer


class TcpsimCommand(typer.core.TyperCommand):
    """A typer command that refuses a single-value option given more than once (a usage error,
    exit 2, like every other mistake the parser finds on the command line)."""

    def make_parser(self, ctx: Any) -> Any:
        parser = super().make_parser(ctx)
        parse = parser.parse_args

        def parse_once(args: Sequence[str]) -> Any:
            opts, rest, order = parse(args=list(args))
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
