"""The command line, with the compiled core replaced by fakes (see the fixtures)."""

import json
import subprocess
import sys
import types

import pandas as pd
import pytest
import tcpsim
import tcpsim.repro as repro
from tcpsim import engine_run, runner
from tcpsim.cli import app
from tcpsim.repro import register
from tcpsim.repro.framework import Claim, Experiment, Number, Outcome, Series
from tcpsim.result import RunResult
from tcpsim.store import key as store_key
from tcpsim.store.location import STORE_ENV
from typer.testing import CliRunner

cli = CliRunner()

SCENARIO = """\
duration = "10s"

[[links]]
name = "access"
a = "src"
b = "router"
rate = "10Mbps"
delay = "5ms"
queue = "100pkt"

[[links]]
name = "bottleneck"
a = "router"
b = "dst"
rate = "2Mbps"
delay = "20ms"
queue = "50pkt"

[[flows]]
name = "bulk"
src = "src"
dst = "dst"
variant = "newreno"
"""


def fake_result(seed: int = 1, goodput_bps: float = 1.5e6) -> RunResult:
    flows = pd.DataFrame(
        {
            "id": [0],
            "name": ["bulk"],
            "variant": ["newreno"],
            "src": ["src"],
            "dst": ["dst"],
            "throughput_bps": [goodput_bps * 1.01],
            "goodput_bps": [goodput_bps],
            "bytes_delivered": [1_875_000],
            "bytes_sent": [1_900_000],
            "bytes_retransmitted": [25_000],
            "timeouts": [1],
            "fast_retransmits": [4],
            "spurious_fast_retransmits": [0],
            "rtt_min_s": [0.05],
            "rtt_mean_s": [float("nan")],
        }
    )
    links = pd.DataFrame(
        {
            "name": ["bottleneck"],
            "direction": ["ab"],
            "src": ["router"],
            "dst": ["dst"],
            "rate_bps": [2e6],
            "utilization": [0.93],
            "tx_packets": [1500],
            "drops_queue": [12],
            "drops_error": [0],
            "queue_mean_pkts": [20.5],
            "queue_max_pkts": [50],
        }
    )
    meta = {
        "seed": seed,
        "version": "test",
        "scenario_hash": "ab" * 32,
        "events": 123456,
        "wall_s": 0.1,
        "sim_s": 10.0,
        "events_per_s": 1234560.0,
    }
    return RunResult(flows=flows, links=links, meta=meta)


@pytest.fixture(autouse=True)
def fakes(monkeypatch, tmp_path):
    """No engine runs: `tcpsim run`'s engine call (`run_compiled`), tcpsim.api.run and the
    runner's simulator are fakes; an empty registry."""
    api = types.ModuleType("tcpsim.api")
    api.run = lambda scenario, seed=1, **overrides: fake_result(seed)
    monkeypatch.setitem(sys.modules, "tcpsim.api", api)
    monkeypatch.setattr(engine_run, "run_compiled", lambda compiled, seed, pcap_dir=None: fake_result(seed))
    monkeypatch.setattr(runner, "_run_one", lambda spec: fake_result(spec.seed, 1e6 * spec.seed))
    monkeypatch.setattr(store_key, "engine_version", lambda: "test")
    monkeypatch.setattr(repro, "_registry", {})
    monkeypatch.setattr(repro, "_loaded", True)
    monkeypatch.setenv(STORE_ENV, str(tmp_path / "store"))
    monkeypatch.chdir(tmp_path)


@pytest.fixture
def scenario_file(tmp_path):
    path = tmp_path / "scenario.toml"
    path.write_text(SCENARIO)
    return path


def one_error_line(result) -> str:
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    assert "Traceback" not in result.output
    return lines[0]


class Good(Experiment):
    id, title, paper = "moller.fig3", "a model that matches", "moller"

    def analyze(self, results, quick):
        return Outcome(
            series=[Series("s", [1, 2], [0.5, 0.5])],
            claims=[Claim("equal shares", True)],
            numbers=[Number("share at B=CT", paper=0.5, measured=0.52)],
        )


class Bad(Experiment):
    id, title, paper = "moller.fig4", "a model that does not", "moller"

    def analyze(self, results, quick):
        return Outcome(claims=[Claim("curves coincide", False, "they do not")])


