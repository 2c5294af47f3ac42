"""Looking after a store: what it holds (info), trimming it (gc), emptying it (clear)."""

from __future__ import annotations

import shutil
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tcpsim.store.catalog import CATALOG
from tcpsim.store.datafiles import RUNS_DIR, BadEntry, entry_directory
from tcpsim.store.key import SCHEMA_VERSION, source_digest
from tcpsim.store.store import Store

ORPHAN_GRACE_S = 3600.0
"""A data directory that no row names is garbage once it is this old: younger, it may belong to a
process between writing its files and committing its row (or still writing them)."""


def catalog_bytes(root: Path) -> int:
    """Size of the catalog with its write-ahead log and shared-memory index."""
    files = (root / f"{CATALOG}{suffix}" for suffix in ("", "-wal", "-shm"))
    return sum(path.stat().st_size for path in files if path.exists())


def info(store: Store) -> dict[str, Any]:
    """Counts and sizes, as shown by ``tcpsim store info``."""
    db = store.catalog.db
    counts = dict(db.execute("SELECT status, count(*) FROM runs GROUP BY status").fetchall())
    data_bytes, oldest, newest = db.execute(
        "SELECT coalesce(sum(bytes), 0), min(created), max(created) FROM runs"
    ).fetchone()
    current = db.execute(
        "SELECT count(*) FROM runs WHERE status = 'ok' AND engine_source = ?", (source_digest(),)
    ).fetchone()[0]
    scenarios = db.execute("SELECT count(*) FROM scenarios").fetchone()[0]
    return {
        "root": str(store.root),
        "schema": SCHEMA_VERSION,
        "engine_source": source_digest(),
        "runs": counts.get("ok", 0),
        "runs_of_this_engine": current,
        "failed": counts.get("failed", 0),
        "scenarios": scenarios,
        "data_bytes": data_bytes,
        "catalog_bytes": catalog_bytes(store.root),
        "oldest": oldest,
        "newest": newest,
    }


@dataclass
class Collected:
    runs: int = 0
    """Finished runs evicted to fit the size limit."""
    failed: int = 0
    """Rows of failed runs dropped."""
    orphans: int = 0
    """Data directories no row named (a crash between writing and recording, or a spare copy)."""
    freed_bytes: int = 0


def gc(store: Store, max_bytes: int | None = None) -> Collected:
    """Drop failed runs' rows and orphaned data, then, with ``max_bytes``, evict the least
    recently used runs until the data and catalog fit in it."""
    done = Collected()
    db = store.catalog.db
    with store.catalog.write():
        done.failed = db.execute("DELETE FROM runs WHERE status = 'failed'").rowcount
    done.orphans, done.freed_bytes = _remove_orphans(store)
    if max_bytes is not None:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # count the catalog as it is, not its log
        total = catalog_bytes(store.root) + db.execute("SELECT coalesce(sum(bytes), 0) FROM runs").fetchone()[0]
        victims = []
        for key, data_dir, size in db.execute("SELECT key, data_dir, bytes FROM runs ORDER BY used, key"):
            if total <= max_bytes:
                break
            victims.append((key, data_dir))
            total -= size
            done.freed_bytes += size
        with store.catalog.write():
            for key, data_dir in victims:
                db.execute("DELETE FROM runs WHERE key = ? AND data_dir IS ?", (key, data_dir))
        for _, data_dir in victims:
            try:
                shutil.rmtree(entry_directory(store.root, data_dir), ignore_errors=True)
            except BadEntry:
                pass  # a row naming no folder of this store: forgotten, nothing deleted
        done.runs = len(victims)
    with store.catalog.write():
        db.execute("DELETE FROM scenarios WHERE hash NOT IN (SELECT scenario_hash FROM runs)")
    db.execute("VACUUM")  # shrinks the database file, through the write-ahead log...
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # ...which this empties
    return done


def _remove_orphans(store: Store) -> tuple[int, int]:
    named = {row[0] for row in store.catalog.db.execute("SELECT data_dir FROM runs WHERE data_dir IS NOT NULL")}
    cutoff = time.time() - ORPHAN_GRACE_S
    count = freed = 0
    for directory in (store.root / RUNS_DIR).glob("*/*"):
        relative = directory.relative_to(store.root).as_posix()
        if relative in named or directory.stat().st_mtime > cutoff:
            continue
        freed += sum(f.stat().st_size for f in directory.rglob("*") if f.is_file())
        shutil.rmtree(directory, ignore_errors=True)
        count += 1
    return count, freed


def clear(store: Store) -> int:
    """Forget every run and delete its data, and the scenarios `tcpsim run` kept compiled
    (`tcpsim.scenario_cache`); returns how many runs were stored. Meant for a store no other
    process is using (a run finishing meanwhile is not kept)."""
    from tcpsim.scenario_cache import CACHE_DIR

    db = store.catalog.db
    with store.catalog.write():
        count = db.execute("DELETE FROM runs").rowcount
        db.execute("DELETE FROM scenarios")
    shutil.rmtree(store.root / RUNS_DIR, ignore_errors=True)
    shutil.rmtree(store.root / CACHE_DIR, ignore_errors=True)
    db.execute("VACUUM")  # shrinks the database file, through the write-ahead log...
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # ...which this empties
    return count
