//! DualPI2, the Dual-Queue Coupled AQM of L4S: K. De Schepper, B. Briscoe, G. White, "Dual-Queue
//! Coupled Active Queue Management (AQM) for Low Latency, Low Loss, and Scalable Throughput
//! (L4S)", RFC 9332 (2023), §2 and Appendix A (DualPI2), with the defaults and the choices of
//! Linux's `sch_dualpi2` where the RFC leaves one; the L4S identifier is RFC 9331's.
//!
//! 1. Classifier (RFC 9331 §5.3, RFC 9332 §2.3 and A.1's enqueue): an ECT(1) or CE packet
//!    (`Arrival::l4s`) joins the L queue, every other packet the C queue. Both are FIFOs that
//!    share one buffer: an arrival that does not fit the shared packet or byte limit is
//!    dropped (`Verdict::Dropped`; RFC 9332 A.1, Linux `limit`, default 10 000 packets). No
//!    decision is taken at enqueue (Linux's default `drop_early` off): marks and drops are taken
//!    at dequeue (`DequeueSink`), as RFC 9332 A.1's dequeue.
//! 2. PI2 base probability p' (RFC 9332 A.1 `dualpi2_update`), every T_UPDATE:
//!    p' ← p' + α·(qdelay − target) + β·(qdelay − qdelay_old), delays in seconds, α and β in Hz,
//!    bounded to [0, 1] (to [0, 1/k] without `drop_overload`, Linux's cap); qdelay_old ← qdelay.
//!    qdelay is the sojourn so far of the C queue's head at the update (A.1 `cq.time()`, 0 when
//!    the queue is empty), or with `pi_delay = max` the larger of the two heads' (Linux).
//!    Classic probability p_C = p'² (§2.1, squared for the Classic's 1/√p response), coupled L
//!    probability p_CL = k·p' (§2.1, k the coupling factor).
//! 3. Dequeue (A.1, A.2): the scheduler below picks a queue and takes its head.
//!    - C packet: with probability p_C it is dropped (then the next head is picked again) if it
//!      is not ECN-capable, or in overload; an ECN-capable one (ECT(0)) is marked CE.
//!    - L packet: native AQM p'_L of its sojourn time (`step_thresh`, `step_range`: a step,
//!      p'_L = 1 above the threshold, as Linux's `step_thresh` of 1 ms; or A.1's ramp from
//!      `step_thresh` to `step_thresh + step_range`); marked CE with p_L = max(p'_L, p_CL)
//!      (A.1's combining function).
//!    - Overload (§4.2.3, A.2): when k·p' > 1 (p_C > p_Cmax = 1/k², which is min(1/k², 1) for
//!      k ≥ 1), an L packet is dropped with p_C as a Classic one would be, and the rest marked
//!      (p_CL ≥ 1); a Classic ECN-capable packet is dropped rather than marked. Without
//!      `drop_overload` p' is capped at 1/k, so this never happens (Linux `overflow` mode).
//!    - Neither p_C nor p_CL acts while the two queues hold less than 2·`mtu_bytes` after the
//!      departure (Linux `must_drop`; PIE's §4.1 safeguard): the native L step still does.
//! 4. Scheduler: L first, but never starving C (RFC 9332 §2.4, §4.2.2, which leave the
//!    scheduler open); here Linux's WRR with C protection, in bytes: a credit starts at `mtu`·(w_C − w_L) (w_C =
//!    `c_protection` %, w_L = 100 − w_C); L is served while it has packets and either C is
//!    empty or the credit is ≤ 0; each L packet served while C waits adds w_C·its bytes, each C
//!    packet served while L waits subtracts w_L·its bytes, a dropped packet changes nothing, and
//!    the credit is reset when both queues are empty. With w_C = 10 % the C queue gets at least
//!    about 10 % of the link while both are backlogged. (RFC 9332 A.1 also describes a
//!    time-shifted FIFO; not modelled.)
//!
//! A packet arriving at the idle link is never marked or dropped, which is what Linux does too
//! (the queues are empty, so below 2 MTU, and its sojourn is 0); only the PI updates due move.
//!
//! The periodic update without a timer, as PIE's (`queue::pie`): boundaries k·T_UPDATE
//! (k = 1, 2, …) are applied lazily before each enqueue, idle arrival and dequeue, each with the
//! head sojourn at the boundary's time (the heads change only at events, so that is the
//! boundary time minus the head's enqueue time); a boundary at the same instant as an event is
//! applied before it. While both queues are empty and an update leaves p' and qdelay_old
//! unchanged, the remaining boundaries up to the event are skipped.
//!
//! Not modelled: Linux's `min_qlen_step` (default 0: the step always applies), its
//! packet-count step (`step_thresh` in packets), tc filters classifying into L, GSO splitting,
//! and its memory limit in skb truesize (`limit_bytes` counts wire bytes instead).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::fifo::Fifo;
use super::{Arrival, DequeueSink, Occupancy, QueueDiscipline, Signals, Verdict};
use crate::packet::PacketId;
use crate::rng::RandomStream;

