//! Queue disciplines of a link direction.
//!
//! A queue holds the packets waiting for the serializer (the packet being transmitted is not
//! counted, as in ns-3). Every discipline implements [`QueueDiscipline`]; dispatch is static
//! through one enum, [`Queue`]: the per-packet hooks match on it directly (each arm calls the
//! concrete type, so they inline), the others through `ops`/`ops_mut`. A discipline sees each
//! arriving packet as an [`Arrival`] — its size, whether its transport is ECN-capable, and its
//! flow, so a scheduler that classifies by flow is one more discipline — and answers with a
//! [`Verdict`]. Adding a discipline: a file with its struct and `impl QueueDiscipline`, a
//! variant in `queue_disciplines!` below, and its `QueueConfig` kind with the arm of
//! [`Queue::from_config`] that builds it from the config and the [`BuildContext`] (its random
//! stream, the link rate).

mod codel;
mod drop_tail;
mod dualpi2;
mod fifo;
mod flow_counter;
mod fq_codel;
mod pie;
mod rd;
mod red;
mod step;

pub use codel::{Codel, CodelConfig};
pub use drop_tail::DropTail;
pub use dualpi2::{DualPi2, DualPi2ClassStats, DualPi2Config, DualPi2Delay};
pub use fq_codel::{FlowClassifier, FqCodel, FqCodelConfig};
pub use pie::{Pie, PieConfig, PieDelayEstimator};
pub use rd::{ClassQueueStats, Rd, RdConfig, MAX_COUNTER_SLOTS};
#[cfg(test)]
pub use red::ns2_classic as ns2_classic_red;
pub use red::{Red, RedConfig, RedMode};
pub use step::{NonEct, Step, StepConfig, StepUnit};

use std::borrow::{Borrow, BorrowMut};

use crate::build_context::BuildContext;
use crate::config::{QueueConfig, RdMark};
use crate::packet::{Ecn, Packet, PacketId, PacketKind};

/// A packet offered to a queue: what a discipline may base its decision on.
#[derive(Clone, Copy, Debug)]
pub struct Arrival {
    pub id: PacketId,
    pub wire_bytes: u32,
    /// ECN-capable transport (ECT(0), ECT(1) or already CE, RFC 3168 §5): may be marked instead
    /// of dropped.
    pub ect: bool,
    /// L4S-identified (RFC 9331 §5.3's classifier: ECT(1) or CE; a CE packet may have been
    /// ECT(1), and it is safer to treat it as L4S): a dual-queue AQM's L queue takes it.
    pub l4s: bool,
    pub kind: PacketKind,
    /// Index of its flow among the flows of its `kind`.
    pub flow: u32,
    /// The RD service class its flow marked it with.
    pub rd_class: RdMark,
}

impl Arrival {
    /// The connection it belongs to, unique across TCP and UDP (a TCP flow's data and ACKs
    /// are one connection).
    #[inline]
    pub fn connection(&self) -> u64 {
        self.flow as u64 | ((self.kind == PacketKind::Udp) as u64) << 32
    }

    /// The arrival of packet `id`, whose record is `p`.
    #[inline(always)]
    pub fn of(id: PacketId, p: &Packet) -> Self {
        Arrival {
            id,
            wire_bytes: p.wire_bytes,
            ect: p.ecn != Ecn::NotEct,
            l4s: matches!(p.ecn, Ecn::Ect1 | Ecn::Ce),
            kind: p.kind,
            flow: p.flow,
            rd_class: p.rd_class,
        }
    }
}

#[cfg(test)]
mod arrival_tests {
    use super::*;

    /// Every ECN-capable codepoint may be marked; ECT(1) and CE are L4S (RFC 9331 §5.3).
    #[test]
    fn an_arrival_reads_ecn_capability_and_the_l4s_identifier_from_the_ecn_field() {
        for (ecn, ect, l4s) in
            [(Ecn::NotEct, false, false), (Ecn::Ect0, true, false), (Ecn::Ect1, true, true), (Ecn::Ce, true, true)]
        {
            let p = Packet { ecn, ..Packet::new(PacketKind::Data, 0, 1, 1000, 1040) };
            let a = Arrival::of(7, &p);
            assert_eq!((a.ect, a.l4s), (ect, l4s), "{ecn:?}");
        }
    }
}

/// What a queue decided about an arriving packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Enqueued,
    /// Enqueued, and its ECN field is to be set to CE (RFC 3168 §5): the caller marks the
    /// packet in the pool. (The discipline counts it in its `Signals`.)
    Marked,
    /// Dropped because the buffer is full (its packet or byte limit).
    Dropped,
    /// Dropped by the discipline's congestion signal, not for want of room (RED's drops
    /// decided by the average queue; counted in its `Signals`).
    DroppedEarly,
    /// Enqueued, and the buffer went over its limit: the discipline dropped waiting packets
    /// (possibly this one) to make room, which the caller collects with
    /// `QueueDiscipline::take_evicted` (FQ-CoDel's drop from the fattest flow, RFC 8290 §4.1).
    Evicted,
}

