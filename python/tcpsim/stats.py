"""Statistics for replicated simulation runs.

The reproductions report the mean of several replications with a 95% confidence interval and
Jain's fairness index; with the Welch test that tells a sweep's peak from a tie, these are
the estimators the experiments need, so they live here once instead of being re-derived
(slightly differently) in every paper module.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
import pandas as pd


def _finite_array(values: Iterable[float]) -> np.ndarray:
    """Values as a float array with NaNs dropped: a replication that produced no sample
    (e.g. a flow that never started) must not poison the mean of the others."""
    array = np.array(list(values), dtype=float)
    return array[~np.isnan(array)]


def mean_ci(values: Iterable[float], confidence: float = 0.95) -> tuple[float, float, float]:
    """Mean and Student-t confidence interval ``(mean, low, high)`` of independent replications.

    Student t rather than the normal approximation because experiments use few seeds (2-10),
    where the normal interval is far too narrow. NaNs are ignored; one value gives a zero-width
    interval (there is no spread to estimate, and callers still get numbers to plot); no values
    give NaNs.
    """
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be in (0, 1), got {confidence}")
    array = _finite_array(values)
    if array.size == 0:
        return (float("nan"),) * 3
    mean = float(array.mean())
    if array.size == 1:
        return mean, mean, mean
    # stdtrit is the Student t quantile (= scipy.stats.t.ppf); scipy.special imports in a
    # third of the time of scipy.stats (~1 s), which every `tcpsim repro` would otherwise pay.
    from scipy.special import stdtrit

    quantile = float(stdtrit(array.size - 1, (1.0 + confidence) / 2.0))
    half = quantile * float(array.std(ddof=1)) / np.sqrt(array.size)
    return mean, mean - half, mean + half


def means_differ(a: Iterable[float], b: Iterable[float], confidence: float = 0.95) -> bool:
    """Whether the means of two independent sets of replications differ at `confidence`
    (two-sided Welch t-test: unequal variances, Welch–Satterthwaite degrees of freedom).

    Used to tell a real peak from a statistical tie between two points of a sweep, where each
    point has its own spread. With fewer than two values on a side there is no spread to test
    against, and only exactly equal means count as the same. NaNs are ignored.
    """
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be in (0, 1), got {confidence}")
    x, y = _finite_array(a), _finite_array(b)
    if x.size == 0 or y.size == 0:
        raise ValueError("means_differ needs at least one value on each side")
    diff = abs(float(x.mean()) - float(y.mean()))
    if x.size < 2 or y.size < 2:
        return diff > 0.0
    vx, vy = float(x.var(ddof=1)) / x.size, float(y.var(ddof=1)) / y.size
    if vx + vy == 0.0:
        return diff > 0.0
    df = (vx + vy) ** 2 / (vx**2 / (x.size - 1) + vy**2 / (y.size - 1))
    from scipy.special import stdtrit

    return diff / np.sqrt(vx + vy) > float(stdtrit(df, (1.0 + confidence) / 2.0))


def contrast_ci(
    groups: Sequence[Iterable[float]], weights: Sequence[float], confidence: float = 0.95
) -> tuple[float, float, float]:
    """A linear contrast Σ wᵢ·meanᵢ of independent sets of replications with its Welch
    confidence interval ``(estimate, low, high)``: variance Σ wᵢ²·sᵢ²/nᵢ, Welch–Satterthwaite
    degrees of freedom. A difference of two improvements, (a − b) − (c − d), is the contrast
    of (a, b, c, d) with weights (1, −1, −1, 1). Every group needs two values (NaNs ignored)."""
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be in (0, 1), got {confidence}")
    if len(groups) != len(weights) or not groups:
        raise ValueError("contrast_ci needs one weight per group and at least one group")
    arrays = [_finite_array(g) for g in groups]
    if any(a.size < 2 for a in arrays):
        raise ValueError("contrast_ci needs at least two values in every group")
    estimate = float(sum(w * a.mean() for w, a in zip(weights, arrays)))
    parts = [w * w * float(a.var(ddof=1)) / a.size for w, a in zip(weights, arrays)]
    variance = sum(parts)
    if variance == 0.0:
        return estimate, estimate, estimate
    df = variance**2 / sum(v**2 / (a.size - 1) for v, a in zip(parts, arrays))
    from scipy.special import stdtrit

    half = float(stdtrit(df, (1.0 + confidence) / 2.0)) * np.sqrt(variance)
    return estimate, estimate - half, estimate + half


def jain_index(x: Iterable[float]) -> float:
    """Jain's fairness index (sum x)^2 / (n * sum x^2): 1 when all shares are equal, 1/n when
    one flow takes everything. NaNs are ignored; an empty or all-zero allocation gives NaN,
    since fairness is undefined when nobody got anything (and usually signals a broken run)."""
    array = _finite_array(x)
    if np.any(array < 0):
        raise ValueError("Jain's index is defined for non-negative allocations only")
    square_sum = float(np.sum(array**2))
    if array.size == 0 or square_sum == 0.0:
        return float("nan")
    return float(np.sum(array) ** 2 / (array.size * square_sum))


def summarize(
    df: pd.DataFrame,
    by: str | Sequence[str],
    value: str,
    confidence: float = 0.95,
    *,
    sort: bool = True,
    bounds: tuple[float | None, float | None] = (None, None),
) -> pd.DataFrame:
    """Collapse replications: one row per combination of the ``by`` columns with ``mean``,
    ``ci_low``, ``ci_high`` (Student-t interval of the mean, :func:`mean_ci`) and ``n`` (number
    of non-NaN values) of ``value``.

    ``sort=False`` keeps the combinations in the order they first appear (a sweep's rows follow
    its grid, so rates written "5Mbps", "10Mbps" stay in that order rather than as text);
    ``bounds`` clips the interval to the range the quantity can take, e.g. ``(0, None)`` for a
    throughput, whose t interval over few seeds can reach below zero.

    Typical use: ``summarize(sweep.flows, ["links[1].rate", "name"], "goodput_bps", bounds=(0, None))``.
    """
    keys = [by] if isinstance(by, str) else list(by)
    low_bound, high_bound = bounds
    rows = []
    for group, frame in df.groupby(keys, sort=sort, dropna=False):
        mean, low, high = mean_ci(frame[value], confidence)
        if low_bound is not None:
            low, high = max(low, low_bound), max(high, low_bound)
        if high_bound is not None:
            low, high = min(low, high_bound), min(high, high_bound)
        rows.append((*group, mean, low, high, int(frame[value].notna().sum())))
    return pd.DataFrame(rows, columns=[*keys, "mean", "ci_low", "ci_high", "n"])
