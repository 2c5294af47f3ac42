"""The on-disk cache of finished runs: one data file per run, never code.

An entry is a zip archive (stored, not compressed) at ``<root>/<key[:2]>/<key>.zip``, where
``key`` is the run's cache key (sha256 hex, see ``tcpsim.runner.run_digest``). Members:

- ``summary.json``: ``meta`` (the RunResult's dict) and the tables ``flows``, ``links``,
  ``udp``, ``web`` and ``transfers``, each as ``{"columns": [...], "dtypes": [...], "data": [[column values], ...]}``
  (pandas dtype names; floats written exactly, NaN as ``NaN``, as Python's json module does);
- ``trace_<kind>.parquet``: one per recorded time series (cwnd, rtt, queue, throughput);
- ``manifest.json``: ``{"format": "tcpsim-run/1", "key": <key>, "files": {member: sha256}}``.

Reading one never unpickles or evaluates anything. An entry whose manifest names another key
(a file copied over another), whose checksums do not match (truncated or altered), or that
cannot be read as this layout is reported on stderr as a ``warning:`` line and treated as
missing, so the run is recomputed and the entry rewritten. Entries are written atomically
(temporary file, then rename), so readers never see half an entry.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import sys
import tempfile
import zipfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd

    from tcpsim.result import RunResult

FORMAT = "tcpsim-run/1"
MANIFEST = "manifest.json"
SUMMARY = "summary.json"
TABLES = ("flows", "links", "udp", "web", "transfers")


class BadEntry(Exception):
    """An entry that is not a readable cache entry for the key asked for."""


def warn(message: str) -> None:
    """One ``warning:`` line on stderr (looked up per call, so rich's progress bar shows it)."""
    print(f"warning: {message}", file=sys.stderr)


def entry_path(root: Path, key: str) -> Path:
    # Two-level fan-out keeps directories small for sweeps of tens of thousands of runs.
    return root / key[:2] / f"{key}.zip"


def load(path: Path, key: str) -> RunResult | None:
    """The result stored at ``path`` for ``key``; None (after a warning if something was
    there) when it must be computed."""
    if path.is_dir():
        warn(f"cache entry {path} is a directory, not a file; recomputing the run")
        return None
    if not path.exists():
        return None
    try:
        return _read(path, key)
    except BadEntry as error:
        warn(f"cache entry {path} {error}; recomputing the run")
    except Exception as error:  # noqa: BLE001 - any damage to an entry means: recompute it
        warn(f"cache entry {path} is unreadable ({type(error).__name__}: {error}); recomputing the run")
    return None


def store(path: Path, key: str, result: RunResult) -> bool:
    """Write ``result`` as the entry for ``key``; on failure warn and return False (the run's
    result is still good, it is just not kept)."""
    try:
        data = _encode(key, result)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as file:
                file.write(data)
                file.flush()
                os.fsync(file.fileno())
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError as error:
        reason = "it is a directory" if path.is_dir() else error.strerror or str(error)
        warn(f"cannot write cache entry {path}: {reason}; the result is not cached")
        return False
    return True


def writable_root(root: Path) -> bool:
    """Create the cache directory if needed; False (after a warning) if it cannot hold entries."""
    try:
        root.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        warn(f"cache directory {root} cannot be created ({error.strerror or error}); results are not cached")
        return False
    if not os.access(root, os.W_OK | os.X_OK):
        warn(f"cache directory {root} is not writable; results are not cached")
        return False
    return True


def _encode(key: str, result: RunResult) -> bytes:
    summary = {"meta": result.meta} | {name: _table(getattr(result, name)) for name in TABLES}
    members = {SUMMARY: json.dumps(summary).encode()}
    for kind, df in result.traces.items():
        buffer = io.BytesIO()
        df.to_parquet(buffer, index=False)
        members[f"trace_{kind}.parquet"] = buffer.getvalue()
    manifest = {"format": FORMAT, "key": key, "files": {name: _sha256(data) for name, data in members.items()}}
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as archive:
        archive.writestr(MANIFEST, json.dumps(manifest, indent=1))
        for name, data in members.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def _read(path: Path, key: str) -> RunResult:
    import pandas as pd

    from tcpsim.result import TRACE_KINDS, RunResult

    if not zipfile.is_zipfile(path):
        raise BadEntry("is not a tcpsim cache entry (not a zip archive: truncated, or another format)")
    with zipfile.ZipFile(path) as archive:
        manifest = json.loads(archive.read(MANIFEST))
        if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
            raise BadEntry(f"is not in the format {FORMAT}")
        if manifest.get("key") != key:
            raise BadEntry(f"holds the run {str(manifest.get('key'))[:16]}…, not this one (copied from another entry?)")
        files = manifest.get("files")
        if not isinstance(files, dict) or SUMMARY not in files:
            raise BadEntry("has no list of members")
        members = {}
        for name, checksum in files.items():
            data = archive.read(name)
            if _sha256(data) != checksum:
                raise BadEntry(f"member {name} does not match its checksum")
            members[name] = data
    summary = json.loads(members.pop(SUMMARY))
    if not isinstance(summary.get("meta"), dict):
        raise BadEntry("has no run metadata")
    traces = {}
    for name, data in members.items():
        kind = name.removeprefix("trace_").removesuffix(".parquet")
        if kind not in TRACE_KINDS or name != f"trace_{kind}.parquet":
            raise BadEntry(f"has an unknown member {name}")
        traces[kind] = pd.read_parquet(io.BytesIO(data))
    tables = {name: _frame(summary[name], name) for name in TABLES}
    return RunResult(meta=summary["meta"], traces=traces, **tables)


def _table(df: pd.DataFrame) -> dict[str, Any]:
    return {
        "columns": [str(column) for column in df.columns],
        "dtypes": [str(dtype) for dtype in df.dtypes],
        "data": [df[column].tolist() for column in df.columns],
    }


def _frame(table: Any, name: str) -> pd.DataFrame:
    import pandas as pd

    try:
        columns, dtypes, data = table["columns"], table["dtypes"], table["data"]
        if not len(columns) == len(dtypes) == len(data) or len({len(values) for values in data}) > 1:
            raise BadEntry(f"has a malformed table {name!r}")
        if not columns:
            return pd.DataFrame()  # as the engine's empty list of UDP sources becomes
        return pd.DataFrame(
            {column: pd.Series(values, dtype=dtype) for column, dtype, values in zip(columns, dtypes, data)},
            columns=columns,
        )
    except (KeyError, TypeError) as error:
        raise BadEntry(f"has a malformed table {name!r}") from error


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()