/// The congestion signals a discipline gave other than full-buffer drops (cumulative; the
/// discipline keeps them, so a channel without such signals carries no counters for them).
#[derive(Clone, Copy, Debug, Default)]
pub struct Signals {
    /// Packets dropped by the congestion signal (`Verdict::DroppedEarly`).
    pub drops_early: u64,
    /// Packets marked CE (`Verdict::Marked`).
    pub marks_ecn: u64,
}

/// Time-weighted occupancy statistics shared by all disciplines.
#[derive(Clone, Copy, Debug, Default)]
pub struct Occupancy {
    pub packets: u64,
    pub bytes: u64,
    /// ∫ packets dt, in packet·ns.
    pub packet_ns: u128,
    /// ∫ bytes dt, in byte·ns.
    pub byte_ns: u128,
    pub max_packets: u64,
    last_change_ns: u64,
}

impl Occupancy {
    /// Account for the time since the last change at the current occupancy.
    #[inline]
    fn settle(&mut self, now_ns: u64) {
        let dt = (now_ns - self.last_change_ns) as u128;
        self.packet_ns += self.packets as u128 * dt;
        self.byte_ns += self.bytes as u128 * dt;
        self.last_change_ns = now_ns;
    }

    #[inline]
    fn add(&mut self, bytes: u32, now_ns: u64) {
        self.settle(now_ns);
        self.packets += 1;
        self.bytes += bytes as u64;
        self.max_packets = self.max_packets.max(self.packets);
    }

    #[inline]
    fn remove(&mut self, bytes: u32, now_ns: u64) {
        self.settle(now_ns);
        self.packets -= 1;
        self.bytes -= bytes as u64;
    }

    /// A copy with the integrals brought up to `now_ns` (for snapshots and results).
    pub fn at(&self, now_ns: u64) -> Occupancy {
        let mut o = *self;
        o.settle(now_ns);
        o
    }

    /// Start a new measurement window: the maximum restarts from the current length.
    pub fn reset_max(&mut self) {
        self.max_packets = self.packets;
    }
}

/// What a discipline did at dequeue besides returning a packet (or, after `Verdict::Evicted`,
/// which waiting packets an enqueue pushed out): the channel's reusable buffer (cleared before
/// each use, so no allocation per packet once it has grown).
#[derive(Debug, Default)]
pub struct DequeueSink {
    /// Packets dropped from the head (each counted by the discipline in its `Signals`).
    pub dropped: Vec<PacketId>,
    /// The returned packet is to be marked CE (counted in the discipline's `Signals`).
    pub mark: bool,
}

impl DequeueSink {
    #[inline]
    pub fn clear(&mut self) {
        self.dropped.clear();
        self.mark = false;
    }
}

/// The hooks of a queue discipline.
pub trait QueueDiscipline {
    /// Offer a packet arriving while the link is busy.
    fn enqueue(&mut self, a: Arrival, now_ns: u64) -> Verdict;

    /// A packet arrives while the link is idle (so the queue is empty): it goes to the
    /// serializer at once, never queued. A discipline that follows arrivals (RED's average,
    /// which decays over the idle time) sees it here; by default nothing happens.
    #[inline]
    fn arrive_at_idle_link(&mut self, _a: Arrival, _now_ns: u64) {}

    /// Take the next packet for the serializer (`None`: the queue is empty and the link
    /// goes idle at `now_ns`). A discipline that acts at dequeue (CoDel) reports the packets
    /// it dropped from the head, and whether the returned packet is to be marked CE, in
    /// `sink`; the channel applies them as it applies enqueue verdicts.
    fn dequeue(&mut self, now_ns: u64, sink: &mut DequeueSink) -> Option<(PacketId, u32)>;

    /// After an enqueue answered `Verdict::Evicted`: move the packets it dropped to make room
    /// into `sink.dropped` (each counted by the channel as a full-buffer drop). By default
    /// there are none.
    fn take_evicted(&mut self, _sink: &mut DequeueSink) {}

    /// The packets the next `dequeue` chooses among (each FIFO's head; `NO_PACKET` for
    /// none), for the channel to prefetch.
    fn next_out(&self) -> [PacketId; 2];

    fn occupancy(&self) -> &Occupancy;

    fn occupancy_mut(&mut self) -> &mut Occupancy;

    /// Early drops and marks so far; none by default.
    fn signals(&self) -> Signals {
        Signals::default()
    }

    /// Every packet waiting (for the end-of-run conservation check, not the hot path).
    fn waiting(&self) -> Box<dyn Iterator<Item = PacketId> + '_>;
}

