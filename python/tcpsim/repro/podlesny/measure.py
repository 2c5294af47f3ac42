"""The paper's metrics (Sec. IV) from one run: each class's average utilization of the bottleneck,
the loss rate of its flows, and the relative fairness index.

"Utilization achieved by NewReno flows" is read as the share of the bottleneck's capacity the
class's data packets occupied — what ns-2's link and flow monitors count: every data packet of
the class that crossed the bottleneck (sent and not dropped there, retransmissions included), as
1040 bytes on the wire. In a dumbbell where nothing is dropped past the bottleneck (on the links
from the routers to the receivers), a packet a sender sent and the network did not drop crossed
the bottleneck — a drop on the sender's access link happened before it —, so this is (sent −
dropped) per flow over the measurement window. The payload the receivers got in order
("delivered") is kept beside it (it leaves out retransmissions of data the receiver already had:
after a timeout NewReno resends its whole window).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from tcpsim.repro.podlesny.common import WIRE_BYTES, WIRE_PER_PAYLOAD

if TYPE_CHECKING:
    from tcpsim.result import RunResult

NEWRENO, VEGAS = "newreno", "vegas"
CLASS_LABELS = {NEWRENO: "NewReno", VEGAS: "Vegas"}


def check_no_drops_past_the_bottleneck(r: RunResult) -> None:
    """Fail if a link from a router (r1, r2) to a host dropped a packet: a data packet dropped
    there crossed the bottleneck, which (sent − dropped) would not count."""
    links = r.links
    past = links[(links["name"] != "bottleneck") & links["src"].isin(["r1", "r2"])]
    drops = int(past["drops_queue"].sum())
    if drops:
        raise ValueError(f"{drops} packets dropped past the bottleneck: (sent − dropped) would not count them")


def class_use(r: RunResult, capacity_bps: float, directions: int) -> dict[str, dict[str, float]]:
    """Per variant: `utilization` (its data packets that crossed the bottleneck, over the
    capacity of the `directions` link directions its flows use, each direction carrying its own
    flows), `delivered` (the same with in-order payload as 1040-byte packets), `loss_rate`
    (dropped / sent data packets), `flows`."""
    check_no_drops_past_the_bottleneck(r)
    capacity_bits = capacity_bps * directions * float(r.meta["window_s"])
    out: dict[str, dict[str, float]] = {}
    for variant, rows in r.flows.groupby("variant", sort=False):
        sent, dropped = float(rows["packets_sent"].sum()), float(rows["packets_dropped"].sum())
        out[str(variant)] = {
            "utilization": (sent - dropped) * WIRE_BYTES * 8 / capacity_bits,
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
    with k = 1, as counted at the end of the run), and the link's busy fraction. NaN for the
    split without an RD queue."""
    rows = r.links[(r.links["name"] == link) & ((r.links["direction"] == direction) if direction else True)]
    busy = float(rows["utilization"].mean())
    if "r_bytes_served" not in rows or rows["r_bytes_served"].isna().all():
        return {"r_served": math.nan, "r_counted": math.nan, "busy": busy}
    served = float(rows["r_bytes_served"].sum()), float(rows["d_bytes_served"].sum())
    counted = float(rows["r_flows"].sum()), float(rows["d_flows"].sum())
    return {"r_served": served[0] / sum(served), "r_counted": counted[0] / sum(counted), "busy": busy}


def fairness_index(use: dict[str, dict[str, float]], metric: str = "utilization") -> float:
    """The relative fairness index (Sec. IV): Vegas's per-flow `metric` over NewReno's."""
    per_flow = {v: use[v][metric] / use[v]["flows"] for v in (NEWRENO, VEGAS)}
    return per_flow[VEGAS] / per_flow[NEWRENO] if per_flow[NEWRENO] > 0 else math.nan
