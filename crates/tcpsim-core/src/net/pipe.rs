//! A channel's propagation pipe: the packets between the end of their serialization and their
//! arrival at the far node, a FIFO since all take the same delay.
//!
//! The queue is linked through the packets' own records (`Packet::pipe_next`), each holding
//! the next packet's arrival time too: taking the head reads only the head's record, which its
//! delivery reads anyway, and the channel. A buffer of its own would be one more cache line,
//! written a propagation delay earlier and long evicted, to miss on at every arrival.

use crate::packet::{PacketId, PacketPool, NO_PACKET};

pub struct Pipe {
    head: PacketId,
    tail: PacketId,
    head_arrival_ns: u64,
}

impl Default for Pipe {
    fn default() -> Self {
        Pipe { head: NO_PACKET, tail: NO_PACKET, head_arrival_ns: 0 }
    }
}

impl Pipe {
    /// The oldest packet and when it arrives.
    #[inline]
    pub fn front(&self) -> Option<(u64, PacketId)> {
        (self.head != NO_PACKET).then_some((self.head_arrival_ns, self.head))
    }

    /// Append `id`, arriving at `arrival_ns` (no earlier than the last one).
    #[inline]
    pub fn push_back(&mut self, id: PacketId, arrival_ns: u64, pool: &mut PacketPool) {
        pool.get_mut(id).pipe_next = NO_PACKET;
        if self.head == NO_PACKET {
            (self.head, self.head_arrival_ns) = (id, arrival_ns);
        } else {
            let tail = pool.get_mut(self.tail);
            (tail.pipe_next, tail.pipe_next_arrival_ns) = (id, arrival_ns);
        }
        self.tail = id;
    }

    /// Remove the oldest packet.
    #[inline]
    pub fn pop_front(&mut self, pool: &PacketPool) {
        debug_assert!(self.head != NO_PACKET, "pop from an empty pipe");
        let head = pool.get(self.head);
        (self.head, self.head_arrival_ns) = (head.pipe_next, head.pipe_next_arrival_ns);
        if self.head == NO_PACKET {
            self.tail = NO_PACKET;
        }
    }

    /// Every packet with its arrival time, oldest first.
    pub fn iter<'a>(&self, pool: &'a PacketPool) -> impl Iterator<Item = (u64, PacketId)> + 'a {
        let mut next = self.front();
        std::iter::from_fn(move || {
            let (arrival, id) = next?;
            let p = pool.get(id);
            next = (p.pipe_next != NO_PACKET).then_some((p.pipe_next_arrival_ns, p.pipe_next));
            Some((arrival, id))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::packet::{Packet, PacketKind};

    #[test]
    fn packets_leave_in_the_order_they_entered_with_their_arrival_times() {
        let mut pool = PacketPool::default();
        let ids: Vec<PacketId> = (0..4).map(|f| pool.alloc(Packet::new(PacketKind::Data, f, 1, 0, 40))).collect();
        let mut pipe = Pipe::default();
        assert_eq!(pipe.front(), None);
        pipe.push_back(ids[0], 10, &mut pool);
        pipe.push_back(ids[1], 12, &mut pool);
        assert_eq!(pipe.iter(&pool).collect::<Vec<_>>(), [(10, ids[0]), (12, ids[1])]);
        pipe.pop_front(&pool);
        pipe.pop_front(&pool);
        assert_eq!(pipe.front(), None);
        // Emptied, then refilled: the old tail's link is not followed.
        pipe.push_back(ids[2], 20, &mut pool);
        pipe.push_back(ids[3], 20, &mut pool);
        assert_eq!(pipe.front(), Some((20, ids[2])));
        pipe.pop_front(&pool);
        assert_eq!(pipe.iter(&pool).collect::<Vec<_>>(), [(20, ids[3])]);
    }
}
