//! The ECN handshake of RFC 3168 §6.1 against hand-worked ACK sequences: the receiver's
//! ECN-Echo until CWR, the sender's one reduction per window of data and its CWR.
//!
//! Set-up: the sender (node 0) and the receiver (node 1) share one idle 100 Mb/s link; no
//! event is run, so every packet either end sends stays in the network, in the order sent,
//! and the tests read them back from the pool. The sender uses 1000-byte segments, NewReno
//! recovery and AIMD, an initial window of 10 segments and an unbounded ssthresh.

use crate::config::{RecoveryKind, SsthreshFrom, TcpConfig};
use crate::context::Ctx;
use crate::engine::Scheduler;
use crate::net::{Channel, Network, Routes};
use crate::packet::{Ecn, Packet, PacketKind, PacketPool, Retransmission};
use crate::queue::{DropTail, Queue};
use crate::tcp::tests::tcp_config;
use crate::tcp::{TcpReceiver, TcpSender};
use crate::trace::Trace;

const MSS: u64 = 1000;

/// The two ends' shared world: a scheduler, a one-link network, the pool and the traces.
struct World {
    sched: Scheduler,
    net: Network,
    pool: PacketPool,
    trace: Trace,
}

impl World {
    fn new() -> Self {
        let channel = |from, to| {
            let queue = Queue::DropTail(DropTail::new(Some(100_000), None));
            Channel::new(0, from, to, 100_000_000, 10_000_000, queue, vec![])
        };
        World {
            sched: Scheduler::default(),
            net: Network::new(
                vec![channel(0, 1), channel(1, 0)],
                Routes::new(2, &[(0, 1)], [0, 1].into_iter()),
                1,
                false,
            ),
            pool: PacketPool::default(),
            trace: Trace::new(&Default::default(), 1, 0, 1).unwrap(),
        }
    }

    fn ctx(&mut self) -> Ctx<'_> {
        Ctx { sched: &mut self.sched, net: &mut self.net, pool: &mut self.pool, trace: &mut self.trace }
    }

    /// Every packet sent so far, in order (none is ever freed here).
    fn sent(&self) -> Vec<Packet> {
        (0..self.pool.created as u32).map(|id| *self.pool.get(id)).collect()
    }

    fn sent_of(&self, kind: PacketKind) -> Vec<Packet> {
        self.sent().into_iter().filter(|p| p.kind == kind).collect()
    }
}

fn ecn_tcp() -> TcpConfig {
    let mut cfg = tcp_config(RecoveryKind::Newreno, 1);
    cfg.init_cwnd_segments = 10;
    cfg.ecn = true;
    // The hand-worked sequences below halve FlightSize (RFC 5681 eq. 4), as RFC 3168 §6.1.2 says.
    cfg.ssthresh_from = SsthreshFrom::FlightSize;
    cfg
}

fn sender(w: &mut World) -> TcpSender {
    let mut s = TcpSender::new(0, 0, 1, &ecn_tcp(), u64::MAX);
    s.start(&mut w.ctx());
    s
}

fn ack(s: &mut TcpSender, w: &mut World, ack: u64, ece: bool) {
    s.on_ack(ack, &[], ece, &mut w.ctx());
}

fn data(seq: u64, ecn: Ecn, cwr: bool) -> Packet {
    let mut p = Packet::new(PacketKind::Data, 0, 1, MSS as u32, MSS as u32 + 40);
    (p.seq, p.ecn, p.cwr) = (seq, ecn, cwr);
    p
}

/// The ECE flag of each ACK the receiver sent.
fn echoes(w: &World) -> Vec<bool> {
    w.sent_of(PacketKind::Ack).iter().map(|a| a.ece).collect()
}

