"""Data-centre workloads: empirical size CDFs (shipped and user files), all-to-all transfers at a
target load, barrier-synchronised incast rounds, and the FCT metrics of `tcpsim.fct`."""

import math

import numpy as np
import pandas as pd
import pytest
import tcpsim
from engine_schema import assert_canonical_shape
from tcpsim import topologies
from tcpsim.fct import fct_table, ideal_fct_s, incast_rounds, queue_table, size_buckets
from tcpsim.scenario import ScenarioError, load_scenario
from tcpsim.workloads import CdfError, cdf_mean, named_cdf, parse_cdf, poisson_rate_for_load, read_cdf


def star(hosts, rate="1Gbps", delay="25us", queue="100pkt", **web):
    """`hosts` on one switch, one all-to-all generator from `web`."""
    generator = {
        "name": "a2a",
        "hosts": hosts,
        "arrivals": {"process": "poisson", "rate": "100/s"},
        "sizes": {"dist": "fixed", "size": "10KB"},
        **web,
    }
    return {
        "duration": "1s",
        "tcp": {"mss": 1000, "header": 40, "init_cwnd": 2, "delack_count": 1},
        "links": [{"name": h, "a": h, "b": "sw", "rate": rate, "delay": delay, "queue": queue} for h in hosts],
        "web": [generator],
    }


def test_the_shipped_cdfs_are_the_published_points_with_their_means():
    web_search = named_cdf("web_search")
    assert web_search[0] == (0, 0.0) and web_search[-1] == (30_000_000, 1.0) and len(web_search) == 12
    assert (80_000, 0.53) in web_search and (10_000_000, 0.97) in web_search
    # Σ (x0 + x1)/2 · (p1 − p0) over the 11 segments, by hand: 750 + 750 + 2500 + 4000 + 8450 +
    # 9800 + 60000 + 150000 + 350000 + 525000 + 600000 = 1 711 250 B.
    assert cdf_mean(web_search) == pytest.approx(1_711_250)
    data_mining = named_cdf("data_mining")
    assert data_mining[0] == (0, 0.0) and data_mining[-1] == (1_000_000_000, 1.0) and len(data_mining) == 13
    assert (1100, 0.5) in data_mining
    assert cdf_mean(data_mining) == pytest.approx(12_658_198.6)


def test_cdf_files_take_fractions_or_hpcc_percentages_and_name_the_bad_line(tmp_path):
    assert parse_cdf("# sizes\n0 0\n100 0.5  # half\n300 1\n", "f") == [(0, 0.0), (100, 0.5), (300, 1.0)]
    assert parse_cdf("0 0\n100 50\n300 100\n", "f") == [(0, 0.0), (100, 0.5), (300, 1.0)]
    path = tmp_path / "bad.cdf"
    path.write_text("0 0\n100 0.5\n50 0.7\n300 1\n")
    with pytest.raises(CdfError, match=r"bad.cdf:3: size 50 must be >= the previous point's \(100\)"):
        read_cdf(path)
    with pytest.raises(CdfError, match=r"f:2: expected 'bytes probability'"):
        parse_cdf("0 0\n100\n", "f")
    with pytest.raises(CdfError, match="unknown CDF 'websearch'; shipped: web_search, data_mining"):
        named_cdf("websearch")


def test_the_load_formula_worked_by_hand():
    # 50 % of four 1 Gb/s host links with 1 MB transfers: 0.5·1e9·4 / (8·1e6) = 250 transfers/s.
    assert poisson_rate_for_load(0.5, 1e9, 4, 1_000_000) == 250
    s = load_scenario(
        star(["h0", "h1", "h2", "h3"], arrivals={"process": "poisson", "load": 0.5}, sizes={"dist": "web_search"})
    )
    engine = s.to_engine()
    assert_canonical_shape(engine)
    web = engine["web"][0]
    assert (web["server"], web["clients"], web["direction"]) == (None, [0, 2, 3, 4], "all_to_all")
    assert web["arrivals"] == {"process": "poisson", "rate_per_s": pytest.approx(0.5e9 * 4 / (8 * 1_711_250))}
    assert web["sizes"]["dist"] == "empirical" and web["sizes"]["cdf"][5] == [80_000, 0.53]


