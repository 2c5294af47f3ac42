"""Gangadhar, Nguyen, Umapathi & Sterbenz, "TCP Westwood(+) Protocol Implementation in ns-3"
(WNS3 2013, seed 001): every `gangadhar` experiment of EXPERIMENTS.md.

- `gangadhar.fig5`: throughput vs PER 0.0001…0.05, Tahoe, Reno, NewReno, Westwood, Westwood+;
- `gangadhar.fig6`: throughput vs bottleneck delay 0.01 ms…250 ms (PER 0.005);
- `gangadhar.fig7`: throughput vs bottleneck bandwidth 1…8 Mb/s (PER 0.005);
- `gangadhar.fig8`: throughput vs PER for delayed-ACK counts 1…8 (Reno, Westwood, Westwood+);
- `gangadhar.fig9`: throughput vs PER for payloads 41…1460 B (Reno, Westwood, Westwood+);
- `gangadhar.fig10`: cwnd of Westwood, Westwood+ and Reno over 600 s, sampled every 3 s;
- `gangadhar.fig11`: bandwidth estimate of Westwood and Westwood+ under ACK compression.

Set-up (Fig. 3, Table 1; `scenarios/lossy_link.toml`): source —10 Mb/s, 45 ms— router —2 Mb/s,
0.01 ms— sink; 400-byte segments; delayed ACKs every 2 segments, 200 ms timeout; Bernoulli
packet errors on both directions of the bottleneck, PER 0.005 unless swept; drop-tail router
buffer of 100 packets (the catalog's assumption); one bulk flow for 600 s, throughput over the
whole run (the paper's "average throughput"); two runs per point, error bars ± one standard
deviation (the paper's convention; the 95 % Student-t interval is reported in the notes).

The paper's Westwood and Westwood+ are its ns-3 code (`TcpWestwood`, Sec. 3.2, later merged into
ns-3), reproduced with the cc/recovery overrides:
- Westwood: one bandwidth sample per ACK (eq. 2) through the fixed-coefficient Tustin filter
  α = 0.9 on the mean of the last two samples (Sec. 2.4 eq. 1, `Filtering()`), no virtual null
  samples (the ns-3 code has none): ``cc = {kind="westwood", null_sample_divisor=0,
  filter={kind="tustin_fixed", alpha=0.9}}``;
- Westwood+: one sample per RTT (eq. 3), the same α = 0.9 filter, no 50 ms floor:
  ``cc = {kind="westwood_plus", filter={kind="tustin_fixed", alpha=0.9}, min_window="0s"}``;
- both over **Reno** recovery: the ns-3 class derives from `TcpSocketBase`, not `TcpNewReno`;
  its `NewAck` "follows the same rules as in TCP Reno" (Sec. 3.2) and leaves fast recovery on
  the first new ACK (Sec. 2.4: "a sender side modification to TCP Reno").
The tcpsim default flavours (`westwood`: casetti/ns-2 Tustin filter with τ = 500 ms and null
samples; `westwood_plus`: Linux two-stage EWMA with a 50 ms floor over NewReno) are reported as
unjudged extra curves (dashed in fig5–7, grey in fig11) and in the notes of fig10.

Parameters the paper leaves to the ns-3 defaults of its time are set to them (`NS3_TCP`):
minimum RTO 200 ms (`RttEstimator::MinRTO` of the 2013 releases; 1 s later); initial window
1 segment and initial ssthresh 65 535 bytes (`TcpSocket::InitialCwnd`,
`InitialSlowStartThreshold`); no RFC 6582 "covers more than recover" check before fast
retransmit (ns-3's `DupAck` enters fast retransmit whenever the third duplicate ACK arrives outside
recovery); 42 header bytes per packet (IPv4 20 + TCP 20 + PPP 2). fig5 also runs the five variants
with tcpsim's own defaults, and the paper's Westwood/Westwood+ over NewReno recovery, as sensitivities.

The advertised window is read two ways (two readings, each judged on its own). Neither the paper
nor the catalog states it, so the main reading is the default of the ns-3 of the paper's time
(ns-3.17, 2013): at most 65 535 bytes (`TcpSocketBase::MaxWindowSize`, 16 bits, no window scaling
until ns-3.24; `NS3_RWND`). This follows the rule "the tool's defaults where the paper is silent",
not the result: fig7's fall under this window was known before the choice (an earlier version
of this module advertised 128 KB after seeing it), so the choice is the rule's, stated here, and a
failing fig7 claim under it is a result. The alternative reading, "ns-3 window scaling / 128 KB",
advertises ns-3's default receive buffer (`TcpSocket::RcvBufSize`, 131 072 bytes; `SCALED_RWND`),
what ns-3 advertises once the window may scale. Its hypothesis: the paper's fig7 shows Westwood
rising with bandwidth up to 8 Mb/s and comparable to casetti's Fig. 11 (ns-2, where a 64 KB window
never binds at the 45 ms RTT), which a 64 KB window would not allow; so the authors' build may have
advertised more. Every judged run is repeated under the alternative reading (sensitivity runs
are made under the main reading only); the scaled reading is bounded too: without any bound,
NewReno's window inflation through a long recovery runs away (cwnd of megabytes), which the
paper's NewReno ≈ Reno rules out. ns-3's default 100-packet queue on the source's device
(`NS3_DEVICE_QUEUE`) is made large in both readings (the catalog gives 100 packets to the router
only); with it and the 64 KB window the burst that ends a window-capped recovery overflows it and
Westwood collapses above 4 Mb/s (fig7 sensitivity run).

Sensitivity runs where the paper is silent or our numbers differ: fig7 with ns-3's 100-packet
device queue, and with Westwood's cwnd traced at 6–8 Mb/s; fig9 with
errors on the data direction only and with ns-3's RTO back-off cap (MaxMultiplier 64); fig11 with
NewReno as flow 2, 1 ms access links, and Westwood's peak without the two ns-3 growth rules below.

Two ns-3 behaviours are selected by parameters: `TcpWestwood` (both protocol types) enters fast
recovery with cwnd = min(cwnd, BWE·RTTmin), not inflated by the three duplicate ACKs (`DupAck`),
and leaves it with cwnd = ssthresh even if that raises the window (`NewAck`)
(`ns3_fast_recovery = true`); congestion avoidance adds max(1, ⌊SMSS²/cwnd⌋) bytes per ACK
(`ca_increment = "ns3"`). Not modelled: ns-3's
ssthresh has no whole-segment rounding or 2-segment floor on duplicate ACKs.
"""

from __future__ import annotations

import copy
import dataclasses
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any

import numpy as np

from tcpsim.paths import scenario_path
from tcpsim.repro import register
from tcpsim.repro.framework import Claim, Experiment, Number, Outcome, Reading, Series
from tcpsim.runner import RunSpec
from tcpsim.stats import mean_ci, means_differ

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from tcpsim.result import RunResult

# --- set-up --------------------------------------------------------------------------------

PAPER = "gangadhar"
MSS_BYTES = 400
DURATION_FULL_S = 600
DURATION_QUICK_S = 200
DEFAULT_PER = 0.005

NS3_RWND = "65535B"
"""ns-3.17's largest advertised window (`MaxWindowSize`, 16 bits, no window scaling): the main reading."""
NS3_TCP: dict[str, Any] = {
    "min_rto": "200ms",
    "init_cwnd": 1,
    "init_ssthresh": "65535B",
    "rwnd": NS3_RWND,
    "avoid_repeated_fast_retransmit": False,
    "header": 42,
    "ca_increment": "ns3",
}
"""The ns-3 (2013) defaults of the parameters the paper does not state (the main reading)."""
SCALED_RWND = "131072B"
"""ns-3's default receive buffer (`TcpSocket::RcvBufSize`), advertised once the window may scale: the
alternative reading's window (module docstring)."""

MAIN_READING = "ns-3.17 defaults: 64 KB advertised window"
SCALED_READING = "ns-3 window scaling / 128 KB"
SCALED_HYPOTHESIS = (
    "the authors' ns-3 advertised its 131 072-byte receive buffer rather than ns-3.17's 16-bit 65 535-byte "
    "window: the paper's fig7 shows Westwood rising with bandwidth to 8 Mb/s and comparable to casetti's Fig. 11 "
    "(ns-2, where a 64 KB window never binds at the 45 ms RTT), which a 64 KB window does not allow here")
SCALED_KEY = "scaled_rwnd"
"""First element of the key of a run of the alternative reading (the rest is the main run's key)."""
NS3_DEVICE_QUEUE = "100pkt"
"""ns-3's default device queue (DropTailQueue, MaxPackets 100) on every point-to-point device.
The main runs give it to the router only (the catalog's assumption); on the source's 10 Mb/s
device it is a sensitivity run of fig7: ns-3 of 2013 had no flow control between TCP and the
device, so a burst of more than 101 segments was dropped at the sender."""

WESTWOOD_NS3_CC: dict[str, Any] = {
    "kind": "westwood", "null_sample_divisor": 0, "filter": {"kind": "tustin_fixed", "alpha": 0.9},
    "ns3_fast_recovery": True,
}
WESTWOOD_PLUS_NS3_CC: dict[str, Any] = {
    "kind": "westwood_plus", "filter": {"kind": "tustin_fixed", "alpha": 0.9}, "min_window": "0s",
    "ns3_fast_recovery": True,
}


@dataclass(frozen=True)
class Flavour:
    """One curve's TCP: a preset variant and optionally the cc/recovery halves overridden."""

    name: str
    label: str
    variant: str
    cc: Mapping[str, Any] | None = field(default=None, hash=False)
    recovery: str | None = None
    judged: bool = True
    """False for the tcpsim default flavours, drawn for comparison only."""

    def tcp(self) -> dict[str, Any]:
        """Per-flow [flows.tcp] overrides."""
        out: dict[str, Any] = {}
        if self.cc is not None:
            out["cc"] = copy.deepcopy(dict(self.cc))
        if self.recovery is not None:
            out["recovery"] = self.recovery
        return out


TAHOE = Flavour("tahoe", "Tahoe", "tahoe")
RENO = Flavour("reno", "Reno", "reno")
NEWRENO = Flavour("newreno", "NewReno", "newreno")
WESTWOOD = Flavour("westwood", "Westwood", "westwood", WESTWOOD_NS3_CC, "reno")
WESTWOOD_PLUS = Flavour("westwood_plus", "Westwood+", "westwood_plus", WESTWOOD_PLUS_NS3_CC, "reno")
WESTWOOD_CASETTI = Flavour("westwood_casetti", "Westwood, tcpsim default (casetti/ns-2)", "westwood", judged=False)
WESTWOOD_PLUS_LINUX = Flavour("westwood_plus_linux", "Westwood+, tcpsim default (Linux)", "westwood_plus",
                              judged=False)
