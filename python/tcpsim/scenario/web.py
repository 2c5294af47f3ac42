"""Web-like traffic: flow generators of finite TCP transfers between a server and its clients
(the engine's `app::web`), each transfer a new connection that starts in slow start."""

from typing import Annotated, Any, Literal, Self

from pydantic import Field, PlainValidator, WithJsonSchema, model_validator

from tcpsim.scenario.errors import Problem, raise_if_any
from tcpsim.scenario.fields import (
    DurationNs,
    Model,
    Name,
    ParetoShape,
    PerSecond,
    TransferSizeBytes,
    choice,
)
from tcpsim.scenario.tcp import TcpOptions, VariantName, default_tcp
from tcpsim.units import format_duration

DIRECTIONS = ("download", "upload")


class PoissonArrivals(Model):
    """Transfers start as a Poisson process: exponential gaps of mean 1/rate."""

    process: Literal["poisson"]
    rate_per_s: PerSecond = Field(alias="rate")
    """Transfers per second: "50/s", "600/min"."""


class ParetoArrivals(Model):
    """Pareto gaps of mean 1/rate (bursty, heavy-tailed arrivals)."""

    process: Literal["pareto"]
    rate_per_s: PerSecond = Field(alias="rate")
    """Transfers per second: "50/s", "600/min"."""
    shape: ParetoShape
    """> 1 (the mean gap is infinite otherwise)."""


ArrivalSpec = Annotated[PoissonArrivals | ParetoArrivals, Field(discriminator="process")]


class ParetoSizes(Model):
    """Pareto sizes (heavy-tailed, as web objects): scale mean·(shape − 1)/shape."""

    dist: Literal["pareto"]
    mean_bytes: TransferSizeBytes = Field(alias="mean")
    """Mean transfer size, e.g. "30KB"."""
    shape: ParetoShape
    """> 1: a Pareto with shape <= 1 has an infinite mean."""


class FixedSizes(Model):
    """Every transfer the same size."""

    dist: Literal["fixed"]
    size_bytes: TransferSizeBytes = Field(alias="size")


class ListSizes(Model):
    """Each transfer one of the listed sizes, drawn uniformly."""

    dist: Literal["list"]
    sizes_bytes: list[TransferSizeBytes] = Field(alias="sizes", min_length=1)


SizeSpec = Annotated[ParetoSizes | FixedSizes | ListSizes, Field(discriminator="dist")]


class WebSpec(Model):
    """A flow generator: finite TCP transfers between `server` and a client drawn uniformly
    from `clients`, starting as `arrivals` in [start, stop) with sizes from `sizes`. Each
    transfer is a new connection (fresh cwnd, RTT estimate and RTO: slow start from the initial
    window); its start, end and completion time are in the result's `transfers` table."""

    name: Name | None = None
    """Defaults to "web<i>" (i = position in [[web]]); labels results and the throughput trace."""
    server: Name
    clients: list[Name] = Field(min_length=1)
    direction: Annotated[
        Literal["download", "upload"],
        PlainValidator(choice("a direction", DIRECTIONS)),
        WithJsonSchema({"enum": list(DIRECTIONS)}),
    ] = "download"
    """"download": server → client; "upload": client → server."""
    variant: VariantName = "newreno"
    """Preset pair of loss recovery and congestion control, as a flow's."""
    traffic_class: Name | None = Field(None, alias="class")
    """Label of the generator's traffic class in results; default: the variant."""
    arrivals: ArrivalSpec
    sizes: SizeSpec
    start_ns: DurationNs = Field("0s", alias="start", validate_default=True)
    stop_ns: DurationNs | None = Field(None, alias="stop")
    """No transfer starts after this; default: the end of the run."""
    tcp: TcpOptions = Field(default_factory=default_tcp)
    """Overrides of the top-level [tcp], key by key."""

    @model_validator(mode="after")
    def _check(self) -> Self:
        problems: list[Problem] = []
        for j, client in enumerate(self.clients):
            if client == self.server:
                problems.append((("clients", j), f"{client!r} is the server; a transfer joins two different nodes"))
        if self.stop_ns is not None and self.stop_ns <= self.start_ns:
            problems.append(
                (("stop",), f"{format_duration(self.stop_ns)} must be after start ({format_duration(self.start_ns)})")
            )
        raise_if_any(problems)
        return self

    def display_name(self, position: int) -> str:
        return self.name if self.name is not None else f"web{position}"

    @property
    def class_label(self) -> str:
        return self.traffic_class if self.traffic_class is not None else self.variant

    def to_engine(self, position: int, node_index: dict[str, int], tcp: dict[str, Any]) -> dict[str, Any]:
        """The engine's `WebConfig`; `tcp` is its merged TCP settings (`effective_tcp`)."""
        return {
            "name": self.display_name(position),
            "class": self.class_label,
            "server": node_index[self.server],
            "clients": [node_index[client] for client in self.clients],
            "direction": self.direction,
            "tcp": tcp,
            "arrivals": _arrivals(self.arrivals),
            "sizes": _sizes(self.sizes),
            "start_ns": self.start_ns,
            "stop_ns": self.stop_ns,
        }


def _arrivals(spec: PoissonArrivals | ParetoArrivals) -> dict[str, Any]:
    if isinstance(spec, ParetoArrivals):
        return {"process": "pareto", "rate_per_s": spec.rate_per_s, "shape": spec.shape}
    return {"process": "poisson", "rate_per_s": spec.rate_per_s}


def _sizes(spec: ParetoSizes | FixedSizes | ListSizes) -> dict[str, Any]:
    if isinstance(spec, ParetoSizes):
        return {"dist": "pareto", "mean_bytes": spec.mean_bytes, "shape": spec.shape}
    if isinstance(spec, FixedSizes):
        return {"dist": "fixed", "bytes": spec.size_bytes}
    return {"dist": "list", "bytes": list(spec.sizes_bytes)}
