"""Set-up shared by every `casetti` experiment: packet sizes, TCP configurations, the Fig. 8
wireless scenario, formatting helpers and the generic one-flow sweep."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from tcpsim.repro.casetti import checks
from tcpsim.repro.framework import Claim, Experiment, Number, Outcome, Series
from tcpsim.runner import RunSpec
from tcpsim.stats import mean_ci

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
    "timeout_ssthresh": "every",
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


def fmt_ms(seconds: float) -> str:
    return f"{seconds * 1e3:.6f}ms"


def fmt_bps(rate_bps: float) -> str:
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
            {"name": "wired", "a": "source", "b": "base", "rate": fmt_bps(wired_rate_bps), "delay": fmt_ms(wired_delay_s),
             "queue": f"{buffer_pkts(wired_rate_bps, rtt_s)}pkt"},
            {"name": "wireless", "a": "base", "b": "mobile", "rate": fmt_bps(wireless_rate_bps),
             "delay": fmt_ms(WIRELESS_DELAY_S), "queue": f"{buffer_pkts(wireless_rate_bps, rtt_s, min_buffer_pkts)}pkt",
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


def fmt_ci(values: Sequence[float], digits: int = 3, unit: str = "") -> str:
    m, lo, hi = mean_ci(values)
    return f"{m:.{digits}f}{unit} [{lo:.{digits}f}, {hi:.{digits}f}]"


def fmt_pct(values: Sequence[float]) -> str:
    m, lo, hi = mean_ci(values)
    return f"{m:+.0f}% [{lo:+.0f}, {hi:+.0f}]"


def paired_gains(numerator: Sequence[float], denominator: Sequence[float]) -> list[float]:
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
        return [paired_gains(t[(x, "westwood")], t[(x, other)]) for x in grid]

    def base_outcome(self, t: Mapping[tuple[float, str], list[float]], quick: bool,
                     sensitivity: bool = True) -> Outcome:
        """Series of throughput and gains over the grid, the set-up note and (with `sensitivity`)
        the sensitivity runs' note."""
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
        notes = [self.setup_note(quick)] + ([self.sensitivity_note(t)] if sensitivity else [])
        return Outcome(series=series, notes=notes)

    def setup_note(self, quick: bool) -> str:
        return (f"{len(self.replications(quick, None))} seeds per point (sensitivity runs: "
                f"{self.sensitivity_seeds_quick if quick else self.seeds_full}); {self.duration(quick):g} s runs, "
                f"first {self.warmup_s:g} s excluded; throughput = delivered 400-byte packets (360 B payload + "
                f"40 B headers) as ns-2 counts them; buffers = BDP (≥ {MIN_BUFFER_PKTS} packets); delayed ACKs; "
                "min RTO 200 ms (ns-2 2-tick floor); every timeout halves the window (ns-2); TCPW reacts to every 3 "
                "duplicate ACKs (paper Sec. 3.1, ns-2 TCPW agent)")

    def sensitivity_lines(self, t: Mapping[tuple[float, str], list[float]]) -> list[str]:
        x = self.headline_x
        n = len(t.get((x, "westwood[preset]"), []))

        def first(config: str) -> list[float]:
            return t[(x, config)][:n]

        reno, sack = first("reno"), first("sack")
        lines = []
        for config in ("westwood", "westwood[preset]", "westwood[newreno]", "westwood[fixed]"):
            values = first(config)
            lines.append(f"{CONFIGS[config].label}: {fmt_ci(values)} Mb/s, gain over Reno {fmt_pct(paired_gains(values, reno))}"
                         f", over SACK {fmt_pct(paired_gains(values, sack))}")
        w1, r1, s1 = first("westwood[rto1s]"), first("reno[rto1s]"), first("sack[rto1s]")
        lines.append(f"RTO floor 1 s (RFC 6298) for all: TCPW {fmt_ci(w1)}, Reno {fmt_ci(r1)}, SACK {fmt_ci(s1)} Mb/s, "
                     f"gain over Reno {fmt_pct(paired_gains(w1, r1))}, over SACK {fmt_pct(paired_gains(w1, s1))}")
        return lines

    def sensitivity_note(self, t: Mapping[tuple[float, str], list[float]]) -> str:
        return (f"sensitivity at x = {self.headline_x * self.x_plot_scale:g}{self.x_unit} (first "
                f"{len(t.get((self.headline_x, 'westwood[preset]'), []))} seeds): " + "; ".join(self.sensitivity_lines(t)))

    def capacity_bps(self, x: float) -> float:
        """Bottleneck capacity at x (the 2 Mb/s wireless link unless x is a capacity)."""
        return 2e6

    def gain_number(self, t: Mapping[tuple[float, str], list[float]], other: str, paper: float,
                    explain: Callable[[str, float], str] | None = None, name: str | None = None) -> Number:
        gains = paired_gains(t[(self.headline_x, "westwood")], t[(self.headline_x, other)])
        measured = mean_ci(gains)[0]
        number = Number(name or f"TCPW gain over {CONFIGS[other].label} at {self.headline_x * self.x_plot_scale:g}"
                        f"{self.x_unit} (%)", paper, measured)
        if not number.within_tolerance and explain is not None:
            number.explanation = explain(other, paper)
        return number

    def gain_numbers(self, t: Mapping[tuple[float, str], list[float]], paper: float, context: str) -> list[Number]:
        """TCPW's gain over Reno and over SACK at the headline x against the paper's `paper` %,
        each explained by :func:`explain_gain` with `context` when off by more than 15 %."""
        explain = explain_gain(self, t, context)
        return [self.gain_number(t, other, paper, explain) for other in ("reno", "sack")]

    def label(self, x: float) -> str:
        return f"{x * self.x_plot_scale:g}{self.x_unit}"

    def peak_claims(self, t: Mapping[tuple[float, str], list[float]], grid: Sequence[float], where: str) -> list[Claim]:
        """The paper's "TCPW's gain over Reno and SACK peaks at the headline x" (`where` in words),
        one claim per competitor, judged by :func:`checks.peak_at`."""
        return [Claim(f"TCPW's gain over {CONFIGS[other].label} is largest at {where}",
                      *checks.peak_at(dict(zip(grid, self.gain_series(t, grid, other))), self.headline_x, self.label))
                for other in ("reno", "sack")]

    def increase_claims(self, t: Mapping[tuple[float, str], list[float]], grid: Sequence[float], what: str) -> list[Claim]:
        """The paper's "TCPW's gain grows with `what`", per competitor, by :func:`checks.increases`."""
        return [Claim(f"TCPW's gain over {CONFIGS[other].label} increases with {what}",
                      *checks.increases(dict(zip(grid, self.gain_series(t, grid, other))), self.label))
                for other in ("reno", "sack")]

    def throughput_detail(self, t: Mapping[tuple[float, str], list[float]], x: float) -> str:
        return ", ".join(f"{CONFIGS[c].label} {fmt_ci(t[(x, c)])}" for c in MAIN) + " Mb/s"

    def plot(self, outcome: Outcome, fig: Figure) -> None:
        fig.set_size_inches(11, 4.8)
        left, right = fig.subplots(1, 2)
        gains = [s for s in outcome.series if s.label.startswith("gain")]
        rates = [s for s in outcome.series if not s.label.startswith("gain")]
        errorbars(left, rates)
        left.set_ylabel(self.ylabel)
        errorbars(right, gains)
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

    def plot_readings(self, outcome: Outcome, fig: Figure) -> None:
        """Alternative readings' series dashed, labelled with the reading: throughputs on the left
        axes, gains on the right."""
        if not outcome.readings or len(fig.axes) < 2:
            return
        left, right = fig.axes[:2]
        for reading in outcome.readings:
            for s in reading.series:
                ax = right if s.label.startswith("gain") else left
                ax.plot(s.x, s.y, linestyle="--", marker="x", markersize=4, color=color_of(s.label),
                        label=f"{reading.name}: {s.label}")
        for ax in (left, right):
            ax.legend(fontsize="x-small")