FIVE = (TAHOE, RENO, NEWRENO, WESTWOOD, WESTWOOD_PLUS)
THREE = (RENO, WESTWOOD, WESTWOOD_PLUS)
DEFAULT_FLAVOURS = (WESTWOOD_CASETTI, WESTWOOD_PLUS_LINUX)
FLAVOURS = {f.name: f for f in (*FIVE, *DEFAULT_FLAVOURS)}

PER_FULL = (0.0001, 0.0002, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05)
PER_QUICK = (0.0001, 0.0005, 0.001, 0.005, 0.01, 0.05)

FLAVOUR_NOTE = (
    "paper's flavours (ns-3 TcpWestwood, Sec. 3.2), over Reno recovery as the ns-3 class is: Westwood = per-ACK "
    "samples, Tustin filter with fixed α = 0.9 on the mean of the last two samples, no null samples "
    "and ns-3's fast-recovery windows: min(cwnd, ssthresh) uninflated at entry, ssthresh at exit even if larger "
    "(cc = {kind=\"westwood\", null_sample_divisor=0, filter={kind=\"tustin_fixed\", alpha=0.9}, "
    "ns3_fast_recovery=true}); Westwood+ = one sample per RTT, same filter, no 50 ms floor, same recovery windows "
    "(cc = {kind=\"westwood_plus\", filter={kind=\"tustin_fixed\", alpha=0.9}, min_window=\"0s\", "
    "ns3_fast_recovery=true})"
)
NS3_NOTE = (
    "ns-3 (2013) defaults for what the paper omits: min RTO 200 ms, initial cwnd 1 segment, initial ssthresh "
    "65 535 B, advertised window 65 535 B (16 bits, no window scaling in ns-3.17), no RFC 6582 recover check "
    "before fast retransmit, 42 header bytes (IPv4 + TCP + PPP), congestion avoidance adding max(1, ⌊SMSS²/cwnd⌋) "
    "bytes per ACK (ca_increment = \"ns3\"); router buffer 100 packets drop-tail, errors in both directions of the "
    "bottleneck (catalog assumptions); the source's device queue is large, not ns-3's 100 packets (fig7 "
    "sensitivity run). Alternative reading \"" + SCALED_READING + "\": the same with a 131 072-byte window"
)
NOT_MODELLED_NOTE = (
    "ns-3 detail tcpsim does not model: ns-3 ssthresh = BWE·RTTmin in bytes with no 2-segment floor on "
    "duplicate ACKs, tcpsim rounds down to whole segments, at least 2"
)


@cache
def _lossy_link_template() -> dict[str, Any]:
    with scenario_path("lossy_link").open("rb") as file:
        return tomllib.load(file)


def lossy_link(
    flavour: Flavour,
    *,
    per: float = DEFAULT_PER,
    bottleneck_delay: str = "0.01ms",
    bottleneck_rate: str = "2Mbps",
    delack_count: int = 2,
    mss: int = MSS_BYTES,
    duration_s: float = DURATION_FULL_S,
    trace: Mapping[str, Any] | None = None,
    ns3: bool = True,
) -> dict[str, Any]:
    """The Fig. 3 / Table 1 set-up (`scenarios/lossy_link.toml`) as a scenario dict.

    ``ns3=False`` keeps tcpsim's own defaults for the parameters the paper omits (sensitivity).
    """
    scenario = copy.deepcopy(_lossy_link_template())
    scenario["name"] = f"gangadhar: {flavour.label}, PER {per:g}"
    scenario["duration"] = f"{duration_s:g}s"
    tcp = scenario.setdefault("tcp", {})
    tcp.update({"mss": mss, "delack_count": delack_count, "delack_timeout": "200ms"})
    if ns3:
        tcp.update(NS3_TCP)
    access, bottleneck = scenario["links"]
    assert access["name"] == "access" and bottleneck["name"] == "lossy", "lossy_link.toml changed shape"
    bottleneck["rate"] = bottleneck_rate
    bottleneck["delay"] = bottleneck_delay
    bottleneck["queue"] = "100pkt"
    bottleneck["loss"] = [{"kind": "bernoulli", "p": per, "direction": "both"}]
    (flow,) = scenario["flows"]
    flow["variant"] = flavour.variant
    if flavour.tcp():
        flow["tcp"] = flavour.tcp()
    else:
        flow.pop("tcp", None)
    if trace:
        scenario["trace"] = dict(trace)
    return scenario


def duration_s(quick: bool) -> int:
    return DURATION_QUICK_S if quick else DURATION_FULL_S


# --- statistics and checks -----------------------------------------------------------------


@dataclass
class Curve:
    """Mean throughput (Mb/s) over runs at each x, with the standard deviation (the paper's error
    bars), the 95 % Student-t half-width and the runs' own values (for tests between curves)."""

    x: list[Any]
    mean: np.ndarray
    sd: np.ndarray
    ci_half: np.ndarray
    runs: int
    samples: dict[Any, np.ndarray] = field(default_factory=dict)

    def at(self, x: Any) -> float:
        return float(self.mean[self.x.index(x)])


def _throughput_mbps(result: RunResult) -> float:
    return float(result.flows.iloc[0]["throughput_bps"]) / 1e6


def _curve(values_by_x: Mapping[Any, Sequence[float]]) -> Curve:
    """One curve from the runs' values at each x (runs in seed order)."""
    xs = list(values_by_x)
    means, sds, halves, runs = [], [], [], []
    for x in xs:
        values = np.asarray(values_by_x[x], dtype=float)
        mean, _, high = mean_ci(values)
        means.append(mean)
        sds.append(float(values.std(ddof=1)) if values.size > 1 else 0.0)
        halves.append(high - mean)
        runs.append(values.size)
    return Curve(xs, np.array(means), np.array(sds), np.array(halves), min(runs),
                 {x: np.asarray(values_by_x[x], dtype=float) for x in xs})


def _series(label: str, curve: Curve) -> Series:
    return Series(label, curve.x, curve.mean.tolist(), (curve.mean - curve.sd).tolist(),
                  (curve.mean + curve.sd).tolist())


NOISE = "3 % / 0.01 Mb/s"
"""The noise band of the order claims, as the claim texts state it."""


def _tolerance(value: float) -> float:
    """Two runs cannot separate values closer than this (Mb/s): 3 % or 0.01 Mb/s."""
    return max(0.03 * abs(value), 0.01)


def _ge(a: float, b: float) -> bool:
    """a ≥ b up to the run-to-run noise."""
    return a >= b - _tolerance(max(a, b))


def _fmt(value: float, digits: int = 3) -> str:
    return f"{value:.{digits}f}"


def _fmt_x(x: Any) -> str:
    return f"{x:g}" if isinstance(x, float) else str(x)


def _error_bar_note(curves: Mapping[Any, Curve]) -> str:
    worst = max(float(np.max(c.ci_half)) for c in curves.values())
    runs = min(c.runs for c in curves.values())
    return (f"error bars: ± one standard deviation over {runs} run(s) per point (the paper's convention); "
            f"the 95 % Student-t half-width of a mean is at most {worst:.3f} Mb/s"
            + (" (t = 12.7 with 2 runs)" if runs == 2 else ""))


def _non_increasing(values: Sequence[float]) -> tuple[bool, list[str]]:
    """Each step down or flat within noise; returns the violations."""
    bad = [f"{_fmt(a)}→{_fmt(b)}" for a, b in zip(values, values[1:]) if not _ge(a, b)]
    return not bad, bad


