"""What every moller experiment shares: the Fig. 2 set-up and Table II scenarios, the per-run metrics, their
curves against the buffer size, the figures' style and the analysis helpers."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from tcpsim.models import moller as model
from tcpsim.repro.aggregate import FRACTION, NON_NEGATIVE, Curve, curve
from tcpsim.repro.framework import Claim, ModelCheck, Series
from tcpsim.repro.ns2_queue import ns2_drop_tail
from tcpsim.repro.plotting import PALETTE, draw_series, finish_axes
from tcpsim.repro.sweep import Axis
from tcpsim.repro.table import results_table
from tcpsim.tidy import RunKey, select_runs

if TYPE_CHECKING:
    from matplotlib.axes import Axes

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
IDENTITY_PRECISION = (
    "an identity of the model, exact up to the closed form's numerics and the finite B/CT "
    "(1e±6) standing for a limit: 1e-4 relative"
)
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
        return (
            f"scenario {self.number} (C = {self.capacity_bps / 1e6:g} Mb/s, T = {self.rtt_s * 1e3:g} ms, "
            f"CT = {self.bdp_pkts:.1f} pkt)"
        )

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


def buffer_axis(setting: Setting) -> Axis:
    """The swept buffer size (packets), key parameter ``buffer``: `buffer_grid`'s fine and coarse grids."""
    return Axis("buffer", buffer_grid(setting, False), quick=buffer_grid(setting, True))


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
    second: dict[str, Any] = {
        "name": "f2",
        "src": "s2",
        "dst": "d",
        "variant": second_variant,
        "start": _seconds(second_start_s),
        "start_jitter": _seconds(START_JITTER_S),
    }
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
            {
                "name": "bottleneck",
                "a": "r",
                "b": "d",
                "rate": f"{setting.capacity_bps / 1e6:g}Mbps",
                "delay": f"{bottleneck_delay_ms:.6f}ms",
                "queue": "1000pkt",
                "ab": {"queue": ns2_drop_tail(buffer_pkts)},
            },
        ],
        "flows": [
            {
                "name": "f1",
                "src": "s1",
                "dst": "d",
                "variant": "newreno",
                "start": "0s",
                "start_jitter": _seconds(START_JITTER_S),
            },
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
    return (
        float(value) if value is not None else math.nan,
        "flow summary rtt_min_s (smallest RTT in the measurement window; the cwnd trace has no RTTmin column)",
    )


def _bottleneck_queue(result: RunResult, start_s: float, end_s: float = math.inf) -> np.ndarray:
    """Bottleneck queue samples (packets, 1 s apart) with start_s <= time < end_s."""
    trace = result.traces.get("queue")
    if trace is None:
        return np.array([])
    rows = trace[
        (trace["link"] == "bottleneck")
        & (trace["direction"] == "ab")
        & (trace["time_s"] >= start_s)
        & (trace["time_s"] < end_s)
    ]
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
            _bottleneck_queue(result, WESTWOOD_DELAY_S - 5, WESTWOOD_DELAY_S)
        ),
        "queue_min_after_delayed_start_pkts": _min_or_nan(_bottleneck_queue(result, WESTWOOD_DELAY_S + START_JITTER_S)),
    }


VALID = {
    "first": FRACTION,
    "second": FRACTION,
    "sum": FRACTION,
    "link_utilization": FRACTION,
    "ratio": NON_NEGATIVE,
    "queue_delay_s": NON_NEGATIVE,
    "second_rtt_min_s": NON_NEGATIVE,
}
"""Ranges of the metrics whose CIs are drawn (the others are counts and queue lengths, also ≥ 0)."""


def buffer_curves(results: Mapping[RunKey, RunResult], setting: Setting, **condition: Any) -> dict[str, Curve]:
    """Every metric of ``run_metrics`` against the buffer size (key parameter ``buffer``), seeds
    aggregated, over the runs whose key has the ``condition`` parameters (e.g. ``start="delayed"``)."""
    table = results_table(select_runs(results, **condition), lambda r: run_metrics(r, setting), "moller")
    metrics = [c for c in table.columns if c not in ("experiment", "reading", "seed", "buffer", *condition)]
    return {m: curve(table, "buffer", m, VALID.get(m, NON_NEGATIVE)) for m in metrics}


def buffers_of(sim: Mapping[str, Curve]) -> list[int]:
    return sim["first"].x


