//! The TCP sender: sequence space, transmission, ACK processing and the retransmission timer.
//!
//! State uses the RFC names (all sequence numbers and windows in bytes; the ISS is 0):
//! `snd_una` oldest unacknowledged byte, `snd_nxt` next byte to send, `snd_max` highest byte
//! sent + 1 (they differ after go-back-N), `cwnd`/`ssthresh` (RFC 5681), `recover`
//! (RFC 6582), `dupacks`. One record per outstanding segment keeps its last send time and
//! whether it was ever retransmitted (Karn's algorithm, RFC 6298 §3).
//!
//! Window growth and the reduction target are delegated to `cc`; what happens on duplicate
//! ACKs, in fast recovery and on a timeout is decided by `recovery` (see `super::recovery`).
//! Deviations from a real stack: no handshake (the connection exists at start), no Nagle,
//! segments are always full-sized except the last of a finite transfer, the receiver's
//! window is a constant.

use std::collections::VecDeque;

use super::cc::{AckSample, CongestionControl, LossSignal, Window};
use super::recovery;
use super::rtt::RttEstimator;
use crate::config::{RecoveryKind, TcpConfig, TimeoutSsthresh};
use crate::context::Ctx;
use crate::engine::Event;
use crate::packet::{Packet, PacketKind, Retransmission, SackBlock};

/// Cumulative sender counters (snapshotted at the start of the measurement window).
#[derive(Clone, Copy, Debug, Default)]
pub struct SenderCounters {
    /// Payload bytes put on the wire, retransmissions included.
    pub bytes_sent: u64,
    pub bytes_retransmitted: u64,
    pub timeouts: u64,
    /// Fast-retransmit episodes (entries into fast retransmit).
    pub fast_retransmits: u64,
    /// Segments retransmitted by fast retransmit or during fast recovery.
    pub fast_retransmitted_segments: u64,
    pub rtt_samples: u64,
    pub rtt_sum_ns: u64,
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct Segment {
    sent_ns: u64,
    retransmitted: bool,
    /// Covered by a SACK block (RFC 6675 scoreboard); the receiver never reneges.
    pub(crate) sacked: bool,
}

/// A lazily re-armed timer: at most one pending event; moving the deadline later costs
/// nothing, moving it earlier schedules a new event and makes the old one stale.
#[derive(Default)]
pub(crate) struct Timer {
    deadline_ns: Option<u64>,
    event_at_ns: Option<u64>,
    generation: u32,
}

impl Timer {
    /// Arm at `deadline`; returns the (time, generation) of an event to schedule, if needed.
    pub(crate) fn arm(&mut self, deadline: u64) -> Option<(u64, u32)> {
        self.deadline_ns = Some(deadline);
        match self.event_at_ns {
            Some(at) if at <= deadline => None,
            _ => {
                self.generation = self.generation.wrapping_add(1);
                self.event_at_ns = Some(deadline);
                Some((deadline, self.generation))
            }
        }
    }

    pub(crate) fn cancel(&mut self) {
        self.deadline_ns = None;
    }

    pub(crate) fn is_armed(&self) -> bool {
        self.deadline_ns.is_some()
    }

    /// The scheduled event fired. `Ok(true)`: the timer expired; `Ok(false)`: nothing to
    /// do; `Err(t)`: the deadline moved later, schedule again at `t` with the same generation.
    pub(crate) fn fire(&mut self, generation: u32, now: u64) -> Result<bool, u64> {
        if generation != self.generation {
            return Ok(false);
        }
        self.event_at_ns = None;
        match self.deadline_ns {
            None => Ok(false),
            Some(d) if d > now => {
                self.event_at_ns = Some(d);
                Err(d)
            }
            Some(_) => {
                self.deadline_ns = None;
                Ok(true)
            }
        }
    }

    pub(crate) fn generation(&self) -> u32 {
        self.generation
    }
}

pub struct TcpSender {
    pub flow: u32,
    pub node: u32,
    pub peer: u32,
    pub mss: u32,
    header_bytes: u32,
    rwnd_bytes: u64,
    pub(crate) dupack_threshold: u32,
    pub(crate) recovery_kind: RecoveryKind,
    pub(crate) avoid_repeated_fast_retransmit: bool,
    timeout_ssthresh: TimeoutSsthresh,

