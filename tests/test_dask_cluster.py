"""A sweep on a real Dask cluster on 127.0.0.1: a `dask scheduler` and two `dask worker`
processes, each started in a directory of its own (they share no working directory with the
client, as on a cluster). The sweep's results equal a local run's; a worker killed in the middle
of the sweep loses nothing; failed runs are counted with their reason (issue 17, item 3); a
reproduction run there is judged as a local one."""

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import tcpsim
from tcpsim.sweeps import SweepFailed

distributed = pytest.importorskip("distributed", reason="the dask extra is not installed")

BIN = Path(sys.executable).parent
TCPSIM = [sys.executable, "-c", "from tcpsim.cli import main; main()"]
START_TIMEOUT_S = 60
SWEEP_TIMEOUT_S = 120

SCENARIO = """\
duration = "40s"

[[links]]
name = "access"
a = "src"
b = "router"
rate = "1Gbps"
delay = "1ms"
queue = "1000pkt"

[[links]]
name = "bottleneck"
a = "router"
b = "dst"
rate = "100Mbps"
delay = "10ms"
queue = "200pkt"
loss = [{ kind = "bernoulli", p = 0.001, direction = "ab" }]

[[flows]]
name = "bulk"
src = "src"
dst = "dst"
count = 4
"""
# 8 runs of a fraction of a second each: long enough to kill a worker in the middle of the sweep.
GRID = {"links[1].loss[0].p": [0.001, 0.002]}
SEEDS = 4
SWEEP = ["--grid", "links[1].loss[0].p=0.001,0.002", "--seeds", str(SEEDS)]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start(args: list[str], cwd: Path, log: Path, env: dict[str, str] | None = None) -> subprocess.Popen:
    cwd.mkdir(parents=True, exist_ok=True)
    with log.open("w") as out:
        return subprocess.Popen(args, cwd=cwd, stdout=out, stderr=subprocess.STDOUT, env=env)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    """(scheduler address, {worker address: its process}); the processes are stopped after."""
    root = tmp_path_factory.mktemp("cluster")
    address = f"tcp://127.0.0.1:{free_port()}"
    port = address.rsplit(":", 1)[1]
    processes = [
        start(
            [str(BIN / "dask"), "scheduler", "--host", "127.0.0.1", "--port", port, "--no-dashboard"],
            root / "scheduler",
            root / "scheduler.log",
        )
    ]
    worker_args = ["--nthreads", "1", "--no-nanny", "--no-dashboard", "--host", "127.0.0.1", "--memory-limit", "0"]
    for name in ("w1", "w2"):
        processes.append(start([str(BIN / "dask"), "worker", address, *worker_args], root / name, root / f"{name}.log"))
    try:
        with distributed.Client(address, timeout=START_TIMEOUT_S) as client:
            client.wait_for_workers(2, timeout=START_TIMEOUT_S)
            pids = client.run(os.getpid)
        by_pid = {process.pid: process for process in processes[1:]}
        yield address, {worker: by_pid[pid] for worker, pid in pids.items()}
    finally:
        for process in processes:
            process.kill()
            process.wait()


@pytest.fixture(scope="module")
def client_dir(tmp_path_factory):
    """The client's working directory, with the scenario at a relative path only it can read."""
    path = tmp_path_factory.mktemp("client")
    (path / "scenario.toml").write_text(SCENARIO)
    return path


def own_store(client_dir: Path, name: str) -> dict[str, str]:
    """The environment of a client with a result store of its own: every sweep computes afresh."""
    store = str(client_dir / f"store-{name}")
    return os.environ | {"TCPSIM_STORE": store}


def sweep(client_dir: Path, out: str, *extra: str) -> subprocess.Popen:
    env = own_store(client_dir, out)
    args = [*TCPSIM, "sweep", "scenario.toml", *SWEEP, "--out", out, *extra]
    return start(args, client_dir, client_dir / f"{out}.log", env)


def finished(process: subprocess.Popen, client_dir: Path, out: str) -> None:
    code = process.wait(timeout=SWEEP_TIMEOUT_S)
    assert code == 0, (client_dir / f"{out}.log").read_text()


