"""Writing the site: Jinja2 templates (autoescaped: claim texts and notes are data, not HTML),
CSS inlined into every page, figures and reports copied beside the pages."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from tcpsim.outpaths import replacing, write_text
from tcpsim.report import view
from tcpsim.report.load import load_reports
from tcpsim.repro.status import kind_of

FIGURE_SUFFIXES = (".svg", ".png")
"""The figure a page shows: the SVG ``repro`` writes, else the PNG of an older results directory."""


def environment() -> Any:
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.PackageLoader("tcpsim.report", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters.update(fmt=view.fmt, seconds=view.seconds, plain=view.plain)
    env.globals.update(
        status=view.status,
        status_class=view.STATUS_CLASS,
        counts=view.counts,
        kind_of=kind_of,
        number_row=view.number_row,
        provenance_rows=view.provenance_rows,
    )
    return env


def _copy_figure(results_dir: Path, site: Path, exp_id: str) -> str | None:
    """Copy the experiment's figure into ``site/figures``; its address relative to the pages."""
    for suffix in FIGURE_SUFFIXES:
        source = results_dir / f"{exp_id}{suffix}"
        if source.is_file():
            with replacing(site / "figures" / source.name) as temporary:
                shutil.copyfile(source, temporary)
            return f"figures/{source.name}"
    return None


def write_report(results_dir: str | Path, site_dir: str | Path | None = None) -> Path:
    """Write the site for ``results_dir`` into ``site_dir`` (default ``results_dir/report``)
    and return its ``index.html``. Pages, figures and data of the experiments found are
    replaced; other files in ``site_dir`` are left alone."""
    from tcpsim.repro.reference import PAPER_CITATIONS

    results_dir = Path(results_dir)
    site = Path(site_dir) if site_dir is not None else results_dir / "report"
    reports = load_reports(results_dir)
    for sub in ("figures", "data"):
        (site / sub).mkdir(parents=True, exist_ok=True)
    env = environment()
    page = env.get_template("experiment.html")
    for report in reports:
        exp_id = report["id"]
        for suffix in FIGURE_SUFFIXES:  # a figure that is gone now must not linger from before
            (site / "figures" / f"{exp_id}{suffix}").unlink(missing_ok=True)
        figure = _copy_figure(results_dir, site, exp_id)
        write_text(site / "data" / f"{exp_id}.json", json.dumps(report, indent=2) + "\n")
        write_text(site / f"{exp_id}.html", page.render(report=report, figure=figure))
    papers: dict[str, list[dict[str, Any]]] = {}
    for report in reports:
        papers.setdefault(report["paper"], []).append(report)
    index = site / "index.html"
    write_text(
        index,
        env.get_template("index.html").render(
            papers=papers,
            citations=PAPER_CITATIONS,
            totals=view.totals(reports),
            provenance=view.shared_provenance(reports),
        ),
    )
    return index
