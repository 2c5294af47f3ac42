"""A sweep's `--out` folder: its tables, the scenario of every run, and provenance.

    out/
      flows.csv          one row per run × flow (see `tables`)
      links.csv          one row per run × link direction
      runs.csv           one row per run: status, error, wall time, events
      scenario.toml      the scenario with the sweep's fixed overrides (`set`) applied
      points/<i>/scenario.toml   with a grid: each point's scenario, every override applied
      sweep.toml         the sweep (seeds, set, grid): `tcpsim sweep SCENARIO --sweep sweep.toml`
      provenance.json    versions, git commit, command line, seeds, grid, points and hashes

`tcpsim run out/points/<i>/scenario.toml --seed N` (or `out/scenario.toml` without a grid)
repeats run (i, N) exactly: its flows.csv equals the rows of out/flows.csv with point i and seed
N, in the run's own columns. A reused folder keeps files tcpsim does not write; the files above
(and a previous sweep's points/) are replaced. A `tcpsim run --out` folder holds the run's
scenario.toml and provenance.json the same way.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tcpsim.outpaths import not_replacing_inputs, replacing, write_text
from tcpsim.sweeps.provenance import provenance
from tcpsim.sweeps.resolve import Source, resolved, write_scenario_toml

if TYPE_CHECKING:
    from tcpsim.sweeps.result import SweepResult

TABLE_FILES = ("flows", "links", "runs")
SWEEP_FILES = (*(f"{name}.csv" for name in TABLE_FILES), "scenario.toml", "points", "sweep.toml", "provenance.json")
"""What a sweep's folder holds (the module docstring), each replaced by the next save."""
RUN_FILES = ("scenario.toml", "provenance.json")
"""What `tcpsim run --out` writes beside `RunResult.save`'s tables and traces."""


def _source_name(scenario: Any) -> str:
    return "a scenario dict" if isinstance(scenario, dict) else str(scenario)


def save_sweep(result: SweepResult, directory: str | Path, command_line: list[str] | None = None) -> Path:
    """Write ``result``'s folder (see the module docstring) and return its path."""
    import tomli_w

    out = Path(directory)
    if not isinstance(result.scenario, dict):
        not_replacing_inputs(out, SWEEP_FILES, [result.scenario], "directory")
    out.mkdir(parents=True, exist_ok=True)
    for name in TABLE_FILES:
        with replacing(out / f"{name}.csv") as temporary:
            getattr(result, name).to_csv(temporary, index=False)
    definition, source = result.definition, _source_name(result.scenario)
    header = [f"tcpsim sweep: {source}", "with the sweep's fixed overrides applied: " + _spelled(definition.fixed)]
    base_hash = write_scenario_toml(resolved(result.scenario, definition.fixed), out / "scenario.toml", header)
    shutil.rmtree(out / "points", ignore_errors=True)
    points = []
    width = len(str(len(definition.combinations()) - 1))
    for index, point in enumerate(definition.combinations() if definition.grid else []):
        file = Path("points") / f"{index:0{width}d}" / "scenario.toml"
        overrides = definition.overrides(point)
        scenario_hash = write_scenario_toml(
            resolved(result.scenario, overrides),
            out / file,
            [f"tcpsim sweep: {source}, grid point {index}", "with overrides: " + _spelled(dict(overrides))],
        )
        points.append({"point": index, "parameters": point, "scenario_file": str(file), "scenario_hash": scenario_hash})
    sweep_data = definition.to_toml_data()
    write_text(out / "sweep.toml", tomli_w.dumps(sweep_data))
    runs = result.runs["status"].value_counts().to_dict()
    example = points[0]["scenario_file"] if points else "scenario.toml"
    record = {
        **provenance(command_line),
        "scenario": {"source": source, "file": "scenario.toml", "hash": base_hash},
        "sweep": {"file": "sweep.toml", **sweep_data},
        "points": points
        or [{"point": 0, "parameters": {}, "scenario_file": "scenario.toml", "scenario_hash": base_hash}],
        "runs": {"total": len(result.runs), "ok": runs.get("ok", 0), "failed": runs.get("failed", 0)},
        "rerun": f"tcpsim run {out / example} --seed {definition.seeds[0]}",
    }
    write_text(out / "provenance.json", json.dumps(record, indent=2, default=str) + "\n")
    return out


def save_run_provenance(
    directory: Path, source: Source, overrides: Sequence[str], seed: int, command_line: list[str] | None
) -> None:
    """Beside a `tcpsim run --out` folder's tables: scenario.toml (``overrides`` applied) and
    provenance.json, so that `tcpsim run DIR/scenario.toml --seed SEED` repeats the run."""
    scenario_hash = write_scenario_toml(
        resolved(source, overrides),
        directory / "scenario.toml",
        [f"tcpsim run: {_source_name(source)}", "with overrides: " + (", ".join(overrides) or "(none)")],
    )
    record = {
        **provenance(command_line),
        "scenario": {"source": _source_name(source), "file": "scenario.toml", "hash": scenario_hash},
        "overrides": list(overrides),
        "seed": seed,
        "rerun": f"tcpsim run {directory / 'scenario.toml'} --seed {seed}",
    }
    write_text(directory / "provenance.json", json.dumps(record, indent=2, default=str) + "\n")


def _spelled(overrides: dict[str, Any]) -> str:
    return ", ".join(f"{path}={value!r}" for path, value in overrides.items()) or "(none)"
