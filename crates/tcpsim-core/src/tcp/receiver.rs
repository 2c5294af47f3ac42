//! The TCP receiver: cumulative ACKs, out-of-order buffering and delayed ACKs.
//!
//! RFC 5681 §4.2: ACK at least every `delack_count`-th full segment (RFC: 2) and within
//! `delack_timeout` of the first unacknowledged one; ACK at once a segment that is out of
//! order, a duplicate, or fills (part of) a gap (§3.2 / §4.2). `rcv_nxt` is the next byte
//! expected; `out_of_order` holds the disjoint byte ranges received above it, sorted.
//!
//! ECN (RFC 3168 §6.1.3): a CE-marked segment sets `echo_ce`, and every ACK carries ECN-Echo
//! while it is set, until a segment with CWR arrives (CWR is read before CE, so a segment with
//! both sets it again). A CE mark on a segment wholly below `rcv_nxt` (a duplicate, outside the
//! window) is counted but not echoed (§6.1.5: "SHOULD ignore"). With `ecn_immediate_ack` a CE
//! segment is acknowledged at once (Linux); otherwise by the delayed-ACK rules, the withheld ACK
//! echoing the mark (ns-2's `DelAckSink`; §6.1.3 allows both).
//!
//! DCTCP (`EcnReceiver::Dctcp`, RFC 8257 §3.2 and Fig. 1): ECE = the CE state of the last
//! ECN-capable segment received in the window, on every ACK; CWR is ignored. When a segment
//! changes that state, the segments withheld by delayed ACKs are acknowledged at once with the
//! old state ("the ECE flag of the ACK reflects the old state" of Fig. 1: an ACK of `rcv_nxt`
//! as it was before the segment), and the segment itself is acknowledged at once with the new
//! state — Linux's `dctcp_ece_ack_update`, which sends the delayed ACK for `prior_rcv_nxt` and
//! then sets `ICSK_ACK_NOW`. A segment that is not ECN-capable (a retransmission, RFC 3168
//! §6.1.5) and one wholly below `rcv_nxt` leave the state alone (Linux reports CE events only for
//! ECT and CE segments that are not old duplicates). `ecn_immediate_ack` plays no part.
//!
//! With SACK (RFC 2018), each ACK carries up to three blocks: first the block holding the
//! most recently received out-of-order segment, then the other blocks most recently changed
//! (§4: "the most recently reported blocks"). `sack_recency` keeps the blocks' start bytes in
//! that order. The option's bytes (2 + 8 per block, padded to 4 with two NOPs) count on the
//! wire.

use super::timer::Timer;
use crate::config::TcpConfig;
use crate::config::{EcnReceiver, EcnSender, RdMark, RecoveryKind};
use crate::context::Ctx;
use crate::engine::Event;
use crate::packet::{Ecn, Packet, PacketKind, Retransmission, SackBlock, MAX_SACK_BLOCKS};

/// Cumulative receiver counters (snapshotted at the start of the measurement window).
#[derive(Clone, Copy, Debug, Default)]
pub struct ReceiverCounters {
    /// Bytes delivered in order to the application.
    pub bytes_delivered: u64,
    /// Segments whose data had all been received before.
    pub duplicate_segments: u64,
    /// Fast retransmissions whose data had all been received before (needless ones).
    pub spurious_fast_retransmits: u64,
    pub acks_sent: u64,
    /// ACKs repeating the previous ACK's number (what a packet analyzer calls duplicate ACKs:
    /// out-of-order and duplicate segments each trigger one).
    pub dupacks_sent: u64,
    /// Data segments that arrived marked CE.
    pub ce_received: u64,
}

