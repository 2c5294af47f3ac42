"""Overrides: `--set path=value` (and `run(..., **{path: value})`) applied to the raw scenario
before validation, each step of the path checked against the schema."""

import re
import tomllib
from collections.abc import Mapping, Sequence
from typing import Any

from tcpsim.scenario.errors import Loc, ScenarioError, format_path, show, unknown_key
from tcpsim.scenario.introspect import field_type, keys_of, list_item, models_in, tag_key, tag_of
from tcpsim.scenario.root import Scenario
from tcpsim.scenario.source import plain_data

_SEGMENT = re.compile(r"([A-Za-z_][A-Za-z0-9_]*|\d+|\*)((?:\[(?:\d+|\*)\])*)", re.ASCII)


class _OverrideError(Exception):
    def __init__(self, loc: Loc, message: str) -> None:
        super().__init__(message)
        self.loc, self.message = loc, message


def _parse_path(path: str) -> list[str | int]:
    """ "links[1].rate", "links.1.rate", "flows[*].variant" → ["links", 1, "rate"], ... ("*" = all)."""
    segments: list[str | int] = []
    for part in path.split("."):
        match = _SEGMENT.fullmatch(part)
        if match is None:
            raise _OverrideError(
                (), f"{path!r} is not a path; write keys separated by dots, e.g. 'links[0].rate' or 'flows[*].variant'"
            )
        head, brackets = match.groups()
        for segment in (head, *re.findall(r"\[(\d+|\*)\]", brackets, re.ASCII)):
            segments.append(int(segment) if segment.isdigit() else segment)
    return segments


def _parse_value(text: str) -> Any:
    """A TOML value if `text` is one (100, true, 0.5, "x", [1, 2], {kind = "aimd"}), else the
    text itself, so `rate=5Mbps` needs no quotes."""
    try:
        return tomllib.loads(f"value = {text}")["value"]
    except (tomllib.TOMLDecodeError, RecursionError):  # nested too deeply for the parser: text too
        return text


def _assign(node: Any, annotation: Any, segments: Sequence[str | int], value: Any, loc: Loc) -> None:
    """Set `value` at `segments` below `node` (whose schema type is `annotation`), checking each
    step against the schema. Missing tables are created only where the schema has a plain table
    (e.g. `tcp`, `trace`, `flows[0].tcp`, `links[0].ab`)."""
    segment, rest = segments[0], segments[1:]
    if isinstance(segment, int) or segment == "*":
        item_annotation = list_item(annotation)
        if item_annotation is None or not isinstance(node, list):
            raise _OverrideError(loc, f"{show(node)} is not a list, so [{segment}] does not apply")
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


def apply_overrides(raw: Mapping[str, Any], overrides: Sequence[str] | Mapping[str, Any]) -> dict[str, Any]:
    """A copy of `raw` with overrides applied, before validation (so errors keep user paths).

    `overrides` is either "path=value" strings (the CLI's `--set`; the value is parsed as TOML
    when it is valid TOML, else taken as a string) or a {path: value} dict (values used as is).
    Paths: `duration`, `tcp.mss`, `links[1].rate` or `links.1.rate`, `flows[*].variant`.
    """
    data = plain_data(raw)
    if isinstance(overrides, str):
        overrides = [overrides]
    entries = overrides.items() if isinstance(overrides, Mapping) else overrides
    problems: list[tuple[str, str]] = []
    for entry in entries:
        try:
            path, value = _split_override(entry) if isinstance(entry, str) else entry
            segments = _parse_path(path.strip())
            _assign(data, Scenario, segments, plain_data(value, tuple(s for s in segments if s != "*")), ())
        except _OverrideError as error:
            source = entry if isinstance(entry, str) else entry[0]
            problems.append((format_path(error.loc), f"{error.message} (override {source!r})"))
    if problems:
        raise ScenarioError(problems)
    return data


def _split_override(text: str) -> tuple[str, Any]:
    path, separator, value = text.partition("=")
    if not separator or not path.strip():
        raise _OverrideError((), "expected path=value, e.g. 'duration=100s' or 'links[0].rate=5Mbps'")
    return path, _parse_value(value.strip())
