"""Every stored run as tidy tables: one file per table, each row labelled with its run.

``runs`` has one row per finished run (key, scenario hash, seed, versions, commit, wall time,
events, created); ``flows``, ``links``, ``udp``, ``web``, ``transfers`` and ``classes`` put the
run's ``key`` and ``seed`` before the columns of ``RunResult``'s table of that name, and
``trace_<kind>`` do the same for each recorded time series.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import TYPE_CHECKING

from tcpsim.outpaths import replacing
from tcpsim.store.store import Store, warn

if TYPE_CHECKING:
    import pandas as pd

FORMATS = ("parquet", "csv")
RUN_FIELDS = (
    "key",
    "scenario_hash",
    "seed",
    "tcpsim_version",
    "engine_source",
    "git_commit",
    "wall_s",
    "events",
    "created",
)
TABLES = ("flows", "links", "udp", "web", "transfers", "classes")


def export(store: Store, out: Path, fmt: str) -> dict[str, int]:
    """Write the tables into ``out`` as ``<table>.<fmt>``; returns rows written per table.
    Damaged entries are reported (``warning:``) and left out."""
    import pandas as pd

    if fmt not in FORMATS:
        raise ValueError(f"format {fmt!r} is not one of {', '.join(FORMATS)}")
    frames: dict[str, list[pd.DataFrame]] = defaultdict(list)
    runs = []
    for row in store.catalog.runs("WHERE status = 'ok'"):
        result = store.load(row["key"])
        if result is None:
            continue
        if not (isinstance(row["seed"], str) and row["seed"].isascii() and row["seed"].isdigit()):
            warn(f"store entry {row['key'][:16]} has no seed ({row['seed']!r}); left out of the export")
            continue
        labels = {"key": row["key"], "seed": int(row["seed"])}
        runs.append({field: row[field] for field in RUN_FIELDS} | labels)
        tables = {name: getattr(result, name) for name in TABLES} | {
            f"trace_{kind}": df for kind, df in result.traces.items()
        }
        for name, df in tables.items():
            if len(df.columns):
                frames[name].append(_labelled(df, labels))
    out.mkdir(parents=True, exist_ok=True)
    written = {"runs": len(runs)}
    _write(pd.DataFrame(runs, columns=list(RUN_FIELDS)), out / f"runs.{fmt}", fmt)
    for name, parts in frames.items():
        table = pd.concat(parts, ignore_index=True)
        _write(table, out / f"{name}.{fmt}", fmt)
        written[name] = len(table)
    return written


def _labelled(df: pd.DataFrame, labels: dict[str, object]) -> pd.DataFrame:
    df = df.copy()
    for position, (column, value) in enumerate(labels.items()):
        df.insert(position, column, value)
    return df


def _write(df: pd.DataFrame, path: Path, fmt: str) -> None:
    with replacing(path) as temporary:
        if fmt == "csv":
            df.to_csv(temporary, index=False)
        else:
            df.to_parquet(temporary, index=False)
