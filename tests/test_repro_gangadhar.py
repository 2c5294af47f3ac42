"""The `gangadhar` experiments: every planned run is a valid scenario with the intended TCP flavour
and set-up, the helpers compute what they claim, and fig10, fig11 and a shrunken fig8 go through
`execute` end to end."""

import json

import numpy as np
import pandas as pd
import pytest

from tcpsim.repro import gangadhar, select
from tcpsim.repro.framework import execute
from tcpsim.scenario import load_scenario

IDS = [f"gangadhar.fig{n}" for n in range(5, 12)]

EXPECTED_TCP = {
    "tahoe": ("tahoe", {"kind": "aimd"}),
    "reno": ("reno", {"kind": "aimd"}),
    "newreno": ("newreno", {"kind": "aimd"}),
    # The paper's ns-3 code: per-ACK samples, fixed-α Tustin filter, no null samples, Reno recovery.
    "westwood": ("reno", {"kind": "westwood", "tau_ns": 500_000_000, "null_sample_divisor": 0,
                          "filter": {"kind": "tustin_fixed", "alpha": 0.9}, "ns3_fast_recovery": True,
                          "sample_tick_ns": 0}),
    # One sample per RTT (no 50 ms floor), same filter, Reno recovery with the same ns-3 windows.
    "westwood_plus": ("reno", {"kind": "westwood_plus", "filter": {"kind": "tustin_fixed", "alpha": 0.9},
                               "min_window_ns": 0, "min_decrease_half": False, "ns3_fast_recovery": True}),
    "westwood_casetti": ("reno", {"kind": "westwood", "tau_ns": 500_000_000, "null_sample_divisor": 2,
                                  "filter": {"kind": "tustin"}, "ns3_fast_recovery": False,
                                  "sample_tick_ns": 0}),
    "westwood_plus_linux": ("newreno", {"kind": "westwood_plus", "filter": {"kind": "two_stage_ewma"},
                                        "min_window_ns": 50_000_000, "min_decrease_half": False,
                                        "ns3_fast_recovery": False}),
}
NS3 = {"min_rto_ns": 200_000_000, "init_cwnd_segments": 1, "init_ssthresh_bytes": 65535, "rwnd_bytes": 131072,
       "avoid_repeated_fast_retransmit": False, "header_bytes": 42, "mss_bytes": 400, "delack_timeout_ns": 200_000_000,
       "ca_increment": "ns3"}


def intended_flavour(key):
    if key[0] in gangadhar.FLAVOURS:
        return key[0]
    if key[0] in ("tcpsim_defaults", "ns3_rwnd_cap", "ns3_literal", "newreno_recovery", "data_errors_only",
                  "max_rto_ns3"):
        return key[1]
    assert key[0] == "diag", key
    return "westwood"


# fig11 sensitivities of Westwood's peak: (ca_increment, ns3_fast_recovery) of both flows.
FIG11_GROWTH = {"ca_exact": ("exact", True), "no_ns3_rules": ("exact", False)}


def test_every_catalog_experiment_is_registered():
    assert [e.id for e in select(["gangadhar"])] == IDS


@pytest.mark.parametrize("experiment_id", IDS)
def test_quick_runs_load_with_the_intended_flavour(experiment_id):
    (experiment,) = select([experiment_id])
    specs = experiment.runs(quick=True, seeds=1)
    assert specs and len({s.key for s in specs}) == len(specs)
    assert {s.seed for s in specs} == {1}
    for spec in specs:
        engine = load_scenario(spec.scenario, dict(spec.overrides)).to_engine()
        flavour = intended_flavour(spec.key)
        tcp = engine["flows"][0]["tcp"]
        recovery, cc = EXPECTED_TCP[flavour]
        if spec.key[0] == "newreno_recovery":
            recovery = "newreno"
        growth = FIG11_GROWTH.get(spec.key[1]) if experiment_id == "gangadhar.fig11" else None
        if growth:
            cc = {**cc, "ns3_fast_recovery": growth[1]}
        assert (tcp["recovery"], tcp["cc"]) == (recovery, cc), spec.key
        if spec.key[0] == "tcpsim_defaults":
            assert tcp["min_rto_ns"] == 1_000_000_000 and tcp["avoid_repeated_fast_retransmit"], spec.key
        else:
            expected = dict(NS3)
            if spec.key[0] in ("ns3_rwnd_cap", "ns3_literal") or (experiment_id, spec.key[0]) == ("gangadhar.fig7", "diag"):
                # ns-3.17's 16-bit advertised window
                expected["rwnd_bytes"] = 65535
            if experiment_id == "gangadhar.fig9":
                expected["mss_bytes"] = spec.key[1] if spec.key[0] in gangadhar.FLAVOURS else tcp["mss_bytes"]
            if growth:
                expected["ca_increment"] = growth[0]
            assert {k: tcp[k] for k in expected} == expected, spec.key
            if spec.key[0] == "max_rto_ns3":
                assert tcp["max_rto_ns"] == 12_800_000_000, spec.key
            if experiment_id != "gangadhar.fig11":
                directions = {loss["direction"] for loss in spec.scenario["links"][1]["loss"]}
                assert directions == ({"ab"} if spec.key[0] == "data_errors_only" else {"both"}), spec.key
                source_queue = "100pkt" if spec.key[0] == "ns3_literal" else "1000pkt"  # ns-3's default, or large
                assert spec.scenario["links"][0]["queue"] == source_queue, spec.key
        if experiment_id == "gangadhar.fig11":
            assert engine["duration_ns"] == 20 * 10**9
            assert len(engine["flows"]) == 2 and engine["flows"][1]["app"]["start_ns"] == 2 * 10**9
            other = engine["flows"][1]["tcp"]
            if spec.key[1] == "newreno":
                assert (other["recovery"], other["cc"]) == EXPECTED_TCP["newreno"]
            else:  # flow 2 runs flow 1's flavour
                assert (other["recovery"], other["cc"]) == (recovery, cc)
        else:
            assert engine["duration_ns"] == gangadhar.DURATION_QUICK_S * 10**9


