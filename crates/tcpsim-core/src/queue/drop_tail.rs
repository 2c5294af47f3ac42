//! Drop-tail FIFO: an arrival that would exceed the packet or byte limit is dropped.
//!
//! State: the FIFO of (packet, wire bytes) and its occupancy. Limits in packets and/or bytes;
//! the byte limit counts wire bytes (headers included), as a router's buffer memory would.

use std::collections::VecDeque;

use super::{Arrival, DequeueSink, Occupancy, QueueDiscipline, Verdict};
use crate::packet::{PacketId, NO_PACKET};

pub struct DropTail {
    fifo: VecDeque<(PacketId, u32)>,
    limit_packets: u64,
    limit_bytes: u64,
    occupancy: Occupancy,
}

impl DropTail {
    /// A queue with the given limits; an absent limit is unlimited.
    pub fn new(limit_packets: Option<u64>, limit_bytes: Option<u64>) -> Self {
        DropTail {
            fifo: VecDeque::new(),
            limit_packets: limit_packets.unwrap_or(u64::MAX),
            limit_bytes: limit_bytes.unwrap_or(u64::MAX),
            occupancy: Occupancy::default(),
        }
    }
}

impl QueueDiscipline for DropTail {
    #[inline]
    fn enqueue(&mut self, a: Arrival, now_ns: u64) -> Verdict {
        let o = &self.occupancy;
        if o.packets + 1 > self.limit_packets || o.bytes + a.wire_bytes as u64 > self.limit_bytes {
            return Verdict::Dropped;
        }
        self.fifo.push_back((a.id, a.wire_bytes));
        self.occupancy.add(a.wire_bytes, now_ns);
        Verdict::Enqueued
    }

    #[inline]
    fn dequeue(&mut self, now_ns: u64, _sink: &mut DequeueSink) -> Option<(PacketId, u32)> {
        let (id, bytes) = self.fifo.pop_front()?;
        self.occupancy.remove(bytes, now_ns);
        Some((id, bytes))
    }

    fn occupancy(&self) -> &Occupancy {
        &self.occupancy
    }

    fn occupancy_mut(&mut self) -> &mut Occupancy {
        &mut self.occupancy
    }

    #[inline]
    fn next_out(&self) -> [PacketId; 2] {
        [self.fifo.front().map_or(NO_PACKET, |&(id, _)| id), NO_PACKET]
    }

    fn waiting(&self) -> Box<dyn Iterator<Item = PacketId> + '_> {
        Box::new(self.fifo.iter().map(|(id, _)| *id))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::RdMark;
    use crate::packet::PacketKind;

    /// `q.enqueue` of packet `id` of `wire_bytes` at time `now_ns`.
    fn offer(q: &mut DropTail, id: PacketId, wire_bytes: u32, now_ns: u64) -> Verdict {
        q.enqueue(Arrival { id, wire_bytes, ect: false, kind: PacketKind::Data, flow: 0, rd_class: RdMark::R }, now_ns)
    }

    #[test]
    fn arrivals_beyond_the_packet_limit_are_dropped() {
        let mut q = DropTail::new(Some(2), None);
        assert_eq!(offer(&mut q, 1, 100, 0), Verdict::Enqueued);
        assert_eq!(offer(&mut q, 2, 100, 0), Verdict::Enqueued);
        assert_eq!(offer(&mut q, 3, 100, 0), Verdict::Dropped);
        assert_eq!(q.dequeue(0, &mut DequeueSink::default()), Some((1, 100)));
        assert_eq!(offer(&mut q, 4, 100, 0), Verdict::Enqueued);
    }

    #[test]
    fn byte_limit_counts_wire_bytes() {
        let mut q = DropTail::new(None, Some(250));
        assert_eq!(offer(&mut q, 1, 100, 0), Verdict::Enqueued);
        assert_eq!(offer(&mut q, 2, 100, 0), Verdict::Enqueued);
        assert_eq!(offer(&mut q, 3, 100, 0), Verdict::Dropped);
        assert_eq!(offer(&mut q, 4, 50, 0), Verdict::Enqueued);
    }

    #[test]
    fn occupancy_integral_is_time_weighted() {
        let mut q = DropTail::new(Some(10), None);
        offer(&mut q, 1, 100, 0);
        offer(&mut q, 2, 100, 10);
        q.dequeue(30, &mut DequeueSink::default());
        let o = q.occupancy.at(40);
        // 1 packet for 10 ns, 2 for 20 ns, 1 for 10 ns = 60 packet·ns
        assert_eq!(o.packet_ns, 60);
        assert_eq!(o.max_packets, 2);
    }
}
