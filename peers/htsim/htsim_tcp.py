"""What htsim's `TcpSrc`/`TcpSink` fix, as tcpsim settings, shared by the incast and fat-tree
compare scripts (peers/htsim/README.md says why each is so): 1500-byte data packets (MSS 1460 +
40 header bytes), a sink with no delayed ACKs, a handshake first, initial window 3, an initial
RTO of 1 s, no limited transmit, every timeout halving ssthresh, the timer re-armed on every
partial ACK. The minimum RTO is each set-up's own."""

import sys

TCPSIM = [sys.executable, "-c", "from tcpsim.launch import main; main()"]
"""The `tcpsim` command of the running interpreter (its venv), with the tcpsim it imports."""

TICK_US = 1000.0
"""htsim's timer scanner period in µs (its own drivers: 10 ms; chosen here: 1 ms, about tcpsim's
1 ms clock granularity); the scripts' `--tick-us` changes it as a sensitivity."""


def htsim_tcp(min_rto: str) -> dict:
    """tcpsim's `[tcp]` table matching htsim's TCP, with minimum RTO `min_rto`."""
    return {
        "mss": 1460,
        "header": 40,
        "init_cwnd": 3,
        "min_rto": min_rto,
        "initial_rto": "1s",
        "delack_count": 1,
        "handshake": True,
        "limited_transmit": False,
        "timeout_ssthresh": "every",
        "partial_ack_timer": "slow_but_steady",
    }
