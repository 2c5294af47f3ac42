"""`tcpsim run FILE --json` without typer: of a file run before, served from the compiled
scenario the first run kept (`tcpsim.fast_run`, `tcpsim.scenario_cache`), without the scenario
models either, with the same output; anything that could make the kept scenario wrong is a miss.
A first run (a miss) is compiled and kept on the same path, with the same output and warnings
as the full command line; anything unusual there is left to the full command line."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from tcpsim.fast_run import RunRequest, parse_request
from tcpsim.scenario_cache import CACHE_DIR, MAX_ENTRIES, _trim, entry_key

LOSSY_LINK = Path(__file__).parents[1] / "scenarios" / "lossy_link.toml"
CLOCK_FIELDS = ("wall_s", "events_per_s", "sim_s_per_wall_s")


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    """A directory holding `s.toml` (the lossy link, 600 s), with a store of its own."""
    shutil.copy(LOSSY_LINK, tmp_path / "s.toml")
    monkeypatch.setenv("TCPSIM_STORE", str(tmp_path / "store"))
    return tmp_path


def tcpsim(workdir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The console script's entry point, as `tcpsim ARGS` runs it."""
    script = "import sys; from tcpsim.launch import main; sys.argv[0] = 'tcpsim'; main()"
    return subprocess.run(
        [sys.executable, "-c", script, *args], capture_output=True, text=True, cwd=workdir, timeout=300
    )


def full_command_line(workdir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`tcpsim ARGS` as the full (typer) command line runs it, never the fast path."""
    script = "import sys; from tcpsim.cli import main; sys.argv[0] = 'tcpsim'; main()"
    return subprocess.run(
        [sys.executable, "-c", script, *args], capture_output=True, text=True, cwd=workdir, timeout=300
    )


def loaded_modules(workdir: Path, *args: str) -> tuple[subprocess.CompletedProcess[str], set[str]]:
    """`tcpsim ARGS` through the console script's entry point, and the modules it had loaded when it exited."""
    listing = workdir / "modules.json"
    script = (
        "import atexit, json, sys; from tcpsim.launch import main; sys.argv[0] = 'tcpsim'; "
        f"atexit.register(lambda: open({str(listing)!r}, 'w').write(json.dumps(sorted(sys.modules)))); main()"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, *args], capture_output=True, text=True, cwd=workdir, timeout=300
    )
    return done, set(json.loads(listing.read_text()))


def entries(workdir: Path) -> list[Path]:
    return sorted((workdir / "store" / CACHE_DIR).glob("*.json"))


def without_clock(stdout: str) -> dict:
    document = json.loads(stdout)
    for field in CLOCK_FIELDS:
        document["meta"].pop(field)
    return document


def mark_entry(entry: Path) -> None:
    """Relabel the flow of a kept scenario: a run that shows the label was served from it."""
    data = json.loads(entry.read_text())
    data["compiled"]["flow_variants"] = ["from-the-cache"]
    entry.write_text(json.dumps(data))


def variant(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)["flows"][0]["variant"]


@pytest.mark.parametrize(
    ("args", "request_"),
    [
        (["run", "s.toml", "--json"], RunRequest("s.toml", 1, [], False)),
        (
            ["run", "--set", "a=b", "s.toml", "--set=c=d", "--json", "--force", "--seed=7"],
            RunRequest("s.toml", 7, ["a=b", "c=d"], True),
        ),
        (["run", "s.toml", "--seed", "18446744073709551615", "--json"], RunRequest("s.toml", 2**64 - 1, [], False)),
    ],
)
def test_the_plain_forms_of_a_json_run_are_read(args, request_):
    assert parse_request(args) == request_


