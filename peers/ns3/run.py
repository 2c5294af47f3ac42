#!/usr/bin/env python3
"""Run the ns-3 twins of tcpsim's experiments and write what ns-3 says as data.

    python3 peers/ns3/run.py <experiment id>... | all   [--jobs N] [--reuse]

Builds the twin (`build.sh`: g++ against the ns3==3.44.post0 pip wheel in $NS3_VENV, default
/tmp/ns3venv), runs every point of the experiment's selection once per replication and per
configuration (`<twin> <point> <k> --duration=S [options]`, RNG run k; a configuration is a set of
`TWIN_SET` attribute overrides and twin options: "main" is the twin's own set-up with ns-3.44's
rules, "ns317" the same with ns-3.17's RTT sampling and RTO back-off (`--ns317-rto`), others are
sensitivities; each twin names the configuration of its main reading),
collects the `RESULT <point> <metric> <value>` lines, and writes
`peers/ns3/results/<experiment id>.json` in the format of the peer reference data that tcpsim's
experiments read (`tcpsim.repro.ns2_reference`: experiment, script, command, ns2 = the tool that
ran it, setup, replications, numbers, observations). tcpsim does not read these files:
`peers/ns317/run.py` writes the package's reference of each gangadhar experiment from the real
ns-3.17 and copies these numbers and observations into it as the ns-3.44 twin's.

Numbers named exactly like one of the experiment's `Number`s are ns-3's value for it (mean and
95 % Student-t interval over the replications); the others are descriptive ("other: ...").
"observations" are written down after the runs, kept here beside the code that produced them.

Raw outputs are cached in $NS3_TWIN_CACHE (default /tmp/ns3-twins/raw); --reuse re-aggregates
cached runs and runs only the missing ones. --configs A,B runs only those configurations and keeps
the existing file's numbers of the others (fig8 and fig9). Standard library only.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from twin_stats import mean_ci  # noqa: E402 - peers/twin_stats.py, beside this folder

HERE = Path(__file__).resolve().parent
PROJECT = HERE.parent.parent
OUT = HERE / "results"
"""Where the twins' results go; peers/ns317/run.py copies them into the package's reference files
(python/tcpsim/repro/ns2_reference/<experiment id>.json), whose primary values are the real ns-3.17's."""
CACHE = Path(os.environ.get("NS3_TWIN_CACHE", "/tmp/ns3-twins/raw"))
BIN = Path(os.environ.get("NS3_TWIN_BIN", "/tmp/ns3-twins/bin"))
TOOL = "ns-3.44 (pip wheel ns3==3.44.post0)"


PRR = "ns3::TcpL4Protocol::RecoveryType=ns3::TcpPrrRecovery"
TS = "ns3::TcpSocketBase::Timestamp=true"
SNDBUF64 = "ns3::TcpSocket::SndBufSize=65535"
SCALED = "ns3::TcpSocketBase::WindowScaling=true"
CONFIGS = {
    "main": "",
    # ns-3.17's RTT sampling and RTO back-off (twin option --ns317-rto, lib/ns317_rto.h): the
    # SYN gives no sample, the back-off lasts until a valid sample, ns-3.17's estimator gains.
    "ns317": "",
    "ns317_prr": PRR,
    # Sensitivities. ns-3.44's default recovery (RFC 6937 PRR) instead of TcpClassicRecovery:
    "prr": PRR,
    # Timestamps on: every ACK gives an RTT sample (RFC 7323), so ns-3.44's RTO learns the
    # delayed-ACK wait as ns-3.17's did through Karn's back-off (12 more header bytes):
    "ts": TS,
    "prr_ts": f"{PRR};{TS}",
    # fig7's two readings of the advertised window. ns-3.17 (and tcpsim) bounded the unacknowledged
    # data, SND.NXT - SND.UNA, by min(cwnd, rwnd) (its AvailableWindow counted UnAckDataCount);
    # ns-3.44 bounds the RFC 6675 pipe, which leaves out the segments marked lost, so in recovery
    # it sends beyond SND.UNA + rwnd up to its send buffer (128 KB). A send buffer of 65 535 B
    # restores the bound of the 64 KB window (main reading); the scaled reading advertises the
    # 131 072-byte receive buffer, and the default 128 KB send buffer gives the same bound.
    # "_count": Westwood's and Westwood+'s samples counted as ns-3.17's CountAck (twin option
    # --ns317-count, as tcpsim's AckedCount), not ns-3.44's counts, which count the segments of the
    # duplicate ACKs twice when a fast recovery ends.
    "ns317_sndbuf64_count": SNDBUF64,
    "ns317_scaled_count": SCALED,
    "ns317_sndbuf64": SNDBUF64,
    "ns317_count": "",
    "sndbuf64_count": SNDBUF64,
    "count": "",
    # fig7's Westwood+ diagnostics (README "fig7: the Westwood+ gap") as a configuration: Westwood+
    # samples over ns-3.17's window (the last raw RTT sample, --ns317-rtt) and fast recovery sends
    # by ns-3.17's condition, SND.NXT - SND.UNA < cwnd (--recovery=ns317window, Westwood and
    # Westwood+; Reno keeps TcpClassicRecovery).
    "ns317_count_rtt_window": "",
    "ns317_sndbuf64_count_rtt_window": SNDBUF64,
}
CONFIG_ARGS = {
    "ns317": ["--ns317-rto"],
    "ns317_prr": ["--ns317-rto"],
    "ns317_sndbuf64_count": ["--ns317-rto", "--ns317-count"],
    "ns317_scaled_count": ["--ns317-rto", "--ns317-count"],
    "ns317_sndbuf64": ["--ns317-rto"],
    "ns317_count": ["--ns317-rto", "--ns317-count"],
    "sndbuf64_count": ["--ns317-count"],
    "count": ["--ns317-count"],
    "ns317_count_rtt_window": ["--ns317-rto", "--ns317-count", "--ns317-rtt", "--recovery=ns317window"],
    "ns317_sndbuf64_count_rtt_window": ["--ns317-rto", "--ns317-count", "--ns317-rtt", "--recovery=ns317window"],
}
"""Twin options of a configuration, besides its TWIN_SET."""
CONFIG_LABELS = {
    "main": "ns-3.44's RTO rules",
    "ns317": "ns-3.17's RTO rules",
    "ns317_prr": "ns-3.17's RTO rules and PRR recovery",
    "prr": "PRR recovery",
    "ts": "timestamps on, ns-3.44's RTO rules",
    "prr_ts": "PRR recovery and timestamps on",
    "ns317_sndbuf64_count": "ns-3.17's RTO rules and CountAck, 64 KB window bounding the unacknowledged data",
    "ns317_scaled_count": "ns-3.17's RTO rules and CountAck, 128 KB window (window scaling)",
    "ns317_sndbuf64": "ns-3.17's RTO rules, ns-3.44's ACK counts, 64 KB window bounding the unacknowledged data",
    "ns317_count": "ns-3.17's RTO rules and CountAck, 64 KB advertised, 128 KB send buffer",
    "sndbuf64_count": "ns-3.44's RTO rules, ns-3.17's CountAck, 64 KB window bounding the unacknowledged data",
    "count": "ns-3.44's RTO rules, ns-3.17's CountAck",
    "ns317_count_rtt_window": "ns-3.17's RTO rules and CountAck, Westwood+'s sampling window and recovery window",
    "ns317_sndbuf64_count_rtt_window": (
        "ns-3.17's RTO rules and CountAck, Westwood+'s sampling window and recovery window, 64 KB window "
        "bounding the unacknowledged data"
    ),
}

Data = dict[tuple[str, str], dict[str, list[float]]]
"""(configuration, point) → metric → one value per replication, in replication order."""


@dataclass
class Twin:
    points: dict[str, list[str]]
    """configuration → the points run under it."""
    replications: int
    duration_s: float
    setup: str
    numbers: Callable[[Data], list[tuple[str, list[float]]]]
    observations: list[str] = field(default_factory=list)
    reading: str = "main"
    """The configuration of the main reading: its numbers carry the experiment's names and it runs
    `replications` times (the others SENSITIVITY_REPLICATIONS times)."""
    durations: dict[str, float] = field(default_factory=dict)
    """Run length of a configuration when not `duration_s`."""
    replicated: tuple[str, ...] = ()
    """Configurations besides `reading` that also run `replications` times."""
    tool: str = TOOL
    """The simulator build as the reference file names it (its main reading's rules)."""
    labels: dict[str, str] = field(default_factory=dict)
    """This twin's names of configurations where CONFIG_LABELS' would not tell them apart."""

    def replications_of(self, config: str) -> int:
        return self.replications if config == self.reading or config in self.replicated else SENSITIVITY_REPLICATIONS

    def duration_of(self, config: str) -> float:
        return self.durations.get(config, self.duration_s)

    def label(self, config: str) -> str:
        return self.labels.get(config, CONFIG_LABELS[config])


