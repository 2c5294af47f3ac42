"""Per-class metrics: flows grouped by their `class` label (default: the variant) into the
aggregates of `podlesny` Sec. IV — each class's throughput, its share and utilization of a
link, per-flow throughput, Jain's index within the class, loss rate — and the relative
fairness index between two classes.

A class's members are its TCP flows (rows of `r.flows`) and its web generators (rows of
`r.web`, one member each: a generator's transfers are short and many, so its aggregate is what
competes). Everything here works on plain rows (dicts), so `tcpsim run --json` computes the
class table without loading pandas; :class:`~tcpsim.result.RunResult` wraps it in DataFrames.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd

CLASS_COLUMNS = [
    "class",
    "flows",
    "throughput_bps",
    "share",
    "utilization",
    "per_flow_bps",
    "jain",
    "loss_rate",
    "packets_sent",
    "packets_dropped",
]
NAN = float("nan")


def jain(values: Iterable[float]) -> float:
    """Jain's fairness index (Jain, Chiu & Hawe, DEC-TR-301, 1984): (Σx)² / (n·Σx²), 1 when all
    allocations are equal, 1/n when one member takes everything. NaNs are ignored; an empty or
    all-zero allocation gives NaN (fairness is undefined when nobody got anything). The same as
    `stats.jain_index` in plain Python, so that `--json` loads no numpy."""
    finite = [float(x) for x in values if not math.isnan(x)]
    if any(x < 0 for x in finite):
        raise ValueError("Jain's index is defined for non-negative allocations only")
    square_sum = math.fsum(x * x for x in finite)
    if not finite or square_sum == 0.0:
        return NAN
    return math.fsum(finite) ** 2 / (len(finite) * square_sum)


def reference_link(links: Sequence[Mapping[str, Any]], link: str | None = None) -> Mapping[str, Any]:
    """The link direction whose capacity class utilizations are relative to: the busiest
    direction of the link named `link`, or of all links when `link` is None (the first on ties)."""
    candidates = [row for row in links if link is None or row["name"] == link]
    if not candidates:
        known = ", ".join(dict.fromkeys(str(row["name"]) for row in links)) or "(none)"
        raise ValueError(f"link {link!r} is not a link of this run; links: {known}")
    return max(candidates, key=lambda row: row["utilization"])


def class_of(row: Mapping[str, Any]) -> str:
    """A member's class: its `class` label, or its variant in a result from before labels."""
    return str(row.get("class", row.get("variant")))


def _number(row: Mapping[str, Any], column: str) -> float:
    """A numeric cell; NaN if the row has no such column or no value (a result from before the
    column existed, a missing measurement)."""
    value = row.get(column)
    return NAN if value is None else float(value)


def class_rows(
    flows: Iterable[Mapping[str, Any]],
    links: Sequence[Mapping[str, Any]],
    web: Iterable[Mapping[str, Any]] = (),
    link: str | None = None,
    routing: str = "shortest",
) -> list[dict[str, Any]]:
    """One row per class (columns :data:`CLASS_COLUMNS`), in order of first appearance, flows
    before web generators.

    `share` is the class's part of the summed throughput of all classes; `utilization` the
    throughput of the class's members whose data crosses the direction of :func:`reference_link`
    over its capacity, so the classes' utilizations add up to at most about 1 (a web generator
    crosses it if the path to any of its clients does; a member whose ends are not known, as in
    a table read back from CSV, counts as crossing). `loss_rate` = packets_dropped /
    packets_sent, NaN when a member lacks those counts. Without links (a hand-made result)
    utilizations are NaN.

    `routing` is the run's `[network] routing` (`RunResult.meta["routing"]`). Under "ecmp" a
    member crosses the direction if every fewest-hop path between its ends does, not if none
    does; a class with a member that only some of those paths take (ECMP's choice, not kept in
    the results) has utilization NaN, since its share of that link is not known. The link's
    own `utilization` in the links table is always exact."""
    members: dict[str, list[Mapping[str, Any]]] = {}
    for row in [*flows, *web]:
        members.setdefault(class_of(row), []).append(row)
    reference = reference_link(links, link) if links or link is not None else None
    capacity_bps = float(reference["rate_bps"]) if reference is not None else NAN
    crosses = _crossing(links, reference, routing)
    totals = {label: math.fsum(_number(row, "throughput_bps") for row in rows) for label, rows in members.items()}
    crossing_totals = {label: _crossing_total(rows, crosses) for label, rows in members.items()}
    everything = math.fsum(totals.values())
    table = []
    for label, rows in members.items():
        sent = math.fsum(_number(row, "packets_sent") for row in rows)
        dropped = math.fsum(_number(row, "packets_dropped") for row in rows)
        table.append(
            {
                "class": label,
                "flows": len(rows),
                "throughput_bps": totals[label],
                "share": totals[label] / everything if everything > 0 else NAN,
                "utilization": crossing_totals[label] / capacity_bps,
                "per_flow_bps": totals[label] / len(rows),
                "jain": jain(_number(row, "throughput_bps") for row in rows),
                "loss_rate": dropped / sent if sent > 0 else NAN,
                "packets_sent": sent,
                "packets_dropped": dropped,
            }
        )
    return table


