"""Field types: the scenario's values in human units ("10Mbps", "45ms", "1.5BDP"), each parsed
to the engine's canonical integer and bounded by the engine's field ranges, with its JSON Schema;
and :class:`Model`, the base of every scenario table."""

import math
import re
from collections.abc import Callable, Sequence
from typing import Annotated, Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, GetCoreSchemaHandler, GetJsonSchemaHandler
from pydantic_core import CoreSchema, core_schema

from tcpsim.scenario.errors import show
from tcpsim.units import (
    BDP_UNIT,
    DURATION_UNITS_NS,
    PACKET_UNITS,
    RATE_UNITS_BPS,
    SIZE_UNITS_BYTES,
    U64_MAX,
    QueueLimit,
    QueueThreshold,
    format_duration,
    parse_duration_ns,
    parse_per_second,
    parse_queue_limit,
    parse_queue_threshold,
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


class Validated:
    """`Annotated[T, Validated(parse, json_schema)]`: a value read by `parse` alone (it is given
    what the user wrote and returns the T, or raises ValueError with the message users see) and
    described by `json_schema` in the JSON Schema; dumped as a T.

    It builds what pydantic's `PlainValidator(parse)` followed by `WithJsonSchema(json_schema)`
    builds, the same validator, serializer and JSON Schema. Those two inspect `parse`'s signature
    and generate T's schema twice on every field they annotate; with some 200 such fields that
    was a fifth of building the scenario models, every time the package is imported."""

    __slots__ = ("json_schema", "parse")

    def __init__(self, parse: Callable[[Any], Any], json_schema: dict[str, Any]) -> None:
        self.parse = parse
        self.json_schema = json_schema

    def __get_pydantic_core_schema__(self, source: Any, handler: GetCoreSchemaHandler) -> CoreSchema:
        schema = handler(source)
        serialization = schema.get(
            "serialization",
            core_schema.wrap_serializer_function_ser_schema(_dump_as, schema=schema),
        )
        return core_schema.no_info_plain_validator_function(
            self.parse, serialization=serialization, json_schema_input_schema=core_schema.any_schema()
        )

    def __get_pydantic_json_schema__(self, schema: CoreSchema, handler: GetJsonSchemaHandler) -> dict[str, Any]:
        return dict(self.json_schema)


def _dump_as(value: Any, dump: core_schema.SerializerFunctionWrapHandler) -> Any:
    """Dump a validated value with its type's serializer."""
    return dump(value)


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
_QUEUE_LIMIT_SCHEMA = _quantity_schema([*PACKET_UNITS, BDP_UNIT, *SIZE_UNITS_BYTES], ["100pkt", "64KB", "1.5BDP"])
_PACKET_LIMIT_SCHEMA = {"anyOf": [{"type": "integer", "minimum": 1}, _quantity_schema(PACKET_UNITS, ["100pkt"])]}
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


def whole_number(noun: str, *, minimum: int, maximum: int, example: int) -> Callable[[object], int]:
    """An integer count (bools and floats rejected: `init_cwnd = 2.5` is a mistake)."""

    def validate(value: object) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
            raise ValueError(f"{value!r} is not {noun}; use a whole number >= {minimum}, e.g. {example}")
        if value > maximum:
            raise ValueError(f"{value!r} is too large; at most {maximum} is allowed here")
        return value

    return validate


def bounded_whole(noun: str, *, minimum: int, maximum: int, example: int) -> Any:
    """The type of an integer field in [`minimum`, `maximum`] (`whole_number`'s errors), whose
    JSON Schema states both bounds."""
    return Annotated[
        int,
        Validated(
            whole_number(noun, minimum=minimum, maximum=maximum, example=example),
            {"type": "integer", "minimum": minimum, "maximum": maximum},
        ),
    ]


def choice(noun: str, allowed: Sequence[str]) -> Callable[[object], str]:
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


def _unit_fraction(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value <= 1:
        raise ValueError(f"{value!r} is not in (0, 1]; use a number above 0 and at most 1, e.g. 0.1")
    return float(value)


def _pareto_shape(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ValueError(f"{value!r} is not a Pareto shape; use a number > 1, e.g. 1.3")
    if value <= 1:
        raise ValueError(f"{value!r} must be > 1: a Pareto distribution with shape <= 1 has an infinite mean")
    return float(value)


def _mean_packets(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ValueError(f"{value!r} is not a mean number of packets; use a number >= 1, e.g. 8")
    if value < 1:
        raise ValueError(f"{value!r} must be >= 1: a state lasts at least the packet that enters it")
    return float(value)


def _flag(value: object) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"{value!r} is not a boolean; use true or false")
    return value


def _name(value: object) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f'{value!r} is not a name; use a non-empty string, e.g. "r1"')
    return value


DurationNs = Annotated[int, Validated(_in_range(parse_duration_ns, maximum=MAX_TIME_NS), _DURATION_SCHEMA)]
PositiveDurationNs = Annotated[
    int, Validated(_in_range(parse_duration_ns, minimum=1, maximum=MAX_TIME_NS), _DURATION_SCHEMA)
]
RateBps = Annotated[int, Validated(parse_rate_bps, _RATE_SCHEMA)]
PositiveSizeBytes = Annotated[int, Validated(_in_range(parse_size_bytes, minimum=1), _SIZE_SCHEMA)]
PacketSizeBytes = Annotated[int, Validated(_in_range(parse_size_bytes, minimum=1, maximum=MAX_MSS_BYTES), _SIZE_SCHEMA)]
MAX_TRANSFER_BYTES = 2**53
"""Largest web transfer (the engine's `MAX_TRANSFER_BYTES`: exact in a float and an int64)."""
TransferSizeBytes = Annotated[
    int,
    Validated(_in_range(parse_size_bytes, minimum=1, maximum=MAX_TRANSFER_BYTES), _SIZE_SCHEMA),
]
HeaderSizeBytes = Annotated[int, Validated(_in_range(parse_size_bytes, maximum=MAX_HEADER_BYTES), _SIZE_SCHEMA)]
Count = bounded_whole("a count", minimum=1, maximum=U32_MAX, example=2)
SegmentNumber = Annotated[
    int,
    Validated(
        whole_number("a segment number", minimum=1, maximum=U64_MAX, example=5), {"type": "integer", "minimum": 1}
    ),
]
Probability = Annotated[float, Validated(_probability, {"type": "number", "minimum": 0, "maximum": 1})]
UnitFraction = Annotated[
    float,
    Validated(_unit_fraction, {"type": "number", "exclusiveMinimum": 0, "maximum": 1}),
]
"""A number in (0, 1]: RED's max_p and w_q."""
Name = Annotated[str, Validated(_name, {"type": "string", "minLength": 1})]
PerSecond = Annotated[
    float,
    Validated(parse_per_second, _quantity_schema(["/s", "/min", "/h"], ["50/s", "600/min"])),
]
"""A rate of events (web transfers) per second, from "50/s", "600/min" or "2/h"."""
ParetoShape = Annotated[float, Validated(_pareto_shape, {"type": "number", "exclusiveMinimum": 1})]
MeanPackets = Annotated[float, Validated(_mean_packets, {"type": "number", "minimum": 1})]
"""A mean sojourn counted in packets (>= 1): the `packet_markov` loss model."""
Flag = Annotated[bool, Validated(_flag, {"type": "boolean"})]
Direction = Annotated[
    Literal["ab", "ba", "both"],
    Validated(choice("a direction", ("ab", "ba", "both")), {"enum": ["ab", "ba", "both"]}),
]

INITIAL_STATES = ("good", "bad", "stationary")
"""Where a two-state loss model starts (the engine's `InitialChannelState`)."""

InitialState = Annotated[
    str,
    Validated(choice("an initial state", INITIAL_STATES), {"enum": list(INITIAL_STATES)}),
]


def _time_window(noun: str, example: str) -> Callable[[object], tuple[int, int]]:
    """`["10s", "12s"]`: a window [start, end) of time, start before end."""

    def validate(value: object) -> tuple[int, int]:
        if not isinstance(value, list | tuple) or len(value) != 2:
            raise ValueError(f"{show(value)} is not an {noun}; use [start, end], e.g. {example}")
        start_ns, end_ns = (_in_range(parse_duration_ns, maximum=MAX_TIME_NS)(value[k]) for k in (0, 1))
        if start_ns >= end_ns:
            raise ValueError(
                f"[{format_duration(start_ns)}, {format_duration(end_ns)}] is an empty {noun.split()[-1]}; "
                "the end must be after the start"
            )
        return start_ns, end_ns

    return validate


_WINDOW_SCHEMA = {"type": "array", "prefixItems": [_DURATION_SCHEMA, _DURATION_SCHEMA], "minItems": 2, "maxItems": 2}
OutageWindow = Annotated[tuple[int, int], Validated(_time_window("outage window", '["10s", "12s"]'), _WINDOW_SCHEMA)]
OnInterval = Annotated[tuple[int, int], Validated(_time_window("ON interval", '["250s", "500s"]'), _WINDOW_SCHEMA)]


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
        raise ValueError(
            f"{value!r} is not a byte limit; use a size ('64KB') or a BDP multiple ('1.5BDP'), or move it to `packets`"
        )
    return limit


QueueLimitValue = Annotated[QueueLimit, Validated(_queue_limit, _QUEUE_LIMIT_SCHEMA)]
QueueThresholdValue = Annotated[
    QueueThreshold,
    Validated(parse_queue_threshold, _quantity_schema([*PACKET_UNITS, *SIZE_UNITS_BYTES], ["5pkt", "15KB"])),
]
PacketLimitValue = Annotated[QueueLimit, Validated(_packet_limit, _PACKET_LIMIT_SCHEMA)]
ByteLimitValue = Annotated[QueueLimit, Validated(_byte_limit, _BYTE_LIMIT_SCHEMA)]


class Model(BaseModel):
    """Base of every scenario table.

    Unknown keys are errors (a typo must not silently fall back to a default); values are
    immutable once validated; attribute docstrings become JSON Schema descriptions (read only
    when the schema is asked for: `tcpsim.scenario.schema`). Attributes
    carry unit suffixes (`rate_bps`) and hold canonical integers; users write the alias
    (`rate = "10Mbps"`).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)


def literal_kind(model: type[BaseModel]) -> str:
    """The `kind` users write for a registered model: the value of its `kind: Literal[...]`."""
    return get_args(model.model_fields["kind"].annotation)[0]