def tput(data: Data, config: str, point: str) -> list[float]:
    return data.get((config, point), {}).get("throughput_mbps", [])


def spread(data: Data, config: str, best: str, worst: str) -> list[float]:
    """Per replication, throughput of `best` − throughput of `worst` (the runs of replication k of
    both points; independent runs, so each difference is an independent sample)."""
    a, b = tput(data, config, best), tput(data, config, worst)
    return [x - y for x, y in zip(a, b)]


def largest_spread(data: Data, config: str, points: list[tuple[str, str]]) -> tuple[list[float], str]:
    """The (best, worst) pair of largest mean spread in absolute value, with its per-run values."""
    scored = [(abs(statistics.fmean(s)), s, f"{b} vs {w}") for b, w in points if (s := spread(data, config, b, w))]
    if not scored:
        return [], "not run"
    _, values, which = max(scored, key=lambda t: t[0])
    return values, which


# --- gangadhar.fig8 / fig9 ----------------------------------------------------------------------

VARIANTS = {"reno": "Reno", "westwood": "Westwood", "westwood_plus": "Westwood+"}
FIG8_PERS = ("0.0005", "0.001", "0.005")
FIG9_PERS = ("0.001", "0.01")


def fig8_points(counts: tuple[int, ...] = (1, 8)) -> list[str]:
    return [f"{v}_d{c}_p{p}" for v in VARIANTS for c in counts for p in FIG8_PERS]


def fig9_points() -> list[str]:
    return [f"{v}_m{m}_p{p}" for v in VARIANTS for m in (41, 1460) for p in FIG9_PERS]


def fig8_counts(data: Data, config: str, variant: str) -> list[int]:
    return sorted(
        {int(p.split("_d")[1].split("_")[0]) for c, p in data if c == config and p.startswith(f"{variant}_d")}
    )


def fig8_spread(data: Data, config: str, variant: str) -> tuple[list[float], str]:
    """As tcpsim's experiment: at each PER the spread between the delayed-ACK counts of highest and
    lowest mean throughput (per replication, best − worst), the largest over the PERs."""
    pairs = []
    for per in FIG8_PERS:
        means = {
            c: statistics.fmean(t)
            for c in fig8_counts(data, config, variant)
            if (t := tput(data, config, f"{variant}_d{c}_p{per}"))
        }
        if len(means) >= 2:
            best, worst = max(means, key=means.get), min(means, key=means.get)
            pairs.append((f"{variant}_d{best}_p{per}", f"{variant}_d{worst}_p{per}"))
    return largest_spread(data, config, pairs)


def fig8_numbers(data: Data) -> list[tuple[str, list[float]]]:
    out: list[tuple[str, list[float]]] = []
    names = {
        "reno": "Reno: largest spread across delayed-ACK counts at one PER (Mb/s), paper close to 1",
        "westwood": "Westwood: largest spread across delayed-ACK counts at one PER (Mb/s), paper < 0.4",
    }
    twin = TWINS["gangadhar.fig8"]
    reading = twin.reading
    for config in sorted(CONFIGS, key=lambda c: c != reading):
        for v, label in VARIANTS.items():
            values, which = fig8_spread(data, config, v)
            if not values:
                continue
            if config == reading and v in names:
                out.append((names[v], values))
            else:
                counts = fig8_counts(data, config, v)
                among = (
                    f"across delayed-ACK counts {counts[0]}-{counts[-1]}"
                    if len(counts) > 2
                    else f"count {counts[0]} − count {counts[-1]}"
                )
                out.append((f"other: {label} largest spread {among} (Mb/s), {twin.label(config)} [{which}]", values))
    return out


def fig9_numbers(data: Data) -> list[tuple[str, list[float]]]:
    out: list[tuple[str, list[float]]] = []
    names = {
        ("reno", "0.001"): "Reno: spread across payload sizes at PER 0.001 (Mb/s), paper approximately 1.4",
        ("westwood", "0.01"): "Westwood: spread across payload sizes at PER 0.01 (Mb/s), paper < 1",
        ("westwood_plus", "0.01"): "Westwood+: spread across payload sizes at PER 0.01 (Mb/s), paper close to 1.2",
    }
    twin = TWINS["gangadhar.fig9"]
    reading = twin.reading
    for config in sorted(CONFIGS, key=lambda c: c != reading):
        for v, label in VARIANTS.items():
            for p in FIG9_PERS:
                values = spread(data, config, f"{v}_m1460_p{p}", f"{v}_m41_p{p}")
                if not values:
                    continue
                if config == reading and (v, p) in names:
                    out.append((names[(v, p)], values))
                elif config not in (reading, *twin.replicated) and (v, p) not in names:
                    continue  # a one-run sensitivity: the paper's points only
                else:
                    suffix = "" if config == reading else f", {twin.label(config)}"
                    out.append((f"other: {label} spread 1460 B − 41 B at PER {p} (Mb/s){suffix}", values))
    return out


# --- gangadhar.fig7 -------------------------------------------------------------------------------

FIG7_RATES = tuple(range(1, 9))
FIG7_SCALED = "ns317_scaled_count"
"""The configuration of the alternative reading "ns-3 window scaling / 128 KB"."""
FIG7_TOOL = f"{TOOL} with ns-3.17's RTO rules (--ns317-rto), CountAck (--ns317-count) and a 65 535-byte send buffer"
NS317_RULES = (
    "(1) ns-3.17's RTT sampling and RTO back-off (--ns317-rto, as fig8's twin); (2) Westwood's and Westwood+'s "
    "samples counted as ns-3.17's TcpWestwood::CountAck and tcpsim's AckedCount (--ns317-count: a duplicate ACK "
    "counts one segment, a cumulative ACK only the segments the duplicates did not count; ns-3.44's "
    "TcpSocketBase passes PktsAcked every segment the ACK that ends a fast recovery covers, so the duplicates' "
    "segments count twice: Westwood+ at 2 Mb/s, PER 0.005, 100 s counted 22 % more segments than were "
    "delivered); (3) the unacknowledged data (SND.NXT - SND.UNA) bounded by the 64 KB window, as ns-3.17's "
    "AvailableWindow and tcpsim do, through a 65 535-byte send buffer (ns-3.44 compares the window with the RFC "
    "6675 pipe, which leaves out the segments marked lost, so in recovery it sends beyond SND.UNA + 65 535 B up "
    "to its send buffer)."
)


def fig7_points() -> list[str]:
    return [f"{v}_r{r}" for v in VARIANTS for r in FIG7_RATES]


def fig7_curve(data: Data, config: str, variant: str) -> dict[int, float]:
    """Mean throughput (Mb/s) by bottleneck rate (Mb/s)."""
    return {r: statistics.fmean(t) for r in FIG7_RATES if (t := tput(data, config, f"{variant}_r{r}"))}


def ratio(data: Data, config: str, top: str, bottom: str) -> list[float]:
    """Per replication, throughput of `top` / throughput of `bottom`."""
    return [a / b for a, b in zip(tput(data, config, top), tput(data, config, bottom)) if b > 0]


