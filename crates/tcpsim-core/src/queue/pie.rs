//! PIE, Proportional Integral controller Enhanced: R. Pan, P. Natarajan, F. Baker, G. White,
//! "Proportional Integral Controller Enhanced (PIE): A Lightweight Control Scheme to Address the
//! Bufferbloat Problem", RFC 8033 (2017); first published by Pan et al. at IEEE HPSR 2013.
//!
//! A FIFO whose arrivals are dropped (or, with ECN, marked) at random with a probability p that
//! a PI controller on the queueing delay updates every T_UPDATE.
//!
//! 1. Random drop at enqueue (§4.1): an arrival that does not fit the packet or byte limit is
//!    dropped (`Verdict::Dropped`, as drop-tail). Otherwise it is dropped early
//!    (`Verdict::DroppedEarly`) with probability p, drawn from the queue's own random stream
//!    (u < p), except under the safeguards that keep PIE work-conserving: while burst allowance
//!    is left (§4.4), while qdelay_old < target/2 and p < 0.2, and while the queue before the
//!    arrival holds at most 2·`mean_packet_bytes` bytes (§4.1's `byte_length() <= 2 *
//!    MEAN_PKTSIZE`; with full-sized packets that is ns-3's `qSize <= 2` packets). A packet
//!    that arrives at an idle link is never dropped (the queue is empty).
//! 2. Drop probability (§4.2), every T_UPDATE:
//!    Δ = α·(qdelay − target) + β·(qdelay − qdelay_old), delays in seconds, α and β in Hz;
//!    auto-tuning by the current p (§4.2's table): Δ /= 2048 for p < 10⁻⁶, 512 for p < 10⁻⁵,
//!    128 for p < 10⁻⁴, 32 for p < 10⁻³, 8 for p < 10⁻², 2 for p < 10⁻¹, 1 above;
//!    `cap_drop_adjustment` (§5.5; ns-3's `UseCapDropAdjustment`, default on; Linux always):
//!    Δ ≤ 0.02 while p ≥ 0.1; then p += Δ; p ·= 0.98 when qdelay = qdelay_old = 0 (§4.2's
//!    decay of an empty queue); p is bounded to [0, 1]; qdelay_old ← qdelay.
//! 3. Queueing delay (§4.3), `delay_estimator`:
//!    - `timestamp` (the default, as ns-3.44's `PieQueueDisc`, `UseDequeueRateEstimator`
//!      false, and Linux's `sch_pie` with its default `dq_rate_estimator` off): at each dequeue,
//!      qdelay = now − the departing packet's enqueue time, or 0 if the queue is then empty;
//!      the update uses the latest value.
//!    - `dequeue_rate` (§4.3 with §5.2's departure-rate estimation, Little's law): a
//!      measurement cycle starts at a dequeue that leaves at least `dq_threshold_bytes` queued;
//!      the bytes of the following dequeues are counted until they reach the threshold; the
//!      cycle's duration, scaled to exactly the threshold's bytes (§5.2's pseudocode takes the
//!      last packet's overshoot as part of the threshold), enters
//!      avg_dq_time ← 0.75·avg_dq_time + 0.25·t (weight DQ_THRESHOLD/2¹⁶ = 1/4; the first cycle
//!      sets it). At an update, qdelay = queued bytes · avg_dq_time / DQ_THRESHOLD, 0 before
//!      the first estimate.
//! 4. Burst allowance (§4.4, placed as in Appendix A's pseudocode): it starts at
//!    `max_burst_ns`; each update takes T_UPDATE off it (floor 0); an arrival re-arms it to
//!    `max_burst_ns` when p = 0 and the current delay estimate and qdelay_old are both below
//!    target/2. While it is above 0 no arrival is dropped early; p is still updated (ns-3 holds
//!    p at 0 meanwhile and re-arms only after 1.5 s of low delay, `docs/ns3-comparison/pie.md`).
//! 5. ECN (§5.1): with `ecn`, an early decision on an ECN-capable packet marks it CE
//!    (`Verdict::Marked`) while p <= `mark_ecn_th` (10 %; Linux's test too; ns-3's
//!    `MarkEcnThreshold` marks only below it), and drops it above. A full buffer always drops.
//!
//! Not implemented: §5.3 (PIE active/inactive), §5.4 de-randomization (ns-3's
//! `UseDerandomization`, off by default), Linux's byte mode and its extra 2 % for delays over
//! 250 ms.
//!
//! The periodic update without a timer: the engine has no queue timer events, so updates are
//! applied lazily at exact boundary times k·T_UPDATE (k = 1, 2, …; ns-3 also updates at t = 0,
//! which leaves the initial state as it is). Before an enqueue, an arrival at the idle link or a
//! dequeue at time t, every boundary ≤ t not yet applied is applied in order. Every input of an
//! update (the timestamp qdelay, the queued bytes, avg_dq_time) changes only at those events,
//! so its value at each boundary in between is the one it had after the previous event, and
//! the lazy sequence equals the periodic timer's exactly; a boundary at the same instant as an
//! event is applied before the event. A long idle period is not walked step by step: as soon
//! as an update leaves p, qdelay_old and the allowance unchanged (with constant inputs it then
//! is a fixed point), the remaining boundaries up to t are skipped.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::fifo::Fifo;
use super::{Arrival, DequeueSink, Occupancy, QueueDiscipline, Signals, Verdict};
use crate::packet::PacketId;
use crate::rng::RandomStream;

