"""Flow-completion-time metrics of web and data-centre workloads, from a result's `transfers`
table: per-transfer FCT and slowdown, tables by size bucket, queue occupancy per link
direction, incast rounds, and a plot of slowdown against size.

**FCT** is the engine's: from the transfer's first segment leaving the sender to its receiver
holding every byte (Dukkipati & McKeown, SIGCOMM CCR 2006); with `tcp.handshake` on, from its
SYN. The final ACK's return is not counted (docs/architecture.md).

**Ideal FCT** is the same interval for the transfer alone on the empty network with no
window limit: every segment sent back to back, so it is

    one-way propagation delay of the path
    + the wire bytes (payload + one header per segment, ceil(bytes / mss) segments) at the
      path's bottleneck rate
    + the last segment's serialization on every other hop (store and forward)
    + with `tcp.handshake` on, the SYN's and SYN-ACK's round trip: each hop's delay twice and
      the two headers' serialization on each hop.

A one-segment transfer alone on the network completes in exactly its ideal FCT (slowdown 1);
a longer one, in slow start, takes more. This is HPCC's convention (Li et al., SIGCOMM 2019;
alibaba-edu/High-Precision-Congestion-Control, `simulation/scratch/third.cc`, `qp_finish`:
standalone FCT = base RTT + size with per-packet headers at the pair's bottleneck rate) made
one-way, because tcpsim's FCT ends at the receiver while HPCC's ends with the last ACK at the
sender; pFabric (Alizadeh et al., SIGCOMM 2013, Sec. 5) likewise normalizes by "the best
possible completion time" of the size on an empty network. **Slowdown** = FCT / ideal FCT
(not floored at 1; the ideal is a lower bound for the engine up to nanosecond rounding).

Paths are the engine's shortest-path routes (`tcpsim.routing`, same tie-break); under ECMP a
transfer may take another path of the same hop count, exact only where links of equal hop count
have equal rates and delays (as in a fat tree's tiers). The ideal needs the canonical scenario the result ran (`RunResult.fct` has it for a fresh run).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from tcpsim.routing import Routes

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.axes import Axes

SIZE_EDGES = (100_000, 10_000_000)
"""Default bucket edges in bytes: < 100 KB (short), 100 KB–10 MB, >= 10 MB (long), as DCTCP
and pFabric's evaluations split flows (DCTCP Sec. 4.3: query/short messages vs background)."""


def _path_hops(canonical: Mapping[str, Any], routes: Routes, src: str, dst: str) -> list[tuple[int, int]]:
    """(rate_bps, delay_ns) of each link on the engine's shortest path from `src` to `dst`."""
    path = routes.path(src, dst)
    if not path:
        raise ValueError(f"no path from node {src} to node {dst}")
    links = canonical["links"]
    return [(links[link]["rate_bps"], links[link]["delay_ns"]) for link, _ in path]


def _routes(canonical: Mapping[str, Any]) -> Routes:
    """The engine's shortest-path routes over the scenario's links (`tcpsim.routing`)."""
    names = canonical["nodes"]
    rows = [
        {"link": k, "direction": "ab", "src": names[link["a"]], "dst": names[link["b"]]}
        for k, link in enumerate(canonical["links"])
    ]
    return Routes(rows)


def ideal_fct_s(
    size_bytes: int, mss: int, header: int, hops: Sequence[tuple[int, int]], handshake_ack: int | None = None
) -> float:
    """The ideal FCT (module doc) of `size_bytes` in segments of `mss` payload and `header`
    bytes over links of (rate_bps, delay_ns) `hops`; `handshake_ack`, the SYN-ACK's size when
    the connection opens with a handshake (the way back taken to be the same links)."""
    segments = max(1, math.ceil(size_bytes / mss))
    wire = size_bytes + segments * header
    last = size_bytes - (segments - 1) * mss + header
    bottleneck = min(range(len(hops)), key=lambda h: hops[h][0])
    propagation = sum(delay for _, delay in hops) / 1e9
    forwarding = sum(8 * last / rate for h, (rate, _) in enumerate(hops) if h != bottleneck)
    handshake = 0.0
    if handshake_ack is not None:
        handshake = sum(2 * delay / 1e9 + 8 * (header + handshake_ack) / rate for rate, delay in hops)
    return handshake + propagation + 8 * wire / hops[bottleneck][0] + forwarding


