"""Möller, Barakat, Avrachenkov & Altman, "Inter-protocol fairness between TCP New Reno and TCP
Westwood+" (seed 000): every `moller` experiment of EXPERIMENTS.md.

Analytical (no runs; the closed form of Sec. III in `tcpsim.models.moller`):
- `moller.fig3`: scenario 1, normalized throughput of NewReno, Westwood+ and their sum vs B;
- `moller.fig4`: the four Table II scenarios vs B/CT on one plot;
- `moller.limits`: Prop. 4 (B → ∞: 3/4 and 1/4; B → 0: Westwood+ takes everything) and
  eqs. (34)–(35) (the square-root formulas' ratio tends to 1/√2 instead).

Simulation (mean ± 95% CI over seeds, overlaid on the model):
- `moller.fig5`: scenario 1 (all four Table II scenarios in full mode with
  ``TCPSIM_MOLLER_FIG5_SCENARIOS=0,1,2,3`` or ``Fig5.scenarios``);
- `moller.fig6`: as fig5, Westwood+ starting about 50 s after NewReno;
- `moller.fig7`: the modified Westwood+ of Sec. IV (never below half the previous window);
- `moller.fig8`: NewReno against NewReno vs against Westwood+.

Set-up (Fig. 2): S1 (NewReno) and S2 → R → D. S1–R and S2–R are 100 Mb/s, 0.1 ms links with
1000-packet queues; R → D is the bottleneck of capacity C, one-way delay T/2 − 0.1 ms (so the
round-trip propagation delay is T) and a drop-tail queue of B packets (the packet being sent is
not counted, as ns-2's DropTail); its D → R direction, carrying only ACKs, has a 1000-packet
queue. 1460-byte segments + 40 header bytes = 1500-byte packets. No delayed ACKs (the model's
window grows one packet per RTT, as with ns-2's default TCPSink). Start times are uniform in
[0, 1] s (random per seed); fig6 starts Westwood+ at 50 s + uniform [0, 1] s.

Normalized throughput: the model is in bytes of 1500-byte packets and C is the wire rate, so a
simulated flow's share is its delivered payload rate × 1500/1460 (the wire rate of the packets
it got through) divided by the wire rate C: like is compared with like.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from tcpsim.models import moller as model
from tcpsim.repro import register
from tcpsim.repro.framework import Claim, Experiment, ModelCheck, Number, Outcome, Series
from tcpsim.runner import RunSpec
from tcpsim.stats import mean_ci

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from tcpsim.result import RunResult

PACKET_BYTES = 1500
MSS_BYTES = 1460
HEADER_BYTES = PACKET_BYTES - MSS_BYTES
ACCESS_RATE_BPS = 100e6
ACCESS_DELAY_S = 0.1e-3
START_JITTER_S = 1.0
WESTWOOD_DELAY_S = 50.0
"""fig6: Westwood+ starts this long after t = 0 (the paper: "delayed around 50 s")."""
TRACE = {"cwnd": True, "queue": True, "interval": "1s"}
"""Sampled once a second: the cwnd trace carries Westwood+'s RTTmin (fig5, fig6), the queue
trace the bottleneck queue when Westwood+ starts (fig6). Common to every run, so identical
set-ups of different experiments share one cache entry."""

MATCH_TOLERANCE = 0.05
"""Sec. IV says simulation and model "match remarkably well" and gives no number; the project reads
it as simulated shares within 0.05 (absolute, normalized throughput) of the model (issue 4), fixed
before any simulation was run."""
IDENTITY_TOLERANCE = 1e-4
IDENTITY_PRECISION = ("an identity of the model, exact up to the closed form's numerics and the finite B/CT "
                      "(1e±6) standing for a limit: 1e-4 relative")
"""Model checks (values the model implies by construction, not results of the paper): relative tolerance."""
SMALL_BUFFER_PKTS = 5
"""Sec. IV: simulation and model "match remarkably well, except for very small buffer sizes
(B < 5)"."""
DISTINGUISHABLE = 0.03
"""fig7/fig8 compare two simulated conditions only at buffers where the model separates them by
at least this much (normalized throughput): elsewhere the paper's claim is about a difference
smaller than the simulation's confidence intervals."""

VARIANT_MISSING = "needs the westwood_plus variant (issue 3)"


# --- set-up --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Setting:
    """One scenario of Table II."""

    number: int
    capacity_bps: float
    rtt_s: float

    @property
    def bdp_pkts(self) -> float:
        return self.capacity_bps * self.rtt_s / 8 / PACKET_BYTES

    @property
    def label(self) -> str:
        return (f"scenario {self.number} (C = {self.capacity_bps / 1e6:g} Mb/s, T = {self.rtt_s * 1e3:g} ms, "
                f"CT = {self.bdp_pkts:.1f} pkt)")

    @property
    def base_rtt_s(self) -> float:
        """Smallest possible RTT: T plus the serialization of a data packet and an ACK on the
        access link and the bottleneck."""
        wire_bits = 8 * (PACKET_BYTES + HEADER_BYTES)
        return self.rtt_s + wire_bits / self.capacity_bps + wire_bits / ACCESS_RATE_BPS

    def model(self, buffer_pkts: Any, modified: bool = False) -> pd.DataFrame:
        return model.solve(self.capacity_bps, self.rtt_s, buffer_pkts, PACKET_BYTES, modified)

    def newreno_pair_model(self, buffer_pkts: Any) -> pd.DataFrame:
        """The same closed form for two NewReno flows (both decrease factors 1/2: the fixed
        point of eq. (29) is w1 = w2 = (CT + B + m)/4). Columns: buffer_pkts, per_flow,
        utilization."""
        buffer_pkts = np.atleast_1d(np.asarray(buffer_pkts, dtype=float))
        capacity = self.capacity_bps / 8
        bdp = capacity * self.rtt_s
        buffer = buffer_pkts * PACKET_BYTES
        w1, w2 = model.synchronized_fixed_point(bdp, buffer, PACKET_BYTES, 0.5)
        epoch = model.congestion_epoch(w1, w2, bdp, buffer, PACKET_BYTES, capacity)
        per_flow = epoch.newreno_bytes_per_s / capacity
        return pd.DataFrame({"buffer_pkts": buffer_pkts, "per_flow": per_flow, "utilization": 2 * per_flow})


TABLE_II = {
    0: Setting(0, 1e6, 0.050),
    1: Setting(1, 10e6, 0.050),
    2: Setting(2, 1e6, 0.200),
    3: Setting(3, 10e6, 0.200),
}


def buffer_grid(setting: Setting, quick: bool) -> list[int]:
    """Buffer sizes (packets) from 2 to about 2·CT: a coarse grid in quick mode (2, 5, CT/4,
    CT/2, 3CT/4, CT, 3CT/2, 2CT), a fine one otherwise (25 evenly spaced sizes plus the small
    ones, where the shares change fastest)."""
    ct = setting.bdp_pkts
    if quick:
        points = [2, 5, ct / 4, ct / 2, 3 * ct / 4, ct, 1.5 * ct, 2 * ct]
    else:
        points = [2, 3, 4, 5, 6, 8, ct, *np.linspace(2, 2 * ct, 25)]
    return sorted({max(2, round(b)) for b in points if b <= 2 * ct + 0.5})


def run_length(setting: Setting, quick: bool) -> tuple[float, float]:
    """(duration, warmup) in seconds, as many congestion epochs of the model at B = 2·CT (its
    longest epoch) as the mode asks: warmup 15 epochs (≥ 50 s), then 100 (quick) or 500
    epochs (≥ 300 s / 1500 s) measured."""
    epoch_s = float(setting.model([2 * setting.bdp_pkts])["epoch_s"].iloc[0])
    warmup = math.ceil(max(50.0, 15 * epoch_s))
    measured = math.ceil(max(300.0, 100 * epoch_s) if quick else max(1500.0, 500 * epoch_s))
    return float(warmup + measured), float(warmup)


def require_westwood_plus() -> None:
    """Fail loudly until the variant exists (it is added by issue 3)."""
    from tcpsim.scenario import VARIANTS

    if "westwood_plus" not in VARIANTS:
        raise RuntimeError(VARIANT_MISSING)


def _seconds(value: float) -> str:
    return f"{round(value, 6)}s"


def two_flow_scenario(
    setting: Setting,
    buffer_pkts: int,
    *,
    duration_s: float,
    warmup_s: float,
    second_variant: str = "westwood_plus",
    modified: bool = False,
    second_start_s: float = 0.0,
) -> dict[str, Any]:
    """Fig. 2: flow f1 (S1, NewReno) and flow f2 (S2, `second_variant`; the modified
    Westwood+ of Sec. IV if `modified`) → R → D, bottleneck R → D of `setting`'s capacity with a
    drop-tail buffer of `buffer_pkts` packets."""
    second: dict[str, Any] = {"name": "f2", "src": "s2", "dst": "d", "variant": second_variant,
                              "start": _seconds(second_start_s), "start_jitter": _seconds(START_JITTER_S)}
    if modified:
        second["tcp"] = {"cc": {"kind": "westwood_plus", "min_decrease_half": True}}
    access = {"rate": f"{ACCESS_RATE_BPS / 1e6:g}Mbps", "delay": f"{ACCESS_DELAY_S * 1e3:g}ms", "queue": "1000pkt"}
    bottleneck_delay_ms = (setting.rtt_s / 2 - ACCESS_DELAY_S) * 1e3
    name = "modified westwood_plus" if modified else second_variant
    return {
        "name": f"moller {setting.label}, B = {buffer_pkts} pkt: newreno vs {name}",
        "duration": _seconds(duration_s),
        "warmup": _seconds(warmup_s),
        "tcp": {"mss": MSS_BYTES, "header": HEADER_BYTES, "delack_count": 1},
        "links": [
            {"name": "s1-r", "a": "s1", "b": "r", **access},
            {"name": "s2-r", "a": "s2", "b": "r", **access},
            {"name": "bottleneck", "a": "r", "b": "d", "rate": f"{setting.capacity_bps / 1e6:g}Mbps",
             "delay": f"{bottleneck_delay_ms:.6f}ms", "queue": "1000pkt",
             "ab": {"queue": f"{buffer_pkts}pkt"}},
        ],
        "flows": [
            {"name": "f1", "src": "s1", "dst": "d", "variant": "newreno", "start": "0s",
             "start_jitter": _seconds(START_JITTER_S)},
            second,
        ],
        "trace": dict(TRACE),
    }


