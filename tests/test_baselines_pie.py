"""`validation.pie`'s claims as pure functions, on data that makes each pass and fail, and the
experiment's registration."""

from tcpsim.repro import select
from tcpsim.repro.baselines.pie import (
    TARGET_S,
    delay_near_target,
    keeps_link_busy,
    standing_queue,
)


def test_delay_near_target_holds_within_half_the_target_in_every_run():
    assert delay_near_target([0.015, 0.0075, 0.0225])
    assert not delay_near_target([0.015, 0.0074]), "one run below 7.5 ms"
    assert not delay_near_target([0.0226]), "above 22.5 ms"
    assert not delay_near_target([]), "no run is no evidence"
    assert delay_near_target([0.004], target_s=0.005, band=0.2)


def test_keeps_link_busy_needs_every_run_at_the_floor():
    assert keeps_link_busy([0.9, 0.99])
    assert not keeps_link_busy([0.95, 0.899])
    assert not keeps_link_busy([])


def test_standing_queue_is_five_targets_in_every_run():
    assert standing_queue([5 * TARGET_S, 0.9])
    assert not standing_queue([0.9, 0.074])
    assert not standing_queue([])


def test_the_experiment_is_registered_as_a_validation_and_quick_is_one_seed_per_queue():
    [experiment] = select(["validation.pie"])
    assert (experiment.kind, experiment.paper) == ("validation", "validation")
    runs = experiment.runs(quick=True, seeds=None)
    assert sorted(spec.key["queue"] for spec in runs) == ["aqm", "drop_tail"]
    assert all(("duration", "30s") in spec.overrides for spec in runs)


def test_codel_is_checked_as_pie_against_its_own_5_ms_target():
    from tcpsim.repro.baselines.codel import CodelDelay
    from tcpsim.repro.baselines.pie import delay_near_target, standing_queue

    codel = CodelDelay()
    runs = codel.runs(quick=False, seeds=2)
    assert {spec.scenario["name"] for spec in runs} == {"codel"}
    assert all(("duration", "60s") in spec.overrides for spec in runs)
    assert delay_near_target([0.0047], codel.target_s)
    assert not delay_near_target([0.0047, 0.009], codel.target_s)  # PIE's 15 ms would accept 9 ms
    assert standing_queue([0.030], codel.target_s) and not standing_queue([0.020], codel.target_s)
