"""The scoreboard of a batch of reproductions, computed from its reports (the JSON dicts that
``execute`` writes): totals, the per-paper status table the README includes, and the block of
the README that holds it.

Only the main reading of an experiment counts towards its status and the totals; alternative
readings are counted in a column of their own.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

Report = Mapping[str, Any]

STATUS_MODES = ("quick", "full")


def cell(value: Any) -> str:
    """A value as the text of one markdown table cell."""
    text = "" if value is None else f"{value:.4g}" if isinstance(value, float) else str(value)
    return text.replace("|", r"\|").replace("\n", " ")


def paper_value(number: Mapping[str, Any]) -> str:
    """The paper's statement as text: "1.2", "< 0.4", "> 500", "[0.3, 0.5]"."""
    paper = cell(number["paper"])
    kind = number.get("kind", "point")
    if kind == "upper":
        return f"< {paper}"
    if kind == "lower":
        return f"> {paper}"
    if kind == "range":
        return f"[{paper}, {cell(number['paper_high'])}]"
    return paper


def _count(group: Mapping[str, Any]) -> dict[str, int]:
    claims, numbers = group["claims"], group["numbers"]
    checks = group.get("model_checks", [])
    return {
        "claims": len(claims),
        "claims_held": sum(bool(c["ok"]) for c in claims),
        "numbers_matched": sum(n["status"] == "matched" for n in numbers),
        "numbers_missed": sum(n["status"] != "matched" for n in numbers),
        "model_checks": len(checks),
        "model_checks_matched": sum(m["status"] == "matched" for m in checks),
    }


def _add(total: dict[str, int], part: Mapping[str, int]) -> None:
    for key, value in part.items():
        total[key] = total.get(key, 0) + value


def score(reports: Sequence[Report]) -> dict[str, int]:
    """Totals over ``reports``: experiments and how many reproduced, the main reading's claims,
    numbers and model checks, and the alternative readings with their claims and numbers."""
    total = {"experiments": len(reports), "reproduced": sum(bool(r["ok"]) for r in reports)}
    alternative: dict[str, int] = {}
    for report in reports:
        _add(total, _count(report))
        for reading in report["readings"]:
            _add(alternative, _count(reading))
            _add(alternative, {"readings": 1, "readings_reproduced": int(bool(reading["ok"]))})
    total.update({f"alt_{key}": value for key, value in alternative.items()})
    return total


def _readings_cell(s: Mapping[str, int]) -> str:
    if not s.get("alt_readings"):
        return "–"
    return (
        f"{s['alt_readings_reproduced']}/{s['alt_readings']} reproduced; claims {s['alt_claims_held']}/{s['alt_claims']}, "
        f"numbers {s['alt_numbers_matched']} matched / {s['alt_numbers_missed']} missed"
    )


def _row(name: str, s: Mapping[str, int]) -> str:
    checks = f"{s['model_checks_matched']}/{s['model_checks']}" if s["model_checks"] else "–"
    return (
        f"| {name} | {s['reproduced']}/{s['experiments']} | {s['claims_held']}/{s['claims']} "
        f"| {s['numbers_matched']} | {s['numbers_missed']} | {checks} | {_readings_cell(s)} |"
    )


def status_table(reports: Sequence[Report]) -> str:
    """One row per paper (in the order of ``PAPERS``) and a total: experiments reproduced, claims
    held, numbers matched and missed, model checks matched, alternative readings. Deterministic
    in the reports' verdicts only (no times, paths or registration order), so it can be compared
    across runs."""
    from tcpsim.repro.framework import PAPERS  # framework imports this module

    met = {r["paper"] for r in reports}
    papers = [p for p in PAPERS if p in met] + sorted(met - set(PAPERS))
    lines = [
        "| paper | experiments reproduced | claims held | numbers matched | numbers missed | model checks matched "
        "| alternative readings |",
        "|---|---|---|---|---|---|---|",
    ]
    lines += [_row(paper, score([r for r in reports if r["paper"] == paper])) for paper in papers]
    lines.append(_row("**all**", score(reports)))
    return "\n".join(lines)


def readings_table(reports: Sequence[Report]) -> str:
    """One row per experiment and reading, the main reading first: the readings side by side."""
    lines = [
        "| experiment | reading | status | claims held | numbers matched | numbers missed |",
        "|---|---|---|---|---|---|",
    ]
    for report in reports:
        groups = [(f"main: {report['main_reading']}", report)] + [(f"alt: {r['name']}", r) for r in report["readings"]]
        for name, group in groups:
            s = _count(group)
            lines.append(
                f"| {report['id']} | {cell(name)} | {group['status']} | {s['claims_held']}/{s['claims']} "
                f"| {s['numbers_matched']} | {s['numbers_missed']} |"
            )
    return "\n".join(lines)


def totals_line(reports: Sequence[Report]) -> str:
    """One sentence of totals (main readings only, alternative readings apart)."""
    s = score(reports)
    line = (
        f"{s['reproduced']}/{s['experiments']} experiments reproduced; claims: {s['claims_held']}/{s['claims']} hold; "
        f"numbers: {s['numbers_matched']} matched, {s['numbers_missed']} missed"
    )
    if s["model_checks"]:
        line += f"; model checks: {s['model_checks_matched']}/{s['model_checks']} matched"
    if s.get("alt_readings"):
        line += f"; alternative readings (not counted above): {_readings_cell(s)}"
    return line + "."


def _markers(mode: str) -> tuple[str, str]:
    if mode not in STATUS_MODES:
        raise ValueError(f"status mode {mode!r} is not one of {', '.join(STATUS_MODES)}")
    return f"<!-- status:{mode}:begin -->", f"<!-- status:{mode}:end -->"


def status_block(text: str, mode: str) -> str | None:
    """The text between the ``mode`` markers of ``text`` (stripped), or None without markers."""
    begin, end = _markers(mode)
    found = re.search(re.escape(begin) + r"\n(.*?)" + re.escape(end), text, flags=re.DOTALL)
    return found.group(1).strip() if found else None


def replace_status_block(text: str, mode: str, table: str) -> str:
    """``text`` with the block between the ``mode`` markers replaced by ``table``; raises
    ValueError when the markers are missing."""
    begin, end = _markers(mode)
    if status_block(text, mode) is None:
        raise ValueError(f"no '{begin}' … '{end}' block")
    pattern = re.escape(begin) + r"\n.*?" + re.escape(end)
    return re.sub(pattern, lambda _: f"{begin}\n{table}\n{end}", text, count=1, flags=re.DOTALL)
