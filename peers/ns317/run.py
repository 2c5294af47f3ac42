#!/usr/bin/env python3
"""Run the gangadhar lossy-link points in the real ns-3.17 and print their throughput.

    python3 peers/ns317/run.py [POINT ...] [--runs 1 2] [--duration 600] [--jobs 1] [--probe]
                               [--other-queues N]

POINTs default to the ones `gangadhar list` prints (fig9's Reno at PER 0.001 and Westwood and
Westwood+ at PER 0.01 with payloads 41...1460 B; fig5's five variants at five PERs, 400 B).
The binary is `setup.sh`'s, $NS317_BIN (default /tmp/ns317/build/bin/gangadhar); each run's raw
output is cached in $NS317_CACHE (default /tmp/ns317/raw) and reused. Prints one row per point
(each run's throughput and their mean, Mb/s), then fig9's 1460 B - 41 B spreads and fig5's
curves; with --probe also the sender's mean timeouts and fast retransmits and their spurious
ones per point. Standard library only.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

BIN = Path(os.environ.get("NS317_BIN", "/tmp/ns317/build/bin/gangadhar"))
CACHE = Path(os.environ.get("NS317_CACHE", "/tmp/ns317/raw"))
VARIANTS = ("reno", "newreno", "tahoe", "westwood", "westwood_plus")
FIG5_PERS = ("0.0001", "0.001", "0.005", "0.01", "0.05")
FIG9_SPREADS = (("reno", "0.001"), ("westwood", "0.01"), ("westwood_plus", "0.01"))
FIG9_PAYLOADS = (41, 100, 200, 400, 536, 1000, 1460)


def run_one(point: str, run: int, duration: float, probe: bool, queues: int) -> dict[str, float]:
    """The RESULT metrics of one run, from the cache or by running the binary."""
    tag = f"{point}_r{run}_t{duration:g}" + ("_probe" if probe else "") + (f"_q{queues}" if queues != 100 else "")
    cached = CACHE / f"{tag}.txt"
    if not cached.exists():
        cmd = [str(BIN), point, str(run), f"--duration={duration:g}", f"--other-queues={queues}"]
        cmd += ["--probe"] if probe else []
        out = subprocess.run(["nice", "-n", "10", *cmd], capture_output=True, text=True, check=True)
        cached.parent.mkdir(parents=True, exist_ok=True)
        cached.write_text(out.stdout)
    metrics = {}
    for line in cached.read_text().splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[0] == "RESULT" and parts[1] == point:
            metrics[parts[2]] = float(parts[3])
    return metrics


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("points", nargs="*")
    parser.add_argument("--runs", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--duration", type=float, default=600)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--probe", action="store_true", help="also count timeouts and fast retransmits")
    parser.add_argument(
        "--other-queues", type=int, default=100, help="device queues but the router's, packets (ns-3.17: 100)"
    )
    args = parser.parse_args()
    points = (
        args.points or subprocess.run([str(BIN), "list"], capture_output=True, text=True, check=True).stdout.split()
    )

    jobs = [(p, k) for p in points for k in args.runs]
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        results = list(pool.map(lambda j: run_one(j[0], j[1], args.duration, args.probe, args.other_queues), jobs))
    by_point: dict[str, list[dict[str, float]]] = defaultdict(list)
    for (point, _), metrics in zip(jobs, results):
        by_point[point].append(metrics)

    mean = {p: statistics.mean(m["throughput_mbps"] for m in runs) for p, runs in by_point.items()}
    extra = ("timeouts", "timeouts_spurious", "fast_retransmits", "fast_retransmits_spurious") if args.probe else ()
    header = f"{'point':28}" + "".join(f"{'run ' + str(k):>9}" for k in args.runs) + f"{'mean':>9}"
    print(header + "".join(f"{name:>26}" for name in extra))
    for point, runs in by_point.items():
        row = f"{point:28}" + "".join(f"{m['throughput_mbps']:9.3f}" for m in runs) + f"{mean[point]:9.3f}"
        print(row + "".join(f"{statistics.mean(m[name] for m in runs):26.1f}" for name in extra))

    spreads = [(v, per) for v, per in FIG9_SPREADS if {f"{v}_m1460_p{per}", f"{v}_m41_p{per}"} <= mean.keys()]
    if spreads:
        print("\nfig9: throughput at 1460 B - at 41 B; max - min over the payloads run (Mb/s)")
        for v, per in spreads:
            big, small = mean[f"{v}_m1460_p{per}"], mean[f"{v}_m41_p{per}"]
            sizes = [mean[f"{v}_m{m}_p{per}"] for m in FIG9_PAYLOADS if f"{v}_m{m}_p{per}" in mean]
            print(
                f"  {v:14} PER {per:6}  {big:.3f} - {small:.3f} = {big - small:.3f};"
                f" over {len(sizes)} payloads {max(sizes) - min(sizes):.3f}"
            )
    curves = [v for v in VARIANTS if all(f"{v}_p{per}" in mean for per in FIG5_PERS)]
    if curves:
        print("\nfig5: mean throughput (Mb/s) vs PER, 400 B")
        print(f"  {'PER':14}" + "".join(f"{per:>9}" for per in FIG5_PERS))
        for v in curves:
            print(f"  {v:14}" + "".join(f"{mean[f'{v}_p{per}']:9.3f}" for per in FIG5_PERS))


if __name__ == "__main__":
    main()
