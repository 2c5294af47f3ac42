"""The `casetti` experiments: every one plans scenarios that load, and shortened versions of
fig3, fig9 and fig16 run end to end through the repro framework."""

import json

import pytest
from tcpsim.repro import select
from tcpsim.repro.casetti import bandwidth_estimate, common, fading, rtt_fairness, testbed, wireless
from tcpsim.repro.casetti.common import tagged
from tcpsim.repro.framework import execute
from tcpsim.scenario import load_scenario
from tcpsim.tidy import RunKey

IDS = [
    "casetti.fig3",
    "casetti.fig4",
    "casetti.fig5",
    "casetti.friendliness",
    "casetti.fig7",
    "casetti.fig9",
    "casetti.fig10",
    "casetti.fig11",
    "casetti.fig12",
    "casetti.snoop",
    "casetti.batcp",
    "casetti.fig15",
    "casetti.fig16",
    "casetti.fig17",
    "casetti.fig18",
]


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
    scenario = load_scenario(
        common.wireless_scenario("westwood", loss=common.bernoulli(0.01), duration_s=10, warmup_s=1)
    )
    engine = scenario.to_engine()
    tcp = engine["flows"][0]["tcp"]
    assert tcp["mss_bytes"] + tcp["header_bytes"] == 400
    assert tcp["delack_count"] == 2 and tcp["min_rto_ns"] == 200_000_000
    assert tcp["avoid_repeated_fast_retransmit"] is False  # TCPW: faster recovery on every 3 dupacks
    assert tcp["timeout_ssthresh"] == "every"  # ns-2's TcpAgent::timeout halves on every expiry
    assert tcp["cc"]["kind"] == "westwood" and tcp["cc"]["tau_ns"] == 500_000_000 and tcp["recovery"] == "reno"
    wireless = engine["links"][1]
    # BDP of 2 Mb/s × 90.02 ms in 400-byte packets, both directions lossy
    assert wireless["ab"]["queue"]["limit_packets"] == 56 - 1  # ns-2's queue-limit L: L - 1 waiting
    assert wireless["ab"]["loss"] and wireless["ba"]["loss"]
    reno = load_scenario(common.wireless_scenario("reno", loss=[], duration_s=10, warmup_s=1)).to_engine()
    assert reno["flows"][0]["tcp"]["avoid_repeated_fast_retransmit"] is True


def test_fig5_is_fig4_with_ns2_red_of_2001():
    from tcpsim.runner import run_digest

    fig4, fig5 = rtt_fairness.Fig4(), rtt_fairness.Fig5()
    specs = fig5.runs(quick=False, seeds=None)
    by_queue: dict[str, list] = {}
    for spec in specs:
        by_queue.setdefault(spec.key["queue"], []).append(spec)
    assert list(by_queue) == ["drop-tail", "RED", "gentle RED", "thresholds 20/60"]
    # the drop-tail baseline is fig4's runs themselves (shared through the run cache)
    assert {run_digest(s) for s in by_queue["drop-tail"]} == {run_digest(s) for s in fig4.runs(False, None)}
    queue = by_queue["RED"][0].scenario["links"][0]["queue"]
    assert queue == {
        "kind": "red",
        "limit": "195pkt",
        "min_th": "5pkt",
        "max_th": "15pkt",
        "max_p": 0.1,
        "w_q": 0.002,
        "gentle": False,
        "wait": True,
        "mode": "packet",
        "ecn": False,
        "mean_packet": "500B",
    }
    gentle = by_queue["gentle RED"][0].scenario["links"][0]["queue"]
    scaled = by_queue["thresholds 20/60"][0].scenario["links"][0]["queue"]
    assert gentle == {**queue, "gentle": True}
    assert scaled == {**queue, "min_th": "20pkt", "max_th": "60pkt"}
    for spec in (by_queue["RED"][0], by_queue["gentle RED"][0]):
        load_scenario(spec.scenario)


def test_fig3_plateaus_follow_the_schedule():
    plateaus = bandwidth_estimate.Fig3().plateaus()
    assert [c / 1e6 for _, _, c in plateaus] == [5, 4, 3, 4, 3, 4, 5]
    assert [a for a, _, _ in plateaus] == [0, 25, 50, 75, 125, 175, 200]


def _short_fig3() -> bandwidth_estimate.Fig3:
    fig3 = bandwidth_estimate.Fig3()
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
    fig16.duration_quick_s = 30.0
    fig16.warmup_s = 5.0
    return fig16


