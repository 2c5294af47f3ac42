"""Figures of a saved run or sweep (`tcpsim.saved`), in tcpsim's publication style
(`tcpsim.STYLE`): what `tcpsim plot` draws and `tcpsim report` shows.

- A run: one panel per recorded time series (cwnd, rtt, queue, throughput, and class throughput
  when there are two classes or more), stacked over one time axis, drawn by `tcpsim.result.plots`.
- A sweep: a per-flow metric (default goodput) or a per-link-direction one (`links.utilization`)
  against one grid parameter, its mean over the replications (seeds) with the Student-t 95 % CI
  as error bars (`tcpsim.stats.summarize`), one line per value of the other parameters (and per
  flow or link direction, when there are several).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from tcpsim.result import DERIVED_TRACES, TRACE_KINDS

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from tcpsim.result import RunResult
    from tcpsim.saved import SavedSweep

RUN_PANELS = (*TRACE_KINDS, *DERIVED_TRACES)
"""The time series a run's figure can show, in the order of its panels."""
DEFAULT_METRIC = "goodput_bps"
NOT_METRICS = frozenset({"seed", "id", "link", "point", "scenario_hash", "tcpsim_version"})
"""Numeric columns of a sweep's flows or links table that label rows rather than measure them."""
LINK_METRIC = "links."
"""The prefix of a metric from the links table (one row per run × link direction)."""
MAX_LINK_LINES = 8
"""Link directions one figure draws unless `--link` chooses: a dumbbell has two per host."""
UNITS = {"_bps": (1e-6, "Mb/s"), "_s": (1.0, "s"), "_bytes": (1e-3, "kB"), "_pkts": (1.0, "packets")}
"""Column suffix → (scale, unit) in which a sweep's axes are labelled."""


class FigureError(ValueError):
    """A figure that cannot be drawn from what was saved: the message names the option, the
    value and what is allowed."""


def run_panels(result: RunResult, what: Sequence[str] | None, option: str = "--what") -> list[str]:
    """The panels to draw: ``what`` checked against what the run recorded, or (None) every
    recorded series, class throughput only when the run has two classes or more."""
    recorded = set(result.traces)
    if what is None:
        panels = [kind for kind in TRACE_KINDS if kind in recorded]
        if "throughput" in recorded and result.flows["class"].nunique() >= 2:
            panels.append("class_throughput")
        if not panels:
            raise FigureError(
                "this run recorded no time series: its scenario's [trace] table asks for none "
                "(e.g. --set trace.cwnd=true, trace.queue=true, trace.throughput_bin=1s)"
            )
        return panels
    for kind in what:
        if kind not in RUN_PANELS:
            raise FigureError(f"{option} {kind!r}: unknown time series; allowed: {', '.join(RUN_PANELS)}")
        needed = DERIVED_TRACES.get(kind, kind)
        if needed not in recorded:
            hint = "trace.throughput_bin=1s" if needed == "throughput" else f"trace.{needed}=true"
            has = ", ".join(k for k in TRACE_KINDS if k in recorded) or "none"
            raise FigureError(
                f"{option} {kind!r}: this run did not record the {needed} trace (recorded: {has}); "
                f"run it again with --set {hint}"
            )
    return list(dict.fromkeys(what))


FLOW_PANELS = ("cwnd", "rtt", "throughput")
"""The panels with one line per flow, which ``flows`` narrows."""


def run_figure(result: RunResult, panels: Sequence[str], title: str = "", flows: Sequence[str] | None = None) -> Figure:
    """One panel per time series in ``panels`` over a shared time axis, two columns wide;
    ``flows`` keeps only the named flows in the per-flow panels."""
    from tcpsim.repro.plotting import DOUBLE_IN, new_figure
    from tcpsim.result.plots import plot_trace

    if flows:
        traced = {str(n) for kind in panels if kind in FLOW_PANELS for n in result.trace(kind)["flow_name"]}
        if not any(kind in FLOW_PANELS for kind in panels):
            raise FigureError(f"--flow: none of the panels ({', '.join(panels)}) has a line per flow")
        if unknown := [f for f in flows if f not in traced]:
            raise FigureError(
                f"--flow {unknown[0]!r}: no such flow in this run's traces; allowed: {', '.join(sorted(traced))}"
            )
    fig = new_figure(DOUBLE_IN, 0.6 + 1.9 * len(panels))
    axes = fig.subplots(len(panels), 1, sharex=True, squeeze=False)[:, 0]
    for ax, kind in zip(axes, panels):
        plot_trace(result.trace(kind), kind, select=list(flows) if flows and kind in FLOW_PANELS else None, ax=ax)
        if ax is not axes[-1]:
            ax.set_xlabel("")
    if title:
        fig.suptitle(title)
    return fig


