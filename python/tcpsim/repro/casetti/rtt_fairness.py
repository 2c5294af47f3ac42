"""Sec. 4 of `casetti`: two flows of different RTTs on one bottleneck, a TCPW pair against a Reno
pair, with drop-tail (fig4) and with RED (fig5)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from tcpsim.repro import register
from tcpsim.repro.aggregate import FRACTION, NON_NEGATIVE, Curve, fmt_ci, mean, summarize
from tcpsim.repro.casetti import checks
from tcpsim.repro.casetti.common import (
    BASE_TCP,
    CONFIGS,
    MSS_BYTES,
    PAPER,
    VARIANT_STYLES,
    buffer_pkts,
    flow_spec,
    fmt_bps,
    fmt_ms,
    variant_style,
)
from tcpsim.repro.framework import Claim, Experiment, MissCause, Outcome, Reading, Series
from tcpsim.repro.ns2_queue import ns2_drop_tail
from tcpsim.repro.plotting import COLUMN_IN, DOUBLE_IN, GREY, error_bars, figure_title, finish_axes
from tcpsim.repro.sweep import Axis, Sweep
from tcpsim.runner import RunSpec
from tcpsim.tidy import RunKey

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from tcpsim.result import RunResult


def two_rtt_scenario(
    config: str,
    *,
    capacity_bps: float,
    rtts_s: Sequence[float],
    bottleneck_delay_s: float,
    duration_s: float,
    bin_s: float,
    red: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Flows with different RTTs (access delays) on one bottleneck r1 → sink whose buffer is the
    BDP at the mean RTT: drop-tail, or RED with the settings ``red`` (thresholds, weights, ...)."""
    mean_rtt = float(np.mean(rtts_s))
    packets = buffer_pkts(capacity_bps, mean_rtt)
    links: list[dict[str, Any]] = [
        {
            "name": "bottleneck",
            "a": "r1",
            "b": "sink",
            "rate": fmt_bps(capacity_bps),
            "delay": fmt_ms(bottleneck_delay_s),
            "queue": ns2_drop_tail(packets) if red is None else {"kind": "red", "limit": f"{packets}pkt", **red},
        }
    ]
    flows = []
    for i, rtt in enumerate(rtts_s):
        access = rtt / 2 - bottleneck_delay_s
        links.append(
            {
                "name": f"access{i}",
                "a": f"s{i}",
                "b": "r1",
                "rate": "100Mbps",
                "delay": fmt_ms(access),
                "queue": "10000pkt",
            }
        )
        flows.append(flow_spec(f"rtt{round(rtt * 1e3)}ms", f"s{i}", "sink", config))
    return {
        "name": f"casetti Fig. {4 if red is None else 5}: RTTs {list(rtts_s)} s, {CONFIGS[config].label}",
        "duration": f"{duration_s}s",
        "tcp": dict(BASE_TCP),
        "links": links,
        "flows": flows,
        "trace": {"throughput_bin": f"{bin_s}s"},
    }


