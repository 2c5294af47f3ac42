"""The per-query summary both incast compare scripts (peers/ns3, peers/htsim) make of each side:
query completion times, port drops per query, marks and resent segments, from the twin's output
(`round_summary`) or from tcpsim's result (`tcpsim_round_summary`)."""

import statistics
from typing import Any

from tcpsim.fct import incast_rounds


def round_summary(qct_s: list[float], drops: list[int], result: dict[str, float]) -> dict[str, float]:
    """Queries completed, QCT mean/min/max (ms), drops per query, and the twin's port marks and
    resent segments (0 where it printed none)."""
    return {
        "rounds": len(qct_s),
        "qct_mean_ms": 1e3 * statistics.fmean(qct_s),
        "qct_min_ms": 1e3 * min(qct_s),
        "qct_max_ms": 1e3 * max(qct_s),
        "drops_per_round": statistics.fmean(drops),
        "marks": int(result.get("port_marks", 0)),
        "resent": int(result.get("resent_segments", 0)),
    }


def tcpsim_round_summary(r: Any, mss: int = 1460) -> dict[str, float | None]:
    """The same summary of a tcpsim incast run (`topologies.incast`, generator "query", port link
    "port"). Resent: the data packets sent beyond each response's `mss`-byte segments when every
    response completed, else None (the count would be meaningless)."""
    qct = incast_rounds(r.transfers, "query")["qct_s"].dropna().to_numpy()
    port = r.links[(r.links["name"] == "port") & (r.links["direction"] == "ab")].iloc[0]
    segments = int((-(-r.transfers["bytes"] // mss)).sum())
    return {
        "rounds": len(qct),
        "qct_mean_ms": 1e3 * qct.mean(),
        "qct_min_ms": 1e3 * qct.min(),
        "qct_max_ms": 1e3 * qct.max(),
        "drops_per_round": int(port["drops_queue"]) / max(1, len(qct)),
        "marks": int(port["marks_ecn"]),
        "resent": int(r.web["packets_sent"].sum()) - segments if bool(r.transfers["completed"].all()) else None,
    }


def resent_cell(value: float | None) -> str:
    """A resent count as a table cell ('–' where it is meaningless)."""
    return "–" if value is None else str(value)
