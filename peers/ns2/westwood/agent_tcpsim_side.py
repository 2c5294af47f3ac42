"""tcpsim's emulation of ns-2's Agent/TCP/Westwood beside the twins, 300 s runs.

    .venv/bin/python peers/ns2/westwood/agent_tcpsim_side.py [CONFIG [SEEDS]]

Runs the `westwood[ns2_agent]` configuration (or CONFIG, any of `casetti.common.CONFIGS`) on
the headline points of casetti fig9 (1 % errors), batcp and snoop, as their experiments build
them but 300 s long (the first 20 s excluded), seeds 1-3 (or SEEDS, comma-separated). Prints
the throughput (Mb/s of 400-byte packets, as the twins count them) and the timeouts of each
seed. The ns-2 side: `ns peers/ns2/casetti.<exp>.tcl westwood SEED X 300 20` (X = 0.01 for
fig9, 0 otherwise), see README.md, "Against the agent".
"""

from __future__ import annotations

import sys

import tcpsim
from tcpsim.repro.casetti.common import wire_mbps
from tcpsim.repro.casetti.wireless import BaTcp, Fig9, Snoop

POINTS = {"fig9": (Fig9(), 0.01), "batcp": (BaTcp(), 0.0), "snoop": (Snoop(), 0.0)}


def main() -> None:
    config = sys.argv[1] if len(sys.argv) > 1 else "westwood[ns2_agent]"
    seeds = [int(s) for s in sys.argv[2].split(",")] if len(sys.argv) > 2 else [1, 2, 3]
    for name, (experiment, x) in POINTS.items():
        scenario = experiment.scenario(config, x, True)
        scenario["duration"] = "300s"
        flows = [tcpsim.run(scenario, seed=seed).flows.iloc[0] for seed in seeds]
        mbps = " ".join(f"{wire_mbps(f.throughput_bps):.3f}" for f in flows)
        timeouts = " ".join(str(f.timeouts) for f in flows)
        print(f"{name} {config}: {mbps} Mb/s; timeouts {timeouts}")


if __name__ == "__main__":
    main()