class Broken(Experiment):
    id, title, paper = "moller.fig5", "an analysis that crashes", "moller"

    def analyze(self, results, quick):
        raise RuntimeError("boom")


# --- repro ----------------------------------------------------------------------------------


def test_unknown_experiment_is_a_one_line_error_with_exit_2():
    register(Good)
    result = cli.invoke(app, ["repro", "moller.fig99"])
    assert result.exit_code == 2
    line = one_error_line(result)
    assert "'moller.fig99'" in line and "moller.fig3" in line


def test_repro_json_is_one_list_and_exit_0_when_everything_matches(tmp_path):
    register(Good)
    result = cli.invoke(app, ["repro", "moller.fig3", "--quick", "--out", str(tmp_path / "out"), "--json"])
    assert result.exit_code == 0, result.output
    (report,) = json.loads(result.stdout)
    assert report["id"] == "moller.fig3" and report["quick"] is True and report["ok"] is True
    assert report["numbers"][0]["measured"] == 0.52
    assert (tmp_path / "out" / "moller.fig3.png").exists()
    assert (tmp_path / "out" / "summary.json").exists()


def test_repro_reports_a_failed_claim_and_exits_1_only_with_strict(tmp_path):
    register(Good)
    register(Bad)
    lenient = cli.invoke(app, ["repro", "moller", "--out", str(tmp_path / "out")])
    assert lenient.exit_code == 0, lenient.output
    result = cli.invoke(app, ["repro", "moller", "--strict", "--out", str(tmp_path / "out")])
    assert result.exit_code == 1
    assert "✓" in result.stdout and "✗" in result.stdout
    assert "curves coincide" in result.stdout
    assert "Paper figures reproduced by simulation: 1/2" in result.stdout


def test_repro_exits_1_when_an_experiment_breaks_down(tmp_path):
    register(Good)
    register(Broken)
    result = cli.invoke(app, ["repro", "moller", "--out", str(tmp_path / "out")])
    assert result.exit_code == 1
    assert "analysis completes" in result.stdout


# --- list -----------------------------------------------------------------------------------


def test_list_json_shape(monkeypatch):
    register(Good)
    bench = types.ModuleType("tcpsim.bench")
    bench.WORKLOADS = {"dumbbell": ("400 flows over a dumbbell", lambda: None), "tiny": "one flow"}
    monkeypatch.setitem(sys.modules, "tcpsim.bench", bench)
    result = cli.invoke(app, ["list", "--json"])
    assert result.exit_code == 0, result.output
    listed = json.loads(result.stdout)
    from tcpsim.paths import builtin_scenario_names

    assert [s["name"] for s in listed.pop("scenarios")] == builtin_scenario_names()
    assert "lossy_link" in builtin_scenario_names()
    assert listed == {
        "experiments": [{"id": "moller.fig3", "title": "a model that matches", "paper": "moller"}],
        "workloads": [
            {"name": "dumbbell", "description": "400 flows over a dumbbell"},
            {"name": "tiny", "description": "one flow"},
        ],
    }
    human = cli.invoke(app, ["list"])
    assert "moller.fig3" in human.stdout and "dumbbell" in human.stdout


# --- bench ----------------------------------------------------------------------------------


