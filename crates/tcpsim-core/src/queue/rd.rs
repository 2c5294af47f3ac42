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
//! A packet that finds the link idle (and so the buffer empty) is served at once, but it
//! still passes through Fig. 2 as the only packet of its queue (as in ns-2, where it is
//! enqueued and immediately dequeued): its flow is counted and the one-queue branch of the
//! figure updates L_R, L_D and δL.
//!
//! Every `interval` the link recalculates its control parameters: the flow counts used by
//! the scheduler and, with a delay bound d, the buffer split B_D = S_D·d, B_R = B − B_D
//! (Sec. II-C); with a fixed share (Sec. III: 10 % of the buffer to D) only the counts
//! change. L_R, L_D (and so δL) count from the start of the current interval (Sec. III), so
//! a new interval starts them at 0. Between recalculations the scheduler uses the last counts, so its cost per packet
//! is constant.
//!
//! How long a flow stays counted after its last packet (the timestamp vector's window) is not
//! in `podlesny`, and the texts of the counting method it cites (its refs. [6], [11], [12])
//! were not reachable beyond their abstracts; Kim & O'Hallaron's abstract gives the method: a
//! sliding window over last-seen times, the window left to the user. n_R and n_D are "the
//! numbers of active flows … passing through the link" (Sec. II-C) and the experiments' flows
//! are long-lived, so the window is to cover the longest silence of a live TCP flow: one
//! backed-off retransmission timeout. A flow's RTO is at least its RTT, and its RTT holds the
//! wait in its class's queue, which behind a long R queue served at a small S_R reaches seconds.
//! So the window of class x is `counter_timeout` + m·D_x, where D_x is the longest wait of a
//! class-x packet served within the class's current window (the RTT samples a sender's RTO
//! still remembers) and m = `counter_delay_multiple` (2: an RTO doubled once); the fixed
//! `counter_timeout` covers the propagation RTT and the RTO's margins. m = 0 is a fixed window
//! of `counter_timeout` (tcpsim's rule before this model). Where Fig. 2 divides by a count that is still 0 (no recalculation has seen
//! the class yet) while both queues hold packets, the count is taken as 1: a class with a
//! packet waiting has at least one active flow.

use std::collections::VecDeque;

use super::fifo::Fifo;
use super::flow_counter::FlowCounter;
use super::{Arrival, DequeueSink, Occupancy, QueueDiscipline, Verdict};
use crate::packet::PacketId;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The RD discipline's parameters (this module's doc cites each). Defaults users get are set in the
/// scenario layer (`RdQueue` in `tcpsim.scenario.network`).
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct RdConfig {
    /// The whole buffer, shared by the two queues: exactly one of the two.
    pub limit_packets: Option<u64>,
    pub limit_bytes: Option<u64>,
    /// Target ratio of R's per-flow throughput to D's (eq. 5), > 0.
    pub k: f64,
    /// B_D as a fraction of the buffer, in (0, 1); exclusive with `d_delay_bound_ns`.
    pub d_share: Option<f64>,
    /// B_D = S_D·d for a delay bound d of D packets (needs `limit_bytes`), > 0.
    pub d_delay_bound_ns: Option<u64>,
    /// Period of the recalculation of the flow counts and the buffer split, > 0.
    pub interval_ns: u64,
    /// Slots of each class's timestamp vector, > 0.
    pub counter_slots: u32,
    /// A flow not seen for longer than this is no longer counted as active, > 0 (with
    /// `counter_delay_multiple` 0; else the base of the window).
    pub counter_timeout_ns: u64,
    /// m >= 0: a class's counting window is `counter_timeout_ns` + m × the longest queueing
    /// delay of its packets within the window (one backed-off RTO of a flow behind that
    /// queue, `queue::rd`); 0 (the default here) keeps the fixed window.
    #[serde(default)]
    pub counter_delay_multiple: f64,
}

/// Bound on an RD flow counter's slots (8 bytes each: 128 MiB per class), so that a user's
/// number cannot make the engine's first allocation abort the process.
pub const MAX_COUNTER_SLOTS: u32 = 1 << 24;

