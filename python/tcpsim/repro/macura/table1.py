"""Sec. 5.1, Table 1: one persistent connection over a 2 Mb/s bottleneck (RTT 250 ms) with ten
ON/OFF NewReno senders on its ACK path, ON in [250, 500] s and [750, 1000] s."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from tcpsim.repro import register
from tcpsim.repro.aggregate import NON_NEGATIVE, Curve, fmt_ci, mean
from tcpsim.repro.framework import Claim, Experiment, MissCause, Number, Outcome
from tcpsim.repro.macura import checks
from tcpsim.repro.macura.common import (
    PAPER,
    THREE,
    VEGAS,
    VEGAS_TCPSIM,
    Flavour,
    bdp_packets,
    goodput_mbps,
    macura_dumbbell,
)
from tcpsim.repro.plotting import DOUBLE_IN, PALETTE, draw_series, figure_title, finish_axes
from tcpsim.runner import RunSpec
from tcpsim.tidy import RunKey

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from tcpsim.result import RunResult

RATE_BPS = 2e6
RTT_S = 0.250
BOTTLENECK_DELAY_S = 0.120
"""Most of the 250 ms on the bottleneck, 2.5 ms on each access link (the paper gives only the RTT)."""
DURATION_S = 1000.0
INTERVAL_S = 250.0
INTERVALS = ((0.0, 250.0), (250.0, 500.0), (500.0, 750.0), (750.0, 1000.0))
REVERSE_ON = ((250.0, 500.0), (750.0, 1000.0))
REVERSE_SENDERS = 10
TCP1 = "fwd0"
"""The connection's name in the scenario (the dumbbell generator's first forward flow)."""
QUEUE_PKTS = bdp_packets(RATE_BPS, RTT_S)
"""Buffers = BDP (the catalog's assumption): 2 Mb/s × 250 ms = 41.7 → 42 packets per direction."""
PAPER_TABLE: dict[str, tuple[float, float, float, float]] = {
    "newreno": (1.86, 1.62, 1.99, 1.64),
    "vegas": (1.97, 0.48, 1.97, 0.51),
    "westwood_plus": (1.86, 1.68, 1.99, 1.69),
}
OFF = (0, 2)
ON = (1, 3)
NEAR_CAPACITY = 0.90
"""The paper's "approaches the bottleneck capacity" read as at least 90 % of 2 Mb/s (its own
values are 93–99.5 %)."""
SENSITIVITY_QUEUES = (10, 20)
"""Reverse-path (and forward) buffers of the sensitivity runs, packets."""


def label(i: int) -> str:
    a, b = INTERVALS[i]
    return f"[{a:g}, {b:g}] s"


def scenario(flavour: Flavour, queue_pkts: int = QUEUE_PKTS, trace: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Fig. 1: the connection (`TCP1`) and the ten reverse senders share one 2 Mb/s path of 250 ms
    RTT; throughput bins of 250 s give the per-interval goodput."""
    built = macura_dumbbell(
        name=f"macura Table 1: {flavour.label} with ON/OFF reverse traffic",
        flavour=flavour,
        forward_rtts=[RTT_S],
        reverse_rtts=[RTT_S] * REVERSE_SENDERS,
        reverse_on=REVERSE_ON,
        rate="2Mbps",
        delay_s=BOTTLENECK_DELAY_S,
        queue_pkts=queue_pkts,
        duration_s=DURATION_S,
    )
    built["trace"] = {"throughput_bin": f"{INTERVAL_S:g}s", **(trace or {})}
    return built


def interval_goodputs(result: RunResult) -> list[float]:
    """TCP1's goodput (Mb/s of 1500-byte packets) in each 250 s interval, from its delivered bytes
    per bin; over 250 s this is eq. (1)'s (sent − retransmitted)/time to within one window
    (< 0.003 Mb/s)."""
    bins = result.trace("throughput")
    bins = bins[bins["flow_name"] == TCP1].sort_values("time_s")
    values = [goodput_mbps(v) for v in bins["throughput_bps"]]
    if len(values) != len(INTERVALS):
        raise ValueError(f"{TCP1} has {len(values)} throughput bins, expected {len(INTERVALS)}")
    return values


Table = dict[str, list[list[float]]]
"""flavour name → per interval → per-seed goodput (Mb/s)."""


@register
class Table1(Experiment):
    """Sec. 5.1, Table 1: goodput of one connection per 250 s interval, reverse traffic OFF/ON/OFF/ON."""

    id = "macura.table1"
    kind = "simulation"
    miss_cause = MissCause(
        "setup",
        (
            "With the reverse traffic ON NewReno gets 1.15/1.11 Mb/s (paper 1.62/1.64) and Vegas 0.22/0.21 "
            "(paper 0.48/0.51), with ns-2's Vegas modelled (its expected count, per-ACK growth, fine-grained "
            "recovery, no header). ns-2.35 on the same set-up gives NewReno 1.16/1.18 and Vegas 0.26/0.25 "
            "Mb/s: ns-2 agrees with tcpsim, not with the paper, whose reverse senders' set-up (windows, "
            "sizes, buffers) is not fully stated."
        ),
    )
    paper = PAPER
    figure = "Table 1"
    title = "goodput of a single connection with ON/OFF reverse traffic"
    xlabel = "time (s)"
    ylabel = "goodput (Mb/s)"
    setup = (
        "Fig. 1: one persistent connection (NewReno, Vegas or Westwood+) over a 2 Mb/s bottleneck with a 250 ms "
        "round-trip time, 1000 s; ten NewReno senders on its ACK path (the same 250 ms path, the other way) are ON "
        "in [250, 500] s and [750, 1000] s (one connection per sender, kept across the OFF period as an ns-2 FTP "
        "source started and stopped). Drop-tail buffers of the bandwidth-delay product, 42 packets of 1500 bytes, "
        "in each direction; ns-2's defaults for the rest "
        "(package docstring). Goodput per 250 s interval, in Mb/s of 1500-byte packets. Checked: every "
        "goodput near the capacity (≥ 90 %) while the reverse traffic is OFF; while it is ON, Vegas worst "
        "(Welch, 95 %) and Westwood+ slightly (0–15 %) above NewReno; numbers: the twelve goodputs of Table 1, "
        "15 % tolerance. Sensitivity runs: tcpsim's default Vegas flavour, buffers of 10 and 20 packets, and a "
        "trace of Vegas's RTT and the reverse queue."
    )
    seeds_full = 10
    seeds_quick = 3
    sensitivity_seeds_full = 3
    sensitivity_seeds_quick = 1

    def runs(self, quick: bool, seeds: int | None) -> list[RunSpec]:
        replications = self.replications(quick, seeds)
        few = replications[: self.sensitivity_seeds_quick if quick else self.sensitivity_seeds_full]
        specs = [RunSpec(RunKey(flavour=f.name, seed=s), scenario(f), seed=s) for f in THREE for s in replications]
        specs += [
            RunSpec(RunKey(kind="vegas_flavour", flavour=VEGAS_TCPSIM.name, seed=s), scenario(VEGAS_TCPSIM), seed=s)
            for s in few
        ]
        specs += [
            RunSpec(RunKey(kind=f"queue{q}", flavour=f.name, seed=s), scenario(f, queue_pkts=q), seed=s)
            for q in SENSITIVITY_QUEUES
            for f in THREE
            for s in few
        ]
        diagnostic = scenario(VEGAS, trace={"rtt": True, "queue": True, "interval": "1s"})
        specs.append(RunSpec(RunKey(kind="trace", flavour=VEGAS.name, seed=1), diagnostic, seed=1))
        return specs

    def table(self, results: Mapping[RunKey, RunResult], kind: str | None = None) -> Table:
        """Per-interval goodputs of the runs of one `kind` (None: the main runs)."""
        out: Table = {}
        for key, result in results.items():
            if key.get("kind") != kind:
                continue
            per_seed = out.setdefault(key["flavour"], [[] for _ in INTERVALS])
            for i, g in enumerate(interval_goodputs(result)):
                per_seed[i].append(g)
        return out

    def analyze(self, results: Mapping[RunKey, RunResult], quick: bool) -> Outcome:
        t = self.table(results)
        labels = {f.name: f.label for f in THREE}
        off = {f"{labels[n]} {label(i)}": t[n][i] for n in labels for i in OFF}
        claims = [
            Claim(
                "when the reverse traffic is OFF, the goodputs of all TCPs approach the bottleneck capacity",
                *checks.near_capacity(off, RATE_BPS / 1e6, NEAR_CAPACITY),
            )
        ]
        for i in ON:
            on = {labels[n]: t[n][i] for n in labels}
            claims.append(
                Claim(
                    f"when the reverse traffic is ON {label(i)}, Vegas provides the worst goodput",
                    *checks.worst("Vegas", on),
                )
            )
            claims.append(
                Claim(
                    f"when the reverse traffic is ON {label(i)}, Westwood+ is slightly better than NewReno",
                    *checks.slightly_above(t["westwood_plus"][i], t["newreno"][i]),
                )
            )
        numbers = [
            Number(f"{labels[n]} goodput {label(i)} (Mb/s)", PAPER_TABLE[n][i], mean(t[n][i]))
            for n in labels
            for i in range(len(INTERVALS))
        ]
        explanation = self.vegas_explanation(results, t)
        for n in numbers:
            if not n.matched and n.name.startswith("Vegas") and any(label(i) in n.name for i in ON):
                n.explanation = explanation
        mids = [(a + b) / 2 for a, b in INTERVALS]
        series = [Curve.of({m: t[f.name][i] for i, m in enumerate(mids)}, NON_NEGATIVE).series(f.label) for f in THREE]
        notes = [
            f"{len(t['newreno'][0])} seeds (the flows' start times differ by a uniform [0, 1] s jitter); "
            f"sensitivity runs {self.sensitivity_seeds_quick if quick else self.sensitivity_seeds_full} seed(s)",
            self.sensitivity_note(results),
        ]
        return Outcome(series=series, claims=claims, numbers=numbers, notes=notes)

    def sensitivity_note(self, results: Mapping[RunKey, RunResult]) -> str:
        parts = []
        vegas = self.table(results, "vegas_flavour")
        parts.append(
            f"{VEGAS_TCPSIM.label}: ON-interval goodputs {fmt_ci(vegas[VEGAS_TCPSIM.name][1], 2)}, "
            f"{fmt_ci(vegas[VEGAS_TCPSIM.name][3], 2)} Mb/s"
        )
        for q in SENSITIVITY_QUEUES:
            t = self.table(results, f"queue{q}")
            parts.append(
                f"buffers of {q} packets: "
                + ", ".join(
                    f"{f.label} " + "/".join(f"{mean(t[f.name][i]):.2f}" for i in range(len(INTERVALS))) for f in THREE
                )
                + " Mb/s per interval"
            )
        return "sensitivity: " + "; ".join(parts) + f" (main: buffers of {QUEUE_PKTS} packets)"

    def vegas_explanation(self, results: Mapping[RunKey, RunResult], t: Table) -> str:
        """Why Vegas's ON-interval goodput differs: Vegas keeps diff = rate·(RTT − BaseRTT) between
        α and β packets, so its rate is about diff / (queueing delay); the reverse senders' queue
        sets that delay. Evidence from the traced run (seed 1)."""
        trace_key = next(k for k in results if k.get("kind") == "trace")
        result = results[trace_key]
        rtt = result.trace("rtt")
        rtt = rtt[rtt["flow_name"] == TCP1]
        queue = result.trace("queue")
        reverse_queue = queue[(queue["link"] == "bottleneck") & (queue["direction"] == "ba")]
        on = (rtt["time_s"] >= 300) & (rtt["time_s"] < 500)
        base = float(result.flows.set_index("name").loc[TCP1, "rtt_min_s"])
        on_rtt = float(rtt.loc[on, "rtt_s"].mean())
        q_on = reverse_queue[(reverse_queue["time_s"] >= 300) & (reverse_queue["time_s"] < 500)]
        goodput = mean(t["vegas"][1])
        packets_per_s = goodput * 1e6 / 8 / 1500
        diff = packets_per_s * (on_rtt - base)
        paper_rate = PAPER_TABLE["vegas"][1] * 1e6 / 8 / 1500
        return (
            f"Vegas keeps diff = rate × (RTT − BaseRTT) between α = 1 and β = 3 packets, so its rate is about "
            f"diff / (queueing delay). Traced run (seed 1), [300, 500] s: mean RTT {on_rtt * 1e3:.0f} ms against a "
            f"BaseRTT of {base * 1e3:.0f} ms, the reverse queue holding {q_on['packets'].mean():.1f} packets on "
            f"average (max {QUEUE_PKTS}); at {goodput:.2f} Mb/s that is diff = {diff:.1f} packets. The paper's "
            f"{PAPER_TABLE['vegas'][1]} Mb/s ({paper_rate:.0f} packets/s) at diff 1–3 needs a queueing delay of "
            f"{1e3 / paper_rate:.0f}–{3e3 / paper_rate:.0f} ms on the path, a reverse queue of at most "
            f"{3 / paper_rate / 0.006:.0f} packets of 1500 bytes: ten NewReno senders keep a 42-packet "
            "buffer fuller than that. Smaller buffers raise Vegas's goodput but lower NewReno's (sensitivity note)."
        )

    def plot(self, outcome: Outcome, fig: Figure) -> None:
        """Goodput per interval with 95 % CIs; the paper's values as hollow markers; the ON
        intervals shaded."""
        fig.set_size_inches(DOUBLE_IN * 0.6, 2.8)
        ax = fig.add_subplot()
        for a, b in INTERVALS[1::2]:
            ax.axvspan(a, b, color="0.92", linewidth=0)
        draw_series(ax, outcome.series)
        mids = [(a + b) / 2 for a, b in INTERVALS]
        for color, f in zip(PALETTE, THREE):
            ax.plot(
                mids,
                PAPER_TABLE[f.name],
                linestyle="none",
                marker="D",
                markerfacecolor="none",
                color=color,
                label=f"paper: {f.label}",
            )
        ax.set_ylim(0, 2.2)
        ax.set_xticks([0, 250, 500, 750, 1000])
        finish_axes(ax, self.xlabel, self.ylabel, legend_loc="lower left")
        ax.set_title(figure_title(self) + " (reverse traffic ON in the shaded intervals)")
