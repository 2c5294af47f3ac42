"""Selecting stored runs by the parameters of their scenario, as sem and scavetool query by
parameter: ``--where 'links[bottleneck].rate_bps >= 1e6'``.

A run's parameters are its canonical (engine) scenario flattened into paths: a table's keys join
with dots, a list of named tables (links, flows, udp_flows, web) is indexed by name, any other
list by position (``links[bottleneck].ab.queue.limit_packets``, ``flows[f1].tcp.cc.kind``,
``nodes[0]``); a list of plain values stays one value. Beside them: ``seed``, ``status``,
``key`` and ``scenario_hash``. Quantities are the engine's base units: ns, bit/s, bytes.
"""

from __future__ import annotations

import json
import operator
import re
from collections import ChainMap, defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tcpsim.store.store import Store

RUN_FIELDS = ("seed", "status", "key", "scenario_hash")
"""Fields of a stored run that conditions may name besides its parameters."""

_OPERATORS: dict[str, Callable[[Any, Any], bool]] = {
    "==": operator.eq,
    "!=": operator.ne,
    ">=": operator.ge,
    "<=": operator.le,
    ">": operator.gt,
    "<": operator.lt,
}
_CONDITION = re.compile(r"^\s*(?P<path>[^<>=!]*?)\s*(?P<op>==|!=|>=|<=|>|<|=)\s*(?P<value>.*?)\s*$")


class QueryError(ValueError):
    """A condition that cannot be read, or that names a parameter no stored run has."""


@dataclass(frozen=True)
class Condition:
    """``path op value``: the run's value at ``path`` compared with ``value``."""

    path: str
    op: str
    value: Any

    @classmethod
    def parse(cls, text: str) -> Condition:
        """``links[bottleneck].rate_bps >= 1e6``; ``=`` means ``==``; the value is read as TOML
        when it parses (``1e6``, ``true``, ``"drop_tail"``), else as text (``drop_tail``)."""
        from tcpsim.toml_input import TomlInputError, parse_toml

        found = _CONDITION.match(text)
        if found is None or not found["path"] or not found["value"]:
            raise QueryError(
                f"--where {text!r}: write PATH OP VALUE with OP one of {', '.join(_OPERATORS)}, "
                "e.g. 'links[bottleneck].rate_bps >= 1e6'"
            )
        try:
            value = parse_toml(f"value = {found['value']}")["value"]
        except TomlInputError:
            value = found["value"]
        op = "==" if found["op"] == "=" else found["op"]
        return cls(found["path"], op, value)

    def holds(self, fields: Mapping[str, Any]) -> bool:
        """Whether the run with these fields meets it; a run without the path, or whose value
        cannot be compared with the condition's, does not."""
        if self.path not in fields:
            return False
        have = fields[self.path]
        if isinstance(have, bool) != isinstance(self.value, bool) and self.op not in ("==", "!="):
            return False
        try:
            return bool(_OPERATORS[self.op](have, self.value))
        except TypeError:
            return False


def flatten(value: Any, prefix: str = "") -> Iterator[tuple[str, Any]]:
    """(path, value) of every leaf of a canonical scenario (see the module docstring)."""
    if isinstance(value, Mapping):
        for key, item in value.items():
            yield from flatten(item, f"{prefix}.{key}" if prefix else str(key))
    elif isinstance(value, list) and value and all(isinstance(item, Mapping | list) for item in value):
        names = [item.get("name") if isinstance(item, Mapping) else None for item in value]
        by_name = all(isinstance(n, str) for n in names) and len(set(names)) == len(names)
        for index, item in enumerate(value):
            yield from flatten(item, f"{prefix}[{names[index] if by_name else index}]")
    elif isinstance(value, list):
        yield prefix, json.dumps(value)
    else:
        yield prefix, value


