//! FQ-CoDel, Flow Queue CoDel (RFC 8290), with the choices of Linux `net/sched/sch_fq_codel.c`
//! where the RFC leaves one.
//!
//! Arrivals are classified into `flows` sub-queues (§4.1): by a hash of the connection with
//! a per-queue perturbation drawn from the queue's own random stream (`FlowClassifier::Hash`,
//! the RFC's and Linux's stochastic classifier, so two connections may share a sub-queue), or
//! by the connection's index (`FlowClassifier::Exact`: connection i gets sub-queue i mod
//! `flows`; §4.1.1 allows other classifications). Sub-queues are served by deficit round
//! robin with `quantum` bytes (§4.2): a sub-queue that becomes active joins the tail of the
//! *new* list with a full quantum, and
//! the new list is served before the *old* one (sparse-flow priority); a sub-queue whose
//! deficit is spent gets another quantum and moves to the old list's tail; one found empty
//! leaves its list, except that an empty new sub-queue moves to the old list while the old
//! list is not empty (§4.2's guard against starving old flows). Each sub-queue is a CoDel
//! FIFO with its own state (`codel::CodelState`, RFC 8289) and the discipline's `target`,
//! `interval`, `ecn` and `mtu`; as in Linux the "maxpacket" test reads the whole queue's
//! bytes (or, as ns-3.44 does, the sub-queue's: `MaxpacketBacklog`). When an arrival takes the queue past `limit_packets` (§4.1), packets are
//! dropped from the head of the sub-queue holding the most bytes — up to `drop_batch_size`
//! of them, stopping once half its bytes are gone (Linux `fq_codel_drop`, which also raises
//! that sub-queue's CoDel count by the number dropped).
//!
//! Packets wait in one slab of slots linked per sub-queue (allocated once for the limit, so
//! no allocation per packet). Not modelled: Linux's `memory_limit` (32 MB; the packet limit
//! binds first here) and `ce_threshold`.

use std::collections::VecDeque;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::codel::{validate_times, CodelFifo, CodelParams, CodelState, Departure};
use super::{Arrival, DequeueSink, Occupancy, QueueDiscipline, Signals, Verdict};
use crate::build_context::BuildContext;
use crate::packet::{PacketId, PacketKind, NO_PACKET};

/// How arrivals are assigned to sub-queues.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum FlowClassifier {
    /// A hash of the connection and a per-queue perturbation, scaled to `flows` (RFC 8290
    /// §4.1; Linux `fq_codel_hash`): connections may collide.
    Hash,
    /// Connection i (TCP flows first, then UDP flows) in sub-queue i mod `flows`.
    Exact,
}

/// Whose bytes CoDel's "maxpacket" test (RFC 8289 §4.2: a departure leaving at most `mtu_bytes`
/// queued is never above target) reads in FQ-CoDel. RFC 8290 does not say.
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum MaxpacketBacklog {
    /// The whole queue's: Linux `fq_codel_dequeue` hands the qdisc's backlog to
    /// `codel_dequeue`, so a sub-queue down to its last packet still drops while other
    /// sub-queues hold more than an MTU.
    #[default]
    Queue,
    /// The departing packet's sub-queue's: ns-3.44's `FqCoDelQueueDisc`, whose sub-queues are
    /// `CoDelQueueDisc`s, each testing its own bytes against `MinBytes`.
    SubQueue,
}

impl MaxpacketBacklog {
    fn is_queue(&self) -> bool {
        *self == MaxpacketBacklog::Queue
    }
}

