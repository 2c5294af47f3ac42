"""Web-like and data-centre traffic: flow generators of finite TCP transfers between a server
and its clients, or between random pairs of hosts (all-to-all), the engine's `app::web`; each
transfer a new connection that starts in slow start. Sizes may follow an empirical CDF (the
shipped web-search and data-mining ones, `tcpsim.workloads`), arrivals a target load, and
barrier-synchronised rounds model incast."""

import math
from typing import Annotated, Any, Literal, Self

from pydantic import Field, field_validator, model_validator

from tcpsim.scenario.errors import Problem, raise_if_any
from tcpsim.scenario.fields import (
    DurationNs,
    Model,
    Name,
    ParetoShape,
    PerSecond,
    TransferSizeBytes,
    Validated,
    choice,
    whole_number,
)
from tcpsim.scenario.tcp import TcpOptions, VariantName, default_tcp
from tcpsim.units import format_duration
from tcpsim.workloads import CdfError, cdf_mean, check_cdf, named_cdf, poisson_rate_for_load, read_cdf

DIRECTIONS = ("download", "upload")

# Every table here is built when a scenario first holds a [[web]] generator (`on_use`), the
# parts of `WebSpec` as part of it: `defer_build=True`.


class PoissonArrivals(Model, defer_build=True):
    """Transfers start as a Poisson process: exponential gaps of mean 1/rate, the rate given or
    set from a target `load` (all-to-all generators)."""

    process: Literal["poisson"]
    rate_per_s: PerSecond | None = Field(None, alias="rate")
    """Transfers per second: "50/s", "600/min"."""
    load: float | None = None
    """Instead of rate, with `hosts`: the fraction of the hosts' link capacity offered, rate =
    load × host_rate × n_hosts / (8 × mean size) (`tcpsim.workloads.poisson_rate_for_load`)."""

    @field_validator("load")
    @classmethod
    def _positive(cls, load: float | None) -> float | None:
        if load is not None and not (math.isfinite(load) and load > 0):
            raise ValueError(f"{load!r} must be a number > 0, e.g. 0.6")
        return load

    @model_validator(mode="after")
    def _one_of(self) -> Self:
        if (self.rate_per_s is None) == (self.load is None):
            raise_if_any([((), "give exactly one of rate and load")])
        return self


class BarrierArrivals(Model, defer_build=True):
    """Incast: every client starts one transfer at once (a round); the next round starts `gap`
    after the last transfer of the round completed; `rounds` rounds."""

    process: Literal["barrier"]
    rounds: Annotated[
        int,
        Validated(whole_number("a count", minimum=1, maximum=2**32 - 1, example=10), {"type": "integer", "minimum": 1}),
    ]
    gap_ns: DurationNs = Field("0s", alias="gap", validate_default=True)


class ParetoArrivals(Model, defer_build=True):
    """Pareto gaps of mean 1/rate (bursty, heavy-tailed arrivals)."""

    process: Literal["pareto"]
    rate_per_s: PerSecond = Field(alias="rate")
    """Transfers per second: "50/s", "600/min"."""
    shape: ParetoShape
    """> 1 (the mean gap is infinite otherwise)."""


ArrivalSpec = Annotated[PoissonArrivals | ParetoArrivals | BarrierArrivals, Field(discriminator="process")]


class ParetoSizes(Model, defer_build=True):
    """Pareto sizes (heavy-tailed, as web objects): scale mean·(shape − 1)/shape."""

    dist: Literal["pareto"]
    mean_bytes: TransferSizeBytes = Field(alias="mean")
    """Mean transfer size, e.g. "30KB"."""
    shape: ParetoShape
    """> 1: a Pareto with shape <= 1 has an infinite mean."""


class FixedSizes(Model, defer_build=True):
    """Every transfer the same size."""

    dist: Literal["fixed"]
    size_bytes: TransferSizeBytes = Field(alias="size")


class ListSizes(Model, defer_build=True):
    """Each transfer one of the listed sizes, drawn uniformly."""

    dist: Literal["list"]
    sizes_bytes: list[TransferSizeBytes] = Field(alias="sizes", min_length=1)


class EmpiricalSizes(Model, defer_build=True):
    """Sizes from an empirical CDF: `cdf` points [[bytes, cumulative probability], ...] or a
    `file` of them (`tcpsim.workloads` for the format), sampled by inverse transform with
    linear interpolation between points (HPCC's convention)."""

    dist: Literal["empirical"]
    cdf: list[tuple[TransferSizeBytes | Literal[0], float]] | None = None
    file: str | None = None
    """A CDF file's path (a relative one from the current directory), read when the scenario is
    loaded; its points, not its path, go into the engine's input and the scenario's hash."""

    @model_validator(mode="after")
    def _check(self) -> Self:
        if (self.cdf is None) == (self.file is None):
            raise_if_any([((), "give exactly one of cdf and file")])
        if self.cdf is not None and (problem := check_cdf(self.cdf)) is not None:
            index, message = problem
            raise_if_any([(("cdf",) if index is None else ("cdf", index), message)])
        if self.file is not None:
            try:
                read_cdf(self.file)
            except CdfError as e:
                raise_if_any([(("file",), str(e))])
        return self

    def points(self) -> list[tuple[int, float]]:
        return list(self.cdf) if self.cdf is not None else read_cdf(self.file or "")


class NamedSizes(Model, defer_build=True):
    """Sizes from a shipped CDF: "web_search" (DCTCP, Alizadeh et al., SIGCOMM 2010) or
    "data_mining" (VL2, Greenberg et al., SIGCOMM 2009); `tcpsim.workloads`."""

    dist: Literal["web_search", "data_mining"]

    def points(self) -> list[tuple[int, float]]:
        return named_cdf(self.dist)


