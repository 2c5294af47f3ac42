"""The `moller` experiments: the analytical ones pass through `execute`; the simulation ones plan
valid scenarios and analyze (fake) results; a missing Westwood+ variant fails loudly."""

import json
import math

import numpy as np
import pandas as pd
import pytest
import tcpsim.scenario
from matplotlib.figure import Figure
from tcpsim.repro import select
from tcpsim.repro.framework import execute
from tcpsim.repro.moller import analytical
from tcpsim.repro.moller import common as moller
from tcpsim.scenario import load_scenario
from tcpsim.tidy import RunKey

ANALYTICAL = ["moller.fig3", "moller.fig4", "moller.limits"]
SIMULATION = ["moller.fig5", "moller.fig6", "moller.fig7", "moller.fig8"]
HAS_WESTWOOD_PLUS = "westwood_plus" in tcpsim.scenario.VARIANTS


def test_every_catalog_experiment_is_registered():
    assert [e.id for e in select(["moller"])] == ANALYTICAL + SIMULATION


def test_analytical_experiments_pass(tmp_path):
    reports = execute(select(ANALYTICAL), quick=True, out_dir=tmp_path, progress=False, cache_dir=tmp_path / "cache")
    assert [r["id"] for r in reports] == ANALYTICAL
    for report in reports:
        failed = [c for c in report["claims"] if not c["ok"]] + [
            n for n in report["model_checks"] if n["status"] != "matched"
        ]
        assert not failed, (report["id"], failed)
        assert report["claims"] and all(c["detail"].startswith("test: ") for c in report["claims"])
        # The model's identities are model checks, not paper numbers.
        assert report["model_checks"] and not report["numbers"]
        assert (tmp_path / f"{report['id']}.png").stat().st_size > 10_000
        assert json.loads((tmp_path / f"{report['id']}.json").read_text())["ok"]
    fig3 = reports[0]
    assert [c["text"] for c in fig3["claims"]] == [
        "equal shares at B = CT (β = 1/2)",
        "Westwood+ larger for B < CT, NewReno larger for B > CT",
        "sum ≈ 1",
    ]
    limits = {n["name"]: n for n in reports[2]["model_checks"]}
    assert limits["NewReno share, B → ∞ (B/CT = 1e6)"]["paper"] == 0.75
    assert math.isclose(limits["eq. (35) ratio, B → ∞ (B/CT = 1e6)"]["measured"], 1 / math.sqrt(2), rel_tol=1e-3)


def test_grids_and_run_lengths():
    one = moller.TABLE_II[1]
    assert moller.buffer_grid(one, quick=True) == [2, 5, 10, 21, 31, 42, 62, 83]
    full = moller.buffer_grid(one, quick=False)
    assert full[0] == 2 and full[-1] == 83 and 42 in full and len(full) >= 25
    for setting in moller.TABLE_II.values():
        grid = moller.buffer_grid(setting, quick=False)
        assert min(grid) == 2 and max(grid) <= 2 * setting.bdp_pkts + 0.5
    duration, warmup = moller.run_length(one, quick=True)
    assert 50 <= warmup < duration <= 600
    long_duration, _ = moller.run_length(moller.TABLE_II[3], quick=False)
    assert long_duration > 10 * moller.run_length(one, quick=False)[0] / 2


def test_scenario_geometry():
    scenario = moller.two_flow_scenario(moller.TABLE_II[3], 17, duration_s=100, warmup_s=10)
    bottleneck = scenario["links"][2]
    assert bottleneck["rate"] == "10Mbps"
    # B is ns-2's queue-limit: 16 packets wait behind the one on the wire.
    [_, _, engine_bottleneck] = load_scenario(scenario).to_engine()["links"]
    assert engine_bottleneck["ab"]["queue"]["limit_packets"] == 16
    one_way_ms = float(bottleneck["delay"].removesuffix("ms")) + moller.ACCESS_DELAY_S * 1e3
    assert math.isclose(2 * one_way_ms, 200.0)
    assert scenario["tcp"] == {"mss": 1460, "header": 40, "delack_count": 1}
    assert [f["variant"] for f in scenario["flows"]] == ["newreno", "westwood_plus"]
    modified = moller.two_flow_scenario(
        moller.TABLE_II[1], 42, duration_s=100, warmup_s=10, modified=True, second_start_s=50
    )
    assert modified["flows"][1]["tcp"] == {"cc": {"kind": "westwood_plus", "min_decrease_half": True}}
    assert modified["flows"][1]["start"] in ("50s", "50.0s")