impl RdConfig {
    pub(crate) fn validate(&self, at: &str) -> Result<(), String> {
        if self.limit_packets.is_some() && self.limit_bytes.is_some() {
            return Err(format!("{at}: an RD buffer has one limit, in packets or in bytes, not both"));
        }
        if !(self.k > 0.0 && self.k.is_finite()) {
            return Err(format!("{at}.k: {} must be a finite number > 0", self.k));
        }
        match (self.d_share, self.d_delay_bound_ns) {
            (Some(share), None) if !(share > 0.0 && share < 1.0) => {
                return Err(format!("{at}.d_share: {share} must be in (0, 1)"));
            }
            (Some(_), None) => {}
            (None, Some(0)) => return Err(format!("{at}.d_delay_bound_ns: must be > 0")),
            (None, Some(_)) if self.limit_bytes.is_none() => {
                return Err(format!("{at}.d_delay_bound_ns: a delay bound sizes B_D in bytes: needs limit_bytes"));
            }
            (None, Some(_)) => {}
            _ => return Err(format!("{at}: exactly one of d_share and d_delay_bound_ns")),
        }
        if self.interval_ns == 0 {
            return Err(format!("{at}.interval_ns: must be > 0"));
        }
        if self.counter_slots == 0 || self.counter_slots > MAX_COUNTER_SLOTS {
            return Err(format!("{at}.counter_slots: {} must be in [1, {MAX_COUNTER_SLOTS}]", self.counter_slots));
        }
        if self.counter_timeout_ns == 0 {
            return Err(format!("{at}.counter_timeout_ns: must be > 0"));
        }
        if !(self.counter_delay_multiple >= 0.0 && self.counter_delay_multiple.is_finite()) {
            return Err(format!(
                "{at}.counter_delay_multiple: {} must be a finite number >= 0",
                self.counter_delay_multiple
            ));
        }
        Ok(())
    }
}

/// What one of the two queues did (for the link results).
#[derive(Clone, Copy, Debug, Default)]
pub struct ClassQueueStats {
    /// Arrivals refused because the class's buffer share was full.
    pub drops: u64,
    /// Packets and bytes sent on the link from this class (those that found the link idle
    /// included).
    pub packets_served: u64,
    pub bytes_served: u64,
    pub occupancy: Occupancy,
    /// The integral over time of the class's flow count n_x in force (count·ns): its mean
    /// over a window is the difference over the window's length.
    pub flow_count_ns: f64,
}

pub struct Rd {
    k: f64,
    /// The whole buffer and its unit (packets, else bytes).
    total: u64,
    in_packets: bool,
    /// B_D's rule: a share of the buffer, or a delay bound (ns) at the D service rate.
    d_share: Option<f64>,
    d_delay_bound_ns: Option<u64>,
    rate_bps: u64,
    interval_ns: u64,
    /// The R and D queues: each packet with its size and arrival time, limited to B_R, B_D.
    fifo: [Fifo<(PacketId, u32, u64)>; 2],
    /// Per-queue limit in the unit of the total: B_R, B_D.
    limit: [u64; 2],
    /// L_R, L_D of Fig. 2, bytes (signed: L_D may be set to −δL).
    served: [f64; 2],
    /// δL of Fig. 2, bytes.
    debt: f64,
    /// n_R, n_D as of the last recalculation.
    flows: [f64; 2],
    counters: [FlowCounter; 2],
    /// m: the counting window grows by m times the class's longest recent queueing delay.
    delay_multiple: f64,
    /// Each class's counting window in force (ns).
    window_ns: [u64; 2],
    /// The longest wait (ns) of a packet served in the current interval, per class.
    interval_max_wait_ns: [u64; 2],
    /// Per class, (end of interval, its longest wait) for the intervals inside the window.
    waits: [VecDeque<(u64, u64)>; 2],
    last_recalculation_ns: u64,
    next_recalculation_ns: u64,
    /// Per-class counters; their `occupancy` is the class FIFO's, filled in when read.
    stats: [ClassQueueStats; 2],
    /// The whole buffer's (both FIFOs').
    occupancy: Occupancy,
}