def larger_beyond_noise(a: Sequence[float], b: Sequence[float]) -> tuple[bool, str]:
    """Whether the mean of runs `a` exceeds that of runs `b` and a two-sided Welch test at 95 %
    (`tcpsim.stats.means_differ`) tells them apart; a tie does not count as larger."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    larger = float(a.mean()) > float(b.mean())
    differ = means_differ(a, b)
    verdict = "larger, and significantly" if larger and differ else "a tie (Welch 95 %)" if not differ else "smaller"
    return larger and differ, f"{a.mean():.3f} vs {b.mean():.3f} over {a.size} and {b.size} runs: {verdict}"


# --- the two readings of the advertised window ---------------------------------------------


def scaled_window(spec: RunSpec) -> RunSpec:
    """`spec` under the alternative reading: the same run advertising `SCALED_RWND`."""
    scenario = copy.deepcopy(spec.scenario)
    scenario.setdefault("tcp", {})["rwnd"] = SCALED_RWND
    return dataclasses.replace(spec, key=(SCALED_KEY, *spec.key), scenario=scenario)


def split_readings(results: Mapping[Any, RunResult]) -> tuple[dict[Any, RunResult], dict[Any, RunResult]]:
    """(main reading's results, alternative reading's results under the main runs' keys)."""
    main, scaled = {}, {}
    for key, result in results.items():
        if key[0] == SCALED_KEY:
            scaled[key[1:]] = result
        else:
            main[key] = result
    return main, scaled


class _TwoWindows(Experiment):
    """A gangadhar experiment judged under both readings of the advertised window: `judged_runs`
    are made under each, `extra_runs` (sensitivities) under the main one only; `judge` turns one
    reading's results into its claims, numbers, series and notes, `main_notes` adds what only the
    main reading has (sensitivity runs, diagnostics)."""

    paper = PAPER

    def judged_runs(self, quick: bool, seeds: list[int]) -> list[RunSpec]:
        raise NotImplementedError

    def extra_runs(self, quick: bool, seeds: list[int]) -> list[RunSpec]:
        return []

    def judge(self, results: Mapping[Any, RunResult], quick: bool) -> Outcome:
        raise NotImplementedError

    def main_notes(self, results: Mapping[Any, RunResult], judged: Outcome, quick: bool) -> list[str]:
        return []

    def runs(self, quick: bool, seeds: int | None) -> list[RunSpec]:
        replications = self.replications(quick, seeds)
        judged = self.judged_runs(quick, replications)
        scaled = [scaled_window(spec) for spec in judged if FLAVOURS[spec.key[0]].judged]
        return judged + scaled + self.extra_runs(quick, replications)

    def analyze(self, results: Mapping[Any, RunResult], quick: bool) -> Outcome:
        main, scaled = split_readings(results)
        outcome = self.judge(main, quick)
        outcome.notes += self.main_notes(main, outcome, quick)
        alternative = self.judge(scaled, quick)
        outcome.main_reading = MAIN_READING
        outcome.readings = [Reading(
            SCALED_READING, SCALED_HYPOTHESIS, claims=alternative.claims, numbers=alternative.numbers,
            series=alternative.series,
            notes=[f"advertised window {SCALED_RWND}, everything else as the main reading; the paper's flavours only "
                   "(tcpsim's default flavours and the sensitivity runs are run under the main reading)"])]
        return outcome


# --- plotting ------------------------------------------------------------------------------


def _draw(ax: Axes, series: Sequence[Series], marker: str = "o") -> None:
    for s in series:
        y = np.asarray(s.y, dtype=float)
        dashed = "tcpsim default" in s.label or "sensitivity" in s.label
        if s.y_ci_low is not None and s.y_ci_high is not None and not dashed:
            below = np.clip(y - np.asarray(s.y_ci_low, dtype=float), 0, None)
            above = np.clip(np.asarray(s.y_ci_high, dtype=float) - y, 0, None)
            ax.errorbar(s.x, y, yerr=[below, above], marker=marker, markersize=3, capsize=3, label=s.label)
        else:
            ax.plot(s.x, y, linestyle="--", linewidth=1, marker=".", label=s.label, alpha=0.8)


# --- claim checks of fig5-7 (curves of mean throughput by flavour name in, verdict out) -----

OTHERS = ("tahoe", "reno", "newreno")
BY_FAR = 1.5
""""Huge performance improvement" / "significantly": at least 1.5 × the best of the others."""


def westwood_highest_by_far(c: Mapping[str, Curve]) -> Claim:
    """fig5: Westwood at or above every other variant at every PER (within noise) and ≥ 1.5 × the
    best of Tahoe, Reno and NewReno from PER 0.001 on (below it all are near the link rate)."""
    pers = c["reno"].x
    not_highest = [f"PER {p:g}: {n} {_fmt(c[n].at(p))} > Westwood {_fmt(c['westwood'].at(p))}"
                   for p in pers for n in (*OTHERS, "westwood_plus") if not _ge(c["westwood"].at(p), c[n].at(p))]
    ratios = {p: c["westwood"].at(p) / max(c[n].at(p) for n in OTHERS) for p in pers if p >= 0.001}
    by_far = bool(ratios) and min(ratios.values()) >= BY_FAR
    return Claim(
        "Westwood highest by far", not not_highest and by_far,
        f"test: Westwood ≥ every other variant at every PER within {NOISE}, and ≥ {BY_FAR} × the best of Tahoe, "
        "Reno, NewReno at every PER ≥ 0.001; "
        + ("highest (within noise) at every PER" if not not_highest else "not highest: " + "; ".join(not_highest))
        + "; Westwood / best of Tahoe, Reno, NewReno: " + ", ".join(f"{p:g}: {r:.2f}×" for p, r in ratios.items())
        + f"; at PER {pers[0]:g}: " + _table(c, [n for n in (*OTHERS, "westwood", "westwood_plus") if n in c], pers[0]))


def westwood_plus_second(c: Mapping[str, Curve]) -> Claim:
    """fig5: Westwood+ at or above Tahoe, Reno and NewReno at every PER (within noise); below
    Westwood is the previous claim."""
    pers = c["reno"].x
    not_second = [f"PER {p:g}: Westwood+ {_fmt(c['westwood_plus'].at(p))} < {n} {_fmt(c[n].at(p))}"
                  for p in pers for n in OTHERS if not _ge(c["westwood_plus"].at(p), c[n].at(p))]
    margin = {p: c["westwood_plus"].at(p) / max(c[n].at(p) for n in OTHERS) for p in pers}
    return Claim(
        "Westwood+ second", not not_second,
        f"test: Westwood+ ≥ Tahoe, Reno and NewReno at every PER within {NOISE}; "
        + ("holds at every PER" if not not_second else "; ".join(not_second))
        + "; Westwood+ / best of Tahoe, Reno, NewReno: " + ", ".join(f"{p:g}: {r:.2f}×" for p, r in margin.items()))


def westwood_plus_drops_sharply(c: Mapping[str, Curve]) -> Claim:
    """fig5: "drops significantly starting from the error rate of 0.001": Westwood+ keeps ≥ 85 % of
    its lowest-PER throughput up to 0.001, then < 50 % of that by 0.01, and less than Westwood keeps."""
    wp, ww = c["westwood_plus"], c["westwood"]
    pers = wp.x
    kept_below = wp.at(0.001) / wp.at(pers[0])
    kept_above = wp.at(0.01) / wp.at(0.001)
    ww_above = ww.at(0.01) / ww.at(0.001)
    return Claim(
        "Westwood+ drops sharply from PER 0.001",
        kept_below >= 0.85 and kept_above < 0.5 and kept_above < ww_above,
        f"test: Westwood+ keeps ≥ 85 % of its PER-{pers[0]:g} throughput at PER 0.001, then < 50 % of that at PER "
        f"0.01 and less than Westwood keeps; kept {kept_below:.0%}, then {kept_above:.0%} (Westwood {ww_above:.0%}): "
        + " → ".join(f"{p:g}: {_fmt(wp.at(p))}" for p in pers))


def reno_like_newreno(c: Mapping[str, Curve], within: float = 0.10) -> Claim:
    """fig5: Reno ≈ NewReno: within ±10 % of each other at every PER."""
    diffs = {p: (c["newreno"].at(p) - c["reno"].at(p)) / c["reno"].at(p) for p in c["reno"].x}
    return Claim(
        "Reno ≈ NewReno", all(abs(d) <= within for d in diffs.values()),
        f"test: NewReno within ±{within:.0%} of Reno at every PER: " + ", ".join(
            f"{p:g}: {_fmt(c['reno'].at(p))} vs {_fmt(c['newreno'].at(p))} ({d:+.1%})" for p, d in diffs.items()))


def all_fall(c: Mapping[str, Curve], names: Sequence[str]) -> Claim:
    """fig5: every variant's throughput falls (or stays, within noise) at each step up in PER."""
    falls = {n: _non_increasing(c[n].mean.tolist()) for n in names}
    return Claim(
        "all fall as PER rises", all(ok for ok, _ in falls.values()),
        f"test: each step up in PER lowers or keeps throughput within {NOISE}, for every variant; " + "; ".join(
            f"{FLAVOURS[n].label}: " + (f"{_fmt(c[n].mean[0])} → {_fmt(c[n].mean[-1])}" if ok
                                        else "rises " + ", ".join(bad)) for n, (ok, bad) in falls.items()))


def westwood_family_above(c: Mapping[str, Curve]) -> Claim:
    """fig6: Westwood and Westwood+ both above the best of Tahoe, Reno, NewReno by more than the
    noise at every delay."""
    rows, bad = [], []
    for d in c["reno"].x:
        low = min(c["westwood"].at(d), c["westwood_plus"].at(d))
        best_other = max(c[n].at(d) for n in OTHERS)
        rows.append(f"{_fmt_x(d)} ms: W {_fmt(c['westwood'].at(d))}, W+ {_fmt(c['westwood_plus'].at(d))}, "
                    f"best other {_fmt(best_other)}")
        if not low > best_other + _tolerance(best_other):
            bad.append(_fmt_x(d))
    return Claim("Westwood and Westwood+ above the others across the range", not bad,
                 f"test: the lower of Westwood, Westwood+ above the best of Tahoe, Reno, NewReno by more than {NOISE} "
                 "at every delay; " + (f"not above at {', '.join(bad)} ms; " if bad else "") + "; ".join(rows))


RISE = 1.3
"""fig7 "a performance improvement with higher throughput": the 8 Mb/s value ≥ 1.3 × the 1 Mb/s one."""


def westwood_family_rises(c: Mapping[str, Curve]) -> Claim:
    """fig7: Westwood and Westwood+ keep or raise throughput at every step up in bandwidth (within
    noise) and end ≥ 1.3 × where they started."""
    rates = c["reno"].x
    parts, holds = [], True
    for n in ("westwood", "westwood_plus"):
        values = c[n].mean.tolist()
        drops = [f"{a} → {b} Mb/s: {_fmt(va)} → {_fmt(vb)}"
                 for a, b, va, vb in zip(rates, rates[1:], values, values[1:]) if not _ge(vb, va)]
        holds &= not drops and values[-1] >= RISE * values[0]
        parts.append(f"{FLAVOURS[n].label}: " + ", ".join(f"{r} Mb/s {_fmt(v)}" for r, v in zip(rates, values))
                     + (f" (falls {', '.join(drops)})" if drops else ""))
    return Claim("Westwood/Westwood+ rise with bandwidth", holds,
                 f"test: every step up in bandwidth keeps or raises throughput within {NOISE}, and the last value ≥ "
                 f"{RISE} × the first; " + "; ".join(parts))


def westwood_far_above_plus(c: Mapping[str, Curve]) -> Claim:
    """fig7 "Westwood outperforms Westwood+ significantly": Westwood ≥ Westwood+ at every bandwidth
    (within noise) and ≥ 1.5 × at the largest."""
    rates = c["reno"].x
    ratio = {r: c["westwood"].at(r) / c["westwood_plus"].at(r) for r in rates}
    above = all(_ge(c["westwood"].at(r), c["westwood_plus"].at(r)) for r in rates)
    return Claim(
        "Westwood ≫ Westwood+", above and ratio[rates[-1]] >= BY_FAR,
        f"test: Westwood ≥ Westwood+ at every bandwidth within {NOISE} and ≥ {BY_FAR} × at the largest; "
        "Westwood / Westwood+: " + ", ".join(f"{r} Mb/s {q:.2f}×" for r, q in ratio.items()))


FLAT = 0.15
"""fig7 "unaffected by the change in bandwidth": max − min within 15 % of the mean."""


def others_flat(c: Mapping[str, Curve]) -> Claim:
    """fig7: Tahoe, Reno and NewReno almost flat over the bandwidths."""
    flat = {n: (float(np.max(c[n].mean) - np.min(c[n].mean)) / float(np.mean(c[n].mean))) for n in OTHERS}
    return Claim(
        "Tahoe/Reno/NewReno almost flat", all(v <= FLAT for v in flat.values()),
        f"test: max − min over the bandwidths ≤ {FLAT:.0%} of the mean, for each; " + "; ".join(
            f"{FLAVOURS[n].label}: {_fmt(float(np.min(c[n].mean)))}…{_fmt(float(np.max(c[n].mean)))} "
            f"(range {v:.0%} of the mean)" for n, v in flat.items()))


def _table(curves: Mapping[str, Curve], names: Sequence[str], x: Any) -> str:
    return ", ".join(f"{FLAVOURS[n].label} {_fmt(curves[n].at(x))}" for n in names)


# --- fig5-7: one sweep, five variants ------------------------------------------------------


class _Sweep(_TwoWindows):
    """Throughput of the five variants (and the two default flavours, unjudged) over one axis."""

    ylabel = "throughput (Mb/s), mean ± sd"
    seeds_full = 2
    seeds_quick = 2
    flavours: tuple[Flavour, ...] = FIVE
    extra_flavours: tuple[Flavour, ...] = DEFAULT_FLAVOURS

    def grid(self, quick: bool) -> list[Any]:
        raise NotImplementedError

    def scenario(self, flavour: Flavour, x: Any, quick: bool) -> dict[str, Any]:
        raise NotImplementedError

    def x_value(self, x: Any) -> float:
        """Where x is plotted."""
        return x

    def judged_runs(self, quick: bool, seeds: list[int]) -> list[RunSpec]:
        return [RunSpec(key=(f.name, x, seed), scenario=self.scenario(f, x, quick), seed=seed)
                for f in (*self.flavours, *self.extra_flavours) for x in self.grid(quick) for seed in seeds]

    def curves(self, results: Mapping[Any, RunResult]) -> dict[str, Curve]:
        grouped: dict[str, dict[Any, list[float]]] = {}
        for key, result in results.items():
            if len(key) == 3 and key[0] in FLAVOURS:
                grouped.setdefault(key[0], {}).setdefault(key[1], []).append(_throughput_mbps(result))
        curves = {}
        for name, by_x in grouped.items():
            curve = _curve({x: by_x[x] for x in sorted(by_x)})
            curve.x = [self.x_value(x) for x in curve.x]
            curves[name] = curve
        return curves

    def series(self, curves: Mapping[str, Curve]) -> list[Series]:
        return [_series(f.label, curves[f.name]) for f in (*self.flavours, *self.extra_flavours) if f.name in curves]

    def plot(self, outcome: Outcome, fig: Figure) -> None:
        ax = fig.add_subplot()
        _draw(ax, outcome.series)
        ax.set_xlabel(self.xlabel)
        ax.set_ylabel(self.ylabel)
        if self.xscale:
            ax.set_xscale(self.xscale)
        ax.set_title(f"{self.id}: {self.title}", fontsize="medium")
        ax.grid(alpha=0.3, which="both")
        ax.legend(fontsize="x-small")


@register
class Fig5(_Sweep):
    id = "gangadhar.fig5"
    title = "throughput vs PER of the bottleneck link"
    xlabel = "packet error rate (both directions)"
    xscale = "log"

    SENSITIVITY_PER = (0.001, 0.005, 0.01)

    def grid(self, quick: bool) -> list[Any]:
        return list(PER_QUICK if quick else PER_FULL)

    def scenario(self, flavour: Flavour, x: Any, quick: bool) -> dict[str, Any]:
        return lossy_link(flavour, per=x, duration_s=duration_s(quick))

    def extra_runs(self, quick: bool, seeds: list[int]) -> list[RunSpec]:
        # Sensitivity: the five variants with tcpsim's defaults for the parameters the paper omits,
        # and the paper's Westwood/Westwood+ over NewReno instead of Reno recovery.
        specs = [RunSpec(key=("tcpsim_defaults", f.name, per, seed), seed=seed,
                         scenario=lossy_link(f, per=per, duration_s=duration_s(quick), ns3=False))
                 for f in FIVE for per in self.SENSITIVITY_PER for seed in seeds]
        for f in (WESTWOOD, WESTWOOD_PLUS):
            over_newreno = dataclasses.replace(f, recovery="newreno")
            specs += [RunSpec(key=("newreno_recovery", f.name, per, seed), seed=seed,
                              scenario=lossy_link(over_newreno, per=per, duration_s=duration_s(quick)))
                      for per in self.SENSITIVITY_PER for seed in seeds]
        return specs

    def judge(self, results: Mapping[Any, RunResult], quick: bool) -> Outcome:
        c = self.curves(results)
        pers = c["reno"].x
        claims = [westwood_highest_by_far(c), westwood_plus_second(c), westwood_plus_drops_sharply(c),
                  reno_like_newreno(c), all_fall(c, [f.name for f in FIVE])]
        notes = [FLAVOUR_NOTE, NS3_NOTE, _error_bar_note(c), NOT_MODELLED_NOTE,
                 f"{duration_s(quick)} s runs, throughput = bytes delivered in order / run length",
                 "dashed: tcpsim's default flavours (not judged): " + "; ".join(
                     f"{f.label}: " + ", ".join(f"{p:g}: {_fmt(c[f.name].at(p))}" for p in pers)
                     for f in DEFAULT_FLAVOURS if f.name in c)]
        return Outcome(series=self.series(c), claims=claims, notes=notes)

    def main_notes(self, results: Mapping[Any, RunResult], judged: Outcome, quick: bool) -> list[str]:
        return self._sensitivity(results, self.curves(results))

    def _sensitivity(self, results: Mapping[Any, RunResult], c: Mapping[str, Curve]) -> list[str]:
        sens: dict[tuple[str, str, float], list[float]] = {}
        for key, result in results.items():
            if key[0] in ("tcpsim_defaults", "newreno_recovery"):
                sens.setdefault((key[0], key[1], key[2]), []).append(_throughput_mbps(result))

        def table(kind: str, flavours: Sequence[Flavour], reference: str) -> str:
            parts = []
            for per in self.SENSITIVITY_PER:
                cells = [f"{f.label} {_fmt(float(np.mean(sens[(kind, f.name, per)])))} ({reference} "
                         f"{_fmt(c[f.name].at(per))})" for f in flavours if (kind, f.name, per) in sens]
                if cells and per in c["reno"].x:
                    parts.append(f"PER {per:g}: " + ", ".join(cells))
            return "; ".join(parts)

        return [
            "sensitivity, tcpsim defaults instead of the ns-3 ones (min RTO 1 s, IW 2, RFC 6582 "
            "check, 40-byte headers), Mb/s: " + table("tcpsim_defaults", FIVE, "ns-3 defaults"),
            "recovery choice: the ns-3 TcpWestwood class derives from TcpSocketBase, not TcpNewReno; its DupAck has "
            "no partial-ACK handling and its NewAck leaves fast recovery on the first new ACK with cwnd = ssthresh "
            "(Reno). Sensitivity, the same Westwood/Westwood+ over NewReno recovery, Mb/s: "
            + table("newreno_recovery", (WESTWOOD, WESTWOOD_PLUS), "over Reno"),
        ]


@register
class Fig6(_Sweep):
    id = "gangadhar.fig6"
    title = "throughput vs bottleneck link delay (PER 0.005)"
    xlabel = "bottleneck one-way delay (ms)"
    xscale = "log"

    DELAYS_FULL_MS = (0.01, 1, 5, 10, 25, 50, 75, 100, 150, 200, 250)
    DELAYS_QUICK_MS = (0.01, 10, 50, 100, 250)

    def grid(self, quick: bool) -> list[Any]:
        return list(self.DELAYS_QUICK_MS if quick else self.DELAYS_FULL_MS)

    def scenario(self, flavour: Flavour, x: Any, quick: bool) -> dict[str, Any]:
        return lossy_link(flavour, bottleneck_delay=f"{x:g}ms", duration_s=duration_s(quick))

    def judge(self, results: Mapping[Any, RunResult], quick: bool) -> Outcome:
        c = self.curves(results)
        return Outcome(series=self.series(c), claims=[westwood_family_above(c)], notes=[
            FLAVOUR_NOTE, NS3_NOTE, _error_bar_note(c),
            "the bottleneck delay is swept; the 45 ms access delay stays (RTT ≈ 92 ms … 592 ms)"])


@register
class Fig7(_Sweep):
    id = "gangadhar.fig7"
    title = "throughput vs bottleneck bandwidth (PER 0.005, delay 0.01 ms)"
    xlabel = "bottleneck bandwidth (Mb/s)"

    RATES_FULL = (1, 2, 3, 4, 5, 6, 7, 8)
    RATES_QUICK = (1, 2, 4, 6, 8)

    def grid(self, quick: bool) -> list[Any]:
        return list(self.RATES_QUICK if quick else self.RATES_FULL)

    def scenario(self, flavour: Flavour, x: Any, quick: bool) -> dict[str, Any]:
        return lossy_link(flavour, bottleneck_rate=f"{x}Mbps", duration_s=duration_s(quick))

    LITERAL_RATES = (4, 6, 8)
    """Rates of the sensitivity run with ns-3's 100-packet queue on the source's device as well (the
    authors' script left every device queue at its default)."""

    DIAG_RATES = (6, 7, 8)
    """Westwood with an every-change cwnd trace (seed 1, main reading): where the 64 KB window binds."""

    def extra_runs(self, quick: bool, seeds: list[int]) -> list[RunSpec]:
        specs = []
        for f in (WESTWOOD, WESTWOOD_PLUS):
            for rate in self.LITERAL_RATES:
                scenario = lossy_link(f, bottleneck_rate=f"{rate}Mbps", duration_s=duration_s(quick))
                scenario["links"][0]["queue"] = NS3_DEVICE_QUEUE
                specs += [RunSpec(key=("ns3_literal", f.name, rate, seed), scenario=scenario, seed=seed)
                          for seed in seeds]
        specs += [RunSpec(key=("diag", rate), seed=1, scenario=lossy_link(
                      WESTWOOD, bottleneck_rate=f"{rate}Mbps", duration_s=duration_s(quick), trace={"cwnd": True}))
                  for rate in self.DIAG_RATES]
        return specs

    @staticmethod
    def _cap_diagnostic(results: Mapping[Any, RunResult]) -> str:
        """Per diagnostic rate: payload BDP, median ssthresh, share of time cwnd ≥ the cap, throughput."""
        cap = int(NS3_RWND.removesuffix("B"))
        parts = []
        for rate in Fig7.DIAG_RATES:
            r = results.get(("diag", rate))
            if r is None:
                continue
            flow = r.flows.iloc[0]
            trace = r.trace("cwnd")
            t = trace["time_s"].to_numpy(dtype=float)
            dt = np.diff(t)  # each value holds until the next change; the last one is dropped
            cwnd = trace["cwnd_bytes"].to_numpy(dtype=float)[:-1]
            ssthresh = trace["ssthresh_bytes"].to_numpy(dtype=float)
            capped = float((dt * (cwnd >= cap)).sum() / max(dt.sum(), 1e-12))
            cut = ssthresh[ssthresh < 10**9]
            bdp = rate * 1e6 * MSS_BYTES / (MSS_BYTES + NS3_TCP["header"]) * float(flow["rtt_min_s"]) / 8
            parts.append(f"{rate} Mb/s: payload BDP {bdp / 1e3:.0f} KB, median ssthresh "
                         f"{(float(np.median(cut)) if cut.size else float('nan')) / 1e3:.0f} KB, cwnd ≥ cap "
                         f"{capped:.0%} of the time, {_throughput_mbps(r):.3f} Mb/s")
        return "; ".join(parts)

    def judge(self, results: Mapping[Any, RunResult], quick: bool) -> Outcome:
        c = self.curves(results)
        claims = [westwood_family_rises(c), westwood_far_above_plus(c), others_flat(c)]
        return Outcome(series=self.series(c), claims=claims, notes=[FLAVOUR_NOTE, NS3_NOTE, _error_bar_note(c)])

    def main_notes(self, results: Mapping[Any, RunResult], judged: Outcome, quick: bool) -> list[str]:
        c = self.curves(results)
        rates = c["reno"].x
        literal: dict[tuple[str, int], list[float]] = {}
        sender_drops: dict[tuple[str, int], list[int]] = {}
        for key, result in results.items():
            if key[0] == "ns3_literal":
                literal.setdefault(key[1:3], []).append(_throughput_mbps(result))
                links = result.links
                sender_drops.setdefault(key[1:3], []).append(
                    int(links.loc[links["name"] == "access", "drops_queue"].sum()))
        window_note = (
            "the 64 KB advertised window (main reading) limits any flow to 65 535 B per RTT ≈ 5.7 Mb/s here. Once "
            "the payload bandwidth-delay product exceeds it, ssthresh = BWE·RTTmin ends above the window, cwnd sits "
            "at or above it, and Reno's fast-recovery inflation cannot release new segments while the "
            "retransmission is outstanding, so every loss costs an idle RTT (Westwood, seed 1: "
            f"{self._cap_diagnostic(results)}); the alternative reading's 128 KB window does not bind up to 8 Mb/s")
        literal_note = (
            f"sensitivity with ns-3's default {NS3_DEVICE_QUEUE} queue on the source's 10 Mb/s device as well (ns-3 "
            "of 2013 had no flow control between TCP and the device, so the burst that ends a window-capped "
            "recovery, up to 163 segments, overflows it at the sender), Mb/s: " + "; ".join(
                f"{FLAVOURS[n].label} at {r} Mb/s {_fmt(float(np.mean(v)))} (main {_fmt(c[n].at(r))}, "
                f"{np.mean(sender_drops[(n, r)]):.0f} sender drops)"
                for (n, r), v in sorted(literal.items()) if r in rates))
        return [window_note, literal_note]


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
    detail = (f"test: at every (variant, PER) {best}{unit} ≥ and {worst}{unit} ≤ every other {setting_name}, within "
              f"{NOISE}; {checked} points checked, "
              + ("no violation" if not violations else f"{len(violations)} violation(s): " + "; ".join(violations[:6])))
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
    return Claim(text, holds,
                 f"test: {FLAVOURS[name].label}'s largest spread (mean over runs of best − worst setting at one PER) "
                 f"larger than each other variant's, and told apart by a two-sided Welch test at 95 % on the runs' "
                 f"spreads (a tie does not hold; with 2 runs a side the test has little power: it separates only "
                 f"gaps of several run-to-run standard deviations); {FLAVOURS[name].label} at PER {mine.per:g} "
                 f"({mine.best} vs {mine.worst}): " + "; ".join(parts))


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
        "Westwood+ drops at high PER", wp_high > 2 * wp[low_p].mean and wp_high > ww_high,
        f"test: Westwood+'s largest spread across counts at PER ≥ 0.001 > 2 × its spread at PER {low_p:g} and > "
        f"Westwood's at PER ≥ 0.001; Westwood+ {wp[low_p].mean:.3f} Mb/s at PER {low_p:g}, up to {wp_high:.3f} "
        f"(Westwood: {ww_high:.3f}); Westwood+ at count {worst}: "
        + ", ".join(f"{p:g}: {_fmt(c[('westwood_plus', worst)].at(p))}" for p in c[("westwood_plus", worst)].x))


