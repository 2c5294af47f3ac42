"""Where a result came from, recorded beside it: the git commit of the tcpsim checkout that
computed it, when tcpsim runs from one (a plain install has none)."""

from __future__ import annotations

import functools
import subprocess
from pathlib import Path


@functools.cache
def git_commit() -> str | None:
    """``git describe --always --dirty --abbrev=40`` of the tree holding this package: the full
    commit, with ``-dirty`` when files were modified; None outside a git checkout or without git."""
    package = Path(__file__).resolve().parents[1]
    try:
        done = subprocess.run(
            ["git", "-C", str(package), "describe", "--always", "--dirty", "--abbrev=40"],
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    commit = done.stdout.strip()
    return commit if done.returncode == 0 and commit else None
