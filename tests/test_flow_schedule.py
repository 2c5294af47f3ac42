"""Flow-count schedules: compiled to per-replica ON intervals (worked by hand), carried into the
engine's input, run, and refused with the step's path when wrong."""

from __future__ import annotations

import re

import pytest
import tcpsim
import tomli_w
from pydantic import TypeAdapter, ValidationError
from tcpsim.cli import app
from tcpsim.scenario import ScenarioError, load_scenario
from tcpsim.scenario.schedule import ScheduleStep, on_interval_count, replica_on_intervals, schedule_problems
from typer.testing import CliRunner

S = 1_000_000_000


def test_podlesny_fig10_vegas_grow_from_20_to_100_at_80s():
    on = replica_on_intervals([(0, 20), (80 * S, 100)], 100, 180 * S)
    assert on[:20] == [[(0, 180 * S)]] * 20
    assert on[20:] == [[(80 * S, 180 * S)]] * 80


def test_podlesny_fig10_newreno_stop_at_100s():
    assert replica_on_intervals([(0, 100), (100 * S, 0)], 100, 180 * S) == [[(0, 100 * S)]] * 100


def test_replica_r_is_on_while_more_than_r_are_active():
    steps = [(5 * S, 3), (10 * S, 1), (20 * S, 2), (25 * S, 2), (28 * S, 0)]
    assert replica_on_intervals(steps, 4, 30 * S) == [
        [(5 * S, 28 * S)],  # on through every step until the count drops to 0 (touching pieces merged)
        [(5 * S, 10 * S), (20 * S, 28 * S)],
        [(5 * S, 10 * S)],
        [],  # the schedule never asks for a fourth flow
    ]


@pytest.mark.parametrize(
    ("steps", "count", "intervals"),
    [
        ([(5 * S, 3), (10 * S, 1), (20 * S, 2), (25 * S, 2), (28 * S, 0)], 4, 3 + 1),  # rises: 0→3, 1→2
        ([(0, 20), (80 * S, 100)], 100, 100),
        ([(0, 100), (100 * S, 0)], 100, 100),
        ([(k * S, 2 * (k % 2)) for k in range(10)], 2, 2 * 5),  # 2 replicas switched on 5 times
    ],
)
def test_the_interval_count_from_the_steps_alone_is_what_the_schedule_builds(steps, count, intervals):
    """The limits count a schedule's ON intervals before building them (issue 27: a schedule of
    many steps was costed as 10^3 events and ran 2·10^5)."""
    assert on_interval_count(steps, count) == intervals
    built = replica_on_intervals(steps, count, 100 * S)
    assert sum(len(replica) for replica in built) == intervals


def test_steps_at_or_after_the_end_of_the_run_are_cut():
    assert replica_on_intervals([(0, 1), (40 * S, 2)], 2, 30 * S) == [[(0, 30 * S)], []]
    assert replica_on_intervals([(30 * S, 1)], 1, 30 * S) == [[]]


def test_a_schedule_must_increase_in_time_and_stay_within_count():
    steps = [(0, 2), (10 * S, 5), (10 * S, 1), (5 * S, 0)]
    assert schedule_problems(steps, 4) == [
        (("schedule", 1), "5 active flows is more than `count` (4); allowed: 0 to 4"),
        (("schedule", 2), "10s is not after the previous step (10s); list steps in increasing time"),
        (("schedule", 3), "5s is not after the previous step (10s); list steps in increasing time"),
    ]
    assert schedule_problems([(0, 4), (1, 0)], 4) == []


@pytest.mark.parametrize(
    ("step", "message"),
    [
        (["10s", -1], "-1 is not a number of active flows; use a whole number >= 0"),
        (["10s", 2.5], "2.5 is not a number of active flows"),
        (["10s", True], "True is not a number of active flows"),
        ([10, 2], "10 has no unit"),
        (["10s"], r"\['10s'\] is not a schedule step; use \[time, active flows\]"),
        ("10s", "'10s' is not a schedule step"),
    ],
)
def test_a_bad_step_is_reported_at_its_own_index(step, message):
    with pytest.raises(ValidationError) as error:
        TypeAdapter(list[ScheduleStep]).validate_python([["0s", 1], step])
    (problem,) = error.value.errors()
    assert problem["loc"] == (1,)
    assert re.search(message, str(problem["ctx"]["error"]))


