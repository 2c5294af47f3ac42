"""One publication style for every reproduction's figure, and the line/error-bar plotter.

- The style is the package's ``tcpsim.mplstyle`` (``tcpsim.STYLE``; ``style()`` applies it).
- Sized for a paper: ``COLUMN_IN`` (3.5 in, one column) or ``DOUBLE_IN`` (7 in, both columns),
  8 pt text; written as PNG, SVG (text kept as text) and PDF (fonts embedded as TrueType).
- The Okabe–Ito palette (``PALETTE``), distinguishable with every common colour-vision deficiency.
- Titles are the paper's figure name and description (``figure_title``), never an internal id.
- Every series with CI bounds is drawn with its 95 % CI as error bars, clipped to the series'
  valid range (``Series.valid``): a Jain index bar never passes 1, a throughput bar never 0.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from tcpsim.outpaths import replacing

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from tcpsim.repro.framework import Experiment, Series

COLUMN_IN = 3.5
"""Width of a one-column figure (inches)."""
DOUBLE_IN = 7.0
"""Width of a figure spanning both columns (inches)."""
HEIGHT_IN = 2.6
"""Default height of a one-row figure (inches)."""

PALETTE = ("#0072B2", "#D55E00", "#009E73", "#E69F00", "#CC79A7", "#56B4E9", "#000000", "#F0E442")
"""Okabe & Ito (2008): blue, vermillion, bluish green, orange, reddish purple, sky blue, black,
yellow (last: faint on white)."""
GREY = "0.55"
"""Reference curves and unjudged comparisons."""
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")

SAVE_OPTIONS: dict[str, dict[str, Any]] = {
    ".png": {"dpi": 200},
    ".svg": {"metadata": {"Date": None}},
    ".pdf": {"metadata": {"CreationDate": None, "ModDate": None}},
}
"""``savefig`` options per format: PNG at 200 dpi; SVG and PDF without dates, so that the same
figure gives the same file."""


@contextmanager
def style() -> Iterator[None]:
    """The publication style (``tcpsim.STYLE``, the package's ``tcpsim.mplstyle``) for the
    figures made (and saved) inside the block."""
    import matplotlib.style

    from tcpsim import STYLE

    with matplotlib.style.context(STYLE):
        yield


def figure_title(experiment: Experiment) -> str:
    """The paper's name of the figure and its description: ``experiment.figure`` if set, else
    "Fig. N" from an id ending in ``.figN``; the description is the experiment's title."""
    name = getattr(experiment, "figure", "") or ""
    if not name:
        match = re.search(r"\.fig(\d+)$", experiment.id)
        name = f"Fig. {match.group(1)}" if match else ""
    return f"{name}: {experiment.title}" if name else experiment.title


def new_figure(width: float = COLUMN_IN, height: float = HEIGHT_IN) -> Figure:
    """A bare Figure (no pyplot state) of the given size with constrained layout."""
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), layout="constrained")


def fit_titles(fig: Figure) -> None:
    """Wrap the figure's title and every panel title to the width they have (about 15 characters
    per inch at 8 pt), so a long paper caption never runs off a column-wide figure."""
    width_in = fig.get_size_inches()[0]
    if fig.get_suptitle():
        fig.suptitle(textwrap.fill(fig.get_suptitle(), int(width_in * 15)))
    for ax in fig.axes:
        title = ax.title.get_text()
        if title:
            ax.set_title(textwrap.fill(title, max(20, int(width_in * ax.get_position().width * 15))))


def save(fig: Figure, out_dir: Path, name: str) -> Path:
    """``<name>.png`` (200 dpi), ``.svg`` and ``.pdf`` in ``out_dir``, reproducible (no dates);
    returns the PNG's path."""
    for suffix in SAVE_OPTIONS:
        save_as(fig, out_dir / f"{name}{suffix}")
    return out_dir / f"{name}.png"


def save_as(fig: Figure, path: Path) -> None:
    """``fig`` written whole or not at all to ``path``, in the format its suffix names (one of
    ``SAVE_OPTIONS``) with that format's options."""
    with replacing(path) as temporary:
        fig.savefig(temporary, **SAVE_OPTIONS[path.suffix.lower()])


