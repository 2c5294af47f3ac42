//! A TCP connection's settings in the canonical scenario: loss recovery, congestion control
//! and every knob of the sender and receiver (the Python side: `tcpsim.scenario.tcp`).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::*;

/// Loss-recovery algorithm (docs/architecture.md, "TCP: two axes": this half owns duplicate ACKs,
/// fast retransmit, fast recovery and the retransmission timer).
#[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum RecoveryKind {
    /// Fast retransmit, then slow start from one segment with go-back-N (4.3BSD-Tahoe as in ns-2).
    Tahoe,
    /// RFC 5681 §3.2 fast retransmit / fast recovery; leaves recovery on the first new ACK.
    Reno,
    /// RFC 6582: stays in fast recovery until all data outstanding at its start is acked.
    Newreno,
    /// RFC 6675 SACK-based loss recovery (scoreboard, pipe, NextSeg); the receiver sends
    /// RFC 2018 SACK blocks.
    Sack,
    /// ns-2.35's `Agent/TCP/Vegas` recovery (`tcp/tcp-vegas.cc`): a fine-grained timeout checked
    /// on every duplicate ACK and on the two ACKs after recovery, its own window cut
    /// (≤ 3 → 2, resent → ½, else −¼; only if the window is unchanged since the segment left),
    /// Reno-style inflation and deflation.
    VegasNs2,
    /// The ns-2 TCP Westwood agent's (`Agent/TCP/Westwood`, `tcp/tcp-westwood.cc`): on the n-th
    /// duplicate ACK the congestion controller's cut and one retransmission, no window
    /// inflation; the next ACK of new data ends it with cwnd left where the cut put it.
    WestwoodNs2,
}

/// Which retransmission timeouts reduce ssthresh.
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum TimeoutSsthresh {
    /// RFC 5681 §3.1: only a timeout that starts a loss episode (its segment not yet resent by
    /// the timer; extended to timeouts in fast recovery, as Linux's `tcp_enter_loss`), with
    /// FlightSize as the base of eq. (4).
    #[default]
    FirstOfEpisode,
    /// Every expiry, back-off and in-recovery ones included, halving the window then in use
    /// (min(cwnd, rwnd), un-inflated in fast recovery), at least 2 segments: 4.4BSD's
    /// `tcp_timers` and ns-2's `TcpAgent::timeout` (`slowdown(CLOSE_SSTHRESH_HALF)`, after
    /// `RenoTcpAgent::timeout` has dropped the fast-recovery inflation `dupwnd_`). A loss that
    /// fast retransmit halved and a timeout then ends is halved twice; a timeout of the
    /// retransmission itself sets ssthresh to 2 segments.
    Every,
}

/// The window that fast retransmit and an ECN-Echo reduction halve (the `flight_bytes` handed
/// to `CongestionOps::on_loss` and `on_ecn`). In a flow that its window limits the two differ by
/// less than a segment, but only `Cwnd` keeps the fraction of a segment that congestion
/// avoidance has added: with `FlightSize` every cut lands on a multiple of half a segment, which
/// in a noise-free simulation can lock two flows of equal RTT into a fixed drop order.
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum SsthreshFrom {
    /// min(cwnd, rwnd), un-inflated: ns-2 (`TcpAgent::slowdown`, `windowd() / 2` with
    /// `precision_reduce_`, cwnd keeping its fraction) and Linux (`tcp_reno_ssthresh`,
    /// `snd_cwnd >> 1`).
    #[default]
    Cwnd,
    /// RFC 5681 eq. (4): FlightSize, limited-transmit segments left out (§3.2); ns-3's
    /// `TcpNewReno` of the `gangadhar` era (`BytesInFlight () / 2`, no scoreboard).
    FlightSize,
    /// ns-3.44's `BytesInFlight ()` at the third duplicate ACK (`TcpSocketBase::EnterRecovery`):
    /// RFC 6675's pipe (§4 SetPipe) with the limited-transmit segments in, the segments the
    /// duplicate ACKs report taken out and the first unacknowledged segment taken as lost.
    /// Without SACK each duplicate ACK counts as one SACKed segment and that first segment is
    /// counted back in. With limited transmit this is FlightSize − 1 segment without SACK and
    /// FlightSize − 2 segments with it, so each cut goes half a segment (one with SACK) deeper
    /// than RFC 5681 eq. (4) and the next loss comes that much later.
    Ns3Pipe,
}

