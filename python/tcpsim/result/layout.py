"""What a run's result holds: its tables and trace kinds, the files it saves, the columns
fixed before any row exists, and the engine's output a result is built from."""

from __future__ import annotations

from typing import Any, NamedTuple

TRACE_KINDS = ("cwnd", "rtt", "queue", "throughput")
DERIVED_TRACES = {"class_throughput": "throughput"}
"""Time series computed from a recorded one when asked for (never saved or cached)."""
TABLES = ("flows", "links", "udp", "web", "transfers")
"""The result's tables, in the order they are saved."""
TRACE_FORMATS = ("parquet", "csv")
SAVED_FILES = (
    *(f"{table}.csv" for table in TABLES),
    "meta.json",
    *(f"trace_{kind}.{suffix}" for kind in TRACE_KINDS for suffix in TRACE_FORMATS),
)
"""Every file :meth:`RunResult.save` may write."""
NOT_COMPLETED_NS = 2**64 - 1
"""The engine's end time of a transfer that did not complete."""

WEB_COLUMNS = [
    "name",
    "class",
    "variant",
    "server",
    "clients",
    "transfers_started",
    "transfers_completed",
    "bytes_delivered",
    "throughput_bps",
    "packets_sent",
    "packets_dropped",
    "fct_mean_s",
    "fct_median_s",
    "fct_p95_s",
    "connection_slots",
]
TRANSFER_TCP_COLUMNS = ["packets_sent", "packets_retransmitted", "timeouts", "fast_retransmits"]
"""A transfer's connection's sender counts, from its start until its last byte is acknowledged
(or the run's end): data segments sent (retransmissions included), retransmitted segments,
retransmission timeouts and fast-retransmit episodes."""
TRANSFER_COLUMNS = [
    "generator",
    "client",
    "src",
    "dst",
    "start_s",
    "end_s",
    "bytes",
    "fct_s",
    "completed",
    *TRANSFER_TCP_COLUMNS,
]


class EngineOutput(NamedTuple):
    """What the engine returned for one run, with the canonical scenario that labels it."""

    summary: dict[str, Any]
    raw_traces: dict[str, Any]
    canonical: dict[str, Any]
    flow_variants: list[str]
    flow_classes: list[str]
    raw_transfers: dict[str, Any]
    """The transfers table's columns as little-endian bytes (see `tcpsim._core.run`)."""
    web_variants: list[str]