def westwood_plus_poor_above(c: Mapping[tuple[str, int], Curve], sizes: Sequence[int]) -> Claim:
    """fig9 "Westwood+ performs poorly at high error rates (greater than 0.001)": from PER 0.001 to 0.01
    Westwood+ keeps a smaller share of its throughput than Westwood does, for every payload size."""
    kept = {s: (c[("westwood_plus", s)].at(0.01) / c[("westwood_plus", s)].at(0.001),
                c[("westwood", s)].at(0.01) / c[("westwood", s)].at(0.001)) for s in sizes}
    return Claim(
        "Westwood+ poor above PER 0.001", all(wp < ww for wp, ww in kept.values()),
        "test: share of the PER-0.001 throughput kept at PER 0.01, Westwood+ < Westwood for every payload size: "
        + ", ".join(f"{s} B {wp:.0%} vs {ww:.0%}" for s, (wp, ww) in kept.items()))


class _Family(_TwoWindows):
    """Throughput vs PER of Reno, Westwood and Westwood+ for several values of one TCP setting."""

    xlabel = "packet error rate (both directions)"
    ylabel = "throughput (Mb/s), mean ± sd"
    xscale = "log"
    seeds_full = 2
    seeds_quick = 2
    setting_name = ""
    unit = ""

    def settings(self, quick: bool) -> list[int]:
        raise NotImplementedError

    def scenario(self, flavour: Flavour, setting: int, per: float, quick: bool) -> dict[str, Any]:
        raise NotImplementedError

    def judged_runs(self, quick: bool, seeds: list[int]) -> list[RunSpec]:
        pers = PER_QUICK if quick else PER_FULL
        return [RunSpec(key=(f.name, s, p, seed), scenario=self.scenario(f, s, p, quick), seed=seed)
                for f in THREE for s in self.settings(quick) for p in pers for seed in seeds]

    def curves(self, results: Mapping[Any, RunResult]) -> dict[tuple[str, int], Curve]:
        grouped: dict[tuple[str, int], dict[float, list[float]]] = {}
        for key, result in sorted(((k, r) for k, r in results.items() if len(k) == 4 and k[0] in FLAVOURS),
                                  key=lambda kr: kr[0][3]):
            grouped.setdefault((key[0], key[1]), {}).setdefault(key[2], []).append(_throughput_mbps(result))
        return {k: _curve({p: v[p] for p in sorted(v)}) for k, v in grouped.items()}

    def series(self, c: Mapping[tuple[str, int], Curve]) -> list[Series]:
        return [_series(f"{f.label}, {self.setting_name} {s}{self.unit}", c[(f.name, s)])
                for f in THREE for s in sorted(s for n, s in c if n == f.name)]

    def plot(self, outcome: Outcome, fig: Figure) -> None:
        fig.set_size_inches(12, 4.5)
        axes = fig.subplots(1, len(THREE), sharey=True)
        for ax, f in zip(axes, THREE):
            mine = [Series(s.label.split(", ", 1)[1], s.x, s.y, s.y_ci_low, s.y_ci_high)
                    for s in outcome.series if s.label.startswith(f.label + ",")]
            _draw(ax, mine, marker=".")
            ax.set_xscale("log")
            ax.set_title(f.label, fontsize="medium")
            ax.set_xlabel(self.xlabel)
            ax.grid(alpha=0.3, which="both")
            ax.legend(fontsize="x-small")
        axes[0].set_ylabel(self.ylabel)
        fig.suptitle(f"{self.id}: {self.title}", fontsize="medium")

    def plot_readings(self, outcome: Outcome, fig: Figure) -> None:
        """Each variant's alternative-reading curves dashed on its own panel."""
        for ax, f in zip(fig.axes, THREE):
            for reading in outcome.readings:
                for s in reading.series:
                    if s.label.startswith(f.label + ","):
                        ax.plot(s.x, s.y, linestyle="--", linewidth=0.8, marker="x", markersize=3,
                                label=f"{reading.name}: {s.label.split(', ', 1)[1]}")
            ax.legend(fontsize="xx-small")


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
    title = "throughput vs PER for delayed-ACK counts 1…8 (timeout 200 ms)"
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
        return [RunSpec(key=("diag", count), seed=1, scenario=lossy_link(
                    WESTWOOD, per=self.DIAG_PER, delack_count=count, duration_s=duration_s(quick),
                    trace={"cwnd": True})) for count in (1, 8)]

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

        claims = [order_claim(c, counts[0], counts[-1], self.setting_name, self.unit),
                  spread_broader(c, "reno", ["westwood"],
                                 "Reno's spread across delayed-ACK counts broader than Westwood's"),
                  westwood_plus_drops_at_high_per(c)]
        diag = self._diagnostic(results)
        reno_spreads = spreads_of(c, "reno")
        reno = Number("Reno: largest spread across delayed-ACK counts at one PER (Mb/s), paper close to 1",
                      self.PAPER_RENO_SPREAD, top["reno"].mean)
        if reno.status == "missed":
            reno.explanation = (
                f"{describe('reno')}; the spread peaks at low PER, where count 1 is still nearly link-limited and "
                f"count 8 is not, so its maximum depends on where the PER grid falls, which the paper does not "
                f"state: at PER 0.001 ours is {reno_spreads[0.001].mean:.3f} Mb/s, at PER {min(reno_spreads):g} "
                f"{reno_spreads[min(reno_spreads)].mean:.3f}")
        westwood = Number("Westwood: largest spread across delayed-ACK counts at one PER (Mb/s), paper < 0.4",
                          self.PAPER_WESTWOOD_SPREAD, top["westwood"].mean, kind="upper")
        if westwood.status == "missed":
            westwood.explanation = (
                f"{describe('westwood')}. Larger delayed-ACK counts slow the ACK clock and the per-ACK growth, and "
                f"the ns-3 rule that sets cwnd = BWE·RTTmin at the end of every fast recovery, even upwards "
                f"(modelled: ns3_fast_recovery), does not fully compensate" + (f"; diagnostic ({diag})" if diag else ""))
        notes = [FLAVOUR_NOTE, NS3_NOTE, _error_bar_note(c), NOT_MODELLED_NOTE,
                 "spread = max − min over the delayed-ACK counts of the mean throughput at one PER; " + "; ".join(
                     describe(n) for n in top),
                 "congestion avoidance counts ACKs (max(1, ⌊SMSS²/cwnd⌋) bytes per ACK, as ns-3's NewAck does), "
                 "so larger counts grow the window more slowly"]
        return Outcome(series=self.series(c), claims=claims, numbers=[reno, westwood], notes=notes)

    def main_notes(self, results: Mapping[Any, RunResult], judged: Outcome, quick: bool) -> list[str]:
        return [f"diagnostic runs (seed 1, PER {self.DIAG_PER:g}, every-change cwnd trace): "
                f"{self._diagnostic(results)}"]

    def _diagnostic(self, results: Mapping[Any, RunResult]) -> str:
        parts = []
        for count in (1, 8):
            r = results.get(("diag", count))
            if r is None:
                continue
            entries = _fr_entries(r.trace("cwnd"), MSS_BYTES)
            short = [(s - w) / MSS_BYTES for w, s in entries if w < s]
            parts.append(f"count {count}: {len(entries)} fast recoveries, cwnd below BWE·RTTmin at "
                         f"{len(short) / max(len(entries), 1):.0%} of them by {np.mean(short) if short else 0:.1f} "
                         f"segments on average, throughput {_throughput_mbps(r):.3f} Mb/s")
        return "; ".join(parts)


