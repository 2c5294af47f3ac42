"""The repro registry and ``execute`` with fake experiments and a fake simulator."""

import json
import math
import sys

import numpy as np
import pandas as pd
import pytest
import tcpsim.repro as repro
from tcpsim import runner
from tcpsim.repro import UnknownExperiment, register, select
from tcpsim.repro.framework import Claim, Experiment, ModelCheck, Number, Outcome, Reading, Series, execute, jsonable
from tcpsim.result import RunResult
from tcpsim.runner import RunSpec
from tcpsim.stats import mean_ci
from tcpsim.store import key as store_key
from tcpsim.store.location import STORE_ENV


def fake_run(spec: RunSpec) -> RunResult:
    params = dict(spec.overrides)
    if params.get("fail"):
        raise RuntimeError("engine exploded")
    goodput = params["x"] * 1e6 + spec.seed * 1e4
    return RunResult(
        flows=pd.DataFrame({"name": ["a"], "goodput_bps": [goodput]}),
        links=pd.DataFrame(),
        meta={"seed": spec.seed, "wall_s": 0.5},
    )


@pytest.fixture(autouse=True)
def isolated(monkeypatch, tmp_path):
    monkeypatch.setattr(repro, "_registry", {})
    monkeypatch.setattr(repro, "_loaded", True)
    monkeypatch.setattr(runner, "_run_one", fake_run)
    monkeypatch.setattr(runner, "_scenario_hash", lambda spec: json.dumps([spec.scenario, list(spec.overrides)]))
    monkeypatch.setattr(runner, "_canonical_text", lambda spec: json.dumps([spec.scenario, list(spec.overrides)]))
    monkeypatch.setattr(store_key, "engine_version", lambda: "test")
    monkeypatch.setenv(STORE_ENV, str(tmp_path / "store"))


class Sweep(Experiment):
    """Goodput vs x over seeds, with one claim and three kinds of number."""

    id = "casetti.fig9"
    title = "fake sweep"
    paper = "casetti"
    xlabel = "x"
    ylabel = "goodput (Mb/s)"
    xscale = "log"

    def runs(self, quick, seeds):
        return [
            RunSpec(key=(x, s), scenario={"fake": True}, seed=s, overrides=(("x", x),))
            for x in (1, 2, 4)
            for s in self.replications(quick, seeds)
        ]

    def analyze(self, results, quick):
        xs = sorted({x for x, _ in results})
        stats = [mean_ci([r.flows["goodput_bps"][0] / 1e6 for (x, _), r in results.items() if x == x0]) for x0 in xs]
        means = [m for m, _, _ in stats]
        return Outcome(
            series=[Series("fake", xs, means, [lo for _, lo, _ in stats], [hi for _, _, hi in stats])],
            claims=[Claim("goodput grows with x", means == sorted(means), f"means {means}")],
            numbers=[
                Number("goodput at x=1", paper=1.0, measured=means[0]),
                Number("goodput at x=4", paper=8.0, measured=means[2], explanation="paper used 2x the rate"),
            ],
            notes=["x is fake"],
        )


class Model(Experiment):
    id = "moller.fig3"
    title = "fake model"
    paper = "moller"
    kind = "model"

    def analyze(self, results, quick):
        return Outcome(series=[Series("model", [1, 2], [0.5, 0.5])], claims=[Claim("equal", True)])


class Broken(Experiment):
    id = "moller.fig4"
    title = "broken analysis"
    paper = "moller"

    def analyze(self, results, quick):
        raise ZeroDivisionError("boom")


class BadPlot(Model):
    id = "moller.fig5"

    def plot(self, outcome, fig):
        raise RuntimeError("cannot draw")


class FailingRuns(Experiment):
    id = "gangadhar.fig5"
    title = "a run fails"
    paper = "gangadhar"

    def runs(self, quick, seeds):
        return [
            RunSpec(key=("bad",), scenario={}, overrides=(("fail", True),)),
            RunSpec(key=("ok",), scenario={}, overrides=(("x", 1),)),
        ]

    def analyze(self, results, quick):
        raise AssertionError("must not be called when runs failed")


