//! Random Early Detection: S. Floyd and V. Jacobson, "Random Early Detection Gateways for
//! Congestion Avoidance", IEEE/ACM Trans. Networking 1(4), 1993 ("F&J"), as ns-2's
//! `queue/red.cc` implements it (ns-3's `RedQueueDisc` is a port of that file).
//!
//! Every arrival (F&J Sec. 4, Fig. 2):
//! 1. Average queue (Sec. 6): avg ← (1 − w_q)·avg + w_q·q, q the queue before the arrival in
//!    packets or bytes (`mode`). An arrival that ends an idle period first decays the average
//!    as if m packets of `mean_packet_bytes` had left an empty queue meanwhile:
//!    avg ← (1 − w_q)^m·avg with m = ⌊idle time · C / (8·mean_packet_bytes)⌋ (Fig. 2's
//!    m = f(time − q_time); ns-2's `ptc_·(now − idletime_)`). As in ns-2 the arrival's own
//!    update with q = 0 follows; Fig. 2 writes only the decay. The link is idle from the moment
//!    the serializer finds the queue empty (ns-2's `idle_`), and at time 0.
//! 2. Drop probability (Fig. 2): p_b = max_p·(avg − min_th)/(max_th − min_th) for
//!    min_th ≤ avg < max_th. `gentle` (S. Floyd, "Recommendation on using the gentle_ variant
//!    of RED", 2000; ns-2 `gentle_`): p_b = max_p + (1 − max_p)·(avg − max_th)/max_th for
//!    max_th ≤ avg < 2·max_th. At or above the top (max_th, or 2·max_th when gentle) every
//!    arrival is dropped (a "forced" drop). Byte mode (Sec. 4): p_b ← p_b·size/mean_packet
//!    (F&J divide by the largest packet size, ns-2 by `mean_pktsize_`; set `mean_packet_bytes`
//!    to the largest size for F&J's).
//! 3. Spacing (Sec. 7): count = arrivals since the last early drop or mark. F&J's uniform
//!    spacing (`wait` = false): p_a = p_b/(1 − count·p_b), 1 once count·p_b ≥ 1, count
//!    including the arrival (Fig. 2 increments it first), so at a steady p_b the gap between
//!    drops is uniform in {1, …, 1/p_b − 1}. ns-2's `wait_` (true, the default of ns-2 and of
//!    ns-3's `Wait`): p_a = 0 while count·p_b < 1, p_b/(2 − count·p_b) while it is < 2, then 1:
//!    the gap is uniform in {1/p_b, …, 2/p_b − 1}. The arrival is dropped (or marked) with
//!    probability p_a, drawn from the queue's own random stream.
//! 4. ECN (RFC 3168 §5: a router sets CE instead of dropping an ECN-capable packet while "the
//!    router's buffer is not yet full"): with `ecn`, an early decision on an ECT packet marks
//!    it CE instead, in the gentle band too (ns-3's `UseEcn`); `mark_p` < 1 drops instead when
//!    p_b > mark_p (ns-2's `use_mark_p_` with `mark_p_` = 0.1). Forced drops always drop
//!    (ns-3's `UseHardDrop`, ns-2), and so does a full buffer.
//! 5. Hard limits: an arrival that does not fit the packet or byte limit is dropped (as
//!    drop-tail), whatever RED decided.
//!
//! Taken from ns-2 where F&J are silent: no early drop while the queue before the arrival is
//! at most 1 (packet, or byte in byte mode; ns-2's `qlen > 1`), so an arrival at an idle link is
//! never dropped; the first arrival that finds avg ≥ min_th after it was below is not dropped
//! and starts count at 1 (ns-2's `old`); forced and overflow drops reset count (ns-2 without
//! `ns1_compat_`). ns-2's byte mode also counts `count` in mean-sized packets and scales p_a
//! rather than p_b (`modify_p`); that is `count_bytes`, else F&J's order (scale p_b, count
//! packets). The two differ when sizes mix: an ACK counts a whole arrival in F&J's order, 40/500
//! of one in ns-2's.
//!
//! Counters (`Signals`): the drops decided by the average (early and forced,
//! `Verdict::DroppedEarly`) and the CE marks (`Verdict::Marked`); overflow is `Verdict::Dropped`.

