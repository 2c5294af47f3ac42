"""The paper's metrics (Sec. IV) from one run: each class's average utilization of the bottleneck,
the loss rate of its flows, and the relative fairness index.

"Utilization achieved by NewReno flows" is read as the class's part of the bottleneck's link
utilization: the share of its capacity that all of the class's packets occupied — the data
packets of its flows and the ACKs of its flows of the other direction, each with its 40-byte
header —, what an ns-2 flow monitor on the link counts for the class's flows. The paper's text
decides it: "The performance metrics for average link utilization and average packet loss are
calculated using all but the first 5 seconds (warmup)" (Sec. IV) names the metric a link
utilization, and "the utilizations of NewReno and Vegas flows are 74% and 24%, respectively"
(Sec. IV-A) sums to 98 % of the link, which its data packets alone cannot occupy: each
direction carries the other direction's ACKs too (one 40-byte ACK per 1040-byte data packet,
ns-2's TCPSink acknowledging every packet), so data fill at most 1040/1080 = 96.3 % of a busy
link.

With RD at the bottleneck its R and D queues count every packet they serve by class (NewReno in
R, Vegas in D); without, a class's packets are its data packets that crossed the bottleneck
(sent and not dropped there, retransmissions included, 1040 bytes each) plus its part of the
other bytes the link carried (the ACKs), shared in proportion to the data packets crossing,
since every receiver acknowledges the same way. In a dumbbell where nothing is dropped past the
bottleneck (on the links from the routers to the receivers), a packet a sender sent and the
network did not drop crossed the bottleneck — a drop on the sender's access link happened before
it —, so a class's data packets are (sent − dropped) per flow over the measurement window.

Beside it, as alternative readings: the data packets alone ("data", tcpsim's main reading until
the sum above decided it) and the payload the receivers got in order ("delivered", which leaves
out retransmissions of data the receiver already had: after a timeout NewReno resends its whole
window).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from tcpsim.repro.podlesny.common import WIRE_BYTES, WIRE_PER_PAYLOAD

if TYPE_CHECKING:
    from tcpsim.result import RunResult

NEWRENO, VEGAS = "newreno", "vegas"
CLASS_LABELS = {NEWRENO: "NewReno", VEGAS: "Vegas"}
RD_CLASS = {NEWRENO: "r", VEGAS: "d"}
"""Each variant's RD queue (Sec. III; the scenario layer's default class marks)."""


def check_no_drops_past_the_bottleneck(r: RunResult) -> None:
    """Fail if a link from a router (r1, r2) to a host dropped a packet: a data packet dropped
    there crossed the bottleneck, which (sent − dropped) would not count."""
    links = r.links
    past = links[(links["name"] != "bottleneck") & links["src"].isin(["r1", "r2"])]
    drops = int(past["drops_queue"].sum())
    if drops:
        raise ValueError(f"{drops} packets dropped past the bottleneck: (sent − dropped) would not count them")


def class_bytes(r: RunResult, crossed: dict[str, float]) -> dict[str, float]:
    """Per variant, the bytes of all its packets (data and ACKs) the bottleneck carried in the
    window, given the data packets of each that crossed it (`crossed`): RD's per-class bytes
    served where the bottleneck is RD, else the data bytes plus the link's other bytes shared in
    proportion to the data packets."""
    link = r.links[r.links["name"] == "bottleneck"]
    if "r_bytes_served" in link and not link["r_bytes_served"].isna().any():
        return {v: float(link[f"{RD_CLASS[v]}_bytes_served"].sum()) for v in crossed}
    data = {v: n * WIRE_BYTES for v, n in crossed.items()}
    other = max(float(link["tx_bytes"].sum()) - sum(data.values()), 0.0)
    total = sum(crossed.values())
    return {v: data[v] + (other * crossed[v] / total if total else 0.0) for v in crossed}


def class_use(r: RunResult, capacity_bps: float, directions: int) -> dict[str, dict[str, float]]:
    """Per variant: `utilization` (all its packets that crossed the bottleneck, data and ACKs,
    `class_bytes`, over the capacity of the `directions` link directions its flows use), `data`
    (its data packets alone), `delivered` (its in-order payload as 1040-byte packets),
    `loss_rate` (dropped / sent data packets), `flows`."""
    check_no_drops_past_the_bottleneck(r)
    capacity_bits = capacity_bps * directions * float(r.meta["window_s"])
    crossed = {
        str(v): float(rows["packets_sent"].sum() - rows["packets_dropped"].sum())
        for v, rows in r.flows.groupby("variant", sort=False)
    }
    carried = class_bytes(r, crossed)
    out: dict[str, dict[str, float]] = {}
    for variant, rows in r.flows.groupby("variant", sort=False):
        sent, dropped = float(rows["packets_sent"].sum()), float(rows["packets_dropped"].sum())
        out[str(variant)] = {
            "utilization": carried[str(variant)] * 8 / capacity_bits,
            "data": (sent - dropped) * WIRE_BYTES * 8 / capacity_bits,
            "delivered": float(rows["throughput_bps"].sum())
            * WIRE_PER_PAYLOAD
            * float(r.meta["window_s"])
            / capacity_bits,
            "loss_rate": dropped / sent if sent else math.nan,
            "flows": float(len(rows)),
        }
    return out


def rd_split(r: RunResult, link: str = "bottleneck", direction: str | None = None) -> dict[str, float]:
    """How RD split a link (one `direction`, "ab" or "ba", or both together): R's part of the
    bytes it served, R's part of the flows it counted (n_R/(n_R + n_D), the share Fig. 2 aims at
    with k = 1, as counted at the end of the run, and averaged over the window), the counts per
    link direction averaged over the window (`n_r`, `n_d`), and the link's busy fraction. NaN for
    the split without an RD queue."""
    rows = r.links[(r.links["name"] == link) & ((r.links["direction"] == direction) if direction else True)]
    busy = float(rows["utilization"].mean())
    nan = {k: math.nan for k in ("r_served", "r_counted", "r_counted_mean", "n_r", "n_d")}
    if "r_bytes_served" not in rows or rows["r_bytes_served"].isna().all():
        return nan | {"busy": busy}
    served = float(rows["r_bytes_served"].sum()), float(rows["d_bytes_served"].sum())
    counted = float(rows["r_flows"].sum()), float(rows["d_flows"].sum())
    mean = float(rows["r_flows_mean"].mean()), float(rows["d_flows_mean"].mean())
    return {
        "r_served": served[0] / sum(served),
        "r_counted": counted[0] / sum(counted),
        "r_counted_mean": mean[0] / sum(mean),
        "n_r": mean[0],
        "n_d": mean[1],
        "busy": busy,
    }


def fairness_index(use: dict[str, dict[str, float]], metric: str = "utilization") -> float:
    """The relative fairness index (Sec. IV): Vegas's per-flow `metric` over NewReno's."""
    per_flow = {v: use[v][metric] / use[v]["flows"] for v in (NEWRENO, VEGAS)}
    return per_flow[VEGAS] / per_flow[NEWRENO] if per_flow[NEWRENO] > 0 else math.nan
