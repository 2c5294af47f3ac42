"""Scenarios: the one user-facing schema, validated in one place, turned into the engine's input.

A scenario is a TOML file (or a dict of the same shape) written in human units ("10Mbps",
"45ms", "1.5BDP") with names for nodes and flows. :func:`load_scenario` reads it, applies
``--set``-style overrides, validates every field and cross-reference, and returns a
:class:`Scenario`; :meth:`Scenario.to_engine` emits the canonical ``SimConfig`` the Rust core
deserializes (``crates/tcpsim-core/src/config.rs``): integers in ns, bit/s and bytes, nodes and
flows referred to by index.

Every problem is reported, with the path the user wrote, as a :class:`ScenarioError`; pydantic
stays an implementation detail. Checks that need the whole scenario (node names, flow names,
BDP limits, packet sizes against queue sizes) run once every field is individually valid.
"""

import codecs
import copy
import difflib
import hashlib
import json
import os
import re
import sys
import tomllib
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from types import NoneType, UnionType
from typing import Annotated, Any, Literal, NamedTuple, Self, Union, get_args, get_origin

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainValidator,
    ValidationError,
    WithJsonSchema,
    model_validator,
)

from tcpsim.units import (
    BDP_UNIT,
    DURATION_UNITS_NS,
    PACKET_UNITS,
    RATE_UNITS_BPS,
    SIZE_UNITS_BYTES,
    U64_MAX,
    QueueLimit,
    bdp_bytes,
    format_duration,
    parse_duration_ns,
    parse_queue_limit,
    parse_rate_bps,
    parse_size_bytes,
)

U32_MAX = 2**32 - 1
"""Largest value of the engine's u32 fields (mss, header, window and ACK counts)."""
MAX_TIME_NS = 10**18
"""Longest duration of any field, about 31.7 years (the engine's `MAX_TIME_NS`): sums of a few
times stay within its u64 nanoseconds."""
MAX_MSS_BYTES = 2**30
MAX_HEADER_BYTES = 2**16
"""Largest segment payload (and UDP datagram) and header: wire sizes stay below 2^31 bytes (the
engine's `MAX_MSS_BYTES`, `MAX_HEADER_BYTES`)."""
MAX_FLOW_COUNT = 100_000
"""Largest `count` of one [[flows]] entry; memory, not the engine, sets the practical bound
(see `limits.max_memory`)."""

Loc = tuple[str | int, ...]
"""A path into the user's scenario: ("links", 0, "rate") is shown as links[0].rate."""

Problem = tuple[Loc, str]


# --- variants ------------------------------------------------------------------------------


class Variant(NamedTuple):
    """A user-facing TCP variant: a preset pair of the two halves (DESIGN "two separate axes")."""

    recovery: str
    cc: Mapping[str, Any]


_WESTWOOD = {"kind": "westwood", "tau_ns": 500_000_000, "null_sample_divisor": 2, "filter": {"kind": "tustin"},
             "ns3_fast_recovery": False, "sample_tick_ns": 0}
_WESTWOOD_PLUS = {"kind": "westwood_plus", "filter": {"kind": "two_stage_ewma"}, "min_window_ns": 50_000_000,
                  "min_decrease_half": False, "ns3_fast_recovery": False}
_VEGAS = {"kind": "vegas", "alpha": 1.0, "beta": 3.0, "gamma": 1.0, "rtt": "min", "slow_start": "every_other_rtt",
          "slow_start_exit": "eighth", "loss_decrease": 0.25, "timeout_cwnd_segments": 2,
          "min_round_samples": 3}

VARIANTS: dict[str, Variant] = {
    "tahoe": Variant(recovery="tahoe", cc={"kind": "aimd"}),
    "reno": Variant(recovery="reno", cc={"kind": "aimd"}),
    "newreno": Variant(recovery="newreno", cc={"kind": "aimd"}),
    # RFC 6675 recovery with standard AIMD: the "SACK" TCP of casetti Sec. 5 and macura Sec. 5.5.
    "sack": Variant(recovery="sack", cc={"kind": "aimd"}),
    # casetti Sec. 3: "the standard Fast Retransmit/Fast Recovery (à la Reno) then follows".
    "westwood": Variant(recovery="reno", cc=_WESTWOOD),
    # macura Sec. 2.1 and the ns-2/ns-3/Linux implementations build Westwood+ on NewReno.
    "westwood_plus": Variant(recovery="newreno", cc=_WESTWOOD_PLUS),
    # podlesny Sec. II-B.3: "the loss signals for TCP Vegas are similar to those for TCP NewReno".
    "vegas": Variant(recovery="newreno", cc=_VEGAS),
}
"""Preset name → (recovery, congestion control). A new variant is one line here."""

RECOVERY_KINDS = ("tahoe", "reno", "newreno", "sack")
"""The engine's `RecoveryKind` values."""


# --- errors --------------------------------------------------------------------------------


class ScenarioError(Exception):
    """Everything wrong with a scenario, as (path, message) pairs; str() gives one line each.

    Paths are the user's (`links[0].rate`), never the engine's or pydantic's. An empty path
    means the scenario as a whole (e.g. an unreadable file).
    """

    def __init__(self, errors: Sequence[tuple[str, str]]) -> None:
        super().__init__(list(errors))
        self.errors: list[tuple[str, str]] = list(errors)

    def __str__(self) -> str:
        return "\n".join(f"{path}: {message}" if path else message for path, message in self.errors)


class _Problems(ValueError):
    """Raised by model validators to report several problems at paths below the model.

    Pydantic can only attach one message to a model; this carries all of them, and
    :func:`_describe` spreads them back out under the model's own path.
    """

    def __init__(self, problems: Sequence[Problem]) -> None:
        super().__init__("; ".join(message for _, message in problems))
        self.problems = list(problems)


def _raise_if_any(problems: Sequence[Problem]) -> None:
    if problems:
        raise _Problems(list(dict.fromkeys(problems)))


def format_path(loc: Loc) -> str:
    """("links", 0, "rate") → "links[0].rate"."""
    text = ""
    for part in loc:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += f".{part}" if text else part
    return text


# --- field types ---------------------------------------------------------------------------


def _quantity_schema(units: Sequence[str], examples: list[str]) -> dict[str, Any]:
    unit_pattern = "|".join(re.escape(unit) for unit in sorted(units, key=len, reverse=True))
    pattern = rf"^\s*\+?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d{{1,3}})?\s*({unit_pattern})\s*$"
    return {"type": "string", "pattern": pattern, "examples": examples}


_DURATION_SCHEMA = _quantity_schema(list(DURATION_UNITS_NS), ["45ms", "1.5s", "250us", "2min"])
_RATE_SCHEMA = _quantity_schema(list(RATE_UNITS_BPS), ["10Mbps", "500kbps", "2.5Mb/s"])
_SIZE_SCHEMA = {
    "anyOf": [
        {"type": "integer", "minimum": 0, "description": "bytes"},
        _quantity_schema(list(SIZE_UNITS_BYTES), ["1500B", "64KB", "1.5MB", "64KiB"]),
    ]
}
_QUEUE_LIMIT_SCHEMA = _quantity_schema(
    [*PACKET_UNITS, BDP_UNIT, *SIZE_UNITS_BYTES], ["100pkt", "64KB", "1.5BDP"]
)
_PACKET_LIMIT_SCHEMA = {
    "anyOf": [{"type": "integer", "minimum": 1}, _quantity_schema(PACKET_UNITS, ["100pkt"])]
}
_BYTE_LIMIT_SCHEMA = {
    "anyOf": [
        {"type": "integer", "minimum": 1},
        _quantity_schema([BDP_UNIT, *SIZE_UNITS_BYTES], ["64KB", "1.5BDP"]),
    ]
}


def _in_range(parse: Callable[[object], int], *, minimum: int = 0, maximum: int = U64_MAX) -> Callable[[object], int]:
    """Wrap a unit parser with the range the engine field allows (e.g. a duration > 0, an
    mss that fits the engine's u32)."""

    def validate(value: object) -> int:
        amount = parse(value)
        if amount < minimum:
            raise ValueError(f"{value!r} must be greater than zero")
        if amount > maximum:
            raise ValueError(f"{value!r} is too large; at most {maximum} is allowed here")
        return amount

    return validate


def _whole_number(noun: str, *, minimum: int, maximum: int, example: int) -> Callable[[object], int]:
    """An integer count (bools and floats rejected: `init_cwnd = 2.5` is a mistake)."""

    def validate(value: object) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
            raise ValueError(f"{value!r} is not {noun}; use a whole number >= {minimum}, e.g. {example}")
        if value > maximum:
            raise ValueError(f"{value!r} is too large; at most {maximum} is allowed here")
        return value

    return validate


def _choice(noun: str, allowed: Sequence[str]) -> Callable[[object], str]:
    """A string from a fixed set, with the set listed in the error."""

    def validate(value: object) -> str:
        if value not in allowed:
            raise ValueError(f"{value!r} is not {noun}; allowed: {', '.join(sorted(allowed))}")
        return value  # type: ignore[return-value]

    return validate


def _probability(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
        raise ValueError(f"{value!r} is not a probability; use a number from 0 to 1, e.g. 0.005")
    return float(value)


def _flag(value: object) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"{value!r} is not a boolean; use true or false")
    return value


def _name(value: object) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{value!r} is not a name; use a non-empty string, e.g. \"r1\"")
    return value


