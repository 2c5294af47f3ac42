"""The HTML page of a run's or a sweep's ``--out`` folder (`tcpsim.saved`): its scenario (TOML),
provenance (versions, git commit, engine source digest, seeds, command), result tables and
figures (`tcpsim.figures`), written as ``index.html`` beside ``figures/`` in the site folder,
with the reproduction report's templates and style, readable from ``file://``.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from tcpsim.outpaths import write_text
from tcpsim.result.tables import TableView, num
from tcpsim.saved import SavedRun, SavedSweep, scenario_field

MAX_SWEEP_FIGURES = 4
"""A sweep's page draws goodput against each of its first this many parameters."""

PROVENANCE = (
    ("tcpsim_version", "tcpsim version"),
    ("engine_version", "engine version"),
    ("engine_source", "engine source digest"),
    ("git", "git commit"),
    ("python", "Python"),
    ("platform", "platform"),
    ("created_utc", "created (UTC)"),
    ("command_line", "command"),
    ("rerun", "repeat a run with"),
)
"""provenance.json's keys (`tcpsim.sweeps.provenance`) as the page labels them, in its order."""


def provenance_rows(provenance: Mapping[str, Any], seeds: str) -> list[tuple[str, str]]:
    """Label/value rows of a folder's provenance; "unknown" where it does not say (a folder of
    an older version, or a stored run)."""
    rows = [("seeds" if "," in seeds else "seed", seeds)]
    for key, label in PROVENANCE:
        value = provenance.get(key)
        if key == "git" and isinstance(value, Mapping):
            value = f"{value.get('commit')}{' (uncommitted changes)' if value.get('dirty') else ''}"
        elif key == "command_line" and isinstance(value, list):
            value = " ".join(map(str, value))
        rows.append((label, "unknown" if value in (None, "") else str(value)))
    scenario = provenance.get("scenario")
    if isinstance(scenario, Mapping):
        rows.append(("scenario", f"{scenario.get('source')} (hash {scenario.get('hash')})"))
    return rows


def _listed(table: TableView) -> TableView:
    """The table with its rows as lists of text (the page reads them once more than a generator allows)."""
    return TableView(table.title, table.columns, [[str(cell) for cell in row] for row in table.rows])


def _run_page(saved: SavedRun, site: Path) -> dict[str, Any]:
    from tcpsim.figures import run_figure, run_panels
    from tcpsim.result.tables import classes_view, flows_view, links_view, web_view

    result = saved.result
    tables = [flows_view(result.flows)]
    if not result.web.empty:
        tables.append(web_view(result.web))
    tables.append(links_view(result.links))
    if len(classes := result.classes) >= 2:
        tables.append(classes_view(classes))
    figures = []
    if result.traces:
        panels = run_panels(result, None)
        figures.append((_figure(run_figure(result, panels), site, "run"), f"time series: {', '.join(panels)}"))
    meta = result.meta
    facts = [
        (
            "simulated",
            f"{num(meta.get('sim_s'))} s (results over the measurement window, {num(meta.get('window_s'))} s)",
        ),
        ("events", f"{meta.get('events', 0):,} in {num(meta.get('wall_s'))} s"),
        ("scenario hash", str(meta.get("scenario_hash"))),
    ]
    seed = str(saved.provenance.get("seed", meta.get("seed")))
    return {
        "kind": "run",
        "tables": [_listed(t) for t in tables],
        "figures": figures,
        "facts": facts,
        "provenance": provenance_rows(saved.provenance | {"tcpsim_version": meta.get("version")}, seed),
    }


def _sweep_page(saved: SavedSweep, site: Path) -> dict[str, Any]:
    from tcpsim.figures import sweep_axis, sweep_figure, sweep_metric

    figures = []
    for path in list(saved.grid)[:MAX_SWEEP_FIGURES] if not saved.flows.empty else []:
        axis, metric = sweep_axis(saved, path), sweep_metric(saved, None)
        name = f"sweep-{len(figures)}"
        figures.append((_figure(sweep_figure(saved, axis, metric), site, name), f"goodput against {path}"))
    runs = saved.runs
    failed = runs[runs["status"] != "ok"] if "status" in runs else runs.iloc[0:0]
    facts = [
        ("runs", f"{len(runs)} ({len(runs) - len(failed)} ok, {len(failed)} failed)"),
        *((f"grid: {path}", ", ".join(map(str, values))) for path, values in saved.grid.items()),
    ]
    tables = [_goodput_table(saved)]
    if len(failed):
        tables.append(
            TableView(
                "failed runs",
                [*saved.grid, "seed", "error"],
                [[*(str(r[p]) for p in saved.grid), str(r["seed"]), str(r["error"])] for _, r in failed.iterrows()],
            )
        )
    seeds = ", ".join(str(s) for s in (saved.provenance.get("sweep") or {}).get("seeds", sorted(runs["seed"].unique())))
    return {
        "kind": "sweep",
        "tables": tables,
        "figures": figures,
        "facts": facts,
        "provenance": provenance_rows(saved.provenance, seeds),
    }


def _goodput_table(saved: SavedSweep) -> TableView:
    """Goodput per grid point and flow: mean over seeds, 95 % CI and number of seeds (what
    `tcpsim sweep` prints)."""
    from pandas.api.types import is_scalar

    from tcpsim.stats import summarize

    axes = list(saved.grid)
    df = saved.flows.assign(**{p: saved.flows[p].map(lambda v: v if is_scalar(v) else str(v)) for p in axes})
    summary = summarize(df, [*axes, "name"], "goodput_bps", sort=False, bounds=(0, None))
    return TableView(
        "goodput per flow (mean over seeds)",
        [*axes, "flow", "goodput Mb/s", "95% CI", "seeds"],
        [
            [
                *(str(r[p]) for p in axes),
                str(r["name"]),
                num(r["mean"], 1e6),
                f"{num(r['ci_low'], 1e6)} … {num(r['ci_high'], 1e6)}",
                str(r["n"]),
            ]
            for r in summary.to_dict("records")
        ],
    )


def _figure(fig: Any, site: Path, name: str) -> str:
    """``fig`` as ``site/figures/<name>.svg``; its address relative to the page."""
    from tcpsim.repro.plotting import save_as

    save_as(fig, site / "figures" / f"{name}.svg")
    return f"figures/{name}.svg"


def write_folder_report(saved: SavedRun | SavedSweep, source: str, site_dir: Path) -> Path:
    """Write the page of the run or sweep saved in ``source`` (a folder, or a stored run's
    label) into ``site_dir`` and return its ``index.html``; the figures it drew before are
    replaced, other files left alone."""
    from tcpsim.report.render import environment
    from tcpsim.repro.plotting import style

    figures_dir = site_dir / "figures"
    figures_dir.mkdir(parents=True, exist_ok=True)
    for old in [*figures_dir.glob("run.svg"), *figures_dir.glob("sweep-*.svg")]:
        old.unlink()
    with style():
        page = _run_page(saved, site_dir) if isinstance(saved, SavedRun) else _sweep_page(saved, site_dir)
    title = scenario_field(saved.scenario_toml, "name") or (
        Path(source).resolve().name if Path(source).is_dir() else saved.label
    )
    index = site_dir / "index.html"
    write_text(
        index,
        environment()
        .get_template("folder.html")
        .render(
            page=page,
            title=title,
            description=scenario_field(saved.scenario_toml, "description"),
            folder=source,
            scenario_toml=saved.scenario_toml,
        ),
    )
    return index