class Axis(NamedTuple):
    """A sweep parameter put on the x axis: its path, the column holding its values (numeric
    in SI units when the values were written with one) and whether those are numbers."""

    path: str
    column: str
    numeric: bool


def parameter_columns(sweep: SavedSweep) -> dict[str, list[str]]:
    """Each grid path → the names `--x` takes for it: its SI column(s) (`links[1].rate_bps`),
    then the path itself, which means the first SI column when the values have units."""
    from tcpsim.sweeps.quantities import si_columns

    return {path: [*si_columns(path, values), path] for path, values in sweep.grid.items()}


def sweep_axis(sweep: SavedSweep, x: str | None) -> Axis:
    """The parameter named ``x`` (a grid path or one of its SI columns), or the only one."""
    import pandas as pd

    columns = parameter_columns(sweep)
    allowed = [name for names in columns.values() for name in names]
    if not columns:
        raise FigureError("this sweep has no grid (only seeds): there is no parameter to put on the x axis")
    if x is None:
        if len(columns) > 1:
            raise FigureError(f"--x: this sweep has {len(columns)} parameters; choose one of {', '.join(allowed)}")
        x = next(iter(columns))
    for path, names in columns.items():
        if x in names:
            column = names[0] if x == path else x  # the path alone means its numeric column
            if column not in sweep.flows:
                column = path
            values = sweep.flows[column]
            return Axis(path, column, bool(pd.api.types.is_numeric_dtype(values)))
    raise FigureError(f"--x {x!r}: not a parameter of this sweep; allowed: {', '.join(allowed)}")


def sweep_metrics(sweep: SavedSweep) -> list[str]:
    """The numeric columns a figure can show: the flows table's, then the links table's as
    ``links.<column>``."""
    import pandas as pd

    labels = {name for names in parameter_columns(sweep).values() for name in names} | NOT_METRICS

    def numeric(table: pd.DataFrame) -> list[str]:
        return [c for c in table.columns if c not in labels and pd.api.types.is_numeric_dtype(table[c])]

    return [*numeric(sweep.flows), *(LINK_METRIC + c for c in numeric(sweep.links))]


def sweep_metric(sweep: SavedSweep, y: str | None) -> str:
    """The metric named ``y``: a column of the flows table, or of the links table with or
    without its ``links.`` prefix (a flow's column first), each also without its unit suffix
    (``goodput`` → ``goodput_bps``, ``queue_mean`` → ``links.queue_mean_pkts``); default goodput."""
    metrics = sweep_metrics(sweep)
    wanted = y or DEFAULT_METRIC
    for name in (wanted, LINK_METRIC + wanted.removeprefix(LINK_METRIC)):
        if name in metrics:
            return name
        prefixed = [m for m in metrics if any(m == name + suffix for suffix in UNITS)]
        if len(prefixed) == 1:
            return prefixed[0]
        if prefixed:
            raise FigureError(f"--y {wanted!r}: which one? {' or '.join(prefixed)}")
    raise FigureError(f"--y {wanted!r}: not a metric of this sweep; allowed: {', '.join(metrics)}")


def _metric_table(sweep: SavedSweep, metric: str) -> tuple[Any, str]:
    """The table a metric is a column of, with a `name` that labels its lines, and its column:
    a link direction is named by its link and its ends ("bottleneck r1→r2")."""
    if not metric.startswith(LINK_METRIC):
        return sweep.flows, metric
    links = sweep.links
    labels = links["name"].astype(str) + " " + links["src"].astype(str) + "→" + links["dst"].astype(str)
    return links.assign(link_name=links["name"].astype(str), name=labels), metric.removeprefix(LINK_METRIC)


def unit_of(column: str, values: Any = None) -> tuple[float, str]:
    """(scale, axis label) of a column: `goodput_bps` → (1e-6, "goodput (Mb/s)"); seconds are
    shown in ms when every value is below one second."""
    import numpy as np

    for suffix, (scale, unit) in UNITS.items():
        if column.endswith(suffix):
            finite = np.asarray([] if values is None else values, dtype=float)
            finite = finite[np.isfinite(finite)]
            if suffix == "_s" and finite.size and np.abs(finite).max() < 1:
                scale, unit = 1e3, "ms"
            return scale, f"{column.removesuffix(suffix).replace('_', ' ')} ({unit})"
    return 1.0, column.replace("_", " ") if "[" not in column else column