def test_a_step_reads_human_units():
    assert TypeAdapter(list[ScheduleStep]).validate_python([["0s", 20], ["1.5min", 100]]) == [(0, 20), (90 * S, 100)]


# --- in a scenario ---------------------------------------------------------------------------


def fig10(**vegas_changes) -> dict:
    """`podlesny` Fig. 10(a)'s stated points on a small dumbbell."""
    return {
        "duration": "180s",
        "links": [
            {"name": "access", "a": "s", "b": "r", "rate": "100Mbps", "delay": "5ms", "queue": "1000pkt"},
            {"name": "bottleneck", "a": "r", "b": "d", "rate": "10Mbps", "delay": "10ms", "queue": "100pkt"},
        ],
        "flows": [
            {"name": "vegas", "src": "s", "dst": "d", "variant": "vegas", "count": 100}
            | {"schedule": [["0s", 20], ["80s", 100]]}
            | vegas_changes,
            {"name": "newreno", "src": "s", "dst": "d", "count": 100, "schedule": [["0s", 100], ["100s", 0]]},
        ],
    }


def test_each_replica_gets_its_share_of_the_schedule_as_on_off_intervals():
    flows = load_scenario(fig10(bytes="1MB")).to_engine()["flows"]
    apps = {flow["name"]: flow["app"] for flow in flows}
    assert apps["vegas.0"] == apps["vegas.19"] == {"kind": "on_off", "on_ns": [[0, 180 * S]], "bytes": 1_000_000}
    assert apps["vegas.20"] == apps["vegas.99"] == {"kind": "on_off", "on_ns": [[80 * S, 180 * S]], "bytes": 1_000_000}
    assert {str(flow["app"]["on_ns"]) for flow in flows[100:]} == {str([[0, 100 * S]])}
    assert apps["vegas.0"] is not apps["vegas.1"]  # each engine flow owns its application


def test_a_scheduled_class_sends_only_while_its_replicas_are_on():
    scenario = fig10(schedule=[["0s", 1], ["2s", 2], ["4s", 0]], count=2)
    scenario |= {"duration": "6s", "flows": scenario["flows"][:1], "trace": {"throughput_bin": "500ms"}}
    r = tcpsim.run(scenario, seed=1)
    bins = r.trace("throughput").pivot(index="time_s", columns="flow_name", values="bytes")
    assert bins.loc[:1.5, "vegas.1"].sum() == 0 and bins.loc[2.5:3.5, "vegas.1"].min() > 0
    assert bins.loc[0.5:3.5, "vegas.0"].min() > 0
    assert bins.loc[4.5:, ["vegas.0", "vegas.1"]].to_numpy().sum() == 0  # 4 s + one RTT: all quiet


def test_bad_schedules_name_the_step():
    with pytest.raises(ScenarioError) as error:
        load_scenario(fig10(schedule=[["0s", 20], ["80s", 101], ["70s", -1]]))
    assert str(error.value).splitlines() == [
        'flows[0].schedule[2]: -1 is not a number of active flows; use a whole number >= 0, e.g. ["80s", 100]',
    ]
    with pytest.raises(ScenarioError) as error:
        load_scenario(fig10(schedule=[["0s", 20], ["80s", 101], ["70s", 3]]))
    assert str(error.value).splitlines() == [
        "flows[0].schedule[1]: 101 active flows is more than `count` (100); allowed: 0 to 100",
        "flows[0].schedule[2]: 70s is not after the previous step (80s); list steps in increasing time",
    ]


def test_a_schedule_replaces_start_stop_and_on():
    with pytest.raises(ScenarioError) as error:
        load_scenario(fig10(start="1s", start_jitter="1s", on=[["0s", "1s"]]))
    assert {line.split(":")[0] for line in str(error.value).splitlines()} == {
        "flows[0].start",
        "flows[0].start_jitter",
        "flows[0].on",
    }
    with pytest.raises(ScenarioError, match=r"flows\[0\]\.schedule: needs at least 1 entry"):
        load_scenario(fig10(schedule=[]))


def test_the_cli_refuses_a_bad_schedule_with_exit_2(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_bytes(tomli_w.dumps(fig10(schedule=[["0s", 20], ["80s", 200]])).encode())
    result = CliRunner().invoke(app, ["validate", str(path)])
    assert result.exit_code == 2
    assert "error: flows[0].schedule[1]: 200 active flows is more than `count` (100)" in result.stderr
