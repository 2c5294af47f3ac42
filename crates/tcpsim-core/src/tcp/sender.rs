//! The TCP sender: ACK processing, the retransmission timer and the two halves it drives,
//! congestion control (`cc`: window growth and the reduction target) and loss recovery
//! (`recovery`: duplicate ACKs, fast recovery, what to send next).
//!
//! The sender owns what every TCP has whatever the algorithms: RTT measurement (RFC 6298,
//! Karn's algorithm), duplicate-ACK counting and the decision to enter fast retransmit
//! (RFC 5681 §3.2 step 2 with RFC 6582's `recover` check), the retransmission timeout with
//! go-back-N (RFC 5681 §3.1, RFC 6298 §5), and the per-RTT round boundary. The state loss
//! recovery acts on is [`SendState`]; packets leave through a [`Transmitter`].
//! The three-way handshake is optional (`TcpConfig::handshake`, RFC 9293 §3.5: see
//! [`Handshake`]); without it the connection exists when the application starts.
//! Deviations from a real stack: no FIN, no Nagle,
//! segments are always full-sized except the last of a finite transfer, the receiver's
//! window is a constant.

use super::cc::{AckSample, CaState, CongestionControl, LossSignal, Reduction, RoundCounter, Window};
use super::delivery_rate::DeliveryRate;
use super::recovery::LossRecovery;
use super::rtt::RttEstimator;
use super::send_state::SendState;
use super::transmitter::{Transmitter, Wire};
use crate::config::{
    EcnSender, FastRetransmitTimer, PartialAckTimer, RttSampling, SsthreshFrom, TcpConfig, TimeoutSsthresh,
};
use crate::context::Ctx;
use crate::engine::Event;
use crate::packet::SackBlock;
use crate::rng::RandomStream;

pub use super::transmitter::SenderCounters;

pub struct TcpSender {
    state: SendState,
    wire: Wire,
    cc: CongestionControl,
    recovery: LossRecovery,
    rtt: RttEstimator,
    /// Do not enter fast retransmit for duplicate ACKs that do not cover `recover`
    /// (`TcpConfig::avoid_repeated_fast_retransmit`).
    avoid_repeated_fast_retransmit: bool,
    /// Whether every partial ACK restarts the timer (`TcpConfig::partial_ack_timer`).
    partial_ack_timer: PartialAckTimer,
    /// RFC 3042 on the first duplicate ACKs (`TcpConfig::limited_transmit`).
    limited_transmit: bool,
    timeout_ssthresh: TimeoutSsthresh,
    ssthresh_from: SsthreshFrom,
    /// Round-trip boundaries for `CongestionOps::on_round_end`.
    rounds: RoundCounter,
    started: bool,
    /// End of all the data the application will ever supply (u64::MAX: unlimited); an ON
    /// period makes data available up to it again.
    app_end: u64,
    /// Smallest RTT sample inside the measurement window.
    window_min_rtt_ns: Option<u64>,
    /// Tick of the RTT clock (0 = exact), `TcpConfig::rtt_tick_ns`.
    rtt_tick_ns: u64,
    /// One past the highest byte sent when the window was last reduced for an ECN-Echo
    /// (Linux's `high_seq` of the CWR state): until an ACK passes it, that window of data has
    /// had its reduction (RFC 3168 §6.1.2).
    ecn_reduced_until: Option<u64>,
    /// One past the highest byte sent at the last retransmission timeout: until an ACK passes
    /// it the sender is in Linux's `TCP_CA_Loss` state (`CaState::Loss`).
    loss_until: Option<u64>,
    handshake: Handshake,
}

/// The sender's side of the three-way handshake (RFC 9293 §3.5; the receiver answers each SYN
/// with a SYN-ACK at once, `TcpReceiver::on_data`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Handshake {
    /// Not modelled (`TcpConfig::handshake` off): the connection exists from the start.
    Off,
    /// The application has not started: nothing sent yet.
    Closed,
    /// The SYN left at `sent_ns`; `resent`: it timed out and was sent again, so the
    /// SYN-ACK gives no RTT sample (Karn, RFC 6298 §3).
    SynSent { sent_ns: u64, resent: bool },
    /// The SYN-ACK arrived: data flows.
    Established,
}