/// FQ-CoDel's parameters (RFC 8290 §4, §5.2). Defaults users get are set in the scenario
/// layer (`FqCodelQueue` in `tcpsim.scenario.network`): Linux `sch_fq_codel`'s limit 10240
/// packets, 1024 flows, quantum 1514 bytes, drop batch 64, ECN on; RFC 8289's target 5 ms and
/// interval 100 ms.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct FqCodelConfig {
    /// Packets held by all sub-queues together; beyond it the fattest sub-queue is trimmed
    /// (RFC 8290 §4.1; Linux `limit`, 10240), in [1, 2^20].
    pub limit_packets: u64,
    /// Number of sub-queues (RFC 8290 §5.2; Linux `flows`, 1024), in [1, 65536].
    pub flows: u32,
    /// Bytes a sub-queue may send per round (RFC 8290 §4.2, §5.2: one MTU, Linux 1514), > 0.
    pub quantum_bytes: u32,
    /// Most packets dropped from the fattest sub-queue per overflow (Linux `drop_batch_size`,
    /// 64), > 0.
    pub drop_batch_size: u32,
    /// CoDel's acceptable standing delay of each sub-queue, ns (RFC 8289 §4.2: 5 ms), > 0.
    pub target_ns: u64,
    /// CoDel's interval, ns (RFC 8289 §4.3: 100 ms), > target.
    pub interval_ns: u64,
    /// Mark ECN-capable packets CE instead of dropping them (RFC 8290 §5.2 (ECN); Linux on).
    pub ecn: bool,
    /// A departure leaving at most this many bytes queued (`maxpacket_backlog`) is never
    /// above target (RFC 8289 §4.2 "maxpacket"; Linux `mtu`, 1514).
    pub mtu_bytes: u32,
    /// Whose bytes that test reads; written only when not the default.
    #[serde(default, skip_serializing_if = "MaxpacketBacklog::is_queue")]
    pub maxpacket_backlog: MaxpacketBacklog,
    /// How arrivals are assigned to sub-queues.
    pub classifier: FlowClassifier,
}

/// Largest `limit_packets`: the slab of limit + 1 slots (24 bytes each) is allocated at build, so
/// 2^20 packets (25 MB) bounds it, far beyond any buffer a scenario needs.
const MAX_LIMIT_PACKETS: u64 = 1 << 20;
/// Largest `flows` (Linux refuses more than 65536).
const MAX_FLOWS: u32 = 65536;

impl FqCodelConfig {
    /// Check the parameters; errors are `<field>: message`.
    pub fn validate(&self) -> Result<(), String> {
        if self.limit_packets == 0 || self.limit_packets > MAX_LIMIT_PACKETS {
            return Err(format!("limit_packets: {} must be in [1, {MAX_LIMIT_PACKETS}]", self.limit_packets));
        }
        if self.flows == 0 || self.flows > MAX_FLOWS {
            return Err(format!("flows: {} must be in [1, {MAX_FLOWS}]", self.flows));
        }
        if self.quantum_bytes == 0 {
            return Err("quantum_bytes: must be > 0".into());
        }
        if self.drop_batch_size == 0 {
            return Err("drop_batch_size: must be > 0".into());
        }
        validate_times(self.target_ns, self.interval_ns)
    }
}

/// End of a slot chain.
const NIL: u32 = u32::MAX;

/// A waiting packet, linked to the next one of its sub-queue (or of the free list).
#[derive(Clone, Copy, Debug)]
struct Slot {
    id: PacketId,
    wire_bytes: u32,
    enqueued_ns: u64,
    ect: bool,
    next: u32,
}

/// The slots of every sub-queue: one allocation, free slots chained from `free`.
struct Slab {
    slots: Vec<Slot>,
    free: u32,
}

impl Slab {
    /// Slots for `capacity` packets, all free.
    fn new(capacity: usize) -> Self {
        let slots = (0..capacity)
            .map(|i| Slot {
                id: NO_PACKET,
                wire_bytes: 0,
                enqueued_ns: 0,
                ect: false,
                next: if i + 1 < capacity { i as u32 + 1 } else { NIL },
            })
            .collect();
        Slab { slots, free: if capacity > 0 { 0 } else { NIL } }
    }