def test_a_load_needs_hosts_on_links_of_one_rate():
    uneven = star(["h0", "h1"], arrivals={"process": "poisson", "load": 0.5})
    uneven["links"][1]["rate"] = "10Gbps"
    with pytest.raises(ScenarioError, match=r"web\[0\].arrivals.load: needs hosts whose links have one rate"):
        load_scenario(uneven)
    two_links = star(["h0", "h1"], arrivals={"process": "poisson", "load": 0.5})
    two_links["links"].append({"a": "h0", "b": "h1", "rate": "1Gbps", "delay": "1us", "queue": "10pkt"})
    with pytest.raises(ScenarioError, match=r"needs hosts with one link each; 'h0' has 2"):
        load_scenario(two_links)


def test_empirical_sizes_from_points_and_files_and_runs_repeat_per_seed(tmp_path):
    cdf = [[1000, 0], [1000, 0.5], [3000, 1]]  # half 1000 B, half uniform in [1000, 3000]: mean 1500 B
    spec = star(
        ["h0", "h1", "h2"], sizes={"dist": "empirical", "cdf": cdf}, arrivals={"process": "poisson", "rate": "5000/s"}
    )
    r = tcpsim.run(spec, seed=3)
    t = r.transfers
    assert len(t) > 4000 and t["bytes"].between(1000, 3000).all()
    assert t["bytes"].mean() == pytest.approx(1500, rel=0.03)
    assert (t["bytes"] == 1000).mean() == pytest.approx(0.5, abs=0.03)
    assert (t["src"] != t["dst"]).all() and set(t["src"]) == set(t["dst"]) == {"h0", "h1", "h2"}
    pd.testing.assert_frame_equal(tcpsim.run(spec, seed=3).transfers, t)
    assert not tcpsim.run(spec, seed=4).transfers["bytes"].equals(t["bytes"])
    path = tmp_path / "sizes.cdf"
    path.write_text("1000 0\n1000 50\n3000 100\n")
    from_file = {**spec, "web": [{**spec["web"][0], "sizes": {"dist": "empirical", "file": str(path)}}]}
    pd.testing.assert_frame_equal(tcpsim.run(from_file, seed=3).transfers, t)


def test_the_ideal_fct_worked_by_hand():
    # 2500 B in segments of 1000 + 40: 3 segments, 2620 wire bytes; the last is 540 B on the wire.
    # Hops 1 Gb/s 10 us, 100 Mb/s 20 us, 1 Gb/s 10 us: 40 us of propagation, 2620·8/1e8 s at the
    # bottleneck = 209.6 us, and the last segment forwarded on the two others: 2·540·8/1e9 = 8.64 us.
    hops = [(10**9, 10_000), (10**8, 20_000), (10**9, 10_000)]
    assert ideal_fct_s(2500, 1000, 40, hops) == pytest.approx(40e-6 + 209.6e-6 + 8.64e-6)
    assert ideal_fct_s(1, 1000, 40, [(10**9, 0)]) == pytest.approx(41 * 8 / 1e9)


def test_a_transfer_alone_of_one_segment_has_slowdown_one_and_longer_ones_pay_slow_start():
    spec = star(
        ["h0", "h1"],
        sizes={"dist": "list", "sizes": ["1000B", "100KB"]},
        arrivals={"process": "poisson", "rate": "20/s"},
    )
    frame = tcpsim.run(spec, seed=1).fct()
    one = frame[frame["bytes"] == 1000]
    assert len(one) > 3 and np.allclose(one["slowdown"], 1.0, rtol=1e-6)
    # 1040 B over two 1 Gb/s hops of 25 us: 50 us + 8.32 us + 8.32 us.
    assert one["ideal_fct_s"].iloc[0] == pytest.approx(50e-6 + 2 * 8.32e-6)
    long = frame[frame["bytes"] == 100_000]
    # The path holds 12 segments (100 us at 1 Gb/s); from a window of 2 the sender needs three
    # round trips (2, 4, 8 segments: 14 · 8.32 us sent in 300 us) before it fills it, so the
    # transfer is at least 300 − 116 = 184 us later than its 890 us ideal; with no loss, not
    # much more.
    assert long["slowdown"].between(1 + 184 / 890, 1.5).all(), long["slowdown"]


