"""The validation suite's claim decisions: each holds on data that agrees with the RFC or model it
checks and fails on data that contradicts it."""

import pytest
from tcpsim.repro import validation


def test_single_flow_decisions():
    assert validation.fills_link(1.86e6, 2e6)
    assert not validation.fills_link(1.7e6, 2e6)  # 85 % of the link
    assert validation.no_spurious_fast_retransmit(0)
    assert not validation.no_spurious_fast_retransmit(1)


def test_recovery_hand_worked_trace():
    expected = validation.HAND_WORKED["newreno"]
    assert validation.matches_hand_worked(expected + [13_000], expected)
    # Reno-style inflation missing after fast retransmit: one value off.
    wrong = list(expected)
    wrong[15] += 1000
    assert not validation.matches_hand_worked(wrong, expected)
    assert not validation.matches_hand_worked(expected[:-1], expected)  # the trace stops short


def test_recovery_variant_decisions():
    assert validation.tahoe_falls_back([1000, 1000, 1000], [0, 0, 0], 1000)
    assert not validation.tahoe_falls_back([1000, 6000, 1000], [0, 0, 0], 1000)  # halved, not back to 1
    assert not validation.tahoe_falls_back([1000, 1000, 1000], [0, 1, 0], 1000)  # recovered by a timeout
    assert validation.reno_halves_or_times_out([2, 1], [0, 1])
    assert not validation.reno_halves_or_times_out([2, 1], [0, 0])  # 3 losses repaired in one halving
    lost = [1, 2, 3]
    assert validation.one_recovery_episode(lost, [0, 0, 0], [1, 1, 1], [1, 2, 3])
    assert not validation.one_recovery_episode(lost, [0, 0, 0], [1, 2, 1], [1, 2, 3])  # a second episode
    assert not validation.one_recovery_episode(lost, [0, 0, 1], [1, 1, 1], [1, 2, 3])  # a timeout
    assert not validation.one_recovery_episode(lost, [0, 0, 0], [1, 1, 1], [1, 2, 5])  # go-back-N resends
    assert validation.all_delivered([200_000] * 12, 200_000)
    assert not validation.all_delivered([200_000, 199_000], 200_000)
    assert not validation.all_delivered([], 200_000)


def test_loss_formula_relative_error():
    assert validation.worst_relative_error([110.0, 95.0], [100.0, 100.0]) == pytest.approx(0.10)
    # Twice the model's rate at one p: 100 % off, beyond both the 25 % and the 40 % tolerance.
    assert validation.worst_relative_error([100.0, 200.0], [100.0, 100.0]) == pytest.approx(1.0)


def test_fairness_floor():
    assert validation.fair([0.99, 0.97, 0.96])
    assert not validation.fair([0.99, 0.97, 0.90])  # 8 flows unfair
    assert not validation.fair([])