#[test]
fn the_receiver_echoes_ce_on_every_ack_until_a_cwr_segment_arrives() {
    let mut w = World::new();
    let mut cfg = ecn_tcp();
    cfg.delack_count = 2;
    let mut r = TcpReceiver::new(0, 1, 0, &cfg);
    r.on_data(&data(0, Ecn::Ect0, false), &mut w.ctx()); // withheld (delayed ACK)
    r.on_data(&data(1000, Ecn::Ce, false), &mut w.ctx()); // CE: ACK at once, ECE
    r.on_data(&data(2000, Ecn::Ect0, false), &mut w.ctx()); // withheld
    r.on_data(&data(3000, Ecn::Ect0, false), &mut w.ctx()); // second of a pair: ECE still
    r.on_data(&data(4000, Ecn::Ect0, true), &mut w.ctx()); // CWR: the echo stops (withheld)
    r.on_data(&data(5000, Ecn::Ect0, false), &mut w.ctx()); // pair: no ECE
    r.on_data(&data(6000, Ecn::Ce, true), &mut w.ctx()); // CWR and CE: echoing again, at once
    assert_eq!(echoes(&w), vec![true, true, false, true]);
    let acks: Vec<u64> = w.sent_of(PacketKind::Ack).iter().map(|a| a.ack).collect();
    assert_eq!(acks, vec![2000, 4000, 6000, 7000], "a CE segment is acknowledged at once");
    assert_eq!(r.counters.ce_received, 2);
}

#[test]
fn with_delayed_acks_kept_the_withheld_ack_carries_the_echo() {
    let mut w = World::new();
    let mut cfg = ecn_tcp();
    (cfg.delack_count, cfg.ecn_immediate_ack) = (2, false);
    let mut r = TcpReceiver::new(0, 1, 0, &cfg);
    r.on_data(&data(0, Ecn::Ce, false), &mut w.ctx());
    assert!(w.sent_of(PacketKind::Ack).is_empty(), "ns-2's DelAckSink: the CE segment waits for a partner");
    r.on_data(&data(1000, Ecn::Ect0, false), &mut w.ctx());
    assert_eq!(echoes(&w), vec![true]);
}

#[test]
fn a_ce_mark_outside_the_window_is_counted_but_not_echoed_and_a_flow_without_ecn_never_echoes() {
    let mut w = World::new();
    let mut r = TcpReceiver::new(0, 1, 0, &ecn_tcp());
    r.on_data(&data(0, Ecn::Ect0, false), &mut w.ctx());
    r.on_data(&data(0, Ecn::Ce, false), &mut w.ctx()); // a duplicate: below rcv_nxt
    assert_eq!(echoes(&w), vec![false, false]);
    assert_eq!(r.counters.ce_received, 1);
    let mut plain = tcp_config(RecoveryKind::Newreno, 1);
    plain.ecn = false;
    let mut r = TcpReceiver::new(0, 1, 0, &plain);
    r.on_data(&data(1000, Ecn::Ce, false), &mut w.ctx());
    assert_eq!(echoes(&w), vec![false, false, false]);
}

/// The hand-worked sequence. Slow start: the ACK of 1000 raises cwnd to 11 000 and releases
/// segments 10 000 and 11 000 (snd_max 12 000). The ACK of 2000 carries ECE: no growth, and
/// the reduction: FlightSize 10 000 → ssthresh 5000, cwnd 5000, the window of data ending at
/// 12 000 reduced. The ECE ACKs up to 12 000 change nothing (snd_una has not passed 12 000);
/// the ACK of 8000 opens the window to 13 000 and releases segment 12 000 with CWR; the ACK
/// of 9000 releases 13 000 without it. An ECE ACK of 13 000 (a new mark, after the CWR
/// segment) reduces again: FlightSize 17 000 − 13 000 → ssthresh 2000, cwnd 2000. A plain
/// ACK then grows cwnd by congestion avoidance: 1000²/2000 = 500.
/// With `ssthresh_from = cwnd` (ns-2's `ecn()` → `slowdown`, `windowd() / 2`) the same ECE
/// ACK halves cwnd 11 000 rather than the 10 000 bytes outstanding: ssthresh = cwnd = 5500.
#[test]
fn an_echo_halves_cwnd_when_ssthresh_comes_from_cwnd() {
    let mut w = World::new();
    let mut cfg = ecn_tcp();
    cfg.ssthresh_from = SsthreshFrom::Cwnd;
    let mut s = TcpSender::new(0, 0, 1, &cfg, u64::MAX);
    s.start(&mut w.ctx());
    ack(&mut s, &mut w, 1000, false);
    ack(&mut s, &mut w, 2000, true);
    assert_eq!((s.cwnd(), s.ssthresh(), s.counters().ecn_reductions), (5500, 5500, 1));
}

