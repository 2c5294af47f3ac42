//! Drop-tail FIFO: an arrival that would exceed the packet or byte limit is dropped.
//!
//! State: the FIFO core ([`Fifo`]: the packets in arrival order, their occupancy and the
//! limits in packets and/or wire bytes) and nothing else.

use super::fifo::Fifo;
use super::{Arrival, DequeueSink, Occupancy, QueueDiscipline, Verdict};
use crate::packet::PacketId;

pub struct DropTail {
    fifo: Fifo<(PacketId, u32)>,
}

impl DropTail {
    /// A queue with the given limits; an absent limit is unlimited.
    pub fn new(limit_packets: Option<u64>, limit_bytes: Option<u64>) -> Self {
        DropTail { fifo: Fifo::new(limit_packets, limit_bytes) }
    }
}

impl QueueDiscipline for DropTail {
    #[inline]
    fn enqueue(&mut self, a: Arrival, now_ns: u64) -> Verdict {
        if !self.fifo.fits(a.wire_bytes) {
            return Verdict::Dropped;
        }
        self.fifo.push((a.id, a.wire_bytes), now_ns);
        Verdict::Enqueued
    }

    #[inline]
    fn dequeue(&mut self, now_ns: u64, _sink: &mut DequeueSink) -> Option<(PacketId, u32)> {
        self.fifo.pop(now_ns)
    }

    fn occupancy(&self) -> &Occupancy {
        self.fifo.occupancy()
    }

    fn occupancy_mut(&mut self) -> &mut Occupancy {
        self.fifo.occupancy_mut()
    }

    #[inline]
    fn next_out(&self) -> [PacketId; 2] {
        self.fifo.next_out()
    }

    fn waiting(&self) -> Box<dyn Iterator<Item = PacketId> + '_> {
        Box::new(self.fifo.ids())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::RdMark;
    use crate::packet::PacketKind;

    /// `q.enqueue` of packet `id` of `wire_bytes` at time `now_ns`.
    fn offer(q: &mut DropTail, id: PacketId, wire_bytes: u32, now_ns: u64) -> Verdict {
        q.enqueue(
            Arrival { id, wire_bytes, ect: false, l4s: false, kind: PacketKind::Data, flow: 0, rd_class: RdMark::R },
            now_ns,
        )
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
        let o = q.occupancy().at(40);
        // 1 packet for 10 ns, 2 for 20 ns, 1 for 10 ns = 60 packet·ns
        assert_eq!(o.packet_ns, 60);
        assert_eq!(o.max_packets, 2);
    }
}