def fig7_numbers(data: Data) -> list[tuple[str, list[float]]]:
    """The quantities tcpsim's fig7 claims test, under each reading: Westwood and Westwood+ at 1 and
    8 Mb/s and their 8 Mb/s / 1 Mb/s ratio (claim: ≥ 1.3 and no fall; Westwood's highest point too when
    it is not at 8 Mb/s), Westwood / Westwood+ at 8 Mb/s (claim: ≥ 1.5), Reno's range / mean (claim:
    ≤ 15 %). The sensitivities give Westwood and Westwood+ at 8 Mb/s."""
    out: list[tuple[str, list[float]]] = []
    twin = TWINS["gangadhar.fig7"]
    readings = (twin.reading, FIG7_SCALED)
    for config in sorted(twin.points, key=lambda c: (c not in readings, c != twin.reading)):
        label = CONFIG_LABELS[config]
        if not tput(data, config, "westwood_r8"):
            continue
        if config not in readings:
            out += [
                (f"other: {VARIANTS[v]} at 8 Mb/s (Mb/s), {label}", tput(data, config, f"{v}_r8"))
                for v in VARIANTS
                if v != "reno"
            ]
            continue
        for v in ("westwood", "westwood_plus"):
            out += [
                (f"other: {VARIANTS[v]} at {r} Mb/s (Mb/s), {label}", tput(data, config, f"{v}_r{r}")) for r in (1, 8)
            ]
            out.append(
                (
                    f"other: {VARIANTS[v]} 8 Mb/s / 1 Mb/s (tcpsim's claim: >= 1.3, no fall), {label}",
                    ratio(data, config, f"{v}_r8", f"{v}_r1"),
                )
            )
        curve = fig7_curve(data, config, "westwood")
        best = max(curve, key=curve.get)
        if best != FIG7_RATES[-1]:
            out.append(
                (
                    f"other: Westwood's highest mean over 1-8 Mb/s (at {best} Mb/s), {label}",
                    tput(data, config, f"westwood_r{best}"),
                )
            )
        out.append(
            (
                f"other: Westwood / Westwood+ at 8 Mb/s (tcpsim's claim: >= 1.5), {label}",
                ratio(data, config, "westwood_r8", "westwood_plus_r8"),
            )
        )
        reno = list(fig7_curve(data, config, "reno").values())
        out.append(
            (
                f"other: Reno (max - min) / mean over 1-8 Mb/s of the mean curve (tcpsim's claim: <= 0.15), {label}",
                [(max(reno) - min(reno)) / statistics.fmean(reno)],
            )
        )
    return out


# --- gangadhar.fig5 -------------------------------------------------------------------------------

FIG5_PERS = ("0.0001", "0.0002", "0.0005", "0.001", "0.002", "0.005", "0.01", "0.02", "0.05")
FIG5_BY_FAR_FROM = 0.001
"""tcpsim's "by far" test (Westwood ≥ 1.5 × the best of Tahoe, Reno, NewReno) starts at this PER."""
FIG5_READING = "ns317_count"
FIG5_NS317_WINDOWS = "ns317_count_rtt_window"
"""fig7's Westwood+ diagnostics (ns-3.17's sampling window and recovery window): 2 replications."""
FIG5_CONFIGS = (FIG5_READING, FIG5_NS317_WINDOWS, "ns317_sndbuf64_count", "ns317_sndbuf64_count_rtt_window")
FIG5_LABELS = {**VARIANTS, "reno": "NewReno"}
"""The names of the ratios: ns-3.44's TcpNewReno, "reno" in the twins, is compared as tcpsim's NewReno."""


def fig5_points() -> list[str]:
    return [f"{v}_p{p}" for v in VARIANTS for p in FIG5_PERS]


def fig5_curve(data: Data, config: str, variant: str) -> dict[str, float]:
    """Mean throughput (Mb/s) by PER (as written in the point names)."""
    return {p: statistics.fmean(t) for p in FIG5_PERS if (t := tput(data, config, f"{variant}_p{p}"))}


def fig5_smallest(data: Data, config: str, top: str, bottom: str, from_per: float = 0.0) -> tuple[float, str] | None:
    """The smallest ratio of the mean curves `top` / `bottom` over the PERs ≥ `from_per` (tcpsim's
    claims compare mean curves), with the PER where it is; None when a curve is missing."""
    a, b = fig5_curve(data, config, top), fig5_curve(data, config, bottom)
    ratios = {p: a[p] / b[p] for p in FIG5_PERS if p in a and p in b and b[p] > 0 and float(p) >= from_per}
    if not ratios:
        return None
    per = min(ratios, key=ratios.get)
    return ratios[per], per


def fig5_numbers(data: Data) -> list[tuple[str, list[float]]]:
    """The quantities of tcpsim's fig5 claims "Westwood highest by far" (Westwood ≥ every other variant
    within 3 % / 0.01 Mb/s, ≥ 1.5 × the best of Tahoe, Reno, NewReno from PER 0.001) and "Westwood+
    second" (Westwood+ ≥ Tahoe, Reno, NewReno). ns-3.44's TcpNewReno stands for Tahoe's, Reno's and
    NewReno's best. Under the configurations of 2 replications the per-PER ratios (per replication),
    and under every configuration the smallest ratios of the mean curves."""
    out: list[tuple[str, list[float]]] = []
    twin = TWINS["gangadhar.fig5"]
    for config in sorted(twin.points, key=lambda c: c != twin.reading):
        label = twin.label(config)
        if twin.replications_of(config) > 1:
            for p in FIG5_PERS:
                out.append(
                    (
                        f"other: Westwood / Westwood+ at PER {p}, {label}",
                        ratio(data, config, f"westwood_p{p}", f"westwood_plus_p{p}"),
                    )
                )
            for p in FIG5_PERS:
                out.append(
                    (
                        f"other: Westwood / NewReno at PER {p}, {label}",
                        ratio(data, config, f"westwood_p{p}", f"reno_p{p}"),
                    )
                )
        summaries = (
            ("westwood", "westwood_plus", 0.0, "over all PERs", ">= 1 within 3 % / 0.01 Mb/s"),
            ("westwood", "reno", FIG5_BY_FAR_FROM, "over PERs >= 0.001", ">= 1.5"),
            ("westwood_plus", "reno", 0.0, "over all PERs", ">= 1 within 3 % / 0.01 Mb/s"),
        )
        for top, bottom, from_per, over, claim in summaries:
            if found := fig5_smallest(data, config, top, bottom, from_per):
                value, per = found
                what = f"{FIG5_LABELS[top]} / {FIG5_LABELS[bottom]}"
                out.append(
                    (
                        f"other: smallest {what} of the mean curves {over} (at PER {per}; tcpsim's claim: {claim}), "
                        f"{label}",
                        [value],
                    )
                )
    return out


# --- gangadhar.fig11 ------------------------------------------------------------------------------

FIG11_NAMES = {
    ("westwood", "bwe_peak_mbps"): "Westwood: peak bandwidth estimate (Mb/s), paper 8",
    ("westwood_plus", "bwe_window_max_kbps"): (
        "Westwood+: highest estimate in 8–14 s (kb/s), paper only slightly above 500"
    ),
    ("westwood_plus", "bwe_window_min_kbps"): "Westwood+: lowest estimate in 8–14 s (kb/s), paper approximately 300",
}
"""tcpsim's fig11 numbers, by (point, metric) of the twin."""
FIG11_METRICS = {
    "bwe_peak_mbps": "peak estimate (Mb/s)",
    "bwe_mean_after_mbps": "mean estimate after 2 s (Mb/s)",
    "bwe_sd_after_mbps": "sd of the estimate after 2 s (Mb/s)",
    "bwe_window_min_kbps": "lowest estimate in 8–14 s (kb/s)",
    "bwe_window_max_kbps": "highest estimate in 8–14 s (kb/s)",
    "throughput_mbps": "flow 1 throughput over 20 s (Mb/s)",
}


FIG11_SHOWN = {
    "westwood": ("bwe_peak_mbps", "bwe_mean_after_mbps", "bwe_sd_after_mbps", "throughput_mbps"),
    "westwood_plus": ("bwe_peak_mbps", "bwe_window_min_kbps", "bwe_window_max_kbps", "throughput_mbps"),
}
"""The main reading's summaries given as numbers: what tcpsim's claims and numbers test, and flow 1's
throughput (the other configurations give only tcpsim's three numbers' quantities)."""


def fig11_numbers(data: Data) -> list[tuple[str, list[float]]]:
    """tcpsim's three numbers from the main reading's run; the claims' other quantities under the main
    reading, and the three numbers' quantities under the other configurations, as "other" values."""
    out: list[tuple[str, list[float]]] = []
    reading = TWINS["gangadhar.fig11"].reading
    for config in sorted(TWINS["gangadhar.fig11"].points, key=lambda c: c != reading):
        for v in ("westwood", "westwood_plus"):
            shown = FIG11_SHOWN[v] if config == reading else [m for p, m in FIG11_NAMES if p == v]
            for metric in shown:
                what = FIG11_METRICS[metric]
                values = data.get((config, v), {}).get(metric, [])
                if not values:
                    continue
                if config == reading and (v, metric) in FIG11_NAMES:
                    out.append((FIG11_NAMES[(v, metric)], values))
                else:
                    out.append((f"other: {VARIANTS[v]} {what}, {CONFIG_LABELS[config]}", values))
    return out


