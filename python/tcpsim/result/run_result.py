"""The result of one run: per-flow and per-link tables, time series, and run metadata.

Everything is held in pandas DataFrames and plain dicts so that a result travels between
processes (the parallel runner's workers), is stored as data (``tcpsim.store``) and converts to
JSON, CSV and Parquet without the engine. A result fresh from the engine keeps the engine's
output and builds its DataFrames on first access: ``tcpsim run --json`` needs no pandas.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tcpsim.outpaths import replacing, write_text
from tcpsim.result.from_engine import engine_frames, engine_rows, no_transfers, transfer_rows
from tcpsim.result.layout import (
    DERIVED_TRACES,
    SAVED_FILES,
    TABLES,
    TRACE_FORMATS,
    TRACE_KINDS,
    TRANSFER_TCP_COLUMNS,
    WEB_COLUMNS,
    EngineOutput,
)

if TYPE_CHECKING:
    import pandas as pd


class RunResult:
    """Per-flow (`flows`), per-link-direction (`links`), per-UDP-source (`udp`) and per-web-
    generator (`web`) summaries over the measurement window [warmup, duration], one row per web
    transfer (`transfers`), the recorded time series (`traces`), and `meta`. `udp` has one row
    per UDP constant-bit-rate source: packets/bytes sent and received, throughput.

    `transfers` lists every transfer a web generator started, warm-up included: `generator`,
    `client` (all-to-all: the sender), `src` and `dst` (sender and receiver), `start_s`, `end_s`
    (when the receiver held every byte; NaN if not by the end), `bytes`, `fct_s` (end − start)
    and `completed` (`tcpsim.metrics.fct_slowdown` and friends read it). `web` names each
    generator's `server` (None for all-to-all) and `clients` (its hosts) and counts the transfers started inside the window, how many completed and their completion times (mean, median,
    95th percentile), and like a flow the bytes delivered, throughput and data packets sent and
    dropped inside the window, with `connection_slots` (the most transfers open at once)."""

    def __init__(
        self,
        flows: pd.DataFrame,
        links: pd.DataFrame,
        meta: dict[str, Any],
        traces: dict[str, pd.DataFrame] | None = None,
        udp: pd.DataFrame | None = None,
        web: pd.DataFrame | None = None,
        transfers: pd.DataFrame | None = None,
    ) -> None:
        import pandas as pd

        self.meta = meta
        self._frames: dict[str, Any] | None = {
            "flows": flows,
            "links": links,
            "udp": pd.DataFrame() if udp is None else udp,
            "web": pd.DataFrame(columns=WEB_COLUMNS) if web is None else web,
            "transfers": no_transfers() if transfers is None else transfers,
            "traces": traces or {},
        }
        self._engine: EngineOutput | None = None

    @classmethod
    def from_engine(cls, engine: EngineOutput, meta: dict[str, Any]) -> RunResult:
        """A result whose tables are built from `engine` when first asked for."""
        result = cls.__new__(cls)
        result.meta, result._frames, result._engine = meta, None, engine
        return result

    def _frame(self, name: str) -> Any:
        if self._frames is None:
            assert self._engine is not None
            self._frames = engine_frames(self._engine)
        return self._frames[name]

    @property
    def flows(self) -> pd.DataFrame:
        return self._frame("flows")

    @property
    def links(self) -> pd.DataFrame:
        return self._frame("links")

    @property
    def udp(self) -> pd.DataFrame:
        return self._frame("udp")

    @property
    def web(self) -> pd.DataFrame:
        return self._frame("web")

    @property
    def transfers(self) -> pd.DataFrame:
        return self._frame("transfers")

    def fct(self, canonical: dict[str, Any] | None = None) -> pd.DataFrame:
        """The completed transfers with their ideal FCT and slowdown (`tcpsim.fct.fct_frame`,
        whose doc says what is counted). `canonical` is the engine scenario the run had
        (`Scenario.to_engine()`); a fresh run's result knows it, a loaded one needs it."""
        from tcpsim.fct import fct_frame

        if canonical is None:
            if self._engine is None:
                raise ValueError("a loaded result needs the scenario: r.fct(scenario.to_engine())")
            canonical = self._engine.canonical
        return fct_frame(self.transfers, canonical)

    def fct_table(self, edges: Sequence[int] | None = None, canonical: dict[str, Any] | None = None) -> pd.DataFrame:
        """FCT and slowdown mean/median/p99 per size bucket (`tcpsim.fct.fct_table`); `edges`
        in bytes, default <100 KB, 100 KB–10 MB, >=10 MB."""
        from tcpsim.fct import SIZE_EDGES, fct_table

        return fct_table(self.fct(canonical), SIZE_EDGES if edges is None else edges)

    def incast_rounds(self, generator: str) -> pd.DataFrame:
        """Per round of the barrier generator `generator`: start, senders, bytes, query
        completion time `qct_s` and goodput (`tcpsim.fct.incast_rounds`)."""
        from tcpsim.fct import incast_rounds

        return incast_rounds(self.transfers, generator)

    @property
    def traces(self) -> dict[str, pd.DataFrame]:
        return self._frame("traces")

    @property
    def classes(self) -> pd.DataFrame:
        """One row per flow class (`tcpsim.metrics.class_rows`), utilizations relative to the
        busiest link direction; :meth:`class_table` chooses the link."""
        return self.class_table()

    def class_table(self, link: str | None = None) -> pd.DataFrame:
        """The per-class table with utilizations relative to the busiest direction of `link`."""
        import pandas as pd

        from tcpsim.metrics import CLASS_COLUMNS, class_rows

        flows, links = self.flows.to_dict("records"), self.links.to_dict("records")
        rows = class_rows(flows, links, self._web_rows(), link, self.meta.get("routing", "shortest"))
        return pd.DataFrame(rows, columns=CLASS_COLUMNS)

    def _web_rows(self) -> list[dict[str, Any]]:
        """Rows of the web-generator table, if this result has one (each a class member)."""
        self._frame("flows")  # builds the tables
        assert self._frames is not None
        web = self._frames.get("web")
        return [] if web is None else web.to_dict("records")

    def _class_labels(self) -> dict[str, str]:
        """Name of each flow and web generator → its class."""
        from tcpsim.metrics import class_of

        members = [*self.flows.to_dict("records"), *self._web_rows()]
        return {str(row["name"]): class_of(row) for row in members}

    def __getstate__(self) -> dict[str, Any]:
        """Pickled (to leave a worker process) with its tables built, as they were before."""
        return {
            "meta": self.meta,
            "_frames": {name: self._frame(name) for name in (*TABLES, "traces")},
            "_engine": None,
        }

    def counts(self) -> dict[str, int]:
        """Number of flows and of link directions, without building the tables."""
        if self._frames is None:
            assert self._engine is not None
            return {"flows": len(self._engine.summary["flows"]), "links": len(self._engine.summary["channels"])}
        return {"flows": len(self._frames["flows"]), "links": len(self._frames["links"])}

    def __repr__(self) -> str:
        from tcpsim.result.display import one_line

        return one_line(self.meta, self.counts())

    def _repr_html_(self) -> str:
        """Jupyter's view: per-flow results, the busiest links and the classes, not every table."""
        from tcpsim.result.display import summary_html

        return summary_html(self.meta, self.flows, self.links, self.classes, self.web, list(self.traces))

    def plot(self, kind: str, **options: Any) -> Any:
        """Plot the time series `kind` (cwnd, rtt, queue, throughput or class_throughput) and
        return the matplotlib Axes; options: `select` (flow, link or class names to show) and
        `ax` (draw there). See :mod:`tcpsim.result.plots`."""
        from tcpsim.extras import require
        from tcpsim.result.plots import plot_trace

        require("matplotlib", purpose="RunResult.plot")
        return plot_trace(self.trace(kind), kind, **options)

    def trace(self, kind: str) -> pd.DataFrame:
        """The time series `kind` as a DataFrame: one of cwnd, rtt, queue, throughput, or
        class_throughput (time_s, class, throughput_bps: the throughput bins summed per class)."""
        if kind not in TRACE_KINDS and kind not in DERIVED_TRACES:
            raise ValueError(f"trace kind {kind!r} is unknown; allowed: {', '.join([*TRACE_KINDS, *DERIVED_TRACES])}")
        recorded = DERIVED_TRACES.get(kind, kind)
        if recorded not in self.traces:
            raise KeyError(
                f"trace {kind!r} needs the {recorded!r} trace, which was not recorded; enable it in the scenario's "
                f"[trace] table (e.g. --set trace.{'throughput_bin=1s' if recorded == 'throughput' else recorded + '=true'})"
            )
        if kind == "class_throughput":
            from tcpsim.metrics import class_throughput

            return class_throughput(self.traces["throughput"], self._class_labels())
        return self.traces[kind]

    def to_json_dict(self) -> dict[str, Any]:
        """meta, flows, links, udp, classes, web and transfers as JSON-ready objects, every column
        of the tables `save` writes (NaN becomes null, floats exact). Straight from the engine's output while the tables are not built, so
        no pandas is needed."""
        from tcpsim.metrics import class_rows

        if self._frames is None:
            assert self._engine is not None
            rows = engine_rows(self._engine)
            rows["transfers"] = transfer_rows(self._engine)
        else:
            rows = {name: _records(self._frames[name]) for name in TABLES}
        classes = class_rows(rows["flows"], rows["links"], rows["web"], routing=self.meta.get("routing", "shortest"))
        return {
            "meta": self.meta,
            "flows": rows["flows"],
            "links": rows["links"],
            "udp": rows["udp"],
            "classes": [{column: _plain(value) for column, value in row.items()} for row in classes],
            "web": rows["web"],
            "transfers": rows["transfers"],
        }

    def save(self, directory: str | Path, trace_format: str = "parquet") -> Path:
        """Write flows.csv, links.csv, udp.csv, web.csv (a generator's clients joined by ";") and
        transfers.csv (the last three if they have rows), meta.json and one file per recorded trace, `trace_<kind>.parquet` or,
        with ``trace_format="csv"``, `trace_<kind>.csv`. A previous save's files in
        ``directory`` are removed first, so none of them lingers beside this result's (a trace
        or table it did not record); other files are left alone."""
        if trace_format not in TRACE_FORMATS:
            raise ValueError(f"trace_format {trace_format!r} is unknown; allowed: {', '.join(TRACE_FORMATS)}")
        if trace_format == "parquet" and self.traces:
            from tcpsim.extras import require

            require(
                "pyarrow",
                purpose="saving traces as Parquet",
                otherwise='or save them as CSV: --trace-format csv (trace_format="csv")',
            )
        out = Path(directory)
        out.mkdir(parents=True, exist_ok=True)
        for name in SAVED_FILES:
            (out / name).unlink(missing_ok=True)
        tables = {"flows": self.flows, "links": self.links}
        tables |= {name: self._frame(name) for name in ("udp", "web", "transfers") if not self._frame(name).empty}
        if "web" in tables and "clients" in tables["web"]:  # a list per row: names joined by ";" in CSV
            tables["web"] = tables["web"].assign(
                clients=[";".join(c) if isinstance(c, list | tuple) else c for c in tables["web"]["clients"]]
            )
        for name, df in tables.items():
            with replacing(out / f"{name}.csv") as temporary:
                df.to_csv(temporary, index=False)
        write_text(out / "meta.json", json.dumps(self.meta, indent=2) + "\n")
        for kind, df in self.traces.items():
            with replacing(out / f"trace_{kind}.{trace_format}") as temporary:
                if trace_format == "csv":
                    df.to_csv(temporary, index=False)
                else:
                    df.to_parquet(temporary, index=False)
        return out


