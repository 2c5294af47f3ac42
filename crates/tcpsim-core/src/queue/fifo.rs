//! The FIFO core of the single-queue disciplines: the waiting packets in arrival order, the
//! occupancy they make (time-weighted, [`Occupancy`]) and the buffer's limits in packets and
//! wire bytes.
//!
//! Drop-tail, RED, the step queue, PIE and CoDel differ only in what they decide at enqueue
//! and dequeue; what a packet costs the buffer and when it fits is the same for all of them,
//! so it is written once here. An entry is whatever the discipline must remember of a packet
//! ([`Waiting`]: at least its id and wire bytes; PIE adds its enqueue time, CoDel also whether
//! it is ECN-capable). RD's R and D queues are two of them, each limited to its class's share
//! of the buffer (reset at each recalculation, [`Fifo::set_limits`]); RD counts the whole
//! buffer's occupancy itself. DualPI2's L and C queues are two unlimited ones, checked against
//! the limit they share by the discipline, which also counts the whole buffer.

use std::collections::VecDeque;

use super::Occupancy;
use crate::packet::{PacketId, NO_PACKET};

/// What a FIFO remembers of a waiting packet.
pub trait Waiting: Copy {
    fn id(&self) -> PacketId;
    fn wire_bytes(&self) -> u32;
}

/// The tuples the disciplines store: (packet, wire bytes, then what else they remember).
macro_rules! waiting_tuple {
    ($($more:ty),*) => {
        impl Waiting for (PacketId, u32 $(, $more)*) {
            #[inline]
            fn id(&self) -> PacketId {
                self.0
            }
            #[inline]
            fn wire_bytes(&self) -> u32 {
                self.1
            }
        }
    };
}

waiting_tuple!(); // drop-tail, RED, step
waiting_tuple!(u64); // PIE: + enqueue time ns
waiting_tuple!(u64, bool); // CoDel: + enqueue time ns, ECN-capable

pub struct Fifo<E: Waiting> {
    entries: VecDeque<E>,
    occupancy: Occupancy,
    limit_packets: u64,
    limit_bytes: u64,
}

impl<E: Waiting> Fifo<E> {
    /// An empty FIFO with the given limits; an absent limit is unlimited.
    pub fn new(limit_packets: Option<u64>, limit_bytes: Option<u64>) -> Self {
        Fifo {
            entries: VecDeque::new(),
            occupancy: Occupancy::default(),
            limit_packets: limit_packets.unwrap_or(u64::MAX),
            limit_bytes: limit_bytes.unwrap_or(u64::MAX),
        }
    }

    /// Change the limits (RD's class shares move at each recalculation); the packets waiting
    /// stay, even beyond a lowered limit.
    pub fn set_limits(&mut self, limit_packets: Option<u64>, limit_bytes: Option<u64>) {
        self.limit_packets = limit_packets.unwrap_or(u64::MAX);
        self.limit_bytes = limit_bytes.unwrap_or(u64::MAX);
    }

    /// Whether a packet of `wire_bytes` fits beside those waiting: one more packet within the
    /// packet limit and its bytes within the byte limit (the byte limit counts wire bytes,
    /// headers included, as a router's buffer memory would).
    #[inline]
    pub fn fits(&self, wire_bytes: u32) -> bool {
        let o = &self.occupancy;
        o.packets < self.limit_packets && o.bytes + wire_bytes as u64 <= self.limit_bytes
    }

    /// Add `entry` at the tail (the caller has checked [`Fifo::fits`] or decided to exceed it).
    #[inline]
    pub fn push(&mut self, entry: E, now_ns: u64) {
        self.entries.push_back(entry);
        self.occupancy.add(entry.wire_bytes(), now_ns);
    }

    /// Take the head.
    #[inline]
    pub fn pop(&mut self, now_ns: u64) -> Option<E> {
        let entry = self.entries.pop_front()?;
        self.occupancy.remove(entry.wire_bytes(), now_ns);
        Some(entry)
    }

    /// The packet that would leave next (`NO_PACKET` when empty) and none after it: the
    /// `next_out` of a single FIFO.
    #[inline]
    pub fn next_out(&self) -> [PacketId; 2] {
        [self.entries.front().map_or(NO_PACKET, Waiting::id), NO_PACKET]
    }

