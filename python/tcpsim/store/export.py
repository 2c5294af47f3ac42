"""Every stored run as tidy tables: one file per table, each row labelled with its run.

``runs`` has one row per finished run (key, scenario hash, seed, versions, commit, wall time,
events, created); ``flows``, ``links``, ``udp``, ``web``, ``transfers`` and ``classes`` put the
run's ``key`` and ``seed`` before the columns of ``RunResult``'s table of that name, and
``trace_<kind>`` do the same for each recorded time series. After ``key`` and ``seed`` every
table has the parameter columns: the scenario paths whose values differ between the exported
runs (:mod:`tcpsim.store.query`: ``links[bottleneck].rate_bps``, ``flows[f1].tcp.cc.kind``).
``scenarios`` has one row per scenario: its hash, those parameters and its canonical text.
Runs are chosen by ``where`` conditions on the same paths.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from tcpsim.outpaths import replacing
from tcpsim.store.query import select, varying
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


def export(store: Store, out: Path, fmt: str, where: Sequence[str] = ()) -> dict[str, int]:
    """Write the tables of the finished runs meeting ``where`` into ``out`` as ``<table>.<fmt>``;
    returns rows written per table. Damaged entries are reported (``warning:``) and left out."""
    import pandas as pd

    if fmt not in FORMATS:
        raise ValueError(f"format {fmt!r} is not one of {', '.join(FORMATS)}")
    chosen = select(store, where, status="ok")
    columns = varying(parameters for _, parameters in chosen)
    frames: dict[str, list[pd.DataFrame]] = defaultdict(list)
    runs = []
    scenarios: dict[str, dict[str, object]] = {}
    for row, parameters in chosen:
        result = store.load(row["key"])
        if result is None:
            continue
        if not (isinstance(row["seed"], str) and row["seed"].isascii() and row["seed"].isdigit()):
            warn(f"store entry {row['key'][:16]} has no seed ({row['seed']!r}); left out of the export")
            continue
        labels = {"key": row["key"], "seed": int(row["seed"])} | {c: parameters.get(c) for c in columns}
        runs.append({field: row[field] for field in RUN_FIELDS} | labels)
        if row["scenario_hash"] not in scenarios:
            scenarios[row["scenario_hash"]] = {"scenario_hash": row["scenario_hash"]} | {
                c: parameters.get(c) for c in columns
            }
            scenarios[row["scenario_hash"]]["canonical"] = store.catalog.scenario(row["scenario_hash"])
        tables = {name: getattr(result, name) for name in TABLES} | {
            f"trace_{kind}": df for kind, df in result.traces.items()
        }
        for name, df in tables.items():
            if len(df.columns):
                frames[name].append(_labelled(df, labels))
    out.mkdir(parents=True, exist_ok=True)
    written = {"runs": len(runs), "scenarios": len(scenarios)}
    run_columns = list(dict.fromkeys([*RUN_FIELDS, *columns]))
    _write(pd.DataFrame(runs, columns=run_columns), out / f"runs.{fmt}", fmt)
    _write(
        pd.DataFrame(list(scenarios.values()), columns=["scenario_hash", *columns, "canonical"]),
        out / f"scenarios.{fmt}",
        fmt,
    )
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
