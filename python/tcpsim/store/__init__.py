"""The result store: every finished run kept as data, found again by what was simulated.

A store is a directory: ``catalog.sqlite`` (one row per run: key, seed, versions, wall time,
status...) and ``runs/`` (each run's tables and traces as Parquet files). docs/store.md
documents the format; ``tcpsim store`` lists, shows, exports, trims and clears it.

- ``location``: which directory (``--store``, ``$TCPSIM_STORE``, a per-user default);
- ``key``: a run's key (canonical scenario, seed, engine source digest, schema version);
- ``catalog``: the SQLite catalog; ``datafiles``: a run's Parquet files;
- ``store``: load and save runs; ``maintenance``: info, gc, clear; ``export``: tidy tables.
"""

from typing import Any

# Imported when first used, as `tcpsim`'s own names are: finding the store's directory
# (`location`, which the cache of compiled scenarios asks at every `tcpsim run`) loads neither
# SQLite nor the catalog.
_EXPORTS = {
    "Store": "tcpsim.store.store",
    "StoreUnavailable": "tcpsim.store.store",
    "warn": "tcpsim.store.store",
    "run_key": "tcpsim.store.key",
    "store_root": "tcpsim.store.location",
}

__all__ = ["Store", "StoreUnavailable", "run_key", "store_root", "warn"]


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        import importlib

        return getattr(importlib.import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'tcpsim.store' has no attribute {name!r}")
