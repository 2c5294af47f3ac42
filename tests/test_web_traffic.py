"""Web-like traffic (`[[web]]`): flow generators of finite TCP transfers, each a new connection
in a reclaimed slot; the transfers and web tables, their statistics and bad input."""

import json
import sys

import numpy as np
import pandas as pd
import pytest
import tcpsim
from engine_schema import assert_canonical_shape
from tcpsim.cli import app
from tcpsim.limits import RunTooLarge, estimate_cost
from tcpsim.scenario import ScenarioError, load_scenario
from tcpsim.store import Store
from typer.testing import CliRunner


def scenario(duration="20s", link_rate="1Gbps", delay="50ms", **web):
    """A server and clients c1, c2 behind a router; one web generator from `web`."""
    generator = {
        "name": "w",
        "server": "srv",
        "clients": ["c1"],
        "arrivals": {"process": "poisson", "rate": "1/s"},
        "sizes": {"dist": "fixed", "size": "14KB"},
        **web,
    }
    return {
        "duration": duration,
        "tcp": {"mss": 1000, "header": 40, "init_cwnd": 2, "delack_count": 1},
        "links": [
            {"name": "core", "a": "srv", "b": "r", "rate": link_rate, "delay": delay, "queue": "1000pkt"},
            {"name": "to_c1", "a": "r", "b": "c1", "rate": link_rate, "delay": "0s", "queue": "1000pkt"},
            {"name": "to_c2", "a": "r", "b": "c2", "rate": link_rate, "delay": "0s", "queue": "1000pkt"},
        ],
        "web": [generator],
    }


@pytest.mark.parametrize(
    "arrivals",
    [{"process": "poisson", "rate": "1000/s"}, {"process": "pareto", "rate": "60000/min", "shape": 2.5}],
)
def test_arrival_rate_and_mean_size_are_within_5_percent_over_10000_transfers(arrivals):
    sizes = {"dist": "pareto", "mean": "2KB", "shape": 2.5}
    r = tcpsim.run(scenario(duration="10.5s", delay="1ms", arrivals=arrivals, sizes=sizes), seed=1)
    t = r.transfers.iloc[:10_000]
    assert len(t) == 10_000
    rate = (len(t) - 1) / (t["start_s"].iloc[-1] - t["start_s"].iloc[0])
    assert rate == pytest.approx(1000, rel=0.05)
    assert t["bytes"].mean() == pytest.approx(2000, rel=0.05)
    assert t["completed"].all() and (t["fct_s"] > 0).all()


def test_every_transfer_starts_in_slow_start_with_two_four_eight_segments():
    # 14 segments of 1000 B from a fresh connection go out as 2 + 4 + 8 (initial window 2, one
    # ACK per segment) over P = 50 ms at 1 Gb/s (d = 8.32 us per segment, a = 0.32 us per ACK).
    # On one hop: the first round's ACKs are back at 2P + d + a; each of them, d apart,
    # releases two segments, so the second round leaves back to back and its first ACK is back
    # at 4P + 2d + 2a; the third round's eight segments leave back to back and the last arrives
    # 8d + P later: 5P + 10d + 2a. The router's second hop (0 ms) serializes every packet
    # again: one d more on each data leg (three) and one a more on each ACK leg (two).
    r = tcpsim.run(scenario(duration="60s"), seed=1)
    t = r.transfers
    # Transfers alone on the path: the previous one over 60 ms before, the next one after.
    alone = t[(t["start_s"] > t["end_s"].shift(1) + 0.06) & (t["start_s"].shift(-1) > t["end_s"])]
    assert len(alone) >= 20
    p, d, a = 0.05, 1040 * 8e-9, 40 * 8e-9
    fct = 5 * p + 10 * d + 2 * a + (3 * d + 2 * a)
    assert alone["fct_s"].to_numpy() == pytest.approx(fct, abs=1e-9)
    assert r.meta["connection_slots"] <= 5 < 50 < len(t), "slots are reused"
    w = r.web.iloc[0]
    assert w["packets_sent"] == 14 * w["transfers_started"], "no retransmission: every round was a full window"
    assert (t["packets_sent"] == 14).all(), "each transfer's own count: its 14 segments once"
    assert (t[["packets_retransmitted", "timeouts", "fast_retransmits"]] == 0).all().all()


