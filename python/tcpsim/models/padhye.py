"""Steady-state TCP Reno send rate as a function of the loss rate.

- `padhye_full`: Padhye, Firoiu, Towsley, Kurose, "Modeling TCP Throughput: A Simple Model
  and its Empirical Validation", SIGCOMM '98, the full model of eq. (30) (window limitation
  of eq. (31) included), with E[W] of eq. (13), Q̂ of eq. (24) and f(p) of eq. (28).
- `mathis`: the square-root formula of Mathis et al. (CCR 1997), rate = (MSS/RTT)·√(3/(2bp)).

Rates are in packets per second. `b` is the number of packets acknowledged by one ACK (2 with
delayed ACKs), `t0_s` the duration of the first retransmission timeout, `w_max_pkts` the
receiver's window. Like the paper, "send rate" counts every packet sent, retransmissions
included.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike


def _expected_window(p: np.ndarray, b: float) -> np.ndarray:
    """E[W], eq. (13): the mean window at a triple-duplicate-ACK loss indication."""
    c = (2 + b) / (3 * b)
    return c + np.sqrt(8 * (1 - p) / (3 * b * p) + c * c)


def _timeout_probability(p: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Q̂(p, w), eq. (24): probability that a loss indication in a window of w is a timeout."""
    q = 1 - p
    num = (1 - q**3) * (1 + q**3 * (1 - q ** (w - 3)))
    den = 1 - q**w
    return np.minimum(1.0, num / den)


def _backoff_factor(p: np.ndarray) -> np.ndarray:
    """f(p), eq. (28): expected length of a timeout sequence in units of T0, with back-off."""
    return 1 + p + 2 * p**2 + 4 * p**3 + 8 * p**4 + 16 * p**5 + 32 * p**6


def padhye_full(
    p: ArrayLike, rtt_s: ArrayLike, t0_s: ArrayLike, b: float = 1.0, w_max_pkts: float = np.inf
) -> np.ndarray:
    """Send rate B(p) in packets/s, eq. (30) (eq. (31) when the window limit binds)."""
    p = np.asarray(p, dtype=float)
    rtt = np.asarray(rtt_s, dtype=float)
    t0 = np.asarray(t0_s, dtype=float)
    if np.any((p <= 0) | (p >= 1)):
        raise ValueError("p: loss probabilities must lie in (0, 1)")
    ew = _expected_window(p, b)
    limited = ew >= w_max_pkts
    w = np.where(limited, w_max_pkts, ew)
    q = _timeout_probability(p, w)
    f = _backoff_factor(p)
    unlimited_rate = ((1 - p) / p + ew + q / (1 - p)) / (rtt * (b / 2 * ew + 1) + q * t0 * f / (1 - p))
    limited_rate = ((1 - p) / p + w + q / (1 - p)) / (rtt * (b / 8 * w + (1 - p) / (p * w) + 2) + q * t0 * f / (1 - p))
    return np.where(limited, limited_rate, unlimited_rate)


def mathis(p: ArrayLike, rtt_s: ArrayLike, b: float = 1.0) -> np.ndarray:
    """Square-root formula: (1/RTT)·√(3/(2bp)) packets/s."""
    p = np.asarray(p, dtype=float)
    return np.sqrt(3 / (2 * b * p)) / np.asarray(rtt_s, dtype=float)
