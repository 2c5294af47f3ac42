"""The HTML report, opened in headless Chromium from file://: the index lists the experiments
with their statuses, each page has its numbers and claims, and every figure loads."""

import html
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXPERIMENTS = ["validation.single_flow", "moller.fig3"]
BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def tcpsim(*args: str, cache: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, TCPSIM_STORE=str(cache))
    command = [str(Path(sys.executable).parent / "tcpsim"), *args]
    return subprocess.run(command, capture_output=True, text=True, env=env)


@pytest.fixture(scope="module")
def results(tmp_path_factory) -> Path:
    """A quick reproduction of a simulated and an analytical experiment, with --report."""
    base = tmp_path_factory.mktemp("repro")
    done = tcpsim("repro", *EXPERIMENTS, "--quick", "--report", "--out", str(base / "results"), cache=base / "cache")
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"HTML report: {base / 'results' / 'report' / 'index.html'}" in done.stdout
    return base / "results"


def reports(results: Path) -> dict[str, dict]:
    return {e: json.loads((results / f"{e}.json").read_text()) for e in EXPERIMENTS}


@pytest.fixture(scope="module")
def browser() -> str:
    """Chromium's path; installed by scripts/setup-system.sh when missing (as scripts/test.sh
    does); the tests skip only when it cannot be installed here."""
    found = next(filter(None, map(shutil.which, BROWSERS)), None)
    if found is None:
        subprocess.run([str(ROOT / "scripts" / "setup-system.sh")], check=False)
        found = next(filter(None, map(shutil.which, BROWSERS)), None)
    if found is None:
        pytest.skip(
            "chromium is not installed and scripts/setup-system.sh could not install it (needs apt-get and root or sudo)"
        )
    return found


def chromium(browser: str, profile: Path, page: Path, *args: str) -> str:
    command = [
        browser,
        "--headless",
        "--no-sandbox",  # tests may run as root, where the sandbox refuses to start
        "--disable-gpu",
        "--disable-dev-shm-usage",
        f"--user-data-dir={profile}",
        "--virtual-time-budget=10000",  # let the load event (and the image check it runs) fire
        *args,
        page.resolve().as_uri(),
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr
    return done.stdout


def rows(dom: str, table_class: str) -> list[str]:
    """The data-status of each body row of the first table with this class."""
    table = re.search(rf'<table class="{table_class}">(.*?)</table>', dom, re.DOTALL)
    assert table, f"no table.{table_class}"
    return re.findall(r'<tr data-status="([^"]+)"', table.group(1))


def test_index_lists_every_experiment_with_its_status(results, browser, tmp_path):
    dom = chromium(browser, tmp_path / "profile", results / "report" / "index.html", "--dump-dom")
    listed = dict(re.findall(r'<tr data-experiment="([^"]+)" data-status="([^"]+)"', dom))
    assert listed == {e: r["status"] for e, r in reports(results).items()}
    assert re.findall(r'<section class="paper" data-paper="([^"]+)"', dom) == ["moller", "validation"]
    assert 'data-images="0/0"' in dom  # the load event fired (and the index has no images)
    for exp_id in EXPERIMENTS:
        assert f'href="{exp_id}.html"' in dom
    assert "tcpsim version" in dom and "git commit" in dom
    # the headline counts paper figures reproduced by simulation; the model figure and the
    # self-check are counted apart, by kind
    assert "Paper figures reproduced by simulation: 0/0" in dom
    assert re.findall(r'<tr data-kind="([^"]+)"', dom) == ["model", "validation"]


def test_experiment_pages_show_figure_claims_numbers_and_run(results, browser, tmp_path):
    for exp_id, report in reports(results).items():
        page = results / "report" / f"{exp_id}.html"
        dom = chromium(browser, tmp_path / "profile", page, "--dump-dom")
        assert 'data-images="1/1"' in dom, f"{exp_id}: the figure did not load"
        assert f'data-status="{report["status"]}"' in dom
        assert rows(dom, "claims") == ["holds" if c["ok"] else "fails" for c in report["claims"]]
        if report["numbers"]:
            assert rows(dom, "numbers") == [n["status"] for n in report["numbers"]]
        if report["model_checks"]:
            assert rows(dom, "model-checks") == [m["status"] for m in report["model_checks"]]
        seeds = ", ".join(map(str, report["seeds"])) or "–"
        assert f"<dt>seeds</dt><dd>{seeds}</dd>" in dom
        assert html.escape(report["provenance"]["tcpsim"]) in dom
    assert any(r["numbers"] or r["model_checks"] for r in reports(results).values())


def test_a_missing_figure_is_seen_as_not_loaded(results, browser, tmp_path):
    site = tmp_path / "site"
    shutil.copytree(results / "report", site)
    (site / "figures" / "validation.single_flow.svg").unlink()
    dom = chromium(browser, tmp_path / "profile", site / "validation.single_flow.html", "--dump-dom")
    assert 'data-images="0/1"' in dom


def test_screenshot_of_an_experiment_page_is_a_real_picture(results, browser, tmp_path):
    from matplotlib.image import imread

    shot = tmp_path / "validation.single_flow.png"
    page = results / "report" / "validation.single_flow.html"
    chromium(browser, tmp_path / "profile", page, f"--screenshot={shot}", "--window-size=1200,1400")
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert shot.stat().st_size > 20_000
    pixels = imread(shot)
    assert pixels.shape[:2] == (1400, 1200)
    assert pixels[..., :3].std() > 0.05  # text, tables and a plot, not a blank page


def test_pages_fetch_nothing_from_the_network(results):
    for page in (results / "report").glob("*.html"):
        text = page.read_text()
        assert not re.search(r'(src|href)="(https?:)?//', text), page.name
        assert "<link" not in text, page.name


def test_text_from_results_is_escaped(results, tmp_path):
    from tcpsim.report import write_report

    report = reports(results)["moller.fig3"]
    report["claims"][0]["text"] = "<script>alert(1)</script>"
    (tmp_path / "moller.fig3.json").write_text(json.dumps(report))
    page = write_report(tmp_path).parent / "moller.fig3.html"
    text = page.read_text()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text and "<script>alert" not in text
    assert 'id="no-figure"' in text  # no figure in that directory: said, not a broken image


def test_report_command_writes_elsewhere_and_rejects_a_directory_without_reports(results, tmp_path):
    done = tcpsim("report", str(results), "--out", str(tmp_path / "site"), cache=tmp_path / "cache")
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in (tmp_path / "site").glob("*.html")) == sorted(
        ["index.html", *(f"{e}.html" for e in EXPERIMENTS)]
    )
    empty = tcpsim("report", str(tmp_path / "site" / "figures"), cache=tmp_path / "cache")
    assert empty.returncode == 2
    assert empty.stderr.startswith(f"error: {tmp_path / 'site' / 'figures'}: no experiment reports")
    missing = tcpsim("report", str(tmp_path / "nowhere"), cache=tmp_path / "cache")
    assert missing.returncode == 2 and "not a directory" in missing.stderr


