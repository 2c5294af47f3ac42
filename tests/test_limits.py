"""Issue #13's hostile inputs that reach the engine: runs too big to finish are refused before
they start (with the knob that allows them), what `run` used to die on is a `validate` error at
the user's path, and nonsense that runs gets a warning."""

from __future__ import annotations

import warnings

import pytest
import tcpsim
from tcpsim import runner
from tcpsim.cli import app
from tcpsim.limits import RunTooLarge, ScenarioWarning, check_limits, estimate_cost
from tcpsim.scenario import ScenarioError, load_scenario
from tcpsim.store import Store
from tcpsim.tidy import RunKey
from typer.testing import CliRunner

cli = CliRunner()
LOSSY = "scenarios/lossy_link.toml"


def validate(*overrides: str, force: bool = False):
    args = ["validate", LOSSY, *(arg for o in overrides for arg in ("--set", o))]
    return cli.invoke(app, [*args, "--force"] if force else args)


def error_lines(result) -> list[str]:
    return [line for line in result.stderr.splitlines() if line.startswith("error: ")]


def warning_lines(result) -> list[str]:
    return [line for line in result.stderr.splitlines() if line.startswith("warning: ")]


# --- item 2: runs too big to finish ------------------------------------------------------------


@pytest.mark.parametrize(
    ("overrides", "driver"),
    [
        (["tcp.min_rto=1ns", "tcp.max_rto=1ns", "tcp.initial_rto=1ns"], "retransmission timers (tcp.min_rto)"),
        (
            ['links[1].loss=[{kind="gilbert_elliott", good_mean="1ns", bad_mean="1ns", bad_loss=0.5}]'],
            "loss-model state changes (links[1].loss sojourns)",
        ),
        (
            ['links[1].loss=[{kind="two_state", good_sojourn="1ns", bad_sojourn="1ns", bad_loss=0.5}]'],
            "loss-model state changes (links[1].loss sojourns)",
        ),
        (['udp=[{src="source", dst="sink", rate="18446744073709551615bps"}]'], "packets on links[0] (access)"),
        (["links[*].delay=0s", "links[*].rate=18446744073709551615bps"], "packets on links"),
    ],
)
def test_a_run_of_too_many_events_is_refused_naming_its_cause_and_the_knobs(overrides, driver):
    result = validate(*overrides)
    assert result.exit_code == 2
    [line] = error_lines(result)
    assert line.startswith("error: limits.max_events: this run needs about ")
    assert f"are {driver}" in line
    assert "raise limits.max_events in the scenario, or run anyway with --force (force=True in tcpsim.run)" in line
    assert validate(*overrides, force=True).exit_code == 0


@pytest.mark.parametrize("count", [1_000_000, 2**32 - 1, 2**64])
def test_a_flow_count_beyond_the_schema_bound_is_an_error_not_a_memory_error(count):
    result = validate(f"flows[0].count={count}")
    assert result.exit_code == 2
    assert error_lines(result) == [f"error: flows[0].count: {count} is too large; at most 100000 is allowed here"]


def test_many_flows_are_refused_by_their_memory():
    limits = {"limits.max_memory": "100MiB"}
    with pytest.raises(
        RunTooLarge, match=r"^limits\.max_memory: 10000 flows \(the flows' counts\) need about 19\d MiB"
    ):
        tcpsim.run(LOSSY, duration="1s", **{"flows[0].count": 10_000}, **limits)


# --- item 3: memory blow-ups -----------------------------------------------------------------


@pytest.mark.parametrize(
    "overrides",
    [["duration=10s", "trace.throughput_bin=1ns"], ["trace.interval=1ns", "trace.cwnd=true", "trace.queue=true"]],
)
def test_traces_of_too_many_rows_are_refused(overrides):
    result = validate(*overrides)
    assert result.exit_code == 2
    assert any(
        line.startswith("error: limits.max_trace_rows: the traces would have about ") for line in error_lines(result)
    )


