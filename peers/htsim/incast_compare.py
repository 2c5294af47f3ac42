"""tcpsim's incast (docs/datacenter.md's set-up) beside its htsim twin (peers/htsim/incast.cpp).

    peers/htsim/build.sh incast
    nice -n 10 .venv/bin/python peers/htsim/incast_compare.py [--senders 1 2 3 ...] [--rounds 10]
    nice -n 10 .venv/bin/python peers/htsim/incast_compare.py --speed 5 --variants dctcp --senders 32 --rounds 100

Set-up (peers/ns3/incast_compare.py's, with the TCP details htsim fixes matched on tcpsim's side;
all chosen before either side was run for this page): N workers send 1 MB / N each to one
aggregator per query over a new connection each, the next query when the last response is in;
every link 1 Gb/s, 25 us; the switch port to the aggregator holds 100 packets waiting, every
other queue 1000; 1500-byte data packets (tcpsim MSS 1460 + 40-byte headers; htsim packets of
1500 B, a response of B bytes being ceil(B / 1460) of them), 40-byte ACKs; initial window 3,
initial ssthresh unlimited, min RTO 300 ms, initial RTO 1 s; one ACK per segment (htsim's sink
has no delayed ACKs: tcpsim `delack_count = 1`); a handshake before the data (htsim always
sends a SYN: tcpsim `handshake = true`); no limited transmit, every timeout halving ssthresh, the
timer re-armed on every partial ACK (htsim's TcpSrc: tcpsim `limited_transmit = false`,
`timeout_ssthresh = "every"`, `partial_ack_timer = "slow_but_steady"`). NewReno with drop-tail,
or DCTCP marking above K = 20 packets (tcpsim step queue, `ecn_sender = "linux_dctcp"`; htsim
ECNQueue and DCTCPSrc). QCT: from the query (the SYNs) to the aggregator holding every byte.
See docs/htsim-comparison/incast.md.
"""

import argparse
import os
import subprocess
import sys
from pathlib import Path

import tcpsim
from tcpsim import topologies

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from compare_args import incast_arguments, speed_argument  # noqa: E402 - peers/compare_args.py, beside this folder
from htsim_tcp import TCPSIM, TICK_US, htsim_tcp  # noqa: E402 - beside this script
from interleaved import time_pairs  # noqa: E402 - peers/interleaved.py, beside this folder
from twin_rounds import resent_cell, round_summary, tcpsim_round_summary  # noqa: E402 - peers/twin_rounds.py, beside this folder

TWIN = Path(os.environ.get("HTSIM_DIR", "/tmp/htsim")) / "bin" / "incast"
TCP = htsim_tcp("300ms")
K = 20


def scenario(senders: int, variant: str, rounds: int, non_ect: str = "drop") -> dict:
    """The tcpsim side: `topologies.incast` with the set-up above."""
    if variant == "dctcp":
        port = {"kind": "step", "limit": "100pkt", "threshold": f"{K}pkt", "non_ect": non_ect}
        tcp = {**TCP, "ecn_sender": "linux_dctcp"}
    else:
        port, tcp = "100pkt", TCP
    duration = f"{max(5, rounds)}s"
    return topologies.incast(
        senders=senders, port_queue=port, variant=variant, rounds=rounds, tcp=tcp, duration=duration
    )


def tcpsim_side(senders: int, variant: str, rounds: int, non_ect: str) -> dict[str, float | None]:
    return tcpsim_round_summary(tcpsim.run(scenario(senders, variant, rounds, non_ect), seed=1))


def twin_command(senders: int, variant: str, rounds: int, tick_us: float) -> list[str]:
    return [
        str(TWIN),
        variant,
        f"--senders={senders}",
        f"--rounds={rounds}",
        "--min-rto-ms=300",
        f"--k={K}",
        f"--tick-us={tick_us}",
    ]


def htsim_side(senders: int, variant: str, rounds: int, tick_us: float) -> dict[str, float]:
    out = subprocess.run(
        twin_command(senders, variant, rounds, tick_us), check=True, capture_output=True, text=True
    ).stdout
    qct, drops, result = [], [], {}
    for line in out.splitlines():
        f = line.split()
        if not f:
            continue
        if f[0] == "ROUND":
            qct.append(float(f[3]) - float(f[2]))
            drops.append(int(f[4]))
        elif f[0] == "RESULT":
            result[f[2]] = float(f[3])
    return round_summary(qct, drops, result)


def speed(args: argparse.Namespace) -> None:
    """Whole-process wall and user CPU of `tcpsim run` and the twin on one scenario (the first
    variant and sender count), interleaved A B A B …; medians and ratios."""
    variant, n = args.variants[0], args.senders[0]
    toml = Path(args.raw) / f"incast_{variant}_{n}_r{args.rounds}.toml"
    toml.parent.mkdir(parents=True, exist_ok=True)
    scenario(n, variant, args.rounds, args.non_ect).save(toml)
    sides = {
        "tcpsim": [*TCPSIM, "run", str(toml), "--seed", "1"],
        "htsim": twin_command(n, variant, args.rounds, args.tick_us),
    }
    time_pairs(sides, args.speed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    incast_arguments(parser, "/tmp/htsim-incast")
    parser.add_argument(
        "--non-ect",
        choices=["drop", "enqueue"],
        default="drop",
        help="tcpsim's step queue: what it does with a packet that is not ECN-capable above K "
        "(htsim's ECNQueue never drops below the buffer limit: enqueue is its twin)",
    )
    parser.add_argument("--tick-us", type=float, default=TICK_US, help="htsim's timer-scanner period")
    speed_argument(parser)
    args = parser.parse_args()
    if not TWIN.exists():
        sys.exit(f"{TWIN} missing: run peers/htsim/build.sh incast")
    if args.speed:
        speed(args)
        return
    print(
        "| variant | N | tcpsim QCT mean (min–max) ms | htsim QCT mean (min–max) ms "
        "| rounds tcpsim | htsim | tcpsim goodput Mb/s | htsim goodput Mb/s | drops/round tcpsim | htsim "
        "| marks tcpsim | htsim | resent tcpsim | htsim |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for variant in args.variants:
        for n in args.senders:
            a = tcpsim_side(n, variant, args.rounds, args.non_ect)
            b = htsim_side(n, variant, args.rounds, args.tick_us)
            size = (1_000_000 // n) * n
            print(
                f"| {variant} | {n} | {a['qct_mean_ms']:.2f} ({a['qct_min_ms']:.2f}–{a['qct_max_ms']:.2f}) "
                f"| {b['qct_mean_ms']:.2f} ({b['qct_min_ms']:.2f}–{b['qct_max_ms']:.2f}) "
                f"| {a['rounds']} | {b['rounds']} | {size * 8 / a['qct_mean_ms'] / 1e3:.0f} | {size * 8 / b['qct_mean_ms'] / 1e3:.0f} "
                f"| {a['drops_per_round']:.1f} | {b['drops_per_round']:.1f} "
                f"| {a['marks']} | {b['marks']} | {resent_cell(a['resent'])} | {b['resent']} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
