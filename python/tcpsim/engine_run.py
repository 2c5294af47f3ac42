"""One run of a compiled scenario in the Rust core: the engine call, its captures and the
RunResult built from its output. `tcpsim.run` validates and compiles first; `tcpsim run`
may take the compiled scenario from its cache (`tcpsim.scenario_cache`)."""

from __future__ import annotations

import json
import os
import re
import secrets
import sys
import time
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from tcpsim import __version__, _core
from tcpsim.compiled import CompiledScenario
from tcpsim.gc_paused import gc_paused
from tcpsim.result import RunResult, build_result


class SimulationError(RuntimeError):
    """The engine refused a scenario that passed validation, or broke an invariant."""


def run_compiled(compiled: CompiledScenario, seed: int, pcap_dir: str | Path | None = None) -> RunResult:
    """Run `compiled` with `seed` (an integer in [0, 2^64), already checked).

    The packet captures the scenario asks for are written into ``pcap_dir`` (created if
    needed), listed in ``meta["pcap"]``; without ``pcap_dir`` nothing is captured."""
    pcap_paths = None
    taps, captured_nodes = compiled.pcap_taps, compiled.pcap_nodes
    if pcap_dir is not None and (taps or captured_nodes):
        Path(pcap_dir).mkdir(parents=True, exist_ok=True)
        pcap_paths = [str(Path(pcap_dir) / name) for name in pcap_file_names(taps, captured_nodes)]
    # The engine writes captures under temporary names, renamed once the run is done: a full
    # disk, a refused run or a Ctrl-C leaves the previous captures, never half-written ones.
    token = secrets.token_hex(4)
    partial = [str(Path(p).with_name(f".tmp-{token}-{Path(p).name}")) for p in pcap_paths or ()]
    started = time.perf_counter()
    _log_start(seed, compiled.name)
    try:
        summary_json, raw_traces, raw_transfers = _core.run(compiled.engine_json, seed, partial or None)
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
    return _result(compiled, seed, wall_s, summary_json, raw_traces, raw_transfers, pcap_paths)


@gc_paused
def _result(
    compiled: CompiledScenario,
    seed: int,
    wall_s: float,
    summary_json: str,
    raw_traces: dict[str, Any],
    raw_transfers: dict[str, Any] | None,
    pcap_paths: list[str] | None,
) -> RunResult:
    """The RunResult of an engine run of `compiled` that took `wall_s` (the collector paused
    while it is built, not while the engine runs: other threads may run meanwhile)."""
    summary = json.loads(summary_json)
    sim_s = summary["sim_ns"] / 1e9
    meta = {
        "seed": seed,
        "version": __version__,
        "engine_version": _core.ENGINE_VERSION,
        "build_commit": _core.BUILD_COMMIT,
        "scenario_hash": compiled.scenario_hash,
        "events": summary["events"],
        "wall_s": wall_s,
        "sim_s": sim_s,
        "window_s": summary["window_ns"] / 1e9,
        # How the per-class table reads routes (`tcpsim.metrics.class_rows`).
        "routing": compiled.canonical.get("routing", {"mode": "shortest"})["mode"],
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
    return build_result(
        summary,
        raw_traces,
        compiled.canonical,
        compiled.flow_variants,
        compiled.flow_classes,
        meta,
        raw_transfers,
        compiled.web_variants,
    )


def _log_start(seed: int, name: str | None) -> None:
    """Log the run's start for --verbose (`tcpsim.progress`). Only a process that has loaded
    `logging` can have set it up to show this: one that has not (the console script's fast
    path) skips the record and the 2 ms of importing `logging`."""
    logging = sys.modules.get("logging")
    if logging is not None:
        logging.getLogger(__name__).info("engine started: seed %d, scenario %s", seed, name or "(unnamed)")


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