@pytest.fixture(scope="module")
def local(client_dir):
    """The same sweep run in this process, to compare with."""
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(client_dir)
        for name, value in own_store(client_dir, "local").items():
            patch.setenv(name, value)
        tcpsim.sweep("scenario.toml", GRID, seeds=SEEDS, jobs=1, progress=False).save("local")
    return client_dir / "local"


def same_tables(a: Path, b: Path) -> None:
    for table in ("flows.csv", "links.csv"):
        assert (a / table).read_text() == (b / table).read_text(), table
    assert (b / "runs.csv").read_text().count(",ok,") == 8


def test_a_sweep_on_the_cluster_equals_a_local_one(cluster, client_dir, local):
    address, _ = cluster
    finished(sweep(client_dir, "cluster", "--dask", address), client_dir, "cluster")
    same_tables(local, client_dir / "cluster")


def test_runs_failing_on_the_cluster_are_counted_with_their_reason(cluster, client_dir, monkeypatch):
    address, _ = cluster
    for name, value in own_store(client_dir, "failing").items():
        monkeypatch.setenv(name, value)
    with pytest.raises(SweepFailed) as caught:  # `tcpsim sweep` prints it and exits 1
        tcpsim.sweep(
            client_dir / "scenario.toml",
            {"trace.throughput_bin": ["1s", "1ns"]},
            overrides={"duration": "2s"},
            dask_address=address,
            progress=False,
        )
    lines = str(caught.value).splitlines()
    assert lines[0] == "1 of 2 runs failed:"
    assert lines[1].startswith("  1 run (trace.throughput_bin=1ns seed 1): RunTooLarge: limits.")
    assert caught.value.result.runs["status"].tolist() == ["ok", "failed"]


def test_a_worker_killed_mid_sweep_loses_nothing(cluster, client_dir, local):
    address, workers = cluster
    victim, survivor = workers
    process = sweep(client_dir, "killed", "--dask", address)

    def sweep_state(dask_scheduler=None) -> tuple[int, int]:
        """(runs finished, runs assigned to the victim), as the scheduler sees them (a nested
        function: it travels to the scheduler by value)."""
        ours = [task for key, task in dask_scheduler.tasks.items() if str(key).startswith("tcpsim-")]
        worker = dask_scheduler.workers.get(victim)
        assigned = sum(str(task.key).startswith("tcpsim-") for task in worker.processing) if worker else 0
        return sum(task.state == "memory" for task in ours), assigned

    with distributed.Client(address) as client:
        deadline = time.monotonic() + SWEEP_TIMEOUT_S
        # Kill once some runs are done and the victim is in the middle of others.
        while (state := client.run_on_scheduler(sweep_state)) and not (state[0] >= 1 and state[1] >= 1):
            assert process.poll() is None, f"the sweep ended before the worker could be killed mid-sweep: {state}"
            assert time.monotonic() < deadline
            time.sleep(0.005)
        workers[victim].kill()
        workers[victim].wait()
        finished(process, client_dir, "killed")
        assert list(client.scheduler_info()["workers"]) == [survivor]
    same_tables(local, client_dir / "killed")


def test_a_reproduction_on_the_cluster_is_judged_as_a_local_one(cluster, client_dir):
    address, _ = cluster

    def judged(name: str, *extra: str) -> list:
        args = [*TCPSIM, "repro", "validation.single_flow", "validation.recovery", "--quick", "--json"]
        process = start(
            [*args, "--out", name, *extra], client_dir, client_dir / f"{name}.log", own_store(client_dir, name)
        )
        assert process.wait(timeout=SWEEP_TIMEOUT_S) == 0, (client_dir / f"{name}.log").read_text()
        reports = [
            json.loads((client_dir / name / f"{e}.json").read_text())
            for e in ("validation.single_flow", "validation.recovery")
        ]
        return [(r["claims"], r["numbers"]) for r in reports]

    on_cluster = judged("repro-cluster", "--dask", address)
    assert all(claims for claims, _ in on_cluster)  # something was judged
    assert on_cluster == judged("repro-local", "--jobs", "1")
