"""The `casetti` experiments: every one plans scenarios that load, and shortened versions of
fig3, fig9 and fig16 run end to end through the repro framework."""

import json

import pytest

from tcpsim.repro import select
from tcpsim.repro.casetti import common, fading, wired, wireless
from tcpsim.repro.framework import execute
from tcpsim.scenario import load_scenario

IDS = ["casetti.fig3", "casetti.fig4", "casetti.friendliness", "casetti.fig7", "casetti.fig9", "casetti.fig10",
       "casetti.fig11", "casetti.fig12", "casetti.snoop", "casetti.batcp", "casetti.fig15", "casetti.fig16",
       "casetti.fig17", "casetti.fig18"]


def test_every_catalog_experiment_is_registered():
    assert [e.id for e in select(["casetti"])] == IDS


@pytest.mark.parametrize("experiment_id", IDS)
def test_quick_runs_are_valid_scenarios(experiment_id):
    (experiment,) = select([experiment_id])
    specs = experiment.runs(quick=True, seeds=1)
    assert specs
    assert len({spec.key for spec in specs}) == len(specs)
    for spec in specs:
        scenario = load_scenario(spec.scenario, dict(spec.overrides))
        assert scenario.to_engine()["flows"]
    full = experiment.runs(quick=False, seeds=None)
    assert len(full) >= len(specs)


def test_common_setup():
    scenario = load_scenario(common.wireless_scenario("westwood", loss=common.bernoulli(0.01), duration_s=10,
                                                       warmup_s=1))
    engine = scenario.to_engine()
    tcp = engine["flows"][0]["tcp"]
    assert tcp["mss_bytes"] + tcp["header_bytes"] == 400
    assert tcp["delack_count"] == 2 and tcp["min_rto_ns"] == 200_000_000
    assert tcp["avoid_repeated_fast_retransmit"] is False  # TCPW: faster recovery on every 3 dupacks
    assert tcp["timeout_ssthresh"] == "every"  # ns-2's TcpAgent::timeout halves on every expiry
    assert tcp["cc"]["kind"] == "westwood" and tcp["cc"]["tau_ns"] == 500_000_000 and tcp["recovery"] == "reno"
    wireless = engine["links"][1]
    # BDP of 2 Mb/s × 90.02 ms in 400-byte packets, both directions lossy
    assert wireless["ab"]["queue"]["limit_packets"] == 56
    assert wireless["ab"]["loss"] and wireless["ba"]["loss"]
    reno = load_scenario(common.wireless_scenario("reno", loss=[], duration_s=10, warmup_s=1)).to_engine()
    assert reno["flows"][0]["tcp"]["avoid_repeated_fast_retransmit"] is True


def test_fig3_plateaus_follow_the_schedule():
    plateaus = wired.Fig3().plateaus()
    assert [c / 1e6 for _, _, c in plateaus] == [5, 4, 3, 4, 3, 4, 5]
    assert [a for a, _, _ in plateaus] == [0, 25, 50, 75, 125, 175, 200]


def _short_fig3() -> wired.Fig3:
    fig3 = wired.Fig3()
    fig3.duration_s = 100.0
    fig3.udp1_on = ((20.0, 80.0),)
    fig3.udp2_on = ((40.0, 60.0),)
    return fig3


def _short_fig9() -> wireless.Fig9:
    fig9 = wireless.Fig9()
    fig9.grid_quick = (0.0, 0.01)
    fig9.duration_quick_s = 40.0
    fig9.warmup_s = 5.0
    return fig9


def _short_fig16() -> fading.Fig16:
    fig16 = fading.Fig16()
    fig16.grid_quick = (1e6, 10e6)
    fig16.alt_grid_quick = (10e6,)
    fig16.duration_quick_s = 30.0
    fig16.warmup_s = 5.0
    return fig16


def test_shortened_experiments_run_end_to_end(tmp_path):
    reports = execute([_short_fig3(), _short_fig9(), _short_fig16()], quick=True, seeds=1, jobs=1, out_dir=tmp_path,
                      progress=False, cache_dir=tmp_path / "cache")
    by_id = {r["id"]: r for r in reports}
    for report in reports:
        texts = [c["text"] for c in report["claims"]]
        assert "analysis completes" not in texts and "figure is drawn" not in texts, report["claims"]
        assert (tmp_path / f"{report['id']}.png").stat().st_size > 10_000
        assert json.loads((tmp_path / f"{report['id']}.json").read_text())["id"] == report["id"]
    fig3 = by_id["casetti.fig3"]
    assert fig3["ok"], fig3
    assert [n["paper"] for n in fig3["numbers"]] == [5, 4, 3, 4, 5]
    fig9 = by_id["casetti.fig9"]
    gains = {n["name"]: n for n in fig9["numbers"]}
    assert gains["TCPW gain over Reno at 1% (%)"]["paper"] == 394
    assert gains["TCPW gain over Reno at 1% (%)"]["measured"] > 100  # TCPW well above Reno at 1 % errors
    assert any("sensitivity" in note for note in fig9["notes"])
    fig16 = by_id["casetti.fig16"]
    assert any("sojourns in seconds (sensitivity)" in s["label"] for s in fig16["series"])