@pytest.mark.parametrize("experiment_id", SIMULATION)
def test_missing_variant_fails_loudly(monkeypatch, experiment_id):
    monkeypatch.delitem(tcpsim.scenario.VARIANTS, "westwood_plus", raising=False)
    (experiment,) = select([experiment_id])
    with pytest.raises(RuntimeError, match=r"needs the westwood_plus variant \(issue 3\)"):
        experiment.runs(True, None)


@pytest.mark.skipif(
    not HAS_WESTWOOD_PLUS, reason="the westwood_plus variant (issue 3) is not in tcpsim.scenario.VARIANTS yet"
)
@pytest.mark.parametrize("experiment_id", SIMULATION)
def test_simulation_runs_are_valid_scenarios(experiment_id):
    (experiment,) = select([experiment_id])
    specs = experiment.runs(True, None)
    assert len({spec.key for spec in specs}) == len(specs)
    assert {spec.seed for spec in specs} == {1, 2, 3}
    checked = {}
    for spec in specs:
        text = json.dumps(spec.scenario, sort_keys=True)
        if text not in checked:
            checked[text] = load_scenario(spec.scenario)
    for scenario in checked.values():
        flows = scenario.flow_table()
        assert [f.variant for f in flows][0] == "newreno"
        assert scenario.to_engine()["links"][2]["ab"]["queue"]["limit_packets"] + 1 in moller.buffer_grid(
            moller.TABLE_II[1], quick=True
        )
    if experiment_id == "moller.fig7":
        engine = [s.to_engine() for s in checked.values()]
        assert any(e["flows"][1]["tcp"]["cc"].get("min_decrease_half") for e in engine)


# --- analysis on fake results: the model itself, fed back as a "simulation", passes fig5 ---------


class FakeResult:
    """Just what `run_metrics` reads."""

    def __init__(self, setting, first_share, second_share, queue_pkts, rtt_min_s=0.0514):
        to_bps = setting.capacity_bps * moller.MSS_BYTES / moller.PACKET_BYTES
        self.flows = pd.DataFrame(
            {
                "name": ["f1", "f2"],
                "throughput_bps": [first_share * to_bps, second_share * to_bps],
                "rtt_min_s": [0.0514, rtt_min_s],
                "fast_retransmits": [90, 90],
                "timeouts": [0, 1],
            }
        )
        self.links = pd.DataFrame(
            {
                "name": ["bottleneck"],
                "direction": ["ab"],
                "utilization": [1.0],
                "queue_mean_pkts": [queue_pkts],
                "drops_queue": [10],
            }
        )
        self.traces = {}
        self.meta = {"wall_s": 0.0}


def _model_results(setting, buffers, condition=None, shift=0.0, second="westwood_plus", modified=False, delayed=False):
    out = {}
    for buffer in buffers:
        row = setting.model([buffer], modified).iloc[0]
        first, second_share = row["newreno"], row["westwood_plus"]
        if second == "newreno":
            first = second_share = setting.newreno_pair_model([buffer])["per_flow"].iloc[0]
        for seed, noise in ((1, -0.005), (2, 0.0), (3, 0.005)):
            key = RunKey(**(condition or {}), buffer=buffer, seed=seed)
            out[key] = FakeResult(
                setting,
                first - noise + shift,
                second_share + noise - shift,
                buffer / 2,
                rtt_min_s=0.0514 + 0.0004 * buffer * delayed,
            )
    return out


def test_fig5_model_as_simulation_passes():
    setting = moller.TABLE_II[1]
    buffers = moller.buffer_grid(setting, quick=True)
    results = _model_results(setting, buffers, {"scenario": 1})
    (fig5,) = select(["moller.fig5"])
    outcome = fig5.analyze(results, quick=True)
    assert all(c.ok for c in outcome.claims), [(c.text, c.detail) for c in outcome.claims if not c.ok]
    # One claim per catalog statement: the model match (once) and the ratio.
    assert [c.text.split(": ", 1)[-1][:30] for c in outcome.claims] == [
        "simulation matches the model e",
        "W+/NR ratio falls with B, towa",
    ]
    ratio = outcome.numbers[-1]
    # Like with like: the ratio at the largest buffer (2·CT) against the paper's model curve at
    # that buffer (about 0.67), not against 1/3, the B → ∞ limit that moller.limits checks.
    assert ratio.status == "matched" and abs(ratio.rel_error) < 0.01, (ratio.paper, ratio.measured)
    assert ratio.paper > 0.5 and "B → ∞" in ratio.name
    fig5.plot(outcome, Figure())


