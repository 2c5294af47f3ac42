"""`tcpsim.run`: load a scenario, run it in the Rust core, return a RunResult."""

from __future__ import annotations

import json
import logging
import os
import re
import secrets
import time
import warnings
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from . import __version__, _core
from .limits import ScenarioWarning, check_flow_expansion, check_limits, estimate_cost, run_warnings
from .result import RunResult, build_result
from .scenario import Scenario, load_scenario

log = logging.getLogger(__name__)


class SimulationError(RuntimeError):
    """The engine refused a scenario that passed validation, or broke an invariant."""


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
    for path, message in run_warnings(sc, canonical):
        warnings.warn(f"{path}: {message}", ScenarioWarning, stacklevel=2)
    # One JSON text is both the engine's input and the hash's (key order means nothing to the engine).
    engine_json = sc.to_engine_json(canonical)
    pcap_paths = None
    taps, captured_nodes = sc.pcap_taps(), sc.pcap_nodes()
    if pcap_dir is not None and (taps or captured_nodes):
        Path(pcap_dir).mkdir(parents=True, exist_ok=True)
        pcap_paths = [str(Path(pcap_dir) / name) for name in pcap_file_names(taps, captured_nodes)]
    # The engine writes captures under temporary names, renamed once the run is done: a full
    # disk, a refused run or a Ctrl-C leaves the previous captures, never half-written ones.
    token = secrets.token_hex(4)
    partial = [str(Path(p).with_name(f".tmp-{token}-{Path(p).name}")) for p in pcap_paths or ()]
    started = time.perf_counter()
    log.info("engine started: seed %d, scenario %s", seed, sc.name or "(unnamed)")
    try:
        summary_json, raw_traces, raw_transfers = _core.run(engine_json, seed, partial or None)
        for temporary, path in zip(partial, pcap_paths or (), strict=True):
            os.replace(temporary, path)
    except MemoryError:
        # A forced run whose traces or transfers do not fit in memory when handed to Python.
        raise SimulationError(
            "the run's results (traces, transfers) do not fit in memory; record less "
            "(a longer trace.interval, fewer traces, a shorter run) or lower limits.max_trace_rows"
        ) from None
    except ValueError as e:
        message = str(e)
        for temporary, path in zip(partial, pcap_paths or (), strict=True):
            message = message.replace(temporary, path)
        raise SimulationError(message) from None
    finally:
        for temporary in partial:
            Path(temporary).unlink(missing_ok=True)
    wall_s = time.perf_counter() - started
    summary = json.loads(summary_json)
    sim_s = summary["sim_ns"] / 1e9
    meta = {
        "seed": seed,
        "version": __version__,
        "engine_version": _core.ENGINE_VERSION,
        "build_commit": _core.BUILD_COMMIT,
        "scenario_hash": sc.hash(engine_json),
        "events": summary["events"],
        "wall_s": wall_s,
        "sim_s": sim_s,
        "window_s": summary["window_ns"] / 1e9,
        # How the per-class table reads routes (`tcpsim.metrics.class_rows`).
        "routing": canonical.get("routing", {"mode": "shortest"})["mode"],
        "events_per_s": summary["events"] / wall_s if wall_s > 0 else None,
        "sim_s_per_wall_s": sim_s / wall_s if wall_s > 0 else None,
        "packets": {
            "created": summary["packets_created"],
            "delivered": summary["packets_delivered"],
            "dropped": summary["packets_dropped"],
            "in_network": summary["packets_in_network"],
            # Of the delivered: packets of finished web connections, discarded on arrival.
            "stale": summary["packets_stale"],
        },
    }
    if pcap_paths is not None:
        meta["pcap"] = pcap_paths
    flow_table = sc.flow_table()
    variants, classes = [row.variant for row in flow_table], [row.class_ for row in flow_table]
    web_variants = [row.variant for row in sc.web_table()]
    result = build_result(summary, raw_traces, canonical, variants, classes, meta, raw_transfers, web_variants)
    if result.meta.get("trace_truncated"):
        warnings.warn(truncation_warning(result.meta, sc.limits.max_trace_rows), ScenarioWarning, stacklevel=2)
    return result


def truncation_warning(meta: Mapping[str, Any], max_rows: int) -> str:
    """What to tell a user whose traces stopped at the row cap."""
    return (
        f"limits.max_trace_rows: the traces stopped at {max_rows} rows, "
        f"{meta['trace_truncated_at_s']:.6g} s into the run; raise limits.max_trace_rows or the trace interval "
        "to record all of it"
    )


def pcap_file_names(taps: list[tuple[int, str, str]], nodes: list[tuple[int, str]] | None = None) -> list[str]:
    """File names of captures, the link directions' (link index, link name, direction) then the
    nodes' (node index, name): ``LINK-DIR.pcap`` and ``NODE.pcap``, each name's characters other
    than letters, digits, ``.``, ``_`` and ``-`` replaced by ``_``; a link's index is added when
    two link names would read the same, a node's index when its file would be another's."""
    safe = {link: _file_safe(name) for link, name, _ in taps}
    taken = Counter(safe.values())
    names = [
        f"{safe[link]}{'' if taken[safe[link]] == 1 else f'-{link}'}-{direction}.pcap" for link, _, direction in taps
    ]
    nodes = nodes or []
    node_names = [f"{_file_safe(name)}.pcap" for _, name in nodes]
    clash = Counter([*names, *node_names])
    for position, (node, name) in enumerate(nodes):
        if clash[node_names[position]] > 1:
            node_names[position] = f"{_file_safe(name)}-node{node}.pcap"
    return [*names, *node_names]


def _file_safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]", "_", name)