FIG9_NS3_MAX_RTO = "12.8s"
"""ns-3's RttEstimator caps the RTO back-off multiplier at MaxMultiplier = 64: 64 × 2 × RTT ≈ 12.8 s for an
RTT near 100 ms (sensitivity of fig9's 41-byte Westwood)."""


@register
class Fig9(_Family):
    id = "gangadhar.fig9"
    title = "throughput vs PER for payloads 41…1460 B"
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
        claims = [order_claim(c, sizes[-1], sizes[0], self.setting_name, self.unit), reno_largest,
                  westwood_plus_poor_above(c, sizes)]

        def spread_at_text(name: str, per: float) -> tuple[float, str]:
            spread = spread_at(c, name, per)
            return spread.mean, (f"{FLAVOURS[name].label} at PER {per:g}: {spread.best} B "
                                 f"{_fmt(c[(name, spread.best)].at(per))} − {spread.worst} B "
                                 f"{_fmt(c[(name, spread.worst)].at(per))} Mb/s")

        reno, reno_text = spread_at_text("reno", 0.001)
        ww, ww_text = spread_at_text("westwood", 0.01)
        wp, wp_text = spread_at_text("westwood_plus", 0.01)
        small = self._small_windows(results)
        ww_small = small.get(("westwood", 0.01))
        stuck = results.get(("westwood", 41, 0.01, 1))
        capped_rto = [_throughput_mbps(r) for key, r in results.items() if key[0] == "max_rto_ns3"]
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
            if ww_small and stuck is not None else "")
        reno_small = small.get(("reno", 0.001))
        sens = self._reno_sensitivity(results)
        reno_big = c[("reno", sizes[-1])].at(0.001)
        reno_explanation = (
            f"{reno_text}; the gap is at the {sizes[-1]}-byte end: our flow runs at {reno_big / (2 * 1460 / 1502):.0%} "
            f"of the 1.94 Mb/s payload capacity, while a 1.4 Mb/s spread puts the paper's near "
            f"{1.4 + c[('reno', sizes[0])].at(0.001):.2f} Mb/s, and nothing at the {sizes[0]}-byte end can close it "
            f"(its throughput, {_fmt(c[('reno', sizes[0])].at(0.001))} Mb/s, is already below 0.1). The paper reports "
            f"that its ns-3 Reno departs from the original work in this topology at this delay (Sec. 4.2, "
            f"Fig. 6: \"for "
            f"minimal propagation delays, there is a difference in the performance of Reno ... currently being "
            f"investigated\"; the bottleneck delay here is 0.01 ms); our reading, which the paper cannot confirm, is "
            f"that the same unidentified deficit of its ns-3 Reno lowers its 1460-byte curve. Sensitivity runs "
            f"leave our spread where it is: tcpsim's defaults instead of ns-3's "
            f"{self._reno_sensitivity(results)}; errors on the data direction only "
            f"{self._data_only(results, 'reno', 0.001)}")
        wp_big = c[("westwood_plus", sizes[-1])]
        wp_small = small.get(("westwood_plus", 0.01))
        wp_explanation = (
            f"{wp_text}; {wp / 1.2 - 1:.0%} above the paper (tolerance 15 %), at the {sizes[-1]}-byte end (sd "
            f"{float(wp_big.sd[wp_big.x.index(0.01)]):.3f} Mb/s over {wp_big.runs} runs, so not run-to-run noise); "
            f"errors on the data direction only: {self._data_only(results, 'westwood_plus', 0.01)}. No ns-3 detail "
            f"we identified shrinks it: our {sizes[0]}-byte Westwood+ already leaves fast recovery at ssthresh "
            f"(as ns-3) and its window, " + (f"{wp_small[0]:.0f}" if wp_small else "?")
            + " segments, is below the "
            f"41 segments where ns-3's at-least-1-byte growth would change it. Our hypothesis, not tested: the "
            f"paper's large-payload flows share the Reno-recovery deficit of its ns-3 code (previous number), as "
            f"Westwood+ recovers like Reno")
        numbers = [
            Number("Reno: spread across payload sizes at PER 0.001 (Mb/s), paper approximately 1.4",
                   self.PAPER_RENO_SPREAD, reno),
            Number("Westwood: spread across payload sizes at PER 0.01 (Mb/s), paper < 1", self.PAPER_WESTWOOD_SPREAD,
                   ww, kind="upper"),
            Number("Westwood+: spread across payload sizes at PER 0.01 (Mb/s), paper close to 1.2",
                   self.PAPER_WESTWOOD_PLUS_SPREAD, wp),
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
            f"difference of ns-3's Reno from the original work (Sec. 4.2, Fig. 6)")
        wp_note = (f"Westwood+'s spread at PER 0.01: {wp_text}; no ns-3 detail we know of shrinks it: our "
                   f"41-byte Westwood+ already leaves fast recovery at ssthresh (as ns-3) and its window, "
                   + (f"{wp_small[0]:.0f}" if wp_small else "?")
                   + " segments, is below the 41 segments where ns-3's at-least-1-byte growth would speed it up")
        notes = [reno_note, wp_note]
        notes += [FLAVOUR_NOTE, NS3_NOTE, _error_bar_note(c), NOT_MODELLED_NOTE,
                 "payload = TCP segment size: the paper's \"MTU\" is its segment size (Sec. 4.1: \"An MTU size of "
                 "400 B is used as the segment size\"; Sec. 4.2: \"payload sizes of 1460 B for a 1500 B MTU. We use "
                 "41 B to represent the minimum payload case\"); a 41-byte MTU (1-byte payload) would cap the "
                 "smallest curve at 2/43 ≈ 0.05 Mb/s and widen every spread",
                 "spread = max − min over the payload sizes of the mean throughput at one PER; the router buffer is "
                 "100 packets whatever their size; throughput counts payload bytes"]
        return Outcome(series=self.series(c), claims=claims, numbers=numbers, notes=notes)

    MAX_RTO_RUNS = ((WESTWOOD, 41, 0.01),)
    """Runs with ns-3's capped RTO back-off (MaxMultiplier 64, sensitivity)."""

    DATA_ONLY = ((RENO, 41, 0.001), (RENO, 1460, 0.001), (WESTWOOD_PLUS, 41, 0.01), (WESTWOOD_PLUS, 1460, 0.01))
    """(flavour, payload, PER) run with errors on the data direction only (sensitivity)."""

    def extra_runs(self, quick: bool, seeds: list[int]) -> list[RunSpec]:
        # Sensitivity of Reno's spread to the ns-3 defaults: its two ends with tcpsim's defaults.
        specs = [RunSpec(key=("tcpsim_defaults", RENO.name, size, seed), seed=seed,
                         scenario=lossy_link(RENO, per=0.001, mss=size, duration_s=duration_s(quick), ns3=False))
                 for size in (41, 1460) for seed in seeds]
        # Errors on the data direction only (a ReceiveErrorModel on the sink's device alone; the paper
        # says only that errors "occur over the bottleneck link").
        for f, size, per in self.DATA_ONLY:
            for seed in seeds:
                scenario = lossy_link(f, per=per, mss=size, duration_s=duration_s(quick))
                scenario["links"][1]["loss"][0]["direction"] = "ab"
                specs.append(RunSpec(key=("data_errors_only", f.name, size, per, seed), scenario=scenario, seed=seed))
        for f, size, per in self.MAX_RTO_RUNS:
            for seed in seeds:
                scenario = lossy_link(f, per=per, mss=size, duration_s=duration_s(quick))
                scenario["tcp"]["max_rto"] = FIG9_NS3_MAX_RTO
                specs.append(RunSpec(key=("max_rto_ns3", f.name, size, per, seed), scenario=scenario, seed=seed))
        return specs

    @staticmethod
    def _size_spread(results: Mapping[Any, RunResult], selected: Callable[[tuple[Any, ...]], bool]) -> str:
        """Mean throughput at 1460 B minus that at 41 B over the runs whose key is `selected`
        (key[2] is the payload size)."""
        by_size: dict[int, list[float]] = {}
        for key, r in results.items():
            if selected(key):
                by_size.setdefault(key[2], []).append(_throughput_mbps(r))
        if set(by_size) != {41, 1460}:
            return "not run"
        big, tiny = float(np.mean(by_size[1460])), float(np.mean(by_size[41]))
        return f"1460 B {big:.3f} − 41 B {tiny:.3f} = {big - tiny:.3f} Mb/s"

    @staticmethod
    def _data_only(results: Mapping[Any, RunResult], name: str, per: float) -> str:
        return Fig9._size_spread(results, lambda k: k[0] == "data_errors_only" and k[1] == name and k[3] == per)

    @staticmethod
    def _mean_of(results: Mapping[Any, RunResult], name: str, size: int, per: float, column: str) -> float:
        values = [float(r.flows.iloc[0][column]) for key, r in results.items()
                  if len(key) == 4 and key[:3] == (name, size, per)]
        return float(np.mean(values)) if values else float("nan")

    def _westwood_spread_reason(self, results: Mapping[Any, RunResult], c: Mapping[tuple[str, int], Curve],
                                sizes: list[int], p: float) -> str:
        """Why Westwood's spread at PER `p` is large: its smallest-payload flow keeps timing out."""
        small, big = sizes[0], sizes[-1]
        capacity = 2.0 * small / (small + NS3_TCP["header"])
        ww_to = self._mean_of(results, "westwood", small, p, "timeouts")
        reno_to = self._mean_of(results, "reno", small, p, "timeouts")
        rtt_min = self._mean_of(results, "westwood", small, p, "rtt_min_s")
        pipe = 2e6 * rtt_min / ((small + NS3_TCP["header"]) * 8)
        return (f". Westwood's spread peaks at PER {p:g} because its {small}-byte flow gets "
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
                f"got there is not recoverable from the paper")

    @staticmethod
    def _reno_sensitivity(results: Mapping[Any, RunResult]) -> str:
        return Fig9._size_spread(results, lambda k: k[0] == "tcpsim_defaults")

    @staticmethod
    def _small_windows(results: Mapping[Any, RunResult]) -> dict[tuple[str, float], tuple[float, float]]:
        """Time-averaged cwnd and ssthresh (segments) of the 41-byte runs of seed 1, after 10 s."""
        out = {}
        for f in THREE:
            for per in (0.001, 0.01):
                r = results.get((f.name, 41, per, 1))
                if r is None:
                    continue
                trace = r.trace("cwnd")
                trace = trace[trace["time_s"] >= 10]
                out[(f.name, per)] = (float(trace["cwnd_bytes"].mean()) / 41, float(trace["ssthresh_bytes"].mean()) / 41)
        return out