def sweep_series(
    sweep: SavedSweep,
    axis: Axis,
    metric: str,
    flows: Sequence[str] | None = None,
    links: Sequence[str] | None = None,
) -> list[Any]:
    """One `Series` per value of the other parameters (× flow or link direction when there are
    several): the metric's mean over seeds at each x, with its 95 % CI (bounded below by 0 for
    a metric that is never negative). ``flows`` chooses flows for a flow metric, ``links``
    links (both directions) for a link metric."""
    from pandas.api.types import is_scalar

    from tcpsim.repro.framework import Series
    from tcpsim.stats import summarize

    table, column = _metric_table(sweep, metric)
    if table.empty:
        raise FigureError("this sweep has no finished runs to plot (runs.csv says why they failed)")
    if metric.startswith(LINK_METRIC):
        if flows:
            raise FigureError(f"--flow: {metric} is a link metric; choose its links with --link")
        df = _chosen(table, "link_name", links, "--link", "link")
        if not links and (count := df["name"].nunique()) > MAX_LINK_LINES:
            known = ", ".join(dict.fromkeys(df["link_name"]))
            raise FigureError(
                f"--y {metric}: this sweep has {count} link directions, too many lines for one figure; "
                f"choose links with --link (one of {known})"
            )
    else:
        if links:
            raise FigureError(f"--link: {metric} is a per-flow metric; choose its flows with --flow")
        df = _chosen(table, "name", flows, "--flow", "flow")
    names = list(dict.fromkeys(df["name"].astype(str)))
    metric = column
    others = [path for path in sweep.grid if path != axis.path]
    df = df.assign(**{p: df[p].map(lambda v: v if is_scalar(v) else str(v)) for p in others})
    keys = [*others, *(["name"] if len(names) > 1 else [])]
    # units chosen from the whole sweep, so that every choice of --flow draws in the same ones
    x_scale = unit_of(axis.column, sweep.flows[axis.column])[0] if axis.numeric else 1.0
    y_scale = unit_of(metric, table[metric])[0]
    bounds = (0.0, None) if (df[metric].dropna() >= 0).all() else (None, None)
    summary = summarize(df, [*keys, axis.column], metric, sort=False, bounds=bounds)
    series = []
    groups = summary.groupby(keys, sort=False) if keys else [((), summary)]
    for group, rows in groups:
        if axis.numeric:
            rows = rows.sort_values(axis.column)
        values = group if isinstance(group, tuple) else (group,)
        label = ", ".join(f"{key}={value}" if key != "name" else str(value) for key, value in zip(keys, values))
        x = rows[axis.column] * x_scale if axis.numeric else rows[axis.column].astype(str)
        series.append(
            Series(
                label,
                list(x),
                list(rows["mean"] * y_scale),
                list(rows["ci_low"] * y_scale),
                list(rows["ci_high"] * y_scale),
            )
        )
    return series


def _chosen(table: Any, column: str, wanted: Sequence[str] | None, option: str, what: str) -> Any:
    """The rows of ``table`` whose ``column`` is one of ``wanted`` (all without a choice)."""
    if not wanted:
        return table
    known = list(dict.fromkeys(table[column].astype(str)))
    if unknown := [w for w in wanted if w not in known]:
        raise FigureError(f"{option} {unknown[0]!r}: no such {what} in this sweep; allowed: {', '.join(known)}")
    return table[table[column].astype(str).isin(wanted)]


def sweep_figure(
    sweep: SavedSweep,
    axis: Axis,
    metric: str,
    flows: Sequence[str] | None = None,
    log_x: bool = False,
    links: Sequence[str] | None = None,
) -> Figure:
    """The metric against the parameter, one line per value of the others (one column wide,
    two when the legend is long); ``log_x`` draws a numeric parameter on a log scale."""
    from tcpsim.repro.plotting import COLUMN_IN, DOUBLE_IN, HEIGHT_IN, new_figure, plot_lines

    series = sweep_series(sweep, axis, metric, flows, links)
    fig = new_figure(DOUBLE_IN if len(series) > 4 else COLUMN_IN, HEIGHT_IN)
    table, column = _metric_table(sweep, metric)
    _, ylabel = unit_of(column, table[column])
    xlabel = unit_of(axis.column, sweep.flows[axis.column])[1] if axis.numeric else axis.path
    seeds = sweep.flows["seed"].nunique() if "seed" in sweep.flows else 1
    title = f"mean over {seeds} seeds, 95 % CI" if seeds > 1 else "one seed"
    if log_x and not (axis.numeric and (sweep.flows[axis.column].dropna() > 0).all()):
        raise FigureError(f"--log-x: {axis.path} has values that are not positive numbers; a log scale needs them")
    plot_lines(fig, series, title, xlabel, ylabel, xscale="log" if log_x else None)
    return fig
