//! Packets and the pool that recycles them.
//!
//! A packet is a small `Copy` record; the engine moves only its `PacketId` (an index into the
//! pool) through queues and pipes. Freed slots are reused, so once the pool has grown to the
//! largest number of packets simultaneously alive the hot loop allocates nothing.

use crate::config::RdMark;

/// Index of a packet in the [`PacketPool`].
pub type PacketId = u32;

/// What a packet carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PacketKind {
    /// TCP data segment, sender to receiver.
    Data,
    /// Pure TCP acknowledgement, receiver to sender.
    Ack,
    /// UDP datagram of a constant-bit-rate source.
    Udp,
}

/// Why a data segment is a retransmission (kept for measurement only; TCP never reads it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Retransmission {
    /// First transmission.
    No,
    /// Fast retransmit or a retransmission during fast recovery (RFC 5681 §3.2, RFC 6582).
    Fast,
    /// Go-back-N after a retransmission timeout or Tahoe's return to slow start.
    GoBackN,
}

/// The ECN field of the IP header (RFC 3168 §5). ECT(1) is not modelled: a sender that uses
/// ECN sends ECT(0), as RFC 3168 §6.1.1 recommends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ecn {
    /// Not ECN-Capable Transport: a queue drops it rather than mark it.
    NotEct,
    /// ECN-Capable Transport, ECT(0).
    Ect0,
    /// Congestion Experienced, set by a queue instead of dropping an ECN-capable packet.
    Ce,
}

/// A SACK block: bytes `[start, end)` held by the receiver above its cumulative ACK.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SackBlock {
    pub start: u64,
    pub end: u64,
}

/// Most SACK blocks an ACK carries (RFC 2018 §3 with the timestamp option: 3).
pub const MAX_SACK_BLOCKS: usize = 3;

/// One packet on the wire.
#[derive(Clone, Copy, Debug)]
pub struct Packet {
    pub kind: PacketKind,
    /// Index of the flow (TCP or UDP) the packet belongs to.
    pub flow: u32,
    /// The connection's epoch: a web connection slot's epoch moves on when the slot is
    /// reclaimed, so a packet of an earlier connection in the slot is recognized at delivery
    /// (`app::connections`). Always 0 for the scenario's own flows.
    pub epoch: u32,
    /// Node the packet is addressed to.
    pub dst: u32,
    /// Data: sequence number of the first payload byte. Unused for ACKs.
    pub seq: u64,
    /// Payload bytes (0 for pure ACKs).
    pub payload_bytes: u32,
    /// Bytes on the wire: payload plus headers.
    pub wire_bytes: u32,
    /// ACK: next byte expected by the receiver (cumulative acknowledgement).
    pub ack: u64,
    pub retransmission: Retransmission,
    /// SACK blocks carried by an ACK, the first `sack_count` are valid.
    pub sack: [SackBlock; MAX_SACK_BLOCKS],
    pub sack_count: u8,
    /// The IP header's ECN field.
    pub ecn: Ecn,
    /// ACK: the TCP ECN-Echo flag (RFC 3168 §6.1.3).
    pub ece: bool,
    /// Data: the TCP Congestion Window Reduced flag (RFC 3168 §6.1.2).
    pub cwr: bool,
    /// The RD service class of the flow (its ToS mark, `podlesny` Sec. II-C); UDP is R.
    pub rd_class: RdMark,
}

impl Packet {
    /// A packet of `kind` for `flow` addressed to `dst` with the given sizes; other fields zero.
    pub fn new(kind: PacketKind, flow: u32, dst: u32, payload_bytes: u32, wire_bytes: u32) -> Self {
        Packet {
            kind,
            flow,
            epoch: 0,
            dst,
            seq: 0,
            payload_bytes,
            wire_bytes,
            ack: 0,
            retransmission: Retransmission::No,
            sack: [SackBlock::default(); MAX_SACK_BLOCKS],
            sack_count: 0,
            ecn: Ecn::NotEct,
            ece: false,
            cwr: false,
            rd_class: RdMark::R,
        }
    }

    /// Last sequence number + 1 of a data segment.
    #[inline]
    pub fn end_seq(&self) -> u64 {
        self.seq + self.payload_bytes as u64
    }
}

/// Storage for all live packets with slot reuse.
#[derive(Default)]
pub struct PacketPool {
    slots: Vec<Packet>,
    free: Vec<PacketId>,
    /// Packets ever allocated (for the conservation check).
    pub created: u64,
}

impl PacketPool {
    /// Store `p` and return its id, reusing a freed slot when there is one.
    #[inline]
    pub fn alloc(&mut self, p: Packet) -> PacketId {
        self.created += 1;
        if let Some(id) = self.free.pop() {
            self.slots[id as usize] = p;
            id
        } else {
            self.slots.push(p);
            (self.slots.len() - 1) as PacketId
        }
    }

    /// Return a slot to the pool.
    #[inline]
    pub fn free(&mut self, id: PacketId) {
        debug_assert!(!self.free.contains(&id), "double free of packet {id}");
        self.free.push(id);
    }

    #[inline]
    pub fn get(&self, id: PacketId) -> &Packet {
        &self.slots[id as usize]
    }

    #[inline]
    pub fn get_mut(&mut self, id: PacketId) -> &mut Packet {
        &mut self.slots[id as usize]
    }

    /// Slots ever allocated: the most packets alive at once so far.
    #[inline]
    pub fn slots(&self) -> usize {
        self.slots.len()
    }

    /// Packets currently alive.
    pub fn live(&self) -> usize {
        self.slots.len() - self.free.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn freed_slots_are_reused_so_the_pool_stops_growing() {
        let mut pool = PacketPool::default();
        let p = Packet::new(PacketKind::Data, 0, 1, 1000, 1040);
        for _ in 0..1000 {
            let a = pool.alloc(p);
            let b = pool.alloc(p);
            pool.free(a);
            pool.free(b);
        }
        assert_eq!(pool.slots.len(), 2);
        assert_eq!(pool.live(), 0);
        assert_eq!(pool.created, 2000);
    }
}