def test_fct_tables_split_by_size_with_mean_median_and_p99():
    frame = pd.DataFrame(
        {
            "bytes": [10, 20, 99_999, 100_000, 5_000_000],
            "fct_s": [1.0, 2.0, 3.0, 4.0, 5.0],
            "slowdown": [1.0, 1.0, 4.0, 2.0, 3.0],
        }
    )
    table = fct_table(frame)
    assert table["bucket"].tolist() == size_buckets() == ["<100KB", "100KB-10MB", ">=10MB"]
    assert table["transfers"].tolist() == [3, 2, 0]
    short = table.iloc[0]
    assert (short["fct_mean"], short["fct_median"], short["slowdown_median"]) == (2.0, 2.0, 1.0)
    assert short["slowdown_p99"] == pytest.approx(1.0 + 0.98 * 3.0)  # rank 0.99·2 = 1.98 between 1 and 4
    assert math.isnan(table.iloc[2]["fct_mean"])
    assert fct_table(frame, edges=[50]).transfers.tolist() == [2, 3]


def test_the_slowdown_plot_has_a_median_and_a_p99_line_per_run():
    import matplotlib

    matplotlib.use("Agg")
    from tcpsim.fct import plot_slowdown

    frame = pd.DataFrame({"bytes": [1_000, 2_000, 50_000, 3_000_000], "slowdown": [1.0, 2.0, 3.0, 4.0]})
    ax = plot_slowdown({"a": frame, "b": frame.assign(slowdown=frame["slowdown"] * 2)}, bins=4)
    labels = [line.get_label() for line in ax.get_lines()]
    assert labels == ["a median", "a p99", "b median", "b p99"]
    assert ax.get_xscale() == "log" and ax.get_ylabel() == "FCT slowdown"
    import matplotlib.pyplot as plt

    plt.close(ax.figure)


def test_barrier_rounds_give_one_query_completion_time_per_round():
    senders = ["s0", "s1", "s2"]
    spec = {
        "duration": "2s",
        "tcp": {"mss": 1000, "header": 40, "init_cwnd": 2, "delack_count": 1},
        "links": [
            {"name": s, "a": s, "b": "tor", "rate": "1Gbps", "delay": "25us", "queue": "1000pkt"}
            for s in ["agg", *senders]
        ],
        "web": [
            {
                "name": "q",
                "server": "agg",
                "clients": senders,
                "direction": "upload",
                "arrivals": {"process": "barrier", "rounds": 5, "gap": "1ms"},
                "sizes": {"dist": "fixed", "size": "20KB"},
            }
        ],
    }
    r = tcpsim.run(spec, seed=1)
    rounds = incast_rounds(r.transfers, "q")
    pd.testing.assert_frame_equal(r.incast_rounds("q"), rounds)
    assert rounds["round"].tolist() == [0, 1, 2, 3, 4] and (rounds["senders"] == 3).all()
    assert (rounds["bytes"] == 60_000).all()
    t = r.transfers
    for k in range(1, 5):
        previous = t[t["start_s"] == rounds["start_s"][k - 1]]
        assert rounds["start_s"][k] == pytest.approx(previous["end_s"].max() + 1e-3, abs=1e-9)
    # 60 000 B into one 1 Gb/s port take at least 480 us.
    assert (rounds["qct_s"] > 480e-6).all() and (rounds["goodput_bps"] < 1e9).all()


def test_the_queue_table_has_drops_marks_and_time_weighted_quantiles():
    spec = star(["h0", "h1", "h2"], queue="20pkt", arrivals={"process": "poisson", "rate": "2000/s"})
    spec["trace"] = {"queue": True}
    r = tcpsim.run(spec, seed=1)
    table = queue_table(r.links, r.traces["queue"], quantiles=(0.5, 1.0))
    assert len(table) == 6 and {"drops_queue", "marks_ecn", "queue_p50_pkts", "queue_p100_pkts"} <= set(table.columns)
    assert (table["queue_p100_pkts"] <= table["queue_max_pkts"]).all()
    assert (table["queue_p50_pkts"] <= table["queue_p100_pkts"]).all()
    assert table["queue_p50_pkts"].notna().all()


def incast(senders, variant, rounds=3):
    """The DCTCP paper's basic incast (`tcpsim.topologies.incast`'s defaults: 1 MB in all over
    one 1 Gb/s ToR port with a static buffer of 100 packets, base RTT 100 us); min RTO 300 ms;
    DCTCP marks at K = 20 packets. MSS 1460 B, initial window 3 (RFC 3390), delayed ACKs timing
    out after 40 ms (Linux)."""
    port = {"kind": "step", "limit": "100pkt", "threshold": "20pkt"} if variant == "dctcp" else "100pkt"
    tcp = {"mss": 1460, "header": 40, "init_cwnd": 3, "min_rto": "300ms", "delack_timeout": "40ms"}
    return topologies.incast(senders=senders, port_queue=port, variant=variant, rounds=rounds, tcp=tcp)