/// PIE's parameters (RFC 8033; `queue::pie` cites the rule each enters). The defaults users get
/// are set in the scenario layer (`PieQueue` in `tcpsim.scenario.network`).
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct PieConfig {
    /// Hard limits: an arrival that does not fit is dropped (as drop-tail). At least one.
    pub limit_packets: Option<u64>,
    pub limit_bytes: Option<u64>,
    /// QDELAY_REF, the target queueing delay (ns), > 0. RFC 8033 §4.2: 15 ms.
    pub target_ns: u64,
    /// T_UPDATE, the period of the drop-probability update (ns), > 0. §4.2: 15 ms.
    pub t_update_ns: u64,
    /// α (Hz), the weight of the delay's distance from the target, >= 0. §4.2: 0.125.
    pub alpha: f64,
    /// β (Hz), the weight of the delay's change since the previous update, >= 0. §4.2: 1.25.
    pub beta: f64,
    /// MAX_BURST (ns): no early drop for this long after start and after each quiet period. §4.4: 150 ms.
    pub max_burst_ns: u64,
    /// MEAN_PKTSIZE (bytes) of §4.1's safeguard: no early drop while at most two such packets
    /// are queued. > 0.
    pub mean_packet_bytes: u32,
    /// How the queueing delay is estimated (§4.3).
    pub delay_estimator: PieDelayEstimator,
    /// DQ_THRESHOLD (bytes) of the dequeue-rate estimator's measurement cycle (§5.2: 16 KB), > 0.
    pub dq_threshold_bytes: u64,
    /// Mark ECN-capable packets CE instead of dropping them early while p <= `mark_ecn_th` (§5.1).
    pub ecn: bool,
    /// With `ecn`: the drop probability from which ECN-capable packets are dropped rather than
    /// marked, in [0, 1]. §5.1: 0.1.
    pub mark_ecn_th: f64,
    /// §5.5: an update raises p by at most 0.02 while p >= 0.1 (ns-3 default, Linux always).
    pub cap_drop_adjustment: bool,
}

/// PIE's queueing-delay estimate (RFC 8033 §4.3).
#[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum PieDelayEstimator {
    /// The sojourn time of the packet last dequeued (0 once the queue is empty): ns-3.44's and
    /// Linux's default.
    Timestamp,
    /// Queued bytes over the departure rate measured in cycles of `dq_threshold_bytes` (§5.2).
    DequeueRate,
}

impl PieConfig {
    /// Check the parameters (the limits are checked by `QueueConfig::validate`); errors are
    /// `<field>: message`.
    pub fn validate(&self) -> Result<(), String> {
        for (field, value) in [("target_ns", self.target_ns), ("t_update_ns", self.t_update_ns)] {
            if value == 0 {
                return Err(format!("{field}: must be > 0"));
            }
        }
        for (field, value) in [("alpha", self.alpha), ("beta", self.beta)] {
            if !(value >= 0.0 && value.is_finite()) {
                return Err(format!("{field}: {value} must be a finite number >= 0"));
            }
        }
        if self.mean_packet_bytes == 0 {
            return Err("mean_packet_bytes: must be > 0".into());
        }
        if self.dq_threshold_bytes == 0 {
            return Err("dq_threshold_bytes: must be > 0".into());
        }
        if !(0.0..=1.0).contains(&self.mark_ecn_th) {
            return Err(format!("mark_ecn_th: {} must be in [0, 1]", self.mark_ecn_th));
        }
        Ok(())
    }
}