SizeSpec = Annotated[ParetoSizes | FixedSizes | ListSizes | EmpiricalSizes | NamedSizes, Field(discriminator="dist")]


def mean_size(spec: "ParetoSizes | FixedSizes | ListSizes | EmpiricalSizes | NamedSizes") -> float:
    """Mean transfer size in bytes (an empirical CDF's: that of its interpolation)."""
    if isinstance(spec, ParetoSizes):
        return spec.mean_bytes
    if isinstance(spec, FixedSizes):
        return spec.size_bytes
    if isinstance(spec, ListSizes):
        return sum(spec.sizes_bytes) / len(spec.sizes_bytes)
    return cdf_mean(spec.points())


class WebSpec(Model, defer_build=True):
    """A flow generator: finite TCP transfers between `server` and a client drawn uniformly
    from `clients` (barrier arrivals: every client each round), or, with `hosts` instead, from
    a host drawn uniformly to another (all-to-all), starting as `arrivals` in [start, stop) with
    sizes from `sizes`. Each transfer is a new connection (fresh cwnd, RTT estimate and RTO:
    slow start from the initial window); its ends, start, end and completion time are in the
    result's `transfers` table."""

    name: Name | None = None
    """Defaults to "web<i>" (i = position in [[web]]); labels results and the throughput trace."""
    server: Name | None = None
    clients: Annotated[list[Name], Field(min_length=1)] | None = None
    hosts: Annotated[list[Name], Field(min_length=2)] | None = None
    """Instead of server and clients: all-to-all transfers between two distinct hosts, drawn
    uniformly (sender, then receiver among the others)."""
    direction: Annotated[
        Literal["download", "upload"],
        Validated(choice("a direction", DIRECTIONS), {"enum": list(DIRECTIONS)}),
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
        if self.hosts is not None:
            for key in ("server", "clients"):
                if getattr(self, key) is not None:
                    problems.append(((key,), "not with hosts (all-to-all has no server)"))
            if "direction" in self.model_fields_set:
                problems.append((("direction",), "not with hosts (all-to-all transfers go both ways)"))
            for j, host in enumerate(self.hosts):
                if host in self.hosts[:j]:
                    problems.append((("hosts", j), f"{host!r} is listed twice; hosts must be distinct"))
            if isinstance(self.arrivals, BarrierArrivals):
                problems.append((("arrivals", "process"), "barrier needs a server and clients, not hosts"))
        else:
            for key in ("server", "clients"):
                if getattr(self, key) is None:
                    problems.append(((key,), "needed (or hosts, for all-to-all)"))
            if isinstance(self.arrivals, PoissonArrivals) and self.arrivals.load is not None:
                problems.append((("arrivals", "load"), "needs hosts (all-to-all); give rate with a server"))
        for j, client in enumerate(self.clients or []):
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

    @property
    def ends(self) -> list[str]:
        """The nodes its transfers join: the server and its clients, or the hosts."""
        if self.hosts is not None:
            return list(self.hosts)
        return [self.server or "", *(self.clients or [])]

    def to_engine(
        self, position: int, node_index: dict[str, int], tcp: dict[str, Any], host_rate_bps: float | None = None
    ) -> dict[str, Any]:
        """The engine's `WebConfig`; `tcp` is its merged TCP settings (`effective_tcp`);
        `host_rate_bps` the rate of the hosts' links, needed for a `load`."""
        if self.hosts is not None:
            ends = {"server": None, "clients": [node_index[h] for h in self.hosts], "direction": "all_to_all"}
        else:
            ends = {
                "server": node_index[self.server or ""],
                "clients": [node_index[client] for client in self.clients or []],
                "direction": self.direction,
            }
        return {
            "name": self.display_name(position),
            "class": self.class_label,
            **ends,
            "tcp": tcp,
            "arrivals": self._arrivals(host_rate_bps),
            "sizes": _sizes(self.sizes),
            "start_ns": self.start_ns,
            "stop_ns": self.stop_ns,
        }

    def _arrivals(self, host_rate_bps: float | None) -> dict[str, Any]:
        spec = self.arrivals
        if isinstance(spec, ParetoArrivals):
            return {"process": "pareto", "rate_per_s": spec.rate_per_s, "shape": spec.shape}
        if isinstance(spec, BarrierArrivals):
            return {"process": "barrier", "rounds": spec.rounds, "gap_ns": spec.gap_ns}
        if spec.load is not None:
            assert host_rate_bps is not None and self.hosts is not None, "checked with the links"
            rate = poisson_rate_for_load(spec.load, host_rate_bps, len(self.hosts), mean_size(self.sizes))
            return {"process": "poisson", "rate_per_s": rate}
        return {"process": "poisson", "rate_per_s": spec.rate_per_s}


def _sizes(spec: ParetoSizes | FixedSizes | ListSizes | EmpiricalSizes | NamedSizes) -> dict[str, Any]:
    if isinstance(spec, ParetoSizes):
        return {"dist": "pareto", "mean_bytes": spec.mean_bytes, "shape": spec.shape}
    if isinstance(spec, FixedSizes):
        return {"dist": "fixed", "bytes": spec.size_bytes}
    if isinstance(spec, ListSizes):
        return {"dist": "list", "bytes": list(spec.sizes_bytes)}
    return {"dist": "empirical", "cdf": [[size, p] for size, p in spec.points()]}