def error_bars(series: Series) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """(y, below, above) of a series with CI bounds, the bounds clipped to its valid range;
    None if it has no CI."""
    if series.y_ci_low is None or series.y_ci_high is None:
        return None
    y = np.asarray(series.y, dtype=float)
    low, high = np.asarray(series.y_ci_low, dtype=float), np.asarray(series.y_ci_high, dtype=float)
    if series.valid is not None:
        low, high = series.valid.clip(low), series.valid.clip(high)
    return y, np.clip(y - low, 0, None), np.clip(high - y, 0, None)


def draw_series(
    ax: Axes,
    series: Sequence[Series],
    *,
    colors: Sequence[str] | None = None,
    markers: Sequence[str] | None = MARKERS,
    linestyle: str = "-",
    alpha: float = 1.0,
    style_of: Callable[[Series], Mapping[str, Any]] | None = None,
) -> None:
    """Each series as a line with markers; one with CI bounds gets its (clipped) 95 % CI as error
    bars. Colours and markers cycle through ``colors`` (default ``PALETTE``) and ``markers``;
    ``style_of(series)`` may override any line property per series (e.g. a paper's own markers)."""
    colors = colors or PALETTE
    for i, s in enumerate(series):
        style = {
            "color": colors[i % len(colors)],
            "marker": markers[i % len(markers)] if markers else None,
            "linestyle": linestyle,
            "alpha": alpha,
        }
        if style_of is not None:
            style.update(style_of(s))
        bars = error_bars(s)
        if bars is not None:
            y, below, above = bars
            ax.errorbar(s.x, y, yerr=[below, above], elinewidth=0.7, label=s.label, **style)
        else:
            ax.plot(s.x, s.y, label=s.label, **style)


def finish_axes(
    ax: Axes,
    xlabel: str = "",
    ylabel: str = "",
    xscale: str | None = None,
    legend: bool = True,
    legend_loc: str = "best",
) -> None:
    """Axis labels, scale and a legend (if anything is labelled)."""
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if xscale:
        ax.set_xscale(xscale)
    if legend and ax.get_legend_handles_labels()[1]:
        ax.legend(loc=legend_loc)


def plot_lines(
    fig: Figure,
    series: Sequence[Series],
    title: str,
    xlabel: str = "",
    ylabel: str = "",
    xscale: str | None = None,
    **style: Any,
) -> Axes:
    """The default figure: one panel, every series with its 95 % CI, the paper's title; ``style``
    goes to ``draw_series``."""
    ax = fig.add_subplot()
    draw_series(ax, series, **style)
    finish_axes(ax, xlabel, ylabel, xscale, legend=any(s.label for s in series))
    ax.set_title(title)
    return ax


def _colors_by_label(ax: Axes) -> dict[str, str]:
    """The colour of each labelled line or error-bar series already on ``ax``."""
    colors = {str(line.get_label()): line.get_color() for line in ax.get_lines()}
    for container in ax.containers:
        lines = getattr(container, "lines", None)
        if lines and lines[0] is not None:
            colors[str(container.get_label())] = lines[0].get_color()
    return colors


def draw_readings(ax: Axes, series: Sequence[tuple[str, Series]], compact: bool = False) -> None:
    """Alternative readings' series, (reading name, series), as thin dashed lines with × markers
    in the colour of the main reading's series of the same label, after the main reading's on the
    same axes, labelled "<reading>: <label>"; ``compact`` names each reading once instead,
    "<reading> (dashed)", for figures with many series."""
    colors = _colors_by_label(ax)
    named: set[str] = set()
    for i, (name, s) in enumerate(series):
        if compact:
            label = "_nolegend_" if name in named else f"{name} (dashed)"
            named.add(name)
        else:
            label = f"{name}: {s.label}" if s.label else name
        color = colors.get(s.label, PALETTE[i % len(PALETTE)])
        ax.plot(s.x, s.y, linestyle="--", marker="x", markersize=2.5, linewidth=0.8, color=color, label=label)


def figure_legend(fig: Figure, ax: Axes, columns: int = 4) -> None:
    """One legend for the whole figure, below its panels, from the handles of ``ax``."""
    handles, labels = ax.get_legend_handles_labels()
    if labels:
        fig.legend(handles, labels, loc="outside lower center", ncol=columns)
