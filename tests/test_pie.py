"""PIE (RFC 8033) end to end: from the scenario file it holds the queueing delay of five bulk
flows near its 15 ms target where a drop-tail buffer of the same size fills; its early drops
(or, with ECN, marks) reach the link table; runs are deterministic per seed; its parameters
are validated by path and reach the engine in its units."""

import warnings

import pytest
import tcpsim
from engine_schema import assert_canonical_shape
from tcpsim.cli import app
from tcpsim.limits import ScenarioWarning
from tcpsim.scenario import load_scenario
from tcpsim.sweeps.randomness import random_components
from typer.testing import CliRunner

SCENARIO = "scenarios/pie.toml"
LINK_BPS = 10e6


def bottleneck(result):
    return result.links[(result.links["name"] == "bottleneck") & (result.links["direction"] == "ab")].iloc[0]


def mean_delay_s(link) -> float:
    """Little's law: the time-averaged queued bytes drain in this long at the link rate."""
    return link["queue_mean_bytes"] * 8 / LINK_BPS


def pie_queue(**fields) -> dict:
    return {
        "duration": "10s",
        "links": [
            {
                "a": "x",
                "b": "y",
                "rate": "10Mbps",
                "delay": "10ms",
                "queue": {"kind": "pie", "limit": "100pkt"} | fields,
            }
        ],
        "flows": [{"src": "x", "dst": "y"}],
    }


def engine_queue(**fields) -> dict:
    return load_scenario(pie_queue(**fields)).to_engine()["links"][0]["ab"]["queue"]


def test_defaults_are_rfc_8033s_in_engine_units():
    q = engine_queue()
    assert q == {
        "kind": "pie",
        "limit_packets": 100,
        "limit_bytes": None,
        "target_ns": 15_000_000,
        "t_update_ns": 15_000_000,
        "alpha": 0.125,
        "beta": 1.25,
        "max_burst_ns": 150_000_000,
        "mean_packet_bytes": 1500,
        "delay_estimator": "timestamp",
        "dq_threshold_bytes": 16384,
        "ecn": False,
        "mark_ecn_th": 0.1,
        "cap_drop_adjustment": True,
    }
    assert_canonical_shape(load_scenario(pie_queue(delay_estimator="dequeue_rate", limit="64KB")).to_engine())
    assert engine_queue(target="5ms", t_update="30ms", max_burst="0s")["max_burst_ns"] == 0


@pytest.mark.parametrize(
    ("setting", "line"),
    [
        ("alpha=-1", "links[1].queue.alpha: -1 is not a number >= 0; use e.g. 0 or 2"),
        ("target=0ms", "links[1].queue.target:"),
        ("mark_ecn_th=2", "links[1].queue.mark_ecn_th: 2 is not a probability"),
        ("delay_estimator=rate", "links[1].queue.delay_estimator: 'rate' is not a PIE delay estimator"),
    ],
)
def test_a_bad_pie_setting_exits_2_with_the_field_path(setting, line):
    result = CliRunner().invoke(app, ["validate", SCENARIO, "--set", f"links[1].queue.{setting}"])
    assert result.exit_code == 2, result.output
    assert result.output.strip().startswith(f"error: {line}"), result.output


def test_pie_is_a_random_component_and_a_marking_queue():
    engine = load_scenario(SCENARIO).to_engine()
    assert any("pie queue" in c for c in random_components(engine))
    marking = pie_queue(ecn=True) | {"tcp": {"ecn": True}, "duration": "1s"}
    with warnings.catch_warnings():
        warnings.simplefilter("error", ScenarioWarning)
        tcpsim.run(marking, seed=1)
    with pytest.warns(ScenarioWarning, match="no queue on its path marks"):
        tcpsim.run(pie_queue() | {"tcp": {"ecn": True}, "duration": "1s"}, seed=1)


def test_pie_holds_the_delay_near_target_where_drop_tail_fills_the_buffer():
    pie = bottleneck(tcpsim.run(SCENARIO, seed=1, duration="40s", warmup="10s"))
    drop_tail = bottleneck(tcpsim.run(SCENARIO, seed=1, duration="40s", warmup="10s", **{"links[1].queue": "1000pkt"}))
    assert 0.0075 <= mean_delay_s(pie) <= 0.0225, mean_delay_s(pie)
    assert pie["utilization"] > 0.9
    assert pie["drops_early"] > 0 and pie["marks_ecn"] == 0
    assert mean_delay_s(drop_tail) > 0.2, mean_delay_s(drop_tail)
    assert drop_tail["drops_early"] == 0


def test_with_ecn_pie_marks_instead_of_dropping():
    r = tcpsim.run(SCENARIO, seed=1, duration="30s", warmup="10s", **{"tcp.ecn": True, "links[1].queue.ecn": True})
    link = bottleneck(r)
    assert link["marks_ecn"] > 20
    assert (r.flows["ecn_reductions"] > 0).all()
    # p stays below mark_ecn_th (10 %) here, so nothing is dropped early.
    assert link["drops_early"] == 0, link["drops_early"]


def test_runs_are_deterministic_per_seed_and_seeds_differ():
    runs = [bottleneck(tcpsim.run(SCENARIO, seed=s, duration="15s", warmup="5s")) for s in (1, 1, 2)]
    assert runs[0]["drops_early"] == runs[1]["drops_early"]
    assert runs[0]["queue_mean_bytes"] == runs[1]["queue_mean_bytes"]
    assert runs[0]["queue_mean_bytes"] != runs[2]["queue_mean_bytes"]


def test_the_dequeue_rate_estimator_also_holds_the_delay_near_target():
    r = tcpsim.run(SCENARIO, seed=1, duration="40s", warmup="10s", **{"links[1].queue.delay_estimator": "dequeue_rate"})
    assert 0.0075 <= mean_delay_s(bottleneck(r)) <= 0.0225