DurationNs = Annotated[
    int, PlainValidator(_in_range(parse_duration_ns, maximum=MAX_TIME_NS)), WithJsonSchema(_DURATION_SCHEMA)
]
PositiveDurationNs = Annotated[
    int, PlainValidator(_in_range(parse_duration_ns, minimum=1, maximum=MAX_TIME_NS)), WithJsonSchema(_DURATION_SCHEMA)
]
RateBps = Annotated[int, PlainValidator(parse_rate_bps), WithJsonSchema(_RATE_SCHEMA)]
PositiveSizeBytes = Annotated[
    int, PlainValidator(_in_range(parse_size_bytes, minimum=1)), WithJsonSchema(_SIZE_SCHEMA)
]
PacketSizeBytes = Annotated[
    int, PlainValidator(_in_range(parse_size_bytes, minimum=1, maximum=MAX_MSS_BYTES)), WithJsonSchema(_SIZE_SCHEMA)
]
HeaderSizeBytes = Annotated[
    int, PlainValidator(_in_range(parse_size_bytes, maximum=MAX_HEADER_BYTES)), WithJsonSchema(_SIZE_SCHEMA)
]
Count = Annotated[
    int,
    PlainValidator(_whole_number("a count", minimum=1, maximum=U32_MAX, example=2)),
    WithJsonSchema({"type": "integer", "minimum": 1, "maximum": U32_MAX}),
]
SegmentNumber = Annotated[
    int,
    PlainValidator(_whole_number("a segment number", minimum=1, maximum=U64_MAX, example=5)),
    WithJsonSchema({"type": "integer", "minimum": 1}),
]
Probability = Annotated[
    float, PlainValidator(_probability), WithJsonSchema({"type": "number", "minimum": 0, "maximum": 1})
]
Name = Annotated[str, PlainValidator(_name), WithJsonSchema({"type": "string", "minLength": 1})]
Flag = Annotated[bool, PlainValidator(_flag), WithJsonSchema({"type": "boolean"})]
VariantName = Annotated[
    str, PlainValidator(_choice("a variant", list(VARIANTS))), WithJsonSchema({"enum": sorted(VARIANTS)})
]
RecoveryName = Annotated[
    str,
    PlainValidator(_choice("a recovery algorithm", RECOVERY_KINDS)),
    WithJsonSchema({"enum": sorted(RECOVERY_KINDS)}),
]
Direction = Annotated[
    Literal["ab", "ba", "both"],
    PlainValidator(_choice("a direction", ("ab", "ba", "both"))),
    WithJsonSchema({"enum": ["ab", "ba", "both"]}),
]

INITIAL_STATES = ("good", "bad", "stationary")
"""Where a two-state loss model starts (the engine's `InitialChannelState`)."""

InitialState = Annotated[
    str,
    PlainValidator(_choice("an initial state", INITIAL_STATES)),
    WithJsonSchema({"enum": list(INITIAL_STATES)}),
]


def _outage_window(value: object) -> tuple[int, int]:
    """`["10s", "12s"]`: an outage window [start, end), start before end."""
    if not isinstance(value, list | tuple) or len(value) != 2:
        raise ValueError(f"{_show(value)} is not an outage window; use [start, end], e.g. [\"10s\", \"12s\"]")
    start_ns, end_ns = (_in_range(parse_duration_ns, maximum=MAX_TIME_NS)(value[k]) for k in (0, 1))
    if start_ns >= end_ns:
        raise ValueError(
            f"[{format_duration(start_ns)}, {format_duration(end_ns)}] is an empty window; the end must be after the start"
        )
    return start_ns, end_ns


OutageWindow = Annotated[
    tuple[int, int],
    PlainValidator(_outage_window),
    WithJsonSchema(
        {"type": "array", "prefixItems": [_DURATION_SCHEMA, _DURATION_SCHEMA], "minItems": 2, "maxItems": 2}
    ),
]


def _queue_limit(value: object) -> QueueLimit:
    """One limit with its unit ("100pkt", "64KB", "1.5BDP"); already parsed by the shorthand."""
    return value if isinstance(value, QueueLimit) else parse_queue_limit(value)


def _packet_limit(value: object) -> QueueLimit:
    """`packets = 100` or `packets = "100pkt"`."""
    if isinstance(value, int) and not isinstance(value, bool):
        if value < 1:
            raise ValueError(f"{value!r} is not a packet count; a queue must hold at least one packet, e.g. 100")
        return QueueLimit("packets", value, str(value))
    limit = parse_queue_limit(value)
    if limit.unit != "packets":
        raise ValueError(f"{value!r} is not a packet count; use a whole number >= 1, e.g. 100, or move it to `bytes`")
    return limit


def _byte_limit(value: object) -> QueueLimit:
    """`bytes = 64000`, `bytes = "64KB"` or `bytes = "1.5BDP"`."""
    if isinstance(value, int) and not isinstance(value, bool):
        if parse_size_bytes(value) < 1:
            raise ValueError(f"{value!r} is not a byte limit; a queue must hold at least one packet, e.g. '64KB'")
        return QueueLimit("bytes", value, str(value))
    limit = parse_queue_limit(value)
    if limit.unit == "packets":
        raise ValueError(f"{value!r} is not a byte limit; use a size ('64KB') or a BDP multiple ('1.5BDP'), or move it to `packets`")
    return limit


QueueLimitValue = Annotated[QueueLimit, PlainValidator(_queue_limit), WithJsonSchema(_QUEUE_LIMIT_SCHEMA)]
PacketLimitValue = Annotated[QueueLimit, PlainValidator(_packet_limit), WithJsonSchema(_PACKET_LIMIT_SCHEMA)]
ByteLimitValue = Annotated[QueueLimit, PlainValidator(_byte_limit), WithJsonSchema(_BYTE_LIMIT_SCHEMA)]


# --- models --------------------------------------------------------------------------------


class _Model(BaseModel):
    """Base of every scenario table.

    Unknown keys are errors (a typo must not silently fall back to a default); values are
    immutable once validated; attribute docstrings become JSON Schema descriptions. Attributes
    carry unit suffixes (`rate_bps`) and hold canonical integers; users write the alias
    (`rate = "10Mbps"`).
    """

    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)


class AimdCc(_Model):
    """RFC 5681 slow start and congestion avoidance (no parameters)."""

    kind: Literal["aimd"]


def _kind_shorthand(value: object) -> object:
    """`cc = "aimd"` is short for `cc = {kind = "aimd"}`."""
    return {"kind": value} if isinstance(value, str) else value


def _alpha(value: object) -> float:
    """A filter coefficient in [0, 1)."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value < 1:
        raise ValueError(f"{value!r} is not a filter coefficient; use a number in [0, 1), e.g. 0.9")
    return float(value)


Alpha = Annotated[float, PlainValidator(_alpha), WithJsonSchema({"type": "number", "minimum": 0, "exclusiveMaximum": 1})]


class TustinFilter(_Model):
    """`casetti` eq. (2): the Tustin low-pass filter with α_k = (2τ − Δ_k)/(2τ + Δ_k)."""

    kind: Literal["tustin"]


class TustinLatestFilter(_Model):
    """Ablation of `tustin`: the same time-varying α_k on the latest sample b_k alone, without the
    trapezoid (b_k + b_{k−1})/2 that over-counts bunched ACKs. Not a paper's filter."""

    kind: Literal["tustin_latest"]


class TustinFixedFilter(_Model):
    """Tustin filter with a constant α: ns-2's TCPW code (α = 19/21) or the `gangadhar` ns-3
    code (α = 0.9 on the mean of the last two samples)."""

    kind: Literal["tustin_fixed"]
    alpha: Alpha


class EwmaFilter(_Model):
    """Exponentially weighted moving average of the samples with weight α on the old value."""

    kind: Literal["ewma"]
    alpha: Alpha


class TwoStageEwmaFilter(_Model):
    """Linux `tcp_westwood.c`: two cascaded 7/8 EWMAs, initialised by the first sample."""

    kind: Literal["two_stage_ewma"]


WestwoodFilterSpec = Annotated[
    TustinFilter | TustinLatestFilter | TustinFixedFilter | EwmaFilter, Field(discriminator="kind"),
    BeforeValidator(_kind_shorthand),
]
WestwoodPlusFilterSpec = Annotated[
    TwoStageEwmaFilter | TustinFixedFilter | EwmaFilter, Field(discriminator="kind"), BeforeValidator(_kind_shorthand)
]


