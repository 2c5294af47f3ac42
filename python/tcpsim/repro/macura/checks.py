"""The tests behind the `macura` claims, on plain per-seed values, so each can be unit-tested on
synthetic data without simulation. Each returns (holds, evidence); the evidence states the test
and its tolerance.

Differences between two sets of runs are decided by a two-sided Welch t-test at 95 %
(`stats.means_differ`); where the paper's wording allows a tie ("≥"), an effect-size bound of
15 % (the paper's precision, as for numbers) keeps a low-power test from calling a large gap a
tie.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from tcpsim.repro.aggregate import fmt_ci, mean, significantly_below

TIE_TOLERANCE = 0.15
"""A "≥" holds on a tie: the lower mean within 15 % of the higher, and not significantly below."""

Samples = Mapping[float, Sequence[float]]
"""Per-seed values by x (an interval, a flow count, a hop count, a Bad-state duration)."""


def near_capacity(goodputs: Mapping[str, Sequence[float]], capacity: float, fraction: float) -> tuple[bool, str]:
    """ "Goodputs approach the bottleneck capacity": every case's mean at least `fraction` of
    `capacity`."""
    means = {k: mean(v) for k, v in goodputs.items()}
    return all(m >= fraction * capacity for m in means.values()), (
        f"test: every mean ≥ {fraction:.0%} of {capacity:g} Mb/s; "
        + ", ".join(f"{k} {m / capacity:.1%}" for k, m in means.items())
    )


def worst(target: str, goodputs: Mapping[str, Sequence[float]]) -> tuple[bool, str]:
    """`target` "provides the worst goodput": its mean significantly below every other's (Welch, 95 %)."""
    others = [k for k in goodputs if k != target]
    failing = [k for k in others if not significantly_below(goodputs[target], goodputs[k])]
    return not failing, (
        f"test: {target}'s mean significantly below each other's (Welch, 95 %, {len(goodputs[target])} seeds); "
        + ", ".join(f"{k} {fmt_ci(v, significant=True)}" for k, v in goodputs.items())
        + (f"; not significantly below: {', '.join(failing)}" if failing else "")
    )


def slightly_above(higher: Sequence[float], lower: Sequence[float], within: float = TIE_TOLERANCE) -> tuple[bool, str]:
    """ "Slightly better": `higher`'s mean above `lower`'s, by at most `within` (relative)."""
    h, lo = mean(higher), mean(lower)
    gap = h / lo - 1 if lo > 0 else float("inf")
    return (
        0 < gap <= within,
        f"test: 0 < mean ratio − 1 ≤ {within:.0%}; {fmt_ci(higher, significant=True)} vs {fmt_ci(lower, significant=True)} ({gap:+.1%})",
    )


def at_least(
    top: Samples, other: Samples, label: Callable[[float], str] = str, tolerance: float = TIE_TOLERANCE
) -> tuple[bool, str]:
    """ "`top` ≥ `other` at every x": at each x `top`'s mean is at least `other`'s, or not
    significantly below it (Welch, 95 %) and within `tolerance` of it."""
    failing = []
    for x in top:
        t, o = mean(top[x]), mean(other[x])
        tie = not significantly_below(top[x], other[x]) and t >= (1 - tolerance) * o
        if t < o and not tie:
            failing.append(label(x))
    evidence = "; ".join(
        f"{label(x)}: {fmt_ci(top[x], significant=True)} vs {fmt_ci(other[x], significant=True)}" for x in top
    )
    return not failing, (
        f"test: at every point the mean is at least the other's, or not significantly below (Welch, 95 %) and "
        f"within {tolerance:.0%}; " + evidence + (f"; fails at {', '.join(failing)}" if failing else "")
    )


def far_below(low: Samples, high: Samples, ratio: float, label: Callable[[float], str] = str) -> tuple[bool, str]:
    """ "`high` ≫ `low`": at every x `low`'s mean is at most `ratio` × `high`'s."""
    ratios = {x: mean(low[x]) / mean(high[x]) for x in low}
    failing = [label(x) for x, r in ratios.items() if not r <= ratio]
    return not failing, (
        f"test: mean ratio ≤ {ratio:g} at every point; "
        + ", ".join(f"{label(x)}: {r:.2f}" for x, r in ratios.items())
        + (f"; fails at {', '.join(failing)}" if failing else "")
    )


