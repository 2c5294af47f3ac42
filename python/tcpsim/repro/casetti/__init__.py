"""Casetti, Gerla, Mascolo, Sanadidi & Wang, "TCP Westwood: End-to-End Congestion Control for
Wired/Wireless Networks": every experiment of the paper (docs/experiments.md lists them).

Wired (Sec. 4):
- `casetti.fig3` (`bandwidth_estimate`): bandwidth estimate of one TCPW flow against ON/OFF UDP
  cross traffic;
- `casetti.fig4` (`rtt_fairness`): sequence numbers of a 50 ms and a 200 ms RTT flow, TCPW pair vs
  Reno pair;
- `casetti.fig5` (`rtt_fairness`): the same with RED at the bottleneck (ns-2's RED defaults of 2001);
- `casetti.friendliness` (`friendliness`): 20 flows on 2 Mb/s: all TCPW, all Reno, 10 + 10;
- `casetti.fig7` (`testbed`): 5 flows, k Reno + (5 − k) TCPW, clean and 1 % loss (a testbed
  measurement in the paper, simulated here).
Mixed wired/wireless (Sec. 5), Fig. 8 topology source —10 Mb/s, 45 ms— base station —2 Mb/s,
0.01 ms— mobile, errors in both directions of the wireless link:
- `casetti.fig9` (vs Bernoulli error rate), `fig10` (vs wired delay), `fig11` (vs wireless
  capacity), `fig12` (cwnd/ssthresh traces), `snoop` and `batcp` (bit errors), in `wireless`;
- `casetti.fig15`/`fig16` (fading, two-state Markov), `fig17` (blackouts), in `fading`; `fig18`
  (LEO), in `satellite`.
The set-up the experiments share (below) is in `common`, the tests behind their claims in
`checks`.

Common set-up (paper Sec. 4: "packet size 400 bytes", buffers = BDP, delayed ACKs, τ = 500 ms):
- **400-byte packets on the wire**: 360 bytes of payload + 40 of headers. ns-2's `packetSize_`
  is the whole packet (`Agent::allocpkt` gives every TCP data packet `size_` bytes and adds no
  header; ACKs are 40 bytes), and the paper's friendliness numbers confirm it: 20 × 0.0994 Mb/s
  = 1.99 Mb/s, i.e. the 2 Mb/s link counted in whole 400-byte packets. Throughputs are
  therefore reported as ns-2 counts them, delivered packets × 400 bytes (= delivered payload ×
  400/360), and so is the bandwidth estimate of fig3 (ns-2's TCPW counts `size_` bytes per
  acknowledged segment).
- Buffers (drop-tail) = bandwidth × round-trip propagation delay in 400-byte packets, at least
  ``MIN_BUFFER_PKTS`` (fig10's short delays would otherwise give less than one packet).
- Delayed ACKs at every receiver: one ACK per two segments, 200 ms timeout (Sec. 2.3).
- RTO as in ns-2 of the paper's time: `tcpTick_` = 100 ms and no `minrto_` (the defaults until
  2002 and 2004), so the floor is two ticks: min RTO 200 ms, clock granularity 100 ms. Every
  timeout halves the window in use (`timeout_ssthresh = "every"`: ns-2's `TcpAgent::timeout`
  calls `slowdown(CLOSE_SSTHRESH_HALF)` on each expiry, back-offs and timeouts after a fast
  retransmit included, where RFC 5681 reduces once per loss); TCPW sets BWE·RTTmin on each.
  Initial window 1 segment (`windowInit_` 1). Receiver window unlimited.
- TCPW = the `westwood` preset (Tustin filter, τ = 500 ms, null samples every τ/2, Reno fast
  recovery) **reacting to every n duplicate ACKs** (`avoid_repeated_fast_retransmit = false`):
  the pseudocode of Sec. 3.1 has no `recover` guard, and neither has the ns-2 TCPW agent
  (`WestwoodTcpAgent::dupack_action`, derived from Reno, sets ssthresh = BWE·RTTmin and
  retransmits on every third duplicate ACK). So a second loss in a window is a second faster
  recovery (to BWE·RTTmin again, not a further halving), not a timeout. Reno and SACK keep the
  guard (ns-2's `bug_fix_`, on by default). Every sweep reports sensitivity runs at its headline
  point: TCPW as ns-2's `Agent/TCP/Westwood` (`recovery = "westwood_ns2"`, the agent's
  estimator options and its base class's RTO, `rto_estimator = "ns2_ticks"`), the preset as is (guard on), TCPW over NewReno recovery, TCPW with a
  fixed-coefficient filter and no null samples (ns-2 TCPW filter type 1), and the RFC 6298 1 s
  RTO floor for all.
- Gains are TCPW / Reno − 1 (and / SACK − 1), per seed (runs paired by seed number), then
  mean ± 95 % CI over seeds. Every flow starts uniformly in [0, 1] s (shared-link experiments:
  [0, 5] s).

Choices where the paper is silent (class attributes, repeated in each experiment's notes):
fig3 UDP datagrams of 400 bytes, plateaus judged from 10 s after each switch; fig4 a 5 Mb/s
bottleneck (the one of Fig. 3), buffer = BDP at the mean RTT; fig5 RED with ns-2's defaults of
2001 (min_th 5, max_th 15 packets, max_p 0.1, w_q 0.002, gentle off; gentle RED and thresholds
scaled to the buffer are alternative readings); friendliness a dumbbell with a
2 Mb/s, 10 ms bottleneck; fig7 the Sec. 4.3 Linux testbed on the lab's 10 Mb/s Ethernet with a
BDP queue (main reading; the 4 Mb/s emulator with a 100-packet queue and the ns-2 set-up are
alternative readings); fig10 no receiver window (main reading; the 64 KB window and ns-2's
default window_ of 20 are alternative readings); fig11 RTT 45 ms as the text says (wired
one-way 22.49 ms); fig12 0.5 % errors; snoop/batcp the Fig. 8 topology with the wired delay set
for the RTT, "64 KB" and "100 KB" read as KiB; fig15–17 one Good/Bad process per direction of
the wireless link, independent (Sec. 5's errors in both directions; the data direction alone is a
sensitivity run), sojourns in seconds as Sec. 5.2.1 states (for fig15/fig16 sojourns counted in
packets are an alternative reading, for fig17 a sensitivity run, which also runs one blackout
process for both directions), fig17's Good state 0.001 % loss as in fading; fig10 exact RTT
samples (ns-2's 100 ms RTT ticks, which also set ns-2 TCPW's RTTmin, are a sensitivity run);
fig18 one gateway–terminal link, hand-offs starting at 2 s. Durations and seeds:
`duration_*_s`, `seeds_*` per class.
"""

# Importing a section registers its experiments; paper order is the order `tcpsim list` shows.
from tcpsim.repro.casetti import bandwidth_estimate, rtt_fairness, friendliness, testbed  # noqa: F401, I001
from tcpsim.repro.casetti import wireless, fading, satellite  # noqa: F401, I001