/// DualPI2's parameters (RFC 9332 Appendix A, Linux `sch_dualpi2`; `queue::dualpi2` cites the
/// rule each enters). The defaults users get are set in the scenario layer (`DualPi2Queue` in
/// `tcpsim.scenario.network`).
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct DualPi2Config {
    /// The buffer the L and C queues share: an arrival that does not fit is dropped. At least
    /// one. Linux: 10 000 packets.
    pub limit_packets: Option<u64>,
    pub limit_bytes: Option<u64>,
    /// The PI2 target queueing delay (ns), > 0. RFC 9332 A.1 and Linux: 15 ms.
    pub target_ns: u64,
    /// T_UPDATE, the period of the p' update (ns), > 0. Linux: 16 ms (RFC 9332 A.1: min(target,
    /// RTT_max/3) = 15 ms).
    pub t_update_ns: u64,
    /// α (Hz), the integral gain, >= 0. Linux: 0.16 (RFC 9332 A.1: 0.1·T_UPDATE/RTT_max²).
    pub alpha: f64,
    /// β (Hz), the proportional gain, >= 0. Linux: 3.2 (RFC 9332 A.1: 0.3/RTT_max).
    pub beta: f64,
    /// k, the coupling factor: p_CL = k·p' (RFC 9332 §2.1), > 0. RFC and Linux: 2.
    pub coupling: f64,
    /// The L queue's native AQM threshold on its packets' sojourn time (ns): a step above it
    /// (Linux `step_thresh`, 1 ms), or the start of the ramp (RFC 9332 A.1 minTh, 800 µs).
    pub step_thresh_ns: u64,
    /// Width of the ramp from `step_thresh_ns` to full marking (ns; RFC 9332 A.1 range,
    /// 400 µs); 0 is Linux's step, marking every packet whose sojourn exceeds the threshold.
    pub step_range_ns: u64,
    /// Whose delay drives the PI2 update.
    pub pi_delay: DualPi2Delay,
    /// w_C, the C queue's weight (%) in the WRR scheduler, 0 to 100. Linux `c_protection`: 10.
    pub c_protection: u8,
    /// Overload (k·p' > 1) drops L packets with p_C and Classic ECN-capable ones instead of
    /// marking them (RFC 9332 §4.2.3; Linux `drop_overload`, default on); off caps p' at 1/k.
    pub drop_overload: bool,
    /// MTU (bytes) of the WRR credit's start and of the no-signal safeguard below 2 MTU queued,
    /// > 0. Linux `psched_mtu`: 1514 on Ethernet.
    pub mtu_bytes: u32,
}

/// The delay the PI2 update reads (`DualPi2Config::pi_delay`).
#[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum DualPi2Delay {
    /// The C queue head's sojourn so far (RFC 9332 A.1 `cq.time()`).
    Classic,
    /// The larger of the two heads' (Linux `calculate_probability`).
    Max,
}

/// What one of the two queues did (for the link results): cumulative, as `Signals`.
#[derive(Clone, Copy, Debug, Default)]
pub struct DualPi2ClassStats {
    /// Packets marked CE (C: ECT(0) with p_C; L: the step or p_CL).
    pub marks_ecn: u64,
    /// Packets dropped at dequeue (C: p_C; L: only in overload).
    pub drops_early: u64,
    /// Packets and bytes sent on the link from this queue (those that found the link idle
    /// included).
    pub packets_served: u64,
    pub bytes_served: u64,
    pub occupancy: Occupancy,
}

impl DualPi2Config {
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
        if !(self.coupling > 0.0 && self.coupling.is_finite()) {
            return Err(format!("coupling: {} must be a finite number > 0", self.coupling));
        }
        if self.c_protection > 100 {
            return Err(format!("c_protection: {} must be a percentage, 0 to 100", self.c_protection));
        }
        if self.mtu_bytes == 0 {
            return Err("mtu_bytes: must be > 0".into());
        }
        Ok(())
    }
}

pub struct DualPi2 {
    /// The L queue: (packet, wire bytes, enqueue time).
    l: Fifo<(PacketId, u32, u64)>,
    /// The C queue: (packet, wire bytes, enqueue time, ECN-capable).
    c: Fifo<(PacketId, u32, u64, bool)>,
    /// Both queues together: the shared limit and the trait's occupancy.
    total: Occupancy,
    limit_packets: u64,
    limit_bytes: u64,
    target_ns: u64,
    t_update_ns: u64,
    alpha: f64,
    beta: f64,
    k: f64,
    step_thresh_ns: u64,
    step_range_ns: u64,
    pi_delay_max: bool,
    /// The bound of p': 1, or 1/k without `drop_overload`.
    p_max: f64,
    /// WRR weights w_C, w_L (%) and the credit's reset value (percent·bytes).
    w_c: i64,
    w_l: i64,
    credit_init: i64,
    /// Below this many bytes queued after a departure neither p_C nor p_CL acts.
    quiet_bytes: u64,
    /// p', the PI2 base probability.
    p: f64,
    /// The delay the previous update used (ns).
    qdelay_old_ns: u64,
    /// The next update boundary (a multiple of T_UPDATE).
    next_update_ns: u64,
    /// The WRR credit (percent·bytes): L is served while it is ≤ 0.
    credit: i64,
    rng: RandomStream,
    signals: Signals,
    /// The L and C queues' counters (occupancy filled in by `class_stats_at`).
    stats: [DualPi2ClassStats; 2],
}

