"""Numeric columns in SI units for parameter values written with a unit.

"5Mbps" and "500kbps" sort wrongly as text and cannot be plotted; a sweep's tidy table keeps the
user's spelling in the parameter's own column and adds, beside it, the value as a number in the
base unit tcpsim uses everywhere else (bit/s, seconds, bytes, packets, BDP multiples, events
per second). The column is the path with the unit's suffix, as in the result tables
(`goodput_bps`, `rtt_min_s`): `links[1].rate` → `links[1].rate_bps`, `links[0].delay` →
`links[0].delay_s`. An axis mixing kinds ("100pkt" and "64KB") gets one column per kind, empty
where a value is of the other kind. Bare numbers are already numeric and get no extra column.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from tcpsim.units import (
    NS_PER_S,
    parse_duration_ns,
    parse_per_second,
    parse_queue_limit,
    parse_queue_threshold,
    parse_rate_bps,
    parse_size_bytes,
)


def _queue_limit(text: str) -> tuple[str, float | int]:
    limit = parse_queue_limit(text)
    suffix = {"packets": "pkts", "bytes": "bytes", "bdp": "bdp"}[limit.unit]
    return suffix, float(limit.amount) if limit.unit == "bdp" else int(limit.amount)


def _queue_threshold(text: str) -> tuple[str, float | int]:
    threshold = parse_queue_threshold(text)  # fractions of a packet, or a zero size
    return ("pkts", float(threshold.amount)) if threshold.unit == "packets" else ("bytes", int(threshold.amount))


_READERS: tuple[Callable[[str], tuple[str, float | int]], ...] = (
    lambda text: ("s", parse_duration_ns(text) / NS_PER_S),
    lambda text: ("bps", parse_rate_bps(text)),
    lambda text: ("per_s", parse_per_second(text)),
    _queue_limit,
    _queue_threshold,
    lambda text: ("bytes", parse_size_bytes(text)),
)
"""Each reader accepts only its own units, so at most one kind matches a text."""


def si_value(value: Any) -> tuple[str, float | int] | None:
    """(unit suffix, number in that SI unit) of a text with a unit, else None."""
    if not isinstance(value, str):
        return None
    for read in _READERS:
        try:
            return read(value)
        except ValueError:
            continue
    return None


def si_columns(path: str, values: Iterable[Any]) -> dict[str, list[float | int | None]]:
    """Column name → number per value (None where a value is not of that kind), for every unit
    kind among ``values``; empty when no value has a unit."""
    values = list(values)
    read = [si_value(value) for value in values]
    suffixes = dict.fromkeys(kind[0] for kind in read if kind is not None)
    return {
        f"{path}_{suffix}": [kind[1] if kind is not None and kind[0] == suffix else None for kind in read]
        for suffix in suffixes
    }
