"""validation.bbr's claim decisions: each holds on data showing the behaviour the literature
reports and fails on data that contradicts it."""

import math

from tcpsim.repro.baselines import bbr


def test_alone_decision():
    assert bbr.fills_link_with_empty_queue(0.97, 0.004, 0.040)  # 0.1 RTprop of queue
    assert not bbr.fills_link_with_empty_queue(0.85, 0.004, 0.040)  # link not filled
    assert not bbr.fills_link_with_empty_queue(0.99, 0.010, 0.040)  # a standing quarter-BDP queue
    assert not bbr.fills_link_with_empty_queue(0.99, 0.320, 0.040)  # the buffer filled (loss-based)


def test_share():
    assert bbr.bbr_share(15e6, 5e6) == 0.75
    assert math.isnan(bbr.bbr_share(0, 0))


def test_competition_decision():
    assert bbr.shallow_to_bbr_deep_to_loss_based([0.9, 0.8], [0.3, 0.2])
    assert not bbr.shallow_to_bbr_deep_to_loss_based([0.4, 0.45], [0.3, 0.2])  # BBR behind in shallow
    assert not bbr.shallow_to_bbr_deep_to_loss_based([0.9, 0.8], [0.6, 0.5])  # BBR ahead in deep too
    assert not bbr.shallow_to_bbr_deep_to_loss_based([], [0.2])
