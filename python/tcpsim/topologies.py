"""Generators of user-format scenarios for topologies with many hosts.

A TOML file is the right tool for a handful of links; a dumbbell with hundreds of flows of
different RTTs is better generated. The generators return plain scenario dicts, so they can
be edited, saved as TOML, swept and run like any file.
"""

from __future__ import annotations

from typing import Any

import numpy as np


def dumbbell(
    *,
    forward: int,
    reverse: int = 0,
    bottleneck_rate: str = "100Mbps",
    bottleneck_delay_s: float = 0.010,
    access_rate: str = "200Mbps",
    rtt_range_s: tuple[float, float] = (0.020, 0.300),
    buffer_s: float = 0.250,
    variant: str = "newreno",
    mss_bytes: int = 960,
    header_bytes: int = 40,
    duration: str = "60s",
    warmup: str = "0s",
    start_jitter: str = "1s",
    access_queue: str = "10000pkt",
    rtt_seed: int = 0,
    tcp: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Dumbbell r1 —bottleneck— r2 with one access link per host.

    `forward` flows go left→right, `reverse` flows right→left over the same bottleneck.
    Each flow's round-trip propagation delay is drawn uniformly from `rtt_range_s` (numpy
    generator seeded with `rtt_seed`, independent of the run seed, so the topology is fixed
    across replications); the part above 2·bottleneck_delay is split equally between its two
    access links. The bottleneck buffer holds capacity × `buffer_s` bytes (the `podlesny`
    rule C·250 ms).
    """
    low, high = rtt_range_s
    if not 0 < low <= high:
        raise ValueError(f"rtt_range_s: {rtt_range_s} must satisfy 0 < low <= high")
    if low < 2 * bottleneck_delay_s:
        raise ValueError(f"rtt_range_s: low {low}s is below twice the bottleneck delay ({2 * bottleneck_delay_s}s)")
    rng = np.random.default_rng(rtt_seed)
    rtts = rng.uniform(low, high, forward + reverse)
    links: list[dict[str, Any]] = [
        {
            "name": "bottleneck",
            "a": "r1",
            "b": "r2",
            "rate": bottleneck_rate,
            "delay": f"{bottleneck_delay_s * 1e3:.6f}ms",
            "queue": "1BDP",
        },
    ]
    flows: list[dict[str, Any]] = []
    for i, rtt in enumerate(rtts):
        is_forward = i < forward
        access_ms = (rtt / 2 - bottleneck_delay_s) / 2 * 1e3
        src, dst = (f"s{i}", f"d{i}")
        left, right = (src, dst) if is_forward else (dst, src)
        links.append(
            {
                "name": f"{left}-r1",
                "a": left,
                "b": "r1",
                "rate": access_rate,
                "delay": f"{access_ms:.6f}ms",
                "queue": access_queue,
            }
        )
        links.append(
            {
                "name": f"r2-{right}",
                "a": "r2",
                "b": right,
                "rate": access_rate,
                "delay": f"{access_ms:.6f}ms",
                "queue": access_queue,
            }
        )
        flows.append(
            {
                "name": f"{'fwd' if is_forward else 'rev'}{i}",
                "src": src,
                "dst": dst,
                "variant": variant,
                "start": "0s",
                "start_jitter": start_jitter,
            }
        )
    return {
        "name": f"dumbbell {forward}+{reverse} flows",
        "bdp_rtt": f"{buffer_s * 1e3:.6f}ms",
        "duration": duration,
        "warmup": warmup,
        "tcp": {"mss": mss_bytes, "header": header_bytes, **(tcp or {})},
        "links": links,
        "flows": flows,
    }