/// §4.2's auto-tuning: the divisor of Δ for the current p.
fn tuning_divisor(p: f64) -> f64 {
    const TABLE: [(f64, f64); 6] =
        [(1e-6, 2048.0), (1e-5, 512.0), (1e-4, 128.0), (1e-3, 32.0), (1e-2, 8.0), (1e-1, 2.0)];
    TABLE.iter().find(|&&(below, _)| p < below).map_or(1.0, |&(_, divisor)| divisor)
}

/// §4.3's estimate of the queueing delay, with its state.
enum DelayEstimate {
    /// The last dequeued packet's sojourn time (ns).
    Timestamp { qdelay_ns: u64 },
    /// §5.2's measurement cycle: its start, the bytes counted since, and the average time to
    /// dequeue `dq_threshold_bytes` (ns; 0 before the first cycle ends).
    DequeueRate { measuring_since_ns: Option<u64>, dq_count: u64, avg_dq_time_ns: f64 },
}

pub struct Pie {
    /// (packet, wire bytes, enqueue time).
    fifo: Fifo<(PacketId, u32, u64)>,
    target_ns: u64,
    t_update_ns: u64,
    alpha: f64,
    beta: f64,
    max_burst_ns: u64,
    mean_packet_bytes: u64,
    dq_threshold_bytes: u64,
    ecn: bool,
    mark_ecn_th: f64,
    cap_drop_adjustment: bool,
    estimate: DelayEstimate,
    /// The drop probability p.
    p: f64,
    /// The delay the previous update used (ns).
    qdelay_old_ns: u64,
    /// Burst allowance left (ns).
    burst_allowance_ns: u64,
    /// The next update boundary (a multiple of T_UPDATE).
    next_update_ns: u64,
    rng: RandomStream,
    signals: Signals,
}

impl Pie {
    /// A PIE queue drawing its decisions from `rng`.
    pub fn new(cfg: &PieConfig, rng: RandomStream) -> Self {
        let estimate = match cfg.delay_estimator {
            PieDelayEstimator::Timestamp => DelayEstimate::Timestamp { qdelay_ns: 0 },
            PieDelayEstimator::DequeueRate => {
                DelayEstimate::DequeueRate { measuring_since_ns: None, dq_count: 0, avg_dq_time_ns: 0.0 }
            }
        };
        Pie {
            fifo: Fifo::new(cfg.limit_packets, cfg.limit_bytes),
            target_ns: cfg.target_ns,
            t_update_ns: cfg.t_update_ns,
            alpha: cfg.alpha,
            beta: cfg.beta,
            max_burst_ns: cfg.max_burst_ns,
            mean_packet_bytes: cfg.mean_packet_bytes as u64,
            dq_threshold_bytes: cfg.dq_threshold_bytes,
            ecn: cfg.ecn,
            mark_ecn_th: cfg.mark_ecn_th,
            cap_drop_adjustment: cfg.cap_drop_adjustment,
            estimate,
            p: 0.0,
            qdelay_old_ns: 0,
            burst_allowance_ns: cfg.max_burst_ns,
            next_update_ns: cfg.t_update_ns,
            rng,
            signals: Signals::default(),
        }
    }

    /// The drop probability now.
    pub fn drop_probability(&self) -> f64 {
        self.p
    }

    /// The queueing delay an update at this moment would use (§4.3), ns.
    fn current_qdelay_ns(&self) -> u64 {
        match self.estimate {
            DelayEstimate::Timestamp { qdelay_ns } => qdelay_ns,
            DelayEstimate::DequeueRate { avg_dq_time_ns, .. } => {
                (self.fifo.occupancy().bytes as f64 * avg_dq_time_ns / self.dq_threshold_bytes as f64).round() as u64
            }
        }
    }

    /// One periodic update (§4.2, §4.4) with the delay `qdelay_ns`.
    fn update(&mut self, qdelay_ns: u64) {
        let seconds = |ns: u64| ns as f64 * 1e-9;
        let (qdelay, old, target) = (seconds(qdelay_ns), seconds(self.qdelay_old_ns), seconds(self.target_ns));
        let mut delta = self.alpha * (qdelay - target) + self.beta * (qdelay - old);
        delta /= tuning_divisor(self.p);
        if self.cap_drop_adjustment && self.p >= 0.1 && delta > 0.02 {
            delta = 0.02;
        }
        let mut p = self.p + delta;
        if qdelay_ns == 0 && self.qdelay_old_ns == 0 {
            p *= 0.98;
        }
        self.p = p.clamp(0.0, 1.0);
        self.burst_allowance_ns = self.burst_allowance_ns.saturating_sub(self.t_update_ns);
        self.qdelay_old_ns = qdelay_ns;
    }

