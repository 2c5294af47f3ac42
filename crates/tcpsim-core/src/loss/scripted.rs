//! Scripted losses for tests and hand-worked examples: drop the first transmission of chosen
//! data segments of one flow. Retransmissions of those segments pass.

use crate::packet::{Packet, PacketKind, Retransmission};

pub struct Scripted {
    flow: u32,
    /// Sequence numbers of the segments still to drop.
    pending: Vec<u64>,
}

impl Scripted {
    pub fn new(flow: u32, seqs: impl Iterator<Item = u64>) -> Self {
        Scripted { flow, pending: seqs.collect() }
    }

    #[inline]
    pub fn is_lost(&mut self, p: &Packet) -> bool {
        if p.kind != PacketKind::Data || p.syn || p.flow != self.flow || p.retransmission != Retransmission::No {
            return false;
        }
        match self.pending.iter().position(|&s| s == p.seq) {
            Some(i) => {
                self.pending.swap_remove(i);
                true
            }
            None => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drops_only_the_first_transmission_of_listed_segments_of_its_flow() {
        let mut m = Scripted::new(0, [1000u64].into_iter());
        let mut p = Packet::new(PacketKind::Data, 0, 1, 1000, 1040);
        p.seq = 1000;
        let mut other = p;
        other.flow = 1;
        assert!(!m.is_lost(&other));
        assert!(m.is_lost(&p));
        assert!(!m.is_lost(&p), "a second first-transmission copy is not in the script");
        let mut rtx = p;
        rtx.retransmission = Retransmission::Fast;
        assert!(!m.is_lost(&rtx));
    }
}
