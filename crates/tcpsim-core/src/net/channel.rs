//! One direction of a point-to-point link: a queue, a serializer at `rate_bps`, loss models
//! applied at the end of serialization, and a propagation pipe of constant `delay_ns`.
//!
//! Only the serializer's end and the pipe's head are ever scheduled: packets leave the
//! serializer in order and all take the same delay, so the pipe is a FIFO. A serializer's end
//! that would only move the packet into a non-empty pipe, with nothing queued behind it, need
//! not be scheduled at all (`deferred_tx_end`, see `Network`).

use std::collections::VecDeque;

use crate::loss::LossModel;
use crate::packet::PacketId;
use crate::prefetch::prefetch;
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
    pipe: VecDeque<(u64, PacketId)>,
    /// The place in the event order (`Scheduler::reserve`) of the end of the transmission in
    /// progress, when that end is not in the event heap but left for the channel to run itself
    /// once it has passed; `NOT_DEFERRED` otherwise.
    deferred_tx_end: u64,
}

/// `Channel::on_wire` when the wire is idle.
const NO_PACKET: PacketId = PacketId::MAX;

/// `Channel::deferred_tx_end` when no transmission end is deferred.
const NOT_DEFERRED: u64 = u64::MAX;

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
            pipe: VecDeque::new(),
            deferred_tx_end: NOT_DEFERRED,
        }
    }

    /// The end of the transmission in progress, at `tx_end_ns()` with place `seq` in the event
    /// order, is not scheduled: the channel runs it once it has passed.
    #[inline]
    pub fn defer_tx_end(&mut self, seq: u64) {
        self.deferred_tx_end = seq;
    }

    /// The place in the event order of a deferred transmission end, if one is pending (and
    /// takes it: the caller runs or schedules it).
    #[inline]
    pub fn take_deferred_tx_end(&mut self) -> Option<u64> {
        let seq = std::mem::replace(&mut self.deferred_tx_end, NOT_DEFERRED);
        (seq != NOT_DEFERRED).then_some(seq)
    }

    /// The place in the event order of a deferred transmission end, if one is pending.
    #[inline]
    pub fn deferred_tx_end(&self) -> Option<u64> {
        (self.deferred_tx_end != NOT_DEFERRED).then_some(self.deferred_tx_end)
    }

    /// When the transmission in progress (or the last one) ends.
    #[inline]
    pub fn tx_end_ns(&self) -> u64 {
        self.tx_end_ns
    }

    /// Whether packets are propagating.
    #[inline]
    pub fn pipe_is_empty(&self) -> bool {
        self.pipe.is_empty()
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

    /// Put `id` in the pipe; returns the arrival time to schedule if it is the new head.
    #[inline]
    pub fn enter_pipe(&mut self, id: PacketId, now_ns: u64) -> Option<u64> {
        let at = now_ns + self.delay_ns;
        self.pipe.push_back((at, id));
        (self.pipe.len() == 1).then_some(at)
    }

    /// Remove the head, `id`; returns the next head's arrival time and packet.
    #[inline]
    pub fn leave_pipe(&mut self, id: PacketId) -> Option<(u64, PacketId)> {
        let (_, head) = self.pipe.pop_front().expect("PipeHead with an empty pipe");
        debug_assert_eq!(head, id, "PipeHead names the pipe's head");
        self.pipe.front().copied()
    }

    /// Prefetch the pipe's entry after its head (`prefetch`).
    #[inline]
    pub fn prefetch_pipe_after_head(&self) {
        if let Some(entry) = self.pipe.get(1) {
            prefetch(entry);
        }
    }

    pub fn packets_inside(&self) -> impl Iterator<Item = PacketId> + '_ {
        self.queue.waiting().chain((!self.is_idle()).then_some(self.on_wire)).chain(self.pipe.iter().map(|(_, id)| *id))
    }
}