class WestwoodCc(_Model):
    """TCP Westwood (`casetti` Sec. 2–3): per-ACK bandwidth samples (AckedCount), the filter,
    virtual null samples after τ/m without ACKs, faster recovery to BWE·RTTmin."""

    kind: Literal["westwood"]
    tau_ns: PositiveDurationNs = Field("500ms", alias="tau", validate_default=True)
    """Filter time constant τ (casetti Sec. 4: 500 ms)."""
    null_sample_divisor: Annotated[
        int,
        PlainValidator(_whole_number("a divisor", minimum=0, maximum=U32_MAX, example=2)),
        WithJsonSchema({"type": "integer", "minimum": 0, "maximum": U32_MAX}),
    ] = 2
    """m of casetti Sec. 2.2: a null sample after τ/m of silence (m ≥ 2; 0 disables them)."""
    filter: WestwoodFilterSpec = Field(default_factory=lambda: TustinFilter(kind="tustin"))
    ns3_fast_recovery: Flag = False
    """ns-3 `TcpWestwood` fast recovery (the `gangadhar` code): start from min(cwnd, ssthresh)
    without inflating it by the n duplicate ACKs, and leave with cwnd = ssthresh even if that
    raises it; false: min(cwnd, ssthresh) at entry and exit, Reno-inflated (`casetti` Sec. 3.1)."""
    sample_tick_ns: DurationNs = Field("0s", alias="sample_tick", validate_default=True)
    """Tick of the clock that times the ACKs of the bandwidth samples: 0 (exact, a simulator's
    clock) or e.g. "10ms" (Linux 2.2 `jiffies`, the `casetti` Sec. 4.3 testbed); ACKs within
    one tick join one sample."""

    @model_validator(mode="after")
    def _check(self) -> Self:
        m = self.null_sample_divisor
        if m == 1:
            _raise_if_any([(("null_sample_divisor",), "1 is not allowed; use 0 (no null samples) or m >= 2 (Nyquist)")])
        if m == 0 and isinstance(self.filter, TustinFilter | TustinLatestFilter):
            _raise_if_any([(("null_sample_divisor",), f"0 (no null samples) needs a fixed-coefficient filter "
                                                      f"(tustin_fixed or ewma); the {self.filter.kind} filter needs m >= 2")])
        if m > self.tau_ns:
            _raise_if_any([(("null_sample_divisor",), f"{m} is more than tau in nanoseconds ({self.tau_ns}); "
                                                      f"the null-sample spacing tau/m must be at least 1ns")])
        return self


class WestwoodPlusCc(_Model):
    """TCP Westwood+ (`macura` Sec. 2.1, `gangadhar` Sec. 2.5): one bandwidth sample per RTT,
    ssthresh = cwnd = BWE·RTTmin on three duplicate ACKs."""

    kind: Literal["westwood_plus"]
    filter: WestwoodPlusFilterSpec = Field(default_factory=lambda: TwoStageEwmaFilter(kind="two_stage_ewma"))
    min_window_ns: DurationNs = Field("50ms", alias="min_window", validate_default=True)
    """Shortest sampling interval (Linux: max(RTT, 50 ms)); 0 samples exactly once per RTT."""
    min_decrease_half: Flag = False
    """`moller` Sec. IV modified Westwood+: after a loss the window never drops below half."""
    ns3_fast_recovery: Flag = False
    """ns-3 `TcpWestwood` fast recovery (the `gangadhar` code): start from min(cwnd, ssthresh)
    without the n-segment inflation, leave with cwnd = ssthresh; false: Reno's windows."""