impl TcpSender {
    pub fn new(flow: u32, node: u32, peer: u32, cfg: &TcpConfig, data_end: u64) -> Self {
        let mss = cfg.mss_bytes as u64;
        let window = Window {
            cwnd_bytes: cfg.init_cwnd_segments as u64 * mss,
            ssthresh_bytes: cfg.init_ssthresh_bytes,
            mss_bytes: mss,
            ca_credit: 0,
            ca_increment: cfg.ca_increment,
        };
        let cc = CongestionControl::from_config(&cfg.cc, mss);
        let mut state = SendState::new(mss, cfg.rwnd_bytes, cfg.dupack_threshold, window, data_end);
        state.rate = DeliveryRate::new(cc.ops().wants_rate_samples());
        TcpSender {
            state,
            wire: Wire {
                flow,
                epoch: 0,
                node,
                peer,
                header_bytes: cfg.header_bytes,
                ecn: cfg.ecn,
                ect: cfg.ecn_codepoint.ecn(),
                ecn_ns2: cfg.ecn_sender == EcnSender::Ns2,
                ect_retransmissions: cfg.ecn_sender == EcnSender::LinuxDctcp,
                rd_class: cfg.rd_mark(),
                cwr_pending: false,
                rto_timer: Default::default(),
                keep_timer_at_fast_retransmit: cfg.fast_retransmit_timer == FastRetransmitTimer::Keep,
                counters: SenderCounters::default(),
                time_one_segment: cfg.rtt_sampling == RttSampling::TimedSegment,
                timed: None,
                pacing_rate_bps: None,
                next_send_ns: 0,
                pace_timer: Default::default(),
            },
            cc,
            recovery: LossRecovery::from_kind(cfg.recovery),
            rtt: RttEstimator::new(cfg.initial_rto_ns, cfg.min_rto_ns, cfg.max_rto_ns, cfg.clock_granularity_ns)
                .with_arithmetic(cfg.rto_estimator, cfg.rtt_tick_ns),
            avoid_repeated_fast_retransmit: cfg.avoid_repeated_fast_retransmit,
            partial_ack_timer: cfg.partial_ack_timer,
            limited_transmit: cfg.limited_transmit,
            timeout_ssthresh: cfg.timeout_ssthresh,
            ssthresh_from: cfg.ssthresh_from,
            rounds: RoundCounter::default(),
            started: false,
            app_end: data_end,
            window_min_rtt_ns: None,
            rtt_tick_ns: cfg.rtt_tick_ns,
            ecn_reduced_until: None,
            loss_until: None,
            handshake: if cfg.handshake { Handshake::Closed } else { Handshake::Off },
        }
    }

    pub fn flow(&self) -> u32 {
        self.wire.flow
    }

    pub fn cwnd(&self) -> u64 {
        self.state.window.cwnd_bytes
    }

    pub fn ssthresh(&self) -> u64 {
        self.state.window.ssthresh_bytes
    }

    /// The congestion controller's bandwidth estimate, bits of payload per second (NaN for
    /// algorithms without one).
    pub fn bwe_bps(&self) -> f64 {
        self.cc.ops().bandwidth_estimate_bps().unwrap_or(f64::NAN)
    }

    /// RTTmin, the smallest RTT sample so far (ns; 0 before the first).
    pub fn min_rtt_ns(&self) -> u64 {
        self.rtt.min_rtt_ns.unwrap_or(0)
    }

    /// The current retransmission timeout (RFC 6298 RTO).
    pub fn rto_ns(&self) -> u64 {
        self.rtt.rto_ns
    }

    pub fn counters(&self) -> SenderCounters {
        self.wire.counters
    }

    /// The connection's epoch (`Packet::epoch`).
    pub fn epoch(&self) -> u32 {
        self.wire.epoch
    }

    /// Every byte the application will supply has been acknowledged.
    pub fn all_acked(&self) -> bool {
        self.state.snd_una >= self.app_end
    }

