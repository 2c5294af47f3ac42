"""Casetti, Gerla, Mascolo, Sanadidi & Wang, "TCP Westwood: End-to-End Congestion Control for
Wired/Wireless Networks" (seed 004): every `casetti` experiment of EXPERIMENTS.md except fig5
(RED).

Wired (Sec. 4):
- `casetti.fig3`: bandwidth estimate of one TCPW flow against ON/OFF UDP cross traffic;
- `casetti.fig4`: sequence numbers of a 50 ms and a 200 ms RTT flow, TCPW pair vs Reno pair;
- `casetti.friendliness`: 20 flows on 2 Mb/s: all TCPW, all Reno, 10 + 10;
- `casetti.fig7`: 5 flows, k Reno + (5 − k) TCPW, clean and 1 % loss (a testbed measurement in
  the paper, simulated here).
Mixed wired/wireless (Sec. 5), Fig. 8 topology source —10 Mb/s, 45 ms— base station —2 Mb/s,
0.01 ms— mobile, errors in both directions of the wireless link:
- `casetti.fig9` (vs Bernoulli error rate), `fig10` (vs wired delay), `fig11` (vs wireless
  capacity), `fig12` (cwnd/ssthresh traces), `snoop` and `batcp` (bit errors);
- `casetti.fig15`/`fig16` (fading, two-state Markov), `fig17` (blackouts), `fig18` (LEO).

Common set-up (paper Sec. 4: "packet size 400 bytes", buffers = BDP, delayed ACKs, τ = 500 ms):
- **400-byte packets on the wire**: 360 bytes of payload + 40 of headers. ns-2's `packetSize_`
  is the whole packet (`Agent::allocpkt` gives every TCP data packet `size_` bytes and adds no
  header; ACKs are 40 bytes), and the paper's friendliness numbers confirm it: 20 × 0.0994 Mb/s
  = 1.99 Mb/s, i.e. the 2 Mb/s link counted in whole 400-byte packets. Throughputs are
  therefore reported as ns-2 counts them, delivered packets × 400 bytes (= delivered payload ×
  400/360), and so is the bandwidth estimate of fig3 (ns-2's TCPW counts `size_` bytes per
  acknowledged segment).
- Buffers (drop-tail) = bandwidth × round-trip propagation delay in 400-byte packets, at least
  ``MIN_BUFFER_PKTS`` (fig10's short delays would otherwise give less than one packet).
- Delayed ACKs at every receiver: one ACK per two segments, 200 ms timeout (Sec. 2.3).
- RTO as in ns-2 of the paper's time: `tcpTick_` = 100 ms and no `minrto_` (the defaults until
  2002 and 2004), so the floor is two ticks: min RTO 200 ms, clock granularity 100 ms. Initial
  window 1 segment (`windowInit_` 1). Receiver window unlimited.
- TCPW = the `westwood` preset (Tustin filter, τ = 500 ms, null samples every τ/2, Reno fast
  recovery) **reacting to every n duplicate ACKs** (`avoid_repeated_fast_retransmit = false`):
  the pseudocode of Sec. 3.1 has no `recover` guard, and neither has the ns-2 TCPW agent
  (`WestwoodTcpAgent::dupack_action`, derived from Reno, sets ssthresh = BWE·RTTmin and
  retransmits on every third duplicate ACK). So a second loss in a window is a second faster
  recovery (to BWE·RTTmin again, not a further halving), not a timeout. Reno and SACK keep the
  guard (ns-2's `bug_fix_`, on by default). Every sweep reports sensitivity runs at its headline
  point: the preset as is (guard on), TCPW over NewReno recovery, TCPW with a fixed-coefficient
  filter and no null samples (ns-2 TCPW filter type 1), and the RFC 6298 1 s RTO floor for all.
- Gains are TCPW / Reno − 1 (and / SACK − 1), per seed (runs paired by seed number), then
  mean ± 95 % CI over seeds. Every flow starts uniformly in [0, 1] s (shared-link experiments:
  [0, 5] s).

Choices where the paper is silent (class attributes, repeated in each experiment's notes):
fig3 UDP datagrams of 400 bytes, plateaus judged from 10 s after each switch; fig4 a 5 Mb/s
bottleneck (the one of Fig. 3), buffer = BDP at the mean RTT; friendliness and fig7 a dumbbell with
a 2 Mb/s, 10 ms bottleneck (fig7's testbed capacity is unknown; 1500-byte packets at 2 and 5 Mb/s
are a sensitivity run); fig11 RTT 45 ms as the text says (wired one-way 22.49 ms); fig12 0.5 %
errors; snoop/batcp the Fig. 8 topology with the wired delay set for the RTT, "64 KB" and
"100 KB" read as KiB; fig15–17 one Good/Bad process on the data direction of the wireless link
(both directions, independent, is a sensitivity run; so are sojourns counted in packets, ns-2's
default unit; fig17 also runs one blackout process for both directions), fig17's Good state
0.001 % loss as in fading; fig10 exact RTT samples (ns-2's 100 ms RTT ticks, which also set
ns-2 TCPW's RTTmin, are a sensitivity run); fig18 one gateway–terminal link,
hand-offs starting at 2 s. Durations and seeds: `duration_*_s`, `seeds_*` per class.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from tcpsim.repro import register
from tcpsim.repro.framework import Claim, Experiment, Number, Outcome, Series
from tcpsim.runner import RunSpec
from tcpsim.stats import mean_ci
from tcpsim.topologies import dumbbell

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from tcpsim.result import RunResult

# --- common set-up -------------------------------------------------------------------------

PACKET_BYTES = 400
HEADER_BYTES = 40
MSS_BYTES = PACKET_BYTES - HEADER_BYTES
WIRE_PER_PAYLOAD = PACKET_BYTES / MSS_BYTES
"""Delivered payload → delivered 400-byte packets (ns-2's accounting)."""
MIN_BUFFER_PKTS = 5
WIRELESS_DELAY_S = 0.01e-3
WIRED_RATE_BPS = 10e6
START_JITTER_S = 1.0
"""Every flow starts at a uniform time in [0, 1] s (its own random stream): replications differ
even where the channel has no randomness."""

BASE_TCP: dict[str, Any] = {
    "mss": f"{MSS_BYTES}B",
    "header": f"{HEADER_BYTES}B",
    "delack_count": 2,
    "delack_timeout": "200ms",
    "min_rto": "200ms",
    "clock_granularity": "100ms",
    "init_cwnd": 1,
}
RFC_RTO = {"min_rto": "1s", "clock_granularity": "1ms"}
NS2_RTT_TICK = {"rtt_tick": "100ms"}
"""Sensitivity: RTT samples in whole 100 ms ticks, at least one (ns-2's `tcp_tick_` of 2000–2001;
ns-2's TCPW agent takes RTTmin from the tick count), for the estimator and TCPW's RTTmin."""

PAPER_WESTWOOD_TCP: dict[str, Any] = {"avoid_repeated_fast_retransmit": False}
"""Per-flow TCP settings of TCPW: faster recovery on every n duplicate ACKs (see the docstring)."""


@dataclass(frozen=True)
class Config:
    """A TCP flavour as run here: the variant preset, its per-flow TCP overrides, and overrides
    of the scenario-wide [tcp] (sensitivity runs)."""

    variant: str
    label: str
    flow_tcp: Mapping[str, Any]
    tcp: Mapping[str, Any]


CONFIGS: dict[str, Config] = {
    "westwood": Config("westwood", "TCPW", PAPER_WESTWOOD_TCP, {}),
    "reno": Config("reno", "Reno", {}, {}),
    "sack": Config("sack", "SACK", {}, {}),
    # Sensitivity runs.
    "westwood[preset]": Config("westwood", "TCPW, preset as is (recover guard on)", {}, {}),
    "westwood[newreno]": Config("westwood", "TCPW over NewReno recovery", {"recovery": "newreno"}, {}),
    "westwood[rto1s]": Config("westwood", "TCPW, RTO floor 1 s", PAPER_WESTWOOD_TCP, RFC_RTO),
    "reno[rto1s]": Config("reno", "Reno, RTO floor 1 s", {}, RFC_RTO),
    "sack[rto1s]": Config("sack", "SACK, RTO floor 1 s", {}, RFC_RTO),
    "westwood[fixed]": Config("westwood", "TCPW, fixed-coefficient filter (ns-2 TCPW filter type 1), no null samples",
                              {**PAPER_WESTWOOD_TCP, "cc": {"kind": "westwood", "null_sample_divisor": 0,
                                                            "filter": {"kind": "tustin_fixed", "alpha": 19 / 21}}}, {}),
}
MAIN = ("westwood", "reno", "sack")
SENSITIVITY = ("westwood[preset]", "westwood[newreno]", "westwood[fixed]", "westwood[rto1s]", "reno[rto1s]",
               "sack[rto1s]")


def _ms(seconds: float) -> str:
    return f"{seconds * 1e3:.6f}ms"


def _bps(rate_bps: float) -> str:
    return f"{round(rate_bps)}bps"


def buffer_pkts(rate_bps: float, rtt_s: float, floor: int = MIN_BUFFER_PKTS) -> int:
    """Bandwidth-delay product in 400-byte packets, at least `floor`."""
    return max(floor, round(rate_bps * rtt_s / 8 / PACKET_BYTES))


def flow_spec(name: str, src: str, dst: str, config: str, **extra: Any) -> dict[str, Any]:
    c = CONFIGS[config]
    spec: dict[str, Any] = {"name": name, "src": src, "dst": dst, "variant": c.variant,
                            "start_jitter": f"{START_JITTER_S}s", **extra}
    if c.flow_tcp:
        spec["tcp"] = dict(c.flow_tcp)
    return spec


def wire_mbps(payload_bps: float) -> float:
    """Delivered payload rate → ns-2 throughput (400-byte packets), Mb/s."""
    return float(payload_bps) * WIRE_PER_PAYLOAD / 1e6


def wireless_scenario(config: str, *, loss: Sequence[Mapping[str, Any]], duration_s: float, warmup_s: float,
                      wired_delay_s: float = 0.045, wireless_rate_bps: float = 2e6,
                      wired_rate_bps: float = WIRED_RATE_BPS, trace: Mapping[str, Any] | None = None,
                      name: str = "", min_buffer_pkts: int = MIN_BUFFER_PKTS) -> dict[str, Any]:
    """Fig. 8: source —wired— base station —wireless (lossy)— mobile, one bulk flow."""
    rtt_s = 2 * (wired_delay_s + WIRELESS_DELAY_S)
    c = CONFIGS[config]
    scenario: dict[str, Any] = {
        "name": name or f"casetti Fig. 8 topology, {c.label}",
        "duration": f"{duration_s}s",
        "warmup": f"{warmup_s}s",
        "tcp": {**BASE_TCP, **c.tcp},
        "links": [
            {"name": "wired", "a": "source", "b": "base", "rate": _bps(wired_rate_bps), "delay": _ms(wired_delay_s),
             "queue": f"{buffer_pkts(wired_rate_bps, rtt_s)}pkt"},
            {"name": "wireless", "a": "base", "b": "mobile", "rate": _bps(wireless_rate_bps),
             "delay": _ms(WIRELESS_DELAY_S), "queue": f"{buffer_pkts(wireless_rate_bps, rtt_s, min_buffer_pkts)}pkt",
             "loss": [dict(item) for item in loss]},
        ],
        "flows": [flow_spec("tcp", "source", "mobile", config)],
    }
    if trace:
        scenario["trace"] = dict(trace)
    return scenario


def bernoulli(p: float) -> list[dict[str, Any]]:
    """Independent packet errors in both directions of the link (none for p = 0)."""
    return [{"kind": "bernoulli", "p": p, "direction": "both"}] if p > 0 else []


def _fmt_ci(values: Sequence[float], digits: int = 3, unit: str = "") -> str:
    m, lo, hi = mean_ci(values)
    return f"{m:.{digits}f}{unit} [{lo:.{digits}f}, {hi:.{digits}f}]"


def _pct(values: Sequence[float]) -> str:
    m, lo, hi = mean_ci(values)
    return f"{m:+.0f}% [{lo:+.0f}, {hi:+.0f}]"


def _gains(numerator: Sequence[float], denominator: Sequence[float]) -> list[float]:
    """Per-seed gains in percent, seeds paired by position."""
    return [100.0 * (a / b - 1.0) if b > 0 else math.nan for a, b in zip(numerator, denominator)]


# --- generic sweep of a one-flow scenario ----------------------------------------------------


class Sweep(Experiment):
    """A one-flow scenario swept over x for TCPW, Reno and SACK: throughput with 95 % CIs, gains
    of TCPW over Reno and SACK per seed; sensitivity runs at ``headline_x``."""

    paper = "casetti"
    ylabel = "throughput (Mb/s, 400-byte packets)"
    seeds_full = 10
    seeds_quick = 4
    grid_full: tuple[float, ...] = ()
    grid_quick: tuple[float, ...] = ()
    headline_x: float
    duration_full_s = 600.0
    duration_quick_s = 300.0
    warmup_s = 20.0
    x_unit = ""
    x_plot_scale = 1.0
    """x as plotted = x × x_plot_scale (e.g. error probability in %)."""
    paper_gain: float | None = None
    """The paper's headline gain (%) at headline_x, drawn as a star."""
    compare: tuple[str, ...] = ("reno", "sack")
    sensitivity_seeds_quick = 2
    symlog_linthresh: float | None = None
    """With a value, the x axis is symmetric-log, linear below it (grids that start at 0)."""

    def grid(self, quick: bool) -> tuple[float, ...]:
        return self.grid_quick if quick else self.grid_full

    def duration(self, quick: bool) -> float:
        return self.duration_quick_s if quick else self.duration_full_s

    def scenario(self, config: str, x: float, quick: bool) -> dict[str, Any]:
        raise NotImplementedError

    def runs(self, quick: bool, seeds: int | None) -> list[RunSpec]:
        specs = [RunSpec(key=(x, config, seed), scenario=self.scenario(config, x, quick), seed=seed)
                 for x in self.grid(quick) for config in MAIN for seed in self.replications(quick, seeds)]
        specs += [RunSpec(key=(self.headline_x, config, seed), scenario=self.scenario(config, self.headline_x, quick),
                          seed=seed)
                  for config in SENSITIVITY for seed in self.sensitivity_seeds(quick, seeds)]
        return specs

    def sensitivity_seeds(self, quick: bool, seeds: int | None) -> list[int]:
        """Seeds of the sensitivity runs: fewer than the main ones in quick mode."""
        n = self.sensitivity_seeds_quick if quick else self.seeds_full
        return list(range(1, (min(n, seeds) if seeds is not None else n) + 1))

    # analysis helpers

    @staticmethod
    def table(results: Mapping[Any, RunResult]) -> dict[tuple[float, str], list[float]]:
        """(x, config) → per-seed throughput (Mb/s, 400-byte packets), in seed order."""
        rows: dict[tuple[float, str], list[tuple[int, float]]] = {}
        for (x, config, seed), r in results.items():
            rows.setdefault((x, config), []).append((seed, wire_mbps(r.flows["throughput_bps"].sum())))
        return {key: [v for _, v in sorted(values)] for key, values in rows.items()}

    def gain_series(self, t: Mapping[tuple[float, str], list[float]], grid: Sequence[float], other: str) -> list[list[float]]:
        return [_gains(t[(x, "westwood")], t[(x, other)]) for x in grid]

    def base_outcome(self, t: Mapping[tuple[float, str], list[float]], quick: bool) -> Outcome:
        grid = list(self.grid(quick))
        xs = [x * self.x_plot_scale for x in grid]
        series = []
        for config in MAIN:
            stats = [mean_ci(t[(x, config)]) for x in grid]
            series.append(Series(CONFIGS[config].label, xs, [s[0] for s in stats], [s[1] for s in stats],
                                 [s[2] for s in stats]))
        for other in self.compare:
            stats = [mean_ci(g) for g in self.gain_series(t, grid, other)]
            series.append(Series(f"gain over {CONFIGS[other].label} (%)", xs, [s[0] for s in stats],
                                 [s[1] for s in stats], [s[2] for s in stats]))
        return Outcome(series=series, notes=[self.setup_note(quick), self.sensitivity_note(t)])

    def setup_note(self, quick: bool) -> str:
        return (f"{len(self.replications(quick, None))} seeds per point (sensitivity runs: "
                f"{self.sensitivity_seeds_quick if quick else self.seeds_full}); {self.duration(quick):g} s runs, "
                f"first {self.warmup_s:g} s excluded; throughput = delivered 400-byte packets (360 B payload + "
                f"40 B headers) as ns-2 counts them; buffers = BDP (≥ {MIN_BUFFER_PKTS} packets); delayed ACKs; "
                "min RTO 200 ms (ns-2 2-tick floor); TCPW reacts to every 3 duplicate ACKs (paper Sec. 3.1, "
                "ns-2 TCPW agent)")

    def sensitivity_lines(self, t: Mapping[tuple[float, str], list[float]]) -> list[str]:
        x = self.headline_x
        n = len(t.get((x, "westwood[preset]"), []))

        def first(config: str) -> list[float]:
            return t[(x, config)][:n]

        reno, sack = first("reno"), first("sack")
        lines = []
        for config in ("westwood", "westwood[preset]", "westwood[newreno]", "westwood[fixed]"):
            values = first(config)
            lines.append(f"{CONFIGS[config].label}: {_fmt_ci(values)} Mb/s, gain over Reno {_pct(_gains(values, reno))}"
                         f", over SACK {_pct(_gains(values, sack))}")
        w1, r1, s1 = first("westwood[rto1s]"), first("reno[rto1s]"), first("sack[rto1s]")
        lines.append(f"RTO floor 1 s (RFC 6298) for all: TCPW {_fmt_ci(w1)}, Reno {_fmt_ci(r1)}, SACK {_fmt_ci(s1)} Mb/s, "
                     f"gain over Reno {_pct(_gains(w1, r1))}, over SACK {_pct(_gains(w1, s1))}")
        return lines

    def sensitivity_note(self, t: Mapping[tuple[float, str], list[float]]) -> str:
        return (f"sensitivity at x = {self.headline_x * self.x_plot_scale:g}{self.x_unit} (first "
                f"{len(t.get((self.headline_x, 'westwood[preset]'), []))} seeds): " + "; ".join(self.sensitivity_lines(t)))

    def capacity_bps(self, x: float) -> float:
        """Bottleneck capacity at x (the 2 Mb/s wireless link unless x is a capacity)."""
        return 2e6

    def gain_number(self, t: Mapping[tuple[float, str], list[float]], other: str, paper: float,
                    explain: Callable[[str, float], str] | None = None, name: str | None = None) -> Number:
        gains = _gains(t[(self.headline_x, "westwood")], t[(self.headline_x, other)])
        measured = mean_ci(gains)[0]
        number = Number(name or f"TCPW gain over {CONFIGS[other].label} at {self.headline_x * self.x_plot_scale:g}"
                        f"{self.x_unit} (%)", paper, measured)
        if not number.within_tolerance and explain is not None:
            number.explanation = explain(other, paper)
        return number

    def peak(self, t: Mapping[tuple[float, str], list[float]], grid: Sequence[float], other: str) -> tuple[float, str]:
        """(x of the largest mean gain, a description of every gain)."""
        gains = self.gain_series(t, grid, other)
        means = [mean_ci(g)[0] for g in gains]
        best = grid[int(np.nanargmax(means))]
        detail = ", ".join(f"{x * self.x_plot_scale:g}{self.x_unit}: {_pct(g)}" for x, g in zip(grid, gains))
        return best, detail

    def peaks_at(self, t: Mapping[tuple[float, str], list[float]], grid: Sequence[float], other: str,
                 target: float) -> tuple[bool, str]:
        """Whether the gain peaks at `target`: it has the largest mean gain, or its 95 % CI
        reaches the largest mean (a statistical tie)."""
        best, detail = self.peak(t, grid, other)
        gains = dict(zip(grid, self.gain_series(t, grid, other)))
        best_mean = mean_ci(gains[best])[0]
        _, _, target_hi = mean_ci(gains[target])
        ok = best == target or target_hi >= best_mean
        return ok, (f"largest mean gain over {CONFIGS[other].label} at {best * self.x_plot_scale:g}{self.x_unit}; "
                    f"gains (mean [95% CI]): {detail}")

    def throughput_detail(self, t: Mapping[tuple[float, str], list[float]], x: float) -> str:
        return ", ".join(f"{CONFIGS[c].label} {_fmt_ci(t[(x, c)])}" for c in MAIN) + " Mb/s"

    def plot(self, outcome: Outcome, fig: Figure) -> None:
        fig.set_size_inches(11, 4.8)
        left, right = fig.subplots(1, 2)
        gains = [s for s in outcome.series if s.label.startswith("gain")]
        rates = [s for s in outcome.series if not s.label.startswith("gain")]
        _errorbars(left, rates)
        left.set_ylabel(self.ylabel)
        _errorbars(right, gains)
        if self.paper_gain is not None:
            right.plot([self.headline_x * self.x_plot_scale], [self.paper_gain], marker="*", markersize=14,
                       color="black", linestyle="none", label=f"paper: {self.paper_gain:+g}%")
        right.axhline(0, color="grey", linewidth=0.8)
        right.set_ylabel("TCPW gain (%)")
        for ax in (left, right):
            ax.set_xlabel(self.xlabel)
            if self.symlog_linthresh:
                ax.set_xscale("symlog", linthresh=self.symlog_linthresh, linscale=0.5)
                top = max(max(s.x) for s in outcome.series)
                ax.set_xlim(-0.2 * self.symlog_linthresh, top * 1.25)
            elif self.xscale:
                ax.set_xscale(self.xscale)
            ax.grid(alpha=0.3)
            ax.legend(fontsize="x-small")
        fig.suptitle(f"{self.id}: {self.title}", fontsize="medium")


COLORS = {"TCPW": "tab:blue", "Reno": "tab:red", "SACK": "tab:green", "gain over Reno": "tab:purple",
          "gain over SACK": "tab:olive"}


def _color(label: str) -> str | None:
    return next((color for prefix, color in sorted(COLORS.items(), key=lambda kv: -len(kv[0]))
                 if label.startswith(prefix)), None)


def _errorbars(ax: Axes, series: Sequence[Series], **style: Any) -> None:
    """Lines with 95 % CI error bars, coloured by variant; sensitivity series (label containing
    "sensitivity") dashed and paler."""
    for s in series:
        y = np.asarray(s.y, dtype=float)
        extra: dict[str, Any] = {"linestyle": "--", "alpha": 0.6} if "sensitivity" in s.label else {}
        if "color" not in style and _color(s.label):
            extra["color"] = _color(s.label)
        if s.y_ci_low is not None and s.y_ci_high is not None:
            below = np.clip(y - np.asarray(s.y_ci_low, dtype=float), 0, None)
            above = np.clip(np.asarray(s.y_ci_high, dtype=float) - y, 0, None)
            ax.errorbar(s.x, y, yerr=[below, above], marker="o", markersize=3, capsize=3, label=s.label,
                        **{**extra, **style})
        else:
            ax.plot(s.x, y, marker="o", markersize=3, label=s.label, **{**extra, **style})


# --- Sec. 4: wired experiments --------------------------------------------------------------


@register
class Fig3(Experiment):
    """One TCPW flow and two 1 Mb/s ON/OFF CBR sources share a 5 Mb/s, 30 ms link (FIFO)."""

    id = "casetti.fig3"
    title = "TCPW bandwidth estimate with ON/OFF UDP cross traffic (5 Mb/s, 30 ms)"
    paper = "casetti"
    xlabel = "time (s)"
    ylabel = "Mb/s (400-byte packets)"
    seeds_full = 5
    seeds_quick = 2
    capacity_bps = 5e6
    one_way_s = 0.030
    udp_rate_bps = 1e6
    udp1_on = ((25.0, 200.0),)
    udp2_on = ((50.0, 75.0), (125.0, 175.0))
    duration_s = 250.0
    settle_s = 10.0
    """Each plateau is judged after this settling time (TCP must first grow into freed bandwidth)."""
    tolerance = 0.15
    sample = "100ms"

    def scenario(self) -> dict[str, Any]:
        rtt_s = 2 * self.one_way_s
        def on(windows: Sequence[tuple[float, float]]) -> list[list[str]]:
            return [[f"{a}s", f"{b}s"] for a, b in windows]
        return {
            "name": "casetti Fig. 3: TCPW vs ON/OFF UDP",
            "duration": f"{self.duration_s}s",
            "tcp": dict(BASE_TCP),
            "links": [{"name": "bottleneck", "a": "source", "b": "sink", "rate": _bps(self.capacity_bps),
                       "delay": _ms(self.one_way_s), "queue": f"{buffer_pkts(self.capacity_bps, rtt_s)}pkt"}],
            "flows": [flow_spec("tcpw", "source", "sink", "westwood")],
            "udp": [{"name": "udp1", "src": "source", "dst": "sink", "rate": _bps(self.udp_rate_bps),
                     "packet": f"{PACKET_BYTES}B", "on": on(self.udp1_on)},
                    {"name": "udp2", "src": "source", "dst": "sink", "rate": _bps(self.udp_rate_bps),
                     "packet": f"{PACKET_BYTES}B", "on": on(self.udp2_on)}],
            "trace": {"cwnd": True, "interval": self.sample, "throughput_bin": "1s"},
        }

    def plateaus(self) -> list[tuple[float, float, float]]:
        """(start, end, bandwidth left to TCP in b/s) between successive UDP switch times."""
        edges = sorted({0.0, self.duration_s, *(t for w in self.udp1_on + self.udp2_on for t in w)})
        out = []
        for a, b in zip(edges, edges[1:]):
            mid = (a + b) / 2
            udp = sum(self.udp_rate_bps for windows in (self.udp1_on, self.udp2_on)
                      for s, e in windows if s <= mid < e)
            out.append((a, b, self.capacity_bps - udp))
        return out

    def runs(self, quick: bool, seeds: int | None) -> list[RunSpec]:
        return [RunSpec(key=(seed,), scenario=self.scenario(), seed=seed) for seed in self.replications(quick, seeds)]

    def analyze(self, results: Mapping[Any, RunResult], quick: bool) -> Outcome:
        plateaus = self.plateaus()
        est: list[list[float]] = [[] for _ in plateaus]
        got: list[list[float]] = [[] for _ in plateaus]
        for r in results.values():
            cwnd = r.trace("cwnd")
            tput = r.trace("throughput")
            for i, (a, b, _) in enumerate(plateaus):
                window = (cwnd["time_s"] >= a + self.settle_s) & (cwnd["time_s"] < b)
                est[i].append(float(cwnd.loc[window, "bwe_bps"].mean()) * WIRE_PER_PAYLOAD / 1e6)
                bins = (tput["time_s"] >= a + self.settle_s) & (tput["time_s"] + 1 <= b)
                got[i].append(float(tput.loc[bins, "throughput_bps"].mean()) * WIRE_PER_PAYLOAD / 1e6)
        first = results[min(results)]
        trace = first.trace("cwnd")
        step = max(1, int(round(0.5 / 0.1)))  # plot every 0.5 s
        t_series = trace.iloc[::step]
        avail_x = [p for a, b, _ in plateaus for p in (a, b)]
        avail_y = [c / 1e6 for _, _, c in plateaus for _ in (0, 1)]
        tp = first.trace("throughput")
        mids = [(a + b) / 2 for a, b, _ in plateaus]
        est_stats = [mean_ci(v) for v in est]
        series = [
            Series("bandwidth left to TCP (5 Mb/s − UDP)", avail_x, avail_y),
            Series(f"TCPW estimate BWE (seed {min(results)[0]}, 400-byte packets)", t_series["time_s"].tolist(),
                   (t_series["bwe_bps"] * WIRE_PER_PAYLOAD / 1e6).tolist()),
            Series(f"TCPW throughput, 1 s bins (seed {min(results)[0]})", tp["time_s"].tolist(),
                   (tp["throughput_bps"] * WIRE_PER_PAYLOAD / 1e6).tolist()),
            Series("plateau mean of BWE (mean, 95% CI over seeds)", mids, [s[0] for s in est_stats],
                   [s[1] for s in est_stats], [s[2] for s in est_stats]),
        ]
        rel = [(m[0] - c / 1e6) / (c / 1e6) for m, (_, _, c) in zip(est_stats, plateaus)]
        details = [f"[{a:g}, {b:g}) s: left {c / 1e6:g}, BWE {_fmt_ci(e)}, throughput {_fmt_ci(g)} Mb/s ({x:+.1%})"
                   for (a, b, c), e, g, x in zip(plateaus, est, got, rel)]
        tracks = all(abs(x) <= self.tolerance for x in rel)
        directions = [(np.sign(c2 - c1), np.sign(e2[0] - e1[0])) for (_, _, c1), (_, _, c2), e1, e2
                      in zip(plateaus, plateaus[1:], est_stats, est_stats[1:])]
        steps_ok = all(a == b for a, b in directions)
        numbers = [Number(f"BWE on [{a:g}, {b:g}) s (Mb/s)", c / 1e6, s[0]) for (a, b, c), s in zip(plateaus, est_stats)]
        claims = [
            Claim("the estimate tracks the bandwidth left to TCP (5 → 4 → 3 → 4 → 3 → 4 → 5 Mb/s): every plateau's "
                  f"mean estimate within {self.tolerance:.0%}", tracks, "; ".join(details)),
            Claim("every step of the estimate follows the step of the available bandwidth (up/down)", steps_ok,
                  ", ".join(f"{'up' if a > 0 else 'down'}→{'up' if b > 0 else 'down' if b < 0 else 'flat'}"
                            for a, b in directions)),
        ]
        return Outcome(series=series, claims=claims, numbers=numbers, notes=[
            f"{len(results)} seeds (flow start uniform in [0, 1] s); one TCPW flow and two 1 Mb/s CBR sources "
            f"(400-byte datagrams) share one FIFO drop-tail queue of {buffer_pkts(self.capacity_bps, 2 * self.one_way_s)} "
            f"packets (BDP) on the 5 Mb/s, 30 ms link; {self.duration_s:g} s",
            "the estimate is compared like with like: tcpsim's BWE counts payload bytes, so it is scaled by 400/360 "
            "to the wire rate of 400-byte packets (what ns-2's TCPW measures) before it is compared with 5 Mb/s minus "
            f"the UDP rate; each plateau is averaged from {self.settle_s:g} s after its start (sampled every {self.sample})",
            "BWE runs a few % above the throughput while UDP is on: TCP's ACKs are bunched by the FIFO shared with "
            "CBR packets, and the Tustin filter's (b_k + b_{k−1})/2 term weights a short-gap sample with the next, "
            "longer gap (the ACK-compression bias that motivated Westwood+)",
        ])

    def plot(self, outcome: Outcome, fig: Figure) -> None:
        ax = fig.add_subplot()
        avail, bwe, tput, means = outcome.series
        ax.plot(tput.x, tput.y, color="tab:green", alpha=0.35, linewidth=0.8, label=tput.label)
        ax.plot(bwe.x, bwe.y, color="tab:blue", linewidth=1.0, label=bwe.label)
        ax.plot(avail.x, avail.y, color="black", linewidth=1.5, linestyle="--", label=avail.label)
        _errorbars(ax, [means], color="tab:red", linestyle="none")
        ax.set_xlabel(self.xlabel)
        ax.set_ylabel(self.ylabel)
        ax.set_ylim(0, 6.5)
        ax.set_title(f"{self.id}: {self.title}", fontsize="medium")
        ax.legend(fontsize="small", loc="lower center")
        ax.grid(alpha=0.3)


def two_rtt_scenario(config: str, *, capacity_bps: float, rtts_s: Sequence[float], bottleneck_delay_s: float,
                     duration_s: float, bin_s: float) -> dict[str, Any]:
    """Flows with different RTTs (access delays) on one drop-tail bottleneck r1 → r2 → sink."""
    mean_rtt = float(np.mean(rtts_s))
    links: list[dict[str, Any]] = [
        {"name": "bottleneck", "a": "r1", "b": "sink", "rate": _bps(capacity_bps), "delay": _ms(bottleneck_delay_s),
         "queue": f"{buffer_pkts(capacity_bps, mean_rtt)}pkt"}]
    flows = []
    for i, rtt in enumerate(rtts_s):
        access = rtt / 2 - bottleneck_delay_s
        links.append({"name": f"access{i}", "a": f"s{i}", "b": "r1", "rate": "100Mbps", "delay": _ms(access),
                      "queue": "10000pkt"})
        flows.append(flow_spec(f"rtt{round(rtt * 1e3)}ms", f"s{i}", "sink", config))
    return {"name": f"casetti Fig. 4: RTTs {list(rtts_s)} s, {CONFIGS[config].label}", "duration": f"{duration_s}s",
            "tcp": dict(BASE_TCP), "links": links, "flows": flows,
            "trace": {"throughput_bin": f"{bin_s}s"}}


@register
class Fig4(Experiment):
    id = "casetti.fig4"
    title = "sequence number vs time, RTT 50 ms and 200 ms, drop-tail"
    paper = "casetti"
    xlabel = "time (s)"
    ylabel = "sequence number (400-byte packets delivered, ×1000)"
    seeds_full = 10
    seeds_quick = 3
    capacity_bps = 5e6
    """The paper gives no capacity: 5 Mb/s, the bottleneck of the preceding experiment (Fig. 3)."""
    rtts_s = (0.050, 0.200)
    bottleneck_delay_s = 0.010
    duration_full_s = 300.0
    duration_quick_s = 200.0
    bin_s = 1.0
    variants = ("westwood", "reno")

    def runs(self, quick: bool, seeds: int | None) -> list[RunSpec]:
        duration = self.duration_quick_s if quick else self.duration_full_s
        return [RunSpec(key=(config, seed), seed=seed, scenario=two_rtt_scenario(
                    config, capacity_bps=self.capacity_bps, rtts_s=self.rtts_s,
                    bottleneck_delay_s=self.bottleneck_delay_s, duration_s=duration, bin_s=self.bin_s))
                for config in self.variants for seed in self.replications(quick, seeds)]

    def analyze(self, results: Mapping[Any, RunResult], quick: bool) -> Outcome:
        names = [f"rtt{round(r * 1e3)}ms" for r in self.rtts_s]
        curves: dict[tuple[str, str], list[np.ndarray]] = {}
        totals: dict[tuple[str, str], list[float]] = {}
        times = None
        for (config, seed), r in sorted(results.items(), key=lambda kv: kv[0][1]):
            tp = r.trace("throughput")
            for name in names:
                rows = tp[tp["flow_name"] == name]
                packets = np.cumsum(rows["bytes"].to_numpy(dtype=float)) / MSS_BYTES
                curves.setdefault((config, name), []).append(packets)
                totals.setdefault((config, name), []).append(float(packets[-1]))
                times = rows["time_s"].to_numpy() + self.bin_s
        assert times is not None
        series = []
        for config in self.variants:
            for name, rtt in zip(names, self.rtts_s):
                stack = np.vstack(curves[(config, name)]) / 1e3
                stats = [mean_ci(col) for col in stack.T]
                series.append(Series(f"{CONFIGS[config].label}, RTT {rtt * 1e3:g} ms", times.tolist(),
                                     [s[0] for s in stats], [s[1] for s in stats], [s[2] for s in stats]))
        short, long_ = names
        shares = {c: [l / (s + l) for s, l in zip(totals[(c, short)], totals[(c, long_)])] for c in self.variants}
        faster = {c: [s > l for s, l in zip(totals[(c, short)], totals[(c, long_)])] for c in self.variants}
        mean_share = {c: mean_ci(shares[c])[0] for c in self.variants}
        detail_fast = "; ".join(
            f"{CONFIGS[c].label}: short {_fmt_ci(np.array(totals[(c, short)]) / 1e3, 1)}k, long "
            f"{_fmt_ci(np.array(totals[(c, long_)]) / 1e3, 1)}k packets (short ahead in {sum(faster[c])}/{len(faster[c])} seeds)"
            for c in self.variants)
        claims = [
            Claim("the short-RTT flow progresses faster under both TCPW and Reno",
                  all(mean_ci(totals[(c, short)])[0] > mean_ci(totals[(c, long_)])[0] for c in self.variants),
                  detail_fast),
            Claim("the long-RTT flow's share is larger under TCPW than under Reno",
                  mean_share["westwood"] > mean_share["reno"],
                  "; ".join(f"{CONFIGS[c].label}: long flow's share {_fmt_ci(shares[c])}" for c in self.variants)
                  + f"; per-seed TCPW − Reno share > 0 in "
                    f"{sum(w > r for w, r in zip(shares['westwood'], shares['reno']))}/{len(shares['reno'])} seeds"),
        ]
        duration = self.duration_quick_s if quick else self.duration_full_s
        return Outcome(series=series, claims=claims, notes=[
            f"{len(shares['reno'])} seeds; {duration:g} s; capacity {self.capacity_bps / 1e6:g} Mb/s (not given by the paper: "
            "the bottleneck of Fig. 3), bottleneck delay 10 ms, RTTs 50 and 200 ms set by 100 Mb/s access links; "
            f"drop-tail buffer = BDP at the mean RTT (125 ms) = {buffer_pkts(self.capacity_bps, float(np.mean(self.rtts_s)))} "
            "packets; both flows start uniformly in [0, 1] s",
            "sequence number = 400-byte packets delivered in order (throughput trace, 1 s bins), mean ± 95 % CI over seeds",
        ])

    def plot(self, outcome: Outcome, fig: Figure) -> None:
        ax = fig.add_subplot()
        colors = {"TCPW": "tab:blue", "Reno": "tab:red"}
        for s in outcome.series:
            variant = s.label.split(",")[0]
            style = "-" if "50 ms" in s.label else "--"
            ax.plot(s.x, s.y, style, color=colors[variant], label=s.label)
            ax.fill_between(s.x, s.y_ci_low, s.y_ci_high, color=colors[variant], alpha=0.2)
        ax.set_xlabel(self.xlabel)
        ax.set_ylabel(self.ylabel)
        ax.set_title(f"{self.id}: {self.title}", fontsize="medium")
        ax.legend(fontsize="small")
        ax.grid(alpha=0.3)


def shared_scenario(configs: Sequence[str], *, capacity_bps: float, rtt_s: float, loss_p: float, duration_s: float,
                    warmup_s: float, mss_bytes: int = MSS_BYTES, start_jitter_s: float = 5.0) -> dict[str, Any]:
    """Dumbbell: one flow per entry of `configs`, equal RTT, drop-tail buffer = BDP."""
    scenario = dumbbell(forward=len(configs), bottleneck_rate=_bps(capacity_bps), bottleneck_delay_s=0.010,
                        access_rate="100Mbps", rtt_range_s=(rtt_s, rtt_s), buffer_s=rtt_s, mss_bytes=mss_bytes,
                        header_bytes=HEADER_BYTES, duration=f"{duration_s}s", warmup=f"{warmup_s}s",
                        start_jitter=f"{start_jitter_s}s", tcp={k: v for k, v in BASE_TCP.items() if k not in ("mss", "header")})
    for flow, config in zip(scenario["flows"], configs):
        c = CONFIGS[config]
        flow["variant"] = c.variant
        flow["name"] = f"{c.variant}{flow['name'][3:]}"
        if c.flow_tcp:
            flow["tcp"] = dict(c.flow_tcp)
    if loss_p > 0:
        scenario["links"][0]["loss"] = bernoulli(loss_p)
    return scenario


def per_variant_mbps(r: RunResult, variant: str, mss_bytes: int = MSS_BYTES) -> float:
    """Mean per-flow throughput of the flows of `variant`, Mb/s of whole packets."""
    rows = r.flows[r.flows["variant"] == variant]
    return float(rows["throughput_bps"].mean()) * (mss_bytes + HEADER_BYTES) / mss_bytes / 1e6 if len(rows) else math.nan


@register
class Friendliness(Experiment):
    id = "casetti.friendliness"
    title = "20 flows, 2 Mb/s, RTT 100 ms: all TCPW, all Reno, 10 + 10"
    paper = "casetti"
    ylabel = "mean per-flow throughput (Mb/s, 400-byte packets)"
    seeds_full = 10
    seeds_quick = 3
    capacity_bps = 2e6
    rtt_s = 0.100
    flows = 20
    duration_full_s = 1000.0
    duration_quick_s = 300.0
    warmup_s = 100.0
    same_tolerance = 0.10
    """"The same results for the two schemes": all-TCPW and all-Reno per-flow throughput within 10 %."""
    starved = 0.5
    """Reno counts as starved below half of the fair share."""
    paper_values = {"all TCPW": 0.0994, "all Reno": 0.0992, "mix: TCPW": 0.1078, "mix: Reno": 0.0913}
    mixes = {"all TCPW": ("westwood",) * 20, "all Reno": ("reno",) * 20,
             "mix": ("westwood",) * 10 + ("reno",) * 10,
             "mix, TCPW preset (guard on)": ("westwood[preset]",) * 10 + ("reno",) * 10}

    def duration(self, quick: bool) -> float:
        return self.duration_quick_s if quick else self.duration_full_s

    def runs(self, quick: bool, seeds: int | None) -> list[RunSpec]:
        specs = []
        for mix, configs in self.mixes.items():
            scenario = shared_scenario(configs, capacity_bps=self.capacity_bps, rtt_s=self.rtt_s, loss_p=0.0,
                                       duration_s=self.duration(quick), warmup_s=self.warmup_s)
            scenario["trace"] = {"cwnd": True, "interval": "1s"}  # TCPW's estimate, for the explanation
            specs += [RunSpec(key=(mix, seed), seed=seed, scenario=scenario) for seed in self.replications(quick, seeds)]
        return specs

    def analyze(self, results: Mapping[Any, RunResult], quick: bool) -> Outcome:
        def values(mix: str, variant: str) -> list[float]:
            return [per_variant_mbps(r, variant) for (m, _), r in sorted(results.items(), key=lambda kv: kv[0][1])
                    if m == mix]

        def bwe_ratio(mix: str) -> list[float]:
            """Per seed: mean estimate of the TCPW flows / their mean throughput."""
            out = []
            for (m, _), r in results.items():
                if m != mix or "cwnd" not in r.traces:
                    continue
                trace = r.trace("cwnd")
                trace = trace[trace["time_s"] >= self.warmup_s]
                ww = r.flows[r.flows["variant"] == "westwood"]
                bwe = trace[trace["flow_name"].isin(ww["name"])]["bwe_bps"].mean()
                out.append(float(bwe / ww["throughput_bps"].mean()))
            return out

        ratio_mix, ratio_all = bwe_ratio("mix"), bwe_ratio("all TCPW")

        got = {"all TCPW": values("all TCPW", "westwood"), "all Reno": values("all Reno", "reno"),
               "mix: TCPW": values("mix", "westwood"), "mix: Reno": values("mix", "reno")}
        preset = {"TCPW": values("mix, TCPW preset (guard on)", "westwood"),
                  "Reno": values("mix, TCPW preset (guard on)", "reno")}
        fair = self.capacity_bps / self.flows / 1e6
        stats = {k: mean_ci(v) for k, v in got.items()}
        series = [Series("tcpsim (mean, 95% CI)", list(got), [s[0] for s in stats.values()],
                         [s[1] for s in stats.values()], [s[2] for s in stats.values()]),
                  Series("paper", list(self.paper_values), list(self.paper_values.values()))]
        sensitivity = (f"with the TCPW preset as is (no repeated faster recovery in a window) the 10 + 10 mix gives "
                       f"TCPW {_fmt_ci(preset['TCPW'], 4)}, Reno {_fmt_ci(preset['Reno'], 4)} Mb/s")
        explanation = (
            "TCPW's share in the mix depends on how far its estimate exceeds its rate: with 20 window-limited flows "
            "on a drop-tail FIFO, each flow's ACKs come in bursts (a window's packets leave the queue back to back), and "
            "the Tustin filter's trapezoid (b_k + b_{k−1})/2 weights a burst sample by the following long gap, so BWE·RTTmin "
            "is far above the flow's share and a loss often leaves cwnd unchanged (cwnd < ssthresh). The paper's ns-2 "
            "set-up (access links, start times, duration) is not given and decides how bursty the ACKs are. "
            f"Measured here: TCPW's mean BWE is {mean_ci(ratio_mix)[0]:.1f}× its throughput in the mix "
            f"({mean_ci(ratio_all)[0]:.1f}× among 20 TCPW flows). Sensitivity: " + sensitivity)
        numbers = []
        for key, paper in self.paper_values.items():
            n = Number(f"{key} per-flow throughput (Mb/s)", paper, stats[key][0])
            if not n.within_tolerance and key.startswith("mix"):
                n.explanation = explanation
            numbers.append(n)
        same = abs(stats["all TCPW"][0] - stats["all Reno"][0]) / stats["all Reno"][0]
        claims = [
            Claim(f"all TCPW and all Reno get the same per-flow throughput (within {self.same_tolerance:.0%})",
                  same <= self.same_tolerance,
                  f"all TCPW {_fmt_ci(got['all TCPW'], 4)}, all Reno {_fmt_ci(got['all Reno'], 4)} Mb/s ({same:.1%} apart); "
                  f"fair share {fair:.3f}"),
            Claim("in the 10 + 10 mix TCPW gets more than the fair share and Reno less, without starving Reno "
                  f"(Reno ≥ {self.starved:.0%} of the fair share)",
                  stats["mix: TCPW"][0] > fair > stats["mix: Reno"][0] >= self.starved * fair,
                  f"TCPW {_fmt_ci(got['mix: TCPW'], 4)}, Reno {_fmt_ci(got['mix: Reno'], 4)} Mb/s, fair share {fair:.3f} "
                  f"(TCPW {stats['mix: TCPW'][0] / fair - 1:+.0%}, Reno {stats['mix: Reno'][0] / fair - 1:+.0%}; paper +8 %, −8 %)"),
        ]
        return Outcome(series=series, claims=claims, numbers=numbers, notes=[
            f"{len(got['all Reno'])} seeds; {self.duration(quick):g} s runs, first {self.warmup_s:g} s excluded; "
            "dumbbell with 100 Mb/s access links, 2 Mb/s 10 ms bottleneck, every RTT 100 ms; drop-tail buffer = BDP "
            f"(25 000 bytes = 62 packets); starts uniform in [0, 5] s",
            sensitivity,
        ])

    def plot(self, outcome: Outcome, fig: Figure) -> None:
        ax = fig.add_subplot()
        ours, paper = outcome.series
        x = np.arange(len(ours.x))
        y = np.asarray(ours.y)
        ax.bar(x - 0.2, y, width=0.4, label=ours.label, color="tab:blue",
               yerr=[y - np.asarray(ours.y_ci_low), np.asarray(ours.y_ci_high) - y], capsize=4)
        ax.bar(x + 0.2, paper.y, width=0.4, label=paper.label, color="tab:grey")
        ax.axhline(self.capacity_bps / self.flows / 1e6, color="black", linestyle="--", linewidth=0.8,
                   label="fair share (2 Mb/s / 20)")
        ax.set_xticks(x, ours.x)
        ax.set_ylabel(self.ylabel)
        ax.set_title(f"{self.id}: {self.title}", fontsize="medium")
        ax.legend(fontsize="small")
        ax.grid(alpha=0.3, axis="y")


@register
class Fig7(Experiment):
    id = "casetti.fig7"
    title = "5 flows, RTT 100 ms: k Reno + (5 − k) TCPW, clean and 1 % loss"
    paper = "casetti"
    xlabel = "number of Reno connections k (of 5)"
    ylabel = "mean per-flow throughput (Mb/s, 400-byte packets)"
    seeds_full = 10
    seeds_quick = 3
    capacity_bps = 2e6
    """The testbed's bottleneck is not given: 2 Mb/s, the friendliness simulations' (same Sec. 4.3)."""
    rtt_s = 0.100
    losses = (0.0, 0.01)
    duration_full_s = 600.0
    duration_quick_s = 200.0
    warmup_s = 50.0
    starved = 0.5
    """Reno counts as starved below half of its per-flow throughput among 5 Reno flows."""
    paper_gain = 10.0
    sensitivity_capacities_bps = (2e6, 5e6)
    """1500-byte packets (the Linux testbed's Ethernet) at 1 % loss, k = 0 and 5."""

    def duration(self, quick: bool) -> float:
        return self.duration_quick_s if quick else self.duration_full_s

    def runs(self, quick: bool, seeds: int | None) -> list[RunSpec]:
        specs = []
        for p in self.losses:
            for k in range(6):
                configs = ("reno",) * k + ("westwood",) * (5 - k)
                specs += [RunSpec(key=("main", p, k, seed), seed=seed, scenario=shared_scenario(
                              configs, capacity_bps=self.capacity_bps, rtt_s=self.rtt_s, loss_p=p,
                              duration_s=self.duration(quick), warmup_s=self.warmup_s))
                          for seed in self.replications(quick, seeds)]
        for p in self.losses:  # the TCPW preset as is (recover guard on) in the mixes
            for k in range(1, 5):
                configs = ("reno",) * k + ("westwood[preset]",) * (5 - k)
                specs += [RunSpec(key=("preset", p, k, seed), seed=seed, scenario=shared_scenario(
                              configs, capacity_bps=self.capacity_bps, rtt_s=self.rtt_s, loss_p=p,
                              duration_s=self.duration(quick), warmup_s=self.warmup_s))
                          for seed in self.replications(quick, seeds)]
        for capacity in self.sensitivity_capacities_bps:
            for k in (0, 5):
                configs = ("reno",) * k + ("westwood",) * (5 - k)
                specs += [RunSpec(key=("1500B", capacity, k, seed), seed=seed, scenario=shared_scenario(
                              configs, capacity_bps=capacity, rtt_s=self.rtt_s, loss_p=0.01, mss_bytes=1460,
                              duration_s=self.duration(quick), warmup_s=self.warmup_s))
                          for seed in self.replications(quick, seeds)]
        return specs

    def analyze(self, results: Mapping[Any, RunResult], quick: bool) -> Outcome:
        def values(kind: str, p: float, k: int, variant: str, mss: int = MSS_BYTES) -> list[float]:
            return [per_variant_mbps(r, variant, mss) for (kk, q, j, _), r in
                    sorted(results.items(), key=lambda kv: kv[0][3]) if kk == kind and q == p and j == k]

        series, claims = [], []
        starve_details, starve_ok = [], True
        for p in self.losses:
            tag = "clean" if p == 0 else f"{p:.0%} loss"
            for variant, ks in (("westwood", range(0, 5)), ("reno", range(1, 6))):
                stats = [mean_ci(values("main", p, k, variant)) for k in ks]
                series.append(Series(f"{CONFIGS[variant].label}, {tag}", list(ks), [s[0] for s in stats],
                                     [s[1] for s in stats], [s[2] for s in stats]))
            alone = mean_ci(values("main", p, 5, "reno"))[0]
            for k in range(1, 5):
                reno = mean_ci(values("main", p, k, "reno"))[0]
                starve_ok &= reno >= self.starved * alone
                starve_details.append(f"{tag}, k={k}: {reno / alone:.0%}")
        preset_details = []
        for p in self.losses:
            alone = mean_ci(values("main", p, 5, "reno"))[0]
            tag = "clean" if p == 0 else f"{p:.0%} loss"
            preset_details += [f"{tag}, k={k}: {mean_ci(values('preset', p, k, 'reno'))[0] / alone:.0%}" for k in range(1, 5)]
        claims.append(Claim(f"Reno is never starved: with any number of TCPW flows a Reno flow keeps ≥ {self.starved:.0%} "
                            "of its throughput among 5 Reno flows", starve_ok,
                            "Reno per-flow throughput relative to k = 5: " + ", ".join(starve_details)
                            + ". Sensitivity, TCPW preset as is (recover guard on): " + ", ".join(preset_details)))
        w5, r5 = values("main", 0.01, 0, "westwood"), values("main", 0.01, 5, "reno")
        gains = _gains(w5, r5)
        gain = mean_ci(gains)[0]
        claims.append(Claim("at 1 % loss 5 TCPW flows get more than 5 Reno flows", gain > 0,
                            f"5 TCPW {_fmt_ci(w5)} vs 5 Reno {_fmt_ci(r5)} Mb/s per flow: {_pct(gains)}"))
        sens = []
        for capacity in self.sensitivity_capacities_bps:
            w = values("1500B", capacity, 0, "westwood", 1460)
            r = values("1500B", capacity, 5, "reno", 1460)
            sens.append(f"{capacity / 1e6:g} Mb/s: 5 TCPW {_fmt_ci(w)} vs 5 Reno {_fmt_ci(r)} Mb/s, {_pct(_gains(w, r))}")
        sensitivity = "1500-byte packets (testbed Ethernet), 1 % loss: " + "; ".join(sens)
        number = Number("at 1 % loss, 5 TCPW vs 5 Reno throughput gain (%)", self.paper_gain, gain)
        if not number.within_tolerance:
            number.explanation = (
                "the paper's ~10 % is a testbed measurement whose bottleneck capacity and packet size are not given; the "
                "gain is small only when 5 Reno flows nearly fill the link despite the loss (TCPW's edge is the capacity "
                "Reno leaves unused). With 400-byte packets on 2 Mb/s Reno fills "
                f"{5 * mean_ci(r5)[0] / (self.capacity_bps / 1e6):.0%} of the link. " + sensitivity)
        return Outcome(series=series, claims=claims, numbers=[number], notes=[
            f"{len(w5)} seeds; {self.duration(quick):g} s runs, first {self.warmup_s:g} s excluded; dumbbell, "
            f"{self.capacity_bps / 1e6:g} Mb/s bottleneck (assumed: the testbed's is not given), RTT 100 ms, buffer = BDP; "
            "1 % Bernoulli loss in both directions of the bottleneck; starts uniform in [0, 5] s",
            sensitivity,
        ])

    def plot(self, outcome: Outcome, fig: Figure) -> None:
        ax = fig.add_subplot()
        for s in outcome.series:
            color = "tab:blue" if s.label.startswith("TCPW") else "tab:red"
            style = "-" if "clean" in s.label else "--"
            y = np.asarray(s.y)
            ax.errorbar(s.x, y, yerr=[y - np.asarray(s.y_ci_low), np.asarray(s.y_ci_high) - y], color=color,
                        linestyle=style, marker="o", markersize=3, capsize=3, label=s.label)
        ax.set_xlabel(self.xlabel)
        ax.set_ylabel(self.ylabel)
        ax.set_ylim(bottom=0)
        ax.set_title(f"{self.id}: {self.title}", fontsize="medium")
        ax.legend(fontsize="small")
        ax.grid(alpha=0.3)


# --- Sec. 5.1: independent errors ------------------------------------------------------------


def _explain_gain(experiment: Sweep, t: Mapping[tuple[float, str], list[float]], context: str) -> Callable[[str, float], str]:
    """An explanation built from the measurements: the throughputs at the headline point, the
    range of gains the TCPW flavours of the sensitivity runs give (and whether the paper's value
    lies inside it), and the bound the link puts on any gain when TCPW nearly fills it."""

    def explain(other: str, paper: float) -> str:
        x = experiment.headline_x
        n = len(t[(x, "westwood[preset]")])
        ref = t[(x, other)][:n]
        flavours = {CONFIGS[c].label: mean_ci(_gains(t[(x, c)][:n], ref))[0]
                    for c in ("westwood", "westwood[preset]", "westwood[newreno]", "westwood[fixed]")}
        flavours["TCPW and " + CONFIGS[other].label + " with a 1 s RTO floor"] = mean_ci(
            _gains(t[(x, "westwood[rto1s]")], t[(x, f"{other}[rto1s]")]))[0]
        lo, hi = min(flavours.values()), max(flavours.values())
        text = (f"{context} Measured here: {experiment.throughput_detail(t, x)}. Over the {n} seeds of the "
                f"sensitivity runs the gain over {CONFIGS[other].label} spans {lo:+.0f}% to {hi:+.0f}% with the TCP "
                "flavour (" + "; ".join(f"{k}: {v:+.0f}%" for k, v in flavours.items()) + f"): the paper's {paper:+g}% "
                + ("lies inside that range." if lo <= paper <= hi else "lies outside it."))
        capacity = experiment.capacity_bps(x) / 1e6
        w, r = mean_ci(t[(x, "westwood")])[0], mean_ci(t[(x, other)])[0]
        if w > 0.85 * capacity:
            text += (f" TCPW already carries {w / capacity:.0%} of the {capacity:g} Mb/s link, so against this "
                     f"{CONFIGS[other].label} no variant can gain more than {100 * (capacity / r - 1):+.0f}%.")
        return text

    return explain


_MARKOV_CONTEXT = (
    "With sojourns of seconds the long, almost loss-free Good periods (mean 8 s) dominate the average: every variant "
    "regrows its window in them and reaches the link rate (TCPW from BWE·RTTmin, Reno from the small ssthresh its "
    "Bad-state timeouts left), so the ratio stays modest and nobody is 'poor' at 30 %. The paper's large gains and its "
    "'all poor above 5 %' appear when the channel switches every few packets, as it does if the durations 8 and 4 "
    "were counted in packets.")

_GAIN_CONTEXT = (
    "The gain is a ratio of two throughputs that details the paper leaves to ns-2 set (TCPW's and Reno's reaction "
    "to a second loss in a window, RTO granularity); the paper reports no absolute throughputs to pin them.")


@register
class Fig9(Sweep):
    id = "casetti.fig9"
    title = "Fig. 8 topology: throughput vs Bernoulli error rate of the wireless link"
    xlabel = "packet error probability (%), both directions"
    grid_full = (0.0, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.03, 0.05)
    grid_quick = (0.0, 0.001, 0.005, 0.01, 0.02, 0.05)
    headline_x = 0.01
    x_plot_scale = 100.0
    x_unit = "%"
    paper_gain = 394.0
    symlog_linthresh = 0.1

    def scenario(self, config: str, x: float, quick: bool) -> dict[str, Any]:
        return wireless_scenario(config, loss=bernoulli(x), duration_s=self.duration(quick), warmup_s=self.warmup_s)

    def analyze(self, results: Mapping[Any, RunResult], quick: bool) -> Outcome:
        t = self.table(results)
        out = self.base_outcome(t, quick)
        grid = [x for x in self.grid(quick) if x > 0]
        for other in ("reno", "sack"):
            ok, detail = self.peaks_at(t, grid, other, self.headline_x)
            out.claims.append(Claim(f"TCPW's gain over {CONFIGS[other].label} is largest at 1 % errors", ok, detail))
        above = all(mean_ci(t[(x, "westwood")])[0] > max(mean_ci(t[(x, o)])[0] for o in ("reno", "sack")) for x in grid)
        out.claims.append(Claim("TCPW above Reno and SACK at every error rate > 0", above,
                                "; ".join(f"{x:.2%}: {self.throughput_detail(t, x)}" for x in grid)))
        explain = _explain_gain(self, t, _GAIN_CONTEXT)
        out.numbers += [self.gain_number(t, "reno", 394.0, explain), self.gain_number(t, "sack", 394.0, explain)]
        return out


@register
class Fig10(Sweep):
    id = "casetti.fig10"
    title = "Fig. 8 topology, 0.5 % errors: throughput vs wired one-way delay"
    xlabel = "wired link one-way propagation delay (ms)"
    grid_full = (0.0, 0.001, 0.002, 0.005, 0.010, 0.020, 0.050, 0.075, 0.100, 0.150, 0.200, 0.250)
    grid_quick = (0.0, 0.002, 0.005, 0.020, 0.050, 0.100, 0.150, 0.200, 0.250)
    headline_x = 0.100
    x_plot_scale = 1e3
    x_unit = " ms"
    paper_gain = 567.0
    symlog_linthresh = 1.0
    error_p = 0.005
    small_delay_s = 0.005
    equal_within = 0.15
    """"All equal below ~5 ms": every variant within 15 % of the others."""
    shrink = 0.10
    """"The gain shrinks beyond 100 ms": at the largest delay at least 10 % below its value at 100 ms."""
    rwnd_pkts = 128
    """Sensitivity for the shrink beyond 100 ms: a receiver window of this many 360-byte segments
    (ns-2's `window_`; the paper does not give it)."""
    big_buffer_pkts = 20
    """Sensitivity: below 5 ms the BDP is under one packet, so the buffer is the floor; rerun with this one."""

    def scenario(self, config: str, x: float, quick: bool, floor: int = MIN_BUFFER_PKTS) -> dict[str, Any]:
        return wireless_scenario(config, loss=bernoulli(self.error_p), wired_delay_s=x, min_buffer_pkts=floor,
                                 duration_s=self.duration(quick), warmup_s=self.warmup_s)

    def tick_grid(self, quick: bool) -> list[float]:
        """x values of the 100 ms RTT-tick sensitivity runs: the short delays, 100 ms and the longest."""
        grid = self.grid(quick)
        return [x for x in grid if x < self.small_delay_s] + [self.headline_x, grid[-1]]

    def tick_scenario(self, config: str, x: float, quick: bool) -> dict[str, Any]:
        scenario = self.scenario(config, x, quick)
        scenario["tcp"] = {**scenario["tcp"], **NS2_RTT_TICK}
        return scenario

    def runs(self, quick: bool, seeds: int | None) -> list[RunSpec]:
        small = [x for x in self.grid(quick) if x < self.small_delay_s]
        return super().runs(quick, seeds) + [
            RunSpec(key=(x, f"{config}|buffer{self.big_buffer_pkts}", seed), seed=seed,
                    scenario=self.scenario(config, x, quick, self.big_buffer_pkts))
            for x in small for config in MAIN for seed in self.sensitivity_seeds(quick, seeds)] + [
            RunSpec(key=(x, f"{config}|tick", seed), seed=seed, scenario=self.tick_scenario(config, x, quick))
            for x in self.tick_grid(quick) for config in MAIN for seed in self.sensitivity_seeds(quick, seeds)] + [
            RunSpec(key=(x, f"{config}|rwnd", seed), seed=seed, scenario=self.rwnd_scenario(config, x, quick))
            for x in self.rwnd_grid(quick) for config in MAIN for seed in self.sensitivity_seeds(quick, seeds)]

    def rwnd_grid(self, quick: bool) -> list[float]:
        """x values of the receiver-window sensitivity runs: 50 ms and from 100 ms on."""
        return [x for x in self.grid(quick) if x == 0.050 or x >= self.headline_x]

    def rwnd_scenario(self, config: str, x: float, quick: bool) -> dict[str, Any]:
        scenario = self.scenario(config, x, quick)
        scenario["tcp"] = {**scenario["tcp"], "rwnd": f"{self.rwnd_pkts * MSS_BYTES}B"}
        return scenario

    def tick_detail(self, t: Mapping[tuple[float, str], list[float]], xs: Sequence[float]) -> str:
        return "; ".join(f"{x * 1e3:g} ms: " + ", ".join(f"{CONFIGS[c].label} {_fmt_ci(t[(x, c + '|tick')])}" for c in MAIN)
                         + f" Mb/s, gain over Reno {_pct(_gains(t[(x, 'westwood|tick')], t[(x, 'reno|tick')]))}"
                         for x in xs)

    def analyze(self, results: Mapping[Any, RunResult], quick: bool) -> Outcome:
        t = self.table(results)
        out = self.base_outcome(t, quick)
        grid = list(self.grid(quick))
        for other in ("reno", "sack"):
            ok, detail = self.peaks_at(t, grid, other, self.headline_x)
            out.claims.append(Claim(f"TCPW's gain over {CONFIGS[other].label} is largest at about 100 ms", ok, detail))
        small = [x for x in grid if x < self.small_delay_s]
        spreads = []
        for x in small:
            means = [mean_ci(t[(x, c)])[0] for c in MAIN]
            spreads.append(max(means) / min(means) - 1)
        big = f"|buffer{self.big_buffer_pkts}"
        sens = "; ".join(f"{x * 1e3:g} ms: " + ", ".join(f"{CONFIGS[c].label} {_fmt_ci(t[(x, c + big)])}" for c in MAIN)
                         for x in small)
        out.claims.append(Claim(f"all protocols equally effective below ~5 ms (within {self.equal_within:.0%} of each other)",
                                all(s <= self.equal_within for s in spreads),
                                "; ".join(f"{x * 1e3:g} ms: {self.throughput_detail(t, x)} (spread {s:.0%})"
                                          for x, s in zip(small, spreads))
                                + f". Below 5 ms the BDP is under {MIN_BUFFER_PKTS} packets, so the buffer is the "
                                  f"{MIN_BUFFER_PKTS}-packet floor; TCPW's BWE·RTTmin is then the 2-segment minimum, too "
                                  "small for three duplicate ACKs, so its losses end in timeouts. Sensitivity with a "
                                  f"{self.big_buffer_pkts}-packet buffer: {sens} Mb/s. Sensitivity with RTT samples in "
                                  "100 ms ticks as ns-2 took them (tcp_tick_ 0.1 s, at least one tick; ns-2's TCPW sets "
                                  "RTTmin from the tick count, so it is never below 100 ms): "
                                  + self.tick_detail(t, small)
                                  + ". A 100 ms RTTmin does not rescue TCPW on short paths, it sinks it: BWE·RTTmin is "
                                    "then far above the few packets the path holds, so a loss leaves cwnd where it was, "
                                    "the 5-packet buffer overflows again and again, and the multiple losses per window end "
                                    "in timeouts"))
        beyond = [x for x in grid if x >= self.headline_x]
        g = {x: mean_ci(_gains(t[(x, "westwood")], t[(x, "reno")]))[0] for x in beyond}
        out.claims.append(Claim(f"the gain shrinks beyond 100 ms (at {beyond[-1] * 1e3:g} ms at least {self.shrink:.0%} "
                                "below its value at 100 ms)", g[beyond[-1]] < (1 - self.shrink) * g[self.headline_x],
                                "gain over Reno: " + ", ".join(f"{x * 1e3:g} ms {_pct(_gains(t[(x, 'westwood')], t[(x, 'reno')]))}"
                                                               for x in beyond)
                                + ". With RTT samples in 100 ms ticks (sensitivity; the long paths' RTTs are whole "
                                  "ticks already, so little changes): "
                                + self.tick_detail(t, [self.headline_x, beyond[-1]])
                                + f". With a receiver window of {self.rwnd_pkts} segments (sensitivity; ns-2's window_, "
                                  "not given in the paper) TCPW becomes window-limited on the longest paths, as Reno is "
                                  "not, and the gain over Reno does shrink: "
                                + ", ".join(f"{x * 1e3:g} ms {_pct(_gains(t[(x, 'westwood|rwnd')], t[(x, 'reno|rwnd')]))}"
                                            for x in self.rwnd_grid(quick))))
        explain = _explain_gain(self, t, _GAIN_CONTEXT)
        out.numbers += [self.gain_number(t, "reno", 567.0, explain), self.gain_number(t, "sack", 567.0, explain)]
        return out


@register
class Fig11(Sweep):
    id = "casetti.fig11"
    title = "Fig. 8 topology, 0.5 % errors, RTT 45 ms: throughput vs wireless capacity"
    xlabel = "wireless link capacity (Mb/s)"
    grid_full = (1e6, 2e6, 3e6, 4e6, 5e6, 6e6, 7e6, 8e6)
    grid_quick = (1e6, 2e6, 4e6, 6e6, 8e6)
    headline_x = 8e6
    x_plot_scale = 1e-6
    x_unit = " Mb/s"
    paper_gain = 550.0
    error_p = 0.005
    rtt_s = 0.045
    """The text says "the round trip time is 45 ms" (and so does the catalog): wired one-way delay
    22.49 ms. (The Fig. 8 default is 45 ms one way, i.e. RTT 90 ms: see the notes.)"""

    def capacity_bps(self, x: float) -> float:
        return x

    def scenario(self, config: str, x: float, quick: bool) -> dict[str, Any]:
        return wireless_scenario(config, loss=bernoulli(self.error_p), wireless_rate_bps=x,
                                 wired_delay_s=self.rtt_s / 2 - WIRELESS_DELAY_S,
                                 duration_s=self.duration(quick), warmup_s=self.warmup_s)

    def analyze(self, results: Mapping[Any, RunResult], quick: bool) -> Outcome:
        t = self.table(results)
        out = self.base_outcome(t, quick)
        grid = list(self.grid(quick))
        for other in ("reno", "sack"):
            g = [mean_ci(v)[0] for v in self.gain_series(t, grid, other)]
            rho = float(np.corrcoef(np.argsort(np.argsort(grid)), np.argsort(np.argsort(g)))[0, 1])
            out.claims.append(Claim(f"TCPW's gain over {CONFIGS[other].label} increases with the wireless capacity",
                                    g[-1] > g[0] and rho > 0.5,
                                    f"Spearman ρ = {rho:.2f}; " + self.peak(t, grid, other)[1]))
        explain = _explain_gain(self, t, _GAIN_CONTEXT)
        out.numbers += [self.gain_number(t, "reno", 550.0, explain), self.gain_number(t, "sack", 550.0, explain)]
        return out


@register
class Fig12(Experiment):
    id = "casetti.fig12"
    title = "cwnd and ssthresh of TCPW and Reno over the lossy link (0.5 % errors)"
    paper = "casetti"
    xlabel = "time (s)"
    ylabel = "segments"
    seeds_full = 10
    seeds_quick = 3
    error_p = 0.005
    duration_s = 100.0
    skip_s = 10.0
    window_s = 10.0
    consistently = 0.8
    """"Consistently higher": TCPW's mean above Reno's in ≥ 80 % of the 10 s windows."""
    variants = ("westwood", "reno")

    def runs(self, quick: bool, seeds: int | None) -> list[RunSpec]:
        trace = {"cwnd": True, "interval": "100ms"}
        return [RunSpec(key=(config, seed), seed=seed, scenario=wireless_scenario(
                    config, loss=bernoulli(self.error_p), duration_s=self.duration_s, warmup_s=0.0, trace=trace))
                for config in self.variants for seed in self.replications(quick, seeds)]

    def analyze(self, results: Mapping[Any, RunResult], quick: bool) -> Outcome:
        edges = np.arange(self.skip_s, self.duration_s + 1e-9, self.window_s)
        means: dict[tuple[str, str], list[float]] = {}
        windows: dict[tuple[str, str], list[np.ndarray]] = {}
        series = []
        for (config, seed), r in sorted(results.items(), key=lambda kv: kv[0][1]):
            trace = r.trace("cwnd")
            trace = trace[trace["time_s"] >= self.skip_s]
            for col in ("cwnd_bytes", "ssthresh_bytes"):
                values = trace[col].to_numpy(dtype=float) / MSS_BYTES
                means.setdefault((config, col), []).append(float(values.mean()))
                idx = np.digitize(trace["time_s"].to_numpy(), edges) - 1
                windows.setdefault((config, col), []).append(
                    np.array([values[idx == i].mean() for i in range(len(edges) - 1)]))
            if seed == min(s for _, s in results):
                full = r.trace("cwnd")
                ss = (full["ssthresh_bytes"] / MSS_BYTES).to_numpy(dtype=float, copy=True)
                ss[ss > 1e5] = np.nan  # "infinite" before the first loss
                label = CONFIGS[config].label
                series += [Series(f"{label} cwnd (seed {seed})", full["time_s"].tolist(),
                                  (full["cwnd_bytes"] / MSS_BYTES).tolist()),
                           Series(f"{label} ssthresh (seed {seed})", full["time_s"].tolist(), ss.tolist())]
        claims = []
        for col, name in (("cwnd_bytes", "cwnd"), ("ssthresh_bytes", "ssthresh")):
            w, r = windows[("westwood", col)], windows[("reno", col)]
            frac = float(np.mean([np.mean(a > b) for a, b in zip(w, r)]))
            claims.append(Claim(f"TCPW's {name} stays consistently higher than Reno's", frac >= self.consistently and
                                mean_ci(means[("westwood", col)])[0] > mean_ci(means[("reno", col)])[0],
                                f"time-average {name} after {self.skip_s:g} s: TCPW {_fmt_ci(means[('westwood', col)], 1)}, "
                                f"Reno {_fmt_ci(means[('reno', col)], 1)} segments; TCPW above Reno in {frac:.0%} of the "
                                f"{self.window_s:g} s windows (seeds paired)"))
        return Outcome(series=series, claims=claims, notes=[
            f"{len(means[('reno', 'cwnd_bytes')])} seeds; Fig. 8 topology (2 Mb/s wireless, RTT 90 ms, buffer "
            f"{buffer_pkts(2e6, 0.09002)} packets), {self.error_p:.1%} Bernoulli errors both ways (the paper does not give "
            f"the rate of Figs. 12–13; 0.5 % is that of Figs. 10–11); {self.duration_s:g} s sampled every 100 ms; "
            f"statistics after {self.skip_s:g} s; the plot shows the first seed",
            "TCPW's cwnd spikes are Reno-style fast-recovery inflation (cwnd + 3, +1 per further duplicate ACK, "
            "deflated to min(cwnd, BWE·RTTmin) at the end); ns-2's TCPW agent did not inflate",
        ])

    def plot(self, outcome: Outcome, fig: Figure) -> None:
        axes = fig.subplots(2, 1, sharex=True, sharey=True)
        for ax, label in zip(axes, ("TCPW", "Reno")):
            for s in outcome.series:
                if s.label.startswith(label + " "):
                    ax.plot(s.x, s.y, linewidth=0.9, label=s.label)
            ax.set_ylabel(self.ylabel)
            ax.set_title(f"{label} over lossy link: cwnd and ssthresh", fontsize="small")
            ax.legend(fontsize="small", loc="upper right")
            ax.grid(alpha=0.3)
        axes[-1].set_xlabel(self.xlabel)
        fig.suptitle(f"{self.id}: {self.title}", fontsize="medium")


class _BitErrors(Sweep):
    """One point: the Fig. 8 topology with the wired delay set for a given RTT and independent bit
    errors on the wireless link (both directions); TCPW vs Reno (and SACK)."""

    one_per: str
    rtt_s: float
    paper_value: float
    grid_full = (0.0,)
    grid_quick = (0.0,)
    headline_x = 0.0
    compare = ("reno", "sack")

    def scenario(self, config: str, x: float, quick: bool) -> dict[str, Any]:
        loss = [{"kind": "bit_error", "one_per": self.one_per, "direction": "both"}]
        return wireless_scenario(config, loss=loss, wired_delay_s=self.rtt_s / 2 - WIRELESS_DELAY_S,
                                 duration_s=self.duration(quick), warmup_s=self.warmup_s)

    def per_packet_loss(self) -> str:
        ber = 1 / (8 * {"64KiB": 65536, "100KiB": 102400}[self.one_per])
        data = 1 - (1 - ber) ** (8 * PACKET_BYTES)
        ack = 1 - (1 - ber) ** (8 * HEADER_BYTES)
        return f"BER {ber:.3g}: a 400-byte data packet is lost with p = {data:.4f}, a 40-byte ACK with {ack:.5f}"

    def base(self, results: Mapping[Any, RunResult], quick: bool) -> tuple[dict[tuple[float, str], list[float]], Outcome, list[float]]:
        t = self.table(results)
        out = self.base_outcome(t, quick)
        gains = _gains(t[(0.0, "westwood")], t[(0.0, "reno")])
        out.notes.append(f"Fig. 8 topology (10 Mb/s wired, 2 Mb/s wireless) with the wired one-way delay set to "
                         f"{(self.rtt_s / 2 - WIRELESS_DELAY_S) * 1e3:.2f} ms for an RTT of {self.rtt_s * 1e3:g} ms "
                         f"(the paper does not describe its topology for this comparison); one bit error per "
                         f"{self.one_per} in both directions: {self.per_packet_loss()}")
        explain = _explain_gain(self, t, _GAIN_CONTEXT + " The topology of this comparison is not given either "
                                "(here: Fig. 8 with the wired delay changed).")
        out.numbers.append(self.gain_number(t, "reno", self.paper_value, explain,
                                            f"TCPW gain over Reno, 1 bit error per {self.one_per[:-3]} KB, "
                                            f"RTT {self.rtt_s * 1e3:g} ms (%)"))
        return t, out, gains

    def plot(self, outcome: Outcome, fig: Figure) -> None:
        left, right = fig.subplots(1, 2, width_ratios=(3, 2))
        rates = [s for s in outcome.series if not s.label.startswith("gain")]
        gains = [s for s in outcome.series if s.label.startswith("gain")]
        for ax, group, colors in ((left, rates, ["tab:blue", "tab:red", "tab:orange"]),
                                  (right, gains, ["tab:red", "tab:orange"])):
            y = np.array([s.y[0] for s in group])
            lo = np.array([s.y_ci_low[0] for s in group])
            hi = np.array([s.y_ci_high[0] for s in group])
            labels = [s.label.replace(" (%)", "") for s in group]
            ax.bar(labels, y, yerr=[y - lo, hi - y], capsize=4, color=colors)
            ax.grid(alpha=0.3, axis="y")
        left.set_ylabel(self.ylabel)
        right.set_ylabel("TCPW gain (%)")
        right.axhline(self.paper_value, color="black", linestyle="--", label=f"paper: {self.paper_value:+g}% over Reno")
        for value, name in self.published:
            right.axhline(value, color="grey", linestyle=":", label=f"{name} (published): {value:+g}%")
        right.legend(fontsize="x-small")
        fig.suptitle(f"{self.id}: {self.title}", fontsize="medium")

    published: tuple[tuple[float, str], ...] = ()


@register
class Snoop(_BitErrors):
    id = "casetti.snoop"
    title = "1 bit error per 64 KB, RTT 135 ms: TCPW vs Reno and SACK"
    one_per = "64KiB"
    rtt_s = 0.135
    paper_value = 382.0
    published = ((400.0, "Snoop"), (200.0, "ELN"))

    def analyze(self, results: Mapping[Any, RunResult], quick: bool) -> Outcome:
        t, out, gains = self.base(results, quick)
        g = mean_ci(gains)[0]
        out.claims.append(Claim("TCPW's gain over Reno is closer to Snoop's published ≈ +400 % than to ELN's ≈ +200 %",
                                abs(g - 400) < abs(g - 200), f"TCPW over Reno {_pct(gains)}; "
                                f"{self.throughput_detail(t, 0.0)}"))
        out.notes.append("Snoop and ELN are not simulated: their gains are the published ones the paper quotes "
                         "(Balakrishnan et al.)")
        return out


@register
class BaTcp(_BitErrors):
    id = "casetti.batcp"
    title = "1 bit error per 100 KB, RTT 40 ms: TCPW vs Reno and SACK"
    one_per = "100KiB"
    rtt_s = 0.040
    paper_value = 161.0
    published = ((202.0, "BA-TCP"),)

    def analyze(self, results: Mapping[Any, RunResult], quick: bool) -> Outcome:
        t, out, gains = self.base(results, quick)
        g = mean_ci(gains)[0]
        out.claims.append(Claim("TCPW improves on Reno substantially without router support, though less than BA-TCP's "
                                "published +202 %", 0 < g < 202, f"TCPW over Reno {_pct(gains)}; "
                                f"{self.throughput_detail(t, 0.0)}"))
        out.notes.append("BA-TCP is not simulated (it needs routers that measure fair shares): +202 % is the gain the "
                         "paper quotes")
        return out


# --- Sec. 5.2–5.3: correlated errors -------------------------------------------------------


def gilbert_elliott(good_mean_s: float, bad_mean_s: float, good_loss: float, bad_loss: float,
                    direction: str) -> dict[str, Any]:
    return {"kind": "gilbert_elliott", "good_mean": _ms(good_mean_s), "bad_mean": _ms(bad_mean_s),
            "good_loss": good_loss, "bad_loss": bad_loss, "initial": "stationary", "direction": direction}


class _Markov(Sweep):
    """Two-state Markov channel (exponential sojourns) on the Fig. 8 wireless link."""

    good_mean_s: float
    good_loss = 1e-5
    direction = "ab"
    """One channel-state process: the model has one state for the link. Only the data direction
    (base station → mobile) is modulated; "both" would give the ACK direction an independent
    process (the engine has no correlated pair) and is a sensitivity run."""
    duration_full_s = 2000.0
    duration_quick_s = 1000.0
    warmup_s = 20.0
    seeds_quick = 4

    def channel(self, x: float) -> tuple[float, float]:
        """(bad mean s, bad loss) at x."""
        raise NotImplementedError

    def rate(self, x: float) -> float:
        return 2e6

    def loss(self, x: float, direction: str | None = None) -> list[dict[str, Any]]:
        bad_mean, bad_loss = self.channel(x)
        return [gilbert_elliott(self.good_mean_s, bad_mean, self.good_loss, bad_loss, direction or self.direction)]

    def scenario(self, config: str, x: float, quick: bool) -> dict[str, Any]:
        return self._scenario(config, x, quick, self.direction)

    def _scenario(self, config: str, x: float, quick: bool, direction: str) -> dict[str, Any]:
        return wireless_scenario(config, loss=self.loss(x, direction), wireless_rate_bps=self.rate(x),
                                 duration_s=self.duration(quick), warmup_s=self.warmup_s)

    packet_grid_full: tuple[float, ...] = ()
    packet_grid_quick: tuple[float, ...] = ()
    """x values of the sensitivity runs with sojourns counted in packets (none: not run)."""

    def packet_grid(self, quick: bool) -> tuple[float, ...]:
        return self.packet_grid_quick if quick else self.packet_grid_full

    def packet_scenario(self, config: str, x: float, quick: bool) -> dict[str, Any]:
        """Sojourns of `good_mean_s` and `bad_mean_s` *packets* (ns-2's `ErrorModel/MultiState`
        counts state durations in packets unless `sttype_` is set to time): emulated with the
        time a 400-byte packet takes on the wireless link."""
        t_pkt = PACKET_BYTES * 8 / self.rate(x)
        bad_mean, bad_loss = self.channel(x)
        loss = [gilbert_elliott(self.good_mean_s * t_pkt, bad_mean * t_pkt, self.good_loss, bad_loss, self.direction)]
        return wireless_scenario(config, loss=loss, wireless_rate_bps=self.rate(x), duration_s=self.duration(quick),
                                 warmup_s=self.warmup_s)

    def runs(self, quick: bool, seeds: int | None) -> list[RunSpec]:
        specs = super().runs(quick, seeds)
        specs += [RunSpec(key=(self.headline_x, f"{config}|both", seed), seed=seed,
                          scenario=self._scenario(config, self.headline_x, quick, "both"))
                  for config in MAIN for seed in self.sensitivity_seeds(quick, seeds)]
        specs += [RunSpec(key=(x, f"{config}|pkt", seed), seed=seed, scenario=self.packet_scenario(config, x, quick))
                  for x in self.packet_grid(quick) for config in MAIN for seed in self.sensitivity_seeds(quick, seeds)]
        return specs

    PACKET_TAG = "sojourns in packets (sensitivity)"

    def packet_series(self, t: Mapping[tuple[float, str], list[float]], quick: bool) -> list[Series]:
        grid = list(self.packet_grid(quick))
        xs = [x * self.x_plot_scale for x in grid]
        out = []
        for config in MAIN:
            stats = [mean_ci(t[(x, f"{config}|pkt")]) for x in grid]
            out.append(Series(f"{CONFIGS[config].label}, {self.PACKET_TAG}", xs, [v[0] for v in stats],
                              [v[1] for v in stats], [v[2] for v in stats]))
        for other in ("reno", "sack"):
            stats = [mean_ci(_gains(t[(x, "westwood|pkt")], t[(x, f"{other}|pkt")])) for x in grid]
            out.append(Series(f"gain over {CONFIGS[other].label} (%), {self.PACKET_TAG}", xs, [v[0] for v in stats],
                              [v[1] for v in stats], [v[2] for v in stats]))
        return out

    def packet_note(self, t: Mapping[tuple[float, str], list[float]], quick: bool) -> str:
        parts = []
        for x in self.packet_grid(quick):
            w, r, sk = (t[(x, f"{c}|pkt")] for c in MAIN)
            parts.append(f"{x * self.x_plot_scale:g}{self.x_unit}: TCPW {_fmt_ci(w)}, Reno {_fmt_ci(r)}, SACK {_fmt_ci(sk)} "
                         f"Mb/s, gain over Reno {_pct(_gains(w, r))}, over SACK {_pct(_gains(w, sk))}")
        return (f"sensitivity, Good/Bad sojourns of {self.good_mean_s:g}/{self.bad_mean_s:g} packets instead of seconds "
                "(ns-2's ErrorModel/MultiState counts state durations in packets by default, sttype_ pkt): "
                + "; ".join(parts))

    def both_note(self, t: Mapping[tuple[float, str], list[float]]) -> str:
        x = self.headline_x
        w, r, s = (t[(x, f"{c}|both")] for c in MAIN)
        return (f"sensitivity, channel process in both directions (independent) at x = {x * self.x_plot_scale:g}"
                f"{self.x_unit}: TCPW {_fmt_ci(w)}, Reno {_fmt_ci(r)}, SACK {_fmt_ci(s)} Mb/s, gain over Reno "
                f"{_pct(_gains(w, r))}, over SACK {_pct(_gains(w, s))}")

    def sensitivity_lines(self, t: Mapping[tuple[float, str], list[float]]) -> list[str]:
        return super().sensitivity_lines(t) + [self.both_note(t)]

    def markov_note(self) -> str:
        return (f"two-state Markov channel on the data direction of the wireless link (Fig. 8 topology): exponential "
                f"sojourns, Good mean {self.good_mean_s:g} s with packet loss {self.good_loss:g}, state at t = 0 drawn "
                "from the stationary distribution")


@register
class Fig15(_Markov):
    id = "casetti.fig15"
    title = "fading (Good 8 s, 0.001 %; Bad 4 s): throughput vs Bad-state error rate"
    xlabel = "packet error rate in the Bad state (%)"
    good_mean_s = 8.0
    bad_mean_s = 4.0
    grid_full = (0.0, 0.01, 0.02, 0.03, 0.05, 0.07, 0.1, 0.15, 0.2, 0.3)
    grid_quick = (0.0, 0.01, 0.02, 0.05, 0.1, 0.3)
    headline_x = 0.05
    below_x = 0.02
    x_plot_scale = 100.0
    x_unit = "%"
    paper_gain = 300.0
    packet_grid_full = (0.01, 0.02, 0.05, 0.1, 0.3)
    packet_grid_quick = (0.02, 0.05, 0.3)
    poor = 0.25
    """"All perform poorly" at 30 %: every variant below 25 % of the link."""

    def channel(self, x: float) -> tuple[float, float]:
        return self.bad_mean_s, x

    def analyze(self, results: Mapping[Any, RunResult], quick: bool) -> Outcome:
        t = self.table(results)
        out = self.base_outcome(t, quick)
        grid = [x for x in self.grid(quick) if x > 0]
        for other in ("reno", "sack"):
            ok, detail = self.peaks_at(t, grid, other, self.headline_x)
            out.claims.append(Claim(f"TCPW's gain over {CONFIGS[other].label} is largest at 5 % Bad-state errors",
                                    ok, detail))
        worst = grid[-1]
        means = [mean_ci(t[(worst, c)])[0] for c in MAIN]
        out.claims.append(Claim(f"all protocols perform poorly at the highest Bad-state error rate (< {self.poor:.0%} "
                                "of the 2 Mb/s link)", max(means) < self.poor * 2.0,
                                f"{worst:.0%}: {self.throughput_detail(t, worst)}"))
        explain = _explain_gain(self, t, _MARKOV_CONTEXT + " " + self.packet_note(t, quick) + ".")
        out.numbers += [self.gain_number(t, "reno", 300.0, explain), self.gain_number(t, "sack", 300.0, explain)]
        below = _gains(t[(self.below_x, "westwood")], t[(self.below_x, "reno")])
        number = Number(f"TCPW gain over Reno below 5 % (at {self.below_x:.0%}) (%)", 150.0, mean_ci(below)[0])
        if not number.within_tolerance:
            number.explanation = (f"{_MARKOV_CONTEXT} At {self.below_x:.0%}: {self.throughput_detail(t, self.below_x)}. "
                                  + self.packet_note(t, quick) + ".")
        out.numbers.append(number)
        out.series += self.packet_series(t, quick)
        out.notes += [self.markov_note() + f"; Bad mean {self.bad_mean_s:g} s", self.packet_note(t, quick)]
        return out


@register
class Fig16(_Markov):
    id = "casetti.fig16"
    title = "fading, Bad-state errors 5 %: throughput vs wireless capacity"
    xlabel = "wireless link capacity (Mb/s)"
    good_mean_s = 8.0
    bad_mean_s = 4.0
    bad_loss = 0.05
    grid_full = (1e6, 2e6, 4e6, 6e6, 8e6, 10e6)
    grid_quick = (1e6, 2e6, 5e6, 10e6)
    headline_x = 10e6
    x_plot_scale = 1e-6
    x_unit = " Mb/s"
    paper_gain = 400.0
    packet_grid_full = (1e6, 2e6, 4e6, 6e6, 8e6, 10e6)
    packet_grid_quick = (1e6, 2e6, 10e6)

    def channel(self, x: float) -> tuple[float, float]:
        return self.bad_mean_s, self.bad_loss

    def rate(self, x: float) -> float:
        return x

    def capacity_bps(self, x: float) -> float:
        return x

    def analyze(self, results: Mapping[Any, RunResult], quick: bool) -> Outcome:
        t = self.table(results)
        out = self.base_outcome(t, quick)
        grid = list(self.grid(quick))
        for other in ("reno", "sack"):
            g = [mean_ci(v)[0] for v in self.gain_series(t, grid, other)]
            out.claims.append(Claim(f"TCPW's gain over {CONFIGS[other].label} increases with the wireless capacity",
                                    g[-1] > g[0] and g[-1] == max(g), self.peak(t, grid, other)[1]))
        explain = _explain_gain(self, t, _MARKOV_CONTEXT + " " + self.packet_note(t, quick) + ".")
        out.numbers += [self.gain_number(t, "reno", 400.0, explain), self.gain_number(t, "sack", 400.0, explain)]
        out.series += self.packet_series(t, quick)
        out.notes.append(self.packet_note(t, quick))
        out.notes.append(self.markov_note() + f"; Bad mean {self.bad_mean_s:g} s, Bad loss {self.bad_loss:.0%}; the "
                         "wired link stays 10 Mb/s (Fig. 8), so at 10 Mb/s both links have the same capacity")
        return out


@register
class Fig17(_Markov):
    id = "casetti.fig17"
    title = "blackouts (Good 4 s, Bad = 100 % loss): throughput vs mean blackout duration"
    xlabel = "mean blackout duration (s)"
    good_mean_s = 4.0
    grid_full = (0.0, 0.025, 0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5)
    grid_quick = (0.0, 0.05, 0.1, 0.2, 0.5)
    headline_x = 0.1
    paper_gain = 167.0

    def channel(self, x: float) -> tuple[float, float]:
        return x, 1.0

    def loss(self, x: float, direction: str | None = None) -> list[dict[str, Any]]:
        if x == 0:  # no blackouts: the Good state's errors only
            return [{"kind": "bernoulli", "p": self.good_loss, "direction": direction or self.direction}]
        return super().loss(x, direction)

    def correlated_scenario(self, config: str, x: float, quick: bool) -> dict[str, Any]:
        """Sensitivity: one blackout process for both directions of the wireless link (data and
        ACKs lost together, as in a physical blackout); per-packet draws stay per direction."""
        loss = [{**item, "correlated": True} for item in self.loss(x, "both")]
        return wireless_scenario(config, loss=loss, wireless_rate_bps=self.rate(x), duration_s=self.duration(quick),
                                 warmup_s=self.warmup_s)

    def runs(self, quick: bool, seeds: int | None) -> list[RunSpec]:
        return super().runs(quick, seeds) + [
            RunSpec(key=(x, f"{config}|corr", seed), seed=seed, scenario=self.correlated_scenario(config, x, quick))
            for x in self.grid(quick) if x > 0 for config in MAIN for seed in self.sensitivity_seeds(quick, seeds)]

    def correlated_note(self, t: Mapping[tuple[float, str], list[float]], quick: bool) -> str:
        parts = []
        for x in (x for x in self.grid(quick) if x > 0):
            w, r, sk = (t[(x, f"{c}|corr")] for c in MAIN)
            parts.append(f"{x:g} s: TCPW {_fmt_ci(w)}, Reno {_fmt_ci(r)}, SACK {_fmt_ci(sk)} Mb/s, gain over Reno "
                         f"{_pct(_gains(w, r))}, over SACK {_pct(_gains(w, sk))}")
        return ("sensitivity, one blackout process for both directions (correlated: data and ACKs blacked out together; "
                "ns-2 attaches an error model to one simplex link, so the paper's runs had either the data direction "
                "alone or independent processes): " + "; ".join(parts))

    def analyze(self, results: Mapping[Any, RunResult], quick: bool) -> Outcome:
        t = self.table(results)
        out = self.base_outcome(t, quick)
        grid = list(self.grid(quick))
        longest = grid[-1]
        g_head = mean_ci(_gains(t[(self.headline_x, "westwood")], t[(self.headline_x, "reno")]))[0]
        g_long = _gains(t[(longest, "westwood")], t[(longest, "reno")])
        fall = {c: mean_ci(t[(longest, c)])[0] / mean_ci(t[(grid[0], c)])[0] for c in MAIN}
        out.claims.append(Claim("longer blackouts hurt all protocols: throughput falls for each, and TCPW's gain at the "
                                "longest is below its gain at 0.1 s", mean_ci(g_long)[0] < g_head and
                                all(v < 1 for v in fall.values()),
                                f"throughput at {longest:g} s relative to no blackout: "
                                + ", ".join(f"{CONFIGS[c].label} {v:.0%}" for c, v in fall.items())
                                + f"; gain over Reno {g_head:+.0f}% at 0.1 s, {_pct(g_long)} at {longest:g} s"))
        # No explanation is attached: none of the sensitivity runs closes the gap (see the notes).
        out.numbers += [self.gain_number(t, "reno", 167.0), self.gain_number(t, "sack", 167.0)]
        out.notes.append("not reproduced: TCPW's gain at 0.1 s blackouts stays far below +167 % under every variation "
                         "tried here (the sensitivity notes: recover guard, NewReno recovery, fixed filter, RTO floor, "
                         "independent blackouts in both directions, one blackout process for both directions), and it "
                         "grows rather than shrinks with the blackout length. "
                         "A 0.1 s blackout erases about a window (62 packets at 2 Mb/s), so every variant times out "
                         "and then regrows its window through most of the 4 s Good period; TCPW restarts from "
                         "BWE·RTTmin, which its null samples have lowered during the blackout and the timeout")
        out.notes.append(self.correlated_note(t, quick))
        out.notes.append(self.markov_note() + "; Bad state = blackout (every packet lost), exponential with the mean "
                         "on the x axis (0: no Bad state). The Good state's packet loss is not given for blackouts: the "
                         "fading value 0.001 % is used")
        return out


@register
class Fig18(Sweep):
    id = "casetti.fig18"
    title = "LEO satellite (one-way 100 ms, 0.1 % errors, 100 ms hand-off every 4 s): throughput vs capacity"
    xlabel = "satellite link capacity (Mb/s)"
    grid_full = (0.5e6, 1e6, 2e6, 4e6, 6e6, 8e6, 10e6)
    grid_quick = (1e6, 4e6, 10e6)
    headline_x = 10e6
    x_plot_scale = 1e-6
    x_unit = " Mb/s"
    one_way_s = 0.100
    error_p = 0.001
    handoff_period_s = 4.0
    handoff_s = 0.100
    far_above = 1.0
    """"Far above": TCPW at least twice Reno's and SACK's throughput at the highest capacity."""

    def scenario(self, config: str, x: float, quick: bool) -> dict[str, Any]:
        c = CONFIGS[config]
        rtt = 2 * self.one_way_s
        loss = bernoulli(self.error_p) + [{"kind": "outage", "period": f"{self.handoff_period_s}s",
                                           "duration": _ms(self.handoff_s), "offset": "2s", "direction": "both"}]
        return {
            "name": f"casetti LEO satellite, {c.label}",
            "duration": f"{self.duration(quick)}s",
            "warmup": f"{self.warmup_s}s",
            "tcp": {**BASE_TCP, **c.tcp},
            "links": [{"name": "satellite", "a": "gateway", "b": "terminal", "rate": _bps(x), "delay": _ms(self.one_way_s),
                       "queue": f"{buffer_pkts(x, rtt)}pkt", "loss": loss}],
            "flows": [flow_spec("tcp", "gateway", "terminal", config)],
        }

    def analyze(self, results: Mapping[Any, RunResult], quick: bool) -> Outcome:
        t = self.table(results)
        out = self.base_outcome(t, quick)
        grid = list(self.grid(quick))
        top = grid[-1]
        ratios = {o: mean_ci(t[(top, "westwood")])[0] / mean_ci(t[(top, o)])[0] for o in ("reno", "sack")}
        above = all(mean_ci(t[(x, "westwood")])[0] > max(mean_ci(t[(x, o)])[0] for o in ("reno", "sack")) for x in grid)
        out.claims.append(Claim("TCPW far above Reno and SACK (above at every capacity, ≥ 2× at the highest)",
                                above and all(r >= 1 + self.far_above for r in ratios.values()),
                                "; ".join(f"{x / 1e6:g} Mb/s: {self.throughput_detail(t, x)}" for x in grid)))
        for other in ("reno", "sack"):
            g = [mean_ci(v)[0] for v in self.gain_series(t, grid, other)]
            out.claims.append(Claim(f"the gain over {CONFIGS[other].label} grows with the capacity (more so at high speed)",
                                    g[-1] > g[0] and g[-1] == max(g), self.peak(t, grid, other)[1]))
        out.notes.append(f"one satellite link gateway → terminal of the given capacity, one-way {self.one_way_s * 1e3:g} ms, "
                         f"buffer = BDP (RTT 200 ms); {self.error_p:.1%} Bernoulli packet errors and a "
                         f"{self.handoff_s * 1e3:g} ms total outage every {self.handoff_period_s:g} s (first at 2 s) in both "
                         "directions; the paper gives no capacity range: 0.5–10 Mb/s")
        return out