/// The arithmetic of the retransmission timer's estimator.
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum RtoEstimator {
    /// RFC 6298 §2 in exact arithmetic: RTO = SRTT + max(G, 4·RTTVAR), RTTVAR decaying towards 0
    /// while samples agree.
    #[default]
    Rfc6298,
    /// ns-2's `TcpAgent::rtt_update` (tcp/tcp.cc), Jacobson's fixed-point estimator on samples in
    /// whole `rtt_tick`s: SRTT in 1/8 and RTTVAR in 1/4 of a tick, updated with truncating
    /// shifts, each kept at least 1, and RTO = ⌊SRTT + 4·RTTVAR⌋ ticks (`t_rtxcur_`). The
    /// truncation stops RTTVAR from decaying below 3/4 tick once it is there (`t_rttvar_ >> 2`
    /// is 0 below 4), so with 100 ms ticks and one-tick samples the RTO settles at 0.2–0.4 s
    /// where RFC 6298's falls to SRTT + G. ns-2's `rtt_backoff` past a multiplier of 8 drops
    /// SRTT, so the next sample starts the estimator afresh. Needs `rtt_tick_ns` > 0.
    Ns2Ticks,
}

/// Which ACKs give the retransmission timer's estimator (RFC 6298) an RTT sample.
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum RttSampling {
    /// Every ACK of new data whose segments were sent once (RFC 6298 §3 with Karn; Linux with
    /// timestamps, ns-3).
    #[default]
    EveryAck,
    /// One timed segment at a time, as ns-2.35's `TcpAgent` without timestamps (tcp/tcp.cc:
    /// `output` times the first never-sent segment while none is timed, `rtt_active_` /
    /// `rtt_seq_`; `newack` samples when an ACK covers it; `reset_rtx_timer` — timeouts, fast
    /// retransmit — cancels the timing, and NewReno's `partialnewack` ends it without a
    /// sample): about one sample per round trip, so RTTVAR decays per round trip rather than per
    /// ACK. Only the estimator reads these samples; the congestion control still sees every ACK's.
    TimedSegment,
}

/// Which partial ACKs restart the retransmission timer during fast recovery (RFC 6582 §4.1
/// names both). With many losses in one window, NewReno resends one segment per round trip; the
/// impatient timer then expires one RTO after the first partial ACK and the rest goes by
/// slow start, while the slow-but-steady timer lets recovery run its course however long it
/// takes (at data-centre round trips of 100 µs, a few ms for tens of losses).
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum PartialAckTimer {
    /// The recovery algorithm's rule: NewReno restarts the timer on the first partial ACK only
    /// ("Impatient", the variant RFC 6582 §4.1 recommends), SACK on each (RFC 6675 §5).
    #[default]
    Impatient,
    /// Every partial ACK restarts the timer ("Slow-but-Steady", RFC 6582 §4.1), as an ACK of
    /// new data does outside recovery (RFC 6298 §5.3): ns-3 (`TcpSocketBase::NewAck`) and
    /// Linux (`tcp_rearm_rto` on every ACK that advances snd_una) behave so.
    SlowButSteady,
}

/// What fast retransmit does to a running retransmission timer. RFC 6298 §5.1 starts the
/// timer on a send only if it is not running, so a fast retransmission leaves it to expire one
/// RTO after it was last (re)started — by the last ACK of new data; ns-2 (`dupack_action` →
/// `reset_rtx_timer`), Linux (`tcp_rearm_rto` when the head is resent) and tcpsim's default
/// restart it, giving the retransmission a whole RTO.
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum FastRetransmitTimer {
    /// Restart the timer with the fast retransmission (ns-2, Linux).
    #[default]
    Restart,
    /// Leave a running timer alone (RFC 6298 §5.1 read literally; ns-3.17's
    /// `TcpSocketBase::SendDataPacket` schedules the timer only when none is pending, and its
    /// `DoRetransmit` goes through it): when the queue has grown the round trip beyond the
    /// RTO, the timer can expire before the retransmission's ACK returns.
    Keep,
}

