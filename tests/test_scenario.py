"""The scenario layer: example files → canonical SimConfig dicts, errors by user path, overrides,
hashing."""

import copy
import json
import pickle
import tomllib
from pathlib import Path

import pytest
import tcpsim
from engine_schema import assert_canonical_shape
from tcpsim.scenario import (
    VARIANTS,
    FlowInfo,
    ScenarioError,
    apply_overrides,
    json_schema,
    load_scenario,
)

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"


def raw(name: str) -> dict:
    with (SCENARIOS / f"{name}.toml").open("rb") as file:
        return tomllib.load(file)


def minimal(**extra) -> dict:
    """A valid two-node scenario to break in one place per test."""
    scenario = {
        "duration": "10s",
        "links": [{"a": "x", "b": "y", "rate": "1Mbps", "delay": "1ms", "queue": "10pkt"}],
        "flows": [{"src": "x", "dst": "y"}],
    }
    return scenario | extra


def errors_of(source, overrides=()) -> ScenarioError:
    with pytest.raises(ScenarioError) as caught:
        load_scenario(source, overrides)
    return caught.value


def only_line(error: ScenarioError) -> str:
    lines = str(error).splitlines()
    assert len(lines) == 1, lines
    return lines[0]


# --- the example scenarios -----------------------------------------------------------------


@pytest.mark.parametrize("name", ["single_flow", "lossy_link", "moller_two_flows", "red_ecn"])
def test_example_scenarios_emit_the_canonical_shape(name):
    config = load_scenario(SCENARIOS / f"{name}.toml").to_engine()
    assert_canonical_shape(config)
    json.dumps(config, allow_nan=False)


def test_single_flow_integers():
    config = load_scenario(SCENARIOS / "single_flow.toml").to_engine()
    assert config["duration_ns"] == 250_000_000_000
    assert config["warmup_ns"] == 0
    assert config["nodes"] == ["sender", "r1", "r2", "receiver"]
    access, bottleneck, egress = config["links"]
    assert (access["a"], access["b"], bottleneck["a"], bottleneck["b"], egress["a"], egress["b"]) == (0, 1, 1, 2, 2, 3)
    assert bottleneck["rate_bps"] == 2_000_000
    assert bottleneck["delay_ns"] == 123_000_000
    assert access["rate_bps"] == egress["rate_bps"] == 100_000_000
    assert access["delay_ns"] == egress["delay_ns"] == 1_000_000
    for direction in ("ab", "ba"):
        assert bottleneck[direction]["queue"] == {"kind": "drop_tail", "limit_packets": None, "limit_bytes": 62_500}
    rtt_ns = 2 * sum(link["delay_ns"] for link in config["links"])
    assert rtt_ns == 250_000_000
    [flow] = config["flows"]
    assert (flow["src"], flow["dst"]) == (0, 3)
    assert flow["tcp"]["recovery"] == "newreno"
    assert flow["tcp"]["cc"] == {"kind": "aimd"}
    assert flow["app"] == {"kind": "bulk", "start_ns": 0, "start_jitter_ns": 0, "stop_ns": None, "bytes": None}


def test_lossy_link_integers():
    config = load_scenario(SCENARIOS / "lossy_link.toml").to_engine()
    assert config["duration_ns"] == 600_000_000_000
    assert config["nodes"] == ["source", "router", "sink"]
    access, lossy = config["links"]
    assert (access["rate_bps"], access["delay_ns"]) == (10_000_000, 45_000_000)
    assert (lossy["rate_bps"], lossy["delay_ns"]) == (2_000_000, 10_000)
    for direction in ("ab", "ba"):
        assert lossy[direction]["queue"] == {"kind": "drop_tail", "limit_packets": 100, "limit_bytes": None}
        assert lossy[direction]["loss"] == [{"kind": "bernoulli", "p": 0.005}]
        assert access[direction]["loss"] == []
    [flow] = config["flows"]
    assert flow["tcp"]["mss_bytes"] == 400
    assert flow["tcp"]["delack_count"] == 2
    assert flow["tcp"]["delack_timeout_ns"] == 200_000_000
    assert flow["tcp"]["recovery"] == "newreno"


def test_moller_two_flows_integers():
    scenario = load_scenario(SCENARIOS / "moller_two_flows.toml")
    config = scenario.to_engine()
    assert (config["duration_ns"], config["warmup_ns"]) == (300_000_000_000, 50_000_000_000)
    links = {link["name"]: link for link in config["links"]}
    assert links["bottleneck"]["rate_bps"] == 10_000_000
    assert links["bottleneck"]["ab"]["queue"]["limit_packets"] == 42
    assert links["s1-r"]["rate_bps"] == links["s2-r"]["rate_bps"] == 100_000_000
    for access in ("s1-r", "s2-r"):
        assert 2 * (links[access]["delay_ns"] + links["bottleneck"]["delay_ns"]) == 50_000_000
    for flow in config["flows"]:
        assert flow["tcp"]["mss_bytes"] + flow["tcp"]["header_bytes"] == 1500
        assert flow["app"]["start_jitter_ns"] == 1_000_000_000
        assert flow["tcp"]["recovery"] == "newreno"
    assert scenario.flow_table() == [
        FlowInfo(0, "f1", "newreno", "s1", "d", "newreno"),
        FlowInfo(1, "f2", "newreno", "s2", "d", "newreno"),
    ]


# --- the user format -----------------------------------------------------------------------


