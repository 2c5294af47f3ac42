"""tcpsim's k = 4 fat tree with all-to-all web-search transfers beside its htsim twin
(peers/htsim/fattree.cpp) on the same list of transfers: FCT slowdown by size bucket, a figure,
and whole-process speed.

    peers/htsim/build.sh fattree
    nice -n 10 .venv/bin/python peers/htsim/fattree_compare.py --plot docs/htsim-comparison/fattree-slowdown.png
    nice -n 10 .venv/bin/python peers/htsim/fattree_compare.py --speed 5      # interleaved timing

Set-up (peers/ns3/fattree_compare.py's, with the TCP details htsim fixes matched on tcpsim's
side; chosen before either side was run): `tcpsim.topologies.fat_tree(k=4)`'s defaults, 16
hosts, every link 10 Gb/s and 10 us, every queue (host NICs too) 100 packets waiting;
all-to-all transfers with web-search sizes (python/tcpsim/workloads/web_search.cdf) at 60 % load
of the host links, Poisson arrivals for `--duration` (0.15 s), the transfers arriving in the
first 80 % counted. The list of transfers (source, destination, size, start) is the one
tcpsim's generator draws with `--seed`; the twin is given the same list. NewReno with
drop-tail; DCTCP marking above K = 65 packets (the DCTCP paper's value at 10 Gb/s; tcpsim step
queues and `ecn_sender = "linux_dctcp"`, htsim ECNQueue and DCTCPSrc). 1500-byte data packets,
40-byte ACKs, initial window 3, initial ssthresh unlimited, min RTO 10 ms (the DCTCP paper's
reduced RTO_min, Sec. 4.2.1), initial RTO 1 s, one ACK per segment, a handshake before the
data, no limited transmit, every timeout halving ssthresh, the timer re-armed on every partial
ACK (what htsim's TcpSrc does; see incast_compare.py). ECMP per flow on both sides: tcpsim's
`flow_hash`, htsim a path drawn uniformly per transfer (`--seed`), its ACKs on the reverse path.
FCT: from the SYN to the receiver holding every byte; the ideal FCT of both sides' transfers is
tcpsim's (`tcpsim.fct`, with the handshake), from the same paths.
See docs/htsim-comparison/fattree.md.
"""

import argparse
import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import tcpsim
from tcpsim import topologies
from tcpsim.fct import fct_frame
from tcpsim.scenario import load_scenario

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from compare_args import fattree_arguments, speed_argument  # noqa: E402 - peers/compare_args.py, beside this folder
from fct_tables import plot_variants, print_table, tcpsim_counts, twin_transfer  # noqa: E402 - peers/fct_tables.py, beside this folder
from htsim_tcp import TCPSIM, TICK_US, htsim_tcp  # noqa: E402 - beside this script
from interleaved import time_pairs  # noqa: E402 - peers/interleaved.py, beside this folder

TWIN = Path(os.environ.get("HTSIM_DIR", "/tmp/htsim")) / "bin" / "fattree"
TCP = htsim_tcp("10ms")
K = 65


def scenario(variant: str, load: float, duration: float, non_ect: str = "drop") -> dict:
    """The tcpsim side: the fat tree with one all-to-all web generator `ws` over its hosts."""
    if variant == "dctcp":
        queue = {"kind": "step", "limit": "100pkt", "threshold": f"{K}pkt", "non_ect": non_ect}
        tcp = {**TCP, "ecn_sender": "linux_dctcp"}
    else:
        queue, tcp = "100pkt", TCP
    s = topologies.fat_tree(k=4, queue=queue, ecmp="flow_hash", tcp=tcp, duration=f"{duration}s")
    s["web"] = [
        {
            "name": "ws",
            "hosts": hosts(s),
            "variant": variant,
            "arrivals": {"process": "poisson", "load": load},
            "sizes": {"dist": "web_search"},
        }
    ]
    return s


def hosts(s: dict) -> list[str]:
    """The hosts in the order fat_tree lists them, pod-major: the twin's host numbers."""
    return [link["a"] for link in s["links"] if link["a"].startswith("h_")]


def tcpsim_side(variant: str, args: argparse.Namespace) -> tuple[pd.DataFrame, dict, pd.DataFrame]:
    """tcpsim's counted FCT frame, its counts, and every transfer it drew (the twin's input)."""
    r = tcpsim.run(scenario(variant, args.load, args.duration, args.non_ect), seed=args.seed)
    counted, stats = tcpsim_counts(r, args.duration)
    return counted, stats, r.transfers


