"""A package of the user's own experiments, installed with an entry point in the group
`tcpsim.experiments`, runs through `tcpsim repro` and is scored and reported like a paper's.

The package is docs/templates/mylab_experiments, installed the way pip leaves a package: the
module and a `.dist-info` holding its entry points, in a directory on the Python path."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TCPSIM = str(Path(sys.executable).parent / "tcpsim")


def install(site: Path, package: str, module_source: str | Path, entry_points: str) -> None:
    """A package as pip installs it: its module and a dist-info with METADATA and entry points."""
    (site / package).mkdir(parents=True)
    if isinstance(module_source, Path):
        shutil.copy(module_source, site / package / "__init__.py")
    else:
        (site / package / "__init__.py").write_text(module_source)
    info = site / f"{package}-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {package}\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(f"[tcpsim.experiments]\n{entry_points}\n")


def tcpsim(site: Path, store: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(site), "TCPSIM_STORE": str(store)}
    return subprocess.run([TCPSIM, *args], capture_output=True, text=True, env=env, cwd=site)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    site = tmp_path_factory.mktemp("site")
    install(
        site, "mylab_experiments", ROOT / "docs/templates/mylab_experiments/__init__.py", "mylab = mylab_experiments"
    )
    return site


def test_the_installed_experiment_is_listed(site, tmp_path):
    listed = tcpsim(site, tmp_path / "store", "list", "--json")
    assert listed.returncode == 0, listed.stderr
    experiments = {e["id"]: e["paper"] for e in json.loads(listed.stdout)["experiments"]}
    assert experiments["mylab.buffer_sweep"] == "mylab"


def test_repro_runs_scores_and_reports_it_like_a_papers(site, tmp_path):
    out = tmp_path / "results"
    done = tcpsim(site, tmp_path / "store", "repro", "mylab", "--quick", "--out", str(out), "--report")
    assert done.returncode in (0, 1), done.stderr  # 1: a check missed, which is still a scored result
    report = json.loads((out / "mylab.buffer_sweep.json").read_text())
    assert report["paper"] == "mylab" and report["kind"] == "simulation"
    assert [c["text"] for c in report["claims"]] == ["utilization rises with the buffer"]
    assert report["numbers"][0]["name"] == "utilization with 80 packets"
    assert (out / "mylab.buffer_sweep.png").stat().st_size > 0
    summary = json.loads((out / "summary.json").read_text())
    assert "mylab.buffer_sweep" in json.dumps(summary)
    assert "mylab" in (out / "summary.md").read_text()
    assert (out / "report" / "mylab.buffer_sweep.html").exists()


@pytest.mark.parametrize(
    ("module", "entry", "message"),
    [
        ("raise ImportError('no numpy here')\n", "broken = broken_experiments", "importing it failed: ImportError"),
        (
            "from tcpsim.repro import register\nfrom tcpsim.repro.framework import Experiment\n"
            "@register\nclass X(Experiment):\n    id = 'moller.mine'\n    paper = 'moller'\n    title = 'x'\n",
            "mine = broken_experiments",
            "registered moller.mine, not of paper 'mine'",
        ),
        ("", "moller = broken_experiments", "not one of moller"),
    ],
)
def test_a_broken_package_is_named_not_a_traceback(tmp_path, module, entry, message):
    site = tmp_path / "site"
    install(site, "broken_experiments", module, entry)
    done = tcpsim(site, tmp_path / "store", "list")
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert f"entry point {entry.split(' = ')[0]!r}" in done.stderr and message in done.stderr
