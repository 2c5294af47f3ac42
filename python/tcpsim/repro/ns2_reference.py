"""ns-2's results for an experiment's set-up, read as data: what the papers' own simulator gives
when it runs the experiment's main reading, shown beside the paper's value and tcpsim's.

One JSON file per experiment, ``ns2_reference/<experiment id>.json`` in this package (shipped in
the wheel with the package's other data files), written by the ns-2 runner of the project's
``peers/ns2`` (the ``gangadhar`` ones, whose paper ran ns-3.17, by ``peers/ns317/run.py`` from the
real ns-3.17; the folder's README says who writes what). Its fields:

- ``experiment``: the experiment id (the file's name without ``.json``);
- ``script``, ``command``: the Tcl script (a path inside the project) and the command that
  re-runs it (needs a built ns-2);
- ``ns2``: which simulator build ran it ("ns-2.35 stock", "ns-2.35 + UCLA TCP Westwood agents",
  "ns-3.17 (built from its tag, peers/ns317)");
- ``tool`` (optional, default "ns-2"): the peer simulator's short name, the label its values are
  shown under ("ns-2", "ns-3.17"); the ns-3.44 twins of ``peers/ns3`` write the same format to
  ``peers/ns3/results``, copied into the ns-3.17 files as "other" numbers;
- ``setup``: what the script runs, and every deviation from the experiment's main reading;
- ``replications``: how many runs each value averages;
- ``numbers``: ``{"name", "value", "ci"}``, ``name`` exactly the ``name`` of the experiment's
  Number it corresponds to (or a descriptive name, shown among "other ns-2 values"), ``ci`` a
  ``[low, high]`` pair or null;
- ``observations``: free-text findings.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

DIRECTORY = Path(__file__).resolve().parent / "ns2_reference"
"""Where the files are read from (tests point it elsewhere)."""

_TEXT_FIELDS = ("experiment", "script", "command", "ns2", "setup")

DEFAULT_TOOL = "ns-2"
"""The label of a reference without a ``tool`` field."""


class Ns2ReferenceError(ValueError):
    """A reference file exists but is not in the format above; the message names the file."""


@dataclass(frozen=True)
class Ns2Number:
    name: str
    value: float | None
    ci: tuple[float, float] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "value": self.value, "ci": list(self.ci) if self.ci is not None else None}


@dataclass(frozen=True)
class Ns2Reference:
    experiment: str
    script: str
    command: str
    ns2: str
    setup: str
    replications: int
    numbers: tuple[Ns2Number, ...] = ()
    observations: tuple[str, ...] = field(default_factory=tuple)
    tool: str = DEFAULT_TOOL

    def value(self, name: str) -> Ns2Number | None:
        """The ns-2 number named ``name`` exactly, or None."""
        return next((n for n in self.numbers if n.name == name), None)

    def to_dict(self) -> dict[str, Any]:
        return {
            "experiment": self.experiment,
            "script": self.script,
            "command": self.command,
            "ns2": self.ns2,
            "tool": self.tool,
            "setup": self.setup,
            "replications": self.replications,
            "numbers": [n.to_dict() for n in self.numbers],
            "observations": list(self.observations),
        }


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _parse(path: Path, experiment_id: str, data: Any) -> Ns2Reference:
    def bad(why: str) -> Ns2ReferenceError:
        return Ns2ReferenceError(f"{path}: {why} (format: tcpsim.repro.ns2_reference)")

    if not isinstance(data, dict):
        raise bad("not a JSON object")
    missing = [key for key in (*_TEXT_FIELDS, "replications", "numbers", "observations") if key not in data]
    if missing:
        raise bad(f"missing {', '.join(missing)}")
    for key in _TEXT_FIELDS:
        if not isinstance(data[key], str):
            raise bad(f"{key!r} is not a string")
    if data["experiment"] != experiment_id:
        raise bad(f"'experiment' is {data['experiment']!r}, the file is named for {experiment_id!r}")
    replications = data["replications"]
    if isinstance(replications, bool) or not isinstance(replications, int) or replications < 1:
        raise bad(f"'replications' is {replications!r}, not a positive integer")
    if not isinstance(data["observations"], list) or not all(isinstance(o, str) for o in data["observations"]):
        raise bad("'observations' is not a list of strings")
    if not isinstance(data["numbers"], list):
        raise bad("'numbers' is not a list")
    numbers = []
    for i, entry in enumerate(data["numbers"]):
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str) or "value" not in entry:
            raise bad(f"numbers[{i}] is not an object with a string 'name' and a 'value'")
        value, ci = entry["value"], entry.get("ci")
        if value is not None and not _number(value):
            raise bad(f"numbers[{i}] ({entry['name']!r}): 'value' {value!r} is not a finite number or null")
        if ci is not None and not (isinstance(ci, list) and len(ci) == 2 and all(_number(v) for v in ci)):
            raise bad(f"numbers[{i}] ({entry['name']!r}): 'ci' {ci!r} is not [low, high] or null")
        numbers.append(Ns2Number(entry["name"], None if value is None else float(value), tuple(ci) if ci else None))
    tool = data.get("tool", DEFAULT_TOOL)
    if not isinstance(tool, str) or not tool:
        raise bad(f"'tool' is {tool!r}, not a non-empty string")
    names = [n.name for n in numbers]
    if len(set(names)) != len(names):
        raise bad("two numbers share a name")
    return Ns2Reference(
        **{key: data[key] for key in _TEXT_FIELDS},
        replications=replications,
        numbers=tuple(numbers),
        observations=tuple(data["observations"]),
        tool=tool,
    )


def load(experiment_id: str, directory: Path | None = None) -> Ns2Reference | None:
    """The ns-2 reference of ``experiment_id``, or None when there is none; raises
    ``Ns2ReferenceError`` naming the file when it cannot be read or is not in the format."""
    path = (DIRECTORY if directory is None else Path(directory)) / f"{experiment_id}.json"
    if not path.is_file():
        return None
    try:
        data = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise Ns2ReferenceError(f"{path}: cannot be read as JSON ({error})") from None
    return _parse(path, experiment_id, data)
