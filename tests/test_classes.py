"""Flow classes and the per-class metrics: Jain's index, the class table, `podlesny`'s relative
fairness index and the per-class throughput series, against values worked by hand."""

from __future__ import annotations

import json
import math

import pandas as pd
import pytest
import tcpsim
from tcpsim.cli import app
from tcpsim.metrics import class_rows, class_throughput, jain, reference_link, relative_fairness
from tcpsim.result import RunResult
from tcpsim.scenario import load_scenario
from typer.testing import CliRunner

LINKS = [
    {"name": "bottleneck", "direction": "ab", "rate_bps": 10e6, "utilization": 0.9},
    {"name": "bottleneck", "direction": "ba", "rate_bps": 10e6, "utilization": 0.1},
    {"name": "access", "direction": "ab", "rate_bps": 100e6, "utilization": 0.2},
    {"name": "access", "direction": "ba", "rate_bps": 100e6, "utilization": 0.3},
]


def flow(name: str, variant: str, throughput_bps: float, sent: int | None = None, dropped: int | None = None, **extra):
    row = {"name": name, "variant": variant, "throughput_bps": throughput_bps, **extra}
    if sent is not None:
        row |= {"packets_sent": sent, "packets_dropped": dropped}
    return row


def test_jain_index_by_hand():
    assert jain([2.0, 2.0, 2.0, 2.0]) == 1.0
    assert jain([1.0, 0.0, 0.0, 0.0]) == 0.25  # one takes all: 1/n
    assert jain([1.0, 2.0, 3.0]) == pytest.approx(36 / 42)  # 6² / (3 · 14)
    assert jain([1.0, float("nan"), 1.0]) == 1.0
    assert math.isnan(jain([])) and math.isnan(jain([0.0, 0.0]))
    with pytest.raises(ValueError, match="non-negative"):
        jain([1.0, -1.0])


def test_the_class_table_aggregates_each_class_by_hand():
    flows = [
        flow("n0", "newreno", 4e6, sent=1000, dropped=30),
        flow("n1", "newreno", 2e6, sent=500, dropped=20),
        flow("v0", "vegas", 1e6, sent=300, dropped=0, **{"class": "delay"}),
        flow("v1", "vegas", 1e6, sent=200, dropped=3, **{"class": "delay"}),
    ]
    web = [{"name": "web-vegas", "class": "delay", "throughput_bps": 1e6, "packets_sent": 100, "packets_dropped": 2}]
    rows = {row["class"]: row for row in class_rows(flows, LINKS, web)}
    assert list(rows) == ["newreno", "delay"]
    newreno, delay = rows["newreno"], rows["delay"]
    assert (newreno["flows"], newreno["throughput_bps"], newreno["per_flow_bps"]) == (2, 6e6, 3e6)
    assert (delay["flows"], delay["throughput_bps"], delay["per_flow_bps"]) == (3, 3e6, 1e6)
    assert newreno["share"] == pytest.approx(6 / 9) and delay["share"] == pytest.approx(3 / 9)
    assert newreno["utilization"] == pytest.approx(0.6)  # of the busiest direction: bottleneck ab, 10 Mb/s
    assert newreno["jain"] == pytest.approx(36 / (2 * 20))  # (4 + 2)² / (2 · (16 + 4))
    assert delay["jain"] == 1.0
    assert newreno["loss_rate"] == pytest.approx(50 / 1500)
    assert (delay["packets_sent"], delay["packets_dropped"], delay["loss_rate"]) == (600, 5, pytest.approx(5 / 600))


