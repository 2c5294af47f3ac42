"""TCP incast (Alizadeh et al., "Data Center TCP (DCTCP)", SIGCOMM 2010, Sec. 4.2.1): an
aggregator asks `senders` workers for a response each and waits for all of them before the next
query; the responses converge on the one switch port in front of the aggregator::

    w0 ──┐
    w1 ──┼── tor ══ port ══ agg      workers answer in barrier-synchronised rounds
    …  ──┘

Defaults are the paper's basic incast: every link 1 Gb/s, 25 µs one way (base RTT 100 µs), the
port's static buffer 100 packets, 1 MB per query split over the workers.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from tcpsim.topologies.common import ms
from tcpsim.topologies.generated import GeneratedScenario

QUERY_BYTES = 1_000_000
"""The paper's query: 1 MB in all, 1 MB / n from each of n workers."""


def incast(
    *,
    senders: int,
    rate: str = "1Gbps",
    delay_s: float = 25e-6,
    port_queue: str | Mapping[str, Any] = "100pkt",
    queue: str = "1000pkt",
    variant: str = "newreno",
    response_bytes: int | None = None,
    rounds: int = 10,
    gap: str = "0s",
    duration: str = "5s",
    tcp: Mapping[str, Any] | None = None,
) -> GeneratedScenario:
    """Workers `w0` … `w<senders-1>` behind router `tor`, whose link `port` leads to the
    aggregator `agg`; `port_queue` is that port's queue towards the aggregator (a drop-tail
    limit or any queue table, e.g. DCTCP's `{kind = "step", limit = "100pkt", threshold =
    "20pkt"}`), `queue` every other queue. Each of `rounds` rounds every worker sends
    `response_bytes` (default 1 MB / `senders`) with `variant`; the next round starts `gap`
    after the last response of the previous one is received. The web generator is named
    `query`: `r.incast_rounds("query")` gives each round's completion time and goodput."""
    if isinstance(senders, bool) or not isinstance(senders, int) or senders < 1:
        raise ValueError(f"senders: {senders!r} must be a whole number >= 1")
    workers = [f"w{i}" for i in range(senders)]
    delay = ms(delay_s)
    links = [{"name": w, "a": w, "b": "tor", "rate": rate, "delay": delay, "queue": queue} for w in workers]
    links.append(
        {
            "name": "port",
            "a": "tor",
            "b": "agg",
            "rate": rate,
            "delay": delay,
            "ab": {"queue": copy.deepcopy(port_queue)},
            "ba": {"queue": queue},
        }
    )
    size = response_bytes if response_bytes is not None else QUERY_BYTES // senders
    return GeneratedScenario(
        {
            "name": f"incast: {senders} {variant} workers to one aggregator, {rounds} rounds",
            "duration": duration,
            "tcp": dict(tcp or {}),
            "links": links,
            "web": [
                {
                    "name": "query",
                    "server": "agg",
                    "clients": workers,
                    "direction": "upload",
                    "variant": variant,
                    "arrivals": {"process": "barrier", "rounds": rounds, "gap": gap},
                    "sizes": {"dist": "fixed", "size": size},
                }
            ],
        }
    )