def test_incast_collapses_newreno_goodput_past_a_few_senders_but_not_dctcps():
    def qct(senders, variant):
        r = tcpsim.run(incast(senders, variant), seed=1)
        rounds = incast_rounds(r.transfers, "query")
        assert len(rounds) == 3 and rounds["qct_s"].notna().all()
        return rounds["qct_s"].mean(), int(r.links["drops_queue"].sum())

    # One sender cannot overflow the port (its own 1 Gb/s link paces it): 1 MB in about 8.4 ms.
    alone, drops = qct(1, "newreno")
    assert alone < 0.010 and drops == 0
    # 32 senders overflow 100 packets; NewReno loses whole tails and waits for the 300 ms RTO:
    # goodput falls from ~950 Mb/s to under 30 Mb/s.
    collapsed, drops = qct(32, "newreno")
    assert collapsed > 0.300 and drops > 0
    # DCTCP keeps the port near K = 20: no drop, the query in ~8.3 ms.
    dctcp, drops = qct(32, "dctcp")
    assert dctcp < 0.010 and drops == 0


def web_search_star(variant, seed, load=0.6, hosts=8, duration="2s"):
    """`scripts/dc_websearch.py`'s set-up (docs/datacenter.md): all-to-all web-search transfers
    at `load` among `hosts` on one 1 Gb/s switch, every queue 100 packets, DCTCP's marking at
    K = 20 packets and its senders ECN-capable on every packet as Linux's."""
    names = [f"h{i}" for i in range(hosts)]
    queue = {"kind": "step", "limit": "100pkt", "threshold": "20pkt"} if variant == "dctcp" else "100pkt"
    spec = {
        "duration": duration,
        "tcp": {"mss": 1460, "header": 40, "init_cwnd": 3, "min_rto": "300ms", "delack_timeout": "40ms"},
        "links": [{"name": h, "a": h, "b": "sw", "rate": "1Gbps", "delay": "25us", "queue": queue} for h in names],
        "web": [
            {
                "name": "ws",
                "hosts": names,
                "variant": variant,
                "arrivals": {"process": "poisson", "load": load},
                "sizes": {"dist": "web_search"},
                "tcp": {"ecn_sender": "linux_dctcp"} if variant == "dctcp" else {},
            }
        ],
    }
    return tcpsim.run(spec, seed=seed)


def test_at_60_percent_web_search_load_dctcp_cuts_the_short_transfers_p99_slowdown():
    tables = {}
    for variant in ("newreno", "dctcp"):
        r = web_search_star(variant, seed=1)
        frame = r.fct()
        tables[variant] = fct_table(frame[frame["start_s"] < 1.6]).set_index("bucket")
        if variant == "dctcp":
            assert r.links["drops_queue"].sum() == 0, "DCTCP holds every queue near K"
    short = {variant: table.loc["<100KB"] for variant, table in tables.items()}
    assert short["newreno"]["transfers"] > 200 and short["dctcp"]["transfers"] > 200
    # NewReno's drop-tail queues lose short transfers' tails, which wait for the 300 ms RTO.
    assert short["dctcp"]["slowdown_p99"] < short["newreno"]["slowdown_p99"] / 5
    assert short["dctcp"]["slowdown_median"] < short["newreno"]["slowdown_median"]


def test_simultaneous_arrivals_at_a_full_port_favour_no_worker():
    """Three NewReno workers' packets reach the full port at the same nanoseconds. Served in
    index order, worker 0's always took the free place, the others lost all 60 drops of a query,
    and one of them lost its fast retransmission too: every query waited for the 300 ms RTO
    (ns-3.44 recovers each by fast retransmit; docs/ns3-comparison/incast.md). Ranked by a
    bijection that changes with the time (`engine.rs`), the drops fall on every worker and most
    queries finish in about 9 ms."""
    r = tcpsim.run(incast(3, "newreno", rounds=10), seed=1)
    qct = incast_rounds(r.transfers, "query")["qct_s"]
    assert len(qct) == 10 and qct.notna().all()
    assert (qct < 0.020).sum() >= 7, qct.tolist()
