"""Traffic: TCP flows (with their replicas and merged TCP settings) and UDP sources."""

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Annotated, Any, NamedTuple, Self

from pydantic import Field, model_validator

from tcpsim.scenario.errors import Loc, Problem, raise_if_any
from tcpsim.scenario.fields import (
    MAX_FLOW_COUNT,
    DurationNs,
    Model,
    Name,
    OnInterval,
    PacketSizeBytes,
    PositiveSizeBytes,
    RateBps,
    bounded_whole,
)
from tcpsim.scenario.schedule import ScheduleStep, replica_on_intervals, schedule_problems
from tcpsim.scenario.tcp import VARIANTS, TcpOptions, VariantName, default_tcp
from tcpsim.units import format_duration

if TYPE_CHECKING:
    from tcpsim.scenario.root import Scenario
    from tcpsim.scenario.web import WebSpec


class FlowSpec(Model):
    """A bulk TCP transfer from `src` to `dst` (node names), or an ON/OFF source (`on`)."""

    name: Name | None = None
    """Defaults to "flow<i>" (i = position in [[flows]])."""
    src: Name
    dst: Name
    variant: VariantName = "newreno"
    """Preset pair of loss recovery and congestion control."""
    class_: Name | None = Field(None, alias="class")
    """Label grouping flows in the per-class metrics (`r.classes`); default: the variant."""
    start_ns: DurationNs = Field("0s", alias="start", validate_default=True)
    start_jitter_ns: DurationNs = Field("0s", alias="start_jitter", validate_default=True)
    """The start is delayed by a uniform draw in [0, start_jitter] from the flow's own stream."""
    stop_ns: DurationNs | None = Field(None, alias="stop")
    """No new data after this time (retransmissions still go); default: never stop."""
    size_bytes: PositiveSizeBytes | None = Field(None, alias="bytes")
    """Bytes to send, then stop; default: always has data."""
    on_ns: list[OnInterval] | None = Field(None, alias="on")
    """ON intervals [start, end), sorted and disjoint, e.g. [["250s", "500s"], ["750s", "1000s"]]:
    the application sends only inside them and the connection (cwnd, RTT estimate) persists
    across the OFF periods (ns-2 FTP start/stop; no RFC 5681 restart after idle); [] never sends.
    Instead of start/stop/start_jitter."""
    count: bounded_whole("a count", minimum=1, maximum=MAX_FLOW_COUNT, example=2) = 1  # type: ignore[valid-type]
    """Replicate this flow N times, named "<name>.0" ... "<name>.<N-1>"."""
    schedule: Annotated[list[ScheduleStep], Field(min_length=1)] | None = None
    """Active replicas over time, e.g. [["0s", 20], ["80s", 100]]: from each time on, replicas
    0 … n−1 send (ON/OFF, as `on`), 0 <= n <= count, times increasing. Instead of
    start/stop/start_jitter/on."""
    tcp: TcpOptions = Field(default_factory=default_tcp)
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
        if self.on_ns is not None:
            for key in ("start", "stop", "start_jitter"):
                if f"{key}_ns" in self.model_fields_set:
                    problems.append(
                        ((key,), "cannot be combined with `on`; the ON intervals give the start and stop times")
                    )
            problems.extend(on_interval_problems(self.on_ns))
        if self.schedule is not None:
            for key in ("start", "stop", "start_jitter", "on"):
                if f"{key}_ns" in self.model_fields_set:
                    problems.append(
                        ((key,), "cannot be combined with `schedule`; the schedule gives each replica's ON intervals")
                    )
            problems.extend(schedule_problems(self.schedule, self.count))
        raise_if_any(problems)
        return self

    @property
    def class_label(self) -> str:
        return self.class_ if self.class_ is not None else self.variant

    def instance_names(self, position: int) -> list[str]:
        base = self.name if self.name is not None else f"flow{position}"
        return [base] if self.count == 1 else [f"{base}.{replica}" for replica in range(self.count)]

    def engine_apps(self, run_end_ns: int) -> Iterator[dict[str, Any]]:
        """The engine application of each replica, in order: with a `schedule`, replica r's ON
        intervals within the run (`schedule.replica_on_intervals`); otherwise the same for all."""
        if self.schedule is None:
            for _ in range(self.count):
                yield self.app_to_engine()
        else:
            for on_ns in replica_on_intervals(self.schedule, self.count, run_end_ns):
                yield on_off_app(on_ns, self.size_bytes)

    def app_to_engine(self) -> dict[str, Any]:
        if self.on_ns is not None:
            return on_off_app(self.on_ns, self.size_bytes)
        return {
            "kind": "bulk",
            "start_ns": self.start_ns,
            "start_jitter_ns": self.start_jitter_ns,
            "stop_ns": self.stop_ns,
            "bytes": self.size_bytes,
        }


