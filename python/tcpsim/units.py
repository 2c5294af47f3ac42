"""Human units in scenario files ("45ms", "10Mbps", "64KB", "1.5BDP") → the engine's integers.

The engine counts time in nanoseconds, rates in bits per second and sizes in bytes, all as
integers, so that runs are exact and deterministic. People write "0.01ms" and "2.5Mb/s". This
module is the one place where the two meet. Numbers are parsed as exact fractions (never
floats), so "0.1s" is exactly 100_000_000 ns; a value that does not come out whole in the base
unit (such as "1.5B") is an error rather than silently rounded.

Decimal prefixes are SI: k = 10^3, M = 10^6, G = 10^9 (so "1Mbps" = 1_000_000 bit/s and
"1KB" = 1000 bytes); KiB, MiB and GiB are binary (2^10, 2^20, 2^30 bytes).

Bare numbers:
- durations and rates must carry a unit ("45" could mean seconds or milliseconds; "10" could
  be bits or megabits), so a bare number is rejected with an example;
- sizes accept a non-negative integer as bytes (`mss = 1460`);
- queue limits must carry a unit ("100pkt", "64KB", "1BDP"), since a bare number could be
  packets or bytes.

Every parser raises ``ValueError`` whose message quotes the value and states what is allowed.
"""

from __future__ import annotations

import functools
import math
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

U64_MAX = 2**64 - 1
"""Largest value the engine stores (its fields are u64)."""

NS_PER_S = 10**9

DURATION_UNITS_NS: dict[str, int] = {
    "ns": 1,
    "us": 10**3,
    "ms": 10**6,
    "s": NS_PER_S,
    "min": 60 * NS_PER_S,
}

RATE_UNITS_BPS: dict[str, int] = {
    f"{prefix}{suffix}": factor
    for base_prefix, factor in {"": 1, "k": 10**3, "M": 10**6, "G": 10**9}.items()
    for prefix in dict.fromkeys(
        (base_prefix, base_prefix.lower(), base_prefix.upper())
    )  # ordered: a set would vary per process
    for suffix in ("bps", "b/s")
}
"""Bits per second. The prefix's case is forgiven ("mbps" is megabits); the "b" is not, so
"MBps" (megabytes) is rejected instead of being read as megabits."""

SIZE_UNITS_BYTES: dict[str, int] = {
    "B": 1,
    "KB": 10**3,
    "kB": 10**3,
    "MB": 10**6,
    "GB": 10**9,
    "KiB": 2**10,
    "MiB": 2**20,
    "GiB": 2**30,
}

EVENT_RATE_UNITS_PER_S: dict[str, Fraction] = {"/s": Fraction(1), "/min": Fraction(1, 60), "/h": Fraction(1, 3600)}
"""Events (web transfers) per second, per minute or per hour."""

PACKET_UNITS = ("pkt", "pkts", "p")
BDP_UNIT = "BDP"

_QUANTITY = re.compile(
    r"\s*(?P<number>[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d{1,3})?)\s*(?P<unit>[^\s\d.+-]\S*)?\s*", re.ASCII
)
"""A number (exponent limited to three digits so "1e999999999s" cannot stall the parser),
optional spaces, and a unit. ASCII digits only: a full-width "１０s" is a typo, not ten seconds."""

_DURATION_HELP = "use a non-negative number with ns, us, ms, s or min, e.g. '45ms'"
_RATE_HELP = "use a positive number with bps, kbps, Mbps or Gbps, e.g. '10Mbps'"
_EVENT_RATE_HELP = "use a positive number per second, minute or hour, e.g. '50/s' or '600/min'"
_SIZE_HELP = "use a non-negative integer (bytes) or a number with B, KB, MB, GB, KiB, MiB or GiB, e.g. '64KB'"
_QUEUE_LIMIT_HELP = (
    "use a positive number of packets ('100pkt'), a size ('64KB') "
    "or a multiple of the link's bandwidth-delay product ('1.5BDP')"
)

_QUEUE_THRESHOLD_HELP = "use a number of packets ('5pkt') or a size ('15KB') >= 0"


def parse_duration_ns(value: object) -> int:
    """A duration such as "45ms", "0.01ms", "1.5s", "250us", "2min" → whole nanoseconds (≥ 0)."""
    return _duration_of_text(value) if isinstance(value, str) else _duration_ns(value)


@functools.lru_cache(maxsize=4096)
def _duration_of_text(text: str) -> int:
    """Texts repeat across a large scenario's flows and links ("0s", "1s"): each is parsed once."""
    return _duration_ns(text)