def _flatten_into(value: Any, prefix: str, out: dict[str, Any], wanted: frozenset[str] | None) -> None:
    """:func:`flatten` into ``out`` (same paths, same order), without a generator per level: a
    scenario of 1 600 flows has tens of thousands of leaves. With ``wanted`` (the paths asked
    for and each of their ancestors, :func:`_ancestors`) only those branches are walked."""
    if isinstance(value, Mapping):
        for key, item in value.items():
            path = f"{prefix}.{key}" if prefix else str(key)
            if wanted is None or path in wanted:
                _flatten_into(item, path, out, wanted)
    elif isinstance(value, list) and value and all(isinstance(item, Mapping | list) for item in value):
        names = [item.get("name") if isinstance(item, Mapping) else None for item in value]
        by_name = all(isinstance(n, str) for n in names) and len(set(names)) == len(names)
        for index, item in enumerate(value):
            path = f"{prefix}[{names[index] if by_name else index}]"
            if wanted is None or path in wanted:
                _flatten_into(item, path, out, wanted)
    elif isinstance(value, list):
        out[prefix] = json.dumps(value)
    else:
        out[prefix] = value


def _ancestors(paths: Iterable[str]) -> frozenset[str]:
    """The paths and every path a leaf of theirs descends from: each leaf's path extends its
    parent's by ``.key`` or ``[name]``, so every cut before a ``.`` or ``[`` (some are not
    parents when a name holds those characters, which only costs a branch walked in vain)."""
    paths = list(paths)
    return frozenset([*paths, *(path[:cut] for path in paths for cut, char in enumerate(path) if char in ".[")])


def _engine_scenario(canonical_text: str | None) -> Any:
    """The engine form of a stored canonical scenario (the flow classes stored after it are not
    parameters), or None if the text is missing or damaged."""
    if canonical_text is None:
        return None
    try:
        return json.loads(canonical_text.partition("\nclasses:")[0])
    except ValueError:
        return None


def scenario_parameters(canonical_text: str | None, paths: Iterable[str] | None = None) -> dict[str, Any]:
    """The flattened parameters of a stored canonical scenario (its engine form; the flow
    classes stored after it are not parameters), or only those among ``paths``. Empty if the
    text is missing or damaged."""
    return _parameters(_engine_scenario(canonical_text), None if paths is None else _ancestors(paths))


def _parameters(scenario: Any, wanted: frozenset[str] | None) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if scenario is not None:
        _flatten_into(scenario, "", out, wanted)
    return out


