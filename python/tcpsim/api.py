"""`tcpsim.run`: load a scenario, check it, compile it and run it in the Rust core (`tcpsim.engine_run`), return a RunResult."""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from tcpsim.compiled import CompiledScenario, compile_scenario
from tcpsim.engine_run import SimulationError, pcap_file_names, run_compiled, truncation_warning
from tcpsim.gc_paused import gc_paused
from tcpsim.limits import ScenarioWarning, check_flow_expansion, check_limits, estimate_cost, run_warnings
from tcpsim.result import RunResult
from tcpsim.scenario import Scenario, load_scenario


def run(
    scenario: str | Path | Mapping[str, Any] | Scenario,
    seed: int = 1,
    force: bool = False,
    pcap_dir: str | Path | None = None,
    **overrides: Any,
) -> RunResult:
    """Run `scenario` (a TOML path, a user-format dict or a loaded Scenario) with `seed`.

    Keyword arguments override scenario fields by dotted path, e.g.
    ``run("s.toml", seed=2, duration="100s", **{"links[0].rate": "5Mbps"})``.
    The same scenario and seed always give identical results.

    The run's cost is estimated first: beyond the scenario's `limits` it raises
    :class:`~tcpsim.limits.RunTooLarge` unless ``force=True``. Scenarios whose numbers would mean
    little (a window of a few round trips) issue a :class:`~tcpsim.limits.ScenarioWarning`.
    Ctrl-C stops the engine within milliseconds with ``KeyboardInterrupt``.

    The packet captures the scenario asks for (`trace.pcap`) are written into ``pcap_dir``
    (created if needed) as ``LINK-ab.pcap`` / ``LINK-ba.pcap``, listed in ``meta["pcap"]``;
    without ``pcap_dir`` nothing is captured.
    """
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**64:
        raise ValueError(f"seed: {seed!r} must be an integer in [0, 2^64)")
    sc, compiled, scenario_warnings = _checked_and_compiled(scenario, force, overrides)
    for path, message in scenario_warnings:
        warnings.warn(f"{path}: {message}", ScenarioWarning, stacklevel=2)
    result = run_compiled(compiled, seed, pcap_dir)
    if result.meta.get("trace_truncated"):
        warnings.warn(truncation_warning(result.meta, sc.limits.max_trace_rows), ScenarioWarning, stacklevel=2)
    return result


@gc_paused
def _checked_and_compiled(
    scenario: str | Path | Mapping[str, Any] | Scenario, force: bool, overrides: dict[str, Any]
) -> tuple[Scenario, CompiledScenario, list[tuple[str, str]]]:
    """`run`'s scenario loaded, checked against its limits (unless `force`) and compiled, with the
    warnings `run` issues (here they would name this module as their origin)."""
    if isinstance(scenario, Scenario):
        if overrides:
            raise ValueError("overrides apply to a path or dict, not to an already loaded Scenario")
        sc = scenario
    else:
        sc = load_scenario(scenario, overrides=overrides)
    if not force:
        check_flow_expansion(sc)
    canonical = sc.to_engine()
    if not force:
        check_limits(sc, estimate_cost(canonical))
    return sc, compile_scenario(sc, canonical), run_warnings(sc, canonical)


__all__ = ["SimulationError", "pcap_file_names", "run", "truncation_warning"]