def test_shortened_experiments_run_end_to_end(tmp_path):
    reports = execute(
        [_short_fig3(), _short_fig9(), _short_fig16()],
        quick=True,
        seeds=1,
        jobs=1,
        out_dir=tmp_path,
        progress=False,
        cache_dir=tmp_path / "cache",
    )
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
    assert fig16["main_reading"] == "paper: sojourns in seconds"
    (packets,) = fig16["readings"]
    assert packets["name"] == fading.PACKET_READING and packets["hypothesis"]
    assert len(packets["claims"]) == 2 and len(packets["numbers"]) == 2
    assert {s["label"] for s in packets["series"]} >= {"TCPW", "gain over Reno (%)"}
    assert all(n["status"] in ("matched", "missed") for r in reports for n in r["numbers"])


def test_fig10_setup_buffer_floor_and_receiver_window():
    """The main reading runs the buffer rule Sec. 4 states (BDP, with the 5-packet floor of every
    casetti experiment); ns-2's 50-packet limit_ is an alternative reading run only where it binds."""
    fig10 = wireless.Fig10()
    short = load_scenario(fig10.scenario("reno", 0.0, True)).to_engine()
    assert (
        short["links"][1]["ab"]["queue"]["limit_packets"] + 1 == fig10.min_buffer_pkts == common.MIN_BUFFER_PKTS == 5
    )  # ns-2's queue-limit L: L - 1 waiting
    assert short["flows"][0]["tcp"]["rwnd_bytes"] > 1e9  # main reading: no receiver window, as in every casetti run
    floored = load_scenario(fig10.scenario("reno", 0.0, True, floor=fig10.ns2_limit_pkts)).to_engine()
    assert floored["links"][1]["ab"]["queue"]["limit_packets"] == 50 - 1  # ns-2 limit_ 50: 49 waiting
    mid = load_scenario(fig10.scenario("reno", 0.02, True)).to_engine()
    assert mid["links"][1]["ab"]["queue"]["limit_packets"] == 25 - 1  # BDP of 2 Mb/s × 40.02 ms, ns-2 limit
    long = load_scenario(fig10.scenario("westwood", 0.1, True)).to_engine()
    assert (
        long["links"][1]["ab"]["queue"]["limit_packets"] == 125 - 1
    )  # ns-2 limit: BDP of 2 Mb/s × 200.02 ms, above the floor
    assert fig10.windows["64 KB window"][0] == 65535 // common.PACKET_BYTES
    windowed = load_scenario(fig10.scenario("reno", 0.1, True, rwnd_pkts=163)).to_engine()
    assert windowed["flows"][0]["tcp"]["rwnd_bytes"] == 163 * common.MSS_BYTES
    specs = fig10.runs(quick=True, seeds=1)
    assert {spec.key.get("kind") for spec in specs} == {None, "tick"}
    assert {spec.key.get("reading") for spec in specs} == {
        None,
        "64 KB window",
        "ns-2 default window_ 20",
        fig10.floor_reading,
    }
    # each window reading runs the whole grid, like the main one; the floor reading where it binds
    for name in fig10.windows:
        assert {spec.key["wired_delay_s"] for spec in specs if spec.key.matches(reading=name, config="reno")} == set(
            fig10.grid(True)
        )
    floor_xs = {spec.key["wired_delay_s"] for spec in specs if spec.key.matches(reading=fig10.floor_reading)}
    assert floor_xs == set(fig10.floor_grid(True)) == {0.0, 0.002, 0.005, 0.020}


def _gilbert_elliott(scenario: dict) -> dict:
    (model,) = load_scenario(scenario).to_engine()["links"][1]["ab"]["loss"]
    assert model["kind"] == "gilbert_elliott"
    return model


