"""Hybrid fluid model of one TCP New Reno and one TCP Westwood+ flow at a drop-tail bottleneck.

Möller, Barakat, Avrachenkov & Altman, "Inter-protocol fairness between TCP New Reno and TCP
Westwood+", Secs. II–IV. Index 1 = New Reno, index 2 = Westwood+. Both flows have the same
round-trip propagation delay T and segment size m (m_1 = m_2 = m, M = 2m, as in Sec. III-B).
Internal units: bytes, bytes/s, seconds; the "virtual time" s of Sec. III-A counts round trips.
Normalized throughput = average rate / C.

Reconstructions of formulas that the PDF text garbles or states inconsistently (each one was
re-derived from the steps the paper gives):

- eq. (21), t* of Prop. 3. The text prints t* = (W s1 + CT (s3 - s1) + M (s1² + s3²)/2) / C,
  which is not the sum t1 + t2 + t3 of the phase durations derived in the proof
  (t1 = (B + W s1 + M s1²/2)/C, t2 = T s2 with s2 = (CT - W)/M - s1,
  t3 = (-B + CT s3 + M s3²/2)/C). We use the sum,
  t* = (W s1 + CT (s2 + s3) + M (s1² + s3²)/2) / C,
  i.e. the printed formula plus T (CT - W)/M. The printed one is discontinuous with Prop. 2 at
  the boundary of Prop. 1 and gives utilizations above 1 (1.15–1.56 in scenario 3 for
  B/CT in [0.05, 0.5]); the sum is continuous there and agrees with direct integration of
  eqs. (2)–(3) (both checked in tests/test_moller_model.py).
- Prop. 3 says "s1 and s2 are defined by" and then defines s1 and s3; s2 is the one from the
  proof (empty-queue phase, t2 = T s2).
- Lambert-W branches of eqs. (16), (20) and Prop. 3, re-derived from eq. (13) (which was itself
  re-checked against eq. (12)): q(s) = B reduces to 1 + s~ = (1 + s~) e^{-s} + s, whose roots
  are s = 1 + s~ + W_k(-(1 + s~) e^{-(1 + s~)}); W_{-1} gives the trivial root s = 0, W_0 the
  next loss s* > 0. q(s) = 0 has the roots 1 + a + W_k(-(1 + s~) e^{-1-a}) with
  a = (CT - W)/M; the queue first empties at the smaller one, W_{-1} (s1 < a). Phase 3,
  eq. (22): q(s) = B at sigma = 1 + B/M + W_0(-e^{-1-B/M}) (W_{-1} gives sigma = 0).
- eq. (16) when s~ <= 0, i.e. the total window right after the loss already exceeds the
  overflow level CT + B (the linearised fixed point of eq. (30) does so for B below about one
  packet): the formula evaluates to s* = 0 (next loss immediate); eq. (19) then gives the
  limit C w_i / W, which is what Prop. 4's B -> 0 argument uses.
- eq. (34): rates in packets/s with RTT and T_q in seconds and p the per-packet loss
  probability; eq. (35) is their ratio with RTT = T + T_q.
- Modified Westwood+ (Sec. IV, text only): "the new window is never set to a value smaller than
  half of the previous value", i.e. the decrease factor beta becomes max(beta, 1/2) in eq. (27),
  hence in eqs. (29)–(30).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike, NDArray

FloatArray = NDArray[np.float64]
LossSelection = Literal["synchronized", "rate_proportional", "uniform"]

BITS_PER_BYTE = 8.0
_INV_E = float(np.exp(-1.0))
# Below this log-argument exp() underflows and W_{-1} is found by Newton's method instead.
_LOG_UNDERFLOW = -700.0


def _require_positive_finite(name: str, value: ArrayLike) -> None:
    try:
        values = np.asarray(value, dtype=float)
    except (TypeError, ValueError) as err:
        raise ValueError(f"{name} must be a positive finite number, got {value!r}") from err
    if values.size == 0 or not np.all(np.isfinite(values)) or not np.all(values > 0):
        raise ValueError(f"{name} must be positive and finite, got {value!r}")


@dataclass(frozen=True)
class MollerParams:
    """Scenario of Sec. IV / Table II: bottleneck capacity C (bits/s), round-trip propagation
    delay T (s), drop-tail buffer B (packets), segment size m (bytes)."""

    capacity_bps: float
    rtt_s: float
    buffer_pkts: float
    packet_bytes: float = 1500.0
    modified_westwood: bool = False

    def validate(self) -> None:
        """Raise ValueError naming the first invalid field."""
        for name in ("capacity_bps", "rtt_s", "buffer_pkts", "packet_bytes"):
            _require_positive_finite(name, getattr(self, name))
        if not isinstance(self.modified_westwood, bool):
            raise ValueError(f"modified_westwood must be a bool, got {self.modified_westwood!r}")

    @property
    def capacity_bytes_per_s(self) -> float:
        return self.capacity_bps / BITS_PER_BYTE

    @property
    def bdp_bytes(self) -> float:
        """Bandwidth-delay product CT."""
        return self.capacity_bytes_per_s * self.rtt_s

    @property
    def bdp_pkts(self) -> float:
        return self.bdp_bytes / self.packet_bytes

    @property
    def buffer_bytes(self) -> float:
        return self.buffer_pkts * self.packet_bytes

    @property
    def buffer_over_bdp(self) -> float:
        return self.buffer_bytes / self.bdp_bytes

    @property
    def westwood_decrease_factor(self) -> float:
        """beta of eq. (27) (max(beta, 1/2) for the modified Westwood+ of Sec. IV)."""
        return float(westwood_decrease_factor(self.bdp_bytes, self.buffer_bytes, self.modified_westwood))


@dataclass(frozen=True)
class EpochSolution:
    """One congestion epoch (Sec. III-A) from windows (w1_0, w2_0) and a full queue."""

    s_star: FloatArray  # virtual duration s* (round trips), eq. (24)
    t_star_s: FloatArray  # duration t*, eq. (17) or (21)
    full_utilization: NDArray[np.bool_]  # Prop. 1
    newreno_bytes_per_s: FloatArray  # D_1 / t*, eq. (7)/(19)
    westwood_bytes_per_s: FloatArray  # D_2 / t*


@dataclass(frozen=True)
class HybridResult:
    """Time averages over the measured congestion epochs of `simulate_hybrid`."""

    newreno: float  # normalized throughput of flow 1
    westwood_plus: float  # normalized throughput of flow 2
    utilization: float
    congestion_events: int
    duration_s: float
    newreno_losses: int  # window reductions of flow 1 in the measured window
    westwood_losses: int


def _lambertw_real(x: ArrayLike, branch: Literal[0, -1]) -> FloatArray:
    """Real branch W_0 or W_{-1} (Corless et al., the paper's ref. [9]); arguments at or just
    below -1/e, produced by rounding at the branch point, map to -1."""
    from scipy.special import lambertw  # the `stats` extra, loaded when the model is used

    x = np.asarray(x, dtype=float)
    at_branch_point = x <= -_INV_E
    w = lambertw(np.where(at_branch_point, -0.1, x), branch).real
    return np.where(at_branch_point, -1.0, w)


def _lambertw_minus1_of_neg_exp(log_minus_x: ArrayLike) -> FloatArray:
    """W_{-1}(-exp(L)) for L <= -1, also where exp(L) underflows (large BDPs in Prop. 3):
    there Newton's method on w + log(-w) = L, started from the asymptote L - log(-L)."""
    log_minus_x = np.minimum(np.asarray(log_minus_x, dtype=float), -1.0)
    direct = _lambertw_real(-np.exp(np.maximum(log_minus_x, _LOG_UNDERFLOW)), -1)
    tail_log = np.minimum(log_minus_x, _LOG_UNDERFLOW)
    w = tail_log - np.log(-tail_log)
    for _ in range(6):
        w = w - (w + np.log(-w) - tail_log) / (1.0 + 1.0 / w)
    return np.where(log_minus_x < _LOG_UNDERFLOW, w, direct)


def westwood_decrease_factor(bdp_bytes: ArrayLike, buffer_bytes: ArrayLike, modified: bool = False) -> FloatArray:
    """beta = CT / (CT + B), Westwood+'s window decrease with RTT_min = T and the optimistic
    bandwidth estimate (end of Sec. II); modified Westwood+ (Sec. IV): max(beta, 1/2)."""
    bdp = np.asarray(bdp_bytes, dtype=float)
    beta = bdp / (bdp + np.asarray(buffer_bytes, dtype=float))
    return np.maximum(beta, 0.5) if modified else beta


def s_tilde(
    total_window_bytes: ArrayLike,
    bdp_bytes: ArrayLike,
    buffer_bytes: ArrayLike,
    increase_bytes: ArrayLike,
) -> FloatArray:
    """s~ = (CT + B - W) / M, eqs. (18) and (23)."""
    return (
        np.asarray(bdp_bytes, dtype=float)
        + np.asarray(buffer_bytes, dtype=float)
        - np.asarray(total_window_bytes, dtype=float)
    ) / np.asarray(increase_bytes, dtype=float)


def full_utilization(
    total_window_bytes: ArrayLike,
    bdp_bytes: ArrayLike,
    buffer_bytes: ArrayLike,
    increase_bytes: ArrayLike,
) -> NDArray[np.bool_]:
    """Prop. 1: the queue never empties iff W >= CT (14) or B/M >= exp(a) - 1 - a (15),
    a = (CT - W)/M; W = w1_0 + w2_0 is the total window just after the loss, M = m1 + m2."""
    window = np.asarray(total_window_bytes, dtype=float)
    bdp = np.asarray(bdp_bytes, dtype=float)
    increase = np.asarray(increase_bytes, dtype=float)
    deficit = (bdp - window) / increase
    with np.errstate(over="ignore"):
        queue_stays_positive = np.asarray(buffer_bytes, dtype=float) / increase >= (np.expm1(deficit) - deficit)
    return (window >= bdp) | queue_stays_positive


def epoch_full_utilization(
    total_window_bytes: ArrayLike,
    bdp_bytes: ArrayLike,
    buffer_bytes: ArrayLike,
    increase_bytes: ArrayLike,
    capacity_bytes_per_s: ArrayLike,
) -> tuple[FloatArray, FloatArray]:
    """Prop. 2, eqs. (16)–(17): (s*, t*) when Prop. 1 holds. s* = 0 where s~ <= 0 (see the
    module docstring)."""
    window = np.asarray(total_window_bytes, dtype=float)
    increase = np.asarray(increase_bytes, dtype=float)
    y = 1.0 + s_tilde(window, bdp_bytes, buffer_bytes, increase)
    positive = y > 1.0
    y_safe = np.where(positive, y, 2.0)
    root = y_safe + _lambertw_real(-y_safe * np.exp(-y_safe), 0)
    s_star = np.where(positive, np.maximum(root, 0.0), 0.0)
    capacity = np.asarray(capacity_bytes_per_s, dtype=float)
    t_star = s_star * (window + increase * s_star / 2) / capacity
    return s_star, t_star


def epoch_under_utilization(
    total_window_bytes: ArrayLike,
    bdp_bytes: ArrayLike,
    buffer_bytes: ArrayLike,
    increase_bytes: ArrayLike,
    capacity_bytes_per_s: ArrayLike,
) -> tuple[FloatArray, FloatArray]:
    """Prop. 3, eq. (20) and the reconstructed eq. (21): (s*, t*) when Prop. 1 fails (the queue
    drains at s1, stays empty for s2, refills to B in s3); NaN where Prop. 1 holds."""
    window = np.asarray(total_window_bytes, dtype=float)
    bdp = np.asarray(bdp_bytes, dtype=float)
    increase = np.asarray(increase_bytes, dtype=float)
    buffer_over_increase = np.asarray(buffer_bytes, dtype=float) / increase
    applies = ~full_utilization(window, bdp, buffer_bytes, increase)
    deficit = np.where(applies, (bdp - window) / increase, 1.0)  # a = (CT - W)/M > 0
    # s1 = 1 + a + W_{-1}(-(1 + s~) e^{-1-a}), 1 + s~ = 1 + a + B/M; argument passed as a log.
    s1 = 1.0 + deficit + _lambertw_minus1_of_neg_exp(np.log1p(deficit + buffer_over_increase) - 1.0 - deficit)
    s2 = deficit - s1
    s3 = 1.0 + buffer_over_increase + _lambertw_real(-np.exp(-1.0 - buffer_over_increase), 0)
    s_star = s1 + s2 + s3  # = s~ + 1 + W_0(-e^{-1-B/M}), eq. (20)
    t_star = (window * s1 + bdp * (s2 + s3) + increase * (s1**2 + s3**2) / 2) / np.asarray(
        capacity_bytes_per_s, dtype=float
    )
    return np.where(applies, s_star, np.nan), np.where(applies, t_star, np.nan)


def data_volume_bytes(initial_window_bytes: ArrayLike, packet_bytes: ArrayLike, s_star: ArrayLike) -> FloatArray:
    """D_i = s* (w_i^0 + m_i s*/2), eq. (7): data a flow sends during one epoch."""
    s = np.asarray(s_star, dtype=float)
    return s * (np.asarray(initial_window_bytes, dtype=float) + np.asarray(packet_bytes) * s / 2)


def congestion_epoch(
    newreno_window_bytes: ArrayLike,
    westwood_window_bytes: ArrayLike,
    bdp_bytes: ArrayLike,
    buffer_bytes: ArrayLike,
    packet_bytes: ArrayLike,
    capacity_bytes_per_s: ArrayLike,
) -> EpochSolution:
    """Props. 1–3 and eqs. (7), (19), (24): duration and per-flow throughput of the epoch that
    starts with windows (w1_0, w2_0) right after a loss, queue full (q = B)."""
    w1, w2, bdp, buffer, m, capacity = np.broadcast_arrays(
        *(
            np.asarray(v, dtype=float)
            for v in (
                newreno_window_bytes,
                westwood_window_bytes,
                bdp_bytes,
                buffer_bytes,
                packet_bytes,
                capacity_bytes_per_s,
            )
        )
    )
    window = w1 + w2
    increase = 2.0 * m
    full = full_utilization(window, bdp, buffer, increase)
    s_full, t_full = epoch_full_utilization(window, bdp, buffer, increase, capacity)
    s_under, t_under = epoch_under_utilization(window, bdp, buffer, increase, capacity)
    s_star = np.where(full, s_full, s_under)
    with np.errstate(invalid="ignore", divide="ignore"):
        # eq. (19) where the link stays busy (it also covers s* = 0), D_i / t* otherwise.
        busy_mean_window = window + increase * s_star / 2
        rates = [
            np.where(
                full,
                capacity * (w + m * s_star / 2) / busy_mean_window,
                data_volume_bytes(w, m, s_star) / t_under,
            )
            for w in (w1, w2)
        ]
    return EpochSolution(
        s_star=s_star,
        t_star_s=np.where(full, t_full, t_under),
        full_utilization=full,
        newreno_bytes_per_s=rates[0],
        westwood_bytes_per_s=rates[1],
    )


def synchronized_fixed_point(
    bdp_bytes: ArrayLike, buffer_bytes: ArrayLike, packet_bytes: ArrayLike, beta: ArrayLike
) -> tuple[FloatArray, FloatArray]:
    """X* = (CT + B + m)/(3 - 2 beta) * (1 - beta, beta), eq. (30): windows just after a loss in
    the limit of the linearised, fully synchronized map of eq. (29)."""
    scale = (
        np.asarray(bdp_bytes, dtype=float)
        + np.asarray(buffer_bytes, dtype=float)
        + np.asarray(packet_bytes, dtype=float)
    ) / (3.0 - 2.0 * np.asarray(beta, dtype=float))
    return scale * (1.0 - np.asarray(beta)), scale * np.asarray(beta)


def large_buffer_asymptotics(
    bdp_bytes: ArrayLike, beta: ArrayLike, packet_bytes: ArrayLike
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Leading terms of eqs. (32)–(33) as beta -> 0 (B -> infinity):
    w1_0 ~ CT/(3 beta), w2_0 ~ CT/3, s* ~ 2CT/(3 M beta) with M = 2m."""
    bdp = np.asarray(bdp_bytes, dtype=float)
    beta = np.asarray(beta, dtype=float)
    return bdp / (3 * beta), bdp / 3, 2 * bdp / (3 * 2 * np.asarray(packet_bytes) * beta)


def prop4_limit_shares(
    buffer_limit: Literal["zero", "infinity"], modified_westwood: bool = False
) -> tuple[float, float]:
    """Prop. 4: (New Reno, Westwood+) normalized throughputs as B -> 0 (0, 1) and B -> infinity
    (3/4, 1/4). For the modified Westwood+ beta = 1/2 once B >= CT, so eq. (30) gives equal
    windows and B -> infinity yields (1/2, 1/2); B -> 0 is unchanged."""
    if buffer_limit == "zero":
        return 0.0, 1.0
    if buffer_limit == "infinity":
        return (0.5, 0.5) if modified_westwood else (0.75, 0.25)
    raise ValueError(f"buffer_limit must be 'zero' or 'infinity', got {buffer_limit!r}")


def sqrt_formula_newreno_pkts_per_s(loss_prob: ArrayLike, rtt_s: ArrayLike) -> FloatArray:
    """T^Reno = sqrt(2(1 - p)/p) / RTT, eq. (34) (from the paper's ref. [12])."""
    p = np.asarray(loss_prob, dtype=float)
    return np.sqrt(2 * (1 - p) / p) / np.asarray(rtt_s, dtype=float)


def sqrt_formula_westwood_pkts_per_s(loss_prob: ArrayLike, rtt_s: ArrayLike, queueing_delay_s: ArrayLike) -> FloatArray:
    """T^Westwood = sqrt((1 - p)/(p T_q RTT)), eq. (34); T_q is the mean queueing delay."""
    p = np.asarray(loss_prob, dtype=float)
    return np.sqrt((1 - p) / (p * np.asarray(queueing_delay_s, dtype=float) * np.asarray(rtt_s, dtype=float)))


def sqrt_formula_ratio(propagation_rtt_s: ArrayLike, queueing_delay_s: ArrayLike) -> FloatArray:
    """T^Westwood / T^Reno = sqrt(1 + T/T_q) / sqrt(2), eq. (35): 1 at T_q = T, -> 1/sqrt(2) as
    T_q -> infinity, -> infinity as T_q -> 0."""
    return np.sqrt((1 + np.asarray(propagation_rtt_s, dtype=float) / np.asarray(queueing_delay_s, dtype=float)) / 2)


def solve(
    capacity_bps: float,
    rtt_s: float,
    buffer_pkts: ArrayLike,
    packet_bytes: float = 1500.0,
    modified_westwood: bool = False,
) -> pd.DataFrame:
    """Closed form of Sec. III for a sweep of buffer sizes: X* of eq. (30) used as the initial
    windows of Props. 1–3, throughputs by eq. (7)/(19) (as the paper does for Figs. 3, 4, 7).

    Columns: buffer_pkts, buffer_over_bdp, newreno, westwood_plus (normalized throughputs),
    utilization (their sum), full_utilization (Prop. 1), epoch_rtts (s*), epoch_s (t*).
    """
    buffer_pkts = np.atleast_1d(np.asarray(buffer_pkts, dtype=float))
    _require_positive_finite("buffer_pkts", buffer_pkts)
    MollerParams(capacity_bps, rtt_s, float(buffer_pkts.min()), packet_bytes, modified_westwood).validate()
    capacity = capacity_bps / BITS_PER_BYTE
    bdp = capacity * rtt_s
    buffer = buffer_pkts * packet_bytes
    beta = westwood_decrease_factor(bdp, buffer, modified_westwood)
    w1, w2 = synchronized_fixed_point(bdp, buffer, packet_bytes, beta)
    epoch = congestion_epoch(w1, w2, bdp, buffer, packet_bytes, capacity)
    newreno = epoch.newreno_bytes_per_s / capacity
    westwood = epoch.westwood_bytes_per_s / capacity
    return pd.DataFrame(
        {
            "buffer_pkts": buffer_pkts,
            "buffer_over_bdp": buffer / bdp,
            "newreno": newreno,
            "westwood_plus": westwood,
            "utilization": newreno + westwood,
            "full_utilization": epoch.full_utilization,
            "epoch_rtts": epoch.s_star,
            "epoch_s": epoch.t_star_s,
        }
    )


def simulate_hybrid(
    params: MollerParams,
    epochs: int = 20,
    warmup_epochs: int = 30,
    loss_selection: LossSelection = "synchronized",
    seed: int = 0,
    rtol: float = 1e-9,
) -> HybridResult:
    """Direct numerical integration of the hybrid system, independent of the closed form.

    Eqs. (2)–(3) are integrated in real time t (scipy solve_ivp, DOP853) with the data sent,
    D_i = integral of r_i dt (eq. 1), as extra states; the queue is held at 0 while the link is
    under-used (Sec. II: dq/dt = 0 when q = 0 and the inflow is below C). A congestion event is
    the queue reaching B; the windows then jump by the maps of eq. (27) with beta from
    `params` (New Reno halves, Westwood+ multiplies by beta). Which flows reduce:
    - "synchronized": both (l_k = 0, the paper's assumption behind eq. (29));
    - "rate_proportional": one flow, chosen with probability proportional to its sending rate
      just before the loss (= its window, both flows having the same RTT);
    - "uniform": one flow, each with probability 1/2.
    If after the jump the total window still exceeds CT + B (the queue would keep overflowing)
    further reductions are drawn at the same instant. The run starts at t = 0 with one segment
    per flow and an empty queue; averages are taken from the `warmup_epochs`-th congestion
    event to `epochs` events later. Random choices use numpy's Generator seeded by `seed`.
    """
    from scipy.integrate import solve_ivp  # the `stats` extra, loaded when the model is used

    params.validate()
    if epochs < 1:
        raise ValueError(f"epochs must be >= 1, got {epochs}")
    if warmup_epochs < 0:
        raise ValueError(f"warmup_epochs must be >= 0, got {warmup_epochs}")
    if loss_selection not in ("synchronized", "rate_proportional", "uniform"):
        raise ValueError(f"unknown loss_selection {loss_selection!r}")

    capacity = params.capacity_bytes_per_s
    rtt = params.rtt_s
    buffer = params.buffer_bytes
    m = params.packet_bytes
    bdp = params.bdp_bytes
    decrease = np.array([0.5, params.westwood_decrease_factor])
    rng = np.random.default_rng(seed)
    # The drained-queue event fires at q = -slack so that a queue that has just refilled from
    # exactly 0 (where dq/dt = 0) is not mistaken for one draining again.
    slack_bytes = 1e-6 * m

    def busy_queue(_t: float, y: FloatArray) -> list[float]:  # eqs. (1)–(3), q > 0
        round_trip = rtt + y[2] / capacity
        rates = y[:2] / round_trip
        return [m / round_trip, m / round_trip, rates.sum() - capacity, rates[0], rates[1]]

    def empty_queue(_t: float, y: FloatArray) -> list[float]:  # q = 0, inflow < C
        return [m / rtt, m / rtt, 0.0, y[0] / rtt, y[1] / rtt]

    def overflow(_t: float, y: FloatArray) -> float:
        return y[2] - buffer

    def drained(_t: float, y: FloatArray) -> float:
        return y[2] + slack_bytes

    def refilling(_t: float, y: FloatArray) -> float:
        return y[0] + y[1] - bdp

    for event, direction in ((overflow, 1.0), (drained, -1.0), (refilling, 1.0)):
        event.terminal = True  # type: ignore[attr-defined]
        event.direction = direction  # type: ignore[attr-defined]

    def losers(windows: FloatArray) -> NDArray[np.bool_]:
        if loss_selection == "synchronized":
            return np.array([True, True])
        p_newreno = windows[0] / windows.sum() if loss_selection == "rate_proportional" else 0.5
        first = bool(rng.random() < p_newreno)
        return np.array([first, not first])

    # Generous bound on one epoch: the windows grow from 0 to CT + B at one packet per RTT each.
    horizon_s = 4.0 * ((bdp + buffer) / (2 * m) + 2.0) * (rtt + buffer / capacity)
    state = np.array([m, m, 0.0, 0.0, 0.0])
    busy = state[0] + state[1] >= bdp
    t = 0.0
    events = 0
    losses = np.zeros(2, dtype=int)
    start = (0.0, state[3:].copy())
    segments_left = 10 * (warmup_epochs + epochs) + 100
    while events < warmup_epochs + epochs:
        segments_left -= 1
        if segments_left < 0:
            raise RuntimeError(f"no progress to {warmup_epochs + epochs} congestion events")
        sol = solve_ivp(
            busy_queue if busy else empty_queue,
            (t, t + horizon_s),
            state,
            method="DOP853",
            events=[overflow, drained] if busy else [refilling],
            rtol=rtol,
            atol=1e-9 * m,
        )
        if sol.status < 0:
            raise RuntimeError(f"integration failed: {sol.message}")
        t = float(sol.t[-1])
        state = sol.y[:, -1].copy()
        if sol.status == 0:  # horizon reached without an event
            continue
        if not busy:  # total window reached CT: the queue starts to build
            busy, state[2] = True, 0.0
        elif sol.t_events[1].size:  # queue drained
            state[2] = 0.0
            busy = state[0] + state[1] >= bdp
        else:  # queue full: congestion event, jump maps of eq. (27)
            state[2] = buffer
            events += 1
            while True:
                lost = losers(state[:2])
                if events > warmup_epochs:
                    losses += lost
                state[:2] *= np.where(lost, decrease, 1.0)
                if state[0] + state[1] < bdp + buffer:
                    break
            if events == warmup_epochs:
                start = (t, state[3:].copy())

    duration = t - start[0]
    shares = (state[3:] - start[1]) / (capacity * duration)
    return HybridResult(
        newreno=float(shares[0]),
        westwood_plus=float(shares[1]),
        utilization=float(shares.sum()),
        congestion_events=epochs,
        duration_s=duration,
        newreno_losses=int(losses[0]),
        westwood_losses=int(losses[1]),
    )
