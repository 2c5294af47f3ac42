"""Replications aggregated: mean, standard deviation, 95 % Student-t CI and n, grouped by named
parameters of a results table (``tcpsim.repro.table``), and the ``Curve`` (one metric against
one parameter) that figures and claim checks read.

Every CI is clipped to the metric's valid range (``Range``): a Jain index is at most 1, a
throughput at least 0, whatever the t quantile of two runs says.

Below them, the per-seed helpers every paper's claims share: the mean over seeds, the "mean
[95 % CI]" text of the evidence, per-seed gains of runs paired by seed, and "significantly
above/below" (a two-sided Welch test at 95 %).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from tcpsim.stats import mean_ci, means_differ

if TYPE_CHECKING:
    import pandas as pd

    from tcpsim.repro.framework import Series


@dataclass(frozen=True)
class Range:
    """The values a metric can take; None for an open end."""

    low: float | None = None
    high: float | None = None

    def clip(self, values: Any) -> np.ndarray:
        return np.clip(
            np.asarray(values, dtype=float),
            -np.inf if self.low is None else self.low,
            np.inf if self.high is None else self.high,
        )


ANY = Range()
NON_NEGATIVE = Range(0.0)
"""Throughputs, delays, windows, counts."""
FRACTION = Range(0.0, 1.0)
"""Shares, utilizations, Jain's index, probabilities."""


def summarize(values: Sequence[float], valid: Range = ANY) -> dict[str, float]:
    """Mean, sd, 95 % CI (clipped to ``valid``) and n of one set of replications. NaNs are
    ignored (``tcpsim.stats.mean_ci``); n = 1 gives sd 0 and a zero-width CI (nothing to estimate),
    n = 0 NaNs."""
    finite = np.asarray(values, dtype=float)
    finite = finite[~np.isnan(finite)]
    mean, low, high = mean_ci(finite)
    sd = float(finite.std(ddof=1)) if finite.size > 1 else 0.0 if finite.size else math.nan
    low, high = (float(v) for v in valid.clip([low, high]))
    return {"mean": mean, "sd": sd, "ci_low": low, "ci_high": high, "n": int(finite.size)}


def aggregate(table: pd.DataFrame, by: Sequence[str], metric: str, valid: Range = ANY) -> pd.DataFrame:
    """One row per combination of the ``by`` columns (sorted): those columns, then ``mean``,
    ``sd``, ``ci_low``, ``ci_high`` (95 %, clipped to ``valid``) and ``n`` of ``metric``; the
    values of a group are taken in table order."""
    import pandas as pd

    rows = []
    for group, part in table.groupby(list(by), sort=True):
        names = group if isinstance(group, tuple) else (group,)
        rows.append({**dict(zip(by, names)), **summarize(part[metric].to_numpy(dtype=float), valid)})
    return pd.DataFrame(rows, columns=[*by, "mean", "sd", "ci_low", "ci_high", "n"])


@dataclass
class Curve:
    """One metric against one parameter, replications aggregated: per x the mean, the sample
    standard deviation, the 95 % CI (clipped to ``valid``) and n, and the runs' own values
    (``samples[x]``, in table order, for tests between curves)."""

    x: list[Any]
    mean: np.ndarray
    sd: np.ndarray
    ci_low: np.ndarray
    ci_high: np.ndarray
    n: np.ndarray
    samples: dict[Any, np.ndarray] = field(default_factory=dict)
    valid: Range = ANY

    @classmethod
    def of(cls, values_by_x: Mapping[Any, Sequence[float]], valid: Range = ANY) -> Curve:
        """From the runs' values at each x, in the mapping's order."""
        xs = list(values_by_x)
        stats = [summarize(values_by_x[x], valid) for x in xs]

        def column(name: str) -> np.ndarray:
            return np.array([s[name] for s in stats], dtype=float)

        return cls(
            xs,
            column("mean"),
            column("sd"),
            column("ci_low"),
            column("ci_high"),
            np.array([s["n"] for s in stats], dtype=int),
            {x: np.asarray(values_by_x[x], dtype=float) for x in xs},
            valid,
        )

    def at(self, x: Any) -> float:
        return float(self.mean[self.x.index(x)])

    @property
    def ci_half(self) -> np.ndarray:
        """Upper half-width of the CI (as clipped)."""
        return self.ci_high - self.mean

    @property
    def runs(self) -> int:
        """The fewest replications at any x."""
        return int(self.n.min()) if self.n.size else 0

    def series(self, label: str, x: Sequence[Any] | None = None) -> Series:
        """The curve as a figure series with its 95 % CI, plotted at ``x`` (default: its own x)."""
        from tcpsim.repro.framework import Series

        return Series(
            label,
            list(self.x if x is None else x),
            self.mean.tolist(),
            self.ci_low.tolist(),
            self.ci_high.tolist(),
            valid=self.valid,
        )