/// How an ECN sender (`TcpConfig::ecn`) marks its segments ECN-capable and where it sets CWR.
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum EcnSender {
    /// RFC 3168: new data leaves ECT(0), retransmissions not-ECT (§6.1.5); CWR on the first
    /// new data segment after a reduction for ECN-Echo (§6.1.2).
    #[default]
    Rfc3168,
    /// ns-2.35's `TcpAgent` (tcp/tcp.cc): every data segment, retransmissions included, is
    /// ECT (`output`: `if (ecn_) hf->ect() = 1`), and CWR rides on the next segment sent after
    /// any window reduction — ECN-Echo, fast retransmit, timeout — retransmission or not
    /// (`slowdown` sets `cong_action_` for CLOSE_CWND_HALF/RESTART/ONE; `output` sends it while
    /// `SetCWRonRetransmit_`, true in ns-default.tcl since 2005/06/19). So the retransmission
    /// after a timeout ends the receiver's echo, and the window grows again from one segment.
    Ns2,
    /// Linux with a congestion control that needs ECN (DCTCP, `tcp_ca_needs_ecn`): every
    /// packet of the connection is ECT(0), retransmissions and the receiver's pure ACKs
    /// included (net/ipv4/tcp_output.c `tcp_ecn_send` clears ECT from them only for other
    /// congestion controls); CWR as `rfc3168`, on the first new data segment after an
    /// ECN-Echo reduction. So a queue that drops packets that are not ECN-capable above its
    /// marking threshold never drops this connection's ACKs for it.
    LinuxDctcp,
}

/// The ECT codepoint an ECN sender (`TcpConfig::ecn`) puts on its ECN-capable packets.
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum EcnCodepoint {
    /// ECT(0), the classic ECN codepoint (RFC 3168 §6.1.1).
    #[default]
    Ect0,
    /// ECT(1), the L4S identifier (RFC 9331 §4): a dual-queue AQM (RFC 9332) serves the
    /// packets in its low-latency queue; every other queue treats them as ECT(0).
    Ect1,
}

impl EcnCodepoint {
    pub fn is_ect0(&self) -> bool {
        *self == EcnCodepoint::Ect0
    }

    /// The packets' ECN field.
    pub fn ecn(self) -> crate::packet::Ecn {
        match self {
            EcnCodepoint::Ect0 => crate::packet::Ecn::Ect0,
            EcnCodepoint::Ect1 => crate::packet::Ecn::Ect1,
        }
    }
}

/// What an ECN receiver (`TcpConfig::ecn`) echoes.
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum EcnReceiver {
    /// RFC 3168 §6.1.3: ECE on every ACK from a CE segment until a segment with CWR arrives.
    #[default]
    Rfc3168,
    /// DCTCP (RFC 8257 §3.2, Fig. 1): ECE = CE of the last segment received, CWR ignored; a
    /// change of that state acknowledges at once, first the withheld segments with the old
    /// value (Linux `dctcp_ece_ack_update`); see `tcp::receiver`.
    Dctcp,
}

