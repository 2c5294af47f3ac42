"""The parking lot: k bottlenecks in a row, flows crossing all of them against flows crossing
one each (`podlesny` Sec. IV-H, Fig. 11)."""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from tcpsim.topologies.common import draw_rtts, link, ms
from tcpsim.topologies.generated import GeneratedScenario

PODLESNY_POOL: Mapping[str, int] = MappingProxyType({"newreno": 20, "vegas": 20})
"""Each pool of `podlesny` Fig. 11: 20 NewReno and 20 Vegas long-lived flows."""


def parking_lot(
    *,
    hops: int = 5,
    long: Mapping[str, int] = PODLESNY_POOL,
    cross: Mapping[str, int] | Sequence[Mapping[str, int]] = PODLESNY_POOL,
    reverse: Mapping[str, int] = PODLESNY_POOL,
    bottleneck_rate: str = "100Mbps",
    bottleneck_delay_s: float = 0.005,
    access_rate: str = "200Mbps",
    rtt_range_s: tuple[float, float] = (0.060, 0.300),
    buffer_s: float = 0.250,
    queue: str | Mapping[str, Any] = "1BDP",
    mss_bytes: int = 960,
    header_bytes: int = 40,
    duration: str = "60s",
    warmup: str = "5s",
    start_jitter: str = "1s",
    access_queue: str = "10000pkt",
    rtt_seed: int = 0,
    tcp: dict[str, Any] | None = None,
) -> GeneratedScenario:
    """Routers r0 … r<hops> joined by bottlenecks "r<i>-r<i+1>", every host on its own access
    link; three kinds of pools of flows::

        r0 ═════════ r1 ═════════ r2 ═══ … ═══ r<hops>
        long<j>  ──────────────────────────────────▶    across every bottleneck
        cross0.<j> ▶ cross1.<j> ▶  …  cross<hops-1>.<j> ▶    across one bottleneck each
        ◀────────────────────────────────── rev<j>     across every bottleneck, reversed

    Flow f runs from host "f.s" to host "f.d": long and cross0 sources and reverse
    destinations hang off r0; cross<i> sources off r<i> and their destinations off r<i+1>;
    long destinations and reverse sources off r<hops>.

    A pool is a mapping variant → number of flows: `long` (podlesny's pool A, destinations H),
    `cross` (one mapping for every hop, or one per hop: pools B…F with destinations C…G) and
    `reverse` (H → A). The defaults are `podlesny` Fig. 11: five 100 Mb/s bottlenecks of 5 ms,
    200 Mb/s access links, every pool 20 NewReno + 20 Vegas, so each bottleneck carries 40 + 40
    forward flows; 1 KB packets; 60 s with a 5 s warm-up (Sec. IV).

    Each flow's round-trip propagation delay is drawn uniformly from `rtt_range_s` (60…300 ms
    in the paper) with a numpy generator seeded with `rtt_seed` (independent of the run seed);
    the part above its bottlenecks' round trip is split equally between its two access links.
    The bottlenecks' `queue` (any queue spec, in both directions) defaults to 1 BDP with
    `bdp_rtt` = `buffer_s` (the paper's C·250 ms). Flows are named as above; their class is
    their variant.
    """
    if isinstance(hops, bool) or not isinstance(hops, int) or hops < 1:
        raise ValueError(f"hops: {hops!r} must be a whole number >= 1")
    cross_pools = [cross] * hops if isinstance(cross, Mapping) else list(cross)
    if len(cross_pools) != hops:
        raise ValueError(f"cross: {len(cross_pools)} pools given for {hops} hops; give one pool or one per hop")
    pools = [
        ("long", 0, hops, long),
        *((f"cross{i}.", i, i + 1, pool) for i, pool in enumerate(cross_pools)),
        ("rev", hops, 0, reverse),
    ]
    flows: list[tuple[str, str, int, int]] = []  # name, variant, source router, destination router
    for prefix, source, destination, pool in pools:
        if not isinstance(pool, Mapping):
            raise ValueError(
                f"{prefix.rstrip('.')}: {pool!r} is not a pool; give variant → count, e.g. {{'vegas': 20}}"
            )
        variants = []
        for variant, count in pool.items():
            if isinstance(count, bool) or not isinstance(count, int) or count < 0:
                raise ValueError(f"{prefix.rstrip('.')}[{variant!r}]: {count!r} must be a whole number >= 0")
            variants += [variant] * count
        flows += [(f"{prefix}{j}", variant, source, destination) for j, variant in enumerate(variants)]
    longest = max((abs(destination - source) for _, _, source, destination in flows), default=1)
    rtts = draw_rtts(len(flows), rtt_range_s, rtt_seed, 2 * longest * bottleneck_delay_s)
    links = [
        link(f"r{i}-r{i + 1}", f"r{i}", f"r{i + 1}", bottleneck_rate, bottleneck_delay_s, copy.deepcopy(queue))
        for i in range(hops)
    ]
    scenario_flows = []
    for (name, variant, source, destination), rtt in zip(flows, rtts, strict=True):
        access_s = (rtt / 2 - abs(destination - source) * bottleneck_delay_s) / 2
        src, dst = f"{name}.s", f"{name}.d"
        links.append(link(f"{src}-r{source}", src, f"r{source}", access_rate, access_s, access_queue))
        links.append(link(f"r{destination}-{dst}", f"r{destination}", dst, access_rate, access_s, access_queue))
        scenario_flows.append(
            {"name": name, "src": src, "dst": dst, "variant": variant, "start": "0s", "start_jitter": start_jitter}
        )
    return GeneratedScenario(
        {
            "name": f"parking lot, {hops} bottlenecks, {len(flows)} flows",
            "bdp_rtt": ms(buffer_s),
            "duration": duration,
            "warmup": warmup,
            "tcp": {"mss": mss_bytes, "header": header_bytes, **(tcp or {})},
            "links": links,
            "flows": scenario_flows,
        }
    )