COMMON_SETUP = (
    "ns-3.44 C++ twin (peers/ns3/lib/lossy_link.h) of the Fig. 3 / Table 1 set-up: source -10 Mb/s, 45 ms- "
    "router -2 Mb/s, 0.01 ms- sink, one BulkSend flow, RateErrorModel (packet unit) on the receive side of both "
    "bottleneck devices, 100-packet drop-tail device queue at the router (1000 elsewhere), no queue discs; TCP "
    "at ns-3.17's defaults as tcpsim's main reading: initial cwnd 1 segment, initial ssthresh 65 535 B, "
    "advertised window 65 535 B (window scaling off), SACK, timestamps and limited transmit off, min RTO 200 ms, "
    "delayed-ACK timeout 200 ms, TcpClassicRecovery (cwnd = ssthresh + 3 segments at entry, ssthresh at exit), "
    "no data-retry limit. Reno = ns-3.44 TcpNewReno (ns-3.44 has no Reno-without-NewReno: its socket always "
    "keeps fast recovery across partial ACKs); Westwood+ = stock TcpWestwoodPlus (Tustin filter); Westwood = a "
    "per-ACK-sample class written for the twin (ns-3.44 dropped TcpWestwood's ProtocolType Westwood), over "
    "TcpNewReno growth and the same recovery. Other configurations than the main one are sensitivities. "
)

TWINS: dict[str, Twin] = {
    "gangadhar.fig5": Twin(
        points={config: fig5_points() for config in FIG5_CONFIGS},
        replications=2,
        duration_s=600,
        reading=FIG5_READING,
        replicated=(FIG5_NS317_WINDOWS,),
        tool=f"{TOOL} with ns-3.17's RTO rules (--ns317-rto) and CountAck (--ns317-count)",
        labels={FIG5_READING: "ns-3.17's RTO rules and CountAck"},
        setup=COMMON_SETUP
        + "fig5 sweeps the PER of the 2 Mb/s link (both directions) over 0.0001, 0.0002, 0.0005, 0.001, 0.002, "
        "0.005, 0.01, 0.02, 0.05 as tcpsim, 400-byte segments, delayed-ACK count 2 (200 ms), 600 s runs and 2 "
        "replications (RNG runs 1-2) as tcpsim; Reno/NewReno (ns-3.44's TcpNewReno, which stands for Tahoe's, "
        "Reno's and NewReno's best in tcpsim's claims: ns-3.44 has no Tahoe and no Reno without NewReno), "
        "Westwood and Westwood+. Its main reading is fig8's and fig9's, 'ns-3.17's RTO rules and CountAck' (twin "
        "options --ns317-rto, peers/ns3/lib/ns317_rto.h, and --ns317-count, peers/ns3/lib/lossy_link.h): no RTT "
        "sample from the SYN (first data RTO 1 s), a timeout's back-off kept until a valid sample, ns-3.17's "
        "estimator gains, and Westwood's and Westwood+'s samples counted as ns-3.17's TcpWestwood::CountAck; 64 KB "
        "advertised window, 128 KB send buffer. Numbers: under the main reading Westwood / Westwood+ and Westwood "
        "/ NewReno at each PER (per replication, mean and interval) under the configurations of 2 replications, "
        "and under every configuration the smallest ratio of the mean curves (as tcpsim's claims compare them) of "
        "Westwood / Westwood+ over all PERs, Westwood / NewReno over PERs >= 0.001 and Westwood+ / NewReno over all "
        "PERs. Sensitivities, all three variants: '" + CONFIG_LABELS[FIG5_NS317_WINDOWS] + "' (2 replications; "
        "fig7's Westwood+ diagnostics, peers/ns3/README.md 'fig7: the Westwood+ gap': --ns317-rtt, Westwood+'s "
        "sampling window is ns-3.17's last raw RTT sample instead of ns-3.44's srtt; --recovery=ns317window, "
        "Westwood's and Westwood+'s fast recovery sends while SND.NXT - SND.UNA < cwnd as ns-3.17's did instead "
        "of by the RFC 6675 pipe; Reno keeps TcpClassicRecovery, so its runs are the main reading's), and with 1 "
        "replication 'ns-3.17's RTO rules and CountAck, 64 KB window bounding the unacknowledged data' (a 65 "
        "535-byte send buffer, fig7's main reading) and both together.",
        numbers=fig5_numbers,
    ),
    "gangadhar.fig8": Twin(
        points={
            "ns317_count": fig8_points(tuple(range(1, 9))),
            "ns317": fig8_points(tuple(range(1, 9))),
            "main": fig8_points(),
            "ts": [p for p in fig8_points() if not p.startswith("westwood_plus")],
            "ns317_prr": fig8_points(tuple(range(1, 9))),
        },
        replications=2,
        duration_s=200,
        reading="ns317_count",
        tool=f"{TOOL} with ns-3.17's RTO rules (--ns317-rto) and CountAck (--ns317-count)",
        replicated=("ns317", "main"),
        durations={"ns317_count": 600, "ns317": 600, "ns317_prr": 600},
        labels={
            "ns317_count": "ns-3.17's RTO rules and CountAck",
            "ns317": "ns-3.17's RTO rules, ns-3.44's ACK counts",
        },
        setup=COMMON_SETUP
        + "fig8's main reading here is 'ns-3.17's RTO rules and CountAck' (twin options --ns317-rto, "
        "peers/ns3/lib/ns317_rto.h, and --ns317-count, peers/ns3/lib/lossy_link.h): the same set-up with Westwood's "
        "and Westwood+'s samples counted as ns-3.17's TcpWestwood::CountAck and tcpsim's AckedCount (a duplicate "
        "ACK counts one segment, a cumulative ACK only the segments the duplicates did not count; ns-3.44 counts the "
        "duplicates' segments again when a fast recovery ends) and ns-3.44's RTT estimator replaced by ns-3.17's "
        "rules, i.e. no RTT sample from the SYN "
        "(first data RTO 1 s), an RTO back-off multiplier that a timeout doubles (up to 64) and only a valid "
        "(non-retransmitted) sample resets, kept through the RTO that ns-3.44 recomputes on every new ACK, and "
        "ns-3.17's RttMeanDeviation gains (0.1 for mean and deviation, first deviation = first sample); Westwood's "
        "RTTmin is the minimum valid raw sample as in ns-3.17; 600 s runs as tcpsim, 2 replications (RNG runs "
        "1-2), delayed-ACK counts 1-8, PER 0.0005, 0.001 and 0.005 only (where tcpsim's spreads peak); spread as "
        "tcpsim's: at one PER the mean throughput of the best count − that of the worst (per replication, best − "
        "worst), the largest over those PERs. The other configurations count ACKs as ns-3.44 does. Configuration "
        "'" + CONFIG_LABELS["ns317"] + ", ns-3.44's ACK counts' (the previous main reading): the same runs, 2 "
        "replications. Configuration 'ns-3.44's RTO rules' (the twin as is, the main reading before that): 200 s "
        "runs, 2 replications, counts 1 and 8 only. Sensitivities, 1 replication: "
        "'timestamps on' with ns-3.44's RTO rules (Reno and Westwood, 200 s, counts 1 and 8); 'ns-3.17's RTO rules "
        "and PRR recovery' (ns-3.44's default TcpPrrRecovery instead of TcpClassicRecovery, 600 s, counts 1-8).",
        numbers=fig8_numbers,
    ),
    "gangadhar.fig7": Twin(
        points={
            config: fig7_points()
            for config in (
                "ns317_sndbuf64_count",
                FIG7_SCALED,
                "ns317_sndbuf64",
                "ns317_count",
                "sndbuf64_count",
                "main",
            )
        },
        replications=2,
        duration_s=600,
        reading="ns317_sndbuf64_count",
        replicated=(FIG7_SCALED, "ns317_sndbuf64"),
        tool=FIG7_TOOL,
        setup=COMMON_SETUP
        + "fig7 sweeps the bottleneck rate 1-8 Mb/s (PER 0.005, 0.01 ms, 400-byte segments, delayed-ACK count 2) "
        "as tcpsim, 600 s runs and 2 replications (RNG runs 1-2) as tcpsim; Reno, Westwood and Westwood+ only "
        "(ns-3.44 has no Tahoe, and its Reno is TcpNewReno, so NewReno would be the same runs). Its main reading "
        '("' + CONFIG_LABELS["ns317_sndbuf64_count"] + "\") is the set-up above with three of ns-3.17's rules "
        "that tcpsim's main reading has and ns-3.44 lacks: " + NS317_RULES + " The alternative reading 'ns-3 "
        "window scaling / 128 KB' (\"" + CONFIG_LABELS[FIG7_SCALED] + '") turns window scaling on (advertised '
        "window = the 131 072-byte receive buffer, scale 2, as tcpsim's 131 072-byte rwnd; the 131 072-byte send "
        "buffer gives the same bound on the unacknowledged data), 2 replications. Sensitivities: ns-3.44's ACK "
        "counts (2 replications), and with 1 replication the 128 KB send buffer (ns-3.44's pipe bound only), "
        "ns-3.44's RTO rules, and the twin as is (ns-3.44's rules throughout, configuration 'main').",
        numbers=fig7_numbers,
    ),
    "gangadhar.fig11": Twin(
        points={
            config: ["westwood", "westwood_plus"]
            for config in (
                "ns317_sndbuf64_count",
                "ns317_scaled_count",
                "ns317_sndbuf64",
                "ns317_count",
                "sndbuf64_count",
                "main",
            )
        },
        replications=1,
        duration_s=20,
        reading="ns317_sndbuf64_count",
        tool=FIG7_TOOL,
        setup="ns-3.44 C++ twin (peers/ns3/gangadhar.fig11.cc) of tcpsim's fig11 main reading, the paper's Fig. 4: "
        "PC1 and PC2 -1 Mb/s, 45 ms- router -500 kb/s, 0.01 ms- server, 100-packet drop-tail device queues "
        "everywhere, no queue discs, no random errors; flow 1 PC1 -> server (BulkSend) from 0 s, flow 2 server -> "
        "PC2 from 2 s with the same variant, 20 s. TCP as the lossy-link twins (peers/ns3/lib/lossy_link.h): "
        "400-byte segments, delayed ACKs 2 / 200 ms, initial cwnd 1, initial ssthresh 65 535 B, SACK, timestamps "
        "and limited transmit off, min RTO 200 ms, TcpClassicRecovery; Westwood = the twin's per-ACK TwinWestwood, "
        "Westwood+ = ns-3.44's TcpWestwoodPlus (Tustin filter). Main reading as fig7's twin: " + NS317_RULES + " "
        "Flow 1's estimate is traced at every change (the EstimatedBW trace sources; TcpWestwoodPlus assigns the "
        "raw sample and then the filtered value at the same instant, and the last value of an instant is kept) "
        "and summarised as tcpsim's experiment: the peak over the run, the lowest and highest value of the step "
        "function on a 10 ms grid over 8-14 s, its mean and sd over 2-20 s. Nothing is random: one run per "
        "configuration (as tcpsim). Other configurations: the 128 KB window (window scaling, tcpsim's alternative "
        "reading), ns-3.44's ACK counts, the 128 KB send buffer, ns-3.44's RTO rules, and the twin as is.",
        numbers=fig11_numbers,
    ),
    "gangadhar.fig9": Twin(
        points={config: fig9_points() for config in ("ns317_count", "count", "main", "prr")},
        replications=3,
        duration_s=600,
        reading="ns317_count",
        replicated=("count", "main"),
        tool=f"{TOOL} with ns-3.17's RTO rules (--ns317-rto) and CountAck (--ns317-count)",
        labels={"main": "ns-3.44's RTO rules and ACK counts"},
        setup=COMMON_SETUP + "fig9's main reading here is 'ns-3.17's RTO rules and CountAck' (twin options "
        "--ns317-rto, peers/ns3/lib/ns317_rto.h, and --ns317-count, peers/ns3/lib/lossy_link.h), the rules of fig7's "
        "and fig8's main readings: no RTT sample from the SYN (first data RTO 1 s), a timeout's back-off kept until "
        "a valid sample, ns-3.17's estimator gains, and Westwood's and Westwood+'s samples counted as ns-3.17's "
        "TcpWestwood::CountAck and tcpsim's AckedCount (a duplicate ACK counts one segment, a cumulative ACK only "
        "the segments the duplicates did not count; ns-3.44 counts the duplicates' segments again when a fast "
        "recovery ends). fig9 runs 600 s as tcpsim, 3 replications (RNG runs 1-3; tcpsim 2); deviations: payloads "
        "41 and 1460 B only (the experiment's worst and best; delayed-ACK count 2), PER 0.001 and 0.01 (the PERs of "
        "the paper's numbers); spread = throughput at 1460 B − at 41 B. Configurations with 3 replications and all "
        "six spreads: '" + CONFIG_LABELS["count"] + "' (the previous main reading) and 'ns-3.44's RTO rules and ACK "
        "counts' (the twin as is, the main reading before that). Sensitivity, 1 replication, ns-3.44's RTO rules "
        "and ACK counts: 'PRR recovery' (ns-3.44's default TcpPrrRecovery).",
        numbers=fig9_numbers,
    ),
}

