"""tcpsim.run end to end: determinism, invariants, results and traces."""

import json
import pickle
import subprocess
import sys
import threading

import pandas as pd
import pytest
import tcpsim
from tcpsim.paths import builtin_scenario

LOSSY = builtin_scenario("lossy_link")


def short_lossy(**overrides):
    return tcpsim.run(LOSSY, seed=overrides.pop("seed", 1), duration="60s", **overrides)


def test_same_seed_gives_identical_flows_and_another_seed_differs():
    a, b, c = short_lossy(seed=7), short_lossy(seed=7), short_lossy(seed=8)
    pd.testing.assert_frame_equal(a.flows, b.flows)
    pd.testing.assert_frame_equal(a.links, b.links)
    assert not a.flows.equals(c.flows)


def test_every_packet_is_delivered_dropped_or_still_inside():
    r = short_lossy()
    p = r.meta["packets"]
    assert p["created"] == p["delivered"] + p["dropped"] + p["in_network"]
    assert p["dropped"] == r.links["drops_queue"].sum() + r.links["drops_error"].sum()


def test_bernoulli_errors_hit_the_configured_fraction_of_packets():
    r = tcpsim.run(LOSSY, seed=3, duration="300s")
    lossy = r.links[r.links["name"] == "lossy"]
    rate = lossy["drops_error"].sum() / lossy["tx_packets"].sum()
    assert rate == pytest.approx(0.005, rel=0.15)


def test_throughput_never_exceeds_the_bottleneck_payload_rate():
    r = tcpsim.run(builtin_scenario("single_flow"), seed=1, duration="100s")
    flow = r.flows.iloc[0]
    assert flow["throughput_bps"] <= 2e6 * 1460 / 1500
    assert 0 < r.links["utilization"].max() <= 1


def test_measurement_window_excludes_the_warm_up():
    full = tcpsim.run(LOSSY, seed=1, duration="60s")
    late = tcpsim.run(LOSSY, seed=1, duration="60s", warmup="30s")
    assert late.meta["window_s"] == 30
    assert late.flows.iloc[0]["bytes_delivered"] < full.flows.iloc[0]["bytes_delivered"]


def test_throughput_trace_bins_add_up_to_the_delivered_bytes():
    r = short_lossy(**{"trace.throughput_bin": "1s", "trace.cwnd": True, "trace.rtt": True, "trace.queue": True})
    bins = r.trace("throughput")
    assert len(bins) == 60
    assert bins["bytes"].sum() == r.flows.iloc[0]["bytes_delivered"]
    cwnd = r.trace("cwnd")
    assert (cwnd["cwnd_bytes"] >= 400).all() and cwnd["time_s"].is_monotonic_increasing
    assert r.trace("rtt")["rtt_s"].min() >= 0.09  # 2 × 45 ms propagation at least
    assert set(r.trace("queue")["link"]) <= {"access", "lossy"}


def test_sampled_traces_have_one_row_per_flow_per_interval():
    r = short_lossy(**{"trace.cwnd": True, "trace.interval": "1s"})
    assert r.trace("cwnd")["time_s"].tolist() == [float(t) for t in range(61)]  # 0 s … 60 s inclusive


def test_asking_for_an_unrecorded_trace_says_how_to_enable_it():
    r = short_lossy()
    with pytest.raises(KeyError, match="trace.cwnd=true"):
        r.trace("cwnd")
    with pytest.raises(ValueError, match="allowed"):
        r.trace("cwnds")


