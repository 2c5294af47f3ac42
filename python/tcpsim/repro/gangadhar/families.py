"""gangadhar Fig. 8–9: throughput vs PER of Reno, Westwood and Westwood+ for several delayed-ACK counts or
payload sizes."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from tcpsim.repro import register
from tcpsim.repro.aggregate import NON_NEGATIVE, Curve, curves
from tcpsim.repro.framework import Claim, MissCause, Number, Outcome, Series
from tcpsim.repro.gangadhar.common import (
    FLAVOUR_NOTE,
    FLAVOURS,
    MSS_BYTES,
    NOISE,
    NOT_MODELLED_NOTE,
    NS3_NOTE,
    NS3_TCP,
    PER_FULL,
    PER_QUICK,
    RENO,
    THREE,
    THROUGHPUT,
    WESTWOOD,
    WESTWOOD_PLUS,
    Flavour,
    _error_bar_note,
    _fmt,
    _ge,
    _throughput_mbps,
    _TwoWindows,
    duration_s,
    larger_beyond_noise,
    lossy_link,
    throughput_table,
)
from tcpsim.repro.plotting import DOUBLE_IN, draw_readings, draw_series, figure_legend, figure_title, finish_axes
from tcpsim.repro.sweep import Axis, Sweep
from tcpsim.runner import RunSpec
from tcpsim.tidy import RunKey, select_runs

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from tcpsim.result import RunResult

# --- fig8, fig9: a family of curves per variant --------------------------------------------


@dataclass
class Spread:
    """The spread of one variant's throughput across the settings at one PER: best − worst mean,
    and the runs' own differences (run i of the best setting − run i of the worst; the runs of two
    settings are independent, so any pairing gives independent samples of the difference)."""

    per: float
    best: int
    worst: int
    mean: float
    samples: np.ndarray


def spread_at(c: Mapping[tuple[str, int], Curve], name: str, per: float) -> Spread:
    settings = sorted(s for n, s in c if n == name)
    values = {s: c[(name, s)].at(per) for s in settings}
    best, worst = max(values, key=values.get), min(values, key=values.get)
    runs = min(c[(name, best)].samples[per].size, c[(name, worst)].samples[per].size)
    samples = c[(name, best)].samples[per][:runs] - c[(name, worst)].samples[per][:runs]
    return Spread(per, best, worst, values[best] - values[worst], samples)


def spreads_of(c: Mapping[tuple[str, int], Curve], name: str) -> dict[float, Spread]:
    """Per PER, the spread of `name` across the settings."""
    settings = sorted(s for n, s in c if n == name)
    return {p: spread_at(c, name, p) for p in c[(name, settings[0])].x}


def largest_spread(c: Mapping[tuple[str, int], Curve], name: str) -> Spread:
    return max(spreads_of(c, name).values(), key=lambda s: s.mean)


def order_claim(c: Mapping[tuple[str, int], Curve], best: int, worst: int, setting_name: str, unit: str) -> Claim:
    """fig8/fig9: setting `best` at or above every other, `worst` at or below every other, for every
    variant and PER, within noise."""
    violations, checked = [], 0
    for name in sorted({n for n, _ in c}, key=[f.name for f in THREE].index):
        label = FLAVOURS[name].label
        settings = sorted(s for n, s in c if n == name)
        for p in c[(name, best)].x:
            values = {s: c[(name, s)].at(p) for s in settings}
            checked += 1
            for s, v in values.items():
                if not _ge(values[best], v):
                    violations.append(f"{label} PER {p:g}: {s}{unit} {_fmt(v)} > {best}{unit} {_fmt(values[best])}")
                if not _ge(v, values[worst]):
                    violations.append(f"{label} PER {p:g}: {s}{unit} {_fmt(v)} < {worst}{unit} {_fmt(values[worst])}")
    detail = (
        f"test: at every (variant, PER) {best}{unit} ≥ and {worst}{unit} ≤ every other {setting_name}, within "
        f"{NOISE}; {checked} points checked, "
        + ("no violation" if not violations else f"{len(violations)} violation(s): " + "; ".join(violations[:6]))
    )
    return Claim(f"{setting_name} {best}{unit} best, {worst}{unit} worst for all", not violations, detail)


def spread_broader(c: Mapping[tuple[str, int], Curve], name: str, others: Sequence[str], text: str) -> Claim:
    """fig8/fig9: `name`'s largest spread across the settings exceeds each of `others`' largest,
    by a Welch test at 95 % on the runs' spreads (a tie does not hold)."""
    mine = largest_spread(c, name)
    parts, holds = [], True
    for other in others:
        theirs = largest_spread(c, other)
        larger, verdict = larger_beyond_noise(mine.samples, theirs.samples)
        holds &= larger
        parts.append(f"vs {FLAVOURS[other].label} (PER {theirs.per:g}): {verdict}")
    return Claim(
        text,
        holds,
        f"test: {FLAVOURS[name].label}'s largest spread (mean over runs of best − worst setting at one PER) "
        f"larger than each other variant's, and told apart by a two-sided Welch test at 95 % on the runs' "
        f"spreads (a tie does not hold; with 2 runs a side the test has little power: it separates only "
        f"gaps of several run-to-run standard deviations); {FLAVOURS[name].label} at PER {mine.per:g} "
        f"({mine.best} vs {mine.worst}): " + "; ".join(parts),
    )