def test_utilization_is_relative_to_the_chosen_link_and_loss_needs_the_counts():
    flows = [flow("a", "newreno", 30e6), flow("b", "newreno", 10e6, sent=10, dropped=1)]
    (row,) = class_rows(flows, LINKS, link="access")
    assert row["utilization"] == pytest.approx(0.4)  # 40 Mb/s of access's 100 Mb/s
    assert math.isnan(row["loss_rate"]) and math.isnan(row["packets_sent"])  # flow a has no counts
    assert reference_link(LINKS)["name"] == "bottleneck"
    assert reference_link(LINKS, "access")["direction"] == "ba"  # the busier of its directions
    with pytest.raises(ValueError, match="'nope' is not a link of this run; links: bottleneck, access"):
        class_rows(flows, LINKS, link="nope")


def test_relative_fairness_is_podlesny_per_flow_utilization_ratio():
    """podlesny Sec. IV-C: 300 NewReno flows at 74 % and 100 Vegas at 24 % of the link give an
    index of 0.24 / (0.74 / 3) = 0.97."""
    flows = [flow(f"n{i}", "newreno", 74e6 / 300) for i in range(300)] + [
        flow(f"v{i}", "vegas", 24e6 / 100) for i in range(100)
    ]
    link = [{"name": "bottleneck", "direction": "ab", "rate_bps": 100e6, "utilization": 0.98}]
    rows = class_rows(flows, link)
    assert [row["utilization"] for row in rows] == [pytest.approx(0.74), pytest.approx(0.24)]
    assert relative_fairness(rows, "vegas", "newreno") == pytest.approx(0.24 * 3 / 0.74)
    assert round(relative_fairness(pd.DataFrame(rows), "vegas", "newreno"), 2) == 0.97
    assert relative_fairness(rows, "newreno", "vegas") == pytest.approx(0.74 / (3 * 0.24))
    with pytest.raises(ValueError, match="class 'reno' is not in the table; classes: newreno, vegas"):
        relative_fairness(rows, "reno", "vegas")


def test_class_throughput_sums_each_class_per_bin():
    bins = pd.DataFrame(
        {
            "time_s": [0.0, 0.2, 0.0, 0.2, 0.0, 0.2],
            "flow": [0, 0, 1, 1, 2, 2],
            "flow_name": ["v0", "v0", "n0", "n0", "v1", "v1"],
            "bytes": [1, 2, 3, 4, 5, 6],
            "throughput_bps": [10.0, 20.0, 30.0, 40.0, 50.0, 60.0],
        }
    )
    series = class_throughput(bins, {"v0": "vegas", "v1": "vegas", "n0": "newreno"})
    assert list(series.columns) == ["time_s", "class", "throughput_bps"]
    assert series.to_dict("records") == [
        {"time_s": 0.0, "class": "vegas", "throughput_bps": 60.0},
        {"time_s": 0.2, "class": "vegas", "throughput_bps": 80.0},
        {"time_s": 0.0, "class": "newreno", "throughput_bps": 30.0},
        {"time_s": 0.2, "class": "newreno", "throughput_bps": 40.0},
    ]


def two_class_scenario(**changes):
    scenario = {
        "duration": "4s",
        "links": [
            {"name": "access", "a": "s", "b": "r", "rate": "100Mbps", "delay": "1ms", "queue": "1000pkt"},
            {"name": "bottleneck", "a": "r", "b": "d", "rate": "5Mbps", "delay": "20ms", "queue": "40pkt"},
        ],
        "flows": [
            {"name": "v", "src": "s", "dst": "d", "variant": "vegas", "count": 2},
            {"name": "n", "src": "s", "dst": "d", "count": 3, "class": "loss-based"},
        ],
        "trace": {"throughput_bin": "1s"},
    }
    return scenario | changes


