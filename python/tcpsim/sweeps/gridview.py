"""A sweep as an xarray Dataset: one dimension per grid axis, then seed, then flow (or link and
direction); one data variable per numeric column of the table.

Dimensions keep the grid's order (not the text order of "10Mbps" < "2Mbps"), and each axis
written with units carries its SI values as a coordinate along it (`links[1].rate_bps` on
`links[1].rate`), so `ds.goodput_bps.mean("seed").plot(x="links[1].rate_bps")` works. A run
that failed is NaN. xarray is an optional dependency (`pip install 'tcpsim[xarray]'`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tcpsim.sweeps.quantities import si_columns
from tcpsim.sweeps.tables import TAIL_COLUMNS

if TYPE_CHECKING:
    import pandas as pd
    import xarray

    from tcpsim.sweeps.definition import SweepDefinition

ENTITIES = {"flows": ["name"], "links": ["name", "direction"]}
"""The columns that name a row of a run's table."""
IDENTIFIERS = {"id", "link"}
"""Numeric columns that number a row rather than measure anything."""


class XarrayUnavailable(ImportError):
    """`to_xarray()` was called but xarray is not installed."""


def _hashable(value: Any) -> Any:
    """A list-valued parameter ([10, 20]) as its text, so it can label a dimension."""
    return str(value) if isinstance(value, list | dict) else value


def to_dataset(table: pd.DataFrame, definition: SweepDefinition, kind: str) -> xarray.Dataset:
    """``table`` (a sweep's flows or links table) as a Dataset; see the module docstring."""
    try:
        import xarray
    except ImportError as error:
        raise XarrayUnavailable(
            "SweepResult.to_xarray() needs xarray, an optional dependency; install it with: pip install 'tcpsim[xarray]'"
        ) from error
    import pandas as pd

    axes, entity = list(definition.grid), ENTITIES[kind]
    dims = [*axes, "seed", *entity]
    si = {path: list(si_columns(path, definition.grid[path])) for path in axes}
    labels = set(dims) | set(TAIL_COLUMNS) | {c for cs in si.values() for c in cs} | IDENTIFIERS
    numeric = [c for c in table.columns if c not in labels and pd.api.types.is_numeric_dtype(table[c])]
    frame = table.copy()
    for path in axes:
        frame[path] = frame[path].map(_hashable)
    dataset = xarray.Dataset.from_dataframe(frame.set_index(dims)[numeric])
    order = {path: list(dict.fromkeys(_hashable(v) for v in definition.grid[path])) for path in axes}
    order["seed"] = list(definition.seeds)
    dataset = dataset.reindex({dim: values for dim, values in order.items()})
    for path, columns in si.items():
        by_value = frame.drop_duplicates(path).set_index(path)
        for column in columns:
            dataset = dataset.assign_coords({column: (path, by_value[column].reindex(order[path]).to_numpy())})
    versions = table["tcpsim_version"].dropna().unique().tolist()
    dataset.attrs["tcpsim_version"] = ", ".join(map(str, versions))
    return dataset