def test_rtt_tick_and_correlated_gilbert_elliott_reach_the_engine():
    tcp = load_scenario(minimal(tcp={"rtt_tick": "100ms"})).to_engine()["flows"][0]["tcp"]
    assert tcp["rtt_tick_ns"] == 100_000_000
    ge = {"kind": "gilbert_elliott", "good_mean": "4s", "bad_mean": "100ms", "bad_loss": 1.0}
    link = {
        "a": "x",
        "b": "y",
        "rate": "1Mbps",
        "delay": "1ms",
        "queue": "10pkt",
        "loss": [{"kind": "bernoulli", "p": 0.01, "direction": "ab"}, ge | {"correlated": True}, ge],
    }
    [engine_link] = load_scenario(minimal(links=[link])).to_engine()["links"]
    ab, ba = engine_link["ab"]["loss"], engine_link["ba"]["loss"]
    # The key is the model's position in the link's list, the same in both directions.
    assert [m.get("shared_state") for m in ab] == [None, 1, None]
    assert [m.get("shared_state") for m in ba] == [1, None]
    assert "shared_state" not in ab[2] and "shared_state" not in ba[1]
    tcpsim.run(minimal(links=[link]) | {"duration": "2s"}, seed=1)  # the engine accepts it
    error = errors_of(minimal(links=[link | {"loss": [ge | {"correlated": True, "direction": "ab"}]}]))
    assert "correlated" in str(error) and 'needs direction = "both"' in str(error)


def test_gilbert_elliott_transmission_clock_reaches_the_engine_and_refuses_a_shared_timeline():
    ge = {"kind": "gilbert_elliott", "good_mean": "4s", "bad_mean": "100ms", "bad_loss": 1.0, "clock_rate": "2Mbps"}
    link = {"a": "x", "b": "y", "rate": "2Mbps", "delay": "1ms", "queue": "10pkt", "loss": [ge | {"direction": "ab"}]}
    [engine_link] = load_scenario(minimal(links=[link])).to_engine()["links"]
    assert engine_link["ab"]["loss"][0]["clock_rate_bps"] == 2_000_000
    tcpsim.run(minimal(links=[link]) | {"duration": "2s"}, seed=1)  # the engine accepts it
    error = errors_of(minimal(links=[link | {"loss": [ge | {"correlated": True}]}]))
    assert "clock_rate" in str(error) and "correlated" in str(error)
    error = errors_of(minimal(links=[link | {"loss": [ge | {"clock_rate": "0bps"}]}]))
    assert "clock_rate" in str(error)


def test_defaults_fill_every_engine_field():
    tcp = load_scenario(minimal()).to_engine()["flows"][0]["tcp"]
    assert tcp == {
        "mss_bytes": 1460,
        "header_bytes": 40,
        "ack_bytes": None,
        "init_cwnd_segments": 2,
        "init_ssthresh_bytes": 2**30,
        "rwnd_bytes": 2**30,
        "initial_rto_ns": 1_000_000_000,
        "min_rto_ns": 1_000_000_000,
        "max_rto_ns": 60_000_000_000,
        "clock_granularity_ns": 1_000_000,
        "rtt_tick_ns": 0,
        "dupack_threshold": 3,
        "recovery": "newreno",
        "avoid_repeated_fast_retransmit": True,
        "limited_transmit": True,
        "timeout_ssthresh": "first_of_episode",
        "ssthresh_from": "cwnd",
        "ca_increment": "exact",
        "cc": {"kind": "aimd"},
        "delack_count": 2,
        "delack_timeout_ns": 200_000_000,
        "ecn": False,
        "ecn_immediate_ack": True,
        "ecn_sender": "rfc3168",
        "ecn_receiver": "rfc3168",
        "rtt_sampling": "every_ack",
        "rto_estimator": "rfc6298",
        "partial_ack_timer": "impatient",
        "fast_retransmit_timer": "restart",
        "rd_class": None,
    }


def test_flow_tcp_overrides_top_level_tcp_key_by_key():
    scenario = minimal(tcp={"mss": 1000, "delack_count": 1})
    scenario["flows"] = [
        {"src": "x", "dst": "y", "tcp": {"delack_count": 2}},
        {"src": "x", "dst": "y", "variant": "tahoe", "tcp": {"recovery": "reno", "cc": "aimd"}},
    ]
    first, second = load_scenario(scenario).to_engine()["flows"]
    assert (first["tcp"]["mss_bytes"], first["tcp"]["delack_count"]) == (1000, 2)
    assert (second["tcp"]["mss_bytes"], second["tcp"]["delack_count"]) == (1000, 1)
    assert (second["tcp"]["recovery"], second["tcp"]["cc"]) == ("reno", {"kind": "aimd"})


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_variant_presets_set_both_halves(variant):
    tcp = load_scenario(minimal(flows=[{"src": "x", "dst": "y", "variant": variant}])).to_engine()["flows"][0]["tcp"]
    assert tcp["recovery"] == VARIANTS[variant].recovery
    assert tcp["cc"] == dict(VARIANTS[variant].cc)


def test_count_replicates_a_flow_with_numbered_names():
    scenario = load_scenario(
        minimal(flows=[{"name": "bulk", "src": "x", "dst": "y", "count": 3}, {"src": "y", "dst": "x"}])
    )
    assert [row.name for row in scenario.flow_table()] == ["bulk.0", "bulk.1", "bulk.2", "flow1"]
    assert [row.index for row in scenario.flow_table()] == [0, 1, 2, 3]
    assert len(scenario.to_engine()["flows"]) == 4


def test_queue_table_forms_and_per_direction_override():
    link = {
        "a": "x",
        "b": "y",
        "rate": "8Mbps",
        "delay": "1ms",
        "queue": {"kind": "drop_tail", "packets": 100, "bytes": "0.5BDP"},
        "ba": {"queue": {"kind": "drop_tail", "limit": "64KiB"}},
    }
    config = load_scenario(minimal(links=[link], bdp_rtt="100ms")).to_engine()
    [engine_link] = config["links"]
    assert engine_link["name"] == "x-y"
    assert engine_link["ab"]["queue"] == {"kind": "drop_tail", "limit_packets": 100, "limit_bytes": 50_000}
    assert engine_link["ba"]["queue"] == {"kind": "drop_tail", "limit_packets": None, "limit_bytes": 65_536}