# --- measurements --------------------------------------------------------------------------


def _westwood_rtt_min_s(result: RunResult, flow: str = "f2") -> tuple[float, str]:
    """Westwood+'s RTTmin estimate: the last value of the cwnd trace's RTTmin column (the
    smallest RTT sample of the connection, as the algorithm uses it), else the flow summary's
    smallest RTT over the measurement window."""
    trace = result.traces.get("cwnd")
    if trace is not None:
        rows = trace[trace["flow_name"] == flow]
        for column, scale in (("min_rtt_s", 1.0), ("min_rtt_ns", 1e-9)):
            if column in rows:
                values = rows[column].to_numpy(dtype=float) * scale
                values = values[np.isfinite(values) & (values > 0)]
                if values.size:
                    return float(values.min()), "cwnd trace RTTmin (the estimate Westwood+ uses)"
    row = result.flows[result.flows["name"] == flow].iloc[0]
    value = row.get("rtt_min_s")
    return (float(value) if value is not None else math.nan,
            "flow summary rtt_min_s (smallest RTT in the measurement window; the cwnd trace has no RTTmin column)")


def _bottleneck_queue(result: RunResult, start_s: float, end_s: float = math.inf) -> np.ndarray:
    """Bottleneck queue samples (packets, 1 s apart) with start_s <= time < end_s."""
    trace = result.traces.get("queue")
    if trace is None:
        return np.array([])
    rows = trace[(trace["link"] == "bottleneck") & (trace["direction"] == "ab")
                 & (trace["time_s"] >= start_s) & (trace["time_s"] < end_s)]
    return rows["packets"].to_numpy(dtype=float)


def _mean_or_nan(values: np.ndarray) -> float:
    return float(values.mean()) if values.size else math.nan


def _min_or_nan(values: np.ndarray) -> float:
    return float(values.min()) if values.size else math.nan


def run_metrics(result: RunResult, setting: Setting) -> dict[str, float]:
    """Per-run shares (normalized by the wire rate, see the module docstring) and diagnostics."""
    flows = result.flows.set_index("name")
    wire = PACKET_BYTES / MSS_BYTES / setting.capacity_bps
    first = float(flows.loc["f1", "throughput_bps"]) * wire
    second = float(flows.loc["f2", "throughput_bps"]) * wire
    links = result.links
    bottleneck = links[(links["name"] == "bottleneck") & (links["direction"] == "ab")].iloc[0]
    rtt_min, _ = _westwood_rtt_min_s(result)
    return {
        "first": first,
        "second": second,
        "sum": first + second,
        "ratio": second / first if first > 0 else math.nan,
        "link_utilization": float(bottleneck["utilization"]),
        "queue_delay_s": float(bottleneck["queue_mean_pkts"]) * PACKET_BYTES * 8 / setting.capacity_bps,
        "drops": float(bottleneck["drops_queue"]),
        # Loss episodes (fast retransmits + timeouts) per flow in the window: equal counts mean
        # every congestion event hit both flows, the model's synchronization assumption.
        "first_episodes": float(flows.loc["f1", "fast_retransmits"] + flows.loc["f1", "timeouts"]),
        "second_episodes": float(flows.loc["f2", "fast_retransmits"] + flows.loc["f2", "timeouts"]),
        "second_rtt_min_s": rtt_min,
        # fig6 evidence: the queue NewReno keeps when Westwood+ starts, and the smallest queue
        # Westwood+ can have seen afterwards (its RTTmin is the base RTT plus that delay).
        "queue_before_delayed_start_pkts": _mean_or_nan(
            _bottleneck_queue(result, WESTWOOD_DELAY_S - 5, WESTWOOD_DELAY_S)),
        "queue_min_after_delayed_start_pkts": _min_or_nan(
            _bottleneck_queue(result, WESTWOOD_DELAY_S + START_JITTER_S)),
    }