def test_fading_sojourn_units():
    """fig15/fig16 count the Good/Bad means 8 and 4 in seconds as Sec. 5.2.1 says (main reading);
    sojourns in packets (ns-2's MultiState chain, one transition per packet: `packet_markov`) are
    the alternative reading, run over the whole grid; fig17 (seconds) keeps packets, emulated as
    multiples of the 400-byte transmission time (its means are under one packet), as a sensitivity."""
    fig15, fig16, fig17 = fading.Fig15(), fading.Fig16(), fading.Fig17()
    model = _gilbert_elliott(fig15.scenario("reno", 0.05, True))
    assert (model["good_mean_ns"], model["bad_mean_ns"], model["bad_loss"]) == (8_000_000_000, 4_000_000_000, 0.05)
    assert _gilbert_elliott(fig16.scenario("reno", 10e6, True))["bad_mean_ns"] == 4_000_000_000
    chain = {
        "kind": "packet_markov",
        "good_mean_pkts": 8.0,
        "bad_mean_pkts": 4.0,
        "good_loss": 1e-5,
        "bad_loss": 0.05,
        "initial": "stationary",
    }
    for packets in (
        fig15._scenario("reno", 0.05, True, "ab", fading.PKT),
        fig16._scenario("reno", 10e6, True, "ab", fading.PKT),
    ):
        assert load_scenario(packets).to_engine()["links"][1]["ab"]["loss"] == [chain]
    emulated = _gilbert_elliott(fig17._scenario("reno", 0.1, True, "ab", fading.PKT))
    assert (emulated["good_mean_ns"], emulated["bad_mean_ns"]) == (4 * 1_600_000, 160_000)
    blackout = _gilbert_elliott(fig17.scenario("sack", 0.1, True))
    assert (blackout["good_mean_ns"], blackout["bad_mean_ns"], blackout["bad_loss"]) == (
        4_000_000_000,
        100_000_000,
        1.0,
    )
    for experiment in (fig15, fig16):
        specs = experiment.runs(quick=True, seeds=None)
        assert {spec.key.get("kind") for spec in specs} == {None, fading.DATA_ONLY}
        alt_keys = {
            spec.key.without("reading")
            for spec in specs
            if spec.key.matches(reading=fading.PACKET_READING, config="reno")
        }
        main_keys = {spec.key for spec in specs if tagged(spec.key) and spec.key.matches(config="reno")}
        assert alt_keys == main_keys  # the reading runs the same grid and seeds as the main one
    kinds = {spec.key.get("kind") for spec in fig17.runs(quick=True, seeds=1)}
    assert kinds == {None, fading.DATA_ONLY, fading.PKT, "corr", "ns2clock"}  # sensitivities, no reading


def test_markov_channel_errs_in_both_directions():
    """Sec. 5: errors in both directions of the wireless link, one independent channel process per
    direction; the data-direction-only runs are the sensitivity."""
    engine = load_scenario(fading.Fig17().scenario("reno", 0.1, True)).to_engine()
    wireless = engine["links"][1]
    assert [m["kind"] for m in wireless["ab"]["loss"]] == ["gilbert_elliott"]
    assert [m["kind"] for m in wireless["ba"]["loss"]] == ["gilbert_elliott"]
    assert wireless["ab"]["loss"][0].get("shared_state") is None
    data_only = load_scenario(fading.Fig15()._scenario("reno", 0.05, True, fading.DATA_ONLY, fading.SEC)).to_engine()
    assert data_only["links"][1]["ab"]["loss"] and not data_only["links"][1]["ba"]["loss"]