def test_loss_directions_and_scripted_flow_by_name():
    link = minimal()["links"][0] | {
        "loss": [
            {"kind": "bernoulli", "p": 0.01, "direction": "ba"},
            {"kind": "scripted", "flow": "victim", "segments": [5, 6], "direction": "ab"},
        ]
    }
    flows = [{"name": "other", "src": "x", "dst": "y"}, {"name": "victim", "src": "x", "dst": "y"}]
    [engine_link] = load_scenario(minimal(links=[link], flows=flows)).to_engine()["links"]
    assert engine_link["ab"]["loss"] == [{"kind": "scripted", "flow": 1, "segments": [5, 6]}]
    assert engine_link["ba"]["loss"] == [{"kind": "bernoulli", "p": 0.01}]


def test_flow_app_and_trace_fields():
    flows = [{"src": "x", "dst": "y", "start": "1s", "start_jitter": "0.5s", "stop": "8s", "bytes": "10MB"}]
    trace = {"cwnd": True, "rtt": True, "queue": True, "interval": "10ms", "throughput_bin": "1s"}
    config = load_scenario(minimal(flows=flows, trace=trace, warmup="2s")).to_engine()
    assert config["warmup_ns"] == 2_000_000_000
    assert config["flows"][0]["app"] == {
        "kind": "bulk",
        "start_ns": 1_000_000_000,
        "start_jitter_ns": 500_000_000,
        "stop_ns": 8_000_000_000,
        "bytes": 10_000_000,
    }
    assert config["trace"] == {
        "cwnd": True,
        "rtt": True,
        "queue": True,
        "interval_ns": 10_000_000,
        "throughput_bin_ns": 1_000_000_000,
        "max_rows": 100_000_000,  # limits.max_trace_rows, whose default applies
    }


def test_json_schema_describes_the_user_format():
    schema = json_schema()
    json.dumps(schema)
    assert schema["additionalProperties"] is False
    assert {"duration", "warmup", "bdp_rtt", "tcp", "links", "flows", "trace"} <= set(schema["properties"])
    link = schema["$defs"]["LinkSpec"]
    assert {"rate", "delay", "queue", "loss", "ab", "ba"} <= set(link["properties"])
    assert link["additionalProperties"] is False
    assert schema["$defs"]["TcpOptions"]["properties"]["initial_rto"]["default"] == "1s"


# --- errors --------------------------------------------------------------------------------


def test_typo_key_names_its_path_and_the_allowed_keys():
    scenario = minimal()
    scenario["links"][0]["rtae"] = "1Mbps"
    line = only_line(errors_of(scenario))
    assert line.startswith("links[0].rtae: unknown key; did you mean 'rate'? allowed: ")
    assert "a, b, rate, delay, queue, loss, ab, ba" in line


def test_negative_rate_names_its_path():
    scenario = minimal()
    scenario["links"][0]["rate"] = "-2Mbps"
    assert only_line(errors_of(scenario)) == (
        "links[0].rate: '-2Mbps' is not a rate; use a positive number with bps, kbps, Mbps or Gbps, e.g. '10Mbps'"
    )


def test_unknown_variant_lists_the_allowed():
    scenario = minimal()
    scenario["flows"].append({"src": "x", "dst": "y", "variant": "renoo"})
    assert only_line(errors_of(scenario)) == (
        "flows[1].variant: 'renoo' is not a variant; allowed: bbr, cubic, dctcp, newreno, prague, reno, sack, tahoe, vegas, westwood, westwood_plus"
    )


def test_all_field_errors_are_collected():
    scenario = minimal(duration="-1s", tcp={"msss": 1000}, trace={"cwnd": "yes"})
    scenario["links"][0] |= {"rtae": 1, "rate": "0Mbps", "loss": [{"kind": "bernoulli", "p": 1.5}, {"kind": "gilbert"}]}
    scenario["flows"][0] |= {"variant": "renoo", "start": "5s", "stop": "1s"}
    error = errors_of(scenario)
    assert sorted(path for path, _ in error.errors) == sorted(
        [
            "duration",
            "tcp.msss",
            "links[0].rtae",
            "links[0].rate",
            "links[0].loss[0].p",
            "links[0].loss[1].kind",
            "flows[0].variant",
            "trace.cwnd",
        ]
    )
    assert len(str(error).splitlines()) == 8
    assert "pydantic" not in str(error).lower()


def test_whole_scenario_errors_are_collected():
    scenario = minimal(warmup="10s")
    scenario["links"].append({"name": "x-y", "a": "y", "b": "z", "rate": "1Mbps", "delay": "1ms", "queue": "1BDP"})
    scenario["links"][0]["loss"] = [{"kind": "scripted", "flow": "nope", "segments": [1]}]
    scenario["flows"] += [{"src": "x", "dst": "w"}, {"name": "flow0", "src": "y", "dst": "z"}]
    assert errors_of(scenario).errors == [
        ("warmup", "10s must be less than duration (10s)"),
        ("links[1].name", "link name 'x-y' is already used by links[0]; names must be unique"),
        ("flows[2].name", "flow name 'flow0' is already used by flows[0]; names must be unique"),
        ("flows[1].dst", "'w' is not a node; known nodes: x, y, z"),
        (
            "links[0].loss[0].flow",
            "'nope' is not a flow; flows: flow0, flow1",
        ),
        (
            "links[1].queue",
            "'1BDP' needs bdp_rtt, the reference RTT of BDP limits, at the top level, e.g. bdp_rtt = \"250ms\"",
        ),
    ]


