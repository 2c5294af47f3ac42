"""Output paths and --seed are checked before anything runs; every mistake is one `error:`
line with exit 2 (issue 13, items 6 and 10). Fakes replace the compiled core (see test_cli)."""

import os

import pytest
from tcpsim import engine_run, outpaths
from tcpsim.cli import app
from tcpsim.cli.model import MAX_BUFFER_POINTS
from test_cli import fake_result, fakes, one_error_line, scenario_file  # noqa: F401 - fixtures
from typer.testing import CliRunner

cli = CliRunner()


@pytest.fixture
def simulations(monkeypatch):
    """Seeds of the runs started by `tcpsim run` (none must start when a path is bad)."""
    seeds = []

    def run(compiled, seed, pcap_dir=None):
        seeds.append(seed)
        return fake_result(seed)

    monkeypatch.setattr(engine_run, "run_compiled", run)
    return seeds


def refused(args, expected: str, simulations=None) -> None:
    result = cli.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert one_error_line(result) == f"error: {expected}"
    assert not simulations


def test_run_out_an_existing_file(scenario_file, tmp_path, simulations):
    (tmp_path / "f").write_text("")
    refused(
        ["run", str(scenario_file), "--out", str(tmp_path / "f")],
        f"--out {tmp_path / 'f'}: is an existing file, not a directory; give a directory",
        simulations,
    )


def test_run_out_below_a_file(scenario_file, tmp_path, simulations):
    (tmp_path / "f").write_text("")
    refused(
        ["run", str(scenario_file), "--out", str(tmp_path / "f" / "sub")],
        f"--out {tmp_path / 'f' / 'sub'}: {tmp_path / 'f'} is a file, so no directory can be made below it",
        simulations,
    )


def test_run_out_an_unwritable_directory(scenario_file, tmp_path, simulations, monkeypatch):
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o555)
    # root may write anywhere, so deny through os.access as a non-root user would see it
    monkeypatch.setattr(outpaths.os, "access", lambda path, mode: os.fspath(path) != str(locked))
    refused(
        ["run", str(scenario_file), "--out", str(locked)], f"--out {locked}: the directory is not writable", simulations
    )
    refused(
        ["run", str(scenario_file), "--out", str(locked / "new")],
        f"--out {locked / 'new'}: {locked}, where it would be created, is not writable",
        simulations,
    )


def test_run_out_empty(scenario_file, simulations):
    refused(
        ["run", str(scenario_file), "--out", ""],
        "--out: the path is empty; give a directory, e.g. results",
        simulations,
    )