    /// Take over `old`'s slot: its epoch, its counters (a slot's counters add up over the
    /// connections it holds) and the generation count of its retransmission timer.
    pub(crate) fn succeed(&mut self, old: &TcpSender) {
        self.wire.epoch = old.wire.epoch;
        self.wire.counters = old.wire.counters;
        self.wire.rto_timer = old.wire.rto_timer.successor();
        self.wire.pace_timer = old.wire.pace_timer.successor();
    }

    /// The connection is over: packets of it still in flight are stale from now on.
    pub(crate) fn retire(&mut self) {
        self.wire.epoch = self.wire.epoch.wrapping_add(1);
    }

    /// Smallest RTT sample since the measurement window began.
    pub fn window_min_rtt_ns(&self) -> Option<u64> {
        self.window_min_rtt_ns
    }

    /// The measurement window begins: forget the smallest RTT sample seen so far.
    pub fn start_measurement_window(&mut self) {
        self.window_min_rtt_ns = None;
    }

    /// Record cwnd, ssthresh, the bandwidth estimate and RTTmin in the cwnd trace.
    fn record_cwnd(&self, ctx: &mut Ctx) {
        let (cwnd, ssthresh) = (self.cwnd(), self.ssthresh());
        ctx.trace.record_cwnd(ctx.now(), self.wire.flow, cwnd, ssthresh, self.bwe_bps(), self.min_rtt_ns());
    }

    /// The application starts (or resumes after an OFF period, with the window it had): its
    /// data is available again and what the window allows is sent at once.
    pub fn start(&mut self, ctx: &mut Ctx) {
        self.started = true;
        self.state.data_end = self.app_end;
        if self.handshake == Handshake::Closed {
            self.send_syn(false, ctx);
            return;
        }
        self.output(ctx);
    }

    /// Send the SYN (again, if `resent`).
    fn send_syn(&mut self, resent: bool, ctx: &mut Ctx) {
        self.handshake = Handshake::SynSent { sent_ns: ctx.now(), resent };
        self.wire.send_syn(self.rtt.rto_ns, ctx);
    }

    /// The receiver's SYN-ACK: the connection is established and data may flow. Its round
    /// trip is the first RTT sample (RFC 6298 §2), unless the SYN was resent (§5.7). A SYN-ACK
    /// answering a resent SYN after the first one was answered changes nothing.
    pub fn on_syn_ack(&mut self, ctx: &mut Ctx) {
        let Handshake::SynSent { sent_ns, resent } = self.handshake else { return };
        self.handshake = Handshake::Established;
        self.wire.rto_timer.cancel();
        if resent {
            self.rtt.reinitialize_after_syn_timeout();
        } else {
            let now = ctx.now();
            let r = quantize_rtt(now - sent_ns, self.rtt_tick_ns);
            self.rtt.sample(r);
            self.wire.counters.rtt_samples += 1;
            self.wire.counters.rtt_sum_ns += now - sent_ns;
            self.window_min_rtt_ns = Some(self.window_min_rtt_ns.map_or(now - sent_ns, |m| m.min(now - sent_ns)));
            ctx.trace.record_rtt(now, self.wire.flow, r, self.rtt.srtt_ns.unwrap_or(r), self.rtt.rto_ns);
        }
        self.output(ctx);
    }

    /// The application stops producing data: nothing beyond what was already sent until it
    /// starts again; what was sent is still retransmitted.
    pub fn stop(&mut self) {
        self.state.data_end = self.state.data_end.min(self.state.snd_max);
    }

    /// Send what loss recovery chooses: what the window allows, or RFC 6675's pipe rule
    /// during SACK recovery.
    fn output(&mut self, ctx: &mut Ctx) {
        if !self.started || matches!(self.handshake, Handshake::Closed | Handshake::SynSent { .. }) {
            return;
        }
        self.wire.pacing_rate_bps = self.cc.ops().pacing_rate_bps();
        let mut tx = Transmitter::new(&mut self.wire, self.rtt.rto_ns, ctx);
        self.recovery.ops_mut().send(&mut self.state, &mut tx);
        if self.state.rate.enabled() && self.state.snd_nxt >= self.state.data_end {
            // Less than a segment of new data left (delivery_rate: application-limited).
            let pipe = self.recovery.ops().pipe_bytes(&self.state);
            if pipe < self.state.window.cwnd_bytes {
                self.state.rate.mark_app_limited(pipe);
            }
        }
    }