def test_fig7_models_the_linux_testbed():
    """fig7 main reading: 1500-byte packets, Linux TCP (SACK, no re-entry, 32 KB window, 10 ms timers)
    for Reno and TCPW alike, the lab's 10 Mb/s Ethernet, a BDP queue; the alternative readings
    (4 Mb/s emulator with a 100-packet queue, the ns-2 set-up) run every mix k = 0…5."""
    fig7 = testbed.Fig7()
    specs = fig7.runs(quick=True, seeds=1)
    readings = set(fig7.readings)
    assert {spec.key.get("reading") for spec in specs} == {None, *readings}
    assert {spec.key.get("kind") for spec in specs} == {None, "q100", "q50", "rwnd64K", "nosack", "latest"}
    for tags in ({}, *({"reading": name} for name in readings)):
        assert {spec.key["k"] for spec in specs if tagged(spec.key, **tags)} == set(range(6))

    def scenario(**key):
        return next(spec.scenario for spec in specs if spec.key == RunKey(**key))

    main = scenario(loss=0.01, k=2, seed=1)
    assert main["links"][0]["queue"] == "1BDP" and main["links"][0]["rate"] == "10000000bps"
    assert main["tcp"]["mss"] == 1460 and main["tcp"]["rwnd"] == "32KB" and main["tcp"]["rtt_tick"] == "10ms"
    assert main["links"][0]["loss"][0]["p"] == 0.01
    assert [f["variant"] for f in main["flows"]] == ["reno", "reno", "westwood", "westwood", "westwood"]
    linux = {"recovery": "sack", "avoid_repeated_fast_retransmit": True, "timeout_ssthresh": "first_of_episode"}
    tcpw = {**linux, "cc": {"kind": "westwood", "sample_tick": "10ms"}}  # ACKs timed in jiffies
    assert [f["tcp"] for f in main["flows"]] == [linux] * 2 + [tcpw] * 3
    emulator = scenario(reading="emulator 4 Mb/s, 100-packet queue", loss=0.0, k=1, seed=1)
    assert emulator["links"][0]["queue"] == "100pkt" and emulator["links"][0]["rate"] == "4000000bps"
    latest = scenario(kind="latest", loss=0.0, k=1, seed=1)
    assert [f["tcp"].get("cc", {}).get("filter") for f in latest["flows"]] == [None] + [{"kind": "tustin_latest"}] * 4
    assert all(f["tcp"]["cc"]["sample_tick"] == "10ms" for f in latest["flows"][1:])
    ns2 = scenario(reading="ns-2 simulation set-up", loss=0.0, k=1, seed=1)
    assert ns2["tcp"]["mss"] == 360 and ns2["links"][0]["rate"] == "2000000bps"


# --- claim checks on synthetic data: each holds on agreeing data and fails on contradicting data


def test_peak_at_needs_the_paper_x_to_be_the_peak_or_a_close_tie():
    from tcpsim.repro.casetti import checks

    peak_at_5 = {0.01: [100, 110, 105, 95], 0.05: [300, 310, 290, 305], 0.3: [50, 60, 55, 45]}
    assert checks.peak_at(peak_at_5, 0.05)[0]
    assert not checks.peak_at(peak_at_5, 0.01)[0]  # the paper's x clearly below the peak
    # noisy tie: not significant, but 28 % below the argmax: the effect-size bound rejects it
    noisy = {0.01: [20, 130, 70, 70], 0.05: [40, 60, 50, 50]}
    assert not checks.peak_at(noisy, 0.05)[0]
    close = {0.1: [500, 560, 530, 520], 0.15: [540, 560, 520, 560]}  # within 4 %, not significant
    ok, detail = checks.peak_at(close, 0.1)
    assert ok and "Welch" in detail and "15%" in detail


def test_increases_needs_a_significant_rise_and_no_higher_point():
    from tcpsim.repro.casetti import checks

    assert checks.increases({1: [30, 35, 32], 5: [120, 110, 130], 10: [230, 220, 240]})[0]
    assert not checks.increases({1: [30, 35, 32], 5: [400, 410, 420], 10: [230, 220, 240]})[0]  # peak in the middle
    assert not checks.increases({1: [30, 35, 32], 10: [30, 36, 31]})[0]  # flat
    assert not checks.increases({1: [300, 350, 320], 10: [30, 36, 31]})[0]  # falls


def test_falls_beyond_needs_a_significant_fall():
    from tcpsim.repro.casetti import checks

    assert checks.falls_beyond({0.1: [560, 570, 580], 0.25: [480, 490, 500]}, 0.1)[0]
    assert not checks.falls_beyond({0.1: [560, 570, 580], 0.25: [600, 610, 620]}, 0.1)[0]
    assert not checks.falls_beyond({0.1: [560, 700, 420], 0.25: [540, 400, 650]}, 0.1)[0]  # not significant


def test_equal_within_all_below_and_gain_near_zero():
    from tcpsim.repro.casetti import checks

    assert checks.equal_within({"TCPW": 1.9, "Reno": 1.8, "SACK": 1.85}, 0.15)[0]
    assert not checks.equal_within({"TCPW": 1.9, "Reno": 1.2, "SACK": 1.85}, 0.15)[0]
    assert checks.all_below({"TCPW": 0.07, "Reno": 0.03}, 0.5, "25 % of the link")[0]
    assert not checks.all_below({"TCPW": 0.54, "Reno": 0.35}, 0.5, "25 % of the link")[0]
    assert checks.gain_near_zero({"Reno": [5, -3, 8], "SACK": [2, 0, -4]}, 15)[0]
    assert not checks.gain_near_zero({"Reno": [64, 50, 78], "SACK": [2, 0, -4]}, 15)[0]  # fig17's +64 %


