//! Queue disciplines of a link direction.
//!
//! A queue holds the packets waiting for the serializer (the packet being transmitted is not
//! counted, as in ns-3). Every discipline implements [`QueueDiscipline`]; dispatch is static
//! through one enum, [`Queue`], matched once in `ops`/`ops_mut`. Adding a discipline: a file
//! with its struct and `impl QueueDiscipline`, a variant in `queue_disciplines!` below, and its
//! `QueueConfig` kind with the arm of [`Queue::from_config`] that builds it from the config and
//! the [`BuildContext`] (its random stream, the link rate).

mod drop_tail;
mod flow_counter;
pub mod rd;

pub use drop_tail::DropTail;

use crate::build_context::BuildContext;
use crate::config::QueueConfig;
use crate::packet::PacketId;

/// What a queue decided about an arriving packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Enqueued,
    Dropped,
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

/// The hooks of a queue discipline.
pub trait QueueDiscipline {
    /// Offer an arriving packet of `wire_bytes`.
    fn enqueue(&mut self, id: PacketId, wire_bytes: u32, now_ns: u64) -> Verdict;

    /// Take the next packet for the serializer (`None`: the queue is empty and the link
    /// goes idle at `now_ns`).
    fn dequeue(&mut self, now_ns: u64) -> Option<(PacketId, u32)>;

    fn occupancy(&self) -> &Occupancy;

    fn occupancy_mut(&mut self) -> &mut Occupancy;

    /// Every packet waiting (for the end-of-run conservation check, not the hot path).
    fn waiting(&self) -> Box<dyn Iterator<Item = PacketId> + '_>;
}

/// Declares [`Queue`], one variant per discipline (named after its type), and the single
/// match that dispatches to it.
macro_rules! queue_disciplines {
    ($($discipline:ident),+ $(,)?) => {
        /// A queue discipline. Each call matches once, in `ops`/`ops_mut`.
        pub enum Queue {
            $($discipline($discipline)),+
        }

        impl Queue {
            #[inline]
            pub fn ops(&self) -> &dyn QueueDiscipline {
                match self {
                    $(Queue::$discipline(q) => q),+
                }
            }

            #[inline]
            pub fn ops_mut(&mut self) -> &mut dyn QueueDiscipline {
                match self {
                    $(Queue::$discipline(q) => q),+
                }
            }
        }
    };
}

queue_disciplines!(DropTail);

impl Queue {
    /// Build a discipline; a random one draws from the context's stream (DropTail has none).
    pub fn from_config(cfg: &QueueConfig, _ctx: &BuildContext) -> Queue {
        match cfg {
            QueueConfig::DropTail { limit_packets, limit_bytes } => {
                Queue::DropTail(DropTail::new(*limit_packets, *limit_bytes))
            }
        }
    }

    /// Offer an arriving packet of `wire_bytes`.
    #[inline]
    pub fn enqueue(&mut self, id: PacketId, wire_bytes: u32, now_ns: u64) -> Verdict {
        self.ops_mut().enqueue(id, wire_bytes, now_ns)
    }

    /// Take the next packet for the serializer.
    #[inline]
    pub fn dequeue(&mut self, now_ns: u64) -> Option<(PacketId, u32)> {
        self.ops_mut().dequeue(now_ns)
    }

    pub fn occupancy(&self) -> &Occupancy {
        self.ops().occupancy()
    }

    pub fn occupancy_mut(&mut self) -> &mut Occupancy {
        self.ops_mut().occupancy_mut()
    }

    /// Every packet waiting (for the end-of-run conservation check).
    pub fn waiting(&self) -> impl Iterator<Item = PacketId> + '_ {
        self.ops().waiting()
    }
}