def below_everywhere(
    target: Samples, others: Mapping[str, Samples], label: Callable[[float], str] = str
) -> tuple[bool, str]:
    """At every x `target`'s mean significantly below each of `others`' (Welch, 95 %)."""
    failing = [
        f"{label(x)} vs {name}"
        for name, other in others.items()
        for x in target
        if not significantly_below(target[x], other[x])
    ]
    evidence = "; ".join(
        f"{label(x)}: {fmt_ci(target[x], significant=True)} vs "
        + ", ".join(f"{name} {fmt_ci(o[x], significant=True)}" for name, o in others.items())
        for x in target
    )
    return not failing, (
        "test: at every point significantly below each other (Welch, 95 %); "
        + evidence
        + (f"; not significantly below at {', '.join(failing)}" if failing else "")
    )


def hurt_most(
    with_traffic: Mapping[str, Samples],
    without: Mapping[str, Samples],
    target: str,
    label: Callable[[float], str] = str,
) -> tuple[bool, str]:
    """ "Reverse traffic has a significant impact on `target`": at every x, removing the reverse
    traffic raises `target`'s mean significantly (Welch, 95 %), and its relative loss
    1 − with/without is larger than every other algorithm's."""
    failing = []
    parts = []
    for x in with_traffic[target]:
        loss = {k: 1 - mean(with_traffic[k][x]) / mean(without[k][x]) for k in with_traffic}
        significant = significantly_below(with_traffic[target][x], without[target][x])
        largest = all(loss[target] > v for k, v in loss.items() if k != target)
        if not (significant and largest):
            failing.append(label(x))
        parts.append(f"{label(x)}: " + ", ".join(f"{k} {100 * v:+.1f} %" for k, v in loss.items()))
    return not failing, (
        f"test: at every point {target}'s goodput significantly lower with the reverse traffic than without "
        "(Welch, 95 %) and its relative loss the largest; losses: "
        + "; ".join(parts)
        + (f"; fails at {', '.join(failing)}" if failing else "")
    )


def fairer(top: Samples, other: Samples, label: Callable[[float], str] = str) -> tuple[bool, str]:
    """ "`top` improves fairness over `other`": `top`'s mean Jain index above `other`'s at more
    than half the points, and significantly below it (Welch, 95 %) at none."""
    above = [x for x in top if mean(top[x]) > mean(other[x])]
    below = [label(x) for x in top if significantly_below(top[x], other[x])]
    return len(above) * 2 > len(top) and not below, (
        f"test: mean index above at more than half the points and significantly below (Welch, 95 %) at none; "
        f"above at {len(above)}/{len(top)}; "
        + "; ".join(
            f"{label(x)}: {fmt_ci(top[x], significant=True)} vs {fmt_ci(other[x], significant=True)}" for x in top
        )
        + (f"; significantly below at {', '.join(below)}" if below else "")
    )


def improves_mostly(top: Samples, other: Samples, label: Callable[[float], str] = str) -> tuple[bool, str]:
    """ "`top` improves the goodput for a large set of conditions": significantly above `other`
    (Welch, 95 %) at more than half the points."""
    above = [label(x) for x in top if significantly_below(other[x], top[x])]
    return len(above) * 2 > len(top), (
        f"test: significantly above (Welch, 95 %) at more than half the points; above at {len(above)}/{len(top)} "
        f"({', '.join(above) or 'none'}); "
        + "; ".join(
            f"{label(x)}: {fmt_ci(top[x], significant=True)} vs {fmt_ci(other[x], significant=True)}" for x in top
        )
    )


def not_below_and_above_at(
    top: Samples, other: Samples, at: float, label: Callable[[float], str] = str
) -> tuple[bool, str]:
    """`top` significantly below `other` nowhere (Welch, 95 %) and significantly above it at `at`."""
    below = [label(x) for x in top if significantly_below(top[x], other[x])]
    above = significantly_below(other[at], top[at])
    return above and not below, (
        f"test: significantly below (Welch, 95 %) nowhere, significantly above at {label(at)}; "
        + "; ".join(
            f"{label(x)}: {fmt_ci(top[x], significant=True)} vs {fmt_ci(other[x], significant=True)}" for x in top
        )
        + (f"; significantly below at {', '.join(below)}" if below else "")
        + ("" if above else f"; not significantly above at {label(at)}")
    )