@pytest.mark.parametrize(
    ("change", "path", "fragment"),
    [
        (lambda s: s["links"][0].update(queue="0pkt"), "links[0].queue", "at least one packet"),
        (
            lambda s: s["links"][0].update(queue="1000B"),
            "links[0].queue",
            "less than one packet (the largest is 1500 bytes",
        ),
        (
            lambda s: s["links"][0].update(queue={"kind": "sfq"}),
            "links[0].queue.kind",
            "'sfq' is not a queue kind; allowed: codel, drop_tail, dualpi2, fq_codel, pie, rd, red, step",
        ),
        (lambda s: s["links"][0].update(queue={"kind": "drop_tail"}), "links[0].queue", "needs a limit"),
        (lambda s: s["links"][0].pop("queue"), "links[0].queue", "required key is missing"),
        (lambda s: s["links"][0].update(b="x"), "links[0].b", "a link joins two different nodes"),
        (lambda s: s["links"][0].update(delay="-1ms"), "links[0].delay", "is not a duration"),
        (lambda s: s["links"][0].update(loss=[{"kind": "bernoulli", "p": -0.1}]), "links[0].loss[0].p", "from 0 to 1"),
        (
            lambda s: s["links"][0].update(loss=[{"p": 0.1}]),
            "links[0].loss[0].kind",
            "allowed: bernoulli, bit_error, gilbert_elliott, outage, packet_markov, scripted, two_state",
        ),
        (lambda s: s["flows"][0].update(stop="0s"), "flows[0].stop", "must be after start (0s)"),
        (lambda s: s["flows"][0].update(src="q"), "flows[0].src", "'q' is not a node; known nodes: x, y"),
        (lambda s: s["flows"][0].update(dst="x"), "flows[0].dst", "a flow joins two different nodes"),
        (lambda s: s["flows"][0].update(start="20s"), "flows[0].start", "not before the end of the run"),
        (lambda s: s["flows"][0].update(count=0), "flows[0].count", "is not a count"),
        (lambda s: s["flows"][0].update(tcp={"mss": 0}), "flows[0].tcp.mss", "must be greater than zero"),
        (
            lambda s: s["flows"][0].update(tcp={"min_rto": "2min"}),
            "flows[0].tcp.min_rto",
            "must not exceed max_rto (60s)",
        ),
        (lambda s: s.update(tcp={"rwnd": "1KB"}), "tcp.rwnd", "less than one segment"),
        (lambda s: s.update(tcp={"cc": "cubik"}), "tcp.cc.kind", "'cubik' is not a cc kind; allowed: aimd"),
        (lambda s: s.update(duration="0s"), "duration", "must be greater than zero"),
        (lambda s: s.update(duration=10), "duration", "10 has no unit"),
        (lambda s: s.update(warmup="20s"), "warmup", "must be less than duration (10s)"),
        (lambda s: s.update(links=[]), "links", "needs at least 1 entry"),
        (lambda s: s.pop("duration"), "duration", "required key is missing"),
        (lambda s: s.update(trace={"interval": "5"}), "trace.interval", "has no unit"),
    ],
)
def test_each_problem_is_one_line_naming_its_path(change, path, fragment):
    scenario = minimal()
    change(scenario)
    line = only_line(errors_of(scenario))
    assert line.startswith(f"{path}: "), line
    assert fragment in line


def test_disconnected_flow_is_an_error():
    scenario = minimal()
    scenario["links"].append({"a": "p", "b": "q", "rate": "1Mbps", "delay": "1ms", "queue": "10pkt"})
    scenario["flows"][0]["dst"] = "q"
    assert only_line(errors_of(scenario)) == "flows[0]: no path from 'x' to 'q' over the links"


def test_unreadable_file_and_bad_toml_are_scenario_errors(tmp_path):
    assert "cannot read scenario" in only_line(errors_of(tmp_path / "missing.toml"))
    broken = tmp_path / "broken.toml"
    broken.write_text("duration = \n")
    assert "not valid TOML" in only_line(errors_of(broken))


def test_scenario_error_survives_pickling_for_worker_processes():
    error = errors_of(minimal(duration="0s"))
    assert pickle.loads(pickle.dumps(error)).errors == error.errors


# --- overrides -----------------------------------------------------------------------------


def test_overrides_set_values_in_place():
    overrides = [
        "duration=100s",
        "links[1].rate=5Mbps",
        "links.2.delay=2ms",
        "flows[*].variant=reno",
        "tcp.mss=1000",
        "trace.cwnd=true",
        "flows[0].tcp.delack_count=1",
        'links[1].ab.queue="20pkt"',
    ]
    config = load_scenario(SCENARIOS / "single_flow.toml", overrides).to_engine()
    assert config["duration_ns"] == 100_000_000_000
    assert config["links"][1]["rate_bps"] == 5_000_000
    assert config["links"][2]["delay_ns"] == 2_000_000
    assert config["links"][1]["ab"]["queue"]["limit_packets"] == 20
    assert config["links"][1]["ba"]["queue"]["limit_bytes"] == 156_250  # 1 BDP at 5 Mb/s × 250 ms
    [flow] = config["flows"]
    assert flow["tcp"]["recovery"] == "reno"
    assert flow["tcp"]["mss_bytes"] == 1000
    assert flow["tcp"]["delack_count"] == 1
    assert config["trace"]["cwnd"] is True


def test_wildcard_applies_to_every_element():
    scenario = load_scenario(SCENARIOS / "moller_two_flows.toml", ["flows[*].variant=tahoe", "flows[*].tcp.mss=500"])
    assert [row.variant for row in scenario.flow_table()] == ["tahoe", "tahoe"]
    assert [flow["tcp"]["mss_bytes"] for flow in scenario.to_engine()["flows"]] == [500, 500]