#[test]
fn the_sender_reduces_once_per_window_of_data_and_sets_cwr_on_the_next_new_segment() {
    let mut w = World::new();
    let mut s = sender(&mut w);
    let first = w.sent();
    assert_eq!(first.len(), 10);
    assert!(first.iter().all(|p| p.ecn == Ecn::Ect0 && !p.cwr), "new data leaves ECT(0)");
    ack(&mut s, &mut w, 1000, false);
    assert_eq!(s.cwnd(), 11 * MSS);
    ack(&mut s, &mut w, 2000, true);
    assert_eq!((s.cwnd(), s.ssthresh(), s.counters().ecn_reductions), (5000, 5000, 1));
    assert_eq!(w.sent().len(), 12, "nothing released by the reduction");
    for a in (3000..=7000).step_by(1000) {
        ack(&mut s, &mut w, a, true);
    }
    assert_eq!((s.cwnd(), s.ssthresh(), s.counters().ecn_reductions), (5000, 5000, 1), "no growth, no reduction");
    ack(&mut s, &mut w, 8000, true);
    ack(&mut s, &mut w, 9000, true);
    let sent = w.sent();
    assert_eq!((sent[12].seq, sent[12].cwr), (12_000, true), "CWR on the first new segment after the reduction");
    assert_eq!((sent[13].seq, sent[13].cwr), (13_000, false));
    for a in [10_000, 11_000, 12_000] {
        ack(&mut s, &mut w, a, true);
    }
    assert_eq!(s.counters().ecn_reductions, 1, "an ACK up to 12 000 is still the reduced window");
    ack(&mut s, &mut w, 13_000, true);
    assert_eq!((s.cwnd(), s.ssthresh(), s.counters().ecn_reductions), (2000, 2000, 2));
    ack(&mut s, &mut w, 14_000, false);
    assert_eq!(s.cwnd(), 2500);
    assert_eq!(s.counters().bytes_retransmitted, 0, "an ECN-Echo retransmits nothing");
}

/// Three duplicate ACKs of 1000 (cwnd 11 000, snd_max 12 000) start NewReno recovery:
/// ssthresh 5500, cwnd 8500, recover 12 000. ECE during recovery and on the full ACK (12 000,
/// not beyond `recover`) change nothing; the ECE ACK of 13 000 is a new window: ssthresh =
/// FlightSize/2.
#[test]
fn an_echo_during_loss_recovery_is_not_a_second_reduction() {
    let mut w = World::new();
    let mut s = sender(&mut w);
    ack(&mut s, &mut w, 1000, false);
    for _ in 0..3 {
        ack(&mut s, &mut w, 1000, false);
    }
    assert_eq!((s.cwnd(), s.ssthresh()), (8500, 5500));
    let resent = w.sent().into_iter().find(|p| p.retransmission == Retransmission::Fast).unwrap();
    assert_eq!((resent.seq, resent.ecn), (1000, Ecn::NotEct), "retransmissions are not ECT (RFC 3168 §6.1.5)");
    ack(&mut s, &mut w, 1000, true);
    ack(&mut s, &mut w, 12_000, true);
    assert_eq!((s.cwnd(), s.ssthresh(), s.counters().ecn_reductions), (5500, 5500, 0));
    let snd_max = w.sent_of(PacketKind::Data).iter().map(|p| p.end_seq()).max().unwrap();
    ack(&mut s, &mut w, 13_000, true);
    assert_eq!(s.counters().ecn_reductions, 1);
    assert_eq!(s.ssthresh(), ((snd_max - 13_000) / 2).max(2 * MSS));
}

/// The ECE ACK of 2000 reduces (ssthresh = cwnd = 5000, window up to 12 000); a loss of 2000
/// detected in that window is recovered without a second reduction (RFC 3168 §6.1.2: once per
/// window for marks and losses together): NewReno enters from cwnd 5000 + 3 segments.
#[test]
fn a_loss_in_the_window_already_reduced_for_ecn_is_recovered_without_reducing_again() {
    let mut w = World::new();
    let mut s = sender(&mut w);
    ack(&mut s, &mut w, 1000, false);
    ack(&mut s, &mut w, 2000, true);
    for _ in 0..3 {
        ack(&mut s, &mut w, 2000, false);
    }
    assert_eq!(s.counters().fast_retransmits, 1);
    assert_eq!((s.cwnd(), s.ssthresh(), s.counters().ecn_reductions), (8000, 5000, 1));
}