def test_share_ordering_and_keeps_share_at_the_papers_precision():
    from tcpsim.repro.casetti import checks

    floor = 0.85 * 0.0913
    assert checks.share_ordering([0.108, 0.107], [0.091, 0.092], 0.1, floor)[0]  # the paper's own values
    assert not checks.share_ordering([0.134, 0.133], [0.058, 0.059], 0.1, floor)[0]  # +34 % / −42 %
    assert not checks.share_ordering([0.095, 0.096], [0.104, 0.105], 0.1, floor)[0]  # order reversed
    assert checks.keeps_share({"clean, k=1": 0.97, "1% loss, k=1": 0.9}, 0.85)[0]
    assert not checks.keeps_share({"clean, k=1": 0.97, "1% loss, k=1": 0.57}, 0.85)[0]


def test_between_needs_the_whole_interval_inside():
    from tcpsim.repro.casetti import checks

    assert checks.between([150, 160, 170, 155], 0, 202)[0]
    assert not checks.between([150, 260, 170, 155], 0, 202)[0]  # CI reaches above BA-TCP's +202 %
    assert not checks.between([-10, 5, 20], 0, 202)[0]


def test_fig7_judge_fails_when_reno_is_squeezed():
    """The fig7 claims and number, computed from synthetic per-flow throughputs."""
    fig7 = testbed.Fig7()

    def values(reno_share, gain):
        def v(p, k, variant):
            if variant == "reno":
                return [1.0 * (reno_share if k < 5 else 1.0)] * 3
            return [1.0 + gain / 100 + d for d in (0.0, 0.01, -0.01)]

        return v

    claims, number = fig7.judge(values(0.95, 10), range(6))
    assert [c.ok for c in claims] == [True, True] and number.status == "matched"
    claims, number = fig7.judge(values(0.6, -5), range(6))
    assert [c.ok for c in claims] == [False, False] and number.status == "missed"


def test_fig3_checks_fail_when_the_estimate_misses_or_lags_the_available_bandwidth():
    from tcpsim.repro.casetti import checks

    available = [5, 4, 3, 4]
    agree = [[5.1, 5.0], [4.2, 4.1], [3.2, 3.1], [4.1, 4.2]]
    ok, detail = checks.tracks_plateaus(agree, available, 0.15)
    assert ok and "15%" in detail and "2 seeds" in detail
    assert not checks.tracks_plateaus([[5.1, 5.0], [4.2, 4.1], [4.0, 4.1], [4.1, 4.2]], available, 0.15)[0]
    assert checks.steps_follow(agree, available)[0]
    # the estimate stays put when the bandwidth falls from 4 to 3 Mb/s
    assert not checks.steps_follow([[5.1, 5.0], [4.2, 4.1], [4.1, 4.2], [4.1, 4.2]], available)[0]
    # a step in the right direction but within the seeds' noise is not a step
    assert not checks.steps_follow([[5.1, 5.0], [4.9, 3.3], [3.2, 3.1], [4.1, 4.2]], available)[0]


def test_fig4_checks_need_significant_differences():
    from tcpsim.repro.casetti import checks

    short = {"TCPW": [30.0, 31.0, 29.5], "Reno": [35.0, 34.0, 36.0]}
    ok, detail = checks.faster_in_both(short, {"TCPW": [20.0, 21.0, 19.0], "Reno": [10.0, 11.0, 9.0]})
    assert ok and "95 %" in detail and "3 seeds" in detail
    # under TCPW the long flow is ahead: the paper's "short flow faster in both" is contradicted
    assert not checks.faster_in_both(short, {"TCPW": [32.0, 33.0, 31.0], "Reno": [10.0, 11.0, 9.0]})[0]
    # short ahead on average but not in every seed by a margin the seeds can show
    assert not checks.faster_in_both(short, {"TCPW": [35.0, 20.0, 34.0], "Reno": [10.0, 11.0, 9.0]})[0]
    ok, detail = checks.larger_share([0.40, 0.42, 0.41], [0.20, 0.22, 0.21])
    assert ok and "Welch" in detail and "3 and 3 seeds" in detail
    assert not checks.larger_share([0.20, 0.22, 0.21], [0.40, 0.42, 0.41])[0]  # Reno's share larger
    assert not checks.larger_share([0.30, 0.15, 0.35], [0.20, 0.22, 0.21])[0]  # larger mean, not significant