def test_list_items_are_addressable_by_name():
    raw = minimal()
    raw["links"][0]["name"] = "bottle-neck.1"
    raw["links"].append({"name": "second", "a": "y", "b": "z", "rate": "7Mbps", "delay": "1ms", "queue": "10pkt"})
    raw["flows"] = [{"name": "f", "src": "x", "dst": "z"}]
    overrides = {"links[bottle-neck.1].rate": "5Mbps", "links[second].ab.queue": "20pkt", "flows[f].tcp.mss": 500}
    config = load_scenario(raw, overrides).to_engine()
    assert [link["rate_bps"] for link in config["links"]] == [5_000_000, 7_000_000]
    assert config["links"][1]["ab"]["queue"]["limit_packets"] == 20
    assert config["flows"][0]["tcp"]["mss_bytes"] == 500


def test_an_unknown_item_name_lists_the_names_there():
    raw = minimal()
    raw["links"][0]["name"] = "bottleneck"
    error = errors_of(raw, ["links[bottlenek].rate=5Mbps"])
    assert error.errors[0][0] == "links"
    assert "no entry named 'bottlenek'; names here: 'bottleneck'" in str(error)


def test_override_values_parse_as_toml_when_they_are_toml():
    config = load_scenario(
        minimal(),
        ["flows[0].count=2", "trace.rtt=true", 'flows[0].name="bulk"', "links[0].loss=[{kind='bernoulli', p=0.5}]"],
    ).to_engine()
    assert [flow["name"] for flow in config["flows"]] == ["bulk.0", "bulk.1"]
    assert config["trace"]["rtt"] is True
    assert config["links"][0]["ab"]["loss"] == [{"kind": "bernoulli", "p": 0.5}]


def test_dict_overrides_use_values_as_given():
    config = load_scenario(minimal(), {"links[0].rate": "3Mbps", "flows[*].tcp.delack_count": 1}).to_engine()
    assert config["links"][0]["rate_bps"] == 3_000_000
    assert config["flows"][0]["tcp"]["delack_count"] == 1


def test_bad_override_paths_are_all_reported():
    error = errors_of(
        minimal(), ["links[5].rate=5Mbps", "links[0].rtae=1", "duration.x=1", "nonsense", "flows[0].tcp.cc.kind=aimd"]
    )
    assert [path for path, _ in error.errors] == ["links[5]", "links[0].rtae", "duration", "", "flows[0].tcp.cc"]
    assert "no such entry; links has 1 (override 'links[5].rate=5Mbps')" in str(error)
    assert "unknown key; did you mean 'rate'?" in str(error)


def test_override_value_errors_name_the_user_path():
    line = only_line(errors_of(minimal(), ["links[0].rate=-5Mbps"]))
    assert line.startswith("links[0].rate: '-5Mbps' is not a rate")


def test_overrides_do_not_touch_the_source_dict():
    scenario = minimal()
    before = copy.deepcopy(scenario)
    apply_overrides(scenario, ["duration=5s", "tcp.mss=100"])
    assert scenario == before


# --- hashing -------------------------------------------------------------------------------


def test_hash_is_stable_across_key_order_and_spelling():
    scenario = minimal()
    reordered = dict(reversed(list(scenario.items())))
    reordered["links"] = [dict(reversed(list(scenario["links"][0].items())))]
    respelled = copy.deepcopy(scenario)
    respelled["duration"] = "10000ms"
    respelled["tcp"] = {"mss": "1460B"}
    reference = load_scenario(scenario).hash()
    assert load_scenario(reordered).hash() == reference
    assert load_scenario(respelled).hash() == reference
    assert len(reference) == 64 and int(reference, 16) >= 0


def test_hash_ignores_name_and_description():
    assert load_scenario(minimal(name="a", description="b")).hash() == load_scenario(minimal()).hash()


def test_hash_changes_with_a_real_change():
    reference = load_scenario(minimal()).hash()
    assert load_scenario(minimal(), ["links[0].rate=2Mbps"]).hash() != reference
    assert load_scenario(minimal(), ["flows[0].variant=reno"]).hash() != reference


def test_engine_json_is_the_hashed_canonical_form():
    scenario = load_scenario(SCENARIOS / "lossy_link.toml")
    assert json.loads(scenario.to_engine_json()) == scenario.to_engine()


def test_a_run_hashes_the_json_it_hands_the_engine():
    """`tcpsim.run` builds the canonical form once and passes its text to both the engine and
    the hash: the hash must be the scenario's own."""
    scenario = load_scenario(raw("parking_lot_mix"), ["duration=2s", "warmup=1s"])
    canonical = scenario.to_engine()
    text = scenario.to_engine_json(canonical)
    assert text == scenario.to_engine_json()
    assert scenario.hash(text) == scenario.hash()
    assert tcpsim.run(scenario, seed=1).meta["scenario_hash"] == scenario.hash()


def test_raw_example_files_load_from_dicts_too():
    assert load_scenario(raw("single_flow")).hash() == load_scenario(SCENARIOS / "single_flow.toml").hash()


# --- UDP constant-bit-rate sources ---------------------------------------------------------

S = 1_000_000_000


def udp_scenario(**udp):
    return {
        "duration": "300s",
        "links": [{"a": "s", "b": "d", "rate": "5Mbps", "delay": "30ms", "queue": "100pkt"}],
        "udp": [{"src": "s", "dst": "d", "rate": "1Mbps", **udp}],
    }


def test_udp_sources_become_engine_udp_flows_with_their_on_intervals():
    config = load_scenario(udp_scenario(on=[["25s", "200s"]], packet="500B")).to_engine()
    assert_canonical_shape(config)
    assert config["udp_flows"] == [
        {"name": "udp0", "src": 0, "dst": 1, "rate_bps": 1_000_000, "packet_bytes": 500, "on": [[25 * S, 200 * S]]}
    ]


def test_a_udp_source_without_a_schedule_is_on_for_the_whole_run():
    assert load_scenario(udp_scenario()).to_engine()["udp_flows"][0]["on"] == [[0, 300 * S]]


