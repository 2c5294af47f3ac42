"""What a reproduction records about how it was made, so a report can say which code produced
which numbers: tcpsim's version, the git commit of the source tree (when
tcpsim runs from a checkout) and whether that tree had uncommitted changes, the Python and
platform, the command and when it started."""

from __future__ import annotations

import platform
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

PACKAGE_DIR = Path(__file__).resolve().parent.parent


def git_state(package_dir: Path = PACKAGE_DIR) -> tuple[str | None, bool | None]:
    """(commit, dirty) of the checkout tcpsim is imported from, or (None, None) when it is not
    imported from a checkout: an installed wheel inside some other repository (a venv in a
    project) must not report that repository's commit, so the checkout must hold this very
    package at ``python/tcpsim``."""

    def git(*args: str) -> str | None:
        try:
            done = subprocess.run(
                ["git", "-C", str(package_dir), *args], capture_output=True, text=True, timeout=10, check=False
            )
        except (OSError, subprocess.TimeoutExpired):
            return None
        return done.stdout.strip() if done.returncode == 0 else None

    top = git("rev-parse", "--show-toplevel")
    if top is None or (Path(top) / "python" / "tcpsim").resolve() != package_dir:
        return None, None
    commit = git("rev-parse", "HEAD")
    status = git("status", "--porcelain", "--untracked-files=no")
    return commit, None if status is None else bool(status)


def provenance() -> dict[str, Any]:
    """The facts above as a JSON-ready dict (keys: tcpsim, build_commit (the commit the
    compiled core was built from, which a wheel records without a checkout), git_commit, git_dirty,
    python, platform, command, started_at)."""
    from tcpsim import __commit__, __version__

    commit, dirty = git_state()
    return {
        "tcpsim": __version__,
        "build_commit": __commit__,
        "git_commit": commit,
        "git_dirty": dirty,
        "python": platform.python_version(),
        "platform": platform.platform(terse=True),
        "command": " ".join([Path(sys.argv[0]).name, *sys.argv[1:]]) if sys.argv and sys.argv[0] else None,
        "started_at": datetime.now(UTC).isoformat(timespec="seconds"),
    }