    pub snd_una: u64,
    pub snd_nxt: u64,
    pub snd_max: u64,
    pub(crate) window: Window,
    /// The window Reno/NewReno fast recovery inflates from and deflates back to, set at its
    /// entry from the congestion controller's `Reduction` (ssthresh unless it says otherwise).
    pub(crate) recovery_cwnd_bytes: u64,
    /// The window Reno/NewReno fast recovery starts from when the controller sets it
    /// (`Reduction::entry_cwnd_bytes`); `None`: `recovery_cwnd_bytes` + n segments.
    pub(crate) recovery_entry_cwnd_bytes: Option<u64>,
    pub(crate) dupacks: u32,
    pub(crate) in_fast_recovery: bool,
    /// RFC 6582 `recover`, stored as one past the highest byte sent when it was set.
    pub(crate) recover: Option<u64>,
    /// RFC 6582 §3.2 step 5 "impatient" timer: reset only on the first partial ACK.
    pub(crate) partial_ack_seen: bool,
    pub(crate) rtt: RttEstimator,
    pub(crate) cc: CongestionControl,
    /// snd_nxt when the current round trip began: an ACK at or beyond it ends the round
    /// (`CongestionOps::on_round_end`).
    round_end: u64,
    /// One record per segment from `snd_una` on (the first is `snd_una`'s segment).
    pub(crate) segments: VecDeque<Segment>,
    /// RFC 6675 HighRxt, one past the highest byte retransmitted in this recovery.
    pub(crate) high_rxt: u64,
    /// One past the highest byte SACKed so far (RFC 6675's "highest octet covered by SACK").
    pub(crate) high_sacked: u64,
    /// End of the data the application has supplied (u64::MAX: persistent source).
    pub data_end: u64,
    pub started: bool,
    rto_timer: Timer,
    pub counters: SenderCounters,
    /// Smallest RTT sample inside the measurement window.
    pub window_min_rtt_ns: Option<u64>,
    /// Tick of the RTT clock (0 = exact), `TcpConfig::rtt_tick_ns`.
    rtt_tick_ns: u64,
}

impl TcpSender {
    pub fn new(flow: u32, node: u32, peer: u32, cfg: &TcpConfig, data_end: u64) -> Self {
        let mss = cfg.mss_bytes;
        TcpSender {
            flow,
            node,
            peer,
            mss,
            header_bytes: cfg.header_bytes,
            rwnd_bytes: cfg.rwnd_bytes,
            dupack_threshold: cfg.dupack_threshold,
            recovery_kind: cfg.recovery,
            avoid_repeated_fast_retransmit: cfg.avoid_repeated_fast_retransmit,
            timeout_ssthresh: cfg.timeout_ssthresh,
            snd_una: 0,
            snd_nxt: 0,
            snd_max: 0,
            window: Window {
                cwnd_bytes: cfg.init_cwnd_segments as u64 * mss as u64,
                ssthresh_bytes: cfg.init_ssthresh_bytes,
                mss_bytes: mss as u64,
                ca_credit: 0,
                ca_increment: cfg.ca_increment,
            },
            recovery_cwnd_bytes: cfg.init_ssthresh_bytes,
            recovery_entry_cwnd_bytes: None,
            dupacks: 0,
            in_fast_recovery: false,
            recover: None,
            partial_ack_seen: false,
            rtt: RttEstimator::new(cfg.initial_rto_ns, cfg.min_rto_ns, cfg.max_rto_ns, cfg.clock_granularity_ns),
            cc: CongestionControl::from_config(&cfg.cc, mss as u64),
            round_end: 0,
            segments: VecDeque::new(),
            high_rxt: 0,
            high_sacked: 0,
            data_end,
            started: false,
            rto_timer: Timer::default(),
            counters: SenderCounters::default(),
            window_min_rtt_ns: None,
            rtt_tick_ns: cfg.rtt_tick_ns,
        }
    }

    /// The receiver's advertised window.
    pub(crate) fn rwnd_bytes(&self) -> u64 {
        self.rwnd_bytes
    }