def curve(table: pd.DataFrame, x: str, metric: str, valid: Range = ANY) -> Curve:
    """``metric`` against column ``x`` (sorted) over the rows of ``table``."""
    values: dict[Any, list[float]] = {}
    for xv, value in zip(table[x].tolist(), table[metric].tolist()):
        values.setdefault(xv, []).append(value)
    return Curve.of({xv: values[xv] for xv in sorted(values)}, valid)


def curves(
    table: pd.DataFrame, x: str, metric: str, by: str | Sequence[str], valid: Range = ANY
) -> dict[Hashable, Curve]:
    """One ``curve`` per value of ``by`` (a column, or several: then keyed by tuples), in the
    order the values first appear."""
    columns = [by] if isinstance(by, str) else list(by)
    out = {}
    for group, part in table.groupby(columns, sort=False):
        values = tuple(v.item() if hasattr(v, "item") else v for v in group)  # numpy scalars as Python values
        out[values[0] if isinstance(by, str) else values] = curve(part, x, metric, valid)
    return out


# --- per-seed values as the claims read them ------------------------------------------------


def mean(values: Sequence[float]) -> float:
    """Mean over seeds, NaNs ignored (``summarize``'s mean)."""
    return summarize(values)["mean"]


def fmt_ci(values: Sequence[float], digits: int = 3, unit: str = "", *, significant: bool = False) -> str:
    """Mean [95 % CI] over seeds as claims' evidence gives it (the t interval, unclipped):
    ``digits`` decimals, or ``digits`` significant digits with ``significant``; ``unit`` follows
    the mean."""
    s = summarize(values)
    f = f".{digits}{'g' if significant else 'f'}"
    return f"{s['mean']:{f}}{unit} [{s['ci_low']:{f}}, {s['ci_high']:{f}}]"


def fmt_pct(values: Sequence[float]) -> str:
    """Per-seed gains in percent (``paired_gains``) as mean [95 % CI], whole percents, signed."""
    s = summarize(values)
    return f"{s['mean']:+.0f}% [{s['ci_low']:+.0f}, {s['ci_high']:+.0f}]"


def paired_gains(numerator: Sequence[float], denominator: Sequence[float]) -> list[float]:
    """Per-seed gains numerator / denominator − 1 in percent, seeds paired by position (NaN where
    the denominator is not positive)."""
    return [100.0 * (a / b - 1.0) if b > 0 else math.nan for a, b in zip(numerator, denominator)]


def significantly_above(higher: Sequence[float], lower: Sequence[float]) -> bool:
    """``higher``'s mean above ``lower``'s and the two differ (two-sided Welch t-test at 95 %,
    ``tcpsim.stats.means_differ``; separate runs). NaNs are ignored."""
    return mean(higher) > mean(lower) and means_differ(higher, lower)


def significantly_below(lower: Sequence[float], higher: Sequence[float]) -> bool:
    """``lower``'s mean below ``higher``'s and the two differ (Welch, 95 %): the mirror of
    ``significantly_above``."""
    return mean(lower) < mean(higher) and means_differ(lower, higher)