    /// The pacing timer event fired: send what pacing held back.
    pub fn on_pace_event(&mut self, generation: u32, ctx: &mut Ctx) {
        match self.wire.pace_timer.fire(generation, ctx.now()) {
            Ok(true) => self.output(ctx),
            Ok(false) => {}
            Err(at) => {
                ctx.sched.at(at, Event::Pace { flow: self.wire.flow, generation: self.wire.pace_timer.generation() })
            }
        }
    }

    /// Process a cumulative ACK, its SACK blocks and its ECN-Echo flag (RFC 5681 §3.2,
    /// RFC 6675 §5, RFC 3168 §6.1.2, and the recovery algorithm's rules). Only the receiver of an
    /// ECN flow ever sets `ece`.
    pub fn on_ack(&mut self, ack: u64, sack: &[SackBlock], ece: bool, ctx: &mut Ctx) {
        let s = &self.state;
        if ack > s.snd_max {
            return; // acknowledges data never sent
        }
        let before = (self.cwnd(), self.ssthresh());
        let prior_in_flight = if self.state.rate.enabled() { self.recovery.ops().pipe_bytes(&self.state) } else { 0 };
        self.state.update_scoreboard(sack);
        if ack > self.state.snd_una {
            self.on_new_ack(ack, ece, ctx);
        } else if ack == self.state.snd_una && self.state.snd_una < self.state.snd_max {
            self.state.dupacks += 1;
            let sample = AckSample {
                now_ns: ctx.now(),
                ack,
                snd_nxt: self.state.snd_nxt,
                acked_bytes: 0,
                duplicate: true,
                rtt_ns: None,
                oldest_rtt_ns: None,
                ece,
            };
            self.cc.ops_mut().on_ack(&sample);
            self.on_duplicate_ack(ctx);
        }
        if self.state.rate.enabled() {
            self.cong_control(prior_in_flight, ctx.now());
        }
        if ece {
            self.on_ecn_echo(ctx.now());
        }
        self.output(ctx);
        if ctx.trace.cwnd_on && ctx.trace.on_change && before != (self.cwnd(), self.ssthresh()) {
            self.record_cwnd(ctx);
        }
    }

    /// The ACK has been taken: its delivery-rate sample to the congestion control's
    /// `cong_control` (Linux `tcp_cong_control` after `tcp_rate_gen`).
    fn cong_control(&mut self, prior_in_flight: u64, now_ns: u64) {
        let s = &self.state;
        let state = if self.recovery.ops().in_recovery() {
            CaState::Recovery
        } else if self.loss_until.is_some_and(|until| s.snd_una < until) {
            CaState::Loss
        } else {
            CaState::Open
        };
        let mut rs = self.state.rate.take_sample(now_ns, self.rtt.min_rtt_ns);
        rs.prior_in_flight_bytes = prior_in_flight;
        rs.in_flight_bytes = self.recovery.ops().pipe_bytes(&self.state);
        rs.lost_bytes = prior_in_flight.saturating_sub(rs.in_flight_bytes + rs.acked_sacked_bytes);
        if self.cc.ops_mut().cong_control(&mut self.state.window, &rs, state) {
            self.state.rate.mark_app_limited(rs.in_flight_bytes);
        }
    }

    /// Give the congestion control its own random stream (`CongestionOps::set_random_stream`).
    pub fn seed_cc(&mut self, stream: RandomStream) {
        self.cc.ops_mut().set_random_stream(stream);
    }