/// Run the scheduler's events (left unprocessed: the packets stay in the pool) up to the
/// sender's retransmission timeout, and fire it.
fn fire_rto(s: &mut TcpSender, w: &mut World) {
    let before = s.counters().timeouts;
    while let Some(e) = w.sched.pop_until(u64::MAX) {
        if let crate::engine::Event::Rto { generation, .. } = e {
            s.on_rto_event(generation, &mut w.ctx());
            if s.counters().timeouts > before {
                return;
            }
        }
    }
    panic!("no retransmission timer armed");
}

/// Deliver data segment `seq` (as the sender last sent it) to the receiver and its ACK back
/// to the sender; returns the ACK's ECE.
fn round_trip(s: &mut TcpSender, r: &mut TcpReceiver, w: &mut World, seq: u64) -> bool {
    let p = *w.sent_of(PacketKind::Data).iter().rev().find(|p| p.seq == seq).unwrap();
    r.on_data(&p, &mut w.ctx());
    let a = *w.sent_of(PacketKind::Ack).last().unwrap();
    ack(s, w, a.ack, a.ece);
    a.ece
}

/// An ECN-Echo, then a timeout. Segments 0–9000 leave (cwnd 10 segments); 0 arrives CE-marked
/// and the rest are lost. The ECE ACK of 1000 reduces (FlightSize 9000 → ssthresh = cwnd =
/// 4500) and sets CWR pending; the timeout sets cwnd to one segment (ssthresh 4500 again) and
/// resends 1000. With `ecn_sender` as RFC 3168 that retransmission is not-ECT and without CWR,
/// as is all of go-back-N up to snd_max = 10 000, so the receiver echoes on every ACK and no
/// ECE ACK may open the window: 2000, 3000, …, 9000 are resent one per round trip at cwnd 1000,
/// and CWR leaves only with new data (10 000). As ns-2 (`EcnSender::Ns2`) the timeout's
/// retransmission 1000 is ECT(0) with CWR, the echo stops, and slow start resumes: the ACK of
/// 2000 opens cwnd to 2000 and releases 2000 and 3000, the ACK of 3000 cwnd 3000 and 4000, 5000.
#[test]
fn after_an_echo_and_a_timeout_only_ns2_s_cwr_on_the_retransmission_reopens_the_window() {
    for ns2 in [false, true] {
        let mut w = World::new();
        let mut cfg = ecn_tcp();
        if ns2 {
            cfg.ecn_sender = crate::config::EcnSender::Ns2;
        }
        let mut s = TcpSender::new(0, 0, 1, &cfg, u64::MAX);
        s.start(&mut w.ctx());
        let mut r = TcpReceiver::new(0, 1, 0, &cfg);
        let first = w.sent_of(PacketKind::Data)[0];
        r.on_data(&Packet { ecn: Ecn::Ce, ..first }, &mut w.ctx());
        let a = *w.sent_of(PacketKind::Ack).last().unwrap();
        assert_eq!((a.ack, a.ece), (1000, true));
        ack(&mut s, &mut w, a.ack, a.ece);
        assert_eq!((s.cwnd(), s.ssthresh(), w.sent_of(PacketKind::Data).len()), (4500, 4500, 10));
        fire_rto(&mut s, &mut w);
        assert_eq!((s.cwnd(), s.ssthresh()), (1000, 4500));
        let resent = *w.sent_of(PacketKind::Data).last().unwrap();
        assert_eq!(resent.seq, 1000);
        if !ns2 {
            assert_eq!((resent.ecn, resent.cwr), (Ecn::NotEct, false), "RFC 3168 §6.1.5");
            for seq in (1000..9000).step_by(1000) {
                assert!(round_trip(&mut s, &mut r, &mut w, seq), "the echo goes on");
                assert_eq!(s.cwnd(), 1000, "an ECE ACK never opens the window");
                let next = *w.sent_of(PacketKind::Data).last().unwrap();
                assert_eq!((next.seq, next.ecn, next.cwr), (seq + 1000, Ecn::NotEct, false));
            }
            assert!(round_trip(&mut s, &mut r, &mut w, 9000));
            let new = *w.sent_of(PacketKind::Data).last().unwrap();
            assert_eq!((new.seq, new.ecn, new.cwr), (10_000, Ecn::Ect0, true), "CWR with the first new data");
        } else {
            assert_eq!((resent.ecn, resent.cwr), (Ecn::Ect0, true), "ns-2: ECT and CWR on the retransmission");
            assert!(!round_trip(&mut s, &mut r, &mut w, 1000), "CWR ends the echo");
            assert_eq!(s.cwnd(), 2000);
            let sent: Vec<(u64, Ecn, bool)> =
                w.sent_of(PacketKind::Data)[11..].iter().map(|p| (p.seq, p.ecn, p.cwr)).collect();
            assert_eq!(sent, vec![(2000, Ecn::Ect0, false), (3000, Ecn::Ect0, false)]);
            assert!(!round_trip(&mut s, &mut r, &mut w, 2000));
            assert_eq!(s.cwnd(), 3000);
            assert_eq!(w.sent_of(PacketKind::Data).len(), 15, "4000 and 5000 follow");
        }
    }
}

