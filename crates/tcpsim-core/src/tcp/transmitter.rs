//! How a TCP sender's segments reach the wire: packet construction, the send counters and
//! the retransmission timer (RFC 6298 §5) and pacing. Loss recovery sends through a
//! [`Transmitter`], so it never touches the packet pool, the scheduler or the counters itself.
//!
//! Pacing, when the congestion control asks for it (`CongestionOps::pacing_rate_bps`), is
//! Linux's `tcp_internal_pacing` (4.13–4.19, `net/ipv4/tcp_output.c`): after a segment of L
//! payload bytes leaves at t, the next may leave at t + L·8/rate, and the send loops of loss
//! recovery ask [`Transmitter::paced`] before each segment they choose (`tcp_pacing_check` in
//! `tcp_write_xmit` and `tcp_xmit_retransmit_queue`); a segment that must wait arms the pacing
//! timer, whose expiry sends again. The retransmissions that start recovery or answer a partial
//! ACK are not held back (Linux's RTO retransmission is not either), but they too move the
//! next send time. The length is the payload, as Linux's internal pacing and ns-3's
//! `TcpSocketBase` count it (not the wire length that `sch_fq` counts).

use super::send_state::SendState;
use super::timer::Timer;
use crate::config::RdMark;
use crate::context::Ctx;
use crate::engine::Event;
use crate::packet::{Ecn, Packet, PacketKind, Retransmission};

/// Cumulative sender counters (snapshotted at the start of the measurement window).
#[derive(Clone, Copy, Debug, Default)]
pub struct SenderCounters {
    /// Data packets put on the wire, retransmissions included.
    pub packets_sent: u64,
    /// Payload bytes put on the wire, retransmissions included.
    pub bytes_sent: u64,
    pub bytes_retransmitted: u64,
    /// Data packets that were retransmissions (fast, after a timeout, go-back-N).
    pub packets_retransmitted: u64,
    pub timeouts: u64,
    /// Fast-retransmit episodes (entries into fast retransmit).
    pub fast_retransmits: u64,
    /// Segments retransmitted by fast retransmit or during fast recovery.
    pub fast_retransmitted_segments: u64,
    pub rtt_samples: u64,
    pub rtt_sum_ns: u64,
    /// Window reductions in answer to ECN-Echo (RFC 3168 §6.1.2).
    pub ecn_reductions: u64,
}

/// The sender's end of the network: who it is, its header size and flags, its
/// retransmission timer and its counters.
pub(crate) struct Wire {
    pub(crate) flow: u32,
    /// Stamped on every packet (`Packet::epoch`).
    pub(crate) epoch: u32,
    pub(crate) node: u32,
    pub(crate) peer: u32,
    pub(crate) header_bytes: u32,
    /// ECN-capable (RFC 3168 §6.1.1): new data leaves as ECT (`ect`).
    pub(crate) ecn: bool,
    /// The ECT codepoint of its ECN-capable segments: ECT(0), or ECT(1) for L4S
    /// (`TcpConfig::ecn_codepoint`).
    pub(crate) ect: Ecn,
    /// `EcnSender::Ns2`: retransmissions leave as ECT too, and carry a pending CWR.
    pub(crate) ecn_ns2: bool,
    /// `EcnSender::LinuxDctcp`: retransmissions leave as ECT too, without the CWR.
    pub(crate) ect_retransmissions: bool,
    /// The RD class mark of the flow's packets.
    pub(crate) rd_class: RdMark,
    /// The window was reduced for an ECN-Echo (with `ecn_ns2`, for any reason): the next
    /// new data segment (with `ecn_ns2`, the next segment) carries CWR.
    pub(crate) cwr_pending: bool,
    pub(crate) rto_timer: Timer,
    /// `FastRetransmitTimer::Keep`: fast retransmit leaves a running timer alone.
    pub(crate) keep_timer_at_fast_retransmit: bool,
    pub(crate) counters: SenderCounters,
    /// `RttSampling::TimedSegment`: time one never-sent segment at a time.
    pub(crate) time_one_segment: bool,
    /// The timed segment: (one past its last byte, when it was sent).
    pub(crate) timed: Option<(u64, u64)>,
    /// The pacing rate, bits of payload per second, as the congestion control last gave it
    /// (None: no pacing, every segment may leave at once).
    pub(crate) pacing_rate_bps: Option<u64>,
    /// With pacing: the earliest time the next segment may leave.
    pub(crate) next_send_ns: u64,
    /// With pacing: wakes the sender at `next_send_ns` when a segment had to wait.
    pub(crate) pace_timer: Timer,
}

impl Wire {
    /// A fast retransmit or timeout reduced the window: as ns-2 (`ecn_ns2`; `slowdown` sets
    /// `cong_action_`, tcp/tcp.cc), the next segment sent carries CWR. RFC 3168 senders set
    /// CWR after ECN-Echo reductions only (`TcpSender::on_ecn_echo`).
    pub(crate) fn note_reduction_ns2(&mut self) {
        if self.ecn && self.ecn_ns2 {
            self.cwr_pending = true;
        }
    }

    /// Send the connection's SYN (a header-only Data packet, not ECN-capable: RFC 3168
    /// §6.1.1) and arm the retransmission timer for it.
    pub(crate) fn send_syn(&mut self, rto_ns: u64, ctx: &mut Ctx) {
        let mut p = Packet::new(PacketKind::Data, self.flow, self.peer, 0, self.header_bytes);
        p.syn = true;
        p.epoch = self.epoch;
        p.rd_class = self.rd_class;
        ctx.transmit(self.node, p);
        self.restart_rto_timer(rto_ns, ctx);
    }