    /// A duplicate ACK (already counted): recovery's, or perhaps the start of fast
    /// retransmit, with the reduction from congestion control, or else limited transmit.
    fn on_duplicate_ack(&mut self, ctx: &mut Ctx) {
        let rfc6582_allows = self.may_enter_fast_retransmit();
        let recovery = self.recovery.ops_mut();
        if recovery.in_recovery() {
            let mut tx = Transmitter::new(&mut self.wire, self.rtt.rto_ns, ctx);
            recovery.on_duplicate_ack_tx(&mut self.state, &mut tx);
            self.back_off_if_asked(ctx);
            return;
        }
        let loss = recovery.loss_detected_at(&self.state, ctx.now());
        if !loss || !recovery.may_enter_fast_retransmit(&self.state, rfc6582_allows) {
            recovery.on_ignored_duplicate_ack(&mut self.state);
            if self.limited_transmit && self.state.dupacks < self.state.dupack_threshold {
                let mut tx = Transmitter::new(&mut self.wire, self.rtt.rto_ns, ctx);
                self.recovery.ops_mut().limited_transmit(&mut self.state, &mut tx);
            }
            return;
        }
        self.wire.counters.fast_retransmits += 1;
        let base = self.reduction_base_bytes(true);
        let s = &mut self.state;
        let already_reduced = self.ecn_reduced_until.is_some_and(|until| s.snd_una < until);
        let r = if already_reduced {
            // RFC 3168 §6.1.2: one reduction for the CE marks and losses of one window of
            // data; this window has had it. Recover without reducing again (Linux's CWR state;
            // ns-2's `dupack_action` after `CWND_ACTION_ECN`).
            Reduction {
                ssthresh_bytes: s.window.ssthresh_bytes,
                cwnd_bytes: Some(s.window.cwnd_bytes),
                entry_cwnd_bytes: None,
            }
        } else {
            self.cc.ops_mut().on_loss(&s.window, base, LossSignal::DuplicateAcks, ctx.now())
        };
        if !already_reduced {
            self.wire.note_reduction_ns2();
        }
        self.wire.timed = None; // ns-2's `reset_rtx_timer` (timing segment lost or late)
        s.window.ssthresh_bytes = r.ssthresh_bytes;
        s.window.ca_credit = 0;
        s.recover = Some(s.snd_max);
        let mut tx = Transmitter::new(&mut self.wire, self.rtt.rto_ns, ctx);
        self.recovery.ops_mut().enter(s, &r, &mut tx);
        self.back_off_if_asked(ctx);
    }

    /// `RecoveryOps::take_rto_back_off`: double the RTO and restart the timer with it.
    fn back_off_if_asked(&mut self, ctx: &mut Ctx) {
        if self.recovery.ops_mut().take_rto_back_off() {
            self.rtt.back_off();
            self.wire.restart_rto_timer(self.rtt.rto_ns, ctx);
        }
    }

    /// RFC 6582 §3.2 step 1: enter fast retransmit only if the cumulative ACK "covers more
    /// than recover" (the highest sequence number sent when it was set, i.e. `r − 1` here:
    /// the ACK must exceed `r`), so that duplicate ACKs caused by go-back-N after a timeout —
    /// which arrive with ACK = `r` once the hole is filled — or by the same window's other
    /// losses do not trigger a needless retransmission and cut the window again.
    fn may_enter_fast_retransmit(&self) -> bool {
        let s = &self.state;
        !self.avoid_repeated_fast_retransmit || s.recover.is_none_or(|r| s.snd_una > r)
    }