def test_lossy_link_geometry_and_sweeps():
    scenario = gangadhar.lossy_link(gangadhar.WESTWOOD, per=0.01, bottleneck_delay="50ms", bottleneck_rate="4Mbps",
                                    delack_count=8, mss=41, duration_s=600)
    engine = load_scenario(scenario).to_engine()
    access, lossy = engine["links"]
    assert (access["rate_bps"], access["delay_ns"]) == (10_000_000, 45_000_000)
    assert (lossy["rate_bps"], lossy["delay_ns"]) == (4_000_000, 50_000_000)
    assert scenario["links"][1]["loss"] == [{"kind": "bernoulli", "p": 0.01, "direction": "both"}]
    assert scenario["links"][1]["queue"] == "100pkt"
    tcp = engine["flows"][0]["tcp"]
    assert (tcp["delack_count"], tcp["mss_bytes"]) == (8, 41)
    # Quick grids are coarser than, and contained in, the paper's.
    assert set(gangadhar.PER_QUICK) <= set(gangadhar.PER_FULL)
    assert gangadhar.PER_FULL[0] == 0.0001 and gangadhar.PER_FULL[-1] == 0.05 and 0.001 in gangadhar.PER_QUICK
    assert gangadhar.Fig8.COUNTS_FULL == tuple(range(1, 9))
    assert gangadhar.Fig9.SIZES_FULL[0] == 41 and gangadhar.Fig9.SIZES_FULL[-1] == 1460
    full = select(["gangadhar.fig5"])[0].runs(quick=False, seeds=None)
    assert {s.seed for s in full} == {1, 2}
    assert all(load_scenario(s.scenario).duration_ns == 600 * 10**9 for s in full[:3])


def test_helpers():
    curve = gangadhar._curve({0.001: [1.0, 3.0], 0.01: [2.0]})
    assert curve.mean.tolist() == [2.0, 2.0] and curve.sd[0] == pytest.approx(np.sqrt(2)) and curve.sd[1] == 0
    assert curve.ci_half[0] == pytest.approx(12.706 * 1.0, rel=1e-3)  # t(1) · sd / √2
    # A step function sampled on a grid holds the last value.
    t, v = np.array([0.0, 1.0, 2.5]), np.array([1.0, 2.0, 3.0])
    assert gangadhar._on_grid(t, v, 0.5, 3.0, 0.5).tolist() == [1.0, 2.0, 2.0, 2.0, 3.0]
    # Fast-recovery entries: an ssthresh change with cwnd above one segment (a timeout sets one).
    trace = pd.DataFrame({"cwnd_bytes": [8000, 8400, 6000, 400, 800],
                          "ssthresh_bytes": [10**9, 10**9, 4800, 3000, 3000]})
    assert gangadhar._fr_entries(trace, 400) == [(8400.0, 4800.0)]
    assert gangadhar._ge(1.0, 1.02) and not gangadhar._ge(1.0, 1.1)


def test_fig10_and_fig11_end_to_end(tmp_path, monkeypatch):
    monkeypatch.setattr(gangadhar, "DURATION_QUICK_S", 60)
    reports = execute(select(["gangadhar.fig10", "gangadhar.fig11"]), quick=True, seeds=1, jobs=1,
                      out_dir=tmp_path, progress=False, cache_dir=tmp_path / "cache")
    fig10, fig11 = reports
    for report in reports:
        assert report["claims"] and all(c["detail"] for c in report["claims"]), report["claims"]
        assert (tmp_path / f"{report['id']}.png").stat().st_size > 10_000
        assert json.loads((tmp_path / f"{report['id']}.json").read_text())["id"] == report["id"]
        assert all("analysis completes" not in c["text"] for c in report["claims"])
    assert [s["label"] for s in fig10["series"]] == ["Westwood", "Westwood+", "Reno"]
    assert fig10["series"][0]["x"][:3] == [0.0, 3.0, 6.0]  # sampled every 3 s
    numbers = {n["name"]: n for n in fig11["numbers"]}
    peak = numbers["Westwood: peak bandwidth estimate (Mb/s)"]
    assert peak["paper"] == 8.0 and peak["measured"] > 2.0  # far above the 500 kb/s bottleneck
    assert fig11["claims"][0]["ok"] and fig11["claims"][1]["ok"]


def test_fig8_end_to_end_on_a_small_grid(tmp_path, monkeypatch):
    monkeypatch.setattr(gangadhar, "DURATION_QUICK_S", 40)
    monkeypatch.setattr(gangadhar, "PER_QUICK", (0.0001, 0.001, 0.01))
    monkeypatch.setattr(gangadhar.Fig8, "COUNTS_QUICK", (1, 8))
    (report,) = execute(select(["gangadhar.fig8"]), quick=True, seeds=1, jobs=1, out_dir=tmp_path,
                        progress=False, cache_dir=tmp_path / "cache")
    assert [c["text"] for c in report["claims"]] == [
        "delayed-ACK count 1 best, 8 worst for all",
        "Reno's spread across delayed-ACK counts broader than Westwood's",
        "Westwood+ drops at high PER",
    ]
    assert [n["paper"] for n in report["numbers"]] == [1.0, 0.4]
    assert len(report["series"]) == 6 and all(len(s["x"]) == 3 for s in report["series"])
    assert any("diagnostic runs" in note for note in report["notes"])