def _stat(c: Curve) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(mean, CI low, CI high) at each buffer size."""
    return c.mean, c.ci_low, c.ci_high


def samples_of(sim: Mapping[str, Curve], metric: str) -> list[np.ndarray]:
    """The runs' values of ``metric`` at each buffer size, in seed order."""
    return [sim[metric].samples[b] for b in sim[metric].x]


# --- plotting ------------------------------------------------------------------------------

_STYLES = {
    # quantity (the label up to " (") → color, line style of a model curve, marker of a simulation
    "NewReno": (PALETTE[0], "-", "x"),
    "Westwood+": (PALETTE[1], "--", "+"),
    "modified Westwood+": (PALETTE[1], "--", "+"),
    "sum": (PALETTE[2], ":", "o"),
    "NewReno with NewReno": (PALETTE[4], "-", "x"),
    "NewReno with Westwood+": (PALETTE[0], "-", "x"),
    "utilization NewReno+NewReno": (PALETTE[4], ":", "o"),
    "utilization NewReno+Westwood+": (PALETTE[2], ":", "o"),
}


def _style(label: str) -> tuple[str, str, str]:
    """(color, line style, marker) of a series, from the quantity its label starts with, so that
    a quantity looks the same in every figure (the paper's NewReno solid/×, Westwood+ dashed/+,
    sum dotted/○)."""
    quantity = label.split(" (")[0].split(", scenario")[0]
    return _STYLES.get(quantity, (PALETTE[3], "-", "s"))


def _color(label: str) -> str:
    return _style(label)[0]


def _line_style(label: str) -> str:
    return _style(label)[1]


def overlay_style(s: Series) -> dict[str, Any]:
    """Model curves (no CI) as lines in the quantity's line style, simulations as the quantity's
    marker with error bars and no line; references faded."""
    color, line, marker = _style(s.label)
    if s.y_ci_low is None:
        return {"color": color, "linestyle": line, "marker": None}
    return {
        "color": color,
        "linestyle": "none",
        "marker": marker,
        "markersize": 5 if marker != "o" else 3.5,
        "mfc": "none" if marker == "o" else color,
        "alpha": 0.45 if "(reference" in s.label else 1.0,
    }


def draw_overlay(ax: Axes, series: Sequence[Series], xlabel: str, ylabel: str) -> None:
    """Model curves as lines, simulations as points with 95 % CI error bars (the shared plotter,
    ``overlay_style``); a reference simulation is nudged right so it does not hide the main points."""
    drawn = []
    for s in series:
        if "(reference" in s.label:
            x = np.asarray(s.x, dtype=float)
            s = Series(s.label, x + 0.012 * (np.nanmax(x) - np.nanmin(x)), s.y, s.y_ci_low, s.y_ci_high, s.valid)
        drawn.append(s)
    draw_series(ax, drawn, style_of=overlay_style)
    finish_axes(ax, xlabel, ylabel, legend=False)
    ax.set_ylim(0, 1.08)


# --- shared analysis -----------------------------------------------------------------------


def _fmt(values: Sequence[float], digits: int = 3) -> str:
    return ", ".join(f"{v:.{digits}f}" for v in values)


def _point_list(buffers: Sequence[float], values: Sequence[float], digits: int = 3) -> str:
    return "; ".join(
        f"B={b:g}: {v:+.{digits}f}" if v < 0 else f"B={b:g}: {v:.{digits}f}" for b, v in zip(buffers, values)
    )


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