/// As ns-2, a fast retransmit's reduction also puts CWR on the retransmission (ns-2's
/// `slowdown(CLOSE_CWND_HALF)` before `output(last_ack_ + 1)`), which is ECT(0).
#[test]
fn as_ns2_a_fast_retransmit_sends_its_retransmission_ect_with_cwr() {
    let mut w = World::new();
    let mut cfg = ecn_tcp();
    cfg.ecn_sender = crate::config::EcnSender::Ns2;
    let mut s = TcpSender::new(0, 0, 1, &cfg, u64::MAX);
    s.start(&mut w.ctx());
    ack(&mut s, &mut w, 1000, false);
    for _ in 0..3 {
        ack(&mut s, &mut w, 1000, false);
    }
    let resent = w.sent().into_iter().find(|p| p.retransmission == Retransmission::Fast).unwrap();
    assert_eq!((resent.seq, resent.ecn, resent.cwr), (1000, Ecn::Ect0, true));
}

/// As Linux's DCTCP (`EcnSender::LinuxDctcp`, tcp_output.c `tcp_ecn_send`): an ECE ACK, then a
/// fast retransmit; the retransmission is ECT(0) but carries no CWR (that waits for new data),
/// and the receiver's ACKs, which RFC 3168 senders leave not-ECT, are ECT(0).
#[test]
fn as_linux_dctcp_retransmissions_and_acks_leave_ect_and_cwr_waits_for_new_data() {
    let mut w = World::new();
    let mut cfg = ecn_tcp();
    cfg.ecn_sender = crate::config::EcnSender::LinuxDctcp;
    let mut s = TcpSender::new(0, 0, 1, &cfg, u64::MAX);
    s.start(&mut w.ctx());
    let mut r = TcpReceiver::new(0, 1, 0, &cfg);
    let first = w.sent_of(PacketKind::Data)[0];
    r.on_data(&Packet { ecn: Ecn::Ce, ..first }, &mut w.ctx());
    let a = *w.sent_of(PacketKind::Ack).last().unwrap();
    assert_eq!((a.ack, a.ece, a.ecn), (1000, true, Ecn::Ect0), "the ACK is ECT(0)");
    ack(&mut s, &mut w, a.ack, a.ece);
    for _ in 0..3 {
        ack(&mut s, &mut w, 1000, false);
    }
    let resent = w.sent().into_iter().find(|p| p.retransmission == Retransmission::Fast).unwrap();
    assert_eq!((resent.seq, resent.ecn, resent.cwr), (1000, Ecn::Ect0, false));
    let mut rfc = ecn_tcp();
    rfc.ecn_sender = crate::config::EcnSender::Rfc3168;
    let mut plain = TcpReceiver::new(0, 1, 0, &rfc);
    plain.on_data(&first, &mut w.ctx());
    plain.on_data(&Packet { seq: 1000, ..first }, &mut w.ctx());
    assert_eq!(w.sent_of(PacketKind::Ack).last().unwrap().ecn, Ecn::NotEct, "RFC 3168: ACKs not-ECT");
}