def test_the_limits_table_raises_a_limit(tmp_path):
    scenario = load_scenario(LOSSY, {"duration": "10s", "trace.throughput_bin": "1us"})
    assert 1e6 < estimate_cost(scenario.to_engine()).trace_rows < 1e8
    with pytest.raises(RunTooLarge, match=r"limits\.max_trace_rows"):
        tcpsim.run(LOSSY, duration="10s", **{"trace.throughput_bin": "1us", "limits.max_trace_rows": 10**6})


def test_one_run_too_big_fails_alone_in_a_sweep_and_the_others_are_stored(tmp_path):
    grid = {"trace.throughput_bin": ["1s", "1ns"]}
    with pytest.raises(runner.RunFailed) as caught:
        tcpsim.sweep(LOSSY, grid | {"duration": ["10s"]}, jobs=2, cache_dir=tmp_path, progress=False)
    failures, results = caught.value.failures, caught.value.results
    assert list(results) == [RunKey(point=0, seed=1)]
    [(key, message)] = failures.items()
    assert key == RunKey(point=1, seed=1)
    assert message.startswith("RunTooLarge: limits.max_events") or message.startswith(
        "RunTooLarge: limits.max_trace_rows"
    )
    stored = Store(tmp_path).catalog.runs()
    assert sorted(row["status"] for row in stored) == ["failed", "ok"]
    assert "RunTooLarge" in next(row["error"] for row in stored if row["status"] == "failed")


def test_the_api_refuses_unless_forced():
    too_big = {"tcp.min_rto": "1ns", "tcp.max_rto": "1ns", "tcp.initial_rto": "1ns"}
    with pytest.raises(RunTooLarge) as caught:
        tcpsim.run(LOSSY, **too_big)
    assert isinstance(caught.value, ScenarioError)
    with pytest.warns(ScenarioWarning):  # 1 ms is not 4 round trips
        result = tcpsim.run(LOSSY, force=True, duration="1ms", **too_big)
    assert result.meta["events"] > 1_000_000  # a timer every nanosecond


# --- item 4 and 8: what validate accepted and run died on -------------------------------------


@pytest.mark.parametrize(
    ("override", "expected"),
    [
        ("tcp.rtt_tick=100s", "error: tcp.rtt_tick: 100s is longer than max_rto (60s)"),
        (
            'tcp.cc={kind="westwood", null_sample_divisor=0}',
            "error: tcp.cc.null_sample_divisor: 0 (no null samples) needs a fixed-coefficient filter",
        ),
        (
            'tcp.cc={kind="westwood", tau="1ns"}',
            "error: tcp.cc.null_sample_divisor: 2 is more than tau in nanoseconds (1)",
        ),
        (
            'tcp.cc={kind="westwood", null_sample_divisor=4294967295}',
            "error: tcp.cc.null_sample_divisor: 4294967295 is more than tau in nanoseconds (500000000)",
        ),
        (
            "links[1].queue=1e300BDP",
            "error: links[1].queue: '1e300BDP' is 2.5e+304 bytes, more than the engine's largest queue",
        ),
        ("tcp.header=4294967295", "error: tcp.header: 4294967295 is too large; at most 65536 is allowed here"),
        ("tcp.mss=2GiB", "error: tcp.mss: '2GiB' is too large; at most 1073741824 is allowed here"),
        ("duration=2000000000s", "error: duration: '2000000000s' is too large; at most 1000000000000000000 is"),
    ],
)
def test_what_the_engine_would_refuse_is_a_validate_error_at_the_users_path(override, expected):
    result = validate(override, "bdp_rtt=100ms")
    assert result.exit_code == 2
    [line] = error_lines(result)
    assert line.startswith(expected), line


def test_null_samples_off_with_a_fixed_filter_runs_as_documented():
    cc = {"kind": "westwood", "null_sample_divisor": 0, "filter": {"kind": "tustin_fixed", "alpha": 0.9}}
    result = tcpsim.run(LOSSY, duration="5s", **{"flows[0].tcp.cc": cc})
    assert result.flows["goodput_bps"].iloc[0] > 0


