"""The shared experiment toolkit: named run keys and the results table, aggregation with clipped
95 % CIs, the sweep declaration, the publication-style plotter, and the per-seed helpers claims share
(mean, CI text, paired gains, Welch comparisons) and BDP buffers."""

import math
import pickle
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
from tcpsim.repro.aggregate import (
    ANY,
    FRACTION,
    NON_NEGATIVE,
    Curve,
    Range,
    aggregate,
    curve,
    curves,
    fmt_ci,
    fmt_pct,
    mean,
    paired_gains,
    significantly_above,
    significantly_below,
    summarize,
)
from tcpsim.repro.framework import Experiment, Outcome, Series, execute
from tcpsim.repro.ns2_queue import bdp_packets
from tcpsim.repro.plotting import error_bars, figure_title, new_figure, plot_lines, save, style
from tcpsim.repro.sweep import Axis, Sweep
from tcpsim.repro.table import MAIN, results_table
from tcpsim.tidy import RunKey, select_runs


def fake_result(throughput):
    return SimpleNamespace(flows=pd.DataFrame({"throughput_bps": [throughput]}))


def test_run_key_is_named_hashable_ordered_and_picklable():
    key = RunKey(flavour="reno", per=0.001, seed=2)
    assert key["per"] == 0.001 and "seed" in key and "size" not in key and key.get("size", 7) == 7
    assert list(key) == ["flavour", "per", "seed"]
    assert (
        key == RunKey(flavour="reno", per=0.001, seed=2) and len({key, RunKey(flavour="reno", per=0.001, seed=2)}) == 1
    )
    assert key != RunKey(flavour="reno", per=0.001, seed=1)
    assert RunKey(flavour="reno", per=0.001, seed=1) < key
    assert key.replace(seed=3)["seed"] == 3 and key.without("seed") == RunKey(flavour="reno", per=0.001)
    assert key.matches(flavour="reno") and not key.matches(flavour="tahoe") and not key.matches(size=41)
    assert pickle.loads(pickle.dumps(key)) == key
    assert repr(key) == "RunKey(flavour='reno', per=0.001, seed=2)"
    with pytest.raises(KeyError, match="no parameter 'size'"):
        key["size"]


def test_results_table_has_one_row_per_named_run():
    results = {
        RunKey(flavour="reno", per=0.01, seed=1): fake_result(1e6),
        RunKey(flavour="reno", per=0.01, seed=2): fake_result(3e6),
        RunKey(flavour="reno", per=0.01, seed=1, reading="scaled"): fake_result(5e6),
        ("positional", 1): fake_result(9e6),  # not a named key: not in the table
    }
    table = results_table(
        results, lambda r: {"throughput": float(r.flows["throughput_bps"].iloc[0]) / 1e6}, experiment="x.fig1"
    )
    assert list(table.columns) == ["experiment", "flavour", "per", "seed", "reading", "throughput"]
    assert table["reading"].tolist() == [MAIN, MAIN, "scaled"]
    assert table["seed"].tolist() == [1, 2, 1] and table["throughput"].tolist() == [1.0, 3.0, 5.0]
    assert set(table["experiment"]) == {"x.fig1"}
    assert list(select_runs(results, reading="scaled")) == [RunKey(flavour="reno", per=0.01, seed=1, reading="scaled")]


def test_summarize_gives_mean_sd_ci_and_n():
    s = summarize([1.0, 3.0])
    assert s["mean"] == 2.0 and s["n"] == 2 and s["sd"] == pytest.approx(np.sqrt(2))
    # Student t with 1 degree of freedom: 12.706 × sd / √2.
    assert s["ci_high"] - 2.0 == pytest.approx(12.706 * np.sqrt(2) / np.sqrt(2), rel=1e-3)
    assert summarize([1.0, float("nan"), 3.0])["n"] == 2


def test_one_replication_gives_zero_width_ci_and_none_nans():
    assert summarize([0.4]) == {"mean": 0.4, "sd": 0.0, "ci_low": 0.4, "ci_high": 0.4, "n": 1}
    empty = summarize([])
    assert empty["n"] == 0 and np.isnan(empty["mean"]) and np.isnan(empty["ci_low"]) and np.isnan(empty["sd"])