def test_a_run_labels_flows_and_aggregates_them_by_class():
    r = tcpsim.run(two_class_scenario(), seed=1)
    assert list(r.flows["class"]) == ["vegas", "vegas", "loss-based", "loss-based", "loss-based"]
    assert [row.class_ for row in load_scenario(two_class_scenario()).flow_table()] == list(r.flows["class"])
    classes = r.classes.set_index("class")
    assert list(classes.index) == ["vegas", "loss-based"]
    by_class = r.flows.groupby("class", sort=False)["throughput_bps"]
    assert classes["throughput_bps"].to_dict() == by_class.sum().to_dict()
    assert classes["utilization"].to_dict() == pytest.approx((by_class.sum() / 5e6).to_dict())
    packets = r.flows.groupby("class", sort=False)[["packets_sent", "packets_dropped"]].sum()
    assert (packets["packets_dropped"] > 0).all()  # a 40-packet drop-tail queue
    assert classes["loss_rate"].to_dict() == pytest.approx(
        (packets["packets_dropped"] / packets["packets_sent"]).to_dict()
    )
    series = r.trace("class_throughput")
    bins = r.trace("throughput")
    assert series["throughput_bps"].sum() == pytest.approx(bins["throughput_bps"].sum())
    assert list(dict.fromkeys(series["class"])) == ["vegas", "loss-based"]
    assert (
        json.loads(json.dumps(r.to_json_dict(), allow_nan=False))["classes"]
        == json.loads(json.dumps(tcpsim.run(two_class_scenario(), seed=1).to_json_dict(), allow_nan=False))["classes"]
    )


def test_class_throughput_needs_the_throughput_bins():
    r = tcpsim.run(two_class_scenario(trace={}), seed=1)
    with pytest.raises(KeyError, match="trace.throughput_bin"):
        r.trace("class_throughput")


def test_a_class_label_counts_in_the_hash_only_when_it_is_not_the_default():
    plain = two_class_scenario()
    plain["flows"] = [{key: value for key, value in f.items() if key != "class"} for f in plain["flows"]]
    renamed = two_class_scenario()
    defaulted = json.loads(json.dumps(plain))
    defaulted["flows"][0]["class"] = "vegas"
    assert load_scenario(defaulted).hash() == load_scenario(plain).hash()
    assert load_scenario(renamed).hash() != load_scenario(plain).hash()


def test_a_result_without_class_column_groups_by_variant():
    """Results cached before flows had a class label fall back to the variant."""
    flows = pd.DataFrame([flow("a", "reno", 1e6), flow("b", "vegas", 3e6)])
    r = RunResult(flows=flows, links=pd.DataFrame(LINKS), meta={})
    assert list(r.classes["class"]) == ["reno", "vegas"]
    assert r.to_json_dict()["classes"][1]["per_flow_bps"] == 3e6


def test_the_cli_prints_the_class_table_for_two_classes_or_more(tmp_path):
    import tomli_w

    path = tmp_path / "two.toml"
    path.write_bytes(tomli_w.dumps(two_class_scenario()).encode())
    shown = CliRunner().invoke(app, ["run", str(path)])
    assert shown.exit_code == 0 and "classes" in shown.stdout and "loss-based" in shown.stdout
    one = two_class_scenario(flows=[{"name": "v", "src": "s", "dst": "d", "variant": "vegas"}])
    path.write_bytes(tomli_w.dumps(one).encode())
    alone = CliRunner().invoke(app, ["run", str(path)])
    assert alone.exit_code == 0 and "classes" not in alone.stdout
    as_json = json.loads(CliRunner().invoke(app, ["run", str(path), "--json"]).stdout)
    assert [row["class"] for row in as_json["classes"]] == ["vegas"]


def test_a_bad_class_label_names_the_field():
    with pytest.raises(tcpsim.ScenarioError, match=r"flows\[1\]\.class: '' is not a name"):
        load_scenario(
            two_class_scenario(flows=[*two_class_scenario()["flows"][:1], {"src": "s", "dst": "d", "class": ""}])
        )


