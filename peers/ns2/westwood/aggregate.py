#!/usr/bin/env python3
"""Run the casetti ns-2 twins (peers/ns2/casetti.<exp>.tcl) in ns-2.35 + the TCP Westwood
agents and write python/tcpsim/repro/ns2_reference/casetti.<exp>.json in the format of the
ns-2 reference results (one JSON per experiment, Number names as the experiment's).

    peers/ns2/westwood/aggregate.py EXP [EXP ...] [--ns /tmp/ns2w/src/ns-2.35/ns] [--jobs 2]

Every run's output is kept in --cache (default /tmp/ns2w-runs) and reused. Gains are TCPW /
other - 1 per seed (runs paired by seed), then mean and 95 % t interval over seeds, as the
experiments compute them. Standard library only.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
PEER = HERE.parent
ROOT = PEER.parent.parent
OUT = ROOT / "python" / "tcpsim" / "repro" / "ns2_reference"
NS2 = "ns-2.35 + UCLA TCP Westwood agents (tomky/ns2-11n e83ac36, see peers/ns2/westwood/README.md)"
T975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262, 10: 2.228}


def stats(values: list[float]) -> tuple[float, list[float] | None]:
    n = len(values)
    m = sum(values) / n
    if n < 2:
        return m, None
    sd = math.sqrt(sum((v - m) ** 2 for v in values) / (n - 1))
    h = T975.get(n - 1, 1.96) * sd / math.sqrt(n)
    return m, [m - h, m + h]


class Runner:
    def __init__(self, ns: str, cache: Path, jobs: int) -> None:
        self.ns, self.cache, self.jobs = ns, cache, jobs
        cache.mkdir(parents=True, exist_ok=True)

    def run_one(self, script: str, args: list[str]) -> dict[str, float]:
        key = self.cache / (script + "__" + "_".join(args) + ".out")
        if not key.exists():
            proc = subprocess.run(
                ["nice", "-n", "10", self.ns, str(PEER / script), *args],
                capture_output=True,
                text=True,
                cwd="/tmp",
                check=False,
            )
            if proc.returncode != 0 or not proc.stdout.strip():
                raise RuntimeError(
                    f"{script} {args}: rc {proc.returncode}\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}"
                )
            key.write_text(proc.stdout)
        out = {}
        for line in key.read_text().splitlines():
            parts = line.split()
            if len(parts) == 2:
                try:
                    out[parts[0]] = float(parts[1])
                except ValueError:
                    pass
        return out

    def run_all(self, jobs: list[tuple[str, list[str]]]) -> list[dict[str, float]]:
        with ThreadPoolExecutor(self.jobs) as pool:
            return list(pool.map(lambda j: self.run_one(*j), jobs))


def gains(w: list[float], o: list[float]) -> list[float]:
    return [(a / b - 1.0) * 100.0 if b > 0 else math.nan for a, b in zip(w, o)]


def sweep(r: Runner, script: str, xs, variants, seeds, dur, warm, mode="main") -> dict:
    """(x, variant) -> per-seed throughput (Mb/s)."""
    jobs, keys = [], []
    for x in xs:
        for v in variants:
            for s in range(1, seeds + 1):
                jobs.append((script, [v, str(s), repr(x), str(dur), str(warm), mode]))
                keys.append((x, v))
    table: dict = {}
    for k, out in zip(keys, r.run_all(jobs)):
        table.setdefault(k, []).append(out["throughput_mbps"])
    return table


def num(name: str, values: list[float]) -> dict:
    m, ci = stats(values)
    return {"name": name, "value": round(m, 4), "ci": [round(c, 4) for c in ci] if ci else None}


def fmt(table: dict, x, v) -> str:
    m, ci = stats(table[(x, v)])
    return f"{m:.3f}" + (f" [{ci[0]:.3f}, {ci[1]:.3f}]" if ci else "")


# --- experiments -------------------------------------------------------------------------------

SWEEPS = {
    # exp: (x values, headline x, x as the Number names print it, duration s, warm-up s, seeds)
    "fig9": ((0.001, 0.005, 0.01, 0.02, 0.05), 0.01, "1%", 600, 20, 6),
    "fig10": ((0.002, 0.02, 0.05, 0.1, 0.2), 0.1, "100 ms", 600, 20, 6),
    "fig15": ((0.02, 0.05, 0.1, 0.3), 0.05, "5%", 1000, 20, 6),
    "fig16": ((2e6, 10e6), 10e6, "10 Mb/s", 1000, 20, 6),
    "fig17": ((0.05, 0.1, 0.5), 0.1, "0.1", 1000, 20, 6),
    "snoop": ((0,), 0, None, 600, 20, 6),
    "batcp": ((0,), 0, None, 600, 20, 6),
}
BITS = {"snoop": ("64", 135), "batcp": ("100", 40)}


def run_sweep(r: Runner, exp: str, seeds: int | None, extra_modes: list[str]) -> dict:
    xs, hx, label, dur, warm, nseeds = SWEEPS[exp]
    nseeds = seeds or nseeds
    script = f"casetti.{exp}.tcl"
    t = sweep(r, script, xs, ("westwood", "reno", "sack"), nseeds, dur, warm)
    tnr = sweep(r, script, (hx,), ("westwoodnr", "newreno"), nseeds, dur, warm)
    numbers, obs = [], []
    for other, lab in (("reno", "Reno"), ("sack", "SACK")):
        g = gains(t[(hx, "westwood")], t[(hx, other)])
        if exp in BITS:
            kb, rtt = BITS[exp]
            name = f"TCPW gain over {lab}, 1 bit error per {kb} KB, RTT {rtt} ms (%)"
            if other == "sack":
                name = f"other: {name}"
        else:
            name = f"TCPW gain over {lab} at {label} (%)"
        numbers.append(num(name, g))
    if exp == "fig15":
        g = gains(t[(0.02, "westwood")], t[(0.02, "reno")])
        numbers.append(num("TCPW gain over Reno below 5 % (at 2%) (%)", g))
    g_nr = gains(tnr[(hx, "westwoodnr")], t[(hx, "reno")])
    numbers.append(num("other: Agent/TCP/WestwoodNR gain over Reno at the headline point (%)", g_nr))
    g_nrnr = gains(tnr[(hx, "westwoodnr")], tnr[(hx, "newreno")])
    numbers.append(num("other: Agent/TCP/WestwoodNR gain over NewReno at the headline point (%)", g_nrnr))
    for x in xs:
        obs.append(
            f"x = {x:g}: throughput Mb/s mean [95 % CI] over {nseeds} seeds: "
            + ", ".join(f"{v} {fmt(t, x, v)}" for v in ("westwood", "reno", "sack"))
            + f"; TCPW gain over Reno {stats(gains(t[(x, 'westwood')], t[(x, 'reno')]))[0]:+.0f} %"
            + f", over SACK {stats(gains(t[(x, 'westwood')], t[(x, 'sack')]))[0]:+.0f} %"
        )
    obs.append(
        f"headline x = {hx:g}: Agent/TCP/WestwoodNR {fmt(tnr, hx, 'westwoodnr')}, "
        f"Agent/TCP/Newreno {fmt(tnr, hx, 'newreno')} Mb/s"
    )
    for mode in extra_modes:
        tm = sweep(r, script, (hx,), ("westwood", "reno", "sack"), nseeds, dur, warm, mode)
        gr = stats(gains(tm[(hx, "westwood")], tm[(hx, "reno")]))[0]
        gs = stats(gains(tm[(hx, "westwood")], tm[(hx, "sack")]))[0]
        numbers.append(
            num(
                f"other: set-up '{mode}': TCPW gain over Reno at {label} (%)",
                gains(tm[(hx, "westwood")], tm[(hx, "reno")]),
            )
        )
        obs.append(
            f"set-up '{mode}' at x = {hx:g}: "
            + ", ".join(f"{v} {fmt(tm, hx, v)}" for v in ("westwood", "reno", "sack"))
            + f" Mb/s; TCPW gain over Reno {gr:+.0f} %, over SACK {gs:+.0f} %"
        )
    return {
        "replications": nseeds,
        "numbers": numbers,
        "observations": obs,
        "setup": f"grid {list(xs)} (a subset of the experiment's), {dur} s with the first {warm} s excluded, "
        f"{nseeds} seeds per point; TCPW = Agent/TCP/Westwood (Reno-based), Reno = Agent/TCP/Reno, "
        f"SACK = Agent/TCP/Sack1 with Agent/TCPSink/Sack1/DelAck; WestwoodNR and Newreno at the headline point",
    }


def run_friendliness(r: Runner, seeds: int | None) -> dict:
    n = seeds or 3
    dur, warm = 1000, 100
    jobs = [
        ("casetti.friendliness.tcl", [mix, str(s), str(dur), str(warm)])
        for mix in ("tcpw", "reno", "mix")
        for s in range(1, n + 1)
    ]
    jobs += [("casetti.friendliness.tcl", ["mix", str(s), str(dur), str(warm), "westwoodnr"]) for s in range(1, n + 1)]
    outs = r.run_all(jobs)
    res: dict = {}
    for (_script, args), out in zip(jobs, outs):
        tag = args[0] + ("/nr" if len(args) > 4 else "")
        for k, v in out.items():
            res.setdefault((tag, k), []).append(v)
    numbers = [
        num("all TCPW per-flow throughput (Mb/s)", res[("tcpw", "westwood_mbps")]),
        num("all Reno per-flow throughput (Mb/s)", res[("reno", "reno_mbps")]),
        num("mix: TCPW per-flow throughput (Mb/s)", res[("mix", "westwood_mbps")]),
        num("mix: Reno per-flow throughput (Mb/s)", res[("mix", "reno_mbps")]),
        num(
            "other: mix with Agent/TCP/WestwoodNR: TCPW-NR per-flow throughput (Mb/s)",
            res[("mix/nr", "westwoodnr_mbps")],
        ),
        num("other: mix with Agent/TCP/WestwoodNR: Reno per-flow throughput (Mb/s)", res[("mix/nr", "reno_mbps")]),
    ]
    return {
        "replications": n,
        "numbers": numbers,
        "observations": [],
        "setup": f"20 flows, 2 Mb/s 10 ms bottleneck, RTT 100 ms, BDP buffer 62 packets, {dur} s with the first "
        f"{warm} s excluded, {n} seeds; TCPW = Agent/TCP/Westwood, Reno = Agent/TCP/Reno",
    }


def run_fig7(r: Runner, seeds: int | None) -> dict:
    n = seeds or 4
    dur, warm = 600, 50
    jobs = [
        ("casetti.fig7.tcl", [str(k), "0.01", str(s), str(dur), str(warm)]) for k in (0, 5) for s in range(1, n + 1)
    ]
    jobs += [("casetti.fig7.tcl", ["0", "0.01", str(s), str(dur), str(warm), "westwoodnr"]) for s in range(1, n + 1)]
    outs = r.run_all(jobs)
    w = [o["westwood_mbps"] for (_, a), o in zip(jobs, outs) if a[0] == "0" and len(a) == 5]
    rr = [o["reno_mbps"] for (_, a), o in zip(jobs, outs) if a[0] == "5"]
    nr = [o["westwoodnr_mbps"] for (_, a), o in zip(jobs, outs) if len(a) == 6]
    return {
        "replications": n,
        "numbers": [
            num("at 1 % loss, 5 TCPW vs 5 Reno throughput gain (%)", gains(w, rr)),
            num("other: at 1 % loss, 5 Agent/TCP/WestwoodNR vs 5 Reno throughput gain (%)", gains(nr, rr)),
        ],
        "observations": [
            f"per-flow Mb/s at 1 % loss: 5 TCPW {stats(w)[0]:.4f}, 5 Reno {stats(rr)[0]:.4f}, 5 TCPW-NR {stats(nr)[0]:.4f}"
        ],
        "setup": f"the experiment's alternative reading 'ns-2 simulation set-up' (not its main reading, the Linux "
        f"testbed): 5 flows on 2 Mb/s, RTT 100 ms, BDP buffer, 1 % Bernoulli loss both ways on the bottleneck, "
        f"k = 0 and k = 5 only, {dur} s with the first {warm} s excluded, {n} seeds",
    }


def run_fig5(r: Runner, seeds: int | None) -> dict:
    n = seeds or 4
    dur = 300
    combos = [(v, q) for v in ("westwood", "westwoodnr", "reno") for q in ("droptail", "red")]
    jobs = [("casetti.fig5.tcl", [v, q, str(s), str(dur)]) for v, q in combos for s in range(1, n + 1)]
    outs = r.run_all(jobs)
    share: dict = {}
    total: dict = {}
    for (_script, args), out in zip(jobs, outs):
        share.setdefault((args[0], args[1]), []).append(out["long_share"])
        total.setdefault((args[0], args[1]), []).append((out["short_pkts"] + out["long_pkts"]) * 3200 / dur / 1e6)
    label = {"westwood": "TCPW", "westwoodnr": "Agent/TCP/WestwoodNR", "reno": "Reno"}
    numbers = [
        num(f"other: long-RTT flow's share, {label[v]}, {'RED' if q == 'red' else 'drop-tail'}", share[(v, q)])
        for v, q in combos
    ]
    obs = [
        f"{label[v]}, {q}: long-RTT share {stats(share[(v, q)])[0]:.3f}, both flows {stats(total[(v, q)])[0]:.2f} Mb/s"
        for v, q in combos
    ]
    return {
        "replications": n,
        "numbers": numbers,
        "observations": obs,
        "setup": f"fig4/fig5: two flows of one variant, RTT 50 and 200 ms, 5 Mb/s 10 ms bottleneck, buffer 195 "
        f"packets, drop-tail (fig4) or RED with ns-2's defaults of 2001 (fig5's main reading); {dur} s (the "
        f"experiment: 300 s), {n} seeds; the share counts each flow's cumulatively ACKed packets",
    }


NOTES = {
    "fig9": "Agent/TCP/Reno and Agent/TCP/Sack1 agree with tcpsim's Reno and SACK (quick: 0.233 and 0.246 Mb/s "
    "at 1 %); the two TCPW agents do not agree with each other: the Reno-based Agent/TCP/Westwood (fast "
    "retransmit without window inflation) gets about 0.78 Mb/s, like tcpsim's emulation of it "
    "(westwood[ns2_agent], 0.79 over seeds 1-3 of 300 s against ns-2's 0.77, README.md 'Against the agent') "
    "and its preset with the recover guard on, and Agent/TCP/WestwoodNR about 1.32 Mb/s, like tcpsim's "
    "casetti TCPW (1.19) and its NewReno sensitivity (1.37).",
    "fig10": "No peak at 100 ms in ns-2 either: the Reno-based agent's gain keeps rising to 200 ms; ns-2's "
    "default window_ 20 caps every variant.",
    "fig15": "The 'pkt' set-up is tcpsim's alternative reading 'sojourns in packets' as ns-2 runs it "
    "(ErrorModel/MultiState, sttype pkt); there Agent/TCP/Reno 0.170 and Agent/TCP/Sack1 0.186 Mb/s against "
    "tcpsim's packet_markov 0.168 and 0.183 (4 seeds, 1000 s), and Agent/TCP/WestwoodNR 0.899 Mb/s, +430 % "
    "over Reno (4 seeds, run by hand: ns casetti.fig15.tcl westwoodnr SEED 0.05 1000 20 pkt) against "
    "tcpsim's TCPW 0.798, +376 %. 'multistate' is ns-2's MultiState with sttype time (fixed 8 s / 4 s "
    "periods, alternating).",
    "fig17": "'expo' is ns-2.35's own ErrorModel/TwoState with exponential sojourns and unit time "
    "(timer-driven, starts Good, Good error-free): the same gains as the `$ns at`-driven main channel.",
}


SETUP = {
    "fig9": "The experiment: 9 error rates, 600 s, 10 seeds.",
    "fig10": "Base-station buffer BDP but at least 50 packets, no receiver window (the main reading). "
    "The experiment: 12 delays, 600 s, 10 seeds.",
    "fig15": "Main channel: exponential sojourns in seconds (means 8 s, 4 s), per-state Bernoulli errors, "
    "stationary start, one process per direction, driven by `$ns at` events. The experiment: 10 error "
    "rates, 2000 s, 10 seeds.",
    "fig16": "fig15's channel at 5 % Bad-state errors. The experiment: 6 capacities, 2000 s, 10 seeds.",
    "fig17": "Blackouts: Good mean 4 s (0.001 % errors), Bad every packet lost, exponential in seconds, "
    "stationary start. The experiment: 9 means, 2000 s, 10 seeds.",
    "snoop": "Wired one-way delay 67.49 ms (RTT 135 ms), ns-2 ErrorModel unit byte. The experiment: 600 s, 10 seeds.",
    "batcp": "Wired one-way delay 19.99 ms (RTT 40 ms), ns-2 ErrorModel unit byte. The experiment: 600 s, 10 seeds.",
}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("experiments", nargs="+")
    ap.add_argument("--ns", default="/tmp/ns2w/src/ns-2.35/ns")
    ap.add_argument("--cache", default="/tmp/ns2w-runs")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seeds", type=int, default=None)
    ap.add_argument("--modes", default="", help="extra channel modes at the headline point, comma-separated")
    a = ap.parse_args()
    r = Runner(a.ns, Path(a.cache), a.jobs)
    for exp in a.experiments:
        if exp in SWEEPS:
            modes = [m for m in a.modes.split(",") if m]
            body = run_sweep(r, exp, a.seeds, modes)
        elif exp == "friendliness":
            body = run_friendliness(r, a.seeds)
        elif exp == "fig7":
            body = run_fig7(r, a.seeds)
        elif exp == "fig5":
            body = run_fig5(r, a.seeds)
        else:
            sys.exit(f"unknown experiment {exp}")
        if exp in SETUP:
            body["setup"] = body["setup"] + ". " + SETUP[exp]
        if exp in NOTES:
            body["observations"] = [*body["observations"], NOTES[exp]]
        doc = {
            "experiment": f"casetti.{exp}",
            "script": f"peers/ns2/casetti.{exp}.tcl",
            "command": "peers/ns2/westwood/aggregate.py "
            + exp
            + (f" --seeds {a.seeds}" if a.seeds else "")
            + (f" --modes {a.modes}" if a.modes else ""),
            "ns2": NS2,
            **body,
        }
        OUT.mkdir(parents=True, exist_ok=True)
        (OUT / f"casetti.{exp}.json").write_text(json.dumps(doc, indent=2) + "\n")
        print(json.dumps(doc, indent=2))


if __name__ == "__main__":
    os.nice(5)
    main()
