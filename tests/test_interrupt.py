"""Ctrl-C stops a run, the API and a sweep promptly; a sweep's workers die with their parent.

Each test starts a real `tcpsim` process on a run that would take hours (two 10 Gb/s links,
10^6 simulated seconds), waits until the engine is running, and signals it. The time bound is
generous: it tells "stops at the next check" from "runs on until killed", not speed.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from tcpsim.store.catalog import CATALOG

ROOT = Path(__file__).resolve().parents[1]
TCPSIM = [sys.executable, "-c", "from tcpsim.cli import main; main()"]
HUGE = ["--set", "links[*].rate=10Gbps", "--set", "links[1].loss=[]", "--set", "duration=1e6s", "--force"]
STOP_WITHIN_S = 10.0

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")


def _core_loaded(pid: int) -> bool:
    try:
        return "tcpsim/_core" in Path(f"/proc/{pid}/maps").read_text()
    except OSError:
        return False


def _children(pid: int) -> list[int]:
    children = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            children.append(int(stat.parent.name))
    return children


def _alive(pid: int) -> bool:
    """Running, not a zombie waiting to be reaped."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _wait_until(condition, timeout_s: float = 60.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        assert time.monotonic() < deadline, "the simulation never started"
        time.sleep(0.1)


def _start(args: list[str], tmp_path: Path) -> subprocess.Popen[str]:
    env = dict(os.environ, TCPSIM_STORE=str(tmp_path / "store"))
    # A shell starts background jobs with SIGINT ignored, and an ignored signal stays ignored
    # across exec: give the child the default disposition, as a terminal's foreground job has.
    return subprocess.Popen(
        args,
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )


def _interrupt(process: subprocess.Popen[str]) -> tuple[str, float]:
    process.send_signal(signal.SIGINT)
    started = time.monotonic()
    try:
        _, stderr = process.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        pytest.fail("SIGINT did not stop the process within 60 s")
    return stderr, time.monotonic() - started


def test_ctrl_c_stops_tcpsim_run_with_exit_130(tmp_path: Path) -> None:
    process = _start([*TCPSIM, "run", "scenarios/lossy_link.toml", *HUGE], tmp_path)
    _wait_until(lambda: _core_loaded(process.pid))
    time.sleep(0.5)
    stderr, elapsed = _interrupt(process)
    assert process.returncode == 130, stderr
    assert stderr.strip().splitlines()[-1] == "error: interrupted"
    assert "Traceback" not in stderr
    assert elapsed < STOP_WITHIN_S


def test_ctrl_c_raises_keyboard_interrupt_from_the_api(tmp_path: Path) -> None:
    script = (
        "import tcpsim\n"
        "try:\n"
        "    tcpsim.run('scenarios/lossy_link.toml', force=True, duration='1e6s',\n"
        "               **{'links[*].rate': '10Gbps', 'links[1].loss': []})\n"
        "except KeyboardInterrupt:\n"
        "    print('KeyboardInterrupt')\n"
    )
    process = _start([sys.executable, "-c", script], tmp_path)
    _wait_until(lambda: _core_loaded(process.pid))
    time.sleep(0.5)
    process.send_signal(signal.SIGINT)
    stdout, stderr = process.communicate(timeout=60)
    assert stdout.strip() == "KeyboardInterrupt", stderr
    assert process.returncode == 0


FAST_SCENARIO = """\
[[links]]
a = "source"
b = "router"
rate = "10Gbps"
delay = "45ms"
queue = "1000pkt"

[[links]]
a = "router"
b = "sink"
rate = "10Gbps"
delay = "0.01ms"
queue = "100pkt"

[[flows]]
src = "source"
dst = "sink"
"""


def _sweep(tmp_path: Path, durations: str) -> subprocess.Popen[str]:
    scenario = tmp_path / "fast.toml"
    scenario.write_text('duration = "1s"\n' + FAST_SCENARIO)
    return _start(
        [*TCPSIM, "sweep", str(scenario), "--grid", f"duration={durations}", "--jobs", "2", "--force"], tmp_path
    )


def _stored_runs(root: Path) -> int:
    if not (root / CATALOG).exists():
        return 0
    with sqlite3.connect(root / CATALOG, timeout=10) as db:
        if db.execute("SELECT 1 FROM sqlite_master WHERE name = 'runs'").fetchone() is None:
            return 0  # the file exists, its tables are not committed yet
        return db.execute("SELECT count(*) FROM runs WHERE status = 'ok'").fetchone()[0]


def _workers_running(pid: int) -> list[int]:
    workers = [child for child in _children(pid) if _core_loaded(child)]
    return workers if len(workers) == 2 else []


def test_ctrl_c_stops_a_sweep_kills_its_workers_and_keeps_finished_runs(tmp_path: Path) -> None:
    process = _sweep(tmp_path, "1s,1e6s,2e6s")
    _wait_until(lambda: _workers_running(process.pid))
    workers = _children(process.pid)
    _wait_until(lambda: _stored_runs(tmp_path / "store") == 1)  # the 1 s run is stored
    stderr, elapsed = _interrupt(process)
    assert process.returncode == 130, stderr
    assert "error: interrupted" in stderr and "Traceback" not in stderr
    assert elapsed < STOP_WITHIN_S
    assert not [w for w in workers if _alive(w)]


def test_a_killed_sweep_parent_takes_its_workers_with_it(tmp_path: Path) -> None:
    process = _sweep(tmp_path, "1e6s,2e6s,3e6s")
    _wait_until(lambda: _workers_running(process.pid))
    workers = _children(process.pid)
    process.kill()
    process.communicate()
    _wait_until(lambda: not [w for w in workers if _alive(w)], timeout_s=STOP_WITHIN_S)
