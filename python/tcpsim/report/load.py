"""Reading a results directory: the experiment reports ``tcpsim repro`` wrote into it."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from tcpsim.report.schema import first_problem

REPORT_KEYS = frozenset({"id", "title", "paper", "status", "claims", "numbers", "readings", "notes"})
"""Keys every experiment report has; other JSON files in the directory (summary.json, a user's
own files) are not experiment reports and are left alone."""

SAFE_ID = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9_.-]*")
"""An experiment id as it may name the report's files (no path separators, no leading dot)."""


class ReportError(ValueError):
    """The results directory cannot be reported on; the message names the path and the fix."""


def _natural(text: str) -> list[int | str]:
    """Sort key putting fig9 before fig10."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", text)]


def load_reports(results_dir: Path) -> list[dict[str, Any]]:
    """Every experiment report in ``results_dir``, by paper (in the order of ``PAPERS``) then id.

    Reports of several ``tcpsim repro`` invocations into one directory are all kept: each
    carries its own provenance.
    """
    from tcpsim.repro.framework import PAPERS

    if not results_dir.is_dir():
        raise ReportError(f"{results_dir}: not a directory; give the directory 'tcpsim repro --out DIR' wrote")
    reports = []
    for path in sorted(results_dir.glob("*.json")):
        try:
            data = json.loads(path.read_text())
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
            raise ReportError(f"{path}: cannot be read as JSON ({error}); remove it or re-run 'tcpsim repro'") from None
        except RecursionError:
            raise ReportError(f"{path}: nested too deeply to be an experiment report; remove it") from None
        if isinstance(data, dict) and REPORT_KEYS <= data.keys():
            problem = first_problem(data)
            if problem is not None:
                raise ReportError(
                    f"{path}: not an experiment report as 'tcpsim repro' writes it ({problem}); "
                    "remove it or re-run 'tcpsim repro'"
                )
            if not SAFE_ID.fullmatch(str(data["id"])):
                raise ReportError(f"{path}: experiment id {data['id']!r} is not a plain name (letters, digits, . _ -)")
            reports.append(data)
    if not reports:
        raise ReportError(
            f"{results_dir}: no experiment reports (<id>.json files written by 'tcpsim repro --out {results_dir}'), "
            "and not a run's or sweep's folder (meta.json and flows.csv from 'tcpsim run --out', or runs.csv and "
            "sweep.toml from 'tcpsim sweep --out')"
        )
    order = {paper: i for i, paper in enumerate(PAPERS)}
    return sorted(reports, key=lambda r: (order.get(r["paper"], len(order)), r["paper"], _natural(r["id"])))
