//! RD (Rate-Delay) Network Services (`podlesny` Sec. II-C, III and Fig. 2; Podlesny & Gorinsky,
//! "RD network services", the paper's ref. [6]).
//!
//! Two drop-tail FIFOs share the link: R for throughput-greedy (loss-based) flows, D for
//! delay-sensitive (delay-based) flows; a packet's class is its flow's mark. The scheduler
//! keeps the bytes served from each queue, L_R and L_D, in the ratio
//! λ = n_D / (k·n_R) (eq. 5), i.e. service rates S_R = k·n_R·C / (n_D + k·n_R) and
//! S_D = n_D·C / (n_D + k·n_R) (eqs. 6–7), where n_R and n_D are the active flows of each class
//! counted by timestamp vectors ([`FlowCounter`]). The pseudo-code of Fig. 2 is followed
//! line by line in [`Rd::dequeue`], including its resets when one queue is empty and the debt
//! δL that the D queue carries while R is empty.
//!
//! Every `interval` the link recalculates its control parameters: the flow counts used by
//! the scheduler and, with a delay bound d, the buffer split B_D = S_D·d, B_R = B − B_D
//! (Sec. II-C); with a fixed share (Sec. III: 10 % of the buffer to D) only the counts
//! change. Between recalculations the scheduler uses the last counts, so its cost per packet
//! is constant. Where Fig. 2 divides by a count that is still 0 (no recalculation has seen
//! the class yet) while both queues hold packets, the count is taken as 1: a class with a
//! packet waiting has at least one active flow.

use std::collections::VecDeque;

use super::flow_counter::FlowCounter;
use super::{Occupancy, Verdict};
use crate::packet::PacketId;

/// A packet's RD service class (the ToS/DSCP mark of its flow, `podlesny` Sec. II-C).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RdClass {
    /// Throughput-greedy: served from the R queue.
    R = 0,
    /// Delay-sensitive: served from the D queue.
    D = 1,
}

/// How the buffer is split between the two queues.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum BufferSplit {
    /// B_D is this fraction of the total, in (0, 1) (`podlesny` Sec. III: 0.1).
    DShare(f64),
    /// B_D = S_D · d bytes for a queueing-delay bound d (ns) of D packets (Sec. II-C),
    /// recalculated with the flow counts; needs a byte limit.
    DelayBound(u64),
}

/// The parameters of an RD queue (validated by the configuration layer).
#[derive(Clone, Copy, Debug)]
pub struct RdParams {
    /// Target ratio of per-flow throughputs R : D (eq. 5); `podlesny` uses k = 1.
    pub k: f64,
    /// The whole buffer, in packets or bytes (exactly one is set).
    pub limit_packets: Option<u64>,
    pub limit_bytes: Option<u64>,
    pub split: BufferSplit,
    /// Recalculation period of n_R, n_D, S_R, S_D, B_R, B_D.
    pub interval_ns: u64,
    /// Slots of each class's timestamp vector.
    pub counter_slots: usize,
    /// A flow silent longer than this is no longer active.
    pub counter_timeout_ns: u64,
    /// Link rate C, for S_D in the delay-bound split.
    pub rate_bps: u64,
}

/// What one of the two queues did (for the link results).
#[derive(Clone, Copy, Debug, Default)]
pub struct ClassQueueStats {
    pub drops: u64,
    pub packets_served: u64,
    pub bytes_served: u64,
    pub occupancy: Occupancy,
}

pub struct Rd {
    params: RdParams,
    fifo: [VecDeque<(PacketId, u32)>; 2],
    /// Per-queue limit in the unit of the total (packets or bytes): B_R, B_D.
    limit: [u64; 2],
    /// L_R, L_D of Fig. 2, bytes (signed: L_D may be set to −δL).
    served: [f64; 2],
    /// δL of Fig. 2, bytes.
    debt: f64,
    /// n_R, n_D as of the last recalculation.
    flows: [f64; 2],
    counters: [FlowCounter; 2],
    next_recalculation_ns: u64,
    stats: [ClassQueueStats; 2],
    occupancy: Occupancy,
}

