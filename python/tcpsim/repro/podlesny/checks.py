"""The tests behind the `podlesny` claims, on plain per-seed values, so each can be unit-tested
on synthetic data without simulation. Each returns (holds, evidence text); the evidence states
the test and its tolerance."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from tcpsim.repro.aggregate import fmt_ci, mean, significantly_below, summarize
from tcpsim.stats import means_differ


def dominates_throughout(
    leader: Sequence[Sequence[float]], other: Sequence[Sequence[float]], fraction: float
) -> tuple[bool, str]:
    """Fig. 1's "NewReno dominates in steady state": in every replication, `leader`'s throughput
    is above `other`'s in at least `fraction` of the time bins (`leader[i]` and `other[i]` are
    replication i's per-bin throughputs over the same bins)."""
    above = [float(np.mean(np.asarray(a) > np.asarray(b))) for a, b in zip(leader, other)]
    return bool(above) and min(above) >= fraction, (
        f"test: above in ≥ {fraction:.0%} of the bins in each of {len(above)} replications; "
        "above in " + ", ".join(f"{v:.1%}" for v in above)
    )


def fills_buffer(
    queue_means: Sequence[float], drops: Sequence[float], buffer_pkts: int, fraction: float
) -> tuple[bool, str]:
    """The loss-based flow "fills the buffer": in every replication the mean bottleneck queue is
    at least `fraction` of the buffer and the buffer overflowed (a drop)."""
    ok = bool(queue_means) and all(q >= fraction * buffer_pkts and d > 0 for q, d in zip(queue_means, drops))
    return ok, (
        f"test: mean queue ≥ {fraction:.0%} of the {buffer_pkts}-packet buffer and ≥ 1 drop in each of "
        f"{len(queue_means)} replications; mean queue "
        + ", ".join(f"{q:.1f}" for q in queue_means)
        + " packets; drops "
        + ", ".join(f"{d:g}" for d in drops)
    )


def below(values: Sequence[float], bound: float, what: str) -> tuple[bool, str]:
    """`what` is below `bound`: the 95 % CI of the mean over replications lies below it."""
    s = summarize(values)
    return bool(s["ci_high"] < bound), (
        f"test: 95 % CI of {what} below {bound:.3g} ({s['n']} replications); "
        f"{s['mean']:.3f} [{s['ci_low']:.3f}, {s['ci_high']:.3f}]"
    )


def within_everywhere(
    samples: Mapping[Any, Sequence[float]], low: float, high: float, what: str, label: Callable[[Any], str] = str
) -> tuple[bool, str]:
    """`what` ≈ a target at every point of a sweep: each point's mean over replications lies in
    [`low`, `high`]."""
    means = {x: mean(v) for x, v in samples.items()}
    outside = [x for x, m in means.items() if not low <= m <= high]
    return bool(means) and not outside, (
        f"test: mean {what} in [{low:g}, {high:g}] at each of {len(means)} points"
        + (f"; outside at {', '.join(label(x) for x in outside)}" if outside else "")
        + "; "
        + ", ".join(f"{label(x)}: {fmt_ci(v, significant=True)}" for x, v in samples.items())
    )


CURVATURE_BOUND = 0.10
"""A rise is linear when the best quadratic departs from the chord between its ends by at most
10 % of the rise, non-linear when it departs by more (and its curvature is significant)."""


def quadratic_fit(samples: Mapping[float, Sequence[float]]) -> dict[str, float]:
    """Least squares y = a + b·u + c·u² over every replication's value, u = x rescaled to [0, 1]
    over the sweep: the rise b + c between the ends, the departure |c|/4 of the curve from its
    chord at mid-range relative to that rise, and the 95 % CI of c."""
    from scipy.special import stdtrit

    xs = sorted(samples)
    lo, hi = xs[0], xs[-1]
    u = np.concatenate([np.full(len(samples[x]), (x - lo) / (hi - lo)) for x in xs])
    y = np.concatenate([np.asarray(samples[x], dtype=float) for x in xs])
    design = np.column_stack([np.ones_like(u), u, u * u])
    coef, *_ = np.linalg.lstsq(design, y, rcond=None)
    dof = len(y) - 3
    residual = y - design @ coef
    s2 = float(residual @ residual) / dof if dof > 0 else math.nan
    se_c = math.sqrt(s2 * float(np.linalg.inv(design.T @ design)[2, 2])) if dof > 0 else math.nan
    half = float(stdtrit(dof, 0.975)) * se_c if dof > 0 else math.nan
    rise = float(coef[1] + coef[2])
    return {
        "rise": rise,
        "departure": abs(float(coef[2])) / 4 / abs(rise) if rise else math.inf,
        "c": float(coef[2]),
        "c_low": float(coef[2]) - half,
        "c_high": float(coef[2]) + half,
    }


def _rise_evidence(samples: Mapping[float, Sequence[float]], fit: dict[str, float], label: Callable) -> str:
    xs = sorted(samples)
    return (
        f"quadratic fit over {sum(len(v) for v in samples.values())} runs: rise {fit['rise']:.3g}, departure from "
        f"the chord {fit['departure']:.0%} of the rise, curvature c = {fit['c']:.3g} [{fit['c_low']:.3g}, "
        f"{fit['c_high']:.3g}]; means " + ", ".join(f"{label(x)}: {fmt_ci(samples[x], significant=True)}" for x in xs)
    )


