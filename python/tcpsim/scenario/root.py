"""The whole scenario: the root table, and its canonical engine form (`SimConfig`)."""

import hashlib
import json
from collections.abc import Mapping
from typing import Annotated, Any, NamedTuple, Self

from pydantic import Field, model_validator

from tcpsim.compiled import engine_json
from tcpsim.gc_paused import gc_paused
from tcpsim.scenario.checks import check_scenario, host_rate
from tcpsim.scenario.errors import raise_if_any
from tcpsim.scenario.fields import DurationNs, Model, PositiveDurationNs
from tcpsim.scenario.network import LinkSpec, NetworkSpec
from tcpsim.scenario.on_use import on_use
from tcpsim.scenario.sections import LimitsSpec, TraceSpec, split_pcap_tap
from tcpsim.scenario.tcp import TcpOptions, default_tcp
from tcpsim.scenario.traffic import FlowSpec, UdpSpec, effective_tcp, flow_instances
from tcpsim.scenario.web import WebSpec


class FlowInfo(NamedTuple):
    """One row of :meth:`Scenario.flow_table`, to label per-flow results."""

    index: int
    name: str
    variant: str
    src: str
    dst: str
    class_: str
    """The flow's `class` label (default: its variant)."""


class WebInfo(NamedTuple):
    """One row of :meth:`Scenario.web_table`, to label per-generator results."""

    index: int
    name: str
    traffic_class: str
    variant: str


