"""A run's store key follows the engine's *sources*, not the compiled library: the same sources
built elsewhere reuse a warm store (issue 17: 0 recomputed runs after a rebuild in another
directory), and any change to the sources, the seed or the scenario gives another key."""

import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import tcpsim
from tcpsim import _core
from tcpsim.store import key as store_key
from tcpsim.store.catalog import CATALOG

ROOT = Path(__file__).resolve().parents[1]
SOURCES = (
    "Cargo.toml",
    "Cargo.lock",
    "crates/tcpsim-core/Cargo.toml",
    "crates/tcpsim-core/src",
    "crates/tcpsim-py/Cargo.toml",
    "crates/tcpsim-py/src",
)


def digest_of_sources(root: Path) -> str:
    """The digest crates/tcpsim-py/build.rs embeds, computed from the tree at ``root``."""
    files = []
    for source in SOURCES:
        path = root / source
        files += sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
    lines = sorted(f"{hashlib.sha256(f.read_bytes()).hexdigest()}  {f.relative_to(root).as_posix()}\n" for f in files)
    lines.sort(key=lambda line: line[66:])
    return hashlib.sha256("".join(lines).encode()).hexdigest()


def test_the_embedded_digest_is_that_of_the_sources_in_any_directory(tmp_path):
    assert _core.source_digest() == digest_of_sources(ROOT), "the compiled core is stale: run ./scripts/setup.sh"
    copy = tmp_path / "elsewhere"
    for source in SOURCES:
        target = copy / source
        target.parent.mkdir(parents=True, exist_ok=True)
        (shutil.copytree if (ROOT / source).is_dir() else shutil.copy)(ROOT / source, target)
    assert digest_of_sources(copy) == _core.source_digest()  # paths are relative: the place does not count
    (copy / "crates/tcpsim-core/src/lib.rs").write_text((copy / "crates/tcpsim-core/src/lib.rs").read_text() + "\n")
    assert digest_of_sources(copy) != _core.source_digest()  # any edit does


def test_the_key_covers_scenario_seed_and_engine_sources(monkeypatch):
    base = store_key.run_key("a" * 64, 1)
    assert store_key.run_key("b" * 64, 1) != base and store_key.run_key("a" * 64, 2) != base
    assert _core.source_digest() in store_key.engine_version()
    assert f"store schema {store_key.SCHEMA_VERSION}" in store_key.engine_version()
    monkeypatch.setattr(store_key, "engine_version", lambda: "tcpsim 0; engine source other; store schema 1")
    assert store_key.run_key("a" * 64, 1) != base


SWEEP = [
    "sweep",
    str(ROOT / "scenarios/lossy_link.toml"),
    "--grid",
    "links[1].loss[0].p=0.001,0.01",
    "--seeds",
    "2",
    "--grid",
    "duration=3s",
    "--jobs",
    "1",
    "--json",
]


def _sweep(python_path: Path, store: Path, cwd: Path) -> list[dict]:
    env = dict(os.environ, PYTHONPATH=str(python_path), TCPSIM_STORE=str(store))
    done = subprocess.run(
        [sys.executable, "-c", "from tcpsim.cli import main; main()", *SWEEP],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def _created(store: Path) -> dict[str, str]:
    with sqlite3.connect(store / CATALOG) as db:
        return dict(db.execute("SELECT key, created FROM runs WHERE status = 'ok'").fetchall())


def test_another_build_of_the_same_sources_elsewhere_reuses_the_whole_store(tmp_path):
    """A copy of the installed package in another directory whose compiled core has other bytes
    (as a rebuild gives: another path, other timestamps and build ids), loaded by a process in
    yet another working directory, finds every run of a warm store and computes none."""
    package = Path(tcpsim.__file__).parent
    store = tmp_path / "store"
    first = _sweep(package.parent, store, tmp_path)
    warm = _created(store)
    assert len(warm) == 4

    rebuilt = tmp_path / "rebuilt" / "tcpsim"
    shutil.copytree(package, rebuilt, ignore=shutil.ignore_patterns("__pycache__"))
    (core,) = rebuilt.glob("_core*.so") or rebuilt.glob("_core*.pyd")
    with open(core, "ab") as file:
        file.write(b"\0another build")  # bytes past the end of the ELF image change no code
    original = next(package.glob(core.name))
    assert hashlib.sha256(core.read_bytes()).digest() != hashlib.sha256(original.read_bytes()).digest()
    (tmp_path / "cwd").mkdir()
    env = dict(os.environ, PYTHONPATH=str(rebuilt.parent))
    loaded = subprocess.run(
        [sys.executable, "-c", "import tcpsim._core as c; print(c.__file__)"], env=env, capture_output=True, text=True
    )
    assert Path(loaded.stdout.strip()) == core  # the other build is the one that runs
    again = _sweep(rebuilt.parent, store, tmp_path / "cwd")
    assert _created(store) == warm  # 0 runs recomputed, none added
    assert again == first
