"""RED queues and ECN from the scenario file to the result tables (issue 15, items 2 and 3):
mistakes in a RED table exit 2 naming the field; ECN without a marking queue is a warning;
marks and window reductions reach `r.links` and `r.flows`; RED holds the queue near its
thresholds where drop-tail fills its buffer."""

import warnings

import pytest
import tcpsim
from engine_schema import assert_canonical_shape
from tcpsim.cli import app
from tcpsim.limits import ScenarioWarning
from tcpsim.scenario import ScenarioError, load_scenario
from typer.testing import CliRunner

SCENARIO = "scenarios/red_ecn.toml"
RED = {"kind": "red", "limit": "100pkt"}


def red_queue(**fields) -> dict:
    """A small RED scenario (bottleneck 1 Mb/s) whose queue table is RED with `fields`."""
    return {
        "duration": "10s",
        "tcp": {"ecn": True},
        "links": [{"a": "x", "b": "y", "rate": "1Mbps", "delay": "10ms", "queue": RED | fields}],
        "flows": [{"src": "x", "dst": "y"}],
    }


def engine_queue(**fields) -> dict:
    return load_scenario(red_queue(**fields)).to_engine()["links"][0]["ab"]["queue"]


@pytest.mark.parametrize(
    ("setting", "line"),
    [
        ("min_th=20pkt", "links[1].queue.min_th: min_th (20pkt) must be less than max_th (15pkt)"),
        ("max_p=0", "links[1].queue.max_p: 0 is not in (0, 1]; use a number above 0 and at most 1, e.g. 0.1"),
        ("max_p=1.5", "links[1].queue.max_p: 1.5 is not in (0, 1]; use a number above 0 and at most 1, e.g. 0.1"),
        ("w_q=0", "links[1].queue.w_q: 0 is not in (0, 1]; use a number above 0 and at most 1, e.g. 0.1"),
        (
            "min_th=5KB",
            'links[1].queue.min_th: \'5KB\' is in bytes; byte thresholds need mode = "byte", or give packets ("5pkt")',
        ),
        ("mode=bytes", "links[1].queue.mode: 'bytes' is not a RED mode; allowed: byte, packet"),
        (
            "target_delay=5ms",
            'links[1].queue.target_delay: applies only with thresholds = "auto"; min_th and max_th are used otherwise',
        ),
        ("mark_p=2", "links[1].queue.mark_p: 2 is not a probability; use a number from 0 to 1, e.g. 0.005"),
        ("gentle=1", "links[1].queue.gentle: 1 is not a boolean; use true or false"),
    ],
)
def test_a_bad_red_setting_exits_2_with_the_field_path(setting, line):
    result = CliRunner().invoke(app, ["validate", SCENARIO, "--set", f"links[1].queue.{setting}"])
    assert result.exit_code == 2, result.output
    assert result.output.strip().splitlines() == [f"error: {line}"]


def test_auto_thresholds_exclude_explicit_ones_and_a_queue_needs_a_limit():
    with pytest.raises(ScenarioError) as caught:
        load_scenario(red_queue(thresholds="auto", min_th="5pkt", max_th="15pkt"))
    assert [path for path, _ in caught.value.errors] == ["links[0].queue.min_th", "links[0].queue.max_th"]
    with pytest.raises(ScenarioError) as caught:
        load_scenario(
            red_queue() | {"links": [{"a": "x", "b": "y", "rate": "1Mbps", "delay": "1ms", "queue": {"kind": "red"}}]}
        )
    assert str(caught.value) == "links[0].queue.limit: required key is missing"


def test_defaults_are_ns2s_and_thresholds_follow_the_mode():
    q = engine_queue()
    assert (q["min_th"], q["max_th"], q["max_p"], q["w_q"], q["gentle"], q["wait"]) == (5, 15, 0.1, 0.002, True, True)
    assert (q["mode"], q["mean_packet_bytes"], q["ecn"], q["mark_p"], q["limit_packets"]) == (
        "packet",
        500,
        False,
        1,
        100,
    )
    assert engine_queue(min_th="8pkt")["max_th"] == 24, "max_th defaults to 3·min_th (ns-2)"
    byte = engine_queue(mode="byte", min_th="5pkt", max_th="9000B", mean_packet="1000B")
    assert (byte["min_th"], byte["max_th"]) == (5000, 9000), "packets count mean_packet bytes each in byte mode"
    assert_canonical_shape(load_scenario(red_queue(mode="byte", min_th="5KB", max_th="15KB")).to_engine())


