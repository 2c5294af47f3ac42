"""The throughput formulas against values worked from the papers' equations."""

import numpy as np
import pytest
from tcpsim.models.padhye import mathis, padhye_full


def test_full_model_tends_to_the_square_root_formula_at_small_loss():
    p = 1e-5
    ratio = padhye_full(p, 0.1, 1.0) / mathis(p, 0.1)
    assert ratio == pytest.approx(1.0, rel=0.02)


def test_timeouts_dominate_at_high_loss():
    # With T0 = 10·RTT the full model falls far below the square-root formula at p = 0.1.
    assert padhye_full(0.1, 0.1, 1.0) < 0.5 * mathis(0.1, 0.1)


def test_worked_value_at_one_percent_loss():
    # p = 0.01, RTT = 0.1 s, T0 = 1 s, b = 1: E[W] = 1 + sqrt(8·0.99/0.03 + 1) = 17.28,
    # Q = min(1, (1-0.99^3)(1+0.99^3(1-0.99^14.28)) / (1-0.99^17.28)) = 0.2105,
    # f = 1.0102; B = (99 + 17.28 + 0.2105/0.99) / (0.1·9.64 + 0.2126·1.0102) = 98.8 pkt/s.
    assert float(padhye_full(0.01, 0.1, 1.0)) == pytest.approx(98.8, rel=0.005)


def test_window_limit_caps_the_rate():
    assert float(padhye_full(1e-6, 0.1, 1.0, w_max_pkts=10)) == pytest.approx(100, rel=0.01)


def test_loss_outside_the_open_unit_interval_is_rejected():
    with pytest.raises(ValueError, match="p:"):
        padhye_full(np.array([0.0, 0.1]), 0.1, 1.0)
