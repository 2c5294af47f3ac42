"""Fuzz target for the scenario layer (issue 27): hostile mutations of real scenarios.

`test_scenario_property.py` builds well-formed scenarios and checks that what `validate` accepts
runs. This target starts from the shipped scenarios and a hand-made one with every queue, loss
model and traffic kind, then puts hostile values at random places: integers of any size (300
digits), NaN and infinities, strings with control characters, units that overflow,
deep nesting, wrong types, missing and unknown keys, lists copied many times. Whatever it gets,
the layer must refuse with a `ScenarioError` (which names the field) or accept; an accepted
scenario must then translate for the engine, be costed, and run (cut to a few milliseconds)
or be refused by the limits, never raise anything else.

CI runs a fixed, derandomized set of examples; `TCPSIM_FUZZ_EXAMPLES=5000` runs more, on fresh
random inputs.
"""

import copy
import os
from typing import Any

import pytest

hypothesis = pytest.importorskip("hypothesis")
import tcpsim  # noqa: E402
from engine_fuzz_bases import rd_and_channels  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from tcpsim.limits import estimate_cost  # noqa: E402
from tcpsim.paths import builtin_scenario  # noqa: E402
from tcpsim.scenario import ScenarioError, load_scenario  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::tcpsim.limits.ScenarioWarning")

EXAMPLES = int(os.environ.get("TCPSIM_FUZZ_EXAMPLES", "120"))
LONG_RUN = "TCPSIM_FUZZ_EXAMPLES" in os.environ


def _bases() -> list[dict[str, Any]]:
    shipped = [
        copy.deepcopy(builtin_scenario(name))
        for name in ("parking_lot_mix", "red_ecn", "lossy_link", "single_flow", "moller_two_flows")
    ]
    return [*shipped, rd_and_channels()]


BASES = _bases()

HOSTILE_STRINGS = [
    "",
    " ",
    "\u001b]0;pwned\u0007",
    "\x00",
    "1e400s",
    "-1s",
    "9" * 400 + "s",
    "0x10pkt",
    " 10 Mbps ",
    "10Mbps;",
    "NaN",
    "inf",
    "1BDP" * 50,
    "é" * 300,
    "10 kbps/s",
    "5/0s",
]

DEEP: list = [0]
for _ in range(200):
    DEEP = [DEEP]

hostile = st.one_of(
    st.integers(),
    st.sampled_from([2**64, -(2**63) - 1, 10**300, 2**53 + 1, 0, -1]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from(HOSTILE_STRINGS),
    st.text(max_size=20),
    st.booleans(),
    st.none(),
    st.recursive(
        st.integers(-3, 3) | st.text(max_size=3),
        lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=4), c, max_size=3),
        max_leaves=6,
    ),
    st.just(DEEP),
    st.just({"unknown_key": 1}),
)


def _paths(value: Any, prefix: tuple = ()) -> list[tuple]:
    out = [prefix]
    if isinstance(value, dict):
        for key, child in value.items():
            out += _paths(child, (*prefix, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            out += _paths(child, (*prefix, index))
    return out


def _parent(root: Any, path: tuple) -> Any:
    for step in path[:-1]:
        root = root[step]
    return root


@st.composite
def mutated(draw: st.DrawFn) -> dict[str, Any]:
    scenario = copy.deepcopy(draw(st.sampled_from(BASES)))
    for _ in range(draw(st.integers(1, 3))):
        paths = [p for p in _paths(scenario) if p]
        path = draw(st.sampled_from(paths))
        parent, key = _parent(scenario, path), path[-1]
        action = draw(st.sampled_from(["replace", "replace", "replace", "remove", "repeat", "add_key"]))
        if action == "replace":
            parent[key] = copy.deepcopy(draw(hostile))
        elif action == "remove":
            del parent[key]
        elif action == "repeat" and isinstance(parent, list):
            parent.extend(copy.deepcopy(parent[key]) for _ in range(draw(st.integers(1, 50))))
        elif action == "add_key" and isinstance(parent[key], dict):
            parent[key][draw(st.text(max_size=8))] = copy.deepcopy(draw(hostile))
    return scenario


@settings(
    max_examples=EXAMPLES,
    derandomize=not LONG_RUN,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(mutated())
def test_hostile_scenarios_are_refused_with_a_scenario_error_or_run(raw):
    try:
        scenario = load_scenario(raw)
    except ScenarioError as e:
        assert str(e).strip(), "a refusal names what is wrong"
        return
    engine = scenario.to_engine()
    estimate_cost(engine)
    try:
        result = tcpsim.run(raw, seed=1, duration="5ms", warmup="0s")
    except ScenarioError:
        return  # refused by the limits or by the shortened duration (e.g. an event after it)
    packets = result.meta["packets"]
    assert packets["created"] == packets["delivered"] + packets["dropped"] + packets["in_network"]


def test_the_mutations_reach_the_engine():
    """A fuzzer whose every input the schema refuses tests only the schema: a fixed sample of
    the mutated scenarios must include accepted ones."""
    accepted = 0
    for raw in _sample(60):
        try:
            load_scenario(raw)
            accepted += 1
        except ScenarioError:
            pass
    assert accepted >= 6, accepted


def _sample(n: int) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []

    @settings(max_examples=n, derandomize=True, database=None, deadline=None, suppress_health_check=list(HealthCheck))
    @given(mutated())
    def collect(raw):
        out.append(raw)

    collect()
    return out