    /// (Re)start the retransmission timer to expire `rto_ns` from now.
    pub(crate) fn restart_rto_timer(&mut self, rto_ns: u64, ctx: &mut Ctx) {
        let deadline = ctx.now() + rto_ns;
        if let Some((at, generation)) = self.rto_timer.arm(deadline) {
            ctx.sched.at(at, Event::Rto { flow: self.flow, generation });
        }
    }

    /// After a segment of `len` payload bytes left at `now_ns`: with pacing, the next may
    /// leave `len`·8/rate later (Linux `tcp_internal_pacing`: `len_ns = len·NSEC_PER_SEC /
    /// sk_pacing_rate`, rounded down).
    #[inline]
    fn pace_after_send(&mut self, len: u64, now_ns: u64) {
        if let Some(rate) = self.pacing_rate_bps {
            let len_ns = (len as u128 * 8 * 1_000_000_000 / rate.max(1) as u128) as u64;
            self.next_send_ns = now_ns.saturating_add(len_ns);
        }
    }
}

/// What a loss-recovery hook may do to the network: send a segment, restart the timer.
pub struct Transmitter<'a, 'c> {
    wire: &'a mut Wire,
    /// The current retransmission timeout.
    rto_ns: u64,
    ctx: &'a mut Ctx<'c>,
}

impl<'a, 'c> Transmitter<'a, 'c> {
    pub(crate) fn new(wire: &'a mut Wire, rto_ns: u64, ctx: &'a mut Ctx<'c>) -> Self {
        Transmitter { wire, rto_ns, ctx }
    }

    /// Put the segment starting at `seq` on the wire and start the retransmission timer if
    /// idle (RFC 6298 §5.1). An ECN sender marks new data ECT(0) — retransmissions stay
    /// not-ECT (RFC 3168 §6.1.5) — and sets CWR on the first new segment after a reduction
    /// (§6.1.2); as ns-2 (`ecn_ns2`), retransmissions too are ECT(0) and may carry the CWR;
    /// as Linux's DCTCP (`ect_retransmissions`), they are ECT(0) without it.
    pub fn send(&mut self, s: &mut SendState, seq: u64, kind: Retransmission) {
        let now = self.ctx.now();
        let len = s.segment_len(seq) as u32;
        let retransmitted = kind != Retransmission::No;
        s.record_sent(seq, retransmitted, now);
        let counters = &mut self.wire.counters;
        counters.packets_sent += 1;
        counters.bytes_sent += len as u64;
        if retransmitted {
            counters.bytes_retransmitted += len as u64;
            counters.packets_retransmitted += 1;
        }
        if kind == Retransmission::Fast {
            counters.fast_retransmitted_segments += 1;
        }
        if !retransmitted && self.wire.time_one_segment && self.wire.timed.is_none() {
            self.wire.timed = Some((seq + len as u64, now));
        }
        let mut p = Packet::new(PacketKind::Data, self.wire.flow, self.wire.peer, len, len + self.wire.header_bytes);
        p.seq = seq;
        p.epoch = self.wire.epoch;
        p.retransmission = kind;
        p.rd_class = self.wire.rd_class;
        if self.wire.ecn && (!retransmitted || self.wire.ecn_ns2) {
            p.ecn = self.wire.ect;
            p.cwr = std::mem::take(&mut self.wire.cwr_pending);
        } else if self.wire.ecn && self.wire.ect_retransmissions {
            p.ecn = self.wire.ect;
        }
        self.ctx.transmit(self.wire.node, p);
        self.wire.pace_after_send(len as u64, now);
        if !self.wire.rto_timer.is_armed() {
            self.restart_rto_timer();
        }
    }

    /// Whether pacing holds the next segment back (Linux `tcp_pacing_check`): it may not
    /// leave before the next send time; the pacing timer is then armed for that time. Always
    /// false without pacing.
    #[inline]
    pub fn paced(&mut self) -> bool {
        if self.wire.pacing_rate_bps.is_none() || self.ctx.now() >= self.wire.next_send_ns {
            return false;
        }
        if let Some((at, generation)) = self.wire.pace_timer.arm(self.wire.next_send_ns) {
            self.ctx.sched.at(at, Event::Pace { flow: self.wire.flow, generation });
        }
        true
    }

    /// Retransmit the first unacknowledged segment (fast retransmit, NewReno's partial ACK),
    /// moving `snd_nxt` past it.
    pub fn retransmit_first_unacked(&mut self, s: &mut SendState) {
        self.send(s, s.snd_una, Retransmission::Fast);
        s.snd_nxt = s.snd_nxt.max(s.snd_una + s.mss).min(s.snd_max);
    }

    /// The simulated time now (ns).
    pub fn now(&self) -> u64 {
        self.ctx.now()
    }

    /// Restart the retransmission timer (RFC 6298 §5.3).
    pub fn restart_rto_timer(&mut self) {
        self.wire.restart_rto_timer(self.rto_ns, self.ctx);
    }

    /// The timer at fast retransmit (`TcpConfig::fast_retransmit_timer`): restarted, or left
    /// running if it is (the retransmission armed it if it was not).
    pub fn restart_rto_timer_at_fast_retransmit(&mut self) {
        if !self.wire.keep_timer_at_fast_retransmit {
            self.restart_rto_timer();
        }
    }
}
