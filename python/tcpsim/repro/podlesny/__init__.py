"""Podlesny & Williamson, "Providing Fairness Between TCP NewReno and TCP Vegas with RD Network
Services" (ns-2.29 simulations).

Reproduced so far:
- `podlesny.fig1` (Sec. I): one NewReno and one Vegas flow on a 2 Mb/s drop-tail bottleneck,
  NewReno takes ≈ 92 % of the link.

Figs. 4–12 (the RD scheduler against drop-tail and RED/ECN) need the R/D discipline and come
with it, one module per family of experiments, on the set-up of `common`.

Common set-up (Sec. IV, `common`): the Fig. 3 dumbbell, access links 200 Mb/s, bottleneck
100 Mb/s with 10 ms delay, drop-tail buffers of C·250 ms (counted in 1 KB packets, as ns-2's
`limit_`), 1 KB packets (1000 bytes of payload plus ns-2.29's 40-byte header on the wire), 60 s,
5 replications, the first 5 s excluded from averages, instantaneous rates in 0.2 s bins. Vegas
α = 1, β = 3 (γ = 1) as ns-2.29's `tcp-vegas.cc` applies them (δ rounded to an integer). For
what the paper does not state, ns-2.29's defaults: an ACK per packet (TCPSink), initial window
2, minimum RTO 200 ms, 10 ms timer tick; the receiver window is unlimited (ns-2's `window_` 20 is
an alternative reading where it matters). Flows start uniformly in [0, 1] s.
"""

# Importing a section registers its experiments; paper order is the order `tcpsim list` shows.
from tcpsim.repro.podlesny import unfairness  # noqa: F401