@register
class Fig4(Experiment):
    id = "casetti.fig4"
    kind = "simulation"
    title = "sequence number vs time, RTT 50 ms and 200 ms, drop-tail"
    setup = (
        "Two flows with round-trip times of 50 and 200 ms (set by 100 Mb/s access links) share a 5 Mb/s, 10 "
        "ms drop-tail bottleneck (the paper gives no capacity: Fig. 3's is used) with a buffer of one "
        "bandwidth-delay product at the mean RTT (195 packets); a TCPW pair is compared with a Reno pair, "
        "300 s (200 s in quick mode), starts uniform in [0, 1] s. Sequence numbers are delivered 400-byte "
        "packets, from 1 s throughput bins. Checked: the short-RTT flow progresses faster under both "
        "variants (95 % CI of the per-seed difference above 0), and the long-RTT flow's share is "
        "significantly larger under TCPW than under Reno (Welch, 95 %)."
    )
    paper = PAPER
    xlabel = "time (s)"
    ylabel = "sequence number\n(thousands of 400-byte packets)"
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
        return Sweep(Axis("config", self.variants)).specs(
            lambda config: two_rtt_scenario(
                config,
                capacity_bps=self.capacity_bps,
                rtts_s=self.rtts_s,
                bottleneck_delay_s=self.bottleneck_delay_s,
                duration_s=duration,
                bin_s=self.bin_s,
            ),
            quick,
            self.replications(quick, seeds),
        )

    @property
    def flow_names(self) -> tuple[str, str]:
        """The short- and the long-RTT flow."""
        short, long_ = (f"rtt{round(r * 1e3)}ms" for r in self.rtts_s)
        return short, long_

    def progress(self, results: Mapping[RunKey, RunResult]) -> tuple[list[Series], dict[tuple[str, str], list[float]]]:
        """Mean progress (thousands of packets delivered) per variant and RTT over the seeds of
        ``results`` (one run per variant and seed), and each flow's per-seed total."""
        curves: dict[tuple[str, str], list[np.ndarray]] = {}
        totals: dict[tuple[str, str], list[float]] = {}
        times = None
        for key, r in sorted(results.items(), key=lambda kv: kv[0]["seed"]):
            config = key["config"]
            tp = r.trace("throughput")
            for name in self.flow_names:
                rows = tp[tp["flow_name"] == name]
                packets = np.cumsum(rows["bytes"].to_numpy(dtype=float)) / MSS_BYTES
                curves.setdefault((config, name), []).append(packets)
                totals.setdefault((config, name), []).append(float(packets[-1]))
                times = rows["time_s"].to_numpy() + self.bin_s
        assert times is not None
        series = []
        for config in self.variants:
            for name, rtt in zip(self.flow_names, self.rtts_s):
                stack = np.vstack(curves[(config, name)]) / 1e3
                progress = Curve.of(dict(zip(times.tolist(), stack.T)), NON_NEGATIVE)
                series.append(progress.series(f"{CONFIGS[config].label}, RTT {rtt * 1e3:g} ms"))
        return series, totals

    def long_shares(self, totals: Mapping[tuple[str, str], list[float]]) -> dict[str, list[float]]:
        """Per variant, the long-RTT flow's per-seed share of the two flows' packets."""
        short, long_ = self.flow_names
        return {c: [lo / (s + lo) for s, lo in zip(totals[(c, short)], totals[(c, long_)])] for c in self.variants}

    def faster_claim(self, totals: Mapping[tuple[str, str], list[float]], text: str) -> Claim:
        short, long_ = self.flow_names
        faster, faster_test = checks.faster_in_both(
            {CONFIGS[c].label: [v / 1e3 for v in totals[(c, short)]] for c in self.variants},
            {CONFIGS[c].label: [v / 1e3 for v in totals[(c, long_)]] for c in self.variants},
            "k",
        )
        detail_fast = "; ".join(
            f"{CONFIGS[c].label}: short {fmt_ci(np.array(totals[(c, short)]) / 1e3, 1)}k, long "
            f"{fmt_ci(np.array(totals[(c, long_)]) / 1e3, 1)}k packets"
            for c in self.variants
        )
        return Claim(text, faster, f"{faster_test}. {detail_fast}")

    def analyze(self, results: Mapping[RunKey, RunResult], quick: bool) -> Outcome:
        series, totals = self.progress(results)
        shares = self.long_shares(totals)
        claims = [
            self.faster_claim(totals, "the short-RTT flow progresses faster under both TCPW and Reno"),
            Claim(
                "the long-RTT flow's share is larger under TCPW than under Reno",
                *checks.larger_share(shares["westwood"], shares["reno"]),
            ),
        ]
        duration = self.duration_quick_s if quick else self.duration_full_s
        return Outcome(
            series=series,
            claims=claims,
            notes=[
                f"{len(shares['reno'])} seeds; {duration:g} s; capacity {self.capacity_bps / 1e6:g} Mb/s (not given by the paper: "
                "the bottleneck of Fig. 3), bottleneck delay 10 ms, RTTs 50 and 200 ms set by 100 Mb/s access links; "
                f"drop-tail buffer = BDP at the mean RTT (125 ms) = {buffer_pkts(self.capacity_bps, float(np.mean(self.rtts_s)))} "
                "packets; both flows start uniformly in [0, 1] s",
                "sequence number = 400-byte packets delivered in order (throughput trace, 1 s bins), mean ± 95 % CI over seeds",
            ],
        )

    def plot(self, outcome: Outcome, fig: Figure) -> None:
        """Mean progress per variant and RTT (50 ms solid, 200 ms dashed), the 95 % CI (clipped at
        0) as a band."""
        fig.set_size_inches(COLUMN_IN, 2.9)
        ax = fig.add_subplot()
        for s in outcome.series:
            color = variant_style(s)["color"]
            y, below, above = error_bars(s)
            ax.plot(s.x, y, linestyle="-" if "50 ms" in s.label else "--", color=color, label=s.label)
            ax.fill_between(s.x, y - below, y + above, color=color, alpha=0.2, linewidth=0)
        finish_axes(ax, self.xlabel, self.ylabel, legend_loc="upper left")
        ax.set_title(figure_title(self))


