"""The tests behind the `podlesny` claims, on plain per-seed values, so each can be unit-tested
on synthetic data without simulation. Each returns (holds, evidence text); the evidence states
the test and its tolerance."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from tcpsim.repro.aggregate import summarize


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