def _duration_ns(value: object) -> int:
    if _is_bare_number(value):
        raise ValueError(
            f"{value!r} has no unit; write a duration with ns, us, ms, s or min, e.g. '{value}s' or '{value}ms'"
        )
    return _scaled(value, DURATION_UNITS_NS, noun="duration", base="nanoseconds", allowed=_DURATION_HELP)


def parse_rate_bps(value: object) -> int:
    """A rate such as "10Mbps", "500kbps", "2.5Mb/s", "1e6bps" → whole bits per second (> 0)."""
    return _rate_of_text(value) if isinstance(value, str) else _rate_bps(value)


@functools.lru_cache(maxsize=4096)
def _rate_of_text(text: str) -> int:
    """Texts repeat across a large scenario's links ("200Mbps"): each is parsed once."""
    return _rate_bps(text)


def _rate_bps(value: object) -> int:
    if _is_bare_number(value):
        raise ValueError(
            f"{value!r} has no unit; write a rate with bps, kbps, Mbps or Gbps, e.g. '{value}Mbps' or '{value}kbps'"
        )
    rate_bps = _scaled(value, RATE_UNITS_BPS, noun="rate", base="bits per second", allowed=_RATE_HELP)
    if rate_bps == 0:
        raise ValueError(f"{value!r} is not a rate; {_RATE_HELP}")
    return rate_bps


def parse_per_second(value: object) -> float:
    """A rate of events such as "50/s", "600/min", "2/h" → events per second (> 0). The only
    float among the parsed units: the engine draws random gaps from it, it never counts with it."""
    if _is_bare_number(value):
        raise ValueError(f"{value!r} has no unit; write a rate with /s, /min or /h, e.g. '{value}/s'")
    match = _match_quantity(value)
    if match is None or match["unit"] not in EVENT_RATE_UNITS_PER_S or match["number"].startswith("-"):
        raise ValueError(f"{value!r} is not a rate of transfers; {_EVENT_RATE_HELP}")
    per_s = Fraction(match["number"]) * EVENT_RATE_UNITS_PER_S[match["unit"]]
    if per_s == 0:
        raise ValueError(f"{value!r} must be greater than zero; {_EVENT_RATE_HELP}")
    return float(per_s)


def parse_size_bytes(value: object) -> int:
    """A size such as "1500B", "64KB", "1.5MB", "64KiB", or an integer of bytes → bytes (≥ 0)."""
    if isinstance(value, int) and not isinstance(value, bool):
        if not 0 <= value <= U64_MAX:
            raise ValueError(f"{value!r} is not a size; {_SIZE_HELP}")
        return value
    return _scaled(value, SIZE_UNITS_BYTES, noun="size", base="bytes", allowed=_SIZE_HELP)


@dataclass(frozen=True)
class QueueLimit:
    """One queue limit as written: a count of packets, of bytes, or a multiple of the BDP.

    A BDP multiple stays unresolved here because its byte value depends on the link's rate and
    the scenario's reference RTT; see :func:`bdp_bytes`.
    """

    unit: Literal["packets", "bytes", "bdp"]
    amount: int | Fraction
    text: str
    """The value as the user wrote it, for error messages."""


def parse_queue_limit(value: object) -> QueueLimit:
    """ "100pkt" / "100pkts" / "100p" (packets), "64KB" (bytes) or "1.5BDP" → a positive limit."""
    return _queue_limit_of_text(value) if isinstance(value, str) else _queue_limit(value)


@functools.lru_cache(maxsize=4096)
def _queue_limit_of_text(text: str) -> QueueLimit:
    """Texts repeat across a large scenario's links ("10000pkt"): each is parsed once (a
    QueueLimit is immutable, so the links may share it)."""
    return _queue_limit(text)


def _queue_limit(value: object) -> QueueLimit:
    if _is_bare_number(value):
        raise ValueError(
            f"{value!r} has no unit; a queue limit is in packets ('{value}pkt'), "
            f"bytes ('{value}B') or bandwidth-delay products ('{value}BDP')"
        )
    match = _match_quantity(value)
    if match is None:
        raise ValueError(f"{value!r} is not a queue limit; {_QUEUE_LIMIT_HELP}")
    number, unit = Fraction(match["number"]), match["unit"]
    if number <= 0:
        raise ValueError(f"{value!r} is not a queue limit; a queue must hold at least one packet: {_QUEUE_LIMIT_HELP}")
    if unit in PACKET_UNITS:
        if number.denominator != 1:
            raise ValueError(f"{value!r} is not a whole number of packets")
        return QueueLimit("packets", _bounded(int(number), value), str(value))
    if unit == BDP_UNIT:
        return QueueLimit("bdp", number, str(value))
    if unit in SIZE_UNITS_BYTES:
        return QueueLimit("bytes", parse_size_bytes(value), str(value))
    raise ValueError(f"{value!r} is not a queue limit; {_QUEUE_LIMIT_HELP}")


