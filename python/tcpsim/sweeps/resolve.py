"""A scenario with its overrides applied, as self-contained data and as a TOML file.

Two needs share this: a Dask worker may run in another directory or on another machine, so it
gets the scenario's content, not a path it cannot open; and an `--out` folder must hold each run's
scenario so that `tcpsim run out/scenario.toml --seed N` repeats that run exactly.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from tcpsim.outpaths import write_text

Source = Mapping[str, Any] | str | os.PathLike[str]


def resolved(source: Source, overrides: Sequence[tuple[str, Any] | str] | Mapping[str, Any] = ()) -> dict[str, Any]:
    """The user-format scenario (units as written) with ``overrides`` ((path, value) pairs,
    "path=value" texts or a mapping) applied: plain data that loads to the same canonical
    scenario, hence the same hash and the same results."""
    from tcpsim.scenario import apply_overrides
    from tcpsim.scenario.source import read_source

    return apply_overrides(read_source(source), overrides)


def write_scenario_toml(data: Mapping[str, Any], path: Path, header: Sequence[str] = ()) -> str:
    """Write ``data`` as TOML (``header`` lines as comments on top) and return its scenario hash,
    checked to be the same read back: a value TOML cannot hold would otherwise go unnoticed."""
    from tcpsim.scenario import load_scenario
    from tcpsim.scenario.toml_text import scenario_toml

    comments = "".join(f"# {line}\n" for line in header)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_text(path, comments + scenario_toml(data))
    scenario_hash = load_scenario(data).hash()
    if load_scenario(path).hash() != scenario_hash:
        raise RuntimeError(f"{path}: the written scenario does not read back the same (a tcpsim bug)")
    return scenario_hash
