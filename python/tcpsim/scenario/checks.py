"""Cross-checks: rules that need the whole scenario (node and flow names, paths between
endpoints, merged TCP settings, queue limits against packet sizes). They run once every field is
individually valid."""

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from tcpsim.scenario.errors import Loc, Problem
from tcpsim.scenario.network import LinkSpec, ScriptedLoss, limit_bytes
from tcpsim.scenario.sections import split_pcap_tap
from tcpsim.scenario.traffic import FlowInstance, effective_tcp, flow_instances, tcp_origin
from tcpsim.units import U64_MAX, QueueLimit, format_duration

if TYPE_CHECKING:
    from tcpsim.scenario.root import Scenario


MAX_TOTAL_FLOWS = 1_000_000
"""Most flows one scenario may ask for (the sum of the entries' `count`): the checks below go
flow by flow, so two million would take minutes only to be refused for their memory."""


def check_scenario(scenario: "Scenario") -> list[Problem]:
    """Every problem that involves more than one table."""
    total = sum(flow.count for flow in scenario.flows)
    if total > MAX_TOTAL_FLOWS:
        return [(("flows",), f"{total} flows in all (the sum of their count); at most {MAX_TOTAL_FLOWS} are allowed")]
    flows = flow_instances(scenario)
    nodes = scenario.node_names()
    component = _components(scenario, nodes)
    return [
        *_check_run(scenario),
        *_check_names(scenario, flows),
        *_check_flows(scenario, flows, nodes, component),
        *_check_udp(scenario, nodes, component),
        *_check_web(scenario, nodes, component),
        *_check_queues(scenario, flows),
        *_check_pcap(scenario),
        *_check_shared_buffers(scenario, nodes),
    ]


def _check_shared_buffers(scenario: "Scenario", nodes: list[str]) -> Iterator[Problem]:
    """A shared buffer belongs to a node the links name."""
    known_nodes = set(nodes) if scenario.network.shared_buffers else set()
    for position, buffer in enumerate(scenario.network.shared_buffers):
        if buffer.node not in known_nodes:
            known = ", ".join(nodes)
            yield (
                ("network", "shared_buffers", position, "node"),
                f"{buffer.node!r} is not a node; known nodes: {known}",
            )


def _check_pcap(scenario: "Scenario") -> Iterator[Problem]:
    """Captured links and nodes must exist."""
    names = [link.display_name for link in scenario.links]
    for position, entry in enumerate(scenario.trace.pcap):
        link, _ = split_pcap_tap(entry)
        if link not in names:
            shown = ", ".join(names[:10]) + (", …" if len(names) > 10 else "")
            yield (("trace", "pcap", position), f"no link named {link!r}; the links are {shown}")
    nodes = scenario.node_names()
    for position, node in enumerate(scenario.trace.pcap_nodes):
        if node not in nodes:
            shown = ", ".join(nodes[:10]) + (", …" if len(nodes) > 10 else "")
            yield (("trace", "pcap_nodes", position), f"no node named {node!r}; the nodes are {shown}")


def _check_run(scenario: "Scenario") -> Iterator[Problem]:
    if scenario.warmup_ns >= scenario.duration_ns:
        yield (
            ("warmup",),
            f"{format_duration(scenario.warmup_ns)} must be less than duration ({format_duration(scenario.duration_ns)})",
        )
    for table, entries in (("flows", scenario.flows), ("web", scenario.web)):
        for position, entry in enumerate(entries):
            if entry.start_ns >= scenario.duration_ns:
                yield (
                    (table, position, "start"),
                    f"{format_duration(entry.start_ns)} is not before the end of the run (duration {format_duration(scenario.duration_ns)})",
                )


