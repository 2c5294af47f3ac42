"""`tcpsim plot` and `tcpsim report` on fresh `--out` folders of a tiny run and sweep, the
figures' data checked against the saved tables, and tcpsim's shipped matplotlib style."""

import html
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

RATE = "links[1].rate"
DELAY = "links[0].delay"


def tcpsim(*args: str, cwd: Path, store: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, TCPSIM_STORE=str(store))
    command = [str(Path(sys.executable).parent / "tcpsim"), *args]
    return subprocess.run(command, capture_output=True, text=True, env=env, cwd=cwd)


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    """A 2 × 2 sweep × 2 seeds of the lossy link (5 s each, cwnd traced) and one traced run."""
    base = tmp_path_factory.mktemp("plot")
    store = base / "store"
    sweep = tcpsim(
        *("sweep", "lossy_link", "--set", "duration=5s", "--set", "trace.cwnd=true"),
        *("--grid", f"{RATE}=1Mbps,2Mbps", "--grid", f"{DELAY}=10ms,45ms", "--seeds", "2", "-j", "1", "--out", "s"),
        cwd=base,
        store=store,
    )
    assert sweep.returncode == 0, sweep.stderr
    run = tcpsim(
        *("run", "single_flow", "--set", "duration=5s", "--set", "trace.cwnd=true", "--set", "trace.queue=true"),
        *("--set", "trace.throughput_bin=0.5s", "--out", "r"),
        cwd=base,
        store=store,
    )
    assert run.returncode == 0, run.stderr
    return base, store


def plot(folders, *args):
    base, store = folders
    return tcpsim("plot", *args, cwd=base, store=store)


@pytest.mark.parametrize(("out", "magic"), [(None, b"\x89PNG"), ("f.svg", b"<?xml"), ("f.pdf", b"%PDF")])
def test_a_sweep_plots_to_each_format(folders, out, magic):
    done = plot(folders, "s", "--x", RATE, *(["-o", out] if out else []))
    assert done.returncode == 0, done.stderr
    path = folders[0] / (out or "s/plot.png")
    assert done.stdout == f"figure: {out or 's/plot.png'}\n"
    assert path.read_bytes().startswith(magic)


def test_the_same_folder_gives_the_same_file(folders):
    for name in ("same1.svg", "same2.svg", "same1.pdf", "same2.pdf"):
        assert plot(folders, "s", "--x", RATE, "-o", name).returncode == 0
    for suffix in ("svg", "pdf"):
        assert (folders[0] / f"same1.{suffix}").read_bytes() == (folders[0] / f"same2.{suffix}").read_bytes()


def test_a_sweep_figure_is_the_mean_and_ci_over_seeds_one_line_per_other_value(folders):
    from tcpsim.figures import sweep_axis, sweep_figure, sweep_metric, sweep_series
    from tcpsim.saved import open_folder
    from tcpsim.stats import mean_ci

    saved = open_folder(folders[0] / "s")
    axis = sweep_axis(saved, RATE)
    assert axis == (RATE, "links[1].rate_bps", True)  # the path means its numeric column
    assert sweep_metric(saved, "goodput") == "goodput_bps"
    series = sweep_series(saved, axis, "goodput_bps")
    assert [s.label for s in series] == [f"{DELAY}=10ms", f"{DELAY}=45ms"]
    flows = saved.flows
    for s, delay in zip(series, ("10ms", "45ms")):
        assert s.x == [1.0, 2.0]  # Mb/s
        for x, y, low, high in zip(s.x, s.y, s.y_ci_low, s.y_ci_high):
            rows = flows[(flows[DELAY] == delay) & (flows["links[1].rate_bps"] == x * 1e6)]
            assert len(rows) == 2  # the two seeds
            mean, ci_low, ci_high = mean_ci(rows["goodput_bps"])
            assert (y, low, high) == pytest.approx((mean / 1e6, max(ci_low, 0) / 1e6, ci_high / 1e6))
        assert s.y[1] > s.y[0]  # a faster link delivers more
    assert sweep_figure(saved, axis, "goodput_bps", log_x=True).axes[0].get_xscale() == "log"
    # one line per rate when the delay is on the x axis
    written = sweep_series(saved, sweep_axis(saved, DELAY), "goodput_bps")
    assert [s.label for s in written] == [f"{RATE}=1Mbps", f"{RATE}=2Mbps"]
    assert sweep_series(saved, sweep_axis(saved, "links[0].delay_s"), "goodput_bps")[0].x == [10.0, 45.0]  # ms


