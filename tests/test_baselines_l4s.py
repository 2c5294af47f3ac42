"""validation.l4s's claims as pure functions, fed numbers that make them hold and fail."""

from tcpsim.repro import select
from tcpsim.repro.baselines.l4s import (
    MIXES,
    classic_near_target,
    l4s_scenario,
    low_latency_at_full_rate,
    windows_roughly_equal,
)
from tcpsim.scenario import load_scenario


def test_claims_hold_and_fail():
    assert low_latency_at_full_rate([0.0004, 0.0009], [0.97, 0.99])
    assert not low_latency_at_full_rate([0.0004, 0.0011], [0.97, 0.99]), "one run's queue above 1 ms"
    assert not low_latency_at_full_rate([0.0004], [0.94]), "the link not kept busy"
    assert not low_latency_at_full_rate([], []) and not low_latency_at_full_rate([0.0004], [])
    assert classic_near_target([0.0075, 0.0225], [0.9, 0.95])
    assert not classic_near_target([0.007, 0.015], [0.95, 0.95]), "one run below the band"
    assert not classic_near_target([0.015], [0.89]) and not classic_near_target([], [])
    assert windows_roughly_equal([0.5, 1.0, 2.0])
    assert not windows_roughly_equal([0.49, 1.0]) and not windows_roughly_equal([2.1]) and not windows_roughly_equal([])


def test_the_experiment_is_registered_and_its_scenarios_load():
    (experiment,) = select(["validation.l4s"])
    assert experiment.kind == "validation" and experiment.paper == "validation"
    assert len(experiment.runs(quick=True, seeds=None)) == len(MIXES) * len(experiment.replications(True, None))
    for mix, (first, second) in MIXES.items():
        engine = load_scenario(l4s_scenario(mix, "1s", "0s")).to_engine()
        assert engine["links"][2]["ab"]["queue"]["kind"] == "dualpi2"
        codepoints = [flow["tcp"].get("ecn_codepoint", "ect0") for flow in engine["flows"]]
        assert codepoints == [("ect1" if v == "prague" else "ect0") for v in (first, second)]
