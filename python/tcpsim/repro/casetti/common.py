"""Set-up shared by every `casetti` experiment: packet sizes, TCP configurations, the Fig. 8
wireless scenario, the shared-link dumbbell, and the one-flow throughput sweep (runs
keyed by name, per-seed throughputs from the results table, its figure)."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tcpsim.repro.aggregate import NON_NEGATIVE, Curve, Range, curves, fmt_ci, fmt_pct, mean, paired_gains
from tcpsim.repro.casetti import checks
from tcpsim.repro.framework import Claim, Experiment, Number, Outcome, Series
from tcpsim.repro.ns2_queue import bdp_packets, ns2_drop_tail
from tcpsim.repro.plotting import DOUBLE_IN, GREY, PALETTE, draw_series, figure_title, finish_axes
from tcpsim.repro.sweep import Axis, Sweep
from tcpsim.repro.table import results_table
from tcpsim.runner import RunSpec
from tcpsim.tidy import RunKey
from tcpsim.topologies import dumbbell

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from tcpsim.result import RunResult

PAPER = "casetti"

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
    "limited_transmit": False,
}
"""ns-2 of 2000–2001 as the paper ran it (`tcp_tick_`, `minrto_`, delayed ACKs, `TcpAgent::timeout`'s
halving on every expiry) and, like the Linux 2.2 testbed hosts, without RFC 3042 limited transmit:
ns-2's `singledup_` became 1 only on 2001/11/28."""
RFC_RTO = {"min_rto": "1s", "clock_granularity": "1ms"}
NS2_RTT_TICK = {"rtt_tick": "100ms"}
"""Sensitivity: RTT samples in whole 100 ms ticks, at least one (ns-2's `tcp_tick_` of 2000–2001;
ns-2's TCPW agent takes RTTmin from the tick count), for the estimator and TCPW's RTTmin."""

PAPER_WESTWOOD_TCP: dict[str, Any] = {"avoid_repeated_fast_retransmit": False}
"""Per-flow TCP settings of TCPW: faster recovery on every n duplicate ACKs (see the docstring)."""
NS2_AGENT_TCP: dict[str, Any] = {
    **PAPER_WESTWOOD_TCP,
    **NS2_RTT_TICK,
    "rtt_sampling": "timed_segment",
    "rto_estimator": "ns2_ticks",
    "recovery": "westwood_ns2",
    "cc": {"kind": "westwood", "acked_count": "ns2_agent", "silence": "ns2_agent", "timeout_divisor": True},
}
"""Per-flow TCP settings of ns-2's `Agent/TCP/Westwood` (`tcp-westwood.cc` v1.3, the authors' agent, Reno-based):
fast retransmit without fast recovery's inflation (the window growing on the ACK that ends it), the agent's
AckedCount (debit one segment less, at most two per ACK), its null samples (real sample over the remainder,
10 ms patch, clock from 0, none on a loss), its timeout divisor `fr_a_`, RTTmin from 100 ms ticks, and the RTO
of its base class `TcpAgent`: one timed segment per RTT and the fixed-point estimator in 100 ms ticks. Field by
field: peers/ns2/westwood/README.md."""


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
    "westwood[ns2_agent]": Config("westwood", "TCPW as ns-2's Agent/TCP/Westwood", NS2_AGENT_TCP, {}),
    "reno[rto1s]": Config("reno", "Reno, RTO floor 1 s", {}, RFC_RTO),
    "sack[rto1s]": Config("sack", "SACK, RTO floor 1 s", {}, RFC_RTO),
    "westwood[fixed]": Config(
        "westwood",
        "TCPW, fixed-coefficient filter (ns-2 TCPW filter type 1), no null samples",
        {
            **PAPER_WESTWOOD_TCP,
            "cc": {"kind": "westwood", "null_sample_divisor": 0, "filter": {"kind": "tustin_fixed", "alpha": 19 / 21}},
        },
        {},
    ),
}
MAIN = ("westwood", "reno", "sack")
SENSITIVITY = (
    "westwood[ns2_agent]",
    "westwood[preset]",
    "westwood[newreno]",
    "westwood[fixed]",
    "westwood[rto1s]",
    "reno[rto1s]",
    "sack[rto1s]",
)


