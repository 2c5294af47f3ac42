"""Progress on stderr (a line per finished run off a terminal, rate-limited), each experiment
printed as soon as its own runs are done, --quiet and -v."""

import os
import re
import subprocess
import sys
import threading
from pathlib import Path

import pandas as pd
import pytest
from tcpsim import progress, runner
from tcpsim.repro.framework import Claim, Experiment, Outcome, execute
from tcpsim.result import RunResult
from tcpsim.runner import RunSpec

ROOT = Path(__file__).resolve().parent.parent
SCENARIO = str(ROOT / "scenarios" / "single_flow.toml")
TIME = re.compile(r"\b\d+(?:h\d+m|m\d+s|s)\b")
LINE = re.compile(r"^progress: (\d+)/(\d+) runs, (\S+) (\d+)/(\d+), (?:\d+ failed, )?\S+ elapsed, (ETA \S+|done)$")


@pytest.fixture(autouse=True)
def loud(monkeypatch):
    """Each test starts as the command line does without -q or -v (CLI tests in this process
    may have configured otherwise)."""
    progress.configure()
    yield
    progress.configure()


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


def test_lines_are_rate_limited_but_first_last_and_experiment_ends_always_show(capsys):
    clock = Clock()
    lines = progress.Lines(["a"] * 3 + ["b"] * 4, cached=2, interval=2.0, clock=clock)
    for label, step in [("a", 1.0), ("a", 0.5), ("b", 0.5), ("a", 0.5), ("b", 0.5), ("b", 2.0), ("b", 1.0)]:
        clock.now += step
        lines.advance(label)
    out = capsys.readouterr().err.splitlines()
    assert out[0] == "progress: 7 runs to simulate (2 cached)"
    assert out[1:] == [
        "progress: 1/7 runs, a 1/3, 1s elapsed, ETA 6s",  # the first finished run
        "progress: 4/7 runs, a 3/3, 2s elapsed, ETA 2s",  # a's last run, though 1 s after the previous line
        "progress: 6/7 runs, b 3/4, 5s elapsed, ETA 1s",  # 2 s since the previous line
        "progress: 7/7 runs, b 4/4, 6s elapsed, done",
    ]
    assert all(LINE.match(line) for line in out[1:])


def test_lines_count_failures():
    clock = Clock()
    lines = progress.Lines(["x", "x"], cached=0, interval=0.0, clock=clock)
    lines.advance("x", failed=True)
    assert (lines.finished, lines.failed) == (1, 1)


def test_durations_are_short_and_exact_enough():
    assert [progress.duration(s) for s in (0.4, 59, 61, 3599, 3720, -1)] == [
        "0s",
        "59s",
        "1m01s",
        "59m59s",
        "1h02m",
        "0s",
    ]


def test_quiet_shows_no_progress(capsys):
    progress.configure(quiet=True)
    with progress.track(True, ["a"], 0) as tracker:
        tracker.advance("a")
    assert capsys.readouterr().err == ""


first_reported = threading.Event()


def fake_run(spec: RunSpec) -> RunResult:
    """The second experiment's runs wait (up to a minute) for the first one's report: with
    reports printed only at the end of the batch they would time out and be recorded so."""
    exp_id, _ = spec.key
    if exp_id == "validation.second":
        events.append(("run", spec.key, "after first report" if first_reported.wait(60) else "timed out"))
    else:
        events.append(("run", spec.key))
    return RunResult(flows=pd.DataFrame({"goodput_bps": [1.0]}), links=pd.DataFrame(), meta={"wall_s": 0.1})


events: list = []


class Fake(Experiment):
    paper = "validation"
    title = "fake"

    def __init__(self, exp_id: str, seeds: list[int]):
        self.id = exp_id
        self.seeds = seeds
        self.count = len(seeds)

    def runs(self, quick, seeds):
        # Seeds differ between experiments: runs of one scenario and seed would be run once.
        return [RunSpec(key=(i,), scenario=SCENARIO, seed=seed) for i, seed in enumerate(self.seeds)]

    def analyze(self, results, quick):
        return Outcome(claims=[Claim("ran", len(results) == self.count)])


