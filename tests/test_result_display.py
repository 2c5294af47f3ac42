"""How a result shows itself: a one-line repr, a compact Jupyter summary, quick plots, traces
saved as CSV on request."""

import matplotlib

matplotlib.use("Agg")

import pandas as pd
import pytest
import tcpsim

SCENARIO = "scenarios/parking_lot_mix.toml"


@pytest.fixture(scope="module")
def traced():
    return tcpsim.run(
        "scenarios/single_flow.toml",
        seed=1,
        **{"duration": "20s", "trace.cwnd": True, "trace.rtt": True, "trace.queue": True, "trace.throughput_bin": "1s"},
    )


def test_repr_is_one_line_that_says_what_the_result_holds(traced):
    text = repr(traced)
    assert "\n" not in text and len(text) < 200
    assert text.startswith("<RunResult seed=1: 1 flow, 6 link directions, 20 s simulated")


def test_repr_does_not_build_the_tables():
    result = tcpsim.run("scenarios/lossy_link.toml", duration="5s")
    repr(result)
    assert result._frames is None


def test_the_jupyter_view_is_a_compact_summary():
    result = tcpsim.run(SCENARIO, duration="12s")
    page = result._repr_html_()
    assert "<table" in page and "goodput (Mb/s)" in page and "Classes" in page
    assert page.count("<tr>") < 3 * 10  # header + at most 8 rows per table, three tables
    assert f"first 8 of {len(result.flows)}" in page  # the mix has more flows than that
    assert "final_ssthresh_bytes" not in page and "scenario_hash" not in page


@pytest.mark.parametrize(
    ("kind", "lines", "ylabel"),
    [
        ("cwnd", 1, "cwnd (kB)"),
        ("rtt", 1, "RTT sample (ms)"),
        ("queue", 2, "queue (packets)"),
        ("throughput", 1, "throughput (Mb/s)"),
    ],
)
def test_each_trace_plots_one_line_per_series(traced, kind, lines, ylabel):
    ax = traced.plot(kind)
    assert len(ax.get_lines()) == lines and ax.get_ylabel() == ylabel
    x, y = ax.get_lines()[0].get_data()
    trace = traced.trace(kind)
    first = trace[trace.columns[1]] == trace[trace.columns[1]].iloc[0]
    assert len(x) == int(first.sum())


def test_plot_select_keeps_the_named_series_and_refuses_unknown_ones(traced):
    # A link name selects both its directions (only "ab" ever queues here: ACKs do not wait).
    assert [line.get_label() for line in traced.plot("queue", select="bottleneck").get_lines()] == ["bottleneck:ab"]
    assert [line.get_label() for line in traced.plot("queue", select=["access:ab"]).get_lines()] == ["access:ab"]
    with pytest.raises(ValueError, match="'nope' not in this trace"):
        traced.plot("queue", select=["nope"])
    with pytest.raises(ValueError, match="no plot for trace"):
        from tcpsim.result.plots import plot_trace

        plot_trace(traced.trace("cwnd"), "goodput")


def test_traces_are_saved_as_csv_on_request(traced, tmp_path):
    traced.save(tmp_path, trace_format="csv")
    for kind in traced.traces:
        assert pd.read_csv(tmp_path / f"trace_{kind}.csv").shape == traced.traces[kind].shape
        assert not (tmp_path / f"trace_{kind}.parquet").exists()
    traced.save(tmp_path)  # the other format replaces it: no stale CSV beside the Parquet
    assert not list(tmp_path.glob("trace_*.csv")) and list(tmp_path.glob("trace_*.parquet"))
    with pytest.raises(ValueError, match="trace_format 'xlsx' is unknown"):
        traced.save(tmp_path, trace_format="xlsx")


def test_the_cli_saves_traces_as_csv_on_request(tmp_path):
    from tcpsim.cli import app
    from typer.testing import CliRunner

    args = ["run", "scenarios/single_flow.toml", "--set", "duration=5s", "--set", "trace.cwnd=true"]
    done = CliRunner().invoke(app, [*args, "--out", str(tmp_path), "--trace-format", "csv"])
    assert done.exit_code == 0, done.output
    assert pd.read_csv(tmp_path / "trace_cwnd.csv").columns[0] == "time_s"
    assert CliRunner().invoke(app, [*args, "--trace-format", "xlsx"]).exit_code == 2