    /// The entry that would leave next.
    #[inline]
    pub fn head(&self) -> Option<&E> {
        self.entries.front()
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The waiting packets, head first.
    pub fn ids(&self) -> impl Iterator<Item = PacketId> + '_ {
        self.entries.iter().map(Waiting::id)
    }

    #[inline]
    pub fn occupancy(&self) -> &Occupancy {
        &self.occupancy
    }

    #[inline]
    pub fn occupancy_mut(&mut self) -> &mut Occupancy {
        &mut self.occupancy
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_packet_limit_admits_exactly_that_many() {
        let mut f: Fifo<(PacketId, u32)> = Fifo::new(Some(2), None);
        assert!(f.fits(1500));
        f.push((1, 1500), 0);
        assert!(f.fits(1500));
        f.push((2, 1500), 0);
        assert!(!f.fits(40), "a third packet, however small, is over the packet limit");
        assert_eq!(f.pop(10), Some((1, 1500)));
        assert!(f.fits(1500));
        assert_eq!(f.next_out(), [2, NO_PACKET]);
    }

    #[test]
    fn the_byte_limit_counts_wire_bytes_and_admits_an_exact_fit() {
        let mut f: Fifo<(PacketId, u32, u64)> = Fifo::new(None, Some(250));
        f.push((1, 100, 0), 0);
        f.push((2, 100, 5), 5);
        assert!(!f.fits(51), "250 bytes hold 100 + 100 + 50, not + 51");
        assert!(f.fits(50));
        assert_eq!(f.occupancy().bytes, 200);
        assert_eq!(f.occupancy().packets, 2);
    }

    #[test]
    fn occupancy_follows_pushes_and_pops_in_order() {
        let mut f: Fifo<(PacketId, u32, u64, bool)> = Fifo::new(None, None);
        assert_eq!(f.next_out(), [NO_PACKET, NO_PACKET]);
        assert_eq!(f.pop(0), None);
        f.push((7, 1000, 0, true), 0);
        f.push((8, 40, 10, false), 10);
        assert_eq!(f.ids().collect::<Vec<_>>(), vec![7, 8]);
        assert_eq!(f.pop(30), Some((7, 1000, 0, true)));
        // 1 packet for 10 ns, then 2 for 20 ns, then 1 until 40: 60 packet·ns
        let o = f.occupancy().at(40);
        assert_eq!((o.packets, o.bytes, o.packet_ns, o.max_packets), (1, 40, 60, 2));
        assert_eq!(f.pop(40), Some((8, 40, 10, false)));
        assert_eq!(f.occupancy().bytes, 0);
    }

    #[test]
    fn new_limits_apply_to_the_next_arrival_and_keep_the_queue() {
        let mut f: Fifo<(PacketId, u32)> = Fifo::new(Some(3), None);
        f.push((1, 100), 0);
        f.push((2, 100), 0);
        f.set_limits(Some(1), None);
        assert!(!f.fits(1), "2 waiting, 1 allowed: nothing more, and none removed");
        assert_eq!((f.occupancy().packets, f.occupancy().bytes, f.is_empty()), (2, 200, false));
        f.set_limits(None, Some(300));
        assert!(f.fits(100) && !f.fits(101), "200 + 100 = 300 bytes, no packet limit");
    }

    #[test]
    fn the_byte_integral_weights_each_length_by_its_time() {
        let mut f: Fifo<(PacketId, u32)> = Fifo::new(None, None);
        f.push((1, 100), 0);
        f.push((2, 1500), 10);
        f.push((3, 40), 20);
        f.pop(30);
        f.push((4, 60), 40);
        f.pop(50);
        f.pop(50);
        f.pop(60);
        assert!(f.is_empty());
        // 10 ns each at 100, 1600, 1640, 1540, 1600 and 60 bytes (1, 2, 3, 2, 3 and 1 packets).
        let o = f.occupancy().at(80);
        assert_eq!((o.byte_ns, o.packet_ns, o.max_packets), (65_400, 120, 3));
    }
}