impl Rd {
    /// An RD queue on a link of `rate_bps`; `salt` (drawn from the queue's own stream)
    /// decorrelates its flow hashes from other links'.
    pub fn new(cfg: &RdConfig, rate_bps: u64, salt: u64) -> Self {
        let counter = |class: u64| FlowCounter::new(cfg.counter_slots as usize, cfg.counter_timeout_ns, salt ^ class);
        let mut rd = Rd {
            k: cfg.k,
            total: cfg.limit_packets.or(cfg.limit_bytes).expect("validated: an RD queue has a limit"),
            in_packets: cfg.limit_packets.is_some(),
            d_share: cfg.d_share,
            d_delay_bound_ns: cfg.d_delay_bound_ns,
            rate_bps,
            interval_ns: cfg.interval_ns,
            fifo: [Fifo::new(None, None), Fifo::new(None, None)],
            limit: [0, 0],
            served: [0.0, 0.0],
            debt: 0.0,
            flows: [0.0, 0.0],
            counters: [counter(0), counter(0x5151_5151_5151_5151)],
            delay_multiple: cfg.counter_delay_multiple,
            window_ns: [cfg.counter_timeout_ns; 2],
            interval_max_wait_ns: [0, 0],
            waits: [VecDeque::new(), VecDeque::new()],
            last_recalculation_ns: 0,
            next_recalculation_ns: cfg.interval_ns,
            stats: Default::default(),
            occupancy: Occupancy::default(),
        };
        rd.split_buffer();
        rd
    }

    /// B_R and B_D from the split rule and the current counts.
    fn split_buffer(&mut self) {
        let b_d = match (self.d_share, self.d_delay_bound_ns) {
            (Some(share), _) => (self.total as f64 * share).round() as u64,
            (None, Some(bound_ns)) => {
                let [n_r, n_d] = self.flows;
                // Before any count, split the rate evenly between the classes.
                let d_fraction = if n_r + n_d > 0.0 { n_d / (n_d + self.k * n_r) } else { 0.5 };
                (d_fraction * self.rate_bps as f64 * bound_ns as f64 / 8e9).round() as u64
            }
            (None, None) => unreachable!("validated: d_share or d_delay_bound_ns"),
        }
        .min(self.total);
        self.limit = [self.total - b_d, b_d];
        for (fifo, &limit) in self.fifo.iter_mut().zip(&self.limit) {
            if self.in_packets {
                fifo.set_limits(Some(limit), None);
            } else {
                fifo.set_limits(None, Some(limit));
            }
        }
    }

    /// Recalculate the control parameters if an interval boundary has passed.
    #[inline]
    fn recalculate_if_due(&mut self, now_ns: u64) {
        if now_ns < self.next_recalculation_ns {
            return;
        }
        let elapsed = (now_ns - self.last_recalculation_ns) as f64;
        for x in 0..2 {
            self.stats[x].flow_count_ns += self.flows[x] * elapsed;
            self.window_ns[x] = self.counting_window(x, now_ns);
            self.flows[x] = self.counters[x].estimate_within(now_ns, self.window_ns[x]);
        }
        self.last_recalculation_ns = now_ns;
        self.split_buffer();
        // Sec. III: L_R and L_D are "the traffic volume served … since the start of the most
        // recent recalculation interval"; without this reset the volumes served under the old
        // counts would hold the new ratio back (after n_R doubles, D would wait until R had
        // been served twice its old volume, seconds in which Vegas times out and its count —
        // and so its share — falls further).
        self.served = [0.0, 0.0];
        self.debt = 0.0;
        let interval = self.interval_ns;
        self.next_recalculation_ns = now_ns - (now_ns - self.next_recalculation_ns) % interval + interval;
    }

    /// Class x's counting window from the interval that just ended: `counter_timeout` + m·D_x,
    /// D_x the longest wait of its packets served within its window in force (see the module
    /// doc). The per-interval maxima older than the new window are forgotten.
    fn counting_window(&mut self, x: usize, now_ns: u64) -> u64 {
        let timeout = self.counters[x].timeout_ns();
        let waits = &mut self.waits[x];
        waits.push_back((now_ns, std::mem::take(&mut self.interval_max_wait_ns[x])));
        if self.delay_multiple == 0.0 {
            waits.clear();
            return timeout;
        }
        let since = now_ns.saturating_sub(self.window_ns[x]);
        let longest = waits.iter().filter(|&&(end, _)| end > since).map(|&(_, wait)| wait).max().unwrap_or(0);
        let window = timeout + (self.delay_multiple * longest as f64).round() as u64;
        let keep_after = now_ns.saturating_sub(window);
        while waits.front().is_some_and(|&(end, _)| end <= keep_after) {
            waits.pop_front();
        }
        window
    }

