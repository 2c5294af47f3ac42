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
from tcpsim.repro.framework import Claim, Experiment, Number, Outcome, Series, execute, jsonable
from tcpsim.result import RunResult
from tcpsim.runner import RunSpec
from tcpsim.stats import mean_ci


def fake_run(spec: RunSpec) -> RunResult:
    params = dict(spec.overrides)
    if params.get("fail"):
        raise RuntimeError("engine exploded")
    goodput = params["x"] * 1e6 + spec.seed * 1e4
    return RunResult(flows=pd.DataFrame({"name": ["a"], "goodput_bps": [goodput]}), links=pd.DataFrame(),
                     meta={"seed": spec.seed, "wall_s": 0.5})


@pytest.fixture(autouse=True)
def isolated(monkeypatch, tmp_path):
    monkeypatch.setattr(repro, "_registry", {})
    monkeypatch.setattr(repro, "_loaded", True)
    monkeypatch.setattr(runner, "_run_one", fake_run)
    monkeypatch.setattr(runner, "_scenario_hash", lambda spec: json.dumps([spec.scenario, list(spec.overrides)]))
    monkeypatch.setattr(runner, "_version", lambda: "test")
    monkeypatch.setenv(runner.CACHE_ENV, str(tmp_path / "cache"))


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
        return [RunSpec(key=("bad",), scenario={}, overrides=(("fail", True),)), RunSpec(key=("ok",), scenario={}, overrides=(("x", 1),))]

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


def test_number_ok_within_tolerance_or_explained():
    assert Number("n", paper=1.0, measured=1.14).ok
    assert not Number("n", paper=1.0, measured=1.16).ok
    assert Number("n", paper=1.0, measured=1.16, tolerance=0.2).ok
    explained = Number("n", paper=1.0, measured=2.0, explanation="the paper omits the buffer size")
    assert explained.ok and not explained.within_tolerance
    assert not Number("n", paper=1.0, measured=float("nan")).ok
    assert Number("n", paper=0.0, measured=0.0).ok
    assert not Number("n", paper=0.0, measured=0.1).ok
    assert Number("n", paper=-2.0, measured=-2.2).rel_error == pytest.approx(-0.1)


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
    assert set(sweep_report) >= {"id", "title", "paper", "quick", "series", "claims", "numbers", "notes", "figure", "wall_s"}
    assert sweep_report["quick"] is True
    series = sweep_report["series"][0]
    assert set(series) == {"label", "x", "y", "y_ci_low", "y_ci_high"}
    assert series["x"] == [1, 2, 4]
    assert series["y"] == pytest.approx([1.02, 2.02, 4.02])  # mean over seeds 1..3
    assert series["y_ci_low"][0] < series["y"][0] < series["y_ci_high"][0]
    (claim,) = sweep_report["claims"]
    assert claim["text"] == "goodput grows with x" and claim["ok"] is True and claim["detail"].startswith("means [")
    first, second = sweep_report["numbers"]
    assert set(first) >= {"name", "paper", "measured", "ok", "explanation"}
    assert first["ok"] and first["within_tolerance"] and first["explanation"] is None
    assert second["ok"] and not second["within_tolerance"]
    assert sweep_report["ok"] and reports[1]["ok"]
    assert sweep_report["wall_s"] >= 9 * 0.5  # nine runs of 0.5 s each, plus analysis
    assert sweep_report["notes"] == ["x is fake"]

    for exp_id in ("casetti.fig9", "moller.fig3"):
        assert (out / f"{exp_id}.png").stat().st_size > 0
        assert (out / f"{exp_id}.svg").read_text().lstrip().startswith("<?xml")
        assert json.loads((out / f"{exp_id}.json").read_text())["id"] == exp_id
    assert sweep_report["figure"] == str(out / "casetti.fig9.png")
    assert json.loads((out / "summary.json").read_text()) == reports
    summary = (out / "summary.md").read_text()
    assert "| casetti.fig9 | claim | goodput grows with x |" in summary
    assert "explained" in summary and "x is fake" in summary


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

    assert by_id["casetti.fig9"]["ok"]
    assert len(by_id["casetti.fig9"]["series"][0]["x"]) == 3

    bad_plot = by_id["moller.fig5"]
    assert bad_plot["figure"] is None
    assert {"text": "equal", "ok": True, "detail": ""} in bad_plot["claims"]
    assert any(c["text"] == "figure is drawn" and "cannot draw" in c["detail"] for c in bad_plot["claims"])

    failing = by_id["gangadhar.fig5"]
    assert not failing["ok"]
    assert "engine exploded" in failing["claims"][0]["detail"]

    summary = json.loads((tmp_path / "summary.json").read_text())
    assert [r["ok"] for r in summary] == [False, True, False, False]
    assert "FAILED" in (tmp_path / "summary.md").read_text()


def test_an_experiment_with_an_invalid_scenario_fails_alone(tmp_path, monkeypatch):
    def strict_hash(spec):
        if spec.scenario.get("fake") is not True:
            raise ValueError("flows[0].rate: missing")
        return json.dumps([spec.scenario, list(spec.overrides)])

    monkeypatch.setattr(runner, "_scenario_hash", strict_hash)
    reports = execute([FailingRuns(), Sweep()], quick=True, seeds=1, jobs=1, out_dir=tmp_path, progress=False)
    assert "flows[0].rate: missing" in reports[0]["claims"][0]["detail"]
    assert reports[1]["ok"]


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
    assert report["numbers"][0]["measured"] is None and not report["numbers"][0]["ok"]
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
