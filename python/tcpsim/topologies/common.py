"""What every generator shares: round-trip times drawn once per topology, links in the user
format, and per-flow settings given as one value or a list."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

import numpy as np

T = TypeVar("T")


def ms(seconds: float) -> str:
    """A delay in the user format, exact to the nanosecond."""
    return f"{seconds * 1e3:.6f}ms"


def link(name: str, a: str, b: str, rate: str, delay_s: float, queue: Any) -> dict[str, Any]:
    return {"name": name, "a": a, "b": b, "rate": rate, "delay": ms(delay_s), "queue": queue}


def draw_rtts(count: int, rtt_range_s: tuple[float, float], seed: int, shortest_s: float) -> np.ndarray:
    """`count` round-trip propagation delays uniform in `rtt_range_s` from a numpy generator
    seeded with `seed`, independent of the run seed: the topology stays the same across
    replications. `shortest_s` is the least RTT the links of a path allow."""
    low, high = rtt_range_s
    if not 0 < low <= high:
        raise ValueError(f"rtt_range_s: {rtt_range_s} must satisfy 0 < low <= high")
    if low < shortest_s:
        raise ValueError(f"rtt_range_s: low {low}s is below the path's own round trip ({shortest_s}s)")
    return np.random.default_rng(seed).uniform(low, high, count)


def per_flow(value: T | Sequence[T], count: int, name: str) -> list[T]:
    """One setting per flow: a single value for all, or a list of exactly `count`."""
    if isinstance(value, str) or not isinstance(value, Sequence):
        return [value] * count  # type: ignore[list-item]
    if len(value) != count:
        raise ValueError(f"{name}: {len(value)} values given for {count} flows; give one value or one per flow")
    return list(value)