def westwood_plus_drops_at_high_per(c: Mapping[tuple[str, int], Curve]) -> Claim:
    """fig8 "Westwood+ ... does exhibit a drop in performance especially over higher error rates": its
    spread across the delayed-ACK counts at PER ≥ 0.001 is more than twice that at the lowest PER,
    and larger than Westwood's there."""
    wp, ww = spreads_of(c, "westwood_plus"), spreads_of(c, "westwood")
    low_p = min(wp)
    wp_high = max(s.mean for p, s in wp.items() if p >= 0.001)
    ww_high = max(s.mean for p, s in ww.items() if p >= 0.001)
    worst = max(s for n, s in c if n == "westwood_plus")
    return Claim(
        "Westwood+ drops at high PER",
        wp_high > 2 * wp[low_p].mean and wp_high > ww_high,
        f"test: Westwood+'s largest spread across counts at PER ≥ 0.001 > 2 × its spread at PER {low_p:g} and > "
        f"Westwood's at PER ≥ 0.001; Westwood+ {wp[low_p].mean:.3f} Mb/s at PER {low_p:g}, up to {wp_high:.3f} "
        f"(Westwood: {ww_high:.3f}); Westwood+ at count {worst}: "
        + ", ".join(f"{p:g}: {_fmt(c[('westwood_plus', worst)].at(p))}" for p in c[("westwood_plus", worst)].x),
    )


def westwood_plus_poor_above(c: Mapping[tuple[str, int], Curve], sizes: Sequence[int]) -> Claim:
    """fig9 "Westwood+ performs poorly at high error rates (greater than 0.001)": from PER 0.001 to 0.01
    Westwood+ keeps a smaller share of its throughput than Westwood does, for every payload size."""
    kept = {
        s: (
            c[("westwood_plus", s)].at(0.01) / c[("westwood_plus", s)].at(0.001),
            c[("westwood", s)].at(0.01) / c[("westwood", s)].at(0.001),
        )
        for s in sizes
    }
    return Claim(
        "Westwood+ poor above PER 0.001",
        all(wp < ww for wp, ww in kept.values()),
        "test: share of the PER-0.001 throughput kept at PER 0.01, Westwood+ < Westwood for every payload size: "
        + ", ".join(f"{s} B {wp:.0%} vs {ww:.0%}" for s, (wp, ww) in kept.items()),
    )


class _Family(_TwoWindows):
    """Throughput vs PER of Reno, Westwood and Westwood+ for several values of one TCP setting."""

    xlabel = "packet error rate (both directions)"
    ylabel = "throughput (Mb/s)"
    xscale = "log"
    seeds_full = 2
    seeds_quick = 2
    setting = ""
    """The setting's name in the run keys and the results table."""
    setting_name = ""
    unit = ""

    def settings(self, quick: bool) -> list[int]:
        raise NotImplementedError

    def scenario(self, flavour: Flavour, setting: int, per: float, quick: bool) -> dict[str, Any]:
        raise NotImplementedError

    def judged_runs(self, quick: bool, seeds: list[int]) -> list[RunSpec]:
        sweep = Sweep(
            Axis("flavour", THREE, key=lambda f: f.name),
            Axis(self.setting, self.settings(False), quick=self.settings(True)),
            Axis("per", PER_FULL, quick=PER_QUICK),
        )
        return sweep.specs(
            lambda flavour, per, **setting: self.scenario(flavour, setting[self.setting], per, quick), quick, seeds
        )

    def curves(self, results: Mapping[RunKey, RunResult]) -> dict[tuple[str, int], Curve]:
        """Throughput vs PER per (flavour name, setting); each point's runs in seed order."""
        table = throughput_table(results).sort_values("seed", kind="stable")
        return curves(table, "per", THROUGHPUT, by=["flavour", self.setting], valid=NON_NEGATIVE)

    def series(self, c: Mapping[tuple[str, int], Curve]) -> list[Series]:
        return [
            c[(f.name, s)].series(f"{f.label}, {self.setting_name} {s}{self.unit}")
            for f in THREE
            for s in sorted(s for n, s in c if n == f.name)
        ]

    def plot(self, outcome: Outcome, fig: Figure) -> None:
        fig.set_size_inches(DOUBLE_IN, 3.2)
        axes = fig.subplots(1, len(THREE), sharey=True)
        for ax, f in zip(axes, THREE):
            mine = [
                Series(s.label.split(", ", 1)[1], s.x, s.y, s.y_ci_low, s.y_ci_high, s.valid)
                for s in outcome.series
                if s.label.startswith(f.label + ",")
            ]
            draw_series(ax, mine)
            finish_axes(ax, self.xlabel, self.ylabel if ax is axes[0] else "", self.xscale, legend=False)
            ax.set_title(f.label)
        fig.suptitle(figure_title(self))

    def plot_readings(self, outcome: Outcome, fig: Figure) -> None:
        """Each variant's alternative-reading curves dashed on its own panel; one legend below."""
        for ax, f in zip(fig.axes, THREE):
            draw_readings(
                ax,
                [
                    (reading.name, Series(s.label.split(", ", 1)[1], s.x, s.y))
                    for reading in outcome.readings
                    for s in reading.series
                    if s.label.startswith(f.label + ",")
                ],
                compact=True,
            )
        figure_legend(fig, fig.axes[0], columns=5)