def fmt_ms(seconds: float) -> str:
    return f"{seconds * 1e3:.6f}ms"


def fmt_bps(rate_bps: float) -> str:
    return f"{round(rate_bps)}bps"


def buffer_pkts(rate_bps: float, rtt_s: float, floor: int = MIN_BUFFER_PKTS) -> int:
    """Bandwidth-delay product in 400-byte packets, at least `floor`."""
    return bdp_packets(rate_bps, rtt_s, PACKET_BYTES, floor)


def flow_spec(name: str, src: str, dst: str, config: str, **extra: Any) -> dict[str, Any]:
    c = CONFIGS[config]
    spec: dict[str, Any] = {
        "name": name,
        "src": src,
        "dst": dst,
        "variant": c.variant,
        "start_jitter": f"{START_JITTER_S}s",
        **extra,
    }
    if c.flow_tcp:
        spec["tcp"] = dict(c.flow_tcp)
    return spec


def wire_mbps(payload_bps: float) -> float:
    """Delivered payload rate → ns-2 throughput (400-byte packets), Mb/s."""
    return float(payload_bps) * WIRE_PER_PAYLOAD / 1e6


def wireless_scenario(
    config: str,
    *,
    loss: Sequence[Mapping[str, Any]],
    duration_s: float,
    warmup_s: float,
    wired_delay_s: float = 0.045,
    wireless_rate_bps: float = 2e6,
    wired_rate_bps: float = WIRED_RATE_BPS,
    trace: Mapping[str, Any] | None = None,
    name: str = "",
    min_buffer_pkts: int = MIN_BUFFER_PKTS,
) -> dict[str, Any]:
    """Fig. 8: source —wired— base station —wireless (lossy)— mobile, one bulk flow."""
    rtt_s = 2 * (wired_delay_s + WIRELESS_DELAY_S)
    c = CONFIGS[config]
    scenario: dict[str, Any] = {
        "name": name or f"casetti Fig. 8 topology, {c.label}",
        "duration": f"{duration_s}s",
        "warmup": f"{warmup_s}s",
        "tcp": {**BASE_TCP, **c.tcp},
        "links": [
            {
                "name": "wired",
                "a": "source",
                "b": "base",
                "rate": fmt_bps(wired_rate_bps),
                "delay": fmt_ms(wired_delay_s),
                "queue": ns2_drop_tail(buffer_pkts(wired_rate_bps, rtt_s)),
            },
            {
                "name": "wireless",
                "a": "base",
                "b": "mobile",
                "rate": fmt_bps(wireless_rate_bps),
                "delay": fmt_ms(WIRELESS_DELAY_S),
                "queue": ns2_drop_tail(buffer_pkts(wireless_rate_bps, rtt_s, min_buffer_pkts)),
                "loss": [dict(item) for item in loss],
            },
        ],
        "flows": [flow_spec("tcp", "source", "mobile", config)],
    }
    if trace:
        scenario["trace"] = dict(trace)
    return scenario


def bernoulli(p: float) -> list[dict[str, Any]]:
    """Independent packet errors in both directions of the link (none for p = 0)."""
    return [{"kind": "bernoulli", "p": p, "direction": "both"}] if p > 0 else []


# --- the shared-link dumbbell (friendliness, fig7) ---------------------------------------


def shared_scenario(
    configs: Sequence[str],
    *,
    capacity_bps: float,
    rtt_s: float,
    loss_p: float,
    duration_s: float,
    warmup_s: float,
    mss_bytes: int = MSS_BYTES,
    start_jitter_s: float = 5.0,
) -> dict[str, Any]:
    """Dumbbell: one flow per entry of `configs`, equal RTT, drop-tail buffer = BDP."""
    scenario = dumbbell(
        forward=len(configs),
        bottleneck_rate=fmt_bps(capacity_bps),
        bottleneck_delay_s=0.010,
        access_rate="100Mbps",
        rtt_range_s=(rtt_s, rtt_s),
        buffer_s=rtt_s,
        mss_bytes=mss_bytes,
        header_bytes=HEADER_BYTES,
        duration=f"{duration_s}s",
        warmup=f"{warmup_s}s",
        start_jitter=f"{start_jitter_s}s",
        tcp={k: v for k, v in BASE_TCP.items() if k not in ("mss", "header")},
    )
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
    return (
        float(rows["throughput_bps"].mean()) * (mss_bytes + HEADER_BYTES) / mss_bytes / 1e6 if len(rows) else math.nan
    )