/// Declares [`Queue`], one variant per discipline (named after its type, holding it or a box of
/// it), and the matches (each arm reaches the concrete type through `Borrow`, which a box and
/// the type itself both implement, so no forwarding impl for `Box` can miss a hook)
/// that dispatch to it: the per-packet hooks call the concrete type in each arm (static,
/// inlined), the rest go through `ops`/`ops_mut`.
macro_rules! queue_disciplines {
    ($($discipline:ident($stored:ty)),+ $(,)?) => {
        /// A queue discipline.
        pub enum Queue {
            $($discipline($stored)),+
        }

        impl Queue {
            #[inline]
            pub fn ops(&self) -> &dyn QueueDiscipline {
                match self {
                    $(Queue::$discipline(q) => Borrow::<$discipline>::borrow(q)),+
                }
            }

            #[inline]
            pub fn ops_mut(&mut self) -> &mut dyn QueueDiscipline {
                match self {
                    $(Queue::$discipline(q) => BorrowMut::<$discipline>::borrow_mut(q)),+
                }
            }

            /// Offer packet `id` (record `p`), arriving while the link is busy. Each arm builds
            /// its own `Arrival`, so drop-tail, which reads only the size, pays for nothing else.
            #[inline]
            pub fn enqueue(&mut self, id: PacketId, p: &Packet, now_ns: u64) -> Verdict {
                match self {
                    $(Queue::$discipline(q) => BorrowMut::<$discipline>::borrow_mut(q).enqueue(Arrival::of(id, p), now_ns)),+
                }
            }

            /// Packet `id` (record `p`) arrives while the link is idle and goes straight to the
            /// serializer.
            #[inline]
            pub fn arrive_at_idle_link(&mut self, id: PacketId, p: &Packet, now_ns: u64) {
                match self {
                    $(Queue::$discipline(q) => BorrowMut::<$discipline>::borrow_mut(q).arrive_at_idle_link(Arrival::of(id, p), now_ns)),+
                }
            }

            /// Take the next packet for the serializer.
            #[inline]
            pub fn dequeue(&mut self, now_ns: u64, sink: &mut DequeueSink) -> Option<(PacketId, u32)> {
                match self {
                    $(Queue::$discipline(q) => BorrowMut::<$discipline>::borrow_mut(q).dequeue(now_ns, sink)),+
                }
            }

            /// The packets the next `dequeue` chooses among (`QueueDiscipline::next_out`).
            #[inline]
            pub fn next_out(&self) -> [PacketId; 2] {
                match self {
                    $(Queue::$discipline(q) => Borrow::<$discipline>::borrow(q).next_out()),+
                }
            }

            /// No packet is waiting.
            #[inline]
            pub fn is_empty(&self) -> bool {
                match self {
                    $(Queue::$discipline(q) => Borrow::<$discipline>::borrow(q).occupancy().packets == 0),+
                }
            }
        }
    };
}

// Disciplines larger than drop-tail are boxed: the enum, and the channel holding it, stay as
// small as drop-tail needs, which keeps a many-link run's channels in cache.
queue_disciplines!(
    DropTail(DropTail),
    Red(Box<Red>),
    Rd(Box<Rd>),
    Pie(Box<Pie>),
    Step(Box<Step>),
    Codel(Box<Codel>),
    FqCodel(Box<FqCodel>),
    DualPi2(Box<DualPi2>)
);

impl Queue {
    /// Build a discipline; a random one draws from the context's stream (DropTail has none).
    pub fn from_config(cfg: &QueueConfig, ctx: &BuildContext) -> Queue {
        match cfg {
            QueueConfig::DropTail { limit_packets, limit_bytes } => {
                Queue::DropTail(DropTail::new(*limit_packets, *limit_bytes))
            }
            QueueConfig::Red(red) => Queue::Red(Box::new(Red::new(red, ctx.rate_bps, ctx.stream()))),
            QueueConfig::Codel(codel) => Queue::Codel(Box::new(Codel::new(codel))),
            QueueConfig::FqCodel(fq) => Queue::FqCodel(Box::new(FqCodel::new(fq, ctx))),
            QueueConfig::Rd(rd) => {
                Queue::Rd(Box::new(Rd::new(rd, ctx.rate_bps, ctx.stream().below_or_equal(u64::MAX))))
            }
            QueueConfig::Pie(pie) => Queue::Pie(Box::new(Pie::new(pie, ctx.stream()))),
            QueueConfig::Step(step) => Queue::Step(Box::new(Step::new(step))),
            QueueConfig::DualPi2(dualpi2) => Queue::DualPi2(Box::new(DualPi2::new(dualpi2, ctx.stream()))),
        }
    }

    pub fn occupancy(&self) -> &Occupancy {
        self.ops().occupancy()
    }

    pub fn occupancy_mut(&mut self) -> &mut Occupancy {
        self.ops_mut().occupancy_mut()
    }

    pub fn signals(&self) -> Signals {
        self.ops().signals()
    }

    /// The RD discipline, if this is one (for its per-class results).
    pub fn rd(&self) -> Option<&Rd> {
        match self {
            Queue::Rd(rd) => Some(rd.as_ref()),
            _ => None,
        }
    }

    /// The DualPI2 discipline, if this is one (for its per-queue results).
    pub fn dualpi2(&self) -> Option<&DualPi2> {
        match self {
            Queue::DualPi2(q) => Some(q.as_ref()),
            _ => None,
        }
    }

    /// Every packet waiting (for the end-of-run conservation check).
    pub fn waiting(&self) -> impl Iterator<Item = PacketId> + '_ {
        self.ops().waiting()
    }
}
