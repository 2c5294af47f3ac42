"""Compiled scenarios kept between runs of `tcpsim run`, so running the same file again skips
loading and validating it (`tcpsim.fast_run`).

Validation costs more than a short run: importing the scenario models and pydantic, then
building them, takes about 0.1 s, while a 600 s lossy-link run takes 0.02 s in the engine. Each
successful `tcpsim run FILE [--set ...]` keeps the compiled scenario (`tcpsim.compiled`), the
warning lines it printed and whether the run was within the scenario's [limits], as one JSON
file in the ``compiled/`` directory of the result store (``$TCPSIM_STORE`` or the per-user
default; `tcpsim store clear` empties it).

An entry is found again only by exactly what made it: its key covers the scenario file's bytes
and absolute path, the current directory (a relative CDF path is read from there), the --set
values in order, tcpsim's version and build commit, and the size and modification time of every
file of the installed package (an edited source misses every entry). The other files the
scenario read (web generators' CDF files) are checked by content when the entry is used.
Anything unreadable, stale or malformed is a miss, never an error: the cache only saves time.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tcpsim import __commit__, __version__
from tcpsim.compiled import CompiledScenario

FORMAT = 1
"""Version of an entry's layout; entries of another are misses."""
CACHE_DIR = "compiled"
"""The cache's directory inside the result store."""
MAX_ENTRIES = 256
"""Entries kept; past this, the least recently written go first."""
MAX_ENTRY_BYTES = 4 << 20
"""Larger compiled scenarios (tens of thousands of flows) are not kept: their runs dwarf validation."""


@dataclass(frozen=True)
class CachedScenario:
    """A compiled scenario with what the run command printed and decided before running it."""

    compiled: CompiledScenario
    warning_lines: list[str]
    """The ``warning: ...`` lines printed before the run, without their newlines."""
    within_limits: bool | None
    """True if the estimated cost was within the scenario's [limits]; None if not checked (--force)."""


def cache_dir() -> str:
    from tcpsim.store.location import store_root

    return os.path.join(store_root(), CACHE_DIR)


def entry_key(file: str, data: bytes, overrides: Sequence[str]) -> str:
    """sha256 hex of what an entry is found by (module doc)."""
    head = json.dumps(
        [FORMAT, __version__, __commit__, _package_fingerprint(), os.path.abspath(file), os.getcwd(), list(overrides)]
    )
    return hashlib.sha256(head.encode() + b"\0" + data).hexdigest()


def lookup(file: str, data: bytes, overrides: Sequence[str]) -> CachedScenario | None:
    """The entry for scenario `file` whose bytes are `data`, run with `overrides`; None on a miss."""
    try:
        with open(os.path.join(cache_dir(), entry_key(file, data, overrides) + ".json"), "rb") as stored:
            entry = json.loads(stored.read())
        if entry["format"] != FORMAT or any(_digest_of(path) != digest for path, digest in entry["inputs"]):
            return None
        return CachedScenario(
            CompiledScenario.from_json(entry["compiled"]), entry["warning_lines"], entry["within_limits"]
        )
    except (OSError, ValueError, KeyError, TypeError):
        return None


def keep(
    file: str,
    data: bytes,
    overrides: Sequence[str],
    cached: CachedScenario,
    input_files: Sequence[str],
) -> None:
    """Store `cached` as the entry of `file` (its bytes `data`) with `overrides`; `input_files` are
    the other files its loading read. Best effort: a store that cannot be written is left alone."""
    if len(cached.compiled.engine_json) > MAX_ENTRY_BYTES:
        return
    entry: dict[str, Any] = {
        "format": FORMAT,
        "compiled": cached.compiled.to_json(),
        "warning_lines": cached.warning_lines,
        "within_limits": cached.within_limits,
        "inputs": [[os.path.abspath(path), _digest_of(path)] for path in input_files],
    }
    try:
        text = json.dumps(entry, allow_nan=False)
    except ValueError:  # a value JSON cannot hold: the scenario is simply not kept
        return
    if len(text) > MAX_ENTRY_BYTES or any(digest is None for _, digest in entry["inputs"]):
        return
    directory = cache_dir()
    try:
        os.makedirs(directory, exist_ok=True)
        # Written whole under a temporary name, then renamed: a reader never sees half an entry.
        # The name is made here as `tempfile.mkstemp` makes one (random, created exclusively,
        # private), without the 3 ms of imports `tempfile` brings to a first run.
        temporary = os.path.join(directory, f".tmp-{os.urandom(8).hex()}.json")
        handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            with os.fdopen(handle, "w") as out:
                out.write(text)
            os.replace(temporary, os.path.join(directory, entry_key(file, data, overrides) + ".json"))
        except BaseException:
            os.unlink(temporary)
            raise
        _trim(directory)
    except OSError:
        return


def _trim(directory: str) -> None:
    """Remove the least recently written entries beyond MAX_ENTRIES."""
    entries = [entry for entry in os.scandir(directory) if entry.name.endswith(".json")]
    if len(entries) <= MAX_ENTRIES:
        return
    entries.sort(key=lambda entry: entry.stat().st_mtime_ns)
    for entry in entries[: len(entries) - MAX_ENTRIES]:
        try:
            os.unlink(entry.path)
        except FileNotFoundError:
            pass


def _digest_of(path: str) -> str | None:
    try:
        with open(path, "rb") as source:
            return hashlib.sha256(source.read()).hexdigest()
    except OSError:
        return None


@functools.cache
def _package_fingerprint() -> str:
    """sha256 hex over the path, size and modification time of every source, data and library
    file of the tcpsim package (a stat of each, about 1 ms)."""
    digest = hashlib.sha256()
    pending = [os.path.dirname(os.path.abspath(__file__))]
    while pending:
        directory = pending.pop()
        for entry in sorted(os.scandir(directory), key=lambda entry: entry.name):
            if entry.is_dir():
                if entry.name != "__pycache__":
                    pending.append(entry.path)
            elif not entry.name.endswith(".pyc"):
                status = entry.stat()
                digest.update(f"{entry.path}\0{status.st_size}\0{status.st_mtime_ns}\n".encode())
    return digest.hexdigest()
