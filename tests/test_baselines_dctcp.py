"""validation.dctcp's claims as pure functions, fed numbers that make them hold and fail."""

import math

import pytest
from tcpsim.repro import select
from tcpsim.repro.baselines.dctcp import (
    bdp_packets,
    dctcp_scenario,
    full_utilization,
    queue_band,
    queue_in_band,
    shorter_queue,
)
from tcpsim.scenario import load_scenario


def test_the_band_is_the_papers_oscillation_around_k_plus_n():
    assert bdp_packets() == pytest.approx(100e6 * 1e-3 / 12_000)
    low, high = queue_band(20, 2, 25 / 3, slack=0)
    assert high == 22
    assert low == pytest.approx(22 - 0.5 * math.sqrt(4 * (25 / 3 + 20)))
    assert queue_band(20, 2, 25 / 3) == pytest.approx((low - 1, 23))
    # 10 Gb/s, K = 65, C·RTT = 83 packets, 2 flows: A = ½√(4·148) ≈ 12.2.
    low, high = queue_band(65, 2, 83, slack=0)
    assert (high, round(low, 1)) == (67, 54.8)


def test_claims_hold_and_fail():
    band = (15.68, 23.0)
    assert queue_in_band([19.9, 20.4], band)
    assert not queue_in_band([19.9, 24.0], band), "one run above the band"
    assert not queue_in_band([15.0], band) and not queue_in_band([], band)
    assert full_utilization([0.999, 0.96]) and not full_utilization([0.999, 0.94]) and not full_utilization([])
    assert shorter_queue([20.0, 21.0], [400.0, 300.0])
    assert not shorter_queue([20.0], [19.0]) and not shorter_queue([], [300.0])


def test_the_experiment_is_registered_and_its_scenarios_load():
    (experiment,) = select(["validation.dctcp"])
    assert experiment.kind == "validation" and experiment.paper == "validation"
    assert len(experiment.runs(quick=True, seeds=None)) == 4
    for variant in ("dctcp", "newreno"):
        engine = load_scenario(dctcp_scenario(variant, "1s", "0s")).to_engine()
        port = engine["links"][2]["ab"]["queue"]
        assert port["kind"] == ("step" if variant == "dctcp" else "drop_tail")
        assert engine["flows"][0]["tcp"]["ecn"] is (variant == "dctcp")