def test_udp_errors_name_their_path():
    with pytest.raises(ScenarioError) as e:
        load_scenario(udp_scenario(on=[["20s", "10s"]], dst="x"))
    assert "udp[0].on[0]: ends (10s) before it starts (20s)" in str(e.value)
    with pytest.raises(ScenarioError, match=r"udp\[0\]\.dst: 'x' is not a node"):
        load_scenario(udp_scenario(dst="x"))


# --- loss models of issue 3 ----------------------------------------------------------------

SECOND_NS = 1_000_000_000


def with_loss(*models) -> dict:
    scenario = minimal()
    scenario["links"][0]["loss"] = list(models)
    return scenario


def engine_losses(*models) -> tuple[list, list]:
    config = load_scenario(with_loss(*models)).to_engine()
    assert_canonical_shape(config)
    json.dumps(config, allow_nan=False)
    [link] = config["links"]
    return link["ab"]["loss"], link["ba"]["loss"]


def test_bit_error_rate_given_directly_or_as_data_per_error():
    ab, ba = engine_losses(
        {"kind": "bit_error", "ber": 1.9e-6, "direction": "ab"},
        {"kind": "bit_error", "one_per": "64KiB", "direction": "ba"},
        {"kind": "bit_error", "one_per": "100KB", "direction": "ba"},
    )
    assert ab == [{"kind": "bit_error", "ber": 1.9e-6}]
    assert ba == [{"kind": "bit_error", "ber": 1 / (8 * 65_536)}, {"kind": "bit_error", "ber": 1 / 800_000}]


def test_packet_markov_counts_its_means_in_packets():
    # ns-2's ErrorModel/MultiState with sttype pkt: casetti's fading means read as 8 and 4 packets.
    ab, ba = engine_losses(
        {"kind": "packet_markov", "good_mean": 8, "bad_mean": 4, "good_loss": 1e-5, "bad_loss": 0.05},
    )
    chain = {
        "kind": "packet_markov",
        "good_mean_pkts": 8.0,
        "bad_mean_pkts": 4.0,
        "good_loss": 1e-5,
        "bad_loss": 0.05,
        "initial": "good",
    }
    assert ab == ba == [chain]
    assert errors_of(with_loss({"kind": "packet_markov", "good_mean": 0.5, "bad_mean": 4, "bad_loss": 0.1}))
    assert errors_of(with_loss({"kind": "packet_markov", "good_mean": "8s", "bad_mean": 4, "bad_loss": 0.1}))


def test_gilbert_elliott_in_canonical_units_with_defaults():
    ab, ba = engine_losses(
        {"kind": "gilbert_elliott", "good_mean": "8s", "bad_mean": "4s", "good_loss": 1e-5, "bad_loss": 0.05},
        {
            "kind": "gilbert_elliott",
            "good_mean": "4s",
            "bad_mean": "100ms",
            "bad_loss": 1,
            "initial": "stationary",
            "direction": "ba",
        },
    )
    fading = {
        "kind": "gilbert_elliott",
        "good_mean_ns": 8 * SECOND_NS,
        "bad_mean_ns": 4 * SECOND_NS,
        "good_loss": 1e-5,
        "bad_loss": 0.05,
        "initial": "good",
    }
    blackout = {
        "kind": "gilbert_elliott",
        "good_mean_ns": 4 * SECOND_NS,
        "bad_mean_ns": SECOND_NS // 10,
        "good_loss": 0.0,
        "bad_loss": 1.0,
        "initial": "stationary",
    }
    assert ab == [fading]
    assert ba == [fading, blackout]


def test_two_state_defaults_to_macura_next_state_probability():
    ab, _ = engine_losses({"kind": "two_state", "good_sojourn": "1s", "bad_sojourn": "0.1ms", "bad_loss": 0.1})
    assert ab == [
        {
            "kind": "two_state",
            "good_sojourn_ns": SECOND_NS,
            "bad_sojourn_ns": 100_000,
            "good_loss": 0.0,
            "bad_loss": 0.1,
            "p_bad": 0.5,
            "initial": "good",
        }
    ]