def _check_names(scenario: "Scenario", flows: list[FlowInstance]) -> Iterator[Problem]:
    """Link and flow names label results, so each must be unique."""
    link_owner: dict[str, int] = {}
    for position, link in enumerate(scenario.links):
        name = link.display_name
        if name in link_owner:
            where: Loc = ("links", position, "name") if link.name is not None else ("links", position)
            yield (where, f"link name {name!r} is already used by links[{link_owner[name]}]; names must be unique")
        link_owner.setdefault(name, position)
    flow_owner: dict[str, int] = {}
    for flow in flows:
        if flow.name in flow_owner:
            where = ("flows", flow.position, "name") if flow.spec.name is not None else ("flows", flow.position)
            yield (
                where,
                f"flow name {flow.name!r} is already used by flows[{flow_owner[flow.name]}]; names must be unique",
            )
        flow_owner.setdefault(flow.name, flow.position)
    udp_owner: dict[str, int] = {}
    for position, udp in enumerate(scenario.udp):
        name = udp.display_name(position)
        if name in udp_owner:
            yield (
                ("udp", position, "name"),
                f"UDP flow name {name!r} is already used by udp[{udp_owner[name]}]; names must be unique",
            )
        udp_owner.setdefault(name, position)
    web_owner: dict[str, int] = {}
    for position, web in enumerate(scenario.web):
        name = web.display_name(position)
        where = ("web", position, "name") if web.name is not None else ("web", position)
        if name in web_owner:
            yield (
                where,
                f"web generator name {name!r} is already used by web[{web_owner[name]}]; names must be unique",
            )
        elif name in flow_owner:
            yield (
                where,
                f"{name!r} is already the name of a flow (flows[{flow_owner[name]}]); a web generator's name labels its "
                "throughput series beside the flows', so it must differ",
            )
        web_owner.setdefault(name, position)


def _check_flows(
    scenario: "Scenario", flows: list[FlowInstance], nodes: list[str], component: dict[str, str]
) -> Iterator[Problem]:
    """Endpoints exist and are connected; merged TCP settings are consistent."""
    tcp_of = {flow.position: flow.tcp for flow in flows}
    for position, flow in enumerate(scenario.flows):
        unknown = [(end, node) for end, node in (("src", flow.src), ("dst", flow.dst)) if node not in component]
        for end, node in unknown:
            yield (("flows", position, end), f"{node!r} is not a node; known nodes: {', '.join(nodes)}")
        if not unknown and component[flow.dst] != component[flow.src]:
            yield (("flows", position), f"no path from {flow.src!r} to {flow.dst!r} over the links")
        yield from _check_tcp(scenario, "flows", position, tcp_of[position])


def _check_web(scenario: "Scenario", nodes: list[str], component: dict[str, str]) -> Iterator[Problem]:
    """A generator's server and clients (or hosts) exist and the server (the first host) reaches
    every other; a `load` has hosts on links of one rate; its merged TCP settings are consistent."""
    for position, web in enumerate(scenario.web):
        key = "hosts" if web.hosts is not None else "clients"
        hub = web.server if web.hosts is None else web.hosts[0]
        if web.hosts is None and web.server not in component:
            yield (("web", position, "server"), f"{web.server!r} is not a node; known nodes: {', '.join(nodes)}")
        for j, end in enumerate(web.hosts if web.hosts is not None else web.clients or []):
            if end not in component:
                yield (("web", position, key, j), f"{end!r} is not a node; known nodes: {', '.join(nodes)}")
            elif hub in component and component[end] != component[hub]:
                origin = "the server" if web.hosts is None else "the first host"
                yield (("web", position, key, j), f"no path from {origin} {hub!r} to {end!r} over the links")
        if getattr(web.arrivals, "load", None) is not None and web.hosts is not None:
            _, problem = host_rate(scenario, web.hosts)
            if problem is not None:
                yield (("web", position, "arrivals", "load"), problem)
        yield from _check_tcp(scenario, "web", position, effective_tcp(scenario.tcp, web))


def host_rate(scenario: "Scenario", hosts: list[str]) -> tuple[int, str | None]:
    """The rate of the hosts' links, which a `load` is a fraction of: each host must have one
    link, all of one rate. Returns (rate, None) or (0, why not)."""
    rates = set()
    for host in hosts:
        links = [link for link in scenario.links if host in (link.a, link.b)]
        if len(links) != 1:
            return 0, f"needs hosts with one link each; {host!r} has {len(links)}"
        rates.add(links[0].rate_bps)
    if len(rates) != 1:
        return (
            0,
            f"needs hosts whose links have one rate; they have {len(rates)} ({', '.join(map(str, sorted(rates)))} b/s)",
        )
    return rates.pop(), None


