"""The data-centre generators (fat tree, leaf–spine): their shape, that every route is a
shortest path with the paper's hop counts and multiplicities, and that ECMP spreads flows over
the core."""

from __future__ import annotations

import math
import re
from collections import Counter, deque

import pytest
import tcpsim
from tcpsim.routing import Routes
from tcpsim.scenario import load_scenario
from tcpsim.topologies import dumbbell, fat_tree, leaf_spine


def graph(scenario: dict) -> dict[str, list[str]]:
    adjacent: dict[str, list[str]] = {}
    for link in scenario["links"]:
        adjacent.setdefault(link["a"], []).append(link["b"])
        adjacent.setdefault(link["b"], []).append(link["a"])
    return adjacent


def shortest_paths_from(adjacent: dict[str, list[str]], src: str) -> tuple[dict[str, int], dict[str, int]]:
    """Hops from `src` to every node, and how many shortest paths reach it."""
    hops, paths, frontier = {src: 0}, {src: 1}, deque([src])
    while frontier:
        node = frontier.popleft()
        for neighbour in adjacent[node]:
            if neighbour not in hops:
                hops[neighbour], paths[neighbour] = hops[node] + 1, 0
                frontier.append(neighbour)
            if hops[neighbour] == hops[node] + 1:
                paths[neighbour] += paths[node]
    return hops, paths


def place(host: str) -> tuple[str, str]:
    """(pod, edge switch) of a fat tree's host `h_p<p>_e<e>_<i>`."""
    _, pod, edge, _ = host.split("_")
    return pod, edge