# --- gains (the per-seed helpers the claims share are `tcpsim.repro.aggregate`'s) ----------

GAIN = Range(-100.0)
"""A gain TCPW / other − 1, in percent, is at least −100 %."""


# --- the one-flow throughput sweep ------------------------------------------------------------

THROUGHPUT = "throughput"
"""The results table's column of a run's throughput (Mb/s of 400-byte packets)."""
TAGS = ("reading", "kind")
"""Key parameters naming an alternative reading's runs (``reading``) or a sensitivity run's
(``kind``); the main runs have neither."""

Samples = Mapping[tuple[Any, str], list[float]]
"""Per-seed throughputs (Mb/s, in seed order) by (x, config)."""


def _throughput(result: RunResult) -> dict[str, float]:
    return {THROUGHPUT: wire_mbps(result.flows["throughput_bps"].sum())}


def tagged(key: RunKey, **tags: str) -> bool:
    """Whether the run key carries exactly ``tags`` (a ``reading`` or a ``kind``; none: a main run)."""
    return all(key.get(tag) == tags.get(tag) for tag in TAGS)


def throughput_samples(results: Mapping[RunKey, RunResult], axis: str, **tags: str) -> Samples:
    """Per-seed throughput by (x, config) of the runs whose keys carry exactly ``tags`` (none: the
    main runs), from the results table's curves of throughput against ``axis`` per config."""
    runs = {key: r for key, r in results.items() if tagged(key, **tags)}
    if not runs:
        return {}
    table = results_table(runs, _throughput, PAPER).sort_values("seed", kind="stable")
    by_config = curves(table, axis, THROUGHPUT, by="config", valid=NON_NEGATIVE)
    return {(x, config): c.samples[x].tolist() for config, c in by_config.items() for x in c.x}