def _check_tcp(scenario: "Scenario", table: str, position: int, tcp: dict[str, Any]) -> Iterator[Problem]:
    """The merged TCP settings `tcp` of `table`[position] ([[flows]] or [[web]]) are consistent."""
    if tcp["min_rto_ns"] > tcp["max_rto_ns"]:
        yield (
            tcp_origin(scenario, position, "min_rto_ns", table),
            f"{format_duration(tcp['min_rto_ns'])} must not exceed max_rto ({format_duration(tcp['max_rto_ns'])})",
        )
    if tcp["rtt_tick_ns"] > tcp["max_rto_ns"]:
        yield (
            tcp_origin(scenario, position, "rtt_tick_ns", table),
            f"{format_duration(tcp['rtt_tick_ns'])} is longer than max_rto ({format_duration(tcp['max_rto_ns'])}); "
            "the RTT clock's tick must not exceed the largest RTO",
        )
    if tcp["rwnd_bytes"] < tcp["mss_bytes"]:
        yield (
            tcp_origin(scenario, position, "rwnd_bytes", table),
            f"{tcp['rwnd_bytes']} bytes is less than one segment (mss = {tcp['mss_bytes']} bytes)",
        )


def _check_udp(scenario: "Scenario", nodes: list[str], component: dict[str, str]) -> Iterator[Problem]:
    """UDP endpoints exist and are connected."""
    for position, udp in enumerate(scenario.udp):
        unknown = [(end, node) for end, node in (("src", udp.src), ("dst", udp.dst)) if node not in component]
        for end, node in unknown:
            yield (("udp", position, end), f"{node!r} is not a node; known nodes: {', '.join(nodes)}")
        if not unknown and component[udp.dst] != component[udp.src]:
            yield (("udp", position), f"no path from {udp.src!r} to {udp.dst!r} over the links")


def _components(scenario: "Scenario", nodes: list[str]) -> dict[str, str]:
    """Node → the first node of its connected component (links are full-duplex): two nodes have
    a path between them iff they share it. Found once for all flows, in time linear in nodes and
    links (a search per flow was quadratic: 5 s for a 1600-flow dumbbell)."""
    neighbours: dict[str, list[str]] = {node: [] for node in nodes}
    for link in scenario.links:
        neighbours[link.a].append(link.b)
        neighbours[link.b].append(link.a)
    component: dict[str, str] = {}
    for start in neighbours:
        if start in component:
            continue
        component[start], frontier = start, [start]
        while frontier:
            for node in neighbours[frontier.pop()]:
                if node not in component:
                    component[node] = start
                    frontier.append(node)
    return component


def _check_queues(scenario: "Scenario", flows: list[FlowInstance]) -> Iterator[Problem]:
    """Every queue can resolve its limits and hold at least the largest data packet; every
    scripted loss names a flow."""
    connections = [flow.tcp for flow in flows] + [effective_tcp(scenario.tcp, web) for web in scenario.web]
    largest_packet_bytes = max((tcp["mss_bytes"] + tcp["header_bytes"] for tcp in connections), default=0)
    flow_names = [flow.name for flow in flows]
    for position, link in enumerate(scenario.links):
        queues = {where: queue for where, queue in link.queues().values()}
        if link.queue is not None:
            queues.setdefault(("queue",), link.queue)
        for where, queue in queues.items():
            for limit in queue.limits():
                if limit.unit != "packets":  # a count of packets holds a packet of any size
                    yield from _check_limit(scenario, link, ("links", position, *where), limit, largest_packet_bytes)
        for index, loss in enumerate(link.loss):
            if isinstance(loss, ScriptedLoss) and loss.flow not in flow_names:
                yield (
                    ("links", position, "loss", index, "flow"),
                    f"{loss.flow!r} is not a flow; flows: {', '.join(dict.fromkeys(flow_names)) or '(none)'}",
                )


def _check_limit(
    scenario: "Scenario", link: LinkSpec, where: Loc, limit: QueueLimit, largest_packet_bytes: int
) -> Iterator[Problem]:
    """A limit in bytes or BDP resolves, fits the engine and holds the largest packet."""
    if limit.unit == "bdp" and scenario.bdp_rtt_ns is None:
        yield (
            where,
            f'{limit.text!r} needs bdp_rtt, the reference RTT of BDP limits, at the top level, e.g. bdp_rtt = "250ms"',
        )
        return
    queue_bytes = limit_bytes(limit, link.rate_bps, scenario.bdp_rtt_ns)
    if queue_bytes > U64_MAX:
        yield (
            where,
            f"{limit.text!r} is {queue_bytes:.3g} bytes, more than the engine's largest queue ({U64_MAX} bytes)",
        )
    elif queue_bytes < largest_packet_bytes:
        yield (
            where,
            f"{limit.text!r} is {queue_bytes} bytes, less than one packet "
            f"(the largest is {largest_packet_bytes} bytes: mss + header)",
        )
