//! Packets and the pool that recycles them.
//!
//! A packet is a small `Copy` record; the engine moves only its `PacketId` (an index into the
//! pool) through queues and pipes. Freed slots are reused, so once the pool has grown to the
//! largest number of packets simultaneously alive the hot loop allocates nothing. An ACK's
//! SACK blocks (48 bytes, carried only by SACK connections) live beside the records, not in
//! them: a record is 48 bytes, so the records of many packets in flight take half the cache
//! they would.

use crate::config::RdMark;

/// Index of a packet in the [`PacketPool`].
pub type PacketId = u32;

/// No packet (where an `Option<PacketId>` would double the field).
pub const NO_PACKET: PacketId = PacketId::MAX;

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

/// The ECN field of the IP header (RFC 3168 §5). A classic ECN sender sends ECT(0), as RFC 3168
/// §6.1.1 recommends; an L4S sender ECT(1) (`TcpConfig::ecn_codepoint`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ecn {
    /// Not ECN-Capable Transport: a queue drops it rather than mark it.
    NotEct,
    /// ECN-Capable Transport, ECT(0).
    Ect0,
    /// ECN-Capable Transport, ECT(1): the L4S identifier (RFC 9331 §4), which a dual-queue
    /// AQM classifies into its low-latency queue; every other queue treats it as ECT(0).
    Ect1,
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

/// One packet on the wire: a cache line, so that loading it (or prefetching it) is one miss.
#[derive(Clone, Copy, Debug)]
#[repr(align(64))]
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
    /// SACK blocks carried by an ACK (kept by the pool, `PacketPool::sack`).
    pub sack_count: u8,
    /// The IP header's ECN field.
    pub ecn: Ecn,
    /// ACK: the TCP ECN-Echo flag (RFC 3168 §6.1.3).
    pub ece: bool,
    /// Data: the TCP Congestion Window Reduced flag (RFC 3168 §6.1.2).
    pub cwr: bool,
    /// The TCP SYN flag (`TcpConfig::handshake`): the data sender's SYN (a Data packet without
    /// payload) or the receiver's SYN-ACK (an Ack).
    pub syn: bool,
    /// The RD service class of the flow (its ToS mark, `podlesny` Sec. II-C); UDP is R.
    pub rd_class: RdMark,
    /// The packet behind this one in its channel's propagation pipe (`net::pipe`), or
    /// `NO_PACKET`, and when that one arrives.
    pub pipe_next: PacketId,
    pub pipe_next_arrival_ns: u64,
}

const _: () = assert!(std::mem::size_of::<Packet>() == 64, "a packet's record is one cache line");

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
            sack_count: 0,
            ecn: Ecn::NotEct,
            ece: false,
            cwr: false,
            syn: false,
            rd_class: RdMark::R,
            pipe_next: NO_PACKET,
            pipe_next_arrival_ns: 0,
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
    /// The SACK blocks of the packet in each slot, valid up to its `sack_count` (grown only
    /// when a packet with blocks is stored).
    sack: Vec<[SackBlock; MAX_SACK_BLOCKS]>,
    free: Vec<PacketId>,
    /// Packets ever allocated (for the conservation check).
    pub created: u64,
}

impl PacketPool {
    /// Store `p` and return its id, reusing a freed slot when there is one.
    #[inline]
    pub fn alloc(&mut self, p: Packet) -> PacketId {
        debug_assert_eq!(p.sack_count, 0, "SACK blocks are stored by `alloc_with_sack`");
        self.created += 1;
        if let Some(id) = self.free.pop() {
            self.slots[id as usize] = p;
            id
        } else {
            self.slots.push(p);
            (self.slots.len() - 1) as PacketId
        }
    }

    /// Store `p` carrying SACK `blocks` (its `sack_count` is set to their number).
    pub fn alloc_with_sack(&mut self, p: Packet, blocks: &[SackBlock]) -> PacketId {
        let id = self.alloc(p);
        if !blocks.is_empty() {
            self.slots[id as usize].sack_count = blocks.len() as u8;
            let slot = id as usize;
            if slot >= self.sack.len() {
                self.sack.resize(self.slots.len(), [SackBlock::default(); MAX_SACK_BLOCKS]);
            }
            self.sack[slot][..blocks.len()].copy_from_slice(blocks);
        }
        id
    }

    /// The SACK blocks packet `id` carries (a copy: the slot may be reused once freed).
    #[inline]
    pub fn sack(&self, id: PacketId) -> ([SackBlock; MAX_SACK_BLOCKS], usize) {
        match self.slots[id as usize].sack_count as usize {
            0 => ([SackBlock::default(); MAX_SACK_BLOCKS], 0),
            n => (self.sack[id as usize], n),
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

    #[test]
    fn sack_blocks_are_kept_per_packet_beside_the_records() {
        let mut pool = PacketPool::default();
        let ack = Packet::new(PacketKind::Ack, 0, 1, 0, 40);
        let plain = pool.alloc(ack);
        let blocks = [SackBlock { start: 10, end: 20 }, SackBlock { start: 30, end: 40 }];
        let with = pool.alloc_with_sack(ack, &blocks);
        assert_eq!(pool.sack(plain).1, 0);
        let (got, n) = pool.sack(with);
        assert_eq!((&got[..n], pool.get(with).sack_count), (&blocks[..], 2));
        pool.free(with);
        let reused = pool.alloc(ack);
        assert_eq!((reused, pool.sack(reused).1), (with, 0), "a reused slot carries no old blocks");
    }
}
