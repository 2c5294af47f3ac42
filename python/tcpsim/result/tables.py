"""The result tables as people read them: chosen columns, in Mb/s, ms and percent, for the
terminal (`tcpsim run`, `tcpsim store show`) and the HTML report of a run (`tcpsim report`)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    import pandas as pd


class TableView(NamedTuple):
    """A table's title, column headings and rows of cells."""

    title: str
    columns: list[str]
    rows: Iterable[Iterable[Any]]


FLOW_COLUMNS = (
    *("id", "name", "variant", "class", "src", "dst", "goodput_bps", "throughput_bps", "bytes_retransmitted"),
    *("bytes_sent", "packets_dropped", "packets_sent", "timeouts", "fast_retransmits", "rtt_min_s", "rtt_mean_s"),
)
"""The flows table's columns the views read (a saved table is checked to have them)."""
LINK_COLUMNS = (
    *("name", "src", "dst", "rate_bps", "utilization", "tx_packets", "drops_queue", "drops_error"),
    *("queue_mean_pkts", "queue_max_pkts"),
)
"""The links table's columns the views read."""


def num(value: Any, scale: float = 1.0, digits: int = 3) -> str:
    """A float for a table: scaled, fixed precision, blank when missing."""
    try:
        number = float(value) / scale
    except (TypeError, ValueError):
        return str(value)
    return "" if number != number else f"{number:.{digits}f}"


def flows_view(flows: pd.DataFrame) -> TableView:
    ecn = any_nonzero(flows, "ecn_reductions")
    return TableView(
        "flows",
        [
            "id",
            "name",
            "variant",
            "path",
            "goodput Mb/s",
            "throughput Mb/s",
            "retx %",
            "loss %",
            "RTOs",
            "fast retx",
            *(["ECN cuts"] if ecn else []),
            "RTT min ms",
            "RTT mean ms",
        ],
        (
            (
                f["id"],
                f["name"],
                f["variant"],
                f"{f['src']}→{f['dst']}",
                num(f["goodput_bps"], 1e6),
                num(f["throughput_bps"], 1e6),
                num(100 * f["bytes_retransmitted"] / f["bytes_sent"] if f["bytes_sent"] else 0.0, digits=2),
                num(100 * f["packets_dropped"] / f["packets_sent"] if f.get("packets_sent") else 0.0, digits=2),
                f["timeouts"],
                f["fast_retransmits"],
                *([f["ecn_reductions"]] if ecn else []),
                num(f["rtt_min_s"], 1e-3, 1),
                num(f["rtt_mean_s"], 1e-3, 1),
            )
            for f in flows.to_dict("records")
        ),
    )


def web_view(web: pd.DataFrame) -> TableView:
    return TableView(
        "web",
        ["name", "class", "variant", "transfers", "completed", "throughput Mb/s", "FCT mean/median/p95 ms", "loss %"],
        (
            (
                w["name"],
                w["class"],
                w["variant"],
                w["transfers_started"],
                w["transfers_completed"],
                num(w["throughput_bps"], 1e6),
                "/".join(num(w[key], 1e-3, 1) for key in ("fct_mean_s", "fct_median_s", "fct_p95_s")),
                num(100 * w["packets_dropped"] / w["packets_sent"] if w["packets_sent"] else 0.0, digits=2),
            )
            for w in web.to_dict("records")
        ),
    )


def links_view(links: pd.DataFrame) -> TableView:
    red = any_nonzero(links, "drops_early") or any_nonzero(links, "marks_ecn")
    return TableView(
        "links",
        [
            "name",
            "dir",
            "rate Mb/s",
            "util %",
            "tx pkts",
            "queue drops",
            *(["early drops", "ECN marks"] if red else []),
            "error drops",
            "queue mean",
            "queue max",
        ],
        (
            (
                link["name"],
                f"{link['src']}→{link['dst']}",
                num(link["rate_bps"], 1e6),
                num(100 * link["utilization"], digits=1),
                link["tx_packets"],
                link["drops_queue"],
                *([link["drops_early"], link["marks_ecn"]] if red else []),
                link["drops_error"],
                num(link["queue_mean_pkts"], digits=1),
                link["queue_max_pkts"],
            )
            for link in links.to_dict("records")
        ),
    )


def classes_view(classes: pd.DataFrame) -> TableView:
    return TableView(
        "classes (utilization of the busiest link direction)",
        ["class", "flows", "throughput Mb/s", "share %", "util %", "per flow Mb/s", "Jain", "loss %"],
        (
            (
                c["class"],
                c["flows"],
                num(c["throughput_bps"], 1e6),
                num(100 * c["share"], digits=1),
                num(100 * c["utilization"], digits=1),
                num(c["per_flow_bps"], 1e6),
                num(c["jain"]),
                num(100 * c["loss_rate"], digits=2),
            )
            for c in classes.to_dict("records")
        ),
    )


def any_nonzero(table: pd.DataFrame, column: str) -> bool:
    """Whether `column` exists and is non-zero somewhere: RED's and ECN's columns are shown only
    when a run used them."""
    return column in table.columns and bool((table[column] != 0).any())