/// Rounding of the congestion-avoidance increment SMSS·SMSS/cwnd.
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum CaIncrement {
    /// Exact: fractions of a byte are carried to the next ACK.
    #[default]
    Exact,
    /// max(1, ⌊SMSS·SMSS/cwnd⌋) bytes per ACK, fractions dropped: ns-3's
    /// `TcpNewReno::CongestionAvoidance` of the `gangadhar` era (faster than exact when
    /// cwnd > SMSS², e.g. 41-byte segments).
    Ns3,
    /// Whole segments: one more after a window's worth of segments acknowledged, counted per
    /// ACK (Linux `tcp_cong_avoid_ai`; ns-3's `TcpLinuxReno` and `TcpDctcp`). The window stays
    /// a whole number of segments once it grows.
    Linux,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TcpConfig {
    /// Payload bytes per segment (SMSS).
    pub mss_bytes: u32,
    /// IP + TCP header bytes added on the wire to data and ACK packets.
    pub header_bytes: u32,
    /// Size on the wire of the receiver's ACKs, if not `header_bytes`: ns-2's `TCPSink` sends
    /// 40-byte ACKs (its `packetSize_`) whatever its sender adds to data, and stock ns-2 Vegas
    /// adds nothing (`VegasTcpAgent::output` never adds `headersize()`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ack_bytes: Option<u32>,
    /// Initial window in segments (RFC 5681 §3.1 IW).
    pub init_cwnd_segments: u32,
    /// Initial slow-start threshold (RFC 5681: arbitrarily high).
    pub init_ssthresh_bytes: u64,
    /// Receiver's advertised window; the sender never has more than this outstanding.
    pub rwnd_bytes: u64,
    /// RFC 6298 §2.1 initial RTO.
    pub initial_rto_ns: u64,
    /// RFC 6298 §2.4 lower bound.
    pub min_rto_ns: u64,
    /// RFC 6298 §2.5 upper bound.
    pub max_rto_ns: u64,
    /// RFC 6298 clock granularity G.
    pub clock_granularity_ns: u64,
    /// Tick of the clock that times RTT samples (0 = exact). With a tick T every sample r
    /// becomes max(1, ⌊r/T + ½⌋)·T before it reaches the RFC 6298 estimator and the
    /// congestion controller (Westwood's RTTmin, Vegas' BaseRTT), as ns-2's `TcpAgent::rtt_update`
    /// turns a sample into whole `tcp_tick_`s (`t_rtt_`) and ns-2's TCPW agent takes
    /// RTTmin from `t_rtt_ * tcp_tick_`. See `tcp::sender::quantize_rtt`.
    #[serde(default)]
    pub rtt_tick_ns: u64,
    /// Which ACKs feed the RTO estimator (`RttSampling`).
    #[serde(default)]
    pub rtt_sampling: RttSampling,
    /// The RTO estimator's arithmetic (`RtoEstimator`).
    #[serde(default)]
    pub rto_estimator: RtoEstimator,
    /// Which partial ACKs of a fast recovery restart the retransmission timer (`PartialAckTimer`).
    #[serde(default)]
    pub partial_ack_timer: PartialAckTimer,
    /// Whether fast retransmit restarts a running retransmission timer (`FastRetransmitTimer`).
    #[serde(default)]
    pub fast_retransmit_timer: FastRetransmitTimer,
    /// Duplicate ACKs that trigger fast retransmit (RFC 5681: 3).
    pub dupack_threshold: u32,
    pub recovery: RecoveryKind,
    /// Do not enter fast retransmit again for duplicate ACKs that do not cover `recover`
    /// (RFC 6582 §3.2 step 1; ns-2's `bug_fix_`), applied to every recovery algorithm.
    pub avoid_repeated_fast_retransmit: bool,
    /// RFC 3042 limited transmit: a previously unsent segment on each of the first
    /// `dupack_threshold − 1` duplicate ACKs (see `RecoveryOps::limited_transmit`), in every
    /// recovery algorithm. On by default, as in ns-2 (`singledup_ 1` since 2001/11/28), ns-3 and
    /// Linux; ns-2 releases before that date, ns-3's TCP of 2010–2015 and ns-2's Vegas agent
    /// (its own `recv`) send nothing on them.
    #[serde(default = "default_true")]
    pub limited_transmit: bool,
    /// The three-way handshake (RFC 9293 §3.5): the data sender's SYN, the receiver's SYN-ACK,
    /// then data, so a connection's first segment leaves one round trip after it opens. The
    /// SYN is retransmitted on its own timer from `initial_rto_ns`, doubling (RFC 6298 §5.5);
    /// the SYN-ACK gives the first RTT sample unless the SYN was resent (Karn), in which case
    /// the RTO is re-initialized to 3 s (RFC 6298 §5.7). Off: the connection exists when the
    /// application starts, as in ns-2's one-way agents. Written only when on.
    #[serde(default, skip_serializing_if = "is_false")]
    pub handshake: bool,
    /// Which retransmission timeouts reduce ssthresh, and from what.
    #[serde(default)]
    pub timeout_ssthresh: TimeoutSsthresh,
    /// The window fast retransmit and ECN-Echo halve: cwnd (ns-2, Linux) or FlightSize (RFC
    /// 5681 eq. 4, ns-3).
    #[serde(default)]
    pub ssthresh_from: SsthreshFrom,
    pub cc: CcConfig,
    /// How congestion avoidance adds SMSS·SMSS/cwnd bytes per ACK (RFC 5681 eq. 3).
    pub ca_increment: CaIncrement,
    /// Receiver: acknowledge every `delack_count`-th full segment (1 = no delayed ACKs).
    pub delack_count: u32,
    /// Receiver: longest an ACK is withheld (RFC 5681 §4.2: < 500 ms).
    pub delack_timeout_ns: u64,
    /// ECN (RFC 3168 §6.1): new data is sent ECT(0), the receiver echoes CE marks (ECE) until
    /// the sender's CWR, and the sender reduces once per window of data. Both ends of the
    /// flow use it, so there is no negotiation.
    #[serde(default)]
    pub ecn: bool,
    /// With `ecn`: the receiver acknowledges a CE-marked segment at once (Linux's
    /// `tcp_ecn_check_ce` quick ACK) rather than by the delayed-ACK rules, which RFC 3168
    /// §6.1.3 also allows (ns-2's `DelAckSink`: the delayed ACK carries ECE).
    #[serde(default = "default_true")]
    pub ecn_immediate_ack: bool,
    /// With `ecn`: which segments are ECN-capable and which carry CWR (`EcnSender`).
    #[serde(default)]
    pub ecn_sender: EcnSender,
    /// With `ecn`: what the receiver's ECN-Echo says (`EcnReceiver`).
    #[serde(default)]
    pub ecn_receiver: EcnReceiver,
    /// With `ecn`: the codepoint of the ECN-capable packets, data and (with
    /// `EcnSender::LinuxDctcp`) the receiver's ACKs: ECT(0), or ECT(1) for L4S (RFC 9331 §4).
    #[serde(default, skip_serializing_if = "EcnCodepoint::is_ect0")]
    pub ecn_codepoint: EcnCodepoint,
    /// The RD service class the flow marks its packets with, data and ACKs alike
    /// (`podlesny` Sec. II-C: the ToS field). None: by the congestion control — delay-based
    /// (Vegas) → D, loss-based → R (Sec. III).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rd_class: Option<RdMark>,
}

impl TcpConfig {
    /// The RD class the flow marks its packets with: `rd_class`, else by the congestion
    /// control (`podlesny` Sec. III: NewReno → R, Vegas → D).
    pub fn rd_mark(&self) -> RdMark {
        self.rd_class.unwrap_or(if self.cc.delay_based() { RdMark::D } else { RdMark::R })
    }
}

/// An RD service class mark.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum RdMark {
    /// Throughput-greedy (the R queue).
    R,
    /// Delay-sensitive (the D queue).
    D,
}