class Parameters(Mapping[str, Any]):
    """The flattened parameters of one stored scenario, worked out on first use and then kept:
    ``store ls`` never looks at them, ``--where`` looks only at the paths it names (see
    :func:`select`), export at all of them, once per scenario however many runs share it."""

    def __init__(self, scenario: Any):
        self._scenario = scenario
        self._flat: dict[str, Any] | None = None

    @property
    def flat(self) -> dict[str, Any]:
        if self._flat is None:
            self._flat = _parameters(self._scenario, None)
            self._scenario = None
        return self._flat

    def __getitem__(self, path: str) -> Any:
        return self.flat[path]

    def __iter__(self) -> Iterator[str]:
        return iter(self.flat)

    def __len__(self) -> int:
        return len(self.flat)

    def __contains__(self, path: object) -> bool:
        return path in self.flat

    def get(self, path: str, default: Any = None) -> Any:
        return self.flat.get(path, default)

    def items(self):  # noqa: ANN201 - the dict's own view
        return self.flat.items()

    def __eq__(self, other: object) -> bool:
        return self.flat == (other.flat if isinstance(other, Parameters) else other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Parameters({self.flat!r})"


def seed_value(seed: Any) -> Any:
    return int(seed) if isinstance(seed, str) and seed.isascii() and seed.isdigit() else seed


def select(
    store: Store, where: Sequence[str] = (), status: str | None = None
) -> list[tuple[dict[str, Any], Parameters]]:
    """The stored runs (oldest first) meeting every condition of ``where`` (and of ``status``,
    "ok" or "failed"), each as (catalog row, its parameters). A condition whose path no stored
    scenario has is an error naming it, not a silently empty answer.

    Each distinct scenario is read once, and flattened only as far as the conditions' paths
    reach; its full parameters (:class:`Parameters`, shared by its runs) are worked out only
    when the caller looks at them."""
    conditions = [Condition.parse(text) for text in where]
    clause, params = ("WHERE status = ?", (status,)) if status is not None else ("", ())
    rows = store.catalog.runs(clause, params)
    wanted = _ancestors(c.path for c in conditions if c.path not in RUN_FIELDS)
    parameters: dict[str, Parameters] = {}
    asked: dict[str, dict[str, Any]] = {}  # per scenario: its values at the conditions' paths
    selected = []
    for row in rows:
        scenario_hash = row["scenario_hash"]
        if scenario_hash not in parameters:
            scenario = _engine_scenario(store.catalog.scenario(scenario_hash))
            parameters[scenario_hash] = Parameters(scenario)
            asked[scenario_hash] = _parameters(scenario, wanted) if conditions else {}
        fields = ChainMap(
            {
                "seed": seed_value(row["seed"]),
                "status": row["status"],
                "key": row["key"],
                "scenario_hash": scenario_hash,
            },
            asked[scenario_hash],
        )
        if all(c.holds(fields) for c in conditions):
            selected.append((row, parameters[scenario_hash]))
    known = set(RUN_FIELDS).union(*asked.values())
    unknown = [c.path for c in conditions if c.path not in known]
    if unknown and rows:
        every = known.union(*(p.flat for p in parameters.values()))
        raise QueryError(f"--where {unknown[0]}: no stored run has this parameter; {_path_examples(every)}")
    return selected


def condition_paths(where: Sequence[str]) -> list[str]:
    """The scenario paths the conditions of ``where`` name (not the run fields), in their order:
    an export keeps them as columns even when every chosen run has the same value."""
    return list(dict.fromkeys(c.path for c in map(Condition.parse, where) if c.path not in RUN_FIELDS))


def varying(parameters: Iterable[Mapping[str, Any]]) -> list[str]:
    """The paths whose value differs between the given runs' parameters (or that only some have),
    in the order they first appear: the columns that tell the runs apart."""
    # Runs of one scenario share its parameters (one dict): each scenario is looked at once, and
    # each of its values once, so thousands of runs of scenarios with thousands of paths take
    # one pass (asking every run for every path took minutes).
    distinct = list({id(row): row for row in parameters}.values())
    order: dict[str, None] = {}
    first: dict[str, Any] = {}  # the value (as _same_key) the path has in the first run that has it
    differs: set[str] = set()
    present: dict[str, int] = defaultdict(int)
    for row in distinct:
        for path, value in row.items():
            present[path] += 1
            if path not in first:
                order[path] = None
                first[path] = _same_key(value)
            elif path not in differs and first[path] != _same_key(value):
                differs.add(path)
    null = _same_key(None)
    for path in order:
        if present[path] < len(distinct) and first[path] != null:  # a run without the path reads it as null
            differs.add(path)
    return [path for path in order if path in differs]


def _same_key(value: Any) -> Any:
    """A key equal for two values exactly when their JSON texts (keys sorted) are: numbers of
    another type (1, 1.0, true) differ, tables compare by content."""
    if value is None or isinstance(value, str | int):  # bool is an int: the type tells them apart
        return (type(value), value)
    if isinstance(value, float):
        return (float, repr(value))  # json writes a float as its repr (nan, -0.0 included)
    return (object, json.dumps(value, sort_keys=True))


def _path_examples(known: set[str]) -> str:
    examples = sorted(p for p in known if p not in RUN_FIELDS)[:4]
    return f"paths look like {', '.join(examples)}" if examples else "the store holds no scenario"
