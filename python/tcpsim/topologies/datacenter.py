"""Data-centre fabrics with many equal-cost paths: the k-ary fat tree (Al-Fares, Loukissas &
Vahdat, "A Scalable, Commodity Data Center Network Architecture", SIGCOMM 2008, Sec. 3) and the
two-tier leaf–spine (folded Clos) network. Their routers offer several shortest paths between
most hosts, which `[network] routing = "ecmp"` (the generators' default) spreads flows over."""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from tcpsim.topologies.common import link
from tcpsim.topologies.generated import GeneratedScenario

LINK_DELAY_S = 10e-6
"""One-way propagation delay of every link by default: 10 µs, so that a path across a k-ary
fat tree's core (6 links) has a base round trip of 120 µs, the order of the ~100 µs that
Alizadeh et al. (DCTCP, SIGCOMM 2010, Sec. 2) measured inside a rack's switch. Al-Fares et al.
give no delays."""


def fat_tree(
    *,
    k: int = 4,
    host_rate: str = "10Gbps",
    fabric_rate: str | None = None,
    core_rate: str | None = None,
    host_delay_s: float = LINK_DELAY_S,
    fabric_delay_s: float = LINK_DELAY_S,
    core_delay_s: float = LINK_DELAY_S,
    queue: str | Mapping[str, Any] = "100pkt",
    shared_buffer: str | Mapping[str, Any] | None = None,
    flows: int | Sequence[tuple[str, str]] = 0,
    variant: str = "newreno",
    pairs_seed: int = 0,
    routing: str = "ecmp",
    ecmp: str = "flow_hash",
    mss_bytes: int = 1460,
    header_bytes: int = 40,
    duration: str = "1s",
    warmup: str = "0s",
    start_jitter: str = "1ms",
    tcp: dict[str, Any] | None = None,
) -> GeneratedScenario:
    """The k-ary fat tree of Al-Fares et al. (Sec. 3.2): k pods of k/2 edge and k/2
    aggregation switches, (k/2)² core switches and k³/4 hosts::

        core_0 … core_<(k/2)²-1>         core j joins aggregation switch j // (k/2) of every pod
           │ (core_rate)
        agg_p<p>_<a>                     each joins every edge switch of its pod
           │ (fabric_rate)
        edge_p<p>_<e>                    each serves k/2 hosts
           │ (host_rate)
        h_p<p>_e<e>_<i>

    Hosts under one edge switch are 2 links apart, under one pod 4, in different pods 6, with
    k/2 shortest paths within a pod and (k/2)² between pods. Rates default to `host_rate` on
    every link (the paper's full bisection bandwidth); delays to 10 µs per link. `queue` (any
    queue spec) is every link direction's. `shared_buffer` makes every switch's output queues
    share one buffer: a size ("4MB") or a table {size, alpha} (`[[network.shared_buffers]]`),
    beside each queue's own limit. Link order is hosts' links, then edge–aggregation,
    then aggregation–core, pod by pod: with routing = "shortest" ties go to the first.

    `flows` is a number of long-lived flows between host pairs drawn uniformly (source ≠
    destination) with a numpy generator seeded with `pairs_seed` (independent of the run seed),
    or the (source, destination) host names; flows are named f<i>, of `variant`, starting
    within `start_jitter`.
    """
    if isinstance(k, bool) or not isinstance(k, int) or k < 2 or k % 2:
        raise ValueError(f"k: {k!r} must be an even whole number >= 2 (switches have k ports)")
    half = k // 2
    fabric = fabric_rate or host_rate
    core = core_rate or fabric
    links, hosts = [], []
    for p in range(k):
        for e in range(half):
            for i in range(half):
                host = f"h_p{p}_e{e}_{i}"
                hosts.append(host)
                links.append(_link(host, f"edge_p{p}_{e}", host_rate, host_delay_s, queue))
    for p in range(k):
        for e in range(half):
            for a in range(half):
                links.append(_link(f"edge_p{p}_{e}", f"agg_p{p}_{a}", fabric, fabric_delay_s, queue))
    for p in range(k):
        for a in range(half):
            for j in range(half):
                links.append(_link(f"agg_p{p}_{a}", f"core_{a * half + j}", core, core_delay_s, queue))
    name = f"fat tree k={k}, {len(hosts)} hosts"
    run = {"duration": duration, "warmup": warmup, "start_jitter": start_jitter}
    tcp_table = {"mss": mss_bytes, "header": header_bytes, **(tcp or {})}
    network = _network(routing, ecmp, links, hosts, shared_buffer)
    return _scenario(name, links, hosts, flows, variant, pairs_seed, network, run, tcp_table)


