"""Where a result came from: tcpsim's version, the engine's and the digest of its sources, the
commit the core was built from, the source commit when tcpsim runs from a git checkout of its own
sources, the interpreter and the command line."""

from __future__ import annotations

import platform
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any


def git_state() -> dict[str, Any] | None:
    """The commit and whether the tree has uncommitted changes, if the imported tcpsim is a
    git checkout of tcpsim itself (an installed wheel is not; nor is a venv that merely sits in
    some other repository)."""
    package = Path(__file__).resolve().parents[1]
    try:
        root = _git(package, "rev-parse", "--show-toplevel")
        if not (Path(root) / "crates" / "tcpsim-core").is_dir():
            return None
        commit = _git(package, "rev-parse", "HEAD")
        dirty = bool(_git(package, "status", "--porcelain", "--untracked-files=no"))
    except (OSError, subprocess.SubprocessError):
        return None
    return {"commit": commit, "dirty": dirty}


def _git(cwd: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, timeout=10, check=True)
    return done.stdout.strip()


def engine_version() -> str | None:
    try:
        from tcpsim import _core
    except ImportError:
        return None
    return getattr(_core, "ENGINE_VERSION", None)


def engine_source() -> str | None:
    """sha256 of the engine sources the compiled core was built from (`tcpsim.store.key`)."""
    try:
        from tcpsim import _core
    except ImportError:
        return None
    return _core.source_digest()


def build_commit() -> str | None:
    """The git commit the compiled core was built from (``tcpsim.__commit__``): what an
    installed wheel records where it has no checkout for :func:`git_state`."""
    try:
        from tcpsim import _core
    except ImportError:
        return None
    return getattr(_core, "BUILD_COMMIT", None)


def provenance(command_line: list[str] | None) -> dict[str, Any]:
    """What identifies the software that produced a result, and how it was asked for."""
    from tcpsim import __version__

    return {
        "tcpsim_version": __version__,
        "engine_version": engine_version(),
        "engine_source": engine_source(),
        "build_commit": build_commit(),
        "git": git_state(),
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "created_utc": datetime.now(UTC).isoformat(timespec="seconds"),
        "command_line": command_line,
    }
