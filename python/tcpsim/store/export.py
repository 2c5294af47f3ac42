"""Every stored run as tidy tables: one file per table, each row labelled with its run.

``runs`` has one row per finished run (key, scenario hash, seed, versions, commit, wall time,
events, created); ``flows``, ``links``, ``udp``, ``web``, ``transfers`` and ``classes`` put the
run's ``key`` and ``seed`` before the columns of ``RunResult``'s table of that name, and
``trace_<kind>`` do the same for each recorded time series. After ``key`` and ``seed`` every
table has the parameter columns: the scenario paths whose values differ between the exported
runs (:mod:`tcpsim.store.query`: ``links[bottleneck].rate_bps``, ``flows[f1].tcp.cc.kind``),
then those the ``where`` conditions name, even where every chosen run has one value.
``scenarios`` has one row per scenario: its hash, those parameters and its canonical text.
Runs are chosen by ``where`` conditions on the same paths.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from tcpsim.outpaths import replacing
from tcpsim.store.query import condition_paths, select, varying
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

    Each run's files are read as Arrow tables (no RunResult is built), each table's parts are
    joined and labelled once, and each scenario is flattened once. The time then goes into
    reading the files (a few per run) and into the output itself: rows x parameter columns."""
    import pandas as pd

    if fmt not in FORMATS:
        raise ValueError(f"format {fmt!r} is not one of {', '.join(FORMATS)}")
    chosen = select(store, where, status="ok")
    columns = list(dict.fromkeys([*varying(parameters for _, parameters in chosen), *condition_paths(where)]))
    parts: dict[str, list[pa.Table]] = defaultdict(list)
    owners: dict[str, list[int]] = defaultdict(list)  # per table: the index in ``labelled`` of each part's run
    labelled: list[tuple[dict[str, object], str]] = []  # per exported run: (key and seed, scenario hash)
    runs = []
    scenarios: dict[str, dict[str, object]] = {}
    label_rows: dict[str, pa.Table] = {}  # per scenario: its parameter labels as a one-row table
    made: dict[tuple[type, str], pa.Array] = {}
    for row, parameters in chosen:
        if not (isinstance(row["seed"], str) and row["seed"].isascii() and row["seed"].isdigit()):
            warn(f"store entry {row['key'][:16]} has no seed ({row['seed']!r}); left out of the export")
            continue
        tables = store.tables(row, damaged="left out of the export")
        if tables is None:
            continue
        scenario_hash = row["scenario_hash"]
        if scenario_hash not in scenarios:
            values = {c: parameters.get(c) for c in columns}
            scenarios[scenario_hash] = {"scenario_hash": scenario_hash} | values
            scenarios[scenario_hash]["canonical"] = store.catalog.scenario(scenario_hash)
            label_rows[scenario_hash] = _one_row(values, made)
        labels = {"key": row["key"], "seed": int(row["seed"])} | {
            c: scenarios[scenario_hash][c] for c in columns if c in ("key", "seed")
        }
        runs.append({field: row[field] for field in RUN_FIELDS} | labels | _values(scenarios[scenario_hash], columns))
        labelled.append((labels, scenario_hash))
        tables["classes"] = _classes(tables, _routing(scenarios[scenario_hash]["canonical"]))
        for name, table in tables.items():
            if table.num_columns:
                parts[name].append(table)
                owners[name].append(len(labelled) - 1)
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
        whose = [labelled[index] for index in owners.pop(name)]
        table = _joined(parts.pop(name), whose, label_rows, columns).to_pandas()
        _write(table, out / f"{name}.{fmt}", fmt)
        written[name] = len(table)
        del table  # the next table's frame need not share memory with this one's
    return written


def _values(scenario: dict[str, object], columns: list[str]) -> dict[str, object]:
    """The scenario's parameter columns, less the run's own key and seed."""
    return {c: scenario[c] for c in columns if c not in ("key", "seed")}