    /// n_R, n_D for the scheduler: at least 1 each, since Fig. 2 divides by them only while
    /// both queues hold a packet, i.e. while both classes have an active flow.
    #[inline]
    fn counts(&self) -> [f64; 2] {
        self.flows.map(|n| n.max(1.0))
    }

    /// Fig. 2's update of L_R, L_D and δL after serving `s` bytes from queue `x`, given which
    /// queues held packets when the choice was made.
    #[inline]
    fn account(&mut self, x: usize, s: f64, r_busy: bool, d_busy: bool) {
        let [n_r, n_d] = self.counts();
        match (r_busy, d_busy) {
            (true, true) => {
                self.served[x] += s;
                self.debt = (self.served[0] * n_d / (self.k * n_r) - self.served[1]).max(0.0);
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
    }

    fn record_service(&mut self, x: usize, size: u32) {
        let stats = &mut self.stats[x];
        stats.packets_served += 1;
        stats.bytes_served += size as u64;
    }

    /// Statistics of the R and D queues.
    pub fn class_stats(&self) -> [ClassQueueStats; 2] {
        let mut out = self.stats;
        for (s, fifo) in out.iter_mut().zip(&self.fifo) {
            s.occupancy = *fifo.occupancy();
        }
        out
    }

    /// The statistics with their occupancy and count integrals brought up to `now_ns`.
    pub fn class_stats_at(&self, now_ns: u64) -> [ClassQueueStats; 2] {
        let elapsed = now_ns.saturating_sub(self.last_recalculation_ns) as f64;
        let mut out = self.stats;
        for ((s, n), fifo) in out.iter_mut().zip(self.flows).zip(&self.fifo) {
            s.occupancy = fifo.occupancy().at(now_ns);
            s.flow_count_ns += n * elapsed;
        }
        out
    }

    /// Each class's counting window in force (ns).
    pub fn counting_windows(&self) -> [u64; 2] {
        self.window_ns
    }

    /// B_R and B_D in force.
    pub fn limits(&self) -> [u64; 2] {
        self.limit
    }

    /// n_R and n_D as of the last recalculation.
    pub fn flow_counts(&self) -> [f64; 2] {
        self.flows
    }
}

/// RD's enqueue, idle-link arrival and dequeue stay out of line (`inline(never)`): inlined
/// into `Queue`'s dispatch, which every link calls, their two FIFO cores made the dispatch of
/// every other discipline 2–3 % slower (drop-tail on `bench dumbbell`); out of line they cost
/// RD one call per packet (about 1 % on `bench podlesny_1600`).
impl QueueDiscipline for Rd {
    /// Drop-tail in the packet's own queue, after noting its flow as active.
    #[inline(never)]
    fn enqueue(&mut self, a: Arrival, now_ns: u64) -> Verdict {
        self.recalculate_if_due(now_ns);
        let x = a.rd_class as usize;
        self.counters[x].record(a.connection(), now_ns);
        if !self.fifo[x].fits(a.wire_bytes) {
            self.stats[x].drops += 1;
            return Verdict::Dropped;
        }
        self.fifo[x].push((a.id, a.wire_bytes, now_ns), now_ns);
        self.occupancy.add(a.wire_bytes, now_ns);
        Verdict::Enqueued
    }

    /// A packet that finds the link idle is the only packet of the buffer, served at once:
    /// Fig. 2's one-queue case (as in ns-2, where it is enqueued and dequeued at once).
    #[inline(never)]
    fn arrive_at_idle_link(&mut self, a: Arrival, now_ns: u64) {
        self.recalculate_if_due(now_ns);
        let x = a.rd_class as usize;
        self.counters[x].record(a.connection(), now_ns);
        self.account(x, a.wire_bytes as f64, x == 0, x == 1);
        self.record_service(x, a.wire_bytes);
    }

    /// The next packet for the link: Fig. 2, "RD router operation when link is idle, and
    /// buffer is non-empty".
    #[inline(never)]
    fn dequeue(&mut self, now_ns: u64, _sink: &mut DequeueSink) -> Option<(PacketId, u32)> {
        self.recalculate_if_due(now_ns);
        let (r_busy, d_busy) = (!self.fifo[0].is_empty(), !self.fifo[1].is_empty());
        let x = match (r_busy, d_busy) {
            (false, false) => return None,
            (true, true) => {
                let [n_r, n_d] = self.counts();
                let [l_r, l_d] = self.served;
                if self.k * n_r * l_d > n_d * l_r {
                    0
                } else {
                    1
                }
            }
            (true, false) => 0,
            (false, true) => 1,
        };
        let (id, size, arrived_ns) = self.fifo[x].pop(now_ns).expect("the chosen queue is non-empty");
        let wait = &mut self.interval_max_wait_ns[x];
        *wait = (*wait).max(now_ns - arrived_ns);
        self.account(x, size as f64, r_busy, d_busy);
        self.record_service(x, size);
        self.occupancy.remove(size, now_ns);
        Some((id, size))
    }

    fn occupancy(&self) -> &Occupancy {
        &self.occupancy
    }

    fn occupancy_mut(&mut self) -> &mut Occupancy {
        &mut self.occupancy
    }

    #[inline]
    fn next_out(&self) -> [PacketId; 2] {
        self.fifo.each_ref().map(|q| q.next_out()[0])
    }

    fn waiting(&self) -> Box<dyn Iterator<Item = PacketId> + '_> {
        Box::new(self.fifo.iter().flat_map(Fifo::ids))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::RdMark;
    use crate::packet::PacketKind;

    fn params(limit_packets: u64) -> RdConfig {
        RdConfig {
            k: 1.0,
            limit_packets: Some(limit_packets),
            limit_bytes: None,
            d_share: Some(0.1),
            d_delay_bound_ns: None,
            interval_ns: 1_000,
            counter_slots: 1024,
            counter_timeout_ns: 1_000_000,
            counter_delay_multiple: 0.0,
        }
    }

    const RATE_BPS: u64 = 8_000_000;

    fn arrival(id: PacketId, wire_bytes: u32, class: RdMark, flow: u32) -> Arrival {
        Arrival { id, wire_bytes, ect: false, l4s: false, kind: PacketKind::Data, flow, rd_class: class }
    }

    /// An RD queue whose counts are already n_R and n_D (set as a recalculation would).
    fn with_counts(n_r: f64, n_d: f64) -> Rd {
        let mut rd = Rd::new(&params(1000), RATE_BPS, 1);
        rd.flows = [n_r, n_d];
        rd.next_recalculation_ns = u64::MAX;
        rd
    }

    /// Serve every packet; the class (by id parity: even R, odd D) of each in order.
    fn drain(rd: &mut Rd) -> String {
        drain_at(rd, 0)
    }

    /// Serve every packet at `now_ns` (not before the queue's last event: time never runs back).
    fn drain_at(rd: &mut Rd, now_ns: u64) -> String {
        std::iter::from_fn(|| rd.dequeue(now_ns, &mut DequeueSink::default()))
            .map(|(id, _)| if id % 2 == 0 { 'R' } else { 'D' })
            .collect()
    }

    /// Queue `count` packets of `class`: ids even for R, odd for D, all distinct.
    fn fill(rd: &mut Rd, class: RdMark, count: u32, bytes: u32) {
        for _ in 0..count {
            let id = 2 * rd.occupancy.packets as u32 + 1000 * class as u32 * 2 + class as u32;
            assert_eq!(rd.enqueue(arrival(id, bytes, class, 0), 0), Verdict::Enqueued);
        }
    }

    #[test]
    fn both_busy_with_equal_counts_alternates_starting_with_d() {
        // L = (0, 0): k·n_R·L_D = 0 is not > n_D·L_R = 0, so D goes first; then L_D = 1000 >
        // L_R = 0 → R; then L_D = L_R → D; and so on.
        let mut rd = with_counts(1.0, 1.0);
        fill(&mut rd, RdMark::R, 3, 1000);
        fill(&mut rd, RdMark::D, 3, 1000);
        assert_eq!(drain(&mut rd), "DRDRDR");
    }

    #[test]
    fn both_busy_serves_bytes_in_the_ratio_k_n_r_to_n_d() {
        // n_R = 3, n_D = 1: λ = 1/3. D (L_D 1000), then 3·1000 > 0 → R (L_R 1000), 3000 > 1000
        // → R (2000), 3000 > 2000 → R (3000), 3000 > 3000 fails → D (L_D 2000), then R R R.
        let mut rd = with_counts(3.0, 1.0);
        fill(&mut rd, RdMark::R, 6, 1000);
        fill(&mut rd, RdMark::D, 2, 1000);
        assert_eq!(drain(&mut rd), "DRRRDRRR");
        assert_eq!(rd.served, [0.0, 0.0], "only R left at the end: reset");
    }

    #[test]
    fn the_debt_is_computed_and_carried_while_r_is_empty() {
        // Small D packets (100 B) against large R packets (1000 B), n_R = n_D = 1.
        let mut rd = with_counts(1.0, 1.0);
        fill(&mut rd, RdMark::R, 1, 1000);
        fill(&mut rd, RdMark::D, 4, 100);
        // Both busy: D first; L_D = 100, δL = max(0 − 100, 0) = 0.
        assert_eq!(rd.dequeue(0, &mut DequeueSink::default()).map(|p| p.1), Some(100));
        assert_eq!((rd.served, rd.debt), ([0.0, 100.0], 0.0));
        // Both busy: 100 > 0 → R; L_R = 1000, δL = 1000 − 100 = 900.
        assert_eq!(rd.dequeue(0, &mut DequeueSink::default()).map(|p| p.1), Some(1000));
        assert_eq!((rd.served, rd.debt), ([1000.0, 100.0], 900.0));
        // Only R empty: δL = 900 − 100 = 800 > 0, so L_D = −800 (L_R unchanged).
        assert_eq!(rd.dequeue(0, &mut DequeueSink::default()).map(|p| p.1), Some(100));
        assert_eq!((rd.served, rd.debt), ([1000.0, -800.0], 800.0));
        assert_eq!(rd.dequeue(0, &mut DequeueSink::default()).map(|p| p.1), Some(100));
        assert_eq!((rd.served, rd.debt), ([1000.0, -700.0], 700.0));
    }

    #[test]
    fn a_paid_debt_resets_both_counters() {
        let mut rd = with_counts(1.0, 1.0);
        rd.served = [500.0, 0.0];
        rd.debt = 150.0;
        fill(&mut rd, RdMark::D, 2, 100);
        rd.dequeue(0, &mut DequeueSink::default()); // δL 50 > 0: L_D = −50
        assert_eq!((rd.served, rd.debt), ([500.0, -50.0], 50.0));
        rd.dequeue(0, &mut DequeueSink::default()); // δL −50 ≤ 0: both reset
        assert_eq!(rd.served, [0.0, 0.0]);
    }

    #[test]
    fn only_r_busy_resets_the_counters() {
        let mut rd = with_counts(1.0, 1.0);
        rd.served = [4000.0, 7000.0];
        fill(&mut rd, RdMark::R, 1, 1000);
        rd.dequeue(0, &mut DequeueSink::default());
        assert_eq!(rd.served, [0.0, 0.0]);
    }

    #[test]
    fn each_class_is_drop_tail_within_its_share_of_the_buffer() {
        let mut rd = Rd::new(&params(20), RATE_BPS, 1); // B_D = 2, B_R = 18 packets
        assert_eq!(rd.limits(), [18, 2]);
        fill(&mut rd, RdMark::D, 2, 1000);
        assert_eq!(rd.enqueue(arrival(999, 1000, RdMark::D, 0), 0), Verdict::Dropped);
        fill(&mut rd, RdMark::R, 18, 1000);
        assert_eq!(rd.enqueue(arrival(998, 1000, RdMark::R, 0), 0), Verdict::Dropped);
        assert_eq!((rd.class_stats()[0].drops, rd.class_stats()[1].drops), (1, 1));
        assert_eq!(rd.occupancy().packets, 20);
    }

    #[test]
    fn flow_counts_and_a_delay_bound_split_are_recalculated_each_interval() {
        let mut p = params(0);
        (p.limit_packets, p.limit_bytes) = (None, Some(100_000));
        (p.d_share, p.d_delay_bound_ns) = (None, Some(10_000_000)); // d = 10 ms at C = 8 Mb/s
        let mut rd = Rd::new(&p, RATE_BPS, 3);
        assert_eq!(rd.limits(), [95_000, 5_000], "no counts yet: half the rate, 10 ms of 4 Mb/s");
        for flow in 0..3 {
            rd.enqueue(arrival(2 * flow, 100, RdMark::R, flow), 10);
        }
        rd.enqueue(arrival(7, 100, RdMark::D, 7), 10);
        assert_eq!(rd.flow_counts(), [0.0, 0.0], "not before the first interval ends");
        rd.dequeue(1_000, &mut DequeueSink::default());
        let [n_r, n_d] = rd.flow_counts();
        assert!((n_r - 3.0).abs() < 0.01 && (n_d - 1.0).abs() < 0.01, "{n_r} {n_d}");
        // S_D = n_D/(n_D + n_R) · 8 Mb/s ≈ 2 Mb/s; 10 ms of it is about 2 500 bytes.
        let b_d = (n_d / (n_d + n_r) * 8e6 * 0.010 / 8.0).round() as u64;
        assert_eq!(rd.limits(), [100_000 - b_d, b_d]);
        assert!(b_d.abs_diff(2_500) <= 5, "{b_d}");
        assert_eq!(rd.next_recalculation_ns, 2_000);
    }

    #[test]
    fn the_served_volumes_restart_with_each_recalculation_interval() {
        // Sec. III: L_R and L_D count from the start of the current interval. Volumes left from
        // an interval with other counts (L_R = 9 MB, L_D = 3 MB) must not hold D back: under the
        // new counts n_R = 5, n_D = 1 they would give R the next 6 MB (5·3 MB > 1·9 MB).
        let mut rd = Rd::new(&params(1000), RATE_BPS, 1);
        for flow in 0..5 {
            rd.enqueue(arrival(2 * flow, 1000, RdMark::R, flow), 0);
            rd.enqueue(arrival(2 * flow + 100, 1000, RdMark::R, flow), 0);
        }
        rd.enqueue(arrival(1, 1000, RdMark::D, 7), 0);
        rd.served = [9e6, 3e6];
        rd.debt = 0.0;
        let first = rd.dequeue(1_000, &mut DequeueSink::default()).map(|(id, _)| id % 2); // the first interval ends at 1 µs
        let [n_r, n_d] = rd.flow_counts();
        assert!((n_r - 5.0).abs() < 0.05 && (n_d - 1.0).abs() < 0.01, "{n_r} {n_d}");
        assert_eq!(first, Some(1), "L = (0, 0) in the new interval: D goes first");
        assert_eq!(drain_at(&mut rd, 1_000), "RRRRRRRRRR");
    }

    #[test]
    fn an_arrival_at_an_idle_link_takes_the_one_queue_branch() {
        let mut rd = with_counts(1.0, 1.0);
        rd.served = [3000.0, 1000.0];
        rd.debt = 2500.0;
        rd.arrive_at_idle_link(arrival(1, 1000, RdMark::D, 4), 0); // only R empty: δL 1500 → L_D −1500
        assert_eq!((rd.served, rd.debt), ([3000.0, -1500.0], 1500.0));
        rd.arrive_at_idle_link(arrival(2, 1000, RdMark::R, 5), 0); // only D empty: reset
        assert_eq!(rd.served, [0.0, 0.0]);
        let [r, d] = rd.class_stats();
        assert_eq!((r.packets_served, d.packets_served, r.bytes_served), (1, 1, 1000));
        assert_eq!(rd.occupancy().packets, 0);
    }

    /// Recalculation every 100 ns, a 1000 ns base window, m = `multiple`.
    fn counting(multiple: f64) -> Rd {
        let p =
            RdConfig { interval_ns: 100, counter_timeout_ns: 1_000, counter_delay_multiple: multiple, ..params(1000) };
        Rd::new(&p, RATE_BPS, 1)
    }

    /// Flow 1's only packet arrives at 0 and waits 1500 ns in R before it is served; the next
    /// recalculation (1600 ns) sees that wait.
    fn one_packet_waiting_1500_ns(rd: &mut Rd) {
        assert_eq!(rd.enqueue(arrival(0, 1000, RdMark::R, 1), 0), Verdict::Enqueued);
        assert_eq!(rd.dequeue(1_500, &mut DequeueSink::default()).map(|p| p.0), Some(0));
        assert_eq!(rd.dequeue(1_600, &mut DequeueSink::default()), None);
    }

    #[test]
    fn a_flow_silent_for_a_backed_off_rto_behind_a_long_r_queue_stays_counted() {
        // Its RTT holds the 1500 ns wait, so its RTO does too; doubled once, the flow may be silent
        // for about 2·1500 ns plus its path's share. Window: 1000 + 2·1500 = 4000 ns.
        let mut rd = counting(2.0);
        one_packet_waiting_1500_ns(&mut rd);
        assert_eq!(rd.counting_windows(), [4_000, 1_000], "D served nothing: its window is the base");
        assert!((rd.flow_counts()[0] - 1.0).abs() < 0.01, "silent 1600 ns: counted");
        rd.dequeue(3_900, &mut DequeueSink::default());
        assert_eq!(rd.counting_windows()[0], 4_000, "the 1500 ns wait (interval ending at 1600) is inside the window");
        assert!((rd.flow_counts()[0] - 1.0).abs() < 0.01, "silent 3900 ns ≤ 4000: counted");
        rd.dequeue(4_100, &mut DequeueSink::default());
        assert_eq!(rd.flow_counts()[0], 0.0, "silent 4100 ns > 4000: no longer counted");
    }

    #[test]
    fn with_no_delay_multiple_the_window_is_the_fixed_timeout() {
        // tcpsim's rule before the delay-relative window: the same flow is forgotten after 1000 ns.
        let mut rd = counting(0.0);
        one_packet_waiting_1500_ns(&mut rd);
        assert_eq!(rd.counting_windows(), [1_000, 1_000]);
        assert_eq!(rd.flow_counts()[0], 0.0, "silent 1600 ns > 1000: not counted");
    }

    #[test]
    fn the_window_returns_to_the_base_once_the_long_wait_is_older_than_the_window() {
        let mut rd = counting(2.0);
        one_packet_waiting_1500_ns(&mut rd);
        rd.enqueue(arrival(2, 1000, RdMark::R, 2), 5_550);
        rd.dequeue(5_550, &mut DequeueSink::default()); // served at once: waited 0
        rd.dequeue(5_600, &mut DequeueSink::default()); // the interval with the 1500 ns wait ended 4000 ns ago: out of the window
        assert_eq!(rd.counting_windows()[0], 1_000);
        assert!((rd.flow_counts()[0] - 1.0).abs() < 0.01, "flow 2 only");
    }

    #[test]
    fn the_mean_flow_count_weights_each_count_by_its_time_in_force() {
        // n_R = 1 from 1600 to 4100 ns (set at the 1600 recalculation, replaced by 0 at 4100), then 0.
        let mut rd = counting(2.0);
        one_packet_waiting_1500_ns(&mut rd);
        rd.dequeue(4_100, &mut DequeueSink::default());
        let [r, _] = rd.class_stats_at(5_000);
        let n = 1024.0 * (1024.0f64 / 1023.0).ln();
        assert!((r.flow_count_ns - n * 2_500.0).abs() < 1e-6, "{}", r.flow_count_ns);
    }

    #[test]
    fn a_queue_used_by_one_class_only_is_a_fifo() {
        let mut rd = Rd::new(&params(100), RATE_BPS, 1);
        for id in 0..10 {
            rd.enqueue(arrival(2 * id, 100 + id, RdMark::R, id), id as u64);
        }
        let order: Vec<u32> =
            std::iter::from_fn(|| rd.dequeue(50, &mut DequeueSink::default())).map(|(id, _)| id).collect();
        assert_eq!(order, (0..10).map(|i| 2 * i).collect::<Vec<_>>());
    }
}