def test_bench_json_and_unknown_workload(monkeypatch):
    calls = []
    bench = types.ModuleType("tcpsim.bench")
    bench.WORKLOADS = {"dumbbell": "400 flows"}

    def run_benchmarks(names, jobs):
        calls.append((names, jobs))
        return [
            {
                "name": "dumbbell",
                "events": 10**6,
                "wall_s": 0.5,
                "events_per_s": 2e6,
                "sim_s_per_wall_s": 120.0,
                "sim_s": 60.0,
                "python_s": 0.2,
                "peak_rss_mb": 80.5,
                "process_wall_s": 1.1,
                "engine_build": "pgo",
            }
        ]

    bench.run_benchmarks = run_benchmarks
    monkeypatch.setitem(sys.modules, "tcpsim.bench", bench)
    result = cli.invoke(app, ["bench", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["workloads"][0]["events_per_s"] == 2e6
    assert calls == [(None, 1)]
    table = cli.invoke(app, ["bench", "dumbbell", "-j", "2"]).stdout
    assert "dumbbell" in table and "engine build: pgo" in table
    assert calls[-1] == (["dumbbell"], 2)

    bad = cli.invoke(app, ["bench", "nope"])
    assert bad.exit_code == 2
    assert "unknown workload 'nope'" in one_error_line(bad)


def test_bench_startup_prints_the_first_and_the_repeat_run(monkeypatch):
    import tcpsim.bench.startup as startup

    asked = []

    def measure_startup(runs):
        asked.append(runs)
        spread = {"median": 0.125, "min": 0.12, "max": 0.13}
        return {
            "name": "startup",
            "command": "tcpsim run lossy_link.toml --json",
            "runs": runs,
            "first_run_s": spread,
            "repeat_run_s": {"median": 0.042, "min": 0.041, "max": 0.05},
        }

    monkeypatch.setattr(startup, "measure_startup", measure_startup)
    table = cli.invoke(app, ["bench", "--startup", "--runs", "3"])
    assert table.exit_code == 0, table.output
    assert "first" in table.stdout and "0.125" in table.stdout and "0.042" in table.stdout
    as_json = cli.invoke(app, ["bench", "--startup", "--json"])
    assert json.loads(as_json.stdout)["startup"]["repeat_run_s"]["max"] == 0.05
    assert asked == [3, 11]
    both = cli.invoke(app, ["bench", "dumbbell", "--startup"])
    assert both.exit_code == 2 and "workload names or --startup, not both" in one_error_line(both)
    none = cli.invoke(app, ["bench", "--startup", "--runs", "0"])
    assert none.exit_code == 2 and "--runs" in one_error_line(none)


# --- model ----------------------------------------------------------------------------------


def test_model_moller_json_shape():
    pytest.importorskip("tcpsim.models.moller", reason="tcpsim.models.moller is not written yet")
    result = cli.invoke(
        app, ["model", "moller", "--capacity", "10Mbps", "--rtt", "50ms", "--buffers", "2:84", "--json"]
    )
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    columns = ["buffer_pkts", "newreno", "westwood_plus", "utilization"]
    assert all(len(out[c]) == 83 for c in columns)
    assert out["buffer_pkts"][:2] == [2.0, 3.0] and out["buffer_pkts"][-1] == 84.0
    assert all(0.0 <= x <= 1.0 + 1e-9 for c in ("newreno", "westwood_plus", "utilization") for x in out[c])
    assert out["bdp_pkts"] == pytest.approx(10e6 / 8 * 0.05 / 1500)


@pytest.mark.parametrize(
    ("spec", "expected"), [("2:10:4", [2.0, 6.0, 10.0]), ("5,7.5", [5.0, 7.5]), ("3:5", [3.0, 4.0, 5.0])]
)
def test_model_moller_buffer_forms(spec, expected):
    pytest.importorskip("tcpsim.models.moller", reason="tcpsim.models.moller is not written yet")
    result = cli.invoke(app, ["model", "moller", "--buffers", spec, "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["buffer_pkts"] == expected


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--capacity", "10"], "--capacity"),
        (["--rtt", "fast"], "--rtt"),
        (["--buffers", "10:2"], "--buffers"),
        (["--buffers", "a,b"], "--buffers"),
        (["--buffers", "0,5"], "positive"),
    ],
)
def test_model_moller_bad_input_is_one_line_exit_2(args, fragment):
    pytest.importorskip("tcpsim.models.moller", reason="tcpsim.models.moller is not written yet")
    result = cli.invoke(app, ["model", "moller", *args])
    assert result.exit_code == 2
    assert fragment in one_error_line(result)


def test_model_moller_table_and_plot(tmp_path):
    pytest.importorskip("tcpsim.models.moller", reason="tcpsim.models.moller is not written yet")
    figure = tmp_path / "moller.png"
    result = cli.invoke(app, ["model", "moller", "--buffers", "10,42,84", "--plot", str(figure)])
    assert result.exit_code == 0, result.output
    assert "Westwood+" in result.stdout and "C·T = 41.7 packets" in result.stdout
    assert figure.stat().st_size > 0


# --- validate and run -----------------------------------------------------------------------


def test_validate_ok(scenario_file):
    result = cli.invoke(app, ["validate", str(scenario_file)])
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == "ok: 3 nodes, 2 links, 1 flows"


def test_validate_reports_each_scenario_error_on_its_own_line(scenario_file):
    result = cli.invoke(app, ["validate", str(scenario_file), "--set", "links[1].rate=fast", "--set", "duration=-1s"])
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert len(lines) >= 2 and all(line.startswith("error: ") for line in lines)
    assert any("links[1].rate" in line for line in lines) and any("duration" in line for line in lines)


def test_missing_file_is_a_one_line_error(tmp_path):
    for command in (["validate"], ["run"], ["sweep", "--grid", "duration=1s"]):
        result = cli.invoke(app, [*command, str(tmp_path / "nope.toml")])
        assert result.exit_code == 2
        assert "nope.toml" in one_error_line(result)


def test_run_json_is_exactly_one_object(scenario_file):
    result = cli.invoke(app, ["run", str(scenario_file), "--seed", "3", "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert set(out) == {"meta", "flows", "links", "udp", "classes", "web", "transfers"}
    assert out["meta"]["seed"] == 3 and out["flows"][0]["rtt_mean_s"] is None


def test_run_prints_tables_and_saves(scenario_file, tmp_path):
    result = cli.invoke(app, ["run", str(scenario_file), "--set", "duration=20s", "--out", str(tmp_path / "run")])
    assert result.exit_code == 0, result.output
    assert "bulk" in result.stdout and "bottleneck" in result.stdout and "123,456 events" in result.stdout
    assert (tmp_path / "run" / "flows.csv").exists()


def test_run_bad_set_is_exit_2(scenario_file):
    result = cli.invoke(app, ["run", str(scenario_file), "--set", "links[7].rate=1Mbps"])
    assert result.exit_code == 2
    assert "links[7]" in one_error_line(result)


# --- sweep ----------------------------------------------------------------------------------


def test_sweep_json_rows(scenario_file):
    result = cli.invoke(
        app, ["sweep", str(scenario_file), "--grid", "links[1].rate=1Mbps,2Mbps", "--seeds", "2", "-j", "1", "--json"]
    )
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)
    assert [(r["links[1].rate"], r["seed"]) for r in rows] == [("1Mbps", 1), ("1Mbps", 2), ("2Mbps", 1), ("2Mbps", 2)]
    assert rows[3]["goodput_bps"] == 2e6


def test_sweep_writes_its_folder_and_summarizes(scenario_file, tmp_path):
    out = tmp_path / "sweep"
    result = cli.invoke(
        app,
        [
            "sweep",
            str(scenario_file),
            "--grid",
            'links[1].queue=["10pkt", "20pkt"]',
            "--grid",
            "tcp.mss=500,1000",
            "--seeds",
            "2",
            "-j",
            "1",
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    df = pd.read_csv(out / "flows.csv")
    assert len(df) == 8 and sorted(df["tcp.mss"].unique()) == [500, 1000]
    assert df["links[1].queue_pkts"].tolist() == [10] * 4 + [20] * 4
    assert len(pd.read_csv(out / "links.csv")) == 8 and len(pd.read_csv(out / "runs.csv")) == 8
    assert sorted(p.name for p in (out / "points").iterdir()) == ["0", "1", "2", "3"]
    assert "goodput per flow" in result.stdout and "8 runs (8 flow rows) saved" in result.stdout


def test_sweep_summary_groups_list_valued_parameters(scenario_file):
    loss = 'links[1].loss=[[], [{kind = "bernoulli", p = 0.01}]]'
    result = cli.invoke(app, ["sweep", str(scenario_file), "--grid", loss, "-j", "1"])
    assert result.exit_code == 0, result.output
    assert "[{'kind': 'bernoulli', 'p': 0.01}]" in result.stdout


def test_sweep_file_with_command_line_precedence(scenario_file, tmp_path):
    sweep_file = tmp_path / "sweep.toml"
    sweep_file.write_text(
        'seeds = [3, 4]\n[set]\nduration = "5s"\n[grid]\ntcp.mss = [500, 1000]\n"links[1].rate" = ["1Mbps"]\n'
    )
    result = cli.invoke(
        app,
        ["sweep", str(scenario_file), "--sweep", str(sweep_file), "--grid", "links[1].rate=3Mbps", "--json", "-j", "1"],
    )
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)
    assert [(r["tcp.mss"], r["links[1].rate"], r["seed"]) for r in rows] == [
        (500, "3Mbps", 3),
        (500, "3Mbps", 4),
        (1000, "3Mbps", 3),
        (1000, "3Mbps", 4),
    ]
    result = cli.invoke(
        app, ["sweep", str(scenario_file), "--sweep", str(sweep_file), "--seeds", "2", "--json", "-j", "1"]
    )
    assert result.exit_code == 0, result.output
    assert {r["seed"] for r in json.loads(result.stdout)} == {1, 2}  # a count: seeds 1..2


def test_sweep_set_applies_to_every_run(scenario_file, monkeypatch):
    seen = []
    monkeypatch.setattr(runner, "_run_one", lambda spec: seen.append(dict(spec.overrides)) or fake_result(spec.seed))
    result = cli.invoke(app, ["sweep", str(scenario_file), "--set", "duration=3s", "--seeds", "1,5", "-j", "1"])
    assert result.exit_code == 0, result.output
    assert seen == [{"duration": "3s"}, {"duration": "3s"}]


def test_sweep_with_failed_runs_exits_1_and_says_how_many_and_why(scenario_file, monkeypatch, tmp_path):
    def flaky(spec):
        if dict(spec.overrides)["tcp.mss"] == 1000:
            raise RuntimeError("engine exploded")
        return fake_result(spec.seed)

    monkeypatch.setattr(runner, "_run_one", flaky)
    out = tmp_path / "partial"
    args = ["sweep", str(scenario_file), "--grid", "tcp.mss=500,1000", "--seeds", "3", "-j", "1", "--out", str(out)]
    result = cli.invoke(app, args)
    assert result.exit_code == 1
    progress = [line for line in result.stderr.splitlines() if line.startswith("progress: ")]
    assert progress[-1].startswith("progress: 6/6 runs, 3 failed")  # not a terminal: lines
    warning, *errors = [line for line in result.stderr.splitlines() if line not in progress]
    assert warning.startswith("warning: the scenario has no random component")  # fixed-rate links only
    assert errors == [
        "error: 3 of 6 runs failed:",
        "error:   3 runs (tcp.mss=1000 seed 1; tcp.mss=1000 seed 2; tcp.mss=1000 seed 3): RuntimeError: engine exploded",
    ]
    runs = pd.read_csv(out / "runs.csv")
    assert runs["status"].tolist() == ["ok"] * 3 + ["failed"] * 3 and len(pd.read_csv(out / "flows.csv")) == 3


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--grid", "links[1].rate"], "expected PATH=VALUES"),
        (["--grid", "links[1].rate=1Mbps,,2Mbps"], "empty value"),
        (["--grid", "links[1].rate=1Mbps", "--out", "x.csv"], "--out x.csv: give a directory"),
        (["--seeds", "0"], "--seeds: '0' is neither a count"),
        (["--seeds", "1,x"], "--seeds '1,x': 'x' is not a seed"),
        (["--set", "duration"], "expected PATH=VALUE"),
        (["--sweep", "nope.toml"], "nope.toml: cannot read sweep file"),
        (["--grid", "tcp.mss=500", "--set", "tcp.mss=600"], "tcp.mss: both set and a grid axis"),
        (["--grid", "links[1].ratee=1Mbps"], "ratee"),
    ],
)
def test_sweep_bad_input_is_exit_2(scenario_file, args, fragment):
    result = cli.invoke(app, ["sweep", str(scenario_file), "-j", "1", *args])
    assert result.exit_code == 2
    assert fragment in result.stderr
    assert all(line.startswith("error: ") for line in result.stderr.splitlines())


# --- misc -----------------------------------------------------------------------------------


def test_version(monkeypatch):
    monkeypatch.setattr(tcpsim, "__version__", "9.9.9", raising=False)
    monkeypatch.setattr(tcpsim, "__commit__", "abc123", raising=False)
    result = cli.invoke(app, ["--version"])
    assert result.exit_code == 0
    assert result.stdout.strip() == "tcpsim 9.9.9 (commit abc123)"


@pytest.mark.parametrize(
    "command", [[], ["run"], ["validate"], ["list"], ["repro"], ["sweep"], ["bench"], ["model", "moller"]]
)
def test_help_is_available_for_every_command(command):
    result = cli.invoke(app, [*command, "--help"])
    assert result.exit_code == 0
    assert "Usage: tcpsim" in result.stdout


def _commands(group, prefix=()):
    import typer.main

    command = typer.main.get_command(group) if not hasattr(group, "commands") else group
    for name, sub in command.commands.items():
        if hasattr(sub, "commands"):
            yield from _commands(sub, (*prefix, name))
        else:
            yield (*prefix, name)


@pytest.mark.parametrize("command", list(_commands(app)), ids=" ".join)
def test_usage_lines_name_arguments_as_posix_usage_does(command):
    out = cli.invoke(app, [*command, "--help"])
    assert out.exit_code == 0, out.output
    usage = out.output.splitlines()[0]
    assert usage.startswith("Usage: tcpsim ")
    assert "{" not in usage and "}" not in usage, usage


def test_a_semicolon_between_keys_gets_a_toml_hint(tmp_path):
    path = tmp_path / "s.toml"
    path.write_text('duration = "1s"; warmup = "0s"\n')
    out = cli.invoke(app, ["validate", str(path)])
    assert out.exit_code == 2
    assert "TOML has no `;` between keys: write one `key = value` per line" in out.output
    path.write_text("duration = 1s\n")  # another mistake: no such hint
    out = cli.invoke(app, ["validate", str(path)])
    assert out.exit_code == 2 and "not valid TOML" in out.output and ";" not in out.output.split("TOML:")[-1]


def test_sweep_summary_keeps_the_grid_order_of_rates(scenario_file):
    result = cli.invoke(app, ["sweep", str(scenario_file), "--grid", "links[1].rate=5Mbps,10Mbps,20Mbps", "-j", "1"])
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert text.index("5Mbps") < text.index("10Mbps") < text.index("20Mbps")


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["bogus"], "error: No such command 'bogus'. (see 'tcpsim -h')"),
        (["--bogus"], "error: No such option: --bogus"),
        (["run"], "error: Missing argument 'FILE'. (see 'tcpsim run -h')"),
        (["run", "scenarios/lossy_link.toml", "--bogus", "1"], "error: No such option: --bogus"),
        (["repro", "moller.fig5", "-j", "0"], "error: Invalid value for '--jobs' / '-j'"),
        (["model", "nonsense"], "error: No such command 'nonsense'. (see 'tcpsim model -h')"),
        (["store", "gc", "--max-size"], "error: Option '--max-size' requires an argument. (see 'tcpsim store gc -h')"),
    ],
)
def test_a_mistake_the_parser_finds_is_one_error_line_like_every_other(args, line):
    """click's usage block ("Usage: … Error: …") becomes tcpsim's `error:` line, exit 2, with a
    pointer to the command's help; scripts read the first line of stderr."""
    result = cli.invoke(app, args)
    assert result.exit_code == 2
    assert result.stderr.splitlines()[0].startswith(line), result.stderr
    assert len(result.stderr.splitlines()) == 1 and result.stdout == ""


def test_tcpsim_alone_still_prints_the_help():
    result = cli.invoke(app, [])
    assert result.exit_code == 2
    assert result.output.startswith("Usage: tcpsim [OPTIONS] COMMAND [ARGS]...")


def test_python_dash_m_tcpsim_is_the_command_line():
    done = subprocess.run(
        [sys.executable, "-m", "tcpsim", "run", "x.toml", "--seed", "1", "--seed", "2"], capture_output=True, text=True
    )
    assert done.returncode == 2
    assert done.stderr == "error: --seed given more than once; give it once (see 'tcpsim run -h')\n"


def test_the_console_script_prints_the_same_error_line(tmp_path):
    script = [sys.executable, "-c", "from tcpsim.launch import main; main()"]
    done = subprocess.run([*script, "run", "x.toml", "--seed", "1", "--seed", "2"], capture_output=True, text=True)
    assert done.returncode == 2
    assert done.stderr == "error: --seed given more than once; give it once (see 'tcpsim run -h')\n"
