"""Sec. I of `podlesny`: the unfairness that motivates RD services (Fig. 1), one NewReno and one
Vegas flow sharing a drop-tail bottleneck."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from tcpsim.repro import register
from tcpsim.repro.aggregate import FRACTION, summarize
from tcpsim.repro.framework import Claim, Experiment, Number, Outcome, Reading, Series
from tcpsim.repro.plotting import DOUBLE_IN, PALETTE, figure_legend, figure_title, finish_axes
from tcpsim.repro.podlesny import checks
from tcpsim.repro.podlesny.common import (
    BIN_S,
    DURATION_S,
    NS2_WINDOW,
    PAPER,
    REPLICATIONS,
    WARMUP_S,
    WIRE_BYTES,
    WIRE_PER_PAYLOAD,
    buffer_pkts,
    dumbbell_scenario,
    link_share,
    vegas_tcp,
)
from tcpsim.repro.table import MAIN
from tcpsim.runner import RunSpec
from tcpsim.tidy import RunKey

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from tcpsim.result import RunResult

NEWRENO, VEGAS = "newreno0", "vegas1"
LABELS = {NEWRENO: "NewReno", VEGAS: "Vegas"}
WINDOW20 = "ns-2 window_ 20"
WINDOW20_HYPOTHESIS = (
    "the script kept ns-2.29's default receiver window `window_` of 20 packets, which caps each flow at 20 "
    "packets per RTT; the paper's own 92 % argues against it, since 20 packets per 100 ms carry at most 80 % of "
    "the 2 Mb/s link"
)
EXACT_DELTA = "sensitivity: exact δ"
"""Sensitivity runs: α 1, β 3, γ 1 compared with the exact δ (Brakmo & Peterson), not ns-2's rounded one."""