def _model_match_claim(setting: Setting, sim: Mapping[str, Curve], name: str) -> tuple[Claim, dict[str, np.ndarray]]:
    """Sec. IV: "simulation and analysis give throughput values that match remarkably well, except for
    very small buffer sizes (B < 5)": NewReno, `name` and their sum within `MATCH_TOLERANCE` of the
    model at every simulated B ≥ 5."""
    buffers = np.array(buffers_of(sim), dtype=float)
    fitted = setting.model(buffers)
    deviations = {
        "NewReno": sim["first"].mean - fitted["newreno"].to_numpy(),
        name: sim["second"].mean - fitted["westwood_plus"].to_numpy(),
        "sum": sim["sum"].mean - fitted["utilization"].to_numpy(),
    }
    large = buffers >= SMALL_BUFFER_PKTS
    worst = {k: float(np.max(np.abs(v[large]))) if large.any() else math.nan for k, v in deviations.items()}
    where = {
        k: f"{buffers[large][np.argmax(np.abs(v[large]))]:g}" if large.any() else "-" for k, v in deviations.items()
    }
    small = ~large
    small_text = (
        (
            "; for B < 5: "
            + ", ".join(
                f"B={b:g}: NewReno {deviations['NewReno'][i]:+.3f}, {name} {deviations[name][i]:+.3f}"
                for i, b in enumerate(buffers)
                if small[i]
            )
        )
        if small.any()
        else ""
    )
    detail = (
        f"test: |simulation mean − model| ≤ {MATCH_TOLERANCE} (absolute normalized throughput; the paper's "
        f'"remarkably well" has no number, {MATCH_TOLERANCE} is the project\'s reading) for NewReno, {name} and '
        f"their sum at every B ≥ {SMALL_BUFFER_PKTS} pkt; {setting.label}, {int(large.sum())} buffer sizes × "
        f"{sim['first'].runs} seeds; largest: NewReno {worst['NewReno']:.4f} (B = {where['NewReno']}), {name} "
        f"{worst[name]:.4f} (B = {where[name]}), sum {worst['sum']:.4f} (B = {where['sum']}){small_text}. "
        f"Per buffer (sim − model), NewReno: {_point_list(buffers, deviations['NewReno'])}; {name}: "
        f"{_point_list(buffers, deviations[name])}"
    )
    claim = Claim(
        f"{setting.label}: simulation matches the model except for very small buffers (B < 5): NewReno, {name} "
        f"and their sum within {MATCH_TOLERANCE} of the model for B ≥ {SMALL_BUFFER_PKTS}",
        bool(large.any()) and all(w <= MATCH_TOLERANCE for w in worst.values()),
        detail,
    )
    return claim, deviations


def _identity(name: str, value: float, measured: float) -> ModelCheck:
    return ModelCheck(name, value, measured, tolerance=IDENTITY_TOLERANCE, precision=IDENTITY_PRECISION)


def _sim_series(
    sim: Mapping[str, Curve], name: str, x: Sequence[float] | None = None, suffix: str = ""
) -> list[Series]:
    tag = f"sim{suffix}, mean ± 95% CI"
    return [
        sim["first"].series(f"NewReno ({tag})", x),
        sim["second"].series(f"{name} ({tag})", x),
        sim["sum"].series(f"sum ({tag})", x),
    ]


def _model_series(
    setting: Setting,
    x_of: Callable[[np.ndarray], np.ndarray],
    modified: bool = False,
    name: str = "Westwood+",
    low: float = 2.0,
) -> list[Series]:
    fine = np.linspace(low, 2 * setting.bdp_pkts, 300)
    curves = setting.model(fine, modified)
    x = x_of(fine)
    return [
        Series("NewReno (model)", x, curves["newreno"]),
        Series(f"{name} (model)", x, curves["westwood_plus"]),
        Series("sum (model)", x, curves["utilization"]),
    ]


def _sim_notes(
    setting: Setting, sim: Mapping[str, Curve], duration_s: float, warmup_s: float, name: str = "Westwood+"
) -> list[str]:
    """Run set-up, utilization, loss synchronization and seed spread of one simulated sweep."""

    def pooled(metric: str) -> np.ndarray:
        return np.concatenate([np.asarray(v, dtype=float) for v in samples_of(sim, metric)])

    first, second = pooled("first_episodes"), pooled("second_episodes")
    spread = [(b, max(v) - min(v)) for b, v in zip(buffers_of(sim), samples_of(sim, "first"))]
    differing = [f"B={b}: {d:.3f}" for b, d in spread if d > 0.005]
    return [
        f"{setting.label}: {len(buffers_of(sim))} buffer sizes ({', '.join(map(str, buffers_of(sim)))} pkt) "
        f"× {sim['first'].runs} seeds; "
        f"runs of {duration_s:g} s, the first {warmup_s:g} s (slow start and at least 15 model congestion epochs) "
        f"excluded. Sum of the shares (goodput, retransmissions excluded) averages {pooled('sum').mean():.3f}; the "
        f"bottleneck's own utilization (all packets sent, retransmissions included) {pooled('link_utilization').mean():.3f}",
        f"loss synchronization: loss episodes (fast retransmits + timeouts) in the window per run, NewReno vs {name}: "
        f"{'; '.join(f'B={b}: {a:.0f}/{c:.0f}' for b, a, c in zip(buffers_of(sim), sim['first_episodes'].mean, sim['second_episodes'].mean))} "
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