use super::fifo::Fifo;
use super::{Arrival, DequeueSink, Occupancy, QueueDiscipline, Signals, Verdict};
use crate::packet::PacketId;
use crate::rng::RandomStream;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// RED's parameters; this module's doc cites the rule each one enters. The defaults users get are
/// set in the scenario layer (`RedQueue` in `tcpsim.scenario.network`).
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct RedConfig {
    /// Hard limits: an arrival that does not fit is dropped (as drop-tail). At least one.
    pub limit_packets: Option<u64>,
    pub limit_bytes: Option<u64>,
    /// Whether the average and the thresholds count packets or bytes; byte mode also scales
    /// the drop probability by packet size.
    pub mode: RedMode,
    /// Thresholds of the average queue in the mode's unit, 0 <= min_th < max_th.
    pub min_th: f64,
    pub max_th: f64,
    /// Drop probability at max_th, in (0, 1].
    pub max_p: f64,
    /// Weight of the newest sample in the average, in (0, 1].
    pub w_q: f64,
    /// The drop probability rises from max_p to 1 between max_th and 2·max_th (else every
    /// arrival above max_th is dropped).
    pub gentle: bool,
    /// ns-2's `wait_`: drops spaced uniformly in [1/p_b, 2/p_b) arrivals; false: F&J's
    /// p_b/(1 − count·p_b).
    pub wait: bool,
    /// Mean packet size (bytes): the idle-time decay counts packets of this size, byte mode
    /// divides by it. Must be > 0.
    pub mean_packet_bytes: u32,
    /// Mark ECN-capable packets CE instead of dropping them early.
    pub ecn: bool,
    /// With `ecn`: mark only while p_b <= mark_p, drop above (ns-2's `mark_p_`); 1 marks
    /// every early decision. In [0, 1].
    pub mark_p: f64,
    /// Byte mode only: count the traffic since the last early drop or mark in whole
    /// mean-sized packets of the bytes arrived, space with the unscaled p_b and scale the
    /// result by size/mean (ns-2.35's `REDQueue::modify_p` with `bytes_`); false: count
    /// arrivals and scale p_b first (F&J). They differ when packet sizes mix (ACKs).
    #[serde(default)]
    pub count_bytes: bool,
}

/// What RED's average and thresholds count.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum RedMode {
    Packet,
    Byte,
}

pub struct Red {
    fifo: Fifo<(PacketId, u32)>,
    byte_mode: bool,
    /// Thresholds in the mode's unit (packets or bytes).
    min_th: f64,
    max_th: f64,
    max_p: f64,
    w_q: f64,
    gentle: bool,
    wait: bool,
    mean_packet_bytes: u32,
    ecn: bool,
    mark_p: f64,
    /// Link rate (bit/s): the idle time's m counts mean-sized packets at this rate.
    rate_bps: u64,
    /// The average queue, in the mode's unit.
    avg: f64,
    /// Arrivals since the last early drop or mark.
    count: u64,
    /// Their bytes (`count_bytes` mode: ns-2's `count_bytes`).
    count_bytes: u64,
    /// `RedConfig::count_bytes` (byte mode only).
    ns2_count: bool,
    /// The last arrival found avg ≥ min_th with more than one queued (ns-2's `old`).
    above_min_th: bool,
    /// When the link went idle; None while it is busy.
    idle_since_ns: Option<u64>,
    rng: RandomStream,
    signals: Signals,
}

