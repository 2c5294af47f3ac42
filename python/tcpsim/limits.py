"""Before a run: what it will cost, whether that fits the scenario's `limits`, and what about it
makes no physical sense.

The engine's work is its events: every packet crossing a hop is two (end of serialization, end
of propagation), and timers, UDP sends, loss-model state changes and trace samples add theirs.
:func:`estimate_cost` predicts them from the canonical scenario with a fluid model: each flow's
rate is its max-min fair share of the links it crosses (progressive filling), capped by its
window per round trip; packets follow from rates and sizes, ACKs from the delayed-ACK count.
The estimate errs high (timers are counted as if they fired at their shortest period; every
packet's ACK is counted), so it refuses only what is far beyond the limits, never a run of the
size the paper reproductions use.

Trace rows and memory follow from the same numbers. A run over a limit is refused with
:class:`RunTooLarge` naming what drives its size and the knob that allows it (`limits.*`,
``--force``, ``force=True``).
"""

from __future__ import annotations

import functools
import math
from collections import defaultdict, deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tcpsim.scenario import Scenario, ScenarioError, format_path
from tcpsim.scenario.network import queue_model
from tcpsim.scenario.schedule import on_interval_count
from tcpsim.scenario.traffic import flow_instances, tcp_origin
from tcpsim.units import format_duration
from tcpsim.workloads import cdf_mean

NS_PER_S = 10**9

DEFAULT_MAX_EVENTS = 10**10
"""About 15 minutes to hours of engine time (10–40 M events/s); the largest paper reproduction
run is below 10^9."""
DEFAULT_MAX_TRACE_ROWS = 10**8
"""Rows of all traces together (a few GB once in numpy and pandas)."""
DEFAULT_MAX_MEMORY_BYTES = 8 * 2**30

BYTES_PER_TCP_FLOW = 20_000
"""Sender, receiver, scoreboard and result rows of one TCP flow (measured: 16.5 KB at 10 000
flows), before packets and traces."""
BYTES_PER_PACKET = 128
"""A packet in the pool and its slot in a queue or propagation pipe."""
BYTES_PER_COUNTER_SLOT = 8
RD_COUNTERS_PER_QUEUE = 2
"""An RD queue counts its R and its D flows, each in a vector of `counter_slots` timestamps."""
TRACE_ROW_BYTES = {"cwnd": 44, "rtt": 36, "queue": 28, "throughput": 8}
"""Bytes per row in the engine's columns."""
TRACE_COPIES = 3
"""The engine's columns, their bytes for Python, and the pandas frame."""
BYTES_PER_TRANSFER = 160
"""A web transfer's row: the engine's record (32 B), its columns for Python and the pandas
frame, with its summary statistics."""
WEB_TIMER_EVENTS = 2
"""Timer events per web transfer (its retransmission and delayed-ACK timers, counted as if
each fired once)."""
BYTES_PER_ON_INTERVAL = 300
"""One ON interval of a TCP flow's ON/OFF application (`on`, or a replica's share of a
`schedule`): its Python tuple, its engine JSON and the engine's copy (measured: 274 MB more
resident memory for 10^6 intervals)."""
EVENTS_PER_ON_INTERVAL = 2
"""An ON interval's start and end are engine events whatever is sent in it (measured: 2.0 per
interval on a schedule of 10^6 one-millisecond intervals, where the fluid model sees ~no data)."""
ACK_EXTRA_BYTES = 12
"""A typical ACK's options beyond the header (the SACK option adds 4 + 8 per block)."""
MIN_WINDOW_RTTS = 4
"""A measurement window shorter than this many round trips of the longest path measures
transients, not rates."""
INIT_WINDOW_EXCESS = 10
"""An initial window this many times larger than the path holds (BDP plus queues) is beyond
physical sense: the first burst is dropped wholesale."""


class RunTooLarge(ScenarioError):
    """The estimated cost of a run exceeds the scenario's limits; nothing was run."""