@pytest.mark.parametrize("k", [2, 4, 6])
def test_the_fat_tree_has_al_fares_switch_host_and_link_counts(k):
    scenario = fat_tree(k=k)
    nodes = Counter(node.split("_")[0] for node in graph(scenario))
    assert nodes == {"h": k**3 // 4, "edge": k * k // 2, "agg": k * k // 2, "core": k * k // 4}
    assert len(scenario["links"]) == 3 * k**3 // 4  # hosts, edge–agg and agg–core: k³/4 each
    assert all(len(neighbours) == k for node, neighbours in graph(scenario).items() if not node.startswith("h_"))
    load_scenario(scenario)


def test_every_k4_fat_tree_route_is_shortest_with_the_papers_hop_counts_and_path_counts():
    # Al-Fares Sec. 3.2: hosts 2 links apart under one edge switch, 4 within a pod, 6 across
    # pods; k/2 = 2 shortest paths within a pod and (k/2)² = 4 between pods. The engine's
    # one route per destination (routing = "shortest", mirrored by tcpsim.routing) is one of
    # them; with ECMP a router offers every next hop on one (the engine's tests check that on
    # random graphs), so ECMP offers all the paths counted here.
    scenario = fat_tree(k=4, routing="shortest")
    adjacent = graph(scenario)
    rows = [
        {"link": i, "direction": "ab", "src": link["a"], "dst": link["b"]} for i, link in enumerate(scenario["links"])
    ]
    routes = Routes(rows)
    hosts = [node for node in adjacent if node.startswith("h_")]
    seen = Counter()
    for src in hosts:
        hops, paths = shortest_paths_from(adjacent, src)
        for dst in hosts:
            if dst == src:
                continue
            (pod, edge), (dst_pod, dst_edge) = place(src), place(dst)
            expected = (2, 1) if (pod, edge) == (dst_pod, dst_edge) else (4, 2) if pod == dst_pod else (6, 4)
            assert (hops[dst], paths[dst]) == expected, (src, dst)
            assert len(routes.path(src, dst)) == hops[dst], (src, dst)
            seen[expected] += 1
    assert seen == {(2, 1): 16, (4, 2): 32, (6, 4): 192}


def test_the_leaf_spine_offers_one_path_per_spine_between_leaves():
    scenario = leaf_spine(leaves=3, spines=4, hosts_per_leaf=2)
    adjacent = graph(scenario)
    hops, paths = shortest_paths_from(adjacent, "h_l0_0")
    assert (hops["h_l0_1"], paths["h_l0_1"]) == (2, 1)
    assert (hops["h_l2_1"], paths["h_l2_1"]) == (4, 4)
    assert len(scenario["links"]) == 3 * 2 + 3 * 4


def test_ecmp_spreads_flows_over_the_core_switches_and_links_as_a_uniform_choice_would():
    # Every ordered pair of hosts in different pods of a k = 4 fat tree, 100 UDP flows each
    # (19 200 flows), each sending the same few datagrams: per flow, the edge switch hashes it
    # to one of 2 aggregation switches and that one to one of 2 core switches. Were each choice
    # uniform and independent, a core switch would carry Binomial(n, 1/4) flows and each of the
    # 16 aggregation→core directions (4 per pod, 4800 flows per source pod) Binomial(4800,
    # 1/4). Tolerance, fixed before any run: 4 standard deviations of those counts (a correct
    # hash fails it about once in 16 000 seeds per count), which for these sizes is 5.0 % of
    # the mean per core switch and 10 % per link direction: "a few percent".
    # Buffers large enough to drop nothing, so every datagram crosses its core switch.
    scenario = fat_tree(k=4, host_rate="10Gbps", queue="100000pkt", duration="50ms")
    hosts = [node for node in graph(scenario) if node.startswith("h_")]
    pairs = [(a, b) for a in hosts for b in hosts if place(a)[0] != place(b)[0]]
    scenario["udp"] = [
        {"src": a, "dst": b, "rate": "8Mbps", "packet": 1000, "on": [["0s", "2ms"]]}
        for a, b in pairs
        for _ in range(100)
    ]
    result = tcpsim.run(scenario, seed=1, force=True)
    sent = set(result.udp["packets_sent"])
    assert len(sent) == 1 and result.udp["packets_received"].sum() == result.udp["packets_sent"].sum()
    per_flow = sent.pop()
    links = result.links
    into_core = links[links["dst"].str.startswith("core_")]
    flows = len(pairs) * 100
    per_core = into_core.groupby("dst")["tx_packets"].sum() / per_flow
    assert len(per_core) == 4 and per_core.sum() == flows
    sd = math.sqrt(flows * 0.25 * 0.75)
    assert (abs(per_core - flows / 4) <= 4 * sd).all(), per_core.to_dict()
    per_link = into_core["tx_packets"] / per_flow
    link_flows = flows / 4  # from each pod
    assert len(per_link) == 16 and (abs(per_link - link_flows / 4) <= 4 * math.sqrt(link_flows * 0.25 * 0.75)).all()


def test_shortest_routing_sends_every_flow_through_one_core_switch():
    scenario = fat_tree(k=4, host_rate="1Gbps", duration="3ms", routing="shortest")
    hosts = [node for node in graph(scenario) if node.startswith("h_")]
    scenario["udp"] = [
        {"src": a, "dst": b, "rate": "8Mbps", "packet": 1000, "on": [["0s", "2ms"]]}
        for a in hosts
        for b in hosts
        if place(a)[0] != place(b)[0]
    ]
    links = tcpsim.run(scenario, seed=1, force=True).links
    used = links[links["dst"].str.startswith("core_") & (links["tx_packets"] > 0)]
    assert set(used["dst"]) == {"core_0"}


def test_ecmp_on_a_dumbbell_changes_nothing():
    # No router of a dumbbell has a choice: ECMP routes as before, with the same events.
    scenario = dumbbell(forward=3, reverse=1, duration="2s")
    plain = tcpsim.run(scenario, seed=3, force=True)
    for select in ("flow_hash", "packet_spray"):
        ecmp = tcpsim.run({**scenario, "network": {"routing": "ecmp", "ecmp": select}}, seed=3, force=True)
        assert ecmp.flows.equals(plain.flows) and ecmp.links.equals(plain.links)
        assert ecmp.meta["events"] == plain.meta["events"]


def test_spraying_a_fat_trees_flows_runs_and_conserves_packets():
    scenario = fat_tree(k=4, flows=8, host_rate="1Gbps", duration="20ms", ecmp="packet_spray")
    result = tcpsim.run(scenario, seed=2, force=True)
    assert (result.flows["bytes_delivered"] > 0).all()


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"k": 3}, "k: 3 must be an even whole number"),
        ({"k": 4, "flows": [("h_p0_e0_0", "nobody")]}, "flows[0]: 'nobody' is not a host"),
        ({"k": 4, "flows": -1}, "flows: -1 must be a whole number"),
    ],
)
def test_bad_fat_tree_arguments_are_refused(arguments, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        fat_tree(**arguments)


def test_routing_options_are_checked_by_the_scenario():
    with pytest.raises(tcpsim.ScenarioError, match="network.ecmp: 'packet_spray' needs routing"):
        load_scenario({**fat_tree(k=2, routing="shortest"), "network": {"ecmp": "packet_spray"}})
    with pytest.raises(tcpsim.ScenarioError, match="network.routing: 'ospf' is not a routing mode"):
        load_scenario({**fat_tree(k=2), "network": {"routing": "ospf"}})


def test_the_bundled_fat_tree_is_the_generators():
    from tcpsim.paths import builtin_scenario

    generated = fat_tree(
        k=4, flows=16, host_rate="1Gbps", duration="2s", warmup="0.5s", tcp={"min_rto": "200ms", "init_cwnd": 10}
    )
    assert load_scenario(builtin_scenario("fat_tree_k4")).to_engine() == load_scenario(generated).to_engine()


def test_incast_is_the_dctcp_papers_basic_incast_by_default():
    from tcpsim.topologies import incast

    scenario = incast(senders=4)
    engine = load_scenario(dict(scenario)).to_engine()
    (port,) = [link for link in engine["links"] if link["name"] == "port"]
    assert port["rate_bps"] == 10**9 and port["delay_ns"] == 25_000
    assert port["ab"]["queue"]["limit_packets"] == 100
    (web,) = engine["web"]
    assert web["sizes"] == {"dist": "fixed", "bytes": 250_000}  # 1 MB over four workers
    assert web["arrivals"]["rounds"] == 10 and len(web["clients"]) == 4
    from tcpsim.toml_input import parse_toml

    assert load_scenario(parse_toml(scenario.to_toml())).to_engine() == engine
    with pytest.raises(ValueError, match="senders: 0 must be a whole number >= 1"):
        incast(senders=0)