COLORS = {"TCPW": "tab:blue", "Reno": "tab:red", "SACK": "tab:green", "gain over Reno": "tab:purple",
          "gain over SACK": "tab:olive"}


def color_of(label: str) -> str | None:
    return next((color for prefix, color in sorted(COLORS.items(), key=lambda kv: -len(kv[0]))
                 if label.startswith(prefix)), None)


def errorbars(ax: Axes, series: Sequence[Series], **style: Any) -> None:
    """Lines with 95 % CI error bars, coloured by variant; sensitivity series (label containing
    "sensitivity") dashed and paler."""
    for s in series:
        y = np.asarray(s.y, dtype=float)
        extra: dict[str, Any] = {"linestyle": "--", "alpha": 0.6} if "sensitivity" in s.label else {}
        if "color" not in style and color_of(s.label):
            extra["color"] = color_of(s.label)
        if s.y_ci_low is not None and s.y_ci_high is not None:
            below = np.clip(y - np.asarray(s.y_ci_low, dtype=float), 0, None)
            above = np.clip(np.asarray(s.y_ci_high, dtype=float) - y, 0, None)
            ax.errorbar(s.x, y, yerr=[below, above], marker="o", markersize=3, capsize=3, label=s.label,
                        **{**extra, **style})
        else:
            ax.plot(s.x, y, marker="o", markersize=3, label=s.label, **{**extra, **style})


def explain_gain(experiment: Sweep, t: Mapping[tuple[float, str], list[float]], context: str) -> Callable[[str, float], str]:
    """An explanation built from the measurements: the throughputs at the headline point, the
    range of gains the TCPW flavours of the sensitivity runs give (and whether the paper's value
    lies inside it), and the bound the link puts on any gain when TCPW nearly fills it."""

    def explain(other: str, paper: float) -> str:
        x = experiment.headline_x
        n = len(t[(x, "westwood[preset]")])
        ref = t[(x, other)][:n]
        flavours = {CONFIGS[c].label: mean_ci(paired_gains(t[(x, c)][:n], ref))[0]
                    for c in ("westwood", "westwood[preset]", "westwood[newreno]", "westwood[fixed]")}
        flavours["TCPW and " + CONFIGS[other].label + " with a 1 s RTO floor"] = mean_ci(
            paired_gains(t[(x, "westwood[rto1s]")], t[(x, f"{other}[rto1s]")]))[0]
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


GAIN_CONTEXT = (
    "The gain is a ratio of two throughputs that details the paper leaves to ns-2 set (TCPW's and Reno's reaction "
    "to a second loss in a window, RTO granularity); the paper reports no absolute throughputs to pin them.")