pub struct TcpReceiver {
    pub flow: u32,
    /// The connection's epoch (`Packet::epoch`), stamped on every ACK.
    epoch: u32,
    /// The throughput-trace series its deliveries count in: the flow's own, or its web
    /// generator's.
    pub series: u32,
    pub node: u32,
    pub peer: u32,
    /// Size of an ACK on the wire (`TcpConfig::ack_bytes`, else the header).
    ack_bytes: u32,
    delack_count: u32,
    delack_timeout_ns: u64,
    pub rcv_nxt: u64,
    out_of_order: Vec<(u64, u64)>,
    sack: bool,
    /// Start bytes of the out-of-order blocks, most recently changed first.
    sack_recency: Vec<u64>,
    unacked_segments: u32,
    delack_timer: Timer,
    /// ECN-capable connection (RFC 3168 §6.1.1).
    ecn: bool,
    /// Acknowledge a CE-marked segment at once.
    ecn_immediate_ack: bool,
    /// DCTCP's echo (`EcnReceiver::Dctcp`): ECE = CE of the last segment.
    dctcp_echo: bool,
    /// ACKs leave ECN-capable, with this codepoint (`EcnSender::LinuxDctcp`).
    ect_acks: Option<Ecn>,
    /// The RD class mark of the flow, carried by its ACKs too (the paper marks flows, not
    /// directions: an ACK of a Vegas flow is served as D).
    rd_class: RdMark,
    /// A CE mark awaits the sender's CWR (DCTCP: the last segment was CE): ACKs carry ECN-Echo.
    echo_ce: bool,
    /// The cumulative ACK number last sent on this connection.
    last_ack: Option<u64>,
    pub counters: ReceiverCounters,
}

impl TcpReceiver {
    pub fn new(flow: u32, node: u32, peer: u32, cfg: &TcpConfig) -> Self {
        TcpReceiver {
            flow,
            epoch: 0,
            series: flow,
            node,
            peer,
            ack_bytes: cfg.ack_bytes.unwrap_or(cfg.header_bytes),
            delack_count: cfg.delack_count,
            delack_timeout_ns: cfg.delack_timeout_ns,
            rcv_nxt: 0,
            out_of_order: Vec::new(),
            sack: cfg.recovery == RecoveryKind::Sack,
            sack_recency: Vec::new(),
            unacked_segments: 0,
            delack_timer: Timer::default(),
            ecn: cfg.ecn,
            ecn_immediate_ack: cfg.ecn_immediate_ack,
            dctcp_echo: cfg.ecn_receiver == EcnReceiver::Dctcp,
            ect_acks: (cfg.ecn && cfg.ecn_sender == EcnSender::LinuxDctcp).then(|| cfg.ecn_codepoint.ecn()),
            echo_ce: false,
            rd_class: cfg.rd_mark(),
            last_ack: None,
            counters: ReceiverCounters::default(),
        }
    }

    /// The connection's epoch (`Packet::epoch`).
    pub fn epoch(&self) -> u32 {
        self.epoch
    }

    /// Take over `old`'s slot: its epoch, its counters and its delayed-ACK timer's generation
    /// count (see `TcpSender::succeed`).
    pub(crate) fn succeed(&mut self, old: &TcpReceiver) {
        self.epoch = old.epoch;
        self.counters = old.counters;
        self.delack_timer = old.delack_timer.successor();
    }

    /// The connection is over: packets of it still in flight are stale from now on.
    pub(crate) fn retire(&mut self) {
        self.epoch = self.epoch.wrapping_add(1);
    }