    #[inline]
    fn take(&mut self, slot: Slot) -> u32 {
        let i = self.free;
        debug_assert!(i != NIL, "the slab holds limit + 1 packets");
        self.free = self.slots[i as usize].next;
        self.slots[i as usize] = slot;
        i
    }

    #[inline]
    fn release(&mut self, i: u32) -> Slot {
        let slot = self.slots[i as usize];
        self.slots[i as usize].next = self.free;
        self.free = i;
        slot
    }
}

/// A sub-queue's FIFO: its chain of slots and the bytes in it.
#[derive(Clone, Copy, Debug)]
struct Chain {
    head: u32,
    tail: u32,
    bytes: u64,
}

impl Chain {
    const EMPTY: Chain = Chain { head: NIL, tail: NIL, bytes: 0 };

    #[inline]
    fn push(&mut self, slab: &mut Slab, slot: Slot) {
        let i = slab.take(Slot { next: NIL, ..slot });
        if self.tail == NIL {
            self.head = i;
        } else {
            slab.slots[self.tail as usize].next = i;
        }
        self.tail = i;
        self.bytes += slot.wire_bytes as u64;
    }

    #[inline]
    fn pop(&mut self, slab: &mut Slab) -> Option<Slot> {
        if self.head == NIL {
            return None;
        }
        let slot = slab.release(self.head);
        self.head = slot.next;
        if self.head == NIL {
            self.tail = NIL;
        }
        self.bytes -= slot.wire_bytes as u64;
        Some(slot)
    }
}

/// Which of the two round-robin lists a sub-queue is on (RFC 8290 §4.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum List {
    Inactive,
    New,
    Old,
}

struct SubQueue {
    chain: Chain,
    codel: CodelState,
    /// DRR deficit, bytes (negative after a packet larger than what was left).
    deficit: i64,
    list: List,
}

/// A sub-queue as CoDel sees it: popping frees the slot and updates the whole queue's
/// occupancy; "maxpacket" reads that occupancy's bytes or the sub-queue's (`backlog`).
struct SubQueueFifo<'a> {
    chain: &'a mut Chain,
    slab: &'a mut Slab,
    occupancy: &'a mut Occupancy,
    backlog: MaxpacketBacklog,
}

impl CodelFifo for SubQueueFifo<'_> {
    #[inline]
    fn pop_head(&mut self, now_ns: u64) -> Option<(Departure, u64)> {
        let s = self.chain.pop(self.slab)?;
        self.occupancy.remove(s.wire_bytes, now_ns);
        let departure = Departure { id: s.id, wire_bytes: s.wire_bytes, enqueued_ns: s.enqueued_ns, ect: s.ect };
        let left = match self.backlog {
            MaxpacketBacklog::Queue => self.occupancy.bytes,
            MaxpacketBacklog::SubQueue => self.chain.bytes,
        };
        Some((departure, left))
    }
}

pub struct FqCodel {
    cfg: FqCodelConfig,
    params: CodelParams,
    /// The hash classifier's perturbation (drawn from the queue's stream).
    perturbation: u64,
    /// TCP connections (UDP connection j is connection `tcp_flows + j` for `Exact`).
    tcp_flows: u64,
    slab: Slab,
    queues: Vec<SubQueue>,
    new_flows: VecDeque<u32>,
    old_flows: VecDeque<u32>,
    /// Packets the last overflow dropped, until `take_evicted`.
    evicted: Vec<PacketId>,
    occupancy: Occupancy,
    signals: Signals,
}

