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

from tcpsim.repro.aggregate import fmt_pct, mean, significantly_above, significantly_below, summarize
from tcpsim.stats import contrast_ci, means_differ

PEAK_TOLERANCE = 0.15
"""A paper's peak location holds when its point's mean gain is within 15 % of the largest."""


def peak_at(
    samples: Mapping[float, Sequence[float]],
    target: float,
    label: Callable[[float], str] = str,
    tolerance: float = PEAK_TOLERANCE,
) -> tuple[bool, str]:
    """The paper's "largest at `target`": `target` has the largest mean, or (a) its mean is not
    significantly below the largest (Welch, 95 %) *and* (b) it is within `tolerance` (relative)
    of the largest, so a low-power test cannot turn a large gap into a tie."""
    means = {x: mean(v) for x, v in samples.items()}
    best = max(means, key=lambda x: means[x])
    n = min(len(v) for v in samples.values())
    test = (
        f"test: {label(target)} is the argmax, or its mean is not significantly below the argmax's (Welch, 95 %, "
        f"≥ {n} seeds per point) and within {tolerance:.0%} of it"
    )
    evidence = "; ".join(f"{label(x)}: {fmt_pct(v)}" for x, v in samples.items())
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


# `increases` is `podlesny.checks.changes(rising=True)` in logic (NaNs aside: this one drops them),
# but each states its test in its own words in the claims' evidence, which the reports keep: both stay.
def increases(samples: Mapping[float, Sequence[float]], label: Callable[[float], str] = str) -> tuple[bool, str]:
    """ "Increases with x": the largest x's mean is significantly above the smallest x's (Welch,
    95 %) and no other point's mean is significantly above it."""
    xs = sorted(samples)
    first, last = samples[xs[0]], samples[xs[-1]]
    rises = significantly_above(last, first)
    above = [x for x in xs[:-1] if significantly_above(samples[x], last)]
    evidence = "; ".join(f"{label(x)}: {fmt_pct(samples[x])}" for x in xs)
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
    falls = significantly_below(samples[last], samples[peak])
    evidence = "; ".join(f"{label(x)}: {fmt_pct(v)}" for x, v in sorted(samples.items()) if x >= peak)
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
    return all(abs(mean(v)) <= within for v in gains.values()), (
        f"test: |mean gain| ≤ {within:g} % for each; " + ", ".join(f"over {k} {fmt_pct(v)}" for k, v in gains.items())
    )


def share_ordering(tcpw: Sequence[float], reno: Sequence[float], fair: float, reno_floor: float) -> tuple[bool, str]:
    """The mix's "TCPW gets more than the fair share and Reno less, Reno not starved": TCPW's mean
    above `fair`, Reno's below it, and Reno's at least `reno_floor`."""
    t, r = mean(tcpw), mean(reno)
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


def tracks_plateaus(
    estimates: Sequence[Sequence[float]], available: Sequence[float], within: float
) -> tuple[bool, str]:
    """Fig. 3's "the estimate tracks the bandwidth left to TCP": on every plateau the mean of
    the per-seed estimates is within `within` (relative) of the bandwidth left (`available`)."""
    rel = [mean(e) / a - 1 for e, a in zip(estimates, available)]
    return all(abs(r) <= within for r in rel), (
        f"test: |mean estimate / bandwidth left − 1| ≤ {within:.0%} on every plateau ({len(estimates[0])} seeds); "
        + ", ".join(f"{a:g}: {mean(e):.3g} ({r:+.1%})" for e, a, r in zip(estimates, available, rel))
    )


