"""Several processes writing one store at once: every run is stored exactly once, nobody waits
forever or fails on a locked catalog, and nothing is lost or left behind (issue 17)."""

from __future__ import annotations

import json
import multiprocessing
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pandas as pd
from tcpsim.result import RunResult
from tcpsim.store import Store
from tcpsim.store.catalog import CATALOG

ROOT = Path(__file__).resolve().parents[1]
KEYS = [f"{i:02x}" * 32 for i in range(24)]


def _result(i: int) -> RunResult:
    flows = pd.DataFrame({"id": [0], "name": ["a"], "goodput_bps": [float(i)]})
    return RunResult(flows=flows, links=pd.DataFrame({"name": ["l"]}), meta={"seed": i, "wall_s": 0.0})


def _writer(root: str, order: int) -> int:
    """Store every key (in an order of its own) as if each had just been computed; returns how
    many it stored first."""
    store = Store(Path(root))
    keys = list(enumerate(KEYS))
    keys = keys if order == 0 else keys[::-1] if order == 1 else keys[order::2] + keys[:order:2]
    stored = 0
    for i, key in keys:
        if store.load(key) is None:
            stored += store.save(key, f"scenario{i % 3}", lambda i=i: f"scenario {i % 3}", i, _result(i))
    return stored


def test_four_processes_storing_overlapping_runs_store_each_once(tmp_path):
    with multiprocessing.get_context("spawn").Pool(4) as pool:
        counts = pool.starmap(_writer, [(str(tmp_path), order) for order in range(4)])
    assert sum(counts) == len(KEYS)  # whoever lost a race discarded its copy
    store = Store(tmp_path)
    rows = store.catalog.runs()
    assert sorted(row["key"] for row in rows) == sorted(KEYS)
    assert sorted(d.relative_to(tmp_path).as_posix() for d in (tmp_path / "runs").glob("*/*")) == sorted(
        row["data_dir"] for row in rows
    )  # no spare copy or temporary directory left behind
    for i, key in enumerate(KEYS):
        assert store.load(key).flows["goodput_bps"].tolist() == [float(i)]
    assert store.catalog.db.execute("SELECT count(*) FROM scenarios").fetchone()[0] == 3


SWEEP = [
    "sweep",
    str(ROOT / "scenarios/lossy_link.toml"),
    "--grid",
    "duration=200s",
    "--jobs",
    "1",
    "--json",
]


def test_two_sweeps_on_one_store_at_once_agree_with_a_sweep_alone(tmp_path):
    """Two sweeps sharing half their runs, started together: both succeed without warnings, the
    shared runs are stored once, and each sweep's rows equal those of the same sweep run alone."""
    sweeps = {
        "low": [*SWEEP, "--grid", "links[1].loss[0].p=0.001,0.002,0.005", "--seeds", "2"],
        "high": [*SWEEP, "--grid", "links[1].loss[0].p=0.005,0.01,0.02", "--seeds", "2"],
    }

    def start(args: list[str], store: Path) -> subprocess.Popen[str]:
        env = dict(os.environ, TCPSIM_STORE=str(store))
        command = [sys.executable, "-c", "from tcpsim.cli import main; main()", *args]
        return subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    shared = tmp_path / "shared"
    together = {name: start(args, shared) for name, args in sweeps.items()}
    outputs = {name: process.communicate(timeout=600) for name, process in together.items()}
    for name, process in together.items():
        assert process.returncode == 0 and "warning" not in outputs[name][1], outputs[name][1]
    for name, args in sweeps.items():
        alone = start(args, tmp_path / name)
        stdout, stderr = alone.communicate(timeout=600)
        assert alone.returncode == 0, stderr
        assert json.loads(outputs[name][0]) == json.loads(stdout)
    with sqlite3.connect(shared / CATALOG) as db:
        keys = [row[0] for row in db.execute("SELECT key FROM runs WHERE status = 'ok'")]
    assert len(keys) == len(set(keys)) == 5 * 2  # five loss rates, two seeds: p=0.005 once