def _joined(
    parts: list[pa.Table],
    whose: list[tuple[dict[str, object], str]],
    label_rows: dict[str, pa.Table],
    columns: list[str],
) -> pa.Table:
    """One table of every run's part, each row led by its run's key, seed and parameters: the
    table ``pa.concat_tables`` makes of the parts each labelled by :func:`_labelled` (column
    types promoted alike), but made in one step per table instead of one per run and table."""
    import numpy as np
    import pyarrow as pa

    labels = list(whose[0][0])  # a table has a part from at least one run
    names = [*labels, *label_rows[whose[0][1]].column_names]
    named = set(names)
    plain = (
        not {"key", "seed"} & set(columns)
        and all(isinstance(run[0]["seed"], int) and 0 <= run[0]["seed"] < 2**63 for run in whose)
        and not any(named.intersection(part.column_names) for part in parts)
    )
    if not plain:  # a parameter named key or seed, a seed beyond int64 or a clash: label each part
        return pa.concat_tables(
            [_labelled(part, run[0], label_rows[run[1]]) for part, run in zip(parts, whose, strict=True)],
            promote_options="permissive",
        )
    body = pa.concat_tables(parts, promote_options="permissive")
    counts = np.array([part.num_rows for part in parts], dtype=np.int64)
    if counts.sum() == 0:  # every label column is as pa.array([]) makes it: of type null
        leading = [pa.array([]) for _ in names]
    else:
        # types as the per-part labels would be promoted: over the parts that have rows (a part
        # without rows labels with nulls, which take any other column's type)
        shown = list(dict.fromkeys(run[1] for run, count in zip(whose, counts, strict=True) if count))
        table = pa.concat_tables([label_rows[h] for h in shown], promote_options="permissive")
        position = {h: index for index, h in enumerate(shown)}
        which = np.repeat(np.array([position.get(run[1], 0) for run in whose], dtype=np.int64), counts)
        keys = np.repeat(np.array([run[0]["key"] for run in whose], dtype=object), counts)
        seeds = np.repeat(np.array([run[0]["seed"] for run in whose], dtype=np.int64), counts)
        leading = [pa.array(keys, type=pa.string()), pa.array(seeds), *table.take(which).columns]
    return pa.Table.from_arrays([*leading, *body.columns], [*names, *body.column_names])


def _table_order(name: str) -> tuple[int, str]:
    return (TABLES.index(name), "") if name in TABLES else (len(TABLES), name)


def _routing(canonical: object) -> str:
    """The `[network] routing` mode of a stored canonical scenario ("shortest" if unreadable)."""
    try:
        mode = json.loads(canonical)["routing"]["mode"]  # type: ignore[arg-type]
    except (TypeError, ValueError, KeyError, RecursionError):
        return "shortest"
    return mode if isinstance(mode, str) else "shortest"


def _classes(tables: dict[str, pa.Table], routing: str) -> pa.Table:
    """The per-class table of one run (`RunResult.classes`), from its flows, links and web tables."""
    import pyarrow as pa

    from tcpsim.metrics import CLASS_COLUMNS, class_rows

    def records(name: str) -> list[dict[str, object]]:
        return tables[name].to_pylist() if name in tables else []

    rows = class_rows(records("flows"), records("links"), records("web"), routing=routing)
    return pa.Table.from_pylist(rows) if rows else pa.table({c: [] for c in CLASS_COLUMNS})


def _one_row(values: dict[str, object], made: dict[tuple[type, str], pa.Array]) -> pa.Table:
    """``values`` (one scenario's parameter columns, the run's key and seed left out) as a
    one-row table, each column typed as ``pa.array([value])`` types it. Most values recur
    (null above all), so each distinct one is made into an array once (kept in ``made``)."""
    import pyarrow as pa

    names, arrays = [], []
    for column, value in values.items():
        if column in ("key", "seed"):
            continue
        known = (type(value), repr(value))
        if known not in made:
            made[known] = pa.array([value])
        names.append(column)
        arrays.append(made[known])
    return pa.Table.from_arrays(arrays, names)


def _labelled(table: pa.Table, labels: dict[str, object], parameters: pa.Table) -> pa.Table:
    """``table`` with the run's ``labels`` (key, seed) and its scenario's ``parameters`` (one
    row) as leading columns, each label repeated on every row. Made in one step: adding
    thousands of parameter columns one at a time took minutes per run."""
    import numpy as np
    import pyarrow as pa

    rows = table.num_rows
    if rows == 0:  # as pa.array([]) is: a column of type null
        leading = [pa.array([]) for _ in range(len(labels) + parameters.num_columns)]
    else:
        repeated = parameters.take(np.zeros(rows, dtype=np.int64))
        leading = [pa.array([value] * rows) for value in labels.values()] + list(repeated.columns)
    names = [*labels, *parameters.column_names]
    return pa.Table.from_arrays([*leading, *table.columns], [*names, *table.column_names])


def _write(df: pd.DataFrame, path: Path, fmt: str) -> None:
    with replacing(path) as temporary:
        if fmt == "csv":
            df.to_csv(temporary, index=False)
        else:
            df.to_parquet(temporary, index=False)