impl Rd {
    /// An RD queue; `salt` decorrelates its flow hashes from other links' (from its stream).
    pub fn new(params: RdParams, salt: u64) -> Self {
        let counter = |class: u64| FlowCounter::new(params.counter_slots, params.counter_timeout_ns, salt ^ class);
        let mut rd = Rd {
            params,
            fifo: [VecDeque::new(), VecDeque::new()],
            limit: [0, 0],
            served: [0.0, 0.0],
            debt: 0.0,
            flows: [0.0, 0.0],
            counters: [counter(0), counter(0x5151_5151)],
            next_recalculation_ns: params.interval_ns,
            stats: Default::default(),
            occupancy: Occupancy::default(),
        };
        rd.split_buffer();
        rd
    }

    fn total(&self) -> u64 {
        self.params.limit_packets.or(self.params.limit_bytes).expect("an RD queue has a limit")
    }

    /// B_R and B_D from the split rule and the current counts.
    fn split_buffer(&mut self) {
        let total = self.total();
        let d = match self.params.split {
            BufferSplit::DShare(share) => (total as f64 * share).round() as u64,
            BufferSplit::DelayBound(bound_ns) => {
                let [n_r, n_d] = self.flows;
                let k = self.params.k;
                // Before any count, split the rate evenly between the classes.
                let d_fraction = if n_r + n_d > 0.0 { n_d / (n_d + k * n_r) } else { 0.5 };
                let s_d_bps = d_fraction * self.params.rate_bps as f64;
                (s_d_bps * bound_ns as f64 / 8e9).round() as u64
            }
        }
        .min(total);
        self.limit = [total - d, d];
    }

    /// Recalculate the control parameters if an interval boundary has passed.
    #[inline]
    fn recalculate_if_due(&mut self, now_ns: u64) {
        if now_ns < self.next_recalculation_ns {
            return;
        }
        self.flows = [self.counters[0].estimate(now_ns), self.counters[1].estimate(now_ns)];
        self.split_buffer();
        let interval = self.params.interval_ns;
        self.next_recalculation_ns = now_ns - (now_ns - self.next_recalculation_ns) % interval + interval;
    }

    /// Offer an arriving packet of `class` from `flow`: drop-tail in its own queue.
    pub fn offer(&mut self, id: PacketId, wire_bytes: u32, class: RdClass, flow: u32, now_ns: u64) -> Verdict {
        self.recalculate_if_due(now_ns);
        let x = class as usize;
        self.counters[x].record(flow, now_ns);
        let held = &self.stats[x].occupancy;
        let full = match self.params.limit_packets {
            Some(_) => held.packets + 1 > self.limit[x],
            None => held.bytes + wire_bytes as u64 > self.limit[x],
        };
        if full {
            self.stats[x].drops += 1;
            return Verdict::Dropped;
        }
        self.fifo[x].push_back((id, wire_bytes));
        self.stats[x].occupancy.add(wire_bytes, now_ns);
        self.occupancy.add(wire_bytes, now_ns);
        Verdict::Enqueued
    }

    /// The next packet for the link: Fig. 2, "RD router operation when link is idle, and
    /// buffer is non-empty".
    pub fn dequeue(&mut self, now_ns: u64) -> Option<(PacketId, u32)> {
        self.recalculate_if_due(now_ns);
        let (r_busy, d_busy) = (!self.fifo[0].is_empty(), !self.fifo[1].is_empty());
        let k = self.params.k;
        let [n_r, n_d] = self.flows.map(|n| n.max(1.0));
        let x = match (r_busy, d_busy) {
            (false, false) => return None,
            (true, true) => {
                let [l_r, l_d] = self.served;
                if k * n_r * l_d > n_d * l_r {
                    0
                } else {
                    1
                }
            }
            (true, false) => 0,
            (false, true) => 1,
        };
        let (id, size) = self.fifo[x].pop_front().expect("the chosen queue is non-empty");
        let s = size as f64;
        match (r_busy, d_busy) {
            (true, true) => {
                self.served[x] += s;
                self.debt = (self.served[0] * n_d / (k * n_r) - self.served[1]).max(0.0);
            }
            (true, false) => self.served = [0.0, 0.0],
            _ => {
                if self.debt > 0.0 {
                    self.debt -= s;
                }
                if self.debt > 0.0 {
                    self.served[1] = -self.debt;
                } else {
                    self.served = [0.0, 0.0];
                }
            }
        }
        let stats = &mut self.stats[x];
        stats.occupancy.remove(size, now_ns);
        stats.packets_served += 1;
        stats.bytes_served += size as u64;
        self.occupancy.remove(size, now_ns);
        Some((id, size))
    }