def steps_follow(estimates: Sequence[Sequence[float]], available: Sequence[float]) -> tuple[bool, str]:
    """Fig. 3's "every step of the estimate follows the available bandwidth's": between
    successive plateaus the mean estimate moves in the direction of the bandwidth left, and the
    move is significant (Welch, 95 %, over seeds)."""
    steps = []
    for (e1, a1), (e2, a2) in zip(zip(estimates, available), zip(estimates[1:], available[1:])):
        want = np.sign(a2 - a1)
        moved = np.sign(mean(e2) - mean(e1)) if means_differ(e1, e2) else 0.0
        steps.append((want, moved))
    word = {1.0: "up", -1.0: "down", 0.0: "no significant move"}
    return all(w == m for w, m in steps), (
        f"test: each step of the mean estimate significant (Welch, 95 %, {len(estimates[0])} seeds) and in the "
        "direction of the bandwidth left; " + ", ".join(f"{word[float(w)]}→{word[float(m)]}" for w, m in steps)
    )


def paired_above(higher: Sequence[float], lower: Sequence[float], what: str, unit: str = "") -> tuple[bool, str]:
    """`higher` above `lower` in the same runs: the 95 % CI of the per-seed difference
    `higher − lower` lies above 0 (paired: both come from one run per seed)."""
    d = summarize([h - lo for h, lo in zip(higher, lower)])
    return bool(d["ci_low"] > 0), (
        f"{what}: difference {d['mean']:.4g} [{d['ci_low']:.4g}, {d['ci_high']:.4g}]{unit} over {len(higher)} seeds"
    )


def faster_in_both(
    short: Mapping[str, Sequence[float]], long: Mapping[str, Sequence[float]], unit: str = ""
) -> tuple[bool, str]:
    """Fig. 4's "the short-RTT flow progresses faster under both variants": per variant the
    95 % CI of the per-seed difference short − long (packets delivered, in `unit`) lies above 0."""
    results = [paired_above(short[v], long[v], v, unit) for v in short]
    return all(ok for ok, _ in results), (
        "test: per variant, the 95 % CI of the per-seed short − long packets delivered above 0 (paired within a run); "
        + "; ".join(text for _, text in results)
    )


def larger_share(tcpw: Sequence[float], reno: Sequence[float]) -> tuple[bool, str]:
    """Fig. 4's "the long-RTT flow's share is larger under TCPW than under Reno": TCPW's mean
    share significantly above Reno's (Welch, 95 %; separate runs)."""
    t, r = summarize(tcpw), summarize(reno)
    return significantly_above(tcpw, reno), (
        f"test: TCPW's mean long-flow share significantly above Reno's (Welch, 95 %, {len(tcpw)} and {len(reno)} "
        f"seeds); TCPW {t['mean']:.3f} [{t['ci_low']:.3f}, {t['ci_high']:.3f}], Reno {r['mean']:.3f} "
        f"[{r['ci_low']:.3f}, {r['ci_high']:.3f}]"
    )


def improves_in_both(after: Mapping[str, Sequence[float]], before: Mapping[str, Sequence[float]]) -> tuple[bool, str]:
    """Fig. 5's "both protocols benefit from RED, as far as fairness is concerned": per variant the
    long-RTT flow's mean share with RED (`after`) significantly above its mean share with drop-tail
    (`before`) (Welch, 95 %; separate runs)."""
    verdicts = {v: significantly_above(after[v], before[v]) for v in after}
    return all(verdicts.values()), (
        "test: per variant, the long-RTT flow's mean share with RED significantly above its share with drop-tail "
        "(Welch, 95 %); "
        + "; ".join(
            f"{v}: drop-tail {mean(before[v]):.3f} → RED {mean(after[v]):.3f}"
            + ("" if verdicts[v] else " (not significantly above)")
            for v in after
        )
    )