SENSITIVITY_REPLICATIONS = 1
"""Replications of the non-main configurations."""

OBSERVATIONS: dict[str, list[str]] = {
    "gangadhar.fig5": [
        "Main reading (ns-3.17's RTO rules and CountAck; 2 runs of 600 s), mean throughput (Mb/s) at PER 0.0001 "
        "0.0002 0.0005 0.001 0.002 0.005 0.01 0.02 0.05, tcpsim's main reading (600 s, 2 runs, main at eff441a) in "
        "brackets. NewReno (ns-3.44's TcpNewReno): 1.088 1.240 1.139 0.914 0.679 0.366 0.237 0.137 0.051 (1.683 "
        "1.606 1.235 0.895 0.619 0.374 0.240 0.156 0.070). Westwood: 1.735 1.723 1.496 1.749 1.694 1.552 1.403 1.062 "
        "0.435 (1.791 1.788 1.771 1.733 1.658 1.472 1.207 0.754 0.358). Westwood+: 1.795 1.796 1.791 1.783 1.770 "
        "1.498 0.912 0.527 0.198 (1.793 1.793 1.787 1.768 1.712 1.182 0.689 0.339 0.095).",
        "Against tcpsim's claims: 'Westwood highest by far' fails in ns-3 too. Westwood / Westwood+ of the mean "
        "curves is 0.967 0.960 0.835 0.981 0.957 1.036 1.54 2.01 2.20: Westwood is below Westwood+ beyond 3 % / "
        "0.01 Mb/s at PER 0.0001, 0.0002, 0.0005 and 0.002 (smallest 0.835, at 0.0005). At PER 0.001-0.002 the two "
        "simulators agree: Westwood+ stays near the 1.81 Mb/s payload capacity and 2-4 % above Westwood (ns-3 0.981 "
        "and 0.957 in both runs; tcpsim 0.980 and 0.968, tcpsim's miss being PER 0.002), with as many fast "
        "recoveries per loss in both variants (run 1 at PER 0.002: Westwood 554 for 948 losses, Westwood+ 586 for "
        "997). The 'by far' part holds: Westwood / NewReno >= 1.91 from PER 0.001 on (smallest at 0.001; tcpsim's "
        "Westwood / best of Tahoe, Reno, NewReno 1.94 there). 'Westwood+ second' holds: Westwood+ / NewReno >= 1.45 "
        "(at PER 0.0002).",
        "Below PER 0.001 ns-3.44 adds a collapse of its own: some NewReno and Westwood runs fall into a "
        "self-sustaining train of fast recoveries with no losses behind them (NewReno run 1: 2417 recoveries for "
        "100 losses at PER 0.0001, 2568 for 138 at 0.0002; Westwood run 1 at 0.0001: 367 for 71; Westwood run 2 at "
        "0.0005: 1591 for 285, 1.21 Mb/s against run 1's 1.78), while every Westwood+ run stays at 1.79-1.80 Mb/s. "
        "In the Westwood run it starts after the timeout of the slow-start overshoot (2.3 s) and goes on with a "
        "fast recovery about every 0.11 s and ssthresh falling to 26 segments. Not traced further; ns-3.44 keeps "
        "fast recovery across partial ACKs and retransmits a segment at each, where ns-3.17's Westwood (and "
        "tcpsim's main reading) left recovery on the first new ACK, so these points are no evidence about the "
        "paper or tcpsim. For the same reason ns-3's NewReno is 0.65-0.92 x tcpsim's at PER <= 0.0005; from PER "
        "0.001 on it is within 0.06 Mb/s (0.914 0.679 0.366 0.237 0.137 0.051 against 0.895 0.619 0.374 0.240 0.156 "
        "0.070).",
        "From PER 0.005 on ns-3's Westwood+ is above tcpsim's (1.498 0.912 0.527 0.198 against 1.182 0.689 0.339 "
        "0.095), as in fig7 (peers/ns3/README.md, 'fig7: the Westwood+ gap'): with ns-3.17's sampling window and "
        "recovery window (configuration '" + CONFIG_LABELS[FIG5_NS317_WINDOWS] + "', 2 runs) it gets 1.790 1.793 "
        "1.787 1.773 1.726 1.239 0.714 0.351 0.087, within 5 % or 0.01 Mb/s of tcpsim's at every PER. ns-3's "
        "Westwood, over the NewReno recovery ns-3.44 runs, agrees with tcpsim's Westwood over NewReno recovery "
        "(fig5's sensitivity: 1.740 1.542 1.387 at PER 0.001 0.005 0.01, ns-3 1.749 1.552 1.403); tcpsim's main "
        "reading, over ns-3.17's Reno recovery, is lower there (1.733 1.472 1.207).",
        "Sensitivities. ns-3.17's sampling window and recovery window (2 runs; the recovery window acts on Westwood "
        "too): Westwood 1.491 1.583 1.578 1.718 1.678 1.520 1.335 0.958 0.423, more runs in the train of "
        "recoveries at PER <= 0.0005; Westwood / Westwood+ 0.833 0.883 0.883 0.969 0.972 1.23 1.87 2.73 4.88, below "
        "Westwood+ beyond noise at PER 0.0001-0.001 (smallest 0.833); Westwood / NewReno >= 1.88 from PER 0.001; "
        "Westwood+ / NewReno >= 1.45. The 64 KB window bounding the unacknowledged data (1 run) does not change the "
        "picture (Westwood / Westwood+ 0.791 at PER 0.0001 after a train of recoveries, 0.955 at 0.002; Westwood / "
        "NewReno >= 1.66); nor do both together (1 run; 0.695 at 0.0001, 0.954 at 0.002; >= 1.60).",
        "Verdict: ns-3.44 with ns-3.17's RTO rules and CountAck does not give 'Westwood highest by far' on this "
        "set-up either. It misses the 'highest' part at PER 0.002 as tcpsim does, by more (0.957 against 0.968), "
        "and below PER 0.001 through a collapse of its own recovery; the 'by far' part (>= 1.5 x NewReno from PER "
        "0.001) and 'Westwood+ second' hold in both. So ns-3 shows no mechanism tcpsim lacks for this miss: on this "
        "set-up Westwood+ fills the link as well as Westwood up to PER 0.002 in both simulators.",
    ],
    "gangadhar.fig8": [
        "Main reading: ns-3.17's RTO rules and CountAck (--ns317-rto --ns317-count; 2 runs of 600 s, counts 1-8). "
        "ns-3.44 as is cannot run "
        "fig8's large delayed-ACK counts: from count 3 up the flow livelocks in spurious timeouts, one segment every "
        "0.29 s (0.011 Mb/s at count 8 in every run, variant and PER; configuration 'ns-3.44's RTO rules', the "
        "previous main reading). A lone segment's ACK waits for the 200 ms delayed-ACK timer and arrives 290 ms after "
        "the send, but the RTO stays at 228 ms: ns-3.44 takes an RTT sample from the SYN (its SendEmptyPacket enters "
        "the SYN in the RTT history) and recomputes the RTO without back-off on every new ACK (TcpSocketBase::NewAck), "
        "so the doubled RTO of a timeout never lasts until a segment's ACK can arrive. ns-3.17 did neither (checked "
        "in the ns-3.17 sources): only SendDataPacket fed its RTT history (the first data RTO was the 1 s initial "
        "estimate), and its back-off multiplier, doubled by a timeout, was reset only by a valid sample "
        "(RttEstimator::AckSeq). With those rules (and ns-3.17's estimator gains) the livelock is gone: Reno at "
        "count 8 gets 0.49 / 0.25 / 0.09 Mb/s at PER 0.0005 / 0.001 / 0.005, and a trace shows the RTO of a timeout "
        "(0.646 s, Reno, count 8, PER 0.001, run 1, t = 6.25 s) kept through the new ACKs of slow start and a fast "
        "recovery until the first valid sample (t = 7.15 s, back to 0.331 s). Timestamps on with ns-3.44's rules do "
        "not help (0.011 Mb/s at count 8).",
        "With ns-3.17's RTO rules and CountAck, means of 2 runs at counts 1-8 (tcpsim, 600 s, 2 runs, in brackets). "
        "Reno (the same runs as with ns-3.44's ACK counts, which feed only Westwood's and Westwood+'s estimates) at "
        "PER 0.001: 1.228 0.914 0.722 0.584 0.485 0.392 0.294 0.252 (1.234 0.891 0.684 0.557 0.455 0.337 0.270 "
        "0.227), within 0.06 Mb/s of tcpsim at every count; spread 0.975 (tcpsim 1.006), at PER 0.0005 0.759 (1.114, "
        "from ns-3's lower count 1: 1.248 against 1.567), at 0.005 0.460 (0.476). Westwood at PER 0.001: 1.639 1.749 "
        "1.703 1.642 1.576 1.498 1.409 1.354 (1.770 1.733 1.680 1.618 1.554 1.478 1.402 1.350): counts 2-8 within "
        "0.03 Mb/s of tcpsim; its spread there 0.395 (count 2 vs 8; tcpsim 0.419, count 1 vs 8), at PER 0.005 0.322 "
        "(count 1 vs 8; tcpsim 0.310). At PER 0.0005 ns-3's count 1 falls far below count 2 (1.112 against 1.496; "
        "tcpsim's count 1 is its best), so its largest spread, 0.643 (count 3 vs 1 at PER 0.0005; tcpsim 0.351 "
        "there), is count 1's; over counts 2-8 its spreads are 0.298 / 0.395 / 0.275 at PER 0.0005 / 0.001 / 0.005 "
        "(tcpsim 0.333 / 0.383 / 0.221). There its count 1 overruns the 100-packet router buffer (3669 and 4161 "
        "router drops against 225 and 218 error losses) and recovers with ns-3.44's classic recovery without SACK "
        "(RFC 6675 emulation, NewReno partial ACKs) through chains of timeouts whose back-off, now kept, reaches "
        "64 x (31 timeouts in run 1).",
        "With ns-3.44's ACK counts (configuration 'ns-3.17's RTO rules, ns-3.44's ACK counts', the previous main "
        "reading, 2 runs), which count the duplicate ACKs' segments twice when a fast recovery ends and so inflate "
        "the estimate after every recovery, Westwood's count 1 fell below count 2 at every PER (1.120 / 1.373 / 0.709 "
        "at PER 0.0005 / 0.001 / 0.005; 1.112 / 1.639 / 1.599 with CountAck), its curve at PER 0.001 was 1.373 "
        "1.727 1.701 1.658 1.599 1.556 1.484 1.441 and its largest spread 0.766 (count 2 vs 1 at PER 0.005; 0.293 / "
        "0.286 / 0.465 over counts 2-8). ns-3.44's PRR recovery (sensitivity, 1 run, ns-3.44's ACK counts) gives "
        "Westwood's count 1 1.600 / 1.625 / 1.146 and Westwood's spreads 0.262 / 0.293 / 0.453 (count 2 vs 8 each), "
        "Reno's 1.011 / 1.089 / 0.521 (count 1 vs 8; its count 1 at PER 0.0005 1.559, tcpsim 1.567). ns-3.17's own "
        "Westwood recovery windows (--recovery=ns317, run 1 by hand, ns-3.44's ACK counts) did not lift Westwood's "
        "count 1 (1.206 / 0.464 at PER 0.0005 / 0.005).",
        "Verdict: with ns-3.17's RTO rules and CountAck ns-3 gives Reno's spread close to 1 Mb/s as the paper and "
        "tcpsim (0.975, PRR 1.089; tcpsim 1.114, which matches), and Westwood's below 0.4 at PER 0.001 and 0.005 "
        "(0.395 and 0.322; tcpsim 0.419 and 0.310) but not at PER 0.0005, where its count 1 collapses: largest "
        "spread 0.643 (ns-3.44's ACK counts 0.766, PRR recovery 0.453), 0.28-0.40 over counts 2-8, against "
        "tcpsim's 0.419. Its per-count curves agree with tcpsim's wherever its count-1 recovery does not decide "
        "(Westwood at PER 0.001 within 0.03 Mb/s at counts 2-8), so it shows no ns-3.17 mechanism that tcpsim "
        "lacks; Westwood's spread sits near 0.4 in both, on the PER grid and on how the window-limited count 1 "
        "recovers from router overruns, which the paper does not state.",
        "Westwood+ (not a paper number): ns-3.44's TcpWestwoodPlus with ns-3.17's RTO rules and CountAck falls with "
        "the count at PER 0.001, from 1.78 Mb/s at count 2 to 1.47 at count 8, where tcpsim's falls from 1.75 to "
        "0.53; at PER 0.0005 it stays at 1.69-1.79 over counts 2-8; at PER 0.005 both fall at count 8 (0.301, "
        "tcpsim 0.092). ns-3's largest spread 1.197 (count 2 vs 8 at PER 0.005), tcpsim's 1.506 (PER 0.002). With "
        "ns-3.44's ACK counts it hardly depended on the count at PER 0.0005-0.001 (1.69-1.79 at counts 2-8; 0.623 at "
        "count 8, PER 0.005; spread 1.086). The paper's own Westwood+ (ns-3.17's TcpWestwood with ProtocolType "
        "WestwoodPlus) is not ns-3.44's class; the rest of this difference remains open.",
    ],
    "gangadhar.fig7": [
        "Main reading (ns-3.17's RTO rules and CountAck, 64 KB window bounding the unacknowledged data; 2 runs of "
        "600 s), means at 1-8 Mb/s (tcpsim's main reading in brackets): Westwood 0.818 1.550 2.267 2.716 2.896 "
        "3.076 3.159 3.217 (0.792 1.476 2.067 2.515 2.774 2.987 2.668 2.689); Westwood+ 0.834 1.502 1.773 1.888 "
        "2.027 2.069 2.173 2.182 (0.749 0.974 1.049 1.081 1.113 1.146 1.155 1.169); Reno 0.398 0.366 0.370 0.373 "
        "0.374 0.375 0.375 0.376 (0.356-0.383). ns-3's Westwood rises at every step (3.93 x from 1 to 8 Mb/s) where "
        "tcpsim's falls from 6 to 7 Mb/s; up to 6 Mb/s the two agree within 10 %. ns-3.44 stays in fast recovery "
        "across partial ACKs for every variant, where tcpsim's main reading gives the paper's Westwood Reno "
        "recovery (ns-3.17's TcpWestwood left recovery on the first new ACK): tcpsim's own Westwood over NewReno "
        "recovery (fig7's sensitivity) gets 0.806 1.543 2.249 2.753 3.004 3.184 3.338 3.396, within 6 % of ns-3 "
        "at every rate. So ns-3 confirms the curve of the recovery it can run and cannot test the fall itself, "
        "which needs Reno recovery under the 64 KB window.",
        "Alternative reading 'ns-3 window scaling / 128 KB' (2 runs): Westwood 0.705 1.557 2.277 2.966 3.524 3.776 "
        "3.898 3.926 (tcpsim 0.791 ... 3.276), Westwood+ 0.828 ... 2.321 (tcpsim 0.749 ... 1.180), Reno 0.371-0.400. "
        "Against tcpsim's claims: Westwood and Westwood+ rise in both readings (Westwood+ 2.62 x and 2.80 x from 1 to "
        "8 Mb/s); Westwood / Westwood+ at 8 Mb/s is 1.47 under the 64 KB window (claim >= 1.5; tcpsim 2.30) and "
        "1.69 under 128 KB (tcpsim 2.78); Reno's range is 8.5 % and 7.7 % of its mean (claim <= 15 %; tcpsim 7 %).",
        "Westwood+ is where ns-3.44 and tcpsim differ most: ns-3's is 1.5-1.9 x tcpsim's from 2 Mb/s up (2.18 "
        "against 1.17 at 8 Mb/s; tcpsim over NewReno recovery 1.30), so recovery does not explain it. Part of it is "
        "ns-3.44's own ACK count: with it (configuration 'ns-3.44's ACK counts', 2 runs) Westwood+ gets 0.881 "
        "1.702 2.358 2.697 2.874 2.969 3.048 3.118, and Westwood 3.227 at 8 Mb/s (unchanged). The rest is "
        "explained in peers/ns3/README.md ('fig7: the Westwood+ gap', diagnostics, not run here): ns-3.44's "
        "Westwood+ samples over srtt and its fast recovery sends by the RFC 6675 pipe, neither ns-3.17's (2.18 -> "
        "1.74 at 8 Mb/s with both set to ns-3.17's, --ns317-rtt --recovery=ns317window), and tcpsim rounded "
        "ssthresh to whole segments and timed its samples otherwise than ns-3.17 (its gangadhar flavour now: 1.45 "
        "at 8 Mb/s, 1.87 over NewReno recovery, 7-11 % above ns-3 under ns-3.17's rules). fig8's and fig9's "
        "twins take ns-3.17's ACK count but keep ns-3.44's srtt window and pipe.",
        "The window bound did not decide here: with the 128 KB send buffer (ns-3.44's pipe bound only, 1 run) "
        "Westwood gets 3.205 at 8 Mb/s (3.217 with it). ns-3.44's RTO rules (1 run) livelock every variant in "
        "spurious timeouts at PER 0.005 and delayed-ACK count 2 (Reno 0.025 Mb/s from 3 Mb/s up, Westwood 0.03-"
        "0.42, Westwood+ 0.11-0.48), with and without the other rules (the twin as is: Reno 0.025, Westwood 0.10-"
        "0.90, Westwood+ 0.06-1.20): no evidence about the paper or tcpsim.",
    ],
    "gangadhar.fig11": [
        "Main reading (ns-3.17's RTO rules and CountAck, 64 KB window bounding the unacknowledged data; one run, "
        "nothing random): Westwood's estimate peaks at 5.71 Mb/s (tcpsim 9.13, paper 8) and after 2 s has mean "
        "1.99 and sd 1.41 Mb/s (tcpsim 1.64 and 1.73), so tcpsim's claim 'fluctuates wildly' (peak >= 2 Mb/s, sd "
        ">= mean / 2) holds in ns-3 too; Westwood+'s estimate over 8-14 s is 228-238 kb/s (tcpsim 224-407; paper "
        "about 300 to slightly above 500), its flow 1 getting 0.21 Mb/s over 20 s (tcpsim 0.30).",
        "The peak is built as tcpsim's explanation says: flow 1's ACKs leave the server's 500 kb/s device 0.67 ms "
        "apart behind flow 2's data, and the estimate climbs by these samples (to 5.71 Mb/s at 10.92 s after 7 "
        "compressed ACKs in a row). The longest run of compressed ACKs sets the peak, and it moves with the "
        "set-up's details: 8.88 Mb/s with ns-3.44's own ACK counts (after 25 compressed ACKs, at 19.56 s), 7.00 "
        "with the 128 KB window (tcpsim 6.94), 5.00 with ns-3.44's RTO rules, 8.60 with the twin as is. "
        "Westwood+'s 8-14 s range stays between 227 and 270 kb/s in every configuration.",
    ],
    "gangadhar.fig9": [
        "Main reading: ns-3.17's RTO rules and CountAck (--ns317-rto --ns317-count, the rules of fig7's and fig8's "
        "main readings; 3 runs of 600 s). At PER 0.001 the spreads are Reno 1.36 Mb/s (1460 B 1.48, 41 B 0.116), "
        "Westwood 1.38 (1.90 and 0.52), Westwood+ 1.06 (1.91 and 0.85); tcpsim's Reno 1.78 (1.863 and 0.083), "
        "Westwood 1.73 (1.902 and 0.173), Westwood+ 1.43 (1.915 and 0.484). The 41-byte Westwood overruns the "
        "router's 100-packet buffer (8738-10881 drops a run against 1320-1883 error-model losses), as tcpsim's "
        "explanation says, but recovers more than tcpsim's (0.41-0.62 Mb/s), so its spread ties Reno's (1.38 "
        "against 1.36) rather than exceeding it. At PER 0.01: Westwood 1.59 (1.64 and 0.051; tcpsim 1.50: 1.555 "
        "and 0.057; paper < 1), Westwood+ 1.55 (1.71 and 0.165; tcpsim 1.49: 1.565 and 0.072; paper close to 1.2), "
        "Reno 0.75 (0.78 and 0.023; tcpsim's 1460-byte Reno 0.80). So on ns-3.17's rules ns-3 agrees with tcpsim, "
        "not the paper, on Westwood's spread at PER 0.01: its 41-byte Westwood stays far below capacity (5256-9834 "
        "router drops a run), and the paper's small Westwood spread, which needs a 41-byte Westwood near capacity, "
        "is not given on this set-up.",
        "ns-3.44's RTO rules (configurations '" + CONFIG_LABELS["count"] + "', the previous main reading, and "
        "'ns-3.44's RTO rules and ACK counts', the twin as is; 3 runs each) stall every flow at PER 0.01, the "
        "1460-byte ones included: Reno 0.08, 0.06, 0.07 Mb/s, Westwood 0.46, 0.12, 0.19, Westwood+ 0.21, 0.12, "
        "0.19 with CountAck (with ns-3.44's counts Westwood 0.69, 0.11, 0.10, Westwood+ 0.44, 0.08, 0.10; PRR "
        "recovery: Westwood 0.20, Westwood+ 0.58), with only about 100-400 error-model losses in 600 s: the flows "
        "sit in backed-off timeouts, as in the livelocks of fig7's and fig8's twins under those rules, and their "
        "PER-0.01 spreads (Westwood 0.25 and 0.29, Westwood+ 0.13 and 0.19) are no evidence. At PER 0.001 their "
        "41-byte Westwood collapses further (0.006, 0.011 and 0.005 Mb/s with CountAck, 1028-3678 router drops "
        "against 28-54 error losses; 0.019, 0.019 and 0.003 with ns-3.44's counts), so Westwood's spread there "
        "(1.79; 1.72) exceeds Reno's (1.30).",
        "ns-3.44's ACK counts, which count the duplicate ACKs' segments twice when a fast recovery ends, collapse "
        "the 41-byte Westwood+ under ns-3.44's RTO rules: 0.084 Mb/s at PER 0.001 (spread 1.81), against 0.82, "
        "0.41 and 0.87 with CountAck. Reno's runs do not depend on the count.",
        "Reno's spread at PER 0.001: ns-3 1.36 Mb/s (ns-3.44's RTO rules 1.30; paper 1.4, tcpsim 1.78), from a "
        "lower 1460-byte Reno (1.51, 1.51, 1.42; ns-3.44's RTO rules 1.28, 1.50, 1.42, with PRR 1.75; tcpsim "
        "1.86); the 41-byte ends agree (0.116 and 0.105 against 0.083). This difference at the 1460-byte end "
        "remains open; ns-3.44's recovery without SACK (RFC 6675 emulation, NewReno partial ACKs) is not ns-3.17's "
        "Reno.",
    ],
}
"""Findings written down after the runs, per experiment."""