def test_an_engine_error_is_an_error_line_with_exit_2(monkeypatch):
    def refuse(config_json, seed, pcap_paths=None):
        raise ValueError("flows[0].tcp.mss_bytes: must be in [1, 1073741824]")

    monkeypatch.setattr(tcpsim._core, "run", refuse)
    result = cli.invoke(app, ["run", LOSSY, "--set", "duration=1s"])
    assert result.exit_code == 2
    assert error_lines(result) == ["error: flows[0].tcp.mss_bytes: must be in [1, 1073741824]"]
    assert "Traceback" not in result.stderr


# --- item 9: nonsense that runs ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("overrides", "expected"),
    [
        (
            ["duration=1ns"],
            "warning: duration: the measurement window (duration − warmup = 1ns) is shorter than 4 round trips",
        ),
        (
            ["duration=10s", "warmup=9.9995s"],
            "warning: warmup: the measurement window (duration − warmup = 500us) is shorter",
        ),
        (
            ["tcp.init_cwnd=4294967295"],
            "warning: tcp.init_cwnd: an initial window of 4294967295 segments sends 1 GiB at once",
        ),
    ],
)
def test_nonsense_that_runs_is_warned_about(overrides, expected):
    result = validate(*overrides)
    assert result.exit_code == 0, result.stderr
    [line] = warning_lines(result)
    assert line.startswith(expected), line


def test_sensible_scenarios_get_no_warning():
    result = validate()
    assert result.exit_code == 0 and result.stderr == ""


def test_the_api_warns_with_a_scenario_warning():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        tcpsim.run(LOSSY, duration="1ms")
    assert [w.category for w in caught] == [ScenarioWarning]
    assert str(caught[0].message).startswith("duration: the measurement window")


def test_a_saturated_link_reads_busy_in_a_window_shorter_than_one_packet():
    # 2 Mb/s serializes a 440-byte packet in 1.76 ms; the window is 10 us.
    with pytest.warns(ScenarioWarning, match="shorter than 4 round trips"):
        result = tcpsim.run(LOSSY, duration="20.00001s", warmup="20s", **{"links[1].loss": []})
    lossy = result.links[(result.links["name"] == "lossy") & (result.links["src"] == "router")].iloc[0]
    assert lossy["utilization"] == 1.0


def test_rd_counter_slots_are_bounded_and_counted_as_memory():
    """A huge `counter_slots` once aborted the engine on allocation (issue 27): the scenario
    refuses more than 2^24, and the slots it allows count against limits.max_memory."""

    rd = 'links[1].queue={kind="rd", limit="100pkt", counter_slots=%d}'
    with pytest.raises(ScenarioError, match="counter_slots: 2147483648 is too large; at most 16777216"):
        load_scenario(LOSSY, [rd % 2**31])
    small = estimate_cost(load_scenario(LOSSY, [rd % 4096]).to_engine())
    large = estimate_cost(load_scenario(LOSSY, [rd % 2**24]).to_engine())
    # two directions x two classes x 8 bytes per slot
    assert large.memory_bytes - small.memory_bytes == pytest.approx(2 * 2 * 8 * (2**24 - 4096))


def test_pareto_arrivals_near_shape_one_are_refused_before_they_run(tmp_path):
    """Pareto gaps of shape 1.0000001 are almost all ~10^-7 of the mean: the run once
    allocated transfers until the process died (issue 27). The estimate counts the arrivals
    the shortest gap allows, so it is refused with its reason."""
    path = tmp_path / "web.toml"
    path.write_text(
        'duration = "20s"\n'
        '[[links]]\nname = "l"\na = "s"\nb = "c"\nrate = "10Mbps"\ndelay = "10ms"\nqueue = "100pkt"\n'
        '[[web]]\nname = "w"\nserver = "s"\nclients = ["c"]\n'
        'arrivals = {process = "pareto", rate = "50/s", shape = 1.0000001}\nsizes = {dist = "fixed", size = "30KB"}\n'
    )
    scenario = load_scenario(path)
    with pytest.raises(RunTooLarge, match="web transfers"):
        check_limits(scenario, estimate_cost(scenario.to_engine()))
    poisson = estimate_cost(load_scenario(path, ['web[0].arrivals={process="poisson", rate="50/s"}']).to_engine())
    pareto = estimate_cost(
        load_scenario(path, ['web[0].arrivals={process="pareto", rate="50/s", shape=1.1}']).to_engine()
    )
    assert poisson.transfers == pytest.approx(50 * 20) and pareto.transfers == pytest.approx(11 * 50 * 20)


