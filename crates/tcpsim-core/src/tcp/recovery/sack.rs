//! SACK-based loss recovery, RFC 6675 (with RFC 2018 SACK blocks from the receiver).
//!
//! State (in the sender): the scoreboard — a `sacked` flag per outstanding segment —,
//! `high_sacked` (one past the highest SACKed byte), `high_rxt` (RFC 6675 HighRxt, one past
//! the highest byte retransmitted in this recovery) and `recover` (RecoveryPoint = HighData
//! at entry). DupThresh is `dupack_threshold`.
//!
//! - IsLost(S) (§4): at least DupThresh SACKed segments above S. With full-sized segments
//!   this is the RFC's "DupThresh discontiguous SACKed sequences or more than
//!   (DupThresh − 1)·SMSS bytes SACKed above".
//! - Entry (§5 step 4): DupThresh duplicate ACKs, or IsLost(HighACK + 1); then
//!   RecoveryPoint = HighData, ssthresh and cwnd from congestion control (RFC 5681: both
//!   FlightSize/2), retransmit the first segment, and send by step C.
//! - Each ACK in recovery: update the scoreboard, then (step C) while cwnd − pipe ≥ 1 SMSS,
//!   send NextSeg(). No window inflation. A cumulative ACK at or beyond RecoveryPoint ends
//!   recovery with cwnd = ssthresh.
//! - SetPipe() (§4): each unSACKed segment counts once if not lost, and once more if it was
//!   retransmitted in this recovery (below HighRxt).
//! - NextSeg() (§4): rule 1, the lowest unSACKed lost segment above HighRxt and below the
//!   highest SACK; rule 2, new data; rule 3, the lowest unSACKed segment above HighRxt below
//!   the highest SACK. Rule 4 (the optional rescue retransmission) is not implemented.
//!
//! Timeouts are handled by the sender (go-back-N that skips SACKed segments).

use crate::context::Ctx;
use crate::packet::Retransmission;
use crate::tcp::sender::TcpSender;

/// RFC 6675 §5 step 4 (4.1–4.5).
pub fn enter(s: &mut TcpSender, ctx: &mut Ctx) {
    s.window.cwnd_bytes = s.recovery_cwnd_bytes;
    s.in_fast_recovery = true;
    s.high_rxt = s.snd_una;
    retransmit(s, s.snd_una, ctx);
    s.restart_rto_timer(ctx);
}

/// A cumulative ACK during recovery: leave it once RecoveryPoint is acknowledged (the rest,
/// sending by pipe, happens in `output`). The timer restarts on every new ACK (RFC 6298).
pub fn on_new_ack(s: &mut TcpSender) -> bool {
    let recover = s.recover.expect("recover is set on entering recovery");
    if s.snd_una >= recover {
        s.window.cwnd_bytes = s.recovery_cwnd_bytes;
        s.in_fast_recovery = false;
        s.dupacks = 0;
    }
    true
}

/// Whether the first unacknowledged segment is lost by the IsLost() rule.
pub fn first_unacked_is_lost(s: &TcpSender) -> bool {
    let above = s.segments.iter().skip(1).filter(|g| g.sacked).count();
    !s.segments.is_empty() && !s.segments[0].sacked && above >= s.dupack_threshold as usize
}

/// Step C: while cwnd − pipe ≥ 1 SMSS, send what NextSeg() chooses.
pub fn output(s: &mut TcpSender, ctx: &mut Ctx) {
    let mut pipe = set_pipe(s);
    while pipe + s.mss as u64 <= s.window.cwnd_bytes {
        match next_seg(s) {
            Some((seq, true)) => {
                retransmit(s, seq, ctx);
                pipe += s.segment_len(seq);
            }
            Some((seq, false)) => {
                let len = s.segment_len(seq);
                s.send_segment(seq, Retransmission::No, ctx);
                s.snd_nxt = seq + len;
                s.snd_max = s.snd_nxt;
                pipe += len;
            }
            None => break,
        }
    }
}

fn retransmit(s: &mut TcpSender, seq: u64, ctx: &mut Ctx) {
    s.send_segment(seq, Retransmission::Fast, ctx);
    s.high_rxt = s.high_rxt.max(seq + s.segment_len(seq));
}

/// SACKed segments strictly above each segment, by index (one backward pass).
fn sacked_above(s: &TcpSender) -> impl Iterator<Item = (usize, usize)> + '_ {
    let total = s.segments.iter().filter(|g| g.sacked).count();
    s.segments.iter().enumerate().scan(total, |remaining, (i, g)| {
        *remaining -= g.sacked as usize;
        Some((i, *remaining))
    })
}

/// RFC 6675 §4 SetPipe(), in bytes.
fn set_pipe(s: &TcpSender) -> u64 {
    let threshold = s.dupack_threshold as usize;
    sacked_above(s)
        .filter(|&(i, _)| !s.segments[i].sacked)
        .map(|(i, above)| {
            let seq = s.segment_seq(i);
            let len = s.segment_len(seq);
            let lost = above >= threshold;
            (!lost as u64) * len + ((seq < s.high_rxt) as u64) * len
        })
        .sum()
}

/// RFC 6675 §4 NextSeg(): the segment to send and whether it is a retransmission.
fn next_seg(s: &TcpSender) -> Option<(u64, bool)> {
    let threshold = s.dupack_threshold as usize;
    let candidates = || {
        sacked_above(s).map(|(i, above)| (s.segment_seq(i), above, s.segments[i].sacked)).filter(|&(seq, _, sacked)| {
            !sacked && seq >= s.high_rxt && seq < s.high_sacked
        })
    };
    if let Some((seq, _, _)) = candidates().find(|&(_, above, _)| above >= threshold) {
        return Some((seq, true)); // rule 1
    }
    let len = s.segment_len(s.snd_max);
    if s.snd_max < s.data_end && s.snd_max + len <= s.snd_una + s.rwnd_bytes() {
        return Some((s.snd_max, false)); // rule 2
    }
    candidates().next().map(|(seq, _, _)| (seq, true)) // rule 3
}
