"""Web-search workload at a target load on a star: DCTCP against NewReno, FCT slowdown by size.

The numbers in docs/datacenter.md come from this script:

    nice -n 5 .venv/bin/python scripts/dc_websearch.py --duration 4s --seeds 1 2 3 [--plot FILE]
        [--load 0.6] [--hosts 8] [--ecn-sender linux_dctcp|rfc3168] [--non-ect drop|enqueue]
        [--variants newreno dctcp]

Set-up (chosen before running, after DCTCP, Alizadeh et al., SIGCOMM 2010, Sec. 4.3's benchmark
traffic on a rack and pFabric/HPCC's all-to-all web-search runs): `hosts` hosts on one 1 Gb/s
switch (25 us per link, base RTT 100 us), all-to-all transfers with web-search sizes at `load`
of the host links (Poisson arrivals); every queue, switch ports and host NICs alike (as the
pFabric and HPCC simulations configure them), 100 packets (150 KB, the paper's static per-port
buffer); NewReno with drop-tail; DCTCP with step marking at K = 20 packets (the paper's K at
1 Gb/s), not-ECN-capable packets above K dropped (Linux `red ... ecn`), and senders that send
every packet ECT as Linux's DCTCP does, pure ACKs and retransmissions included
(`ecn_sender = "linux_dctcp"`; net/ipv4/tcp_output.c `tcp_ecn_send`). MSS 1460 B, initial
window 3 (RFC 3390), min RTO 300 ms (the paper's incast runs), delayed ACKs of 2 segments with
a 40 ms timeout. Transfers that start in the last 20 % of the run are left out (they may not
finish). `--ecn-sender rfc3168` (ACKs and retransmissions not-ECT) shows what the step queue's
drops of them cost; `--non-ect enqueue` spares them at the queue instead."""

import argparse
import time

import tcpsim
from tcpsim.fct import fct_table, plot_slowdown


def scenario(
    variant: str, load: float, hosts: int, duration: str, non_ect: str = "drop", ecn_sender: str = "linux_dctcp"
) -> dict:
    names = [f"h{i}" for i in range(hosts)]
    step = {"kind": "step", "limit": "100pkt", "threshold": "20pkt", "non_ect": non_ect}
    port = step if variant == "dctcp" else "100pkt"
    links = [{"name": h, "a": h, "b": "sw", "rate": "1Gbps", "delay": "25us", "queue": port} for h in names]
    return {
        "duration": duration,
        "tcp": {"mss": 1460, "header": 40, "init_cwnd": 3, "min_rto": "300ms", "delack_timeout": "40ms"},
        "links": links,
        "web": [
            {
                "name": "ws",
                "hosts": names,
                "variant": variant,
                "arrivals": {"process": "poisson", "load": load},
                "sizes": {"dist": "web_search"},
                "tcp": {"ecn_sender": ecn_sender} if variant == "dctcp" else {},
            }
        ],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--load", type=float, default=0.6)
    parser.add_argument("--hosts", type=int, default=8)
    parser.add_argument("--duration", default="3s")
    parser.add_argument("--seeds", type=int, nargs="+", default=[1])
    parser.add_argument("--non-ect", choices=["drop", "enqueue"], default="drop")
    parser.add_argument("--ecn-sender", choices=["linux_dctcp", "rfc3168"], default="linux_dctcp")
    parser.add_argument("--variants", nargs="+", default=["newreno", "dctcp"])
    parser.add_argument("--plot", help="write the slowdown-vs-size plot (first seed) to this file")
    args = parser.parse_args()
    frames = {}
    for variant in args.variants:
        for seed in args.seeds:
            started = time.time()
            r = tcpsim.run(
                scenario(variant, args.load, args.hosts, args.duration, args.non_ect, args.ecn_sender), seed=seed
            )
            frame = r.fct()
            cutoff = 0.8 * r.meta["sim_s"]
            counted = frame[frame["start_s"] < cutoff]
            unfinished = int((~r.transfers["completed"] & (r.transfers["start_s"] < cutoff)).sum())
            print(
                f"\n{variant} seed {seed}: {len(counted)} transfers, {unfinished} unfinished, "
                f"drops {int(r.links['drops_queue'].sum())}, marks {int(r.links['marks_ecn'].sum())}, "
                f"wall {time.time() - started:.1f} s"
            )
            print(fct_table(counted).to_string(index=False, float_format=lambda x: f"{x:.4g}"))
            frames.setdefault(variant, counted)
    if args.plot:
        import matplotlib

        matplotlib.use("Agg")
        ax = plot_slowdown(frames)
        ax.set_title(f"web search, {args.load:.0%} load, {args.hosts} hosts at 1 Gb/s (seed {args.seeds[0]})")
        ax.figure.tight_layout()
        ax.figure.savefig(args.plot, dpi=100)


if __name__ == "__main__":
    main()
