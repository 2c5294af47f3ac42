"""The training run of the profile-guided build (`scripts/setup.sh`): exercise the engine the way
users do, with an instrumented build of the core, so that the compiler lays out and inlines the
engine for those paths.

What runs decides what the optimized build favours, and code that never runs here is compiled as
cold (for size), so the set covers every congestion control, every bundled scenario (each queue
discipline, ECN, loss, web traffic, a fat tree with ECMP) and the benchmark workloads, in short
versions: about 10 s with the instrumented build. The runs' results are discarded; only the
counts the instrumented library writes at exit matter.
"""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

import tcpsim
from tcpsim.bench.workloads import WORKLOADS
from tcpsim.scenario import VARIANTS, load_scenario

ROOT = Path(__file__).resolve().parent.parent

BENCH_DURATIONS = {
    "lossy_link": None,  # as benchmarked: 600 s of one flow, 0.7 M events
    "dumbbell": "10s",
    "podlesny_1600": "10s",
    "podlesny_1g": "2s",
    "fattree_k8": "0.03s",
    "dumbbell_10g": "0.5s",
    "incast_100": None,
}
"""Each benchmark workload's simulated time here (None: its own); a workload added to the bench
must be given one, so that the training cannot silently leave it out."""

SCENARIO_DURATION = "10s"
"""Simulated time of each bundled scenario (a fat tree at most 0.05 s)."""


def _shortened(scenario: object, duration: str | None) -> object:
    if duration is None:
        return scenario
    return load_scenario(scenario, overrides=[f"duration={duration}"])


def main() -> int:
    missing = sorted(set(WORKLOADS) - set(BENCH_DURATIONS))
    if missing:
        print(f"pgo_train.py: no training duration for bench workload(s) {', '.join(missing)}", file=sys.stderr)
        return 1
    runs = []
    for name, duration in BENCH_DURATIONS.items():
        runs.append((f"bench {name}", _shortened(WORKLOADS[name][1](), duration)))
    for path in sorted((ROOT / "scenarios").glob("*.toml")):
        duration = "0.05s" if path.stem.startswith("fat_tree") else SCENARIO_DURATION
        runs.append((f"scenario {path.stem}", load_scenario(path, overrides=[f"duration={duration}", "warmup=0s"])))
    single_flow = ROOT / "scenarios" / "single_flow.toml"
    for variant in VARIANTS:
        overrides = [f"flows[*].variant={variant}", f"duration={SCENARIO_DURATION}", "warmup=0s"]
        runs.append((f"variant {variant}", load_scenario(single_flow, overrides=overrides)))
    warnings.simplefilter("ignore")  # the shortened runs' advice is not for anyone here
    for label, scenario in runs:
        result = tcpsim.run(scenario, seed=1)
        print(f"{label}: {result.meta['events']} events")
    return 0


if __name__ == "__main__":
    sys.exit(main())