def test_run_out_reused_replaces_the_previous_runs_files_only(scenario_file, tmp_path, simulations):
    out = tmp_path / "out"
    out.mkdir()
    for stale in ("trace_cwnd.parquet", "udp.csv", "flows.csv"):
        (out / stale).write_text("from an earlier run")
    (out / "notes.txt").write_text("mine")
    result = cli.invoke(app, ["run", str(scenario_file), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in out.iterdir()) == [
        "flows.csv",
        "links.csv",
        "meta.json",
        "notes.txt",
        "provenance.json",
        "scenario.toml",
    ]
    assert (out / "notes.txt").read_text() == "mine" and "bulk" in (out / "flows.csv").read_text()


def test_repro_out_an_existing_file(tmp_path):
    (tmp_path / "f").write_text("")
    refused(
        ["repro", "all", "--out", str(tmp_path / "f")],
        f"--out {tmp_path / 'f'}: is an existing file, not a directory; give a directory",
    )
    refused(["repro", "all", "--out", ""], "--out: the path is empty; give a directory, e.g. results")


def test_sweep_out_a_file_name(scenario_file, tmp_path):
    (tmp_path / "f").write_text("")
    refused(
        ["sweep", str(scenario_file), "--grid", "duration=1s", "--out", str(tmp_path / "f")],
        f"--out {tmp_path / 'f'}: is an existing file, not a directory; give a directory",
    )
    refused(
        ["sweep", str(scenario_file), "--grid", "duration=1s", "--out", str(tmp_path / "rows.csv")],
        f"--out {tmp_path / 'rows.csv'}: give a directory; a sweep saves flows.csv, links.csv, runs.csv, "
        "its scenarios and provenance.json into it",
    )


def test_sweep_out_in_a_new_directory_is_created(scenario_file, tmp_path):
    out = tmp_path / "new" / "sweep"
    result = cli.invoke(app, ["sweep", str(scenario_file), "--grid", "duration=1s", "-j", "1", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert (out / "flows.csv").stat().st_size > 0 and (out / "points" / "0" / "scenario.toml").exists()


def test_model_plot_with_an_unknown_extension():
    pytest.importorskip("tcpsim.models.moller")
    refused(
        ["model", "moller", "--plot", "x.foo"],
        "--plot x.foo: extension '.foo' is not supported; use a file name ending in .png, .svg, .pdf",
    )


def test_model_moller_bounds_the_number_of_buffer_sizes():
    refused(
        ["model", "moller", "--buffers", "1:1e7:1"],
        f"--buffers '1:1e7:1': 10000000 buffer sizes; at most {MAX_BUFFER_POINTS} are allowed, use a larger STEP",
    )
    refused(
        ["model", "moller", "--buffers", ",".join(["5"] * (MAX_BUFFER_POINTS + 1))],
        f"--buffers: {MAX_BUFFER_POINTS + 1} buffer sizes; at most {MAX_BUFFER_POINTS} are allowed",
    )


@pytest.mark.parametrize("seed", ["18446744073709551616", "-1", "abc", "1.5", "１０", ""])
def test_a_bad_seed_is_an_error_line_not_click_usage(scenario_file, seed, simulations):
    refused(
        ["run", str(scenario_file), "--seed", seed],
        f"--seed: {seed!r} is not a seed; use a whole number from 0 to 18446744073709551615, e.g. --seed 2",
        simulations,
    )


def test_the_largest_seed_runs(scenario_file, simulations):
    result = cli.invoke(app, ["run", str(scenario_file), "--seed", "18446744073709551615", "--json"])
    assert result.exit_code == 0, result.output
    assert simulations == [2**64 - 1]


def test_out_never_replaces_the_commands_own_input(scenario_file, tmp_path, simulations):
    """`tcpsim run DIR/scenario.toml --out DIR` would write the resolved scenario over the
    user's file (issue 27): refused before anything runs, the file untouched."""
    original = scenario_file.read_text()
    written_by = f"the command writes scenario.toml there, which would replace its input {scenario_file}"
    refused(
        ["run", str(scenario_file), "--out", str(tmp_path)], f"--out {tmp_path}: {written_by}; give another directory"
    )
    refused(
        ["sweep", str(scenario_file), "--grid", "duration=1s", "--out", str(tmp_path)],
        f"--out {tmp_path}: {written_by}; give another directory",
    )
    point = tmp_path / "points" / "0" / "scenario.toml"
    point.parent.mkdir(parents=True)
    point.write_text(original)
    refused(
        ["sweep", str(point), "--grid", "duration=1s", "--out", str(tmp_path)],
        f"--out {tmp_path}: the command writes points there, which would replace its input {point}; "
        "give another directory",
    )
    assert scenario_file.read_text() == point.read_text() == original
    assert not simulations


def test_a_failed_write_names_the_file_the_user_asked_for(tmp_path):
    """pandas and pyarrow raise ENOSPC naming no file, or the temporary one: the error line
    said only "error: No space left on device" (issue 27). `replacing` names the target."""
    import errno

    target = tmp_path / "flows.csv"
    for named in (None, "temporary"):
        with pytest.raises(OSError) as raised, outpaths.replacing(target) as temporary:
            raise OSError(errno.ENOSPC, "No space left on device", None if named is None else str(temporary))
        assert raised.value.filename == str(target)
    with pytest.raises(OSError) as raised, outpaths.replacing(target):
        raise OSError(errno.ENOENT, "No such file or directory", "/elsewhere/input.csv")
    assert raised.value.filename == "/elsewhere/input.csv"  # another file's error keeps its name


def test_names_from_a_scenario_reach_the_terminal_escaped(scenario_file, monkeypatch):
    """A flow name is data: its escape sequences are shown, never sent (issue 27)."""
    from tcpsim.terminal_text import visible

    assert visible("a\x1b]0;pwned\x07b") == "a\\x1b]0;pwned\\x07b"
    assert visible("\u202egnp.exe") == "\\u202egnp.exe"
    assert visible("Westwood+ → ü, 2 flows") == "Westwood+ → ü, 2 flows"
    hostile = fake_result()
    hostile.flows.loc[0, "name"] = "a\x1b]0;pwned\x07b"

    monkeypatch.setattr(engine_run, "run_compiled", lambda compiled, seed, pcap_dir=None: hostile)
    result = cli.invoke(app, ["run", str(scenario_file)])
    assert result.exit_code == 0, result.output
    assert "\x1b" not in result.stdout and "\x07" not in result.stdout
    assert "a\\x1b]0;pwned\\x07b" in result.stdout


def test_a_write_that_fails_leaves_the_previous_file_and_no_part_of_the_new(tmp_path, monkeypatch):
    """Every file tcpsim writes goes through `outpaths.replacing` (issue 27): a full disk (or a
    Ctrl-C) mid-write leaves the previous file whole and no temporary file behind."""
    import errno

    import pandas as pd

    target = tmp_path / "meta.json"
    target.write_text("the previous run's")
    with pytest.raises(OSError), outpaths.replacing(target) as temporary:
        temporary.write_text("half of the new")
        raise OSError(errno.ENOSPC, "No space left on device", str(temporary))
    assert target.read_text() == "the previous run's" and list(tmp_path.iterdir()) == [target]

    result = fake_result()
    result.save(tmp_path / "out")
    before = {p.name: p.read_bytes() for p in (tmp_path / "out").iterdir()}

    def disk_full(self, path, **kwargs):
        open(path, "w").write("flows,partial")
        raise OSError(errno.ENOSPC, "No space left on device", str(path))

    monkeypatch.setattr(pd.DataFrame, "to_csv", disk_full)
    with pytest.raises(OSError, match="No space left"):
        fake_result(seed=2).save(tmp_path / "out")
    after = {p.name: p.read_bytes() for p in (tmp_path / "out").iterdir()}
    assert not [name for name in after if name.startswith(".tmp-")]
    assert all(after[name] == before[name] for name in after)  # what is still there is whole