    pub fn cwnd(&self) -> u64 {
        self.window.cwnd_bytes
    }

    pub fn ssthresh(&self) -> u64 {
        self.window.ssthresh_bytes
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

    /// Record cwnd, ssthresh, the bandwidth estimate and RTTmin in the cwnd trace.
    fn record_cwnd(&self, ctx: &mut Ctx) {
        let (cwnd, ssthresh) = (self.window.cwnd_bytes, self.window.ssthresh_bytes);
        ctx.trace.record_cwnd(ctx.now(), self.flow, cwnd, ssthresh, self.bwe_bps(), self.min_rtt_ns());
    }

    /// Bytes sent and not yet cumulatively acknowledged (RFC 5681 FlightSize).
    pub fn flight_size(&self) -> u64 {
        self.snd_max - self.snd_una
    }

    /// The application starts: send what the window allows.
    pub fn start(&mut self, ctx: &mut Ctx) {
        self.started = true;
        self.output(ctx);
    }

    /// The application stops producing data: nothing beyond what was already sent.
    pub fn stop(&mut self) {
        self.data_end = self.data_end.min(self.snd_max);
    }

    /// Send new (or go-back-N) segments while the window allows (RFC 5681 §3.1: at most
    /// min(cwnd, rwnd) bytes outstanding). During SACK recovery the pipe, not the window's
    /// left edge, governs (RFC 6675 §5 step C). Go-back-N skips SACKed segments: our
    /// receiver never reneges, so they need no resending (as Linux does after a timeout).
    pub fn output(&mut self, ctx: &mut Ctx) {
        if !self.started {
            return;
        }
        if self.in_fast_recovery && self.recovery_kind == RecoveryKind::Sack {
            return recovery::sack::output(self, ctx);
        }
        let wnd = self.window.cwnd_bytes.min(self.rwnd_bytes);
        while self.snd_nxt < self.data_end {
            let len = self.segment_len(self.snd_nxt);
            if self.snd_nxt + len > self.snd_una + wnd {
                break;
            }
            let resend = self.snd_nxt < self.snd_max;
            if !(resend && self.segment_at(self.snd_nxt).sacked) {
                let kind = if resend { Retransmission::GoBackN } else { Retransmission::No };
                self.send_segment(self.snd_nxt, kind, ctx);
            }
            self.snd_nxt += len;
            self.snd_max = self.snd_max.max(self.snd_nxt);
        }
    }

    /// Payload bytes of the segment starting at `seq` (full-sized but for a transfer's last).
    pub(crate) fn segment_len(&self, seq: u64) -> u64 {
        (self.data_end.max(self.snd_max) - seq).min(self.mss as u64)
    }

    /// Index in `segments` of the segment starting at `seq`.
    pub(crate) fn segment_index(&self, seq: u64) -> usize {
        ((seq - self.segment_start(self.snd_una)) / self.mss as u64) as usize
    }

    fn segment_at(&self, seq: u64) -> &Segment {
        &self.segments[self.segment_index(seq)]
    }

    /// Sequence number of the first byte of `segments[index]`.
    pub(crate) fn segment_seq(&self, index: usize) -> u64 {
        self.segment_start(self.snd_una) + index as u64 * self.mss as u64
    }

    /// Mark every outstanding segment fully inside a SACK block (RFC 6675 §4 "Update()").
    fn update_scoreboard(&mut self, blocks: &[SackBlock]) {
        for b in blocks {
            let start = b.start.max(self.snd_una);
            let end = b.end.min(self.snd_max);
            if start >= end {
                continue;
            }
            let first = self.segment_index(start.next_multiple_of(self.mss as u64));
            for i in first..self.segments.len() {
                let seq = self.segment_seq(i);
                if seq + self.segment_len(seq) > end {
                    break;
                }
                self.segments[i].sacked = true;
            }
            self.high_sacked = self.high_sacked.max(end);
        }
    }

    /// Put the segment starting at `seq` on the wire and start the RTO timer if idle
    /// (RFC 6298 §5.1).
    pub(crate) fn send_segment(&mut self, seq: u64, kind: Retransmission, ctx: &mut Ctx) {
        let now = ctx.now();
        let len = self.segment_len(seq) as u32;
        let index = self.segment_index(seq);
        let retransmitted = kind != Retransmission::No;
        if index < self.segments.len() {
            let s = &mut self.segments[index];
            s.sent_ns = now;
            s.retransmitted |= retransmitted;
        } else {
            debug_assert_eq!(index, self.segments.len(), "segments are sent in order");
            self.segments.push_back(Segment { sent_ns: now, retransmitted, sacked: false });
        }
        self.counters.bytes_sent += len as u64;
        if retransmitted {
            self.counters.bytes_retransmitted += len as u64;
        }
        if kind == Retransmission::Fast {
            self.counters.fast_retransmitted_segments += 1;
        }
        let mut p = Packet::new(PacketKind::Data, self.flow, self.peer, len, len + self.header_bytes);
        p.seq = seq;
        p.retransmission = kind;
        ctx.transmit(self.node, p);
        if !self.rto_timer.is_armed() {
            self.restart_rto_timer(ctx);
        }
    }

    /// Retransmit the first unacknowledged segment (fast retransmit, NewReno partial ACK).
    pub(crate) fn retransmit_first_unacked(&mut self, ctx: &mut Ctx) {
        self.send_segment(self.snd_una, Retransmission::Fast, ctx);
        self.snd_nxt = self.snd_nxt.max(self.snd_una + self.mss as u64).min(self.snd_max);
    }

    fn segment_start(&self, seq: u64) -> u64 {
        seq - seq % self.mss as u64
    }

    pub(crate) fn restart_rto_timer(&mut self, ctx: &mut Ctx) {
        let deadline = ctx.now() + self.rtt.rto_ns;
        if let Some((at, generation)) = self.rto_timer.arm(deadline) {
            ctx.sched.at(at, Event::Rto { flow: self.flow, generation });
        }
    }

    /// Process a cumulative ACK and its SACK blocks (RFC 5681 §3.2, RFC 6675 §5, and the
    /// recovery algorithm's rules).
    pub fn on_ack(&mut self, ack: u64, sack: &[SackBlock], ctx: &mut Ctx) {
        if ack > self.snd_max {
            return; // acknowledges data never sent
        }
        let before = (self.window.cwnd_bytes, self.window.ssthresh_bytes);
        if self.recovery_kind == RecoveryKind::Sack {
            self.update_scoreboard(sack);
        }
        if ack > self.snd_una {
            self.on_new_ack(ack, ctx);
        } else if ack == self.snd_una && self.snd_una < self.snd_max {
            self.dupacks += 1;
            let now = ctx.now();
            let sample = AckSample { now_ns: now, ack, snd_nxt: self.snd_nxt, acked_bytes: 0, duplicate: true, rtt_ns: None };
            self.cc.ops_mut().on_ack(&sample);
            recovery::on_duplicate_ack(self, ctx);
        }
        self.output(ctx);
        if ctx.trace.cwnd_on && ctx.trace.on_change && before != (self.window.cwnd_bytes, self.window.ssthresh_bytes) {
            self.record_cwnd(ctx);
        }
    }

    fn on_new_ack(&mut self, ack: u64, ctx: &mut Ctx) {
        let now = ctx.now();
        let acked = ack - self.snd_una;
        let exact_rtt_ns = self.take_acked_segments(ack, now);
        // What the TCP's clock reads (`quantize_rtt`): the estimator, the controller and the
        // RTT trace see it; the summary's RTT statistics keep the exact sample.
        let rtt_ns = exact_rtt_ns.map(|r| quantize_rtt(r, self.rtt_tick_ns));
        if let (Some(exact), Some(r)) = (exact_rtt_ns, rtt_ns) {
            self.rtt.sample(r);
            self.counters.rtt_samples += 1;
            self.counters.rtt_sum_ns += exact;
            self.window_min_rtt_ns = Some(self.window_min_rtt_ns.map_or(exact, |m| m.min(exact)));
            let srtt = self.rtt.srtt_ns.unwrap_or(r);
            ctx.trace.record_rtt(now, self.flow, r, srtt, self.rtt.rto_ns);
        }
        self.snd_una = ack;
        self.snd_nxt = self.snd_nxt.max(ack);
        let sample = AckSample { now_ns: now, ack, snd_nxt: self.snd_nxt, acked_bytes: acked, duplicate: false, rtt_ns };
        let cc = self.cc.ops_mut();
        cc.on_ack(&sample);
        if ack >= self.round_end {
            cc.on_round_end(&sample, &self.window);
            self.round_end = self.snd_nxt;
        }
        let reset_timer = if self.in_fast_recovery {
            recovery::on_new_ack_in_fast_recovery(self, acked, ctx)
        } else {
            self.dupacks = 0;
            self.cc.ops_mut().increase_window(&mut self.window, acked);
            true
        };
        // RFC 6298 §5.2/§5.3: stop the timer when all is acked, else restart it.
        if self.snd_una == self.snd_max {
            self.rto_timer.cancel();
        } else if reset_timer {
            self.restart_rto_timer(ctx);
        }
    }

    /// Drop the records of fully acknowledged segments; returns an RTT sample if none of
    /// them was ever retransmitted (Karn), measured from the newest one.
    fn take_acked_segments(&mut self, ack: u64, now: u64) -> Option<u64> {
        let first = self.snd_una / self.mss as u64;
        let last_exclusive = ack.div_ceil(self.mss as u64);
        let full = if ack == self.data_end.max(self.snd_max) || ack % self.mss as u64 == 0 {
            last_exclusive
        } else {
            ack / self.mss as u64
        };
        let mut valid = true;
        let mut newest_sent = None;
        for _ in first..full {
            match self.segments.pop_front() {
                Some(s) => {
                    valid &= !s.retransmitted;
                    newest_sent = Some(s.sent_ns);
                }
                None => break,
            }
        }
        newest_sent.filter(|_| valid).map(|t| now - t)
    }

    /// The retransmission timer event fired.
    pub fn on_rto_event(&mut self, generation: u32, ctx: &mut Ctx) {
        match self.rto_timer.fire(generation, ctx.now()) {
            Ok(true) => self.on_timeout(ctx),
            Ok(false) => {}
            Err(at) => ctx.sched.at(at, Event::Rto { flow: self.flow, generation: self.rto_timer.generation() }),
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
        if self.snd_una >= self.snd_max {
            return;
        }
        self.counters.timeouts += 1;
        let mut restart_cwnd = None;
        let reduce = match self.timeout_ssthresh {
            TimeoutSsthresh::FirstOfEpisode => self.recover.is_none_or(|r| self.snd_una >= r),
            TimeoutSsthresh::Every => true,
        };
        if reduce {
            let base = self.timeout_base_bytes();
            let r = self.cc.ops_mut().on_loss(&self.window, base, LossSignal::Timeout, ctx.now());
            self.window.ssthresh_bytes = r.ssthresh_bytes;
            restart_cwnd = r.cwnd_bytes;
        }
        self.window.cwnd_bytes = restart_cwnd.unwrap_or(self.mss as u64);
        self.window.ca_credit = 0;
        self.in_fast_recovery = false;
        self.dupacks = 0;
        self.recover = Some(self.snd_max);
        self.high_rxt = self.snd_una;
        self.snd_nxt = self.snd_una;
        self.rtt.back_off();
        self.rto_timer.cancel();
        self.output(ctx);
        if ctx.trace.cwnd_on && ctx.trace.on_change {
            self.record_cwnd(ctx);
        }
    }

    /// The window a timeout's ssthresh is computed from (the `flight_bytes` of
    /// `CongestionOps::on_loss`): FlightSize (RFC 5681 eq. 4) or, with
    /// `TimeoutSsthresh::Every`, the window in use as ns-2's `window()` reads it:
    /// min(cwnd, rwnd), with cwnd taken before fast-recovery inflation.
    fn timeout_base_bytes(&self) -> u64 {
        match self.timeout_ssthresh {
            TimeoutSsthresh::FirstOfEpisode => self.flight_size(),
            TimeoutSsthresh::Every => {
                let cwnd = if self.in_fast_recovery {
                    self.window.cwnd_bytes.min(self.recovery_cwnd_bytes)
                } else {
                    self.window.cwnd_bytes
                };
                cwnd.min(self.rwnd_bytes)
            }
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