    /// §4.4 at an arrival: a quiet queue (p = 0, both delays under target/2) re-arms the burst
    /// allowance.
    fn rearm_burst_allowance(&mut self) {
        let half_target = self.target_ns as f64 / 2.0;
        if self.p == 0.0 && (self.current_qdelay_ns() as f64) < half_target && (self.qdelay_old_ns as f64) < half_target
        {
            self.burst_allowance_ns = self.max_burst_ns;
        }
    }

    /// Apply every update boundary up to and including `now_ns` (the module comment's lazy
    /// timer).
    fn catch_up(&mut self, now_ns: u64) {
        // (A boundary saturated at u64::MAX is never reached: the engine's times are bounded.)
        while self.next_update_ns <= now_ns && self.next_update_ns != u64::MAX {
            let before = (self.p, self.qdelay_old_ns, self.burst_allowance_ns);
            self.update(self.current_qdelay_ns());
            self.next_update_ns = self.next_update_ns.saturating_add(self.t_update_ns);
            if (self.p, self.qdelay_old_ns, self.burst_allowance_ns) == before && self.next_update_ns <= now_ns {
                // A fixed point of the update with inputs that stay constant until `now_ns`.
                let skipped = (now_ns - self.next_update_ns) / self.t_update_ns + 1;
                self.next_update_ns = self.next_update_ns.saturating_add(skipped.saturating_mul(self.t_update_ns));
            }
        }
    }

    /// §4.1's early decision for an arrival while `queued_bytes` wait before it.
    fn drop_early(&mut self, queued_bytes: u64) -> bool {
        if self.burst_allowance_ns > 0 {
            return false;
        }
        if (self.qdelay_old_ns as f64) < self.target_ns as f64 / 2.0 && self.p < 0.2 {
            return false;
        }
        if queued_bytes <= 2 * self.mean_packet_bytes {
            return false;
        }
        self.rng.bernoulli(self.p)
    }

    /// §4.3/§5.2: what a dequeue at `now_ns` of a packet enqueued at `enqueued_ns` of `bytes`
    /// tells the estimate (the queue is already without it).
    fn on_departure(&mut self, bytes: u32, enqueued_ns: u64, now_ns: u64) {
        let queued = self.fifo.occupancy().bytes;
        let threshold = self.dq_threshold_bytes;
        match &mut self.estimate {
            DelayEstimate::Timestamp { qdelay_ns } => {
                *qdelay_ns = if queued == 0 { 0 } else { now_ns - enqueued_ns };
            }
            DelayEstimate::DequeueRate { measuring_since_ns, dq_count, avg_dq_time_ns } => match *measuring_since_ns {
                None if queued >= threshold => {
                    *measuring_since_ns = Some(now_ns);
                    *dq_count = 0;
                }
                None => {}
                Some(start) => {
                    *dq_count += bytes as u64;
                    if *dq_count >= threshold {
                        let t = (now_ns - start) as f64 * threshold as f64 / *dq_count as f64;
                        *avg_dq_time_ns = if *avg_dq_time_ns == 0.0 { t } else { 0.75 * *avg_dq_time_ns + 0.25 * t };
                        *measuring_since_ns = None;
                    }
                }
            },
        }
    }
}

/// The per-packet hooks are kept out of line, as RED's.
impl QueueDiscipline for Pie {
    #[inline(never)]
    fn enqueue(&mut self, a: Arrival, now_ns: u64) -> Verdict {
        self.catch_up(now_ns);
        self.rearm_burst_allowance();
        if !self.fifo.fits(a.wire_bytes) {
            return Verdict::Dropped;
        }
        let verdict = if !self.drop_early(self.fifo.occupancy().bytes) {
            Verdict::Enqueued
        } else if self.ecn && a.ect && self.p <= self.mark_ecn_th {
            self.signals.marks_ecn += 1;
            Verdict::Marked
        } else {
            self.signals.drops_early += 1;
            return Verdict::DroppedEarly;
        };
        self.fifo.push((a.id, a.wire_bytes, now_ns), now_ns);
        verdict
    }

    /// The queue is empty, so the packet is never dropped; only the updates due and the burst
    /// allowance move.
    #[inline(never)]
    fn arrive_at_idle_link(&mut self, _a: Arrival, now_ns: u64) {
        self.catch_up(now_ns);
        self.rearm_burst_allowance();
    }

    #[inline(never)]
    fn dequeue(&mut self, now_ns: u64, _sink: &mut DequeueSink) -> Option<(PacketId, u32)> {
        self.catch_up(now_ns);
        let (id, bytes, enqueued_ns) = self.fifo.pop(now_ns)?;
        self.on_departure(bytes, enqueued_ns, now_ns);
        Some((id, bytes))
    }