def _fr_entries(trace: Any, mss: int) -> list[tuple[float, float]]:
    """Fast-recovery entries in an every-change cwnd trace: (cwnd before, new ssthresh) in bytes.

    An entry is a change of ssthresh with cwnd left above one segment (a timeout sets 1 segment).
    """
    cwnd = trace["cwnd_bytes"].to_numpy(dtype=float)
    ssthresh = trace["ssthresh_bytes"].to_numpy(dtype=float)
    out = []
    for i in range(1, len(cwnd)):
        if ssthresh[i] != ssthresh[i - 1] and cwnd[i] > mss:
            out.append((cwnd[i - 1], ssthresh[i]))
    return out


@register
class Fig8(_Family):
    id = "gangadhar.fig8"
    kind = "simulation"
    miss_cause = MissCause(
        "setup",
        (
            "Westwood's spread across delayed-ACK counts (paper < 0.4 Mb/s; ours 0.424 at PER 0.001, count 1 vs "
            "8) sits near the bound and is decided by where the PER grid falls, which the paper does not state "
            "(ours is below 0.4 at every PER but 0.001 and 0.002). ns-3.17 itself, the paper's simulator "
            "(peers/ns317: built from its release tag, the set-up of the authors' own script "
            "examples/tcp/tcp-variants-comparison.cc, 2 runs of 600 s) misses the bound the same way: Westwood "
            "0.418 at PER 0.002 (0.391 at PER 0.001), its spreads at the nine PERs 0.069 0.155 0.287 0.391 0.418 "
            "0.377 0.365 0.329 0.155 against ours 0.080 0.152 0.349 0.424 0.416 0.312 0.225 0.251 0.150; Reno's "
            "largest spread 1.162 at PER 0.0005 (ours 1.104 there, paper close to 1). Its claims agree with ours "
            "but one: count 1 is not best for Reno at PER 0.0001 in ns-3.17 (count 3 1.727 against 1.659), where "
            "ours holds. The ns-3.44 twin (peers/ns3) gave Westwood 0.643 and Reno 0.975."
        ),
    )
    title = "throughput vs PER for delayed-ACK counts 1…8 (timeout 200 ms)"
    setup = (
        "The set-up of fig5 with Reno, Westwood and Westwood+ against PER for delayed-ACK counts 1…8 (1, 2, "
        "4 and 8 in quick mode), timeout 200 ms, 2 runs per point, under the 64 KB main reading and the 128 "
        "KB alternative reading; Westwood's cwnd traced at counts 1 and 8 (PER 0.001) is a diagnostic. "
        "Checked: count 1 best and count 8 worst for every variant and PER, Reno's spread across counts "
        "broader than Westwood's, Westwood+ dropping at high PER; numbers: Reno's largest spread at one PER "
        "close to 1 Mb/s, Westwood's below 0.4 Mb/s."
    )
    setting = "delack_count"
    setting_name = "delayed-ACK count"

    COUNTS_FULL = (1, 2, 3, 4, 5, 6, 7, 8)
    COUNTS_QUICK = (1, 2, 4, 8)
    DIAG_PER = 0.001

    def settings(self, quick: bool) -> list[int]:
        return list(self.COUNTS_QUICK if quick else self.COUNTS_FULL)

    def scenario(self, flavour: Flavour, setting: int, per: float, quick: bool) -> dict[str, Any]:
        return lossy_link(flavour, per=per, delack_count=setting, duration_s=duration_s(quick))

    def extra_runs(self, quick: bool, seeds: list[int]) -> list[RunSpec]:
        # Diagnostic for Westwood's spread: every-change cwnd traces at delayed-ACK counts 1 and 8.
        return [
            RunSpec(
                key=RunKey(kind="diag", delack_count=count),
                seed=1,
                scenario=lossy_link(
                    WESTWOOD, per=self.DIAG_PER, delack_count=count, duration_s=duration_s(quick), trace={"cwnd": True}
                ),
            )
            for count in (1, 8)
        ]

    PAPER_RENO_SPREAD = 1.0
    """Sec. 4.2: "the highest difference ... for Reno was close to 1 Mb/s"."""
    PAPER_WESTWOOD_SPREAD = 0.4
    """Sec. 4.2: "for Westwood, the highest difference was less than 0.4 Mb/s" (an upper bound)."""

    def judge(self, results: Mapping[Any, RunResult], quick: bool) -> Outcome:
        c = self.curves(results)
        counts = sorted(s for n, s in c if n == "reno")
        top = {f.name: largest_spread(c, f.name) for f in THREE}

        def describe(n: str) -> str:
            t = top[n]
            return f"{FLAVOURS[n].label} {t.mean:.3f} at PER {t.per:g} (count {t.best} vs {t.worst})"

        claims = [
            order_claim(c, counts[0], counts[-1], self.setting_name, self.unit),
            spread_broader(c, "reno", ["westwood"], "Reno's spread across delayed-ACK counts broader than Westwood's"),
            westwood_plus_drops_at_high_per(c),
        ]
        diag = self._diagnostic(results)
        reno_spreads = spreads_of(c, "reno")
        reno = Number(
            "Reno: largest spread across delayed-ACK counts at one PER (Mb/s), paper close to 1",
            self.PAPER_RENO_SPREAD,
            top["reno"].mean,
        )
        if reno.status == "missed":
            reno.explanation = (
                f"{describe('reno')}; the spread peaks at low PER, where count 1 is still nearly link-limited and "
                f"count 8 is not, so its maximum depends on where the PER grid falls, which the paper does not "
                f"state: at PER 0.001 ours is {reno_spreads[0.001].mean:.3f} Mb/s, at PER {min(reno_spreads):g} "
                f"{reno_spreads[min(reno_spreads)].mean:.3f}"
            )
        westwood = Number(
            "Westwood: largest spread across delayed-ACK counts at one PER (Mb/s), paper < 0.4",
            self.PAPER_WESTWOOD_SPREAD,
            top["westwood"].mean,
            kind="upper",
        )
        if westwood.status == "missed":
            westwood.explanation = (
                f"{describe('westwood')}. Larger delayed-ACK counts slow the ACK clock and the per-ACK growth, and "
                f"the ns-3 rule that sets cwnd = BWE·RTTmin at the end of every fast recovery, even upwards "
                f"(modelled: ns3_fast_recovery), does not fully compensate" + (f"; diagnostic ({diag})" if diag else "")
            )
        notes = [
            FLAVOUR_NOTE,
            NS3_NOTE,
            _error_bar_note(c),
            NOT_MODELLED_NOTE,
            "spread = max − min over the delayed-ACK counts of the mean throughput at one PER; "
            + "; ".join(describe(n) for n in top),
            "congestion avoidance counts ACKs (max(1, ⌊SMSS²/cwnd⌋) bytes per ACK, as ns-3's NewAck does), "
            "so larger counts grow the window more slowly",
        ]
        return Outcome(series=self.series(c), claims=claims, numbers=[reno, westwood], notes=notes)

    def main_notes(self, results: Mapping[Any, RunResult], judged: Outcome, quick: bool) -> list[str]:
        return [
            f"diagnostic runs (seed 1, PER {self.DIAG_PER:g}, every-change cwnd trace): {self._diagnostic(results)}"
        ]

    def _diagnostic(self, results: Mapping[Any, RunResult]) -> str:
        parts = []
        for count in (1, 8):
            r = results.get(RunKey(kind="diag", delack_count=count))
            if r is None:
                continue
            entries = _fr_entries(r.trace("cwnd"), MSS_BYTES)
            short = [(s - w) / MSS_BYTES for w, s in entries if w < s]
            parts.append(
                f"count {count}: {len(entries)} fast recoveries, cwnd below BWE·RTTmin at "
                f"{len(short) / max(len(entries), 1):.0%} of them by {np.mean(short) if short else 0:.1f} "
                f"segments on average, throughput {_throughput_mbps(r):.3f} Mb/s"
            )
        return "; ".join(parts)


