"""A sweep's results as tidy tables: one row per run × flow, per run × link direction, per run.

Every table starts with the parameter columns (each axis as the user wrote its values, then its
SI columns, see `quantities`) and the seed, and ends with the run's grid point, scenario hash
and tcpsim version, so rows from different sweeps, versions or scenarios can be told apart
after they are concatenated.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from tcpsim.sweeps.definition import SweepDefinition
from tcpsim.sweeps.quantities import si_columns
from tcpsim.tidy import RunKey, tidy

if TYPE_CHECKING:
    import pandas as pd

    from tcpsim.result import RunResult

TAIL_COLUMNS = ["point", "scenario_hash", "tcpsim_version"]


def parameter_frame(definition: SweepDefinition) -> pd.DataFrame:
    """One row per grid point (index = point): each axis's values, then their SI columns."""
    import pandas as pd

    points = definition.combinations()
    columns: dict[str, list[Any]] = {}
    for path in definition.grid:
        values = [point[path] for point in points]
        columns[path] = values
        columns |= si_columns(path, values)
    frame = pd.DataFrame(index=range(len(points)))
    for name, values in columns.items():
        # object dtype keeps a list-valued parameter as one cell instead of a 2-D array
        scalar = all(pd.api.types.is_scalar(value) or value is None for value in values)
        frame[name] = pd.Series(values, dtype=None if scalar else object)
    return frame


def labelled(
    parameters: pd.DataFrame, runs: Sequence[tuple[RunKey, pd.DataFrame, Mapping[str, Any]]], columns: Sequence[str]
) -> pd.DataFrame:
    """The rows of each run's table (keyed ``RunKey(point=..., seed=...)``) labelled with its
    parameters and seed, then its point, scenario hash and version (:func:`tcpsim.tidy.tidy`).
    ``columns`` name the table's columns when no run has any."""
    import pandas as pd

    points = [key["point"] for key, _, _ in runs]
    labels = parameters.iloc[points].reset_index(drop=True)
    labels["seed"] = pd.Series([key["seed"] for key, _, _ in runs], dtype="int64")
    trailing = pd.DataFrame(
        {
            "point": pd.Series(points, dtype="int64"),
            "scenario_hash": [meta.get("scenario_hash") for _, _, meta in runs],
            "tcpsim_version": [meta.get("version") for _, _, meta in runs],
        }
    )
    return tidy(labels, [table for _, table, _ in runs], columns, trailing)


def run_table(
    parameters: pd.DataFrame,
    keys: Sequence[RunKey],
    results: Mapping[RunKey, RunResult],
    failures: Mapping[RunKey, str],
) -> pd.DataFrame:
    """One row per run, in sweep order: parameters, seed, status (ok/failed), error, wall time,
    events, then point, scenario hash and version."""
    import pandas as pd

    rows = []
    for key in keys:
        meta = results[key].meta if key in results else {}
        status = "ok" if key in results else "failed"
        rows.append(
            (
                key,
                pd.DataFrame(
                    {
                        "status": [status],
                        "error": [failures.get(key)],
                        "wall_s": [meta.get("wall_s")],
                        "events": [meta.get("events")],
                    }
                ),
                meta,
            )
        )
    return labelled(parameters, rows, ["status", "error", "wall_s", "events"])
