"""Reading a scenario's source: a TOML file or a dict, copied as plain, bounded Python data."""

import codecs
import math
import os
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from tcpsim.scenario.errors import Loc, ScenarioError, format_path
from tcpsim.toml_input import TomlInputError, parse_toml


def read_source(source: str | os.PathLike[str] | Mapping[str, Any]) -> Mapping[str, Any]:
    """The raw scenario: the dict itself, or a TOML file's contents (UTF-8, a leading
    byte-order mark allowed, as editors on Windows write it)."""
    if isinstance(source, Mapping):
        return source
    if not isinstance(source, str | os.PathLike):
        raise TypeError(
            f"a scenario is a TOML file path (str or pathlib.Path), a dict or a loaded Scenario, not {type(source).__name__}"
        )
    path = Path(source)
    try:
        data = path.read_bytes()
    except OSError as error:
        bundled = _bundled(path) if isinstance(error, FileNotFoundError) else None
        if bundled is not None:
            return bundled
        raise ScenarioError(
            [("", f"cannot read scenario {str(path)!r}: {error.strerror}{_bundled_hint(path)}")]
        ) from None
    bom = len(codecs.BOM_UTF8) if data.startswith(codecs.BOM_UTF8) else 0
    try:
        text = data[bom:].decode("utf-8")
    except UnicodeDecodeError as error:
        offset = bom + error.start
        raise ScenarioError(
            [("", f"{path}: not UTF-8 text: byte {offset} is 0x{data[offset]:02x}; save the file as UTF-8")]
        ) from None
    try:
        return parse_toml(text)
    except TomlInputError as error:
        raise ScenarioError([("", f"{path}: not valid TOML: {error}")]) from None


def _is_bare_name(path: Path) -> bool:
    return len(path.parts) == 1 and path.name not in ("", ".", "..")


def _bundled(path: Path) -> Mapping[str, Any] | None:
    """The bundled scenario a bare name without a file of its own names (`lossy_link`)."""
    from tcpsim.paths import builtin_scenario_text

    text = builtin_scenario_text(path.name) if _is_bare_name(path) else None
    return None if text is None else parse_toml(text)


def _bundled_hint(path: Path) -> str:
    if not _is_bare_name(path):
        return ""
    from tcpsim.paths import builtin_scenario_names

    return f"; nor is it a bundled scenario ({', '.join(builtin_scenario_names())})"


MAX_DEPTH = 32
"""Deepest nesting of tables and lists accepted; a scenario's deepest value,
links[i].loss[j].intervals[k][0], is 6 levels down."""


_SCALARS = frozenset({str, int, float, bool, type(None)})
"""Types copied as they are, checked first: almost every value of a scenario is one."""

MAX_INT_BITS = 1024
"""Longest integer accepted, in bits (about 308 digits): far beyond any field's range, and far
below the 4300 digits past which Python cannot even print it, so the field's own error message
can show it."""


def plain_data(value: Any, loc: Loc = ()) -> Any:
    """A copy of user data as plain Python: dicts, lists (tuples become lists) and scalars,
    numpy scalars as their Python equivalents (np.int64 → int, np.float64 → float, np.bool_ →
    bool, np.str_ → str). Refuses anything nested deeper than :data:`MAX_DEPTH` (so recursion
    stays shallow and hostile input cannot exhaust the stack), naming the first such place in
    a walk that visits the entries of each table and list last to first."""
    numpy = sys.modules.get("numpy")  # no numpy loaded: no numpy scalars to convert

    def copy(item: Any, where: Loc, depth: int) -> Any:
        if isinstance(item, Mapping):
            entries = list(item.items())
            if entries and depth == MAX_DEPTH:
                raise _too_deep(where)
            copied: Any = dict.fromkeys(item)
            for key, sub in reversed(entries):
                if type(sub) in _SCALARS:
                    copied[key] = _bounded(sub, where, key)
                else:
                    copied[key] = copy(sub, (*where, key if isinstance(key, str | int) else repr(key)), depth + 1)
            return copied
        if isinstance(item, list | tuple):
            if item and depth == MAX_DEPTH:
                raise _too_deep(where)
            copied = list(item)
            for index in range(len(copied) - 1, -1, -1):
                if type(copied[index]) not in _SCALARS:
                    copied[index] = copy(copied[index], (*where, index), depth + 1)
                else:
                    _bounded(copied[index], where, index)
            return copied
        if numpy is not None and isinstance(item, numpy.generic):
            return item.item()
        if isinstance(item, Iterator) or (numpy is not None and isinstance(item, numpy.ndarray)):
            # A generator is used up by the first run that reads it (a sweep's second point would
            # see it empty); an array's elements are numpy values: both are asked for as lists.
            raise ScenarioError(
                [
                    (
                        format_path(where),
                        f"a {type(item).__name__} is not a list; give a list, e.g. list(...) or .tolist()",
                    )
                ]
            )
        return item

    return copy(value, loc, 0)


def _bounded(scalar: Any, where: Loc, key: Any) -> Any:
    """`scalar`, unless it is an integer longer than :data:`MAX_INT_BITS`."""
    if type(scalar) is int and scalar.bit_length() > MAX_INT_BITS:
        digits = int(scalar.bit_length() * math.log10(2)) + 1
        place = format_path((*where, key if isinstance(key, str | int) else repr(key)))
        raise ScenarioError([(place, f"an integer of about {digits} digits is beyond the range of any field")])
    return scalar


def _too_deep(where: Loc) -> ScenarioError:
    return ScenarioError(
        [(format_path(where), f"nested more than {MAX_DEPTH} levels deep; scenarios are a few tables and lists deep")]
    )