def test_fig5_shifted_simulation_fails_the_match():
    setting = moller.TABLE_II[1]
    buffers = moller.buffer_grid(setting, quick=True)
    results = _model_results(setting, buffers, {"scenario": 1}, shift=0.08)
    (fig5,) = select(["moller.fig5"])
    outcome = fig5.analyze(results, quick=True)
    assert not outcome.claims[0].ok and "test: |simulation mean − model| ≤ 0.05" in outcome.claims[0].detail


def test_fig5_ratio_claim_fails_when_the_ratio_rises_with_the_buffer():
    setting = moller.TABLE_II[1]
    buffers = moller.buffer_grid(setting, quick=True)
    results = {}
    for buffer in buffers:  # Westwood+ gaining with B: the opposite of the paper's trend
        share = 0.3 + 0.4 * buffer / max(buffers)
        for seed in (1, 2, 3):
            results[RunKey(scenario=1, buffer=buffer, seed=seed)] = FakeResult(setting, 1 - share, share, buffer / 2)
    (fig5,) = select(["moller.fig5"])
    ratio_claim = fig5.analyze(results, quick=True).claims[-1]
    assert ratio_claim.text.startswith("W+/NR ratio falls") and not ratio_claim.ok


def test_fig6_fig7_fig8_analyze_and_plot():
    setting = moller.TABLE_II[1]
    buffers = moller.buffer_grid(setting, quick=True)
    experiments = dict((e.id, e) for e in select(SIMULATION))
    fig6 = {
        **_model_results(setting, buffers, {"start": "delayed"}, shift=-0.02, delayed=True),
        **_model_results(setting, buffers, {"start": "together"}),
    }
    fig7 = {
        **_model_results(setting, buffers, {"westwood": "modified"}, modified=True),
        **_model_results(setting, buffers, {"westwood": "unmodified"}),
    }
    fig8 = {
        **_model_results(setting, buffers, {"competitor": "newreno"}, second="newreno"),
        **_model_results(setting, buffers, {"competitor": "westwood_plus"}),
    }
    for experiment_id, results in (("moller.fig6", fig6), ("moller.fig7", fig7), ("moller.fig8", fig8)):
        outcome = experiments[experiment_id].analyze(results, quick=True)
        assert outcome.claims and all(c.detail for c in outcome.claims)
        experiments[experiment_id].plot(outcome, Figure())
    outcome8 = experiments["moller.fig8"].analyze(fig8, quick=True)
    assert all(c.ok for c in outcome8.claims), [(c.text, c.detail) for c in outcome8.claims]
    outcome7 = experiments["moller.fig7"].analyze(fig7, quick=True)
    assert outcome7.claims[0].ok  # the model of the modified Westwood+ gives equal shares for B > CT
    outcome6 = experiments["moller.fig6"].analyze(fig6, quick=True)
    assert [c.ok for c in outcome6.claims] == [True, True]  # fake RTTmin 68–85 ms for B ≥ CT, delayed share +0.02
    assert np.isclose(outcome6.numbers[0].measured, 0.0514 + 0.0004 * 83)


