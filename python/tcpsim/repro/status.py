"""The scoreboard of a batch of reproductions, computed from its reports (the JSON dicts that
``execute`` writes): totals, the per-paper status table the README includes, and the block of
the README that holds it.

Only the main reading of an experiment counts towards its status and the totals; alternative
readings are counted in a column of their own. The headline counts the paper figures reproduced
by simulation (experiments of kind "simulation") only; figures that only evaluate a paper's
analytical model ("model") and tcpsim's self-checks ("validation") are counted apart, and so are
the misses, by the class of their ``miss_cause``.
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
    total.update(dict.fromkeys(_count({"claims": [], "numbers": []}), 0))  # zeros when there are no reports
    alternative: dict[str, int] = {}
    for report in reports:
        _add(total, _count(report))
        for reading in report["readings"]:
            _add(alternative, _count(reading))
            _add(alternative, {"readings": 1, "readings_reproduced": int(bool(reading["ok"]))})
    total.update({f"alt_{key}": value for key, value in alternative.items()})
    return total


def kind_of(report: Report) -> str:
    """The report's experiment kind; reports written before kinds: "validation" for the
    validation paper, else "simulation"."""
    return report.get("kind") or ("validation" if report["paper"] == "validation" else "simulation")


def of_kind(reports: Sequence[Report], kind: str) -> list[Report]:
    return [r for r in reports if kind_of(r) == kind]


def miss_causes(reports: Sequence[Report]) -> dict[str, int]:
    """Not-reproduced experiments by the class of their ``miss_cause`` ("undeclared" when a
    report has none), in the order of ``MISS_CLASSES``."""
    from tcpsim.repro.framework import MISS_CLASSES, UNDECLARED

    found: dict[str, int] = {}
    for report in reports:
        if not report["ok"]:
            cls = (report.get("miss_cause") or {}).get("class", UNDECLARED)
            found[cls] = found.get(cls, 0) + 1
    order = [*MISS_CLASSES, UNDECLARED]
    return {cls: found[cls] for cls in sorted(found, key=lambda c: order.index(c) if c in order else len(order))}


def _causes_cell(reports: Sequence[Report]) -> str:
    causes = miss_causes(reports)
    return ", ".join(f"{cls} {n}" for cls, n in causes.items()) if causes else "–"


def _readings_cell(s: Mapping[str, int]) -> str:
    if not s.get("alt_readings"):
        return "–"
    return (
        f"{s['alt_readings_reproduced']}/{s['alt_readings']} reproduced; claims {s['alt_claims_held']}/{s['alt_claims']}, "
        f"numbers {s['alt_numbers_matched']} matched / {s['alt_numbers_missed']} missed"
    )


def _apart_cell(reports: Sequence[Report]) -> str:
    """Experiments reproduced, claims held and numbers matched of model or validation reports."""
    if not reports:
        return "–"
    s = score(reports)
    text = f"{s['reproduced']}/{s['experiments']} (claims {s['claims_held']}/{s['claims']}"
    if s["numbers_matched"] or s["numbers_missed"]:
        text += f", numbers {s['numbers_matched']}/{s['numbers_matched'] + s['numbers_missed']}"
    return text + ")"


def undecided(reports: Sequence[Report]) -> list[str]:
    """Ids of the reports whose mode (quick) cannot decide them (``quick_undecided``)."""
    return [r["id"] for r in reports if r.get("quick_undecided")]


def _figures_cell(reports: Sequence[Report]) -> str:
    s = score(reports)
    text = f"{s['reproduced']}/{s['experiments']}"
    open_ = undecided(reports)
    return text + (f" ({len(open_)} undecidable in quick mode)" if open_ else "")


def _row(name: str, reports: Sequence[Report]) -> str:
    simulated = of_kind(reports, "simulation")
    s = score(simulated)
    checks = score(reports)
    figures = _figures_cell(simulated) if simulated else "–"
    claims = f"{s['claims_held']}/{s['claims']}" if simulated else "–"
    matched, missed = (s["numbers_matched"], s["numbers_missed"]) if simulated else ("–", "–")
    model_checks = f"{checks['model_checks_matched']}/{checks['model_checks']}" if checks["model_checks"] else "–"
    return (
        f"| {name} | {figures} | {claims} | {matched} | {missed} | {_causes_cell(simulated)} "
        f"| {_apart_cell(of_kind(reports, 'model'))} | {model_checks} | {_apart_cell(of_kind(reports, 'validation'))} "
        f"| {_readings_cell(checks)} |"
    )


def headline(reports: Sequence[Report]) -> str:
    """One sentence: paper figures reproduced by simulation (and their claims, numbers and misses
    by cause), then the model-only figures, the self-checks and the model checks apart."""
    simulated = of_kind(reports, "simulation")
    s = score(simulated)
    line = f"Paper figures reproduced by simulation: {s['reproduced']}/{s['experiments']}"
    if undecided(simulated):
        line += f" (quick mode cannot decide {', '.join(undecided(simulated))}, counted as its verdict)"
    line += (
        f"; claims {s['claims_held']}/{s['claims']} hold; numbers {s['numbers_matched']} matched, "
        f"{s['numbers_missed']} missed; misses by cause: {_causes_cell(simulated)}"
    )
    for kind, label in (("model", "analytical-model figures"), ("validation", "self-checks")):
        if of_kind(reports, kind):
            line += f". Apart: {label} reproduced {_apart_cell(of_kind(reports, kind))}"
    checks = score(reports)
    if checks["model_checks"]:
        line += f"; model checks {checks['model_checks_matched']}/{checks['model_checks']} matched"
    other = [r for r in reports if kind_of(r) != "simulation" and not r["ok"]]
    if other:
        line += f"; their misses by cause: {_causes_cell(other)}"
    return line + "."


def status_table(reports: Sequence[Report]) -> str:
    """The headline sentence (bold), then one row per paper (in the order of ``PAPERS``) and a
    total: paper figures reproduced by simulation with their claims held, numbers matched and
    missed and misses by cause; apart, the model-only figures, the model checks and the
    self-checks; the alternative readings. Deterministic in the reports' verdicts only (no
    times, paths or registration order), so it can be compared across runs."""
    from tcpsim.repro.framework import PAPERS  # framework imports this module

    met = {r["paper"] for r in reports}
    papers = [p for p in PAPERS if p in met] + sorted(met - set(PAPERS))
    lines = [
        f"**{headline(reports)}**",
        "",
        "| paper | paper figures reproduced by simulation | claims held | numbers matched | numbers missed "
        "| misses by cause | model-only figures reproduced | model checks matched | self-checks passed "
        "| alternative readings |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    lines += [_row(paper, [r for r in reports if r["paper"] == paper]) for paper in papers]
    lines.append(_row("**all**", reports))
    return "\n".join(lines)


def readings_table(reports: Sequence[Report]) -> str:
    """One row per experiment and reading, the main reading first: the readings side by side."""
    lines = [
        "| experiment | kind | reading | status | claims held | numbers matched | numbers missed |",
        "|---|---|---|---|---|---|---|",
    ]
    for report in reports:
        groups = [(f"main: {report['main_reading']}", report)] + [(f"alt: {r['name']}", r) for r in report["readings"]]
        for name, group in groups:
            s = _count(group)
            lines.append(
                f"| {report['id']} | {kind_of(report)} | {cell(name)} | {group['status']} | {s['claims_held']}/{s['claims']} "
                f"| {s['numbers_matched']} | {s['numbers_missed']} |"
            )
    return "\n".join(lines)


def misses_table(reports: Sequence[Report]) -> str:
    """One row per experiment not reproduced: its kind, the class of its miss and the evidence."""
    lines = ["| experiment | kind | cause | evidence |", "|---|---|---|---|"]
    for report in reports:
        if not report["ok"]:
            cause = report.get("miss_cause") or {"class": "undeclared", "evidence": ""}
            lines.append(f"| {report['id']} | {kind_of(report)} | {cause['class']} | {cell(cause['evidence'])} |")
    return "\n".join(lines)


def totals_line(reports: Sequence[Report]) -> str:
    """The headline (main readings only), then the alternative readings apart."""
    line = headline(reports)
    s = score(reports)
    if s.get("alt_readings"):
        line = line[:-1] + f"; alternative readings (not counted above): {_readings_cell(s)}."
    return line


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