    fn occupancy(&self) -> &Occupancy {
        self.fifo.occupancy()
    }

    fn occupancy_mut(&mut self) -> &mut Occupancy {
        self.fifo.occupancy_mut()
    }

    fn signals(&self) -> Signals {
        self.signals
    }

    #[inline]
    fn next_out(&self) -> [PacketId; 2] {
        self.fifo.next_out()
    }

    fn waiting(&self) -> Box<dyn Iterator<Item = PacketId> + '_> {
        Box::new(self.fifo.ids())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::RdMark;
    use crate::packet::PacketKind;

    const MS: u64 = 1_000_000;

    /// RFC 8033's defaults with a 1000-packet buffer.
    fn config() -> PieConfig {
        PieConfig {
            limit_packets: Some(1000),
            limit_bytes: None,
            target_ns: 15 * MS,
            t_update_ns: 15 * MS,
            alpha: 0.125,
            beta: 1.25,
            max_burst_ns: 150 * MS,
            mean_packet_bytes: 1500,
            delay_estimator: PieDelayEstimator::Timestamp,
            dq_threshold_bytes: 16384,
            ecn: false,
            mark_ecn_th: 0.1,
            cap_drop_adjustment: true,
        }
    }

    fn pie(cfg: &PieConfig) -> Pie {
        Pie::new(cfg, RandomStream::new(1, "pie-test"))
    }

    fn packet(id: PacketId, ect: bool) -> Arrival {
        Arrival { id, wire_bytes: 1500, ect, l4s: false, kind: PacketKind::Data, flow: 0, rd_class: RdMark::R }
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-12 * b.abs().max(1e-9)
    }

    #[test]
    fn the_auto_tuning_divides_the_step_by_the_table_of_section_4_2() {
        let cases = [
            (0.0, 2048.0),
            (9.9e-7, 2048.0),
            (1e-6, 512.0),
            (5e-5, 128.0),
            (5e-4, 32.0),
            (5e-3, 8.0),
            (0.05, 2.0),
            (0.1, 1.0),
            (0.7, 1.0),
        ];
        for (p, divisor) in cases {
            assert_eq!(tuning_divisor(p), divisor, "p = {p}");
        }
    }

    /// The update sequence for qdelay = 30, 30, 20, 0, 0 ms from p = 0 (no burst allowance):
    /// 1. Δ = 0.125·0.015 + 1.25·0.030 = 0.039375; p = 0 < 1e-6: /2048 → p₁ = 1.9226074e-5.
    /// 2. Δ = 0.125·0.015 + 0 = 0.001875; p₁ < 1e-4: /128 → p₂ = p₁ + 1.46484375e-5.
    /// 3. Δ = 0.125·0.005 + 1.25·(−0.010) = −0.011875; p₂ < 1e-4: /128 → p₃ = p₂ − 9.27734375e-5 < 0 → 0.
    /// 4. Δ = 0.125·(−0.015) + 1.25·(−0.020) = −0.026875, /2048 → negative → 0.
    /// 5. qdelay = qdelay_old = 0: p stays 0 (decay of 0).
    #[test]
    fn hand_worked_update_sequence_over_five_periods() {
        let mut q = pie(&PieConfig { max_burst_ns: 0, ..config() });
        let mut ps = vec![];
        for qdelay_ms in [30, 30, 20, 0, 0] {
            q.update(qdelay_ms * MS);
            ps.push(q.p);
        }
        let p1 = (0.125 * 0.015 + 1.25 * 0.030) / 2048.0;
        assert!(close(ps[0], p1), "{}", ps[0]);
        assert!(close(p1, 1.922607421875e-5));
        let p2 = p1 + 0.001875 / 128.0;
        assert!(close(ps[1], p2), "{}", ps[1]);
        assert_eq!(&ps[2..], &[0.0, 0.0, 0.0]);
        assert_eq!(q.qdelay_old_ns, 0);
    }

