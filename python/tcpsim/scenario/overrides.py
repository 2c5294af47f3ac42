"""Overrides: `--set path=value` (and `run(..., **{path: value})`) applied to the raw scenario
before validation, each step of the path checked against the schema."""

import re
from collections.abc import Mapping, Sequence
from typing import Any

from tcpsim.scenario.errors import Loc, ScenarioError, format_path, show, unknown_key
from tcpsim.scenario.introspect import field_type, keys_of, list_item, models_in, tag_key, tag_of
from tcpsim.scenario.root import Scenario
from tcpsim.scenario.source import plain_data
from tcpsim.toml_input import TomlInputError, parse_toml

# A path is keys separated by dots, each key followed by any number of [index], [*] or [name]
# selectors; a name may hold any character but "]" (link names such as "s0-r1" or "wlan.up").
_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|\d+|\*", re.ASCII)
_SELECTOR = re.compile(r"\[([^\]]+)\]")


class ItemName(str):
    """A list item selected by its `name` field: `links[bottleneck]`, `flows[fwd0]`."""


class _OverrideError(Exception):
    def __init__(self, loc: Loc, message: str) -> None:
        super().__init__(message)
        self.loc, self.message = loc, message


def _parse_path(path: str) -> list[str | int]:
    """ "links[1].rate", "links.1.rate", "flows[*].variant", "links[bottleneck].rate" →
    ["links", 1, "rate"], ... ("*" = every item, an :class:`ItemName` = the item of that name)."""
    segments: list[str | int] = []
    position = 0
    while True:
        match = _KEY.match(path, position)
        if match is None:
            raise _not_a_path(path)
        head = match.group()
        segments.append(int(head) if head.isdigit() else head)
        position = match.end()
        while selector := _SELECTOR.match(path, position):
            text = selector.group(1).strip()
            is_index = text.isascii() and text.isdigit()  # "１" (full width) is a name, not 1
            segments.append(int(text) if is_index else text if text == "*" else ItemName(text))
            position = selector.end()
        if position == len(path):
            return segments
        if path[position] != "." or position + 1 == len(path):
            raise _not_a_path(path)
        position += 1


def _not_a_path(path: str) -> _OverrideError:
    return _OverrideError(
        (),
        f"{path!r} is not a path; write keys separated by dots, e.g. 'links[0].rate', "
        "'links[bottleneck].rate' or 'flows[*].variant'",
    )


def _parse_value(text: str) -> Any:
    """A TOML value if `text` is one (100, true, 0.5, "x", [1, 2], {kind = "aimd"}), else the
    text itself, so `rate=5Mbps` needs no quotes."""
    try:
        return parse_toml(f"value = {text}")["value"]
    except TomlInputError:  # not TOML (or too deep, too long a number for the parser): text
        return text


def _assign(node: Any, annotation: Any, segments: Sequence[str | int], value: Any, loc: Loc) -> None:
    """Set `value` at `segments` below `node` (whose schema type is `annotation`), checking each
    step against the schema. Missing tables are created only where the schema has a plain table
    (e.g. `tcp`, `trace`, `flows[0].tcp`, `links[0].ab`)."""
    segment, rest = segments[0], segments[1:]
    if isinstance(segment, int | ItemName) or segment == "*":
        item_annotation = list_item(annotation)
        if item_annotation is None or not isinstance(node, list):
            raise _OverrideError(loc, f"{show(node)} is not a list, so [{segment}] does not apply")
        if isinstance(segment, ItemName):
            indices = [_index_of(node, segment, loc)]
        else:
            indices = range(len(node)) if segment == "*" else [segment]
        for index in indices:
            if index >= len(node):
                raise _OverrideError((*loc, index), f"no such entry; {format_path(loc)} has {len(node)}")
            if rest:
                _assign(node[index], item_annotation, rest, value, (*loc, index))
            else:
                node[index] = value
        return
    models = models_in(annotation)
    if not models or not isinstance(node, dict):
        raise _OverrideError(loc, f"{show(node)} is not a table, so it has no key {segment!r}")
    chosen = [model for model in models if tag_of(model) == node.get(tag_key(model) or "kind")] or models
    field_annotation = field_type(chosen, segment)
    if field_annotation is None:
        raise _OverrideError((*loc, segment), unknown_key(segment, keys_of(chosen)))
    if not rest:
        node[segment] = value
        return
    if segment not in node:
        table = models_in(field_annotation)
        if len(table) != 1 or tag_of(table[0]) is not None:
            raise _OverrideError(
                (*loc, segment), f"not set, so it has no keys to change; set {format_path((*loc, segment))} as a whole"
            )
        node[segment] = {}
    _assign(node[segment], field_annotation, rest, value, (*loc, segment))


def _index_of(items: list[Any], name: str, loc: Loc) -> int:
    """Position of the item whose `name` is `name` (names are unique: validation checks them)."""
    names = [item.get("name") if isinstance(item, dict) else None for item in items]
    if name in names:
        return names.index(name)
    known = [str(n) for n in names if n is not None]
    listed = ", ".join(repr(n) for n in known[:10]) + (f" and {len(known) - 10} more" if len(known) > 10 else "")
    raise _OverrideError(
        loc, f"no entry named {name!r}" + (f"; names here: {listed}" if known else "; its entries have no names")
    )


def apply_overrides(raw: Mapping[str, Any], overrides: Sequence[str] | Mapping[str, Any]) -> dict[str, Any]:
    """A copy of `raw` with overrides applied, before validation (so errors keep user paths).

    `overrides` is either "path=value" strings (the CLI's `--set`; the value is parsed as TOML
    when it is valid TOML, else taken as a string) or a {path: value} dict (values used as is).
    Paths: `duration`, `tcp.mss`, `links[1].rate` or `links.1.rate`, `links[bottleneck].rate` (the
    item of that name), `flows[*].variant`.
    """
    data = plain_data(raw)
    if isinstance(overrides, str):
        overrides = [overrides]
    entries = overrides.items() if isinstance(overrides, Mapping) else overrides
    problems: list[tuple[str, str]] = []
    first_source: dict[tuple[str | int, ...], str] = {}
    for entry in entries:
        try:
            path, value = _split_override(entry) if isinstance(entry, str) else entry
            segments = _parse_path(path.strip())
            source = entry if isinstance(entry, str) else path
            if (earlier := first_source.get(tuple(segments))) is None:
                first_source[tuple(segments)] = source
            else:
                # The last one would silently win: `--set duration=1s --set duration=2s`.
                raise _OverrideError(tuple(segments), f"set twice ({earlier!r}, then {source!r}); give each path once")
            _assign(data, Scenario, segments, plain_data(value, tuple(s for s in segments if s != "*")), ())
        except _OverrideError as error:
            source = entry if isinstance(entry, str) else entry[0]
            problems.append((format_path(error.loc), f"{error.message} (override {source!r})"))
    if problems:
        raise ScenarioError(problems)
    return data


def override_path(text: str) -> tuple[str | int, ...] | None:
    """The path a "path=value" override sets, as segments (`links.1.rate` and `links[1].rate`
    alike); None when `text` is not an override."""
    try:
        path, _ = _split_override(text)
        return tuple(_parse_path(path.strip()))
    except _OverrideError:
        return None


def _split_override(text: str) -> tuple[str, Any]:
    path, separator, value = text.partition("=")
    if not separator or not path.strip():
        raise _OverrideError((), "expected path=value, e.g. 'duration=100s' or 'links[0].rate=5Mbps'")
    return path, _parse_value(value.strip())
