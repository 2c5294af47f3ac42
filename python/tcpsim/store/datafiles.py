"""A run's tables and traces as Parquet files in a directory of their own, beside the catalog.

``runs/<key[:2]>/<key>-<nonce>/`` holds ``<table>.parquet`` for each table that has columns
(flows, links, udp, web, transfers; the per-class table is derived from them) and
``trace_<kind>.parquet`` per recorded time series. The directory is written under a temporary
name (``.tmp-…``), then renamed: a directory under its final name is complete. Its catalog row
lists each file's sha256, so damage (truncation, a copy from another run, garbage, or files a
power loss left unwritten behind a committed row) is found when it is read and the run is
recomputed; that check, not an fsync per file, is what makes a stored run trustworthy, and it
spares a sweep a disk flush per file. Reading uses Parquet only: no stored code runs.
"""

from __future__ import annotations

import hashlib
import io
import os
import secrets
import shutil
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pyarrow as pa

    from tcpsim.result import RunResult

RUNS_DIR = "runs"
TEMP_PREFIX = ".tmp-"
TABLES = ("flows", "links", "udp", "web", "transfers")


class BadEntry(Exception):
    """Stored files that are not the run their catalog row describes."""


def run_dir(key: str) -> str:
    """A new directory for ``key``, relative to the store root. The random suffix keeps two
    processes storing the same run from writing into one directory."""
    return f"{RUNS_DIR}/{key[:2]}/{key}-{secrets.token_hex(4)}"


def entry_directory(root: Path, data_dir: object) -> Path:
    """The directory a catalog row names, checked to be a ``runs/<xx>/<name>`` folder inside
    ``root``: a store may come from someone else, and a row naming ``/home`` or ``../..`` must
    never be read, let alone deleted as a damaged entry. Raises :class:`BadEntry` otherwise."""
    if not isinstance(data_dir, str):
        raise BadEntry(f"names no data directory ({data_dir!r})")
    parts = PurePosixPath(data_dir).parts
    if len(parts) != 3 or parts[0] != RUNS_DIR or any(part in ("", ".", "..") for part in parts) or "\\" in data_dir:
        raise BadEntry(f"names a data directory outside the store's {RUNS_DIR}/ ({data_dir!r})")
    directory = root / data_dir
    if not directory.resolve().is_relative_to((root / RUNS_DIR).resolve()):
        raise BadEntry(f"names a data directory that leads outside the store ({data_dir!r})")
    return directory


def write(root: Path, key: str, result: RunResult) -> tuple[str, dict[str, str], int]:
    """Write ``result``'s files; returns the directory (relative to ``root``), the files'
    checksums and their total size. On error nothing is left under the final name."""
    members = _encode(result)
    relative = run_dir(key)
    final = root / relative
    temporary = final.with_name(TEMP_PREFIX + final.name)
    temporary.mkdir(parents=True)
    try:
        for name, data in members.items():
            (temporary / name).write_bytes(data)
        os.replace(temporary, final)
    except BaseException:
        shutil.rmtree(temporary, ignore_errors=True)
        raise
    checksums = {name: hashlib.sha256(data).hexdigest() for name, data in members.items()}
    return relative, checksums, sum(len(data) for data in members.values())


def read(directory: Path, checksums: dict[str, str], meta: dict) -> RunResult:
    """The result stored in ``directory``; raises :class:`BadEntry` if a file is missing, does
    not match its checksum or cannot be read as a table."""
    import pandas as pd

    from tcpsim.result import RunResult

    tables: dict[str, pd.DataFrame] = {name: pd.DataFrame() for name in TABLES}
    traces: dict[str, pd.DataFrame] = {}
    for stem, table in read_tables(directory, checksums).items():
        frame = table.to_pandas()
        if stem in TABLES:
            tables[stem] = frame
        else:
            traces[stem.removeprefix("trace_")] = frame
    return RunResult(meta=meta, traces=traces, **tables)


def read_tables(directory: Path, checksums: dict[str, str]) -> dict[str, pa.Table]:
    """The stored files as Arrow tables by stem (``flows``, ``trace_cwnd``, ...), each checked
    against its checksum; raises :class:`BadEntry` as :func:`read` does."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from tcpsim.result import TRACE_KINDS

    tables = {}
    for name, checksum in checksums.items():
        stem = name.removesuffix(".parquet")
        kind = stem.removeprefix("trace_")
        wanted = stem in TABLES or (stem != kind and kind in TRACE_KINDS)
        if not wanted or not name.endswith(".parquet") or "/" in name or "\\" in name:
            raise BadEntry(f"lists an unknown file {name!r}")
        try:
            data = (directory / name).read_bytes()
        except FileNotFoundError:
            raise BadEntry(f"is missing its file {name}") from None
        except IsADirectoryError:
            raise BadEntry(f"has a directory where its file {name} belongs") from None
        except OSError as error:  # e.g. a file where the runs folder belongs
            raise BadEntry(f"cannot read its file {name} ({error.strerror or error})") from None
        if hashlib.sha256(data).hexdigest() != checksum:
            raise BadEntry(f"file {name} does not match its checksum (truncated, altered or from another run)")
        try:
            # one small file: ParquetFile reads it in a quarter of read_table's time (no dataset set-up)
            tables[stem] = pq.ParquetFile(pa.BufferReader(data)).read(use_threads=False)
        except Exception as error:  # noqa: BLE001 - a file that parses as no table is damage
            raise BadEntry(f"file {name} is not a readable table ({type(error).__name__}: {error})") from None
    return tables


def _encode(result: RunResult) -> dict[str, bytes]:
    frames = {name: getattr(result, name) for name in TABLES}
    frames |= {f"trace_{kind}": df for kind, df in result.traces.items()}
    members = {}
    for stem, df in frames.items():
        if len(df.columns) == 0:
            continue  # e.g. no UDP sources: the loader gives the same empty frame back
        buffer = io.BytesIO()
        df.to_parquet(buffer, index=False)
        members[f"{stem}.parquet"] = buffer.getvalue()
    return members