def test_outage_periodic_or_listed_windows():
    ab, _ = engine_losses(
        {"kind": "outage", "period": "4s", "duration": "100ms"},
        {"kind": "outage", "period": "4s", "duration": "100ms", "offset": "1.5s"},
        {"kind": "outage", "intervals": [["10s", "12s"], ["12s", "12.5s"]]},
    )
    assert ab == [
        {"kind": "periodic_outage", "period_ns": 4 * SECOND_NS, "duration_ns": SECOND_NS // 10, "offset_ns": 0},
        {
            "kind": "periodic_outage",
            "period_ns": 4 * SECOND_NS,
            "duration_ns": SECOND_NS // 10,
            "offset_ns": 3 * SECOND_NS // 2,
        },
        {
            "kind": "outage_intervals",
            "intervals_ns": [[10 * SECOND_NS, 12 * SECOND_NS], [12 * SECOND_NS, 25 * SECOND_NS // 2]],
        },
    ]


def test_loss_model_fields_can_be_overridden_by_path():
    scenario = with_loss({"kind": "gilbert_elliott", "good_mean": "8s", "bad_mean": "4s", "bad_loss": 0.05})
    config = load_scenario(scenario, ["links[0].loss[0].bad_loss=0.3", "links[0].loss[0].bad_mean=500ms"]).to_engine()
    assert (config["links"][0]["ab"]["loss"][0]["bad_loss"], config["links"][0]["ab"]["loss"][0]["bad_mean_ns"]) == (
        0.3,
        SECOND_NS // 2,
    )


@pytest.mark.parametrize(
    ("model", "path", "message"),
    [
        ({"kind": "bit_error"}, "", 'needs the error rate: `ber` (e.g. 1.9e-6) or `one_per` (e.g. "64KiB")'),
        ({"kind": "bit_error", "ber": 1e-6, "one_per": "64KB"}, ".one_per", "give either `ber` or `one_per`, not both"),
        ({"kind": "bit_error", "ber": 2}, ".ber", "2 is not a probability; use a number from 0 to 1, e.g. 0.005"),
        ({"kind": "bit_error", "one_per": "0B"}, ".one_per", "'0B' must be greater than zero"),
        (
            {"kind": "gilbert_elliott", "good_mean": "8s", "bad_mean": "0s", "bad_loss": 1},
            ".bad_mean",
            "'0s' must be greater than zero",
        ),
        (
            {"kind": "gilbert_elliott", "good_mean": "8", "bad_mean": "4s", "bad_loss": 1},
            ".good_mean",
            "'8' has no unit; write a duration with ns, us, ms, s or min, e.g. '8s' or '8ms'",
        ),
        ({"kind": "gilbert_elliott", "good_mean": "8s", "bad_mean": "4s"}, ".bad_loss", "required key is missing"),
        (
            {"kind": "gilbert_elliott", "good_mean": "8s", "bad_mean": "4s", "bad_loss": 1, "initial": "ugly"},
            ".initial",
            "'ugly' is not an initial state; allowed: bad, good, stationary",
        ),
        (
            {"kind": "two_state", "good_sojourn": "1s", "bad_sojourn": "10ms", "bad_loss": 0.1, "p_bda": 0.5},
            ".p_bda",
            "unknown key; did you mean 'p_bad'? allowed: kind, good_sojourn, bad_sojourn, good_loss, bad_loss, p_bad, initial, transitions, direction",
        ),
        (
            {"kind": "two_state", "good_sojourn": "1s", "bad_sojourn": "10ms", "bad_loss": 0.1, "p_bad": 1.5},
            ".p_bad",
            "1.5 is not a probability; use a number from 0 to 1, e.g. 0.005",
        ),
        (
            {"kind": "outage"},
            "",
            'needs a schedule: `period` and `duration` (e.g. period = "4s", duration = "100ms") or `intervals` (e.g. [["10s", "12s"]])',
        ),
        (
            {"kind": "outage", "period": "4s"},
            ".duration",
            "required key is missing; a periodic outage needs `period` and `duration`",
        ),
        ({"kind": "outage", "period": "4s", "duration": "5s"}, ".duration", "5s must not exceed period (4s)"),
        (
            {"kind": "outage", "offset": "1s", "intervals": [["1s", "2s"]]},
            ".offset",
            "give either `intervals` or `period` and `duration`, not both",
        ),
        ({"kind": "outage", "intervals": []}, ".intervals", "needs at least 1 entry"),
        (
            {"kind": "outage", "intervals": [["1s"]]},
            ".intervals[0]",
            '[\'1s\'] is not an outage window; use [start, end], e.g. ["10s", "12s"]',
        ),
        (
            {"kind": "outage", "intervals": [["2s", "2s"]]},
            ".intervals[0]",
            "[2s, 2s] is an empty window; the end must be after the start",
        ),
        (
            {"kind": "outage", "intervals": [["1s", "3s"], ["2s", "4s"]]},
            ".intervals[1]",
            "starts at 2s, before the previous window ends (3s); list windows in time order without overlap",
        ),
        (
            {"kind": "markov"},
            ".kind",
            "'markov' is not a loss kind; allowed: bernoulli, bit_error, gilbert_elliott, outage, packet_markov, scripted, two_state",
        ),
    ],
)
def test_loss_model_errors_name_the_path_and_what_is_allowed(model, path, message):
    assert (
        only_line(errors_of(with_loss({"kind": "bernoulli", "p": 0.01}, model))) == f"links[0].loss[1]{path}: {message}"
    )


def test_json_schema_lists_every_loss_kind():
    loss_kinds = {
        definition["properties"]["kind"]["const"]
        for name, definition in json_schema()["$defs"].items()
        if name.endswith("Loss")
    }
    assert loss_kinds == {
        "bernoulli",
        "bit_error",
        "gilbert_elliott",
        "two_state",
        "packet_markov",
        "outage",
        "scripted",
    }


# --- congestion-control presets and overrides ----------------------------------------------


def test_westwood_presets_pair_their_estimators_with_reno_and_newreno_recovery():
    scenario = minimal()
    scenario["flows"] = [
        {"name": "w", "src": "x", "dst": "y", "variant": "westwood"},
        {"name": "wp", "src": "x", "dst": "y", "variant": "westwood_plus"},
    ]
    w, wp = (f["tcp"] for f in load_scenario(scenario).to_engine()["flows"])
    assert (w["recovery"], w["cc"]) == (
        "reno",
        {
            "kind": "westwood",
            "tau_ns": 500_000_000,
            "null_sample_divisor": 2,
            "filter": {"kind": "tustin"},
            "ns3_fast_recovery": False,
            "sample_tick_ns": 0,
            "acked_count": "paper",
            "silence": "whole_silence",
            "timeout_divisor": False,
        },
    )
    assert (wp["recovery"], wp["cc"]["kind"], wp["cc"]["min_window_ns"]) == ("newreno", "westwood_plus", 50_000_000)


def test_westwood_plus_names_its_sampling_window_and_ssthresh_unit():
    scenario = minimal()
    cc = {"kind": "westwood_plus", "sampling": "ns3_timer", "ssthresh_in_bytes": True}
    scenario["flows"] = [{"src": "x", "dst": "y", "variant": "westwood_plus", "tcp": {"cc": cc}}]
    engine = load_scenario(scenario).to_engine()["flows"][0]["tcp"]["cc"]
    assert (engine["sampling"], engine["ssthresh_in_bytes"]) == ("ns3_timer", True)
    scenario["flows"][0]["tcp"]["cc"]["sampling"] = "timer"
    with pytest.raises(ScenarioError, match="sampling"):
        load_scenario(scenario)


def test_a_cc_override_takes_human_units_and_named_filters():
    scenario = minimal()
    scenario["flows"] = [
        {
            "src": "x",
            "dst": "y",
            "variant": "westwood",
            "tcp": {"cc": {"kind": "westwood", "tau": "1s", "filter": {"kind": "tustin_fixed", "alpha": 0.9}}},
        }
    ]
    cc = load_scenario(scenario).to_engine()["flows"][0]["tcp"]["cc"]
    assert cc == {
        "kind": "westwood",
        "tau_ns": 1_000_000_000,
        "null_sample_divisor": 2,
        "filter": {"kind": "tustin_fixed", "alpha": 0.9},
        "ns3_fast_recovery": False,
        "sample_tick_ns": 0,
        "acked_count": "paper",
        "silence": "whole_silence",
        "timeout_divisor": False,
    }
    scenario["flows"][0]["tcp"]["cc"]["sample_tick"] = "10ms"
    assert load_scenario(scenario).to_engine()["flows"][0]["tcp"]["cc"]["sample_tick_ns"] == 10_000_000


def test_the_ns2_agent_rules_are_named_choices():
    scenario = minimal()
    cc = {"kind": "westwood", "acked_count": "ns2_agent", "silence": "ns2_agent", "timeout_divisor": True}
    scenario["flows"] = [{"src": "x", "dst": "y", "variant": "westwood", "tcp": {"recovery": "westwood_ns2", "cc": cc}}]
    tcp = load_scenario(scenario).to_engine()["flows"][0]["tcp"]
    assert tcp["recovery"] == "westwood_ns2"
    assert (tcp["cc"]["acked_count"], tcp["cc"]["silence"], tcp["cc"]["timeout_divisor"]) == (
        "ns2_agent",
        "ns2_agent",
        True,
    )
    scenario["flows"][0]["tcp"]["cc"]["silence"] = "remainder"
    assert "flows[0].tcp.cc.silence" in str(errors_of(scenario))
    assert "whole_silence" in str(errors_of(scenario))


def test_the_ns2_tick_rto_estimator_is_a_named_choice_that_needs_an_rtt_tick():
    scenario = minimal(tcp={"rto_estimator": "ns2_ticks", "rtt_tick": "100ms", "min_rto": "200ms"})
    assert load_scenario(scenario).to_engine()["flows"][0]["tcp"]["rto_estimator"] == "ns2_ticks"
    tcpsim.run(scenario, seed=1)
    scenario["tcp"]["rtt_tick"] = "0s"
    with pytest.raises(tcpsim.SimulationError, match="rto_estimator"):
        tcpsim.run(scenario, seed=1)
    scenario["tcp"]["rto_estimator"] = "ns2"
    assert "rfc6298" in str(errors_of(scenario))


def test_the_latest_sample_ablation_filter_needs_null_samples_like_tustin():
    scenario = minimal()
    scenario["flows"] = [
        {"src": "x", "dst": "y", "variant": "westwood", "tcp": {"cc": {"kind": "westwood", "filter": "tustin_latest"}}}
    ]
    assert load_scenario(scenario).to_engine()["flows"][0]["tcp"]["cc"]["filter"] == {"kind": "tustin_latest"}
    scenario["flows"][0]["tcp"]["cc"]["null_sample_divisor"] = 0
    assert str(errors_of(scenario)) == (
        "flows[0].tcp.cc.null_sample_divisor: 0 (no null samples) needs a fixed-coefficient filter "
        "(tustin_fixed or ewma); the tustin_latest filter needs m >= 2"
    )


def test_bad_cc_parameters_name_their_path():
    scenario = minimal()
    scenario["flows"] = [
        {
            "src": "x",
            "dst": "y",
            "tcp": {"cc": {"kind": "westwood", "null_sample_divisor": 1, "filter": {"kind": "ewma", "alpha": 1.5}}},
        }
    ]
    assert str(errors_of(scenario)).splitlines() == [
        "flows[0].tcp.cc.filter.alpha: 1.5 is not a filter coefficient; use a number in [0, 1), e.g. 0.9",
    ]


def test_drop_tail_counting_the_packet_on_the_wire_holds_one_packet_less_as_ns2():
    """ns-2.35's DropTail drops when waiting + 1 >= limit_: its limit 5 holds 4 packets waiting."""

    def engine_queue(queue: dict) -> dict:
        scenario = raw("lossy_link")
        scenario["links"][1]["queue"] = queue
        return load_scenario(scenario).to_engine()["links"][1]["ab"]["queue"]

    ns2 = {"kind": "drop_tail", "limit": "5pkt", "counts_transmitting": True}
    assert engine_queue(ns2) == {"kind": "drop_tail", "limit_packets": 4, "limit_bytes": None}
    assert engine_queue({**ns2, "limit": "6000B"})["limit_bytes"] == 5999
    assert engine_queue({**ns2, "counts_transmitting": False})["limit_packets"] == 5
    with pytest.raises(ScenarioError, match="counts_transmitting"):
        engine_queue({**ns2, "limit": "1pkt"})


@pytest.mark.parametrize("path", sorted(SCENARIOS.glob("*.toml")), ids=lambda p: p.stem)
def test_a_scenario_dumps_without_serializer_warnings(path, recwarn):
    """Every field dumps as its own type (queue limits are held as objects): pydantic warns when
    a value's serializer expects another type, which users of `model_dump` would see."""
    scenario = load_scenario(path)
    scenario.model_dump()
    scenario.model_dump(mode="json", by_alias=True, exclude_unset=True)
    assert not [w for w in recwarn if "Pydantic" in str(w.message)]