def test_results_save_and_serialize(tmp_path):
    r = short_lossy(**{"trace.cwnd": True})
    out = r.save(tmp_path / "run")
    assert {p.name for p in out.iterdir()} == {"flows.csv", "links.csv", "meta.json", "trace_cwnd.parquet"}
    assert pd.read_parquet(out / "trace_cwnd.parquet").shape[0] == len(r.trace("cwnd"))
    doc = json.loads(json.dumps(r.to_json_dict()))
    assert {
        "id",
        "name",
        "variant",
        "throughput_bps",
        "goodput_bps",
        "bytes_delivered",
        "bytes_retransmitted",
        "timeouts",
        "fast_retransmits",
        "rtt_min_s",
    } <= set(doc["flows"][0])
    assert {"name", "utilization", "drops_queue", "drops_error"} <= set(doc["links"][0])
    assert doc["meta"]["seed"] == 1 and doc["meta"]["events"] > 0


def test_json_is_the_same_before_and_after_the_tables_are_built_and_keeps_floats_exact():
    r = short_lossy(**{"udp": [{"src": "source", "dst": "sink", "rate": "100kbps"}]})
    from_engine = json.dumps(r.to_json_dict())
    links = r.links  # builds the DataFrames; to_json_dict then reads them
    assert json.dumps(r.to_json_dict()) == from_engine
    doc = json.loads(from_engine)
    assert [row["queue_mean_pkts"] for row in doc["links"]] == links["queue_mean_pkts"].tolist()
    assert [row["name"] for row in doc["udp"]] == ["udp0"]


def test_a_result_leaves_a_process_with_its_tables():
    r = short_lossy(**{"trace.cwnd": True})
    copy = pickle.loads(pickle.dumps(r))
    pd.testing.assert_frame_equal(copy.flows, r.flows)
    pd.testing.assert_frame_equal(copy.trace("cwnd"), r.trace("cwnd"))
    assert copy.meta == r.meta


HEAVY_MODULES = ("pandas", "numpy", "pyarrow", "matplotlib", "scipy", "rich")


def test_the_cli_and_a_run_to_json_load_no_heavy_library():
    code = (
        "import sys, tcpsim.cli, tcpsim; "
        f"tcpsim.run({LOSSY!r}, duration='1s').to_json_dict(); "
        f"print(sorted(m for m in {HEAVY_MODULES!r} if m in sys.modules))"
    )
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert loaded.strip() == "[]"


def test_the_core_releases_the_gil_while_it_runs():
    done = threading.Event()
    ticks = 0

    def simulate():
        tcpsim.run(LOSSY, seed=1, duration="2000s")
        done.set()

    worker = threading.Thread(target=simulate)
    worker.start()
    while not done.is_set():
        ticks += 1
    worker.join()
    # With the GIL held for the whole run this thread could not have looped meanwhile.
    assert ticks > 10_000


def test_a_bad_seed_is_a_clear_error():
    with pytest.raises(ValueError, match="seed"):
        tcpsim.run(LOSSY, seed=-1)


def test_udp_cbr_sources_send_at_their_rate_while_on_and_squeeze_tcp():
    scenario = {
        "duration": "60s",
        "links": [
            {"name": "access", "a": "s", "b": "r", "rate": "100Mbps", "delay": "1ms", "queue": "1000pkt"},
            {"name": "bottleneck", "a": "r", "b": "d", "rate": "5Mbps", "delay": "29ms", "queue": "40pkt"},
        ],
        "flows": [{"name": "tcp", "src": "s", "dst": "d"}],
        "udp": [{"name": "cbr", "src": "s", "dst": "d", "rate": "2Mbps", "packet": "1000B", "on": [["10s", "40s"]]}],
    }
    r = tcpsim.run(scenario, seed=1)
    cbr = r.udp.set_index("name").loc["cbr"]
    assert cbr["packets_sent"] == 7500  # 30 s at one 1000-byte packet every 4 ms
    assert 0.9 * 7500 <= cbr["packets_received"] <= 7500  # some lost at the shared drop-tail queue
    tcp_share = r.flows.iloc[0]["throughput_bps"]
    assert tcp_share < 5e6 - 0.5 * cbr["throughput_bps"]
    assert json.loads(json.dumps(r.to_json_dict()))["udp"][0]["name"] == "cbr"