    /// An ACK of new data; `ece`: it carries ECN-Echo, so it does not grow the window
    /// (RFC 3168 §6.1.2: "SHOULD NOT increase the congestion window in response to" it).
    fn on_new_ack(&mut self, ack: u64, ece: bool, ctx: &mut Ctx) {
        let now = ctx.now();
        let acked = ack - self.state.snd_una;
        let acked_rtt = self.state.take_acked_segments(ack, now);
        let exact_rtt_ns = acked_rtt.newest;
        // What the TCP's clock reads (`quantize_rtt`): the estimator, the controller and the
        // RTT trace see it; the summary's RTT statistics keep the exact sample.
        let rtt_ns = exact_rtt_ns.map(|r| quantize_rtt(r, self.rtt_tick_ns));
        let oldest_rtt_ns = acked_rtt.oldest.map(|r| quantize_rtt(r, self.rtt_tick_ns));
        if let (Some(exact), Some(r)) = (exact_rtt_ns, rtt_ns) {
            if !self.wire.time_one_segment {
                self.rtt.sample(r);
            }
            self.wire.counters.rtt_samples += 1;
            self.wire.counters.rtt_sum_ns += exact;
            self.window_min_rtt_ns = Some(self.window_min_rtt_ns.map_or(exact, |m| m.min(exact)));
            let srtt = self.rtt.srtt_ns.unwrap_or(r);
            ctx.trace.record_rtt(now, self.wire.flow, r, srtt, self.rtt.rto_ns);
        }
        let s = &mut self.state;
        s.snd_una = ack;
        s.snd_nxt = s.snd_nxt.max(ack);
        s.limited_transmit_bytes = 0;
        let sample = AckSample {
            now_ns: now,
            ack,
            snd_nxt: s.snd_nxt,
            acked_bytes: acked,
            duplicate: false,
            rtt_ns,
            oldest_rtt_ns,
            ece,
        };
        let cc = self.cc.ops_mut();
        cc.on_ack(&sample);
        if self.rounds.on_ack(ack, s.snd_nxt) {
            cc.on_round_end(&sample, &s.window);
        }
        let recovery = self.recovery.ops_mut();
        let mut partial = false;
        let reset_timer = if !recovery.in_recovery() {
            s.dupacks = 0;
            if !ece {
                cc.increase_window(&mut s.window, acked);
            }
            true
        } else if recovery.recovery_complete(s) {
            recovery.exit(s);
            s.dupacks = 0;
            if recovery.grows_on_exit() && !ece {
                cc.increase_window(&mut s.window, acked);
            }
            true
        } else {
            partial = true;
            let restart =
                recovery.on_partial_ack(s, acked, &mut Transmitter::new(&mut self.wire, self.rtt.rto_ns, ctx));
            restart || self.partial_ack_timer == PartialAckTimer::SlowButSteady
        };
        // `RttSampling::TimedSegment`: the ACK that covers the timed segment ends its timing,
        // with a sample unless it is a partial ACK (ns-2's `newack` / `partialnewack`).
        if let Some((_, sent_ns)) = self.wire.timed.filter(|&(end, _)| ack >= end) {
            self.wire.timed = None;
            if !partial {
                self.rtt.sample(quantize_rtt(now - sent_ns, self.rtt_tick_ns));
            }
        }
        // RFC 6298 §5.2/§5.3: stop the timer when all is acked, else restart it.
        if s.snd_una == s.snd_max {
            self.wire.rto_timer.cancel();
        } else if reset_timer {
            self.wire.restart_rto_timer(self.rtt.rto_ns, ctx);
        }
        let mut tx = Transmitter::new(&mut self.wire, self.rtt.rto_ns, ctx);
        self.recovery.ops_mut().after_new_ack(&mut self.state, exact_rtt_ns, &mut tx);
    }

    /// RFC 3168 §6.1.2: an ECN-Echo is "treated just as a congestion loss": ssthresh and cwnd
    /// from the congestion controller's answer (`CongestionOps::on_ecn`), cwnd never raised
    /// and at least one segment, nothing retransmitted, CWR set on the next new segment. At
    /// most once per window of data: not during loss recovery or the go-back-N after a timeout
    /// (which reduced already), and not again until an ACK covers data sent after the last
    /// reduction (ns-2's `ecn()`: `seqno > recover_`). The RFC's further rule for a window of
    /// one segment (restart the retransmission timer and send only when it expires) is not
    /// modelled: cwnd stays at one segment.
    fn on_ecn_echo(&mut self, now_ns: u64) {
        let s = &self.state;
        let covered = |until: Option<u64>| until.is_none_or(|u| s.snd_una > u);
        if self.recovery.ops().in_recovery() || !covered(s.recover) || !covered(self.ecn_reduced_until) {
            return;
        }
        self.wire.counters.ecn_reductions += 1;
        let base = self.reduction_base_bytes(false);
        let r = self.cc.ops_mut().on_ecn(&self.state.window, base, now_ns);
        let s = &mut self.state;
        s.window.ssthresh_bytes = r.ssthresh_bytes;
        let target = r.cwnd_bytes.unwrap_or(r.ssthresh_bytes);
        s.window.cwnd_bytes = s.window.cwnd_bytes.min(target).max(s.mss);
        s.window.ca_credit = 0;
        self.ecn_reduced_until = Some(s.snd_max);
        self.wire.cwr_pending = true;
    }

