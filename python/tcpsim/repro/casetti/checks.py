"""The tests behind the `casetti` claims, on plain arrays (per-seed samples), so each can be
unit-tested on synthetic data without simulation. Each returns (holds, evidence text); the
evidence states the test and its tolerance.

Two-sided Welch t-tests at 95 % (`stats.means_differ`) decide ties and differences between
points of a sweep, each point having its own spread over seeds; effect-size bounds (the paper's
precision, 15 % by default, as for numbers) keep a test with little power from calling a large
gap a tie.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import numpy as np

from tcpsim.repro.aggregate import summarize
from tcpsim.stats import means_differ

PEAK_TOLERANCE = 0.15
"""A paper's peak location holds when its point's mean gain is within 15 % of the largest."""


def _mean(values: Sequence[float]) -> float:
    return summarize(values)["mean"]


def _pct(values: Sequence[float]) -> str:
    s = summarize(values)
    return f"{s['mean']:+.0f}% [{s['ci_low']:+.0f}, {s['ci_high']:+.0f}]"


def peak_at(
    samples: Mapping[float, Sequence[float]],
    target: float,
    label: Callable[[float], str] = str,
    tolerance: float = PEAK_TOLERANCE,
) -> tuple[bool, str]:
    """The paper's "largest at `target`": `target` has the largest mean, or (a) its mean is not
    significantly below the largest (Welch, 95 %) *and* (b) it is within `tolerance` (relative)
    of the largest, so a low-power test cannot turn a large gap into a tie."""
    means = {x: _mean(v) for x, v in samples.items()}
    best = max(means, key=lambda x: means[x])
    n = min(len(v) for v in samples.values())
    test = (
        f"test: {label(target)} is the argmax, or its mean is not significantly below the argmax's (Welch, 95 %, "
        f"≥ {n} seeds per point) and within {tolerance:.0%} of it"
    )
    evidence = "; ".join(f"{label(x)}: {_pct(v)}" for x, v in samples.items())
    if best == target:
        return True, f"largest mean at {label(best)}. {test}. Gains: {evidence}"
    differ = means_differ(samples[best], samples[target])
    close = means[target] >= means[best] - tolerance * abs(means[best])
    gap = 1 - means[target] / means[best] if means[best] else np.inf
    verdict = (
        f"largest mean at {label(best)}; {label(target)} is {gap:.0%} below it and "
        + ("significantly" if differ else "not significantly")
        + " below it"
    )
    return (not differ) and close, f"{verdict}. {test}. Gains: {evidence}"


def increases(samples: Mapping[float, Sequence[float]], label: Callable[[float], str] = str) -> tuple[bool, str]:
    """ "Increases with x": the largest x's mean is significantly above the smallest x's (Welch,
    95 %) and no other point's mean is significantly above it."""
    xs = sorted(samples)
    first, last = samples[xs[0]], samples[xs[-1]]
    rises = _mean(last) > _mean(first) and means_differ(first, last)
    above = [x for x in xs[:-1] if _mean(samples[x]) > _mean(last) and means_differ(samples[x], last)]
    evidence = "; ".join(f"{label(x)}: {_pct(samples[x])}" for x in xs)
    return rises and not above, (
        f"test: the value at {label(xs[-1])} significantly above that at {label(xs[0])} (Welch, 95 %) and no point "
        f"significantly above it{'' if not above else ' (above it: ' + ', '.join(label(x) for x in above) + ')'}. "
        f"Values: {evidence}"
    )


def falls_beyond(
    samples: Mapping[float, Sequence[float]], peak: float, label: Callable[[float], str] = str
) -> tuple[bool, str]:
    """ "After `peak` the gain decreases": the largest x's mean is significantly below the mean at
    `peak` (Welch, 95 %)."""
    last = max(samples)
    falls = _mean(samples[last]) < _mean(samples[peak]) and means_differ(samples[last], samples[peak])
    evidence = "; ".join(f"{label(x)}: {_pct(v)}" for x, v in sorted(samples.items()) if x >= peak)
    return falls, (
        f"test: the gain at {label(last)} significantly below that at {label(peak)} (Welch, 95 %). Gains: {evidence}"
    )


def equal_within(means: Mapping[str, float], within: float = 0.15) -> tuple[bool, str]:
    """ "All equally effective": the largest mean at most `within` (relative) above the smallest."""
    spread = max(means.values()) / min(means.values()) - 1 if min(means.values()) > 0 else np.inf
    return bool(spread <= within), (
        f"test: largest/smallest − 1 ≤ {within:.0%}; spread {spread:.0%} ("
        + ", ".join(f"{k} {v:.3g}" for k, v in means.items())
        + ")"
    )


def all_below(means: Mapping[str, float], bound: float, what: str) -> tuple[bool, str]:
    """Every mean below `bound` (`what` names the bound)."""
    return all(v < bound for v in means.values()), (
        f"test: every mean < {bound:.3g} ({what}); " + ", ".join(f"{k} {v:.3g}" for k, v in means.items())
    )


def gain_near_zero(gains: Mapping[str, Sequence[float]], within: float = 15.0) -> tuple[bool, str]:
    """ "All protocols equally affected": every mean gain (%) within ±`within` %."""
    return all(abs(_mean(v)) <= within for v in gains.values()), (
        f"test: |mean gain| ≤ {within:g} % for each; " + ", ".join(f"over {k} {_pct(v)}" for k, v in gains.items())
    )


def share_ordering(tcpw: Sequence[float], reno: Sequence[float], fair: float, reno_floor: float) -> tuple[bool, str]:
    """The mix's "TCPW gets more than the fair share and Reno less, Reno not starved": TCPW's mean
    above `fair`, Reno's below it, and Reno's at least `reno_floor`."""
    t, r = _mean(tcpw), _mean(reno)
    return t > fair > r >= reno_floor, (
        f"test: TCPW > fair share {fair:.4g} > Reno ≥ {reno_floor:.4g}; TCPW {t:.4g} ({t / fair - 1:+.0%}), Reno "
        f"{r:.4g} ({r / fair - 1:+.0%})"
    )


def keeps_share(shares: Mapping[str, float], floor: float) -> tuple[bool, str]:
    """Reno "reduced only by a minimal amount": every relative share at least `floor`."""
    return all(v >= floor for v in shares.values()), (
        f"test: every share ≥ {floor:.0%}; " + ", ".join(f"{k}: {v:.0%}" for k, v in shares.items())
    )


def between(values: Sequence[float], low: float, high: float) -> tuple[bool, str]:
    """The mean's 95 % CI lies strictly between `low` and `high`."""
    s = summarize(values)
    m, lo, hi = s["mean"], s["ci_low"], s["ci_high"]
    return low < lo and hi < high, f"test: 95 % CI inside ({low:g}, {high:g}); {m:+.0f}% [{lo:+.0f}, {hi:+.0f}]"
