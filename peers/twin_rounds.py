"""The per-query summary both incast compare scripts (peers/ns3, peers/htsim) make of their twin's
output: query completion times, port drops per query and the twin's RESULT counters."""

import statistics


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