def larger_improvement(
    tcpw_after: Sequence[float], tcpw_before: Sequence[float], reno_after: Sequence[float], reno_before: Sequence[float]
) -> tuple[bool, str]:
    """Fig. 5's "the improvement in TCPW due to RED was higher than the improvement in Reno": the
    difference of the improvements of the long-RTT flow's share, (TCPW_RED − TCPW_drop-tail) −
    (Reno_RED − Reno_drop-tail), in points of share, has its 95 % CI above 0 (four independent sets
    of runs, Welch–Satterthwaite degrees of freedom)."""
    d, low, high = contrast_ci([tcpw_after, tcpw_before, reno_after, reno_before], [1, -1, -1, 1])
    return bool(low > 0), (
        "test: 95 % CI of (TCPW_RED − TCPW_drop-tail) − (Reno_RED − Reno_drop-tail) of the long-RTT flow's share "
        f"above 0 (Welch); TCPW {mean(tcpw_after) - mean(tcpw_before):+.3f}, Reno "
        f"{mean(reno_after) - mean(reno_before):+.3f}, difference {d:+.3f} [{low:+.3f}, {high:+.3f}]"
    )


def consistently_higher(
    tcpw: Sequence[float],
    reno: Sequence[float],
    tcpw_windows: Sequence[Sequence[float]],
    reno_windows: Sequence[Sequence[float]],
    fraction: float,
) -> tuple[bool, str]:
    """Fig. 12's "TCPW's window stays consistently higher than Reno's": TCPW's per-seed
    time-averages significantly above Reno's (Welch, 95 %) and TCPW's mean above Reno's in at
    least `fraction` of the time windows (seeds paired by position)."""
    above = float(np.mean([np.mean(np.asarray(w) > np.asarray(r)) for w, r in zip(tcpw_windows, reno_windows)]))
    t, r = summarize(tcpw), summarize(reno)
    return significantly_above(tcpw, reno) and above >= fraction, (
        f"test: TCPW's time-average significantly above Reno's (Welch, 95 %, {len(tcpw)} seeds each) and TCPW above "
        f"Reno in ≥ {fraction:.0%} of the windows; TCPW {t['mean']:.1f} [{t['ci_low']:.1f}, {t['ci_high']:.1f}], Reno "
        f"{r['mean']:.1f} [{r['ci_low']:.1f}, {r['ci_high']:.1f}] segments; TCPW above in {above:.0%} of the windows"
    )


def above_everywhere(
    samples: Mapping[float, Mapping[str, Sequence[float]]], top: str, label: Callable[[float], str] = str
) -> tuple[bool, str]:
    """ "`top` above the others at every x": at each x, `top`'s mean significantly above every
    other's (Welch, 95 %). `samples[x][name]` are per-seed values."""
    failing = [
        f"{label(x)} vs {name}"
        for x, by in samples.items()
        for name, values in by.items()
        if name != top and not significantly_above(by[top], values)
    ]
    n = min(len(v) for by in samples.values() for v in by.values())
    return not failing, (
        f"test: at every point {top}'s mean significantly above each other's (Welch, 95 %, ≥ {n} seeds)"
        + (f"; not significantly above at: {', '.join(failing)}" if failing else "; holds at every point")
    )


def ratio_at_least(top: Sequence[float], others: Mapping[str, Sequence[float]], ratio: float) -> tuple[bool, str]:
    """`top`'s mean at least `ratio` × every other's mean."""
    ratios = {k: mean(top) / mean(v) for k, v in others.items()}
    return all(r >= ratio for r in ratios.values()), (
        f"test: mean ratio ≥ {ratio:g}×; " + ", ".join(f"over {k} {r:.2f}×" for k, r in ratios.items())
    )


def closer_to(values: Sequence[float], near: float, far: float) -> tuple[bool, str]:
    """ "Closer to `near` than to `far`": the whole 95 % CI of the mean lies on `near`'s side of
    the midpoint between them."""
    mid = (near + far) / 2
    s = summarize(values)
    lo, hi = s["ci_low"], s["ci_high"]
    ok = lo > mid if near > far else hi < mid
    return bool(ok), (
        f"test: the 95 % CI on {near:+g}'s side of the midpoint {mid:+g} ({len(values)} seeds); "
        f"{s['mean']:+.0f}% [{lo:+.0f}, {hi:+.0f}]"
    )
