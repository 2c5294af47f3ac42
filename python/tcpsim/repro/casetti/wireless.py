"""Sec. 5.1 of `casetti`: independent (Bernoulli and bit) errors on the Fig. 8 wireless link
(fig9–fig12, snoop, batcp)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from tcpsim.repro import register
from tcpsim.repro.aggregate import fmt_ci, fmt_pct, mean, paired_gains
from tcpsim.repro.casetti import checks
from tcpsim.repro.casetti.common import (
    CONFIGS,
    GAIN_CONTEXT,
    HEADER_BYTES,
    MAIN,
    MIN_BUFFER_PKTS,
    MSS_BYTES,
    NS2_RTT_TICK,
    PACKET_BYTES,
    PAPER,
    WIRELESS_DELAY_S,
    Samples,
    ThroughputSweep,
    bernoulli,
    buffer_pkts,
    explain_gain,
    is_gain,
    variant_style,
    wireless_scenario,
)
from tcpsim.repro.framework import Claim, Experiment, MissCause, Number, Outcome, Reading, Series
from tcpsim.repro.plotting import DOUBLE_IN, GREY, PALETTE, error_bars, figure_legend, figure_title, finish_axes
from tcpsim.repro.sweep import Axis, Sweep
from tcpsim.runner import RunSpec
from tcpsim.tidy import RunKey

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from tcpsim.result import RunResult


# --- Sec. 5.1: independent errors ------------------------------------------------------------


@register
class Fig9(ThroughputSweep):
    id = "casetti.fig9"
    kind = "simulation"
    title = "Fig. 8 topology: throughput vs Bernoulli error rate of the wireless link"
    setup = (
        "The Fig. 8 topology: source —10 Mb/s, 45 ms— base station —2 Mb/s, 0.01 ms— mobile (RTT 90 ms), "
        "drop-tail buffers of one bandwidth-delay product, one bulk flow of 400-byte packets (360 B of "
        "payload) with ns-2's TCP of the time (delayed ACKs, 200 ms RTO floor, every timeout halving the "
        "window, TCPW reacting to every third duplicate ACK); Bernoulli errors 0…5 % on both directions of "
        "the wireless link; TCPW vs Reno vs SACK, 600 s (300 s in quick mode), the first 20 s excluded. "
        "Sensitivity runs at 1 %: TCPW as ns-2's Agent/TCP/Westwood, the TCPW preset with its recover guard, "
        "TCPW over NewReno recovery, TCPW with a fixed-coefficient filter and no null samples, and a 1 s RTO "
        "floor for all. Checked: TCPW's "
        "gain over Reno and over SACK largest at 1 %, and TCPW above both at every error rate > 0; numbers: "
        "the gains at 1 % against the paper's +394 %."
    )
    axis = "error_p"
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

    def analyze(self, results: Mapping[RunKey, RunResult], quick: bool) -> Outcome:
        t = self.table(results)
        out = self.base_outcome(t, quick, results)
        grid = [x for x in self.grid(quick) if x > 0]
        out.claims += self.peak_claims(t, grid, "1 % errors")
        above, test = checks.above_everywhere(
            {x: {CONFIGS[c].label: t[(x, c)] for c in MAIN} for x in grid}, CONFIGS["westwood"].label, self.label
        )
        out.claims.append(
            Claim(
                "TCPW above Reno and SACK at every error rate > 0",
                above,
                f"{test}. " + "; ".join(f"{x:.2%}: {self.throughput_detail(t, x)}" for x in grid),
            )
        )
        out.numbers += self.gain_numbers(t, 394.0, GAIN_CONTEXT)
        return out


@register
class Fig10(ThroughputSweep):
    """Fig. 10 (paper Sec. 5.1): the Fig. 8 topology with 0.5 % Bernoulli errors both ways on the
    wireless link, wired one-way delay swept from 0 to 250 ms.

    Two set-up parameters the paper leaves to ns-2 decide the two qualitative claims; the readings
    used here, and the evidence for them:

    - **Base-station buffer: the bandwidth-delay product, at least 5 packets** (the rule Sec. 4
      states, "intermediate node buffer capacity is always set equal to the bandwidth-delay
      product", with the 5-packet floor every casetti experiment uses where the BDP is under a
      few packets: below ~2 ms it is under two 400-byte packets, 0.01 at 0 ms, and ns-2's
      DropTail of the time, `drop-tail.cc` v1.9, drops every arrival when `limit_` ≤ 1). The
      paper states no other floor. With it, Reno, SACK and TCPW differ by 30–38 % below 5 ms,
      where the paper says "all protocols are equally effective".
    - **Alternative reading: a 50-packet floor** (ns-2's default `Queue set limit_ 50`,
      ns-default.tcl), under which every protocol keeps the link full at short delays. It was
      introduced as the main reading together with "both qualitative claims now pass", i.e.
      after seeing results, and the paper does not state it, so it is scored apart. It changes
      only the delays whose BDP is under 50 packets (below 40 ms); its other points are the main
      reading's runs.
    - **Receiver window: unlimited (main reading)**, as in every other casetti experiment
      (common set-up, fixed before fig10 was explored): the paper gives no window. Two
      alternative readings are run over the whole grid and scored apart: *64 KB window* (163
      packets, TCP's largest without window scaling, 65 535 B // 400 B: what a TCP of 2000
      advertised; the value was picked from an explored range, 100–256 packets and unlimited,
      because it gives both the +567 % at 100 ms and the fall beyond it, i.e. after seeing
      results), and *ns-2 default window_ 20* (`Agent/TCP set window_ 20`, ns-default.tcl, the
      tool's own default, which caps any protocol at 20 packets per RTT, 0.32 Mb/s at 100 ms).
      With the 64 KB ceiling TCPW, whose window grows with the path, becomes window-limited on
      the longest paths while Reno (≈ 10 packets) never does, so the gain falls beyond the peak:
      a window ceiling, not the stale bandwidth feedback the paper gives as its explanation.
    - RTT samples are exact; ns-2's 100 ms `tcpTick_` (the default until 2002), which also sets
      ns-2 TCPW's RTTmin (`min_rtt_estimate = t_rtt_ * tcp_tick_`, at least one tick, in the ns-2
      TCPW agent), is a sensitivity run at the short delays, 100 ms and the longest delay.
    """

    id = "casetti.fig10"
    kind = "simulation"
    miss_cause = MissCause(
        "setup",
        (
            "With the buffer rule the paper states (BDP, ≥ 5 packets) Reno, SACK and TCPW differ by 29 % and 32 %"
            " at 0 and 2 ms (quick; 30–38 % in full mode, issue 24) where the paper says all are equally "
            "effective; ns-2's default limit_ of 50 packets (alternative reading) brings that to 10 % and 12 %, "
            "but the paper does not state it. Without a receiver window the gain does not fall beyond 100 ms "
            "(+594 % at 100 ms, +601 % at 250 ms over Reno, quick); with a 64 KB window it falls (+589 % to +506 "
            "%), a window picked after seeing results, so an alternative reading."
        ),
    )
    title = "Fig. 8 topology, 0.5 % errors: throughput vs wired one-way delay"
    setup = (
        "The set-up of fig9 (the Fig. 8 topology) at 0.5 % errors with the wired one-way delay swept 0…250 "
        "ms; buffers are the bandwidth-delay product (Sec. 4) but at least 5 packets (a literal BDP is under "
        "two packets below 2 ms), and the receiver window is unlimited (main reading). Alternative readings: "
        '"64 KB window" (163 packets) and "ns-2 default window_ 20" over the whole grid, and a 50-packet '
        "floor of the base-station buffer (ns-2's default limit_) where it binds; sensitivity runs: RTT "
        "samples in ns-2's 100 ms ticks, and fig9's TCPW and RTO variants at 100 ms. Checked: TCPW's gain over Reno and SACK "
        "peaks at about 100 ms and falls beyond it, and all protocols are within 15 % of each other below 5 "
        "ms; numbers: the gains at 100 ms against the paper's +567 %."
    )
    axis = "wired_delay_s"
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
    min_buffer_pkts = MIN_BUFFER_PKTS
    """Floor of the base-station (wireless) buffer in the main reading: that of every casetti
    experiment (the paper states only "buffer = BDP")."""
    ns2_limit_pkts = 50
    """Floor of the base-station buffer in the alternative reading ``floor_reading``: ns-2's
    default queue ``limit_``."""
    floor_reading = "base-station buffer ≥ 50 packets (ns-2 default limit_)"
    floor_hypothesis = (
        "The authors' base station kept ns-2's default queue limit_ of 50 packets wherever the BDP is smaller "
        "(below 40 ms), so that every protocol keeps the link full at short delays as the paper says; the paper "
        "states only buffer = BDP, and this floor was adopted after seeing that it makes both claims pass."
    )
    windows = {
        "64 KB window": (
            163,
            (
                "The senders' window was TCP's 64 KB maximum without window scaling (163 packets of 400 B), as a "
                "TCP of 2000 advertised; picked from explored windows of 100–256 packets because it gives both "
                "the +567 % at 100 ms and the fall beyond (chosen after seeing results)."
            ),
        ),
        "ns-2 default window_ 20": (
            20,
            (
                "The scripts kept ns-2's default Agent/TCP window_ of 20 packets (ns-default.tcl), since the paper "
                "sets no window."
            ),
        ),
    }
    """Alternative readings: name → (receiver window in 400-byte packets, hypothesis)."""

    def scenario(
        self, config: str, x: float, quick: bool, floor: int | None = None, rwnd_pkts: int | None = None
    ) -> dict[str, Any]:
        """`floor` None = `min_buffer_pkts`; `rwnd_pkts` None = unlimited (the main reading)."""
        scenario = wireless_scenario(
            config,
            loss=bernoulli(self.error_p),
            wired_delay_s=x,
            min_buffer_pkts=self.min_buffer_pkts if floor is None else floor,
            duration_s=self.duration(quick),
            warmup_s=self.warmup_s,
        )
        if rwnd_pkts is not None:
            scenario["tcp"] = {**scenario["tcp"], "rwnd": f"{rwnd_pkts * MSS_BYTES}B"}
        return scenario

    def floor_grid(self, quick: bool) -> list[float]:
        """The delays at which the 50-packet floor binds (BDP under 50 packets)."""
        return [
            x
            for x in self.grid(quick)
            if buffer_pkts(2e6, 2 * (x + WIRELESS_DELAY_S), self.min_buffer_pkts) < self.ns2_limit_pkts
        ]

    def small_grid(self, quick: bool) -> list[float]:
        return [x for x in self.grid(quick) if x < self.small_delay_s]

    def tick_grid(self, quick: bool) -> list[float]:
        """x values of the 100 ms RTT-tick sensitivity runs: the short delays, 100 ms and the longest."""
        return self.small_grid(quick) + [self.headline_x, self.grid(quick)[-1]]

    def tick_scenario(self, config: str, x: float, quick: bool) -> dict[str, Any]:
        scenario = self.scenario(config, x, quick)
        scenario["tcp"] = {**scenario["tcp"], **NS2_RTT_TICK}
        return scenario

    def runs(self, quick: bool, seeds: int | None) -> list[RunSpec]:
        """The main sweep, each window reading over the whole grid and the 50-packet floor where it
        binds (key ``reading``), and the sensitivity runs (key ``kind``): 100 ms RTT ticks."""
        sens = self.sensitivity_seeds(quick, seeds)
        specs = super().runs(quick, seeds)
        for name, (window, _) in self.windows.items():
            specs += self.point_specs(
                self.grid(quick),
                MAIN,
                self.replications(quick, seeds),
                lambda c, x, w=window: self.scenario(c, x, quick, rwnd_pkts=w),
                reading=name,
            )
        specs += self.point_specs(
            self.floor_grid(quick),
            MAIN,
            self.replications(quick, seeds),
            lambda c, x: self.scenario(c, x, quick, floor=self.ns2_limit_pkts),
            reading=self.floor_reading,
        )
        return specs + self.point_specs(
            self.tick_grid(quick), MAIN, sens, lambda c, x: self.tick_scenario(c, x, quick), kind="tick"
        )

    def setup_note(self, quick: bool) -> str:
        return super().setup_note(quick) + "; receiver window unlimited (main reading; see the class docstring)"

    def tagged_detail(self, t: Samples, xs: Sequence[float], gain: bool = True) -> str:
        """Per x of a sensitivity run's samples `t`: each variant's throughput (and the gain)."""

        def one(x: float) -> str:
            text = f"{x * 1e3:g} ms: " + ", ".join(f"{CONFIGS[c].label} {fmt_ci(t[(x, c)])}" for c in MAIN)
            if gain:
                text += f" Mb/s, gain over Reno {fmt_pct(paired_gains(t[(x, 'westwood')], t[(x, 'reno')]))}"
                return text
            return text + " Mb/s"

        return "; ".join(one(x) for x in xs)

    def judge(self, t: Samples, quick: bool) -> tuple[list[Claim], list[Number]]:
        """Claims and numbers of one reading from its samples (x, config) → per-seed Mb/s."""
        grid = list(self.grid(quick))
        claims = self.peak_claims(t, grid, "about 100 ms")
        for x in self.small_grid(quick):
            claims.append(
                Claim(
                    f"all protocols equally effective below ~5 ms (at {self.label(x)})",
                    *checks.equal_within({CONFIGS[c].label: mean(t[(x, c)]) for c in MAIN}, self.equal_within),
                )
            )
        for other in ("reno", "sack"):
            beyond = {x: paired_gains(t[(x, "westwood")], t[(x, other)]) for x in grid if x >= self.headline_x}
            claims.append(
                Claim(
                    f"TCPW's gain over {CONFIGS[other].label} decreases beyond 100 ms",
                    *checks.falls_beyond(beyond, self.headline_x, self.label),
                )
            )
        return claims, [self.gain_number(t, other, 567.0) for other in ("reno", "sack")]

    def analyze(self, results: Mapping[RunKey, RunResult], quick: bool) -> Outcome:
        t = self.table(results)
        out = self.base_outcome(t, quick, results)
        out.main_reading = "paper: receiver window unlimited"
        out.claims, out.numbers = self.judge(t, quick)
        for name, (_, hypothesis) in self.windows.items():
            view = self.table(results, reading=name)
            claims, numbers = self.judge(view, quick)
            out.readings.append(
                Reading(name, hypothesis, claims=claims, numbers=numbers, series=self.base_outcome(view, quick).series)
            )
        floored = {**t, **self.table(results, reading=self.floor_reading)}
        claims, numbers = self.judge(floored, quick)
        out.readings.append(
            Reading(
                self.floor_reading,
                self.floor_hypothesis,
                claims=claims,
                numbers=numbers,
                series=self.base_outcome(floored, quick).series,
                notes=[
                    f"runs of its own at {', '.join(self.label(x) for x in self.floor_grid(quick))} (BDP under "
                    f"{self.ns2_limit_pkts} packets); the main reading's runs elsewhere"
                ],
            )
        )
        out.notes.append(
            f"base-station buffer = BDP, at least {self.min_buffer_pkts} packets (the paper's rule; the BDP is under "
            "two packets below 2 ms); the 50-packet floor is an alternative reading. Sensitivity with RTT samples in "
            "100 ms ticks (ns-2's tcpTick_ of 2000–2001; ns-2's TCPW then takes RTTmin ≥ 100 ms): "
            + self.tagged_detail(self.table(results, kind="tick"), self.tick_grid(quick))
        )
        return out


@register
class Fig11(ThroughputSweep):
    id = "casetti.fig11"
    kind = "simulation"
    title = "Fig. 8 topology, 0.5 % errors, RTT 45 ms: throughput vs wireless capacity"
    setup = (
        "The set-up of fig9 (the Fig. 8 topology) at 0.5 % errors with the RTT of 45 ms the text gives "
        "(wired one-way delay 22.49 ms) and the wireless capacity swept 1…8 Mb/s (the buffers follow the "
        "bandwidth-delay product); TCPW vs Reno vs SACK, with fig9's sensitivity runs at 8 Mb/s. Checked: "
        "TCPW's gain over Reno and over SACK increases with the capacity; numbers: the gains at 8 Mb/s "
        "against the paper's +550 %."
    )
    axis = "wireless_rate_bps"
    xlabel = "wireless link capacity (Mb/s)"
    grid_full = (1e6, 2e6, 3e6, 4e6, 5e6, 6e6, 7e6, 8e6)
    grid_quick = (1e6, 2e6, 4e6, 6e6, 8e6)
    headline_x = 8e6
    x_plot_scale = 1e-6
    x_unit = " Mb/s"
    paper_gain = 550.0
    error_p = 0.005
    rtt_s = 0.045
    """The text says "the round trip time is 45 ms": wired one-way delay
    22.49 ms. (The Fig. 8 default is 45 ms one way, i.e. RTT 90 ms: see the notes.)"""

    def capacity_bps(self, x: float) -> float:
        return x

    def scenario(self, config: str, x: float, quick: bool) -> dict[str, Any]:
        return wireless_scenario(
            config,
            loss=bernoulli(self.error_p),
            wireless_rate_bps=x,
            wired_delay_s=self.rtt_s / 2 - WIRELESS_DELAY_S,
            duration_s=self.duration(quick),
            warmup_s=self.warmup_s,
        )

    def analyze(self, results: Mapping[RunKey, RunResult], quick: bool) -> Outcome:
        t = self.table(results)
        out = self.base_outcome(t, quick, results)
        out.claims += self.increase_claims(t, list(self.grid(quick)), "the wireless capacity")
        out.numbers += self.gain_numbers(t, 550.0, GAIN_CONTEXT)
        return out


@register
class Fig12(Experiment):
    id = "casetti.fig12"
    kind = "simulation"
    title = "cwnd and ssthresh of TCPW and Reno over the lossy link (0.5 % errors)"
    setup = (
        "The set-up of fig9 (the Fig. 8 topology) with 0.5 % Bernoulli errors both ways (the paper gives no "
        "rate for these traces: that of figs. 10–11), one TCPW or one Reno flow, 100 s traced every 100 ms, "
        "statistics from 10 s on. Checked: TCPW's time-averaged cwnd and ssthresh significantly above "
        "Reno's (Welch, 95 %) and above in at least 80 % of the 10 s windows (seeds paired); the figure "
        "shows the first seed."
    )
    paper = PAPER
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
        return Sweep(Axis("config", self.variants)).specs(
            lambda config: wireless_scenario(
                config, loss=bernoulli(self.error_p), duration_s=self.duration_s, warmup_s=0.0, trace=trace
            ),
            quick,
            self.replications(quick, seeds),
        )

    def analyze(self, results: Mapping[RunKey, RunResult], quick: bool) -> Outcome:
        edges = np.arange(self.skip_s, self.duration_s + 1e-9, self.window_s)
        means: dict[tuple[str, str], list[float]] = {}
        windows: dict[tuple[str, str], list[np.ndarray]] = {}
        series = []
        first_seed = min(key["seed"] for key in results)
        for key, r in sorted(results.items(), key=lambda kv: kv[0]["seed"]):
            config, seed = key["config"], key["seed"]
            trace = r.trace("cwnd")
            trace = trace[trace["time_s"] >= self.skip_s]
            for col in ("cwnd_bytes", "ssthresh_bytes"):
                values = trace[col].to_numpy(dtype=float) / MSS_BYTES
                means.setdefault((config, col), []).append(float(values.mean()))
                idx = np.digitize(trace["time_s"].to_numpy(), edges) - 1
                windows.setdefault((config, col), []).append(
                    np.array([values[idx == i].mean() for i in range(len(edges) - 1)])
                )
            if seed == first_seed:
                full = r.trace("cwnd")
                ss = (full["ssthresh_bytes"] / MSS_BYTES).to_numpy(dtype=float, copy=True)
                ss[ss > 1e5] = np.nan  # "infinite" before the first loss
                label = CONFIGS[config].label
                series += [
                    Series(
                        f"{label} cwnd (seed {seed})",
                        full["time_s"].tolist(),
                        (full["cwnd_bytes"] / MSS_BYTES).tolist(),
                    ),
                    Series(f"{label} ssthresh (seed {seed})", full["time_s"].tolist(), ss.tolist()),
                ]
        claims = []
        for col, name in (("cwnd_bytes", "cwnd"), ("ssthresh_bytes", "ssthresh")):
            claims.append(
                Claim(
                    f"TCPW's {name} stays consistently higher than Reno's",
                    *checks.consistently_higher(
                        means[("westwood", col)],
                        means[("reno", col)],
                        windows[("westwood", col)],
                        windows[("reno", col)],
                        self.consistently,
                    ),
                )
            )
        return Outcome(
            series=series,
            claims=claims,
            notes=[
                f"{len(means[('reno', 'cwnd_bytes')])} seeds; Fig. 8 topology (2 Mb/s wireless, RTT 90 ms, buffer "
                f"{buffer_pkts(2e6, 0.09002)} packets), {self.error_p:.1%} Bernoulli errors both ways (the paper does not give "
                f"the rate of Figs. 12–13; 0.5 % is that of Figs. 10–11); {self.duration_s:g} s sampled every 100 ms; "
                f"statistics after {self.skip_s:g} s; the plot shows the first seed",
                "TCPW's cwnd spikes are Reno-style fast-recovery inflation (cwnd + 3, +1 per further duplicate ACK, "
                "deflated to min(cwnd, BWE·RTTmin) at the end); ns-2's TCPW agent did not inflate",
            ],
        )

    def plot(self, outcome: Outcome, fig: Figure) -> None:
        """One panel per variant (the paper's Figs. 12 and 13): cwnd solid, ssthresh dashed; one
        legend below."""
        fig.set_size_inches(DOUBLE_IN, 2.8)
        axes = fig.subplots(1, 2, sharey=True)
        for ax, label, color in zip(axes, ("TCPW", "Reno"), PALETTE):
            for s in outcome.series:
                if s.label.startswith(label + " "):
                    ax.plot(
                        s.x,
                        s.y,
                        color=color if "cwnd" in s.label else "black",
                        linestyle="-" if "cwnd" in s.label else "--",
                        linewidth=0.7,
                        label=s.label,
                    )
            finish_axes(ax, self.xlabel, self.ylabel if ax is axes[0] else "", legend=False)
            ax.set_title(f"{label} over the lossy link")
        handles, labels = (sum(pair, []) for pair in zip(*(ax.get_legend_handles_labels() for ax in axes)))
        fig.legend(handles, labels, loc="outside lower center", ncol=4)
        fig.suptitle(figure_title(self))


class _BitErrors(ThroughputSweep):
    """One point: the Fig. 8 topology with the wired delay set for a given RTT and independent bit
    errors on the wireless link (both directions); TCPW vs Reno (and SACK). The sweep's one x
    (``point`` 0) carries the headline sensitivity runs like every other sweep's."""

    one_per: str
    rtt_s: float
    paper_value: float
    axis = "point"
    grid_full = (0.0,)
    grid_quick = (0.0,)
    headline_x = 0.0
    compare = ("reno", "sack")

    def scenario(self, config: str, x: float, quick: bool) -> dict[str, Any]:
        loss = [{"kind": "bit_error", "one_per": self.one_per, "direction": "both"}]
        return wireless_scenario(
            config,
            loss=loss,
            wired_delay_s=self.rtt_s / 2 - WIRELESS_DELAY_S,
            duration_s=self.duration(quick),
            warmup_s=self.warmup_s,
        )

    def per_packet_loss(self) -> str:
        ber = 1 / (8 * {"64KiB": 65536, "100KiB": 102400}[self.one_per])
        data = 1 - (1 - ber) ** (8 * PACKET_BYTES)
        ack = 1 - (1 - ber) ** (8 * HEADER_BYTES)
        return f"BER {ber:.3g}: a 400-byte data packet is lost with p = {data:.4f}, a 40-byte ACK with {ack:.5f}"

    def base(self, results: Mapping[RunKey, RunResult], quick: bool) -> tuple[Samples, Outcome, list[float]]:
        t = self.table(results)
        out = self.base_outcome(t, quick, results)
        gains = paired_gains(t[(0.0, "westwood")], t[(0.0, "reno")])
        out.notes.append(
            f"Fig. 8 topology (10 Mb/s wired, 2 Mb/s wireless) with the wired one-way delay set to "
            f"{(self.rtt_s / 2 - WIRELESS_DELAY_S) * 1e3:.2f} ms for an RTT of {self.rtt_s * 1e3:g} ms "
            f"(the paper does not describe its topology for this comparison); one bit error per "
            f"{self.one_per} in both directions: {self.per_packet_loss()}"
        )
        explain = explain_gain(
            self,
            t,
            GAIN_CONTEXT + " The topology of this comparison is not given either "
            "(here: Fig. 8 with the wired delay changed).",
        )
        out.numbers.append(
            self.gain_number(
                t,
                "reno",
                self.paper_value,
                explain,
                f"TCPW gain over Reno, 1 bit error per {self.one_per[:-3]} KB, RTT {self.rtt_s * 1e3:g} ms (%)",
            )
        )
        return t, out, gains

    def plot(self, outcome: Outcome, fig: Figure) -> None:
        """Bars with clipped 95 % CIs: throughputs (left), gains against the paper's and the
        published values (right)."""
        fig.set_size_inches(DOUBLE_IN, 2.6)
        left, right = fig.subplots(1, 2, width_ratios=(3, 2))
        for ax, group in (
            (left, [s for s in outcome.series if not is_gain(s)]),
            (right, [s for s in outcome.series if is_gain(s)]),
        ):
            bars = [error_bars(s) for s in group]
            ax.bar(
                [s.label.replace(" (%)", "") for s in group],
                [b[0][0] for b in bars],
                width=0.6,
                yerr=[[b[1][0] for b in bars], [b[2][0] for b in bars]],
                color=[variant_style(s)["color"] for s in group],
                error_kw={"elinewidth": 0.7},
            )
            ax.grid(axis="x", visible=False)
        finish_axes(left, ylabel=self.ylabel)
        right.axhline(
            self.paper_value,
            color="black",
            linestyle="--",
            linewidth=0.8,
            label=f"paper: {self.paper_value:+g}% over Reno",
        )
        for (value, name), style in zip(self.published, (":", "-.")):
            right.axhline(value, color=GREY, linestyle=style, linewidth=0.8, label=f"{name} (published): {value:+g}%")
        finish_axes(right, ylabel="TCPW gain (%)", legend=False)
        figure_legend(fig, right, columns=3)
        fig.suptitle(figure_title(self))

    def plot_readings(self, outcome: Outcome, fig: Figure) -> None:
        """No alternative readings: the bars keep their own legend."""

    published: tuple[tuple[float, str], ...] = ()


@register
class Snoop(_BitErrors):
    id = "casetti.snoop"
    kind = "simulation"
    miss_cause = MissCause(
        "setup",
        (
            "TCPW's gain over Reno at one bit error per 64 KiB (p ≈ 0.006 per 400-byte packet, RTT 135 ms) "
            "depends on the ns-2 settings the paper leaves unstated, as in fig9 (the TCPW agent's flavour, the "
            "RTO floor, the receiver window): its sensitivity runs at this point, in the notes, show how far each"
            " moves it from the paper's +382 %."
        ),
    )
    title = "1 bit error per 64 KB, RTT 135 ms: TCPW vs Reno and SACK"
    setup = (
        "The set-up of fig9 (the Fig. 8 topology) with the wired delay set for an RTT of 135 ms and one bit "
        "error per 64 KiB on both directions of the wireless link (a 400-byte packet is lost with p ≈ "
        "0.006); TCPW, Reno and SACK, with fig9's sensitivity runs. Snoop and ELN are not simulated: their "
        "gains are the published ones the paper quotes. Checked: TCPW's gain over Reno closer to Snoop's "
        "+400 % than to ELN's +200 % (its whole 95 % CI above +300 %); number: that gain against the "
        "paper's +382 %."
    )
    one_per = "64KiB"
    rtt_s = 0.135
    paper_value = 382.0
    published = ((400.0, "Snoop"), (200.0, "ELN"))

    def analyze(self, results: Mapping[RunKey, RunResult], quick: bool) -> Outcome:
        t, out, gains = self.base(results, quick)
        closer, test = checks.closer_to(gains, 400.0, 200.0)
        out.claims.append(
            Claim(
                "TCPW's gain over Reno is closer to Snoop's published ≈ +400 % than to ELN's ≈ +200 %",
                closer,
                f"{test}; {self.throughput_detail(t, 0.0)}",
            )
        )
        out.notes.append(
            "Snoop and ELN are not simulated: their gains are the published ones the paper quotes (Balakrishnan et al.)"
        )
        return out


@register
class BaTcp(_BitErrors):
    id = "casetti.batcp"
    kind = "simulation"
    miss_cause = MissCause(
        "setup",
        (
            "TCPW's gain over Reno at one bit error per 100 KiB (p ≈ 0.004, RTT 40 ms) depends on the ns-2 "
            "settings the paper leaves unstated, as in fig9 (the TCPW agent's flavour, the RTO floor, the "
            "receiver window): its sensitivity runs, in the notes, show how far each moves it from the paper's "
            "+161 %."
        ),
    )
    title = "1 bit error per 100 KB, RTT 40 ms: TCPW vs Reno and SACK"
    setup = (
        "The set-up of fig9 (the Fig. 8 topology) with the wired delay set for an RTT of 40 ms and one bit "
        "error per 100 KiB on both directions of the wireless link (a 400-byte packet is lost with p ≈ "
        "0.004); TCPW, Reno and SACK, with fig9's sensitivity runs. BA-TCP, which needs router support, is "
        "not simulated: +202 % is the gain the paper quotes for it. Checked: the 95 % CI of TCPW's gain over "
        "Reno lies between 0 and +202 %; number: that gain against the paper's +161 %."
    )
    one_per = "100KiB"
    rtt_s = 0.040
    paper_value = 161.0
    published = ((202.0, "BA-TCP"),)

    def analyze(self, results: Mapping[RunKey, RunResult], quick: bool) -> Outcome:
        t, out, gains = self.base(results, quick)
        ok, test = checks.between(gains, 0.0, 202.0)
        out.claims.append(
            Claim(
                "TCPW improves on Reno without router support, though less than BA-TCP's published +202 %",
                ok,
                f"{test}; {self.throughput_detail(t, 0.0)}",
            )
        )
        out.notes.append(
            "BA-TCP is not simulated (it needs routers that measure fair shares): +202 % is the gain the paper quotes"
        )
        return out
