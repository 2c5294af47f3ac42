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
from tcpsim.scenario import VARIANTS, Scenario, load_scenario

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

LOSS_MODELS = [
    {"kind": "bit_error", "one_per": "64KiB"},
    {"kind": "gilbert_elliott", "good_mean": "8s", "bad_mean": "4s", "good_loss": 1e-5, "bad_loss": 0.05},
    {"kind": "two_state", "good_sojourn": "1s", "bad_sojourn": "10ms", "bad_loss": 0.5},
    {
        "kind": "two_state",
        "good_sojourn": "1s",
        "bad_sojourn": "10ms",
        "bad_loss": 0.5,
        "transitions": "ns2_multistate",
    },
    {"kind": "packet_markov", "good_mean": 8, "bad_mean": 4, "good_loss": 1e-5, "bad_loss": 0.05},
    {"kind": "outage", "period": "4s", "duration": "100ms"},
    {"kind": "outage", "intervals": [["1s", "1.5s"]]},
    {"kind": "scripted", "flow": "bulk", "segments": [10, 20, 30]},
]
"""Loss models on scenarios/lossy_link.toml's lossy link, 60 s each (the scenario's own is
Bernoulli): with the bundled scenarios they run every loss model and queue discipline of the
engine's schema, as tests/test_bench.py checks."""


def _shortened(scenario: object, duration: str | None) -> Scenario:
    """A bench workload's scenario, validated, run for `duration` (None: its own)."""
    if isinstance(scenario, Scenario) and duration is None:
        return scenario
    return load_scenario(scenario, overrides=[f"duration={duration}"] if duration else [])


def training_runs() -> list[tuple[str, Scenario]]:
    """The training's (label, scenario) pairs; ValueError if a bench workload has no duration."""
    missing = sorted(set(WORKLOADS) - set(BENCH_DURATIONS))
    if missing:
        raise ValueError(f"no training duration for bench workload(s) {', '.join(missing)}")
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
    lossy_link = ROOT / "scenarios" / "lossy_link.toml"
    for model in LOSS_MODELS:
        overrides = {"links[lossy].loss": [model], "duration": "60s", "warmup": "0s"}
        runs.append((f"loss {model['kind']}", load_scenario(lossy_link, overrides=overrides)))
    return runs


def main() -> int:
    try:
        runs = training_runs()
    except ValueError as error:
        print(f"pgo_train.py: {error}", file=sys.stderr)
        return 1
    warnings.simplefilter("ignore")  # the shortened runs' advice is not for anyone here
    for label, scenario in runs:
        result = tcpsim.run(scenario, seed=1)
        print(f"{label}: {result.meta['events']} events")
    return 0


if __name__ == "__main__":
    sys.exit(main())