/// Index of the L and C queues in `DualPi2::stats`.
const L: usize = 0;
const C: usize = 1;

impl DualPi2 {
    /// A DualPI2 queue drawing its marks and drops from `rng`.
    pub fn new(cfg: &DualPi2Config, rng: RandomStream) -> Self {
        let w_c = cfg.c_protection as i64;
        let w_l = 100 - w_c;
        let credit_init = cfg.mtu_bytes as i64 * (w_c - w_l);
        DualPi2 {
            l: Fifo::new(None, None),
            c: Fifo::new(None, None),
            total: Occupancy::default(),
            limit_packets: cfg.limit_packets.unwrap_or(u64::MAX),
            limit_bytes: cfg.limit_bytes.unwrap_or(u64::MAX),
            target_ns: cfg.target_ns,
            t_update_ns: cfg.t_update_ns,
            alpha: cfg.alpha,
            beta: cfg.beta,
            k: cfg.coupling,
            step_thresh_ns: cfg.step_thresh_ns,
            step_range_ns: cfg.step_range_ns,
            pi_delay_max: cfg.pi_delay == DualPi2Delay::Max,
            p_max: if cfg.drop_overload { 1.0 } else { (1.0 / cfg.coupling).min(1.0) },
            w_c,
            w_l,
            credit_init,
            quiet_bytes: 2 * cfg.mtu_bytes as u64,
            p: 0.0,
            qdelay_old_ns: 0,
            next_update_ns: cfg.t_update_ns,
            credit: credit_init,
            rng,
            signals: Signals::default(),
            stats: Default::default(),
        }
    }

    /// The L and C queues' counters, their occupancy integrals brought up to `now_ns`.
    pub fn class_stats_at(&self, now_ns: u64) -> [DualPi2ClassStats; 2] {
        let mut out = self.stats;
        out[L].occupancy = self.l.occupancy().at(now_ns);
        out[C].occupancy = self.c.occupancy().at(now_ns);
        out
    }

    /// p', the base probability now.
    pub fn base_probability(&self) -> f64 {
        self.p
    }

    /// The delay an update at `t_ns` reads: the head's sojourn so far (0 for an empty queue).
    fn qdelay_at(&self, t_ns: u64) -> u64 {
        let c = self.c.head().map_or(0, |h| t_ns - h.2);
        if !self.pi_delay_max {
            return c;
        }
        c.max(self.l.head().map_or(0, |h| t_ns - h.2))
    }

    /// One periodic update (RFC 9332 A.1 `dualpi2_update`) with the delay `qdelay_ns`.
    fn update(&mut self, qdelay_ns: u64) {
        let seconds = |ns: u64| ns as f64 * 1e-9;
        let (qdelay, old, target) = (seconds(qdelay_ns), seconds(self.qdelay_old_ns), seconds(self.target_ns));
        let p = self.p + self.alpha * (qdelay - target) + self.beta * (qdelay - old);
        self.p = p.clamp(0.0, self.p_max);
        self.qdelay_old_ns = qdelay_ns;
    }

    /// Apply every update boundary up to and including `now_ns` (the module comment's lazy
    /// timer).
    fn catch_up(&mut self, now_ns: u64) {
        // (A boundary saturated at u64::MAX is never reached: the engine's times are bounded.)
        while self.next_update_ns <= now_ns && self.next_update_ns != u64::MAX {
            let before = (self.p, self.qdelay_old_ns);
            self.update(self.qdelay_at(self.next_update_ns));
            self.next_update_ns = self.next_update_ns.saturating_add(self.t_update_ns);
            let idle = self.l.is_empty() && self.c.is_empty();
            if idle && (self.p, self.qdelay_old_ns) == before && self.next_update_ns <= now_ns {
                // A fixed point of the update, whose input stays 0 until `now_ns`.
                let skipped = (now_ns - self.next_update_ns) / self.t_update_ns + 1;
                self.next_update_ns = self.next_update_ns.saturating_add(skipped.saturating_mul(self.t_update_ns));
            }
        }
    }