# A parking lot by hand: w —0— r0 —1— r1 —2— e, m —3— r1, and a second r0–r1 link (4) that
# ties with link 1 on hop count (the engine takes the lower-numbered one).
LOT = [
    {"name": n, "link": i, "direction": d, "src": s if d == "ab" else t, "dst": t if d == "ab" else s, "rate_bps": 10e6}
    | {"utilization": 0.5}
    for i, (n, s, t) in enumerate(
        [("w-r0", "w", "r0"), ("r0-r1", "r0", "r1"), ("r1-e", "r1", "e"), ("m-r1", "m", "r1"), ("r0-r1b", "r0", "r1")]
    )
    for d in ("ab", "ba")
]


def test_routes_take_fewest_hops_and_the_lower_link_on_ties():
    from tcpsim.routing import Routes

    routes = Routes(LOT)
    assert routes.path("w", "e") == [(0, "ab"), (1, "ab"), (2, "ab")]  # not through link 4
    assert routes.path("e", "w") == [(2, "ba"), (1, "ba"), (0, "ba")]
    assert routes.path("m", "e") == [(3, "ab"), (2, "ab")]
    assert routes.path("w", "w") == [] and routes.path("w", "nowhere") == []


def test_class_utilization_counts_only_members_that_cross_the_link():
    """The issue-27 case: classes whose members cross other links or go the other way made
    utilizations of 1.2 and 6.75. Now each class counts only what crosses r0-r1 forward."""
    flows = [
        flow("long", "newreno", 4e6, src="w", dst="e"),
        flow("cross", "newreno", 5e6, src="m", dst="e"),  # never on r0-r1
        flow("back", "vegas", 6e6, src="e", dst="w"),  # r0-r1 in the other direction
    ]
    web = [{"name": "web", "class": "web", "throughput_bps": 2e6, "server": "w", "clients": ["m", "e"]}]
    table = {row["class"]: row for row in class_rows(flows, LOT, web, link="r0-r1")}
    assert table["newreno"]["utilization"] == pytest.approx(0.4)  # only "long"
    assert table["newreno"]["throughput_bps"] == 9e6 and table["newreno"]["per_flow_bps"] == 4.5e6
    assert table["vegas"]["utilization"] == 0.0
    assert table["web"]["utilization"] == pytest.approx(0.2)
    # Members without known ends (a table read back from CSV) count, as before.
    blind = class_rows([flow("x", "newreno", 4e6), flow("y", "newreno", 5e6)], LOT, link="r0-r1")
    assert blind[0]["utilization"] == pytest.approx(0.9)


def test_a_parking_lots_class_utilizations_add_up_to_at_most_one():
    r = tcpsim.run("scenarios/parking_lot_mix.toml", seed=1, duration="12s")
    for link in ("r0-r1", "r1-r2"):
        table = r.class_table(link=link)
        assert table["utilization"].sum() <= 1.0, (link, table["utilization"].tolist())
        assert (table.set_index("class").loc["reverse", "utilization"]) == 0.0


def test_routes_tell_a_hop_on_every_some_or_no_fewest_hop_path():
    """ECMP may take any fewest-hop path: a hop is crossed for sure, maybe, or never. LOT has
    two parallel links r0-r1 (1) and r0-r1b (4); counted by hand."""
    from tcpsim.routing import Routes

    routes = Routes(LOT)
    assert routes.crossing("w", "e", (0, "ab")) is True  # w's only link
    assert routes.crossing("w", "e", (2, "ab")) is True  # e's only link
    assert routes.crossing("w", "e", (1, "ab")) is None  # one of the two parallel links
    assert routes.crossing("w", "e", (4, "ab")) is None
    assert routes.crossing("w", "e", (1, "ba")) is False  # the other direction
    assert routes.crossing("e", "w", (1, "ba")) is None
    assert routes.crossing("m", "e", (1, "ab")) is False  # m joins r1: r0-r1 is off its path
    assert routes.crossing("m", "e", (3, "ab")) is True
    assert routes.crossing("w", "nowhere", (0, "ab")) is False
    assert routes.crossing("w", "e", (99, "ab")) is False


