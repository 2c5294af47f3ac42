"""What every gangadhar experiment shares: the Fig. 3 / Table 1 set-up and ns-3 defaults, the TCP flavours,
the two readings of the advertised window, throughput curves and the noise band of the order claims."""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any

import numpy as np

from tcpsim.paths import builtin_scenario
from tcpsim.repro.aggregate import Curve
from tcpsim.repro.framework import Experiment, Outcome, Reading, Series
from tcpsim.repro.plotting import GREY, draw_series
from tcpsim.repro.table import results_table
from tcpsim.runner import RunSpec
from tcpsim.stats import means_differ
from tcpsim.tidy import RunKey

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.axes import Axes

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
    "limited_transmit": False,
    "ssthresh_from": "flight_size",
    "fast_retransmit_timer": "keep",
}
"""The ns-3 (2013) defaults of the parameters the paper does not state (the main reading); no limited
transmit: ns-3.17's `TcpNewReno` had it as the attribute `LimitedTransmit`, false by default, and its
Tahoe, Reno and Westwood sockets not at all. Fast retransmit halves FlightSize: `TcpReno` and
`TcpNewReno::DupAck` set ssthresh = max(2·SMSS, BytesInFlight()/2); `TcpTahoe::DupAck` halves cWnd
instead (`TAHOE`). A fast retransmission leaves a running retransmission timer alone: ns-3.17's
`DoRetransmit` sends through `SendDataPacket`, which schedules `ReTxTimeout` only when none is pending,
and only `NewAck` restarts it."""
SCALED_RWND = "131072B"
"""ns-3's default receive buffer (`TcpSocket::RcvBufSize`), advertised once the window may scale: the
alternative reading's window (module docstring)."""

MAIN_READING = "ns-3.17 defaults: 64 KB advertised window"
SCALED_READING = "ns-3 window scaling / 128 KB"
SCALED_HYPOTHESIS = (
    "the authors' ns-3 advertised its 131 072-byte receive buffer rather than ns-3.17's 16-bit 65 535-byte "
    "window: the paper's fig7 shows Westwood rising with bandwidth to 8 Mb/s and comparable to casetti's Fig. 11 "
    "(ns-2, where a 64 KB window never binds at the 45 ms RTT), which a 64 KB window does not allow here"
)
SCALED_KEY = "scaled_rwnd"
"""First element of the key of a run of the alternative reading (the rest is the main run's key)."""
NS3_DEVICE_QUEUE = "100pkt"
"""ns-3's default device queue (DropTailQueue, MaxPackets 100) on every point-to-point device.
The main runs give it to the router only (assumed: the paper gives no buffer); on the source's 10 Mb/s
device it is a sensitivity run of fig7: ns-3 of 2013 had no flow control between TCP and the
device, so a burst of more than 101 segments was dropped at the sender."""

WESTWOOD_NS3_CC: dict[str, Any] = {
    "kind": "westwood",
    "null_sample_divisor": 0,
    "filter": {"kind": "tustin_fixed", "alpha": 0.9},
    "ns3_fast_recovery": True,
}
WESTWOOD_PLUS_NS3_CC: dict[str, Any] = {
    "kind": "westwood_plus",
    "filter": {"kind": "tustin_fixed", "alpha": 0.9},
    "min_window": "0s",
    "ns3_fast_recovery": True,
    "sampling": "ns3_timer",
    "ssthresh_in_bytes": True,
}
"""ns-3.17 `TcpWestwood` with `ProtocolType` WestwoodPlus: its `EstimateRtt` opens a sampling window
on an ACK and schedules `EstimateBW` one raw RTT sample (`m_lastRtt`, `RttEstimator::AckSeq`'s sample
of the oldest segment an ACK covers) ahead, which divides the
segments counted by that RTT (`sampling = "ns3_timer"`); `DupAck` and `Retransmit` set ssthresh
= `m_currentBW · m_minRtt` in bytes, not whole segments (`ssthresh_in_bytes`)."""


@dataclass(frozen=True)
class Flavour:
    """One curve's TCP: a preset variant and optionally the cc/recovery halves overridden.

    Alike but not `macura.common.Flavour` (a whole per-flow TCP table): an ns-3 class here is a
    preset with its cc, recovery and ssthresh rule overridden apart (`tcp()` builds the table, the
    cc copied per flow), and `judged` marks the tcpsim defaults drawn for comparison only."""

    name: str
    label: str
    variant: str
    cc: Mapping[str, Any] | None = field(default=None, hash=False)
    recovery: str | None = None
    judged: bool = True
    """False for the tcpsim default flavours, drawn for comparison only."""
    ssthresh_from: str | None = None
    """The window fast retransmit halves, where this flavour's ns-3 class differs from `NS3_TCP`."""

    def tcp(self) -> dict[str, Any]:
        """Per-flow [flows.tcp] overrides."""
        out: dict[str, Any] = {}
        if self.cc is not None:
            out["cc"] = copy.deepcopy(dict(self.cc))
        if self.recovery is not None:
            out["recovery"] = self.recovery
        if self.ssthresh_from is not None:
            out["ssthresh_from"] = self.ssthresh_from
        return out