impl Red {
    /// A RED queue on a link of `rate_bps`, drawing its decisions from `rng`.
    pub fn new(cfg: &RedConfig, rate_bps: u64, rng: RandomStream) -> Self {
        Red {
            fifo: Fifo::new(cfg.limit_packets, cfg.limit_bytes),
            byte_mode: cfg.mode == RedMode::Byte,
            min_th: cfg.min_th,
            max_th: cfg.max_th,
            max_p: cfg.max_p,
            w_q: cfg.w_q,
            gentle: cfg.gentle,
            wait: cfg.wait,
            mean_packet_bytes: cfg.mean_packet_bytes,
            ecn: cfg.ecn,
            mark_p: cfg.mark_p,
            rate_bps,
            avg: 0.0,
            count: 0,
            count_bytes: 0,
            ns2_count: cfg.count_bytes && cfg.mode == RedMode::Byte,
            above_min_th: false,
            idle_since_ns: Some(0),
            rng,
            signals: Signals::default(),
        }
    }

    /// The queue in the mode's unit.
    fn queue_len(&self) -> f64 {
        if self.byte_mode {
            self.fifo.occupancy().bytes as f64
        } else {
            self.fifo.occupancy().packets as f64
        }
    }

    /// m of Fig. 2: mean-sized packets the link could have sent in `idle_ns`.
    fn idle_packets(&self, idle_ns: u64) -> u64 {
        let per_packet = 8 * self.mean_packet_bytes as u128 * 1_000_000_000;
        (idle_ns as u128 * self.rate_bps as u128 / per_packet).min(u64::MAX as u128) as u64
    }

    /// Step 1: the average as this arrival sees it.
    fn update_average(&mut self, now_ns: u64) {
        if let Some(since) = self.idle_since_ns.take() {
            let m = self.idle_packets(now_ns - since);
            self.avg *= (1.0 - self.w_q).powf(m as f64);
        }
        self.avg = (1.0 - self.w_q) * self.avg + self.w_q * self.queue_len();
    }

    /// Step 2: p_b for the current average, below the top (max_th, or 2·max_th when gentle).
    fn base_probability(&self) -> f64 {
        let p = if self.avg >= self.max_th {
            self.max_p + (1.0 - self.max_p) * (self.avg - self.max_th) / self.max_th
        } else {
            self.max_p * (self.avg - self.min_th) / (self.max_th - self.min_th)
        };
        p.min(1.0)
    }

    /// Steps 2–3: p_a for a packet of `wire_bytes`, given p_b and `count`.
    fn drop_probability(&self, p_b: f64, wire_bytes: u32) -> f64 {
        let size = wire_bytes as f64 / self.mean_packet_bytes as f64;
        if self.ns2_count {
            // ns-2's `modify_p`: count1 = count_bytes / mean_pktsize (integer division), the
            // spacing from the unscaled p_b, then p·size/mean while below 1.
            let count1 = (self.count_bytes / self.mean_packet_bytes as u64) as f64;
            let p = self.spaced(p_b, count1 * p_b);
            return if p < 1.0 { (p * size).min(1.0) } else { p };
        }
        let p_b = if self.byte_mode { (p_b * size).min(1.0) } else { p_b };
        self.spaced(p_b, self.count as f64 * p_b)
    }

    /// Step 3's spacing of p for a `spread` = count·p.
    fn spaced(&self, p: f64, spread: f64) -> f64 {
        match (self.wait, spread) {
            (false, s) if s < 1.0 => p / (1.0 - s),
            (true, s) if s < 1.0 => 0.0,
            (true, s) if s < 2.0 => p / (2.0 - s),
            _ => 1.0,
        }
    }