class ScenarioWarning(UserWarning):
    """A scenario the engine can run but whose results mean little (see :func:`run_warnings`)."""


@dataclass
class Cost:
    """Predicted size of a run. `drivers` breaks the events down by what causes them."""

    events: float = 0.0
    trace_rows: float = 0.0
    memory_bytes: float = 0.0
    transfers: float = 0.0
    """Web transfers expected."""
    drivers: dict[str, float] = field(default_factory=lambda: defaultdict(float))

    def add(self, driver: str, events: float) -> None:
        self.events += events
        self.drivers[driver] += events


@dataclass
class _Flow:
    """One engine flow for the fluid model."""

    path: Sequence[int]  # channels in the data direction
    reverse: Sequence[int]  # channels of the ACKs (empty for UDP)
    demand_bps: float
    active_s: float
    wire_bytes: int
    ack_bytes: int = 0
    delack_count: int = 1
    max_packets: float = math.inf
    rate_bps: float = 0.0


@dataclass
class _Web:
    """One web generator for the cost estimate: its transfers and one fluid flow per client."""

    transfers: float
    mean_bytes: float
    flows: list[_Flow]
    rtt_s: float
    bottleneck_bps: float


def _mean_size(sizes: Mapping[str, Any], mss: int) -> tuple[float, float]:
    """Mean bytes and mean data segments of a generator's transfers."""
    if sizes["dist"] == "pareto":
        return sizes["mean_bytes"], sizes["mean_bytes"] / mss + 1  # + 1: the last, partial segment
    if sizes["dist"] == "empirical":
        mean = cdf_mean(sizes["cdf"])
        return mean, mean / mss + 1
    listed = [sizes["bytes"]] if sizes["dist"] == "fixed" else sizes["bytes"]
    return sum(listed) / len(listed), sum(math.ceil(size / mss) for size in listed) / len(listed)


def _path(start: int, goal: int, adjacent: Sequence[Sequence[tuple[int, int]]]) -> list[int]:
    """Channels of a fewest-hop path (the engine's routing, up to ties)."""
    previous: dict[int, tuple[int, int]] = {start: (start, -1)}
    frontier = deque([start])
    while goal not in previous:
        node = frontier.popleft()
        for neighbour, channel in adjacent[node]:
            if neighbour not in previous:
                previous[neighbour] = (node, channel)
                if neighbour == goal:
                    break
                frontier.append(neighbour)
    channels = []
    node = goal
    while node != start:
        node, channel = previous[node]
        channels.append(channel)
    return channels[::-1]