def _crossing_total(rows: Sequence[Mapping[str, Any]], crosses: Any) -> float:
    """The summed throughput of the members that cross; NaN if whether one does is not known."""
    verdicts = [crosses(row) for row in rows]
    if any(verdict is None for verdict in verdicts):
        return NAN
    return math.fsum(_number(row, "throughput_bps") for row, verdict in zip(rows, verdicts) if verdict)


def _crossing(links: Sequence[Mapping[str, Any]], reference: Mapping[str, Any] | None, routing: str) -> Any:
    """Whether a member's data crosses the `reference` link direction, by the engine's routes:
    True, False, or None when ECMP may or may not take it."""
    if reference is None or "link" not in reference or "src" not in reference:
        return lambda row: True
    from tcpsim.routing import Routes

    routes = Routes(links)
    hop = (int(reference["link"]), str(reference["direction"]))

    def on_path(source: str, destination: str) -> bool | None:
        if routing == "ecmp":
            return routes.crossing(source, destination, hop)
        return hop in routes.path(source, destination)

    def crosses(row: Mapping[str, Any]) -> bool | None:
        if "server" in row:
            source, clients = row.get("server"), row.get("clients")
            destinations = clients if isinstance(clients, list | tuple) else None
        else:
            source, destination = row.get("src"), row.get("dst")
            destinations = [destination] if isinstance(destination, str) else None
        if not isinstance(source, str) or destinations is None:
            return True  # ends not known
        verdicts = [on_path(source, str(d)) for d in destinations]
        if any(verdicts):
            return True
        return None if None in verdicts else False

    return crosses


def relative_fairness(classes: pd.DataFrame | Sequence[Mapping[str, Any]], a: str, b: str) -> float:
    """`podlesny`'s relative fairness index (Sec. IV): the average per-flow utilization of class
    `a` over that of class `b`; 1 is fair, below 1 favours `b`. Both utilizations are relative
    to the same link, so this is the ratio of the classes' `per_flow_bps`. `classes` is
    `r.classes` (or the `classes` rows of `tcpsim run --json`)."""
    rows = classes.to_dict("records") if hasattr(classes, "to_dict") else classes
    per_flow = {str(row["class"]): float(row["per_flow_bps"]) for row in rows}
    for label in (a, b):
        if label not in per_flow:
            raise ValueError(f"class {label!r} is not in the table; classes: {', '.join(per_flow) or '(none)'}")
    return per_flow[a] / per_flow[b] if per_flow[b] > 0 else NAN


def class_throughput(throughput: pd.DataFrame, labels: Mapping[str, str]) -> pd.DataFrame:
    """Per-class throughput time series from the per-flow throughput bins (`trace.throughput_bin`;
    0.2 s in `podlesny` Sec. IV): columns time_s, class, throughput_bps (the sum over the class's
    series in each bin), classes in order of first appearance. `labels` maps a series' name
    (flow or web generator) to its class; a series without a label is a class of its own."""
    import pandas as pd

    classes = throughput["flow_name"].map(lambda name: labels.get(name, name))
    # The bins are flow-major (every bin of a series, in time order, then the next series), so
    # grouping in order of appearance lists classes in order and each one's bins in time order.
    summed = (
        pd.DataFrame({"class": classes, "time_s": throughput["time_s"], "throughput_bps": throughput["throughput_bps"]})
        .groupby(["class", "time_s"], sort=False)["throughput_bps"]
        .sum()
        .reset_index()
    )
    return summed[["time_s", "class", "throughput_bps"]]