# --- fig10: cwnd traces --------------------------------------------------------------------


def cwnd_order(averages: Mapping[str, Mapping[int, float]]) -> Claim:
    """fig10: Westwood's time-averaged cwnd above Westwood+'s above Reno's, in every run (the paper
    plots one run); `averages` maps flavour name → run → mean cwnd (segments), in the paper's order."""
    order = list(averages)
    seeds = sorted(averages[order[-1]])
    per_seed = [all(averages[a][s] > averages[b][s] for a, b in zip(order, order[1:])) for s in seeds]
    return Claim(
        "Westwood highest, Westwood+ second, Reno lowest (time-averaged cwnd, every run)", all(per_seed),
        "test: time-averaged cwnd strictly ordered Westwood > Westwood+ > Reno in every run; " + "; ".join(
            f"run {s}: " + " > ".join(f"{FLAVOURS[n].label} {averages[n][s]:.1f}" for n in order) for s in seeds)
        + " segments")


@register
class Fig10(_TwoWindows):
    id = "gangadhar.fig10"
    title = "cwnd of Westwood, Westwood+ and Reno at PER 0.005, sampled every 3 s"
    xlabel = "time (s)"
    ylabel = "cwnd (segments of 400 B)"
    seeds_full = 2
    seeds_quick = 2
    TRACE = {"cwnd": True, "interval": "3s"}

    def judged_runs(self, quick: bool, seeds: list[int]) -> list[RunSpec]:
        return [RunSpec(key=(f.name, seed), seed=seed,
                        scenario=lossy_link(f, duration_s=duration_s(quick), trace=self.TRACE))
                for f in (*THREE, *DEFAULT_FLAVOURS) for seed in seeds]

    def judge(self, results: Mapping[Any, RunResult], quick: bool) -> Outcome:
        averages: dict[str, dict[int, float]] = {}
        series = []
        first_seed = min(seed for _, seed in results)
        for (name, seed), r in sorted(results.items()):
            trace = r.trace("cwnd")
            segments = trace["cwnd_bytes"].to_numpy(dtype=float) / MSS_BYTES
            averages.setdefault(name, {})[seed] = float(segments.mean())
            if seed == first_seed and FLAVOURS[name].judged:
                series.append(Series(FLAVOURS[name].label, trace["time_s"].tolist(), segments.tolist()))
        order = [f.name for f in (WESTWOOD, WESTWOOD_PLUS, RENO)]
        claims = [cwnd_order({n: averages[n] for n in order})]
        series.sort(key=lambda s: [FLAVOURS[n].label for n in order].index(s.label))
        notes = [FLAVOUR_NOTE, NS3_NOTE,
                 f"{duration_s(quick)} s, samples every 3 s (the paper's sampling); the figure shows run {first_seed}, "
                 f"the claim compares the mean of the samples in every run",
                 "tcpsim default flavours (not judged), time-averaged cwnd: " + "; ".join(
                     f"{f.label} " + ", ".join(f"run {s} {averages[f.name][s]:.1f}" for s in sorted(averages[f.name]))
                     for f in DEFAULT_FLAVOURS if f.name in averages)]
        return Outcome(series=series, claims=claims, notes=notes)

    def plot(self, outcome: Outcome, fig: Figure) -> None:
        ax = fig.add_subplot()
        for s in outcome.series:
            ax.plot(s.x, s.y, marker=".", markersize=3, linewidth=1, label=s.label)
        ax.set_xlabel(self.xlabel)
        ax.set_ylabel(self.ylabel)
        ax.set_title(f"{self.id}: {self.title}", fontsize="medium")
        ax.grid(alpha=0.3)
        ax.legend(fontsize="small")