/// `ecn_codepoint = ect1` (L4S, RFC 9331 §4): the first window leaves ECT(1); an ECE ACK and a
/// fast retransmit later, the retransmission is not-ECT (RFC 3168 §6.1.5, as with ECT(0)) and
/// the next new segment is ECT(1) with CWR. As `EcnSender::LinuxDctcp` the retransmission and
/// the receiver's ACKs are ECT(1) too.
#[test]
fn with_the_ect1_codepoint_ecn_capable_segments_and_acks_leave_ect1() {
    use crate::config::{EcnCodepoint, EcnSender};
    let mut w = World::new();
    let mut cfg = ecn_tcp();
    cfg.ecn_codepoint = EcnCodepoint::Ect1;
    let mut s = TcpSender::new(0, 0, 1, &cfg, u64::MAX);
    s.start(&mut w.ctx());
    assert!(w.sent().iter().all(|p| p.ecn == Ecn::Ect1 && !p.cwr), "new data leaves ECT(1)");
    ack(&mut s, &mut w, 1000, true);
    for _ in 0..3 {
        ack(&mut s, &mut w, 1000, false);
    }
    let resent = w.sent().into_iter().find(|p| p.retransmission == Retransmission::Fast).unwrap();
    assert_eq!((resent.seq, resent.ecn), (1000, Ecn::NotEct));
    ack(&mut s, &mut w, 10_000, false);
    let new: Vec<(u64, Ecn, bool)> =
        w.sent_of(PacketKind::Data).iter().filter(|p| p.seq >= 10_000).map(|p| (p.seq, p.ecn, p.cwr)).collect();
    assert_eq!(new[0], (10_000, Ecn::Ect1, true), "CWR with the first new data");
    assert!(new[1..].iter().all(|&(_, ecn, cwr)| ecn == Ecn::Ect1 && !cwr), "{new:?}");

    let mut w = World::new();
    cfg.ecn_sender = EcnSender::LinuxDctcp;
    let mut s = TcpSender::new(0, 0, 1, &cfg, u64::MAX);
    s.start(&mut w.ctx());
    let mut r = TcpReceiver::new(0, 1, 0, &cfg);
    let first = w.sent_of(PacketKind::Data)[0];
    r.on_data(&first, &mut w.ctx());
    r.on_data(&Packet { seq: 1000, ..first }, &mut w.ctx());
    assert_eq!(w.sent_of(PacketKind::Ack).last().unwrap().ecn, Ecn::Ect1, "the ACK is ECT(1)");
    for _ in 0..4 {
        ack(&mut s, &mut w, 1000, false);
    }
    let resent = w.sent().into_iter().find(|p| p.retransmission == Retransmission::Fast).unwrap();
    assert_eq!(resent.ecn, Ecn::Ect1);
}

/// The receiver echoes a CE mark on a segment that left ECT(1) exactly as on one that left
/// ECT(0) (the queue's mark replaces either codepoint with CE): the same ACKs and ECE flags for
/// the sequence ECT, CE, ECT, ECT+CWR under both codepoints, with both echo rules.
#[test]
fn the_receiver_echoes_ce_on_ect1_segments_as_on_ect0() {
    use crate::config::EcnReceiver;
    for receiver in [EcnReceiver::Rfc3168, EcnReceiver::Dctcp] {
        let acks = |ect: Ecn| {
            let mut w = World::new();
            let mut cfg = ecn_tcp();
            (cfg.delack_count, cfg.ecn_receiver) = (2, receiver);
            let mut r = TcpReceiver::new(0, 1, 0, &cfg);
            r.on_data(&data(0, ect, false), &mut w.ctx());
            r.on_data(&data(1000, Ecn::Ce, false), &mut w.ctx());
            r.on_data(&data(2000, ect, false), &mut w.ctx());
            r.on_data(&data(3000, ect, true), &mut w.ctx());
            r.on_data(&data(4000, ect, false), &mut w.ctx());
            (w.sent_of(PacketKind::Ack).iter().map(|a| (a.ack, a.ece)).collect::<Vec<_>>(), r.counters.ce_received)
        };
        let (ect1, ect0) = (acks(Ecn::Ect1), acks(Ecn::Ect0));
        assert_eq!(ect1, ect0, "{receiver:?}");
        assert!(ect1.0.iter().any(|&(_, ece)| ece) && ect1.1 == 1, "{receiver:?}: {ect1:?}");
    }
}

