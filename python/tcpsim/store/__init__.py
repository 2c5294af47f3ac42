"""The result store: every finished run kept as data, found again by what was simulated.

A store is a directory: ``catalog.sqlite`` (one row per run: key, seed, versions, wall time,
status...) and ``runs/`` (each run's tables and traces as Parquet files). docs/store.md
documents the format; ``tcpsim store`` lists, shows, exports, trims and clears it.

- ``location``: which directory (``--store``, ``$TCPSIM_STORE``, a per-user default);
- ``key``: a run's key (canonical scenario, seed, engine source digest, schema version);
- ``catalog``: the SQLite catalog; ``datafiles``: a run's Parquet files;
- ``store``: load and save runs; ``maintenance``: info, gc, clear; ``export``: tidy tables.
"""

from tcpsim.store.key import run_key
from tcpsim.store.location import store_root
from tcpsim.store.store import Store, StoreUnavailable, warn

__all__ = ["Store", "StoreUnavailable", "run_key", "store_root", "warn"]
