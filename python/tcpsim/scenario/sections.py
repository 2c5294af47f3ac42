"""The [trace] and [limits] tables: what to record, and how large a run may be."""

from typing import Annotated

from pydantic import Field

from tcpsim.scenario.fields import DurationNs, Flag, Model, Name, PositiveSizeBytes, Validated, whole_number
from tcpsim.units import U64_MAX

PCAP_DIRECTIONS = ("ab", "ba")


def _pcap_tap(value: object) -> str:
    """ "LINK", "LINK:ab" or "LINK:ba" (the link's name is checked against the links later)."""
    example = 'use "LINK:ab", "LINK:ba" or "LINK" (both directions), e.g. "bottleneck:ab"'
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{value!r} is not a link direction; {example}")
    link, colon, direction = value.rpartition(":")
    if colon and direction not in PCAP_DIRECTIONS:
        raise ValueError(f"{value!r}: direction {direction!r} is not ab or ba; {example}")
    if colon and not link:
        raise ValueError(f"{value!r} names no link; {example}")
    return value


def split_pcap_tap(value: str) -> tuple[str, tuple[str, ...]]:
    """A validated capture entry as (link name, directions)."""
    link, colon, direction = value.rpartition(":")
    return (link, (direction,)) if colon else (value, PCAP_DIRECTIONS)


PcapTap = Annotated[
    str,
    Validated(_pcap_tap, {"type": "string", "minLength": 1, "examples": ["bottleneck:ab", "bottleneck"]}),
]


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
    pcap: list[PcapTap] = []
    """Link directions whose packets are written to pcap files (one per direction): "LINK:ab",
    "LINK:ba", or "LINK" for both. `tcpsim run` writes them into its --out directory (else the
    current one) as LINK-ab.pcap / LINK-ba.pcap; `tcpsim.run(..., pcap_dir=DIR)` into DIR."""
    pcap_nodes: list[Name] = []
    """Nodes captured as `tcpdump -i any` on that host would: what it sends, as it starts
    serialization on one of its links, and what reaches it, as it arrives (a router's capture
    shows each forwarded packet twice). Written as NODE.pcap beside the link captures."""


class LimitsSpec(Model):
    """The largest run tcpsim starts without being forced (`--force`, `force=True`): its cost is
    estimated before it starts (`tcpsim.limits`) and a run beyond any limit is refused."""

    max_events: Annotated[
        int,
        Validated(
            whole_number("an event count", minimum=1, maximum=U64_MAX, example=10**10),
            {"type": "integer", "minimum": 1},
        ),
    ] = 10**10
    """Engine events (about 15 min to a few hours of computing at 10–40 M events/s)."""
    max_trace_rows: Annotated[
        int,
        Validated(
            whole_number("a row count", minimum=1, maximum=U64_MAX, example=10**8), {"type": "integer", "minimum": 1}
        ),
    ] = 10**8
    """Rows of all traces together."""
    max_memory_bytes: PositiveSizeBytes = Field("8GiB", alias="max_memory", validate_default=True)
    """Memory of the engine's state, packets and traces and of the results."""
