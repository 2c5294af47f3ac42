"""The store's catalog: one SQLite database (``catalog.sqlite``) with a row per stored run.

SQLite in WAL mode lets readers and writers in several processes share it, and a transaction
either happened or did not, whatever point a process is killed at. Writers take the write lock
up front (``BEGIN IMMEDIATE``) and wait up to ``BUSY_TIMEOUT_S`` for one another. The tables are
described in docs/store.md; :data:`SCHEMA` is their definition.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from tcpsim.store.key import SCHEMA_VERSION

CATALOG = "catalog.sqlite"
BUSY_TIMEOUT_S = 120.0
"""How long a process waits for another one's write to finish: commits take milliseconds, so
this is only reached when a process hangs while holding the lock."""

SCHEMA = """
CREATE TABLE IF NOT EXISTS store (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS scenarios (
    hash TEXT PRIMARY KEY,
    canonical TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS runs (
    key TEXT PRIMARY KEY,
    scenario_hash TEXT NOT NULL,
    seed TEXT NOT NULL,
    tcpsim_version TEXT NOT NULL,
    engine_source TEXT NOT NULL,
    git_commit TEXT,
    status TEXT NOT NULL CHECK (status IN ('ok', 'failed')),
    error TEXT,
    wall_s REAL,
    events INTEGER,
    meta TEXT,
    data_dir TEXT,
    files TEXT,
    bytes INTEGER NOT NULL DEFAULT 0,
    created TEXT NOT NULL,
    used TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS runs_by_use ON runs (used);
CREATE INDEX IF NOT EXISTS runs_by_scenario ON runs (scenario_hash);
"""

RUN_COLUMNS = (
    "key",
    "scenario_hash",
    "seed",
    "tcpsim_version",
    "engine_source",
    "git_commit",
    "status",
    "error",
    "wall_s",
    "events",
    "meta",
    "data_dir",
    "files",
    "bytes",
    "created",
    "used",
)


class CatalogError(Exception):
    """The catalog cannot be opened or used (not a database, another schema, no permission)."""


def now() -> str:
    """UTC time as ISO 8601 with microseconds: sorts as text, reads as a date."""
    return datetime.now(UTC).isoformat(timespec="microseconds")


class Catalog:
    def __init__(self, root: Path):
        self.path = root / CATALOG
        try:
            self.db = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_S, isolation_level=None)
            self.db.row_factory = sqlite3.Row
            self._set_wal()
            # NORMAL in WAL mode: a commit survives any process crash; after a power loss the
            # last commits may be lost, never half-applied (their runs are then recomputed).
            self.db.execute("PRAGMA synchronous=NORMAL")
            with self.write():
                for statement in filter(str.strip, SCHEMA.split(";")):
                    self.db.execute(statement)
                self.db.execute(
                    "INSERT OR IGNORE INTO store (name, value) VALUES ('schema', ?)", (str(SCHEMA_VERSION),)
                )
            found = self.db.execute("SELECT value FROM store WHERE name = 'schema'").fetchone()[0]
        except sqlite3.Error as error:
            raise CatalogError(f"{self.path}: {error}") from None
        if found != str(SCHEMA_VERSION):
            raise CatalogError(
                f"{self.path}: the store has schema version {found}, this tcpsim reads version {SCHEMA_VERSION}; "
                "use another store directory (--store DIR)"
            )

    def _set_wal(self) -> None:
        """Switch to WAL; the switch needs a moment alone with the file, which another process
        opening the store at the same instant can deny, so retry."""
        deadline = time.monotonic() + BUSY_TIMEOUT_S
        while True:
            try:
                mode = self.db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
                break
            except sqlite3.OperationalError as error:
                if "locked" not in str(error) or time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
        if mode.lower() != "wal":
            raise sqlite3.OperationalError(f"the file system does not support WAL mode (got {mode!r})")

    def close(self) -> None:
        self.db.close()

    @contextmanager
    def write(self) -> Iterator[None]:
        """A write transaction, holding the write lock from its start."""
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    def get(self, key: str) -> dict[str, Any] | None:
        row = self.db.execute("SELECT * FROM runs WHERE key = ?", (key,)).fetchone()
        return None if row is None else _typed(row)

    def has_scenario(self, scenario_hash: str) -> bool:
        return self.db.execute("SELECT 1 FROM scenarios WHERE hash = ?", (scenario_hash,)).fetchone() is not None

    def add(self, row: dict[str, Any], scenario: str | None) -> bool:
        """Insert a run's row (and its scenario, unless already known) in one transaction.
        A finished run's row is never replaced: if one exists for the key (another process
        stored the same run first), nothing changes and False is returned. A failure's row is
        replaced by a newer failure or by a finished run."""
        columns = ", ".join(RUN_COLUMNS)
        marks = ", ".join(f":{c}" for c in RUN_COLUMNS)
        updates = ", ".join(f"{c} = excluded.{c}" for c in RUN_COLUMNS if c != "key")
        with self.write():
            if scenario is not None:
                self.db.execute(
                    "INSERT OR IGNORE INTO scenarios (hash, canonical) VALUES (?, ?)", (row["scenario_hash"], scenario)
                )
            cursor = self.db.execute(
                f"INSERT INTO runs ({columns}) VALUES ({marks}) "
                f"ON CONFLICT (key) DO UPDATE SET {updates} WHERE runs.status = 'failed'",
                row,
            )
            return cursor.rowcount == 1

    def forget(self, key: str, data_dir: str | None) -> None:
        """Delete the row of ``key`` if it still points at ``data_dir`` (the damaged entry just
        read, not one another process has written since)."""
        with self.write():
            self.db.execute("DELETE FROM runs WHERE key = ? AND data_dir IS ?", (key, data_dir))

    def touch(self, keys: Iterable[str]) -> None:
        """Mark runs as just used (gc evicts the least recently used first)."""
        keys = list(keys)
        stamp = now()
        with self.write():
            for start in range(0, len(keys), 500):  # SQLite's limit on bound parameters
                chunk = keys[start : start + 500]
                marks = ", ".join("?" * len(chunk))
                self.db.execute(f"UPDATE runs SET used = ? WHERE key IN ({marks})", (stamp, *chunk))

    def runs(self, where: str = "", params: tuple[Any, ...] = ()) -> list[dict[str, Any]]:
        """Rows of ``runs`` (oldest first), optionally filtered by a WHERE clause."""
        return [_typed(row) for row in self.db.execute(f"SELECT * FROM runs {where} ORDER BY created, key", params)]

    def scenario(self, scenario_hash: str) -> str | None:
        row = self.db.execute("SELECT canonical FROM scenarios WHERE hash = ?", (scenario_hash,)).fetchone()
        return None if row is None else row[0]


_NUMBERS = {"wall_s": (int, float), "events": (int,), "bytes": (int,)}
"""Columns that hold numbers; a store handed over may hold anything in them."""


def _typed(row: sqlite3.Row) -> dict[str, Any]:
    """A row as a dict whose columns have the types the code reads them as: a number column
    holding text is None, a text column holding bytes is decoded (lossily). A damaged row is
    then listed and shown as it is, and its entry recomputed, instead of failing the command."""
    typed = dict(row)
    for column, value in typed.items():
        if isinstance(value, bytes):
            typed[column] = value.decode("utf-8", "replace")
        if column in _NUMBERS and (isinstance(typed[column], bool) or not isinstance(typed[column], _NUMBERS[column])):
            typed[column] = None if column != "bytes" else 0
    return typed


def files_of(row: Mapping[str, Any]) -> dict[str, str]:
    """The row's ``files`` column: data file name → sha256 hex; ValueError if it is not one."""
    files = json.loads(row["files"] or "{}")
    if not isinstance(files, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in files.items()):
        raise ValueError("lists its files as something other than names and checksums")
    return files
