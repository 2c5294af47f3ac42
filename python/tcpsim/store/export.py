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
    import pyarrow as pa

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
    returns rows written per table. Damaged entries are reported (``warning:``) and left out.

    Each run's files are read as Arrow tables and joined once per table: no RunResult is built,
    so a few thousand runs export in seconds."""
    import pandas as pd
    import pyarrow as pa

    if fmt not in FORMATS:
        raise ValueError(f"format {fmt!r} is not one of {', '.join(FORMATS)}")
    chosen = select(store, where, status="ok")
    columns = varying(parameters for _, parameters in chosen)
    parts: dict[str, list[pa.Table]] = defaultdict(list)
    runs = []
    scenarios: dict[str, dict[str, object]] = {}
    for row, parameters in chosen:
        if not (isinstance(row["seed"], str) and row["seed"].isascii() and row["seed"].isdigit()):
            warn(f"store entry {row['key'][:16]} has no seed ({row['seed']!r}); left out of the export")
            continue
        tables = store.tables(row)
        if tables is None:
            continue
        labels = {"key": row["key"], "seed": int(row["seed"])} | {c: parameters.get(c) for c in columns}
        runs.append({field: row[field] for field in RUN_FIELDS} | labels)
        if row["scenario_hash"] not in scenarios:
            scenarios[row["scenario_hash"]] = {"scenario_hash": row["scenario_hash"]} | {
                c: parameters.get(c) for c in columns
            }
            scenarios[row["scenario_hash"]]["canonical"] = store.catalog.scenario(row["scenario_hash"])
        tables["classes"] = _classes(tables)
        for name, table in tables.items():
            if table.num_columns:
                parts[name].append(_labelled(table, labels))
    out.mkdir(parents=True, exist_ok=True)
    written = {"runs": len(runs), "scenarios": len(scenarios)}
    run_columns = list(dict.fromkeys([*RUN_FIELDS, *columns]))
    _write(pd.DataFrame(runs, columns=run_columns), out / f"runs.{fmt}", fmt)
    _write(
        pd.DataFrame(list(scenarios.values()), columns=["scenario_hash", *columns, "canonical"]),
        out / f"scenarios.{fmt}",
        fmt,
    )
    for name in sorted(parts, key=_table_order):
        table = pa.concat_tables(parts[name], promote_options="permissive").to_pandas()
        _write(table, out / f"{name}.{fmt}", fmt)
        written[name] = len(table)
    return written


def _table_order(name: str) -> tuple[int, str]:
    return (TABLES.index(name), "") if name in TABLES else (len(TABLES), name)


def _classes(tables: dict[str, pa.Table]) -> pa.Table:
    """The per-class table of one run (`RunResult.classes`), from its flows, links and web tables."""
    import pyarrow as pa

    from tcpsim.metrics import CLASS_COLUMNS, class_rows

    def records(name: str) -> list[dict[str, object]]:
        return tables[name].to_pylist() if name in tables else []

    rows = class_rows(records("flows"), records("links"), records("web"))
    return pa.Table.from_pylist(rows) if rows else pa.table({c: [] for c in CLASS_COLUMNS})


def _labelled(table: pa.Table, labels: dict[str, object]) -> pa.Table:
    import pyarrow as pa

    for position, (column, value) in enumerate(labels.items()):
        table = table.add_column(position, column, pa.array([value] * table.num_rows))
    return table


def _write(df: pd.DataFrame, path: Path, fmt: str) -> None:
    with replacing(path) as temporary:
        if fmt == "csv":
            df.to_csv(temporary, index=False)
        else:
            df.to_parquet(temporary, index=False)