def _searched_path(links, src, dst):
    """The engine's route by the definition (`net/routing.rs`): a breadth-first search from
    `dst` visiting neighbours in link order, each node taking the link to the one that reached
    it first; no shortcut for hosts."""
    from collections import deque

    adjacent = {}
    for row in sorted((r for r in links if r["direction"] == "ab"), key=lambda r: r["link"]):
        adjacent.setdefault(row["src"], []).append((row["dst"], row["link"], "ba"))
        adjacent.setdefault(row["dst"], []).append((row["src"], row["link"], "ab"))
    hops, seen, frontier = {}, {dst}, deque([dst])
    while frontier:
        node = frontier.popleft()
        for neighbour, link, direction in adjacent.get(node, []):
            if neighbour not in seen:
                seen.add(neighbour)
                hops[neighbour] = (node, link, direction)
                frontier.append(neighbour)
    out, node = [], src
    while node != dst and node in hops:
        node, link, direction = hops[node]
        out.append((link, direction))
    return out if node == dst else []


def _searched_count(links, start, node):
    """(hops, fewest-hop paths) from `start` to `node` by a breadth-first count over every node."""
    from collections import deque

    adjacent = {}
    for row in (r for r in links if r["direction"] == "ab"):
        adjacent.setdefault(row["src"], []).append(row["dst"])
        adjacent.setdefault(row["dst"], []).append(row["src"])
    counted, frontier = {start: (0, 1)}, deque([start])
    while frontier:
        at = frontier.popleft()
        for neighbour in adjacent.get(at, []):
            if neighbour not in counted:
                counted[neighbour] = (counted[at][0] + 1, counted[at][1])
                frontier.append(neighbour)
            elif counted[neighbour][0] == counted[at][0] + 1:
                counted[neighbour] = (counted[neighbour][0], counted[neighbour][1] + counted[at][1])
    return counted.get(node)


@pytest.mark.parametrize("seed", range(12))
def test_routes_to_and_from_hosts_are_those_of_a_search_from_every_node(seed):
    """Routes search once per router and derive a host's routes from its router's
    (`Routes._host_link`): on random graphs with hosts, routers joined by parallel links, a
    two-node island and an isolated pair, every path and every path count is the one a
    search from each node itself gives."""
    import random

    from tcpsim.routing import Routes

    rng = random.Random(seed)
    routers = [f"r{i}" for i in range(rng.randint(2, 6))]
    pairs = [(routers[i], rng.choice(routers[:i])) for i in range(1, len(routers))]  # connected
    pairs += [tuple(rng.sample(routers, 2)) for _ in range(rng.randint(0, 4))]  # cycles, parallel links
    hosts = [f"h{i}" for i in range(rng.randint(2, 8))]
    pairs += [(host, rng.choice(routers)) if rng.random() < 0.5 else (rng.choice(routers), host) for host in hosts]
    pairs += [("x", "y")]  # two hosts joined to each other only
    rng.shuffle(pairs)
    links = [
        {"link": i, "direction": d, "src": a if d == "ab" else b, "dst": b if d == "ab" else a}
        for i, (a, b) in enumerate(pairs)
        for d in ("ab", "ba")
    ]
    routes = Routes(links)
    nodes = [*routers, *hosts, "x", "y"]
    hops = [(row["link"], row["direction"]) for row in links]
    for src in nodes:
        for dst in nodes:
            assert routes.path(src, dst) == _searched_path(links, src, dst), (src, dst)
            assert routes._count(src, dst) == _searched_count(links, src, dst), (src, dst)
    for src in hosts[:3]:
        for dst in [*hosts, routers[0]]:
            for hop in hops:
                u, v = routes._hop_ends[hop]
                whole, to_u, from_v = (_searched_count(links, *ends) for ends in ((src, dst), (src, u), (v, dst)))
                expected = (
                    False
                    if None in (whole, to_u, from_v) or to_u[0] + 1 + from_v[0] != whole[0]
                    else (True if to_u[1] * from_v[1] == whole[1] else None)
                )
                assert routes.crossing(src, dst, hop) is expected, (src, dst, hop)


