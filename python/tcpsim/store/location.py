"""Where the result store lives: the directory the user names, else a per-user cache directory.

Results are a campaign's data, so they do not belong in whatever directory a command happened to
run from: ``--store DIR`` (or ``cache_dir=`` in the API), else ``$TCPSIM_STORE``, else the
deprecated ``$TCPSIM_CACHE``, else the platform's per-user cache directory
(``~/.cache/tcpsim/store`` on Linux, via ``platformdirs``).
"""

from __future__ import annotations

import os
from pathlib import Path

STORE_ENV = "TCPSIM_STORE"
LEGACY_ENV = "TCPSIM_CACHE"
"""The variable of the run cache that the store replaced; still honoured when STORE_ENV is unset."""


def default_root() -> Path:
    from platformdirs import user_cache_path

    return user_cache_path("tcpsim", appauthor=False) / "store"


def store_root(explicit: str | os.PathLike[str] | None = None) -> Path:
    """The store directory: ``explicit``, else ``$TCPSIM_STORE``, else ``$TCPSIM_CACHE``, else
    :func:`default_root`. Empty values count as unset."""
    chosen = explicit or os.environ.get(STORE_ENV) or os.environ.get(LEGACY_ENV)
    return Path(chosen).expanduser() if chosen else default_root()