# --- fig11: ACK compression ----------------------------------------------------------------

BOTTLENECK_BPS = 500e3
_FIG11_VARIANTS = {"same": "", "newreno": " with a NewReno flow 2", "access1ms": " with 1 ms access links",
                   "ca_exact": " with exact congestion-avoidance growth (ca_increment = exact)",
                   "no_ns3_rules": " without either ns-3 rule (ns3_fast_recovery = false, ca_increment = exact)"}
FIG11_DURATION_S = 20
FIG11_FLOW2_START_S = 2
FIG11_WINDOW_S = (8, 14)
"""The paper's "fluctuation period" of Westwood+, where it quotes ≈ 300 … slightly above 500 kb/s."""


def ack_compression(flavour: Flavour, flow2: Flavour | None = None, access_delay: str = "45ms",
                    ca_increment: str = "ns3") -> dict[str, Any]:
    """Fig. 4: PC1, PC2 —1 Mb/s— router —500 kb/s— server; flow 1 PC1 → server, flow 2 server → PC2
    from 2 s; flow 2 runs ``flow2`` (default: the same flavour as flow 1). Table 1's delays,
    segment size, delayed ACKs and the ns-3 defaults; 100-packet drop-tail queues; no random errors.
    ``ca_increment`` other than "ns3" is a sensitivity."""
    flow2 = flow2 or flavour
    tcp = {"mss": MSS_BYTES, "delack_count": 2, "delack_timeout": "200ms", **NS3_TCP, "ca_increment": ca_increment}

    def flow(name: str, src: str, dst: str, f: Flavour, start: str) -> dict[str, Any]:
        spec = {"name": name, "src": src, "dst": dst, "variant": f.variant, "start": start}
        if f.tcp():
            spec["tcp"] = f.tcp()
        return spec

    return {
        "name": f"gangadhar fig. 4: ACK compression, flow 1 {flavour.label}, flow 2 {flow2.label}",
        "duration": f"{FIG11_DURATION_S}s",
        "tcp": tcp,
        "links": [
            {"name": "access1", "a": "pc1", "b": "router", "rate": "1Mbps", "delay": access_delay, "queue": "100pkt"},
            {"name": "access2", "a": "pc2", "b": "router", "rate": "1Mbps", "delay": access_delay, "queue": "100pkt"},
            {"name": "bottleneck", "a": "router", "b": "server", "rate": "500kbps", "delay": "0.01ms",
             "queue": "100pkt"},
        ],
        "flows": [flow("flow1", "pc1", "server", flavour, "0s"),
                  flow("flow2", "server", "pc2", flow2, f"{FIG11_FLOW2_START_S}s")],
        "trace": {"cwnd": True},
    }


def _bwe(result: RunResult) -> tuple[np.ndarray, np.ndarray]:
    """Flow 1's bandwidth estimate (bit/s) at every recorded change."""
    trace = result.trace("cwnd")
    mine = trace[trace["flow"] == 0]
    return mine["time_s"].to_numpy(dtype=float), mine["bwe_bps"].to_numpy(dtype=float)


def _on_grid(t: np.ndarray, v: np.ndarray, start: float, end: float, step: float = 0.01) -> np.ndarray:
    """The step function (t, v) sampled every `step` seconds in [start, end)."""
    grid = np.arange(start, end, step)
    index = np.searchsorted(t, grid, side="right") - 1
    return v[np.clip(index, 0, None)][index >= 0]


PAPER_WESTWOOD_PEAK_BPS = 8e6
"""Sec. 4.2: Westwood's estimate "greatly overestimated to 8 Mb/s"."""
PAPER_WP_LOW_BPS = 300e3
PAPER_WP_HIGH_BPS = 500e3
"""Sec. 4.2, Westwood+ in 8–14 s: "the maximum estimated bandwidth is only slightly higher than 500 kb/s and the
minimum estimated bandwidth is approximately 300 kb/s"."""
SLIGHTLY_ABOVE = 1.15
""""Only slightly higher than 500 kb/s": by at most 15 %."""
WILD_PEAK = 4.0
""""Fluctuates to a very high extent": a peak of at least 4 × the bottleneck (the ~8 Mb/s itself is a number)."""


def westwood_fluctuates(peak_bps: float, mean_bps: float, sd_bps: float) -> Claim:
    """fig11(a): Westwood's estimate fluctuates wildly: peak ≥ 4 × the 500 kb/s bottleneck and, after
    flow 2 starts, a standard deviation of at least half its mean."""
    return Claim(
        "Westwood's estimate fluctuates wildly (peaks ~8 Mb/s)",
        peak_bps >= WILD_PEAK * BOTTLENECK_BPS and sd_bps >= 0.5 * mean_bps,
        f"test: peak ≥ {WILD_PEAK:g} × the 500 kb/s bottleneck and, after flow 2 starts, sd ≥ mean/2 on a 10 ms grid "
        f"(the 8 Mb/s peak is judged as a number); peak {peak_bps / 1e6:.2f} Mb/s = "
        f"{peak_bps / BOTTLENECK_BPS:.1f}×, mean {mean_bps / 1e6:.2f} Mb/s, sd {sd_bps / 1e6:.2f} Mb/s")


def westwood_plus_near_bottleneck(low_bps: float, high_bps: float) -> Claim:
    """fig11(b): in the paper's 8–14 s fluctuation period Westwood+'s estimate stays within about
    300 … 500 kb/s: its lowest value ≥ 300 kb/s − 15 %, its highest ≤ 500 kb/s + 15 % and ≥ 500 kb/s − 15 %
    (it reaches the bottleneck rate, "around the expected value of 500 kb/s")."""
    floor, top, reach = 0.85 * PAPER_WP_LOW_BPS, SLIGHTLY_ABOVE * PAPER_WP_HIGH_BPS, 0.85 * PAPER_WP_HIGH_BPS
    return Claim(
        "Westwood+ stays near 500 kb/s (about 300…≈500 kb/s)",
        low_bps >= floor and reach <= high_bps <= top,
        f"test: in {FIG11_WINDOW_S[0]}–{FIG11_WINDOW_S[1]} s the estimate stays within [{floor / 1e3:.0f}, "
        f"{top / 1e3:.0f}] kb/s (300 kb/s − 15 % … 500 kb/s + 15 %) and reaches ≥ {reach / 1e3:.0f} kb/s; "
        f"measured {low_bps / 1e3:.0f} … {high_bps / 1e3:.0f} kb/s")