    /// Steps 2–4 for an arrival whose average is up to date (ns-2's "DROP LOGIC").
    fn decide(&mut self, a: &Arrival) -> Verdict {
        self.count += 1;
        self.count_bytes += a.wire_bytes as u64;
        if self.avg < self.min_th || self.queue_len() <= 1.0 {
            self.above_min_th = false;
            return Verdict::Enqueued;
        }
        let top = if self.gentle { 2.0 * self.max_th } else { self.max_th };
        if self.avg >= top {
            (self.count, self.count_bytes) = (0, 0);
            return Verdict::DroppedEarly;
        }
        if !self.above_min_th {
            self.above_min_th = true;
            (self.count, self.count_bytes) = (1, a.wire_bytes as u64);
            return Verdict::Enqueued;
        }
        let p_b = self.base_probability();
        if !self.rng.bernoulli(self.drop_probability(p_b, a.wire_bytes)) {
            return Verdict::Enqueued;
        }
        (self.count, self.count_bytes) = (0, 0);
        if self.ecn && a.ect && p_b <= self.mark_p {
            Verdict::Marked
        } else {
            Verdict::DroppedEarly
        }
    }
}

/// The per-packet hooks are kept out of line: the channel's dispatch then stays as small for
/// drop-tail as it was before RED existed (RED's own work dwarfs a call).
impl QueueDiscipline for Red {
    #[inline(never)]
    fn enqueue(&mut self, a: Arrival, now_ns: u64) -> Verdict {
        self.update_average(now_ns);
        let verdict = self.decide(&a);
        if !self.fifo.fits(a.wire_bytes) {
            (self.count, self.count_bytes) = (0, 0);
            return Verdict::Dropped;
        }
        match verdict {
            Verdict::DroppedEarly => self.signals.drops_early += 1,
            Verdict::Marked => self.signals.marks_ecn += 1,
            _ => {}
        }
        if verdict != Verdict::DroppedEarly {
            self.fifo.push((a.id, a.wire_bytes), now_ns);
        }
        verdict
    }

    /// The average decays over the idle time and sees an empty queue; with nothing queued
    /// the packet is never dropped (step 4's `qlen > 1`), so only the state moves.
    #[inline(never)]
    fn arrive_at_idle_link(&mut self, a: Arrival, now_ns: u64) {
        self.update_average(now_ns);
        let verdict = self.decide(&a);
        debug_assert_eq!(verdict, Verdict::Enqueued, "an empty queue never drops");
    }