@dataclass(frozen=True)
class QueueThreshold:
    """A threshold of a queue's average length as written: packets (fractions allowed) or bytes."""

    unit: Literal["packets", "bytes"]
    amount: Fraction
    text: str
    """The value as the user wrote it, for error messages."""


def parse_queue_threshold(value: object) -> QueueThreshold:
    """ "5pkt" / "2.5pkts" (packets) or "15KB" (bytes) → a threshold >= 0."""
    if _is_bare_number(value):
        raise ValueError(f"{value!r} has no unit; a threshold is in packets ('{value}pkt') or bytes ('{value}B')")
    match = _match_quantity(value)
    if match is None or match["number"].startswith("-"):
        raise ValueError(f"{value!r} is not a queue threshold; {_QUEUE_THRESHOLD_HELP}")
    if match["unit"] in PACKET_UNITS:
        return QueueThreshold("packets", Fraction(match["number"]), str(value))
    if match["unit"] in SIZE_UNITS_BYTES:
        return QueueThreshold("bytes", Fraction(parse_size_bytes(value)), str(value))
    raise ValueError(f"{value!r} is not a queue threshold; {_QUEUE_THRESHOLD_HELP}")


def bdp_bytes(multiple: Fraction, rate_bps: int, rtt_ns: int) -> int:
    """Bytes in `multiple` bandwidth-delay products of a link: round(multiple · rate · rtt / 8).

    E.g. 1 BDP at 2 Mb/s × 250 ms = 62_500 bytes. Rounds half to even; exact (no floats).
    """
    return round(multiple * rate_bps * rtt_ns / (8 * NS_PER_S))


def format_duration(duration_ns: int) -> str:
    """Nanoseconds → the largest unit up to seconds that shows them exactly ("300s", "45ms",
    "10us").

    Used to quote canonical values back to users in messages; minutes are never chosen, since
    "5min" reads oddly next to a "300s" the user wrote.
    """
    if duration_ns == 0:
        return "0s"
    for unit in ("s", "ms", "us"):
        if duration_ns % DURATION_UNITS_NS[unit] == 0:
            return f"{duration_ns // DURATION_UNITS_NS[unit]}{unit}"
    return f"{duration_ns}ns"


def _scaled(value: object, units: dict[str, int], *, noun: str, base: str, allowed: str) -> int:
    """Parse "<number><unit>" with `units` mapping unit → base units; whole and in u64 range."""
    match = _match_quantity(value)
    if match is None or match["unit"] not in units or match["number"].startswith("-"):
        raise ValueError(f"{value!r} is not a {noun}; {allowed}")
    amount = _whole(match["number"], units[match["unit"]])
    if amount is None:
        raise ValueError(f"{value!r} is not a whole number of {base}; {noun}s are counted in whole {base}")
    return _bounded(amount, value)


def _whole(number: str, factor: int) -> int | None:
    """The decimal `number` (as `_QUANTITY` matched it) times `factor`, if that is a whole
    number: exact integer arithmetic on its digits and exponent, as `Fraction` would give,
    at a fraction of its cost (a 1600-flow scenario has some 20 000 values)."""
    mantissa, _, exponent = number.lower().partition("e")
    whole, _, decimals = mantissa.partition(".")
    digits = int(whole + decimals) if whole not in ("", "+") else int(decimals or "0")
    scale = int(exponent or 0) - len(decimals)
    amount = digits * factor
    if scale >= 0:
        return amount * 10**scale
    quotient, remainder = divmod(amount, 10**-scale)
    return quotient if remainder == 0 else None


def _bounded(amount: int, value: object) -> int:
    if amount > U64_MAX:
        raise ValueError(f"{value!r} is too large; the engine stores at most {U64_MAX} of its base unit")
    return amount


def _match_quantity(value: object) -> re.Match[str] | None:
    return _QUANTITY.fullmatch(value) if isinstance(value, str) else None


def _is_bare_number(value: object) -> bool:
    """An int, finite float or numeric string without a unit (bools are not numbers here;
    NaN and infinities are no amount of anything)."""
    if isinstance(value, bool):
        return False
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, int):
        return True
    match = _match_quantity(value)
    return match is not None and match["unit"] is None
