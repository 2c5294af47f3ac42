"""RD Network Services as a queue discipline (`podlesny` Sec. II-C, III): its settings are
checked by field; a flow's class mark defaults by variant; on a link used by one class it is a
drop-tail FIFO of that class's buffer share; with NewReno and Vegas it serves each class in
proportion to its flows where drop-tail lets NewReno take the link."""

import pytest
import tcpsim
from tcpsim.cli import app
from tcpsim.metrics import relative_fairness
from tcpsim.scenario import ScenarioError, load_scenario
from tcpsim.topologies import dumbbell
from typer.testing import CliRunner

RD = {"kind": "rd", "limit": "100pkt"}


def one_link(queue: dict, **flow) -> dict:
    return {
        "duration": "5s",
        "links": [{"a": "x", "b": "y", "rate": "10Mbps", "delay": "10ms", "queue": queue}],
        "flows": [{"src": "x", "dst": "y", **flow}],
    }


@pytest.mark.parametrize(
    ("setting", "line"),
    [
        ("k=0", "links[0].queue.k: 0 is not a positive number; use a number above 0, e.g. 1"),
        ("k=-1", "links[0].queue.k: -1 is not a positive number; use a number above 0, e.g. 1"),
        ("d_share=0", "links[0].queue.d_share: 0 is not in (0, 1); use a number strictly between 0 and 1, e.g. 0.1"),
        ("d_share=1", "links[0].queue.d_share: 1 is not in (0, 1); use a number strictly between 0 and 1, e.g. 0.1"),
        ("counter_slots=0", "links[0].queue.counter_slots: 0 is not a count;"),
        ("interval=0s", "links[0].queue.interval: "),
        ("counter_timeout=0s", "links[0].queue.counter_timeout: "),
        ("counter_delay_multiple=-1", "links[0].queue.counter_delay_multiple: -1 is not a number >= 0"),
        ("d_delay_bound=10ms", "links[0].queue.d_delay_bound: sizes the D buffer in bytes"),
    ],
)
def test_a_bad_rd_setting_exits_2_naming_the_field(tmp_path, setting, line):
    import tomli_w

    path = tmp_path / "rd.toml"
    path.write_text(tomli_w.dumps(one_link(RD)))
    result = CliRunner().invoke(app, ["validate", str(path), "--set", f"links[0].queue.{setting}"])
    assert result.exit_code == 2, result.output
    first = result.output.strip().splitlines()[0]
    assert first.startswith(f"error: {line}"), first


def test_defaults_are_the_papers_and_the_class_mark_follows_the_variant():
    engine = load_scenario(one_link(RD, variant="vegas")).to_engine()
    q = engine["links"][0]["ab"]["queue"]
    assert (q["kind"], q["k"], q["d_share"], q["limit_packets"]) == ("rd", 1.0, 0.1, 100)
    assert (q["interval_ns"], q["counter_slots"], q["counter_timeout_ns"]) == (100_000_000, 4096, 1_000_000_000)
    assert q["counter_delay_multiple"] == 2.0, "one backed-off RTO behind the class's queue"
    assert engine["flows"][0]["tcp"]["rd_class"] is None, "by the variant, decided in the engine"
    marked = load_scenario(one_link(RD, variant="vegas", tcp={"rd_class": "r"})).to_engine()
    assert marked["flows"][0]["tcp"]["rd_class"] == "r"
    with pytest.raises(ScenarioError, match=r"rd_class"):
        load_scenario(one_link(RD, tcp={"rd_class": "x"}))
    bound = load_scenario(one_link(RD | {"limit": "100KB", "d_delay_bound": "10ms"})).to_engine()
    assert bound["links"][0]["ab"]["queue"]["d_share"] is None


def test_a_link_of_one_class_is_a_fifo_of_that_classs_buffer_share():
    """All NewReno (class R, 90 % of 100 packets): bit-identical to drop-tail with 90 packets."""
    flows = {"variant": "newreno", "count": 3, "start_jitter": "1s"}
    rd = tcpsim.run(one_link(RD, **flows) | {"duration": "20s"}, seed=3)
    fifo = tcpsim.run(one_link("90pkt", **flows) | {"duration": "20s"}, seed=3)
    columns = ["bytes_delivered", "packets_sent", "packets_dropped", "timeouts", "final_cwnd_bytes"]
    assert rd.flows[columns].equals(fifo.flows[columns])
    link = rd.links.set_index("direction").loc["ab"]
    assert link["d_bytes_served"] == 0 and link["r_drops"] == link["drops_queue"] > 0
    assert link["r_limit"] == 90 and link["d_limit"] == 10
    assert link["r_flows"] == pytest.approx(3, abs=0.01) and link["d_flows"] == 0


def test_rd_shares_the_link_per_flow_where_drop_tail_favours_newreno():
    """4 NewReno + 4 Vegas over 10 Mb/s: drop-tail lets NewReno fill the buffer and take most
    of the link; RD serves the classes in the ratio of their flow counts (1 : 1)."""

    def run(queue):
        scenario = dumbbell(
            forward=8,
            variant=["newreno"] * 4 + ["vegas"] * 4,
            bottleneck_rate="10Mbps",
            rtt_range_s=(0.04, 0.1),
            duration="40s",
            warmup="10s",
            queue=queue,
        )
        r = tcpsim.run(scenario, seed=1)
        return r, relative_fairness(r.class_table(link="bottleneck"), "vegas", "newreno")

    _, unfair = run({"kind": "drop_tail", "limit": "1BDP"})
    rd, fair = run({"kind": "rd", "limit": "1BDP"})
    assert unfair < 0.5, f"Vegas per flow / NewReno per flow under drop-tail: {unfair:.2f}"
    assert 0.8 < fair < 1.25, f"under RD: {fair:.2f}"
    link = rd.links[(rd.links["name"] == "bottleneck") & (rd.links["direction"] == "ab")].iloc[0]
    assert link["r_flows"] == pytest.approx(4, abs=0.2) and link["d_flows"] == pytest.approx(4, abs=0.2)
    assert link["utilization"] > 0.9