def test_huge_flow_counts_are_refused_before_any_per_flow_work(tmp_path):
    """`validate` of two million flows once ran for minutes (issue 27): the scenario caps the
    flows at 10^6, and below that their memory is checked from the counts alone."""
    from tcpsim.limits import check_flow_expansion

    def scenario(counts: list[int], max_memory: str = "8GiB") -> str:
        text = f'duration = "10s"\n[limits]\nmax_memory = "{max_memory}"\n'
        text += '[[links]]\nname = "l"\na = "s"\nb = "d"\nrate = "10Mbps"\ndelay = "10ms"\nqueue = "100pkt"\n'
        for i, count in enumerate(counts):
            text += f'[[flows]]\nname = "f{i}"\nsrc = "s"\ndst = "d"\ncount = {count}\n'
        path = tmp_path / f"{len(counts)}-{max_memory}.toml"
        path.write_text(text)
        return str(path)

    with pytest.raises(ScenarioError, match="flows: 2000000 flows in all"):
        load_scenario(scenario([100_000] * 20))
    with pytest.raises(RunTooLarge, match="limits.max_memory: 60000 flows"):
        check_flow_expansion(load_scenario(scenario([30_000, 30_000], "1GiB")))
    check_flow_expansion(load_scenario(scenario([30_000, 30_000])))  # fits in 8 GiB


def _toggling_schedule(replicas: int, steps: int, step: str) -> list[str]:
    """Overrides for lossy_link: `replicas` bulk flows all switched on and off at every step."""
    unit = int(step.removesuffix("ms"))
    schedule = ", ".join(f'["{k * unit}ms", {replicas * (1 - k % 2)}]' for k in range(steps))
    return [f"flows[0].count={replicas}", f"flows[0].schedule=[{schedule}]", f"duration={steps * unit}ms"]


def test_a_schedule_that_switches_flows_often_is_costed_by_its_switches():
    """Issue 27: a schedule of many short steps was costed by its few packets (10^3 events) and
    ran 2·10^5 events, its ON/OFF switches; now each ON interval counts its start and end."""
    scenario = load_scenario(LOSSY, _toggling_schedule(20, 200, "5ms"))
    cost = estimate_cost(scenario.to_engine())
    assert cost.drivers["ON/OFF switches (flows[*].schedule, flows[*].on)"] == 2 * 20 * 100
    result = tcpsim.run(scenario, seed=1)
    # The estimate errs high, and not by orders of magnitude.
    assert result.meta["events"] <= cost.events <= 5 * result.meta["events"]


def test_a_huge_schedule_is_refused_before_its_intervals_are_built(monkeypatch):
    """10^4 replicas switched on 10^4 times would build 10^8 ON intervals (about 30 GB) before
    the cost was ever estimated: the count comes from the steps alone."""
    import tcpsim.scenario.traffic

    def never(*_args):
        raise AssertionError("the ON intervals were built before the limits were checked")

    monkeypatch.setattr(tcpsim.scenario.traffic, "replica_on_intervals", never)
    result = validate(*_toggling_schedule(10_000, 20_000, "1ms"))
    assert result.exit_code == 2
    [line] = error_lines(result)
    assert line.startswith("error: limits.max_memory: flows[0].schedule turns replicas on 100000000 times; ")
    assert "use fewer steps or replicas" in line
    with pytest.raises(RunTooLarge, match="limits.max_events: flows.0..schedule turns replicas on 5000000 times"):
        tcpsim.run(load_scenario(LOSSY, [*_toggling_schedule(1000, 10_000, "1ms"), "limits.max_events=1000000"]))
