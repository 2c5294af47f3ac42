"""Podlesny & Williamson, "Providing Fairness Between TCP NewReno and TCP Vegas with RD Network
Services" (ns-2.29 simulations).

Reproduced:
- `podlesny.fig1` (Sec. I, `unfairness`): one NewReno and one Vegas flow on a 2 Mb/s drop-tail
  bottleneck, NewReno takes ≈ 92 % of the link.
- `podlesny.fig4`, `podlesny.fig5` (Sec. IV-A, IV-B, `scalability`): RD with 100 flows of one
  variant against 10…700 of the other in each direction.
- `podlesny.fig6` … `podlesny.fig9` (Sec. IV-C…F, `webtraffic`): RD with web-like traffic
  beside the long-lived flows: its intensity, the capacity, the RTTs, bursty arrivals.
- `podlesny.fig10` (Sec. IV-G, `dynamics`): sudden changes of the flow mix, DropTail against
  RED/ECN against RD, on an assumed schedule written down before any run.
- `podlesny.fig12` (Sec. IV-H, `multibottleneck`): the parking lot of Fig. 11, per-link and
  per-class throughput under each discipline.

Common set-up (Sec. IV, `common`): the Fig. 3 dumbbell, access links 200 Mb/s, bottleneck 100
Mb/s with 10 ms delay, drop-tail buffers of C·250 ms on every link (counted in 1 KB packets, as
ns-2's `limit_`; fig1 keeps 10 000-packet access queues, which never fill), 1 KB packets (1000
bytes of payload plus ns-2.29's 40-byte header on the wire), 60 s, 5 replications, the first 5 s
excluded from averages, instantaneous rates in 0.2 s bins. Vegas α = 1, β = 3 (γ = 1) as
ns-2.29's `tcp-vegas.cc` applies them (δ rounded to an integer). For what the paper does not
state, ns-2.29's defaults: an ACK per packet (TCPSink), initial window 2, minimum RTO 200 ms, 10
ms timer tick; the receiver window is unlimited (ns-2's `window_` 20 is an alternative reading
where it matters). Flows start uniformly in [0, 1] s.
"""

# Importing a section registers its experiments; paper order is the order `tcpsim list` shows.
from tcpsim.repro.podlesny import unfairness, scalability, webtraffic, dynamics, multibottleneck  # noqa: F401, I001