FIG9_NS3_MAX_RTO = "12.8s"
"""ns-3's RttEstimator caps the RTO back-off multiplier at MaxMultiplier = 64: 64 × 2 × RTT ≈ 12.8 s for an
RTT near 100 ms (sensitivity of fig9's 41-byte Westwood)."""


@register
class Fig9(_Family):
    id = "gangadhar.fig9"
    kind = "simulation"
    miss_cause = MissCause(
        "setup",
        (
            "ns-3.17 itself, the paper's simulator (peers/ns317: built from its release tag, the set-up of the "
            "authors' own script examples/tcp/tcp-variants-comparison.cc, 2 runs of 600 s) agrees with tcpsim and "
            "not with the paper on all three spreads: Reno at PER 0.001 1.728 Mb/s (ours 1.706, paper about 1.4), "
            "Westwood at PER 0.01 1.493 (ours 1.464, paper < 1), Westwood+ at PER 0.01 1.457 (ours 1.484, paper "
            "close to 1.2); 1460 B is the best and 41 B the worst payload for all three in both, and \"Reno's "
            'spread largest" fails in both (Reno ties Westwood). Its 1460-byte Reno at PER 0.001 times out 14 '
            "times in 600 s, every timeout in fast recovery and spurious: a fast retransmission leaves the "
            "running retransmission timer alone (SendDataPacket schedules it only when none is pending), so it "
            "expires one RTO after the last new ACK while the retransmission waits in the router's queue; our "
            'main reading does the same (fast_retransmit_timer = "keep"). The paper\'s Westwood spread below 1 '
            "Mb/s needs a 41-byte Westwood near capacity, which neither simulator gives on this set-up: a set-up "
            "the paper does not give. The ns-3.44 twin (peers/ns3, ns-3.17's RTO rules emulated) put Reno's "
            "spread at 1.36, near the paper, by a run of repeated fast recoveries after a spurious timeout that "
            "ns-3.17 does not show: an artefact of the emulation."
        ),
    )
    title = "throughput vs PER for payloads 41…1460 B"
    setup = (
        "The set-up of fig5 with Reno, Westwood and Westwood+ against PER for segment payloads of 41, 100, "
        "200, 400, 536, 1000 and 1460 bytes (41, 400 and 1460 in quick mode), 2 runs per point, under the 64 "
        "KB main reading and the 128 KB alternative reading. Sensitivity runs: Reno at 41 and 1460 B with "
        "tcpsim's defaults, errors on the data direction only, and the 41-byte Westwood with ns-3's RTO "
        "back-off cap (12.8 s). Checked: 1460 B best and 41 B worst for all, Reno's spread the largest, "
        "Westwood+ poor above PER 0.001; numbers: spreads across payloads of about 1.4 Mb/s for Reno at PER "
        "0.001, below 1 Mb/s for Westwood and about 1.2 Mb/s for Westwood+ at PER 0.01."
    )
    setting = "payload"
    setting_name = "payload"
    unit = " B"

    SIZES_FULL = (41, 100, 200, 400, 536, 1000, 1460)
    SIZES_QUICK = (41, 400, 1460)
    TRACE = {"cwnd": True, "interval": "1s"}

    def settings(self, quick: bool) -> list[int]:
        return list(self.SIZES_QUICK if quick else self.SIZES_FULL)

    def scenario(self, flavour: Flavour, setting: int, per: float, quick: bool) -> dict[str, Any]:
        return lossy_link(flavour, per=per, mss=setting, duration_s=duration_s(quick), trace=self.TRACE)

    PAPER_RENO_SPREAD = 1.4
    """Sec. 4.2: "a maximum difference of approximately 1.4 Mb/s observed at a packet error rate of 0.001"."""
    PAPER_WESTWOOD_SPREAD = 1.0
    """Sec. 4.2: Westwood's maximum difference "smaller than 1 Mb/s", at PER 0.01 (an upper bound)."""
    PAPER_WESTWOOD_PLUS_SPREAD = 1.2
    """Sec. 4.2: Westwood+'s maximum difference "close to 1.2 Mb/s at an error rate of 0.01"."""

    def judge(self, results: Mapping[Any, RunResult], quick: bool) -> Outcome:
        c = self.curves(results)
        sizes = sorted(s for n, s in c if n == "reno")
        reno_largest = spread_broader(c, "reno", ["westwood", "westwood_plus"], "Reno's spread largest")
        if not reno_largest.ok:
            reno_largest.detail += self._westwood_spread_reason(results, c, sizes, largest_spread(c, "westwood").per)
        claims = [
            order_claim(c, sizes[-1], sizes[0], self.setting_name, self.unit),
            reno_largest,
            westwood_plus_poor_above(c, sizes),
        ]

        def spread_at_text(name: str, per: float) -> tuple[float, str]:
            spread = spread_at(c, name, per)
            return spread.mean, (
                f"{FLAVOURS[name].label} at PER {per:g}: {spread.best} B "
                f"{_fmt(c[(name, spread.best)].at(per))} − {spread.worst} B "
                f"{_fmt(c[(name, spread.worst)].at(per))} Mb/s"
            )

        reno, reno_text = spread_at_text("reno", 0.001)
        ww, ww_text = spread_at_text("westwood", 0.01)
        wp, wp_text = spread_at_text("westwood_plus", 0.01)
        small = self._small_windows(results)
        ww_small = small.get(("westwood", 0.01))
        stuck = results.get(RunKey(flavour="westwood", payload=41, per=0.01, seed=1))
        capped_rto = [_throughput_mbps(r) for key, r in results.items() if key.get("kind") == "max_rto_ns3"]
        ww_explanation = ww_text + (
            f". With 41-byte segments Westwood's ssthresh = BWE·RTTmin averages {ww_small[1]:.0f} segments (seed 1, "
            f"after 10 s), about the pipe, and ns-3's 1-byte-per-ACK growth floor (cwnd > SMSS²) adds a few "
            f"segments per RTT, so the window overruns the 100-packet router buffer by dozens of segments at a "
            f"time; Reno-style recovery then times out, and go-back-N over hundreds of retransmitted segments yields no Karn-valid RTT "
            f"sample, so the backed-off RTO persists (RFC 6298 §5; ns-3's RttEstimator likewise resets its multiplier "
            f"only on a valid sample): {int(stuck.flows.iloc[0]['timeouts'])} timeouts, RTO "
            f"{stuck.flows.iloc[0]['final_rto_s']:.1f} s at the end (tcpsim's 60 s cap), the flow idle for most of the "
            f"run. ns-3's RttEstimator caps the back-off at 64 × (about 13 s here, MaxMultiplier = 64); with "
            f"max_rto = {FIG9_NS3_MAX_RTO} (sensitivity) the 41-byte flow gets "
            + (f"{np.mean(capped_rto):.3f} Mb/s" if capped_rto else "(not run)")
            + ", still far below. How ns-3 avoided this (the paper's 41-byte Westwood is within 1 Mb/s of 1460 B) is "
            "not recoverable from the paper"
            if ww_small and stuck is not None
            else ""
        )
        reno_small = small.get(("reno", 0.001))
        sens = self._reno_sensitivity(results)
        reno_big = c[("reno", sizes[-1])].at(0.001)
        reno_explanation = (
            f"{reno_text}; the gap is at the {sizes[-1]}-byte end: our flow runs at {reno_big / (2 * 1460 / 1502):.0%} "
            f"of the 1.94 Mb/s payload capacity, while a 1.4 Mb/s spread puts the paper's near "
            f"{1.4 + c[('reno', sizes[0])].at(0.001):.2f} Mb/s, and nothing at the {sizes[0]}-byte end can close it "
            f"(its throughput, {_fmt(c[('reno', sizes[0])].at(0.001))} Mb/s, is already below 0.1). The paper reports "
            f"that its ns-3 Reno departs from the original work in this topology at this delay (Sec. 4.2, "
            f'Fig. 6: "for '
            f"minimal propagation delays, there is a difference in the performance of Reno ... currently being "
            f'investigated"; the bottleneck delay here is 0.01 ms); our reading, which the paper cannot confirm, is '
            f"that the same unidentified deficit of its ns-3 Reno lowers its 1460-byte curve. Sensitivity runs "
            f"leave our spread where it is: tcpsim's defaults instead of ns-3's "
            f"{self._reno_sensitivity(results)}; errors on the data direction only "
            f"{self._data_only(results, 'reno', 0.001)}"
        )
        wp_big = c[("westwood_plus", sizes[-1])]
        wp_small = small.get(("westwood_plus", 0.01))
        wp_explanation = (
            f"{wp_text}; {wp / 1.2 - 1:.0%} above the paper (tolerance 15 %), at the {sizes[-1]}-byte end (sd "
            f"{float(wp_big.sd[wp_big.x.index(0.01)]):.3f} Mb/s over {wp_big.runs} runs, so not run-to-run noise); "
            f"errors on the data direction only: {self._data_only(results, 'westwood_plus', 0.01)}. No ns-3 detail "
            f"we identified shrinks it: our {sizes[0]}-byte Westwood+ already leaves fast recovery at ssthresh "
            f"(as ns-3) and its window, " + (f"{wp_small[0]:.0f}" if wp_small else "?") + " segments, is below the "
            "41 segments where ns-3's at-least-1-byte growth would change it. Our hypothesis, not tested: the "
            "paper's large-payload flows share the Reno-recovery deficit of its ns-3 code (previous number), as "
            "Westwood+ recovers like Reno"
        )
        numbers = [
            Number(
                "Reno: spread across payload sizes at PER 0.001 (Mb/s), paper approximately 1.4",
                self.PAPER_RENO_SPREAD,
                reno,
            ),
            Number(
                "Westwood: spread across payload sizes at PER 0.01 (Mb/s), paper < 1",
                self.PAPER_WESTWOOD_SPREAD,
                ww,
                kind="upper",
            ),
            Number(
                "Westwood+: spread across payload sizes at PER 0.01 (Mb/s), paper close to 1.2",
                self.PAPER_WESTWOOD_PLUS_SPREAD,
                wp,
            ),
        ]
        for number, explanation in zip(numbers, (reno_explanation, ww_explanation, wp_explanation)):
            if number.status == "missed":
                number.explanation = explanation
        reno_note = (
            f"Reno's spread at PER 0.001: {reno_text}; the 1460-byte flow runs at "
            f"{c[('reno', sizes[-1])].at(0.001) / (2 * 1460 / 1502):.0%} of the 1.94 Mb/s payload capacity, so a "
            f"1.4 Mb/s spread would need ns-3's large-payload Reno to lose ~0.4 Mb/s more than ours, and ns-3's "
            f"growth rule (modelled: ca_increment = ns3) cannot lift our 41-byte Reno (window "
            + (f"{reno_small[0]:.0f}" if reno_small else "?")
            + " segments < 41, where ns-3's ⌊SMSS²/cwnd⌋ truncation grows it more slowly, not faster). "
            f"Sensitivity with tcpsim's defaults instead of ns-3's: {sens}. The paper itself reports an unexplained "
            f"difference of ns-3's Reno from the original work (Sec. 4.2, Fig. 6)"
        )
        wp_note = (
            f"Westwood+'s spread at PER 0.01: {wp_text}; no ns-3 detail we know of shrinks it: our "
            f"41-byte Westwood+ already leaves fast recovery at ssthresh (as ns-3) and its window, "
            + (f"{wp_small[0]:.0f}" if wp_small else "?")
            + " segments, is below the 41 segments where ns-3's at-least-1-byte growth would speed it up"
        )
        notes = [reno_note, wp_note]
        notes += [
            FLAVOUR_NOTE,
            NS3_NOTE,
            _error_bar_note(c),
            NOT_MODELLED_NOTE,
            'payload = TCP segment size: the paper\'s "MTU" is its segment size (Sec. 4.1: "An MTU size of '
            '400 B is used as the segment size"; Sec. 4.2: "payload sizes of 1460 B for a 1500 B MTU. We use '
            '41 B to represent the minimum payload case"); a 41-byte MTU (1-byte payload) would cap the '
            "smallest curve at 2/43 ≈ 0.05 Mb/s and widen every spread",
            "spread = max − min over the payload sizes of the mean throughput at one PER; the router buffer is "
            "100 packets whatever their size; throughput counts payload bytes",
        ]
        return Outcome(series=self.series(c), claims=claims, numbers=numbers, notes=notes)

    MAX_RTO_RUNS = ((WESTWOOD, 41, 0.01),)
    """Runs with ns-3's capped RTO back-off (MaxMultiplier 64, sensitivity)."""

    DATA_ONLY = ((RENO, 41, 0.001), (RENO, 1460, 0.001), (WESTWOOD_PLUS, 41, 0.01), (WESTWOOD_PLUS, 1460, 0.01))
    """(flavour, payload, PER) run with errors on the data direction only (sensitivity)."""

    def extra_runs(self, quick: bool, seeds: list[int]) -> list[RunSpec]:
        # Sensitivity of Reno's spread to the ns-3 defaults: its two ends with tcpsim's defaults.
        specs = [
            RunSpec(
                key=RunKey(kind="tcpsim_defaults", flavour=RENO.name, payload=size, seed=seed),
                seed=seed,
                scenario=lossy_link(RENO, per=0.001, mss=size, duration_s=duration_s(quick), ns3=False),
            )
            for size in (41, 1460)
            for seed in seeds
        ]
        # Errors on the data direction only (a ReceiveErrorModel on the sink's device alone; the paper
        # says only that errors "occur over the bottleneck link").
        for f, size, per in self.DATA_ONLY:
            for seed in seeds:
                scenario = lossy_link(f, per=per, mss=size, duration_s=duration_s(quick))
                scenario["links"][1]["loss"][0]["direction"] = "ab"
                key = RunKey(kind="data_errors_only", flavour=f.name, payload=size, per=per, seed=seed)
                specs.append(RunSpec(key=key, scenario=scenario, seed=seed))
        for f, size, per in self.MAX_RTO_RUNS:
            for seed in seeds:
                scenario = lossy_link(f, per=per, mss=size, duration_s=duration_s(quick))
                scenario["tcp"]["max_rto"] = FIG9_NS3_MAX_RTO
                key = RunKey(kind="max_rto_ns3", flavour=f.name, payload=size, per=per, seed=seed)
                specs.append(RunSpec(key=key, scenario=scenario, seed=seed))
        return specs

    @staticmethod
    def _size_spread(results: Mapping[RunKey, RunResult], **selected: Any) -> str:
        """Mean throughput at 1460 B minus that at 41 B over the runs whose key has the `selected`
        parameters."""
        by_size: dict[int, list[float]] = {}
        for key, r in select_runs(results, **selected).items():
            by_size.setdefault(key["payload"], []).append(_throughput_mbps(r))
        if set(by_size) != {41, 1460}:
            return "not run"
        big, tiny = float(np.mean(by_size[1460])), float(np.mean(by_size[41]))
        return f"1460 B {big:.3f} − 41 B {tiny:.3f} = {big - tiny:.3f} Mb/s"

    @staticmethod
    def _data_only(results: Mapping[Any, RunResult], name: str, per: float) -> str:
        return Fig9._size_spread(results, kind="data_errors_only", flavour=name, per=per)

    @staticmethod
    def _mean_of(results: Mapping[Any, RunResult], name: str, size: int, per: float, column: str) -> float:
        values = [
            float(r.flows.iloc[0][column])
            for key, r in results.items()
            if "kind" not in key and key.matches(flavour=name, payload=size, per=per)
        ]
        return float(np.mean(values)) if values else float("nan")

    def _westwood_spread_reason(
        self, results: Mapping[Any, RunResult], c: Mapping[tuple[str, int], Curve], sizes: list[int], p: float
    ) -> str:
        """Why Westwood's spread at PER `p` is large: its smallest-payload flow keeps timing out."""
        small, big = sizes[0], sizes[-1]
        capacity = 2.0 * small / (small + NS3_TCP["header"])
        ww_to = self._mean_of(results, "westwood", small, p, "timeouts")
        reno_to = self._mean_of(results, "reno", small, p, "timeouts")
        rtt_min = self._mean_of(results, "westwood", small, p, "rtt_min_s")
        pipe = 2e6 * rtt_min / ((small + NS3_TCP["header"]) * 8)
        return (
            f". Westwood's spread peaks at PER {p:g} because its {small}-byte flow gets "
            f"{_fmt(c[('westwood', small)].at(p))} Mb/s ({c[('westwood', small)].at(p) / capacity:.0%} of the "
            f"{capacity:.2f} Mb/s payload capacity of {small}-byte segments; Reno "
            f"{_fmt(c[('reno', small)].at(p))}) "
            f"with {ww_to:.0f} timeouts per run against Reno's {reno_to:.0f}: with {small}-byte segments the pipe "
            f"holds about {pipe:.0f} packets and the router 100, ssthresh = BWE·RTTmin is about the pipe, and "
            f"ns-3's 1-byte-per-ACK growth floor (cwnd > SMSS²) adds about {pipe / 2 / small:.0f} segments "
            f"per RTT (one delayed ACK per 2 segments), so the window overruns the buffer by dozens of "
            f"segments; after the timeout, go-back-N resends segments the receiver holds, their duplicate ACKs "
            f"trigger a fast retransmit (ns-3 has no `recover` check), and leaving that recovery sets cwnd = "
            f"ssthresh ≈ the pipe at once (ns-3's `NewAck`), a burst the buffer cannot take. "
            f"The paper's Westwood spread (< 1 Mb/s at every PER, Sec. 4.2) needs its {small}-byte Westwood within "
            f"1 Mb/s of the {big}-byte one, i.e. near the {capacity:.2f} Mb/s capacity even at PER {p:g}; how ns-3 "
            f"got there is not recoverable from the paper"
        )

    @staticmethod
    def _reno_sensitivity(results: Mapping[Any, RunResult]) -> str:
        return Fig9._size_spread(results, kind="tcpsim_defaults")

    @staticmethod
    def _small_windows(results: Mapping[Any, RunResult]) -> dict[tuple[str, float], tuple[float, float]]:
        """Time-averaged cwnd and ssthresh (segments) of the 41-byte runs of seed 1, after 10 s."""
        out = {}
        for f in THREE:
            for per in (0.001, 0.01):
                r = results.get(RunKey(flavour=f.name, payload=41, per=per, seed=1))
                if r is None:
                    continue
                trace = r.trace("cwnd")
                trace = trace[trace["time_s"] >= 10]
                out[(f.name, per)] = (
                    float(trace["cwnd_bytes"].mean()) / 41,
                    float(trace["ssthresh_bytes"].mean()) / 41,
                )
        return out
