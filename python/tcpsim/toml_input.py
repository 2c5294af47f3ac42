"""TOML read from users (scenarios, sweep files, `--set` values), with every way the reader can
fail turned into one exception that names the problem in the user's terms.

`tomllib` raises a plain ValueError, not its TOMLDecodeError, for an integer of more digits than
Python converts (4300 by default, a guard against quadratic-time conversion), and
RecursionError for arrays nested deeper than the interpreter's stack.
"""

import re
import tomllib
from typing import Any


class TomlInputError(ValueError):
    """Text that is not TOML tcpsim can read; the message says why, without a traceback."""


def parse_toml(text: str) -> dict[str, Any]:
    """``tomllib.loads(text)``; raises :class:`TomlInputError` for anything it cannot read."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise TomlInputError(str(error) + _semicolon_hint(text, error)) from None
    except RecursionError:
        raise TomlInputError("arrays or tables nested too deeply to read") from None
    except ValueError:  # tomllib's int() of a number with thousands of digits
        raise TomlInputError("a number has thousands of digits; tcpsim's numbers fit in 64 bits") from None


def _semicolon_hint(text: str, error: tomllib.TOMLDecodeError) -> str:
    """A hint when the failing line separates keys with `;`, which TOML does not allow (the
    position is read from the message: Python < 3.14's error has no `lineno`/`colno`)."""
    where = re.search(r"\(at line (\d+), column (\d+)\)", str(error))
    if where is None:
        return ""
    lines = text.splitlines()
    number, column = int(where[1]), int(where[2]) - 1
    line = lines[number - 1] if 0 < number <= len(lines) else ""
    if line[column : column + 1] == ";" or line[:column].rstrip().endswith(";"):
        return "; TOML has no `;` between keys: write one `key = value` per line"
    return ""