def test_ci_is_clipped_to_the_metric_range():
    # Two Jain indices near 1: the raw t interval reaches far above 1 (the 1.063).
    raw = summarize([0.97, 1.0])
    assert raw["ci_high"] > 1.06
    jain = summarize([0.97, 1.0], FRACTION)
    assert jain["ci_high"] == 1.0 and jain["ci_low"] == raw["ci_low"] and jain["mean"] == raw["mean"]
    throughput = summarize([0.01, 0.5], NON_NEGATIVE)
    assert throughput["ci_low"] == 0.0 and throughput["ci_high"] == summarize([0.01, 0.5])["ci_high"]
    assert Range(None, 2.0).clip([-5, 3]).tolist() == [-5.0, 2.0] and ANY.clip([-1e9]).tolist() == [-1e9]


def test_aggregate_groups_by_named_parameters():
    table = pd.DataFrame(
        {
            "flavour": ["reno", "reno", "reno", "tahoe"],
            "per": [0.01, 0.01, 0.001, 0.01],
            "seed": [1, 2, 1, 1],
            "jain": [0.97, 1.0, 0.9, 0.8],
        }
    )
    out = aggregate(table, ["flavour", "per"], "jain", FRACTION)
    assert out[["flavour", "per", "n"]].values.tolist() == [["reno", 0.001, 1], ["reno", 0.01, 2], ["tahoe", 0.01, 1]]
    assert out["ci_high"].max() <= 1.0 and out["mean"].tolist() == pytest.approx([0.9, 0.985, 0.8])


def test_curves_keep_x_order_and_samples():
    table = pd.DataFrame({"flavour": ["w", "w", "r", "w"], "per": [0.01, 0.001, 0.01, 0.01], "v": [2.0, 5.0, 1.0, 4.0]})
    by = curves(table, "per", "v", by="flavour", valid=NON_NEGATIVE)
    assert list(by) == ["w", "r"]
    w = by["w"]
    assert w.x == [0.001, 0.01] and w.at(0.01) == 3.0 and w.samples[0.01].tolist() == [2.0, 4.0]
    assert w.n.tolist() == [1, 2] and w.runs == 1 and w.ci_low[1] >= 0.0
    series = w.series("Westwood", x=[1, 2])
    assert series.x == [1, 2] and series.y_ci_low[1] == w.ci_low[1] and series.valid is NON_NEGATIVE
    assert curve(table, "per", "v").x == [0.001, 0.01]
    assert Curve.of({1: [1.0, 3.0], 2: [2.0]}).sd.tolist() == pytest.approx([np.sqrt(2), 0.0])


def test_sweep_declares_named_runs_over_axes_and_seeds():
    sweep = Sweep(Axis("flavour", ("reno", "westwood")), Axis("per", (0.001, 0.01, 0.05), quick=(0.01,)))
    built = []

    def scenario(flavour, per):
        built.append((flavour, per))
        return {"name": f"{flavour} {per}"}

    specs = sweep.specs(scenario, True, [1, 2], condition="main")
    assert [s.key for s in specs] == [
        RunKey(condition="main", flavour=f, per=0.01, seed=s) for f in ("reno", "westwood") for s in (1, 2)
    ]
    assert [s.seed for s in specs] == [1, 2, 1, 2] and built == [("reno", 0.01), ("westwood", 0.01)]
    assert len(sweep.specs(scenario, False, [1])) == 6
    keyed = Sweep(Axis("flavour", (SimpleNamespace(name="reno"),), key=lambda f: f.name))
    assert keyed.specs(lambda flavour: {}, False, [3])[0].key == RunKey(flavour="reno", seed=3)
    with pytest.raises(ValueError, match="distinct and not 'seed'"):
        Sweep(Axis("seed", (1,)))
    with pytest.raises(ValueError, match="no values"):
        Axis("per", ())


def test_figure_title_is_the_papers_figure_name_not_the_id():
    assert figure_title(SimpleNamespace(id="gangadhar.fig7", title="throughput vs bandwidth")) == (
        "Fig. 7: throughput vs bandwidth"
    )
    assert figure_title(SimpleNamespace(id="moller.limits", title="Prop. 4")) == "Prop. 4"
    assert figure_title(SimpleNamespace(id="x.table", title="t", figure="Table 2")) == "Table 2: t"


def test_error_bars_are_clipped_to_the_series_range():
    series = Series("Jain", [1, 2], [0.99, 0.5], [0.9, 0.2], [1.063, 0.8], valid=FRACTION)
    y, below, above = error_bars(series)
    assert above.tolist() == pytest.approx([0.01, 0.3]) and below.tolist() == pytest.approx([0.09, 0.3])
    assert error_bars(Series("no CI", [1], [1.0])) is None