def raw_path(experiment: str, config: str, point: str, k: int, duration: float) -> Path:
    return CACHE / experiment / config / f"{point}.{k}.d{duration:g}.out"


def run_one(experiment: str, config: str, point: str, k: int, duration: float, reuse: bool) -> str:
    path = raw_path(experiment, config, point, k, duration)
    if reuse and path.is_file() and path.stat().st_size > 0:
        return path.read_text()
    env = {**os.environ, "TWIN_SET": CONFIGS[config]}
    options = [f"--duration={duration:g}", *CONFIG_ARGS.get(config, [])]
    cmd = ["nice", "-n", "5", str(BIN / experiment), point, str(k), *options]
    out = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True).stdout
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(out)
    return out


def collect(experiment: str, twin: Twin, jobs: int, reuse: bool, configs: list[str]) -> Data:
    tasks = []
    for config, points in twin.points.items():
        if configs and config not in configs:
            continue
        tasks += [(config, point, k) for k in range(1, twin.replications_of(config) + 1) for point in points]
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        outputs = list(
            pool.map(lambda t: (t, run_one(experiment, t[0], t[1], t[2], twin.duration_of(t[0]), reuse)), tasks)
        )
    data: Data = {}
    for (config, point, _k), text in outputs:
        for line in text.splitlines():
            parts = line.split()
            if len(parts) == 4 and parts[0] == "RESULT" and parts[1] == point:
                data.setdefault((config, point), {}).setdefault(parts[2], []).append(float(parts[3]))
    return data