TAHOE = Flavour("tahoe", "Tahoe", "tahoe", ssthresh_from="cwnd")  # ns-3.17 `TcpTahoe::DupAck`: cWnd / 2
RENO = Flavour("reno", "Reno", "reno")
NEWRENO = Flavour("newreno", "NewReno", "newreno")
WESTWOOD = Flavour("westwood", "Westwood", "westwood", WESTWOOD_NS3_CC, "reno")
WESTWOOD_PLUS = Flavour("westwood_plus", "Westwood+", "westwood_plus", WESTWOOD_PLUS_NS3_CC, "reno")
WESTWOOD_CASETTI = Flavour("westwood_casetti", "Westwood, tcpsim default (casetti/ns-2)", "westwood", judged=False)
WESTWOOD_PLUS_LINUX = Flavour("westwood_plus_linux", "Westwood+, tcpsim default (Linux)", "westwood_plus", judged=False)
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
    '(cc = {kind="westwood", null_sample_divisor=0, filter={kind="tustin_fixed", alpha=0.9}, '
    "ns3_fast_recovery=true}); Westwood+ = one sample per RTT timed as ns-3.17's (a window opened by an ACK lasts "
    "exactly the last RTT sample of the oldest segment an ACK covered, its segments divided by that RTT), same "
    "filter, no 50 ms floor, ssthresh = "
    "BWE·RTTmin in bytes, same recovery windows "
    '(cc = {kind="westwood_plus", filter={kind="tustin_fixed", alpha=0.9}, min_window="0s", '
    'ns3_fast_recovery=true, sampling="ns3_timer", ssthresh_in_bytes=true})'
)
NS3_NOTE = (
    "ns-3 (2013) defaults for what the paper omits: min RTO 200 ms, initial cwnd 1 segment, initial ssthresh "
    "65 535 B, advertised window 65 535 B (16 bits, no window scaling in ns-3.17), no RFC 6582 recover check "
    "before fast retransmit, a fast retransmission leaving the running retransmission timer alone, 42 header bytes (IPv4 + TCP + PPP), congestion avoidance adding max(1, ⌊SMSS²/cwnd⌋) "
    'bytes per ACK (ca_increment = "ns3"); router buffer 100 packets drop-tail, errors in both directions of the '
    "bottleneck (assumed where the paper is silent); the source's device queue is large, not ns-3's 100 packets (fig7 "
    'sensitivity run). Alternative reading "' + SCALED_READING + '": the same with a 131 072-byte window'
)
NOT_MODELLED_NOTE = (
    "ns-3 details tcpsim does not model: ns-3 sets ssthresh = BWE·RTTmin in bytes with no 2-segment floor on "
    "duplicate ACKs, tcpsim's Westwood rounds down to whole segments, at least 2 (its Westwood+ keeps the bytes "
    "and the floor); ns-3.17's RTTmin is the least RTT sample of the oldest segment an ACK covers, tcpsim's "
    "of the newest"
)


@cache
def _lossy_link_template() -> dict[str, Any]:
    return builtin_scenario("lossy_link")


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


# --- throughput curves and the noise band of the order claims -------------------------------

THROUGHPUT = "throughput"
"""The results table's column of a run's throughput (Mb/s)."""


def _throughput_mbps(result: RunResult) -> float:
    return float(result.flows.iloc[0]["throughput_bps"]) / 1e6


def throughput_table(results: Mapping[RunKey, RunResult]) -> pd.DataFrame:
    """One row per judged run, its throughput (Mb/s) in column ``THROUGHPUT``; sensitivity and
    diagnostic runs (keys with a ``kind``) are left out."""
    judged = {key: result for key, result in results.items() if "kind" not in key}
    return results_table(judged, lambda result: {THROUGHPUT: _throughput_mbps(result)}, PAPER)


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


def _error_bar_note(curves: Mapping[Any, Curve]) -> str:
    worst = max(float(np.max(c.ci_half)) for c in curves.values())
    sd = max(float(np.max(c.sd)) for c in curves.values())
    runs = min(c.runs for c in curves.values())
    return (
        f"error bars: the 95 % Student-t interval of the mean over {runs} run(s) per point"
        + (" (t = 12.7 with 2 runs)" if runs == 2 else "")
        + f", clipped at 0; its half-width is at most {worst:.3f} Mb/s. The paper's error bars are ± one "
        f"standard deviation; ours is at most {sd:.3f} Mb/s"
    )