    pub fn on_data(&mut self, p: &Packet, ctx: &mut Ctx) {
        if p.syn {
            self.send_syn_ack(ctx);
            return;
        }
        let (start, end) = (p.seq, p.end_seq());
        // Only an ECN flow's packets are ECN-capable, so only they can arrive marked.
        let ack_now_for_ecn = self.ecn && self.note_ecn(p, ctx);
        if end <= self.rcv_nxt || self.holds(start, end) {
            self.counters.duplicate_segments += 1;
            if p.retransmission == Retransmission::Fast {
                self.counters.spurious_fast_retransmits += 1;
            }
            self.send_ack(ctx);
            return;
        }
        if start > self.rcv_nxt {
            self.insert_out_of_order(start, end);
            self.send_ack(ctx);
            return;
        }
        let filled_gap = !self.out_of_order.is_empty();
        let old = self.rcv_nxt;
        self.rcv_nxt = end;
        let mut joined = 0;
        for &(s, e) in &self.out_of_order {
            if s > self.rcv_nxt {
                break;
            }
            self.rcv_nxt = self.rcv_nxt.max(e);
            joined += 1;
        }
        if self.sack {
            for &(s, _) in &self.out_of_order[..joined] {
                self.sack_recency.retain(|&start| start != s);
            }
        }
        self.out_of_order.drain(..joined);
        let delivered = self.rcv_nxt - old;
        self.counters.bytes_delivered += delivered;
        ctx.trace.record_delivery(ctx.now(), self.series, delivered);
        self.unacked_segments += 1;
        if filled_gap || ack_now_for_ecn || self.unacked_segments >= self.delack_count {
            self.send_ack(ctx);
        } else if !self.delack_timer.is_armed() {
            if let Some((at, generation)) = self.delack_timer.arm(ctx.now() + self.delack_timeout_ns) {
                ctx.sched.at(at, Event::DelayedAck { flow: self.flow, generation });
            }
        }
    }

    /// The echo state after a segment of an ECN flow, before it is acknowledged. RFC 3168
    /// §6.1.3: CWR stops the echo, CE inside the window (re)starts it. DCTCP (RFC 8257 §3.2):
    /// the echo follows the segment's CE, and a change first acknowledges the withheld segments
    /// with the old state. Returns whether the segment is to be acknowledged at once.
    fn note_ecn(&mut self, p: &Packet, ctx: &mut Ctx) -> bool {
        let ce = p.ecn == Ecn::Ce;
        self.counters.ce_received += ce as u64;
        let in_window = p.end_seq() > self.rcv_nxt;
        if !self.dctcp_echo {
            let ce_in_window = ce && in_window;
            self.echo_ce = (self.echo_ce && !p.cwr) || ce_in_window;
            return ce_in_window && self.ecn_immediate_ack;
        }
        if !in_window || p.ecn == Ecn::NotEct || ce == self.echo_ce {
            return false;
        }
        if self.unacked_segments > 0 {
            self.send_ack(ctx); // rcv_nxt before this segment, the old ECE
        }
        self.echo_ce = ce;
        true
    }

    /// Whether one out-of-order block holds all of [start, end). The blocks are sorted and
    /// disjoint, so only the first that ends at or after `end` can.
    fn holds(&self, start: u64, end: u64) -> bool {
        let i = self.out_of_order.partition_point(|&(_, e)| e < end);
        self.out_of_order.get(i).is_some_and(|&(s, _)| s <= start)
    }

    /// Insert [start, end) into the sorted disjoint list, merging overlaps and neighbours.
    fn insert_out_of_order(&mut self, start: u64, end: u64) {
        let v = &mut self.out_of_order;
        let i = v.partition_point(|&(_, e)| e < start);
        let mut j = i;
        let (mut s, mut e) = (start, end);
        while j < v.len() && v[j].0 <= e {
            s = s.min(v[j].0);
            e = e.max(v[j].1);
            j += 1;
        }
        v.splice(i..j, std::iter::once((s, e)));
        // Only a SACK receiver reports blocks (`send_ack`).
        if self.sack {
            self.sack_recency.retain(|&start| start < s || start > e);
            self.sack_recency.insert(0, s);
        }
    }

    pub fn on_delack_event(&mut self, generation: u32, ctx: &mut Ctx) {
        match self.delack_timer.fire(generation, ctx.now()) {
            Ok(true) => {
                if self.unacked_segments > 0 {
                    self.send_ack(ctx);
                }
            }
            Ok(false) => {}
            Err(at) => {
                ctx.sched.at(at, Event::DelayedAck { flow: self.flow, generation: self.delack_timer.generation() })
            }
        }
    }