def leaf_spine(
    *,
    leaves: int = 4,
    spines: int = 2,
    hosts_per_leaf: int = 4,
    host_rate: str = "10Gbps",
    fabric_rate: str = "40Gbps",
    host_delay_s: float = LINK_DELAY_S,
    fabric_delay_s: float = LINK_DELAY_S,
    queue: str | Mapping[str, Any] = "100pkt",
    shared_buffer: str | Mapping[str, Any] | None = None,
    flows: int | Sequence[tuple[str, str]] = 0,
    variant: str = "newreno",
    pairs_seed: int = 0,
    routing: str = "ecmp",
    ecmp: str = "flow_hash",
    mss_bytes: int = 1460,
    header_bytes: int = 40,
    duration: str = "1s",
    warmup: str = "0s",
    start_jitter: str = "1ms",
    tcp: dict[str, Any] | None = None,
) -> GeneratedScenario:
    """A two-tier leaf–spine network: every leaf switch joined to every spine switch::

        spine_0 … spine_<spines-1>
           │ (fabric_rate, every leaf to every spine)
        leaf_0 … leaf_<leaves-1>
           │ (host_rate)
        h_l<l>_<i>                        hosts_per_leaf hosts under each leaf

    Hosts under one leaf are 2 links apart, under different leaves 4, over `spines` shortest
    paths. Link order is hosts' links, then leaf–spine, leaf by leaf. `queue`, `shared_buffer`,
    `flows` and the rest are as in :func:`fat_tree`.
    """
    for field, value in (("leaves", leaves), ("spines", spines), ("hosts_per_leaf", hosts_per_leaf)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{field}: {value!r} must be a whole number >= 1")
    links, hosts = [], []
    for leaf in range(leaves):
        for i in range(hosts_per_leaf):
            host = f"h_l{leaf}_{i}"
            hosts.append(host)
            links.append(_link(host, f"leaf_{leaf}", host_rate, host_delay_s, queue))
    for leaf in range(leaves):
        for spine in range(spines):
            links.append(_link(f"leaf_{leaf}", f"spine_{spine}", fabric_rate, fabric_delay_s, queue))
    name = f"leaf-spine {leaves}x{spines}, {len(hosts)} hosts"
    run = {"duration": duration, "warmup": warmup, "start_jitter": start_jitter}
    tcp_table = {"mss": mss_bytes, "header": header_bytes, **(tcp or {})}
    network = _network(routing, ecmp, links, hosts, shared_buffer)
    return _scenario(name, links, hosts, flows, variant, pairs_seed, network, run, tcp_table)


def _network(
    routing: str,
    ecmp: str,
    links: Sequence[Mapping[str, Any]],
    hosts: Sequence[str],
    shared_buffer: str | Mapping[str, Any] | None,
) -> dict[str, Any]:
    """The `[network]` table: routing, and a shared buffer at every switch (every node that is
    not a host) if `shared_buffer` is given."""
    # The default selection is left out, so that `--set network.routing=shortest` alone works.
    network: dict[str, Any] = {"routing": routing}
    if routing == "ecmp" and ecmp != "flow_hash":
        network["ecmp"] = ecmp
    if shared_buffer is not None:
        entry = {"size": shared_buffer} if isinstance(shared_buffer, str) else dict(shared_buffer)
        host_set = set(hosts)
        switches = dict.fromkeys(end for link in links for end in (link["a"], link["b"]) if end not in host_set)
        network["shared_buffers"] = [{"node": switch, **entry} for switch in switches]
    return network


def _link(a: str, b: str, rate: str, delay_s: float, queue: str | Mapping[str, Any]) -> dict[str, Any]:
    return link(f"{a}-{b}", a, b, rate, delay_s, copy.deepcopy(queue))


def host_pairs(hosts: Sequence[str], count: int, seed: int) -> list[tuple[str, str]]:
    """`count` (source, destination) pairs of distinct hosts, each drawn uniformly with a numpy
    generator seeded with `seed`."""
    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        raise ValueError(f"flows: {count!r} must be a whole number >= 0 or a list of (source, destination)")
    if count and len(hosts) < 2:
        raise ValueError(f"flows: {count} flows need at least two hosts")
    rng = np.random.default_rng(seed)
    pairs = []
    for _ in range(count):
        src, dst = rng.choice(len(hosts), size=2, replace=False)
        pairs.append((hosts[src], hosts[dst]))
    return pairs


def _scenario(
    name: str,
    links: list[dict[str, Any]],
    hosts: list[str],
    flows: int | Sequence[tuple[str, str]],
    variant: str,
    pairs_seed: int,
    network: Mapping[str, Any],
    run: Mapping[str, str],
    tcp: Mapping[str, Any],
) -> GeneratedScenario:
    """The scenario of `links` with long-lived flows between `hosts` (`flows` as in
    :func:`fat_tree`); `run` holds duration, warm-up and start jitter."""
    pairs = host_pairs(hosts, flows, pairs_seed) if isinstance(flows, int) else list(flows)
    known = set(hosts)
    for i, (src, dst) in enumerate(pairs):
        for end in (src, dst):
            if end not in known:
                raise ValueError(f"flows[{i}]: {end!r} is not a host; hosts are named like {hosts[0]!r}")
    return GeneratedScenario(
        {
            "name": name,
            "duration": run["duration"],
            "warmup": run["warmup"],
            "tcp": dict(tcp),
            "network": dict(network),
            "links": links,
            "flows": [
                {
                    "name": f"f{i}",
                    "src": src,
                    "dst": dst,
                    "variant": variant,
                    "start": "0s",
                    "start_jitter": run["start_jitter"],
                }
                for i, (src, dst) in enumerate(pairs)
            ],
        }
    )