def on_interval_problems(on_ns: Sequence[tuple[int, int]]) -> list[Problem]:
    """Non-empty ON intervals (`OnInterval`) must be in time order and disjoint (they may touch)."""
    problems: list[Problem] = []
    previous_end = 0
    for i, (start, end) in enumerate(on_ns):
        if start < previous_end:
            problems.append(
                (
                    ("on", i),
                    f"starts at {format_duration(start)}, before the previous interval ends ({format_duration(previous_end)}); "
                    "list ON intervals in time order without overlap",
                )
            )
        previous_end = max(previous_end, end)
    return problems


def on_off_app(on_ns: Sequence[tuple[int, int]], size_bytes: int | None = None) -> dict[str, Any]:
    """The engine's ON/OFF application (`AppConfig::OnOff`) for checked ON intervals [start, end)
    in ns, e.g. one replica's share of a flow-count schedule."""
    return {"kind": "on_off", "on_ns": [[start, end] for start, end in on_ns], "bytes": size_bytes}


class UdpSpec(Model):
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
                problems.append(
                    (("on", i), f"ends ({format_duration(end)}) before it starts ({format_duration(start)})")
                )
        raise_if_any(problems)
        return self

    def display_name(self, position: int) -> str:
        return self.name if self.name is not None else f"udp{position}"


class FlowInstance(NamedTuple):
    """A flow as the engine sees it: replicas expanded, TCP settings merged."""

    name: str
    position: int
    """Index of its [[flows]] entry."""
    spec: FlowSpec
    tcp: dict[str, Any]
    """Shared with other flows of the same settings (`flow_instances`): read it, copy it to
    change it."""


def flow_instances(scenario: "Scenario") -> list[FlowInstance]:
    """Every engine flow in order. TCP settings are merged once per [[flows.tcp]] table and
    variant: the replicas of an entry share them, and so do the entries that write no
    [flows.tcp] of their own (`count = 100000`, or 1600 generated flows, must not merge them
    once each)."""
    merged: dict[tuple[int, str], dict[str, Any]] = {}  # (id of the flow's tcp table, variant)
    instances = []
    for position, spec in enumerate(scenario.flows):
        key = (id(spec.tcp), spec.variant)
        tcp = merged.get(key)
        if tcp is None:
            tcp = merged[key] = effective_tcp(scenario.tcp, spec)
        instances += [FlowInstance(name, position, spec, tcp) for name in spec.instance_names(position)]
    return instances


def effective_tcp(defaults: TcpOptions, flow: "FlowSpec | WebSpec") -> dict[str, Any]:
    """The engine's `TcpConfig` of a flow (or a web generator's connections): its own
    [flows.tcp] ([web.tcp]) keys, else [tcp]'s, with the variant filling in whichever of
    recovery and cc neither names."""
    own = flow.tcp.model_fields_set
    settings = {name: getattr(flow.tcp if name in own else defaults, name) for name in TcpOptions.model_fields}
    variant = VARIANTS[flow.variant]
    for name, value in variant.tcp.items():
        if name not in own and name not in defaults.model_fields_set:
            settings[name] = value
    settings["recovery"] = settings["recovery"] or variant.recovery
    settings["cc"] = settings["cc"].model_dump() if settings["cc"] else dict(variant.cc)
    if not settings["handshake"]:
        del settings["handshake"]  # written only when on, so that other scenarios keep their hash
    if settings["ecn_codepoint"] == "ect0":
        del settings["ecn_codepoint"]  # likewise: the engine's default
    return settings


def tcp_origin(scenario: "Scenario", position: int, name: str, table: str = "flows") -> Loc:
    """Where the effective TCP setting `name` of `table`[position] (a [[flows]] or [[web]]
    entry) was written (or defaulted): for messages."""
    field = TcpOptions.model_fields[name]
    key = field.alias or name
    if name in getattr(scenario, table)[position].tcp.model_fields_set:
        return (table, position, "tcp", key)
    return ("tcp", key)