def test_fat_tree_path_counts_match_its_structure():
    """k = 4: hosts in different pods have (k/2)² = 4 fewest-hop paths, each core link carries
    one of them; in one pod k/2 = 2, through either aggregation switch."""
    from tcpsim.routing import Routes
    from tcpsim.topologies import fat_tree

    r = tcpsim.run(fat_tree(k=4, duration="1ms"), seed=1)
    links = r.links.to_dict("records")
    routes = Routes(links)
    assert routes._fewest_hops("h_p0_e0_0")["h_p1_e0_0"] == (6, 4)
    assert routes._fewest_hops("h_p0_e0_0")["h_p0_e1_0"] == (4, 2)
    by_name = {(row["name"], row["direction"]): (int(row["link"]), row["direction"]) for row in links}
    access = by_name[("h_p0_e0_0-edge_p0_0", "ab")]
    core = by_name[("agg_p0_0-core_0", "ab")]
    assert routes.crossing("h_p0_e0_0", "h_p1_e0_0", access) is True
    assert routes.crossing("h_p0_e0_0", "h_p1_e0_0", core) is None
    assert routes.crossing("h_p0_e0_0", "h_p0_e1_0", core) is False  # stays in its pod


def test_under_ecmp_a_class_that_may_or_may_not_cross_has_no_utilization():
    """With ECMP the path a member took is not in the results: a class with a member that only
    some fewest-hop paths take over the link has NaN utilization; sure crossings still count."""
    flows = [
        flow("long", "newreno", 4e6, src="w", dst="e"),  # r0-r1 or r0-r1b
        flow("cross", "newreno", 5e6, src="m", dst="e"),
        flow("back", "vegas", 6e6, src="e", dst="w"),
    ]
    web = [{"name": "web", "class": "web", "throughput_bps": 2e6, "server": "w", "clients": ["m", "e"]}]
    table = {row["class"]: row for row in class_rows(flows, LOT, web, link="r0-r1", routing="ecmp")}
    assert math.isnan(table["newreno"]["utilization"]) and math.isnan(table["web"]["utilization"])
    assert table["vegas"]["utilization"] == 0.0  # never on r0-r1 forward
    assert table["newreno"]["throughput_bps"] == 9e6  # the rest of the row is unaffected
    sure = {row["class"]: row for row in class_rows(flows, LOT, web, link="w-r0", routing="ecmp")}
    assert sure["newreno"]["utilization"] == pytest.approx(0.4) and sure["web"]["utilization"] == pytest.approx(0.2)


def test_a_runs_class_table_follows_its_routing():
    from tcpsim.topologies import fat_tree

    # Data both ways between pods 0 and 1: whichever direction of a core link is the busiest,
    # some member may or may not cross it.
    pairs = [("h_p0_e0_0", "h_p1_e0_0"), ("h_p1_e0_1", "h_p0_e0_1")]
    ecmp = tcpsim.run(fat_tree(k=4, flows=pairs, duration="20ms"), seed=1)
    shortest = tcpsim.run(fat_tree(k=4, flows=pairs, duration="20ms", routing="shortest"), seed=1)
    assert ecmp.meta["routing"] == "ecmp" and shortest.meta["routing"] == "shortest"
    assert ecmp.class_table(link="h_p0_e0_0-edge_p0_0")["utilization"].iloc[0] > 0
    assert math.isnan(ecmp.class_table(link="agg_p0_0-core_0")["utilization"].iloc[0])
    assert not math.isnan(shortest.class_table(link="agg_p0_0-core_0")["utilization"].iloc[0])
    from_json, from_table = ecmp.to_json_dict()["classes"][0]["utilization"], ecmp.classes["utilization"].iloc[0]
    assert (from_json is None) == math.isnan(from_table)  # `run --json` reads the same routing
