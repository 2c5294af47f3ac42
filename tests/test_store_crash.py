"""kill -9 a sweep at random points, several times, then finish it: nothing finished is lost or
recomputed, no run is stored twice, and the results equal an uninterrupted sweep's (issue 17)."""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from tcpsim.store.catalog import CATALOG

ROOT = Path(__file__).resolve().parents[1]
SWEEP = [
    sys.executable,
    "-c",
    "from tcpsim.cli import main; main()",
    "sweep",
    str(ROOT / "scenarios/lossy_link.toml"),
    "--grid",
    "links[1].loss[0].p=0.001,0.01",
    "--grid",
    "duration=8000s,12000s",  # runs of 0.3-0.5 s: long enough to kill a sweep mid-way
    "--seeds",
    "3",
    "--jobs",
    "2",
    "--json",
]
RUNS = 12
KILLS = 4


def _start(store: Path) -> subprocess.Popen[str]:
    env = dict(os.environ, TCPSIM_STORE=str(store))
    return subprocess.Popen(
        SWEEP, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True
    )


def _finish(store: Path) -> tuple[list[dict], str]:
    process = _start(store)
    stdout, stderr = process.communicate(timeout=600)
    assert process.returncode == 0, stderr
    return json.loads(stdout), stderr


def _stored(store: Path) -> dict[str, str]:
    """key → created of every finished run; also checks the catalog's integrity."""
    if not (store / CATALOG).exists():
        return {}
    with sqlite3.connect(store / CATALOG, timeout=60) as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        if db.execute("SELECT 1 FROM sqlite_master WHERE name = 'runs'").fetchone() is None:
            return {}  # the sweep has created the file and not yet committed its tables
        return dict(db.execute("SELECT key, created FROM runs WHERE status = 'ok'").fetchall())


def test_a_sweep_killed_at_random_points_resumes_without_loss_duplicates_or_recomputation(tmp_path):
    reference, _ = _finish(tmp_path / "reference")
    store = tmp_path / "store"
    rng = random.Random(os.environ.get("TCPSIM_TEST_SEED", "17"))
    before: dict[str, str] = {}
    kills = 0
    while kills < KILLS and len(before) < RUNS:
        process = _start(store)
        deadline = time.monotonic() + 120
        # Kill only once this attempt has stored a run of its own (so every attempt makes
        # progress), then after a random delay: mid-run, mid-write or mid-commit.
        while len(_stored(store)) <= len(before) and process.poll() is None:
            assert time.monotonic() < deadline, "the sweep stored nothing"
            time.sleep(0.02)
        time.sleep(rng.uniform(0.0, 0.5))
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        kills += process.returncode == -signal.SIGKILL
        after = _stored(store)
        assert before.items() <= after.items(), "a finished run was lost or rewritten"
        before = after
        print(f"kill {kills}: {len(after)} runs stored")
    assert kills >= 2, "the sweep finished before it could be killed twice: make the runs longer"

    results, stderr = _finish(store)
    final = _stored(store)
    assert before.items() <= final.items(), "a finished run was recomputed"
    assert len(final) == RUNS  # each run once: the key is the catalog's primary key
    assert "warning" not in stderr  # nothing damaged was found
    assert results == reference
    data_dirs = [d for d in (store / "runs").glob("*/*") if d.is_dir()]
    assert RUNS <= len(data_dirs) <= RUNS + kills  # at most one write in flight per kill