/// (Not ECN: the RTO estimator's sampling, on the same two-node world.) Ten segments leave at
/// 0 ms; with `RttSampling::TimedSegment` only segment 0 is timed. Its ACK at 100 ms gives the
/// first sample: SRTT 100 ms, RTTVAR 50 ms, RTO 100 + 4·50 = 300 ms; slow start releases 10 000
/// and 11 000, and 10 000 becomes the timed segment. The ACK of 2000 at 110 ms covers no timed
/// segment: RTO stays 300 ms (every ACK sampled: RTTVAR 0.75·50 + 0.25·10 = 40, SRTT 101.25,
/// RTO 261.25 ms). The ACK of 11 000 at 250 ms covers it: sample 150 ms, RTTVAR 0.75·50 +
/// 0.25·50 = 50, SRTT 106.25, RTO 306.25 ms. A timeout cancels the timing (ns-2's
/// `reset_rtx_timer`): the go-back-N ACKs then give no sample until new data is timed.
#[test]
fn timed_segment_sampling_takes_one_rtt_sample_per_timed_segment_as_ns2() {
    const MS: u64 = 1_000_000;
    for timed in [false, true] {
        let mut w = World::new();
        let mut cfg = tcp_config(RecoveryKind::Newreno, 1);
        (cfg.init_cwnd_segments, cfg.min_rto_ns) = (10, MS);
        if timed {
            cfg.rtt_sampling = crate::config::RttSampling::TimedSegment;
        }
        let mut s = TcpSender::new(0, 0, 1, &cfg, u64::MAX);
        s.start(&mut w.ctx());
        w.sched.advance_to(100 * MS);
        ack(&mut s, &mut w, 1000, false);
        assert_eq!(s.rto_ns(), 300 * MS);
        w.sched.advance_to(110 * MS);
        ack(&mut s, &mut w, 2000, false);
        if !timed {
            assert_eq!(s.rto_ns(), 261_250_000);
            continue;
        }
        assert_eq!(s.rto_ns(), 300 * MS, "no timed segment acknowledged: no sample");
        w.sched.advance_to(250 * MS);
        ack(&mut s, &mut w, 11_000, false);
        assert_eq!(s.rto_ns(), 306_250_000);
        fire_rto(&mut s, &mut w);
        let backed_off = s.rto_ns();
        w.sched.advance_to(w.sched.now() + 10 * MS);
        let resent = *w.sent_of(PacketKind::Data).last().unwrap();
        assert_eq!(resent.retransmission, Retransmission::GoBackN);
        ack(&mut s, &mut w, resent.seq + 1000, false);
        assert_eq!(s.rto_ns(), backed_off, "the timing was cancelled: no sample, the back-off stays");
    }
}

/// DCTCP's ends (RFC 8257 §3.2–3.3): the receiver's echo of the last CE state, the sender's
/// α-scaled cut.
mod dctcp {
    use super::*;
    use crate::config::{CcConfig, EcnReceiver};
    use crate::tcp::cc::{DctcpConfig, DctcpLossDecrease};

    fn dctcp_tcp() -> TcpConfig {
        let mut cfg = ecn_tcp();
        cfg.ecn_receiver = EcnReceiver::Dctcp;
        cfg.cc =
            CcConfig::Dctcp(DctcpConfig { g: 1.0 / 16.0, alpha_init: 1.0, loss_decrease: DctcpLossDecrease::Halve });
        cfg
    }

    fn acks(w: &World) -> Vec<(u64, bool)> {
        w.sent_of(PacketKind::Ack).iter().map(|a| (a.ack, a.ece)).collect()
    }

    #[test]
    fn the_receiver_echoes_the_last_ce_state_and_acks_each_change_at_once() {
        let mut w = World::new();
        let mut cfg = dctcp_tcp();
        cfg.delack_count = 2;
        let mut r = TcpReceiver::new(0, 1, 0, &cfg);
        let mut expected = vec![];
        r.on_data(&data(0, Ecn::Ect0, false), &mut w.ctx()); // withheld, state 0
        assert_eq!(acks(&w), expected);
        // CE: state 0 → 1. The withheld segment is acknowledged with the old state (ECE 0),
        // then this one at once with the new (ECE 1).
        r.on_data(&data(1000, Ecn::Ce, false), &mut w.ctx());
        expected.extend([(1000, false), (2000, true)]);
        assert_eq!(acks(&w), expected);
        r.on_data(&data(2000, Ecn::Ce, false), &mut w.ctx()); // no change: withheld
        r.on_data(&data(3000, Ecn::Ce, false), &mut w.ctx()); // the pair's ACK, ECE 1
        expected.push((4000, true));
        assert_eq!(acks(&w), expected);
        // Not CE: 1 → 0 with nothing withheld: one ACK at once, ECE 0. Its CWR changes nothing.
        r.on_data(&data(4000, Ecn::Ect0, true), &mut w.ctx());
        expected.push((5000, false));
        assert_eq!(acks(&w), expected);
        r.on_data(&data(5000, Ecn::Ect0, false), &mut w.ctx()); // withheld
        r.on_data(&data(6000, Ecn::Ce, false), &mut w.ctx()); // 0 → 1 with one withheld
        expected.extend([(6000, false), (7000, true)]);
        assert_eq!(acks(&w), expected);
        // CE, then a segment that is not ECN-capable: no change; the pair is acknowledged ECE 1
        // (RFC 3168's CWR would not stop DCTCP's echo either).
        r.on_data(&data(7000, Ecn::Ce, false), &mut w.ctx());
        r.on_data(&data(8000, Ecn::NotEct, true), &mut w.ctx());
        expected.push((9000, true));
        assert_eq!(acks(&w), expected);
        // An old duplicate, not CE: acknowledged at once (RFC 5681), the state stays 1.
        r.on_data(&data(0, Ecn::Ect0, false), &mut w.ctx());
        expected.push((9000, true));
        assert_eq!(acks(&w), expected);
        assert_eq!(r.counters.ce_received, 5);
    }