NS2_RED_2001: dict[str, Any] = {
    "min_th": "5pkt",
    "max_th": "15pkt",
    "max_p": 0.1,
    "w_q": 0.002,
    "gentle": False,
    "wait": True,
    "mode": "packet",
    "ecn": False,
    "mean_packet": "500B",
}
"""ns-2's RED defaults before 2002 (tcl/lib/ns-default.tcl, whose comments date each change):
`thresh_` 5 and `maxthresh_` 15 packets and `q_weight_` 0.002 (replaced by automatic configuration
on 12/29/01), `linterm_` 10 (max_p = 1/10), `gentle_` false (changed to true on Apr 23, 2001),
`bytes_` and `queue_in_bytes_` false (packet mode, until 10/11/2004), `wait_` true (drops spaced
uniformly in [1/p_b, 2/p_b) arrivals), `mean_pktsize_` 500 bytes (for the idle-time correction),
`setbit_` false (drop, no ECN). The queue limit is the
experiment's buffer, as `limit_` of the link."""


@register
class Fig5(Fig4):
    """Fig. 4 with RED at the bottleneck: drop-tail runs (fig4's) against RED runs."""

    id = "casetti.fig5"
    kind = "simulation"
    miss_cause = MissCause(
        "setup",
        (
            "The paper gives no RED parameters: the main reading takes ns-2's 2001 defaults, its tool's (min_th "
            "5, max_th 15 packets, max_p 0.1, w_q 0.002, gentle off, no ECN) with the BDP (195 packets) as the "
            "queue limit; whether RED helps the long-RTT flow more under TCPW than under Reno depends on those "
            "unstated values (alternative readings in the report)."
        ),
    )
    title = "sequence number vs time, RTT 50 ms and 200 ms, RED"
    setup = (
        "Fig. 4's set-up (two flows with RTTs of 50 and 200 ms on a 5 Mb/s, 10 ms bottleneck, a TCPW pair against "
        "a Reno pair, 300 s, 200 s in quick mode) with RED at the bottleneck instead of drop-tail: ns-2's RED "
        "defaults of 2001, the paper's tool (min_th 5 and max_th 15 packets, max_p 0.1, w_q 0.002, gentle off, "
        "packet mode, no ECN), the queue limit the BDP buffer (195 packets); fig4's drop-tail runs are the "
        "baseline. Checked: with RED the short-RTT flow still progresses faster under both variants (95 % CI of "
        "the per-seed difference above 0); both variants benefit from RED (the long-RTT flow's share of the "
        "two flows' packets significantly larger than with drop-tail, Welch, 95 %); TCPW's improvement, in "
        "points of share, larger than Reno's (95 % CI of the difference of the improvements above 0); and "
        "with RED the long flow's share larger under TCPW than under Reno (Welch). Alternative readings: "
        "ns-2's gentle RED (the default from April 2001), and the thresholds scaled to the buffer (20 and 60 "
        "packets)."
    )
    seeds_quick = 4
    red = NS2_RED_2001
    readings = {
        "gentle RED": (
            "the authors' ns-2 was a snapshot from after 23 April 2001, when ns-2's RED default `gentle_` became "
            "true (the paper appeared in 2002; its simulations date from 2000–2001)",
            {**NS2_RED_2001, "gentle": True},
        ),
        "thresholds 20/60": (
            "the authors scaled RED's thresholds with the buffer, as they sized every buffer to the BDP: ns-2's 5 "
            "and 15 packets are 10 % and 30 % of its default 50-packet `limit_`, i.e. 20 and 60 packets of the "
            "195-packet buffer",
            {**NS2_RED_2001, "min_th": "20pkt", "max_th": "60pkt"},
        ),
    }
    DROP_TAIL = "drop-tail"
    RED = "RED"

    def queues(self) -> dict[str, Mapping[str, Any] | None]:
        """The bottleneck of each set of runs: drop-tail (None), the main reading's RED and each
        alternative reading's."""
        return {
            self.DROP_TAIL: None,
            self.RED: self.red,
            **{name: settings for name, (_, settings) in self.readings.items()},
        }

    def runs(self, quick: bool, seeds: int | None) -> list[RunSpec]:
        duration = self.duration_quick_s if quick else self.duration_full_s
        sweep = Sweep(Axis("config", self.variants))
        specs = []
        for name, red in self.queues().items():
            specs += sweep.specs(
                lambda config, red=red: two_rtt_scenario(
                    config,
                    capacity_bps=self.capacity_bps,
                    rtts_s=self.rtts_s,
                    bottleneck_delay_s=self.bottleneck_delay_s,
                    duration_s=duration,
                    bin_s=self.bin_s,
                    red=red,
                ),
                quick,
                self.replications(quick, seeds),
                queue=name,
            )
        return specs

    def judge(
        self, red_totals: Mapping[tuple[str, str], list[float]], drop_tail: Mapping[str, list[float]]
    ) -> tuple[list[Claim], list[Series]]:
        """The claims of one RED set-up against the drop-tail runs, and its long-flow shares."""
        red = self.long_shares(red_totals)
        label = {c: CONFIGS[c].label for c in self.variants}
        claims = [
            self.faster_claim(
                red_totals, "with RED, the short-RTT flow still progresses faster under both TCPW and Reno"
            ),
            Claim(
                "both TCPW and Reno benefit from RED: the long-RTT flow's share is larger than with drop-tail",
                *checks.improves_in_both(
                    {label[c]: red[c] for c in self.variants}, {label[c]: drop_tail[c] for c in self.variants}
                ),
            ),
            Claim(
                "RED improves TCPW's fairness more than Reno's",
                *checks.larger_improvement(red["westwood"], drop_tail["westwood"], red["reno"], drop_tail["reno"]),
            ),
            Claim(
                "with RED, the long-RTT flow's share is larger under TCPW than under Reno",
                *checks.larger_share(red["westwood"], red["reno"]),
            ),
        ]
        series = []
        for c in self.variants:
            before, after = summarize(drop_tail[c], FRACTION), summarize(red[c], FRACTION)
            series.append(
                Series(
                    f"{label[c]}: long-RTT flow's share",
                    [self.DROP_TAIL, self.RED],
                    [before["mean"], after["mean"]],
                    [before["ci_low"], after["ci_low"]],
                    [before["ci_high"], after["ci_high"]],
                    FRACTION,
                )
            )
        return claims, series

    def analyze(self, results: Mapping[RunKey, RunResult], quick: bool) -> Outcome:
        groups: dict[str, dict[RunKey, RunResult]] = {}
        for key, r in results.items():
            groups.setdefault(key["queue"], {})[key.without("queue")] = r
        _, dt_totals = self.progress(groups[self.DROP_TAIL])
        drop_tail = self.long_shares(dt_totals)
        progress, red_totals = self.progress(groups[self.RED])
        claims, shares = self.judge(red_totals, drop_tail)
        readings = []
        for name, (hypothesis, _) in self.readings.items():
            alt_claims, alt_shares = self.judge(self.progress(groups[name])[1], drop_tail)
            readings.append(Reading(name, hypothesis, claims=alt_claims, series=alt_shares))
        duration = self.duration_quick_s if quick else self.duration_full_s
        buffer = buffer_pkts(self.capacity_bps, float(np.mean(self.rtts_s)))
        evidence = "; ".join(f"{name}: {self.link_evidence(groups[name])}" for name in self.queues())
        return Outcome(
            series=progress + shares,
            claims=claims,
            readings=readings,
            notes=[
                "how each bottleneck ran (mean over seeds: utilization, mean queue, timeouts of the short/long flow): "
                + evidence,
                f"{len(drop_tail['reno'])} seeds; {duration:g} s; fig4's set-up and its drop-tail runs (buffer {buffer} "
                "packets) as the baseline; RED with the same limit",
                "RED as ns-2 ran it around 2001 (tcl/lib/ns-default.tcl, which dates each change): thresh_ 5 and "
                "maxthresh_ 15 packets, q_weight_ 0.002 (until the automatic configuration of 12/29/01), linterm_ 10 "
                "(max_p 0.1), gentle_ false (true from Apr 23, 2001: an alternative reading), wait_ true, packet "
                "mode (bytes_ false until 2004), mean_pktsize_ 500 bytes for the idle-time correction, no ECN; chosen before "
                "any RED run",
                "'improve' is read as the paper's 'benefit from RED, as far as fairness is concerned': the long-RTT "
                "flow's share of the two flows' delivered packets (0.5 = fair), compared in points of share",
                "why ns-2's RED of 2001 contradicts the paper here: its thresholds (5 and 15 packets) keep the average "
                f"queue at a few packets on a path whose BDP is {buffer} packets, so RTT ≈ RTTmin and TCPW's faster "
                "recovery (cwnd = BWE·RTTmin) leaves the window almost where it was; RED's drops then come in bursts "
                "that end in timeouts (evidence above), the link runs well below capacity and the 200 ms flow, with "
                "the larger window, loses most. Reno halves on each drop and gains from RED's spread-out drops, as the "
                "paper says; with the thresholds scaled to the buffer both variants gain",
            ],
        )

    def link_evidence(self, results: Mapping[RunKey, RunResult]) -> str:
        """Per variant, the bottleneck's utilization and mean queue and each flow's timeouts, mean
        over the seeds of ``results``: the evidence behind the claims' verdicts."""
        short, long_ = self.flow_names
        parts = []
        for c in self.variants:
            runs = [r for key, r in results.items() if key["config"] == c]
            links = [r.links[(r.links["name"] == "bottleneck") & (r.links["direction"] == "ab")].iloc[0] for r in runs]
            timeouts = [r.flows.set_index("name")["timeouts"] for r in runs]
            parts.append(
                f"{CONFIGS[c].label} {mean([float(x['utilization']) for x in links]):.0%}, "
                f"{mean([float(x['queue_mean_pkts']) for x in links]):.0f} packets, "
                f"{mean([float(t[short]) for t in timeouts]):.0f}/{mean([float(t[long_]) for t in timeouts]):.0f}"
            )
        return ", ".join(parts)

    def plot(self, outcome: Outcome, fig: Figure) -> None:
        """(a) Mean progress with the main reading's RED, as Fig. 4; (b) the long-RTT flow's share
        with drop-tail and with each RED set-up, per variant, mean and 95 % CI."""
        fig.set_size_inches(DOUBLE_IN, 2.9)
        ax, ax_share = fig.subplots(1, 2, width_ratios=(1.4, 1))
        progress = [s for s in outcome.series if s.x and not isinstance(s.x[0], str)]
        for s in progress:
            color = variant_style(s)["color"]
            y, below, above = error_bars(s)
            ax.plot(s.x, y, linestyle="-" if "50 ms" in s.label else "--", color=color, label=s.label)
            ax.fill_between(s.x, y - below, y + above, color=color, alpha=0.2, linewidth=0)
        finish_axes(ax, self.xlabel, self.ylabel, legend_loc="upper left")
        ax.set_title("(a) progress with RED (ns-2 defaults of 2001)")
        columns = [(f"{self.RED}\n(main)", outcome.series[len(progress) :])]
        columns += [(name.replace(" ", "\n", 1), r.series) for name, r in zip(self.readings, outcome.readings)]
        for v, label in enumerate(CONFIGS[c].label for c in self.variants):
            color, marker = VARIANT_STYLES[label]
            xs, ys, lows, highs = [], [], [], []
            for i, (_, shares) in enumerate([(self.DROP_TAIL, outcome.series[len(progress) :])] + columns):
                s = shares[v]
                j = 0 if i == 0 else 1
                xs.append(i + (v - 0.5) * 0.15)
                ys.append(s.y[j])
                lows.append(s.y[j] - s.y_ci_low[j])
                highs.append(s.y_ci_high[j] - s.y[j])
            ax_share.errorbar(xs, ys, yerr=[lows, highs], color=color, marker=marker, linestyle="none", label=label)
        ax_share.set_xticks(range(len(columns) + 1), [self.DROP_TAIL] + [name for name, _ in columns])
        ax_share.axhline(0.5, color=GREY, linewidth=0.6, linestyle=":")
        ax_share.set_ylim(0, 0.55)
        finish_axes(ax_share, "", "long-RTT flow's share", legend_loc="upper left")
        ax_share.set_title("(b) fairness: the 200 ms flow's share")
        fig.suptitle(figure_title(self))

    def plot_readings(self, outcome: Outcome, fig: Figure) -> None:
        """The alternative readings are drawn in panel (b) by ``plot``."""