    /// From p = 0.05 (divisor 2): qdelay 40 ms after 30: Δ = 0.125·0.025 + 1.25·0.010 =
    /// 0.015625, /2 → p = 0.0578125. From p = 0.15 (divisor 1) with qdelay 100 ms after 30 ms:
    /// Δ = 0.125·0.085 + 1.25·0.070 = 0.098125 > 0.02: capped, p = 0.17; without the cap 0.248125.
    #[test]
    fn the_step_is_scaled_by_p_and_capped_at_two_percent_above_ten_percent() {
        let mut q = pie(&PieConfig { max_burst_ns: 0, ..config() });
        (q.p, q.qdelay_old_ns) = (0.05, 30 * MS);
        q.update(40 * MS);
        assert!(close(q.p, 0.0578125), "{}", q.p);
        (q.p, q.qdelay_old_ns) = (0.15, 30 * MS);
        q.update(100 * MS);
        assert!(close(q.p, 0.17), "{}", q.p);
        let mut uncapped = pie(&PieConfig { max_burst_ns: 0, cap_drop_adjustment: false, ..config() });
        (uncapped.p, uncapped.qdelay_old_ns) = (0.15, 30 * MS);
        uncapped.update(100 * MS);
        assert!(close(uncapped.p, 0.248125), "{}", uncapped.p);
        (uncapped.p, uncapped.qdelay_old_ns) = (0.99, 30 * MS);
        uncapped.update(100 * MS);
        assert_eq!(uncapped.p, 1.0, "bounded to 1");
    }

    /// With the queue empty at two successive updates: Δ = 0.125·(−0.015) = −0.001875, /2 at
    /// p = 0.08 → 0.0790625, then ×0.98 = 0.07748125.
    #[test]
    fn an_empty_queue_decays_p_by_two_percent_per_update() {
        let mut q = pie(&PieConfig { max_burst_ns: 0, ..config() });
        q.p = 0.08;
        q.update(0);
        assert!(close(q.p, 0.07748125), "{}", q.p);
        q.qdelay_old_ns = 1;
        q.p = 0.08;
        q.update(0);
        assert!(close(q.p, 0.0790625 - 1.25e-9 / 2.0), "no decay unless qdelay_old is 0 too: {}", q.p);
    }

    /// The allowance starts at 150 ms and loses 15 ms per update: ten updates at a high delay
    /// use it up. After that an arrival re-arms it only when p = 0 and both the current delay
    /// and qdelay_old are below target/2 = 7.5 ms (§4.4, Appendix A's enqueue).
    #[test]
    fn burst_allowance_counts_down_by_t_update_and_an_arrival_rearms_it_when_quiet() {
        let mut q = pie(&config());
        assert_eq!(q.burst_allowance_ns, 150 * MS);
        for k in 1..=10 {
            q.update(40 * MS);
            assert_eq!(q.burst_allowance_ns, 150 * MS - k * 15 * MS);
        }
        assert!(q.p > 0.0, "p rises during the allowance");
        q.update(40 * MS);
        assert_eq!(q.burst_allowance_ns, 0, "floor at 0");
        q.enqueue(packet(0, false), 0);
        assert_eq!(q.burst_allowance_ns, 0, "p > 0");
        q.p = 1e-9;
        q.update(5 * MS); // p → 0, qdelay_old 5 ms
        assert_eq!((q.p, q.burst_allowance_ns), (0.0, 0));
        q.estimate = DelayEstimate::Timestamp { qdelay_ns: 10 * MS };
        q.enqueue(packet(1, false), 0);
        assert_eq!(q.burst_allowance_ns, 0, "the current delay 10 ms ≥ 7.5 ms");
        q.estimate = DelayEstimate::Timestamp { qdelay_ns: 5 * MS };
        q.enqueue(packet(2, false), 0);
        assert_eq!(q.burst_allowance_ns, 150 * MS, "5 ms and 5 ms with p = 0");
    }

    #[test]
    fn safeguards_keep_arrivals_while_burst_allowance_low_delay_or_a_short_queue() {
        let cfg = config();
        // p = 1 and a delay above target/2, but burst allowance left: nothing is dropped early.
        let mut q = pie(&cfg);
        (q.p, q.qdelay_old_ns) = (1.0, 20 * MS);
        for id in 0..10 {
            assert_eq!(q.enqueue(packet(id, false), 0), Verdict::Enqueued);
        }
        // No allowance: the first three arrivals find ≤ 2 × 1500 bytes queued, the fourth drops.
        let mut q = pie(&cfg);
        (q.p, q.qdelay_old_ns, q.burst_allowance_ns) = (1.0, 20 * MS, 0);
        for id in 0..3 {
            assert_eq!(q.enqueue(packet(id, false), 0), Verdict::Enqueued, "{id}");
        }
        assert_eq!(q.enqueue(packet(3, false), 0), Verdict::DroppedEarly);
        // qdelay_old < 7.5 ms and p < 0.2: no drop; p = 0.2 drops sometimes.
        (q.p, q.qdelay_old_ns) = (0.19, 7 * MS);
        assert!((10..200).all(|id| q.enqueue(packet(id, false), 0) != Verdict::DroppedEarly));
        let mut dropped = 0;
        q.p = 0.2;
        for id in 200..2200 {
            if q.enqueue(packet(id, false), 0) == Verdict::DroppedEarly {
                dropped += 1;
            } else {
                q.dequeue(0, &mut DequeueSink::default());
            }
        }
        assert!((300..500).contains(&dropped), "about 20 % of 2000: {dropped}");
        assert_eq!(q.signals().drops_early, dropped + 1);
    }