def _non_increasing(values: Sequence[float]) -> tuple[bool, list[str]]:
    """Each step down or flat within noise; returns the violations."""
    bad = [f"{_fmt(a)}→{_fmt(b)}" for a, b in zip(values, values[1:]) if not _ge(a, b)]
    return not bad, bad


def larger_beyond_noise(a: Sequence[float], b: Sequence[float]) -> tuple[bool, str]:
    """Whether the mean of runs `a` exceeds that of runs `b` and a two-sided Welch test at 95 %
    (`tcpsim.stats.means_differ`) tells them apart; a tie does not count as larger.

    `aggregate.significantly_above` with its verdict in words, but not the same: numpy's mean
    keeps a NaN (a NaN run makes the verdict False), where the toolkit's drops it."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    larger = float(a.mean()) > float(b.mean())
    differ = means_differ(a, b)
    verdict = "larger, and significantly" if larger and differ else "a tie (Welch 95 %)" if not differ else "smaller"
    return larger and differ, f"{a.mean():.3f} vs {b.mean():.3f} over {a.size} and {b.size} runs: {verdict}"


# --- the two readings of the advertised window ---------------------------------------------


def scaled_window(spec: RunSpec) -> RunSpec:
    """`spec` under the alternative reading: the same run advertising `SCALED_RWND`, its key
    naming the reading."""
    scenario = copy.deepcopy(spec.scenario)
    scenario.setdefault("tcp", {})["rwnd"] = SCALED_RWND
    return dataclasses.replace(spec, key=spec.key.replace(reading=SCALED_KEY), scenario=scenario)


def split_readings(results: Mapping[RunKey, RunResult]) -> tuple[dict[RunKey, RunResult], dict[RunKey, RunResult]]:
    """(main reading's results, alternative reading's results under the main runs' keys)."""
    main, scaled = {}, {}
    for key, result in results.items():
        if key.get("reading") == SCALED_KEY:
            scaled[key.without("reading")] = result
        else:
            main[key] = result
    return main, scaled


class _TwoWindows(Experiment):
    """A gangadhar experiment judged under both readings of the advertised window: `judged_runs`
    are made under each, `extra_runs` (sensitivities, keys with a ``kind``) under the main one
    only; `judge` turns one reading's results into its claims, numbers, series and notes,
    `main_notes` adds what only the main reading has (sensitivity runs, diagnostics)."""

    paper = PAPER

    def judged_runs(self, quick: bool, seeds: list[int]) -> list[RunSpec]:
        raise NotImplementedError

    def extra_runs(self, quick: bool, seeds: list[int]) -> list[RunSpec]:
        return []

    def judge(self, results: Mapping[RunKey, RunResult], quick: bool) -> Outcome:
        raise NotImplementedError

    def main_notes(self, results: Mapping[RunKey, RunResult], judged: Outcome, quick: bool) -> list[str]:
        return []

    def runs(self, quick: bool, seeds: int | None) -> list[RunSpec]:
        replications = self.replications(quick, seeds)
        judged = self.judged_runs(quick, replications)
        scaled = [scaled_window(spec) for spec in judged if FLAVOURS[spec.key["flavour"]].judged]
        return judged + scaled + self.extra_runs(quick, replications)

    def analyze(self, results: Mapping[RunKey, RunResult], quick: bool) -> Outcome:
        main, scaled = split_readings(results)
        outcome = self.judge(main, quick)
        outcome.notes += self.main_notes(main, outcome, quick)
        alternative = self.judge(scaled, quick)
        outcome.main_reading = MAIN_READING
        outcome.readings = [
            Reading(
                SCALED_READING,
                SCALED_HYPOTHESIS,
                claims=alternative.claims,
                numbers=alternative.numbers,
                series=alternative.series,
                notes=[
                    f"advertised window {SCALED_RWND}, everything else as the main reading; the paper's flavours only "
                    "(tcpsim's default flavours and the sensitivity runs are run under the main reading)"
                ],
            )
        ]
        return outcome


# --- plotting ------------------------------------------------------------------------------


def draw_throughput(ax: Axes, series: Sequence[Series]) -> None:
    """The paper's flavours with their 95 % CIs, tcpsim's default flavours (not judged) as grey
    dashed lines without."""
    judged = [s for s in series if "tcpsim default" not in s.label]
    unjudged = [Series(s.label, s.x, s.y) for s in series if "tcpsim default" in s.label]
    draw_series(ax, judged)
    draw_series(ax, unjudged, colors=(GREY, "0.3"), markers=(".",), linestyle="--")
