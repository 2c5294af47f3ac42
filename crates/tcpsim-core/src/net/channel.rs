//! One direction of a point-to-point link: a queue, a serializer at `rate_bps`, loss models
//! applied at the end of serialization, and a propagation pipe of constant `delay_ns`.
//!
//! Packets leave the serializer in order and all take the same delay, so the pipe is a FIFO and
//! only its head's arrival is ever scheduled (`head_pending`). The serializer's ends need not
//! be scheduled at all: the channel runs them itself when next touched (see `Network`).

use super::pipe::Pipe;
use crate::loss::LossModel;
use crate::packet::{PacketId, PacketPool, NO_PACKET};
use crate::queue::Queue;
use crate::time::tx_time_ns;

/// Cumulative counters of a channel (snapshotted at the start of the measurement window).
#[derive(Clone, Copy, Debug, Default)]
pub struct ChannelCounters {
    pub tx_packets: u64,
    pub tx_bytes: u64,
    /// Serialization time of every packet started, ns: the one on the wire counts in full,
    /// so read the time actually spent with [`Channel::busy_ns_at`].
    pub busy_ns: u64,
    /// Packets the queue refused, for want of room or by its congestion signal (which the
    /// discipline counts apart, `Queue::signals`).
    pub drops_queue: u64,
    pub drops_error: u64,
}

/// Aligned to a cache line, so that each channel (256 bytes) spans exactly 4 lines.
#[repr(align(64))]
pub struct Channel {
    pub link: u32,
    pub from: u32,
    pub to: u32,
    pub rate_bps: u64,
    pub delay_ns: u64,
    pub queue: Queue,
    pub loss: Vec<LossModel>,
    pub counters: ChannelCounters,
    /// Packet being serialized, or `NO_PACKET` (not an `Option`, which would take 8 bytes:
    /// the channel stays 4 cache lines).
    on_wire: PacketId,
    /// When the last serialization started ends (in the past once the wire is idle).
    tx_end_ns: u64,
    /// Packets propagating, with their arrival times.
    pipe: Pipe,
    /// A `PipeHead` event is pending: for the pipe's head, or, the pipe being empty, for the
    /// packet on the wire (or for one the loss models then dropped, which finds it gone).
    head_pending: bool,
    /// Some channel's packets all come through this one (`Network::find_handovers`).
    pub feeds_alone: bool,
}

impl Channel {
    pub fn new(
        link: u32,
        from: u32,
        to: u32,
        rate_bps: u64,
        delay_ns: u64,
        queue: Queue,
        loss: Vec<LossModel>,
    ) -> Self {
        Channel {
            link,
            from,
            to,
            rate_bps,
            delay_ns,
            queue,
            loss,
            counters: ChannelCounters::default(),
            on_wire: NO_PACKET,
            tx_end_ns: 0,
            pipe: Pipe::default(),
            head_pending: false,
            feeds_alone: false,
        }
    }

    /// Whether a `PipeHead` event is pending (see `head_pending`).
    #[inline]
    pub fn head_pending(&self) -> bool {
        self.head_pending
    }

    /// A `PipeHead` event has been scheduled (true) or is being handled (false).
    #[inline]
    pub fn set_head_pending(&mut self, pending: bool) {
        self.head_pending = pending;
    }

    /// The packet being serialized, if any.
    #[inline]
    pub fn on_wire(&self) -> Option<PacketId> {
        (!self.is_idle()).then_some(self.on_wire)
    }

    /// When the transmission in progress (or the last one) ends.
    #[inline]
    pub fn tx_end_ns(&self) -> u64 {
        self.tx_end_ns
    }

    #[inline]
    pub fn is_idle(&self) -> bool {
        self.on_wire == NO_PACKET
    }

    /// Begin serializing `id`; returns when it ends.
    #[inline]
    pub fn start_transmission(&mut self, id: PacketId, wire_bytes: u32, now_ns: u64) -> u64 {
        debug_assert!(self.is_idle());
        let t = tx_time_ns(wire_bytes, self.rate_bps);
        self.on_wire = id;
        self.counters.tx_packets += 1;
        self.counters.tx_bytes += wire_bytes as u64;
        self.counters.busy_ns += t;
        self.tx_end_ns = now_ns + t;
        self.tx_end_ns
    }

    /// Time spent serializing up to `now_ns`: a packet on the wire counts only its elapsed part,
    /// so a window shorter than one packet's serialization still sees the link busy.
    #[inline]
    pub fn busy_ns_at(&self, now_ns: u64) -> u64 {
        self.counters.busy_ns - self.tx_end_ns.saturating_sub(now_ns)
    }

    #[inline]
    pub fn finish_transmission(&mut self) -> PacketId {
        assert!(!self.is_idle(), "TxEnd without a packet on the wire");
        std::mem::replace(&mut self.on_wire, NO_PACKET)
    }

    /// Put `id`, whose serialization ended at `now_ns`, in the pipe.
    #[inline]
    pub fn enter_pipe(&mut self, id: PacketId, now_ns: u64, pool: &mut PacketPool) {
        self.pipe.push_back(id, now_ns + self.delay_ns, pool);
    }

    /// The pipe's head and its arrival time, without taking it.
    #[inline]
    pub fn pipe_head(&self) -> Option<(u64, PacketId)> {
        self.pipe.front()
    }

    /// Take the pipe's head if it is `id` arriving at `now_ns` (it is not when the loss models
    /// dropped the packet whose arrival was scheduled).
    #[inline]
    pub fn leave_pipe(&mut self, id: PacketId, now_ns: u64, pool: &PacketPool) -> bool {
        let arrives = self.pipe.front() == Some((now_ns, id));
        if arrives {
            self.pipe.pop_front(pool);
        }
        arrives
    }

    /// The next packet to reach the far end and when: the pipe's head, or else the packet on
    /// the wire, a propagation delay after its serialization ends.
    #[inline]
    pub fn next_arrival(&self) -> Option<(u64, PacketId)> {
        match self.pipe.front() {
            Some(head) => Some(head),
            None => self.on_wire().map(|id| (self.tx_end_ns + self.delay_ns, id)),
        }
    }

    /// Empty the pipe, returning what was in it with the arrival times, oldest first (the
    /// packets are to enter it again, or another channel).
    pub fn take_pipe(&mut self, pool: &PacketPool) -> Vec<(u64, PacketId)> {
        std::mem::take(&mut self.pipe).iter(pool).collect()
    }

    pub fn packets_inside<'a>(&'a self, pool: &'a PacketPool) -> impl Iterator<Item = PacketId> + 'a {
        self.queue.waiting().chain(self.on_wire()).chain(self.pipe.iter(pool).map(|(_, id)| id))
    }
}
