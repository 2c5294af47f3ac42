"""The shape of an experiment report (`<id>.json`, written by `tcpsim repro`) as the report pages
read it, checked before anything is rendered: a results folder is data a colleague may hand you,
and a damaged or hand-edited file must be named, not end the command in a traceback.

Only what the pages and the totals read is checked, with its type; any other key is allowed, so
reports from newer versions still load.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError


class _Record(BaseModel):
    model_config = ConfigDict(extra="allow", strict=False)


class ClaimRecord(_Record):
    text: str
    ok: bool
    detail: str = ""


class NumberRecord(_Record):
    name: str
    kind: Literal["point", "range", "upper", "lower"] = "point"
    paper: float
    paper_high: float | None = None
    measured: float | None
    tolerance: float
    precision: str | None = None
    rel_error: float | None = None
    status: Literal["matched", "missed"]
    explanation: str | None = None
    ns2: float | None = None
    ns2_ci: tuple[float, float] | None = None
    ns2_tool: str | None = None


class SeriesRecord(_Record):
    label: str
    x: list[Any]
    y: list[float | None]
    y_ci_low: list[float | None] | None = None
    y_ci_high: list[float | None] | None = None


class ReadingRecord(_Record):
    name: str
    hypothesis: str = ""
    ok: bool
    claims: list[ClaimRecord] = []
    numbers: list[NumberRecord] = []
    series: list[SeriesRecord] = []
    notes: list[str] = []


class MissCauseRecord(_Record):
    cls: Literal["mechanism", "setup", "statistics", "test", "paper", "undeclared"] = Field(alias="class")
    evidence: str


class ExperimentReport(_Record):
    id: str
    title: str
    paper: str
    kind: Literal["simulation", "model", "validation"] | None = None
    quick: bool = False
    status: Literal["reproduced", "not reproduced"]
    completed: bool = True
    series: list[SeriesRecord] = []
    claims: list[ClaimRecord]
    numbers: list[NumberRecord]
    model_checks: list[NumberRecord] = []
    readings: list[ReadingRecord]
    notes: list[str]
    miss_cause: MissCauseRecord | None = None
    figure: str | None = None
    wall_s: float | None = None
    setup: str | None = None
    runs: int | None = None
    provenance: dict[str, Any] | None = None


def first_problem(data: dict[str, Any]) -> str | None:
    """None if ``data`` has the shape of an experiment report, else where and what is wrong
    (the first problem found: ``numbers[2].paper: Input should be a valid number``)."""
    try:
        ExperimentReport.model_validate(data)
    except ValidationError as error:
        problem = error.errors()[0]
        where = ".".join(f"[{part}]" if isinstance(part, int) else str(part) for part in problem["loc"])
        return f"{where.replace('.[', '[')}: {problem['msg']}"
    return None
