"""tcpsim on moller.fig5's set-up with the ns-2 twin's Westwood+ and timers, beside its own.

    .venv/bin/python peers/ns2/westwood/plus/moller_tcpsim_side.py [B ...]

Runs tcpsim's moller.fig5 scenario (scenario 1, full-mode length 2042 s, the first 60 s
excluded, seed 1) at the given buffers (default 5 10 26 42 83) in three configurations:
"tcpsim": the experiment's own (Linux Westwood+: two 7/8 EWMAs, 50 ms floor; min RTO 1 s);
"ns2-estimator": Westwood+ with the twin's estimator (one sample per RTT, no floor, EWMA 0.9);
"ns2-all": that estimator plus the twin's ns-2.35 timers (min RTO 200 ms, RTT samples and the
RTO clock in 10 ms ticks). Prints each flow's normalized throughput and the W+/NR ratio.
"""

from __future__ import annotations

import sys

import tcpsim
from tcpsim.repro.moller.common import TABLE_II, run_length, run_metrics, two_flow_scenario

SETTING = TABLE_II[1]
ESTIMATOR = {"kind": "westwood_plus", "filter": {"kind": "ewma", "alpha": 0.9}, "min_window": "0s"}
NS2_TIMERS = {"min_rto": "200ms", "rtt_tick": "10ms", "clock_granularity": "10ms"}


def scenario(buffer: int, config: str) -> dict:
    duration, warmup = run_length(SETTING, quick=False)
    built = two_flow_scenario(SETTING, buffer, duration_s=duration, warmup_s=warmup)
    if config != "tcpsim":
        built["flows"][1]["tcp"] = {"cc": dict(ESTIMATOR)}
    if config == "ns2-all":
        built["tcp"].update(NS2_TIMERS)
    return built


def main(argv: list[str]) -> None:
    buffers = [int(b) for b in argv] or [5, 10, 26, 42, 83]
    for config in ("tcpsim", "ns2-estimator", "ns2-all"):
        for b in buffers:
            m = run_metrics(tcpsim.run(scenario(b, config), seed=1), SETTING)
            print(
                f"{config} B={b}: NewReno {m['first']:.4f} Westwood+ {m['second']:.4f} ratio {m['ratio']:.4f} "
                f"episodes {m['first_episodes']:.0f}/{m['second_episodes']:.0f}",
                flush=True,
            )


if __name__ == "__main__":
    main(sys.argv[1:])
