"""tcpsim's incast (docs/datacenter.md's set-up) beside its ns-3.44 twin (peers/ns3/incast.cc).

    NS3_TWIN_BIN=/tmp/ns3-twins/bin peers/ns3/build.sh incast
    nice -n 10 .venv/bin/python peers/ns3/incast_compare.py [--senders 1 2 3 ...] [--rounds 10]
    nice -n 10 .venv/bin/python peers/ns3/incast_compare.py --speed 5 --variants dctcp --senders 32

Set-up (docs/datacenter.md's incast, chosen before either side was run for this page): N workers
send 1 MB / N each to one aggregator per query, the next query when the last response is in;
every link 1 Gb/s, 25 us; the ToR port to the aggregator holds 100 packets waiting, every other
queue 1000; MSS 1460 B, 40-byte headers, initial window 3, min RTO 300 ms, delayed ACKs of 2
segments or 40 ms; NewReno with drop-tail, or DCTCP with step marking at K = 20 packets and
every packet ECN-capable (tcpsim `ecn_sender = "linux_dctcp"`, as ns-3's `DctcpEcn` mode).
Prints per variant and N: the mean, min and max query completion time (ns-3's counted from the
first data segment, and from the query), goodput (1 MB over the mean QCT), port drops per round,
marks, and the data segments each side sent again.
See docs/ns3-comparison/incast.md.
"""

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

import tcpsim
from tcpsim import topologies

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from compare_args import incast_arguments, speed_argument  # noqa: E402 - peers/compare_args.py, beside this folder
from interleaved import time_pairs  # noqa: E402 - peers/interleaved.py, beside this folder
from twin_rounds import resent_cell, round_summary, tcpsim_round_summary  # noqa: E402 - peers/twin_rounds.py, beside this folder

TWIN = Path(os.environ.get("NS3_TWIN_BIN", "/tmp/ns3-twins/bin")) / "incast"
TCP = {"mss": 1460, "header": 40, "init_cwnd": 3, "min_rto": "300ms", "delack_timeout": "40ms"}


def scenario(senders: int, variant: str, rounds: int) -> dict:
    """The tcpsim side: `topologies.incast` with the set-up above (ns-3's sensitivity variant
    `dctcp_floor` is tcpsim's `dctcp`, whose cut already keeps two segments)."""
    if variant == "dctcp_floor":
        variant = "dctcp"
    if variant == "dctcp":
        port = {"kind": "step", "limit": "100pkt", "threshold": "20pkt"}
        tcp = {**TCP, "ecn_sender": "linux_dctcp"}
    else:
        port, tcp = "100pkt", TCP
    duration = f"{max(5, rounds)}s"
    return topologies.incast(
        senders=senders, port_queue=port, variant=variant, rounds=rounds, tcp=tcp, duration=duration
    )


def tcpsim_side(senders: int, variant: str, rounds: int) -> dict[str, float | None]:
    return tcpsim_round_summary(tcpsim.run(scenario(senders, variant, rounds), seed=1))


def ns3_side(senders: int, variant: str, rounds: int) -> dict[str, float]:
    out = subprocess.run(
        [str(TWIN), variant, f"--senders={senders}", f"--rounds={rounds}", f"--limit={max(10, 2 * rounds)}"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    qct, from_query, drops = [], [], []
    result = {}
    for line in out.splitlines():
        f = line.split()
        if f[0] == "ROUND":
            start, first, end = float(f[4]), float(f[5]), float(f[6])
            qct.append(end - first)
            from_query.append(end - start)
            drops.append(int(f[8]))
        elif f[0] == "RESULT":
            result[f[2]] = float(f[3])
    return round_summary(qct, drops, result) | {"qct_from_query_ms": 1e3 * statistics.fmean(from_query)}


def speed(args: argparse.Namespace) -> None:
    """Whole-process wall and user CPU of `tcpsim run` and the twin on one scenario (the first
    variant and sender count), interleaved A B A B …; medians and ratios."""
    variant, n = args.variants[0], args.senders[0]
    toml = Path(args.raw) / f"incast_{variant}_{n}.toml"
    toml.parent.mkdir(parents=True, exist_ok=True)
    scenario(n, variant, args.rounds).save(toml)
    root = Path(__file__).resolve().parent.parent.parent
    sides = {
        "tcpsim": [str(root / ".venv" / "bin" / "tcpsim"), "run", str(toml), "--seed", "1"],
        "ns-3": [
            str(TWIN),
            variant,
            f"--senders={n}",
            f"--rounds={args.rounds}",
            f"--limit={max(10, 2 * args.rounds)}",
        ],
    }
    time_pairs(sides, args.speed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    incast_arguments(parser, "/tmp/ns3-incast")
    speed_argument(parser)
    args = parser.parse_args()
    if not TWIN.exists():
        sys.exit(f"{TWIN} missing: run peers/ns3/build.sh incast")
    if args.speed:
        speed(args)
        return
    print(
        "| variant | N | tcpsim QCT mean (min–max) ms | ns-3 QCT mean (min–max) ms | ns-3 from query ms "
        "| tcpsim goodput Mb/s | ns-3 goodput Mb/s | drops/round tcpsim | ns-3 | marks tcpsim | ns-3 "
        "| resent tcpsim | ns-3 |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for variant in args.variants:
        for n in args.senders:
            a = tcpsim_side(n, variant, args.rounds)
            b = ns3_side(n, variant, args.rounds)
            size = (1_000_000 // n) * n
            print(
                f"| {variant} | {n} | {a['qct_mean_ms']:.2f} ({a['qct_min_ms']:.2f}–{a['qct_max_ms']:.2f}) "
                f"| {b['qct_mean_ms']:.2f} ({b['qct_min_ms']:.2f}–{b['qct_max_ms']:.2f}) "
                f"| {b['qct_from_query_ms']:.2f} | {size * 8 / a['qct_mean_ms'] / 1e3:.0f} "
                f"| {size * 8 / b['qct_mean_ms'] / 1e3:.0f} | {a['drops_per_round']:.1f} | {b['drops_per_round']:.1f} "
                f"| {a['marks']} | {b['marks']} | {resent_cell(a['resent'])} | {b['resent']} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
