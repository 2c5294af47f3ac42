"""Gangadhar, Nguyen, Umapathi & Sterbenz, "TCP Westwood(+) Protocol Implementation in ns-3"
(WNS3 2013): every experiment of the paper (docs/experiments.md lists them).

- `gangadhar.fig5`: throughput vs PER 0.0001…0.05, Tahoe, Reno, NewReno, Westwood, Westwood+;
- `gangadhar.fig6`: throughput vs bottleneck delay 0.01 ms…250 ms (PER 0.005);
- `gangadhar.fig7`: throughput vs bottleneck bandwidth 1…8 Mb/s (PER 0.005);
- `gangadhar.fig8`: throughput vs PER for delayed-ACK counts 1…8 (Reno, Westwood, Westwood+);
- `gangadhar.fig9`: throughput vs PER for payloads 41…1460 B (Reno, Westwood, Westwood+);
- `gangadhar.fig10`: cwnd of Westwood, Westwood+ and Reno over 600 s, sampled every 3 s;
- `gangadhar.fig11`: bandwidth estimate of Westwood and Westwood+ under ACK compression.

Set-up (Fig. 3, Table 1; `scenarios/lossy_link.toml`): source —10 Mb/s, 45 ms— router —2 Mb/s,
0.01 ms— sink; 400-byte segments (Table 1's "MTU size of 400 B ... used as the segment size"; the
authors' own script, ns-3.17's `examples/tcp/tcp-variants-comparison.cc`, makes 400 B the IP packet,
360-byte segments, on which ns-3.17 gives fig5's verdicts unchanged, curves 0–10 % lower); delayed ACKs every 2 segments, 200 ms timeout; Bernoulli
packet errors on both directions of the bottleneck, PER 0.005 unless swept; drop-tail router
buffer of 100 packets (assumed: the paper gives no buffer); one bulk flow for 600 s, throughput over the
whole run (the paper's "average throughput"); two runs per point, error bars the 95 % Student-t
interval of the mean (the paper draws ± one standard deviation; the largest is in the notes).

The "ns-3 says" values beside the paper's and tcpsim's come from ns-3.17 itself, the paper's
simulator, built from its release tag (`peers/ns317`); the ns-3.44 twins of `peers/ns3` stand
beside them as "other" values.

Sections: `common` (set-up, flavours, readings, throughput curves), `sweeps` (fig5–7),
`families` (fig8–9), `traces` (fig10), `ack_compression` (fig11).

The paper's Westwood and Westwood+ are its ns-3 code (`TcpWestwood`, Sec. 3.2, later merged into
ns-3), reproduced with the cc/recovery overrides:
- Westwood: one bandwidth sample per ACK (eq. 2) through the fixed-coefficient Tustin filter
  α = 0.9 on the mean of the last two samples (Sec. 2.4 eq. 1, `Filtering()`), no virtual null
  samples (the ns-3 code has none): ``cc = {kind="westwood", null_sample_divisor=0,
  filter={kind="tustin_fixed", alpha=0.9}}``;
- Westwood+: one sample per RTT (eq. 3) timed as ns-3.17's (`EstimateRtt` schedules `EstimateBW`
  one raw RTT sample after the ACK that opens the window, the sample of the oldest segment an ACK
  covers as `RttEstimator::AckSeq` took it; `EstimateBW` divides the segments counted by that RTT;
  no window is open from then to the next ACK), the same α = 0.9 filter, no 50 ms floor,
  ssthresh = BWE·RTTmin in bytes (`DupAck`, `Retransmit`):
  ``cc = {kind="westwood_plus", filter={kind="tustin_fixed", alpha=0.9}, min_window="0s",
  sampling="ns3_timer", ssthresh_in_bytes=true}``;
- both over **Reno** recovery: the ns-3 class derives from `TcpSocketBase`, not `TcpNewReno`;
  its `NewAck` "follows the same rules as in TCP Reno" (Sec. 3.2) and leaves fast recovery on
  the first new ACK (Sec. 2.4: "a sender side modification to TCP Reno").
The tcpsim default flavours (`westwood`: casetti/ns-2 Tustin filter with τ = 500 ms and null
samples; `westwood_plus`: Linux two-stage EWMA with a 50 ms floor over NewReno) are reported as
unjudged extra curves (dashed in fig5–7, grey in fig11) and in the notes of fig10.

Parameters the paper leaves to the ns-3 defaults of its time are set to them (`NS3_TCP`):
minimum RTO 200 ms (`RttEstimator::MinRTO` of the 2013 releases; 1 s later); initial window
1 segment and initial ssthresh 65 535 bytes (`TcpSocket::InitialCwnd`,
`InitialSlowStartThreshold`); no RFC 6582 "covers more than recover" check before fast
retransmit (ns-3's `DupAck` enters fast retransmit whenever the third duplicate ACK arrives outside
recovery); a fast retransmission leaves a running retransmission timer alone (ns-3.17's
`SendDataPacket` schedules it only when none is pending; `fast_retransmit_timer = "keep"`); 42
header bytes per packet (IPv4 20 + TCP 20 + PPP 2). fig5 also runs the five variants
with tcpsim's own defaults, and the paper's Westwood/Westwood+ over NewReno recovery, as sensitivities.

The advertised window is read two ways (two readings, each judged on its own). The paper does
not state it, so the main reading is the default of the ns-3 of the paper's time
(ns-3.17, 2013): at most 65 535 bytes (`TcpSocketBase::MaxWindowSize`, 16 bits, no window scaling
until ns-3.24; `NS3_RWND`). This follows the rule "the tool's defaults where the paper is silent",
not the result: fig7's fall under this window was known before the choice (an earlier version
of this module advertised 128 KB after seeing it), so the choice is the rule's, stated here, and a
failing fig7 claim under it is a result. The alternative reading, "ns-3 window scaling / 128 KB",
advertises ns-3's default receive buffer (`TcpSocket::RcvBufSize`, 131 072 bytes; `SCALED_RWND`),
what ns-3 advertises once the window may scale. Its hypothesis: the paper's fig7 shows Westwood
rising with bandwidth up to 8 Mb/s and comparable to casetti's Fig. 11 (ns-2, where a 64 KB window
never binds at the 45 ms RTT), which a 64 KB window would not allow; so the authors' build may have
advertised more. Every judged run is repeated under the alternative reading (sensitivity runs
are made under the main reading only); the scaled reading is bounded too: without any bound,
NewReno's window inflation through a long recovery runs away (cwnd of megabytes), which the
paper's NewReno ≈ Reno rules out. ns-3's default 100-packet queue on the source's device
(`NS3_DEVICE_QUEUE`) is made large in both readings (the 100 packets are assumed at the router
only); with it and the 64 KB window the burst that ends a window-capped recovery overflows it and
Westwood collapses above 4 Mb/s (fig7 sensitivity run).

Sensitivity runs where the paper is silent or our numbers differ: fig7 with ns-3's 100-packet
device queue, and with Westwood's cwnd traced at 6–8 Mb/s; fig9 with
errors on the data direction only and with ns-3's RTO back-off cap (MaxMultiplier 64); fig11 with
NewReno as flow 2, 1 ms access links, and Westwood's peak without the two ns-3 growth rules below.

Two ns-3 behaviours are selected by parameters: `TcpWestwood` (both protocol types) enters fast
recovery with cwnd = min(cwnd, BWE·RTTmin), not inflated by the three duplicate ACKs (`DupAck`),
and leaves it with cwnd = ssthresh even if that raises the window (`NewAck`)
(`ns3_fast_recovery = true`); congestion avoidance adds max(1, ⌊SMSS²/cwnd⌋) bytes per ACK
(`ca_increment = "ns3"`). Not modelled: ns-3's
ssthresh has no 2-segment floor on duplicate ACKs (Westwood's is also rounded down to whole
segments here), and ns-3.17's RTTmin is the least sample of the oldest segment an ACK covers, tcpsim's
of the newest.
"""

# Importing a section registers its experiments; paper order is the order `tcpsim list` shows.
from tcpsim.repro.gangadhar import sweeps, families, traces, ack_compression  # noqa: F401, I001
