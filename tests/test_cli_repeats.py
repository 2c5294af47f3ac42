"""Command lines (and API calls) that say one thing twice are refused, exit 2, instead of
silently keeping the last one (issue 27's hand-picked mistakes): an option given twice, a path
set twice, a grid value listed twice."""

import pytest
import tcpsim
from tcpsim.cli import app
from tcpsim.scenario import ScenarioError, load_scenario
from tcpsim.sweeps.definition import SweepDefinitionError
from typer.testing import CliRunner

cli = CliRunner()
LOSSY = "scenarios/lossy_link.toml"


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (["run", LOSSY, "--seed", "1", "--seed", "2"], "--seed"),
        (["run", LOSSY, "--out", "a", "--out=b"], "--out"),
        (["sweep", LOSSY, "--seeds", "3", "--seeds", "5"], "--seeds"),
        (["repro", "moller.fig5", "--quick", "-j", "1", "--jobs", "2"], "--jobs / -j"),
        (["model", "moller", "--rtt", "50ms", "--rtt", "80ms"], "--rtt"),
        (["store", "gc", "--max-size", "1GB", "--max-size", "2GB"], "--max-size"),
    ],
)
def test_an_option_given_twice_is_a_usage_error_not_the_last_value(args, option, tmp_path, monkeypatch):
    monkeypatch.setenv("TCPSIM_STORE", str(tmp_path / "store"))
    result = cli.invoke(app, args)
    assert result.exit_code == 2
    command = " ".join(args[: 2 if args[0] in ("store", "model") else 1])
    assert result.stderr.splitlines() == [
        f"error: {option} given more than once; give it once (see 'tcpsim {command} -h')"
    ]


def test_options_that_collect_values_and_flags_may_repeat(tmp_path):
    result = cli.invoke(
        app, ["validate", LOSSY, "--set", "duration=10s", "--set", "links[1].rate=1Mbps", "--force", "--force"]
    )
    assert result.exit_code == 0, result.stderr


@pytest.mark.parametrize("command", ["run", "validate"])
@pytest.mark.parametrize(
    ("first", "second"), [("duration=1s", "duration=2s"), ("links[1].rate=1Mbps", "links.1.rate=2Mbps")]
)
def test_a_path_set_twice_is_an_error_naming_both(command, first, second):
    result = cli.invoke(app, [command, LOSSY, "--set", first, "--set", second])
    assert result.exit_code == 2
    path = first.partition("=")[0]
    assert f"error: {path}: set twice ({first!r}, then {second!r}); give each path once" in result.stderr


def test_the_api_refuses_a_path_set_twice_in_one_list():
    with pytest.raises(ScenarioError, match=r"duration: set twice"):
        load_scenario(LOSSY, ["duration=1s", "duration=1s"])


def test_a_sweep_path_set_twice_is_an_error():
    result = cli.invoke(app, ["sweep", LOSSY, "--set", "duration=1s", "--set", "duration=2s"])
    assert result.exit_code == 2
    assert "error: --set duration given twice; give each path once" in result.stderr


@pytest.mark.parametrize("values", ["0.01,0.02,0.01", "[0.01, 0.02, 0.01]"])
def test_a_grid_value_listed_twice_is_an_error(values):
    result = cli.invoke(app, ["sweep", LOSSY, "--grid", f"links[1].loss[0].p={values}"])
    assert result.exit_code == 2
    assert "error: grid links[1].loss[0].p: 0.01 listed twice; give each value once" in result.stderr


def test_a_sweep_file_or_call_with_a_repeated_grid_value_is_refused(tmp_path):
    sweep_file = tmp_path / "sweep.toml"
    sweep_file.write_text(
        '[grid]\n"links[1].queue" = [{kind = "red", min_th = 5, max_th = 15}, {kind = "red", max_th = 15, min_th = 5}]\n'
    )
    result = cli.invoke(app, ["sweep", LOSSY, "--sweep", str(sweep_file)])
    assert result.exit_code == 2
    assert "listed twice" in result.stderr
    with pytest.raises(SweepDefinitionError, match="grid duration: '1s' listed twice"):
        tcpsim.sweep(LOSSY, grid={"duration": ["1s", "2s", "1s"]}, seeds=1)


def test_the_moller_model_refuses_a_zero_round_trip_naming_the_option():
    result = cli.invoke(app, ["model", "moller", "--rtt", "0ms"])
    assert result.exit_code == 2
    assert "error: --rtt: '0ms' must be greater than zero" in result.stderr


def test_pcap_adds_to_a_trace_pcap_set_on_the_command_line(tmp_path):
    """`--pcap` adds to `trace.pcap`; given with `--set trace.pcap=…` it is not a path set twice."""
    out = tmp_path / "out"
    args = ["run", LOSSY, "--set", "duration=1s", "--set", 'trace.pcap=["lossy"]', "--pcap", "access"]
    result = cli.invoke(app, [*args, "--out", str(out), "--json"])
    assert result.exit_code == 0, result.stderr
    assert sorted(p.name for p in out.glob("*.pcap")) == [
        "access-ab.pcap",
        "access-ba.pcap",
        "lossy-ab.pcap",
        "lossy-ba.pcap",
    ]