class ThroughputSweep(Experiment):
    """A one-flow scenario swept over x (the key parameter ``axis``) for TCPW, Reno and SACK:
    throughput with 95 % CIs, gains of TCPW over Reno and SACK per seed; sensitivity runs at
    ``headline_x``. Runs are keyed ``RunKey([reading=|kind=], <axis>=x, config=..., seed=...)``."""

    paper = PAPER
    ylabel = "throughput (Mb/s, 400-byte packets)"
    axis: str
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

    def point_specs(
        self,
        xs: Sequence[float],
        configs: Sequence[str],
        seeds: Sequence[int],
        build: Callable[[str, float], dict[str, Any]],
        **tags: str,
    ) -> list[RunSpec]:
        """One run per x, config and seed, the scenario ``build(config, x)``, keyed by ``tags``
        (a ``reading`` or a ``kind``), the axis, the config and the seed."""
        sweep = Sweep(Axis(self.axis, tuple(xs)), Axis("config", tuple(configs)))
        return sweep.specs(lambda config, **point: build(config, point[self.axis]), False, seeds, **tags)

    def runs(self, quick: bool, seeds: int | None) -> list[RunSpec]:
        def build(config: str, x: float) -> dict[str, Any]:
            return self.scenario(config, x, quick)

        return self.point_specs(self.grid(quick), MAIN, self.replications(quick, seeds), build) + self.point_specs(
            (self.headline_x,), SENSITIVITY, self.sensitivity_seeds(quick, seeds), build
        )

    def sensitivity_seeds(self, quick: bool, seeds: int | None) -> list[int]:
        """Seeds of the sensitivity runs: fewer than the main ones in quick mode."""
        n = self.sensitivity_seeds_quick if quick else self.seeds_full
        return list(range(1, (min(n, seeds) if seeds is not None else n) + 1))

    # analysis helpers

    def table(self, results: Mapping[RunKey, RunResult], **tags: str) -> Samples:
        """(x, config) → per-seed throughput (Mb/s, 400-byte packets), in seed order, of the runs
        tagged ``tags`` (none: the main and headline sensitivity runs)."""
        return throughput_samples(results, self.axis, **tags)

    def gain_series(self, t: Samples, grid: Sequence[float], other: str) -> list[list[float]]:
        return [paired_gains(t[(x, "westwood")], t[(x, other)]) for x in grid]

    def curve_series(self, t: Samples, grid: Sequence[float], suffix: str = "") -> list[Series]:
        """Throughput of each variant and TCPW's gains over ``compare``, 95 % CIs clipped to their
        ranges, plotted at x × x_plot_scale; labels end with ``suffix``."""
        xs = [x * self.x_plot_scale for x in grid]
        series = [
            Curve.of({x: t[(x, c)] for x in grid}, NON_NEGATIVE).series(CONFIGS[c].label + suffix, xs) for c in MAIN
        ]
        series += [
            Curve.of(dict(zip(grid, self.gain_series(t, grid, other))), GAIN).series(
                f"gain over {CONFIGS[other].label} (%){suffix}", xs
            )
            for other in self.compare
        ]
        return series

    def base_outcome(self, t: Samples, quick: bool, results: Mapping[RunKey, RunResult] | None = None) -> Outcome:
        """Series of throughput and gains over the grid, the set-up note and (given all the
        `results`) the sensitivity runs' note."""
        notes = [self.setup_note(quick)] + ([self.sensitivity_note(t, results)] if results is not None else [])
        return Outcome(series=self.curve_series(t, list(self.grid(quick))), notes=notes)

    def setup_note(self, quick: bool) -> str:
        return (
            f"{len(self.replications(quick, None))} seeds per point (sensitivity runs: "
            f"{self.sensitivity_seeds_quick if quick else self.seeds_full}); {self.duration(quick):g} s runs, "
            f"first {self.warmup_s:g} s excluded; throughput = delivered 400-byte packets (360 B payload + "
            f"40 B headers) as ns-2 counts them; buffers = BDP (≥ {MIN_BUFFER_PKTS} packets); delayed ACKs; "
            "min RTO 200 ms (ns-2 2-tick floor); every timeout halves the window (ns-2); TCPW reacts to every 3 "
            "duplicate ACKs (paper Sec. 3.1, ns-2 TCPW agent)"
        )

    def sensitivity_lines(self, t: Samples, results: Mapping[RunKey, RunResult]) -> list[str]:
        """The headline sensitivity runs (in `t`, the main samples, under their own configs)."""
        x = self.headline_x
        n = len(t.get((x, "westwood[preset]"), []))

        def first(config: str) -> list[float]:
            return t[(x, config)][:n]

        reno, sack = first("reno"), first("sack")
        lines = []
        for config in ("westwood", "westwood[ns2_agent]", "westwood[preset]", "westwood[newreno]", "westwood[fixed]"):
            values = first(config)
            lines.append(
                f"{CONFIGS[config].label}: {fmt_ci(values)} Mb/s, gain over Reno {fmt_pct(paired_gains(values, reno))}"
                f", over SACK {fmt_pct(paired_gains(values, sack))}"
            )
        w1, r1, s1 = first("westwood[rto1s]"), first("reno[rto1s]"), first("sack[rto1s]")
        lines.append(
            f"RTO floor 1 s (RFC 6298) for all: TCPW {fmt_ci(w1)}, Reno {fmt_ci(r1)}, SACK {fmt_ci(s1)} Mb/s, "
            f"gain over Reno {fmt_pct(paired_gains(w1, r1))}, over SACK {fmt_pct(paired_gains(w1, s1))}"
        )
        return lines

    def sensitivity_note(self, t: Samples, results: Mapping[RunKey, RunResult]) -> str:
        return (
            f"sensitivity at x = {self.headline_x * self.x_plot_scale:g}{self.x_unit} (first "
            f"{len(t.get((self.headline_x, 'westwood[preset]'), []))} seeds): "
            + "; ".join(self.sensitivity_lines(t, results))
        )

    def capacity_bps(self, x: float) -> float:
        """Bottleneck capacity at x (the 2 Mb/s wireless link unless x is a capacity)."""
        return 2e6

    def gain_number(
        self,
        t: Samples,
        other: str,
        paper: float,
        explain: Callable[[str, float], str] | None = None,
        name: str | None = None,
    ) -> Number:
        gains = paired_gains(t[(self.headline_x, "westwood")], t[(self.headline_x, other)])
        number = Number(
            name
            or f"TCPW gain over {CONFIGS[other].label} at {self.headline_x * self.x_plot_scale:g}{self.x_unit} (%)",
            paper,
            mean(gains),
        )
        if not number.within_tolerance and explain is not None:
            number.explanation = explain(other, paper)
        return number

    def gain_numbers(self, t: Samples, paper: float, context: str) -> list[Number]:
        """TCPW's gain over Reno and over SACK at the headline x against the paper's `paper` %,
        each explained by :func:`explain_gain` with `context` when off by more than 15 %."""
        explain = explain_gain(self, t, context)
        return [self.gain_number(t, other, paper, explain) for other in ("reno", "sack")]

    def label(self, x: float) -> str:
        return f"{x * self.x_plot_scale:g}{self.x_unit}"

    def peak_claims(self, t: Samples, grid: Sequence[float], where: str) -> list[Claim]:
        """The paper's "TCPW's gain over Reno and SACK peaks at the headline x" (`where` in words),
        one claim per competitor, judged by :func:`checks.peak_at`."""
        return [
            Claim(
                f"TCPW's gain over {CONFIGS[other].label} is largest at {where}",
                *checks.peak_at(dict(zip(grid, self.gain_series(t, grid, other))), self.headline_x, self.label),
            )
            for other in ("reno", "sack")
        ]

    def increase_claims(self, t: Samples, grid: Sequence[float], what: str) -> list[Claim]:
        """The paper's "TCPW's gain grows with `what`", per competitor, by :func:`checks.increases`."""
        return [
            Claim(
                f"TCPW's gain over {CONFIGS[other].label} increases with {what}",
                *checks.increases(dict(zip(grid, self.gain_series(t, grid, other))), self.label),
            )
            for other in ("reno", "sack")
        ]

    def throughput_detail(self, t: Samples, x: float) -> str:
        return ", ".join(f"{CONFIGS[c].label} {fmt_ci(t[(x, c)])}" for c in MAIN) + " Mb/s"

    # figure

    def plot(self, outcome: Outcome, fig: Figure) -> None:
        """Throughputs (left) and TCPW's gains with the paper's value as a star (right);
        sensitivity series (few seeds) without their wide CIs, which would flatten the rest."""
        fig.set_size_inches(DOUBLE_IN, 3.1)
        left, right = fig.subplots(1, 2)
        drawn = [Series(s.label, s.x, s.y) if is_sensitivity(s) else s for s in outcome.series]
        draw_series(left, [s for s in drawn if not is_gain(s)], style_of=variant_style)
        draw_series(right, [s for s in drawn if is_gain(s)], style_of=variant_style)
        if self.paper_gain is not None:
            right.plot(
                [self.headline_x * self.x_plot_scale],
                [self.paper_gain],
                marker="*",
                markersize=9,
                color="black",
                linestyle="none",
                label=f"paper: {self.paper_gain:+g}%",
            )
        right.axhline(0, color=GREY, linewidth=0.6)
        for ax, ylabel in ((left, self.ylabel), (right, "TCPW gain (%)")):
            finish_axes(ax, self.xlabel, ylabel, legend=False)
            if self.symlog_linthresh:
                ax.set_xscale("symlog", linthresh=self.symlog_linthresh, linscale=0.5)
                top = max(max(s.x) for s in outcome.series)
                ax.set_xlim(-0.2 * self.symlog_linthresh, top * 1.25)
            elif self.xscale:
                ax.set_xscale(self.xscale)
        fig.suptitle(figure_title(self))

    def plot_readings(self, outcome: Outcome, fig: Figure) -> None:
        """The alternative readings' throughputs on the left axes, their gains on the right; then
        one legend for both panels below them, off the data."""
        left, right = fig.axes[:2]
        for ax in (left, right):
            draw_reading_styles(
                ax,
                [(r.name, [s for s in r.series if is_gain(s) == (ax is right)]) for r in outcome.readings],
                outcome.main_reading if ax is left else "",
            )
        entries: dict[str, Any] = {}
        for ax in (left, right):
            for handle, label in zip(*ax.get_legend_handles_labels()):
                entries.setdefault(label, handle)
        fig.legend(list(entries.values()), list(entries), loc="outside lower center", ncol=4)


