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
from collections import defaultdict
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


def scenario_parameters(canonical_text: str | None) -> dict[str, Any]:
    """The flattened parameters of a stored canonical scenario (its engine form; the flow
    classes stored after it are not parameters). Empty if the text is missing or damaged."""
    if canonical_text is None:
        return {}
    engine = canonical_text.partition("\nclasses:")[0]
    try:
        return dict(flatten(json.loads(engine)))
    except ValueError:
        return {}


def seed_value(seed: Any) -> Any:
    return int(seed) if isinstance(seed, str) and seed.isascii() and seed.isdigit() else seed


def select(
    store: Store, where: Sequence[str] = (), status: str | None = None
) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """The stored runs (oldest first) meeting every condition of ``where`` (and of ``status``,
    "ok" or "failed"), each as (catalog row, its parameters). A condition whose path no stored
    scenario has is an error naming it, not a silently empty answer."""
    conditions = [Condition.parse(text) for text in where]
    clause, params = ("WHERE status = ?", (status,)) if status is not None else ("", ())
    rows = store.catalog.runs(clause, params)
    parameters: dict[str, dict[str, Any]] = {}
    selected = []
    known: set[str] = set(RUN_FIELDS)
    for row in rows:
        scenario_hash = row["scenario_hash"]
        if scenario_hash not in parameters:
            parameters[scenario_hash] = scenario_parameters(store.catalog.scenario(scenario_hash))
            known.update(parameters[scenario_hash])
        fields = parameters[scenario_hash] | {
            "seed": seed_value(row["seed"]),
            "status": row["status"],
            "key": row["key"],
            "scenario_hash": scenario_hash,
        }
        if all(c.holds(fields) for c in conditions):
            selected.append((row, parameters[scenario_hash]))
    unknown = [c.path for c in conditions if c.path not in known]
    if unknown and rows:
        raise QueryError(f"--where {unknown[0]}: no stored run has this parameter; {_path_examples(known)}")
    return selected


def varying(parameters: Iterable[Mapping[str, Any]]) -> list[str]:
    """The paths whose value differs between the given runs' parameters (or that only some have),
    in the order they first appear: the columns that tell the runs apart."""
    # Runs of one scenario share its parameters (one dict): each scenario is looked at once, and
    # each of its values once, so thousands of runs of scenarios with thousands of paths take
    # one pass (asking every run for every path took minutes).
    distinct = list({id(row): row for row in parameters}.values())
    order: dict[str, None] = {}
    values: dict[str, set[str]] = defaultdict(set)
    present: dict[str, int] = defaultdict(int)
    for row in distinct:
        for path, value in row.items():
            order.setdefault(path)
            present[path] += 1
            if len(values[path]) < 2:  # two different values already make the path vary
                values[path].add(json.dumps(value, sort_keys=True))
    for path in order:
        if present[path] < len(distinct):  # a run without the path reads it as null
            values[path].add("null")
    return [path for path in order if len(values[path]) > 1]


def _path_examples(known: set[str]) -> str:
    examples = sorted(p for p in known if p not in RUN_FIELDS)[:4]
    return f"paths look like {', '.join(examples)}" if examples else "the store holds no scenario"
