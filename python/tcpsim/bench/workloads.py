"""The benchmark workloads: name → (description, builder of the user-format scenario).

Each is a fixed scenario run with a fixed seed; the builders use the public generators only,
so a workload measures what a user's script of the same shape would cost.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tcpsim.paths import builtin_scenario
from tcpsim.topologies import dumbbell, fat_tree, incast

PODLESNY_RD = {"kind": "rd", "limit": "1BDP"}
"""RD (`podlesny` Sec. III) with its defaults (k = 1, D = 10 % of the buffer), the buffer C·250 ms."""


def _lossy_link() -> Any:
    from tcpsim.scenario import load_scenario

    return load_scenario(builtin_scenario("lossy_link"), overrides=["links[*].loss=[]", "flows[*].variant=newreno"])


def _dumbbell() -> dict[str, Any]:
    return dumbbell(forward=200, reverse=200, duration="60s")


def podlesny_dumbbell(newreno: int, vegas: int, bottleneck_rate: str) -> dict[str, Any]:
    """`podlesny` Sec. IV's dumbbell with RD at the bottleneck: `newreno` NewReno then `vegas`
    Vegas long-lived flows in each direction (200 Mb/s access, 10 ms bottleneck, C·250 ms, 1 KB
    packets, RTTs uniform in [20, 300] ms, 60 s); each flow's RD class is its variant's."""
    per_direction = ["newreno"] * newreno + ["vegas"] * vegas
    return dumbbell(
        forward=len(per_direction),
        reverse=len(per_direction),
        variant=per_direction,
        reverse_variant=per_direction,
        bottleneck_rate=bottleneck_rate,
        queue=dict(PODLESNY_RD),
        duration="60s",
    )


def _podlesny_1600() -> dict[str, Any]:
    return podlesny_dumbbell(700, 100, "100Mbps")


WEB_RTT_S = 0.100
BOTTLENECK_DELAY_S = 0.010


def _podlesny_1g() -> dict[str, Any]:
    scenario = podlesny_dumbbell(100, 100, "1Gbps")
    scenario["name"] = "podlesny fig7 at 1 Gb/s: 100 + 100 flows each way, two web servers"
    access = f"{(WEB_RTT_S / 2 - BOTTLENECK_DELAY_S) / 2 * 1e3:g}ms"
    scenario["web"] = []
    for variant in ("newreno", "vegas"):
        server, client = f"web-{variant}", f"client-{variant}"
        scenario["links"] += [
            {"name": f"{server}-r1", "a": server, "b": "r1", "rate": "200Mbps", "delay": access, "queue": "10000pkt"},
            {"name": f"r2-{client}", "a": "r2", "b": client, "rate": "200Mbps", "delay": access, "queue": "10000pkt"},
        ]
        scenario["web"].append(
            {
                "name": server,
                "server": server,
                "clients": [client],
                "variant": variant,
                "arrivals": {"process": "poisson", "rate": "50/s"},
                "sizes": {"dist": "pareto", "mean": "30KB", "shape": 1.3},
            }
        )
    return scenario


def _fattree_k8() -> dict[str, Any]:
    # Issue 28's data-centre workload: all-to-all transfers with the web-search size CDF,
    # arriving as a Poisson process at 60 % of the host links' capacity.
    scenario = fat_tree(
        k=8,
        host_rate="10Gbps",
        core_rate="40Gbps",
        duration="1s",
        tcp={"min_rto": "200ms", "init_cwnd": 10},
    )
    hosts = [link["a"] for link in scenario["links"] if link["a"].startswith("h_")]
    del scenario["flows"]
    scenario["web"] = [
        {
            "name": "websearch",
            "hosts": hosts,
            "variant": "newreno",
            "arrivals": {"process": "poisson", "load": 0.6},
            "sizes": {"dist": "web_search"},
        }
    ]
    return scenario


def _dumbbell_10g() -> dict[str, Any]:
    return dumbbell(
        forward=10_000,
        bottleneck_rate="10Gbps",
        access_rate="1Gbps",
        mss_bytes=1460,
        duration="10s",
        tcp={"init_cwnd": 10},
    )


INCAST_RESPONSE_BYTES = 100_000
"""Each worker's response per round: 10 MB a round, 8 ms at 10 Gb/s (a benchmark's choice, not a
paper's set-up)."""