@register
class Fig1(Experiment):
    id = "podlesny.fig1"
    kind = "simulation"
    title = "one NewReno and one Vegas flow on a 2 Mb/s drop-tail bottleneck"
    setup = (
        "One NewReno and one Vegas flow (α = 1, β = 3 as ns-2.29's Vegas applies them) share a 2 Mb/s, 10 ms "
        "drop-tail bottleneck of the paper's dumbbell (200 Mb/s access links) for 60 s; round-trip "
        "propagation delay 100 ms and a buffer of C·250 ms = 62 packets (both assumed: the paper gives neither "
        "for Fig. 1); 1 KB packets, ns-2.29's TCP defaults (no delayed ACKs, initial window 2, minimum RTO "
        "200 ms) with an unlimited receiver window; flows start uniformly in [0, 1] s; 5 replications, the "
        "first 5 s excluded. Per-flow throughput in 0.2 s bins as the paper's Fig. 1. Checked: NewReno's "
        "share of the link ≈ 92 % (±3 points), NewReno above Vegas in ≥ 90 % of the 0.2 s bins of every "
        "replication, Vegas's share below 10 % (95 % CI), and NewReno filling the buffer (mean queue ≥ half "
        "of it, with drops). Alternative reading: ns-2's default receiver window of 20 packets."
    )
    paper = PAPER
    xlabel = "time (s)"
    ylabel = "throughput (Mb/s)"
    seeds_full = REPLICATIONS
    seeds_quick = REPLICATIONS
    """Quick mode is the paper's set-up: the five runs take well under a second."""
    capacity_bps = 2e6
    rtt_s = 0.100
    paper_share = 0.92
    share_points = 0.03
    """The paper's "approximately 92 %", read in points of the link (see the number's precision)."""
    dominance = 0.90
    """NewReno above Vegas in at least this fraction of the 0.2 s bins, every replication."""
    very_little = 0.10
    """Vegas "receives very little": below a tenth of the link."""
    buffer_fraction = 0.5

    def scenario(self, **tcp: Any) -> dict[str, Any]:
        return dumbbell_scenario(("newreno", "vegas"), bottleneck_bps=self.capacity_bps, rtt_s=self.rtt_s, tcp=tcp)

    def scenarios(self) -> dict[str, dict[str, Any]]:
        """The main reading, the alternative reading and the sensitivity runs, by name."""
        exact = self.scenario()
        exact["flows"][1]["tcp"] = vegas_tcp(diff_rounding="none")
        return {MAIN: self.scenario(), WINDOW20: self.scenario(**NS2_WINDOW), EXACT_DELTA: exact}

    def runs(self, quick: bool, seeds: int | None) -> list[RunSpec]:
        return [
            RunSpec(key=RunKey(reading=name, seed=seed), scenario=scenario, seed=seed)
            for name, scenario in self.scenarios().items()
            for seed in self.replications(quick, seeds)
        ]

    def judge(self, results: Mapping[RunKey, RunResult]) -> tuple[list[Claim], list[Number], list[Series], dict]:
        """Claims, the number and the series of one reading's runs; and its per-seed figures."""
        runs = [results[k] for k in sorted(results, key=lambda k: k["seed"])]
        shares = {f: [link_share(r, f, self.capacity_bps) for r in runs] for f in LABELS}
        bins = {f: [self.steady_bins(r, f) for r in runs] for f in LABELS}
        bottleneck = [r.links[(r.links["name"] == "bottleneck") & (r.links["direction"] == "ab")].iloc[0] for r in runs]
        queues = [float(b["queue_mean_pkts"]) for b in bottleneck]
        drops = [float(b["drops_queue"]) for b in bottleneck]
        buffer = buffer_pkts(self.capacity_bps)
        newreno = summarize(shares[NEWRENO], FRACTION)
        claims = [
            Claim(
                "NewReno dominates in steady state: above Vegas in (nearly) every 0.2 s interval",
                *checks.dominates_throughout(bins[NEWRENO], bins[VEGAS], self.dominance),
            ),
            Claim(
                "the Vegas flow receives very little of the link",
                *checks.below(shares[VEGAS], self.very_little, "Vegas's share of the link"),
            ),
            Claim(
                "the loss-based flow fills the bottleneck buffer",
                *checks.fills_buffer(queues, drops, buffer, self.buffer_fraction),
            ),
        ]
        number = Number(
            "NewReno's share of the 2 Mb/s link, 5–60 s",
            self.paper_share,
            newreno["mean"],
            tolerance=self.share_points / self.paper_share,
            precision=(
                "the paper's 'approximately 92 %' of the link, read from one run's 0.2 s time series: ±3 points "
                "(a relative 15 % would accept any share from 78 %)"
            ),
        )
        first = runs[0]
        tp = first.trace("throughput")
        series = []
        for flow, label in LABELS.items():
            rows = tp[tp["flow_name"] == flow]
            series.append(
                Series(
                    f"{label} (replication 1)",
                    (rows["time_s"] + BIN_S / 2).tolist(),
                    (rows["throughput_bps"] * WIRE_PER_PAYLOAD / 1e6).tolist(),
                )
            )
        q = first.trace("queue")
        q = q[(q["link"] == "bottleneck") & (q["direction"] == "ab")]
        series.append(Series("bottleneck queue (packets, replication 1)", q["time_s"].tolist(), q["packets"].tolist()))
        cw = first.trace("cwnd")
        cw = cw[cw["flow_name"] == VEGAS]
        series.append(
            Series("Vegas cwnd (packets, replication 1)", cw["time_s"].tolist(), (cw["cwnd_bytes"] / 1000).tolist())
        )
        stats = {f: summarize(shares[f], FRACTION) for f in LABELS}
        series.append(
            Series(
                "share of the link (mean, 95 % CI)",
                [LABELS[f] for f in LABELS],
                [stats[f]["mean"] for f in LABELS],
                [stats[f]["ci_low"] for f in LABELS],
                [stats[f]["ci_high"] for f in LABELS],
                FRACTION,
            )
        )
        steady = [cw_mean(r) for r in runs]
        figures = {"shares": shares, "queues": queues, "drops": drops, "vegas_cwnd": steady}
        return claims, [number], series, figures

    @staticmethod
    def steady_bins(r: RunResult, flow: str) -> np.ndarray:
        tp = r.trace("throughput")
        rows = tp[(tp["flow_name"] == flow) & (tp["time_s"] >= WARMUP_S)]
        return rows["throughput_bps"].to_numpy(dtype=float)

    def analyze(self, results: Mapping[RunKey, RunResult], quick: bool) -> Outcome:
        by_reading: dict[str, dict[RunKey, RunResult]] = {}
        for key, r in results.items():
            by_reading.setdefault(key["reading"], {})[key] = r
        claims, numbers, series, main = self.judge(by_reading[MAIN])
        alt_claims, alt_numbers, alt_series, alt = self.judge(by_reading[WINDOW20])
        *_, exact = self.judge(by_reading[EXACT_DELTA])
        n = len(by_reading[MAIN])
        queue = float(np.mean(main["queues"]))
        vegas_cwnd = float(np.mean(main["vegas_cwnd"]))
        vegas_share = float(np.mean(main["shares"][VEGAS]))
        queueing_s = queue * WIRE_BYTES * 8 / self.capacity_bps
        vegas_queued = vegas_cwnd * queueing_s / (self.rtt_s + queueing_s)
        notes = [
            f"{n} replications of {DURATION_S:g} s, the first {WARMUP_S:g} s excluded; shares are delivered packets × "
            f"{WIRE_BYTES} bytes (1000 of payload + ns-2.29's 40-byte header) over the 2 Mb/s capacity",
            "assumed (the paper gives neither for Fig. 1): round-trip propagation delay 100 ms (two 20 ms access "
            f"links each way and the 10 ms bottleneck) and a drop-tail buffer of C·250 ms = {buffer_pkts(self.capacity_bps)} "
            "1 KB packets, the rule of the paper's other experiments",
            "ns-2.29 defaults for what the paper leaves open: TCPSink (an ACK per packet), windowInit_ 2, minrto_ "
            "200 ms, tcpTick_ 10 ms, NewReno recovery (RFC 2582); the receiver window unlimited, because ns-2's "
            "window_ of 20 packets cannot give the paper's 92 % (alternative reading)",
            "Vegas as ns-2.29's tcp-vegas.cc (the ns2 flavour): δ rounded to an integer before comparing with "
            "α = 1, β = 3, γ = 1, δ from the packets outstanding after the round's closing ACK, the round's mean RTT, "
            "a decision every round, growth per ACK while the window is used",
            f"why NewReno gets ≈ 92 %: NewReno keeps the queue at {queue:.0f} packets on average, so Vegas's RTT is "
            f"≈ {(self.rtt_s + queueing_s) * 1e3:.0f} ms against its BaseRTT of ≈ {self.rtt_s * 1e3:.0f} ms; Vegas holds "
            f"its window (mean {vegas_cwnd:.1f} packets) where δ, the packets it keeps queued (≈ {vegas_queued:.1f}), "
            f"stays between its thresholds, and a FIFO gives it the share of the link it has of the queue "
            f"({vegas_share:.1%}); Vegas lost no packet in any run, so its loss response (and ns-2's BaseRTT reset "
            "after a round of one packet) plays no part",
            "sensitivity, Vegas comparing the exact δ with α 1, β 3, γ 1 (no rounding): NewReno "
            f"{np.mean(exact['shares'][NEWRENO]):.1%}, Vegas {np.mean(exact['shares'][VEGAS]):.1%} of the link",
        ]
        reading = Reading(
            WINDOW20,
            WINDOW20_HYPOTHESIS,
            claims=alt_claims,
            numbers=alt_numbers,
            series=alt_series,
            notes=[
                f"NewReno {np.mean(alt['shares'][NEWRENO]):.1%}, Vegas {np.mean(alt['shares'][VEGAS]):.1%} of the link; "
                f"mean queue {np.mean(alt['queues']):.1f} packets"
            ],
        )
        return Outcome(series=series, claims=claims, numbers=numbers, notes=notes, readings=[reading])

    def plot(self, outcome: Outcome, fig: Figure) -> None:
        """(a) per-flow throughput in 0.2 s bins, (b) the bottleneck queue and Vegas's window, both
        replication 1 of the main reading; (c) each reading's mean shares with the paper's 92 %."""
        fig.set_size_inches(DOUBLE_IN, 2.6)
        ax_tp, ax_q, ax_share = fig.subplots(1, 3, width_ratios=(2.2, 2.2, 1.2))
        newreno, vegas, queue, cwnd, _ = outcome.series
        for s, color in ((newreno, PALETTE[0]), (vegas, PALETTE[1])):
            ax_tp.plot(s.x, s.y, color=color, linewidth=0.7, label=s.label)
        ax_tp.axvline(WARMUP_S, color="0.6", linewidth=0.6, linestyle=":")
        finish_axes(ax_tp, self.xlabel, self.ylabel, legend_loc="center right")
        # Data held at the receiver behind a lost packet is delivered in one bin when the
        # retransmission arrives: those spikes (up to several Mb/s) are cut at the axis.
        ax_tp.set_ylim(0, 1.3 * self.capacity_bps / 1e6)
        ax_tp.set_title("(a) throughput, 0.2 s bins (spikes cut)")
        ax_q.plot(queue.x, queue.y, color=PALETTE[2], linewidth=0.7, label="bottleneck queue")
        ax_q.plot(cwnd.x, cwnd.y, color=PALETTE[1], linewidth=0.7, label="Vegas cwnd")
        ax_q.axhline(buffer_pkts(self.capacity_bps), color="0.6", linewidth=0.6, linestyle="--", label="buffer")
        finish_axes(ax_q, self.xlabel, "packets", legend_loc="center right")
        ax_q.set_title("(b) queue and Vegas window")
        self.plot_shares(ax_share, outcome)
        fig.suptitle(figure_title(self))

    def plot_shares(self, ax: Any, outcome: Outcome) -> None:
        groups = [("paper's set-up", outcome.series[-1])] + [(r.name, r.series[-1]) for r in outcome.readings]
        width = 0.8 / len(groups)
        for g, (name, s) in enumerate(groups):
            x = np.arange(len(s.x)) + (g - (len(groups) - 1) / 2) * width
            y = np.asarray(s.y)
            err = [y - np.asarray(s.y_ci_low), np.asarray(s.y_ci_high) - y]
            hatch = None if g == 0 else "//"
            ax.bar(x, y, width, yerr=err, color=[PALETTE[0], PALETTE[1]], hatch=hatch, edgecolor="white", label=name)
        ax.axhline(self.paper_share, color="black", linewidth=0.8, linestyle="--", label="paper: NewReno 92 %")
        ax.set_xticks(range(len(LABELS)), list(LABELS.values()))
        ax.set_ylim(0, 1)
        ax.set_ylabel("share of the link")
        ax.set_title("(c) mean share per reading")
        figure_legend(ax.figure, ax, columns=3)

    def plot_readings(self, outcome: Outcome, fig: Figure) -> None:
        """The alternative reading is drawn in panel (c) by ``plot``."""


def cw_mean(r: RunResult) -> float:
    """Vegas's mean congestion window over the measurement window, packets."""
    cw = r.trace("cwnd")
    cw = cw[(cw["flow_name"] == VEGAS) & (cw["time_s"] >= WARMUP_S)]
    return float(cw["cwnd_bytes"].mean()) / 1000