    /// Statistics of the R and D queues.
    pub fn class_stats(&self) -> &[ClassQueueStats; 2] {
        &self.stats
    }

    /// B_R and B_D in force.
    pub fn limits(&self) -> [u64; 2] {
        self.limit
    }

    /// n_R and n_D as of the last recalculation.
    pub fn flow_counts(&self) -> [f64; 2] {
        self.flows
    }

    pub fn occupancy(&self) -> &Occupancy {
        &self.occupancy
    }

    pub fn occupancy_mut(&mut self) -> &mut Occupancy {
        &mut self.occupancy
    }

    pub fn waiting(&self) -> impl Iterator<Item = PacketId> + '_ {
        self.fifo.iter().flatten().map(|(id, _)| *id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(limit_packets: u64) -> RdParams {
        RdParams {
            k: 1.0,
            limit_packets: Some(limit_packets),
            limit_bytes: None,
            split: BufferSplit::DShare(0.1),
            interval_ns: 1_000,
            counter_slots: 1024,
            counter_timeout_ns: 1_000_000,
            rate_bps: 8_000_000,
        }
    }

    /// An RD queue whose counts are already n_R and n_D (set as a recalculation would).
    fn with_counts(n_r: f64, n_d: f64) -> Rd {
        let mut rd = Rd::new(params(1000), 1);
        rd.flows = [n_r, n_d];
        rd.next_recalculation_ns = u64::MAX;
        rd
    }

    /// Serve every packet; the class (by id parity: even R, odd D) of each in order.
    fn drain(rd: &mut Rd) -> String {
        std::iter::from_fn(|| rd.dequeue(0)).map(|(id, _)| if id % 2 == 0 { 'R' } else { 'D' }).collect()
    }

    fn fill(rd: &mut Rd, class: RdClass, count: u32, bytes: u32) {
        for i in 0..count {
            let id = 2 * (rd.fifo[class as usize].len() as u32 + 100 * i) + class as u32;
            assert_eq!(rd.offer(id, bytes, class, 0, 0), Verdict::Enqueued);
        }
    }

    #[test]
    fn both_busy_with_equal_counts_alternates_starting_with_d() {
        // L = (0, 0): k·n_R·L_D = 0 is not > n_D·L_R = 0, so D goes first; then L_D = 1000 >
        // L_R = 0 → R; then L_D = L_R → D; and so on.
        let mut rd = with_counts(1.0, 1.0);
        fill(&mut rd, RdClass::R, 3, 1000);
        fill(&mut rd, RdClass::D, 3, 1000);
        assert_eq!(drain(&mut rd), "DRDRDR");
    }

    #[test]
    fn both_busy_serves_bytes_in_the_ratio_k_n_r_to_n_d() {
        // n_R = 3, n_D = 1: λ = 1/3. D (L_D 1000), then 3·1000 > 0 → R (L_R 1000), 3000 > 1000
        // → R (2000), 3000 > 2000 → R (3000), 3000 > 3000 fails → D (L_D 2000), then R R R.
        let mut rd = with_counts(3.0, 1.0);
        fill(&mut rd, RdClass::R, 6, 1000);
        fill(&mut rd, RdClass::D, 2, 1000);
        assert_eq!(drain(&mut rd), "DRRRDRRR");
        assert_eq!(rd.served, [0.0, 0.0], "only R left at the end: reset");
    }

    #[test]
    fn the_debt_is_computed_and_carried_while_r_is_empty() {
        // Small D packets (100 B) against large R packets (1000 B), n_R = n_D = 1.
        let mut rd = with_counts(1.0, 1.0);
        fill(&mut rd, RdClass::R, 1, 1000);
        fill(&mut rd, RdClass::D, 4, 100);
        // Both busy: D first; L_D = 100, δL = max(0 − 100, 0) = 0.
        assert_eq!(rd.dequeue(0).map(|p| p.1), Some(100));
        assert_eq!((rd.served, rd.debt), ([0.0, 100.0], 0.0));
        // Both busy: 100 > 0 → R; L_R = 1000, δL = 1000 − 100 = 900.
        assert_eq!(rd.dequeue(0).map(|p| p.1), Some(1000));
        assert_eq!((rd.served, rd.debt), ([1000.0, 100.0], 900.0));
        // Only R empty: δL = 900 − 100 = 800 > 0, so L_D = −800 (L_R unchanged).
        assert_eq!(rd.dequeue(0).map(|p| p.1), Some(100));
        assert_eq!((rd.served, rd.debt), ([1000.0, -800.0], 800.0));
        assert_eq!(rd.dequeue(0).map(|p| p.1), Some(100));
        assert_eq!((rd.served, rd.debt), ([1000.0, -700.0], 700.0));
    }

    #[test]
    fn a_paid_debt_resets_both_counters() {
        let mut rd = with_counts(1.0, 1.0);
        rd.served = [500.0, 0.0];
        rd.debt = 150.0;
        fill(&mut rd, RdClass::D, 2, 100);
        rd.dequeue(0); // δL 50 > 0: L_D = −50
        assert_eq!((rd.served, rd.debt), ([500.0, -50.0], 50.0));
        rd.dequeue(0); // δL −50 ≤ 0: both reset
        assert_eq!(rd.served, [0.0, 0.0]);
    }

    #[test]
    fn only_r_busy_resets_the_counters() {
        let mut rd = with_counts(1.0, 1.0);
        rd.served = [4000.0, 7000.0];
        fill(&mut rd, RdClass::R, 1, 1000);
        rd.dequeue(0);
        assert_eq!(rd.served, [0.0, 0.0]);
    }

    #[test]
    fn each_class_is_drop_tail_within_its_share_of_the_buffer() {
        let mut rd = Rd::new(params(20), 1); // B_D = 2, B_R = 18 packets
        assert_eq!(rd.limits(), [18, 2]);
        fill(&mut rd, RdClass::D, 2, 1000);
        assert_eq!(rd.offer(999, 1000, RdClass::D, 0, 0), Verdict::Dropped);
        fill(&mut rd, RdClass::R, 18, 1000);
        assert_eq!(rd.offer(998, 1000, RdClass::R, 0, 0), Verdict::Dropped);
        assert_eq!((rd.class_stats()[0].drops, rd.class_stats()[1].drops), (1, 1));
        assert_eq!(rd.occupancy().packets, 20);
    }

    #[test]
    fn flow_counts_and_a_delay_bound_split_are_recalculated_each_interval() {
        let mut p = params(0);
        (p.limit_packets, p.limit_bytes) = (None, Some(100_000));
        p.split = BufferSplit::DelayBound(10_000_000); // d = 10 ms at C = 8 Mb/s
        let mut rd = Rd::new(p, 3);
        assert_eq!(rd.limits(), [95_000, 5_000], "no counts yet: half the rate, 10 ms of 4 Mb/s");
        for flow in 0..3 {
            rd.offer(flow, 100, RdClass::R, flow, 10);
        }
        rd.offer(7, 100, RdClass::D, 7, 10);
        assert_eq!(rd.flow_counts(), [0.0, 0.0], "not before the first interval ends");
        rd.dequeue(1_000);
        let [n_r, n_d] = rd.flow_counts();
        assert!((n_r - 3.0).abs() < 0.01 && (n_d - 1.0).abs() < 0.01, "{n_r} {n_d}");
        // S_D = n_D/(n_D + n_R) · 8 Mb/s ≈ 2 Mb/s; 10 ms of it is about 2 500 bytes.
        let b_d = (n_d / (n_d + n_r) * 8e6 * 0.010 / 8.0).round() as u64;
        assert_eq!(rd.limits(), [100_000 - b_d, b_d]);
        assert!(b_d.abs_diff(2_500) <= 5, "{b_d}");
        assert_eq!(rd.next_recalculation_ns, 2_000);
    }

    #[test]
    fn a_queue_used_by_one_class_only_is_a_fifo() {
        let mut rd = Rd::new(params(100), 1);
        for id in 0..10 {
            rd.offer(2 * id, 100 + id, RdClass::R, id, id as u64);
        }
        let order: Vec<u32> = std::iter::from_fn(|| rd.dequeue(50)).map(|(id, _)| id).collect();
        assert_eq!(order, (0..10).map(|i| 2 * i).collect::<Vec<_>>());
    }
}