@register
class Fig11(_TwoWindows):
    id = "gangadhar.fig11"
    title = "bandwidth estimate under ACK compression (bottleneck 500 kb/s)"
    xlabel = "time (s)"
    ylabel = "flow 1 bandwidth estimate (Mb/s)"

    # No random element (no loss model, no jitter): one run per set-up, whatever `seeds`.
    def judged_runs(self, quick: bool, seeds: list[int]) -> list[RunSpec]:
        return [RunSpec(key=(f.name, "same"), scenario=ack_compression(f), seed=1)
                for f in (WESTWOOD, WESTWOOD_PLUS, *DEFAULT_FLAVOURS)]

    def extra_runs(self, quick: bool, seeds: list[int]) -> list[RunSpec]:
        specs = [RunSpec(key=(f.name, "newreno"), scenario=ack_compression(f, NEWRENO), seed=1)
                 for f in (WESTWOOD, WESTWOOD_PLUS)]
        specs += [RunSpec(key=(f.name, "access1ms"), scenario=ack_compression(f, access_delay="1ms"), seed=1)
                  for f in (WESTWOOD, WESTWOOD_PLUS)]
        # How much Westwood's peak depends on the window dynamics: the two ns-3 rules switched off.
        no_raise = dataclasses.replace(WESTWOOD, cc={**WESTWOOD_NS3_CC, "ns3_fast_recovery": False})
        specs += [RunSpec(key=("westwood", "ca_exact"), seed=1,
                          scenario=ack_compression(WESTWOOD, ca_increment="exact")),
                  RunSpec(key=("westwood", "no_ns3_rules"), seed=1,
                          scenario=ack_compression(no_raise, ca_increment="exact"))]
        return specs

    @staticmethod
    def _peak_climb(result: RunResult) -> dict[str, float]:
        """The climb of flow 1's estimate to its peak: from the last value ≤ 2 × the bottleneck before
        the peak, the number of ACKs (records) and how many came < 1 ms after the previous one."""
        t, v = _bwe(result)
        peak = int(np.nanargmax(v))
        below = np.flatnonzero(v[:peak] <= 2 * BOTTLENECK_BPS)
        start = int(below[-1]) if below.size else 0
        gaps = np.diff(t[start:peak + 1])
        return {"t0": float(t[start]), "v0": float(v[start]), "t1": float(t[peak]), "v1": float(v[peak]),
                "acks": float(peak - start), "close": float(np.sum(gaps < 1e-3))}

    @staticmethod
    def _summary(result: RunResult) -> dict[str, float]:
        t, v = _bwe(result)
        after = _on_grid(t, v, FIG11_FLOW2_START_S, FIG11_DURATION_S)
        window = _on_grid(t, v, *FIG11_WINDOW_S)
        late = t >= FIG11_FLOW2_START_S
        return {"peak": float(np.nanmax(v)), "max_after": float(np.nanmax(v[late])),
                "min_after": float(np.nanmin(v[late])), "mean_after": float(np.mean(after)),
                "sd_after": float(np.std(after)), "win_min": float(np.min(window)), "win_max": float(np.max(window)),
                "throughput": float(result.flows.iloc[0]["throughput_bps"])}

    def judge(self, results: Mapping[Any, RunResult], quick: bool) -> Outcome:
        s = {key: self._summary(r) for key, r in results.items()}
        ww, wp = s[("westwood", "same")], s[("westwood_plus", "same")]
        series = []
        for name in ("westwood", "westwood_plus", *(f.name for f in DEFAULT_FLAVOURS)):
            if (name, "same") in results:
                t, v = _bwe(results[(name, "same")])
                series.append(Series(FLAVOURS[name].label, t.tolist(), (v / 1e6).tolist()))

        def kbps(x: float) -> str:
            return f"{x / 1e3:.0f} kb/s"

        claims = [westwood_fluctuates(ww["peak"], ww["mean_after"], ww["sd_after"]),
                  westwood_plus_near_bottleneck(wp["win_min"], wp["win_max"])]
        diag = results[("westwood_plus", "same")]
        trace = diag.trace("cwnd")
        flow1 = trace[trace["flow"] == 0]
        first_cut = flow1[flow1["ssthresh_bytes"] < 65535]
        cut_text = ""
        if len(first_cut):
            row = first_cut.iloc[0]
            cut_text = (f"flow 1's first loss, at {row['time_s']:.1f} s, came while the α = 0.9 filter (started at 0) "
                        f"still read {kbps(row['bwe_bps'])}, so ssthresh = BWE·RTTmin = "
                        f"{row['ssthresh_bytes'] / MSS_BYTES:.0f} segments (the paper's own Sec. 4.2 mechanism: "
                        f"\"if errors occur before Westwood+ stabilizes, the low incorrect bandwidth estimate is used\")")
        wp1 = s.get(("westwood_plus", "access1ms"))
        low_explanation = (
            f"Westwood+ measures what flow 1 achieves (its throughput: {kbps(wp['throughput'])} over 20 s); {cut_text}, "
            f"after which the window grows by one segment per two RTTs and the estimate climbs to "
            f"{kbps(float(_bwe(diag)[1][-1]))} by 20 s. The paper gives neither access delays nor buffers nor flow 2's "
            f"variant for this set-up (\"the various parameters were not provided in detail\")"
            + (f": with 1 ms access links (sensitivity run) the 8–14 s range is {kbps(wp1['win_min'])} … "
               f"{kbps(wp1['win_max'])}" if wp1 else ""))
        climb = self._peak_climb(results[("westwood", "same")])
        ack_bytes = NS3_TCP["header"]
        ack_gap_s = ack_bytes * 8 / BOTTLENECK_BPS
        top_sample = 2 * MSS_BYTES * 8 / ack_gap_s
        sens_peaks = ", ".join(f"{_FIG11_VARIANTS[variant].strip()} {v['peak'] / 1e6:.2f}"
                               for (n, variant), v in s.items() if n == "westwood" and variant != "same")
        peak_explanation = (
            f"the peak is built by bursts of compressed ACKs, so it depends on how long and how close together "
            f"they come: "
            f"flow 1's ACKs queue behind flow 2's data at the server's 500 kb/s interface and leave it "
            f"{ack_gap_s * 1e3:.3f} ms apart (one {ack_bytes}-byte ACK), so each delayed ACK is a sample of "
            f"2 × {MSS_BYTES} B per {ack_gap_s * 1e3:.3f} ms = {top_sample / 1e6:.1f} Mb/s, and the α = 0.9 filter "
            f"closes 10 % of the gap to it per ACK (from 0, 8 Mb/s needs about 17 such ACKs in a row). Here the "
            f"estimate climbed from {climb['v0'] / 1e6:.2f} Mb/s at {climb['t0']:.2f} s to {climb['v1'] / 1e6:.2f} "
            f"Mb/s at {climb['t1']:.2f} s over {climb['acks']:.0f} ACKs, {climb['close']:.0f} of them < 1 ms after "
            f"the previous one. The burst length follows flow 1's and flow 2's windows, which the paper's "
            f"unstated buffers, access delays and flow-2 variant (\"the various parameters were not provided in "
            f"detail\") and ns-3's growth rules set"
            + (f"; sensitivity runs, peak (Mb/s): {sens_peaks}" if sens_peaks else ""))
        numbers = [
            Number("Westwood: peak bandwidth estimate (Mb/s), paper 8", PAPER_WESTWOOD_PEAK_BPS / 1e6,
                   ww["peak"] / 1e6),
            Number(f"Westwood+: highest estimate in {FIG11_WINDOW_S[0]}–{FIG11_WINDOW_S[1]} s (kb/s), paper only "
                   f"slightly above 500", PAPER_WP_HIGH_BPS / 1e3, wp["win_max"] / 1e3, kind="range",
                   paper_high=SLIGHTLY_ABOVE * PAPER_WP_HIGH_BPS / 1e3,
                   precision="\"only slightly higher than 500 kb/s\": above 500 kb/s and by at most 15 %"),
            Number(f"Westwood+: lowest estimate in {FIG11_WINDOW_S[0]}–{FIG11_WINDOW_S[1]} s (kb/s), paper "
                   f"approximately 300", PAPER_WP_LOW_BPS / 1e3, wp["win_min"] / 1e3),
        ]
        for number, explanation in zip(numbers, (peak_explanation, low_explanation, low_explanation)):
            if number.status == "missed":
                number.explanation = explanation
        others = "; ".join(
            f"{FLAVOURS[n].label}{_FIG11_VARIANTS[variant]}: peak {kbps(v['peak'])}, after 2 s {kbps(v['min_after'])} … "
            f"{kbps(v['max_after'])}, 8–14 s {kbps(v['win_min'])} … {kbps(v['win_max'])}"
            for (n, variant), v in s.items() if variant != "same" or not FLAVOURS[n].judged)
        notes = [
            FLAVOUR_NOTE,
            "set-up (the paper gives only the rates): PC1, PC2 —1 Mb/s, 45 ms— router —500 kb/s, 0.01 ms— server "
            "(Table 1's delays), 100-packet drop-tail queues everywhere, 400-byte segments, delayed ACKs 2/200 ms, "
            "the ns-3 defaults above, no random errors; flow 1 PC1 → server from 0 s, flow 2 server → PC2 from 2 s, "
            "20 s. Flow 1's ACKs queue behind flow 2's data at the server's 500 kb/s interface: ACK compression",
            "flow 2 runs the same variant as flow 1 (ns-3 scripts of the time chose the TCP of every socket with "
            "the global TcpL4Protocol::SocketType); the estimate is recorded at every change of flow 1's window "
            "(every ACK in practice; the paper samples every microsecond); means and sds on a 10 ms grid; nothing "
            "is random in this set-up, so each configuration runs once whatever --seeds says",
            "sensitivity and tcpsim default flavours (drawn in grey, not judged): " + others,
        ]
        return Outcome(series=series, claims=claims, numbers=numbers, notes=notes)

    def plot(self, outcome: Outcome, fig: Figure) -> None:
        fig.set_size_inches(11, 4.5)
        axes = fig.subplots(1, 2)
        panels = (("(a) Westwood", WESTWOOD, WESTWOOD_CASETTI), ("(b) Westwood+", WESTWOOD_PLUS, WESTWOOD_PLUS_LINUX))
        by_label = {s.label: s for s in outcome.series}
        for ax, (title, paper_flavour, default) in zip(axes, panels):
            if default.label in by_label:
                d = by_label[default.label]
                ax.step(d.x, d.y, where="post", color="0.6", linewidth=0.8, label=default.label)
            p = by_label[paper_flavour.label]
            ax.step(p.x, p.y, where="post", linewidth=1, label=f"{paper_flavour.label} (ns-3 code)")
            ax.axhline(BOTTLENECK_BPS / 1e6, color="k", linestyle=":", linewidth=1, label="bottleneck 500 kb/s")
            ax.axvline(FIG11_FLOW2_START_S, color="r", linestyle=":", linewidth=0.8, label="flow 2 starts")
            ax.set_title(title, fontsize="medium")
            ax.set_xlabel(self.xlabel)
            ax.set_ylabel(self.ylabel)
            ax.grid(alpha=0.3)
            ax.legend(fontsize="x-small")
        fig.suptitle(f"{self.id}: {self.title}", fontsize="medium")

    def plot_readings(self, outcome: Outcome, fig: Figure) -> None:
        """Each flavour's estimate under the alternative reading dashed on its own panel."""
        for ax, flavour in zip(fig.axes, (WESTWOOD, WESTWOOD_PLUS)):
            for reading in outcome.readings:
                for s in reading.series:
                    if s.label == flavour.label:
                        ax.step(s.x, s.y, where="post", linestyle="--", linewidth=0.8, label=f"{reading.name}")
            ax.legend(fontsize="x-small")