READING_STYLES = {"--": "dashed", ":": "dotted", "-.": "dash-dotted"}
"""Line style of the first, second, ... alternative reading, and its name in the legend."""


def draw_reading_styles(ax: Axes, readings: Sequence[tuple[str, Sequence[Series]]], main: str) -> None:
    """Alternative readings' series, (reading name, series), thin with × markers, in the colour of
    their variant and a line style per reading, so that two readings stay apart (the shared
    ``draw_readings`` dashes them all); one grey legend entry per reading and one for the main
    reading (solid) unless ``main`` is empty."""
    if not readings:
        return
    for (name, series), (style, style_name) in zip(readings, READING_STYLES.items()):
        for s in series:
            ax.plot(
                s.x, s.y, linestyle=style, marker="x", markersize=2.5, linewidth=0.8, color=variant_style(s)["color"]
            )
        ax.plot([], [], linestyle=style, color=GREY, label=f"{name} ({style_name})")
    if main:
        ax.plot([], [], linestyle="-", color=GREY, label=f"{main} (solid)")


VARIANT_STYLES = {"TCPW": (PALETTE[0], "o"), "Reno": (PALETTE[1], "s"), "SACK": (PALETTE[2], "^")}
"""Colour and marker of each variant; a gain over a variant takes that variant's."""