def test_fig5_checks_need_significant_improvements():
    from tcpsim.repro.casetti import checks

    before = {"TCPW": [0.30, 0.31, 0.29, 0.30], "Reno": [0.15, 0.16, 0.14, 0.15]}
    ok, detail = checks.improves_in_both({"TCPW": [0.42, 0.43, 0.41, 0.42], "Reno": [0.20, 0.21, 0.19, 0.20]}, before)
    assert ok and "Welch" in detail
    # Reno's share falls with RED: "both benefit" is contradicted
    assert not checks.improves_in_both({"TCPW": [0.42, 0.43, 0.41, 0.42], "Reno": [0.10, 0.11, 0.09, 0.10]}, before)[0]
    # TCPW's rise within the seeds' noise is no benefit
    assert not checks.improves_in_both({"TCPW": [0.45, 0.20, 0.40, 0.25], "Reno": [0.20, 0.21, 0.19, 0.20]}, before)[0]
    tcpw_before, reno_before = before["TCPW"], before["Reno"]
    ok, detail = checks.larger_improvement([0.42, 0.43, 0.41, 0.42], tcpw_before, [0.20, 0.21, 0.19, 0.20], reno_before)
    assert ok and "+0.120" in detail and "+0.050" in detail
    # Reno improves more than TCPW: contradicts "the improvement in TCPW was higher"
    assert not checks.larger_improvement([0.33, 0.34, 0.32, 0.33], tcpw_before, [0.25, 0.26, 0.24, 0.25], reno_before)[
        0
    ]
    # TCPW ahead on average but the seeds cannot tell the improvements apart
    assert not checks.larger_improvement([0.50, 0.25, 0.45, 0.30], tcpw_before, [0.20, 0.21, 0.19, 0.20], reno_before)[
        0
    ]


def test_fig12_consistently_higher_needs_significance_and_most_windows():
    from tcpsim.repro.casetti import checks

    w_windows = [[20, 22, 21, 23], [19, 21, 22, 20]]
    r_windows = [[10, 12, 11, 13], [11, 9, 12, 10]]
    ok, detail = checks.consistently_higher([21.5, 20.5], [11.5, 10.5], w_windows, r_windows, 0.8)
    assert ok and "Welch" in detail and "80%" in detail
    # Reno's window higher: contradicts the paper
    assert not checks.consistently_higher([11.5, 10.5], [21.5, 20.5], r_windows, w_windows, 0.8)[0]
    # higher on average but only in half the windows
    mixed = [[30, 30, 12, 12], [29, 31, 11, 10]]
    assert not checks.consistently_higher([21.0, 20.3], [11.5, 10.5], mixed, r_windows, 0.8)[0]


def test_above_everywhere_ratio_and_closer_to():
    from tcpsim.repro.casetti import checks

    agree = {
        0.01: {"TCPW": [1.5, 1.6, 1.55], "Reno": [0.4, 0.5, 0.45]},
        0.05: {"TCPW": [0.6, 0.62, 0.61], "Reno": [0.2, 0.3, 0.25]},
    }
    ok, detail = checks.above_everywhere(agree, "TCPW")
    assert ok and "Welch" in detail
    tie = {**agree, 0.05: {"TCPW": [0.3, 0.62, 0.4], "Reno": [0.2, 0.3, 0.25]}}
    assert not checks.above_everywhere(tie, "TCPW")[0]  # above on average, not significantly
    below = {**agree, 0.05: {"TCPW": [0.2, 0.21, 0.22], "Reno": [0.6, 0.62, 0.61]}}
    ok, detail = checks.above_everywhere(below, "TCPW")
    assert not ok and "0.05 vs Reno" in detail
    assert checks.ratio_at_least([2.0, 2.1], {"Reno": [0.9, 1.0], "SACK": [0.95, 1.0]}, 2.0)[0]
    assert not checks.ratio_at_least([2.0, 2.1], {"Reno": [0.9, 1.0], "SACK": [1.4, 1.5]}, 2.0)[0]
    ok, detail = checks.closer_to([380, 390, 370, 385], 400, 200)
    assert ok and "+300" in detail
    assert not checks.closer_to([220, 230, 210, 240], 400, 200)[0]  # ELN's level
    assert not checks.closer_to([200, 420, 300, 330], 400, 200)[0]  # mean above 300, CI across it