def test_fig6_fig7_fig8_claims_fail_on_data_that_contradict_the_paper():
    setting = moller.TABLE_II[1]
    buffers = moller.buffer_grid(setting, quick=True)
    experiments = dict((e.id, e) for e in select(SIMULATION))
    # fig6: a delayed start that changes nothing (RTTmin at the base RTT, same shares).
    fig6 = {
        **{k.replace(start="delayed"): r for k, r in _model_results(setting, buffers, {"start": "together"}).items()},
        **_model_results(setting, buffers, {"start": "together"}),
    }
    assert [c.ok for c in experiments["moller.fig6"].analyze(fig6, quick=True).claims] == [False, False]
    # fig7: the "modified" Westwood+ is the unmodified one: shares stay unequal for B > CT.
    fig7 = {
        **{
            k.replace(westwood="modified"): r
            for k, r in _model_results(setting, buffers, {"westwood": "unmodified"}).items()
        },
        **_model_results(setting, buffers, {"westwood": "unmodified"}),
    }
    assert not experiments["moller.fig7"].analyze(fig7, quick=True).claims[0].ok
    # fig8: NewReno against Westwood+ doing the same as against NewReno everywhere, full utilization.
    fig8 = {
        **_model_results(setting, buffers, {"competitor": "newreno"}, second="newreno"),
        **{
            k.replace(competitor="westwood_plus"): r
            for k, r in _model_results(setting, buffers, {"competitor": "x"}, second="newreno").items()
        },
    }
    assert [c.ok for c in experiments["moller.fig8"].analyze(fig8, quick=True).claims] == [False, False]


# --- the analytical claims' decisions: hold on the paper's shapes, fail on contradicting ones ----------


def test_fig3_decisions_hold_on_the_papers_shape_and_fail_on_a_contradiction():
    assert analytical.equal_shares(0.5, 0.5, 0.5)
    assert not analytical.equal_shares(0.49, 0.51, 0.5)  # unequal shares at B = CT
    assert not analytical.equal_shares(0.5, 0.5, 0.55)  # β ≠ 1/2
    buffers = np.array([10.0, 20.0, 42.0, 60.0, 80.0])
    westwood = np.array([0.8, 0.6, 0.5, 0.4, 0.3])
    assert analytical.ahead_on_each_side(buffers, 42.0, 1 - westwood, westwood)
    # The order reversed (NewReno ahead for B < CT), or a tie on one side, contradicts Fig. 3.
    assert not analytical.ahead_on_each_side(buffers, 42.0, westwood, 1 - westwood)
    tied = westwood.copy()
    tied[0] = 0.5
    assert not analytical.ahead_on_each_side(buffers, 42.0, 1 - tied, tied)
    assert analytical.sums_to_one(np.array([1.0, 0.995, 1.0]))
    assert not analytical.sums_to_one(np.array([1.0, 0.985, 1.0]))  # 1.5 % of the link lost


def test_fig4_decisions_hold_on_the_papers_shape_and_fail_on_a_contradiction():
    together = np.array([[0.6, 0.5, 0.4], [0.61, 0.51, 0.41], [0.6, 0.52, 0.4]])
    assert analytical.curves_coincide([together], 0.03)
    apart = together.copy()
    apart[2, 1] = 0.56  # one scenario 0.06 off at one B/CT
    assert not analytical.curves_coincide([together, apart], 0.03)
    assert analytical.slightly_under_utilizes(0.97, 1.0, [0.999, 1.0, math.nan])
    assert not analytical.slightly_under_utilizes(0.90, 1.0, [1.0])  # far below: not "slightly"
    assert not analytical.slightly_under_utilizes(0.9995, 1.0, [1.0])  # no visible loss
    assert not analytical.slightly_under_utilizes(0.97, 1.0, [0.96])  # another scenario under-utilizes more
    assert not analytical.slightly_under_utilizes(0.97, 0.98, [1.0])  # not full for B ≥ CT


def test_limit_decisions_hold_on_the_papers_shape_and_fail_on_a_contradiction():
    assert analytical.converges(np.array([0.70, 0.74, 0.7499]), 0.75)
    assert not analytical.converges(np.array([0.70, 0.74, 0.745]), 0.75)  # stops 5e-3 short
    assert not analytical.converges(np.array([0.7499, 0.74, 0.7499]), 0.75)  # moves away on the way
    x = np.logspace(-6, 6, 13)
    sqrt_ratio = 1 / np.sqrt(2) + 1 / x
    model_ratio = 1 / 3 + 1 / x
    assert analytical.sqrt_ratio_tends_elsewhere(sqrt_ratio, model_ratio)
    # The square-root formula agreeing with the model (→ 1/3) contradicts eq. (35).
    assert not analytical.sqrt_ratio_tends_elsewhere(model_ratio, model_ratio)
    # The model's ratio not reaching 1/3 contradicts Prop. 4.
    assert not analytical.sqrt_ratio_tends_elsewhere(sqrt_ratio, sqrt_ratio)