    #[inline(never)]
    fn dequeue(&mut self, now_ns: u64, _sink: &mut DequeueSink) -> Option<(PacketId, u32)> {
        let out = self.fifo.pop(now_ns);
        if out.is_none() {
            self.idle_since_ns = Some(now_ns);
        }
        out
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

/// RED in packet mode with ns-2's classic thresholds (5, 15 packets), max_p 0.1, w_q 0.002,
/// gentle, wait, no ECN: the configuration tests share.
#[cfg(test)]
pub fn ns2_classic(limit_packets: u64, mean_packet_bytes: u32) -> RedConfig {
    RedConfig {
        limit_packets: Some(limit_packets),
        limit_bytes: None,
        mode: RedMode::Packet,
        min_th: 5.0,
        max_th: 15.0,
        max_p: 0.1,
        w_q: 0.002,
        gentle: true,
        wait: true,
        mean_packet_bytes,
        ecn: false,
        mark_p: 1.0,
        count_bytes: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::RdMark;
    use crate::packet::PacketKind;

    const MS: u64 = 1_000_000;

    /// `ns2_classic` with a 500-byte mean packet and a 100-packet buffer, on an 8 Mb/s link
    /// (0.5 ms per mean packet).
    fn config() -> RedConfig {
        ns2_classic(100, 500)
    }

    fn red(cfg: &RedConfig) -> Red {
        Red::new(cfg, 8_000_000, RandomStream::new(1, "red-test"))
    }

    fn packet(id: PacketId, ect: bool) -> Arrival {
        Arrival { id, wire_bytes: 1000, ect, l4s: false, kind: PacketKind::Data, flow: 0, rd_class: RdMark::R }
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-12 * b.abs().max(1.0)
    }

    #[test]
    fn the_average_follows_the_ewma_of_the_queue_each_arrival_finds() {
        let mut cfg = config();
        cfg.w_q = 0.25;
        let mut q = red(&cfg);
        // Arrivals at t = 0 (no idle time) find 0, 1, 2, 3 packets queued:
        // 0.25·0 = 0; 0.25·1 = 0.25; 0.75·0.25 + 0.25·2 = 0.6875; 0.75·0.6875 + 0.75 = 1.265625.
        let mut averages = vec![];
        for id in 0..4 {
            q.enqueue(packet(id, false), 0);
            averages.push(q.avg);
        }
        assert_eq!(averages, vec![0.0, 0.25, 0.6875, 1.265625]);
    }

    #[test]
    fn an_idle_period_decays_the_average_by_the_packets_the_link_could_have_sent() {
        let mut cfg = config();
        cfg.w_q = 0.1;
        let mut q = red(&cfg);
        q.avg = 10.0;
        q.idle_since_ns = None;
        assert_eq!(q.dequeue(2 * MS, &mut DequeueSink::default()), None, "the link goes idle at 2 ms");
        // 5.2 ms idle at 8 Mb/s with 500-byte mean packets: m = ⌊5.2/0.5⌋ = 10 decays, then the
        // arrival's own update with q = 0: avg = 10·0.9^11.
        q.arrive_at_idle_link(packet(0, false), 7 * MS + MS / 5);
        assert!(close(q.avg, 10.0 * 0.9f64.powi(11)), "{}", q.avg);
        // Busy again: the next arrival decays only by its own update.
        q.enqueue(packet(1, false), 8 * MS);
        assert!(close(q.avg, 10.0 * 0.9f64.powi(12)), "{}", q.avg);
    }

    #[test]
    fn drop_probability_rises_linearly_and_count_spaces_the_drops() {
        let mut q = red(&config());
        q.avg = 10.0; // p_b = 0.1·(10 − 5)/(15 − 5) = 0.05
        let p_b = q.base_probability();
        assert!(close(p_b, 0.05));
        q.wait = false; // F&J Sec. 7: p_a = p_b/(1 − count·p_b)
        q.count = 5;
        assert!(close(q.drop_probability(p_b, 1000), 0.05 / 0.75));
        q.count = 20;
        assert_eq!(q.drop_probability(p_b, 1000), 1.0, "count·p_b = 1");
        q.wait = true; // ns-2 wait_: nothing below count·p_b = 1, then p_b/(2 − count·p_b)
        q.count = 5;
        assert_eq!(q.drop_probability(p_b, 1000), 0.0);
        q.count = 30;
        assert!(close(q.drop_probability(p_b, 1000), 0.05 / 0.5));
        q.count = 40;
        assert_eq!(q.drop_probability(p_b, 1000), 1.0);
    }

    #[test]
    fn the_gentle_band_rises_from_max_p_to_one_and_above_it_every_arrival_is_dropped() {
        let mut q = red(&config());
        q.avg = 20.0; // 0.1 + 0.9·(20 − 15)/15 = 0.4
        assert!(close(q.base_probability(), 0.4));
        q.avg = 15.0;
        assert!(close(q.base_probability(), 0.1));
        for id in 0..3 {
            q.enqueue(packet(id, false), 0);
        }
        q.avg = 40.0; // ≥ 2·max_th: forced
        assert_eq!(q.enqueue(packet(3, true), 0), Verdict::DroppedEarly);
        let mut abrupt = red(&RedConfig { gentle: false, ..config() });
        for id in 0..3 {
            abrupt.enqueue(packet(id, false), 0);
        }
        abrupt.avg = 16.0; // without gentle, max_th is the top
        assert_eq!(abrupt.enqueue(packet(3, false), 0), Verdict::DroppedEarly);
    }

    #[test]
    fn byte_mode_scales_p_b_by_the_packet_size() {
        let cfg = RedConfig { mode: RedMode::Byte, min_th: 2500.0, max_th: 7500.0, ..config() };
        let mut q = red(&cfg);
        q.avg = 5000.0; // p_b = 0.1·2500/5000 = 0.05
        q.wait = false;
        q.count = 0;
        let p_b = q.base_probability();
        assert!(close(q.drop_probability(p_b, 1500), 0.15), "1500-byte packet: 3 × 0.05");
        assert!(close(q.drop_probability(p_b, 250), 0.025), "250-byte packet: half");
    }

    /// ns-2's byte count: p_b = 0.05 (as above). After a drop, three 40-byte ACKs and four
    /// 1040-byte packets arrive: count_bytes 120 + 4160 = 4280, count1 = ⌊4280/500⌋ = 8, spread
    /// 0.4 < 1: wait gives 0. A fifth packet: 5320 bytes, count1 10, spread 0.5, still 0. At
    /// count1 = 20 (bytes 10 000: e.g. 9 packets and 16 ACKs) spread 1: p = 0.05/(2 − 1) = 0.05,
    /// scaled by 1040/500: 0.104; an ACK there: 0.05·40/500 = 0.004. Counting arrivals
    /// instead, the 3 ACKs and 4 packets are 7 arrivals at p_b·1040/500 = 0.104: spread 0.728.
    #[test]
    fn ns2_byte_count_counts_mean_sized_packets_of_the_bytes_and_scales_after_spacing() {
        let cfg = RedConfig { mode: RedMode::Byte, min_th: 2500.0, max_th: 7500.0, count_bytes: true, ..config() };
        let mut q = red(&cfg);
        q.avg = 5000.0;
        let p_b = q.base_probability();
        assert!(close(p_b, 0.05));
        (q.count, q.count_bytes) = (7, 3 * 40 + 4 * 1040);
        assert_eq!(q.drop_probability(p_b, 1040), 0.0);
        (q.count, q.count_bytes) = (8, 3 * 40 + 5 * 1040);
        assert_eq!(q.drop_probability(p_b, 1040), 0.0);
        (q.count, q.count_bytes) = (25, 10_000);
        assert!(close(q.drop_probability(p_b, 1040), 0.104));
        assert!(close(q.drop_probability(p_b, 40), 0.004));
        let mut f_and_j = red(&RedConfig { count_bytes: false, ..cfg });
        (f_and_j.avg, f_and_j.count) = (5000.0, 7);
        assert!(close(f_and_j.count as f64 * p_b * 1040.0 / 500.0, 0.728));
        assert_eq!(f_and_j.drop_probability(p_b, 1040), 0.0, "spread 0.728 < 1");
        f_and_j.count = 10;
        assert!(close(f_and_j.drop_probability(p_b, 1040), 0.104 / (2.0 - 1.04)));
    }

    /// Holds the average at 10 (p_b = 0.25 with max_p 0.5) and returns the gaps, in arrivals,
    /// between successive early drops.
    fn drop_gaps(wait: bool) -> Vec<u64> {
        let cfg = RedConfig { max_p: 0.5, w_q: 1e-15, wait, limit_packets: None, ..config() };
        let mut q = red(&cfg);
        for id in 0..3 {
            q.enqueue(packet(id, false), 0);
        }
        q.avg = 10.0;
        let (mut gaps, mut since) = (vec![], 0);
        for id in 3..20_000 {
            since += 1;
            if q.enqueue(packet(id, false), 0) == Verdict::DroppedEarly {
                gaps.push(since);
                since = 0;
            }
        }
        gaps
    }

    #[test]
    fn uniform_spacing_drops_every_one_to_three_arrivals_and_wait_every_four_to_seven() {
        // After a drop the n-th arrival has count = n. F&J: p_a = 0.25/(1 − 0.25·n) is 1/3,
        // 1/2, 1 for n = 1, 2, 3, so the gap is uniform in {1, 2, 3}. wait: p_a is 0 up to n = 3,
        // then 0.25/(2 − 0.25·n) = 1/4, 1/3, 1/2, 1 for n = 4..7: uniform in {4, …, 7}. The first
        // gap also holds the arrivals before the crossing one (no drop, count = 1).
        let mean = |gaps: &[u64]| gaps.iter().sum::<u64>() as f64 / gaps.len() as f64;
        let uniform = drop_gaps(false);
        assert!(uniform.len() > 6000, "{}", uniform.len());
        assert!(uniform[1..].iter().all(|g| (1..=3).contains(g)), "{:?}", &uniform[..20]);
        assert!((mean(&uniform[1..]) - 2.0).abs() < 0.05, "mean gap {}", mean(&uniform[1..]));
        for g in 1..=3 {
            let share = uniform[1..].iter().filter(|&&x| x == g).count() as f64 / (uniform.len() - 1) as f64;
            assert!((share - 1.0 / 3.0).abs() < 0.03, "gap {g}: share {share}");
        }
        let waiting = drop_gaps(true);
        assert!(waiting[1..].iter().all(|g| (4..=7).contains(g)), "{:?}", &waiting[..20]);
        assert!((mean(&waiting[1..]) - 5.5).abs() < 0.1, "mean gap {}", mean(&waiting[1..]));
    }

    #[test]
    fn with_ecn_capable_packets_early_decisions_mark_but_forced_and_overflow_still_drop() {
        let cfg = RedConfig { ecn: true, max_p: 1.0, wait: false, w_q: 1e-15, limit_packets: Some(6), ..config() };
        let mut q = red(&cfg);
        for id in 0..3 {
            q.enqueue(packet(id, true), 0);
        }
        q.avg = 14.0;
        q.above_min_th = true;
        q.count = 1; // p_b = 0.9, count·p_b ≥ 1 after this arrival: a certain decision
        assert_eq!(q.enqueue(packet(3, true), 0), Verdict::Marked);
        q.count = 1;
        assert_eq!(q.enqueue(packet(4, false), 0), Verdict::DroppedEarly, "not ECN-capable");
        q.avg = 31.0;
        assert_eq!(q.enqueue(packet(5, true), 0), Verdict::DroppedEarly, "forced: above 2·max_th");
        q.avg = 0.0;
        q.enqueue(packet(6, true), 0);
        q.enqueue(packet(7, true), 0);
        assert_eq!(q.occupancy().packets, 6);
        assert_eq!(q.enqueue(packet(8, true), 0), Verdict::Dropped, "the buffer is full");
        let mut ns2 = red(&RedConfig { mark_p: 0.1, ..cfg });
        for id in 0..3 {
            ns2.enqueue(packet(id, true), 0);
        }
        ns2.avg = 14.0;
        ns2.above_min_th = true;
        ns2.count = 1;
        assert_eq!(ns2.enqueue(packet(3, true), 0), Verdict::DroppedEarly, "p_b 0.9 > mark_p 0.1: ns-2 drops");
    }

    #[test]
    fn no_early_drop_with_at_most_one_packet_queued_nor_on_the_first_crossing() {
        let cfg = RedConfig { max_p: 1.0, ..config() };
        let mut q = red(&cfg);
        q.avg = 14.0;
        q.idle_since_ns = None;
        assert_eq!(q.enqueue(packet(0, false), 0), Verdict::Enqueued, "empty queue");
        assert_eq!(q.enqueue(packet(1, false), 0), Verdict::Enqueued, "one packet queued");
        assert!(!q.above_min_th);
        assert_eq!(q.enqueue(packet(2, false), 0), Verdict::Enqueued, "the crossing arrival");
        assert!(q.above_min_th);
        assert_eq!(q.count, 1);
    }
}
