#!/usr/bin/env python3
"""Compare two `tcpsim repro ... --json` outputs: the judged results must be identical.

    scripts/compare_repro.py BEFORE.json AFTER.json [--show-figure-data]

Judged results are, per experiment: its status, main reading, claims (text, verdict, detail),
numbers and model checks (every field: measured value, status, explanation, ...) and the
alternative readings (name, hypothesis, status, claims, numbers). Figure paths, wall times,
series (what is drawn) and notes are not judged; with --show-figure-data their differences are
listed too, for information. Exit status 0 when the judged results are identical, 1 otherwise.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

JUDGED = ("ok", "status", "main_reading", "claims", "numbers", "model_checks")
READING_JUDGED = ("name", "hypothesis", "ok", "status", "claims", "numbers")
FIGURE_DATA = ("series", "notes")


def judged(report: dict[str, Any]) -> dict[str, Any]:
    out = {field: report.get(field) for field in JUDGED}
    out["readings"] = [{field: r.get(field) for field in READING_JUDGED} for r in report.get("readings", [])]
    return out


def figure_data(report: dict[str, Any]) -> dict[str, Any]:
    out = {field: report.get(field) for field in FIGURE_DATA}
    out["reading_series"] = [r.get("series") for r in report.get("readings", [])]
    out["reading_notes"] = [r.get("notes") for r in report.get("readings", [])]
    return out


def differences(before: Any, after: Any, path: str = "") -> list[str]:
    """Paths (and both values) where two JSON values differ."""
    if isinstance(before, dict) and isinstance(after, dict):
        out = []
        for key in sorted(set(before) | set(after)):
            out += differences(before.get(key), after.get(key), f"{path}.{key}")
        return out
    if isinstance(before, list) and isinstance(after, list):
        if len(before) != len(after):
            return [f"{path}: {len(before)} items before, {len(after)} after"]
        out = []
        for i, (b, a) in enumerate(zip(before, after)):
            out += differences(b, a, f"{path}[{i}]")
        return out
    return [] if before == after else [f"{path}: {before!r} -> {after!r}"]


def compare(
    before: list[dict[str, Any]], after: list[dict[str, Any]], figure: bool = False
) -> tuple[list[str], list[str]]:
    """(differences in judged results, differences in figure data) between two report lists."""
    b, a = {r["id"]: r for r in before}, {r["id"]: r for r in after}
    judged_diffs = [f"{i}: only before" for i in b if i not in a] + [f"{i}: only after" for i in a if i not in b]
    figure_diffs = []
    for i in b:
        if i in a:
            judged_diffs += [f"{i}{d}" for d in differences(judged(b[i]), judged(a[i]))]
            if figure:
                figure_diffs += [f"{i}{d}" for d in differences(figure_data(b[i]), figure_data(a[i]))]
    return judged_diffs, figure_diffs


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    parser.add_argument("--show-figure-data", action="store_true", help="also list differences in series and notes")
    args = parser.parse_args()
    before, after = (json.loads(p.read_text()) for p in (args.before, args.after))
    judged_diffs, figure_diffs = compare(before, after, args.show_figure_data)
    for line in judged_diffs:
        print(f"JUDGED {line[:400]}")
    for line in figure_diffs:
        print(f"figure {line[:200]}")
    print(
        f"{len(before)} experiments before, {len(after)} after: "
        + ("judged results identical" if not judged_diffs else f"{len(judged_diffs)} judged difference(s)")
    )
    return 1 if judged_diffs else 0


if __name__ == "__main__":
    sys.exit(main())