/// SplitMix64's finalizer: a well-mixed 64-bit hash of `x`.
#[inline]
fn mix64(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

impl FqCodel {
    pub fn new(cfg: &FqCodelConfig, ctx: &BuildContext) -> Self {
        let perturbation = match cfg.classifier {
            FlowClassifier::Hash => ctx.stream().below_or_equal(u64::MAX),
            FlowClassifier::Exact => 0,
        };
        let flows = cfg.flows as usize;
        FqCodel {
            cfg: cfg.clone(),
            params: CodelParams {
                target_ns: cfg.target_ns,
                interval_ns: cfg.interval_ns,
                ecn: cfg.ecn,
                mtu_bytes: cfg.mtu_bytes,
            },
            perturbation,
            tcp_flows: ctx.flows.len() as u64,
            // The arrival that overflows is enqueued before the fattest sub-queue is trimmed.
            slab: Slab::new(cfg.limit_packets as usize + 1),
            queues: (0..flows)
                .map(|_| SubQueue {
                    chain: Chain::EMPTY,
                    codel: CodelState::default(),
                    deficit: 0,
                    list: List::Inactive,
                })
                .collect(),
            new_flows: VecDeque::with_capacity(flows),
            old_flows: VecDeque::with_capacity(flows),
            evicted: Vec::with_capacity(cfg.drop_batch_size as usize),
            occupancy: Occupancy::default(),
            signals: Signals::default(),
        }
    }

    /// The sub-queue of an arrival.
    #[inline]
    fn classify(&self, a: &Arrival) -> u32 {
        let flows = self.cfg.flows as u64;
        match self.cfg.classifier {
            // Scaled as Linux's `reciprocal_scale`: the top 32 bits times flows.
            FlowClassifier::Hash => (((mix64(a.connection() ^ self.perturbation) >> 32) * flows) >> 32) as u32,
            FlowClassifier::Exact => {
                let index = a.flow as u64 + if a.kind == PacketKind::Udp { self.tcp_flows } else { 0 };
                (index % flows) as u32
            }
        }
    }

    /// RFC 8290 §4.1 / Linux `fq_codel_drop`: drop from the head of the sub-queue holding the
    /// most bytes (the first such on a tie) until half its bytes or `drop_batch_size` packets
    /// are gone, at least one.
    fn drop_from_fattest(&mut self, now_ns: u64) {
        let mut fattest = 0;
        for (i, q) in self.queues.iter().enumerate() {
            if q.chain.bytes > self.queues[fattest].chain.bytes {
                fattest = i;
            }
        }
        let q = &mut self.queues[fattest];
        let threshold = q.chain.bytes / 2;
        let (mut dropped, mut bytes) = (0u32, 0u64);
        while let Some(s) = q.chain.pop(&mut self.slab) {
            self.occupancy.remove(s.wire_bytes, now_ns);
            self.evicted.push(s.id);
            dropped += 1;
            bytes += s.wire_bytes as u64;
            if dropped >= self.cfg.drop_batch_size || bytes >= threshold {
                break;
            }
        }
        q.codel.add_to_count(dropped);
    }
}

impl QueueDiscipline for FqCodel {
    /// RFC 8290 §4.1 (Linux `fq_codel_enqueue`).
    #[inline]
    fn enqueue(&mut self, a: Arrival, now_ns: u64) -> Verdict {
        let i = self.classify(&a) as usize;
        let q = &mut self.queues[i];
        let slot = Slot { id: a.id, wire_bytes: a.wire_bytes, enqueued_ns: now_ns, ect: a.ect, next: NIL };
        q.chain.push(&mut self.slab, slot);
        if q.list == List::Inactive {
            q.list = List::New;
            q.deficit = self.cfg.quantum_bytes as i64;
            self.new_flows.push_back(i as u32);
        }
        let max_before = self.occupancy.max_packets;
        self.occupancy.add(a.wire_bytes, now_ns);
        if self.occupancy.packets <= self.cfg.limit_packets {
            return Verdict::Enqueued;
        }
        self.drop_from_fattest(now_ns);
        // The packet over the limit never stays: the maximum is what remains.
        self.occupancy.max_packets = max_before.max(self.occupancy.packets);
        Verdict::Evicted
    }

    /// RFC 8290 §4.2 (Linux `fq_codel_dequeue`): deficit round robin over the new list, then
    /// the old one; the chosen sub-queue's packet comes from its CoDel (`CodelState::dequeue`),
    /// whose head drops and mark go to `sink`.
    #[inline(never)]
    fn dequeue(&mut self, now_ns: u64, sink: &mut DequeueSink) -> Option<(PacketId, u32)> {
        loop {
            let (i, from_new) = match (self.new_flows.front(), self.old_flows.front()) {
                (Some(&i), _) => (i, true),
                (None, Some(&i)) => (i, false),
                (None, None) => return None,
            };
            let q = &mut self.queues[i as usize];
            let list = if from_new { &mut self.new_flows } else { &mut self.old_flows };
            if q.deficit <= 0 {
                q.deficit += self.cfg.quantum_bytes as i64;
                list.pop_front();
                q.list = List::Old;
                self.old_flows.push_back(i);
                continue;
            }
            let mut fifo = SubQueueFifo {
                chain: &mut q.chain,
                slab: &mut self.slab,
                occupancy: &mut self.occupancy,
                backlog: self.cfg.maxpacket_backlog,
            };
            if let Some(d) = q.codel.dequeue(&mut fifo, &self.params, now_ns, sink, &mut self.signals) {
                q.deficit -= d.wire_bytes as i64;
                return Some((d.id, d.wire_bytes));
            }
            list.pop_front();
            if from_new && !self.old_flows.is_empty() {
                q.list = List::Old;
                self.old_flows.push_back(i);
            } else {
                q.list = List::Inactive;
            }
        }
    }

    fn take_evicted(&mut self, sink: &mut DequeueSink) {
        sink.dropped.append(&mut self.evicted);
    }

    fn occupancy(&self) -> &Occupancy {
        &self.occupancy
    }

    fn occupancy_mut(&mut self) -> &mut Occupancy {
        &mut self.occupancy
    }

    fn signals(&self) -> Signals {
        self.signals
    }

    #[inline]
    fn next_out(&self) -> [PacketId; 2] {
        let head = |list: &VecDeque<u32>| {
            list.front().map_or(NO_PACKET, |&i| match self.queues[i as usize].chain.head {
                NIL => NO_PACKET,
                s => self.slab.slots[s as usize].id,
            })
        };
        [head(&self.new_flows), head(&self.old_flows)]
    }

    fn waiting(&self) -> Box<dyn Iterator<Item = PacketId> + '_> {
        Box::new(self.queues.iter().flat_map(move |q| {
            std::iter::successors(Some(q.chain.head).filter(|&s| s != NIL), move |&s| {
                Some(self.slab.slots[s as usize].next).filter(|&n| n != NIL)
            })
            .map(move |s| self.slab.slots[s as usize].id)
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::RdMark;

    const MS: u64 = 1_000_000;

    fn config(quantum_bytes: u32, limit_packets: u64) -> FqCodelConfig {
        FqCodelConfig {
            limit_packets,
            flows: 8,
            quantum_bytes,
            drop_batch_size: 64,
            target_ns: 5 * MS,
            interval_ns: 100 * MS,
            ecn: false,
            mtu_bytes: 0,
            maxpacket_backlog: MaxpacketBacklog::Queue,
            classifier: FlowClassifier::Exact,
        }
    }

    fn fq(cfg: &FqCodelConfig) -> FqCodel {
        FqCodel::new(cfg, &BuildContext::named(1, "link:l:ab:queue", "link:l", &[]))
    }

    /// Offer packet `id` of TCP flow `flow` (sub-queue `flow` with `Exact`).
    fn offer(q: &mut FqCodel, id: PacketId, flow: u32, wire_bytes: u32, now_ns: u64) -> Verdict {
        let a = Arrival { id, wire_bytes, ect: false, l4s: false, kind: PacketKind::Data, flow, rd_class: RdMark::R };
        q.enqueue(a, now_ns)
    }

    /// Dequeue at `now_ns`: the packet returned and the head drops.
    fn take(q: &mut FqCodel, now_ns: u64) -> (Option<PacketId>, Vec<PacketId>) {
        let mut sink = DequeueSink::default();
        let out = q.dequeue(now_ns, &mut sink).map(|(id, _)| id);
        (out, sink.dropped)
    }

    #[test]
    fn deficit_round_robin_serves_equal_bytes_to_flows_of_different_packet_sizes() {
        // Quantum 1500: flow 0 sends one 1500-byte packet a round, flow 1 three of 500 bytes.
        let mut q = fq(&config(1500, 100));
        (1..=3).for_each(|id| assert_eq!(offer(&mut q, id, 0, 1500, 0), Verdict::Enqueued));
        (11..=16).for_each(|id| assert_eq!(offer(&mut q, id, 1, 500, 0), Verdict::Enqueued));
        assert_eq!(q.next_out(), [1, NO_PACKET]);
        let mut waiting: Vec<_> = q.waiting().collect();
        waiting.sort_unstable();
        assert_eq!(waiting, [1, 2, 3, 11, 12, 13, 14, 15, 16]);
        // Both start on the new list with a quantum: 1 (flow 0's deficit 0, to the old list),
        // 11, 12, 13 (flow 1's 0), then the old list in turn.
        let order: Vec<_> = (0..10).map(|_| take(&mut q, MS).0).collect();
        let expected = [1, 11, 12, 13, 2, 14, 15, 16, 3].map(Some);
        assert_eq!(order[..9], expected);
        assert_eq!(order[9], None);
        assert_eq!((q.occupancy.packets, q.occupancy.bytes), (0, 0));
        assert!(q.new_flows.is_empty() && q.old_flows.is_empty());
    }

    #[test]
    fn a_flow_that_becomes_active_is_served_before_the_old_flows() {
        let mut q = fq(&config(1000, 100));
        (1..=10).for_each(|id| assert_eq!(offer(&mut q, id, 0, 1000, 0), Verdict::Enqueued));
        assert_eq!(take(&mut q, MS).0, Some(1));
        assert_eq!(take(&mut q, MS).0, Some(2)); // flow 0 spent its quantum: now on the old list
        assert_eq!(offer(&mut q, 20, 1, 1000, MS), Verdict::Enqueued);
        assert_eq!(q.next_out(), [20, 3]);
        assert_eq!(take(&mut q, MS).0, Some(20)); // the new list first (RFC 8290 §4.2)
                                                  // Flow 1 spent its quantum: it moves to the old list behind flow 0, which is served;
                                                  // then flow 1 is found empty on the old list and leaves it.
        assert_eq!(take(&mut q, MS).0, Some(3));
        assert_eq!(take(&mut q, MS).0, Some(4));
        assert_eq!(q.queues[1].list, List::Inactive);
        // Active again: back on the new list with a fresh quantum, ahead of flow 0's backlog.
        assert_eq!(offer(&mut q, 21, 1, 1000, 2 * MS), Verdict::Enqueued);
        assert_eq!(take(&mut q, 2 * MS).0, Some(21));
        assert_eq!(take(&mut q, 2 * MS).0, Some(5));
    }

    #[test]
    fn an_empty_new_flow_moves_to_the_old_list_only_if_that_is_not_empty() {
        let mut q = fq(&config(1000, 100));
        assert_eq!(offer(&mut q, 1, 0, 400, 0), Verdict::Enqueued);
        assert_eq!(take(&mut q, 0).0, Some(1));
        assert_eq!(take(&mut q, 0).0, None); // new list, old list empty: leaves
        assert_eq!(q.queues[0].list, List::Inactive);
        (2..=3).for_each(|id| assert_eq!(offer(&mut q, id, 0, 1000, 0), Verdict::Enqueued));
        assert_eq!(take(&mut q, 0).0, Some(2));
        assert_eq!(offer(&mut q, 10, 1, 400, 0), Verdict::Enqueued);
        assert_eq!(take(&mut q, 0).0, Some(10)); // flow 1 new; flow 0 is still first on the new list but spent
        assert_eq!(q.queues[0].list, List::Old);
        assert_eq!(take(&mut q, 0).0, Some(3)); // flow 1 (deficit 600) empty, old list not: to the old list
        assert_eq!(q.queues[1].list, List::Old);
    }

    #[test]
    fn overflow_drops_half_the_bytes_of_the_fattest_flow_from_its_head() {
        let mut q = fq(&config(1500, 6));
        (1..=4).for_each(|id| assert_eq!(offer(&mut q, id, 0, 1000, 0), Verdict::Enqueued)); // 4000 B
        (11..=12).for_each(|id| assert_eq!(offer(&mut q, id, 1, 1500, 0), Verdict::Enqueued)); // 3000 B
                                                                                               // The seventh packet: flow 0 is fattest; its head goes until 2000 B (half) are dropped.
        assert_eq!(offer(&mut q, 21, 2, 100, MS), Verdict::Evicted);
        let mut sink = DequeueSink::default();
        q.take_evicted(&mut sink);
        assert_eq!(sink.dropped, [1, 2]);
        assert!(q.evicted.is_empty());
        assert_eq!((q.occupancy.packets, q.occupancy.bytes, q.occupancy.max_packets), (5, 5100, 6));
        assert_eq!(q.queues[0].codel.count(), 2, "Linux raises the CoDel count by the packets dropped");
        assert_eq!(q.signals.drops_early, 0, "an overflow is a full-buffer drop");
        // A batch of one; and the arrival itself when its flow is the fattest.
        let mut q = fq(&FqCodelConfig { drop_batch_size: 1, ..config(1500, 6) });
        (1..=6).for_each(|id| assert_eq!(offer(&mut q, id, 0, 1000, 0), Verdict::Enqueued));
        assert_eq!(offer(&mut q, 21, 2, 100, 0), Verdict::Evicted);
        let mut sink = DequeueSink::default();
        q.take_evicted(&mut sink);
        assert_eq!(sink.dropped, [1]);
        let mut q = fq(&config(1500, 1));
        assert_eq!(offer(&mut q, 1, 0, 1000, 0), Verdict::Enqueued);
        assert_eq!(offer(&mut q, 2, 1, 1500, 0), Verdict::Evicted);
        let mut sink = DequeueSink::default();
        q.take_evicted(&mut sink);
        assert_eq!(sink.dropped, [2]);
        assert_eq!(q.waiting().collect::<Vec<_>>(), [1]);
    }

    #[test]
    fn codel_drops_in_one_sub_queue_leave_another_untouched() {
        let mut q = fq(&config(1000, 100));
        (1..=10).for_each(|id| assert_eq!(offer(&mut q, id, 0, 1000, 0), Verdict::Enqueued));
        // 10 ms: sojourn 10 ms > 5 ms, flow 0's first_above = 110 ms (RFC 8289 §5.3).
        assert_eq!(take(&mut q, 10 * MS), (Some(1), vec![]));
        assert_eq!(offer(&mut q, 21, 1, 1000, 50 * MS), Verdict::Enqueued);
        assert_eq!(take(&mut q, 50 * MS), (Some(21), vec![]));
        // 110 ms: flow 0 has been above target for an interval: drop 2, send 3.
        assert_eq!(take(&mut q, 110 * MS), (Some(3), vec![2]));
        assert!(q.queues[0].codel.dropping());
        // Flow 1's packet waited 1 ms: sent, whatever flow 0's state.
        assert_eq!(offer(&mut q, 22, 1, 1000, 111 * MS), Verdict::Enqueued);
        assert_eq!(take(&mut q, 112 * MS), (Some(22), vec![]));
        assert!(!q.queues[1].codel.dropping());
        assert_eq!((q.queues[0].codel.count(), q.queues[1].codel.count()), (1, 0));
        assert_eq!(q.signals.drops_early, 1);
    }

    #[test]
    fn the_maxpacket_test_reads_the_whole_queue_or_the_departing_sub_queue() {
        // mtu 1500 B; flow 0 holds three 1000-byte packets, flow 1 five; a 10 000-byte quantum
        // keeps serving flow 0.
        let second_departure = |backlog| {
            let cfg = FqCodelConfig { mtu_bytes: 1500, maxpacket_backlog: backlog, ..config(10_000, 100) };
            let mut q = fq(&cfg);
            (1..=3).for_each(|id| assert_eq!(offer(&mut q, id, 0, 1000, 0), Verdict::Enqueued));
            (21..=25).for_each(|id| assert_eq!(offer(&mut q, id, 1, 1000, 0), Verdict::Enqueued));
            // 10 ms: packet 1 waited 10 ms > 5 ms and leaves 2000 B in flow 0 (7000 B in all):
            // above target either way, first_above = 110 ms.
            assert_eq!(take(&mut q, 10 * MS), (Some(1), vec![]));
            // 115 ms: packet 2 leaves 1000 B in flow 0, 6000 B in all.
            take(&mut q, 115 * MS)
        };
        // Linux: the queue's 6000 B exceed an MTU, so flow 0 has been above target for an
        // interval: drop 2, send 3.
        assert_eq!(second_departure(MaxpacketBacklog::Queue), (Some(3), vec![2]));
        // ns-3.44: flow 0's 1000 B do not: below target, 2 is sent.
        assert_eq!(second_departure(MaxpacketBacklog::SubQueue), (Some(2), vec![]));
    }

    #[test]
    fn the_hash_classifier_depends_on_the_queue_stream_and_is_reproducible() {
        let cfg = FqCodelConfig { flows: 1024, classifier: FlowClassifier::Hash, ..config(1514, 100) };
        let buckets = |seed: u64| {
            let q = FqCodel::new(&cfg, &BuildContext::named(seed, "link:l:ab:queue", "link:l", &[]));
            (0..64)
                .map(|flow| {
                    let a = Arrival {
                        id: 0,
                        wire_bytes: 1,
                        ect: false,
                        l4s: false,
                        kind: PacketKind::Data,
                        flow,
                        rd_class: RdMark::R,
                    };
                    let b = q.classify(&a);
                    assert_eq!(b, q.classify(&Arrival { kind: PacketKind::Ack, ..a }), "data and ACKs share");
                    assert!(b < 1024);
                    b
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(buckets(7), buckets(7));
        assert_ne!(buckets(7), buckets(8));
        // 64 connections into 1024 buckets: a good hash leaves few collisions (≈ 2 expected).
        let mut b = buckets(7);
        b.sort_unstable();
        b.dedup();
        assert!(b.len() >= 58, "{} distinct buckets", b.len());
    }

    #[test]
    fn validation_names_the_field() {
        let ok = config(1514, 10240);
        assert_eq!(ok.validate(), Ok(()));
        assert!(FqCodelConfig { flows: 0, ..ok.clone() }.validate().unwrap_err().starts_with("flows: 0"));
        assert!(FqCodelConfig { quantum_bytes: 0, ..ok.clone() }.validate().unwrap_err().starts_with("quantum_bytes:"));
        assert!(FqCodelConfig { limit_packets: 0, ..ok.clone() }.validate().unwrap_err().starts_with("limit_packets:"));
        assert!(FqCodelConfig { interval_ns: 5 * MS, ..ok.clone() }
            .validate()
            .unwrap_err()
            .starts_with("interval_ns:"));
        assert!(FqCodelConfig { drop_batch_size: 0, ..ok }.validate().unwrap_err().starts_with("drop_batch_size:"));
    }
}