def test_a_hundred_thousand_short_transfers_reuse_a_bounded_number_of_slots():
    r = tcpsim.run(scenario(duration="50s", delay="1ms", arrivals={"process": "poisson", "rate": "2000/s"}), seed=2)
    w = r.web.iloc[0]
    assert w["transfers_started"] > 99_000
    assert w["transfers_completed"] >= w["transfers_started"] - 20
    assert r.meta["connection_slots"] == w["connection_slots"] <= 50
    assert r.meta["packets"]["stale"] == 0


def test_the_web_table_the_transfers_table_and_the_throughput_series_agree():
    spec = scenario(
        duration="30s",
        link_rate="10Mbps",
        delay="10ms",
        clients=["c1", "c2"],
        variant="vegas",
        arrivals={"process": "poisson", "rate": "20/s"},
        sizes={"dist": "list", "sizes": ["10KB", "100KB"]},
    )
    spec["web"][0]["class"] = "short"
    spec["trace"] = {"throughput_bin": "1s"}
    r = tcpsim.run(spec, seed=4)
    w, t = r.web.iloc[0], r.transfers
    assert (w["name"], w["class"], w["variant"]) == ("w", "short", "vegas")
    assert set(t["client"]) == {"c1", "c2"} and set(t["bytes"]) == {10_000, 100_000}
    assert w["transfers_started"] == len(t) and w["transfers_completed"] == t["completed"].sum()
    done = t[t["completed"]]
    assert w["fct_mean_s"] == pytest.approx(done["fct_s"].mean())
    assert w["fct_median_s"] == pytest.approx(done["fct_s"].median())
    assert w["fct_p95_s"] == pytest.approx(np.percentile(done["fct_s"], 95))
    assert done["end_s"].to_numpy() == pytest.approx((done["start_s"] + done["fct_s"]).to_numpy(), abs=1e-12)
    assert t.loc[~t["completed"], ["end_s", "fct_s"]].isna().all().all()
    series = r.trace("throughput")
    assert series[series["flow_name"] == "w"]["bytes"].sum() == w["bytes_delivered"]
    assert w["throughput_bps"] == pytest.approx(w["bytes_delivered"] * 8 / 30)
    assert w["bytes_delivered"] >= done["bytes"].sum()