def config_of(twin: Twin, name: str) -> str | None:
    """The configuration a number of a fig8 or fig9 twin was computed under: the main reading's for
    one of the experiment's names or an "other:" name that gives no configuration, else the one whose
    label follows "(Mb/s), " (up to " [", the points compared); None when no label matches."""
    if not name.startswith("other:"):
        return twin.reading
    tail = name.rsplit("(Mb/s)", 1)[-1].split(" [", 1)[0].removeprefix(", ")
    if not tail:
        return twin.reading
    return next((c for c in twin.points if twin.label(c) == tail), None)


def kept_numbers(experiment: str, twin: Twin, configs: list[str]) -> list[dict]:
    """The numbers of the existing reference file computed under configurations not in `configs`."""
    kept = []
    for number in json.loads((OUT / f"{experiment}.json").read_text())["numbers"]:
        config = config_of(twin, number["name"])
        if config is None:
            raise SystemExit(f"{experiment}: no configuration for {number['name']!r}; run them all")
        if config not in configs:
            kept.append(number)
    return kept


def write(experiment: str, twin: Twin, data: Data, configs: list[str]) -> Path:
    """The reference file; with `configs`, only their numbers are new, the others' are kept."""
    numbers = kept_numbers(experiment, twin, configs) if configs else []
    for name, values in twin.numbers(data):
        value, ci = mean_ci(values)
        numbers.append({"name": name, "value": round(value, 4), "ci": [round(c, 4) for c in ci] if ci else None})
    if configs:  # the order the numbers functions give: main reading first, then CONFIGS' order
        order = [twin.reading, *(c for c in CONFIGS if c != twin.reading)]
        numbers.sort(key=lambda n: order.index(config_of(twin, n["name"])))
    doc = {
        "experiment": experiment,
        "script": f"peers/ns3/{experiment}.cc",
        "command": f"python3 peers/ns3/run.py {experiment}",
        "ns2": twin.tool,
        "tool": "ns-3",
        "setup": twin.setup,
        "replications": twin.replications,
        "numbers": numbers,
        "observations": OBSERVATIONS.get(experiment, []),
    }
    path = OUT / f"{experiment}.json"
    path.write_text(json.dumps(doc, indent=2, ensure_ascii=False) + "\n")
    return path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("experiments", nargs="+", help="experiment ids, or 'all'")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--reuse", action="store_true", help="reuse cached raw outputs")
    parser.add_argument(
        "--configs",
        default="",
        help="comma-separated configurations: run only these and keep the existing file's numbers of the "
        "others (fig8 and fig9, whose number names give their configuration)",
    )
    args = parser.parse_args()
    configs = [c for c in args.configs.split(",") if c]
    ids = list(TWINS) if args.experiments == ["all"] else args.experiments
    unknown = [i for i in ids if i not in TWINS]
    if unknown:
        print(f"no ns-3 twin for {', '.join(unknown)}; have {', '.join(TWINS)}", file=sys.stderr)
        return 2
    subprocess.run([str(HERE / "build.sh"), *ids], check=True)
    for experiment in ids:
        twin = TWINS[experiment]
        if unknown := [c for c in configs if c not in twin.points]:
            print(f"{experiment} has no configuration {', '.join(unknown)}", file=sys.stderr)
            return 2
        data = collect(experiment, twin, args.jobs, args.reuse, configs)
        print(f"wrote {write(experiment, twin, data, configs)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
