"""Quick plots of a run's time series (`RunResult.plot`, and the panels of `tcpsim plot`): one
line per flow, link direction or class, in the units a researcher reads (kB, ms, packets, Mb/s),
on matplotlib Axes the caller can restyle or save. A figure made here is drawn in tcpsim's style
(`tcpsim.STYLE`); Axes passed in keep the caller's."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    import pandas as pd

#: Above this many lines the legend is left out (it would hide the plot).
MAX_LEGEND = 12


class _Panel(NamedTuple):
    series: str  # the column naming one line
    y: str
    scale: float
    label: str
    step: bool  # a value that holds until the next sample


_PANELS = {
    "cwnd": _Panel("flow_name", "cwnd_bytes", 1e-3, "cwnd (kB)", True),
    "rtt": _Panel("flow_name", "rtt_s", 1e3, "RTT sample (ms)", False),
    "queue": _Panel("queue_name", "packets", 1.0, "queue (packets)", True),
    "throughput": _Panel("flow_name", "throughput_bps", 1e-6, "throughput (Mb/s)", True),
    "class_throughput": _Panel("class", "throughput_bps", 1e-6, "class throughput (Mb/s)", True),
}


def plot_trace(df: pd.DataFrame, kind: str, select: Sequence[str] | str | None = None, ax: Any = None) -> Any:
    """Draw trace `kind` (as `RunResult.trace(kind)` returns it) on `ax` (a new figure if None).
    `select` keeps only the named flows, link directions ("bottleneck:ab" or a link name for
    both directions) or classes."""
    if kind not in _PANELS:
        raise ValueError(f"no plot for trace {kind!r}; allowed: {', '.join(_PANELS)}")
    panel = _PANELS[kind]
    if kind == "queue":
        df = df.assign(queue_name=df["link"].astype(str) + ":" + df["direction"].astype(str))
    names = list(dict.fromkeys(df[panel.series].astype(str)))
    if select is not None:
        wanted = [select] if isinstance(select, str) else list(select)
        known = set(names) | ({str(link) for link in df["link"]} if kind == "queue" else set())
        if unknown := [name for name in wanted if name not in known]:
            raise ValueError(
                f"select: {', '.join(map(repr, unknown))} not in this trace; it has {', '.join(names[:10])}"
            )
        names = [n for n in names if n in wanted or (kind == "queue" and n.split(":")[0] in wanted)]
    if ax is None:
        import matplotlib.pyplot as plt
        import matplotlib.style

        from tcpsim import STYLE

        # tcpsim's style, as `tcpsim.repro.plotting.style` applies it; not imported from there,
        # since the reproductions import results.
        with matplotlib.style.context(STYLE):
            _, ax = plt.subplots(figsize=(7, 3.5), layout="constrained")
            _draw(ax, df, panel, names)
        return ax
    _draw(ax, df, panel, names)
    return ax


def _draw(ax: Any, df: pd.DataFrame, panel: _Panel, names: Sequence[str]) -> None:
    """One line per name of ``panel.series``, axis labels, and a legend or a title naming the line."""
    for name in names:
        rows = df[df[panel.series].astype(str) == name]
        ax.plot(
            rows["time_s"], rows[panel.y] * panel.scale, label=name, drawstyle="steps-post" if panel.step else "default"
        )
    ax.set_xlabel("time (s)")
    ax.set_ylabel(panel.label)
    if 1 < len(names) <= MAX_LEGEND:
        ax.legend(fontsize="small")
    elif len(names) == 1:
        ax.set_title(names[0], fontsize="medium")
