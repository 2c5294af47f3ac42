"""The FCT comparison tables and slowdown figure that the fat-tree compare scripts of peers/ns3
and peers/htsim print and draw: one column per side (tcpsim and the peer's twin), rows of run
counters and then, per size bucket, the number of transfers and the slowdown median and p99
(`tcpsim.fct.fct_table`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pandas as pd
from tcpsim.fct import fct_table, plot_slowdown


def twin_transfer(src: str, dst: str, size: int, start_s: float, end_s: float) -> dict:
    """A transfer a twin reported complete, as a row of tcpsim's transfers table (generator `ws`)."""
    return {
        "generator": "ws",
        "src": src,
        "dst": dst,
        "bytes": size,
        "start_s": start_s,
        "end_s": end_s,
        "fct_s": end_s - start_s,
        "completed": True,
    }


def tcpsim_counts(r, duration: float) -> tuple[pd.DataFrame, dict]:
    """tcpsim's side of a comparison from its `RunResult` `r` of a `duration`-second run: the FCT
    frame of the completed transfers that arrived in the first 80 % (`counted`), and its run
    counters."""
    cutoff = 0.8 * duration
    frame = r.fct()
    counted = frame[frame["start_s"] < cutoff]
    t = r.transfers
    stats = {
        "transfers": len(t),
        "counted": len(counted),
        "unfinished": int((~t["completed"] & (t["start_s"] < cutoff)).sum()),
        "drops": int(r.links["drops_queue"].sum()),
        "marks": int(r.links["marks_ecn"].sum()),
        "resent": int(t["packets_retransmitted"].sum()),
        "timeouts": int(t["timeouts"].sum()),
        "fast recoveries": int(t["fast_retransmits"].sum()),
        # Data packets sent beyond the segments of the bytes delivered: resent segments, plus
        # what unfinished transfers had in flight or not yet delivered (an upper bound).
        "sent_beyond_delivered": int(r.web["packets_sent"].sum() - r.web["bytes_delivered"].sum() / 1460),
    }
    return counted, stats


def print_table(variant: str, columns: Mapping[str, tuple[pd.DataFrame, dict]], counters: Sequence[str]) -> None:
    """A Markdown table of `columns` ({side: (its counted FCT frame, its counters)}): the
    `counters` rows ("–" where a side has none), then per size bucket its transfers and slowdown
    median and p99."""
    print(f"\n### {variant}\n")
    print("| | " + " | ".join(columns) + " |")
    print("|---|" + "---|" * len(columns))
    for key in counters:
        cells = [str(stats.get(key, "–")) for _, stats in columns.values()]
        print(f"| {key} | " + " | ".join(cells) + " |")
    tables = {name: fct_table(frame) for name, (frame, _) in columns.items()}
    buckets = next(iter(tables.values()))["bucket"].tolist()
    for k, bucket in enumerate(buckets):
        for stat in ("count", "median", "p99"):
            cells = []
            for table in tables.values():
                row = table.iloc[k]
                cells.append(str(int(row["transfers"])) if stat == "count" else f"{row[f'slowdown_{stat}']:.3g}")
            label = f"{bucket} transfers" if stat == "count" else f"{bucket} slowdown {stat}"
            print(f"| {label} | " + " | ".join(cells) + " |")


def plot_variants(frames: Mapping[str, Mapping[str, pd.DataFrame]], titles: Mapping[str, str], path: str) -> None:
    """One slowdown-against-size panel per variant ({variant: {side: counted FCT frame}}), each
    titled `titles[variant]`, written to `path`."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(frames), figsize=(6 * len(frames), 4.2), squeeze=False)
    for ax, (variant, by_side) in zip(axes[0], frames.items()):
        plot_slowdown(by_side, ax=ax)
        ax.set_title(titles[variant])
    fig.tight_layout()
    fig.savefig(path, dpi=100)