def register_all():
    for cls in (Sweep, Model, Broken, BadPlot, FailingRuns):
        register(cls)


# --- registry -------------------------------------------------------------------------------


def test_select_by_id_paper_glob_and_all():
    register_all()
    assert [e.id for e in select(["moller.fig3"])] == ["moller.fig3"]
    assert [e.id for e in select(["moller"])] == ["moller.fig3", "moller.fig4", "moller.fig5"]
    assert [e.id for e in select(["moller.fig[45]"])] == ["moller.fig4", "moller.fig5"]
    assert [e.id for e in select(["casetti.*", "moller.fig3", "casetti"])] == ["casetti.fig9", "moller.fig3"]
    assert len(select(["all"])) == 5


def test_select_unknown_pattern_names_what_is_known():
    register_all()
    with pytest.raises(UnknownExperiment) as caught:
        select(["moller.fig3", "mollerr", "nope.*"])
    message = str(caught.value)
    assert "'mollerr'" in message and "'nope.*'" in message
    assert "casetti, gangadhar, moller" in message
    assert "moller.fig3" in message
    assert "\n" not in message


def test_select_with_nothing_registered_says_so():
    with pytest.raises(UnknownExperiment, match="no experiments are registered"):
        select(["moller"])


def test_register_checks_paper_and_id():
    class WrongPaper(Model):
        paper = "nobody"

    class WrongPrefix(Model):
        id = "casetti.fig3"

    with pytest.raises(ValueError, match="unknown paper"):
        register(WrongPaper)
    with pytest.raises(ValueError, match="must start with"):
        register(WrongPrefix)


def test_register_rejects_an_id_claimed_by_another_class():
    register(Model)
    register(Model)  # a module reload re-registers the same class: fine

    class Other(Model):
        pass

    with pytest.raises(ValueError, match="registered twice"):
        register(Other)


