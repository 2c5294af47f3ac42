"""Macura, Missoni & Kordic, "Comparison of Westwood, New Reno and Vegas TCP congestion control":
every experiment of the paper (docs/experiments.md lists them).

- `macura.table1` (Sec. 5.1, Table 1): one connection over 2 Mb/s, 250 ms, with ON/OFF reverse
  traffic; goodput per 250 s interval;
- `macura.bottleneck` (Sec. 5.2): M flows of one algorithm over 10 Mb/s with RTTs spread in
  [20 + 230/M, 250] ms and 10 NewReno reverse senders; total goodput and Jain's index vs M;
- `macura.multihop` (Sec. 5.3): C1 across N hops against 2N one-hop NewReno cross flows;
  C1's goodput vs N;
- `macura.wireless` (Sec. 5.5): a wired path ending in a 2 Mb/s lossy wireless hop, Good/Bad
  channel with deterministic sojourns; goodput vs the Bad-state duration, without and with
  cross and reverse traffic.

The paper ran ns-2 and states little of its set-up. Where it is silent the catalog's assumptions
hold (buffers = bandwidth-delay product, 1500-byte packets, delayed ACKs), and beyond them
ns-2's defaults (`common.NS2_TCP`, `ns-default.tcl` of ns-2.35, unchanged since 2004):
- one ACK per two segments with a 100 ms delayed-ACK timer (`TCPSink/DelAck`), initial window
  2 (`windowInit_`), minimum RTO 200 ms, 10 ms clock (`minrto_`, `tcpTick_`), ssthresh halved on
  every timeout (`TcpAgent::timeout`), no receiver window (ns-2's `window_` of 20 would cap
  Table 1's flow at 0.96 Mb/s: the authors raised it);
- drop-tail buffers counted in packets (`queue_in_bytes_ false`), so an ACK takes a slot;
- Vegas = the `ns2` flavour, ns-2's `tcp-vegas.cc` (α 1, β 3, γ 1 against δ rounded to an integer,
  the round's mean RTT, δ from the packets outstanding, per-ACK growth while the window is used);
  tcpsim's default flavour (the round's minimum, three samples) is a sensitivity run;
- Westwood+ = its authors' Linux code (the `westwood_plus` preset: one sample per RTT, the
  two-stage filter, NewReno recovery), which is the paper's Sec. 2.1 pseudocode; SACK without
  delayed ACKs (Sec. 5.5: "TCP SACK by default does not use delayed ACK").
Goodput is eq. (1), (sent − retransmitted) / transfer time, counted in whole 1500-byte packets
(1460 bytes of payload + 40 of headers): the paper's 1.99 Mb/s on a 2 Mb/s link is more than the
link's payload rate, so its goodput counts packets as ns-2 sizes them. Every flow starts at its
nominal time plus a uniform [0, 1] s jitter of its own, so replications differ.
"""

# Importing a section registers its experiments; paper order is the order `tcpsim list` shows.
from tcpsim.repro.macura import table1, bottleneck, multihop, wireless  # noqa: F401, I001