def test_each_transfer_counts_its_own_connections_sends_and_they_add_up_to_the_generators():
    # Two clients' transfers of 10–100 segments share a 10 Mb/s core with a 20-packet queue:
    # drops, fast retransmits and timeouts. Every segment a slot's connections sent belongs to
    # one transfer (open connections are counted up to the end of the run), so the transfers'
    # counts add up to the generator's packets (no warm-up: the window is the whole run).
    spec = scenario(
        duration="20s",
        link_rate="10Mbps",
        delay="5ms",
        clients=["c1", "c2"],
        arrivals={"process": "poisson", "rate": "30/s"},
        sizes={"dist": "list", "sizes": ["10KB", "100KB"]},
    )
    spec["links"][0]["queue"] = "20pkt"
    r = tcpsim.run(spec, seed=3)
    t, w = r.transfers, r.web.iloc[0]
    assert t["packets_sent"].sum() == w["packets_sent"]
    assert t["packets_retransmitted"].sum() > 0 and t["fast_retransmits"].sum() > 0 and t["timeouts"].sum() > 0
    first_sends = t["packets_sent"] - t["packets_retransmitted"]
    assert (first_sends <= t["bytes"] // 1000).all(), "a segment is sent new once"
    done = t[t["completed"]]
    assert (first_sends[t["completed"]] == done["bytes"] // 1000).all(), "a completed transfer sent all of its data"
    lossless = done[done["packets_retransmitted"] == 0]
    assert len(lossless) > 10 and (lossless[["timeouts", "fast_retransmits"]] == 0).all().all()
    assert (t.loc[t["timeouts"] + t["fast_retransmits"] > 0, "packets_retransmitted"] > 0).all()


def test_a_warm_up_keeps_every_transfer_listed_but_counts_the_window():
    spec = scenario(duration="20s", arrivals={"process": "poisson", "rate": "5/s"})
    spec["warmup"] = "10s"
    r = tcpsim.run(spec, seed=1)
    t, w = r.transfers, r.web.iloc[0]
    assert (t["start_s"] < 10).sum() > 20, "transfers of the warm-up are listed"
    assert w["transfers_started"] == (t["start_s"] >= 10).sum()
    in_window = t[(t["start_s"] >= 10) & t["completed"]]["bytes"].sum()
    assert in_window <= w["bytes_delivered"] < t["bytes"].sum(), "bytes count from the end of the warm-up"


def test_a_run_with_web_and_on_off_traffic_is_identical_per_seed_and_conserves_packets():
    spec = scenario(
        duration="20s",
        link_rate="10Mbps",
        delay="20ms",
        clients=["c1", "c2"],
        direction="upload",
        arrivals={"process": "pareto", "rate": "10/s", "shape": 1.5},
        sizes={"dist": "pareto", "mean": "30KB", "shape": 1.3},
    )
    spec["links"][0]["queue"] = "20pkt"
    spec["links"][0]["loss"] = [{"kind": "bernoulli", "p": 0.01}]
    spec["flows"] = [{"name": "onoff", "src": "srv", "dst": "c2", "on": [["1s", "5s"], ["9s", "30s"]]}]
    spec["web"].append({**spec["web"][0], "name": "down", "direction": "download", "variant": "sack"})
    a, b, c = (tcpsim.run(spec, seed=seed) for seed in (3, 3, 4))
    for name in ("flows", "links", "web", "transfers"):
        pd.testing.assert_frame_equal(getattr(a, name), getattr(b, name))
    assert not a.transfers.equals(c.transfers)
    p = a.meta["packets"]
    assert p["created"] == p["delivered"] + p["dropped"] + p["in_network"]
    assert a.web["packets_dropped"].sum() > 0 and a.flows.loc[0, "packets_dropped"] > 0


def test_results_with_web_traffic_save_serialize_and_survive_the_store(tmp_path):
    r = tcpsim.run(scenario(duration="10s", arrivals={"process": "poisson", "rate": "5/s"}), seed=1)
    out = r.save(tmp_path / "run")
    assert pd.read_csv(out / "transfers.csv").shape == (len(r.transfers), 13)
    assert pd.read_csv(out / "web.csv")["name"].tolist() == ["w"]
    doc = r.to_json_dict()
    assert doc["web"][0]["name"] == "w" and len(doc["transfers"]) == len(r.transfers)
    store = Store(tmp_path / "store")
    assert store.save("k" * 64, "scenario", lambda: "{}", 1, r)
    again = store.load("k" * 64)
    pd.testing.assert_frame_equal(again.transfers, r.transfers, check_dtype=False)
    pd.testing.assert_frame_equal(again.web, r.web, check_dtype=False)


def test_run_json_lists_the_generators_and_their_transfers(tmp_path):
    file = tmp_path / "s.toml"
    file.write_text(
        'duration = "5s"\n[[links]]\na = "s"\nb = "c"\nrate = "1Mbps"\ndelay = "100ms"\nqueue = "10pkt"\n'
        '[[web]]\nserver = "s"\nclients = ["c"]\narrivals = {process = "poisson", rate = "4/s"}\n'
        'sizes = {dist = "fixed", size = "20KB"}\n'
    )
    result = CliRunner().invoke(app, ["run", str(file), "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert [row["name"] for row in doc["web"]] == ["web0"] and doc["web"][0]["class"] == "newreno"
    assert len(doc["transfers"]) == doc["web"][0]["transfers_started"] > 5
    assert {row["generator"] for row in doc["transfers"]} == {"web0"}
    unfinished = [row for row in doc["transfers"] if not row["completed"]]
    assert unfinished and all(row["end_s"] is None and row["fct_s"] is None for row in unfinished)
    finished = [row for row in doc["transfers"] if row["completed"]]
    assert finished and all(row["fct_s"] == pytest.approx(row["end_s"] - row["start_s"]) for row in finished)


def test_the_engine_gets_the_generator_with_merged_tcp_settings():
    spec = scenario(variant="vegas", direction="upload", stop="10s")
    spec["web"][0]["tcp"] = {"delack_count": 2}
    engine = load_scenario(spec).to_engine()
    assert_canonical_shape(engine)
    w = engine["web"][0]
    assert (w["name"], w["class"], w["direction"], w["server"], w["clients"]) == ("w", "vegas", "upload", 0, [2])
    assert w["tcp"]["delack_count"] == 2 and w["tcp"]["mss_bytes"] == 1000 and w["tcp"]["cc"]["kind"] == "vegas"
    assert (w["arrivals"], w["sizes"]) == ({"process": "poisson", "rate_per_s": 1.0}, {"dist": "fixed", "bytes": 14000})
    assert (w["start_ns"], w["stop_ns"]) == (0, 10 * 10**9)


def test_the_cost_estimate_counts_web_transfers_and_refuses_absurd_ones():
    spec = scenario(duration="50s", delay="1ms", arrivals={"process": "poisson", "rate": "2000/s"})
    cost = estimate_cost(load_scenario(spec).to_engine())
    actual = tcpsim.run(spec, seed=1).meta["events"]
    assert actual / 3 < cost.events < actual * 3
    assert cost.transfers == pytest.approx(100_000)
    huge = scenario(duration="1000s", arrivals={"process": "poisson", "rate": "1e9/s"})
    with pytest.raises(RunTooLarge, match=r"web transfers and their timers \(web\[\*\]\.arrivals\.rate\)"):
        tcpsim.run(huge)


@pytest.mark.parametrize(
    ("change", "path", "fragment"),
    [
        ({"arrivals": {"process": "poisson", "rate": "0/s"}}, "web[0].arrivals.rate", "must be greater than zero"),
        ({"arrivals": {"process": "poisson", "rate": "50"}}, "web[0].arrivals.rate", "has no unit"),
        ({"arrivals": {"process": "pareto", "rate": "5/s", "shape": 1}}, "web[0].arrivals.shape", "infinite mean"),
        (
            {"arrivals": {"process": "gamma", "rate": "5/s"}},
            "web[0].arrivals.process",
            "allowed: barrier, pareto, poisson",
        ),
        ({"arrivals": {"process": "poisson", "load": 0.5}}, "web[0].arrivals.load", "needs hosts (all-to-all)"),
        ({"arrivals": {"process": "poisson", "rate": "5/s", "load": 0.5}}, "web[0].arrivals", "exactly one of rate"),
        ({"arrivals": {"process": "poisson", "load": -1}}, "web[0].arrivals.load", "must be a number > 0"),
        ({"arrivals": {"process": "barrier", "rounds": 0}}, "web[0].arrivals.rounds", "whole number >= 1"),
        ({"hosts": ["c1", "c2"]}, "web[0].server", "not with hosts"),
        ({"sizes": {"dist": "empirical", "cdf": [[0, 0], [10, 0.5], [5, 1]]}}, "web[0].sizes.cdf[2]", "must be >= the"),
        ({"sizes": {"dist": "empirical", "cdf": [[0, 0], [10, 0.5]]}}, "web[0].sizes.cdf", "run from 0 to 1"),
        ({"sizes": {"dist": "empirical", "file": "/no/such.cdf"}}, "web[0].sizes.file", "cannot read CDF file"),
        ({"sizes": {"dist": "web_serch"}}, "web[0].sizes.dist", "web_search"),
        ({"sizes": {"dist": "pareto", "mean": "30KB", "shape": 0.9}}, "web[0].sizes.shape", "has an infinite mean"),
        ({"sizes": {"dist": "list", "sizes": []}}, "web[0].sizes.sizes", "needs at least 1 entry"),
        ({"sizes": {"dist": "fixed", "size": 0}}, "web[0].sizes.size", "must be greater than zero"),
        ({"sizes": {"mean": "1KB"}}, "web[0].sizes.dist", "required key is missing"),
        ({"clients": ["c1", "nowhere"]}, "web[0].clients[1]", "'nowhere' is not a node"),
        ({"clients": ["srv"]}, "web[0].clients[0]", "'srv' is the server"),
        ({"server": "x"}, "web[0].server", "'x' is not a node"),
        ({"clients": []}, "web[0].clients", "needs at least 1 entry"),
        ({"start": "5s", "stop": "5s"}, "web[0].stop", "must be after start (5s)"),
        ({"start": "20s"}, "web[0].start", "is not before the end of the run"),
        ({"direction": "sideways"}, "web[0].direction", "allowed: download, upload"),
        ({"tcp": {"min_rto": "2min"}}, "web[0].tcp.min_rto", "must not exceed max_rto"),
    ],
)
def test_bad_generators_are_errors_at_their_path(change, path, fragment):
    with pytest.raises(ScenarioError) as error:
        load_scenario(scenario(**change))
    assert any(where == path and fragment in message for where, message in error.value.errors), error.value.errors


def test_an_unreachable_client_and_a_name_taken_by_a_flow_are_errors():
    spec = scenario(clients=["c1", "island"])
    spec["links"].append({"a": "island", "b": "lake", "rate": "1Mbps", "delay": "1ms", "queue": "10pkt"})
    spec["flows"] = [{"name": "w", "src": "srv", "dst": "c1"}]
    with pytest.raises(ScenarioError) as error:
        load_scenario(spec)
    assert dict(error.value.errors) == {
        "web[0].clients[1]": "no path from the server 'srv' to 'island' over the links",
        "web[0].name": "'w' is already the name of a flow (flows[0]); a web generator's name labels its throughput "
        "series beside the flows', so it must differ",
    }


def test_the_cli_refuses_a_bad_generator_with_exit_2_and_the_field_path(tmp_path):
    file = tmp_path / "s.toml"
    file.write_text(
        'duration = "5s"\n[[links]]\na = "s"\nb = "c"\nrate = "1Mbps"\ndelay = "1ms"\nqueue = "10pkt"\n'
        '[[web]]\nserver = "s"\nclients = ["c"]\narrivals = {process = "poisson", rate = "5/s"}\n'
        'sizes = {dist = "pareto", mean = "30KB", shape = 1.0}\n'
    )
    result = CliRunner().invoke(app, ["run", str(file)])
    assert result.exit_code == 2
    assert result.stderr.strip() == (
        "error: web[0].sizes.shape: 1.0 must be > 1: a Pareto distribution with shape <= 1 has an infinite mean"
    )


HEAVY_TAILED_ARRIVALS = """
duration = "20s"
[[links]]
name = "l"
a = "s"
b = "c"
rate = "10Mbps"
delay = "10ms"
queue = "100pkt"
[[web]]
name = "w"
server = "s"
clients = ["c"]
arrivals = {process = "pareto", rate = "50/s", shape = 1.0000001}
sizes = {dist = "fixed", size = "30KB"}
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="address-space limit (RLIMIT_AS)")
def test_a_forced_run_whose_transfers_outgrow_memory_is_an_error_line_not_an_abort(tmp_path):
    # Pareto inter-arrivals of shape ~1 start nearly every transfer at once; the limits refuse
    # the run, and forced past them its connection tables grow until an allocation fails. Under
    # a 4 GiB address space that failure is the run's error (issue 27: it was signal 6).
    import resource
    import subprocess

    path = tmp_path / "web.toml"
    path.write_text(HEAVY_TAILED_ARRIVALS)

    def four_gib() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))

    command = [sys.executable, "-c", "from tcpsim.launch import main; main()", "run", str(path), "--force", "--json"]
    process = subprocess.run(command, capture_output=True, text=True, preexec_fn=four_gib, timeout=600)
    assert process.returncode == 2, process.stderr[-2000:]
    assert process.stderr.startswith("error: web[0]: its transfers and open connections outgrow memory"), process.stderr
