"""Möller, Barakat, Avrachenkov & Altman, "Inter-protocol fairness between TCP New Reno and TCP
Westwood+": every experiment of the paper (docs/experiments.md lists them).

Analytical (no runs; the closed form of Sec. III in `tcpsim.models.moller`):
- `moller.fig3`: scenario 1, normalized throughput of NewReno, Westwood+ and their sum vs B;
- `moller.fig4`: the four Table II scenarios vs B/CT on one plot;
- `moller.limits`: Prop. 4 (B → ∞: 3/4 and 1/4; B → 0: Westwood+ takes everything) and
  eqs. (34)–(35) (the square-root formulas' ratio tends to 1/√2 instead).

Simulation (mean ± 95% CI over seeds, overlaid on the model):
- `moller.fig5`: scenario 1 (all four Table II scenarios in full mode with
  ``TCPSIM_MOLLER_FIG5_SCENARIOS=0,1,2,3`` or ``Fig5.scenarios``);
- `moller.fig6`: as fig5, Westwood+ starting about 50 s after NewReno;
- `moller.fig7`: the modified Westwood+ of Sec. IV (never below half the previous window);
- `moller.fig8`: NewReno against NewReno vs against Westwood+.

Set-up (Fig. 2): S1 (NewReno) and S2 → R → D. S1–R and S2–R are 100 Mb/s, 0.1 ms links with
1000-packet queues; R → D is the bottleneck of capacity C, one-way delay T/2 − 0.1 ms (so the
round-trip propagation delay is T) and a drop-tail queue of B packets (the packet being sent is
not counted, as ns-2's DropTail); its D → R direction, carrying only ACKs, has a 1000-packet
queue. 1460-byte segments + 40 header bytes = 1500-byte packets. No delayed ACKs (the model's
window grows one packet per RTT, as with ns-2's default TCPSink). Start times are uniform in
[0, 1] s (random per seed); fig6 starts Westwood+ at 50 s + uniform [0, 1] s.

Normalized throughput: the model is in bytes of 1500-byte packets and C is the wire rate, so a
simulated flow's share is its delivered payload rate × 1500/1460 (the wire rate of the packets
it got through) divided by the wire rate C: like is compared with like.
"""

# Importing a section registers its experiments; paper order is the order `tcpsim list` shows.
from tcpsim.repro.moller import analytical, simulation  # noqa: F401, I001
