"""Sec. 4 of `casetti`: the bandwidth estimate of one TCPW flow against ON/OFF UDP cross
traffic (fig3)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from tcpsim.repro import register
from tcpsim.repro.aggregate import NON_NEGATIVE, Curve, fmt_ci
from tcpsim.repro.casetti import checks
from tcpsim.repro.casetti.common import (
    BASE_TCP,
    PACKET_BYTES,
    PAPER,
    WIRE_PER_PAYLOAD,
    buffer_pkts,
    flow_spec,
    fmt_bps,
    fmt_ms,
)
from tcpsim.repro.framework import Claim, Experiment, Number, Outcome, Series
from tcpsim.repro.ns2_queue import ns2_drop_tail
from tcpsim.repro.plotting import COLUMN_IN, PALETTE, draw_series, figure_legend, figure_title, finish_axes
from tcpsim.runner import RunSpec
from tcpsim.tidy import RunKey

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from tcpsim.result import RunResult


@register
class Fig3(Experiment):
    """One TCPW flow and two 1 Mb/s ON/OFF CBR sources share a 5 Mb/s, 30 ms link (FIFO)."""

    id = "casetti.fig3"
    kind = "simulation"
    title = "TCPW bandwidth estimate with ON/OFF UDP cross traffic (5 Mb/s, 30 ms)"
    setup = (
        "One TCPW flow and two 1 Mb/s CBR sources (400-byte datagrams) share a 5 Mb/s, 30 ms link through "
        "one FIFO drop-tail queue of one bandwidth-delay product (94 packets); UDP 1 is on over 25–200 s, "
        "UDP 2 over 50–75 s and 125–175 s, 250 s in all. TCPW's bandwidth estimate, scaled to 400-byte "
        "packets as ns-2 counts them, is averaged per plateau from 10 s after each switch. Checked: every "
        "plateau's mean estimate within 15 % of the bandwidth left to TCP (5, 4, 3, 4, 3, 4, 5 Mb/s, each "
        "also a number), and every step of the estimate in the direction of the available bandwidth's and "
        "significant (Welch, 95 %)."
    )
    paper = PAPER
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
            "links": [
                {
                    "name": "bottleneck",
                    "a": "source",
                    "b": "sink",
                    "rate": fmt_bps(self.capacity_bps),
                    "delay": fmt_ms(self.one_way_s),
                    "queue": ns2_drop_tail(buffer_pkts(self.capacity_bps, rtt_s)),
                }
            ],
            "flows": [flow_spec("tcpw", "source", "sink", "westwood")],
            "udp": [
                {
                    "name": "udp1",
                    "src": "source",
                    "dst": "sink",
                    "rate": fmt_bps(self.udp_rate_bps),
                    "packet": f"{PACKET_BYTES}B",
                    "on": on(self.udp1_on),
                },
                {
                    "name": "udp2",
                    "src": "source",
                    "dst": "sink",
                    "rate": fmt_bps(self.udp_rate_bps),
                    "packet": f"{PACKET_BYTES}B",
                    "on": on(self.udp2_on),
                },
            ],
            "trace": {"cwnd": True, "interval": self.sample, "throughput_bin": "1s"},
        }

    def plateaus(self) -> list[tuple[float, float, float]]:
        """(start, end, bandwidth left to TCP in b/s) between successive UDP switch times."""
        edges = sorted({0.0, self.duration_s, *(t for w in self.udp1_on + self.udp2_on for t in w)})
        out = []
        for a, b in zip(edges, edges[1:]):
            mid = (a + b) / 2
            udp = sum(self.udp_rate_bps for windows in (self.udp1_on, self.udp2_on) for s, e in windows if s <= mid < e)
            out.append((a, b, self.capacity_bps - udp))
        return out

    def runs(self, quick: bool, seeds: int | None) -> list[RunSpec]:
        return [
            RunSpec(key=RunKey(seed=seed), scenario=self.scenario(), seed=seed)
            for seed in self.replications(quick, seeds)
        ]

    def analyze(self, results: Mapping[RunKey, RunResult], quick: bool) -> Outcome:
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
        first_seed = min(results)["seed"]
        first = results[min(results)]
        trace = first.trace("cwnd")
        step = max(1, int(round(0.5 / 0.1)))  # plot every 0.5 s
        t_series = trace.iloc[::step]
        avail_x = [p for a, b, _ in plateaus for p in (a, b)]
        avail_y = [c / 1e6 for _, _, c in plateaus for _ in (0, 1)]
        tp = first.trace("throughput")
        mids = [(a + b) / 2 for a, b, _ in plateaus]
        plateau_bwe = Curve.of(dict(zip(mids, est)), NON_NEGATIVE)
        est_means = plateau_bwe.mean.tolist()
        series = [
            Series("bandwidth left to TCP (5 Mb/s − UDP)", avail_x, avail_y),
            Series(
                f"TCPW estimate BWE (seed {first_seed}, 400-byte packets)",
                t_series["time_s"].tolist(),
                (t_series["bwe_bps"] * WIRE_PER_PAYLOAD / 1e6).tolist(),
            ),
            Series(
                f"TCPW throughput, 1 s bins (seed {first_seed})",
                tp["time_s"].tolist(),
                (tp["throughput_bps"] * WIRE_PER_PAYLOAD / 1e6).tolist(),
            ),
            plateau_bwe.series("plateau mean of BWE (mean, 95% CI over seeds)"),
        ]
        rel = [(m - c / 1e6) / (c / 1e6) for m, (_, _, c) in zip(est_means, plateaus)]
        details = [
            f"[{a:g}, {b:g}) s: left {c / 1e6:g}, BWE {fmt_ci(e)}, throughput {fmt_ci(g)} Mb/s ({x:+.1%})"
            for (a, b, c), e, g, x in zip(plateaus, est, got, rel)
        ]
        available = [c / 1e6 for _, _, c in plateaus]
        tracks, tracks_test = checks.tracks_plateaus(est, available, self.tolerance)
        numbers = [Number(f"BWE on [{a:g}, {b:g}) s (Mb/s)", c / 1e6, m) for (a, b, c), m in zip(plateaus, est_means)]
        claims = [
            Claim(
                "the estimate tracks the bandwidth left to TCP (5 → 4 → 3 → 4 → 3 → 4 → 5 Mb/s): every plateau's "
                f"mean estimate within {self.tolerance:.0%}",
                tracks,
                f"{tracks_test}. Per plateau: " + "; ".join(details),
            ),
            Claim(
                "every step of the estimate follows the step of the available bandwidth (up/down)",
                *checks.steps_follow(est, available),
            ),
        ]
        return Outcome(
            series=series,
            claims=claims,
            numbers=numbers,
            notes=[
                f"{len(results)} seeds (flow start uniform in [0, 1] s); one TCPW flow and two 1 Mb/s CBR sources "
                f"(400-byte datagrams) share one FIFO drop-tail queue of {buffer_pkts(self.capacity_bps, 2 * self.one_way_s)} "
                f"packets (BDP) on the 5 Mb/s, 30 ms link; {self.duration_s:g} s",
                "the estimate is compared like with like: tcpsim's BWE counts payload bytes, so it is scaled by 400/360 "
                "to the wire rate of 400-byte packets (what ns-2's TCPW measures) before it is compared with 5 Mb/s minus "
                f"the UDP rate; each plateau is averaged from {self.settle_s:g} s after its start (sampled every {self.sample})",
                "BWE runs a few % above the throughput while UDP is on: TCP's ACKs are bunched by the FIFO shared with "
                "CBR packets, and the Tustin filter's (b_k + b_{k−1})/2 term weights a short-gap sample with the next, "
                "longer gap (the ACK-compression bias that motivated Westwood+)",
            ],
        )

    def plot(self, outcome: Outcome, fig: Figure) -> None:
        """The first seed's estimate and throughput over the bandwidth left to TCP, and each
        plateau's mean estimate over seeds with its 95 % CI; the legend below the axes."""
        fig.set_size_inches(COLUMN_IN, 3.4)
        ax = fig.add_subplot()
        avail, bwe, tput, means = outcome.series
        ax.plot(tput.x, tput.y, color=PALETTE[2], alpha=0.4, linewidth=0.6, label=tput.label)
        ax.plot(bwe.x, bwe.y, color=PALETTE[0], linewidth=0.8, label=bwe.label)
        ax.plot(avail.x, avail.y, color="black", linewidth=1.2, linestyle="--", label=avail.label)
        draw_series(ax, [means], colors=(PALETTE[1],), markers=("D",), linestyle="none")
        finish_axes(ax, self.xlabel, self.ylabel, legend=False)
        ax.set_ylim(0, 6.5)
        ax.set_title(figure_title(self))
        figure_legend(fig, ax, columns=1)