def build_result(
    engine_summary: dict[str, Any],
    raw_traces: dict[str, Any],
    canonical: dict[str, Any],
    flow_variants: list[str],
    flow_classes: list[str],
    meta: dict[str, Any],
    raw_transfers: dict[str, Any] | None = None,
    web_variants: list[str] | None = None,
) -> RunResult:
    """Assemble a RunResult from the engine's output and the canonical scenario it ran.

    ``meta`` gains the engine's ``trace_truncated`` (the cwnd, rtt and queue traces stopped at
    the canonical ``trace.max_rows`` rows), ``trace_truncated_at_s`` (simulated time of the
    first row left out, or None) and ``connection_slots`` (the web generators' connection
    slots: the flow table's size beyond the flows)."""
    keys = ("trace_truncated", "trace_truncated_at_s", "connection_slots")
    meta = meta | {key: engine_summary[key] for key in keys}
    empty = {
        name: b""
        for name in ("generator", "client", "src", "dst", "start_ns", "end_ns", "bytes", *TRANSFER_TCP_COLUMNS)
    }
    engine = EngineOutput(
        engine_summary, raw_traces, canonical, flow_variants, flow_classes, raw_transfers or empty, web_variants or []
    )
    return RunResult.from_engine(engine, meta)


def _plain(value: Any) -> Any:
    """A table cell as JSON: numpy scalars as Python values, NaN as None."""
    if hasattr(value, "item"):
        value = value.item()
    return None if isinstance(value, float) and math.isnan(value) else value


def _records(df: pd.DataFrame) -> list[dict[str, Any]]:
    return [{column: _plain(value) for column, value in row.items()} for row in df.to_dict("records")]