def test_each_experiment_is_reported_as_soon_as_its_own_runs_are_done(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(runner, "_run_one", fake_run)
    monkeypatch.setattr(progress, "LINE_INTERVAL_S", 0.0)
    for name in ("TCPSIM_CACHE", "TCPSIM_STORE"):
        monkeypatch.setenv(name, str(tmp_path / "cache"))
    events.clear()
    first_reported.clear()

    def on_report(report):
        events.append(("report", report["id"]))
        print(f"REPORT {report['id']}", file=sys.stderr)
        if report["id"] == "validation.first":
            first_reported.set()

    experiments = [Fake("validation.first", [1]), Fake("validation.second", [2, 3])]
    reports = execute(experiments, quick=True, jobs=1, out_dir=tmp_path / "out", on_report=on_report)
    assert [r["id"] for r in reports] == ["validation.first", "validation.second"]
    assert events == [
        ("run", ("validation.first", (0,))),
        ("report", "validation.first"),  # while the second experiment's runs wait
        ("run", ("validation.second", (0,)), "after first report"),
        ("run", ("validation.second", (1,)), "after first report"),
        ("report", "validation.second"),
    ]
    err = [TIME.sub("T", line) for line in capsys.readouterr().err.splitlines()]
    assert err == [
        "progress: 3 runs to simulate (0 cached)",
        "progress: 1/3 runs, validation.first 1/1, T elapsed, ETA T",
        "REPORT validation.first",
        "progress: 2/3 runs, validation.second 1/2, T elapsed, ETA T",
        "progress: 3/3 runs, validation.second 2/2, T elapsed, done",
        "REPORT validation.second",
    ]
    assert reports[1]["seeds"] == [2, 3] and reports[1]["runs"] == 2


def tcpsim(*args: str, cache: Path) -> subprocess.CompletedProcess:
    """The CLI with stderr merged into stdout, as `tcpsim ... 2>&1 | cat` shows it."""
    env = dict(os.environ, TCPSIM_STORE=str(cache))
    env.pop("FORCE_COLOR", None)
    return subprocess.run(
        [str(Path(sys.executable).parent / "tcpsim"), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
    )


def test_piped_repro_shows_progress_then_each_experiment_and_is_quiet_with_q(tmp_path):
    experiments = ["validation.single_flow", "validation.recovery"]
    done = tcpsim("repro", *experiments, "--quick", "--out", str(tmp_path / "out"), cache=tmp_path / "c")
    assert done.returncode == 0, done.stdout
    lines = done.stdout.splitlines()
    assert re.fullmatch(r"progress: (\d+) runs? to simulate \(0 cached\)", lines[0])
    total = int(lines[0].split()[1])
    found = [(i, m) for i, m in enumerate(map(LINE.match, lines)) if m]
    assert all(m.group(3) in experiments and int(m.group(2)) == total for _, m in found), done.stdout
    assert found[-1][1].group(1) == str(total) and found[-1][1].group(6) == "done"
    for exp_id in experiments:
        # the line of its last run, then its table (printed before the other's runs are all done or after)
        last_run = next(i for i, m in found if m.group(3) == exp_id and m.group(4) == m.group(5))
        table = next(i for i, line in enumerate(lines) if re.match(rf"[✓✗] {re.escape(exp_id)}: ", line))
        assert last_run < table
    assert "Paper figures reproduced by simulation" in lines[-1]

    # Again, all cached: nothing to simulate, so no progress; -v says what happened instead.
    again = tcpsim("repro", *experiments, "--quick", "-v", "--out", str(tmp_path / "out"), cache=tmp_path / "c")
    assert again.returncode == 0, again.stdout
    assert f"info: tcpsim.runner: {total} runs: {total} cached, 0 to simulate" in again.stdout.splitlines()
    assert not any(line.startswith("progress:") for line in again.stdout.splitlines())

    # -q before the command name works as after it (the root option applies to every command)
    quiet = tcpsim("-q", "repro", *experiments, "--quick", "--out", str(tmp_path / "out"), cache=tmp_path / "c")
    assert quiet.returncode == 0, quiet.stdout
    assert len(quiet.stdout.splitlines()) == 1 and "Paper figures reproduced by simulation" in quiet.stdout


def test_a_notebook_without_ipywidgets_gets_plain_lines_not_richs_warning(monkeypatch, capsys):
    import rich.console

    monkeypatch.setattr(rich.console, "_is_jupyter", lambda: True)
    monkeypatch.setattr(progress, "_has_ipywidgets", lambda: False)
    with progress.track(True, ["a", "a"], cached=0) as tracker:
        assert isinstance(tracker, progress.Lines)
        tracker.advance("a")
        tracker.advance("a")
    err = capsys.readouterr().err
    assert "ipywidgets" not in err and "progress: 2/2 runs" in err
