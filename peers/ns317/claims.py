#!/usr/bin/env python3
"""tcpsim's own claim checks of the gangadhar experiments, applied to the real ns-3.17's curves.

    PYTHONPATH=python .venv/bin/python peers/ns317/claims.py [gangadhar.fig5 ...]

Reads the runs `run.py` cached (it runs the missing ones), builds the curves tcpsim's experiments
build from their own runs (mean and runs per point) and calls the same claim functions
(`tcpsim.repro.gangadhar.sweeps`, `.families`, `.ack_compression`), so "ns-3.17 passes / fails
claim X" means the very test tcpsim's experiment applies; for fig7 and fig9 also with 1000-packet
queues but the router's (as run.py: the points that dropped at the source run again). Prints one line per claim: verdict, name,
the test's own text. Needs the project's environment (numpy, tcpsim); run.py does not.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import run  # noqa: E402 - peers/ns317/run.py, beside this file
from tcpsim.repro.aggregate import NON_NEGATIVE, Curve  # noqa: E402
from tcpsim.repro.framework import Claim  # noqa: E402
from tcpsim.repro.gangadhar import ack_compression, families, sweeps  # noqa: E402


def curve(data: run.Data, names: dict[float | int, str]) -> Curve:
    return Curve.of({x: run.tput(data, n) for x, n in names.items()}, valid=NON_NEGATIVE)


def fig5(data: run.Data) -> list[Claim]:
    c = {v: curve(data, {float(p): run.point(v, p) for p in run.PERS}) for v in run.VARIANTS}
    return [
        sweeps.westwood_highest_by_far(c),
        sweeps.westwood_plus_second(c),
        sweeps.westwood_plus_drops_sharply(c),
        sweeps.reno_like_newreno(c),
        sweeps.all_fall(c, list(run.VARIANTS)),
    ]


def fig7(data: run.Data) -> list[Claim]:
    c = {v: curve(data, {r: run.point(v, run.FIG7_PER, rate=r) for r in run.FIG7_RATES}) for v in run.VARIANTS}
    return [sweeps.westwood_family_rises(c), sweeps.westwood_far_above_plus(c), sweeps.others_flat(c)]


def family(data: run.Data, name, settings: tuple[int, ...]) -> dict[tuple[str, int], Curve]:
    return {(v, s): curve(data, {float(p): name(v, p, s) for p in run.PERS}) for v in run.THREE for s in settings}


def fig8(data: run.Data) -> list[Claim]:
    c = family(data, run.fig8_name, run.FIG8_COUNTS)
    return [
        families.order_claim(c, 1, 8, "delayed-ACK count", ""),
        families.spread_broader(
            c, "reno", ["westwood"], "Reno's spread across delayed-ACK counts broader than Westwood's"
        ),
        families.westwood_plus_drops_at_high_per(c),
    ]


def fig9(data: run.Data) -> list[Claim]:
    c = family(data, run.fig9_name, run.FIG9_PAYLOADS)
    return [
        families.order_claim(c, 1460, 41, "payload", " B"),
        families.spread_broader(c, "reno", ["westwood", "westwood_plus"], "Reno's spread largest"),
        families.westwood_plus_poor_above(c, list(run.FIG9_PAYLOADS)),
    ]


def fig11() -> list[Claim]:
    ww, wp = run.run_fig11("westwood", ()), run.run_fig11("westwood_plus", ())
    return [
        ack_compression.westwood_fluctuates(
            ww["bwe_peak_mbps"] * 1e6, ww["bwe_mean_after_mbps"] * 1e6, ww["bwe_sd_after_mbps"] * 1e6
        ),
        ack_compression.westwood_plus_near_bottleneck(wp["bwe_window_min_kbps"] * 1e3, wp["bwe_window_max_kbps"] * 1e3),
    ]


CHECKS = {"gangadhar.fig5": fig5, "gangadhar.fig7": fig7, "gangadhar.fig8": fig8, "gangadhar.fig9": fig9}


def main() -> None:
    for experiment in sys.argv[1:] or run.EXPERIMENTS:
        if experiment == "gangadhar.fig11":
            claims = [(c, "") for c in fig11()]
        else:
            data = run.collect(run.listed(experiment.removeprefix("gangadhar.")), run.RUNS, 1)
            claims = [(c, "") for c in CHECKS[experiment](data)]
            large = run.with_large_queues(data, 1)
            if any(large[n] is not data[n] for n in data):
                label = f" ({run.LARGE_QUEUES}-packet queues but the router's)"
                claims += [(c, label) for c in CHECKS[experiment](large)]
        for claim, label in claims:
            print(f"{experiment}{label}  {'holds' if claim.ok else 'FAILS'}  {claim.text}: {claim.detail}")


if __name__ == "__main__":
    main()
