"""The key of a stored run: what was simulated (canonical scenario, seed) and by what engine.

The engine is identified by the digest of the Rust sources it was compiled from (embedded at
build time by crates/tcpsim-py/build.rs), not by the compiled library's bytes: the same sources
built in another directory, or by another build, give the same numbers and reuse every stored
run. tcpsim's version covers the Python side that turns engine output into tables, and the
store's schema version changes whenever the stored layout does.
"""

from __future__ import annotations

import functools
import hashlib

SCHEMA_VERSION = 1
"""Version of the on-disk layout (docs/store.md). A store written by another version is not read."""


@functools.cache
def source_digest() -> str:
    """sha256 hex of the engine's sources the compiled core was built from."""
    from tcpsim import _core

    return _core.source_digest()


@functools.cache
def engine_version() -> str:
    """tcpsim's version, the engine's source digest and the store schema, as one label."""
    from tcpsim import __version__

    return f"tcpsim {__version__}; engine source {source_digest()}; store schema {SCHEMA_VERSION}"


def run_key(scenario_hash: str, seed: int) -> str:
    """sha256 hex over the canonical scenario's hash, the seed and :func:`engine_version`."""
    text = f"{scenario_hash}\n{seed}\n{engine_version()}"
    return hashlib.sha256(text.encode()).hexdigest()
