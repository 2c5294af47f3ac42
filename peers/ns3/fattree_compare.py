"""tcpsim's k = 4 fat tree with all-to-all web-search transfers beside its ns-3.44 twin
(peers/ns3/fattree.cc): FCT slowdown by size bucket, a figure, and whole-process speed.

    NS3_TWIN_BIN=/tmp/ns3-twins/bin peers/ns3/build.sh fattree
    nice -n 10 .venv/bin/python peers/ns3/fattree_compare.py --plot docs/ns3-comparison/fattree-slowdown.png
    nice -n 10 .venv/bin/python peers/ns3/fattree_compare.py --speed 3      # interleaved timing

Set-up (chosen before either side was run): `tcpsim.topologies.fat_tree(k=4)`'s defaults, 16
hosts, every link 10 Gb/s and 10 us, every queue (host NICs too) 100 packets waiting;
all-to-all transfers with web-search sizes (python/tcpsim/workloads/web_search.cdf, which the
twin reads) at 60 % load of the host links, Poisson arrivals for `--duration` (0.15 s), the
transfers arriving in the first 80 % counted. NewReno with drop-tail; DCTCP with step marking
at K = 65 packets (the DCTCP paper's value at 10 Gb/s) and every packet ECN-capable (tcpsim
`ecn_sender = "linux_dctcp"`, ns-3's `DctcpEcn`). MSS 1460 B, 40-byte headers, initial window
3, delayed ACKs of 2 segments or 40 ms (docs/datacenter.md's TCP settings), min RTO 10 ms (the
DCTCP paper's reduced RTO_min, Sec. 4.2.1: with 300 ms a single timeout outlasts the run).
ECMP: ns-3.44's Ipv4GlobalRouting with RandomEcmpRouting draws a path per packet; tcpsim is run
with the same rule (`ecmp = "packet_spray"`) and with its default per-flow hash (`flow_hash`).
The ideal FCT of both sides' transfers is tcpsim's (`tcpsim.fct`), from the same paths.
See docs/ns3-comparison/fattree.md.
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
from interleaved import time_pairs  # noqa: E402 - peers/interleaved.py, beside this folder

ROOT = Path(__file__).resolve().parent.parent.parent
CDF = ROOT / "python" / "tcpsim" / "workloads" / "web_search.cdf"
TWIN = Path(os.environ.get("NS3_TWIN_BIN", "/tmp/ns3-twins/bin")) / "fattree"
TCP = {"mss": 1460, "header": 40, "init_cwnd": 3, "min_rto": "10ms", "delack_timeout": "40ms"}
K = 65


def scenario(variant: str, ecmp: str, load: float, duration: float) -> dict:
    """The tcpsim side: the fat tree with one all-to-all web generator `ws` over its hosts (ns-3's
    sensitivity variant `dctcp_floor` is tcpsim's `dctcp`, whose cut already keeps two segments)."""
    if variant == "dctcp_floor":
        variant = "dctcp"
    if variant == "dctcp":
        queue = {"kind": "step", "limit": "100pkt", "threshold": f"{K}pkt"}
        tcp = {**TCP, "ecn_sender": "linux_dctcp"}
    else:
        queue, tcp = "100pkt", TCP
    s = topologies.fat_tree(k=4, queue=queue, ecmp=ecmp, tcp=tcp, duration=f"{duration}s")
    hosts = [link["a"] for link in s["links"] if link["a"].startswith("h_")]
    s["web"] = [
        {
            "name": "ws",
            "hosts": hosts,
            "variant": variant,
            "arrivals": {"process": "poisson", "load": load},
            "sizes": {"dist": "web_search"},
        }
    ]
    return s


def tcpsim_side(variant: str, ecmp: str, args: argparse.Namespace) -> tuple[pd.DataFrame, dict]:
    r = tcpsim.run(scenario(variant, ecmp, args.load, args.duration), seed=args.seed)
    return tcpsim_counts(r, args.duration)


def ns3_output(variant: str, args: argparse.Namespace) -> str:
    raw = Path(args.raw) / f"{variant}_load{args.load}_d{args.duration}_run{args.seed}.txt"
    if args.reuse and raw.exists():
        return raw.read_text()
    command = [str(TWIN), variant, f"--cdf={CDF}", f"--load={args.load}", f"--duration={args.duration}"]
    command += [f"--k={K}", f"--run={args.seed}"]
    out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    raw.parent.mkdir(parents=True, exist_ok=True)
    raw.write_text(out)
    return out


def ns3_side(variant: str, args: argparse.Namespace) -> tuple[pd.DataFrame, dict]:
    rows, unfinished, result = [], 0, {}
    cutoff = 0.8 * args.duration
    for line in ns3_output(variant, args).splitlines():
        f = line.split()
        if f[0] == "FCT" and float(f[5]) < cutoff:
            rows.append(twin_transfer(f[2], f[3], int(f[4]), float(f[6]), float(f[7])))
        elif f[0] == "UNFINISHED" and float(f[5]) < cutoff:
            unfinished += 1
        elif f[0] == "RESULT":
            result[f[2]] = float(f[3])
    canonical = load_scenario(scenario(variant, "packet_spray", args.load, args.duration)).to_engine()
    frame = fct_frame(pd.DataFrame(rows), canonical)
    stats = {
        "transfers": int(result["transfers"]),
        "counted": len(frame),
        "unfinished": unfinished,
        "drops": int(result["drops"]),
        "marks": int(result["marks"]),
        "resent": int(result["resent_segments"]),
    }
    if "data_segments_sent" in result:  # outputs of the twin from before it counted them lack it
        stats["sent_beyond_delivered"] = int(result["data_segments_sent"] - result["bytes_delivered"] / 1460)
    if "entered_loss" in result:  # likewise for its congestion-state counts
        stats["timeouts"] = int(result["entered_loss"])
        stats["fast recoveries"] = int(result["entered_recovery"])
        for state in ("recovery", "loss", "open"):
            stats[f"resent in {state}"] = int(result[f"resent_in_{state}"])
    return frame, stats


def compare(args: argparse.Namespace) -> None:
    frames: dict[str, dict[str, pd.DataFrame]] = {}
    for variant in args.variants:
        columns = {
            "tcpsim spray": tcpsim_side(variant, "packet_spray", args),
            "tcpsim flow hash": tcpsim_side(variant, "flow_hash", args),
        }
        if TWIN.exists():
            columns["ns-3 random ECMP"] = ns3_side(variant, args)
        else:
            print(f"{TWIN} missing: run peers/ns3/build.sh fattree", file=sys.stderr)
        frames[variant] = {name: frame for name, (frame, _) in columns.items()}
        print_table(
            variant,
            columns,
            (
                "transfers",
                "counted",
                "unfinished",
                "drops",
                "marks",
                "resent",
                "timeouts",
                "fast recoveries",
                "resent in recovery",
                "resent in loss",
                "resent in open",
                "sent_beyond_delivered",
            ),
        )
    if args.plot:
        titles = {}
        for variant in frames:
            titles[variant] = f"{variant}: k=4 fat tree, web search {args.load:.0%} load, {args.duration} s"
        plot_variants(frames, titles, args.plot)


def speed(args: argparse.Namespace) -> None:
    """Whole-process wall and user CPU of each side on the same scenario (the first variant,
    per-packet ECMP), interleaved A B A B …; medians and ratios."""
    variant = args.variants[0]
    toml = Path(args.raw) / f"fattree_{variant}.toml"
    toml.parent.mkdir(parents=True, exist_ok=True)
    scenario(variant, "packet_spray", args.load, args.duration).save(toml)
    sides = {
        "tcpsim": [str(ROOT / ".venv" / "bin" / "tcpsim"), "run", str(toml), "--seed", str(args.seed)],
        "ns-3": [str(TWIN), variant, f"--cdf={CDF}", f"--load={args.load}", f"--duration={args.duration}", f"--k={K}"],
    }
    time_pairs(sides, args.speed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    fattree_arguments(
        parser, "tcpsim seed and ns-3 RNG run", "/tmp/ns3-fattree", "ns-3 outputs and speed scenarios go here"
    )
    parser.add_argument("--reuse", action="store_true", help="reuse ns-3 outputs already in --raw")
    speed_argument(parser)
    args = parser.parse_args()
    if args.speed:
        speed(args)
    else:
        compare(args)


if __name__ == "__main__":
    main()