    #[test]
    fn ecn_capable_packets_are_marked_below_the_mark_threshold_and_dropped_above() {
        let cfg = PieConfig { ecn: true, ..config() };
        let mut q = pie(&cfg);
        (q.p, q.qdelay_old_ns, q.burst_allowance_ns) = (0.1, 20 * MS, 0);
        for id in 0..3 {
            q.enqueue(packet(id, true), 0);
        }
        let verdicts: Vec<_> = (3..200).map(|id| q.enqueue(packet(id, true), 0)).collect();
        assert!(verdicts.contains(&Verdict::Marked));
        assert!(!verdicts.contains(&Verdict::DroppedEarly), "p = mark_ecn_th still marks");
        q.p = 1.0;
        assert_eq!(q.enqueue(packet(500, true), 0), Verdict::DroppedEarly, "p > mark_ecn_th");
        q.p = 0.05;
        let not_ect: Vec<_> = (600..800).map(|id| q.enqueue(packet(id, false), 0)).collect();
        assert!(!not_ect.contains(&Verdict::Marked) && not_ect.contains(&Verdict::DroppedEarly));
        let full = PieConfig { limit_packets: Some(3), ..cfg };
        let mut q = pie(&full);
        for id in 0..3 {
            q.enqueue(packet(id, true), 0);
        }
        assert_eq!(q.enqueue(packet(3, true), 0), Verdict::Dropped, "a full buffer drops");
    }

    /// Timestamps: a packet enqueued at 0 leaves at 12 ms with another behind it: qdelay 12 ms;
    /// the last one leaves at 20 ms: the queue is empty, qdelay 0.
    #[test]
    fn timestamp_delay_is_the_departing_packets_sojourn_or_zero_when_empty() {
        let mut q = pie(&config());
        q.enqueue(packet(0, false), 0);
        q.enqueue(packet(1, false), 5 * MS);
        q.dequeue(12 * MS, &mut DequeueSink::default());
        assert_eq!(q.current_qdelay_ns(), 12 * MS);
        q.dequeue(20 * MS, &mut DequeueSink::default());
        assert_eq!(q.current_qdelay_ns(), 0);
    }

    /// The lazy timer: packets 0 and 1 arrive at 0; packet 0 leaves at 14 ms (sojourn 14 ms),
    /// packet 1 at 31 ms, emptying the queue (qdelay 0). Nothing happens at 15 or 30 ms, but the
    /// dequeue at 31 ms first applies both boundaries with 14 ms; an arrival at 46 ms applies
    /// the 45 ms one with 0. A periodic timer gives the same sequence.
    #[test]
    fn lazy_updates_apply_each_boundary_with_the_delay_of_its_time() {
        let cfg = PieConfig { max_burst_ns: 0, ..config() };
        let mut lazy = pie(&cfg);
        lazy.enqueue(packet(0, false), 0);
        lazy.enqueue(packet(1, false), 0);
        lazy.dequeue(14 * MS, &mut DequeueSink::default());
        assert_eq!((lazy.p, lazy.next_update_ns), (0.0, 15 * MS));
        lazy.dequeue(31 * MS, &mut DequeueSink::default());
        let mut periodic = pie(&cfg);
        periodic.update(14 * MS);
        periodic.update(14 * MS);
        assert_eq!(lazy.p, periodic.p);
        assert_eq!(lazy.qdelay_old_ns, 14 * MS);
        assert_eq!(lazy.next_update_ns, 45 * MS);
        lazy.arrive_at_idle_link(packet(2, false), 46 * MS);
        periodic.update(0);
        assert_eq!((lazy.p, lazy.qdelay_old_ns), (periodic.p, 0));
        assert_eq!(lazy.next_update_ns, 60 * MS);
    }