def test_plotter_writes_png_svg_and_pdf_with_the_papers_title(tmp_path):
    series = [
        Series("Jain", [1, 2], [0.99, 0.5], [0.9, 0.2], [1.063, 0.8], valid=FRACTION),
        Series("model", [1, 2], [1.0, 0.6]),
    ]
    with style():
        fig = new_figure()
        ax = plot_lines(fig, series, "Fig. 3: fairness", "flows", "Jain's index")
        png = save(fig, tmp_path, "x.fig3")
    assert png == tmp_path / "x.fig3.png"
    for suffix in ("png", "svg", "pdf"):
        assert (tmp_path / f"x.fig3.{suffix}").stat().st_size > 1000
    assert (tmp_path / "x.fig3.pdf").read_bytes().startswith(b"%PDF")
    assert ax.get_title() == "Fig. 3: fairness" and "x.fig3" not in ax.get_title()
    assert fig.get_size_inches().tolist() == [3.5, 2.6]
    # The drawn error bar of the first point ends at 1, not at the raw 1.063.
    (container,) = ax.containers
    tops = [segment[:, 1].max() for segment in container.lines[2][0].get_segments()]
    assert max(tops) == pytest.approx(1.0)


class _Demo(Experiment):
    id = "validation.fig99"
    title = "a demo curve"
    paper = "validation"
    xlabel = "x"

    def analyze(self, results, quick):
        return Outcome(series=[Series("demo", [1, 2], [0.5, 0.7], [0.4, 0.6], [0.6, 1.2], valid=FRACTION)], numbers=[])


def test_framework_draws_every_figure_in_three_formats_without_the_id(tmp_path):
    from tcpsim.repro.framework import Claim

    class Demo(_Demo):
        def analyze(self, results, quick):
            outcome = super().analyze(results, quick)
            outcome.claims.append(Claim("drawn", True))
            return outcome

    (report,) = execute([Demo()], quick=True, out_dir=tmp_path, progress=False)
    assert report["completed"]
    assert all((tmp_path / f"validation.fig99.{s}").exists() for s in ("png", "svg", "pdf"))
    svg = (tmp_path / "validation.fig99.svg").read_text()
    assert "Fig. 99: a demo curve" in svg and "validation.fig99" not in svg


def test_per_seed_helpers_mean_and_ci_text():
    assert mean([1.0, float("nan"), 3.0]) == 2.0  # NaNs dropped, as summarize does
    # mean 2, sd 1, n 3: half-width t(0.975, 2) · 1/√3 = 4.3027 × 0.57735 = 2.4841
    assert fmt_ci([1, 2, 3]) == "2.000 [-0.484, 4.484]"
    assert fmt_ci([1, 2, 3], 2, " Mb/s") == "2.00 Mb/s [-0.48, 4.48]"
    assert fmt_ci([1, 2, 3], significant=True) == "2 [-0.484, 4.48]"
    # gains 10 and 20 %: mean 15, half-width t(0.975, 1) · 7.071/√2 = 12.706 × 5 = 63.5
    assert fmt_pct([10, 20]) == "+15% [-49, +79]"


def test_paired_gains_pair_seeds_by_position():
    gains = paired_gains([2.0, 1.0, 3.0], [1.0, 2.0, 0.0])
    assert gains[:2] == [100.0, -50.0] and math.isnan(gains[2])  # no gain over nothing


def test_significantly_above_and_below_are_one_welch_test_mirrored():
    low, high, near = [1.0, 2.0, 3.0], [10.0, 11.0, 12.0], [1.5, 2.5, 3.5]
    assert significantly_above(high, low) and significantly_below(low, high)
    assert not significantly_above(low, high) and not significantly_below(high, low)
    assert not significantly_above(near, low) and not significantly_below(low, near)  # a tie at 95 %
    assert significantly_above([2.0], [1.0]) and not significantly_above([1.0], [1.0])  # one run: means only


def test_bdp_packets_rounds_to_whole_packets_with_a_floor():
    assert bdp_packets(5e6, 0.060, 400) == 94  # 93.75: casetti fig3's buffer
    assert bdp_packets(2e6, 0.250, 1500) == 42  # 41.67: macura table1's
    assert bdp_packets(1e6, 0.001, 400, floor=5) == 5  # 0.31 packets: the floor
    assert bdp_packets(1e6, 0.001, 400) == 1