    /// The L queue's native AQM probability p'_L for a sojourn of `sojourn_ns` (RFC 9332 A.1
    /// `laqm`; a step when the range is 0).
    fn native_l(&self, sojourn_ns: u64) -> f64 {
        if sojourn_ns <= self.step_thresh_ns {
            0.0
        } else if sojourn_ns >= self.step_thresh_ns.saturating_add(self.step_range_ns) {
            1.0
        } else {
            (sojourn_ns - self.step_thresh_ns) as f64 / self.step_range_ns as f64
        }
    }

    /// True with probability `p` (no draw when `p` is 0 or at least 1).
    fn roll(&mut self, p: f64) -> bool {
        p >= 1.0 || self.rng.bernoulli(p)
    }

    /// Which queue the WRR scheduler serves next (§2.4; Linux `dequeue_packet`): L, C, or
    /// neither when both are empty.
    fn pick_l(&self) -> Option<bool> {
        match (self.l.is_empty(), self.c.is_empty()) {
            (true, true) => None,
            (false, true) => Some(true),
            (true, false) => Some(false),
            (false, false) => Some(self.credit <= 0),
        }
    }

    /// Take the head of the scheduled queue and decide on it: `Some(mark)` if it leaves,
    /// `None` if it is dropped. `Err` when both queues are empty.
    #[inline]
    fn serve_one(&mut self, now_ns: u64) -> Result<(PacketId, u32, Option<bool>), ()> {
        let from_l = self.pick_l().ok_or(())?;
        let other_waits = if from_l { !self.c.is_empty() } else { !self.l.is_empty() };
        let (id, bytes, enqueued_ns, ect) = if from_l {
            let (id, bytes, t) = self.l.pop(now_ns).expect("scheduled a non-empty queue");
            (id, bytes, t, true)
        } else {
            self.c.pop(now_ns).expect("scheduled a non-empty queue")
        };
        self.total.remove(bytes, now_ns);
        let coupled = self.total.bytes >= self.quiet_bytes;
        let p_c = self.p * self.p;
        let overload = self.k * self.p > 1.0;
        let fate = if from_l {
            let native = self.native_l(now_ns - enqueued_ns);
            if coupled && overload && self.roll(p_c) {
                None
            } else if coupled && overload {
                Some(true)
            } else {
                let p_l = if coupled { native.max(self.k * self.p) } else { native };
                Some(self.roll(p_l))
            }
        } else if coupled && self.roll(p_c) {
            if ect && !overload {
                Some(true)
            } else {
                None
            }
        } else {
            Some(false)
        };
        if fate.is_some() && other_waits {
            self.credit += if from_l { self.w_c } else { -self.w_l } * bytes as i64;
        }
        let s = &mut self.stats[if from_l { L } else { C }];
        match fate {
            None => s.drops_early += 1,
            Some(mark) => {
                s.marks_ecn += mark as u64;
                s.packets_served += 1;
                s.bytes_served += bytes as u64;
            }
        }
        Ok((id, bytes, fate))
    }
}

/// The per-packet hooks are kept out of line, as PIE's.
impl QueueDiscipline for DualPi2 {
    #[inline(never)]
    fn enqueue(&mut self, a: Arrival, now_ns: u64) -> Verdict {
        self.catch_up(now_ns);
        let t = &self.total;
        if t.packets >= self.limit_packets || t.bytes + a.wire_bytes as u64 > self.limit_bytes {
            return Verdict::Dropped;
        }
        if a.l4s {
            self.l.push((a.id, a.wire_bytes, now_ns), now_ns);
        } else {
            self.c.push((a.id, a.wire_bytes, now_ns, a.ect), now_ns);
        }
        self.total.add(a.wire_bytes, now_ns);
        Verdict::Enqueued
    }

    /// The queues are empty, so the packet is neither marked nor dropped; only the updates due
    /// move.
    #[inline(never)]
    fn arrive_at_idle_link(&mut self, a: Arrival, now_ns: u64) {
        self.catch_up(now_ns);
        let s = &mut self.stats[if a.l4s { L } else { C }];
        s.packets_served += 1;
        s.bytes_served += a.wire_bytes as u64;
    }

    #[inline(never)]
    fn dequeue(&mut self, now_ns: u64, sink: &mut DequeueSink) -> Option<(PacketId, u32)> {
        self.catch_up(now_ns);
        loop {
            let Ok((id, bytes, fate)) = self.serve_one(now_ns) else {
                self.credit = self.credit_init;
                return None;
            };
            match fate {
                None => {
                    self.signals.drops_early += 1;
                    sink.dropped.push(id);
                }
                Some(mark) => {
                    self.signals.marks_ecn += mark as u64;
                    sink.mark = mark;
                    return Some((id, bytes));
                }
            }
        }
    }

    fn occupancy(&self) -> &Occupancy {
        &self.total
    }

    fn occupancy_mut(&mut self) -> &mut Occupancy {
        &mut self.total
    }

    fn signals(&self) -> Signals {
        self.signals
    }