def fct_frame(transfers: pd.DataFrame, canonical: Mapping[str, Any]) -> pd.DataFrame:
    """The completed transfers of `transfers` (a result's table) with `ideal_fct_s` and
    `slowdown` (= fct_s / ideal_fct_s) added; `canonical` is the engine scenario the result ran
    (`Scenario.to_engine()`)."""
    import numpy as np

    done = transfers[transfers["completed"]].copy()
    routes = _routes(canonical)
    generators = {g["name"]: g["tcp"] for g in canonical["web"]}
    paths: dict[tuple[str, str], list[tuple[int, int]]] = {}
    ideal = np.empty(len(done))
    for k, (generator, src, dst, size) in enumerate(zip(done["generator"], done["src"], done["dst"], done["bytes"])):
        ends = (str(src), str(dst))
        if ends not in paths:
            paths[ends] = _path_hops(canonical, routes, *ends)
        tcp = generators[generator]
        handshake_ack = (tcp.get("ack_bytes") or tcp["header_bytes"]) if tcp.get("handshake") else None
        ideal[k] = ideal_fct_s(int(size), tcp["mss_bytes"], tcp["header_bytes"], paths[ends], handshake_ack)
    done["ideal_fct_s"] = ideal
    done["slowdown"] = done["fct_s"] / ideal
    return done.reset_index(drop=True)


def _size_label(size: int) -> str:
    """100_000 → "100KB", 10**7 → "10MB", 1500 → "1500B" (decimal units, exact only)."""
    for unit, scale in (("GB", 10**9), ("MB", 10**6), ("KB", 10**3)):
        if size >= scale and size % scale == 0:
            return f"{size // scale}{unit}"
    return f"{size}B"


def size_buckets(edges: Sequence[int] = SIZE_EDGES) -> list[str]:
    """Labels of the buckets `edges` make: "<100KB", "100KB-10MB", ">=10MB"."""
    names = [_size_label(edge) for edge in edges]
    return [f"<{names[0]}", *(f"{a}-{b}" for a, b in zip(names, names[1:])), f">={names[-1]}"]


def fct_table(frame: pd.DataFrame, edges: Sequence[int] = SIZE_EDGES) -> pd.DataFrame:
    """Per size bucket of `frame` (`fct_frame`'s): transfers, FCT mean/median/p99 (s) and
    slowdown mean/median/p99. Quantiles are numpy's default (linear between order statistics);
    an empty bucket has NaNs."""
    import numpy as np
    import pandas as pd

    edges = sorted(edges)
    labels = size_buckets(edges)
    bucket = np.searchsorted(np.asarray(edges), frame["bytes"].to_numpy(), side="right")
    rows = []
    for k, label in enumerate(labels):
        part = frame[bucket == k]
        row: dict[str, Any] = {"bucket": label, "transfers": len(part)}
        for column, name in (("fct_s", "fct"), ("slowdown", "slowdown")):
            values = part[column].to_numpy()
            empty = len(values) == 0
            row[f"{name}_mean"] = np.nan if empty else float(values.mean())
            row[f"{name}_median"] = np.nan if empty else float(np.quantile(values, 0.5))
            row[f"{name}_p99"] = np.nan if empty else float(np.quantile(values, 0.99))
        rows.append(row)
    return pd.DataFrame(rows)