@dataclass
class Sweep:
    """Simulated metrics vs buffer size, seeds aggregated: mean and 95% CI per metric."""

    buffers: list[int]
    samples: dict[str, list[list[float]]] = field(default_factory=dict)

    @classmethod
    def collect(cls, results: Mapping[Any, RunResult], setting: Setting,
                select: Callable[[tuple[Any, ...]], int | None]) -> Sweep:
        """`select(key)` returns the buffer size of a result to include, None to skip it."""
        per_buffer: dict[int, list[dict[str, float]]] = {}
        for key, result in results.items():
            buffer = select(key)
            if buffer is not None:
                per_buffer.setdefault(buffer, []).append(run_metrics(result, setting))
        buffers = sorted(per_buffer)
        sweep = cls(buffers)
        for metric in per_buffer[buffers[0]][0] if buffers else []:
            sweep.samples[metric] = [[m[metric] for m in per_buffer[b]] for b in buffers]
        return sweep

    def stat(self, metric: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        rows = np.array([mean_ci(values) for values in self.samples[metric]], dtype=float).reshape(-1, 3)
        return rows[:, 0], rows[:, 1], rows[:, 2]

    def mean(self, metric: str) -> np.ndarray:
        return self.stat(metric)[0]

    def series(self, label: str, metric: str, x: Sequence[float] | None = None) -> Series:
        mean, low, high = self.stat(metric)
        return Series(label, list(self.buffers if x is None else x), mean, low, high)

    @property
    def seeds(self) -> int:
        return min((len(v) for v in next(iter(self.samples.values()), [])), default=0)


# --- plotting ------------------------------------------------------------------------------

_STYLES = {
    # quantity (the label up to " (") → color, line style of a model curve, marker of a simulation
    "NewReno": ("tab:blue", "-", "x"),
    "Westwood+": ("tab:orange", "--", "+"),
    "modified Westwood+": ("tab:orange", "--", "+"),
    "sum": ("tab:green", ":", "o"),
    "NewReno with NewReno": ("tab:red", "-", "x"),
    "NewReno with Westwood+": ("tab:blue", "-", "x"),
    "utilization NewReno+NewReno": ("tab:red", ":", "o"),
    "utilization NewReno+Westwood+": ("tab:green", ":", "o"),
}


def _style(label: str) -> tuple[str, str, str]:
    """(color, line style, marker) of a series, from the quantity its label starts with, so that
    a quantity looks the same in every figure (the paper's NewReno solid/×, Westwood+ dashed/+,
    sum dotted/○)."""
    quantity = label.split(" (")[0].split(", scenario")[0]
    return _STYLES.get(quantity, ("tab:purple", "-", "s"))


def _color(label: str) -> str:
    return _style(label)[0]


def _line_style(label: str) -> str:
    return _style(label)[1]


def _marker(label: str) -> str:
    return _style(label)[2]


def draw_overlay(ax: Axes, series: Sequence[Series], xlabel: str, ylabel: str) -> None:
    """Model curves (no CI) as lines, simulations (with CI) as points with error bars; colors
    by quantity, markers and line styles as in the paper (NewReno ×/solid, Westwood+ +/dashed,
    sum ○/dotted)."""
    for s in series:
        color = _color(s.label)
        if s.y_ci_low is not None and s.y_ci_high is not None:
            y = np.asarray(s.y, dtype=float)
            below = np.clip(y - np.asarray(s.y_ci_low, dtype=float), 0, None)
            above = np.clip(np.asarray(s.y_ci_high, dtype=float) - y, 0, None)
            marker = _marker(s.label)
            x = np.asarray(s.x, dtype=float)
            if "(reference" in s.label:  # nudge right so it does not hide the main points
                x = x + 0.012 * (np.nanmax(x) - np.nanmin(x))
            ax.errorbar(x, y, yerr=[below, above], fmt=marker, color=color, markersize=6 if marker != "o" else 4,
                        mfc="none" if marker == "o" else color, capsize=2.5, elinewidth=0.9, linestyle="none",
                        label=s.label, alpha=0.45 if "(reference" in s.label else 1.0)
        else:
            ax.plot(s.x, s.y, linestyle=_line_style(s.label), color=color, linewidth=1.4, label=s.label)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_ylim(0, 1.08)
    ax.grid(alpha=0.3)


# --- shared analysis -----------------------------------------------------------------------


def _fmt(values: Sequence[float], digits: int = 3) -> str:
    return ", ".join(f"{v:.{digits}f}" for v in values)


def _point_list(buffers: Sequence[float], values: Sequence[float], digits: int = 3) -> str:
    return "; ".join(f"B={b:g}: {v:+.{digits}f}" if v < 0 else f"B={b:g}: {v:.{digits}f}" for b, v in zip(buffers, values))


def _kendall(x: np.ndarray, y: np.ndarray) -> float:
    """Kendall's τ (τ-a) of y against x: 1 if y rises with x throughout, −1 if it falls."""
    n = len(x)
    pairs = n * (n - 1) / 2
    if pairs == 0:
        return math.nan
    concordant = sum(np.sign(x[j] - x[i]) * np.sign(y[j] - y[i]) for i in range(n) for j in range(i + 1, n))
    return float(concordant / pairs)


def _crossover(x: np.ndarray, difference: np.ndarray) -> float:
    """First x where `difference` changes sign (linear interpolation); NaN if it never does."""
    signs = np.sign(difference)
    for i in range(len(x) - 1):
        if signs[i] == 0:
            return float(x[i])
        if signs[i] != signs[i + 1]:
            return float(x[i] - difference[i] * (x[i + 1] - x[i]) / (difference[i + 1] - difference[i]))
    return math.nan


def _model_match_claim(setting: Setting, sim: Sweep, name: str) -> tuple[Claim, dict[str, np.ndarray]]:
    """Sec. IV: "simulation and analysis give throughput values that match remarkably well, except for
    very small buffer sizes (B < 5)": NewReno, `name` and their sum within `MATCH_TOLERANCE` of the
    model at every simulated B ≥ 5."""
    buffers = np.array(sim.buffers, dtype=float)
    fitted = setting.model(buffers)
    deviations = {
        "NewReno": sim.mean("first") - fitted["newreno"].to_numpy(),
        name: sim.mean("second") - fitted["westwood_plus"].to_numpy(),
        "sum": sim.mean("sum") - fitted["utilization"].to_numpy(),
    }
    large = buffers >= SMALL_BUFFER_PKTS
    worst = {k: float(np.max(np.abs(v[large]))) if large.any() else math.nan for k, v in deviations.items()}
    where = {k: f"{buffers[large][np.argmax(np.abs(v[large]))]:g}" if large.any() else "-" for k, v in deviations.items()}
    small = ~large
    small_text = ("; for B < 5: " + ", ".join(
        f"B={b:g}: NewReno {deviations['NewReno'][i]:+.3f}, {name} {deviations[name][i]:+.3f}"
        for i, b in enumerate(buffers) if small[i])) if small.any() else ""
    detail = (f"test: |simulation mean − model| ≤ {MATCH_TOLERANCE} (absolute normalized throughput; the paper's "
              f"\"remarkably well\" has no number, {MATCH_TOLERANCE} is the project's reading) for NewReno, {name} and "
              f"their sum at every B ≥ {SMALL_BUFFER_PKTS} pkt; {setting.label}, {int(large.sum())} buffer sizes × "
              f"{sim.seeds} seeds; largest: NewReno {worst['NewReno']:.4f} (B = {where['NewReno']}), {name} "
              f"{worst[name]:.4f} (B = {where[name]}), sum {worst['sum']:.4f} (B = {where['sum']}){small_text}. "
              f"Per buffer (sim − model), NewReno: {_point_list(buffers, deviations['NewReno'])}; {name}: "
              f"{_point_list(buffers, deviations[name])}")
    claim = Claim(
        f"{setting.label}: simulation matches the model except for very small buffers (B < 5): NewReno, {name} "
        f"and their sum within {MATCH_TOLERANCE} of the model for B ≥ {SMALL_BUFFER_PKTS}",
        bool(large.any()) and all(w <= MATCH_TOLERANCE for w in worst.values()), detail)
    return claim, deviations


def _identity(name: str, value: float, measured: float) -> ModelCheck:
    return ModelCheck(name, value, measured, tolerance=IDENTITY_TOLERANCE, precision=IDENTITY_PRECISION)


def _sim_series(sim: Sweep, name: str, x: Sequence[float] | None = None, suffix: str = "") -> list[Series]:
    tag = f"sim{suffix}, mean ± 95% CI"
    return [sim.series(f"NewReno ({tag})", "first", x), sim.series(f"{name} ({tag})", "second", x),
            sim.series(f"sum ({tag})", "sum", x)]


def _model_series(setting: Setting, x_of: Callable[[np.ndarray], np.ndarray], modified: bool = False,
                  name: str = "Westwood+", low: float = 2.0) -> list[Series]:
    fine = np.linspace(low, 2 * setting.bdp_pkts, 300)
    curves = setting.model(fine, modified)
    x = x_of(fine)
    return [Series("NewReno (model)", x, curves["newreno"]), Series(f"{name} (model)", x, curves["westwood_plus"]),
            Series("sum (model)", x, curves["utilization"])]


def _sim_notes(setting: Setting, sim: Sweep, duration_s: float, warmup_s: float, name: str = "Westwood+") -> list[str]:
    """Run set-up, utilization, loss synchronization and seed spread of one simulated sweep."""
    def pooled(metric: str) -> np.ndarray:
        return np.concatenate([np.asarray(v, dtype=float) for v in sim.samples[metric]])

    first, second = pooled("first_episodes"), pooled("second_episodes")
    spread = [(b, max(v) - min(v)) for b, v in zip(sim.buffers, sim.samples["first"])]
    differing = [f"B={b}: {d:.3f}" for b, d in spread if d > 0.005]
    return [
        f"{setting.label}: {len(sim.buffers)} buffer sizes ({', '.join(map(str, sim.buffers))} pkt) × {sim.seeds} seeds; "
        f"runs of {duration_s:g} s, the first {warmup_s:g} s (slow start and at least 15 model congestion epochs) "
        f"excluded. Sum of the shares (goodput, retransmissions excluded) averages {pooled('sum').mean():.3f}; the "
        f"bottleneck's own utilization (all packets sent, retransmissions included) {pooled('link_utilization').mean():.3f}",
        f"loss synchronization: loss episodes (fast retransmits + timeouts) in the window per run, NewReno vs {name}: "
        f"{'; '.join(f'B={b}: {a:.0f}/{c:.0f}' for b, a, c in zip(sim.buffers, sim.mean('first_episodes'), sim.mean('second_episodes')))} "
        f"(equal in {int(np.sum(first == second))} of {first.size} runs; full synchronization, the model's assumption, "
        f"implies equal counts, though equal counts alone do not prove it)",
        "replications differ only in their random start times; the packet-level dynamics are otherwise deterministic and "
        "settle into the same cycle whatever the start, so most confidence intervals are very narrow; seeds disagree "
        f"by more than 0.005 in NewReno's share (max − min) at {', '.join(differing) if differing else 'no buffer size'}",
    ]


COMMON_NOTES = [
    "normalized throughput = flow payload throughput × 1500/1460 / C, C the wire rate: the share of the "
    "bottleneck's 1500-byte-packet capacity carried by the flow's packets that got through, as in the model, "
    "which counts bytes of 1500-byte packets",
    "topology of Fig. 2: S1, S2 —100 Mb/s, 0.1 ms— R —C, T/2 − 0.1 ms, drop-tail B packets— D; round-trip "
    "propagation T; 1460-byte segments + 40 B headers; no delayed ACKs (the model grows each window one packet "
    "per RTT); start times uniform in [0, 1] s per seed; min RTO 1 s",
    "model: the closed form of Sec. III (Props. 1–3, fully synchronized fixed point X* of eq. (30), throughput "
    "by eq. (7)/(19)) with T the propagation RTT; the simulated base RTT is T + 1.36 ms (serialization)",
]


def _sim_setting(quick: bool) -> tuple[Setting, list[int], float, float]:
    setting = TABLE_II[1]
    duration, warmup = run_length(setting, quick)
    return setting, buffer_grid(setting, quick), duration, warmup


# --- analytical experiments ----------------------------------------------------------------


@register
class Fig3(Experiment):
    id = "moller.fig3"
    title = "model, scenario 1: normalized throughput vs buffer size"
    paper = "moller"
    xlabel = "buffer size B (packets)"
    ylabel = "normalized throughput"
    hybrid_buffers = (2, 5, 10, 21, 42, 63, 84)
    """Where the closed form is cross-checked by direct integration of eqs. (2)–(3)."""

    def analyze(self, results: Mapping[Any, RunResult], quick: bool) -> Outcome:
        setting = TABLE_II[1]
        ct = setting.bdp_pkts
        grid = np.unique(np.concatenate([np.linspace(2, 2 * ct, 400), [ct]]))
        curves = setting.model(grid)
        nr, wp, total = (curves[c].to_numpy() for c in ("newreno", "westwood_plus", "utilization"))
        at_ct = setting.model([ct]).iloc[0]
        beta = model.westwood_decrease_factor(ct, ct)
        below, above = grid < ct - 1e-9, grid > ct + 1e-9
        cross = _crossover(grid, wp - nr)
        hybrid = [model.simulate_hybrid(model.MollerParams(setting.capacity_bps, setting.rtt_s, b), epochs=20,
                                        warmup_epochs=30) for b in self.hybrid_buffers]
        hybrid_gap = max(max(abs(h.newreno - n), abs(h.westwood_plus - w)) for h, n, w in zip(
            hybrid, setting.model(self.hybrid_buffers)["newreno"], setting.model(self.hybrid_buffers)["westwood_plus"]))
        claims = [
            Claim("equal shares at B = CT (β = 1/2)",
                  abs(at_ct["newreno"] - at_ct["westwood_plus"]) < 1e-9 and abs(float(beta) - 0.5) < 1e-12,
                  f"test: |NewReno − Westwood+| < 1e-9 and |β − 1/2| < 1e-12 at B = CT (the model, exact); "
                  f"CT = {ct:.2f} pkt: β = {float(beta):.3f}, NewReno {at_ct['newreno']:.4f}, Westwood+ "
                  f"{at_ct['westwood_plus']:.4f}; the curves cross at B = {cross:.2f} pkt"),
            Claim("Westwood+ larger for B < CT, NewReno larger for B > CT",
                  bool(np.all(wp[below] > nr[below]) and np.all(nr[above] > wp[above])),
                  f"test: strict inequality at every grid point on each side of CT; "
                  f"over {len(grid)} sizes in [2, {2 * ct:.1f}] pkt: smallest Westwood+ − NewReno for B < CT "
                  f"{np.min(wp[below] - nr[below]):.4f} (at B → CT), largest {np.max(wp[below] - nr[below]):.3f} "
                  f"(B = 2: {wp[0]:.3f} vs {nr[0]:.3f}); smallest NewReno − Westwood+ for B > CT "
                  f"{np.min(nr[above] - wp[above]):.4f}, at B = {2 * ct:.1f}: {nr[-1]:.3f} vs {wp[-1]:.3f}"),
            Claim("sum ≈ 1", bool(np.all(np.abs(total - 1) <= 0.01)),
                  f"test: |sum − 1| ≤ 0.01 at every grid point; "
                  f"utilization in [{total.min():.4f}, {total.max():.4f}] over B in [2, {2 * ct:.1f}] pkt "
                  f"(Prop. 1 holds at {int(curves['full_utilization'].sum())} of {len(grid)} sizes)"),
        ]
        checks = [_identity(name, paper, measured) for name, paper, measured in (
            ("NewReno normalized throughput at B = CT", 0.5, float(at_ct["newreno"])),
            ("Westwood+ normalized throughput at B = CT", 0.5, float(at_ct["westwood_plus"])),
            ("β = CT/(CT + B) at B = CT", 0.5, float(beta)),
            ("B/CT where the shares are equal", 1.0, cross / ct))]
        series = [Series("NewReno (model)", grid, nr), Series("Westwood+ (model)", grid, wp),
                  Series("sum (model)", grid, total),
                  Series("NewReno (direct integration of eqs. (2)–(3))", list(self.hybrid_buffers),
                         [h.newreno for h in hybrid]),
                  Series("Westwood+ (direct integration of eqs. (2)–(3))", list(self.hybrid_buffers),
                         [h.westwood_plus for h in hybrid])]
        notes = [
            f"{setting.label}; the closed form of Sec. III with the fully synchronized fixed point X* of eq. (30); "
            "normalized throughput = rate / C, both in bytes of 1500-byte packets",
            f"cross-check: direct numerical integration of eqs. (2)–(3) with synchronized losses "
            f"(tcpsim.models.moller.simulate_hybrid, 20 epochs after 30) at B = "
            f"{', '.join(map(str, self.hybrid_buffers))} pkt agrees with the closed form within {hybrid_gap:.3f}",
        ]
        return Outcome(series=series, claims=claims, model_checks=checks, notes=notes)

    def plot(self, outcome: Outcome, fig: Figure) -> None:
        ax = fig.add_subplot()
        for s in outcome.series:
            if "direct integration" in s.label:
                ax.plot(s.x, s.y, linestyle="none", marker="s", mfc="none", markersize=5, color=_color(s.label),
                        label=s.label)
            else:
                ax.plot(s.x, s.y, linestyle=_line_style(s.label), color=_color(s.label), label=s.label)
        ct = TABLE_II[1].bdp_pkts
        ax.axvline(ct, color="gray", linewidth=0.8, alpha=0.6)
        ax.annotate("B = CT", (ct, 0.03), fontsize="small", color="gray", xytext=(3, 0), textcoords="offset points")
        ax.set_xlabel(self.xlabel)
        ax.set_ylabel(self.ylabel)
        ax.set_ylim(0, 1.08)
        ax.grid(alpha=0.3)
        ax.legend(fontsize="small", loc="lower right")
        ax.set_title(f"{self.id}: {self.title}", fontsize="medium")


@register
class Fig4(Experiment):
    id = "moller.fig4"
    title = "model, all four scenarios vs normalized buffer size"
    paper = "moller"
    xlabel = "normalized buffer size B/(CT)"
    ylabel = "normalized throughput"
    coincide_tolerance = 0.03
    """"Barely distinguishable" curves: within 0.03 of capacity of each other (about a line width
    on the paper's 0–1 axis)."""

    def analyze(self, results: Mapping[Any, RunResult], quick: bool) -> Outcome:
        series, curves = [], {}
        for number, setting in TABLE_II.items():
            ct = setting.bdp_pkts
            buffers = np.linspace(2, 2 * ct, 300)
            c = setting.model(buffers)
            curves[number] = c
            for column, name in (("newreno", "NewReno"), ("westwood_plus", "Westwood+"), ("utilization", "sum")):
                series.append(Series(f"{name}, scenario {number}", c["buffer_over_bdp"], c[column]))
        # Compare on the range every scenario covers (B from 2 packets up to 2CT in each).
        low = max(2 / s.bdp_pkts for s in TABLE_II.values())
        x = np.linspace(low, 2.0, 200)
        spreads, details = {}, []
        on_x = {n: setting.model(x * setting.bdp_pkts) for n, setting in TABLE_II.items()}
        for column, name in (("newreno", "NewReno"), ("westwood_plus", "Westwood+"), ("utilization", "sum")):
            stack = np.array([on_x[n][column].to_numpy() for n in TABLE_II])
            spread = stack.max(axis=0) - stack.min(axis=0)
            spreads[name] = float(spread.max())
            details.append(f"{name} {spread.max():.4f} (at B/CT = {x[np.argmax(spread)]:.2f})")
        # Scenarios 1–3 also share [2/16.7, 2].
        low123 = max(2 / TABLE_II[n].bdp_pkts for n in (1, 2, 3))
        x123 = np.linspace(low123, 2.0, 200)
        stack123 = np.array([TABLE_II[n].model(x123 * TABLE_II[n].bdp_pkts)[["newreno", "westwood_plus"]].to_numpy()
                             for n in (1, 2, 3)])
        spread123 = float((stack123.max(axis=0) - stack123.min(axis=0)).max())
        crossings = {n: _crossover(c["buffer_over_bdp"].to_numpy(), (c["westwood_plus"] - c["newreno"]).to_numpy())
                     for n, c in curves.items()}
        # Under-utilization for B << CT.
        small = {n: c[c["buffer_over_bdp"] < 0.5] for n, c in curves.items()}
        s3 = small[3]
        worst3 = float(s3["utilization"].min())
        worst3_at = float(s3["buffer_over_bdp"].iloc[int(np.argmin(s3["utilization"].to_numpy()))])
        others_min = {n: float(small[n]["utilization"].min()) if len(small[n]) else math.nan for n in (0, 1, 2)}
        same_x = {n: float(TABLE_II[n].model([worst3_at * TABLE_II[n].bdp_pkts])["utilization"].iloc[0])
                  for n in (1, 2) if worst3_at * TABLE_II[n].bdp_pkts >= 2}
        large3 = float(curves[3][curves[3]["buffer_over_bdp"] >= 1]["utilization"].min())
        claims = [
            Claim("the four scenarios' curves nearly coincide",
                  all(v <= self.coincide_tolerance for v in spreads.values()) and spread123 <= self.coincide_tolerance,
                  f"test: max − min over the scenarios ≤ {self.coincide_tolerance} at every B/CT, for each curve; "
                  f"largest spread between the four scenarios over B/CT in [{low:.2f}, 2] (where all have B ≥ 2 pkt): "
                  f"{'; '.join(details)}; scenarios 1–3 over [{low123:.2f}, 2]: {spread123:.4f}; the shares cross at "
                  f"B/CT = {', '.join(f'{crossings[n]:.3f} (scenario {n})' for n in TABLE_II)}"),
            Claim("scenario 3 slightly under-utilizes for B ≪ CT",
                  0.95 <= worst3 < 0.999 and large3 > 0.9999
                  and all(worst3 < v for v in others_min.values() if math.isfinite(v)),
                  f"test: scenario 3's smallest utilization for B/CT < 0.5 in [0.95, 0.999) (slight), ≥ 0.9999 for "
                  f"B ≥ CT, and below scenarios 0–2's; "
                  f"scenario 3 utilization for B/CT < 0.5: min {worst3:.4f} at B/CT = {worst3_at:.2f} "
                  f"(Prop. 1 fails at {int((~s3['full_utilization']).sum())} of {len(s3)} sizes), ≥ {large3:.5f} "
                  f"for B ≥ CT; at the same B/CT: "
                  f"{', '.join(f'scenario {n} {v:.4f}' for n, v in same_x.items())}; minimum for B/CT < 0.5 in "
                  f"scenarios 0–2: {', '.join(f'{v:.4f}' for v in others_min.values())}"),
        ]
        checks = [_identity(f"B/CT where the shares are equal, scenario {n}", 1.0, crossings[n]) for n in TABLE_II]
        notes = ["each scenario's curves run from B = 2 packets to 2·CT (Table II: CT = 4.2, 42, 16.7, 167 packets), "
                 "as in the paper; scenario 3 solid, as in the paper's Fig. 4",
                 "under-utilization uses the reconstructed t* of Prop. 3 (see tcpsim/models/moller.py): the printed "
                 "eq. (21) would give utilizations above 1 for scenario 3"]
        return Outcome(series=series, claims=claims, model_checks=checks, notes=notes)

    def plot(self, outcome: Outcome, fig: Figure) -> None:
        ax = fig.add_subplot()
        styles = {"3": "-", "1": "--", "2": "-.", "0": ":"}
        for s in outcome.series:
            number = s.label.rsplit(" ", 1)[-1]
            ax.plot(s.x, s.y, linestyle=styles[number], color=_color(s.label), linewidth=1.6 if number == "3" else 1.1,
                    label=s.label)
        ax.axvline(1.0, color="gray", linewidth=0.8, alpha=0.6)
        ax.set_xlabel(self.xlabel)
        ax.set_ylabel(self.ylabel)
        ax.set_ylim(0, 1.08)
        ax.grid(alpha=0.3)
        ax.legend(fontsize="x-small", ncol=4, loc="lower right")
        ax.set_title(f"{self.id}: {self.title}", fontsize="medium")


@register
class Limits(Experiment):
    id = "moller.limits"
    title = "Prop. 4 and the square-root formula ratio (eqs. (34)–(35))"
    paper = "moller"
    xlabel = "normalized buffer size B/(CT)"
    ylabel = "normalized throughput"

    def analyze(self, results: Mapping[Any, RunResult], quick: bool) -> Outcome:
        setting = TABLE_II[1]
        ct = setting.bdp_pkts
        x = np.logspace(-6, 6, 241)
        curves = setting.model(x * ct)
        nr, wp = curves["newreno"].to_numpy(), curves["westwood_plus"].to_numpy()
        # Eq. (35) needs the mean queueing delay; from the model, the mean RTT over a round trip
        # is t*/s* (virtual time counts round trips), so T_q = t*/s* − T. Where s* = 0 (B below
        # about a packet, see the model's docstring) the queue stays at B: T_q = B/C.
        rtts = curves["epoch_rtts"].to_numpy()
        with np.errstate(invalid="ignore", divide="ignore"):
            queueing = np.where(rtts > 0, curves["epoch_s"].to_numpy() / rtts - setting.rtt_s,
                                x * setting.rtt_s)
        sqrt_ratio = model.sqrt_formula_ratio(setting.rtt_s, queueing)
        ratio = wp / nr
        big = x >= 1e2
        tiny = x <= 1e-2
        nr_inf, wp_inf = model.prop4_limit_shares("infinity")
        nr_zero, wp_zero = model.prop4_limit_shares("zero")
        err_nr = np.abs(nr - nr_inf)
        err_wp = np.abs(wp - wp_inf)
        far = -1
        claims = [
            Claim("B → ∞: Westwood+ gets 1/4, NewReno 3/4",
                  bool(err_nr[far] < 1e-3 and err_wp[far] < 1e-3 and np.all(np.diff(err_nr[big]) <= 1e-12)
                       and np.all(np.diff(err_wp[big]) <= 1e-12)),
                  f"test: within 1e-3 of 3/4 and 1/4 at B/CT = 1e6, the distance shrinking monotonically from B/CT = "
                  f"100; B/CT = 1e2, 1e4, 1e6: NewReno {_fmt(nr[np.isin(x, [1e2, 1e4, 1e6])], 5)}, Westwood+ "
                  f"{_fmt(wp[np.isin(x, [1e2, 1e4, 1e6])], 5)} (distance to 3/4, 1/4 shrinks monotonically for "
                  f"B/CT ≥ 100); W+/NR ratio at B/CT = 1e6: {ratio[far]:.5f} (Prop. 4: D2/D1 → 1/3)"),
            Claim("B → 0: Westwood+ gets everything",
                  bool(abs(wp[0] - wp_zero) < 1e-3 and abs(nr[0] - nr_zero) < 1e-3 and np.all(np.diff(wp[tiny]) <= 1e-12)),
                  f"test: within 1e-3 of (0, 1) at B/CT = 1e-6, Westwood+ rising as B → 0 below B/CT = 0.01; "
                  f"B/CT = 1e-6, 1e-4, 1e-2: Westwood+ {_fmt(wp[np.isin(x, [1e-6, 1e-4, 1e-2])], 5)}, NewReno "
                  f"{_fmt(nr[np.isin(x, [1e-6, 1e-4, 1e-2])], 5)}; sum {curves['utilization'].iloc[0]:.5f}"),
            Claim("square-root formula ratio tends to 1/√2 for large buffers instead",
                  bool(abs(sqrt_ratio[far] - 1 / math.sqrt(2)) < 1e-3 and np.all(sqrt_ratio >= 1 / math.sqrt(2) - 1e-12)
                       and abs(ratio[far] - 1 / 3) < 1e-3 and sqrt_ratio[0] > 100 and ratio[0] > 100),
                  f"test: eq. (35) within 1e-3 of 1/√2 at B/CT = 1e6 and never below it, the model's ratio within 1e-3 "
                  f"of 1/3 there, both > 100 at B/CT = 1e-6; "
                  f"eq. (35) with the model's mean queueing delay T_q = t*/s* − T: ratio {sqrt_ratio[far]:.5f} at "
                  f"B/CT = 1e6 (T_q = {queueing[far]:.3g} s), never below 1/√2 = {1 / math.sqrt(2):.5f}; the model's "
                  f"ratio there is {ratio[far]:.5f} (→ 1/3). Both → ∞ as B → 0 (eq. (35) {sqrt_ratio[0]:.3g}, model "
                  f"{ratio[0]:.3g} at B/CT = 1e-6), the paper's 'perfect agreement'; eq. (35) = 1 at T_q = T "
                  f"({float(model.sqrt_formula_ratio(1.0, 1.0)):.3f})"),
        ]
        checks = [_identity(name, paper, measured) for name, paper, measured in (
            ("NewReno share, B → ∞ (B/CT = 1e6)", nr_inf, float(nr[far])),
            ("Westwood+ share, B → ∞ (B/CT = 1e6)", wp_inf, float(wp[far])),
            ("Westwood+/NewReno ratio, B → ∞ (B/CT = 1e6)", 1 / 3, float(ratio[far])),
            ("Westwood+ share, B → 0 (B/CT = 1e-6)", wp_zero, float(wp[0])),
            ("eq. (35) ratio, B → ∞ (B/CT = 1e6)", 1 / math.sqrt(2), float(sqrt_ratio[far])))]
        series = [Series("NewReno (model)", x, nr), Series("Westwood+ (model)", x, wp),
                  Series("ratio Westwood+/NewReno (model)", x, ratio),
                  Series("ratio, eq. (35) with the model's T_q", x, sqrt_ratio)]
        notes = [f"{setting.label}; the limits do not depend on the scenario (Prop. 4)",
                 "eq. (35) is evaluated with T_q = t*/s* − T, the model's mean queueing delay per round trip "
                 "(virtual time s counts round trips, so t*/s* is the mean RTT)"]
        return Outcome(series=series, claims=claims, model_checks=checks, notes=notes)

    def plot(self, outcome: Outcome, fig: Figure) -> None:
        fig.set_size_inches(10, 4.5)
        left, right = fig.subplots(1, 2)
        for s in outcome.series:
            if s.label.startswith("ratio"):
                right.plot(s.x, s.y, linestyle="--" if "eq. (35)" in s.label else "-",
                           color="tab:gray" if "eq. (35)" in s.label else "black", label=s.label)
            else:
                left.plot(s.x, s.y, linestyle=_line_style(s.label), color=_color(s.label), label=s.label)
        for value, text, ax in ((0.75, "3/4", left), (0.25, "1/4", left), (1 / 3, "1/3", right),
                                (1 / math.sqrt(2), "1/√2", right)):
            ax.axhline(value, color="gray", linewidth=0.7, linestyle=":")
            ax.annotate(text, (1e-6, value), fontsize="small", color="gray", xytext=(2, 2), textcoords="offset points")
        left.set_ylim(0, 1.05)
        left.set_ylabel(self.ylabel)
        right.set_yscale("log")
        right.set_ylim(0.1, 1e3)
        right.set_ylabel("throughput ratio Westwood+/NewReno")
        for ax in (left, right):
            ax.set_xscale("log")
            ax.set_xlabel(self.xlabel)
            ax.grid(alpha=0.3)
            ax.legend(fontsize="small")
        fig.suptitle(f"{self.id}: {self.title}", fontsize="medium")


# --- simulation experiments ----------------------------------------------------------------


def _fig5_scenarios(configured: Sequence[int]) -> list[int]:
    text = os.environ.get("TCPSIM_MOLLER_FIG5_SCENARIOS")
    chosen = [int(part) for part in text.replace(" ", "").split(",") if part] if text else list(configured)
    unknown = [n for n in chosen if n not in TABLE_II]
    if unknown or not chosen:
        raise ValueError(f"TCPSIM_MOLLER_FIG5_SCENARIOS / Fig5.scenarios: {chosen} must be Table II scenarios 0–3")
    return sorted(set(chosen))


@register
class Fig5(Experiment):
    id = "moller.fig5"
    title = "simulation vs model: NewReno and Westwood+ vs buffer size"
    paper = "moller"
    xlabel = "buffer size B (packets)"
    ylabel = "normalized throughput"
    seeds_quick = 3
    seeds_full = 10
    scenarios: tuple[int, ...] = (1,)
    """Table II scenarios of a full run (quick runs scenario 1 only); the environment variable
    TCPSIM_MOLLER_FIG5_SCENARIOS="0,1,2,3" overrides it."""

    def runs(self, quick: bool, seeds: int | None) -> list[RunSpec]:
        require_westwood_plus()
        specs = []
        for number in [1] if quick else _fig5_scenarios(self.scenarios):
            setting = TABLE_II[number]
            duration, warmup = run_length(setting, quick)
            for buffer in buffer_grid(setting, quick):
                scenario = two_flow_scenario(setting, buffer, duration_s=duration, warmup_s=warmup)
                specs += [RunSpec(key=(number, buffer, seed), scenario=scenario, seed=seed)
                          for seed in self.replications(quick, seeds)]
        return specs

    def analyze(self, results: Mapping[Any, RunResult], quick: bool) -> Outcome:
        numbers_run = sorted({key[0] for key in results})
        series, claims, numbers, notes = [], [], [], list(COMMON_NOTES)
        for number in numbers_run:
            setting = TABLE_II[number]
            duration, warmup = run_length(setting, quick)
            sim = Sweep.collect(results, setting, lambda key, n=number: key[1] if key[0] == n else None)
            prefix = f"scenario {number}: "
            for s in [*_model_series(setting, lambda b: b), *_sim_series(sim, "Westwood+")]:
                series.append(Series(prefix + s.label, s.x, s.y, s.y_ci_low, s.y_ci_high))
            claims.append(_model_match_claim(setting, sim, "Westwood+")[0])
            notes += _sim_notes(setting, sim, duration, warmup)
            rtt_min = sim.mean("second_rtt_min_s")
            notes.append(f"{setting.label}: Westwood+'s RTTmin estimate (mean over seeds) "
                         f"{_fmt(rtt_min * 1e3, 1)} ms for B = {', '.join(map(str, sim.buffers))} pkt; base RTT "
                         f"{setting.base_rtt_s * 1e3:.2f} ms ({_westwood_rtt_min_s(next(iter(results.values())))[1]})")
            if number == 1:
                claim, ratio_numbers = self._ratio_claim(setting, sim)
                claims.append(claim)
                numbers += self._share_numbers(setting, sim) + ratio_numbers
        return Outcome(series=series, claims=claims, numbers=numbers, notes=notes)

    @staticmethod
    def _share_numbers(setting: Setting, sim: Sweep) -> list[Number]:
        buffers = np.array(sim.buffers)
        i = int(np.argmin(np.abs(buffers - setting.bdp_pkts)))
        out = []
        for metric, name in (("first", "NewReno"), ("second", "Westwood+")):
            mean, low, high = (v[i] for v in sim.stat(metric))
            out.append(Number(f"{name} normalized throughput at B = CT ({buffers[i]} pkt), scenario {setting.number} simulation "
                              f"(95% CI {low:.3f}–{high:.3f})", 0.5, float(mean)))
        return out

    @staticmethod
    def _ratio_claim(setting: Setting, sim: Sweep) -> tuple[Claim, list[Number]]:
        """W+/NR ratio falls with B, towards 1/3 (Prop. 4) and not 1/√2 (eq. (35))."""
        buffers = np.array(sim.buffers, dtype=float)
        ratio = sim.mean("ratio")
        fitted = setting.model(buffers)
        model_ratio = (fitted["westwood_plus"] / fitted["newreno"]).to_numpy()
        sqrt_ratio = model.sqrt_formula_ratio(setting.rtt_s, sim.mean("queue_delay_s"))
        considered = buffers >= SMALL_BUFFER_PKTS
        b, r = buffers[considered], ratio[considered]
        tau = -_kendall(b, r)  # Kendall's τ of the ratio against −B
        large = buffers > setting.bdp_pkts
        closer = np.abs(ratio[large] - model_ratio[large]) < np.abs(ratio[large] - sqrt_ratio[large])
        last = len(buffers) - 1
        holds = bool(tau >= 0.8 and large.any() and closer.all() and ratio[last] < 1 / math.sqrt(2))
        detail = (f"test: Kendall's τ of the ratio against −B over B ≥ 5 ≥ 0.8, the ratio closer to the model (→ 1/3) "
                  f"than to eq. (35) (→ 1/√2) at every B > CT, and below 1/√2 at the largest B; "
                  f"simulated Westwood+/NewReno ratio for B = {', '.join(f'{v:g}' for v in buffers)} pkt: "
                  f"{_fmt(ratio)}; Kendall's τ of the ratio against −B (B ≥ 5): {tau:.2f}; for B > CT the model (→ 1/3) "
                  f"gives {_fmt(model_ratio[large])}, eq. (35) with the measured mean queueing delay "
                  f"({_fmt(sim.mean('queue_delay_s')[large] * 1e3, 1)} ms) gives {_fmt(sqrt_ratio[large])} (→ 1/√2, and "
                  f"never below it); the simulation is closer to the model at {int(closer.sum())} of {int(large.sum())} "
                  f"of them; at B = {buffers[last]:g} the ratio {ratio[last]:.3f} is "
                  f"{'below' if ratio[last] < 1 / math.sqrt(2) else 'not below'} 1/√2 = {1 / math.sqrt(2):.3f}")
        claim = Claim("W+/NR ratio falls with B, towards 1/3 (not 1/√2)", holds, detail)
        number = Number(f"Westwood+/NewReno throughput ratio at the largest buffer (B = {buffers[last]:g} pkt), "
                        "paper: tends to 1/3", 1 / 3, float(ratio[last]))
        # The gap to 1/3 is the finiteness of B if the simulation is no further from 1/3 than the
        # model's own value at this B (+15%) and follows the model rather than eq. (35).
        if (number.status == "missed" and closer.all()
                and 1 / 3 < ratio[last] <= 1.15 * model_ratio[last]):
            number.explanation = (
                f"1/3 is the B → ∞ limit (Prop. 4), not a value at B = {buffers[last]:g} pkt = "
                f"{buffers[last] / setting.bdp_pkts:.2f}·CT: there the model itself gives {model_ratio[last]:.3f} "
                f"(β = {float(model.westwood_decrease_factor(setting.bdp_pkts, buffers[last])):.3f}) and the simulation "
                f"{ratio[last]:.3f} ({(ratio[last] - model_ratio[last]) / model_ratio[last]:+.1%} from the model"
                f"{', i.e. nearer 1/3' if ratio[last] < model_ratio[last] else ''}), while eq. (35) with the measured "
                f"queueing delay predicts {sqrt_ratio[last]:.3f}; moller.limits shows the model's ratio approaching 1/3 "
                f"only as B/CT grows far beyond 2")
        return claim, [number]

    def plot(self, outcome: Outcome, fig: Figure) -> None:
        # Series labels start with "scenario N: "; one panel per scenario.
        scenarios = sorted({int(s.label.split(":")[0].split()[1]) for s in outcome.series})

        def panel(ax: Axes, number: int) -> None:
            chosen = [Series(s.label.split(": ", 1)[1], s.x, s.y, s.y_ci_low, s.y_ci_high)
                      for s in outcome.series if s.label.startswith(f"scenario {number}:")]
            draw_overlay(ax, chosen, self.xlabel, self.ylabel)
            ax.axvline(TABLE_II[number].bdp_pkts, color="gray", linewidth=0.8, alpha=0.6)

        if len(scenarios) == 1:
            fig.set_size_inches(10, 4.8)
            ax = fig.add_subplot()
            panel(ax, scenarios[0])
            ax.legend(fontsize="x-small", loc="upper left", bbox_to_anchor=(1.01, 1))
            ax.set_title(f"{self.id}: {TABLE_II[scenarios[0]].label}", fontsize="medium")
            return
        fig.set_size_inches(11, 8)
        axes = np.atleast_1d(fig.subplots(2, 2) if len(scenarios) > 2 else fig.subplots(1, len(scenarios))).ravel()
        for ax, number in zip(axes, scenarios):
            panel(ax, number)
            ax.set_title(TABLE_II[number].label, fontsize="small")
        axes[0].legend(fontsize="x-small", ncol=2)
        fig.suptitle(f"{self.id}: {self.title}", fontsize="medium")


@register
class Fig6(Experiment):
    id = "moller.fig6"
    title = "as fig5, Westwood+ starting about 50 s after NewReno"
    paper = "moller"
    xlabel = "buffer size B (packets)"
    ylabel = "normalized throughput"
    seeds_quick = 3
    seeds_full = 10
    paper_rtt_min_s = 0.080

    def runs(self, quick: bool, seeds: int | None) -> list[RunSpec]:
        require_westwood_plus()
        setting, grid, duration, warmup = _sim_setting(quick)
        specs = []
        for buffer in grid:
            delayed = two_flow_scenario(setting, buffer, duration_s=duration + WESTWOOD_DELAY_S,
                                        warmup_s=warmup + WESTWOOD_DELAY_S, second_start_s=WESTWOOD_DELAY_S)
            together = two_flow_scenario(setting, buffer, duration_s=duration, warmup_s=warmup)
            for seed in self.replications(quick, seeds):
                specs.append(RunSpec(key=("delayed", buffer, seed), scenario=delayed, seed=seed))
                specs.append(RunSpec(key=("together", buffer, seed), scenario=together, seed=seed))
        return specs

    def analyze(self, results: Mapping[Any, RunResult], quick: bool) -> Outcome:
        setting, _, duration, warmup = _sim_setting(quick)
        ct = setting.bdp_pkts
        delayed = Sweep.collect(results, setting, lambda key: key[1] if key[0] == "delayed" else None)
        together = Sweep.collect(results, setting, lambda key: key[1] if key[0] == "together" else None)
        buffers = np.array(delayed.buffers, dtype=float)
        rtt_mean, rtt_low, rtt_high = delayed.stat("second_rtt_min_s")
        rtt_together = together.mean("second_rtt_min_s")
        source = _westwood_rtt_min_s(next(iter(results.values())))[1]
        # Beyond CT, NewReno alone never drains the queue (its window after halving, (CT + B)/2,
        # exceeds CT), so a late starter cannot see T; at B <= CT it can. "Inflated at large B":
        # the estimate grows with B beyond CT and is well above T (>= 1.2·T) at the largest B,
        # while with a simultaneous start it stays at the base RTT.
        beyond_ct = buffers >= ct
        queue_before = delayed.mean("queue_before_delayed_start_pkts")
        queue_min = delayed.mean("queue_min_after_delayed_start_pkts")
        # RTTmin = the base RTT plus the smallest queueing delay Westwood+ ever saw.
        implied = setting.base_rtt_s + queue_min * PACKET_BYTES * 8 / setting.capacity_bps
        top = int(np.argmax(rtt_mean))
        last = len(buffers) - 1
        tau = _kendall(buffers[beyond_ct], rtt_mean[beyond_ct])
        baseline = bool(np.all(np.abs(rtt_together - setting.base_rtt_s) <= 0.001))
        inflated = bool(beyond_ct.sum() >= 2 and tau >= 0.8 and rtt_mean[last] >= 1.2 * setting.rtt_s and baseline)
        claims = [Claim(
            "Westwood+'s RTTmin estimate is inflated (up to ~80 ms vs true 50 ms) at large B",
            inflated,
            f"test (Required, below): the estimate rises with B beyond CT, ≥ 1.2·T at the largest B, base RTT "
            f"with a simultaneous start; Westwood+ RTTmin estimate (mean over seeds, {source}) for B = "
            f"{', '.join(f'{b:g}' for b in buffers)} pkt: {_fmt(rtt_mean * 1e3, 1)} ms, vs "
            f"{_fmt(rtt_together * 1e3, 1)} ms when both start together; true T = {setting.rtt_s * 1e3:g} ms "
            f"(base RTT with serialization {setting.base_rtt_s * 1e3:.2f} ms). Required: Kendall's τ of the estimate "
            f"against B for B ≥ CT ≥ 0.8 (got {tau:.2f}), ≥ 1.2·T at the largest B (got {rtt_mean[last] * 1e3:.1f} ms), "
            f"simultaneous-start estimate within 1 ms of the base RTT (got {'yes' if baseline else 'no'}). Bottleneck "
            f"queue (1 s samples) in the 5 s before Westwood+ starts: {_fmt(queue_before, 1)} pkt; smallest after it "
            f"starts: {_fmt(queue_min, 1)} pkt, i.e. base RTT + that delay = {_fmt(implied * 1e3, 1)} ms")]
        gain = delayed.mean("second") - together.mean("second")
        wp_model = setting.model(buffers)["westwood_plus"].to_numpy()
        # The disadvantage shrinks *because* of the inflated estimate: check wherever the estimate
        # is inflated by at least 10% of T over the simultaneous start.
        affected = (rtt_mean - rtt_together) >= 0.1 * setting.rtt_s
        claims.append(Claim(
            "so its large-buffer disadvantage shrinks",
            bool(affected.any() and np.all(gain[affected] > 0)),
            f"test: Westwood+ share, delayed start minus simultaneous start, > 0 wherever its RTTmin estimate is "
            f"inflated; {_point_list(buffers, gain)}; required > 0 "
            f"wherever the RTTmin estimate is inflated by ≥ {0.1 * setting.rtt_s * 1e3:g} ms "
            f"(B = {', '.join(f'{b:g}' for b in buffers[affected]) or 'none'} pkt); delayed-start Westwood+ share "
            f"there {_fmt(delayed.mean('second')[affected])} vs simultaneous {_fmt(together.mean('second')[affected])} "
            f"and model (RTTmin = T) {_fmt(wp_model[affected])}"))
        number = Number("largest Westwood+ RTTmin estimate over B (s)", self.paper_rtt_min_s, float(rtt_mean[top]))
        # The estimate is set by how far NewReno's sawtooth drains the queue after Westwood+
        # starts; if the 1 s queue samples account for it (within 5 ms, the samples can only
        # overestimate the minimum), a gap to the paper's 80 ms is that queue's, and is explained.
        mechanism = math.isfinite(implied[top]) and -0.002 <= implied[top] - rtt_mean[top] <= 0.005
        if number.status == "missed" and mechanism:
            number.explanation = (
                f"the estimate is the base RTT ({setting.base_rtt_s * 1e3:.1f} ms) plus the smallest queueing delay "
                f"Westwood+ ever sees, i.e. how far NewReno's sawtooth drains the queue after Westwood+ starts, which "
                f"the paper does not report: at B = {buffers[top]:g} pkt the smallest sampled queue after the start is "
                f"{queue_min[top]:.1f} pkt → {implied[top] * 1e3:.1f} ms, against the measured estimate "
                f"{rtt_mean[top] * 1e3:.1f} ms (95% CI {rtt_low[top] * 1e3:.1f}–{rtt_high[top] * 1e3:.1f} ms)")
        series = [
            *_model_series(setting, lambda b: b),
            *_sim_series(delayed, "Westwood+", suffix=", delayed start"),
            together.series("Westwood+ (reference: simultaneous start, sim, mean ± 95% CI)", "second"),
            Series("Westwood+ RTTmin estimate (s), delayed start", list(buffers), rtt_mean, rtt_low, rtt_high),
        ]
        notes = [*COMMON_NOTES,
                 f"Westwood+ starts at {WESTWOOD_DELAY_S:g} s + uniform [0, 1] s; the measurement window starts "
                 f"{WESTWOOD_DELAY_S:g} s later than fig5's ({warmup + WESTWOOD_DELAY_S:g} s of "
                 f"{duration + WESTWOOD_DELAY_S:g} s); the simultaneous-start runs are fig5's set-up",
                 *_sim_notes(setting, delayed, duration + WESTWOOD_DELAY_S, warmup + WESTWOOD_DELAY_S)]
        return Outcome(series=series, claims=claims, numbers=[number], notes=notes)

    def plot(self, outcome: Outcome, fig: Figure) -> None:
        fig.set_size_inches(11, 4.5)
        left, right = fig.subplots(1, 2)
        shares = [s for s in outcome.series if "RTTmin" not in s.label]
        draw_overlay(left, shares, self.xlabel, self.ylabel)
        left.legend(fontsize="xx-small", ncol=1, loc="lower right")
        ct = TABLE_II[1].bdp_pkts
        left.axvline(ct, color="gray", linewidth=0.8, alpha=0.6)
        left.set_title("shares (Westwood+ delayed 50 s)", fontsize="small")
        for s in outcome.series:
            if "RTTmin" in s.label:
                y = np.asarray(s.y, dtype=float) * 1e3
                right.errorbar(s.x, y, yerr=[np.clip(y - np.asarray(s.y_ci_low) * 1e3, 0, None),
                                             np.clip(np.asarray(s.y_ci_high) * 1e3 - y, 0, None)],
                               fmt="+", color="tab:orange", capsize=2.5, label="Westwood+ RTTmin estimate (sim)")
        right.axhline(TABLE_II[1].rtt_s * 1e3, color="gray", linestyle="--", linewidth=0.9, label="true T = 50 ms")
        right.axhline(self.paper_rtt_min_s * 1e3, color="black", linestyle=":", linewidth=0.9,
                      label="paper: up to ~80 ms")
        right.set_xlabel(self.xlabel)
        right.set_ylabel("RTTmin estimate (ms)")
        right.grid(alpha=0.3)
        right.legend(fontsize="x-small")
        fig.suptitle(f"{self.id}: {self.title}", fontsize="medium")


@register
class Fig7(Experiment):
    id = "moller.fig7"
    title = "modified Westwood+ (never below half the previous window)"
    paper = "moller"
    xlabel = "normalized buffer size B/(CT)"
    ylabel = "normalized throughput"
    seeds_quick = 3
    seeds_full = 10
    equal_tolerance = 0.1
    """"About equal" shares: within 0.1 of each other (each 0.45–0.55 of a full link)."""

    def runs(self, quick: bool, seeds: int | None) -> list[RunSpec]:
        require_westwood_plus()
        setting, grid, duration, warmup = _sim_setting(quick)
        specs = []
        for buffer in grid:
            for kind, modified in (("modified", True), ("unmodified", False)):
                scenario = two_flow_scenario(setting, buffer, duration_s=duration, warmup_s=warmup, modified=modified)
                specs += [RunSpec(key=(kind, buffer, seed), scenario=scenario, seed=seed)
                          for seed in self.replications(quick, seeds)]
        return specs

    def analyze(self, results: Mapping[Any, RunResult], quick: bool) -> Outcome:
        setting, _, duration, warmup = _sim_setting(quick)
        ct = setting.bdp_pkts
        modified = Sweep.collect(results, setting, lambda key: key[1] if key[0] == "modified" else None)
        plain = Sweep.collect(results, setting, lambda key: key[1] if key[0] == "unmodified" else None)
        buffers = np.array(modified.buffers, dtype=float)
        x = buffers / ct
        m_nr, m_wp = modified.mean("first"), modified.mean("second")
        p_nr, p_wp = plain.mean("first"), plain.mean("second")
        above = buffers > ct
        gap = np.abs(m_nr - m_wp)
        # "Unchanged for B < CT": where the model gives the same curves (β ≥ 1/2 there), and the
        # simulations of the two variants should agree within the model tolerance.
        below = buffers < ct
        change_nr, change_wp = m_nr - p_nr, m_wp - p_wp
        claims = [
            Claim("for B > CT the shares become about equal",
                  bool(above.any() and np.all(gap[above] <= self.equal_tolerance)),
                  f"test: |NewReno − modified Westwood+| ≤ {self.equal_tolerance} at every B > CT; "
                  f"|NewReno − modified Westwood+| for B > CT ({', '.join(f'{b:g}' for b in buffers[above])} pkt): "
                  f"{_fmt(gap[above])} (unmodified: {_fmt(np.abs(p_nr - p_wp)[above])}); required ≤ "
                  f"{self.equal_tolerance}; modified Westwood+ share {_fmt(m_wp[above])}, NewReno {_fmt(m_nr[above])}"),
            Claim("for B < CT results are unchanged",
                  bool(below.any() and np.all(np.abs(change_nr[below]) <= MATCH_TOLERANCE)
                       and np.all(np.abs(change_wp[below]) <= MATCH_TOLERANCE)),
                  f"test: modified − unmodified within ±{MATCH_TOLERANCE} for both flows at every B < CT; "
                  f"modified − unmodified for B < CT, NewReno: {_point_list(buffers[below], change_nr[below])}; "
                  f"Westwood+: {_point_list(buffers[below], change_wp[below])}; required within ±{MATCH_TOLERANCE}"),
        ]
        series = [
            *_model_series(setting, lambda b: b / ct, modified=True, name="modified Westwood+"),
            *_sim_series(modified, "modified Westwood+", list(x)),
            plain.series("NewReno (reference: against unmodified W+, sim, mean ± 95% CI)", "first", list(x)),
            plain.series("Westwood+ (reference: unmodified, sim, mean ± 95% CI)", "second", list(x)),
        ]
        notes = [*COMMON_NOTES,
                 "modified Westwood+ = flow tcp.cc = {kind = \"westwood_plus\", min_decrease_half = true}: after a loss "
                 "ssthresh = max(BWE·RTTmin, NewReno's FlightSize/2); the model curve uses β = max(CT/(CT + B), 1/2) "
                 "in eqs. (27)–(30); unmodified Westwood+ (fig5's runs) shown faded for comparison",
                 *_sim_notes(setting, modified, duration, warmup, "modified Westwood+")]
        return Outcome(series=series, claims=claims, notes=notes)

    def plot(self, outcome: Outcome, fig: Figure) -> None:
        fig.set_size_inches(10.5, 4.8)
        ax = fig.add_subplot()
        draw_overlay(ax, outcome.series, self.xlabel, self.ylabel)
        ax.axvline(1.0, color="gray", linewidth=0.8, alpha=0.6)
        ax.legend(fontsize="x-small", loc="upper left", bbox_to_anchor=(1.01, 1))
        ax.set_title(f"{self.id}: {self.title}", fontsize="medium")


@register
class Fig8(Experiment):
    id = "moller.fig8"
    title = "NewReno competing with NewReno vs with Westwood+"
    paper = "moller"
    xlabel = "normalized buffer size B/(CT)"
    ylabel = "normalized throughput"
    seeds_quick = 3
    seeds_full = 10
    small_buffer = 0.25
    """"Small buffers" for the under-utilization claim: B ≤ CT/4."""
    underused = 0.97
    """Under-utilized: the pair carries less than 97% of the link."""

    def runs(self, quick: bool, seeds: int | None) -> list[RunSpec]:
        require_westwood_plus()
        setting, grid, duration, warmup = _sim_setting(quick)
        specs = []
        for buffer in grid:
            for kind, variant in (("newreno", "newreno"), ("westwood_plus", "westwood_plus")):
                scenario = two_flow_scenario(setting, buffer, duration_s=duration, warmup_s=warmup,
                                             second_variant=variant)
                specs += [RunSpec(key=(kind, buffer, seed), scenario=scenario, seed=seed)
                          for seed in self.replications(quick, seeds)]
        return specs

    def analyze(self, results: Mapping[Any, RunResult], quick: bool) -> Outcome:
        setting, _, duration, warmup = _sim_setting(quick)
        ct = setting.bdp_pkts
        pair = Sweep.collect(results, setting, lambda key: key[1] if key[0] == "newreno" else None)
        mixed = Sweep.collect(results, setting, lambda key: key[1] if key[0] == "westwood_plus" else None)
        buffers = np.array(pair.buffers, dtype=float)
        x = buffers / ct
        # A NewReno flow competing with NewReno: the mean of the two (both are such flows).
        pair.samples["per_flow"] = [[(a + b) / 2 for a, b in zip(f, s)]
                                    for f, s in zip(pair.samples["first"], pair.samples["second"])]
        util_pair, util_mixed = pair.mean("sum"), mixed.mean("sum")
        nr_pair, nr_mixed = pair.mean("per_flow"), mixed.mean("first")
        small = x <= self.small_buffer
        claims = [Claim(
            "two NewReno flows under-utilize small buffers",
            bool(small.any() and np.all(util_pair[small] < self.underused) and np.all(util_pair[small] < util_mixed[small])),
            f"test: NewReno-pair utilization < {self.underused} and below the mixed pair's at every B ≤ CT/4; "
            f"utilization for B ≤ CT/4 ({', '.join(f'{b:g}' for b in buffers[small])} pkt): NewReno+NewReno "
            f"{_fmt(util_pair[small])}, NewReno+Westwood+ {_fmt(util_mixed[small])} (required: NewReno pair < "
            f"{self.underused} and below the mixed pair); NewReno pair for B ≥ CT: {_fmt(util_pair[buffers >= ct])}")]
        model_mixed = setting.model(buffers)["newreno"].to_numpy()
        model_pair = setting.newreno_pair_model(buffers)["per_flow"].to_numpy()
        distinct = np.abs(model_mixed - model_pair) >= DISTINGUISHABLE
        lose = distinct & (buffers < ct)
        gain = distinct & (buffers > ct)
        difference = nr_mixed - nr_pair
        claims.append(Claim(
            "NewReno loses throughput to Westwood+ for B < CT and gains for B > CT",
            bool(lose.any() and gain.any() and np.all(difference[lose] < 0) and np.all(difference[gain] > 0)),
            f"test: NewReno's share with Westwood+ minus with NewReno < 0 at every B < CT and > 0 at every B > CT "
            f"where the model separates them; {_point_list(buffers, difference)}; checked "
            f"where the model separates the two by ≥ {DISTINGUISHABLE} (B < CT: "
            f"{', '.join(f'{b:g}' for b in buffers[lose])}; B > CT: {', '.join(f'{b:g}' for b in buffers[gain])} pkt); "
            f"model difference there: {_fmt((model_mixed - model_pair)[lose | gain])}"))
        fine = np.linspace(2, 2 * ct, 300)
        fine_pair = setting.newreno_pair_model(fine)
        fine_mixed = setting.model(fine)
        series = [
            Series("NewReno with NewReno (model)", fine / ct, fine_pair["per_flow"]),
            Series("NewReno with Westwood+ (model)", fine / ct, fine_mixed["newreno"]),
            Series("utilization NewReno+NewReno (model)", fine / ct, fine_pair["utilization"]),
            Series("utilization NewReno+Westwood+ (model)", fine / ct, fine_mixed["utilization"]),
            pair.series("NewReno with NewReno (sim, per flow, mean ± 95% CI)", "per_flow", list(x)),
            mixed.series("NewReno with Westwood+ (sim, mean ± 95% CI)", "first", list(x)),
            pair.series("utilization NewReno+NewReno (sim, mean ± 95% CI)", "sum", list(x)),
            mixed.series("utilization NewReno+Westwood+ (sim, mean ± 95% CI)", "sum", list(x)),
        ]
        notes = [*COMMON_NOTES,
                 "NewReno competing with NewReno: the mean of the two NewReno flows' shares (each competes with a "
                 "NewReno); utilization = sum of the two flows' shares",
                 "model of two NewReno flows: the same closed form with both decrease factors 1/2 (fixed point "
                 "w1 = w2 = (CT + B + m)/4 of eq. (29))",
                 *_sim_notes(setting, mixed, duration, warmup),
                 *(f"NewReno pair: {note}" for note in _sim_notes(setting, pair, duration, warmup, "NewReno")[1:2])]
        return Outcome(series=series, claims=claims, notes=notes)

    def plot(self, outcome: Outcome, fig: Figure) -> None:
        fig.set_size_inches(10.5, 4.8)
        ax = fig.add_subplot()
        draw_overlay(ax, outcome.series, self.xlabel, self.ylabel)
        ax.axvline(1.0, color="gray", linewidth=0.8, alpha=0.6)
        ax.legend(fontsize="x-small", loc="upper left", bbox_to_anchor=(1.01, 1))
        ax.set_title(f"{self.id}: {self.title}", fontsize="medium")