def test_auto_thresholds_are_half_the_queue_that_drains_in_the_target_delay():
    # 1 Mb/s, 500-byte mean packets: 250 packets/s; 100 ms drain 25 packets; min_th = 12.5.
    q = engine_queue(thresholds="auto", target_delay="100ms")
    assert (q["min_th"], q["max_th"]) == (12.5, 37.5)
    q = engine_queue(thresholds="auto")  # 5 ms: 1.25 packets, so min_th stays at 5
    assert (q["min_th"], q["max_th"]) == (5, 15)
    q = engine_queue(thresholds="auto", target_delay="100ms", mode="byte")
    assert (q["min_th"], q["max_th"]) == (6250, 18750)


def test_ecn_without_a_marking_queue_on_the_path_is_a_warning_not_an_error():
    plain = red_queue() | {"links": [{"a": "x", "b": "y", "rate": "1Mbps", "delay": "10ms", "queue": "20pkt"}]}
    with pytest.warns(ScenarioWarning, match=r"tcp\.ecn: flow 'flow0' uses ECN but no queue on its path marks"):
        tcpsim.run(plain | {"duration": "1s"}, seed=1)
    per_flow = plain | {"tcp": {}, "flows": [{"src": "x", "dst": "y", "tcp": {"ecn": True}}]}
    with pytest.warns(ScenarioWarning, match=r"flows\[0\]\.tcp\.ecn: "):
        tcpsim.run(per_flow | {"duration": "1s"}, seed=1)
    for marking in (red_queue(ecn=True), red_queue(ecn=True) | {"tcp": {"ecn": False}}):
        with warnings.catch_warnings():
            warnings.simplefilter("error", ScenarioWarning)
            tcpsim.run(marking | {"duration": "1s"}, seed=1)
    cli = CliRunner().invoke(app, ["validate", SCENARIO, "--set", "links[1].queue.ecn=false"])
    assert cli.exit_code == 0, cli.output
    assert "warning: tcp.ecn: flow 'ecn.0' uses ECN but no queue on its path marks packets" in cli.output


def test_an_ecn_run_shows_marks_on_the_link_and_reductions_in_the_flows():
    r = tcpsim.run(SCENARIO, seed=1, duration="30s")
    bottleneck = r.links[r.links["name"] == "bottleneck"].set_index("direction")
    assert bottleneck.loc["ab", "marks_ecn"] > 50
    assert bottleneck.loc["ab", "drops_queue"] == bottleneck.loc["ab", "drops_early"] == 0
    assert (r.flows["ecn_reductions"] > 0).all()
    assert (r.flows["ce_received"] >= r.flows["ecn_reductions"]).all()
    assert (r.flows["bytes_retransmitted"] == 0).all(), "marks, not losses"
    assert r.flows["ce_received"].sum() <= bottleneck.loc["ab", "marks_ecn"]
    doc = r.to_json_dict()
    assert {"marks_ecn", "drops_early"} <= set(doc["links"][0]) and {"ecn_reductions", "ce_received"} <= set(
        doc["flows"][0]
    )


def test_without_ecn_red_drops_early_and_nothing_is_marked():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ScenarioWarning)  # the flows ask for ECN the queue no longer gives
        r = tcpsim.run(SCENARIO, seed=1, duration="30s", **{"links[1].queue.ecn": False})
    bottleneck = r.links[(r.links["name"] == "bottleneck") & (r.links["direction"] == "ab")].iloc[0]
    assert bottleneck["marks_ecn"] == 0
    assert bottleneck["drops_early"] > 20 and bottleneck["drops_early"] == bottleneck["drops_queue"]
    assert (r.flows["ecn_reductions"] == 0).all() and (r.flows["ce_received"] == 0).all()


def test_red_keeps_the_average_queue_near_its_thresholds_where_drop_tail_fills_the_buffer():
    bottleneck = lambda r: r.links[(r.links["name"] == "bottleneck") & (r.links["direction"] == "ab")].iloc[0]  # noqa: E731
    red = bottleneck(tcpsim.run(SCENARIO, seed=1, duration="30s"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ScenarioWarning)
        drop_tail = bottleneck(tcpsim.run(SCENARIO, seed=1, duration="30s", **{"links[1].queue": "1BDP"}))
    # The buffer is 1 BDP = 62 500 bytes, 60 packets of 1040 bytes.
    assert 3 < red["queue_mean_pkts"] < 15, red["queue_mean_pkts"]
    assert drop_tail["queue_mean_pkts"] > 30, drop_tail["queue_mean_pkts"]
    assert drop_tail["queue_max_pkts"] == 60 and red["queue_max_pkts"] < 30
    assert red["utilization"] > 0.9, "a short queue still keeps the link busy"
