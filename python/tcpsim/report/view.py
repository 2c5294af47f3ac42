"""What the pages show of a report, as plain values for the templates: statuses and their
style classes, counts, numbers formatted the way the paper states them, run metadata rows."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from tcpsim.repro.status import headline, miss_causes, of_kind, paper_value, score

Report = Mapping[str, Any]

STATUS_CLASS = {"reproduced": "ok", "not reproduced": "bad", "broke down": "broken"}
"""Experiment status → CSS class (green, red, grey)."""

PROVENANCE_LABELS = {
    "tcpsim": "tcpsim version",
    "build_commit": "built from commit",
    "git_commit": "git commit",
    "git_dirty": "uncommitted changes",
    "python": "Python",
    "platform": "platform",
    "command": "command",
    "started_at": "started (UTC)",
}


def status(report: Report) -> str:
    """ "reproduced" or "not reproduced" (the main reading's verdict), or "broke down" when a
    run, the analysis or the figure failed, so no verdict could be reached."""
    return report["status"] if report.get("completed", True) else "broke down"


def fmt(value: Any) -> str:
    """A measured or paper value: 4 significant digits, "–" for none (NaN is stored as null)."""
    if value is None:
        return "–"
    if isinstance(value, float):
        return f"{value:.4g}"
    return str(value)


def counts(group: Report) -> dict[str, int]:
    """Claims held and numbers matched of one reading (the main one when given a report)."""
    claims, numbers = group["claims"], group["numbers"]
    return {
        "claims": len(claims),
        "claims_held": sum(bool(c["ok"]) for c in claims),
        "numbers": len(numbers),
        "numbers_matched": sum(n["status"] == "matched" for n in numbers),
    }


def number_row(number: Report) -> dict[str, str]:
    """One row of a numbers table: the paper's statement, ours, the gap and what was allowed."""
    point = number.get("kind", "point") == "point"
    rel = number.get("rel_error")
    return {
        "name": number["name"],
        "kind": number.get("kind", "point"),
        "paper": paper_value(number),
        "ns2": ns2_value(number),
        "measured": fmt(number["measured"]),
        "rel_error": "–" if rel is None or not point else f"{rel:+.1%}",
        "tolerance": f"±{number['tolerance']:.0%}" if point else "bound",
        "status": number["status"],
        "notes": "; ".join(t for t in (number.get("precision"), number.get("explanation")) if t),
    }


def ns2_value(number: Report) -> str:
    """The peer simulator's value of a number (with its CI when given; the tool's name when it is
    not ns-2), "–" when there is none."""
    value = number.get("ns2")
    if value is None:
        return "–"
    ci = number.get("ns2_ci")
    tool = number.get("ns2_tool")
    return (
        fmt(value)
        + (f" [{fmt(ci[0])}, {fmt(ci[1])}]" if ci else "")
        + (f" ({tool})" if tool and tool != "ns-2" else "")
    )


KIND_LABELS = {
    "simulation": "paper figures reproduced by simulation",
    "model": "analytical-model figures",
    "validation": "self-checks",
}


def totals(reports: Sequence[Report]) -> dict[str, Any]:
    """Totals over the main readings (``repro.status.score``) plus the experiments that broke
    down, the headline sentence, and per kind (``KIND_LABELS``) its score and misses by cause."""
    by_kind = {
        kind: score(of_kind(reports, kind)) | {"label": label, "causes": miss_causes(of_kind(reports, kind))}
        for kind, label in KIND_LABELS.items()
        if of_kind(reports, kind)
    }
    return score(reports) | {
        "broken": sum(status(r) == "broke down" for r in reports),
        "headline": headline(reports),
        "by_kind": by_kind,
    }


def provenance_rows(provenance: Mapping[str, Any] | None) -> list[tuple[str, str]]:
    """Label/value rows of a report's provenance, in a fixed order; unknown values say so."""
    provenance = provenance or {}
    rows = []
    for key, label in PROVENANCE_LABELS.items():
        value = provenance.get(key)
        if key == "git_dirty":
            value = {True: "yes", False: "no"}.get(value)
        rows.append((label, "unknown" if value is None else str(value)))
    return rows


def shared_provenance(reports: Sequence[Report]) -> list[tuple[str, str]]:
    """The provenance rows every report agrees on (the whole table after one ``repro``; after
    several into one directory, what they share), plus the mode (quick or full)."""
    tables = [dict(provenance_rows(r.get("provenance"))) for r in reports]
    rows = [(label, value) for label, value in tables[0].items() if all(t[label] == value for t in tables)]
    modes = {"quick" if r.get("quick") else "full" for r in reports}
    return [("mode", " and ".join(sorted(modes))), *rows]


def plain(text: str) -> str:
    """Markdown emphasis (``*title*``) removed, for citations written for the markdown reference."""
    return re.sub(r"\*([^*]+)\*", r"\1", text)


def seconds(value: Any) -> str:
    """A wall time: "0.42 s", "12.3 s", "5 min 03 s"."""
    if value is None:
        return "–"
    value = float(value)
    if value < 60:
        return f"{value:.3g} s"
    minutes, rest = divmod(round(value), 60)
    return f"{minutes} min {rest:02d} s"