def _rtt_s(engine: Mapping[str, Any], path: Sequence[int], data_bytes: int, ack_bytes: int) -> float:
    """Round trip: propagation both ways plus one data packet's and one ACK's serialization."""
    links = engine["links"]
    seconds = 0.0
    for channel in path:
        link = links[channel // 2]
        seconds += 2 * link["delay_ns"] / NS_PER_S + 8 * (data_bytes + ack_bytes) / link["rate_bps"]
    return max(seconds, 1e-9)


def _fill(flows: Sequence[_Flow], capacity_bps: Sequence[float]) -> None:
    """Max-min fair rates by progressive filling: every unfrozen flow holds the same `level`; a
    flow freezes when it reaches its demand or one of its channels fills."""
    on_channel: dict[int, list[int]] = defaultdict(list)
    for index, flow in enumerate(flows):
        for channel in flow.path:
            on_channel[channel].append(index)
    frozen_bps = defaultdict(float)
    active_count = {channel: len(members) for channel, members in on_channel.items()}
    by_demand = sorted(range(len(flows)), key=lambda i: flows[i].demand_bps)
    frozen = [False] * len(flows)
    next_demand = 0
    level = 0.0

    def freeze(index: int) -> None:
        frozen[index] = True
        flows[index].rate_bps = level
        for channel in flows[index].path:
            frozen_bps[channel] += level
            active_count[channel] -= 1

    while True:
        while next_demand < len(by_demand) and frozen[by_demand[next_demand]]:
            next_demand += 1
        if next_demand == len(by_demand):
            return
        saturation = {
            channel: (capacity_bps[channel] - frozen_bps[channel]) / count
            for channel, count in active_count.items()
            if count > 0
        }
        level = min([flows[by_demand[next_demand]].demand_bps, *saturation.values()])
        full = [channel for channel, at in saturation.items() if at <= level]
        for channel in full:
            for index in on_channel[channel]:
                if not frozen[index]:
                    freeze(index)
        while next_demand < len(by_demand) and flows[by_demand[next_demand]].demand_bps <= level:
            if not frozen[by_demand[next_demand]]:
                freeze(by_demand[next_demand])
            next_demand += 1


def _flows(engine: Mapping[str, Any]) -> tuple[list[_Flow], list[_Flow], list[_Web]]:
    """TCP and UDP flows and web generators of the canonical scenario with their paths and
    demands."""
    adjacent: list[list[tuple[int, int]]] = [[] for _ in engine["nodes"]]
    for index, link in enumerate(engine["links"]):
        adjacent[link["a"]].append((link["b"], 2 * index))
        adjacent[link["b"]].append((link["a"], 2 * index + 1))
    duration_s = engine["duration_ns"] / NS_PER_S

    @functools.cache  # replicated flows (`count`) and hosts behind one router share paths
    def path(src: int, dst: int) -> tuple[int, ...]:
        # A host with a single link reaches everything through it (channel c's reverse is c ^ 1).
        if len(adjacent[src]) == 1 and src != dst:
            neighbour, channel = adjacent[src][0]
            return (channel, *path(neighbour, dst))
        if len(adjacent[dst]) == 1 and src != dst:
            neighbour, channel = adjacent[dst][0]
            return (*path(src, neighbour), channel ^ 1)
        return tuple(_path(src, dst, adjacent))

    tcp = []
    for flow in engine["flows"]:
        settings, app = flow["tcp"], flow["app"]
        forward = path(flow["src"], flow["dst"])
        wire = settings["mss_bytes"] + settings["header_bytes"]
        ack = settings["header_bytes"] + ACK_EXTRA_BYTES
        active_s = _active_ns(app, engine["duration_ns"]) / NS_PER_S
        window_bps = 8 * settings["rwnd_bytes"] / _rtt_s(engine, forward, wire, ack)
        max_packets = 2 * math.ceil(app["bytes"] / settings["mss_bytes"]) if app["bytes"] is not None else math.inf
        tcp.append(
            _Flow(
                forward,
                path(flow["dst"], flow["src"]),
                window_bps,
                active_s,
                wire,
                ack,
                settings["delack_count"],
                max_packets,
            )
        )
    udp = []
    for flow in engine["udp_flows"]:
        on_s = sum(max(0, min(end, engine["duration_ns"]) - start) for start, end in flow["on"]) / NS_PER_S
        udp.append(
            _Flow(path(flow["src"], flow["dst"]), (), flow["rate_bps"], min(on_s, duration_s), flow["packet_bytes"])
        )
    web = []
    for generator in engine.get("web", []):
        settings = generator["tcp"]
        wire = settings["mss_bytes"] + settings["header_bytes"]
        ack = settings["header_bytes"] + ACK_EXTRA_BYTES
        stop_ns = generator["stop_ns"] if generator["stop_ns"] is not None else engine["duration_ns"]
        active_s = max(0, min(stop_ns, engine["duration_ns"]) - generator["start_ns"]) / NS_PER_S
        transfers = _arrivals_bound(generator["arrivals"], active_s, len(generator["clients"]))
        mean_bytes, mean_segments = _mean_size(generator["sizes"], settings["mss_bytes"])
        clients, server = generator["clients"], generator["server"]
        if generator["direction"] == "all_to_all":
            pairs = [(src, dst) for src in clients for dst in clients if src != dst]
        elif generator["direction"] == "download":
            pairs = [(server, client) for client in clients]
        else:
            pairs = [(client, server) for client in clients]
        share = 1 / len(pairs)
        flows = []
        for src, dst in pairs:
            offered_bps = 8 * wire * mean_segments * transfers * share / max(active_s, 1e-9)
            # Every segment counted twice: retransmissions make the estimate err high.
            flows.append(
                _Flow(
                    path(src, dst),
                    path(dst, src),
                    offered_bps,
                    active_s,
                    wire,
                    ack,
                    settings["delack_count"],
                    2 * transfers * share * mean_segments,
                )
            )
        links = engine["links"]
        forward = flows[0].path
        web.append(
            _Web(
                transfers,
                mean_bytes,
                flows,
                _rtt_s(engine, forward, wire, ack),
                min((links[channel // 2]["rate_bps"] for channel in forward), default=math.inf),
            )
        )
    return tcp, udp, web


def _active_ns(app: Mapping[str, Any], duration_ns: int) -> int:
    """How long a TCP application has data to send within the run."""
    if app["kind"] == "on_off":
        return sum(max(0, min(end, duration_ns) - start) for start, end in app["on_ns"])
    stop_ns = app["stop_ns"] if app["stop_ns"] is not None else duration_ns
    return max(0, min(stop_ns, duration_ns) - app["start_ns"])


def _link_label(engine: Mapping[str, Any], channel: int) -> str:
    return f"packets on links[{channel // 2}] ({engine['links'][channel // 2]['name']})"


def estimate_cost(engine: Mapping[str, Any]) -> Cost:
    """Events, trace rows and memory of a run of the canonical scenario `engine`
    (:meth:`Scenario.to_engine`; see the module docstring)."""
    duration_ns = engine["duration_ns"]
    tcp, udp, web = _flows(engine)
    web_flows = [flow for generator in web for flow in generator.flows]
    capacity = [link["rate_bps"] for link in engine["links"] for _ in (0, 1)]
    _fill([*tcp, *web_flows, *udp], capacity)
    cost = Cost()
    packets_on = defaultdict(float)
    acks = 0.0
    for generator in web:
        cost.add("web transfers and their timers (web[*].arrivals.rate)", (1 + WEB_TIMER_EVENTS) * generator.transfers)
        cost.transfers += generator.transfers
    for flow in [*tcp, *web_flows]:
        data = min(flow.rate_bps * flow.active_s / (8 * flow.wire_bytes), flow.max_packets)
        flow_acks = data / flow.delack_count
        acks += flow_acks
        for channel in flow.path:
            packets_on[channel] += data
        for channel in flow.reverse:
            packets_on[channel] += flow_acks
        cost.add("delayed-ACK timers (tcp.delack_count, tcp.delack_timeout)", flow_acks)
    for flow in udp:
        sent = flow.demand_bps * flow.active_s / (8 * flow.wire_bytes)
        cost.add("UDP datagrams (udp[*].rate)", sent)
        for hop, channel in enumerate(flow.path):
            packets_on[channel] += sent if hop == 0 else flow.rate_bps * flow.active_s / (8 * flow.wire_bytes)
    for channel, packets in packets_on.items():
        cost.add(_link_label(engine, channel), 2 * packets)
    on_intervals = 0
    for flow in engine["flows"]:
        # At most one expiry per min_rto while the flow runs.
        cost.add("retransmission timers (tcp.min_rto)", duration_ns / flow["tcp"]["min_rto_ns"])
        if flow["app"]["kind"] == "on_off":
            on_intervals += len(flow["app"]["on_ns"])
    if on_intervals:
        cost.add("ON/OFF switches (flows[*].schedule, flows[*].on)", EVENTS_PER_ON_INTERVAL * on_intervals)
    for index, link in enumerate(engine["links"]):
        for direction in ("ab", "ba"):
            for model in link[direction]["loss"]:
                means = [model.get(k) for k in ("good_mean_ns", "bad_mean_ns", "good_sojourn_ns", "bad_sojourn_ns")]
                means = [m for m in means if m is not None]
                if means:
                    cost.add(f"loss-model state changes (links[{index}].loss sojourns)", 2 * duration_ns / sum(means))
    trace = engine["trace"]
    flows, channels = len(tcp), 2 * len(engine["links"])
    series = flows + len(web)  # throughput bins: one series per flow and per web generator
    rows: dict[str, float] = {}
    if trace["interval_ns"] > 0 and (trace["cwnd"] or trace["queue"]):
        samples = duration_ns / trace["interval_ns"]
        rows["cwnd"] = samples * flows if trace["cwnd"] else 0.0
        rows["queue"] = samples * channels if trace["queue"] else 0.0
        # A sample is one event that writes a row per flow and channel: count the rows as work.
        cost.add("trace samples (trace.interval)", samples + rows["cwnd"] + rows["queue"])
    else:
        rows["cwnd"] = acks if trace["cwnd"] else 0.0
        rows["queue"] = 2 * sum(packets_on.values()) if trace["queue"] else 0.0
    rows["rtt"] = acks if trace["rtt"] else 0.0
    rows["throughput"] = (
        math.ceil(duration_ns / trace["throughput_bin_ns"]) * series if trace["throughput_bin_ns"] else 0.0
    )
    cost.trace_rows = sum(rows.values())
    smallest = min((flow.ack_bytes or flow.wire_bytes for flow in [*tcp, *web_flows, *udp]), default=1)
    in_network = sum(_bytes_held(engine, channel, smallest) for channel in range(channels)) / smallest
    # Web connections open at once (Little's law): arrival rate × a transfer's time, about four
    # round trips of slow start plus its bytes at the path's narrowest rate, at most all of them.
    open_connections = sum(
        min(
            g.transfers,
            g.transfers / max(g.flows[0].active_s, 1e-9) * (4 * g.rtt_s + 8 * g.mean_bytes / g.bottleneck_bps),
        )
        for g in web
    )
    rd_counter_slots = sum(
        engine["links"][channel // 2]["ab" if channel % 2 == 0 else "ba"]["queue"].get("counter_slots", 0)
        for channel in range(channels)
    )
    cost.memory_bytes = (
        RD_COUNTERS_PER_QUEUE * BYTES_PER_COUNTER_SLOT * rd_counter_slots
        + (flows + open_connections) * BYTES_PER_TCP_FLOW
        + cost.transfers * BYTES_PER_TRANSFER
        + on_intervals * BYTES_PER_ON_INTERVAL
        + min(in_network, sum(packets_on.values())) * BYTES_PER_PACKET
        + TRACE_COPIES * sum(TRACE_ROW_BYTES[kind] * count for kind, count in rows.items())
    )
    return cost


def _arrivals_bound(arrivals: Mapping[str, Any], active_s: float, clients: int) -> float:
    """Transfers a generator may start in ``active_s``: rate × time for Poisson arrivals; for
    Pareto gaps, as many as the shortest gap (the scale, mean·(shape − 1)/shape) allows, since
    with a shape near 1 almost every gap is close to it and the run's count is far above
    rate × time (at shape 1.0000001, 10^7 times); barrier rounds: one per client each round."""
    if arrivals["process"] == "barrier":
        return float(arrivals["rounds"] * clients)
    expected = arrivals["rate_per_s"] * active_s
    if arrivals["process"] == "pareto":
        return expected * arrivals["shape"] / (arrivals["shape"] - 1)
    return expected


def _bytes_held(engine: Mapping[str, Any], channel: int, packet_bytes: int) -> float:
    """Bytes of `packet_bytes` packets a channel holds at once: its queue, the one on the wire
    and what propagates (rate · delay)."""
    link = engine["links"][channel // 2]
    queue = link["ab" if channel % 2 == 0 else "ba"]["queue"]
    packets, queued = queue["limit_packets"], queue.get("limit_bytes")  # at least one is set (CoDel: packets only)
    if packets is not None:
        queued = packets * packet_bytes if queued is None else min(packets * packet_bytes, queued)
    return queued + packet_bytes + link["rate_bps"] * link["delay_ns"] / (8 * NS_PER_S)


def _amount(value: float) -> str:
    return f"{value:.3g}" if value < 1e6 else f"{value:.2e}"


def _size(value: float) -> str:
    for unit, factor in (("TiB", 2**40), ("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if value >= factor:
            return f"{value / factor:.3g} {unit}"
    return f"{value:.0f} B"


def _override(knob: str) -> str:
    return f"raise {knob} in the scenario, or run anyway with --force (force=True in tcpsim.run)"


def check_flow_expansion(scenario: Scenario) -> None:
    """Raise :class:`RunTooLarge` when what the [[flows]] entries expand into, the replicas of
    their `count` and the ON intervals of their `schedule`, is beyond limits.max_memory or
    limits.max_events, before it is built: expanding two million flows, or a schedule that
    switches thousands of replicas thousands of times, takes minutes and gigabytes, to refuse
    them in the end."""
    limits = scenario.limits
    flows = sum(flow.count for flow in scenario.flows)
    if flows * BYTES_PER_TCP_FLOW > limits.max_memory_bytes:
        raise RunTooLarge(
            [
                (
                    "limits.max_memory",
                    f"{flows} flows (the flows' counts) need about {_size(flows * BYTES_PER_TCP_FLOW)} of memory "
                    f"before any packet, more than the limit of {_size(limits.max_memory_bytes)}; "
                    f"{_override('limits.max_memory')}",
                )
            ]
        )
    scheduled = [
        (index, on_interval_count(flow.schedule, flow.count))
        for index, flow in enumerate(scenario.flows)
        if flow.schedule is not None
    ]
    intervals = sum(count for _, count in scheduled)
    if not intervals:
        return
    index, largest = max(scheduled, key=lambda entry: entry[1])
    which = f"flows[{index}].schedule turns replicas on {largest} times" + (
        f" ({intervals} for all schedules)" if largest != intervals else ""
    )
    problems = []
    if intervals * BYTES_PER_ON_INTERVAL > limits.max_memory_bytes:
        problems.append(
            (
                "limits.max_memory",
                f"{which}; its ON intervals need about {_size(intervals * BYTES_PER_ON_INTERVAL)} of memory before any "
                f"packet, more than the limit of {_size(limits.max_memory_bytes)}; use fewer steps or replicas, "
                f"{_override('limits.max_memory')}",
            )
        )
    if intervals * EVENTS_PER_ON_INTERVAL > limits.max_events:
        problems.append(
            (
                "limits.max_events",
                f"{which}; switching them on and off alone is {_amount(intervals * EVENTS_PER_ON_INTERVAL)} events, "
                f"more than the limit of {_amount(limits.max_events)}; use fewer steps or replicas, "
                f"{_override('limits.max_events')}",
            )
        )
    if problems:
        raise RunTooLarge(problems)


def check_limits(scenario: Scenario, cost: Cost) -> None:
    """Raise :class:`RunTooLarge` if `cost` exceeds any of the scenario's limits."""
    limits = scenario.limits
    problems = []
    if cost.events > limits.max_events:
        driver = max(cost.drivers, key=cost.drivers.__getitem__)
        problems.append(
            (
                "limits.max_events",
                f"this run needs about {_amount(cost.events)} events, more than the limit of {_amount(limits.max_events)}; "
                f"most ({_amount(cost.drivers[driver])}) are {driver}; shorten the run or change what drives it, "
                f"{_override('limits.max_events')}",
            )
        )
    if cost.trace_rows > limits.max_trace_rows:
        problems.append(
            (
                "limits.max_trace_rows",
                f"the traces would have about {_amount(cost.trace_rows)} rows, more than the limit of "
                f"{_amount(limits.max_trace_rows)}; use a coarser trace.interval or trace.throughput_bin, trace fewer series, "
                f"{_override('limits.max_trace_rows')}",
            )
        )
    if cost.memory_bytes > limits.max_memory_bytes:
        problems.append(
            (
                "limits.max_memory",
                f"this run needs about {_size(cost.memory_bytes)} of memory, more than the limit of "
                f"{_size(limits.max_memory_bytes)} (flows: {len(scenario.flow_table())}, "
                + (f"web transfers: {_amount(cost.transfers)}, " if cost.transfers else "")
                + f"trace rows: {_amount(cost.trace_rows)}); "
                f"{_override('limits.max_memory')}",
            )
        )
    if problems:
        raise RunTooLarge(problems)


def run_warnings(scenario: Scenario, engine: Mapping[str, Any]) -> list[tuple[str, str]]:
    """(path, message) for what the engine runs but what makes its numbers meaningless: a
    measurement window shorter than a few round trips, an initial window far beyond what the
    path holds, ECN on a flow whose path has no queue that marks. `engine` is `scenario`'s
    canonical form."""
    tcp, udp, _ = _flows(engine)
    found = []
    rtts = [_rtt_s(engine, flow.path, flow.wire_bytes, flow.ack_bytes) for flow in [*tcp, *udp]]
    window_ns = engine["duration_ns"] - engine["warmup_ns"]
    if rtts and window_ns < MIN_WINDOW_RTTS * max(rtts) * NS_PER_S:
        where = "warmup" if engine["warmup_ns"] else "duration"
        found.append(
            (
                where,
                f"the measurement window (duration − warmup = {format_duration(window_ns)}) is shorter than "
                f"{MIN_WINDOW_RTTS} round trips of the longest path ({MIN_WINDOW_RTTS} × {max(rtts) * 1e3:.3g} ms); "
                f"rates measured over it are dominated by start-up and border effects",
            )
        )
    seen = set()
    instances = None  # the user's [[flows]] entry of each engine flow, found only if needed
    for index, (flow, engine_flow) in enumerate(zip(tcp, engine["flows"])):
        settings = engine_flow["tcp"]
        burst = min(settings["init_cwnd_segments"] * settings["mss_bytes"], settings["rwnd_bytes"])
        holds = sum(_bytes_held(engine, channel, flow.wire_bytes) for channel in flow.path)
        if burst > INIT_WINDOW_EXCESS * holds:
            instances = instances or flow_instances(scenario)
            instance = instances[index]
            where = format_path(tcp_origin(scenario, instance.position, "init_cwnd_segments"))
            if where in seen:
                continue
            seen.add(where)
            found.append(
                (
                    where,
                    f"an initial window of {settings['init_cwnd_segments']} segments sends {_size(burst)} at once, more than "
                    f"{INIT_WINDOW_EXCESS}× what the path of flow {instance.name!r} holds ({_size(holds)}: queues and "
                    f"links); the burst is mostly dropped, and goodput counts it as sent",
                )
            )
    found += _ecn_without_marking_queue(scenario, engine, tcp)
    return found


def _ecn_without_marking_queue(
    scenario: Scenario, engine: Mapping[str, Any], tcp: Sequence[_Flow]
) -> list[tuple[str, str]]:
    """A flow with ECN whose data path has no queue that marks (e.g. RED with ecn = true): it runs,
    but its ECN never acts. One warning per place `ecn` was written."""
    found: dict[str, str] = {}
    instances = None
    for index, (flow, engine_flow) in enumerate(zip(tcp, engine["flows"])):
        if not engine_flow["tcp"]["ecn"]:
            continue
        queues = [engine["links"][c // 2]["ab" if c % 2 == 0 else "ba"]["queue"] for c in flow.path]
        if any(queue_model(queue["kind"]).marks_ecn(queue) for queue in queues):
            continue
        instances = instances or flow_instances(scenario)
        instance = instances[index]
        where = format_path(tcp_origin(scenario, instance.position, "ecn"))
        found.setdefault(
            where,
            f"flow {instance.name!r} uses ECN but no queue on its path marks packets (such "
            f'as {{kind = "red", ecn = true}}); its congestion signals stay losses, as without ECN',
        )
    return list(found.items())