def test_an_experiment_that_broke_down_says_so(results, tmp_path):
    from tcpsim.report import write_report

    report = reports(results)["validation.single_flow"]
    report["completed"] = False  # as when a run, the analysis or the figure failed
    (tmp_path / "validation.single_flow.json").write_text(json.dumps(report))
    index = write_report(tmp_path, tmp_path / "site").read_text()
    assert '<tr data-experiment="validation.single_flow" data-status="broke down" data-kind="validation">' in index
    assert "(1 broke down)" in index


def test_provenance_names_the_checkout_tcpsim_runs_from_and_no_other(tmp_path):
    from tcpsim.report.provenance import PACKAGE_DIR, git_state

    commit, dirty = git_state()
    if PACKAGE_DIR == ROOT / "python" / "tcpsim" and (ROOT / ".git").exists():
        assert re.fullmatch(r"[0-9a-f]{40}", commit) and isinstance(dirty, bool)
    # an installed copy inside some other repository (a venv in a project) has no commit
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / "site-packages" / "tcpsim").mkdir(parents=True)
    assert git_state(tmp_path / "site-packages" / "tcpsim") == (None, None)


MALFORMED = {
    "an id that is a number": (lambda r: r | {"id": 5}, "id: Input should be a valid string"),
    "claims as strings": (lambda r: r | {"claims": ["it holds"]}, "claims[0]: Input should be a valid dictionary"),
    "a claim without its verdict": (lambda r: r | {"claims": [{"text": "x"}]}, "claims[0].ok: Field required"),
    "a number without its paper value": (
        lambda r: r | {"numbers": [{"name": "x", "measured": 1.0, "tolerance": 0.15, "status": "matched"}]},
        "numbers[0].paper: Field required",
    ),
    "an unknown status": (
        lambda r: r | {"status": "great"},
        "status: Input should be 'reproduced' or 'not reproduced'",
    ),
    "provenance as a list": (lambda r: r | {"provenance": [1, 2]}, "provenance: Input should be a valid dictionary"),
    "a wall time in words": (lambda r: r | {"wall_s": "a while"}, "wall_s: Input should be a valid number"),
    "garbage readings": (lambda r: r | {"readings": [42]}, "readings[0]: Input should be a valid dictionary"),
}


@pytest.mark.parametrize("damage", MALFORMED)
def test_a_malformed_experiment_report_is_named_not_a_traceback(results, tmp_path, damage):
    """Each of these once ended `tcpsim report` in a traceback (issue 27)."""
    change, problem = MALFORMED[damage]
    report = reports(results)["validation.single_flow"]
    path = tmp_path / "validation.single_flow.json"
    path.write_text(json.dumps(change(report)))
    done = tcpsim("report", str(tmp_path), cache=tmp_path / "cache")
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.startswith(f"error: {path}: not an experiment report") and problem in done.stderr, done.stderr


def test_a_report_nested_deeper_than_the_json_reader_goes_is_named(tmp_path):
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    done = tcpsim("report", str(tmp_path), cache=tmp_path / "cache")
    assert done.returncode == 2 and done.stderr.startswith(f"error: {path}: nested too deeply"), done.stderr


