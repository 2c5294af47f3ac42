"""The result store: finished runs kept as data (catalog row + Parquet files), found by key.

A run is saved data first, catalog row second: a crash between the two leaves a directory no
row names (``tcpsim store gc`` removes it), never a row without its data. A row whose files are
missing or damaged is reported as a ``warning:`` line, forgotten, and its run recomputed.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from tcpsim.store import datafiles
from tcpsim.store.catalog import Catalog, CatalogError, files_of, now
from tcpsim.store.key import source_digest
from tcpsim.store.provenance import git_commit

if TYPE_CHECKING:
    import pyarrow as pa

    from tcpsim.result import RunResult


class StoreUnavailable(Exception):
    """The store directory cannot be created, opened or written."""


T = TypeVar("T")


def warn(message: str) -> None:
    """One ``warning:`` line on stderr (looked up per call, so a progress bar shows it)."""
    print(f"warning: {message}", file=sys.stderr)


class Store:
    def __init__(self, root: Path):
        """Open (creating if needed) the store at ``root``; raises :class:`StoreUnavailable`,
        also when pyarrow (the ``parquet`` extra, in which runs are kept) is not installed."""
        from tcpsim.extras import MissingExtra, require

        try:
            require("pyarrow", purpose="the result store")
        except MissingExtra as error:
            raise StoreUnavailable(str(error)) from None
        self.root = root
        try:
            root.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise StoreUnavailable(f"store directory {root} cannot be created ({error.strerror or error})") from None
        if not os.access(root, os.W_OK | os.X_OK):
            raise StoreUnavailable(f"store directory {root} is not writable")
        try:
            self.catalog = Catalog(root)
        except CatalogError as error:
            raise StoreUnavailable(f"store catalog {error}") from None

    def close(self) -> None:
        self.catalog.close()

    def load(self, key: str, damaged: str = "recomputing the run") -> RunResult | None:
        """The stored result of ``key``, or None when it must be computed (after a warning if
        a damaged entry was found, which is then forgotten). ``damaged`` ends that warning:
        what the caller does instead (the runner recomputes; `report` and `store show` do not)."""
        row = self.catalog.get(key)
        if row is None or row["status"] != "ok":
            return None
        meta = row["meta"]
        return self._read(row, damaged, lambda directory: datafiles.read(directory, files_of(row), json.loads(meta)))

    def tables(self, row: dict[str, Any], damaged: str = "left out") -> dict[str, pa.Table] | None:
        """The files of the finished run of catalog row ``row`` as Arrow tables by stem (``flows``,
        ``trace_cwnd``; bulk readers such as export skip building a RunResult), or None after
        a warning if the entry is damaged, which is then forgotten as by :meth:`load`."""
        return self._read(row, damaged, lambda directory: datafiles.read_tables(directory, files_of(row)))

    def _read(self, row: dict[str, Any], damaged: str, reader: Callable[[Path], T]) -> T | None:
        directory = None
        try:
            directory = datafiles.entry_directory(self.root, row["data_dir"])
            return reader(directory)
        except (datafiles.BadEntry, ValueError, TypeError) as error:
            where = directory if directory is not None else repr(row["data_dir"])
            warn(f"store entry {row['key'][:16]} ({where}) {error}; forgotten, {damaged}")
        self.catalog.forget(row["key"], row["data_dir"])
        if directory is not None:  # only a folder inside the store is ever deleted
            shutil.rmtree(directory, ignore_errors=True)
        return None

    def save(self, key: str, scenario_hash: str, scenario: Callable[[], str], seed: int, result: RunResult) -> bool:
        """Keep ``result`` as the run ``key``; ``scenario()`` gives the canonical scenario text
        (called only if the catalog does not hold it yet). On failure warn and return False:
        the result is still good, it is just not kept."""
        try:
            data_dir, checksums, size = datafiles.write(self.root, key, result)
        except OSError as error:
            warn(f"cannot write run {key[:16]} into the store {self.root}: {error.strerror or error}; it is not kept")
            return False
        meta = result.meta
        row = self._row(key, scenario_hash, seed, "ok")
        row |= {
            "wall_s": meta.get("wall_s"),
            "events": meta.get("events"),
            "meta": json.dumps(meta),
            "data_dir": data_dir,
            "files": json.dumps(checksums, sort_keys=True),
            "bytes": size,
        }
        try:
            added = self._add(row, scenario)
        except sqlite3.Error as error:
            warn(f"cannot record run {key[:16]} in {self.catalog.path}: {error}; it is not kept")
            added = False
        if not added:  # another process stored this run first (or the catalog failed): ours is spare
            shutil.rmtree(self.root / data_dir, ignore_errors=True)
        return added

    def save_failure(self, key: str, scenario_hash: str, scenario: Callable[[], str], seed: int, error: str) -> None:
        """Record that ``key`` failed (listed by ``tcpsim store ls``, run again next time)."""
        try:
            self._add(self._row(key, scenario_hash, seed, "failed") | {"error": error}, scenario)
        except sqlite3.Error as failure:
            warn(f"cannot record the failed run {key[:16]} in {self.catalog.path}: {failure}")

    def touch(self, keys: list[str]) -> None:
        """Mark loaded runs as used; a store another process holds busy is not worth failing for."""
        try:
            self.catalog.touch(keys)
        except sqlite3.Error as error:
            warn(f"cannot mark runs as used in {self.catalog.path}: {error}")

    def _add(self, row: dict[str, Any], scenario: Callable[[], str]) -> bool:
        known = self.catalog.has_scenario(row["scenario_hash"])
        return self.catalog.add(row, None if known else scenario())

    @staticmethod
    def _row(key: str, scenario_hash: str, seed: int, status: str) -> dict[str, Any]:
        from tcpsim import __version__

        stamp = now()
        return {
            "key": key,
            "scenario_hash": scenario_hash,
            "seed": str(seed),
            "tcpsim_version": __version__,
            "engine_source": source_digest(),
            "git_commit": git_commit(),
            "status": status,
            "error": None,
            "wall_s": None,
            "events": None,
            "meta": None,
            "data_dir": None,
            "files": None,
            "bytes": 0,
            "created": stamp,
            "used": stamp,
        }
