"""Named benchmark workloads: events, wall time, events/s and simulated seconds per wall
second. Each workload is one single-threaded run with a fixed seed; `jobs` runs several
workloads at once, one per core.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from .paths import builtin_scenario


def _lossy_link() -> Any:
    from .scenario import load_scenario

    return load_scenario(builtin_scenario("lossy_link"), overrides=["links[*].loss=[]", "flows[*].variant=newreno"])


def _dumbbell() -> Any:
    from .topologies import dumbbell

    return dumbbell(forward=200, reverse=200, duration="60s")


WORKLOADS: dict[str, tuple[str, Callable[[], Any]]] = {
    "lossy_link": (
        "one NewReno flow, 10 Mb/s 45 ms → 2 Mb/s bottleneck, 400-byte segments, "
        "delayed-ACK count 2, no errors, 600 s (gangadhar Fig. 3 topology)",
        _lossy_link,
    ),
    "dumbbell": (
        "200 forward + 200 reverse NewReno flows, 100 Mb/s 10 ms bottleneck, 200 Mb/s "
        "access, buffer C·250 ms, 1 KB packets, RTTs uniform in [20, 300] ms, 60 s",
        _dumbbell,
    ),
}

BENCH_SEED = 1


def _run_workload(name: str) -> dict[str, Any]:
    from .api import run

    result = run(WORKLOADS[name][1](), seed=BENCH_SEED)
    m = result.meta
    return {
        "name": name,
        "events": m["events"],
        "wall_s": m["wall_s"],
        "events_per_s": m["events_per_s"],
        "sim_s": m["sim_s"],
        "sim_s_per_wall_s": m["sim_s_per_wall_s"],
    }


def run_benchmarks(names: list[str] | None = None, jobs: int = 1) -> list[dict[str, Any]]:
    """Run the named workloads (all by default), `jobs` at a time in separate processes."""
    names = list(names or WORKLOADS)
    unknown = [n for n in names if n not in WORKLOADS]
    if unknown:
        raise ValueError(f"unknown workload {unknown[0]!r}; allowed: {', '.join(WORKLOADS)}")
    jobs = max(1, min(jobs or os.cpu_count() or 1, len(names)))
    if jobs == 1:
        return [_run_workload(n) for n in names]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(_run_workload, names))