@pytest.mark.parametrize("page", ["index.html", "validation.single_flow.html"])
def test_a_phone_width_page_does_not_scroll_sideways(results, browser, tmp_path, page):
    """At 420 px wide nothing but a table's own box may overflow: the page itself fits."""
    site = tmp_path / "site"
    shutil.copytree(results / "report", site)
    html = (site / page).read_text()
    probe = (
        "<script>addEventListener('load', () => document.body.setAttribute('data-overflow', "
        "String(document.documentElement.scrollWidth - document.documentElement.clientWidth)));</script>"
    )
    (site / page).write_text(html.replace("</body>", probe + "</body>"))
    dom = chromium(browser, tmp_path / "profile", site / page, "--dump-dom", "--window-size=420,900")
    overflow = re.search(r'data-overflow="(-?\d+)"', dom)
    assert overflow, "the probe did not run"
    assert int(overflow.group(1)) <= 0


@pytest.fixture(scope="module")
def sweep_site(tmp_path_factory) -> Path:
    """The page of a fresh sweep's folder: 2 rates × 2 seeds of the lossy link, 5 s each."""
    base = tmp_path_factory.mktemp("sweep")
    out = base / "s"
    done = tcpsim(
        *("sweep", "lossy_link", "--set", "duration=5s", "--grid", "links[1].rate=1Mbps,2Mbps", "--seeds", "2"),
        *("-j", "1", "--out", str(out)),
        cache=base / "cache",
    )
    assert done.returncode == 0, done.stderr
    done = tcpsim("report", str(out), cache=base / "cache")
    assert done.returncode == 0 and done.stdout == f"HTML report: {out / 'report' / 'index.html'}\n", done.stderr
    return out / "report"


def test_a_sweep_page_shows_its_figure_table_provenance_and_scenario(sweep_site, browser, tmp_path):
    dom = chromium(browser, tmp_path / "profile", sweep_site / "index.html", "--dump-dom")
    assert 'data-images="1/1"' in dom, "the sweep's figure did not load"
    assert '<h1 id="title" data-kind="sweep">lossy link</h1>' in dom
    table = re.search(
        r'<table class="results" data-table="goodput per flow \(mean over seeds\)">(.*?)</table>', dom, re.S
    )
    assert table, "no goodput table"
    cells = [re.findall(r"<td>([^<]*)</td>", row) for row in re.findall(r"<tr>(.*?)</tr>", table.group(1), re.S)]
    assert [(c[0], c[1], c[-1]) for c in cells if c] == [("1Mbps", "bulk", "2"), ("2Mbps", "bulk", "2")]
    provenance = dict(re.findall(r"<dt>([^<]+)</dt><dd>([^<]*)</dd>", dom))
    assert provenance["seeds"] == "1, 2" and provenance["tcpsim version"] != "unknown"
    assert re.fullmatch(r"[0-9a-f]{64}", provenance["engine source digest"])
    assert "links[1].rate=1Mbps" in provenance["command"]
    assert (
        html.unescape(re.search(r'<pre class="scenario" id="scenario">(.*?)</pre>', dom, re.S).group(1)).count(
            "[[links]]"
        )
        == 2
    )


def test_a_sweep_page_fits_a_phone_width(sweep_site, browser, tmp_path):
    site = tmp_path / "site"
    shutil.copytree(sweep_site, site)
    page = site / "index.html"
    probe = (
        "<script>addEventListener('load', () => document.body.setAttribute('data-overflow', "
        "String(document.documentElement.scrollWidth - document.documentElement.clientWidth)));</script>"
    )
    page.write_text(page.read_text().replace("</body>", probe + "</body>"))
    dom = chromium(browser, tmp_path / "profile", page, "--dump-dom", "--window-size=420,900")
    overflow = re.search(r'data-overflow="(-?\d+)"', dom)
    assert overflow and int(overflow.group(1)) <= 0


def test_a_run_page_shows_its_traces_and_tables(browser, tmp_path):
    out = tmp_path / "r"
    done = tcpsim(
        *("run", "single_flow", "--set", "duration=5s", "--set", "trace.cwnd=true", "--set", "trace.queue=true"),
        *("--out", str(out)),
        cache=tmp_path / "cache",
    )
    assert done.returncode == 0, done.stderr
    assert tcpsim("report", str(out), cache=tmp_path / "cache").returncode == 0
    dom = chromium(browser, tmp_path / "profile", out / "report" / "index.html", "--dump-dom")
    assert 'data-images="1/1"' in dom, "the run's figure did not load"
    assert '<h1 id="title" data-kind="run">single flow</h1>' in dom
    assert re.findall(r'<table class="results" data-table="([^"]+)">', dom) == ["flows", "links"]
    provenance = dict(re.findall(r"<dt>([^<]+)</dt><dd>([^<]*)</dd>", dom))
    assert provenance["seed"] == "1" and provenance["repeat a run with"].endswith("scenario.toml --seed 1")