def is_gain(series: Series) -> bool:
    return series.label.startswith("gain")


def is_sensitivity(series: Series) -> bool:
    return "sensitivity" in series.label


def variant_style(series: Series) -> dict[str, Any]:
    """Line properties of a series by the variant its label names (a gain by its competitor);
    sensitivity series dashed and paler."""
    name = series.label.removeprefix("gain over ")
    variant = next((v for v in VARIANT_STYLES if name.startswith(v)), None)
    style: dict[str, Any] = {}
    if variant is not None:
        style["color"], style["marker"] = VARIANT_STYLES[variant]
    if is_sensitivity(series):
        style.update(linestyle="--", alpha=0.6)
    return style


def explain_gain(experiment: ThroughputSweep, t: Samples, context: str) -> Callable[[str, float], str]:
    """An explanation built from the measurements: the throughputs at the headline point, the
    range of gains the TCPW flavours of the sensitivity runs give (and whether the paper's value
    lies inside it), and the bound the link puts on any gain when TCPW nearly fills it."""

    def explain(other: str, paper: float) -> str:
        x = experiment.headline_x
        n = len(t[(x, "westwood[preset]")])
        ref = t[(x, other)][:n]
        flavours = {
            CONFIGS[c].label: mean(paired_gains(t[(x, c)][:n], ref))
            for c in ("westwood", "westwood[preset]", "westwood[newreno]", "westwood[fixed]")
        }
        flavours["TCPW and " + CONFIGS[other].label + " with a 1 s RTO floor"] = mean(
            paired_gains(t[(x, "westwood[rto1s]")], t[(x, f"{other}[rto1s]")])
        )
        lo, hi = min(flavours.values()), max(flavours.values())
        text = (
            f"{context} Measured here: {experiment.throughput_detail(t, x)}. Over the {n} seeds of the "
            f"sensitivity runs the gain over {CONFIGS[other].label} spans {lo:+.0f}% to {hi:+.0f}% with the TCP "
            "flavour ("
            + "; ".join(f"{k}: {v:+.0f}%" for k, v in flavours.items())
            + f"): the paper's {paper:+g}% "
            + ("lies inside that range." if lo <= paper <= hi else "lies outside it.")
        )
        capacity = experiment.capacity_bps(x) / 1e6
        w, r = mean(t[(x, "westwood")]), mean(t[(x, other)])
        if w > 0.85 * capacity:
            text += (
                f" TCPW already carries {w / capacity:.0%} of the {capacity:g} Mb/s link, so against this "
                f"{CONFIGS[other].label} no variant can gain more than {100 * (capacity / r - 1):+.0f}%."
            )
        return text

    return explain


GAIN_CONTEXT = (
    "The gain is a ratio of two throughputs that details the paper leaves to ns-2 set (TCPW's and Reno's reaction "
    "to a second loss in a window, RTO granularity); the paper reports no absolute throughputs to pin them."
)