    /// The lazy catch-up, fixed-point skips included, against a timer that fires at every
    /// boundary: 20 000 events (bursts of arrivals, dequeues, idle gaps up to 2 s) from a fixed
    /// pseudo-random sequence give the same verdicts and the same p after every event, for both
    /// estimators.
    #[test]
    fn lazy_catch_up_equals_a_periodic_timer_on_a_random_event_sequence() {
        for estimator in [PieDelayEstimator::Timestamp, PieDelayEstimator::DequeueRate] {
            let cfg = PieConfig { delay_estimator: estimator, limit_packets: Some(60), ..config() };
            let (mut lazy, mut timed) = (pie(&cfg), pie(&cfg));
            let mut state = 12345u64;
            let mut draw = |n: u64| {
                state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                (state >> 33) % n
            };
            let (mut now, mut id): (u64, PacketId) = (0, 0);
            for _ in 0..20_000 {
                now += match draw(100) {
                    0 => draw(2000) * MS, // an idle gap
                    _ => draw(2_000_000), // within 2 ms
                };
                // The timer: every boundary up to now, one by one, before the event.
                while timed.next_update_ns <= now {
                    timed.update(timed.current_qdelay_ns());
                    timed.next_update_ns += timed.t_update_ns;
                }
                if draw(100) < 55 {
                    id += 1;
                    assert_eq!(lazy.enqueue(packet(id, false), now), timed.enqueue(packet(id, false), now));
                } else {
                    assert_eq!(
                        lazy.dequeue(now, &mut DequeueSink::default()),
                        timed.dequeue(now, &mut DequeueSink::default())
                    );
                }
                assert_eq!((lazy.p, lazy.qdelay_old_ns), (timed.p, timed.qdelay_old_ns), "at {now}");
            }
            assert!(lazy.signals.drops_early > 0, "the sequence exercises early drops");
        }
    }

    /// After a long idle period the catch-up stops walking at the fixed point (p = 0, delays 0,
    /// no allowance left) and lands on the next boundary after `now`; the arrival then re-arms
    /// the allowance.
    #[test]
    fn a_long_idle_period_skips_to_the_boundary_after_now() {
        let mut q = pie(&config());
        (q.p, q.qdelay_old_ns, q.burst_allowance_ns) = (0.01, 0, 0);
        q.arrive_at_idle_link(packet(0, false), 3_600_000 * MS);
        assert_eq!(q.p, 0.0);
        assert_eq!(q.burst_allowance_ns, 150 * MS);
        assert_eq!(q.next_update_ns, 3_600_000 * MS + 15 * MS);
    }

    /// §5.2: 20 packets of 1500 bytes queued; the dequeue at 0 leaves 28 500 ≥ 16 384 bytes and
    /// starts a cycle; 11 more dequeues 1.2 ms apart count 16 500 bytes at 13.2 ms: t = 13.2 ms
    /// scaled to 16 384 bytes = 13.107 2 ms. At the 15 ms update 8 packets (12 000 bytes) wait:
    /// qdelay = 12 000 · 13.1072 / 16 384 = 9.6 ms (the 1.2 ms per packet of a 10 Mb/s link).
    #[test]
    fn dequeue_rate_estimate_measures_a_cycle_of_dq_threshold_bytes() {
        let cfg = PieConfig { delay_estimator: PieDelayEstimator::DequeueRate, max_burst_ns: 0, ..config() };
        let mut q = pie(&cfg);
        for id in 0..20 {
            q.enqueue(packet(id, false), 0);
        }
        for k in 0..12 {
            q.dequeue(k * 1_200_000, &mut DequeueSink::default());
        }
        let DelayEstimate::DequeueRate { measuring_since_ns, avg_dq_time_ns, .. } = q.estimate else { unreachable!() };
        assert_eq!(measuring_since_ns, None);
        assert!(close(avg_dq_time_ns, 13_200_000.0 * 16_384.0 / 16_500.0), "{avg_dq_time_ns}");
        assert_eq!(q.current_qdelay_ns(), 9_600_000);
        q.dequeue(15 * MS, &mut DequeueSink::default());
        assert_eq!(q.qdelay_old_ns, 9_600_000, "the 15 ms update used 8 packets' worth");
    }

    #[test]
    fn validate_names_the_field() {
        assert!(config().validate().is_ok());
        let bad = PieConfig { t_update_ns: 0, ..config() };
        assert_eq!(bad.validate().unwrap_err(), "t_update_ns: must be > 0");
        let bad = PieConfig { mark_ecn_th: 1.5, ..config() };
        assert!(bad.validate().unwrap_err().starts_with("mark_ecn_th:"));
        let bad = PieConfig { alpha: f64::NAN, ..config() };
        assert!(bad.validate().unwrap_err().starts_with("alpha:"));
    }
}