fn default_true() -> bool {
    true
}

fn is_false(value: &bool) -> bool {
    !*value
}

impl TcpConfig {
    /// Check the settings; errors are `.field: message` or `: message` relative to `tcp`.
    pub fn validate(&self) -> Result<(), String> {
        if self.mss_bytes == 0 || self.mss_bytes > MAX_MSS_BYTES {
            return Err(format!(".mss_bytes: must be in [1, {MAX_MSS_BYTES}]"));
        }
        if self.header_bytes > MAX_HEADER_BYTES {
            return Err(format!(".header_bytes: must be <= {MAX_HEADER_BYTES}"));
        }
        if self.ack_bytes.is_some_and(|b| b > MAX_HEADER_BYTES) {
            return Err(format!(".ack_bytes: must be <= {MAX_HEADER_BYTES}"));
        }
        if self.init_cwnd_segments == 0 || self.dupack_threshold == 0 || self.delack_count == 0 {
            return Err(": init_cwnd_segments, dupack_threshold and delack_count must be >= 1".into());
        }
        if self.rwnd_bytes < self.mss_bytes as u64 {
            return Err(format!(".rwnd_bytes: {} must be >= mss_bytes", self.rwnd_bytes));
        }
        if self.min_rto_ns == 0 || self.min_rto_ns > self.max_rto_ns {
            return Err(".min_rto_ns: must be in (0, max_rto_ns]".into());
        }
        if self.rtt_tick_ns > self.max_rto_ns {
            return Err(".rtt_tick_ns: must be <= max_rto_ns".into());
        }
        if self.rto_estimator == RtoEstimator::Ns2Ticks && self.rtt_tick_ns == 0 {
            return Err(".rto_estimator: \"ns2_ticks\" needs rtt_tick_ns > 0".into());
        }
        self.cc.validate().map_err(|e| format!(".cc.{e}"))
    }
}