    /// Answer a SYN (each one: a resent SYN may mean the SYN-ACK was lost) at once, before any
    /// data (RFC 9293 §3.5). Not an ACK of data: the ACK counters leave it out.
    fn send_syn_ack(&mut self, ctx: &mut Ctx) {
        let mut a = Packet::new(PacketKind::Ack, self.flow, self.peer, 0, self.ack_bytes);
        a.syn = true;
        a.rd_class = self.rd_class;
        a.epoch = self.epoch;
        ctx.transmit(self.node, a);
    }

    fn send_ack(&mut self, ctx: &mut Ctx) {
        self.unacked_segments = 0;
        self.delack_timer.cancel();
        self.counters.acks_sent += 1;
        self.counters.dupacks_sent += (self.last_ack == Some(self.rcv_nxt)) as u64;
        self.last_ack = Some(self.rcv_nxt);
        let mut a = Packet::new(PacketKind::Ack, self.flow, self.peer, 0, self.ack_bytes);
        a.ack = self.rcv_nxt;
        a.ece = self.echo_ce;
        if let Some(ect) = self.ect_acks {
            a.ecn = ect;
        }
        a.rd_class = self.rd_class;
        a.epoch = self.epoch;
        if !self.sack {
            ctx.transmit(self.node, a);
            return;
        }
        let mut blocks = [SackBlock::default(); MAX_SACK_BLOCKS];
        let mut count = 0;
        for &start in self.sack_recency.iter().take(MAX_SACK_BLOCKS) {
            let i = self.out_of_order.partition_point(|&(s, _)| s < start);
            let (s, e) = self.out_of_order[i];
            blocks[count] = SackBlock { start: s, end: e };
            count += 1;
        }
        if count > 0 {
            a.wire_bytes += 4 + 8 * count as u32;
        }
        ctx.transmit_with_sack(self.node, a, &blocks[..count]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn receiver() -> TcpReceiver {
        let cfg = crate::tcp::tests::tcp_config(crate::config::RecoveryKind::Newreno, 2);
        TcpReceiver::new(0, 1, 0, &cfg)
    }

    #[test]
    fn out_of_order_ranges_merge() {
        let mut r = receiver();
        r.insert_out_of_order(300, 400);
        r.insert_out_of_order(100, 200);
        r.insert_out_of_order(200, 300);
        assert_eq!(r.out_of_order, vec![(100, 400)]);
        r.insert_out_of_order(500, 600);
        r.insert_out_of_order(350, 550);
        assert_eq!(r.out_of_order, vec![(100, 600)]);
    }

    #[test]
    fn a_segment_is_held_only_when_one_block_covers_all_of_it() {
        let mut r = receiver();
        r.insert_out_of_order(100, 200);
        r.insert_out_of_order(300, 400);
        r.insert_out_of_order(500, 600);
        for (start, end) in [(100, 200), (120, 180), (300, 400), (300, 350), (550, 600)] {
            assert!(r.holds(start, end), "[{start}, {end})");
        }
        for (start, end) in [(50, 150), (150, 250), (250, 300), (180, 320), (399, 501), (600, 700), (0, 100)] {
            assert!(!r.holds(start, end), "[{start}, {end})");
        }
    }
}

#[cfg(test)]
mod sack_tests {
    use super::*;
    use crate::config::RecoveryKind;

    fn blocks(r: &TcpReceiver) -> Vec<(u64, u64)> {
        r.sack_recency.iter().map(|&s| *r.out_of_order.iter().find(|b| b.0 == s).unwrap()).collect()
    }

    #[test]
    fn blocks_are_reported_most_recently_changed_first() {
        let cfg = crate::tcp::tests::tcp_config(RecoveryKind::Sack, 1);
        let mut r = TcpReceiver::new(0, 1, 0, &cfg);
        r.insert_out_of_order(100, 200);
        r.insert_out_of_order(300, 400);
        r.insert_out_of_order(500, 600);
        assert_eq!(blocks(&r), vec![(500, 600), (300, 400), (100, 200)]);
        r.insert_out_of_order(200, 300);
        assert_eq!(blocks(&r), vec![(100, 400), (500, 600)]);
    }
}