class Scenario(Model):
    """A simulation set-up: topology, flows, run length and what to trace."""

    name: Annotated[str, Field(strict=True)] | None = None
    description: Annotated[str, Field(strict=True)] | None = None
    duration_ns: PositiveDurationNs = Field(alias="duration")
    warmup_ns: DurationNs = Field("0s", alias="warmup", validate_default=True)
    """Start of the measurement window; summaries cover [warmup, duration]."""
    bdp_rtt_ns: PositiveDurationNs | None = Field(None, alias="bdp_rtt")
    """Reference RTT for "xBDP" queue limits (needed only if one is used)."""
    tcp: TcpOptions = Field(default_factory=default_tcp)
    links: list[LinkSpec] = Field(min_length=1)
    network: NetworkSpec = Field(default_factory=NetworkSpec)
    """How routers choose among equal-hop paths (`[network] routing = "ecmp"`), and which
    switches share their buffer (`[[network.shared_buffers]]`)."""
    flows: list[FlowSpec] = []
    udp: list[UdpSpec] = []
    web: list[on_use(WebSpec)] = []  # type: ignore[valid-type]
    """Flow generators of finite TCP transfers (web-like traffic)."""
    trace: TraceSpec = Field(default_factory=TraceSpec)
    limits: LimitsSpec = Field(default_factory=LimitsSpec)
    """Not part of the engine's input (nor of the hash): they decide whether a run starts."""

    @model_validator(mode="after")
    def _check(self) -> Self:
        raise_if_any(check_scenario(self))
        return self

    def node_names(self) -> list[str]:
        """Nodes in order of first appearance as a link endpoint (this order is their index)."""
        return list(dict.fromkeys(node for link in self.links for node in (link.a, link.b)))

    @gc_paused
    def to_engine(self) -> dict[str, Any]:
        """The canonical `SimConfig` (`config/mod.rs`) as a plain, JSON-ready dict."""
        nodes = self.node_names()
        node_index = {name: index for index, name in enumerate(nodes)}
        flows = flow_instances(self)
        flow_index = {flow.name: index for index, flow in enumerate(flows)}
        apps = (app for spec in self.flows for app in spec.engine_apps(self.duration_ns))
        # Written only when not the default, so that scenarios without it keep their hash.
        routing = self.network.to_engine()
        shared_buffers = self.network.shared_buffers_to_engine(node_index)
        return {
            "duration_ns": self.duration_ns,
            "warmup_ns": self.warmup_ns,
            "nodes": nodes,
            "links": [link.to_engine(node_index, flow_index, self.bdp_rtt_ns) for link in self.links],
            **({"routing": routing} if routing is not None else {}),
            **({"shared_buffers": shared_buffers} if shared_buffers else {}),
            "flows": [
                {
                    "name": flow.name,
                    "src": node_index[flow.spec.src],
                    "dst": node_index[flow.spec.dst],
                    "tcp": {**flow.tcp, "cc": _copied(flow.tcp["cc"])},  # cc is its only table
                    "app": app,
                }
                for flow, app in zip(flows, apps, strict=True)
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
            "web": [
                web.to_engine(
                    position,
                    node_index,
                    effective_tcp(self.tcp, web),
                    host_rate(self, web.hosts)[0] if web.hosts is not None else None,
                )
                for position, web in enumerate(self.web)
            ],
            # The engine stops recording traces at `limits.max_trace_rows` even in a forced run, so
            # the cap can change a result and belongs to the scenario (and its hash).
            "trace": self._engine_trace(),
        }

    def _engine_trace(self) -> dict[str, Any]:
        trace = {**self.trace.model_dump(exclude={"pcap", "pcap_nodes"}), "max_rows": self.limits.max_trace_rows}
        # Written only when asked for, so that scenarios without captures keep their hash.
        if taps := self.pcap_taps():
            trace["pcap"] = [{"link": link, "direction": direction} for link, _, direction in taps]
        if nodes := self.pcap_nodes():
            trace["pcap_nodes"] = [node for node, _ in nodes]
        return trace

    def input_files(self) -> list[str]:
        """The files besides the scenario's own that loading it read: web generators' CDF files."""
        return [web.sizes.file for web in self.web if getattr(web.sizes, "file", None) is not None]

    def pcap_nodes(self) -> list[tuple[int, str]]:
        """The captured nodes of `trace.pcap_nodes`, each once, in order: (node index, name)."""
        index = {name: position for position, name in enumerate(self.node_names())}
        return [(index[name], name) for name in dict.fromkeys(self.trace.pcap_nodes)]

    def pcap_taps(self) -> list[tuple[int, str, str]]:
        """The captured link directions of `trace.pcap`, each once, in order of first mention:
        (link index, link name, "ab" or "ba")."""
        index = {link.display_name: position for position, link in enumerate(self.links)}
        taps: dict[tuple[int, str], str] = {}
        for entry in self.trace.pcap:
            name, directions = split_pcap_tap(entry)
            for direction in directions:
                taps.setdefault((index[name], direction), name)
        return [(link, name, direction) for (link, direction), name in taps.items()]

    def to_engine_json(self, canonical: Mapping[str, Any] | None = None) -> str:
        """:meth:`to_engine` as compact JSON with sorted keys: the engine's input and the hash's.
        `canonical`, if given, is :meth:`to_engine`'s result already at hand (a run needs both)."""
        return engine_json(self.to_engine() if canonical is None else canonical)

    def hash(self, engine_json: str | None = None) -> str:
        """sha256 hex of :meth:`to_engine_json`, to key caches of finished runs.

        It covers exactly what the engine sees, so it ignores `name` and `description` (cosmetic:
        retitling a scenario must not invalidate its cached runs) and how values were spelled
        ("1s" or "1000ms", key order, defaults written out or left implicit). Link and flow names
        do count: results are labelled by them. So do flow classes, which the engine never sees:
        those other than the default (the variant) are appended to the hashed text, so a scenario
        without them keeps its hash. The seed and engine version are not part of a scenario; a
        cache key adds them. `engine_json`, if given, is :meth:`to_engine_json`'s result already
        at hand.
        """
        return hashlib.sha256(self.canonical_text(engine_json).encode()).hexdigest()

    def canonical_text(self, engine_json: str | None = None) -> str:
        """The text :meth:`hash` digests: the engine JSON, then ``\nclasses:`` and a JSON
        object of flow position → class for the flows whose class is not their variant."""
        text = self.to_engine_json() if engine_json is None else engine_json
        classes = {
            position: flow.class_label for position, flow in enumerate(self.flows) if flow.class_label != flow.variant
        }
        if classes:
            text += "\nclasses:" + json.dumps(classes, sort_keys=True, separators=(",", ":"))
        return text

    def web_table(self) -> list[WebInfo]:
        """Per web generator: index, name, class and variant."""
        return [
            WebInfo(position, web.display_name(position), web.class_label, web.variant)
            for position, web in enumerate(self.web)
        ]

    def flow_table(self) -> list[FlowInfo]:
        """Per engine flow (replicas expanded): index, name, variant, src and dst node names, class."""
        return [
            FlowInfo(index, flow.name, flow.spec.variant, flow.spec.src, flow.spec.dst, flow.spec.class_label)
            for index, flow in enumerate(flow_instances(self))
        ]


def _copied(data: Any) -> Any:
    """A copy of JSON-like data (dicts, lists, scalars), so that each engine flow owns its
    settings (a flow's replicas share them in `flow_instances`), at a fraction of
    `copy.deepcopy`'s cost for 100 000 replicas."""
    if isinstance(data, dict):
        return {key: _copied(value) if isinstance(value, dict | list) else value for key, value in data.items()}
    if isinstance(data, list):
        return [_copied(value) for value in data]
    return data