    #[inline]
    fn next_out(&self) -> [PacketId; 2] {
        [self.l.next_out()[0], self.c.next_out()[0]]
    }

    fn waiting(&self) -> Box<dyn Iterator<Item = PacketId> + '_> {
        Box::new(self.l.ids().chain(self.c.ids()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::RdMark;
    use crate::packet::{Ecn, PacketKind};

    const MS: u64 = 1_000_000;

    /// Linux's defaults with a 1000-packet buffer.
    fn config() -> DualPi2Config {
        DualPi2Config {
            limit_packets: Some(1000),
            limit_bytes: None,
            target_ns: 15 * MS,
            t_update_ns: 16 * MS,
            alpha: 0.16,
            beta: 3.2,
            coupling: 2.0,
            step_thresh_ns: MS,
            step_range_ns: 0,
            pi_delay: DualPi2Delay::Classic,
            c_protection: 10,
            drop_overload: true,
            mtu_bytes: 1514,
        }
    }

    fn dualpi2(cfg: &DualPi2Config) -> DualPi2 {
        DualPi2::new(cfg, RandomStream::new(1, "dualpi2-test"))
    }

    /// A 1500-byte data packet with ECN field `ecn`.
    fn packet(id: PacketId, ecn: Ecn) -> Arrival {
        Arrival {
            id,
            wire_bytes: 1500,
            ect: ecn != Ecn::NotEct,
            l4s: matches!(ecn, Ecn::Ect1 | Ecn::Ce),
            kind: PacketKind::Data,
            flow: 0,
            rd_class: RdMark::R,
        }
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-12 * b.abs().max(1e-9)
    }

    /// What `n` dequeues at `now_ns` returned, each with its mark, and the packets dropped.
    fn drain(q: &mut DualPi2, now_ns: u64, n: usize) -> (Vec<(PacketId, bool)>, Vec<PacketId>) {
        let (mut out, mut dropped) = (vec![], vec![]);
        for _ in 0..n {
            let mut sink = DequeueSink::default();
            let Some((id, _)) = q.dequeue(now_ns, &mut sink) else { break };
            out.push((id, sink.mark));
            dropped.extend(sink.dropped);
        }
        (out, dropped)
    }

    /// RFC 9332 A.1's update with α = 0.16 Hz, β = 3.2 Hz, target 15 ms, for qdelay = 30, 30,
    /// 20, 0, 0, 0 ms from p' = 0: (1) 0.16·0.015 + 3.2·0.030 = 0.0984; (2) + 0.16·0.015 + 0 =
    /// 0.1008; (3) + 0.16·0.005 − 3.2·0.010 = 0.0696; (4) + 0.16·(−0.015) − 3.2·0.020 = 0.0032;
    /// (5) − 0.0024 = 0.0008; (6) − 0.0024 < 0 → 0. Then p_C = p'² and p_CL = k·p' follow: at p' = 0.1008, 0.01016064 and 0.2016.
    #[test]
    fn hand_worked_pi2_updates() {
        let mut q = dualpi2(&config());
        let mut ps = vec![];
        for qdelay_ms in [30, 30, 20, 0, 0, 0] {
            q.update(qdelay_ms * MS);
            ps.push(q.p);
        }
        for (got, want) in ps.iter().zip([0.0984, 0.1008, 0.0696, 0.0032, 0.0008, 0.0]) {
            assert!(close(*got, want) || (want == 0.0 && *got == 0.0), "{ps:?}");
        }
        assert!(close(ps[1] * ps[1], 0.01016064) && close(2.0 * ps[1], 0.2016));
        q.qdelay_old_ns = 0;
        q.update(400 * MS);
        assert_eq!(q.p, 1.0, "bounded to 1");
        let mut capped = dualpi2(&DualPi2Config { drop_overload: false, ..config() });
        capped.update(400 * MS);
        assert_eq!(capped.p, 0.5, "without drop_overload bounded to 1/k");
    }

    /// The lazy timer reads the C head's sojourn at each boundary: C packets 0 and 1 arrive at
    /// 0; nothing happens until a dequeue at 40 ms, which first applies the 16 and 32 ms
    /// boundaries with sojourns 16 and 32 ms: p' = 0.16·0.001 + 3.2·0.016 = 0.05136, then plus
    /// 0.16·0.017 + 3.2·0.016, 0.10528. An L packet's sojourn does not count (`classic`),
    /// but does with `pi_delay = max`.
    #[test]
    fn lazy_updates_read_the_classic_head_sojourn_at_each_boundary() {
        let mut q = dualpi2(&config());
        q.enqueue(packet(0, Ecn::NotEct), 0);
        q.enqueue(packet(1, Ecn::Ect0), 0);
        q.dequeue(40 * MS, &mut DequeueSink::default());
        assert!(close(q.p, 0.10528), "{}", q.p);
        assert_eq!((q.qdelay_old_ns, q.next_update_ns), (32 * MS, 48 * MS));

        let mut l_only = dualpi2(&config());
        l_only.enqueue(packet(0, Ecn::Ect1), 0);
        l_only.enqueue(packet(1, Ecn::Ect1), 0);
        l_only.arrive_at_idle_link(packet(2, Ecn::Ect1), 20 * MS);
        assert_eq!(l_only.p, 0.0, "the L queue's 16 ms does not drive p' (15 ms target: 0.16·-0.015 + 0 < 0)");
        let mut max = dualpi2(&DualPi2Config { pi_delay: DualPi2Delay::Max, ..config() });
        max.enqueue(packet(0, Ecn::Ect1), 0);
        max.arrive_at_idle_link(packet(2, Ecn::Ect1), 20 * MS);
        assert!(close(max.p, 0.16 * 0.001 + 3.2 * 0.016), "{}", max.p);
    }

    /// The lazy catch-up, fixed-point skips included, against a timer that fires at every
    /// boundary: 20 000 events (arrivals of all codepoints, dequeues, idle gaps up to 2 s) give
    /// the same departures, marks, drops and p' after every event.
    #[test]
    fn lazy_catch_up_equals_a_periodic_timer_on_a_random_event_sequence() {
        let cfg = DualPi2Config { limit_packets: Some(60), ..config() };
        let (mut lazy, mut timed) = (dualpi2(&cfg), dualpi2(&cfg));
        let mut state = 12345u64;
        let mut draw = |n: u64| {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (state >> 33) % n
        };
        let (mut now, mut id): (u64, PacketId) = (0, 0);
        let codepoints = [Ecn::NotEct, Ecn::Ect0, Ecn::Ect1, Ecn::Ce];
        for _ in 0..20_000 {
            now += match draw(100) {
                0 => draw(2000) * MS,
                _ => draw(1_500_000),
            };
            while timed.next_update_ns <= now {
                timed.update(timed.qdelay_at(timed.next_update_ns));
                timed.next_update_ns += timed.t_update_ns;
            }
            if draw(100) < 55 {
                id += 1;
                let a = packet(id, codepoints[draw(4) as usize]);
                assert_eq!(lazy.enqueue(a, now), timed.enqueue(a, now));
            } else {
                let (mut s1, mut s2) = (DequeueSink::default(), DequeueSink::default());
                assert_eq!(lazy.dequeue(now, &mut s1), timed.dequeue(now, &mut s2));
                assert_eq!((s1.mark, s1.dropped), (s2.mark, s2.dropped));
            }
            assert_eq!((lazy.p, lazy.qdelay_old_ns), (timed.p, timed.qdelay_old_ns), "at {now}");
        }
        let s = lazy.signals();
        assert!(s.drops_early > 0 && s.marks_ecn > 0, "the sequence exercises both signals: {s:?}");
    }

    /// RFC 9331 §5.3: ECT(1) and CE go to L, not-ECT and ECT(0) to C (`next_out` is [L head,
    /// C head]); the occupancy is the two queues' together.
    #[test]
    fn ect1_and_ce_are_classified_into_l_the_rest_into_c() {
        let mut q = dualpi2(&config());
        q.enqueue(packet(0, Ecn::Ect0), 0);
        q.enqueue(packet(1, Ecn::Ce), 0);
        q.enqueue(packet(2, Ecn::NotEct), 0);
        q.enqueue(packet(3, Ecn::Ect1), 0);
        assert_eq!(q.next_out(), [1, 0]);
        assert_eq!(q.l.ids().collect::<Vec<_>>(), vec![1, 3]);
        assert_eq!(q.c.ids().collect::<Vec<_>>(), vec![0, 2]);
        assert_eq!((q.occupancy().packets, q.occupancy().bytes), (4, 6000));
        assert_eq!(q.waiting().count(), 4);
    }

    /// The WRR with C protection, both queues backlogged with 1500-byte packets: the credit
    /// starts at 1514·(10 − 90) = −121 120; each L packet adds 10·1500, so nine L packets (the
    /// ninth served at −1120) take it to 13 880 > 0, one C packet subtracts 90·1500 and returns
    /// it to −121 120: L L L L L L L L L C, twice. A queue alone is served without changing the
    /// credit; both empty reset it.
    #[test]
    fn the_scheduler_serves_nine_l_packets_per_c_packet_while_both_wait() {
        let mut q = dualpi2(&config());
        for id in 0..40 {
            q.enqueue(packet(id, if id < 20 { Ecn::Ect1 } else { Ecn::NotEct }), 0);
        }
        let (out, _) = drain(&mut q, 0, 20);
        let order: String = out.iter().map(|&(id, _)| if id < 20 { 'L' } else { 'C' }).collect();
        assert_eq!(order, "LLLLLLLLLCLLLLLLLLLC");
        assert_eq!(q.credit, -121_120);
        let (out, _) = drain(&mut q, 0, 20);
        assert_eq!(out.iter().map(|&(id, _)| id).collect::<Vec<_>>(), (18..20).chain(22..40).collect::<Vec<_>>());
        assert_eq!(q.credit, -121_120 + 2 * 15_000, "the last two L packets count, C alone does not");
        assert!(q.dequeue(0, &mut DequeueSink::default()).is_none());
        assert_eq!(q.credit, -121_120, "reset when both are empty");
    }

    /// The L step (Linux, 1 ms): an L packet whose sojourn exceeds 1 ms is marked, one of
    /// exactly 1 ms is not, whatever the queue length (the step does not wait for 2 MTU).
    /// A.1's ramp from 0.8 to 1.2 ms marks half at 1 ms.
    #[test]
    fn l_packets_are_marked_when_their_sojourn_exceeds_the_step_threshold() {
        let mut q = dualpi2(&config());
        q.enqueue(packet(0, Ecn::Ect1), 0);
        q.enqueue(packet(1, Ecn::Ect1), 0);
        q.enqueue(packet(2, Ecn::Ect0), 0);
        assert_eq!(drain(&mut q, MS, 1).0, vec![(0, false)]);
        assert_eq!(drain(&mut q, MS + 1, 1).0, vec![(1, true)]);
        assert_eq!(drain(&mut q, 5 * MS, 1).0, vec![(2, false)], "no step for C");
        assert_eq!(q.signals().marks_ecn, 1);

        let mut ramp = dualpi2(&DualPi2Config { step_thresh_ns: 800_000, step_range_ns: 400_000, ..config() });
        assert_eq!((ramp.native_l(800_000), ramp.native_l(1_000_000), ramp.native_l(1_200_000)), (0.0, 0.5, 1.0));
        let mut marked = 0;
        for id in 0..2000 {
            ramp.enqueue(packet(id, Ecn::Ect1), 0);
            let (out, _) = drain(&mut ramp, MS, 1);
            marked += out[0].1 as u32;
            ramp.dequeue(MS, &mut DequeueSink::default()); // both empty: the next starts afresh
        }
        assert!((900..1100).contains(&marked), "about half of 2000: {marked}");
    }

    /// p' = 0.3 with a long backlog: C packets dropped (not-ECT) or marked (ECT(0)) with
    /// p_C = 0.09, L packets marked with p_CL = 0.6 (sojourn 0: the step plays no part).
    #[test]
    fn classic_packets_see_p_squared_and_l_packets_k_times_p() {
        let mut q = dualpi2(&config());
        q.p = 0.3;
        q.next_update_ns = u64::MAX;
        let (mut l_marks, mut c_marks, mut c_drops) = (0, 0, 0);
        for round in 0..2000u32 {
            for (k, ecn) in [Ecn::Ect1, Ecn::NotEct, Ecn::Ect0].into_iter().enumerate() {
                q.enqueue(packet(3 * round + k as u32, ecn), 0);
            }
            while q.occupancy().packets > 3 {
                let mut sink = DequeueSink::default();
                let (id, _) = q.dequeue(0, &mut sink).unwrap();
                match id % 3 {
                    0 => l_marks += sink.mark as u32,
                    _ => c_marks += sink.mark as u32,
                }
                assert!(!(sink.mark && id % 3 == 1), "a not-ECT packet is never marked");
                c_drops += sink.dropped.len() as u32;
                assert!(sink.dropped.iter().all(|d| d % 3 != 0), "L packets are not dropped below overload");
            }
        }
        // About 2000 each of L, not-ECT C and ECT(0) C served or dropped.
        assert!((1100..1300).contains(&l_marks), "≈ 0.6 × 2000: {l_marks}");
        assert!((130..230).contains(&c_marks), "≈ 0.09 × 2000: {c_marks}");
        assert!((130..230).contains(&c_drops), "≈ 0.09 × 2000: {c_drops}");
    }

    /// Overload, k·p' = 1.2 > 1: L packets are dropped with p_C = 0.36 and the rest all marked;
    /// ECT(0) C packets are dropped, never marked. Below 2 MTU queued neither acts.
    #[test]
    fn in_overload_l_packets_are_dropped_as_classic_ones_and_classic_ecn_is_dropped() {
        let mut q = dualpi2(&config());
        q.p = 0.6;
        q.next_update_ns = u64::MAX;
        let (mut served_l, mut marked_l, mut dropped_l, mut dropped_c, mut marked_c) = (0, 0, 0, 0, 0);
        for round in 0..2000u32 {
            q.enqueue(packet(2 * round, Ecn::Ect1), 0);
            q.enqueue(packet(2 * round + 1, Ecn::Ect0), 0);
            while q.occupancy().packets > 4 {
                let mut sink = DequeueSink::default();
                let (id, _) = q.dequeue(0, &mut sink).unwrap();
                if id % 2 == 0 {
                    served_l += 1;
                    marked_l += sink.mark as u32;
                } else {
                    marked_c += sink.mark as u32;
                }
                dropped_l += sink.dropped.iter().filter(|d| *d % 2 == 0).count() as u32;
                dropped_c += sink.dropped.iter().filter(|d| *d % 2 == 1).count() as u32;
            }
        }
        assert_eq!((marked_l, marked_c), (served_l, 0), "every L packet left marked, no C one");
        assert!((600..840).contains(&dropped_l), "≈ 0.36 × 2000: {dropped_l}");
        assert!((600..840).contains(&dropped_c), "≈ 0.36 × 2000: {dropped_c}");

        let mut short = dualpi2(&config());
        short.p = 1.0;
        short.next_update_ns = u64::MAX;
        for id in 0..3 {
            short.enqueue(packet(id, if id == 0 { Ecn::Ect1 } else { Ecn::NotEct }), 0);
        }
        let (out, dropped) = drain(&mut short, 0, 3);
        assert_eq!((out.len(), dropped.len()), (3, 0), "at most 3000 < 2·1514 bytes after each departure");
    }

    /// The limit is shared: 2 L + 1 C fill 3 packets, and then an arrival for either queue is
    /// dropped; a byte limit counts both queues' wire bytes.
    #[test]
    fn the_two_queues_share_one_limit() {
        let mut q = dualpi2(&DualPi2Config { limit_packets: Some(3), ..config() });
        assert_eq!(q.enqueue(packet(0, Ecn::Ect1), 0), Verdict::Enqueued);
        assert_eq!(q.enqueue(packet(1, Ecn::Ect1), 0), Verdict::Enqueued);
        assert_eq!(q.enqueue(packet(2, Ecn::NotEct), 0), Verdict::Enqueued);
        assert_eq!(q.enqueue(packet(3, Ecn::NotEct), 0), Verdict::Dropped);
        assert_eq!(q.enqueue(packet(4, Ecn::Ect1), 0), Verdict::Dropped);
        q.dequeue(0, &mut DequeueSink::default());
        assert_eq!(q.enqueue(packet(5, Ecn::Ect0), 0), Verdict::Enqueued);
        let mut q = dualpi2(&DualPi2Config { limit_packets: None, limit_bytes: Some(3000), ..config() });
        assert_eq!(q.enqueue(packet(0, Ecn::Ect1), 0), Verdict::Enqueued);
        assert_eq!(q.enqueue(packet(1, Ecn::Ect0), 0), Verdict::Enqueued);
        assert_eq!(q.enqueue(packet(2, Ecn::Ect1), 0), Verdict::Dropped);
    }

    /// Each queue's counters: the marks, drops and bytes of the packets it served (an arrival
    /// at the idle link included) and its own occupancy, which sum to the whole queue's.
    #[test]
    fn each_queue_counts_its_own_marks_drops_and_service() {
        let mut q = dualpi2(&config());
        q.next_update_ns = u64::MAX;
        q.arrive_at_idle_link(packet(0, Ecn::Ect1), 0);
        q.enqueue(packet(1, Ecn::Ect1), 0);
        for id in 2..6 {
            q.enqueue(packet(id, Ecn::NotEct), 0);
        }
        q.p = 0.5; // p_CL = 1: the L packet is marked (6000 bytes left)
        assert_eq!(drain(&mut q, 2 * MS, 1), (vec![(1, true)], vec![]));
        q.p = 1.0; // p_C = 1: C's head is dropped (4500 bytes left), the next kept (3000 < 2·1514)
        assert_eq!(drain(&mut q, 2 * MS, 1), (vec![(3, false)], vec![2]));
        let [l, c] = q.class_stats_at(2 * MS);
        assert_eq!((l.marks_ecn, l.drops_early, l.packets_served, l.bytes_served), (1, 0, 2, 3000));
        assert_eq!((c.marks_ecn, c.drops_early, c.packets_served, c.bytes_served), (0, 1, 1, 1500));
        assert_eq!((l.occupancy.packet_ns, c.occupancy.packet_ns), (2 * MS as u128, 8 * MS as u128));
        assert_eq!(q.occupancy().at(2 * MS).packet_ns, 10 * MS as u128);
        assert_eq!((q.signals().marks_ecn, q.signals().drops_early), (1, 1));
    }

    #[test]
    fn validate_names_the_field() {
        assert!(config().validate().is_ok());
        let bad = DualPi2Config { t_update_ns: 0, ..config() };
        assert_eq!(bad.validate().unwrap_err(), "t_update_ns: must be > 0");
        let bad = DualPi2Config { coupling: 0.0, ..config() };
        assert!(bad.validate().unwrap_err().starts_with("coupling:"));
        let bad = DualPi2Config { c_protection: 101, ..config() };
        assert!(bad.validate().unwrap_err().starts_with("c_protection:"));
        let bad = DualPi2Config { beta: f64::INFINITY, ..config() };
        assert!(bad.validate().unwrap_err().starts_with("beta:"));
    }
}
