"""Whole-process start-up of ``tcpsim run FILE --json`` (``tcpsim bench --startup``): what a user
waits for on a short run, from the interpreter's start to its exit, timed from outside.

Two figures, each over `runs` repetitions: a *first run*, with an empty result store, which loads,
validates and compiles the scenario (`tcpsim.fast_run` on a cache miss) before running it; and a
*repeat run* of the same file, which finds the compiled scenario the first one kept. Every
repetition gets a result store of its own, so every first run is a miss. One repetition before
them is not counted (it brings the interpreter and the package into the page cache).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

STARTUP_SCENARIO = "lossy_link"
"""The bundled scenario timed by default: one flow for 600 s, a run of a few hundredths of a second."""


def tcpsim_command() -> list[str]:
    """The ``tcpsim`` console script installed beside this interpreter, as a user runs it; else
    ``python -m tcpsim`` (the same entry point)."""
    script = os.path.join(os.path.dirname(sys.executable), "tcpsim")
    return [script] if os.access(script, os.X_OK) else [sys.executable, "-m", "tcpsim"]


def bundled_scenario_file(name: str) -> str:
    """The file of bundled scenario `name` inside the installed package (a user's path to it)."""
    return os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "scenarios", f"{name}.toml")


def measure_startup(runs: int, scenario: str | None = None) -> dict[str, Any]:
    """Time `runs` first and repeat runs of ``tcpsim run SCENARIO --json`` (the bundled
    `STARTUP_SCENARIO` by default): each figure's median, minimum and maximum in seconds."""
    if runs < 1:
        raise ValueError(f"runs must be at least 1, not {runs}")
    path = scenario or bundled_scenario_file(STARTUP_SCENARIO)
    command = [*tcpsim_command(), "run", path, "--json"]
    first: list[float] = []
    repeat: list[float] = []
    for repetition in range(runs + 1):
        with tempfile.TemporaryDirectory(prefix="tcpsim-startup-") as store:
            env = os.environ | {"TCPSIM_STORE": store}
            times = (_timed(command, env), _timed(command, env))
        if repetition > 0:
            first.append(times[0])
            repeat.append(times[1])
    return {
        "name": "startup",
        "command": f"tcpsim run {os.path.basename(path)} --json",
        "runs": runs,
        "first_run_s": _spread(first),
        "repeat_run_s": _spread(repeat),
    }


def _timed(command: list[str], env: dict[str, str]) -> float:
    """Wall seconds of one process running `command`, its output discarded."""
    started = time.perf_counter()
    done = subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=False)
    elapsed = time.perf_counter() - started
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed (exit {done.returncode}): {done.stderr.strip()}")
    return elapsed


def _spread(values: list[float]) -> dict[str, float]:
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}
