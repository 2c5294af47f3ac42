"""The dumbbell: many flows with their own round-trip times over one shared bottleneck, in
both directions (`podlesny` Sec. IV, Fig. 3; `macura` Sec. 5.2, Fig. 2)."""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from tcpsim.topologies.common import draw_rtts, link, ms, per_flow
from tcpsim.topologies.generated import GeneratedScenario


def dumbbell(
    *,
    forward: int,
    reverse: int = 0,
    bottleneck_rate: str = "100Mbps",
    bottleneck_delay_s: float = 0.010,
    access_rate: str = "200Mbps",
    rtt_range_s: tuple[float, float] = (0.020, 0.300),
    rtts_s: Sequence[float] | None = None,
    buffer_s: float = 0.250,
    queue: str | Mapping[str, Any] = "1BDP",
    bottleneck_queue_both_directions: bool = True,
    variant: str | Sequence[str] = "newreno",
    reverse_variant: str | Sequence[str] | None = None,
    classes: str | Sequence[str] | None = None,
    reverse_on: Sequence[tuple[str, str]] | None = None,
    mss_bytes: int = 960,
    header_bytes: int = 40,
    duration: str = "60s",
    warmup: str = "0s",
    start_jitter: str = "1s",
    access_queue: str = "10000pkt",
    rtt_seed: int = 0,
    tcp: dict[str, Any] | None = None,
) -> GeneratedScenario:
    """Dumbbell r1 —bottleneck— r2 with one access link per host::

        s0 ──┐                              ┌── d0      forward flows fwd<i>: s<i> → d<i>
        s1 ──┤                              ├── d1      (i < forward)
             r1 ════════ bottleneck ════════ r2
        d5 ──┤                              ├── s5      reverse flows rev<i>: s<i> → d<i>
        d6 ──┘                              └── s6      (forward <= i < forward + reverse)

    Each flow's round-trip propagation delay is `rtts_s[i]` (forward flows, then reverse ones)
    or else drawn uniformly from `rtt_range_s` (numpy generator seeded with `rtt_seed`,
    independent of the run seed, so the topology is fixed across replications); the part
    above 2·bottleneck_delay is split equally between its two access links.

    The bottleneck's `queue` is any queue spec of the scenario format ("1BDP", a drop-tail or
    RED table), in both directions; with `bottleneck_queue_both_directions = False` only
    r1 → r2 gets it and r2 → r1 keeps a drop-tail of 1 BDP. BDP limits hold capacity ×
    `buffer_s` bytes (the `podlesny` rule C·250 ms).

    `variant` is one name or one per flow (forward, then reverse), unless `reverse_variant`
    (one name or one per reverse flow) sets the reverse flows', when `variant` covers the
    forward flows only. `classes` labels the flows for the per-class metrics the same way
    (default: the variant). `reverse_on` makes the reverse flows ON/OFF: persistent TCP that
    sends only inside the listed [start, end) intervals (`macura` Sec. 5.1's reverse traffic,
    on during [250 s, 500 s] and [750 s, 1000 s]).
    """
    count = forward + reverse
    if rtts_s is None:
        rtts = draw_rtts(count, rtt_range_s, rtt_seed, 2 * bottleneck_delay_s)
    else:
        rtts = np.asarray(per_flow(list(rtts_s), count, "rtts_s"), dtype=float)
        if np.any(rtts < 2 * bottleneck_delay_s):
            raise ValueError(f"rtts_s: {min(rtts)}s is below twice the bottleneck delay ({2 * bottleneck_delay_s}s)")
    if reverse_variant is None:
        variants = per_flow(variant, count, "variant")
    else:
        variants = per_flow(variant, forward, "variant") + per_flow(reverse_variant, reverse, "reverse_variant")
    labels = per_flow(classes, count, "classes") if classes is not None else [None] * count
    bottleneck = link("bottleneck", "r1", "r2", bottleneck_rate, bottleneck_delay_s, copy.deepcopy(queue))
    if not bottleneck_queue_both_directions:
        bottleneck |= {"queue": "1BDP", "ab": {"queue": copy.deepcopy(queue)}}
    links: list[dict[str, Any]] = [bottleneck]
    flows: list[dict[str, Any]] = []
    for i, rtt in enumerate(rtts):
        is_forward = i < forward
        access_s = (rtt / 2 - bottleneck_delay_s) / 2
        src, dst = (f"s{i}", f"d{i}")
        left, right = (src, dst) if is_forward else (dst, src)
        links.append(link(f"{left}-r1", left, "r1", access_rate, access_s, access_queue))
        links.append(link(f"r2-{right}", "r2", right, access_rate, access_s, access_queue))
        flow: dict[str, Any] = {
            "name": f"{'fwd' if is_forward else 'rev'}{i}",
            "src": src,
            "dst": dst,
            "variant": variants[i],
        }
        if reverse_on is not None and not is_forward:
            flow["on"] = [list(interval) for interval in reverse_on]
        else:
            flow |= {"start": "0s", "start_jitter": start_jitter}
        if labels[i] is not None:
            flow["class"] = labels[i]
        flows.append(flow)
    return GeneratedScenario(
        {
            "name": f"dumbbell {forward}+{reverse} flows",
            "bdp_rtt": ms(buffer_s),
            "duration": duration,
            "warmup": warmup,
            "tcp": {"mss": mss_bytes, "header": header_bytes, **(tcp or {})},
            "links": links,
            "flows": flows,
        }
    )
