"""Flow-count schedules: how many replicas of a [[flows]] entry are active over time, e.g.
`podlesny` Sec. IV-G (Fig. 10(a)): 20 Vegas flows until 80 s, then 100; 100 NewReno flows
until 100 s, then none.

`schedule = [["0s", 20], ["80s", 100]]` is a step function: from each time on, that many
replicas are active, until the next step (the last one holds to the end of the run). Replicas
0 … n−1 are the active ones, so replica r is on exactly while the active count exceeds r:
growing the count turns on the next replicas, shrinking it turns off the last ones first, and
each replica is an ON/OFF flow whose connection persists across its OFF periods. Before the
first step no replica is on.
"""

from collections.abc import Sequence
from typing import Annotated

from tcpsim.scenario.errors import Problem, show
from tcpsim.scenario.fields import _DURATION_SCHEMA, MAX_FLOW_COUNT, MAX_TIME_NS, Validated
from tcpsim.units import format_duration, parse_duration_ns

Step = tuple[int, int]
"""(time in ns, number of active replicas from then on)."""
Interval = tuple[int, int]
"""[start, end) in ns."""


def _step(value: object) -> Step:
    """`["80s", 100]`: from 80 s on, 100 replicas are active."""
    example = 'e.g. ["80s", 100]'
    if not isinstance(value, list | tuple) or len(value) != 2:
        raise ValueError(f"{show(value)} is not a schedule step; use [time, active flows], {example}")
    time, active = value
    time_ns = parse_duration_ns(time)
    if time_ns > MAX_TIME_NS:
        raise ValueError(f"{show(time)} is too large; at most {format_duration(MAX_TIME_NS)} is allowed here")
    if isinstance(active, bool) or not isinstance(active, int) or active < 0:
        raise ValueError(f"{show(active)} is not a number of active flows; use a whole number >= 0, {example}")
    return time_ns, active


ScheduleStep = Annotated[
    Step,
    Validated(
        _step,
        {
            "type": "array",
            "prefixItems": [_DURATION_SCHEMA, {"type": "integer", "minimum": 0, "maximum": MAX_FLOW_COUNT}],
            "minItems": 2,
            "maxItems": 2,
        },
    ),
]
"""One entry of a `schedule`, checked on its own (the path of an error is `schedule[j]`)."""


def schedule_problems(steps: Sequence[Step], count: int) -> list[Problem]:
    """What is wrong with a whole schedule of a [[flows]] entry replicated `count` times: times
    must increase strictly and no step may ask for more than `count` active replicas."""
    problems: list[Problem] = []
    for j, (time_ns, active) in enumerate(steps):
        if j > 0 and time_ns <= steps[j - 1][0]:
            problems.append(
                (
                    ("schedule", j),
                    f"{format_duration(time_ns)} is not after the previous step ({format_duration(steps[j - 1][0])}); "
                    "list steps in increasing time",
                )
            )
        if active > count:
            problems.append(
                (("schedule", j), f"{active} active flows is more than `count` ({count}); allowed: 0 to {count}")
            )
    return problems


def on_interval_count(steps: Sequence[Step], count: int) -> int:
    """How many ON intervals the replicas get, at most (exactly, when every step is within the
    run): each rise of the active count from a to b turns on replicas a … b − 1, each for a new
    interval; a replica turned off is turned on again only at a later step, so no two merge.
    Counted from the steps alone, before :func:`replica_on_intervals` builds them."""
    intervals, active = 0, 0
    for _, wanted in steps:
        intervals += max(0, min(wanted, count) - active)
        active = min(wanted, count)
    return intervals


def replica_on_intervals(steps: Sequence[Step], count: int, end_ns: int) -> list[list[Interval]]:
    """Each replica's ON intervals [start, end) within [0, end_ns) (the run), sorted, disjoint
    and merged where they touch; a replica the schedule never turns on gets none. `steps` are
    checked (:func:`schedule_problems`)."""
    on: list[list[Interval]] = [[] for _ in range(count)]
    ends = [time_ns for time_ns, _ in steps[1:]] + [end_ns]
    for (start_ns, active), next_ns in zip(steps, ends, strict=True):
        stop_ns = min(next_ns, end_ns)
        if start_ns >= stop_ns:
            continue
        for intervals in on[:active]:
            if intervals and intervals[-1][1] == start_ns:
                intervals[-1] = (intervals[-1][0], stop_ns)
            else:
                intervals.append((start_ns, stop_ns))
    return on