def test_fig10_setup_buffer_floor_and_receiver_window():
    fig10 = wireless.Fig10()
    window = fig10.rwnd_pkts * common.MSS_BYTES
    assert fig10.rwnd_pkts == 65535 // common.PACKET_BYTES  # 64 KB in 400-byte packets
    short = load_scenario(fig10.scenario("reno", 0.0, True)).to_engine()
    assert short["links"][1]["ab"]["queue"]["limit_packets"] == fig10.min_buffer_pkts == 50  # ns-2 limit_
    assert short["flows"][0]["tcp"]["rwnd_bytes"] == window
    long = load_scenario(fig10.scenario("westwood", 0.1, True)).to_engine()
    assert long["links"][1]["ab"]["queue"]["limit_packets"] == 125  # BDP of 2 Mb/s × 200.02 ms, above the floor
    unlimited = load_scenario(fig10.scenario("reno", 0.1, True, rwnd_pkts=None)).to_engine()
    assert unlimited["flows"][0]["tcp"]["rwnd_bytes"] > 1e9
    tags = {spec.key[1].partition("|")[2] for spec in fig10.runs(quick=True, seeds=1)}
    assert {"buffer5", "tick", "nornwd", "window20"} <= tags


def _gilbert_elliott(scenario: dict) -> dict:
    (model,) = load_scenario(scenario).to_engine()["links"][1]["ab"]["loss"]
    assert model["kind"] == "gilbert_elliott"
    return model


def test_fading_sojourn_units():
    """fig15/fig16 count the Good/Bad means 8 and 4 in packets (ns-2 MultiState, per-packet
    transitions), emulated as multiples of the wireless link's 400-byte transmission time; the
    seconds reading and, for fig17 (seconds), the packet reading are sensitivity runs."""
    fig15, fig16, fig17 = fading.Fig15(), fading.Fig16(), fading.Fig17()
    model = _gilbert_elliott(fig15.scenario("reno", 0.05, True))
    assert (model["good_mean_ns"], model["bad_mean_ns"], model["bad_loss"]) == (8 * 1_600_000, 4 * 1_600_000, 0.05)
    assert _gilbert_elliott(fig16.scenario("reno", 10e6, True))["bad_mean_ns"] == 4 * 320_000
    seconds = _gilbert_elliott(fig15._scenario("reno", 0.05, True, "ab", fading.SEC))
    assert (seconds["good_mean_ns"], seconds["bad_mean_ns"]) == (8_000_000_000, 4_000_000_000)
    blackout = _gilbert_elliott(fig17.scenario("sack", 0.1, True))
    assert (blackout["good_mean_ns"], blackout["bad_mean_ns"], blackout["bad_loss"]) == (4_000_000_000, 100_000_000, 1.0)
    for experiment, alt in ((fig15, "s"), (fig16, "s"), (fig17, "pkt")):
        tags = {spec.key[1].partition("|")[2] for spec in experiment.runs(quick=True, seeds=1)}
        assert {alt, fading.DATA_ONLY} <= tags
    assert "corr" in {spec.key[1].partition("|")[2] for spec in fig17.runs(quick=True, seeds=1)}


def test_markov_channel_errs_in_both_directions():
    """Sec. 5: errors in both directions of the wireless link, one independent channel process per
    direction; the data-direction-only runs are the sensitivity."""
    engine = load_scenario(fading.Fig17().scenario("reno", 0.1, True)).to_engine()
    wireless = engine["links"][1]
    assert [m["kind"] for m in wireless["ab"]["loss"]] == ["gilbert_elliott"]
    assert [m["kind"] for m in wireless["ba"]["loss"]] == ["gilbert_elliott"]
    assert wireless["ab"]["loss"][0].get("shared_state") is None
    data_only = load_scenario(fading.Fig15()._scenario("reno", 0.05, True, fading.DATA_ONLY, fading.PKT)).to_engine()
    assert data_only["links"][1]["ab"]["loss"] and not data_only["links"][1]["ba"]["loss"]


def test_fig7_models_the_linux_testbed():
    """fig7: 1500-byte packets, Linux TCP (SACK, no re-entry, 32 KB window, 10 ms timers) for
    Reno and TCPW alike, 4 Mb/s, a 100-packet emulator queue; the sensitivity set-ups are all present."""
    from tcpsim.repro.casetti import wired

    fig7 = wired.Fig7()
    specs = fig7.runs(quick=True, seeds=1)
    assert {spec.key[0] for spec in specs} == {"main", "bdp", "q50", "10M", "rwnd64K", "nosack", "ns2", "latest"}
    main = next(spec.scenario for spec in specs if spec.key == ("main", 0.01, 2, 1))
    assert main["links"][0]["queue"] == "100pkt"  # the emulator's own queue, not the simulations' BDP rule
    assert next(spec.scenario for spec in specs if spec.key == ("bdp", 0.01, 1, 1))["links"][0]["queue"] == "1BDP"
    assert main["tcp"]["mss"] == 1460 and main["tcp"]["rwnd"] == "32KB" and main["tcp"]["rtt_tick"] == "10ms"
    assert main["links"][0]["rate"] == "4000000bps" and main["links"][0]["loss"][0]["p"] == 0.01
    assert [f["variant"] for f in main["flows"]] == ["reno", "reno", "westwood", "westwood", "westwood"]
    linux = {"recovery": "sack", "avoid_repeated_fast_retransmit": True, "timeout_ssthresh": "first_of_episode"}
    tcpw = {**linux, "cc": {"kind": "westwood", "sample_tick": "10ms"}}  # ACKs timed in jiffies
    assert [f["tcp"] for f in main["flows"]] == [linux] * 2 + [tcpw] * 3
    latest = next(spec.scenario for spec in specs if spec.key == ("latest", 0.0, 1, 1))
    assert [f["tcp"].get("cc", {}).get("filter") for f in latest["flows"]] == [None] + [{"kind": "tustin_latest"}] * 4
    assert latest["links"][0]["queue"] == "1BDP"
    assert all(f["tcp"]["cc"]["sample_tick"] == "10ms" for f in latest["flows"][1:])
    ns2 = next(spec.scenario for spec in specs if spec.key == ("ns2", 0.0, 1, 1))
    assert ns2["tcp"]["mss"] == 360 and ns2["links"][0]["rate"] == "2000000bps"