def _segments(value: object) -> float:
    """A number of segments >= 0 (Vegas's α, β, γ)."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value < float("inf"):
        raise ValueError(f"{value!r} is not a number of segments; use a number >= 0, e.g. 1")
    return float(value)


def _loss_decrease(value: object) -> float | str:
    """A fraction of the window in (0, 1), or "ns3"."""
    if value == "ns3":
        return "ns3"
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value < 1:
        raise ValueError(f"{value!r} is not a window decrease; use a fraction in (0, 1), e.g. 0.25, or \"ns3\"")
    return float(value)


Segments = Annotated[float, PlainValidator(_segments), WithJsonSchema({"type": "number", "minimum": 0})]


class VegasCc(_Model):
    """TCP Vegas (`podlesny` Sec. II-B, `macura` Sec. 4, Brakmo & Peterson 1995): once per RTT,
    diff = cwnd·(RTT − BaseRTT)/RTT segments; +1 below α, −1 above β; slow start every other
    RTT until diff > γ; 3/4·cwnd after duplicate ACKs, 2 segments after a timeout. Defaults are
    the papers'; ns-2, ns-3 and Linux are flavours (README "TCP variants")."""

    kind: Literal["vegas"]
    alpha: Segments = 1.0
    """α: grow while fewer than α segments are queued (papers 1; Linux and ns-3 2)."""
    beta: Segments = 3.0
    """β >= α: shrink while more than β segments are queued (papers 3; Linux and ns-3 4)."""
    gamma: Segments = 1.0
    """γ: slow start ends when more than γ segments are queued."""
    rtt: Literal["min", "mean"] = "min"
    """The round's RTT: its smallest sample (Linux, ns-3) or their mean (ns-2)."""
    slow_start: Literal["every_other_rtt", "every_rtt"] = "every_other_rtt"
    """Slow start grows every other RTT (Brakmo & Peterson, ns-2) or every RTT (Linux, ns-3)."""
    slow_start_exit: Literal["eighth", "target"] = "eighth"
    """Leaving slow start: cwnd − cwnd/8 (ns-2) or the window of the actual rate (Linux, ns-3)."""
    loss_decrease: Annotated[
        float | str, PlainValidator(_loss_decrease),
        WithJsonSchema({"anyOf": [{"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1}, {"const": "ns3"}]}),
    ] = 0.25
    """Window cut on duplicate ACKs: 0.25 (papers, ns-2), 0.5 (Linux) or "ns3" (cwnd − 1 segment,
    at most a quarter)."""
    timeout_cwnd_segments: Count = Field(2, alias="timeout_cwnd", validate_default=True)
    """The window a timeout restarts from: 2 segments (papers, ns-2), 1 (Linux, ns-3)."""
    min_round_samples: Count = 3
    """A round with fewer RTT samples decides nothing (slow start goes on, congestion avoidance
    adds a segment as Reno): 3 as Linux and ns-3, whose reason is delayed ACKs; 1 as ns-2."""

    @model_validator(mode="after")
    def _check(self) -> Self:
        if self.beta < self.alpha:
            _raise_if_any([(("beta",), f"{self.beta:g} must be >= alpha ({self.alpha:g})")])
        return self


CcSpec = Annotated[
    AimdCc | WestwoodCc | WestwoodPlusCc | VegasCc,
    Field(discriminator="kind"),
    BeforeValidator(_kind_shorthand, json_schema_input_type=str | AimdCc | WestwoodCc | WestwoodPlusCc | VegasCc),
]


class TcpOptions(_Model):
    """TCP settings. At the top level: defaults for every flow; in a flow: that flow's overrides
    (only the keys written there count)."""

    mss_bytes: PacketSizeBytes = Field(1460, alias="mss", validate_default=True)
    """Payload bytes per segment (SMSS)."""
    header_bytes: HeaderSizeBytes = Field(40, alias="header", validate_default=True)
    """IP + TCP header bytes added on the wire to data and ACK packets."""
    init_cwnd_segments: Count = Field(2, alias="init_cwnd", validate_default=True)
    """Initial window in segments (RFC 5681 §3.1)."""
    init_ssthresh_bytes: PositiveSizeBytes = Field("1GiB", alias="init_ssthresh", validate_default=True)
    """Initial slow-start threshold; RFC 5681 says arbitrarily high."""
    rwnd_bytes: PositiveSizeBytes = Field("1GiB", alias="rwnd", validate_default=True)
    """Receiver's advertised window; the default is effectively unlimited."""
    initial_rto_ns: PositiveDurationNs = Field("1s", alias="initial_rto", validate_default=True)
    """RFC 6298 §2.1 initial retransmission timeout."""
    min_rto_ns: PositiveDurationNs = Field("1s", alias="min_rto", validate_default=True)
    """RFC 6298 §2.4 lower bound on the RTO."""
    max_rto_ns: PositiveDurationNs = Field("60s", alias="max_rto", validate_default=True)
    """RFC 6298 §2.5 upper bound on the RTO."""
    clock_granularity_ns: DurationNs = Field("1ms", alias="clock_granularity", validate_default=True)
    """RFC 6298 clock granularity G."""
    rtt_tick_ns: DurationNs = Field("0s", alias="rtt_tick", validate_default=True)
    """Tick of the clock that times RTT samples; "0s" = exact. Each sample becomes the nearest
    whole number of ticks, at least one, before the RTO estimator and the congestion control
    (Westwood's RTTmin) see it, as in ns-2, whose TCP times RTTs in `tcp_tick_` units
    (100 ms in ns-2 of 2000–2001; `tcp.cc` `rtt_update`)."""
    dupack_threshold: Count = 3
    """Duplicate ACKs that trigger fast retransmit (RFC 5681: 3)."""
    delack_count: Count = 2
    """Receiver acknowledges every delack_count-th full segment; 1 = no delayed ACKs."""
    delack_timeout_ns: DurationNs = Field("200ms", alias="delack_timeout", validate_default=True)
    """Longest the receiver withholds an ACK (RFC 5681 §4.2: < 500 ms)."""
    recovery: RecoveryName | None = None
    """Override of the variant's loss-recovery half."""
    cc: CcSpec | None = None
    """Override of the variant's congestion-control half: "aimd" or {kind = "aimd"}."""
    avoid_repeated_fast_retransmit: Flag = True
    """No new fast retransmit for duplicate ACKs below `recover` (RFC 6582 §3.2 step 1)."""
    timeout_ssthresh: Literal["first_of_episode", "every"] = "first_of_episode"
    """Which retransmission timeouts reduce ssthresh: "first_of_episode" (RFC 5681 §3.1: not a
    back-off of the same loss, nor one during fast recovery; from FlightSize) or "every"
    (4.4BSD and ns-2's `TcpAgent::timeout`: each expiry, from the un-inflated min(cwnd, rwnd),
    so a retransmission's own timeout leaves ssthresh at 2 segments)."""
    ca_increment: Literal["exact", "ns3"] = "exact"
    """Congestion-avoidance growth per ACK: "exact" SMSS²/cwnd with fractions carried, or
    "ns3" max(1, ⌊SMSS²/cwnd⌋) bytes (ns-3's NewReno of the `gangadhar` era)."""


class DropTailQueue(_Model):
    """FIFO that drops arrivals when full. Give `limit`, or `packets` and/or `bytes` (with
    both, reaching either drops)."""

    kind: Literal["drop_tail"]
    limit: QueueLimitValue | None = None
    """One limit with its unit: "100pkt", "64KB" or "1.5BDP"."""
    packet_limit: PacketLimitValue | None = Field(None, alias="packets")
    """Limit in packets: 100 or "100pkt"."""
    byte_limit: ByteLimitValue | None = Field(None, alias="bytes")
    """Limit in bytes: 64000, "64KB", or a multiple of the link's BDP, "1.5BDP"."""

    @model_validator(mode="after")
    def _one_way_to_limit(self) -> Self:
        if self.limit is not None and (self.packet_limit is not None or self.byte_limit is not None):
            raise _Problems([(("limit",), "give either `limit` or `packets`/`bytes`, not both")])
        if not self.limits():
            raise _Problems([((), "needs a limit: `limit`, `packets` or `bytes`, e.g. {kind = \"drop_tail\", limit = \"100pkt\"}")])
        return self

    def limits(self) -> list[QueueLimit]:
        """The limits in force (one or two)."""
        return [limit for limit in (self.limit, self.packet_limit, self.byte_limit) if limit is not None]

    def to_engine(self, rate_bps: int, bdp_rtt_ns: int | None) -> dict[str, Any]:
        packets = [limit.amount for limit in self.limits() if limit.unit == "packets"]
        byte_counts = [_limit_bytes(limit, rate_bps, bdp_rtt_ns) for limit in self.limits() if limit.unit != "packets"]
        return {
            "kind": "drop_tail",
            "limit_packets": packets[0] if packets else None,
            "limit_bytes": byte_counts[0] if byte_counts else None,
        }


def _limit_bytes(limit: QueueLimit, rate_bps: int, bdp_rtt_ns: int | None) -> int:
    """Bytes of a byte or BDP limit; the caller has checked that a BDP limit has its RTT."""
    if limit.unit == "bdp":
        assert bdp_rtt_ns is not None
        return bdp_bytes(limit.amount, rate_bps, bdp_rtt_ns)
    return int(limit.amount)


def _queue_shorthand(value: object) -> object:
    """`queue = "100pkt"` is short for `queue = {kind = "drop_tail", limit = "100pkt"}`.

    The limit is parsed here so that a bad one is reported at `queue`, where the user wrote it.
    """
    if isinstance(value, str | int | float) and not isinstance(value, bool):
        return {"kind": "drop_tail", "limit": parse_queue_limit(value)}
    return value


QueueSpec = Annotated[
    DropTailQueue,
    Field(discriminator="kind"),
    BeforeValidator(_queue_shorthand, json_schema_input_type=QueueLimitValue | DropTailQueue),
]


class BernoulliLoss(_Model):
    """Each packet independently lost with probability p (after it occupied the link)."""

    kind: Literal["bernoulli"]
    p: Probability
    direction: Direction = "both"
    """Which direction of the link: "ab", "ba" or "both"."""

    def to_engine(self, flow_index: Mapping[str, int]) -> dict[str, Any]:
        return {"kind": "bernoulli", "p": self.p}


class ScriptedLoss(_Model):
    """Drop the first transmission of the listed data segments of one flow (segment n carries
    bytes [(n-1)·mss, n·mss), counting from 1)."""

    kind: Literal["scripted"]
    flow: Name
    """The flow's name (a replicated flow's copies are "name.0", "name.1", ...)."""
    segments: list[SegmentNumber] = Field(min_length=1)
    direction: Direction = "both"
    """Which direction of the link: "ab", "ba" or "both"."""

    def to_engine(self, flow_index: Mapping[str, int]) -> dict[str, Any]:
        return {"kind": "scripted", "flow": flow_index[self.flow], "segments": list(self.segments)}


class BitErrorLoss(_Model):
    """Independent bit errors (`casetti` Sec. 5.1): a packet of w bytes on the wire is lost with
    probability 1 − (1 − ber)^(8·w), so data packets suffer more than ACKs. Give `ber`, or
    `one_per`, the data per bit error: one_per = "64KiB" is casetti's "1 bit in 64 kBytes",
    i.e. ber = 1 / (8 · 65536) ≈ 1.9e-6."""

    kind: Literal["bit_error"]
    ber: Probability | None = None
    """Bit error rate, e.g. 1.9e-6."""
    one_per_bytes: PositiveSizeBytes | None = Field(None, alias="one_per")
    """Mean data between two bit errors, e.g. "64KiB" (ber = 1 / (8 · one_per))."""
    direction: Direction = "both"
    """Which direction of the link: "ab", "ba" or "both"."""

    @model_validator(mode="after")
    def _check(self) -> Self:
        if self.ber is None and self.one_per_bytes is None:
            raise _Problems([((), "needs the error rate: `ber` (e.g. 1.9e-6) or `one_per` (e.g. \"64KiB\")")])
        if self.ber is not None and self.one_per_bytes is not None:
            raise _Problems([(("one_per",), "give either `ber` or `one_per`, not both")])
        return self

    def to_engine(self, flow_index: Mapping[str, int]) -> dict[str, Any]:
        ber = self.ber if self.ber is not None else 1 / (8 * self.one_per_bytes)  # type: ignore[operator]
        return {"kind": "bit_error", "ber": ber}


class GilbertElliottLoss(_Model):
    """Two-state Markov channel (`casetti` Sec. 5.2): Good and Bad alternate, each lasting an
    exponentially distributed time of mean `good_mean` / `bad_mean`; each packet is lost with
    the current state's probability. Fading (Sec. 5.2.1): good_mean = "8s", bad_mean = "4s",
    good_loss = 1e-5, bad_loss = 0.05; blackouts (Sec. 5.2.2): good_mean = "4s",
    bad_mean = "100ms", bad_loss = 1. Long-run loss rate: π_G·good_loss + π_B·bad_loss with
    π_B = bad_mean / (good_mean + bad_mean)."""

    kind: Literal["gilbert_elliott"]
    good_mean_ns: PositiveDurationNs = Field(alias="good_mean")
    """Mean time in the Good state."""
    bad_mean_ns: PositiveDurationNs = Field(alias="bad_mean")
    """Mean time in the Bad state."""
    good_loss: Probability = 0.0
    """Packet loss probability in Good."""
    bad_loss: Probability
    """Packet loss probability in Bad (1: blackout)."""
    initial: InitialState = "good"
    """State at time 0: "good", "bad", or "stationary" (Bad with probability π_B)."""
    direction: Direction = "both"
    """Which direction of the link: "ab", "ba" or "both"."""
    correlated: Flag = False
    """With direction "both": one Good/Bad timeline for both directions (a fade or blackout
    hits data and ACKs at once); each direction still draws its own per-packet losses.
    False: each direction has its own independent timeline."""
    clock_rate_bps: RateBps | None = Field(None, alias="clock_rate")
    """Unset: sojourns are simulated time. A rate (e.g. "2Mbps"): ns-2's two-state clock of
    2000 (`ErrorModel/TwoState`, `ErrorModel/Expo` with `unit time`), which advances only by
    each packet's transmission time at this rate and stands still while the link is idle; a
    packet whose transmission touches a Bad sojourn is judged by `bad_loss`."""

    @model_validator(mode="after")
    def _check_correlated(self) -> Self:
        if self.correlated and self.direction != "both":
            raise _Problems([(("correlated",), f'needs direction = "both" (got {self.direction!r}): it ties the two directions together')])
        if self.correlated and self.clock_rate_bps is not None:
            raise _Problems([(("clock_rate",), "cannot be combined with correlated = true: a transmission-time clock "
                                               "counts one direction's packets, a shared timeline runs on time")])
        return self

    def to_engine(self, flow_index: Mapping[str, int]) -> dict[str, Any]:
        engine = {
            "kind": "gilbert_elliott",
            "good_mean_ns": self.good_mean_ns,
            "bad_mean_ns": self.bad_mean_ns,
            "good_loss": self.good_loss,
            "bad_loss": self.bad_loss,
            "initial": self.initial,
        }
        if self.clock_rate_bps is not None:
            engine["clock_rate_bps"] = self.clock_rate_bps
        return engine


class TwoStateLoss(_Model):
    """Two-state channel with deterministic sojourns (`macura` Sec. 5.5): every Good sojourn
    lasts `good_sojourn`, every Bad one `bad_sojourn`; when one ends, the next is Bad with
    probability `p_bad`, else Good (a state may repeat). Each packet is lost with the current
    state's probability. macura: good_sojourn = "1s", bad_sojourn = "0.1ms"…"100ms",
    good_loss = 0, bad_loss = 0.1, p_bad = 0.5. Long-run loss rate: π_G·good_loss +
    π_B·bad_loss with π_B = p_bad·bad_sojourn / (p_bad·bad_sojourn + (1 − p_bad)·good_sojourn)."""

    kind: Literal["two_state"]
    good_sojourn_ns: PositiveDurationNs = Field(alias="good_sojourn")
    """Length of every Good sojourn."""
    bad_sojourn_ns: PositiveDurationNs = Field(alias="bad_sojourn")
    """Length of every Bad sojourn."""
    good_loss: Probability = 0.0
    """Packet loss probability in Good."""
    bad_loss: Probability
    """Packet loss probability in Bad."""
    p_bad: Probability = 0.5
    """Probability that the sojourn after any sojourn is Bad (macura: 0.5)."""
    initial: InitialState = "good"
    """State at time 0: "good", "bad", or "stationary" (Bad with probability π_B, at a random
    point of its sojourn)."""
    direction: Direction = "both"
    """Which direction of the link: "ab", "ba" or "both"."""

    def to_engine(self, flow_index: Mapping[str, int]) -> dict[str, Any]:
        return {
            "kind": "two_state",
            "good_sojourn_ns": self.good_sojourn_ns,
            "bad_sojourn_ns": self.bad_sojourn_ns,
            "good_loss": self.good_loss,
            "bad_loss": self.bad_loss,
            "p_bad": self.p_bad,
            "initial": self.initial,
        }


class OutageLoss(_Model):
    """Scheduled total loss: every packet finishing transmission inside a window is lost.
    Periodic: an outage of `duration` every `period`, the first at `offset` (`casetti` Sec. 5.3,
    LEO hand-offs: period = "4s", duration = "100ms"); or listed windows [start, end):
    intervals = [["10s", "12s"], ["30s", "30.5s"]]."""

    kind: Literal["outage"]
    period_ns: PositiveDurationNs | None = Field(None, alias="period")
    """Time from the start of one periodic outage to the next."""
    duration_ns: PositiveDurationNs | None = Field(None, alias="duration")
    """Length of each periodic outage (at most `period`)."""
    offset_ns: DurationNs = Field("0s", alias="offset", validate_default=True)
    """Start of the first periodic outage."""
    intervals_ns: Annotated[list[OutageWindow], Field(min_length=1)] | None = Field(None, alias="intervals")
    """Outage windows [start, end) in time order, instead of a period."""
    direction: Direction = "both"
    """Which direction of the link: "ab", "ba" or "both"."""

    @model_validator(mode="after")
    def _check(self) -> Self:
        problems: list[Problem] = []
        periodic_keys = {"period_ns": "period", "duration_ns": "duration", "offset_ns": "offset"}
        periodic = [key for name, key in periodic_keys.items() if name in self.model_fields_set]
        if self.intervals_ns is not None:
            problems += [((key,), "give either `intervals` or `period` and `duration`, not both") for key in periodic]
            for index, (start_ns, end_ns) in enumerate(self.intervals_ns[1:], start=1):
                previous_end_ns = self.intervals_ns[index - 1][1]
                if start_ns < previous_end_ns:
                    problems.append((
                        ("intervals", index),
                        f"starts at {format_duration(start_ns)}, before the previous window ends "
                        f"({format_duration(previous_end_ns)}); list windows in time order without overlap",
                    ))
        elif self.period_ns is None and self.duration_ns is None:
            problems.append((
                (),
                "needs a schedule: `period` and `duration` (e.g. period = \"4s\", duration = \"100ms\") "
                "or `intervals` (e.g. [[\"10s\", \"12s\"]])",
            ))
        elif self.period_ns is None or self.duration_ns is None:
            missing = "period" if self.period_ns is None else "duration"
            problems.append(((missing,), "required key is missing; a periodic outage needs `period` and `duration`"))
        elif self.duration_ns > self.period_ns:
            problems.append((
                ("duration",),
                f"{format_duration(self.duration_ns)} must not exceed period ({format_duration(self.period_ns)})",
            ))
        _raise_if_any(problems)
        return self

    def to_engine(self, flow_index: Mapping[str, int]) -> dict[str, Any]:
        if self.intervals_ns is not None:
            return {"kind": "outage_intervals", "intervals_ns": [list(window) for window in self.intervals_ns]}
        return {
            "kind": "periodic_outage",
            "period_ns": self.period_ns,
            "duration_ns": self.duration_ns,
            "offset_ns": self.offset_ns,
        }


LossSpec = Annotated[
    BernoulliLoss | BitErrorLoss | GilbertElliottLoss | TwoStateLoss | OutageLoss | ScriptedLoss,
    Field(discriminator="kind"),
]


class DirectionSpec(_Model):
    """Settings of one direction of a link that differ from the link's own."""

    queue: QueueSpec


def _shared_state(engine: dict[str, Any], loss: "LossSpec", index: int) -> dict[str, Any]:
    """A correlated Gilbert–Elliott model's engine form names its timeline after its position in
    the link's `loss` list, the same in both directions (the engine's `shared_state`)."""
    if isinstance(loss, GilbertElliottLoss) and loss.correlated:
        return {**engine, "shared_state": index}
    return engine


class LinkSpec(_Model):
    """A full-duplex point-to-point link; its endpoints' names create the nodes."""

    name: Name | None = None
    """Defaults to "a-b"."""
    a: Name
    b: Name
    rate_bps: RateBps = Field(alias="rate")
    delay_ns: DurationNs = Field(alias="delay")
    """One-way propagation delay."""
    queue: QueueSpec | None = None
    """Queue of both directions: "100pkt", "64KB", "1.5BDP" or a table such as
    {kind = "drop_tail", packets = 100, bytes = "64KB"}."""
    loss: list[LossSpec] = []
    ab: DirectionSpec | None = None
    """Overrides for the direction a → b."""
    ba: DirectionSpec | None = None
    """Overrides for the direction b → a."""

    @model_validator(mode="after")
    def _check(self) -> Self:
        problems: list[Problem] = []
        if self.a == self.b:
            problems.append((("b",), f"{self.b!r} is also `a`; a link joins two different nodes"))
        if self.queue is None and (self.ab is None or self.ba is None):
            problems.append((("queue",), "required key is missing (unless both ab.queue and ba.queue are given), e.g. queue = \"100pkt\""))
        _raise_if_any(problems)
        return self

    @property
    def display_name(self) -> str:
        return self.name if self.name is not None else f"{self.a}-{self.b}"

    def queues(self) -> dict[str, tuple[Loc, DropTailQueue]]:
        """Direction ("ab", "ba") → (user path below the link, queue in force)."""
        result = {}
        for direction in ("ab", "ba"):
            override: DirectionSpec | None = getattr(self, direction)
            if override is not None:
                result[direction] = ((direction, "queue"), override.queue)
            else:
                assert self.queue is not None
                result[direction] = (("queue",), self.queue)
        return result

    def to_engine(self, node_index: Mapping[str, int], flow_index: Mapping[str, int], bdp_rtt_ns: int | None) -> dict[str, Any]:
        directions = {
            direction: {
                "queue": queue.to_engine(self.rate_bps, bdp_rtt_ns),
                "loss": [
                    _shared_state(loss.to_engine(flow_index), loss, index)
                    for index, loss in enumerate(self.loss)
                    if loss.direction in (direction, "both")
                ],
            }
            for direction, (_, queue) in self.queues().items()
        }
        return {
            "name": self.display_name,
            "a": node_index[self.a],
            "b": node_index[self.b],
            "rate_bps": self.rate_bps,
            "delay_ns": self.delay_ns,
            **directions,
        }


class FlowSpec(_Model):
    """A bulk TCP transfer from `src` to `dst` (node names)."""

    name: Name | None = None
    """Defaults to "flow<i>" (i = position in [[flows]])."""
    src: Name
    dst: Name
    variant: VariantName = "newreno"
    """Preset pair of loss recovery and congestion control."""
    start_ns: DurationNs = Field("0s", alias="start", validate_default=True)
    start_jitter_ns: DurationNs = Field("0s", alias="start_jitter", validate_default=True)
    """The start is delayed by a uniform draw in [0, start_jitter] from the flow's own stream."""
    stop_ns: DurationNs | None = Field(None, alias="stop")
    """No new data after this time (retransmissions still go); default: never stop."""
    size_bytes: PositiveSizeBytes | None = Field(None, alias="bytes")
    """Bytes to send, then stop; default: always has data."""
    count: Annotated[
        int,
        PlainValidator(_whole_number("a count", minimum=1, maximum=MAX_FLOW_COUNT, example=2)),
        WithJsonSchema({"type": "integer", "minimum": 1, "maximum": MAX_FLOW_COUNT}),
    ] = 1
    """Replicate this flow N times, named "<name>.0" ... "<name>.<N-1>"."""
    tcp: TcpOptions = Field(default_factory=TcpOptions)
    """Overrides of the top-level [tcp], key by key."""

    @model_validator(mode="after")
    def _check(self) -> Self:
        problems: list[Problem] = []
        if self.src == self.dst:
            problems.append((("dst",), f"{self.dst!r} is also `src`; a flow joins two different nodes"))
        if self.stop_ns is not None and self.stop_ns <= self.start_ns:
            problems.append(
                (("stop",), f"{format_duration(self.stop_ns)} must be after start ({format_duration(self.start_ns)})")
            )
        _raise_if_any(problems)
        return self

    def instance_names(self, position: int) -> list[str]:
        base = self.name if self.name is not None else f"flow{position}"
        return [base] if self.count == 1 else [f"{base}.{replica}" for replica in range(self.count)]

    def app_to_engine(self) -> dict[str, Any]:
        return {
            "kind": "bulk",
            "start_ns": self.start_ns,
            "start_jitter_ns": self.start_jitter_ns,
            "stop_ns": self.stop_ns,
            "bytes": self.size_bytes,
        }


class UdpSpec(_Model):
    """A constant-bit-rate UDP source from `src` to `dst`, on during the `on` intervals (the
    ON/OFF cross traffic of `casetti` Fig. 3). No congestion control; the receiver counts."""

    name: Name | None = None
    """Defaults to "udp<i>" (i = position in [[udp]])."""
    src: Name
    dst: Name
    rate_bps: RateBps = Field(alias="rate")
    """Sending rate, counted in wire bytes."""
    packet_bytes: PacketSizeBytes = Field(1000, alias="packet", validate_default=True)
    """Datagram size on the wire."""
    on_ns: list[tuple[DurationNs, DurationNs]] | None = Field(None, alias="on")
    """ON intervals [start, end), e.g. [["25s", "200s"]]; default: the whole run."""

    @model_validator(mode="after")
    def _check(self) -> Self:
        problems: list[Problem] = []
        if self.src == self.dst:
            problems.append((("dst",), f"{self.dst!r} is also `src`; a flow joins two different nodes"))
        for i, (start, end) in enumerate(self.on_ns or []):
            if end < start:
                problems.append((("on", i), f"ends ({format_duration(end)}) before it starts ({format_duration(start)})"))
        _raise_if_any(problems)
        return self

    def display_name(self, position: int) -> str:
        return self.name if self.name is not None else f"udp{position}"


class TraceSpec(_Model):
    """Which time series to record (summaries are always on)."""

    cwnd: Flag = False
    """cwnd and ssthresh per flow."""
    rtt: Flag = False
    """Every RTT sample with the smoothed RTT and RTO after it."""
    queue: Flag = False
    """Queue length of every link direction."""
    interval_ns: DurationNs = Field("0s", alias="interval", validate_default=True)
    """0: record cwnd and queue at every change; otherwise sample them at this period."""
    throughput_bin_ns: DurationNs = Field("0s", alias="throughput_bin", validate_default=True)
    """Bytes delivered per flow in bins of this width; 0: off."""


class LimitsSpec(_Model):
    """The largest run tcpsim starts without being forced (`--force`, `force=True`): its cost is
    estimated before it starts (`tcpsim.limits`) and a run beyond any limit is refused."""

    max_events: Annotated[
        int,
        PlainValidator(_whole_number("an event count", minimum=1, maximum=U64_MAX, example=10**10)),
        WithJsonSchema({"type": "integer", "minimum": 1}),
    ] = 10**10
    """Engine events (about 15 min to a few hours of computing at 10–40 M events/s)."""
    max_trace_rows: Annotated[
        int,
        PlainValidator(_whole_number("a row count", minimum=1, maximum=U64_MAX, example=10**8)),
        WithJsonSchema({"type": "integer", "minimum": 1}),
    ] = 10**8
    """Rows of all traces together."""
    max_memory_bytes: PositiveSizeBytes = Field("8GiB", alias="max_memory", validate_default=True)
    """Memory of the engine's state, packets and traces and of the results."""


class FlowInfo(NamedTuple):
    """One row of :meth:`Scenario.flow_table`, to label per-flow results."""

    index: int
    name: str
    variant: str
    src: str
    dst: str


class _FlowInstance(NamedTuple):
    """A flow as the engine sees it: replicas expanded, TCP settings merged."""

    name: str
    position: int
    """Index of its [[flows]] entry."""
    spec: FlowSpec
    tcp: dict[str, Any]


class Scenario(_Model):
    """A simulation set-up: topology, flows, run length and what to trace."""

    name: Annotated[str, Field(strict=True)] | None = None
    description: Annotated[str, Field(strict=True)] | None = None
    duration_ns: PositiveDurationNs = Field(alias="duration")
    warmup_ns: DurationNs = Field("0s", alias="warmup", validate_default=True)
    """Start of the measurement window; summaries cover [warmup, duration]."""
    bdp_rtt_ns: PositiveDurationNs | None = Field(None, alias="bdp_rtt")
    """Reference RTT for "xBDP" queue limits (needed only if one is used)."""
    tcp: TcpOptions = Field(default_factory=TcpOptions)
    links: list[LinkSpec] = Field(min_length=1)
    flows: list[FlowSpec] = []
    udp: list[UdpSpec] = []
    trace: TraceSpec = Field(default_factory=TraceSpec)
    limits: LimitsSpec = Field(default_factory=LimitsSpec)
    """Not part of the engine's input (nor of the hash): they decide whether a run starts."""

    @model_validator(mode="after")
    def _check(self) -> Self:
        _raise_if_any([*_check_run(self), *_check_names(self), *_check_flows(self), *_check_udp(self), *_check_queues(self)])
        return self

    def node_names(self) -> list[str]:
        """Nodes in order of first appearance as a link endpoint (this order is their index)."""
        return list(dict.fromkeys(node for link in self.links for node in (link.a, link.b)))

    def to_engine(self) -> dict[str, Any]:
        """The canonical `SimConfig` (config.rs) as a plain, JSON-ready dict."""
        nodes = self.node_names()
        node_index = {name: index for index, name in enumerate(nodes)}
        flows = _flow_instances(self)
        flow_index = {flow.name: index for index, flow in enumerate(flows)}
        return {
            "duration_ns": self.duration_ns,
            "warmup_ns": self.warmup_ns,
            "nodes": nodes,
            "links": [link.to_engine(node_index, flow_index, self.bdp_rtt_ns) for link in self.links],
            "flows": [
                {
                    "name": flow.name,
                    "src": node_index[flow.spec.src],
                    "dst": node_index[flow.spec.dst],
                    "tcp": copy.deepcopy(flow.tcp),
                    "app": flow.spec.app_to_engine(),
                }
                for flow in flows
            ],
            "udp_flows": [
                {
                    "name": udp.display_name(position),
                    "src": node_index[udp.src],
                    "dst": node_index[udp.dst],
                    "rate_bps": udp.rate_bps,
                    "packet_bytes": udp.packet_bytes,
                    "on": [list(on) for on in udp.on_ns] if udp.on_ns is not None else [[0, self.duration_ns]],
                }
                for position, udp in enumerate(self.udp)
            ],
            "trace": self.trace.model_dump(),
        }

    def to_engine_json(self) -> str:
        """:meth:`to_engine` as compact JSON with sorted keys: the engine's input and the hash's."""
        return json.dumps(self.to_engine(), sort_keys=True, separators=(",", ":"))

    def hash(self) -> str:
        """sha256 hex of :meth:`to_engine_json`, to key caches of finished runs.

        It covers exactly what the engine sees, so it ignores `name` and `description` (cosmetic:
        retitling a scenario must not invalidate its cached runs) and how values were spelled
        ("1s" or "1000ms", key order, defaults written out or left implicit). Link and flow names
        do count: results are labelled by them. The seed and engine version are not part of a
        scenario; a cache key adds them.
        """
        return hashlib.sha256(self.to_engine_json().encode()).hexdigest()

    def flow_table(self) -> list[FlowInfo]:
        """Per engine flow (replicas expanded): index, name, variant, src and dst node names."""
        return [
            FlowInfo(index, flow.name, flow.spec.variant, flow.spec.src, flow.spec.dst)
            for index, flow in enumerate(_flow_instances(self))
        ]


# --- whole-scenario checks and merging -----------------------------------------------------


def _flow_instances(scenario: Scenario) -> list[_FlowInstance]:
    return [
        _FlowInstance(name, position, spec, _effective_tcp(scenario.tcp, spec))
        for position, spec in enumerate(scenario.flows)
        for name in spec.instance_names(position)
    ]


def _effective_tcp(defaults: TcpOptions, flow: FlowSpec) -> dict[str, Any]:
    """The engine's `TcpConfig` of a flow: its own [flows.tcp] keys, else [tcp]'s, with the
    variant filling in whichever of recovery and cc neither names."""
    settings = {
        name: getattr(flow.tcp if name in flow.tcp.model_fields_set else defaults, name)
        for name in TcpOptions.model_fields
    }
    variant = VARIANTS[flow.variant]
    settings["recovery"] = settings["recovery"] or variant.recovery
    settings["cc"] = settings["cc"].model_dump() if settings["cc"] else dict(variant.cc)
    return settings


def _tcp_origin(scenario: Scenario, position: int, name: str) -> Loc:
    """Where a flow's effective TCP setting `name` was written (or defaulted): for messages."""
    field = TcpOptions.model_fields[name]
    key = field.alias or name
    if name in scenario.flows[position].tcp.model_fields_set:
        return ("flows", position, "tcp", key)
    return ("tcp", key)


def _check_run(scenario: Scenario) -> Iterator[Problem]:
    if scenario.warmup_ns >= scenario.duration_ns:
        yield (
            ("warmup",),
            f"{format_duration(scenario.warmup_ns)} must be less than duration ({format_duration(scenario.duration_ns)})",
        )
    for position, flow in enumerate(scenario.flows):
        if flow.start_ns >= scenario.duration_ns:
            yield (
                ("flows", position, "start"),
                f"{format_duration(flow.start_ns)} is not before the end of the run (duration {format_duration(scenario.duration_ns)})",
            )


def _check_names(scenario: Scenario) -> Iterator[Problem]:
    """Link and flow names label results, so each must be unique."""
    link_owner: dict[str, int] = {}
    for position, link in enumerate(scenario.links):
        name = link.display_name
        if name in link_owner:
            where: Loc = ("links", position, "name") if link.name is not None else ("links", position)
            yield (where, f"link name {name!r} is already used by links[{link_owner[name]}]; names must be unique")
        link_owner.setdefault(name, position)
    flow_owner: dict[str, int] = {}
    for flow in _flow_instances(scenario):
        if flow.name in flow_owner:
            where = ("flows", flow.position, "name") if flow.spec.name is not None else ("flows", flow.position)
            yield (where, f"flow name {flow.name!r} is already used by flows[{flow_owner[flow.name]}]; names must be unique")
        flow_owner.setdefault(flow.name, flow.position)
    udp_owner: dict[str, int] = {}
    for position, udp in enumerate(scenario.udp):
        name = udp.display_name(position)
        if name in udp_owner:
            yield (("udp", position, "name"), f"UDP flow name {name!r} is already used by udp[{udp_owner[name]}]; names must be unique")
        udp_owner.setdefault(name, position)


def _check_flows(scenario: Scenario) -> Iterator[Problem]:
    """Endpoints exist and are connected; merged TCP settings are consistent."""
    nodes = scenario.node_names()
    neighbours = _neighbours(scenario)
    for position, flow in enumerate(scenario.flows):
        unknown = [(end, node) for end, node in (("src", flow.src), ("dst", flow.dst)) if node not in neighbours]
        for end, node in unknown:
            yield (("flows", position, end), f"{node!r} is not a node; known nodes: {', '.join(nodes)}")
        if not unknown and flow.dst not in _reachable(flow.src, neighbours):
            yield (("flows", position), f"no path from {flow.src!r} to {flow.dst!r} over the links")
        tcp = _effective_tcp(scenario.tcp, flow)
        if tcp["min_rto_ns"] > tcp["max_rto_ns"]:
            yield (
                _tcp_origin(scenario, position, "min_rto_ns"),
                f"{format_duration(tcp['min_rto_ns'])} must not exceed max_rto ({format_duration(tcp['max_rto_ns'])})",
            )
        if tcp["rtt_tick_ns"] > tcp["max_rto_ns"]:
            yield (
                _tcp_origin(scenario, position, "rtt_tick_ns"),
                f"{format_duration(tcp['rtt_tick_ns'])} is longer than max_rto ({format_duration(tcp['max_rto_ns'])}); "
                "the RTT clock's tick must not exceed the largest RTO",
            )
        if tcp["rwnd_bytes"] < tcp["mss_bytes"]:
            yield (
                _tcp_origin(scenario, position, "rwnd_bytes"),
                f"{tcp['rwnd_bytes']} bytes is less than one segment (mss = {tcp['mss_bytes']} bytes)",
            )


def _check_udp(scenario: Scenario) -> Iterator[Problem]:
    """UDP endpoints exist and are connected."""
    nodes = scenario.node_names()
    neighbours = _neighbours(scenario)
    for position, udp in enumerate(scenario.udp):
        unknown = [(end, node) for end, node in (("src", udp.src), ("dst", udp.dst)) if node not in neighbours]
        for end, node in unknown:
            yield (("udp", position, end), f"{node!r} is not a node; known nodes: {', '.join(nodes)}")
        if not unknown and udp.dst not in _reachable(udp.src, neighbours):
            yield (("udp", position), f"no path from {udp.src!r} to {udp.dst!r} over the links")


def _neighbours(scenario: Scenario) -> dict[str, set[str]]:
    neighbours: dict[str, set[str]] = {node: set() for node in scenario.node_names()}
    for link in scenario.links:
        neighbours[link.a].add(link.b)
        neighbours[link.b].add(link.a)
    return neighbours


def _reachable(start: str, neighbours: Mapping[str, set[str]]) -> set[str]:
    seen, frontier = {start}, [start]
    while frontier:
        for node in neighbours[frontier.pop()] - seen:
            seen.add(node)
            frontier.append(node)
    return seen


def _check_queues(scenario: Scenario) -> Iterator[Problem]:
    """Every queue can resolve its limits and hold at least the largest data packet; every
    scripted loss names a flow."""
    flows = _flow_instances(scenario)
    largest_packet_bytes = max((flow.tcp["mss_bytes"] + flow.tcp["header_bytes"] for flow in flows), default=0)
    flow_names = [flow.name for flow in flows]
    for position, link in enumerate(scenario.links):
        queues = {where: queue for where, queue in link.queues().values()}
        if link.queue is not None:
            queues.setdefault(("queue",), link.queue)
        for where, queue in queues.items():
            for limit in queue.limits():
                yield from _check_limit(scenario, link, ("links", position, *where), limit, largest_packet_bytes)
        for index, loss in enumerate(link.loss):
            if isinstance(loss, ScriptedLoss) and loss.flow not in flow_names:
                yield (
                    ("links", position, "loss", index, "flow"),
                    f"{loss.flow!r} is not a flow; flows: {', '.join(dict.fromkeys(flow_names)) or '(none)'}",
                )


def _check_limit(scenario: Scenario, link: LinkSpec, where: Loc, limit: QueueLimit, largest_packet_bytes: int) -> Iterator[Problem]:
    if limit.unit == "packets":
        return
    if limit.unit == "bdp" and scenario.bdp_rtt_ns is None:
        yield (where, f"{limit.text!r} needs bdp_rtt, the reference RTT of BDP limits, at the top level, e.g. bdp_rtt = \"250ms\"")
        return
    limit_bytes = _limit_bytes(limit, link.rate_bps, scenario.bdp_rtt_ns)
    if limit_bytes > U64_MAX:
        yield (where, f"{limit.text!r} is {limit_bytes:.3g} bytes, more than the engine's largest queue ({U64_MAX} bytes)")
    elif limit_bytes < largest_packet_bytes:
        yield (
            where,
            f"{limit.text!r} is {limit_bytes} bytes, less than one packet "
            f"(the largest is {largest_packet_bytes} bytes: mss + header)",
        )


# --- reading pydantic's errors -------------------------------------------------------------


def _strip(annotation: Any) -> Any:
    """Drop `Annotated[...]` wrappers: the bare type pydantic validates against."""
    while get_origin(annotation) is Annotated:
        annotation = get_args(annotation)[0]
    return annotation


def _models_in(annotation: Any) -> list[type[_Model]]:
    """The tables a value of this type may be: one model, the members of a tagged union, or
    none (a scalar or a list)."""
    annotation = _strip(annotation)
    if get_origin(annotation) in (Union, UnionType):
        return [model for member in get_args(annotation) if member is not NoneType for model in _models_in(member)]
    if isinstance(annotation, type) and issubclass(annotation, _Model):
        return [annotation]
    return []


def _list_item(annotation: Any) -> Any:
    """The item type of a list field (through Optional), else None."""
    annotation = _strip(annotation)
    if get_origin(annotation) in (Union, UnionType):
        items = [_list_item(member) for member in get_args(annotation) if member is not NoneType]
        return items[0] if items else None
    return get_args(annotation)[0] if get_origin(annotation) is list else None


def _tag(model: type[_Model]) -> str | None:
    """The `kind` a tagged-union member answers to."""
    field = model.model_fields.get("kind")
    return get_args(field.annotation)[0] if field is not None else None


def _keys(models: Sequence[type[_Model]]) -> list[str]:
    """The keys users may write in these tables."""
    return list(dict.fromkeys(field.alias or name for model in models for name, field in model.model_fields.items()))


def _field_type(models: Sequence[type[_Model]], key: str) -> Any:
    for model in models:
        for name, field in model.model_fields.items():
            if (field.alias or name) == key:
                return field.annotation
    return None


def _walk(raw_loc: Sequence[str | int]) -> tuple[Loc, Any]:
    """Pydantic's error location → the user's path and the type found there.

    Pydantic names a tagged union's member in the location (`loss.0.bernoulli.p`); users never
    wrote it, so it is dropped (`loss[0].p`).
    """
    annotation: Any = Scenario
    loc: list[str | int] = []
    for part in raw_loc:
        models = _models_in(annotation)
        tagged = [model for model in models if _tag(model) == part]
        if isinstance(part, int):
            annotation = _list_item(annotation)
            loc.append(part)
        elif tagged:
            annotation = tagged[0]
        else:
            annotation = _field_type(models, part)
            loc.append(part)
    return tuple(loc), annotation


def _show(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _unknown_key(key: str, allowed: Sequence[str]) -> str:
    close = difflib.get_close_matches(key, allowed, n=1)
    hint = f"did you mean {close[0]!r}? " if close else ""
    return f"unknown key; {hint}allowed: {', '.join(allowed)}"


def _describe(error: Mapping[str, Any]) -> list[Problem]:
    """One pydantic error → problems in the user's terms."""
    kind, value = error["type"], error.get("input")
    if kind == "extra_forbidden":
        loc, container = _walk(error["loc"][:-1])
        key = error["loc"][-1]
        return [((*loc, key), _unknown_key(key, _keys(_models_in(container))))]
    loc, annotation = _walk(error["loc"])
    if kind == "value_error":
        cause = error["ctx"]["error"]
        if isinstance(cause, _Problems):
            return [((*loc, *sub_loc), message) for sub_loc, message in cause.problems]
        return [(loc, str(cause))]
    if kind in ("union_tag_invalid", "union_tag_not_found"):
        noun = next((part for part in reversed(loc) if isinstance(part, str)), "table")
        allowed = ", ".join(sorted(filter(None, map(_tag, _models_in(annotation)))))
        if kind == "union_tag_not_found":
            return [((*loc, "kind"), f"required key is missing; allowed: {allowed}")]
        return [((*loc, "kind"), f"{error['ctx']['tag']!r} is not a {noun} kind; allowed: {allowed}")]
    if kind == "missing":
        return [(loc, "required key is missing")]
    if kind in ("model_type", "model_attributes_type", "dict_type"):
        return [(loc, f"{_show(value)} is not a table")]
    if kind == "list_type":
        return [(loc, f"{_show(value)} is not a list")]
    if kind == "too_short":
        return [(loc, f"needs at least {error['ctx']['min_length']} entry")]
    message = error["msg"]
    return [(loc, f"{_show(value)} is invalid; {message[:1].lower()}{message[1:]}")]


def validate_scenario(raw: Mapping[str, Any]) -> Scenario:
    """Validate a raw scenario dict, reporting every problem as one :class:`ScenarioError`."""
    try:
        return Scenario.model_validate(plain_data(raw))
    except ValidationError as error:
        problems = [problem for item in error.errors() for problem in _describe(item)]
        raise ScenarioError([(format_path(loc), message) for loc, message in problems]) from None


# --- overrides -----------------------------------------------------------------------------

_SEGMENT = re.compile(r"([A-Za-z_][A-Za-z0-9_]*|\d+|\*)((?:\[(?:\d+|\*)\])*)", re.ASCII)


class _OverrideError(Exception):
    def __init__(self, loc: Loc, message: str) -> None:
        super().__init__(message)
        self.loc, self.message = loc, message


def _parse_path(path: str) -> list[str | int]:
    """"links[1].rate", "links.1.rate", "flows[*].variant" → ["links", 1, "rate"], ... ("*" = all)."""
    segments: list[str | int] = []
    for part in path.split("."):
        match = _SEGMENT.fullmatch(part)
        if match is None:
            raise _OverrideError((), f"{path!r} is not a path; write keys separated by dots, e.g. 'links[0].rate' or 'flows[*].variant'")
        head, brackets = match.groups()
        for segment in (head, *re.findall(r"\[(\d+|\*)\]", brackets, re.ASCII)):
            segments.append(int(segment) if segment.isdigit() else segment)
    return segments


def _parse_value(text: str) -> Any:
    """A TOML value if `text` is one (100, true, 0.5, "x", [1, 2], {kind = "aimd"}), else the
    text itself, so `rate=5Mbps` needs no quotes."""
    try:
        return tomllib.loads(f"value = {text}")["value"]
    except (tomllib.TOMLDecodeError, RecursionError):  # nested too deeply for the parser: text too
        return text


def _assign(node: Any, annotation: Any, segments: Sequence[str | int], value: Any, loc: Loc) -> None:
    """Set `value` at `segments` below `node` (whose schema type is `annotation`), checking each
    step against the schema. Missing tables are created only where the schema has a plain table
    (e.g. `tcp`, `trace`, `flows[0].tcp`, `links[0].ab`)."""
    segment, rest = segments[0], segments[1:]
    if isinstance(segment, int) or segment == "*":
        item_annotation = _list_item(annotation)
        if item_annotation is None or not isinstance(node, list):
            raise _OverrideError(loc, f"{_show(node)} is not a list, so [{segment}] does not apply")
        indices = range(len(node)) if segment == "*" else [segment]
        for index in indices:
            if index >= len(node):
                raise _OverrideError((*loc, index), f"no such entry; {format_path(loc)} has {len(node)}")
            if rest:
                _assign(node[index], item_annotation, rest, value, (*loc, index))
            else:
                node[index] = value
        return
    models = _models_in(annotation)
    if not models or not isinstance(node, dict):
        raise _OverrideError(loc, f"{_show(node)} is not a table, so it has no key {segment!r}")
    chosen = [model for model in models if _tag(model) == node.get("kind")] or models
    field_annotation = _field_type(chosen, segment)
    if field_annotation is None:
        raise _OverrideError((*loc, segment), _unknown_key(segment, _keys(chosen)))
    if not rest:
        node[segment] = value
        return
    if segment not in node:
        table = _models_in(field_annotation)
        if len(table) != 1 or _tag(table[0]) is not None:
            raise _OverrideError((*loc, segment), f"not set, so it has no keys to change; set {format_path((*loc, segment))} as a whole")
        node[segment] = {}
    _assign(node[segment], field_annotation, rest, value, (*loc, segment))


def apply_overrides(raw: Mapping[str, Any], overrides: Sequence[str] | Mapping[str, Any]) -> dict[str, Any]:
    """A copy of `raw` with overrides applied, before validation (so errors keep user paths).

    `overrides` is either "path=value" strings (the CLI's `--set`; the value is parsed as TOML
    when it is valid TOML, else taken as a string) or a {path: value} dict (values used as is).
    Paths: `duration`, `tcp.mss`, `links[1].rate` or `links.1.rate`, `flows[*].variant`.
    """
    data = plain_data(raw)
    if isinstance(overrides, str):
        overrides = [overrides]
    entries = overrides.items() if isinstance(overrides, Mapping) else overrides
    problems: list[tuple[str, str]] = []
    for entry in entries:
        try:
            path, value = _split_override(entry) if isinstance(entry, str) else entry
            segments = _parse_path(path.strip())
            _assign(data, Scenario, segments, plain_data(value, tuple(s for s in segments if s != "*")), ())
        except _OverrideError as error:
            source = entry if isinstance(entry, str) else entry[0]
            problems.append((format_path(error.loc), f"{error.message} (override {source!r})"))
    if problems:
        raise ScenarioError(problems)
    return data


def _split_override(text: str) -> tuple[str, Any]:
    path, separator, value = text.partition("=")
    if not separator or not path.strip():
        raise _OverrideError((), "expected path=value, e.g. 'duration=100s' or 'links[0].rate=5Mbps'")
    return path, _parse_value(value.strip())


# --- entry points --------------------------------------------------------------------------


def _read(source: str | os.PathLike[str] | Mapping[str, Any]) -> Mapping[str, Any]:
    """The raw scenario: the dict itself, or a TOML file's contents (UTF-8, a leading
    byte-order mark allowed, as editors on Windows write it)."""
    if isinstance(source, Mapping):
        return source
    if not isinstance(source, str | os.PathLike):
        raise TypeError(
            f"a scenario is a TOML file path (str or pathlib.Path), a dict or a loaded Scenario, not {type(source).__name__}"
        )
    path = Path(source)
    try:
        data = path.read_bytes()
    except OSError as error:
        raise ScenarioError([("", f"cannot read scenario {str(path)!r}: {error.strerror}")]) from None
    bom = len(codecs.BOM_UTF8) if data.startswith(codecs.BOM_UTF8) else 0
    try:
        text = data[bom:].decode("utf-8")
    except UnicodeDecodeError as error:
        offset = bom + error.start
        raise ScenarioError(
            [("", f"{path}: not UTF-8 text: byte {offset} is 0x{data[offset]:02x}; save the file as UTF-8")]
        ) from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ScenarioError([("", f"{path}: not valid TOML: {error}")]) from None
    except RecursionError:
        raise ScenarioError([("", f"{path}: arrays or tables nested too deeply to read (a scenario needs a few levels)")]) from None


MAX_DEPTH = 32
"""Deepest nesting of tables and lists accepted; a scenario's deepest value,
links[i].loss[j].intervals[k][0], is 6 levels down."""


def plain_data(value: Any, loc: Loc = ()) -> Any:
    """A copy of user data as plain Python: dicts, lists (tuples become lists) and scalars,
    numpy scalars as their Python equivalents (np.int64 → int, np.float64 → float, np.bool_ →
    bool, np.str_ → str). Walks without recursion and refuses anything nested deeper than
    :data:`MAX_DEPTH`, so hostile input cannot exhaust the stack."""
    numpy = sys.modules.get("numpy")  # no numpy loaded: no numpy scalars to convert
    root: list[Any] = [None]
    stack: list[tuple[Any, Any, Any, Loc]] = [(value, root, 0, loc)]
    while stack:
        item, parent, slot, where = stack.pop()
        if len(where) - len(loc) > MAX_DEPTH:
            raise ScenarioError([(format_path(where[: len(loc) + MAX_DEPTH]),
                                  f"nested more than {MAX_DEPTH} levels deep; scenarios are a few tables and lists deep")])
        if isinstance(item, Mapping):
            copied: Any = dict.fromkeys(item)
            stack += [(sub, copied, key, (*where, key if isinstance(key, str | int) else repr(key)))
                      for key, sub in item.items()]
        elif isinstance(item, list | tuple):
            copied = [None] * len(item)
            stack += [(sub, copied, index, (*where, index)) for index, sub in enumerate(item)]
        elif numpy is not None and isinstance(item, numpy.generic):
            copied = item.item()
        else:
            copied = item
        parent[slot] = copied
    return root[0]


def load_scenario(
    source: str | os.PathLike[str] | Mapping[str, Any],
    overrides: Sequence[str] | Mapping[str, Any] = (),
) -> Scenario:
    """Read a scenario from a TOML file path or a dict, apply overrides, and validate it.

    Raises :class:`ScenarioError` listing every problem found.
    """
    return validate_scenario(apply_overrides(_read(source), overrides))


def json_schema() -> dict[str, Any]:
    """JSON Schema of the user-facing format (for editors and docs)."""
    return Scenario.model_json_schema(by_alias=True)