@pytest.mark.parametrize(
    "args",
    [
        [],
        ["run", "s.toml"],  # tables, not JSON
        ["validate", "s.toml", "--json"],
        ["-q", "run", "s.toml", "--json"],
        ["run", "s.toml", "--json", "--out", "d"],
        ["run", "s.toml", "--json", "--help"],
        ["run", "a.toml", "b.toml", "--json"],
        ["run", "s.toml", "--json", "--seed", "1", "--seed", "2"],
        ["run", "s.toml", "--json", "--json"],
        ["run", "s.toml", "--json", "--seed", " 5"],
        ["run", "s.toml", "--json", "--seed", "18446744073709551616"],
        ["run", "s.toml", "--json", "--seed"],
        ["run", "s.toml", "--json=1"],
        ["run", "", "--json"],
        ["run", "--", "s.toml", "--json"],
    ],
)
def test_every_other_command_line_is_left_to_the_full_one(args):
    assert parse_request(args) is None


def test_a_second_run_is_served_from_the_first_ones_compiled_scenario_with_the_same_output(workdir):
    first = tcpsim(workdir, "run", "s.toml", "--json", "--seed", "3")
    assert first.returncode == 0, first.stderr
    [entry] = entries(workdir)
    second = tcpsim(workdir, "run", "s.toml", "--seed=3", "--json")
    assert second.returncode == 0, second.stderr
    assert without_clock(second.stdout) == without_clock(first.stdout)
    assert second.stderr == first.stderr == ""
    mark_entry(entry)
    assert variant(tcpsim(workdir, "run", "s.toml", "--json", "--seed", "4")) == "from-the-cache"
    assert variant(tcpsim(workdir, "run", str(workdir / "s.toml"), "--json")) == "from-the-cache"  # one file


def test_a_first_run_is_compiled_and_kept_without_typer_with_the_full_command_lines_output(workdir):
    args = ("run", "s.toml", "--json", "--seed", "5", "--set", "duration=0.2s")  # warns: a short window
    first, modules = loaded_modules(workdir, *args)
    assert first.returncode == 0, first.stderr
    assert "typer" not in modules and "tcpsim.cli" not in modules and "tcpsim.scenario" in modules
    [entry] = entries(workdir)
    full = full_command_line(workdir, *args)
    assert full.returncode == 0, full.stderr
    assert first.stderr == full.stderr and first.stderr.startswith("warning: duration: the measurement window")
    assert without_clock(first.stdout) == without_clock(full.stdout)
    assert entries(workdir) == [entry]  # the same entry, whichever path kept it
    mark_entry(entry)
    again, modules = loaded_modules(workdir, *args)
    assert variant(again) == "from-the-cache" and again.stderr == full.stderr
    assert "tcpsim.scenario" not in modules


@pytest.mark.parametrize(
    "args",
    [
        ("run", "s.toml", "--json", "--set", "links[0].rate=fast"),  # not a rate
        ("run", "s.toml", "--json", "--set", "nonsense=1"),
        ("run", "missing.toml", "--json"),
        ("run", "s.toml", "--json", "--set", "limits.max_events=1000"),  # over its limits
        ("run", "s.toml", "--json", "--set", "limits.max_events=10", "--set", "duration=0.2s"),  # and warns
    ],
)
def test_a_first_run_that_fails_reports_as_the_full_command_line_does(workdir, args):
    done, modules = loaded_modules(workdir, *args)
    full = full_command_line(workdir, *args)
    assert done.returncode == full.returncode == 2
    assert done.stderr == full.stderr and done.stderr.startswith(("error: ", "warning: "))
    assert done.stdout == full.stdout == ""
    assert "typer" in modules and not entries(workdir)


def test_an_edited_file_other_overrides_or_another_directory_miss(workdir):
    tcpsim(workdir, "run", "s.toml", "--json")
    [entry] = entries(workdir)
    mark_entry(entry)
    assert variant(tcpsim(workdir, "run", "s.toml", "--json", "--set", "duration=300s")) == "newreno"
    (workdir / "elsewhere").mkdir()
    assert variant(tcpsim(workdir / "elsewhere", "run", "../s.toml", "--json")) == "newreno"
    with (workdir / "s.toml").open("a") as scenario:
        scenario.write("# edited\n")
    assert variant(tcpsim(workdir, "run", "s.toml", "--json")) == "newreno"
    assert len(entries(workdir)) == 4


