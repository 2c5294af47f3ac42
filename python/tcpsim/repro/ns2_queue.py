"""ns-2's DropTail as the experiments of ns-2 papers build it.

ns-2's `queue-limit L` (`queue/drop-tail.cc`: an arrival is dropped when `waiting + 1 >= limit_`)
holds L - 1 packets waiting behind the one on the wire, where tcpsim's limits count waiting
packets only. A paper that ran ns-2 and states "a buffer of L packets" set `queue-limit L`, so
its experiments ask for `counts_transmitting` (ns-2's RED, `qlen >= qlim` before the arrival,
holds L and needs nothing).
"""

from typing import Any


def ns2_drop_tail(packets: int) -> dict[str, Any]:
    """The drop-tail queue of ns-2's `queue-limit packets`."""
    return {"kind": "drop_tail", "limit": f"{packets}pkt", "counts_transmitting": True}


def bdp_packets(rate_bps: float, rtt_s: float, packet_bytes: int, floor: int = 1) -> int:
    """A buffer of one bandwidth-delay product in packets (`casetti`'s and `macura`'s buffer rule):
    rate × RTT in whole packets of `packet_bytes`, rounded to the nearest, at least `floor`."""
    return max(floor, round(rate_bps * rtt_s / 8 / packet_bytes))