    /// The retransmission timer event fired.
    pub fn on_rto_event(&mut self, generation: u32, ctx: &mut Ctx) {
        match self.wire.rto_timer.fire(generation, ctx.now()) {
            Ok(true) if matches!(self.handshake, Handshake::SynSent { .. }) => {
                // The SYN (or its SYN-ACK) was lost: back off and send it again (RFC 6298 §5.5).
                self.wire.counters.timeouts += 1;
                self.rtt.back_off();
                self.send_syn(true, ctx);
            }
            Ok(true) => self.on_timeout(ctx),
            Ok(false) => {}
            Err(at) => {
                ctx.sched.at(at, Event::Rto { flow: self.wire.flow, generation: self.wire.rto_timer.generation() })
            }
        }
    }

    /// RFC 6298 §5.4–5.6 and RFC 5681 §3.1: retransmit the first unacked segment with
    /// cwnd = 1 segment (go-back-N), ssthresh from the congestion controller, RTO doubled;
    /// RFC 6582 §3.2: recover = highest sent.
    ///
    /// With `TimeoutSsthresh::FirstOfEpisode` ssthresh is reduced only if this timeout starts
    /// a new loss episode (`snd_una` has passed `recover`). RFC 5681 §3.1 holds it constant
    /// across repeated timeouts of one segment; we extend that to a timeout during fast
    /// recovery, as Linux's `tcp_enter_loss` does, because FlightSize is then inflated by the
    /// data sent during recovery and halving it would undo the reduction fast retransmit
    /// already made. With `Every` (4.4BSD, ns-2) each expiry reduces it from the window in
    /// use (see `timeout_base_bytes`). A restart window proposed by the controller with the
    /// reduction (`Reduction::cwnd_bytes`) replaces the one segment.
    fn on_timeout(&mut self, ctx: &mut Ctx) {
        if self.state.snd_una >= self.state.snd_max {
            return;
        }
        self.wire.counters.timeouts += 1;
        let mut restart_cwnd = None;
        let reduce = match self.timeout_ssthresh {
            TimeoutSsthresh::FirstOfEpisode => self.state.recover.is_none_or(|r| self.state.snd_una >= r),
            TimeoutSsthresh::Every => true,
        };
        if reduce {
            let base = self.timeout_base_bytes();
            let r = self.cc.ops_mut().on_loss(&self.state.window, base, LossSignal::Timeout, ctx.now());
            self.state.window.ssthresh_bytes = r.ssthresh_bytes;
            restart_cwnd = r.cwnd_bytes;
        }
        let s = &mut self.state;
        s.window.cwnd_bytes = restart_cwnd.unwrap_or(s.mss);
        s.window.ca_credit = 0;
        self.recovery.ops_mut().on_timeout_at(s, ctx.now());
        s.dupacks = 0;
        s.limited_transmit_bytes = 0;
        s.recover = Some(s.snd_max);
        self.loss_until = Some(s.snd_max);
        s.snd_nxt = s.snd_una;
        self.wire.note_reduction_ns2();
        self.wire.timed = None;
        self.rtt.back_off();
        self.wire.rto_timer.cancel();
        self.output(ctx);
        if ctx.trace.cwnd_on && ctx.trace.on_change {
            self.record_cwnd(ctx);
        }
    }