# `_rises`, `changes` and `lowest_at` look like the toolkit's `significantly_above` but differ:
# they compare `np.mean`s, which keep NaNs, so a replication that measured nothing (NaN) makes the
# comparison False here, where `aggregate.mean` drops it. Kept as they are so no verdict changes.


def _rises(samples: Mapping[float, Sequence[float]]) -> bool:
    """The last point's mean significantly above the first's (Welch, 95 %)."""
    xs = sorted(samples)
    first, last = samples[xs[0]], samples[xs[-1]]
    return bool(np.mean(last) > np.mean(first) and means_differ(first, last))


def grows_linearly(samples: Mapping[float, Sequence[float]], label: Callable[[float], str] = str) -> tuple[bool, str]:
    """ "Grows linearly with x": the last point significantly above the first (Welch, 95 %) and the
    best quadratic within `CURVATURE_BOUND` of a straight line (`quadratic_fit`)."""
    fit = quadratic_fit(samples)
    ok = _rises(samples) and fit["departure"] <= CURVATURE_BOUND
    return ok, (
        f"test: significant rise from the first to the last point (Welch, 95 %) and departure from linear ≤ "
        f"{CURVATURE_BOUND:.0%} of the rise; " + _rise_evidence(samples, fit, label)
    )


def grows_nonlinearly(
    samples: Mapping[float, Sequence[float]], label: Callable[[float], str] = str
) -> tuple[bool, str]:
    """ "Grows non-linearly with x": a significant rise (Welch, 95 %), a departure from linear above
    `CURVATURE_BOUND` of the rise, and a curvature whose 95 % CI excludes 0."""
    fit = quadratic_fit(samples)
    curved = fit["departure"] > CURVATURE_BOUND and (fit["c_low"] > 0 or fit["c_high"] < 0)
    return _rises(samples) and curved, (
        f"test: significant rise from the first to the last point (Welch, 95 %), departure from linear > "
        f"{CURVATURE_BOUND:.0%} of the rise and curvature ≠ 0 (95 % CI); " + _rise_evidence(samples, fit, label)
    )


def ordered(groups: Mapping[str, Sequence[float]], what: str) -> tuple[bool, str]:
    """The groups' means rise in the order given, each step significant (Welch, 95 %)."""
    names = list(groups)
    steps = [significantly_below(groups[a], groups[b]) for a, b in zip(names, names[1:])]
    return bool(steps) and all(steps), (
        f"test: {what} rises {' < '.join(names)}, each step significant (Welch, 95 %); "
        + ", ".join(f"{name}: {fmt_ci(groups[name], significant=True)}" for name in names)
    )


def clearly_below(values: Sequence[float], bound: float, ci_bound: float, what: str) -> tuple[bool, str]:
    """`what` clearly below a level: its mean below `bound` and its 95 % CI below `ci_bound`."""
    s = summarize(values)
    return bool(s["mean"] < bound and s["ci_high"] < ci_bound), (
        f"test: mean {what} < {bound:g} and its 95 % CI below {ci_bound:g} ({s['n']} replications); {fmt_ci(values, significant=True)}"
    )


def changes(
    samples: Mapping[float, Sequence[float]], rising: bool, label: Callable[[float], str] = str
) -> tuple[bool, str]:
    """ "Rises (falls) with x": the last point's mean significantly above (below) the first's
    (Welch, 95 %), and no point significantly beyond the last."""
    xs = sorted(samples)
    sign = 1 if rising else -1
    first, last = samples[xs[0]], samples[xs[-1]]

    def beyond(a: Sequence[float], b: Sequence[float]) -> bool:
        return bool(sign * (np.mean(a) - np.mean(b)) > 0 and means_differ(a, b))

    past = [x for x in xs[:-1] if beyond(samples[x], last)]
    return beyond(last, first) and not past, (
        f"test: the value at {label(xs[-1])} significantly {'above' if rising else 'below'} that at "
        f"{label(xs[0])} (Welch, 95 %) and no point significantly {'above' if rising else 'below'} it"
        + (f" (beyond it: {', '.join(label(x) for x in past)})" if past else "")
        + "; "
        + ", ".join(f"{label(x)}: {fmt_ci(samples[x], significant=True)}" for x in xs)
    )


def lowest_at(
    samples: Mapping[Any, Sequence[float]], target: Any, label: Callable[[Any], str] = str
) -> tuple[bool, str]:
    """`target` has the lowest mean, every other point's significantly above it (Welch, 95 %)."""
    others = [x for x in samples if x != target]
    ok = all(
        np.mean(samples[x]) > np.mean(samples[target]) and means_differ(samples[x], samples[target]) for x in others
    )
    return ok, (
        f"test: every other point significantly above {label(target)} (Welch, 95 %); "
        + ", ".join(f"{label(x)}: {fmt_ci(v, significant=True)}" for x, v in samples.items())
    )
