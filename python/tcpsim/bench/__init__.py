"""Named benchmark workloads (`workloads.WORKLOADS`): each runs once, single-threaded with a
fixed seed, in a fresh Python process of its own, so that its peak memory is its own and its
process wall is what a user's `tcpsim run` of the scenario would take (interpreter start, import,
scenario construction and validation, the engine, the result tables). `jobs` runs several
workloads at once, one per core.
"""

from __future__ import annotations

import json
import os
import resource
import sys
import time
from typing import Any

from tcpsim.bench.workloads import WORKLOADS

BENCH_SEED = 1

__all__ = ["BENCH_SEED", "WORKLOADS", "run_benchmarks"]


def measure(name: str) -> dict[str, Any]:
    """Build and run workload `name` in this process: engine figures from the run's meta,
    `python_s` the time around the engine (building, validating and translating the scenario,
    the result tables), `peak_rss_mb` this process's peak resident memory so far, and
    `engine_build` how the engine was compiled (`pgo`, `plain` or `instrumented`: a build without
    profile-guided optimization runs it 5-15 % slower)."""
    from tcpsim._core import ENGINE_BUILD
    from tcpsim.api import run

    started = time.perf_counter()
    result = run(WORKLOADS[name][1](), seed=BENCH_SEED)
    m = result.meta
    return {
        "name": name,
        "events": m["events"],
        "wall_s": m["wall_s"],
        "events_per_s": m["events_per_s"],
        "sim_s": m["sim_s"],
        "sim_s_per_wall_s": m["sim_s_per_wall_s"],
        "python_s": time.perf_counter() - started - m["wall_s"],
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "engine_build": ENGINE_BUILD,
    }


def _run_in_own_process(name: str) -> dict[str, Any]:
    """`measure(name)` in a new interpreter, plus `process_wall_s`: that process's wall from
    start to exit."""
    import subprocess  # here, not at the top: `measure`'s own process does not pay for it

    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", f"import json, tcpsim.bench as b; print(json.dumps(b.measure({name!r})))"],
        capture_output=True,
        text=True,
        check=False,
    )
    process_wall_s = time.perf_counter() - started
    if done.returncode != 0:
        raise RuntimeError(f"workload {name} failed (exit {done.returncode}): {done.stderr.strip()}")
    return json.loads(done.stdout.splitlines()[-1]) | {"process_wall_s": process_wall_s}


def run_benchmarks(names: list[str] | None = None, jobs: int = 1) -> list[dict[str, Any]]:
    """Run the named workloads (all by default), each in its own process, `jobs` at a time."""
    names = list(names or WORKLOADS)
    unknown = [n for n in names if n not in WORKLOADS]
    if unknown:
        raise ValueError(f"unknown workload {unknown[0]!r}; allowed: {', '.join(WORKLOADS)}")
    from concurrent.futures import ThreadPoolExecutor

    jobs = max(1, min(jobs or os.cpu_count() or 1, len(names)))
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(_run_in_own_process, names))