    /// The window fast retransmit and an ECN-Echo reduction halve (`SsthreshFrom`): the
    /// un-inflated min(cwnd, rwnd) (neither is in recovery when it is asked), FlightSize
    /// without the limited-transmit segments (RFC 5681 §3.2), or ns-3's pipe (with SACK the
    /// SACKed segments and the presumed-lost first one out; without, one segment per
    /// duplicate ACK out and the first one back in).
    fn reduction_base_bytes(&self, loss: bool) -> u64 {
        let s = &self.state;
        match self.ssthresh_from {
            SsthreshFrom::Cwnd => s.window.cwnd_bytes.min(s.rwnd_bytes),
            SsthreshFrom::FlightSize => s.flight_size_before_limited_transmit(),
            SsthreshFrom::Ns3Pipe => {
                // A fast retransmit also takes the first segment as lost (with SACK; without,
                // it is counted back in); an ECN-Echo reduction (`EnterCwr`) does not.
                let reported = match self.recovery {
                    LossRecovery::Sack(_) => s.sacked_count() + u64::from(loss),
                    _ => s.dupacks as u64,
                };
                s.flight_size().saturating_sub(reported * s.mss)
            }
        }
    }

    /// The window a timeout's ssthresh is computed from (the `flight_bytes` of
    /// `CongestionOps::on_loss`): FlightSize (RFC 5681 eq. 4) or, with
    /// `TimeoutSsthresh::Every`, the window in use as ns-2's `window()` reads it:
    /// min(cwnd, rwnd), with cwnd taken before fast-recovery inflation.
    fn timeout_base_bytes(&self) -> u64 {
        match self.timeout_ssthresh {
            TimeoutSsthresh::FirstOfEpisode => self.state.flight_size(),
            TimeoutSsthresh::Every => self.recovery.ops().uninflated_cwnd(&self.state).min(self.state.rwnd_bytes),
        }
    }
}

/// An RTT sample as read on a clock ticking every `tick_ns` (0: exact): the nearest whole
/// number of ticks, at least one, i.e. max(1, ⌊r/T + ½⌋)·T.
///
/// This is ns-2's rule (`TcpAgent::rtt_update` in `tcp/tcp.cc`): the sample `tao` becomes
/// `t_rtt_ = int(tao / tcp_tick_ + 0.5)`, raised to 1 if smaller, and the RFC 793/Jacobson
/// estimator runs on `t_rtt_`. It is the whole rule in ns-2 releases up to 2.1b (2000–2001) and
/// with the timestamp option later; without timestamps, later releases count the tick
/// boundaries crossed since a random boot phase instead, `int((tao + tickoff) / tcp_tick_)`,
/// which has the same floor of one tick and differs only in rounding. ns-2's TCPW agent
/// (`tcp/tcp-westwood.cc`, UCLA, 2002) takes its RTTmin from the same reading,
/// `rtt_estimate = t_rtt_ * tcp_tick_`, so with `tcp_tick_` = 100 ms (the default of that
/// time) no TCPW RTTmin is below 100 ms, however short the path.
pub(crate) fn quantize_rtt(rtt_ns: u64, tick_ns: u64) -> u64 {
    if tick_ns == 0 {
        return rtt_ns;
    }
    let ticks = (rtt_ns + tick_ns / 2) / tick_ns;
    ticks.max(1) * tick_ns
}

#[cfg(test)]
mod tests {
    use super::quantize_rtt;

    const MS: u64 = 1_000_000;

    #[test]
    fn rtt_samples_round_to_whole_ticks_of_at_least_one() {
        assert_eq!(quantize_rtt(12_345_678, 0), 12_345_678, "tick 0: exact");
        let tick = 100 * MS;
        assert_eq!(quantize_rtt(1, tick), 100 * MS, "never below one tick");
        assert_eq!(quantize_rtt(45 * MS, tick), 100 * MS);
        assert_eq!(quantize_rtt(149 * MS, tick), 100 * MS);
        assert_eq!(quantize_rtt(150 * MS, tick), 200 * MS, "halves round up, as int(x + 0.5)");
        assert_eq!(quantize_rtt(249 * MS, tick), 200 * MS);
        assert_eq!(quantize_rtt(560 * MS, tick), 600 * MS);
    }
}
