"""Flow-count schedules compiled to per-replica ON intervals, worked by hand."""

from __future__ import annotations

import re

import pytest
from pydantic import TypeAdapter, ValidationError
from tcpsim.scenario.schedule import ScheduleStep, replica_on_intervals, schedule_problems

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