def _incast_100() -> dict[str, Any]:
    # The DCTCP paper's incast (`topologies.incast`) at 10 Gb/s, with its marking threshold for
    # that rate, K = 65 packets.
    return incast(
        senders=100,
        rate="10Gbps",
        delay_s=5e-6,
        port_queue={"kind": "step", "limit": "1000pkt", "threshold": "65pkt"},
        variant="dctcp",
        response_bytes=INCAST_RESPONSE_BYTES,
        rounds=100,
        duration="1s",  # the rounds take 0.82 s
        tcp={"mss": 1460, "header": 40, "init_cwnd": 10, "min_rto": "10ms", "delack_timeout": "40ms"},
    )


WORKLOADS: dict[str, tuple[str, Callable[[], Any]]] = {
    "lossy_link": (
        "one NewReno flow, 10 Mb/s 45 ms → 2 Mb/s bottleneck, 400-byte segments, "
        "delayed-ACK count 2, no errors, 600 s (gangadhar Fig. 3 topology)",
        _lossy_link,
    ),
    "dumbbell": (
        "200 forward + 200 reverse NewReno flows, 100 Mb/s 10 ms bottleneck, 200 Mb/s "
        "access, buffer C·250 ms, 1 KB packets, RTTs uniform in [20, 300] ms, 60 s",
        _dumbbell,
    ),
    "podlesny_1600": (
        "podlesny Fig. 4 at NewReno ratio 7: 700 NewReno + 100 Vegas flows in each direction (1600), "
        "RD bottleneck (k = 1, D 10 %) 100 Mb/s 10 ms, 200 Mb/s access, buffer C·250 ms, 1 KB packets, "
        "RTTs uniform in [20, 300] ms, 60 s",
        _podlesny_1600,
    ),
    "podlesny_1g": (
        "podlesny Fig. 7 at 1 Gb/s: Sec. IV-C's set-up (the baseline's 100 NewReno + 100 Vegas long-lived "
        "flows in each direction, RTTs uniform in [20, 300] ms) plus two web servers, one NewReno and one "
        "Vegas, each sending its client Poisson arrivals of 50 transfers/s, Pareto sizes mean 30 KB shape 1.3, "
        "RTT 100 ms; RD bottleneck 1 Gb/s 10 ms, buffer C·250 ms, 200 Mb/s access, 1 KB packets, 60 s",
        _podlesny_1g,
    ),
    "fattree_k8": (
        "k = 8 fat tree (Al-Fares et al. 2008: 128 hosts, 80 switches), 10 Gb/s host and edge-aggregation "
        "links, 40 Gb/s aggregation-core, 10 us links, 100-packet queues, ECMP flow hashing; all-to-all "
        "NewReno transfers with the web-search sizes (DCTCP paper), Poisson arrivals at 60 % of the host "
        "links' capacity (about 56 000 a second), 1460-byte segments, initial window 10, 1 s",
        _fattree_k8,
    ),
    "dumbbell_10g": (
        "10 000 NewReno flows over a 10 Gb/s 10 ms bottleneck, 1 Gb/s access links, buffer C·250 ms, "
        "1460-byte segments, initial window 10, RTTs uniform in [20, 300] ms, starts within 1 s, 10 s",
        _dumbbell_10g,
    ),
    "incast_100": (
        "100 DCTCP workers answer one aggregator 100 KB each in 100 barrier-synchronised rounds through one "
        "10 Gb/s ToR port (step marking at K = 65 packets, 1000-packet buffer), 10 Gb/s 5 us links, "
        "1460-byte segments, initial window 10, min RTO 10 ms",
        _incast_100,
    ),
}