    #[test]
    fn without_delayed_acks_each_ack_carries_its_segment_s_ce() {
        let mut w = World::new();
        let mut r = TcpReceiver::new(0, 1, 0, &dctcp_tcp()); // delack_count 1
        for (i, ecn) in [Ecn::Ce, Ecn::Ect0, Ecn::Ect0, Ecn::Ce, Ecn::Ce].into_iter().enumerate() {
            r.on_data(&data(i as u64 * MSS, ecn, false), &mut w.ctx());
        }
        let expected: Vec<(u64, bool)> = [true, false, false, true, true]
            .into_iter()
            .enumerate()
            .map(|(i, ece)| ((i as u64 + 1) * MSS, ece))
            .collect();
        assert_eq!(acks(&w), expected, "one ACK per segment, no extra ACK at a change");
    }

    #[test]
    fn the_sender_cuts_by_alpha_over_two_once_per_window() {
        let mut w = World::new();
        let mut s = TcpSender::new(0, 0, 1, &dctcp_tcp(), u64::MAX);
        s.start(&mut w.ctx());
        // 10 segments out. ACK 1000 without ECE ends the empty first window: α = 15/16; slow
        // start: cwnd 11 000.
        ack(&mut s, &mut w, 1000, false);
        assert_eq!(s.cwnd(), 11 * MSS);
        // ACK 2000 with ECE: cwnd = ssthresh = ⌊11 000·(1 − 15/32)⌋ = ⌊5843.75⌋; no growth.
        ack(&mut s, &mut w, 2000, true);
        assert_eq!((s.cwnd(), s.ssthresh(), s.counters().ecn_reductions), (5843, 5843, 1));
        // More ECE in the same window of data: no second cut (RFC 8257 §3.3), no growth.
        ack(&mut s, &mut w, 3000, true);
        assert_eq!((s.cwnd(), s.counters().ecn_reductions), (5843, 1));
        // ACKs to 10 000 end the window that began at ACK 1000 (snd_nxt then 10 000): 9000
        // bytes acknowledged, 2000 with ECE: α = 15/16·15/16 + 1/16·2/9.
        for a in (4000..=10_000).step_by(1000) {
            ack(&mut s, &mut w, a, false);
        }
        let alpha1 = 15.0 / 16.0 * (15.0 / 16.0) + 1.0 / 16.0 * (2.0 / 9.0);
        // The cut at ACK 2000 covered the data sent until then (up to 12 000): ACK 11 000 with
        // ECE is still that window, no cut, no growth.
        let cwnd = s.cwnd();
        ack(&mut s, &mut w, 11_000, true);
        assert_eq!((s.cwnd(), s.counters().ecn_reductions), (cwnd, 1));
        // ACK 12 000 grows cwnd (no ECE); the window that began at ACK 10 000 ends only when
        // the data sent by then (beyond 12 000: cwnd grew meanwhile) is acknowledged.
        ack(&mut s, &mut w, 12_000, false);
        let cwnd = s.cwnd();
        // ACK 13 000 with ECE passes 12 000: a new cut, cwnd·(1 − α1/2).
        ack(&mut s, &mut w, 13_000, true);
        let target = (cwnd as f64 * (1.0 - alpha1 / 2.0)) as u64;
        assert_eq!((s.cwnd(), s.counters().ecn_reductions), (target, 2));
    }
}