def flow_file(transfers: pd.DataFrame, variant: str, args: argparse.Namespace) -> Path:
    """Write tcpsim's transfers as the twin's `--flows` file."""
    number = {name: k for k, name in enumerate(hosts(scenario(variant, args.load, args.duration)))}
    path = Path(args.raw) / f"flows_{variant}_load{args.load}_d{args.duration}_seed{args.seed}.txt"
    path.parent.mkdir(parents=True, exist_ok=True)
    rows = transfers.sort_values("start_s", kind="stable")
    lines = [
        f"{k} {number[s]} {number[d]} {int(b)} {t!r}"
        for k, (s, d, b, t) in enumerate(zip(rows["src"], rows["dst"], rows["bytes"], rows["start_s"]))
    ]
    path.write_text("\n".join(lines) + "\n")
    return path


def twin_command(variant: str, flows: Path, args: argparse.Namespace) -> list[str]:
    return [
        str(TWIN),
        variant,
        f"--flows={flows}",
        f"--duration={args.duration}",
        f"--k={K}",
        f"--seed={args.seed}",
        f"--tick-us={args.tick_us}",
    ]


def htsim_side(variant: str, flows: Path, args: argparse.Namespace) -> tuple[pd.DataFrame, dict]:
    out = subprocess.run(twin_command(variant, flows, args), check=True, capture_output=True, text=True).stdout
    (Path(args.raw) / f"htsim_{flows.stem}.txt").write_text(out)
    names = hosts(scenario(variant, args.load, args.duration))
    rows, unfinished, result = [], 0, {}
    cutoff = 0.8 * args.duration
    for line in out.splitlines():
        f = line.split()
        if not f:
            continue
        if f[0] == "FCT" and float(f[5]) < cutoff:
            rows.append(twin_transfer(names[int(f[2])], names[int(f[3])], int(f[4]), float(f[5]), float(f[6])))
        elif f[0] == "UNFINISHED" and float(f[5]) < cutoff:
            unfinished += 1
        elif f[0] == "RESULT":
            result[f[2]] = float(f[3])
    canonical = load_scenario(scenario(variant, args.load, args.duration)).to_engine()
    frame = fct_frame(pd.DataFrame(rows), canonical)
    stats = {
        "transfers": int(result["transfers"]),
        "counted": len(frame),
        "unfinished": unfinished,
        "drops": int(result["drops"]),
        "marks": int(result["marks"]),
        "sent_beyond_delivered": int(result["data_segments_sent"] - result["data_segments_delivered"]),
    }
    return frame, stats


def compare(args: argparse.Namespace) -> None:
    frames: dict[str, dict[str, pd.DataFrame]] = {}
    for variant in args.variants:
        frame, stats, transfers = tcpsim_side(variant, args)
        columns = {"tcpsim flow hash": (frame, stats)}
        columns["htsim random per flow"] = htsim_side(variant, flow_file(transfers, variant, args), args)
        frames[variant] = {name: frame for name, (frame, _) in columns.items()}
        counters = ("transfers", "counted", "unfinished", "drops", "marks", "resent", "timeouts", "fast recoveries")
        print_table(variant, columns, (*counters, "sent_beyond_delivered"))
    if args.plot:
        titles = {}
        for variant in frames:
            queues = f", non_ect={args.non_ect}" if variant == "dctcp" and args.non_ect != "drop" else ""
            titles[variant] = f"{variant}: k=4 fat tree, web search {args.load:.0%}, {args.duration} s{queues}"
        plot_variants(frames, titles, args.plot)


def speed(args: argparse.Namespace) -> None:
    """Whole-process wall and user CPU of each side on the same transfers (the first variant),
    interleaved A B A B …; medians and ratios."""
    variant = args.variants[0]
    s = scenario(variant, args.load, args.duration, args.non_ect)
    toml = Path(args.raw) / f"fattree_{variant}.toml"
    toml.parent.mkdir(parents=True, exist_ok=True)
    s.save(toml)
    flows = flow_file(tcpsim.run(s, seed=args.seed).transfers, variant, args)
    sides = {
        "tcpsim": [*TCPSIM, "run", str(toml), "--seed", str(args.seed)],
        "htsim": twin_command(variant, flows, args),
    }
    time_pairs(sides, args.speed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    fattree_arguments(
        parser,
        "tcpsim seed (the transfers) and htsim's path draws",
        "/tmp/htsim-fattree",
        "flow lists, htsim outputs and speed scenarios",
    )
    parser.add_argument(
        "--non-ect",
        choices=["drop", "enqueue"],
        default="drop",
        help="tcpsim's step queues: what they do with a packet that is not ECN-capable above K "
        "(htsim's ECNQueue never drops below the buffer limit: enqueue is its twin)",
    )
    parser.add_argument("--tick-us", type=float, default=TICK_US, help="htsim's timer-scanner period")
    speed_argument(parser)
    args = parser.parse_args()
    if not TWIN.exists():
        sys.exit(f"{TWIN} missing: run peers/htsim/build.sh fattree")
    if args.speed:
        speed(args)
    else:
        compare(args)


if __name__ == "__main__":
    main()