def test_warnings_are_printed_again(workdir):
    first = tcpsim(workdir, "run", "s.toml", "--json", "--set", "duration=0.2s")
    assert first.returncode == 0 and first.stderr.startswith("warning: duration: the measurement window")
    [entry] = entries(workdir)
    mark_entry(entry)
    second = tcpsim(workdir, "run", "s.toml", "--json", "--set", "duration=0.2s")
    assert variant(second) == "from-the-cache" and second.stderr == first.stderr


def test_a_run_over_its_limits_is_refused_again_unless_forced(workdir):
    args = ("run", "s.toml", "--json", "--set", "limits.max_events=1000")
    refused = tcpsim(workdir, *args)
    assert refused.returncode == 2 and refused.stderr.startswith("error: ") and not entries(workdir)
    assert tcpsim(workdir, *args, "--force").returncode == 0
    [entry] = entries(workdir)
    assert json.loads(entry.read_text())["within_limits"] is None  # not checked when forced
    mark_entry(entry)
    again = tcpsim(workdir, *args)
    assert again.returncode == 2 and again.stderr == refused.stderr
    assert variant(tcpsim(workdir, *args, "--force")) == "from-the-cache"


def test_a_changed_cdf_file_misses(workdir):
    (workdir / "sizes.cdf").write_text("1000 0\n3000 1\n")
    (workdir / "w.toml").write_text(
        'duration = "1s"\n'
        '[[links]]\na = "h0"\nb = "sw"\nrate = "1Gbps"\ndelay = "10us"\nqueue = "100pkt"\n'
        '[[links]]\na = "h1"\nb = "sw"\nrate = "1Gbps"\ndelay = "10us"\nqueue = "100pkt"\n'
        '[[web]]\nhosts = ["h0", "h1"]\nsizes = { dist = "empirical", file = "sizes.cdf" }\n'
        'arrivals = { process = "poisson", rate = "100/s" }\n'
    )
    first = tcpsim(workdir, "run", "w.toml", "--json")
    assert first.returncode == 0, first.stderr
    [entry] = entries(workdir)
    kept = json.loads(entry.read_text())
    assert kept["inputs"] == [[str(workdir / "sizes.cdf"), kept["inputs"][0][1]]]
    assert without_clock(tcpsim(workdir, "run", "w.toml", "--json").stdout) == without_clock(first.stdout)
    (workdir / "sizes.cdf").write_text("5000 0\n9000 1\n")
    bytes_sent = [row["bytes"] for row in json.loads(tcpsim(workdir, "run", "w.toml", "--json").stdout)["transfers"]]
    assert bytes_sent and min(bytes_sent) >= 5000


def test_a_damaged_entry_is_a_miss(workdir):
    tcpsim(workdir, "run", "s.toml", "--json")
    [entry] = entries(workdir)
    entry.write_text('{"format": 1, "compiled": {')
    assert variant(tcpsim(workdir, "run", "s.toml", "--json")) == "newreno"


def test_the_key_covers_the_file_its_text_the_overrides_and_the_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    key = entry_key("s.toml", b"text", ["a=1"])
    assert key == entry_key(str(tmp_path / "s.toml"), b"text", ["a=1"])
    others = {
        entry_key("t.toml", b"text", ["a=1"]),
        entry_key("s.toml", b"text ", ["a=1"]),
        entry_key("s.toml", b"text", ["a=2"]),
        entry_key("s.toml", b"text", ["a=1", "a=1"]),
    }
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path / "sub")
    others.add(entry_key("../s.toml", b"text", ["a=1"]))
    assert key not in others and len(others) == 5


def test_the_cache_keeps_its_most_recent_entries(tmp_path):
    for number in range(MAX_ENTRIES + 5):
        path = tmp_path / f"{number:04}.json"
        path.write_text("{}")
        os.utime(path, ns=(number * 10**9, number * 10**9))
    _trim(str(tmp_path))
    kept = sorted(path.name for path in tmp_path.iterdir())
    assert len(kept) == MAX_ENTRIES and kept[0] == "0005.json"