def test_modules_are_imported_lazily_and_missing_ones_skipped(monkeypatch, tmp_path):
    package = tmp_path / "extra"
    package.mkdir()
    (package / "fakepaper.py").write_text(
        "from tcpsim.repro import register\n"
        "from tcpsim.repro.framework import Experiment\n"
        "@register\n"
        "class E(Experiment):\n"
        "    id, title, paper = 'validation.fake', 'fake', 'validation'\n"
    )
    (package / "brokenpaper.py").write_text("import no_such_dependency_xyz\n")
    monkeypatch.setattr(repro, "__path__", [*repro.__path__, str(package)])
    monkeypatch.setattr(repro, "_loaded", False)
    monkeypatch.setattr(repro, "_MODULES", ["not_written_yet", "fakepaper"])
    for name in ("tcpsim.repro.fakepaper", "tcpsim.repro.brokenpaper"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    assert [e.id for e in repro.all_experiments()] == ["validation.fake"]

    monkeypatch.setattr(repro, "_loaded", False)
    monkeypatch.setattr(repro, "_MODULES", ["brokenpaper"])
    with pytest.raises(ModuleNotFoundError, match="no_such_dependency_xyz"):
        repro.all_experiments()
    monkeypatch.delitem(sys.modules, "tcpsim.repro.fakepaper", raising=False)


# --- numbers, series, json ------------------------------------------------------------------


def test_point_number_is_matched_only_within_its_tolerance():
    assert Number("n", paper=1.0, measured=1.14).status == "matched"
    assert Number("n", paper=1.0, measured=1.16).status == "missed"
    assert Number("n", paper=1.0, measured=1.16, tolerance=0.2).matched
    assert not Number("n", paper=1.0, measured=float("nan")).matched
    assert Number("n", paper=0.0, measured=0.0).matched
    assert not Number("n", paper=0.0, measured=0.1).matched
    assert Number("n", paper=-2.0, measured=-2.2).rel_error == pytest.approx(-0.1)


def test_an_explanation_never_makes_a_number_matched():
    explained = Number("n", paper=1.0, measured=2.0, explanation="the paper omits the buffer size")
    assert explained.status == "missed"
    assert not explained.matched and not explained.ok and not explained.within_tolerance
    as_json = explained.to_dict()
    assert as_json["status"] == "missed" and as_json["explanation"] == "the paper omits the buffer size"
    for kind, paper, high in (("upper", 1.0, None), ("lower", 3.0, None), ("range", 0.0, 1.0)):
        assert Number("n", paper, 2.0, kind=kind, paper_high=high, explanation="because").status == "missed"
    check = ModelCheck("identity", paper=0.5, measured=0.6, explanation="rounding")
    assert check.status == "missed"


def test_an_upper_bound_is_checked_as_a_bound():
    # "Westwood's spread < 0.4 Mb/s": 0.426 is within 15 % of 0.4 but above the bound.
    assert Number("spread", paper=0.4, measured=0.426, kind="upper").status == "missed"
    assert Number("spread", paper=0.4, measured=0.399, kind="upper").matched
    assert not Number("spread", paper=0.4, measured=0.4, kind="upper").matched  # strict
    assert Number("spread", paper=0.4, measured=0.01, kind="upper", tolerance=0.0).matched  # tolerance ignored
    assert not Number("spread", paper=0.4, measured=float("nan"), kind="upper").matched


def test_a_lower_bound_is_checked_as_a_bound():
    assert Number("rate", paper=500.0, measured=501.0, kind="lower").matched
    assert not Number("rate", paper=500.0, measured=499.0, kind="lower").matched
    assert not Number("rate", paper=500.0, measured=float("nan"), kind="lower").matched


def test_a_range_is_checked_as_a_range():
    inside = Number("share", paper=0.88, measured=0.9, kind="range", paper_high=0.96)
    assert inside.matched and inside.rel_error == 0.0
    below = Number("share", paper=0.88, measured=0.8, kind="range", paper_high=0.96)
    assert not below.matched and below.rel_error == pytest.approx(-0.08 / 0.88)
    above = Number("share", paper=0.88, measured=1.2, kind="range", paper_high=0.96)
    assert not above.matched and above.rel_error == pytest.approx(0.24 / 0.96)
    assert Number("share", paper=0.88, measured=0.96, kind="range", paper_high=0.96).matched  # ends included
    with pytest.raises(ValueError, match="paper_high"):
        Number("share", paper=0.88, measured=0.9, kind="range")
    with pytest.raises(ValueError, match="paper_high"):
        Number("share", paper=0.88, measured=0.9, paper_high=1.0)
    with pytest.raises(ValueError, match="empty"):
        Number("share", paper=1.0, measured=0.9, kind="range", paper_high=0.5)
    with pytest.raises(ValueError, match="kind"):
        Number("share", paper=1.0, measured=0.9, kind="about")


def test_number_json_has_kind_bounds_precision_and_status():
    n = Number("rate", paper=1.0, measured=1.05, tolerance=0.1, precision="read off a plot to ±0.1 Mb/s")
    assert n.to_dict() == {
        "name": "rate",
        "kind": "point",
        "paper": 1.0,
        "paper_high": None,
        "measured": 1.05,
        "tolerance": 0.1,
        "precision": "read off a plot to ±0.1 Mb/s",
        "rel_error": pytest.approx(0.05),
        "status": "matched",
        "ok": True,
        "explanation": None,
    }


def test_series_lengths_must_agree():
    with pytest.raises(ValueError, match="length"):
        Series("s", [1, 2], [1.0])


def test_jsonable_makes_strict_json():
    value = {"a": np.float64("nan"), "b": np.arange(3), "c": (1, float("inf")), 4: np.bool_(True)}
    assert jsonable(value) == {"a": None, "b": [0, 1, 2], "c": [1, None], "4": True}
    json.dumps(jsonable(value), allow_nan=False)


# --- execute --------------------------------------------------------------------------------


def test_execute_writes_figures_and_summaries(tmp_path):
    out = tmp_path / "results"
    reports = execute([Sweep(), Model()], quick=True, seeds=3, jobs=2, out_dir=out, progress=False)
    assert [r["id"] for r in reports] == ["casetti.fig9", "moller.fig3"]
    sweep_report = reports[0]
    assert set(sweep_report) >= {
        "id",
        "title",
        "paper",
        "quick",
        "series",
        "claims",
        "numbers",
        "notes",
        "figure",
        "wall_s",
    }
    assert sweep_report["quick"] is True
    series = sweep_report["series"][0]
    assert set(series) == {"label", "x", "y", "y_ci_low", "y_ci_high"}
    assert series["x"] == [1, 2, 4]
    assert series["y"] == pytest.approx([1.02, 2.02, 4.02])  # mean over seeds 1..3
    assert series["y_ci_low"][0] < series["y"][0] < series["y_ci_high"][0]
    (claim,) = sweep_report["claims"]
    assert claim["text"] == "goodput grows with x" and claim["ok"] is True and claim["detail"].startswith("means [")
    first, second = sweep_report["numbers"]
    assert set(first) >= {"name", "kind", "paper", "measured", "status", "explanation"}
    assert first["status"] == "matched" and first["explanation"] is None
    assert second["status"] == "missed" and second["explanation"] == "paper used 2x the rate"
    assert not sweep_report["ok"] and sweep_report["status"] == "not reproduced"  # the explained miss counts
    assert reports[1]["ok"] and reports[1]["status"] == "reproduced"
    assert sweep_report["wall_s"] >= 9 * 0.5  # nine runs of 0.5 s each, plus analysis
    assert sweep_report["notes"] == ["x is fake"]

    for exp_id in ("casetti.fig9", "moller.fig3"):
        assert (out / f"{exp_id}.png").stat().st_size > 0
        assert (out / f"{exp_id}.svg").read_text().lstrip().startswith("<?xml")
        assert json.loads((out / f"{exp_id}.json").read_text())["id"] == exp_id
    assert sweep_report["figure"] == str(out / "casetti.fig9.png")
    assert json.loads((out / "summary.json").read_text()) == reports
    summary = (out / "summary.md").read_text()
    assert "| casetti.fig9 | main | claim | goodput grows with x |" in summary
    assert "Paper figures reproduced by simulation: 0/1; claims 1/1 hold; numbers 1 matched, 1 missed" in summary
    assert "| casetti | 0/1 | 1/1 | 1 | 1 | undeclared 1 |" in summary
    assert sweep_report["kind"] == "simulation" and sweep_report["miss_cause"]["class"] == "undeclared"
    assert "paper used 2x the rate" in summary and "x is fake" in summary


def test_one_failing_experiment_does_not_lose_the_others(tmp_path):
    reports = execute(
        [Broken(), Sweep(), BadPlot(), FailingRuns()], quick=True, seeds=None, jobs=1, out_dir=tmp_path, progress=False
    )
    by_id = {r["id"]: r for r in reports}
    broken = by_id["moller.fig4"]
    assert not broken["ok"] and broken["figure"] is None
    assert broken["claims"][0]["text"] == "analysis completes"
    assert "ZeroDivisionError: boom" in broken["claims"][0]["detail"]
    assert "test_repro_framework.py" in broken["claims"][0]["detail"]

    assert by_id["casetti.fig9"]["completed"]
    assert len(by_id["casetti.fig9"]["series"][0]["x"]) == 3

    bad_plot = by_id["moller.fig5"]
    assert bad_plot["figure"] is None
    assert {"text": "equal", "ok": True, "detail": ""} in bad_plot["claims"]
    assert any(c["text"] == "figure is drawn" and "cannot draw" in c["detail"] for c in bad_plot["claims"])

    failing = by_id["gangadhar.fig5"]
    assert not failing["ok"]
    assert "engine exploded" in failing["claims"][0]["detail"]

    summary = json.loads((tmp_path / "summary.json").read_text())
    assert [r["completed"] for r in summary] == [False, True, False, False]
    assert "FAILED" in (tmp_path / "summary.md").read_text()


def test_an_experiment_with_an_invalid_scenario_fails_alone(tmp_path, monkeypatch):
    def strict_hash(spec):
        if spec.scenario.get("fake") is not True:
            raise ValueError("flows[0].rate: missing")
        return json.dumps([spec.scenario, list(spec.overrides)])

    monkeypatch.setattr(runner, "_scenario_hash", strict_hash)
    reports = execute([FailingRuns(), Sweep()], quick=True, seeds=1, jobs=1, out_dir=tmp_path, progress=False)
    assert "flows[0].rate: missing" in reports[0]["claims"][0]["detail"]
    assert reports[1]["completed"]


def test_nan_results_are_written_as_null(tmp_path):
    class NaNs(Model):
        id = "moller.limits"

        def analyze(self, results, quick):
            return Outcome(
                series=[Series("s", [1.0, 2.0], [float("nan"), 1.0], [float("nan"), 0.5], [float("nan"), 1.5])],
                numbers=[Number("missing", paper=1.0, measured=float("nan"))],
            )

    (report,) = execute([NaNs()], out_dir=tmp_path, progress=False)
    assert report["series"][0]["y"] == [None, 1.0]
    assert report["numbers"][0]["measured"] is None and report["numbers"][0]["status"] == "missed"
    assert (tmp_path / "moller.limits.png").exists()
    assert math.isfinite(report["wall_s"])


def test_an_experiment_that_checks_nothing_does_not_pass(tmp_path):
    class Silent(Model):
        id = "moller.fig6"

        def analyze(self, results, quick):
            return Outcome(series=[Series("s", [1], [1.0])], notes="only a picture")

    (report,) = execute([Silent()], out_dir=tmp_path, progress=False)
    assert not report["ok"]
    assert report["notes"] == ["only a picture"]
    assert report["figure"] is not None


# --- readings, model checks, status ---------------------------------------------------------


class WithReadings(Model):
    """A main reading that holds, a model check apart, and two alternative readings."""

    id = "moller.fig7"

    def analyze(self, results, quick):
        return Outcome(
            series=[Series("main", [1, 2], [1.0, 2.0])],
            claims=[Claim("grows", True, "1 < 2")],
            numbers=[Number("at 2", paper=2.0, measured=2.0), Number("bound", paper=3.0, measured=2.5, kind="upper")],
            model_checks=[ModelCheck("β at B = CT", paper=0.5, measured=0.5)],
            readings=[
                Reading(
                    "packet times",
                    "the sojourns are in packet times (ns-2 unit_), because the text says so elsewhere",
                    claims=[Claim("grows", False, "3 > 1")],
                    numbers=[Number("at 2", paper=2.0, measured=1.0, explanation="halved")],
                    series=[Series("main", [1, 2], [3.0, 1.0])],
                    notes="an alternative note",
                ),
                Reading("other", "another hypothesis", numbers=[Number("at 2", paper=2.0, measured=2.1)]),
            ],
            main_reading="paper: sojourns in seconds",
        )


def test_alternative_readings_are_scored_apart_and_drawn_dashed(tmp_path):
    (report,) = execute([WithReadings()], out_dir=tmp_path, progress=False)
    assert report["ok"] and report["status"] == "reproduced"  # the failing reading does not count
    assert report["main_reading"] == "paper: sojourns in seconds"
    assert [m["status"] for m in report["model_checks"]] == ["matched"]
    assert len(report["numbers"]) == 2  # model checks are not paper numbers
    packet, other = report["readings"]
    assert packet["name"] == "packet times" and packet["status"] == "not reproduced" and not packet["ok"]
    assert packet["hypothesis"].startswith("the sojourns are in packet times")
    assert packet["numbers"][0]["status"] == "missed" and packet["claims"][0]["ok"] is False
    assert packet["notes"] == ["an alternative note"] and packet["series"][0]["y"] == [3.0, 1.0]
    assert other["status"] == "reproduced"

    svg = (tmp_path / "moller.fig7.svg").read_text()
    assert "packet times: main" in svg and "stroke-dasharray" in svg

    summary = (tmp_path / "summary.md").read_text()
    # a model-only figure (kind "model", from Model): counted apart from the paper figures simulated
    assert (
        "Paper figures reproduced by simulation: 0/0; claims 0/0 hold; numbers 0 matched, 0 missed; misses by "
        "cause: –. Apart: analytical-model figures reproduced 1/1 (claims 1/1, numbers 2/2); model checks 1/1 "
        "matched." in summary
    )
    assert (
        "| moller | – | – | – | – | – | 1/1 (claims 1/1, numbers 2/2) | 1/1 | – "
        "| 1/2 reproduced; claims 0/1, numbers 1 matched / 1 missed |" in summary
    )
    assert "| moller.fig7 | model | main: paper: sojourns in seconds | reproduced | 1/1 | 2 | 0 |" in summary
    assert "| moller.fig7 | model | alt: packet times | not reproduced | 0/1 | 0 | 1 |" in summary
    assert "| moller.fig7 | packet times | number | at 2 | 2 | – | 1 | -50.0% | missed | halved |" in summary
    assert "| moller.fig7 | main | number | bound | < 3 | – | 2.5 |" in summary


def test_status_table_counts_main_readings_per_paper():
    from tcpsim.repro.status import status_table

    def report(paper, ok, claims, numbers, readings=()):
        return {
            "paper": paper,
            "ok": ok,
            "claims": [{"ok": c} for c in claims],
            "numbers": [{"status": s} for s in numbers],
            "model_checks": [],
            "readings": list(readings),
        }

    alt = {"ok": True, "claims": [{"ok": True}], "numbers": [{"status": "missed"}]}
    table = status_table(
        [
            report("casetti", True, [True], ["matched"]),
            report("casetti", False, [True, False], ["missed", "matched"], [alt]),
            report("moller", True, [], ["matched"]),
        ]
    )
    rows = table.splitlines()[2:]
    # papers in the fixed order of PAPERS, whatever order the reports come in; reports without a
    # kind (written before kinds) count as simulations, a miss without a cause as undeclared
    assert rows[2] == "| moller | 1/1 | 0/0 | 1 | 0 | – | – | – | – | – |"
    assert rows[3] == (
        "| casetti | 1/2 | 2/3 | 2 | 1 | undeclared 1 | – | – | – | 1/1 reproduced; claims 1/1, numbers 0 matched / 1 missed |"
    )
    assert rows[4].startswith("| **all** | 2/3 | 2/3 | 3 | 1 | undeclared 1 |")


def test_status_block_is_replaced_between_its_markers_only():
    from tcpsim.repro.status import replace_status_block, status_block

    text = "intro\n<!-- status:quick:begin -->\nold\n<!-- status:quick:end -->\n<!-- status:full:begin -->\nkeep\n<!-- status:full:end -->\n"
    assert status_block(text, "quick") == "old"
    updated = replace_status_block(text, "quick", "| new |")
    assert status_block(updated, "quick") == "| new |" and status_block(updated, "full") == "keep"
    assert updated.startswith("intro\n")
    with pytest.raises(ValueError, match="status:quick:begin"):
        replace_status_block("no markers", "quick", "x")


def test_analysis_sees_the_runs_in_plan_order_whatever_order_they_came_back_in():
    """Issue 27: a `repro` killed with -9 and run again gave a report that differed from an
    uninterrupted one. The rerun's cached runs came back first, the analysis summed floats in
    that order, and the last bits moved. Analysis now sees the plan's order."""
    from tcpsim.repro.framework import _analyze, _Inputs

    values = {"a": 1e16, "b": 1.0, "c": -1e16, "d": 1.0}  # a sum that depends on its order

    class Summing(Experiment):
        id, title, paper, kind = "validation.summing", "sums", "validation", "validation"

        def analyze(self, results, quick):
            total = sum(r for r in results.values())
            return Outcome(numbers=[Number("sum", 2.0, total)], notes=[",".join(results)])

    planned = list(values)
    outcomes = []
    for arrival in (planned, planned[::-1], ["c", "a", "d", "b"]):
        inputs = _Inputs(results={k: values[k] for k in arrival}, planned=planned)
        outcome, _ = _analyze(Summing(), inputs, quick=True)
        outcomes.append((outcome.notes, outcome.numbers[0].measured))
    assert outcomes == [(["a,b,c,d"], outcomes[0][1])] * 3
