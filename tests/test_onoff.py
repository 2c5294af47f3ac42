"""ON/OFF TCP flows (`on = [[start, end], ...]`): the application sends only inside its ON
intervals, the connection persists across OFF, and bad interval lists are refused by path."""

import numpy as np
import pytest
import tcpsim
from tcpsim.cli import app
from tcpsim.scenario import ScenarioError, load_scenario
from typer.testing import CliRunner


def scenario(**flow):
    return {
        "duration": "10s",
        "tcp": {"mss": 1000, "header": 40, "init_cwnd": 1, "delack_count": 1, "rwnd": "60KB"},
        "links": [
            {"name": "access", "a": "s", "b": "r", "rate": "100Mbps", "delay": "1ms", "queue": "100pkt"},
            {"name": "bottleneck", "a": "r", "b": "d", "rate": "10Mbps", "delay": "10ms", "queue": "100pkt"},
        ],
        "flows": [{"name": "f", "src": "s", "dst": "d", **flow}],
        "trace": {"throughput_bin": "100ms", "cwnd": True},
    }


def test_bytes_are_delivered_only_inside_on_intervals_and_the_window_survives_off():
    # rwnd 60 KB: more than the path's BDP (27.5 KB), less than BDP + queue, so no loss and all
    # data sent before an interval's end arrives within 100 ms of it.
    r = tcpsim.run(scenario(on=[["1s", "3s"], ["6s", "8s"]]), seed=1)
    bins = r.trace("throughput")
    t = bins["time_s"].to_numpy()
    delivered = bins["bytes"].to_numpy()
    on = ((t >= 1) & (t < 3.1)) | ((t >= 6) & (t < 8.1))
    assert delivered[~on].sum() == 0
    assert (delivered[((t >= 1) & (t < 3)) | ((t >= 6) & (t < 8))] > 0).all()
    assert delivered.sum() == r.flows.loc[0, "bytes_delivered"]
    first_on, resumed = delivered[np.isclose(t, 1.0)][0], delivered[np.isclose(t, 6.0)][0]
    assert first_on < 60_000 < 100_000 < resumed, "slow start at 1 s; the kept window fills the link at 6 s"
    cwnd = r.trace("cwnd")
    idle = cwnd[(cwnd["time_s"] > 3.1) & (cwnd["time_s"] < 6)]
    assert idle.empty
    assert cwnd[cwnd["time_s"] < 6]["cwnd_bytes"].iloc[-1] > 50 * 1000


def test_an_empty_on_list_sends_nothing_and_total_bytes_limit_all_intervals():
    never = tcpsim.run(scenario(on=[]), seed=1)
    assert never.flows.loc[0, ["packets_sent", "bytes_delivered"]].tolist() == [0, 0]
    capped = tcpsim.run(scenario(on=[["1s", "2s"], ["3s", "4s"]], bytes="50KB"), seed=1)
    assert capped.flows.loc[0, "bytes_delivered"] == 50_000


def test_the_engine_gets_the_intervals_in_nanoseconds():
    engine = load_scenario(scenario(on=[["250s", "500s"], ["750s", "1000s"]])).to_engine()
    assert engine["flows"][0]["app"] == {
        "kind": "on_off",
        "on_ns": [[250 * 10**9, 500 * 10**9], [750 * 10**9, 1000 * 10**9]],
        "bytes": None,
    }


@pytest.mark.parametrize(
    ("flow", "path", "fragment"),
    [
        ({"on": [["1s", "2s"]], "start": "1s"}, "flows[0].start", "cannot be combined with `on`"),
        ({"on": [["1s", "2s"]], "stop": "5s"}, "flows[0].stop", "cannot be combined with `on`"),
        ({"on": [["1s", "2s"]], "start_jitter": "1s"}, "flows[0].start_jitter", "cannot be combined with `on`"),
        ({"on": [["2s", "1s"]]}, "flows[0].on[0]", "is an empty interval; the end must be after the start"),
        ({"on": [["1s", "3s"], ["2s", "4s"]]}, "flows[0].on[1]", "before the previous interval ends (3s)"),
        ({"on": [["1s"]]}, "flows[0].on[0]", "is not an ON interval; use [start, end]"),
        ({"on": "1s"}, "flows[0].on", ""),
    ],
)
def test_bad_on_lists_are_errors_at_their_path(flow, path, fragment):
    with pytest.raises(ScenarioError) as error:
        load_scenario(scenario(**flow))
    assert any(where == path and fragment in message for where, message in error.value.errors), error.value.errors


def test_the_cli_refuses_on_with_start_with_exit_2_and_the_field_path(tmp_path):
    file = tmp_path / "s.toml"
    file.write_text(
        'duration = "5s"\n[[links]]\na = "s"\nb = "d"\nrate = "1Mbps"\ndelay = "1ms"\nqueue = "10pkt"\n'
        '[[flows]]\nsrc = "s"\ndst = "d"\nstart = "1s"\non = [["1s", "2s"]]\n'
    )
    result = CliRunner().invoke(app, ["run", str(file)])
    assert result.exit_code == 2
    assert result.stderr.strip() == (
        "error: flows[0].start: cannot be combined with `on`; the ON intervals give the start and stop times"
    )
