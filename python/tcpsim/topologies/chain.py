"""`macura`'s multi-bottleneck chain: one connection across N hops, each hop also loaded by
one-hop NewReno cross traffic (`macura` Sec. 5.3, "Multi bottleneck scenario", Fig. 3)."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from tcpsim.topologies.common import link, ms
from tcpsim.topologies.generated import GeneratedScenario


def chain(
    *,
    hops: int,
    c1_variant: str = "newreno",
    c1_start: str = "10s",
    cross_variant: str = "newreno",
    reverse_cross: bool = True,
    hop_rate: str = "10Mbps",
    hop_delay_s: float = 0.010,
    access_rate: str = "100Mbps",
    access_delay_s: float = 0.020,
    queue: str | Mapping[str, Any] = "125pkt",
    buffer_s: float = 0.150,
    mss_bytes: int = 1460,
    header_bytes: int = 40,
    duration: str = "1000s",
    warmup: str = "0s",
    cross_start_jitter: str = "0s",
    tcp: dict[str, Any] | None = None,
) -> GeneratedScenario:
    """Routers r0 … r<hops> joined by hop links "r<i>-r<i+1>"; every host on its own
    entry/exit link::

        C1.s                                                         C1.d
          └─ r0 ══════ r1 ══════ r2 ══ … ══ r<hops-1> ══════ r<hops> ─┘
        C1:            ───────────────────────────────────────▶  across all hops
        hop 0:  C2 ▶ , ◀ C3    hop 1:  C4 ▶ , ◀ C5    …    hop i:  C<2i+2> ▶ , ◀ C<2i+3>

    C1 (variant `c1_variant`, persistent, starting at `c1_start`: 10 s in the paper) crosses
    all N = `hops` hops; the 2N cross-traffic sources C2 … C<2N+1> (`cross_variant`: NewReno in
    the paper) are always on and each crosses one hop: C<2i+2> from r<i> to r<i+1>, C<2i+3>
    from r<i+1> back to r<i>, so every hop carries cross traffic in both directions
    (`reverse_cross = False` sends both of a hop's sources forward instead: the paper's text
    says only "over every single hop"). Flow C<k> runs from host "C<k>.s" to "C<k>.d".

    The paper gives entry/exit links of 100 Mb/s with 20 ms and router queues of 125 packets,
    "the bandwidth delay product of a typical RTT of 150 ms", which with 1500-byte packets
    (`mss_bytes` + `header_bytes`) means 10 Mb/s hops; their 10 ms delay is assumed (the text
    does not state it). `queue` is every link's queue (any queue spec; hosts' queues never fill,
    their links being ten times faster than the hops'); "xBDP" limits use `buffer_s` = 150 ms.
    C1's round trip is 2·(2·20 ms + N·10 ms), a cross source's 2·(2·20 ms + 10 ms) = 100 ms.
    """
    if isinstance(hops, bool) or not isinstance(hops, int) or hops < 1:
        raise ValueError(f"hops: {hops!r} must be a whole number >= 1")
    links = [
        link(f"r{i}-r{i + 1}", f"r{i}", f"r{i + 1}", hop_rate, hop_delay_s, copy.deepcopy(queue)) for i in range(hops)
    ]
    paths = [("C1", c1_variant, 0, hops)]
    for i in range(hops):
        paths.append((f"C{2 * i + 2}", cross_variant, i, i + 1))
        paths.append((f"C{2 * i + 3}", cross_variant, *((i + 1, i) if reverse_cross else (i, i + 1))))
    flows = []
    for name, variant, source, destination in paths:
        src, dst = f"{name}.s", f"{name}.d"
        links.append(link(f"{src}-r{source}", src, f"r{source}", access_rate, access_delay_s, copy.deepcopy(queue)))
        links.append(
            link(f"r{destination}-{dst}", f"r{destination}", dst, access_rate, access_delay_s, copy.deepcopy(queue))
        )
        start = {"start": c1_start} if name == "C1" else {"start": "0s", "start_jitter": cross_start_jitter}
        flows.append({"name": name, "src": src, "dst": dst, "variant": variant, **start})
    return GeneratedScenario(
        {
            "name": f"macura multi-hop chain, {hops} hops, C1 {c1_variant}",
            "bdp_rtt": ms(buffer_s),
            "duration": duration,
            "warmup": warmup,
            "tcp": {"mss": mss_bytes, "header": header_bytes, **(tcp or {})},
            "links": links,
            "flows": flows,
        }
    )