def test_a_link_metric_is_drawn_per_link_direction_from_the_links_table(folders):
    from tcpsim.figures import sweep_axis, sweep_metric, sweep_series
    from tcpsim.saved import open_folder
    from tcpsim.stats import mean_ci

    saved = open_folder(folders[0] / "s")
    axis = sweep_axis(saved, RATE)
    assert sweep_metric(saved, "utilization") == sweep_metric(saved, "links.utilization") == "links.utilization"
    assert sweep_metric(saved, "queue_mean_pkts") == "links.queue_mean_pkts"
    series = sweep_series(saved, axis, "links.utilization", links=["lossy"])
    labels = [f"{DELAY}={d}, lossy {a}" for d in ("10ms", "45ms") for a in ("router→sink", "sink→router")]
    assert [s.label for s in series] == labels
    links = saved.links
    rows = links[(links[DELAY] == "45ms") & (links["links[1].rate_bps"] == 2e6) & (links["src"] == "router")]
    rows = rows[rows["name"] == "lossy"]
    assert len(rows) == 2  # the two seeds
    assert series[2].y[1] == pytest.approx(mean_ci(rows["utilization"])[0])
    # every link direction of the sweep when none is chosen: 2 links × 2 directions × 2 delays
    assert len(sweep_series(saved, axis, "links.utilization")) == 8
    done = plot(folders, "s", "--x", RATE, "--y", "utilization", "--link", "lossy", "-o", "util.svg")
    assert done.returncode == 0, done.stderr
    assert "utilization" in (folders[0] / "util.svg").read_text()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["s", "--x", "links[2].rate"],
            "error: --x 'links[2].rate': not a parameter of this sweep; allowed: links[1].rate_bps, links[1].rate, "
            "links[0].delay_s, links[0].delay\n",
        ),
        (["s"], "error: --x: this sweep has 2 parameters; choose one of links[1].rate_bps, links[1].rate, "),
        (["s", "--x", RATE, "--y", "speed"], "error: --y 'speed': not a metric of this sweep; allowed: "),
        (["s", "--x", RATE, "--y", "queue_mean"], "error: --y 'queue_mean': which one? links.queue_mean_pkts or "),
        (
            ["s", "--x", RATE, "--y", "utilization", "--flow", "bulk"],
            "error: --flow: links.utilization is a link metric; choose its links with --link\n",
        ),
        (
            ["s", "--x", RATE, "--link", "bottleneck"],
            "error: --link: goodput_bps is a per-flow metric; choose its flows with --flow\n",
        ),
        (
            ["s", "--x", RATE, "--y", "utilization", "--link", "nope"],
            "error: --link 'nope': no such link in this sweep; allowed: access, lossy\n",
        ),
        (["s", "--x", RATE, "--flow", "nope"], "error: --flow 'nope': no such flow in this sweep; allowed: bulk\n"),
        (
            ["s", "--what", "cwnd"],
            "error: s is a sweep: --what is for runs; a sweep takes --x, --y and --log-x\n",
        ),
        (["r", "--x", RATE], "error: r is a run: --x, --y, --log-x and --link are for sweeps; a run takes --what\n"),
        (
            ["r", "--what", "cwnd,rtt"],
            "error: --what 'rtt': this run did not record the rtt trace (recorded: cwnd, queue, throughput); "
            "run it again with --set trace.rtt=true\n",
        ),
        (
            ["r", "--what", "window"],
            "error: --what 'window': unknown time series; allowed: cwnd, rtt, queue, throughput, class_throughput\n",
        ),
        (["r", "--flow", "nope"], "error: --flow 'nope': no such flow in this run's traces; allowed: newreno\n"),
        (
            ["r", "--what", "queue", "--flow", "newreno"],
            "error: --flow: none of the panels (queue) has a line per flow\n",
        ),
        (["r", "-o", "fig.jpg"], "error: --out fig.jpg: extension '.jpg' is not supported; use a file name ending in"),
        (["r/flows.csv"], "error: r/flows.csv: not a directory; give a folder 'tcpsim run --out' or"),
        (
            ["nowhere"],
            "error: 'nowhere': not a folder, nor a stored run's key (hex, at least its first 4 characters)\n",
        ),
    ],
)
def test_mistakes_name_the_option_the_value_and_what_is_allowed(folders, args, message):
    done = plot(folders, *args)
    assert done.returncode == 2 and done.stderr.startswith(message), done.stderr
    assert "Traceback" not in done.stderr


def test_a_folder_of_neither_kind_is_named(folders):
    (folders[0] / "empty").mkdir(exist_ok=True)
    done = plot(folders, "empty")
    assert done.returncode == 2
    assert done.stderr.startswith(
        "error: empty: neither a run folder (meta.json and flows.csv, from 'tcpsim run --out')"
    )


def test_a_damaged_folder_is_named_not_a_traceback(folders, tmp_path):
    import shutil

    import pandas as pd

    base, store = folders
    shutil.copytree(base / "s", tmp_path / "s")
    flows = pd.read_csv(tmp_path / "s" / "flows.csv")
    flows.drop(columns=["seed"]).to_csv(tmp_path / "s" / "flows.csv", index=False)
    done = tcpsim("plot", "s", "--x", RATE, cwd=tmp_path, store=store)
    assert done.returncode == 2 and done.stderr.startswith("error: s/flows.csv: has no column 'seed'"), done.stderr
    shutil.copytree(base / "r", tmp_path / "r")
    (tmp_path / "r" / "trace_cwnd.parquet").write_bytes(b"garbage")
    done = tcpsim("report", "r", cwd=tmp_path, store=store)
    assert done.returncode == 2 and done.stderr.startswith("error: r/trace_cwnd: cannot be read as a table"), (
        done.stderr
    )


