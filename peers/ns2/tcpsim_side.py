"""tcpsim's values for the ns-2 twins' DropTail and RED/ECN configurations of `podlesny`'s RD
experiments (which tcpsim's experiments run with RD only, or with DropTail at a few points):
the same scenarios the experiments build, with the bottleneck queue swapped, measured with the
experiments' own functions; with `--rd`, the twins' RD arm (tcpsim's main-reading RD, `RD_PAPER`)
instead. Needs tcpsim (run with the project's Python):

    .venv/bin/python peers/ns2/tcpsim_side.py [--vegas-no-ecn] [--rd] [name ...]   # names below; default all

Prints `name: mean [95 % CI]` per measured value (3 seeds unless stated). `--vegas-no-ecn` makes
every Vegas flow (long-lived and web) non-ECN-capable, as stock ns-2's Vegas is (its `output()`
never sets ECT), to compare with the twins' RED/ECN runs. Under RD, fig4 and fig5 also print the
data-packets-only reading (`*_data`, the twins' `*_utilization`) and the flows RD counted per link
direction (`n_r`, `n_d`, the twins' `n_r_ab`…).
"""

from __future__ import annotations

import sys
from dataclasses import replace

import numpy as np
import tcpsim
from tcpsim.repro.aggregate import summarize
from tcpsim.repro.podlesny import webtraffic as web
from tcpsim.repro.podlesny.common import BOTTLENECK_DELAY_S, bottleneck_queue, mixed_dumbbell
from tcpsim.repro.podlesny.measure import class_use, fairness_index, rd_split

SEEDS = (1, 2, 3)
VEGAS_NO_ECN = False


def vegas_ecn_off(built: dict) -> dict:
    """With `VEGAS_NO_ECN`, Vegas flows and web servers do not negotiate ECN (ns-2's stock Vegas)."""
    if VEGAS_NO_ECN:
        for spec in [*built["flows"], *built.get("web", [])]:
            if spec["variant"] == "vegas":
                spec["tcp"] = {**spec.get("tcp", {}), "ecn": False}
    return built


def with_queue(built: dict, disc: str, bps: float) -> dict:
    built["links"][0]["queue"] = bottleneck_queue(disc, bps, BOTTLENECK_DELAY_S)
    if disc == "red_ecn":
        built["tcp"]["ecn"] = True
    return built


def flow_ratio(
    nr: int, vg: int, disc: str, bps: float = 10e6, duration_s: float = 20.0, seeds: tuple[int, ...] = SEEDS
) -> dict[str, list[float]]:
    out: dict[str, list[float]] = {}
    for seed in seeds:
        built = mixed_dumbbell(
            nr, vg, queue=bottleneck_queue(disc, bps, BOTTLENECK_DELAY_S), seed=seed, bottleneck_bps=bps,
            duration_s=duration_s, ecn=disc == "red_ecn",
        )  # fmt: skip
        result = tcpsim.run(vegas_ecn_off(built), seed=seed)
        use = class_use(result, bps, directions=2)
        values = [
            ("newreno_utilization", use["newreno"]["utilization"]),
            ("vegas_utilization", use["vegas"]["utilization"]),
            ("index", fairness_index(use)),
            ("vegas_loss_rate", use["vegas"]["loss_rate"]),
            ("newreno_loss_rate", use["newreno"]["loss_rate"]),
        ]
        if disc == "rd":
            split = rd_split(result)
            values += [
                ("newreno_data", use["newreno"]["data"]),
                ("vegas_data", use["vegas"]["data"]),
                ("index_data", fairness_index(use, "data")),
                ("n_r", split["n_r"]),
                ("n_d", split["n_d"]),
            ]
        for k, v in values:
            out.setdefault(k, []).append(v)
    return out


def web_point(point: web.Point, disc: str, seeds: tuple[int, ...] = SEEDS) -> dict[str, list[float]]:
    out: dict[str, list[float]] = {}
    for seed in seeds:
        built = with_queue(web.scenario(point, seed), disc, point.capacity_bps)
        result = tcpsim.run(vegas_ecn_off(built), seed=seed)
        use = web.forward_use(result, point)
        if disc == "rd":
            split = rd_split(result, direction="ab")
            use |= {"n_r": split["n_r"], "n_d": split["n_d"]}
        for k in ("index", "vegas_loss_rate", "newreno_utilization", "vegas_utilization", "n_r", "n_d"):
            if k in use:
                out.setdefault(k, []).append(use[k])
    return out


