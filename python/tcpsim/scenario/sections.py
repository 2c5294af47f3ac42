"""The [trace] and [limits] tables: what to record, and how large a run may be."""

from typing import Annotated

from pydantic import Field, PlainValidator, WithJsonSchema

from tcpsim.scenario.fields import DurationNs, Flag, Model, PositiveSizeBytes, whole_number
from tcpsim.units import U64_MAX


class TraceSpec(Model):
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


class LimitsSpec(Model):
    """The largest run tcpsim starts without being forced (`--force`, `force=True`): its cost is
    estimated before it starts (`tcpsim.limits`) and a run beyond any limit is refused."""

    max_events: Annotated[
        int,
        PlainValidator(whole_number("an event count", minimum=1, maximum=U64_MAX, example=10**10)),
        WithJsonSchema({"type": "integer", "minimum": 1}),
    ] = 10**10
    """Engine events (about 15 min to a few hours of computing at 10–40 M events/s)."""
    max_trace_rows: Annotated[
        int,
        PlainValidator(whole_number("a row count", minimum=1, maximum=U64_MAX, example=10**8)),
        WithJsonSchema({"type": "integer", "minimum": 1}),
    ] = 10**8
    """Rows of all traces together."""
    max_memory_bytes: PositiveSizeBytes = Field("8GiB", alias="max_memory", validate_default=True)
    """Memory of the engine's state, packets and traces and of the results."""
