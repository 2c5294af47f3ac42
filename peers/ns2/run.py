#!/usr/bin/env python3
"""Run the ns-2 twins of tcpsim's experiments and write what ns-2 says as data.

    python3 peers/ns2/run.py <experiment id>... | all   [--jobs N] [--reuse]

For each experiment, `peers/ns2/<experiment id>.tcl list` names the script's points; every
point runs once per replication (`<script> <point> <k>`, k = 1…R: substream k of one RNG
seed, see lib/common.tcl) with the ns-2.35 that `setup.sh` builds (through `run.sh`, niced).
The script prints `RESULT <point> <metric> <value>` lines; this runner collects them per
point and metric over the replications, turns them into the experiment's numbers (mean and
the 95 % Student-t interval over the replications) and writes
`python/tcpsim/repro/ns2_reference/<experiment id>.json` in the format of the ns-2 reference
data (experiment, script, command, ns2, setup, replications, numbers, observations).

Numbers named exactly like one of the experiment's `Number`s are ns-2's value for it; the
others carry descriptive names (e.g. the same measure under DropTail where the paper's number
is for its own RD scheduler, which ns-2 does not have). "observations" are the findings
written down after the runs (kept here, beside the code that produced them).

Raw per-run output is cached in $NS2_TWIN_CACHE (default /tmp/ns2-twins); --reuse
re-aggregates cached runs instead of running ns-2 again. Standard library only.
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
OUT = PROJECT / "python" / "tcpsim" / "repro" / "ns2_reference"
CACHE = Path(os.environ.get("NS2_TWIN_CACHE", "/tmp/ns2-twins"))
NS2 = "ns-2.35 stock"


Data = dict[str, dict[str, list[float]]]
"""point → metric → one value per replication."""


@dataclass
class Twin:
    replications: int
    setup: str
    numbers: Callable[[Data], list[tuple[str, list[float]]]]
    observations: list[str] = field(default_factory=list)
    point_replications: dict[str, int] = field(default_factory=dict)
    """Fewer replications for costly points (point → count)."""
    build: str = ""
    """"" for the stock build (run.sh's NS2_ROOT, default /tmp/ns2); "westwood_plus" for the build of
    peers/ns2/westwood/plus/build.sh (NS2WP_ROOT, default /tmp/ns2wp: stock + the UCLA TCP Westwood
    agents + Agent/TCP/WestwoodPlusNR); "rd" for the build of peers/ns2/rd/build.sh (NS2RD_ROOT,
    default /tmp/ns2rd: stock + Queue/RD)."""


# --- names of the numbers -------------------------------------------------------------------------

DISC = {"droptail": "DropTail", "red_ecn": "RED/ECN"}


def pick(data: Data, point: str, metric: str) -> list[float]:
    return data.get(point, {}).get(metric, [])


def flow_count_numbers(nr: int, vg: int) -> Callable[[Data], list[tuple[str, list[float]]]]:
    def numbers(data: Data) -> list[tuple[str, list[float]]]:
        out = []
        for d, label in DISC.items():
            p = f"{d}:{nr}:{vg}"
            where = f"{label}, flow ratio 3 at quick scale (10 Mb/s, {nr} NewReno + {vg} Vegas each way, 20 s)"
            out += [
                (f"{where}: NewReno's utilization", pick(data, p, "newreno_utilization")),
                (f"{where}: Vegas's utilization", pick(data, p, "vegas_utilization")),
                (f"{where}: relative fairness index", pick(data, p, "index")),
                (f"{where}: Vegas's loss rate", pick(data, p, "vegas_loss_rate")),
                (f"{where}: NewReno's loss rate", pick(data, p, "newreno_loss_rate")),
            ]
        return out

    return numbers


RD_METRICS = (
    ("index_link_use", "relative fairness index"),
    ("newreno_link_use", "NewReno's utilization"),
    ("vegas_link_use", "Vegas's utilization"),
    ("vegas_loss_rate", "Vegas's loss rate"),
    ("newreno_loss_rate", "NewReno's loss rate"),
    ("index", "relative fairness index, data packets only"),
    ("index_wire_use", "relative fairness index from the bytes on the wire (Vegas's packets 1000 bytes)"),
    ("vegas_wire_use", "Vegas's utilization from the bytes on the wire"),
    ("n_r_ab", "flows RD counted in R, forward direction (mean)"),
    ("n_d_ab", "flows RD counted in D, forward direction (mean)"),
)
"""The RD arm's values per point: utilization as tcpsim's main reading measures it (link use: a
class's data and ACKs on both directions), the data-only index, the losses and RD's counts."""


def rd_flow_count_numbers(
    quick: list[tuple[int, int]], full: list[tuple[int, int]], at3: tuple[int, int] | None, ratio: str = "nr/vg"
) -> Callable[[Data], list[tuple[str, list[float]]]]:
    """The RD arm of fig4/fig5: `at3` (NewReno, Vegas flows) at the paper's scale gives the values
    of fig4's three numbers at flow ratio 3 (fig5 has none); every point is also listed
    descriptively; `ratio` "vg/nr" names fig5's flow ratio (Vegas over NewReno)."""

    def numbers(data: Data) -> list[tuple[str, list[float]]]:
        out = []
        if at3 is not None:
            p = f"rd:full:{at3[0]}:{at3[1]}"
            out += [
                ("NewReno's utilization at flow ratio 3", pick(data, p, "newreno_link_use")),
                ("Vegas's utilization at flow ratio 3", pick(data, p, "vegas_link_use")),
                ("relative fairness index at flow ratio 3", pick(data, p, "index_link_use")),
            ]
        for scale, pairs in (("quick", quick), ("full", full)):
            for nr, vg in pairs:
                p = f"rd:{nr}:{vg}" if scale == "quick" else f"rd:full:{nr}:{vg}"
                x = nr / vg if ratio == "nr/vg" else vg / nr
                where = (
                    f"RD, {'quick scale (10 Mb/s, 20 s)' if scale == 'quick' else 'paper scale (100 Mb/s, 60 s)'}, "
                    f"{nr} NewReno + {vg} Vegas each way (flow ratio {x:g})"
                )
                out += [(f"{where}: {label}", pick(data, p, metric)) for metric, label in RD_METRICS]
        return out

    return numbers


def web_numbers(points: list[tuple[str, str]]) -> Callable[[Data], list[tuple[str, list[float]]]]:
    """`points`: (point suffix, its label) for each discipline."""

    def numbers(data: Data) -> list[tuple[str, list[float]]]:
        out = []
        for d, label in DISC.items():
            for suffix, where in points:
                p = f"{d}:{suffix}"
                out += [
                    (f"{label}: relative fairness index at {where}", pick(data, p, "index")),
                    (f"{label}: Vegas's loss rate at {where}", pick(data, p, "vegas_loss_rate")),
                    (f"{label}: NewReno's utilization at {where}", pick(data, p, "newreno_utilization")),
                    (f"{label}: Vegas's utilization at {where}", pick(data, p, "vegas_utilization")),
                ]
        return out

    return numbers


RD_WEB_METRICS = (
    ("index", "relative fairness index"),
    ("vegas_loss_rate", "Vegas's loss rate"),
    ("newreno_utilization", "NewReno's utilization"),
    ("vegas_utilization", "Vegas's utilization"),
    ("n_r_ab", "flows RD counted in R, forward direction (mean)"),
    ("n_d_ab", "flows RD counted in D, forward direction (mean)"),
)
"""The RD arm's values per web point (forward direction, data packets, as the other arms and
tcpsim's webtraffic measure) and RD's counts."""


def index_range(data: Data, points: dict[str, float], where: str, fmt: Callable[[float], str]) -> list:
    """The experiment's lowest and highest mean index over `points` (point → x), named where they
    fall as webtraffic.py's `index_range` names them."""
    means = {p: statistics.fmean(v) for p in points if (v := pick(data, p, "index"))}
    if not means:
        return []
    low, high = min(means, key=means.get), max(means, key=means.get)
    return [
        (f"lowest relative fairness index {where} (at {fmt(points[low])})", pick(data, low, "index")),
        (f"highest relative fairness index {where} (at {fmt(points[high])})", pick(data, high, "index")),
    ]


def rd_web_rows(data: Data, point: str, where: str) -> list[tuple[str, list[float]]]:
    """The RD arm's values (`RD_WEB_METRICS`) at web point `point`, named "RD: <metric> at <where>"."""
    return [(f"RD: {label} at {where}", pick(data, point, metric)) for metric, label in RD_WEB_METRICS]


def fig7_rd_numbers(data: Data) -> list[tuple[str, list[float]]]:
    """Fig. 7's numbers from the RD arm: at 10 Mb/s from the paper-scale point, the index range above
    10 Mb/s from the quick points (10 and 100 Mb/s: paper scale 100 and 1000)."""
    out = [
        ("relative fairness index at 10 Mb/s", pick(data, "rd:full:10", "index")),
        ("Vegas's loss rate at 10 Mb/s", pick(data, "rd:full:10", "vegas_loss_rate")),
        *index_range(data, {"rd:10": 100, "rd:100": 1000}, "above 10 Mb/s", "{:g} Mb/s (paper scale)".format),
    ]
    for p, where in (
        ("rd:1", "10 Mb/s (paper scale), quick scale"),
        ("rd:10", "100 Mb/s (paper scale), quick scale"),
        ("rd:100", "1000 Mb/s (paper scale), quick scale"),
        ("rd:full:10", "10 Mb/s at the paper's scale (100 + 100 flows each way, 50 fps, 60 s)"),
    ):
        out += rd_web_rows(data, p, where)
    return out


def fig8_rd_numbers(data: Data) -> list[tuple[str, list[float]]]:
    """Fig. 8's numbers from the RD arm's quick points (max RTT 30, 200, 1000 ms)."""
    out = [
        *index_range(data, {f"rd:{m}": m for m in (30, 200, 1000)}, "across maximum RTTs", "{:g} ms".format),
        ("Vegas's loss rate at the smallest maximum RTT (30 ms)", pick(data, "rd:30", "vegas_loss_rate")),
        ("Vegas's loss rate at 200 ms", pick(data, "rd:200", "vegas_loss_rate")),
        ("Vegas's loss rate at 1000 ms", pick(data, "rd:1000", "vegas_loss_rate")),
    ]
    for p, where in (
        ("rd:30", "max RTT 30 ms (quick scale)"),
        ("rd:200", "max RTT 200 ms (quick scale)"),
        ("rd:1000", "max RTT 1000 ms (quick scale)"),
        ("rd:full:300", "the Figs. 6-8 point (100 Mb/s, 100 + 100 flows each way, 50 fps, RTT 20-300 ms, 60 s)"),
    ):
        out += rd_web_rows(data, p, where)
    return out


def fig9_rd_numbers(data: Data) -> list[tuple[str, list[float]]]:
    """Fig. 9's numbers from the RD arm's quick points (5 and 20 transfers/s: paper scale 50, 200)."""
    out = []
    for kb in (30, 100):
        for r in (5, 20):
            out.append((f"{kb} KB: relative fairness index at {r * 10} fps", pick(data, f"rd:{kb}:{r}", "index")))
    for kb in (30, 100):
        for r in (5, 20):
            where = f"{r * 10} fps, {kb} KB (paper scale), quick scale"
            out += rd_web_rows(data, f"rd:{kb}:{r}", where)
    return out


FIG6_RATES = (1, 10, 50, 100, 200, 300)
"""The intensities of fig6's RD arm, transfers per second in all at the paper's scale (the quick
points run a tenth of each)."""


def fig6_rd_numbers(data: Data) -> list[tuple[str, list[float]]]:
    """Fig. 6's numbers from the RD arm's paper-scale points (tcpsim's full grid); the quick points'
    range and every point's values descriptively."""
    full = {f"rd:full:{r}": r for r in FIG6_RATES}
    quick = {f"rd:{r / 10:g}": r for r in FIG6_RATES}
    fmt = "{:g} fps (paper scale)".format
    out = index_range(data, full, "across intensities", fmt)
    out += index_range(data, quick, "across intensities, quick scale", fmt)
    for points, words in ((full, "paper scale (100 Mb/s, 100 + 100 flows each way, 60 s)"), (quick, "quick scale")):
        for p, fps in points.items():
            out += rd_web_rows(data, p, f"{fps:g} fps, {words}")
    return out


FIG10_BOTH = (0, 1, 2, 3, 4, 6, 7, 8)
"""The schedule's steps with both classes (step 5 has Vegas alone)."""


def fig10_rd_numbers(data: Data) -> list[tuple[str, list[float]]]:
    """Fig. 10's number from the RD arm at the paper's scale; per step and right after each change
    at both scales; the 20 + 20 mix under RD."""
    out = [
        (
            "RD's relative fairness index (mean over the intervals with both classes)",
            pick(data, "rd:full", "index_mean"),
        ),
        (
            "RD: relative fairness index, mean over the intervals with both classes (quick scale)",
            pick(data, "rd:schedule", "index_mean"),
        ),
    ]
    for p, step_s, words in (("rd:full", 20, "paper scale"), ("rd:schedule", 10, "quick scale")):
        for k in FIG10_BOTH:
            span = f"{k * step_s:g}-{(k + 1) * step_s:g} s"
            out.append((f"RD: relative fairness index over {span} ({words})", pick(data, p, f"index_step{k}")))
        for k in FIG10_BOTH[1:]:
            span = f"{k * step_s:g} s + {step_s / 4:g} s"
            out.append(
                (
                    f"RD: relative fairness index over {span}, right after the change ({words})",
                    pick(data, p, f"index_settle{k}"),
                )
            )
    p = "rd:static20"
    out += [
        ("RD: Vegas/NewReno per-flow ratio, 20 + 20 forward at 20 Mb/s, 60 s", pick(data, p, "index")),
        ("RD: NewReno's utilization, 20 + 20 forward at 20 Mb/s", pick(data, p, "newreno_utilization")),
        ("RD: Vegas's utilization, 20 + 20 forward at 20 Mb/s", pick(data, p, "vegas_utilization")),
        ("RD: Vegas's loss rate, 20 + 20 forward at 20 Mb/s", pick(data, p, "vegas_loss_rate")),
        ("RD: NewReno's loss rate, 20 + 20 forward at 20 Mb/s", pick(data, p, "newreno_loss_rate")),
    ]
    return out


def fig10_numbers(data: Data) -> list[tuple[str, list[float]]]:
    out = fig10_rd_numbers(data)
    for d, label in DISC.items():
        out.append(
            (
                f"{label}: relative fairness index, mean over the intervals with both classes (quick scale)",
                pick(data, f"{d}:schedule", "index_mean"),
            )
        )
    for d, label in DISC.items():
        p = f"{d}:static20"
        out += [
            (f"{label}: Vegas/NewReno per-flow ratio, 20 + 20 forward at 20 Mb/s, 60 s", pick(data, p, "index")),
            (f"{label}: NewReno's utilization, 20 + 20 forward at 20 Mb/s", pick(data, p, "newreno_utilization")),
            (f"{label}: Vegas's utilization, 20 + 20 forward at 20 Mb/s", pick(data, p, "vegas_utilization")),
            (f"{label}: Vegas's loss rate, 20 + 20 forward at 20 Mb/s", pick(data, p, "vegas_loss_rate")),
            (f"{label}: NewReno's loss rate, 20 + 20 forward at 20 Mb/s", pick(data, p, "newreno_loss_rate")),
        ]
    return out


FIG12_RATES = (
    ("newreno_long_mbps", "NewReno long flows"),
    ("newreno_onehop_mbps", "NewReno one-hop flows"),
    ("vegas_long_mbps", "Vegas long flows"),
    ("vegas_onehop_mbps", "Vegas one-hop flows"),
)


def fig12_numbers(data: Data) -> list[tuple[str, list[float]]]:
    out = [("RD's relative fairness index, averaged over the five links", pick(data, "rd:full", "index_mean"))]
    for p, words in (("rd:full", "paper scale"), ("rd", "quick scale")):
        label = f"RD ({words})"
        out.append((f"{label}: relative fairness index averaged over the five links", pick(data, p, "index_mean")))
        for metric, what in FIG12_RATES:
            out.append((f"{label}: {what}, Mb/s per flow", pick(data, p, metric)))
        for i in range(5):
            out.append((f"{label}: relative fairness index on link {i + 1}", pick(data, p, f"index_hop{i}")))
    for d, label in DISC.items():
        out.append(
            (
                f"{label}: relative fairness index averaged over the five links (quick scale)",
                pick(data, d, "index_mean"),
            )
        )
        for metric, words in FIG12_RATES:
            out.append((f"{label}: {words}, Mb/s per flow (quick scale)", pick(data, d, metric)))
        for i in range(5):
            out.append(
                (f"{label}: relative fairness index on link {i + 1} (quick scale)", pick(data, d, f"index_hop{i}"))
            )
    return out


INTERVALS = ("0-250", "250-500", "500-750", "750-1000")


def table1_numbers(data: Data) -> list[tuple[str, list[float]]]:
    out = []
    for variant, label in (("newreno", "NewReno"), ("vegas", "Vegas")):
        for iv in INTERVALS:
            a, b = iv.split("-")
            out.append((f"{label} goodput [{a}, {b}] s (Mb/s)", pick(data, variant, f"interval_{iv}")))
    return out


def bottleneck_numbers(data: Data) -> list[tuple[str, list[float]]]:
    out = []
    for variant, label in (("newreno", "NewReno"), ("vegas", "Vegas")):
        for m in (10, 50):
            for rev, words in (("with", "with"), ("without", "without")):
                p = f"{variant}:{m}:{rev}"
                out.append(
                    (f"{label}: total goodput, M = {m}, {words} reverse traffic (Mb/s)", pick(data, p, "total_goodput"))
                )
                out.append((f"{label}: Jain's index, M = {m}, {words} reverse traffic", pick(data, p, "jain")))
    return out


def multihop_numbers(data: Data) -> list[tuple[str, list[float]]]:
    return [
        (f"{label} C1 goodput over {n} hop(s), 300 s (Mb/s)", pick(data, f"{v}:{n}", "c1_goodput"))
        for v, label in (("newreno", "NewReno"), ("vegas", "Vegas"))
        for n in (1, 3)
    ]


MOLLER_BUFFERS = (2, 5, 10, 21, 26, 31, 42, 62, 83)


def moller_fig5_numbers(data: Data) -> list[tuple[str, list[float]]]:
    """The experiment's numbers from the Westwood+ agent (wplus); as descriptive values its shares
    at every buffer and the per-ACK TCPW-NR agent's (wnr) at 26, 42 and 83 packets (the drops per
    flow and the other buffers' wnr values are in the raw outputs and the observations)."""
    out = [
        (f"{label} normalized throughput at B = CT (42 pkt), scenario 1 simulation", pick(data, "wplus:42", metric))
        for metric, label in (("newreno", "NewReno"), ("westwood", "Westwood+"))
    ]
    out.append(
        (
            "Westwood+/NewReno throughput ratio at the largest buffer (B = 83 pkt = 1.99·CT), against the paper's "
            "model curve at that B (the paper: tends to 1/3 as B → ∞)",
            pick(data, "wplus:83", "ratio"),
        )
    )
    for agent, label, buffers in (
        ("wplus", "WestwoodPlusNR", MOLLER_BUFFERS),
        ("wnr", "WestwoodNR (per-ACK TCPW-NR)", (26, 42, 83)),
    ):
        for b in buffers:
            for metric in ("newreno", "westwood"):
                out.append((f"{label} vs NewReno, B = {b} pkt: {metric} share", pick(data, f"{agent}:{b}", metric)))
    return out


MACURA_BADS = ("0.1", "0.3", "1", "3", "10", "30", "100")


def macura_wireless_numbers(data: Data) -> list[tuple[str, list[float]]]:
    """The experiment's smallest and largest gains, and the gain at every Bad duration: per
    replication Westwood+ over NewReno (paired: the same substream draws the same start time and
    channel), averaged. The goodputs are in the observations."""
    gains = {
        bad: [
            100.0 * (w / n - 1.0)
            for w, n in zip(pick(data, f"wplus:{bad}", "goodput"), pick(data, f"newreno:{bad}", "goodput"))
            if n > 0
        ]
        for bad in MACURA_BADS
    }
    # The experiment's two numbers: the smallest and the largest mean gain over the Bad durations, named
    # by where they fall, over tcpsim's full grid (all seven) and its quick grid (0.1, 1, 10, 100 ms).
    out: list[tuple[str, list[float]]] = []
    for grid in (MACURA_BADS, ("0.1", "1", "10", "100")):
        present = [b for b in grid if gains[b]]
        if not present:
            continue
        for word, chosen in (
            ("smallest", min(present, key=lambda b: statistics.fmean(gains[b]))),
            ("largest", max(present, key=lambda b: statistics.fmean(gains[b]))),
        ):
            name = f"{word} gain of Westwood+ over NewReno, delayed ACKs (%) [at Bad {chosen} ms]"
            if name not in [n for n, _ in out]:
                out.append((name, gains[chosen]))
    for bad in MACURA_BADS:
        out.append((f"gain of Westwood+ over NewReno, delayed ACKs (%), Bad {bad} ms", gains[bad]))
    # The alternative reading, with ns-2's own ErrorModel/MultiState (points ms-AGENT:BAD).
    for bad in MACURA_BADS:
        nr, wp = pick(data, f"ms-newreno:{bad}", "goodput"), pick(data, f"ms-wplus:{bad}", "goodput")
        out.append(
            (
                f"MultiState reading: gain of Westwood+ over NewReno (%), Bad {bad} ms",
                [100.0 * (w / n - 1.0) for w, n in zip(wp, nr) if n > 0],
            )
        )
    return out


RD_ARM = (
    "RD, the paper's scheduler, runs as Queue/RD (peers/ns2/rd/rd-services.cc, built into a copy of the "
    "stock build by rd/build.sh; the project's port of tcpsim's RD, crates/tcpsim-core/src/queue/rd.rs): "
    "tcpsim's main reading (RD_PAPER): NewReno's flow ids in R, Vegas's in D (data and the ACKs sent back), "
    "k = 1, B_D = 10 % of the C·250 ms buffer (each queue's limit counts its waiting packets), Fig. 2's "
    "dequeue with its resets and debt, recalculation every 100 ms (L_R, L_D restarting at 0), flows counted "
    "per class by a 4096-slot timestamp vector (a flow = a connection) within 1 s + 2 × the class's longest "
    "queueing delay in that window. The DropTail and RED/ECN points run unchanged in that build. Under RD "
    "a class's utilization is tcpsim's main reading, link use: its data (1040 bytes a packet) and its "
    "flows' ACKs (40 bytes) leaving the bottleneck in both directions, over both directions' capacity; "
    "the index from it; the data-only index as the DropTail points' (note: stock Vegas's packets are "
    "1000 bytes on the wire, counted as 1040 as tcpsim's). "
)
PODLESNY_COMMON = (
    "Sec. IV dumbbell as tcpsim's main reading builds it: 200 Mb/s access links (6250-packet DropTail), a "
    "10 ms bottleneck with a C·250 ms buffer, one host per flow end; Agent/TCP/Newreno and Agent/TCP/Vegas "
    "(v_alpha_ 1, v_beta_ 3, v_gamma_ 1), Agent/TCPSink (an ACK per packet), packetSize_ 1000, window_ 10000 "
    "(tcpsim: unlimited receiver window), the rest ns-2.35 defaults (windowInit_ 2, minrto_ 0.2 s, tcpTick_ "
    "0.01 s, singledup_ 1 i.e. limited transmit, useHeaders_ true: NewReno's packets 1040 bytes on the wire, "
    "stock Vegas's 1000); flows start uniform in [0, 1] s; RTTs uniform in the range, drawn per replication. "
    "Utilization: a class's data packets leaving the bottleneck queue in the measurement window (flow "
    "monitor by class), 1040 bytes each, over the capacity (tcpsim's measure); loss rate: the class's drops "
    "over its arrivals at the bottleneck. "
)

TWINS: dict[str, Twin] = {
    "podlesny.fig4": Twin(
        3,
        RD_ARM + PODLESNY_COMMON + "Quick scale as tcpsim's quick mode and its DropTail baseline: 10 Mb/s "
        "(312-packet buffer), 30 NewReno + 10 Vegas each way (flow ratio 3), RTTs [20, 300] ms, 20 s, the "
        "first 5 s excluded; DropTail and RED/ECN. RD: tcpsim's quick grid (1, 5, 10, 30, 70 NewReno against "
        "10 Vegas each way, 10 Mb/s, 20 s) and the paper's scale at flow ratios 0.1, 0.5 and 3 (10, 50, 300 "
        "NewReno against 100 Vegas each way, 100 Mb/s, 3125-packet buffer, 60 s, the first 5 s excluded): the "
        "experiment's three numbers are ns-2's at ratio 3 at the paper's scale; 3 replications.",
        lambda data: (
            rd_flow_count_numbers(
                [(n, 10) for n in (1, 5, 10, 30, 70)], [(10, 100), (50, 100), (300, 100)], (300, 100)
            )(data)
            + flow_count_numbers(30, 10)(data)
        ),
        build="rd",
    ),
    "podlesny.fig5": Twin(
        3,
        RD_ARM + PODLESNY_COMMON + "Quick scale as tcpsim's quick mode and its DropTail baseline: 10 Mb/s "
        "(312-packet buffer), 10 NewReno + 30 Vegas each way (flow ratio 3), RTTs [20, 300] ms, 20 s, the "
        "first 5 s excluded; DropTail and RED/ECN. RD: tcpsim's quick grid (1, 5, 10, 30, 70 Vegas against 10 "
        "NewReno each way, 10 Mb/s, 20 s) and the paper's scale at flow ratios 0.1, 0.5, 1, 3 and 7 (10, 50, 100, "
        "300, 700 Vegas against 100 NewReno each way, 100 Mb/s, 3125-packet buffer, 60 s, the first 5 s "
        "excluded); 3 replications.",
        lambda data: (
            rd_flow_count_numbers(
                [(10, n) for n in (1, 5, 10, 30, 70)], [(100, n) for n in (10, 50, 100, 300, 700)], None, "vg/nr"
            )(data)
            + flow_count_numbers(10, 30)(data)
        ),
        build="rd",
    ),
    "podlesny.fig6": Twin(
        3,
        RD_ARM + PODLESNY_COMMON + "Quick scale as tcpsim's quick mode: 10 Mb/s, 10 NewReno + 10 Vegas "
        "long-lived flows each way, RTTs [20, 300] ms, two web servers (one per class, each half the total) "
        "sending transfers across the bottleneck, Poisson arrivals at 1, 10, 30 per second in all (paper scale "
        "10, 100, 300), Pareto sizes (mean 30 KB, shape 1.3) in 1000-byte packets, each a new connection (fresh "
        "agents, window_ 1000) over a 100 ms RTT; 20 s, the first 5 s excluded; forward direction measured "
        "(long-lived forward flows plus the class's transfers), index = ratio of the class utilizations (equal "
        "long-lived counts); DropTail and RED/ECN, 3 replications. RD: tcpsim's quick grid at the quick scale "
        "(0.1, 1, 5, 10, 20, 30 transfers per second: paper scale 1, 10, 50, 100, 200, 300; 3 replications) and "
        "tcpsim's full grid at the paper's scale (100 Mb/s, 3125-packet buffer, 100 + 100 long-lived flows each "
        "way, 1, 10, 50, 100, 200, 300 transfers per second, 60 s, the first 5 s excluded; 2 replications, "
        "1.5 min of CPU each). Measured on the forward direction (data packets, as webtraffic.py). The "
        "experiment's numbers (the index's lowest and highest over the intensities) are the paper-scale RD "
        "points'.",
        lambda data: (
            fig6_rd_numbers(data)
            + web_numbers([(r, f"{int(r) * 10} fps (paper scale)") for r in ("1", "10", "30")])(data)
        ),
        point_replications={f"rd:full:{r}": 2 for r in (1, 10, 50, 100, 200, 300)},
        build="rd",
    ),
    "podlesny.fig7": Twin(
        3,
        RD_ARM + PODLESNY_COMMON + "Quick scale as tcpsim's quick mode: capacities 1, 10, 100 Mb/s (paper "
        "scale 10, 100, 1000; buffer C·250 ms), 10 NewReno + 10 Vegas long-lived flows each way, RTTs [20, 300] "
        "ms, web 5 transfers per second in all (Poisson, Pareto sizes mean 30 KB), 20 s, the first 5 s "
        "excluded; DropTail, RED/ECN and RD. Plus RD at the paper's scale at 10 Mb/s (100 + 100 flows each way, "
        "web 50 per second, 60 s). Measured on the forward direction (data packets, as webtraffic.py). The "
        "experiment's numbers at 10 Mb/s are the paper-scale RD point's, its index range above 10 Mb/s the RD "
        "quick points' (paper scale 100 and 1000 Mb/s); 3 replications.",
        lambda data: (
            fig7_rd_numbers(data)
            + web_numbers([(c, f"{int(c) * 10} Mb/s (paper scale)") for c in ("1", "10", "100")])(data)
        ),
        build="rd",
    ),
    "podlesny.fig8": Twin(
        3,
        RD_ARM + PODLESNY_COMMON + "Quick scale as tcpsim's quick mode: 10 Mb/s, 10 NewReno + 10 Vegas "
        "long-lived flows each way with RTTs uniform in [20 ms, max], max 30, 200, 1000 ms, web 5 transfers per "
        "second in all (Poisson, Pareto sizes mean 30 KB), 20 s, the first 5 s excluded; DropTail, RED/ECN and "
        "RD; 3 replications. Plus the paper-scale point shared by Figs. 6, 7 and 8 ('full'): 100 Mb/s "
        "(3125-packet buffer), 100 + 100 flows each way, RTTs [20, 300] ms, web 50 per second, 30 s (not 60; RD: "
        "60 s) with the first 5 s excluded, 2 replications. The experiment's numbers are the RD quick points'.",
        lambda data: (
            fig8_rd_numbers(data)
            + web_numbers(
                [(m, f"max RTT {m} ms (quick scale)") for m in ("30", "200", "1000")]
                + [("full:300", "the Figs. 6-8 point (100 Mb/s, 100 + 100 flows each way, 50 fps, RTT 20-300 ms)")]
            )(data)
        ),
        point_replications={"droptail:full:300": 2, "red_ecn:full:300": 2, "rd:full:300": 2},
        build="rd",
    ),
    "podlesny.fig9": Twin(
        3,
        RD_ARM + PODLESNY_COMMON + "Quick scale as tcpsim's quick mode: 10 Mb/s, 10 NewReno + 10 Vegas "
        "long-lived flows each way, RTTs [20, 300] ms, web transfers with Pareto gaps (shape 1.1) at 5 and 20 "
        "per second in all (paper scale 50 and 200), Pareto sizes (shape 1.3) of mean 30 KB and 100 KB, 20 s, "
        "the first 5 s excluded; DropTail, RED/ECN and RD; 3 replications, RD 10 (its index scatters widely "
        "under the Pareto arrivals). The experiment's numbers are the RD points'.",
        lambda data: (
            fig9_rd_numbers(data)
            + web_numbers([(f"{kb}:{r}", f"{r * 10} fps, {kb} KB (paper scale)") for kb in (30, 100) for r in (5, 20)])(
                data
            )
        ),
        point_replications={f"rd:{kb}:{r}": 10 for kb in (30, 100) for r in (5, 20)},
        build="rd",
    ),
    "podlesny.fig10": Twin(
        3,
        RD_ARM + PODLESNY_COMMON + "Quick scale as tcpsim's quick mode: 20 Mb/s (625-packet buffer), flows "
        "forward only, dynamics.py's assumed schedule with every count divided by 5 and 10 s steps (90 s); a "
        "flow is ON while its class has more than its index (FTP started/stopped, the connection kept); per "
        "step (from max(step start, 5 s)) each class's packets crossing the bottleneck, the index = Vegas's "
        "per-flow count over NewReno's, averaged over the steps with both classes (tcpsim: delivered payload "
        "in 0.2 s bins). Also a static 20 NewReno + 20 Vegas forward mix at 20 Mb/s, 60 s, the first 5 s "
        "excluded (the issue's '20 + 20 mix'); 3 replications. DropTail, RED/ECN and RD at both. Also the index "
        "over the first quarter of each later step with both classes (dynamics.py's 'right after each change'). "
        "RD also at the paper's scale ('rd:full': 100 Mb/s, 3125-packet buffer, dynamics.py's schedule itself, "
        "20 s steps, 180 s, 5 s windows after each change; 3 replications): the experiment's number is that "
        "point's. Flows run forward only, so the index counts data packets (stock Vegas's 1000 bytes on the "
        "wire counted as 1040, as NewReno's).",
        fig10_numbers,
        point_replications={"rd:full": 3},
        build="rd",
    ),
    "podlesny.fig12": Twin(
        24,
        RD_ARM
        + PODLESNY_COMMON.replace(
            "a 10 ms bottleneck with a C·250 ms buffer", "five 5 ms bottlenecks with C·250 ms buffers"
        )
        + "The parking lot of Fig. 11 at tcpsim's quick scale: five 20 Mb/s, 5 ms bottlenecks (625-packet "
        "buffers), pools of 4 NewReno + 4 Vegas (long r0→r5, cross r_i→r_i+1 per hop, reverse r5→r0), RTTs "
        "uniform in [60, 300] ms, 20 s, the first 5 s excluded; per link the classes' data packets crossing it "
        "forward, index = Vegas per flow over NewReno per flow, averaged over the five links (tcpsim: delivered "
        "payload); 24 replications (the RED/ECN index scatters widely). DropTail, RED/ECN and RD (Queue/RD on both "
        "directions of every bottleneck). RD also at the paper's scale ('rd:full': 100 Mb/s bottlenecks, "
        "3125-packet buffers, pools of 20, 60 s; 3 replications): the experiment's number is that point's. The "
        "index counts data packets (stock Vegas's 1000 bytes on the wire counted as 1040, as NewReno's).",
        fig12_numbers,
        point_replications={"rd:full": 3},
        build="rd",
    ),
    "moller.fig5": Twin(
        3,
        "Fig. 2 topology as tcpsim's moller.fig5 builds it, Table II scenario 1: S1, S2 —100 Mb/s, 0.1 ms— R "
        "—10 Mb/s, 24.9 ms, DropTail B packets— D (T = 50 ms, CT = 41.7 packets), B = 2, 5, 10, 21, 26, 31, 42, "
        "62, 83 packets (tcpsim's quick grid plus B = 26, where its full run misses the model); Agent/TCP/Newreno "
        "from S1 and, from S2, Agent/TCP/WestwoodPlusNR (points wplus:B) or Agent/TCP/WestwoodNR (wnr:B), each to "
        "an Agent/TCPSink (an ACK per packet, as tcpsim's no delayed ACKs); FTPs starting uniform in [0, 1] s; "
        "2042 s, the first 60 s excluded (tcpsim's full-mode length); packetSize_ 1460 (1500 bytes on the wire), "
        "window_ 100000 (no receiver window), otherwise the defaults of ns-2.35 (windowInit_ 2, minrto_ 0.2 s — "
        "tcpsim's moller runs use min RTO 1 s —, tcpTick_ 0.01 s, singledup_ 1) and of the TCPW-NR agent "
        "(fr_alpha_ 0.9; filter_type_ 3, tau_ 1.0 s for WestwoodNR). ns-2.35 has no Westwood+ agent: the published "
        "UCLA/Politecnico agents (peers/ns2/westwood) sample the bandwidth on every ACK (Westwood); "
        "Agent/TCP/WestwoodPlusNR is the TCPW-NR agent with the project's own Westwood+ estimator (one sample per "
        "RTT, EWMA 0.9; peers/ns2/westwood/plus/tcp-westwood-plus.cc), so the Westwood+ numbers are ns-2's "
        "NewReno and TCPW-NR loss reaction with that estimator, not an agent of the paper's authors. Normalized "
        "throughput = packets newly acknowledged in the window × 1500 bytes / time / C (tcpsim: payload × "
        "1500/1460 / C); ratio per run, then averaged. 3 replications (tcpsim full: 10 seeds).",
        moller_fig5_numbers,
        build="westwood_plus",
    ),
    "macura.wireless": Twin(
        5,
        "Sec. 5.5's first run (TCP1 alone) as tcpsim's main reading builds it: src —100 Mb/s, 95 ms— r —10 Mb/s, "
        "10 ms, DropTail 125— bs —2 Mb/s, 20 ms, DropTail 42— mobile; TCP1 src → mobile, Agent/TCP/Newreno or "
        "Agent/TCP/WestwoodPlusNR (ns-2.35 has no Westwood+ agent: the TCPW-NR agent with the project's per-RTT "
        "Westwood+ estimator, EWMA 0.9, peers/ns2/westwood/plus; tcpsim's Westwood+ is Linux's, two 7/8 EWMAs, 50 "
        "ms floor), Agent/TCPSink/DelAck (interval_ 100 ms), FTP from uniform [0, 1] s; packetSize_ 1460, "
        "window_ 10000, ns-2.35 defaults otherwise (windowInit_ 2, minrto_ 0.2 s). Each wireless direction has "
        "its own channel: deterministic sojourns of 1 s (Good) and 0.1…100 ms (Bad), the next Bad with "
        "probability 0.5, Good at t = 0, packet loss 0 / 0.1; ns-2.35's MultiState changes state only at "
        "packets, so `$ns at` events at the sojourn ends set an ErrorModel's rate_ (unit pkt, link-lossmodel: "
        "judged after the link). Each channel's loss draws and state draws use RNGs seeded from replication k's "
        "substream. Goodput over the whole 1000 s run = (ndatapack_ − nrexmitpack_) × 1500 bytes / 1000 s. "
        "Also the alternative reading 'ns-2 MultiState transitions' with ns-2.35's own ErrorModel/MultiState "
        "(sttype time, periods 1 s and Bad, matrix {{0.5 0.5} {0.5 0.5}}, state models rate_ 0 and 0.1, start "
        "Good; its transition draws from ns-2's default RNG seeded per replication): points ms-AGENT:BAD. Only "
        "the delayed-ACK NewReno/Westwood+ pair of the first run is run (not the no-delayed-ACK pair, SACK or "
        "the second run); 5 replications (tcpsim full: 10 seeds).",
        macura_wireless_numbers,
        build="westwood_plus",
    ),
    "macura.table1": Twin(
        10,
        "Table 1's set-up as tcpsim's main reading builds it: one persistent connection over a 2 Mb/s, 120 ms "
        "drop-tail bottleneck of 42 packets each way (RTT 250 ms, 2.5 ms on each 100 Mb/s access link), "
        "starting uniform in [0, 1] s; ten NewReno senders (RTT 250 ms) on its ACK path, FTP started at 250 "
        "and 750 s and stopped at 500 and 1000 s; 1000 s; packetSize_ 1460 (NewReno 1500 bytes on the wire "
        "with the 40-byte header, stock Vegas 1460: it adds no header), Agent/TCPSink/DelAck (interval_ 100 "
        "ms), window_ 10000 (no receiver-window cap), Agent/TCP/Vegas with v_alpha_ 1, v_beta_ 3, v_gamma_ 1; "
        "the rest ns-2.35 defaults. Goodput per 250 s interval = packets acknowledged in it × 1500 bytes. "
        "Westwood+ is not a stock ns-2 agent and is not run. 10 replications (tcpsim full: 10 seeds).",
        table1_numbers,
    ),
    "macura.multihop": Twin(
        3,
        "Sec. 5.3's chain as tcpsim's main reading builds it: routers joined by 10 Mb/s, 10 ms hops, C1 "
        "(NewReno or Vegas; Westwood+ is not a stock ns-2 agent) across all N hops from 10 s, one NewReno cross "
        "flow each way on every hop starting uniform in [0, 1] s, every host on its own 100 Mb/s, 20 ms link, "
        "every queue DropTail of 125 packets; packetSize_ 1460, Agent/TCPSink/DelAck, window_ 10000, ns-2.35 "
        "defaults otherwise. C1's goodput: (sent - retransmitted) x 1500 bytes from 10 s. Subset: N = 1 and 3 "
        "(tcpsim's quick grid), 300 s (tcpsim quick 150 s, full 1000 s), 3 replications.",
        multihop_numbers,
    ),
    "macura.bottleneck": Twin(
        2,
        "Sec. 5.2's set-up as tcpsim's main reading builds it, at its quick scale: M = 10 and 50 persistent "
        "flows of NewReno or Vegas (Westwood+ is not a stock ns-2 agent) over a 10 Mb/s, 5 ms drop-tail "
        "bottleneck of 125 packets each way, RTTs 20 + 230·i/M ms, with or without ten NewReno reverse "
        "senders (RTTs spread in [46, 250] ms), all starting uniform in [0, 1] s, 150 s; packetSize_ 1460, "
        "Agent/TCPSink/DelAck, window_ 10000, ns-2.35 defaults otherwise. Total goodput = the M flows' "
        "(sent − retransmitted) packets × 1500 bytes over 150 s; Jain's index of the M goodputs; 2 "
        "replications (tcpsim quick: 2 seeds).",
        bottleneck_numbers,
    ),
}


# --- what the runs showed (written after running them; the numbers quoted are the JSON's) -------------

VEGAS_SOURCE = [
    "tcp/tcp-vegas.cc (ns-2.35), VegasTcpAgent::recv, the once-per-round block (lines 209-278, entered on the "
    "ACK with seqno >= v_begseq_): recv_newack_helper(pkt) (line 201) has already moved last_ack_ to this ACK; "
    "line 220 rttLen = t_seqno_ - v_begseq_ (packets sent since the round began); line 234 v_actual_ = rttLen / "
    "rtt (rtt = v_sumRTT_ / v_cntRTT_, the round's mean sample, or now - v_begtime_ without one); line 236 "
    "expect = (t_seqno_ - last_ack_) / v_baseRTT_: the packets outstanding after the round's closing ACK (plus "
    "one, last_ack_ being the highest acknowledged sequence number), taken before this ACK's new transmissions "
    "(send_much, line 418), not cwnd_ (the comment says 'current window size'); line 239 delta = "
    "int((expect - actual) * v_baseRTT_ + 0.5). With delayed ACKs the closing ACK covers two packets, so expect "
    "is about one packet below cwnd: the issue's hypothesis holds.",
    "Same function: in congestion avoidance v_incr_ = 1/cwnd_ when delta < v_alpha_ (line 269), added on every "
    "ACK while cwnd_ - (t_seqno_ - last_ack_) <= 2 (lines 290-291): about +1 packet per round with an ACK per "
    "packet, about +1/2 with delayed ACKs; delta > v_beta_ takes one packet off, once (line 264); slow start "
    "grows every other round and ends with cwnd -= cwnd/8 when delta > v_gamma_ (lines 240-256); BaseRTT is "
    "reset to the round's RTT when rttLen <= 1 (line 229); a round is decided on any number of samples.",
    "tcp/tcp-vegas.cc, VegasTcpAgent::output (lines 454-511): the packet keeps allocpkt()'s packetSize_ bytes, "
    "no headersize() is added, whereas TcpAgent::output (tcp/tcp.cc lines 762-763) adds the 40-byte header when "
    "useHeaders_ is true (the default): stock Vegas's packets are 40 bytes shorter on the wire than NewReno's. "
    "The same output() never sets the ECT bit, which TcpAgent::output sets when ecn_ is on (tcp.cc lines "
    "691-692): stock ns-2 Vegas is not ECN-capable, so RED/ECN drops its packets where it marks NewReno's.",
]

OBSERVATIONS: dict[str, list[str]] = {
    "macura.table1": [
        "ns-2 agrees with tcpsim, not with the paper, in the reverse-ON intervals: NewReno 1.16 and 1.18 Mb/s "
        "(tcpsim quick, 3 seeds at 6026cc4: 1.22/1.17; paper 1.62/1.64), Vegas 0.26 and 0.25 Mb/s (tcpsim 0.17/0.17, paper 0.48/0.51). "
        "Neither simulator reaches the paper's ON values with the stated buffers (BDP, 42 packets): those misses "
        "belong to the paper's unstated set-up; Vegas's remaining gap to ns-2 (0.26 against 0.17 Mb/s) is "
        "tcpsim's (ns-2's expect from the outstanding packets, below).",
        "ns-2 Vegas's OFF-interval goodput of 2.02 Mb/s exceeds the 2 Mb/s link because stock Vegas sends "
        "1460-byte packets (no header) while goodput counts whole 1500-byte packets, as tcpsim's measure does; "
        "on the wire that is 1.97 Mb/s, the paper's value.",
        *VEGAS_SOURCE,
    ],
    "podlesny.fig4": [
        "DropTail at flow ratio 3 (quick scale), ns-2 against tcpsim (6026cc4, 3 seeds, same set-up): index 0.42 "
        "[0.30, 0.54] against 0.36 [0.22, 0.49], Vegas loss 2.0 % against 2.8 %, NewReno loss 2.8 % against "
        "4.4 %: tcpsim's NewReno/Vegas dynamics under DropTail agree with ns-2's.",
        "RED/ECN: ns-2's Vegas loses 8.4 % of its packets (tcpsim 0.08 %) because stock ns-2 Vegas is not "
        "ECN-capable (its output() never sets ECT, see macura.table1's observations), so RED drops its packets "
        "where it marks NewReno's; index 0.85 against tcpsim's 1.10 [0.40, 1.81].",
        "RD in ns-2 (Queue/RD, the port of tcpsim's RD, tcpsim's main-reading parameters) against tcpsim "
        "(bb13c41, `tcpsim_side.py --rd fig4grid fig4full`, 3 seeds), relative fairness index (link use): at the "
        "paper's scale, flow ratio 0.1, 0.5, 3: ns-2 1.17 [0.83, 1.50], 1.18 [1.15, 1.21], 1.13 [1.12, 1.14]; "
        "tcpsim 1.35 [1.26, 1.43], 1.17 [1.06, 1.28], 1.05 [1.02, 1.09]; at ratio 3 NewReno / Vegas 71.6 % / "
        "26.9 % in ns-2, 72.0 % / 25.3 % in tcpsim (the paper: 74 %, 24 %, index 0.97); Vegas loss 0.20 %, "
        "0.18 %, 0.51 % against 0.22 %, 0.26 %, 0.80 %. Quick grid (ratios 0.1, 0.5, 1, 3, 7): ns-2 0.56, 0.88, "
        "1.13, 1.11, 1.14; tcpsim 0.49, 0.90, 0.99, 1.07, 1.08. RD counted the same flows in both (n_R, n_D "
        "per direction about twice the class's connections: data one way, ACKs the other).",
        "So ns-2 with the same RD confirms tcpsim's miss: at the paper's scale Vegas is ahead at the small "
        "flow ratios (index above 1.15 at ratios 0.1 and 0.5 in both simulators), and both sit a little above "
        "the paper's 0.97 at ratio 3. The miss belongs to RD as realised with the settings the paper leaves "
        "open, not to tcpsim's TCP or RD code. ns-2's indices at ratios >= 1 are 4-7 % above tcpsim's mostly "
        "because stock Vegas sends 1000-byte packets (no header) and RD shares bytes: from the bytes on the "
        "wire ns-2's index at ratio 3 (paper scale) is 1.08 [1.07, 1.09], Vegas 25.9 %.",
        "The DropTail and RED/ECN points give the same numbers in the stock build and in the build with Queue/RD.",
    ],
    "podlesny.fig5": [
        "DropTail at flow ratio 3 (quick scale): ns-2 index 0.28 [0.25, 0.30] against tcpsim (6026cc4) 0.22 "
        "[0.15, 0.28], Vegas loss 0.69 % against 0.71 %, NewReno loss 1.2 % against 1.6 %: close agreement.",
        "RED/ECN: ns-2 index 1.00 with Vegas losing 7.6 % (not ECN-capable in ns-2) against tcpsim's 1.15 and 0.04 %.",
        "RD in ns-2 (Queue/RD, tcpsim's main-reading parameters) against tcpsim (bb13c41, `tcpsim_side.py --rd "
        "fig5grid fig5full`, 3 seeds), flow ratio = Vegas over NewReno flows. Quick grid (0.1, 0.5, 1, 3, 7): "
        "index 1.02, 1.19, 1.13, 0.89, 0.95 in ns-2, 0.94, 1.11, 0.99, 0.94, 1.00 in tcpsim; Vegas loss 0, "
        "0.13 %, 0.87 %, 5.5 %, 12.0 % in ns-2, 0, 0.17 %, 0.85 %, 4.9 %, 10.8 % in tcpsim. Paper scale (the "
        "same ratios, 100 NewReno and 10…700 Vegas each way): index 1.07, 1.10, 1.13, 1.16, 1.08 against 1.08, "
        "1.09, 1.11, 1.12, 1.03; Vegas loss 0, 0.005 %, 0.16 %, 4.1 %, 10.4 % against 0, 0.016 %, 0.20 %, "
        "4.3 %, 10.2 %.",
        "ns-2 with the same RD confirms tcpsim's miss of the loss curve's shape: at the paper's scale ns-2's "
        "Vegas loss rises close to a straight line (the experiment's test: departure from the chord 3 % of the "
        "rise, curvature 0.013 [-0.014, 0.040], so not 'non-linear'), as tcpsim's does in full mode (1 %); on "
        "the quick grid 4 %. The index stays within 1 ± 0.2 in both.",
    ],
    "podlesny.fig6": [
        "Quick scale, DropTail: ns-2's index 0.22, 0.39, 0.73 and Vegas loss 0.5 %, 0.7 %, 3.7 % at 10, 100, "
        "300 transfers/s (paper scale) against tcpsim's (6026cc4) 0.19, 0.29, 0.61 and 1.1 %, 1.5 %, 3.8 %: the "
        "same rise of the index and of Vegas's loss with the web intensity in both simulators.",
        "Quick scale, RED/ECN: ns-2 1.21, 1.19, 0.97 with Vegas loss 3.5 %, 4.7 %, 11.5 % against tcpsim's "
        "0.90, 0.94, 0.96 with 0.01 %, 0.02 %, 1.4 %: ns-2's Vegas is not ECN-capable (see fig8).",
        "RD in ns-2 (Queue/RD, tcpsim's main-reading parameters) against tcpsim (`tcpsim repro podlesny.fig6`: "
        "full 5 seeds, quick `--seeds 3`): at the paper's scale (100 Mb/s, 100 + 100 long-lived flows each way, "
        "60 s; 2 replications) ns-2's index at 1, 10, 50, 100, 200, 300 fps is 1.11, 1.07, 0.96, 0.89, 0.82, "
        "0.83; tcpsim's 1.05, 1.06, 0.97, 0.90, 0.845, 0.85; the paper's range 0.75-0.96. Vegas's loss rises "
        "with the intensity in both, as the paper says: 0.14 %, 0.20 %, 0.45 %, 0.91 %, 3.3 %, 8.7 % in ns-2, "
        "0.24 %, 0.21 %, 0.55 %, 0.88 %, 3.1 %, 8.2 % in tcpsim. The experiment's numbers: lowest index 0.82 "
        "at 200 fps in ns-2 (tcpsim 0.845, also at 200 fps; the paper 0.75: both within 15 %), highest 1.11 at "
        "1 fps (tcpsim 1.06 at 10 fps; the paper 0.96: ns-2 just outside 15 %, with [0.84, 1.38] over its two "
        "runs, tcpsim inside). The 50 fps point is the fig8 twin's Figs. 6-8 point and gives its 0.96.",
        "Quick scale (3 replications): ns-2's index 1.08, 1.08, 0.90, 0.88, 0.88, 0.87 with Vegas loss 0.9 %, "
        "1.0 %, 1.6 %, 2.7 %, 5.5 %, 10.5 %; tcpsim 0.93, 0.99, 0.89, 0.89, 0.80, 0.77 with 0.9 %, 1.0 %, "
        "1.4 %, 1.5 %, 4.5 %, 7.4 %. So ns-2 with the same RD agrees with tcpsim, within a few hundredths at the "
        "paper's scale from 10 fps up; its index counts stock Vegas's 1000-byte packets as 1040 bytes, a few "
        "per cent above a bytes reading where RD shares bytes, about ns-2's excess at 1 fps (1.11 against 1.05).",
    ],
    "podlesny.fig7": [
        "Quick scale, DropTail: ns-2's index 1.08, 0.25, 0.064 and Vegas loss 26.6 %, 0.74 %, 0.08 % at 10, 100, "
        "1000 Mb/s (paper scale) against tcpsim's (6026cc4) 1.31, 0.22, 0.022 and 27.8 %, 0.83 %, 0 %: the two "
        "agree, including a Vegas loss near the paper's 28 % at 10 Mb/s (the paper's value is under RD).",
        "Quick scale, RED/ECN: ns-2 0.95, 1.24, 0.58 with Vegas loss 27.6 %, 4.1 %, 0.009 % against tcpsim's "
        "1.48, 0.84, 0.50 with 26.3 %, 0.01 %, 0 % (ns-2's Vegas is not ECN-capable).",
        "RD in ns-2 (Queue/RD, tcpsim's main-reading parameters) against tcpsim (bb13c41, `tcpsim_side.py --rd "
        "fig7 fig7full10`, 3 seeds): at 10 Mb/s at the paper's scale (100 + 100 flows each way, 50 fps, 60 s) "
        "index 0.71 [0.66, 0.76] and Vegas loss 39.1 % in ns-2, 0.77 [0.72, 0.82] and 37.8 % in tcpsim, the "
        "paper 0.61 and 28 %; quick scale at 10, 100, 1000 Mb/s (paper scale) ns-2 0.58, 0.90, 0.97 with Vegas "
        "loss 39 %, 1.6 %, 0 %, tcpsim 0.71, 0.89, 0.71 with 36 %, 1.4 %, 0 % (the 1000 Mb/s point scatters "
        "widely in both: 20 s with 10 + 10 flows). ns-2 with the same RD confirms tcpsim's miss: the index at "
        "10 Mb/s above the paper's (ns-2 just outside 0.61 ± 15 %), Vegas's loss there far above 28 % (D's "
        "10 % of a 312-packet buffer for 100 Vegas flows and the ACKs of 100 more), and the index above 10 "
        "Mb/s at 0.9-1.0 rather than 0.72-0.88.",
    ],
    "podlesny.fig8": [
        "At the point shared by Figs. 6, 7 and 8 (100 Mb/s, 100 + 100 flows each way, 50 transfers/s, RTT "
        "20-300 ms; 30 s, 2 replications) ns-2 gives, under DropTail, a relative fairness index of 0.22 "
        "[0.11, 0.33] and a Vegas loss rate of 0.51 % (tcpsim 6026cc4, same set-up and length: 0.22 [0.16, "
        "0.28] and 0.75 %); under RED/ECN 1.07 [0.70, 1.42] and 3.5 % (tcpsim 0.93 and 0.008 %): tcpsim's "
        "NewReno/Vegas dynamics under DropTail match ns-2's at this point.",
        "RD in ns-2 (Queue/RD, tcpsim's main-reading parameters) against tcpsim (bb13c41, `tcpsim_side.py --rd "
        "fig8 fig8full60`): at the Figs. 6-8 point over 60 s (2 replications / seeds) ns-2 gives index 0.96 "
        "[0.87, 1.06] and Vegas loss 0.45 %, tcpsim 0.93 [0.67, 1.19] and 0.56 %, the paper 0.83-0.87 and "
        "0.01-0.29 %. Quick scale at max RTT 30, 200, 1000 ms (3 replications): ns-2 index 1.11, 0.96, 0.79 "
        "and Vegas loss 4.6 %, 1.8 %, 1.8 %; tcpsim 1.11, 1.01, 0.43 and 4.7 %, 1.1 %, 1.8 % (the paper 0.83-"
        "0.87 and 0.29 %, 0.01 %, 0.11 %). ns-2 with the same RD confirms tcpsim's miss: Vegas loses about a "
        "percent or more of its packets under this RD in both simulators, one to two orders of magnitude above "
        "the paper's, and the index leaves 0.83-0.87; the two simulators differ only at max RTT 1000 ms at the "
        "quick scale (0.79 [0.45, 1.14] against 0.43 [0.37, 0.49], 10 + 10 flows, 20 s). So the gap lies in "
        "the RD settings the paper does not state (the buffer split, the interval, the counting window), not "
        "in tcpsim's TCP or RD code.",
        "Quick scale, DropTail: ns-2 index 0.29, 0.27, 0.34 and Vegas loss 1.3 %, 1.0 %, 1.5 % at max RTT 30, "
        "200, 1000 ms against tcpsim's 0.28, 0.25, 0.25 and 1.5 %, 1.2 %, 1.8 %: agreement.",
        "Quick scale, RED/ECN: ns-2 index 0.53, 1.11, 1.48 with Vegas loss 10.4 %, 5.6 %, 1.6 % against "
        "tcpsim's 1.10, 1.00, 0.69 with 0.5 %, 0 %, 0.1 %. The cause is ns-2's non-ECN-capable Vegas: tcpsim "
        "(core with limited transmit, 21:32 UTC) with its Vegas flows made non-ECN-capable gives at max RTT 30 "
        "ms index 0.55 and Vegas loss 12.3 % (ns-2 0.53, 10.4 %) and at the full point 1.04 and 3.2 % (ns-2 "
        "1.07, 3.5 %); with ECN-capable Vegas 1.06 / 0.6 % and 0.92 / 0.01 %.",
    ],
    "podlesny.fig10": [
        "Quick-scale schedule (20 Mb/s, flows forward): ns-2's index averaged over the intervals with both "
        "classes is 0.11 [0.06, 0.15] under DropTail (tcpsim quick 0.095) and 1.23 [0.50, 1.97] under RED/ECN "
        "(tcpsim quick 0.73 [0.21, 1.24]). ns-2 does not show NewReno 'still ahead' under RED/ECN either: the "
        "paper's claim fails in ns-2 with ns-2.29/2.35's default RED, so that miss belongs to the paper's "
        "unstated RED parameters, not to tcpsim.",
        "The issue's 20 + 20 mix (20 NewReno + 20 Vegas forward, 20 Mb/s, RED/ECN, 60 s): ns-2's Vegas/NewReno "
        "per-flow ratio 1.20 [0.94, 1.45], Vegas loss 3.9 %, NewReno loss 0 (ECN marks); tcpsim (6026cc4) "
        "1.07 [0.51, 1.62] with Vegas loss 0.002 %; tcpsim with limited transmit and non-ECN-capable Vegas "
        "(as ns-2's) 1.23 with Vegas loss 2.9 %, NewReno/Vegas utilization 0.41/0.50 (ns-2 0.44/0.52); with "
        "ECN-capable Vegas 1.09, loss 0. DropTail: ns-2 0.12 [0.09, 0.15], tcpsim 0.10 [0.09, 0.11].",
        "RD in ns-2 (Queue/RD, tcpsim's main-reading parameters) against tcpsim (`tcpsim repro podlesny.fig10`, "
        "full: 5 seeds; quick with `--seeds 3`): at the paper's scale (3 replications) ns-2's index averaged over "
        "the intervals with both classes is 1.055 [1.04, 1.07], per interval 1.03-1.08; tcpsim 1.031 [1.00, 1.06], "
        "1.01-1.06; the paper 'approximately unity'. In the first 5 s after the changes at 20, 40, 60, 80, 120, "
        "140 and 160 s: ns-2 1.14, 1.05, 1.21, 1.00, 1.10, 1.08, 1.05; tcpsim 1.05, 1.19, 1.20, 1.00, 1.10, "
        "1.04, 1.07. Both leave ±15 % after the 60 s step (100 NewReno, Vegas 50 → 20), so ns-2 with the same "
        "RD misses 'the transient response is immediate' as tcpsim does; they differ after the 40 s step "
        "(1.05 against 1.19). Quick scale (3 replications each): ns-2 1.07 [1.01, 1.14], per interval 1.02-1.14, "
        "after the changes 0.95-1.42 (1.42 at 30 s: 20 NewReno, Vegas 10 → 4); tcpsim 1.02 [0.92, 1.12], "
        "0.98-1.07, 0.94-1.31.",
        "ns-2's indices here count data packets, and stock Vegas's are 1000 bytes on the wire (counted as 1040): "
        "by bytes they are about 4 % lower (the 20 + 20 mix under RD: 1.043 [1.03, 1.05] from packets, 1.004 "
        "from the bytes on the wire, Vegas loss 0). With RED/ECN above RD (quick scale: 1.23 against 1.07) the "
        "paper's DropTail < RED/ECN < RD fails in ns-2 as in tcpsim's full runs (RED/ECN 1.11, RD 1.03).",
    ],
    "podlesny.fig12": [
        "Parking lot at quick scale, 24 replications: under DropTail ns-2's index averaged over the links is "
        "0.060 [0.050, 0.071] (tcpsim quick: 0.10): NewReno's advantage is the same in both.",
        "Under RED/ECN ns-2 gives 0.85 [0.78, 0.91] (NewReno long / one-hop flows 0.65 / 1.63 Mb/s per flow, "
        "Vegas 0.40 / 1.45; per link 0.93, 0.89, 0.87, 0.81, 0.73). tcpsim with RFC 3168's ECN sender gave "
        "0.98 [0.92, 1.04] over 24 seeds (NewReno 0.57 / 1.43, Vegas 0.41 / 1.48): some NewReno flows, cut by "
        "an ECN-Echo and then timing out, went back N with not-ECT retransmissions and no CWR, so their "
        "receivers echoed on every ACK and their window stayed at one segment for the whole run. ns-2's "
        "TcpAgent (tcp/tcp.cc) sets ECT on every data packet and CWR on the next packet after any window cut, "
        'retransmissions included (SetCWRonRetransmit_). With that sender (tcpsim `ecn_sender = "ns2"`) '
        "tcpsim gives 0.86 [0.81, 0.91] (NewReno 0.59 / 1.57, Vegas 0.39 / 1.39; per link 0.83, 0.89, 0.96, "
        "0.92, 0.70), and with ns-2's byte-mode RED spacing too (`count_bytes`: an ACK counts 40/500 of a "
        "packet) 0.85 [0.81, 0.89] (NewReno 0.59 / 1.60, Vegas 0.38 / 1.41): the two agree at this scale.",
        "At the paper's scale (the twin with bps 100e6, POOL 20, T 60.0: 100 Mb/s, pools of 20, 60 s; 3 "
        "replications, 1.5 min of CPU each) ns-2 gives 0.834, 0.913, 0.851: 0.87 [0.76, 0.97], NewReno 0.68 / "
        "1.69, Vegas 0.46 / 1.59, per link up to 0.98 (so ns-2 misses the paper's 'below 0.85 on every link' "
        "too); tcpsim full (5 seeds) 1.00 [0.94, 1.06] with RFC 3168's sender, 0.97 [0.93, 1.01] with ns-2's "
        "(NewReno 0.59 / 1.57, Vegas 0.43 / 1.65), 0.96 [0.93, 0.99] with `count_bytes` too: a gap of about "
        "0.1 remains at that scale, NewReno about 10 % "
        "below ns-2's; ns-2's RTO sampling (one timed segment per RTT, tcpsim `rtt_sampling = "
        '"timed_segment"`) moves tcpsim only to 0.95.',
        "RD in ns-2 (Queue/RD on both directions of every bottleneck, tcpsim's main-reading parameters) against "
        "tcpsim (`tcpsim repro podlesny.fig12`: full 5 seeds, quick `--seeds 24`): at the paper's scale (3 "
        "replications) ns-2's index averaged over the links is 1.049 [1.00, 1.10], per link 1.08, 1.04, 1.03, "
        "1.06, 1.04; tcpsim 1.014 [1.00, 1.03], per link 1.00-1.03; the paper: about equal throughput on every "
        "link, which both hold (±15 %). Quick scale (24 replications): ns-2 0.90 [0.87, 0.93], per link 0.94, "
        "0.91, 0.92, 0.84, 0.88; tcpsim 0.925 [0.888, 0.962], per link 0.88, 0.93, 0.94, 0.95, 0.93. Long "
        "against one-hop flows (Mb/s per flow): paper scale NewReno 0.20 / 2.24, Vegas 0.42 / 2.14 in ns-2, "
        "0.07 / 2.39 and 0.41 / 2.08 in tcpsim; quick NewReno 0.09 / 2.55, Vegas 0.48 / 1.86 in ns-2, 0.08 / "
        "2.47 and 0.48 / 1.81 in tcpsim: RD evens the classes on each link, not the flows within a class, and "
        "the long NewReno flows (five R queues in a row) starve in both. ns-2's index counts data packets "
        "(stock Vegas's 1000 bytes counted as 1040), about 4 % above a bytes reading. At the quick scale ns-2's "
        "RD (0.90) is not significantly above its RED/ECN (0.85; Welch p = 0.13), where tcpsim's is (0.925 "
        "against 0.81).",
    ],
    "podlesny.fig9": [
        "Quick scale, DropTail: from 50 to 200 transfers/s (paper scale) ns-2's index rises, 0.41 to 0.98 (30 KB) "
        "and 0.71 to 1.41 (100 KB), with Vegas's loss rising from 0.8 % to 7.5 % and 3.2 % to 27 %; tcpsim "
        "(6026cc4): 0.30 to 0.92 and 0.64 to 1.15, loss 1.5 % to 10 % and 3.3 % to 32 %: the two agree. RED/ECN: "
        "ns-2 1.25 to 1.15 and 1.06 to 1.27 (Vegas loss 4.9 % to 15 %, 9.8 % to 33 %, Vegas not ECN-capable), "
        "tcpsim 0.95 to 1.16 and 1.20 to 1.26.",
        "The paper's declining index is an RD result; without RD neither simulator shows a decline.",
        "RD in ns-2 (Queue/RD, tcpsim's main-reading parameters; 10 replications) against tcpsim (bb13c41, "
        "`tcpsim_side.py --rd fig9x10`, 10 seeds), quick scale, 50 and 200 fps (paper scale): index 0.86 and "
        "1.01 (30 KB), 0.94 and 0.94 (100 KB) in ns-2; 0.87 and 0.93, 0.96 and 0.88 in tcpsim; the paper 0.9 "
        "and 0.69, 0.86 and 0.67. Vegas loss 2.4 % and 15 %, 8.2 % and 36 % in ns-2; 2.2 % and 14 %, 6.6 % "
        "and 34 % in tcpsim. ns-2 with the same RD confirms tcpsim's miss: the index does not fall with the "
        "intensity in either simulator (the 200 fps values stay near 0.9-1.0, not 0.67-0.69), while Vegas's "
        "loss rises steeply in both. (With 3 replications one bursty replication moved ns-2's 200 fps means "
        "by 0.1-0.2, hence 10.)",
    ],
    "macura.multihop": [
        "ns-2 agrees with tcpsim: C1's goodput NewReno 4.25 and 1.71 Mb/s over 1 and 3 hops, Vegas 0.52 and "
        "0.16 (tcpsim quick, 150 s, 2 seeds, 6026cc4: NewReno 5.05 and 2.04, Vegas 0.45 and 0.15); Vegas gets "
        "about a tenth of NewReno's goodput against NewReno cross traffic in both (the paper's 'NewReno >> "
        "Vegas'). Westwood+ is not a stock ns-2 agent, so the 'Westwood+ >= NewReno' claim has no ns-2 value.",
    ],
    "moller.fig5": [
        "ns-2.35 has no Westwood+ agent, and the paper's (its authors' modified ns-2 code) is not public. The public "
        "UCLA/Politecnico agents estimate the bandwidth on every ACK (Westwood): Agent/TCP/WestwoodNR gives shares "
        "far from the model on both sides of CT (B = 26: 0.312 / 0.688, model 0.417 / 0.583; B = CT: 0.390 / "
        "0.611; ratio at 2CT 0.960 against the model's 0.670): its Tustin filter over per-ACK samples over-rates "
        "the bursty ACK stream, exactly the bias Westwood+'s per-RTT sample removes (moller Sec. II). So the "
        "per-ACK agent cannot stand for Westwood+ here; the experiment's numbers come from "
        "Agent/TCP/WestwoodPlusNR (that agent with one sample per RTT, EWMA 0.9).",
        "With Agent/TCP/WestwoodPlusNR, NewReno / Westwood+ shares against the model (sim − model) for B = 5, 10, "
        "21, 26, 31, 42, 62, 83 packets: 0.189 / 0.753 (+0.040 / −0.099), 0.274 / 0.685 (+0.028 / −0.069), 0.398 "
        "/ 0.581 (+0.021 / −0.041), 0.448 / 0.538 (+0.031 / −0.045), 0.479 / 0.513 (+0.030 / −0.038), 0.531 / "
        "0.466 (+0.030 / −0.032), 0.583 / 0.417 (+0.022 / −0.022), 0.624 / 0.376 (+0.025 / −0.025). ns-2 too "
        "stands on NewReno's side of the model at every B ≥ 5 (as tcpsim does) and misses the project's 0.05 "
        "reading of 'match remarkably well' at B = 5 and 10 (Westwood+ 0.099 and 0.069 below the model); tcpsim "
        "(full, 10 seeds) misses it at B = 26 (+0.056 / −0.065, where ns-2 gives +0.031 / −0.045) and not at B = "
        "5 (+0.005 / −0.030). The ratio at B = 83 is 0.602 in ns-2 (−10 % from the model's 0.670), 0.568 in "
        "tcpsim; at B = CT ns-2 gives 0.531 / 0.466 (tcpsim 0.513 / 0.486). Below B = 5 (excluded by the paper) "
        "ns-2's Westwood+ collapses at B = 2 (0.109, 2293 drops against NewReno's 466).",
        "Bottleneck drops per flow are equal at every B ≥ 5 in ns-2 (e.g. 340 / 340 at B = 26, 94 / 94 at B = "
        "83): with this estimator the two flows lose together, the model's synchronization assumption, and the "
        "shares still differ from the fluid model by 0.02-0.10.",
        "tcpsim on the same set-up with the twin's Westwood+ and timers (peers/ns2/westwood/plus/"
        "moller_tcpsim_side.py, seed 1, 2042 s): with Westwood+'s estimator as the twin's (per-RTT EWMA 0.9, no 50 "
        "ms floor) and ns-2's timers (min RTO 200 ms, 10 ms RTT and RTO ticks) tcpsim gives NewReno / Westwood+ "
        "0.171 / 0.785, 0.269 / 0.687, 0.440 / 0.545, 0.565 / 0.434, 0.622 / 0.378 at B = 5, 10, 26, 42, 83 "
        "(ns-2: 0.189 / 0.753, 0.274 / 0.685, 0.448 / 0.538, 0.531 / 0.466, 0.624 / 0.376), ratio 0.608 at B = "
        "83 (ns-2 0.602), equal loss-episode counts at 4 of the 5 buffers; with the estimator alone 0.631; with "
        "tcpsim's own Westwood+ (Linux's two 7/8 EWMAs, 50 ms floor, min RTO 1 s) 0.528 for this seed (0.568 over "
        "10 seeds) and unequal episode counts (425 / 491). So tcpsim and ns-2 agree once they run the same "
        "Westwood+ estimator and timers; the gap to the model at large B and where along B the 0.05 reading "
        "fails depend on the estimator and timers the paper does not state, not on a mechanism tcpsim lacks.",
    ],
    "macura.wireless": [
        "ns-2 agrees with tcpsim, not with the paper. Gain of Westwood+ over NewReno (delayed ACKs, first run, "
        "mean of 5 paired replications) at Bad 0.1, 0.3, 1, 3, 10, 30, 100 ms: −0.6, +0.1, +1.1, +8.0, +54, +96, "
        "+72 % (tcpsim full, 10 seeds: −1, −0, +2, +10, +50, +107, +91 %); the paper: 'from 70 % to 230 %'. "
        "NewReno's goodput 1.986, 1.972, 1.952, 1.82, 1.25, 0.83, 0.46 Mb/s (tcpsim 1.98, 1.97, 1.94, 1.79, "
        "1.30, 0.80, 0.44), Westwood+'s 1.975, 1.974, 1.973, 1.965, 1.923, 1.625, 0.789 (tcpsim 1.97, 1.97, "
        "1.97, 1.96, 1.94, 1.64, 0.84).",
        "At Bad 0.1 ms ns-2's NewReno carries 1.986 of the 2 Mb/s link, so no Westwood+ can gain 70 % there; the "
        "largest gain ns-2 gives anywhere in the paper's range is +96 % (Bad 30 ms; +72 % at 100 ms, the largest "
        "over tcpsim's quick grid), far below 230 %. The paper's range cannot be reached on the set-up it "
        "describes in either simulator.",
        "Westwood+ here is Agent/TCP/WestwoodPlusNR (per-RTT EWMA 0.9, the TCPW-NR loss reaction), tcpsim's is "
        "Linux's (two 7/8 EWMAs, 50 ms floor); NewReno is ns-2's stock agent. Only the delayed-ACK pair of the "
        "first run was run.",
        "The alternative reading with ns-2.35's own ErrorModel/MultiState (sttype time; points ms-*): NewReno "
        "0.764, 0.764, 0.764, 0.765, 0.547, 0.358, 0.300 Mb/s at Bad 0.1 ... 100 ms (tcpsim's ns2_multistate "
        "reading, full: 0.79, 0.79, 0.79, 0.79, 0.54, 0.35, 0.29): the channel emulation agrees, including the "
        "identical values for every Bad ≤ 3 ms (a Bad state judges a packet or two whatever its length). "
        "Westwood+ 1.878 Mb/s at Bad ≤ 3 ms and 1.747 at 10 ms (tcpsim 1.92, 1.88), but 0.669 at 30 ms and 0.411 "
        "at 100 ms where tcpsim's Westwood+ keeps 1.57 and 0.56 (with the twin's per-RTT EWMA and 10 ms ticks "
        "too: 1.52-1.67 and 0.55-0.59, seeds 1-2), with 582 and 638 retransmitted packets and 5 and 10 timeouts "
        "per run in ns-2. Gains: +149 % (Bad ≤ 3 ms), +221 % (10 ms), +87 % (30 ms), +37 % (100 ms); tcpsim's "
        "reading +144 %, +252 %, +344 %, +91 %. The paper's '70 % to 230 %' is of this reading's order in both "
        "simulators (ns-2's upper end 221 %), and of neither in the main reading. The two Westwood+ differ at "
        "long MultiState Bad states for a reason these runs do not establish (not the estimator's filter or the "
        "RTT tick; candidates: the TCPW-NR agent's cwnd = min(cwnd, ssthresh), never raised to BWE·RTTmin as "
        "tcpsim's macura Westwood+ does, its AckedCount cap of 2 per ACK, its timeout's fr_a_ divisor).",
    ],
    "macura.bottleneck": [
        "ns-2 agrees with tcpsim: the reverse traffic costs Vegas much at M = 10 (total 4.09 Mb/s against 10.22 "
        "without it; NewReno 9.11; tcpsim quick 2.46 against 9.95, NewReno 8.97) and nothing at M = 50 (Vegas "
        "10.07 against NewReno 9.68; tcpsim 9.79 against 9.73). The paper's claims that Vegas is below NewReno "
        "'at every M' and hurt more than the others at every M fail in ns-2 as in tcpsim at M = 50: with many "
        "flows the Vegas flows together keep enough packets queued to fill the link despite the reverse "
        "traffic's queueing delay. These misses belong to the paper (or to a set-up it does not state), not to "
        "tcpsim.",
        "Vegas's totals above 10 Mb/s: stock ns-2 Vegas's packets are 1460 bytes on the wire (no header) and "
        "goodput counts each as 1500 bytes (tcpsim's measure); Westwood+ is not a stock ns-2 agent and was not "
        "run, so the claim about its Jain index has no ns-2 value here.",
    ],
}


# --- running ----------------------------------------------------------------------------------------


def run_sh() -> Path:
    return HERE / "run.sh"


BUILDS = {
    "": ("NS2_ROOT", "/tmp/ns2", NS2),
    "rd": ("NS2RD_ROOT", "/tmp/ns2rd", "ns-2.35 + Queue/RD (peers/ns2/rd: the project's port of tcpsim's RD)"),
    "westwood_plus": (
        "NS2WP_ROOT",
        "/tmp/ns2wp",
        "ns-2.35 + UCLA TCP Westwood agents + Agent/TCP/WestwoodPlusNR (peers/ns2/westwood/plus)",
    ),
}


def ns2(script: Path, *args: str, build: str = "") -> str:
    variable, default, _ = BUILDS[build]
    env = dict(os.environ, NS2_ROOT=os.environ.get(variable, default))
    done = subprocess.run(
        ["nice", "-n", "10", str(run_sh()), str(script), *args], capture_output=True, text=True, check=False, env=env
    )
    if done.returncode != 0:
        raise RuntimeError(f"{script.name} {' '.join(args)} failed ({done.returncode}):\n{done.stderr[-2000:]}")
    return done.stdout


def one_run(exp: str, point: str, rep: int, reuse: bool) -> tuple[str, int, dict[str, float]]:
    cached = CACHE / exp / f"{point.replace(':', '_')}.{rep}.out"
    if reuse and cached.exists():
        text = cached.read_text()
    else:
        text = ns2(HERE / f"{exp}.tcl", point, str(rep), build=TWINS[exp].build)
        cached.parent.mkdir(parents=True, exist_ok=True)
        cached.write_text(text)
    metrics = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[0] == "RESULT" and parts[1] == point:
            metrics[parts[2]] = float(parts[3])
    if not metrics:
        raise RuntimeError(f"{exp} {point} {rep}: no RESULT line")
    return point, rep, metrics


def run_experiment(exp: str, jobs: int, reuse: bool) -> dict:
    twin = TWINS[exp]
    points = ns2(HERE / f"{exp}.tcl", "list", build=twin.build).split()
    data: Data = {}
    tasks = [(p, k) for p in points for k in range(1, twin.point_replications.get(p, twin.replications) + 1)]
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        for point, _rep, metrics in pool.map(lambda t: one_run(exp, t[0], t[1], reuse), tasks):
            for name, value in metrics.items():
                data.setdefault(point, {}).setdefault(name, []).append(value)
    numbers = []
    for name, values in twin.numbers(data):
        if not values:
            continue
        m, ci = mean_ci(values)
        numbers.append({"name": name, "value": round(m, 6), "ci": None if ci is None else [round(c, 6) for c in ci]})
    return {
        "experiment": exp,
        "script": f"peers/ns2/{exp}.tcl",
        "command": f"peers/ns2/run.py {exp}",
        "ns2": BUILDS[twin.build][2],
        "setup": twin.setup,
        "replications": twin.replications,
        "numbers": numbers,
        "observations": OBSERVATIONS.get(exp, twin.observations),
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("ids", nargs="+", help="experiment ids or 'all'")
    parser.add_argument("--jobs", type=int, default=1, help="ns-2 runs at once (default 1)")
    parser.add_argument("--reuse", action="store_true", help="re-aggregate cached runs where present")
    args = parser.parse_args(argv)
    ids = list(TWINS) if args.ids == ["all"] else args.ids
    unknown = [i for i in ids if i not in TWINS]
    if unknown:
        parser.error(f"no ns-2 twin for {', '.join(unknown)}; known: {', '.join(TWINS)}")
    OUT.mkdir(parents=True, exist_ok=True)
    for exp in ids:
        result = run_experiment(exp, args.jobs, args.reuse)
        path = OUT / f"{exp}.json"
        path.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n")
        print(f"{exp}: {len(result['numbers'])} numbers -> {path.relative_to(PROJECT)}")
        for n in result["numbers"]:
            ci = "" if n["ci"] is None else f" [{n['ci'][0]:.4g}, {n['ci'][1]:.4g}]"
            print(f"  {n['name']}: {n['value']:.4g}{ci}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