def static20(disc: str) -> dict[str, list[float]]:
    out: dict[str, list[float]] = {}
    for seed in SEEDS:
        built = mixed_dumbbell(
            20, 20, queue=bottleneck_queue(disc, 20e6, BOTTLENECK_DELAY_S), seed=seed, reverse=False,
            bottleneck_bps=20e6, duration_s=60.0, ecn=disc == "red_ecn",
        )  # fmt: skip
        use = class_use(tcpsim.run(vegas_ecn_off(built), seed=seed), 20e6, directions=1)
        for k, v in (
            ("index", fairness_index(use)),
            ("newreno_utilization", use["newreno"]["utilization"]),
            ("vegas_utilization", use["vegas"]["utilization"]),
            ("vegas_loss_rate", use["vegas"]["loss_rate"]),
            ("newreno_loss_rate", use["newreno"]["loss_rate"]),
        ):
            out.setdefault(k, []).append(v)
    return out


QUICK = web.quick(web.Point())
JOBS = {
    "fig4": lambda d: flow_ratio(30, 10, d),
    "fig5": lambda d: flow_ratio(10, 30, d),
    # The RD arm's grids (--rd): tcpsim's quick grid, and three ratios at the paper's scale (60 s).
    "fig4grid": lambda d: {f"{nr}:10": flow_ratio(nr, 10, d) for nr in (1, 5, 10, 30, 70)},
    "fig4full": lambda d: {f"{nr}:100": flow_ratio(nr, 100, d, 100e6, 60.0) for nr in (10, 50, 300)},
    "fig5grid": lambda d: {f"10:{vg}": flow_ratio(10, vg, d) for vg in (1, 5, 10, 30, 70)},
    "fig5full": lambda d: {f"100:{vg}": flow_ratio(100, vg, d, 100e6, 60.0) for vg in (10, 50, 100, 300, 700)},
    "fig6": lambda d: {f"{r}fps": web_point(replace(QUICK, web_rate_per_s=r / 10), d) for r in (10, 100, 300)},
    "fig7": lambda d: {f"{c}Mbps": web_point(replace(QUICK, capacity_bps=c * 1e5), d) for c in (10, 100, 1000)},
    "fig8": lambda d: {
        f"max{m}ms": web_point(replace(QUICK, rtt_range_s=(0.020, m / 1000)), d) for m in (30, 200, 1000)
    },
    "fig8full": lambda d: {"full30s": web_point(replace(web.Point(), duration_s=30.0), d, (1, 2))},
    # The RD arm's paper-scale points (--rd): fig7 at 10 Mb/s, the Figs. 6-8 point over 60 s.
    "fig7full10": lambda d: {"full10Mbps": web_point(replace(web.Point(), capacity_bps=10e6), d)},
    "fig8full60": lambda d: {"full60s": web_point(web.Point(), d, (1, 2))},
    "fig9": lambda d: {
        f"{kb}KB:{r}fps": web_point(
            replace(QUICK, web_rate_per_s=r / 10, mean_size_bytes=kb * 1000, arrival_shape=1.1), d
        )
        for kb in (30, 100)
        for r in (50, 200)
    },
    # fig9's RD arm over 10 seeds (--rd), as its twin's 10 replications.
    "fig9x10": lambda d: {
        f"{kb}KB:{r}fps": web_point(
            replace(QUICK, web_rate_per_s=r / 10, mean_size_bytes=kb * 1000, arrival_shape=1.1), d, tuple(range(1, 11))
        )
        for kb in (30, 100)
        for r in (50, 200)
    },
    "static20": static20,
}


def show(prefix: str, values: dict) -> None:
    for k, v in values.items():
        if isinstance(v, dict):
            show(f"{prefix} {k}", v)
        else:
            s = summarize(v)
            print(f"{prefix} {k}: {np.mean(v):.4g} [{s['ci_low']:.4g}, {s['ci_high']:.4g}]", flush=True)


def main(names: list[str]) -> None:
    global VEGAS_NO_ECN
    if "--vegas-no-ecn" in names:
        VEGAS_NO_ECN = True
        names = [n for n in names if n != "--vegas-no-ecn"]
    discs: tuple[str, ...] = ("droptail", "red_ecn")
    if "--rd" in names:
        discs = ("rd",)
        names = [n for n in names if n != "--rd"]
    for name in names or list(JOBS):
        for disc in discs:
            show(f"{name} {disc}", JOBS[name](disc))


if __name__ == "__main__":
    main(sys.argv[1:])