def test_a_run_plots_every_recorded_series_by_default(folders):
    from tcpsim.figures import run_figure, run_panels
    from tcpsim.saved import open_folder

    saved = open_folder(folders[0] / "r")
    assert saved.title == "single flow, seed 1"
    panels = run_panels(saved.result, None)
    assert panels == ["cwnd", "queue", "throughput"]
    fig = run_figure(saved.result, panels)
    assert [ax.get_ylabel() for ax in fig.axes] == ["cwnd (kB)", "queue (packets)", "throughput (Mb/s)"]
    assert fig.axes[-1].get_xlabel() == "time (s)"
    assert [len(ax.lines) for ax in run_figure(saved.result, panels, flows=["newreno"]).axes] == [1, 2, 1]
    done = plot(folders, "r", "--what", "queue,cwnd", "--flow", "newreno", "-o", "figs/run.pdf")
    assert done.returncode == 0, done.stderr
    assert (folders[0] / "figs" / "run.pdf").read_bytes().startswith(b"%PDF")


def test_a_stored_run_plots_by_its_key(folders):
    base, store = folders
    listed = tcpsim("store", "ls", "--json", cwd=base, store=store)
    keys = [row["key"] for row in json.loads(listed.stdout)]
    assert len(keys) == 8
    done = plot(folders, keys[0][:10])
    assert done.returncode == 0, done.stderr
    assert (base / f"plot-{keys[0][:10]}.png").read_bytes().startswith(b"\x89PNG")
    done = plot(folders, "abcd" * 2)
    assert done.returncode == 2 and done.stderr == "error: abcdabcd: no stored run has a key starting with abcdabcd\n"


@pytest.mark.parametrize("folder", ["s", "r"])
def test_report_writes_a_page_for_a_run_or_sweep_folder(folders, folder):
    base, store = folders
    done = tcpsim("report", folder, cwd=base, store=store)
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"HTML report: {folder}/report/index.html\n"
    page = (base / folder / "report" / "index.html").read_text()
    figures = sorted((base / folder / "report" / "figures").glob("*.svg"))
    assert [f'src="figures/{f.name}"' in page for f in figures] == [True] * len(figures)
    assert len(figures) == (2 if folder == "s" else 1)  # goodput against each parameter; the traces
    assert "engine source digest" in page and tcpsim_source() in page
    assert 'id="scenario"' in page
    assert ('name = "lossy"' if folder == "s" else 'name = "bottleneck"') in html.unescape(page)


def test_report_writes_a_page_for_a_stored_run_by_its_key(folders):
    base, store = folders
    key = json.loads(tcpsim("store", "ls", "--json", cwd=base, store=store).stdout)[0]["key"]
    done = tcpsim("report", key[:10], cwd=base, store=store)
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"HTML report: report-{key[:16]}/index.html\n"
    page = html.unescape((base / f"report-{key[:16]}" / "index.html").read_text())
    assert f"the result store {store}, key {key}" in page
    assert (base / f"report-{key[:16]}" / "figures" / "run.svg").is_file()
    assert '"duration_ns":' in page and tcpsim_source() in page  # its canonical scenario and engine
    done = tcpsim("report", "abcd" * 2, cwd=base, store=store)
    assert done.returncode == 2 and done.stderr == "error: abcdabcd: no stored run has a key starting with abcdabcd\n"


def tcpsim_source() -> str:
    from tcpsim import _core

    return _core.source_digest()


def test_the_style_file_is_the_publication_style():
    import matplotlib.style
    import tcpsim
    from matplotlib import rcParams
    from tcpsim.repro.plotting import PALETTE, style

    assert Path(tcpsim.STYLE).is_file() and Path(tcpsim.STYLE).parent == Path(tcpsim.__file__).parent
    with matplotlib.style.context(tcpsim.STYLE):
        colors = [c.upper() for c in rcParams["axes.prop_cycle"].by_key()["color"]]
        assert colors == [c.upper() for c in PALETTE]
        assert (rcParams["font.size"], rcParams["pdf.fonttype"], rcParams["svg.fonttype"]) == (8, 42, "none")
    with style():
        assert rcParams["svg.hashsalt"] == "tcpsim"
    assert rcParams["svg.hashsalt"] != "tcpsim"  # only inside the block


def test_result_plot_draws_in_the_style_unless_given_axes(folders):
    import matplotlib.pyplot as plt
    from tcpsim.saved import open_folder

    result = open_folder(folders[0] / "r").result
    ax = result.plot("cwnd")
    assert ax.yaxis.label.get_fontsize() == 8 and ax.lines[0].get_color().upper() == "#0072B2"
    plt.close(ax.figure)
    _, own = plt.subplots()
    assert result.plot("cwnd", ax=own).yaxis.label.get_fontsize() == 10  # matplotlib's default, not 8
    plt.close(own.figure)