def queue_table(
    links: pd.DataFrame, queue: pd.DataFrame | None, quantiles: Sequence[float] = (0.5, 0.99)
) -> pd.DataFrame:
    """Per link direction: drops (`drops_queue`), ECN marks (`marks_ecn`), mean and maximum
    queue (packets) from the `links` table, and, if the queue trace `queue` was recorded
    (`trace.queue = true`, every change: `interval = 0`), time-weighted quantiles of the
    queue in packets over the trace (each length weighted by how long it lasted)."""
    import numpy as np

    table = links[["name", "direction", "drops_queue", "marks_ecn", "queue_mean_pkts", "queue_max_pkts"]].copy()
    for q in quantiles:
        column = f"queue_p{round(q * 100):d}_pkts"
        values = []
        for name, direction in zip(table["name"], table["direction"]):
            if queue is None or queue.empty:
                values.append(np.nan)
                continue
            rows = queue[(queue["link"] == name) & (queue["direction"] == direction)]
            if len(rows) < 2:
                values.append(np.nan)
                continue
            times = rows["time_s"].to_numpy()
            weights = np.diff(times)
            lengths = rows["packets"].to_numpy()[:-1]
            order = np.argsort(lengths, kind="stable")
            cumulative = np.cumsum(weights[order])
            if cumulative[-1] <= 0:
                values.append(np.nan)
                continue
            values.append(float(lengths[order][np.searchsorted(cumulative, q * cumulative[-1])]))
        table[column] = values
    return table


def incast_rounds(transfers: pd.DataFrame, generator: str) -> pd.DataFrame:
    """Rounds of the barrier generator `generator`: its transfers grouped by start (a round's
    transfers all start at once); per round its start, the query completion time `qct_s`
    (last end − start, NaN if a transfer did not complete), bytes, and goodput
    (bytes·8 / qct)."""
    import pandas as pd

    mine = transfers[transfers["generator"] == generator]
    rows = []
    for k, (start, group) in enumerate(mine.groupby("start_s", sort=True)):
        qct = group["end_s"].max() - start if group["completed"].all() else float("nan")
        size = int(group["bytes"].sum())
        rows.append(
            {
                "round": k,
                "start_s": start,
                "senders": len(group),
                "bytes": size,
                "qct_s": qct,
                "goodput_bps": size * 8 / qct if qct > 0 else float("nan"),
            }
        )
    return pd.DataFrame(rows, columns=["round", "start_s", "senders", "bytes", "qct_s", "goodput_bps"])


def plot_slowdown(frames: Mapping[str, pd.DataFrame], ax: Axes | None = None, bins: int = 20) -> Axes:
    """Slowdown against size: per label of `frames` (`fct_frame`'s), the median and p99 of the
    slowdown in `bins` log-spaced size bins (empty bins skipped), log-log axes."""
    import matplotlib.pyplot as plt
    import numpy as np

    if ax is None:
        _, ax = plt.subplots(figsize=(6, 4))
    sizes = [f["bytes"].to_numpy() for f in frames.values() if len(f)]
    if sizes:
        everything = np.concatenate(sizes)
        edges = np.geomspace(max(everything.min(), 1), everything.max() + 1, bins + 1)
        for label, frame in frames.items():
            k = np.searchsorted(edges, frame["bytes"].to_numpy(), side="right") - 1
            centres, median, p99 = [], [], []
            for b in range(bins):
                values = frame["slowdown"].to_numpy()[k == b]
                if len(values):
                    centres.append(math.sqrt(edges[b] * edges[b + 1]))
                    median.append(np.quantile(values, 0.5))
                    p99.append(np.quantile(values, 0.99))
            (line,) = ax.plot(centres, median, marker="o", label=f"{label} median")
            ax.plot(centres, p99, marker="^", linestyle="--", color=line.get_color(), label=f"{label} p99")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("transfer size (bytes)")
    ax.set_ylabel("FCT slowdown")
    ax.legend(fontsize="small")
    return ax
