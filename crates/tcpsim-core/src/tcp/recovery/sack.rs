//! SACK-based loss recovery, RFC 6675 (with RFC 2018 SACK blocks from the receiver).
//!
//! State: in [`SendState`] the scoreboard — a `sacked` flag per outstanding segment —,
//! `high_sacked` (one past the highest SACKed byte) and `recover` (RecoveryPoint = HighData
//! at entry); here `high_rxt` (RFC 6675 HighRxt, one past the highest byte retransmitted in
//! this recovery). DupThresh is `dupack_threshold`.
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
//! Outside recovery segments are sent by the window (`super::send_by_window`); timeouts are
//! handled by the sender (go-back-N that skips SACKed segments).

use super::{send_by_window, send_new_segment, RecoveryOps};
use crate::packet::Retransmission;
use crate::tcp::cc::Reduction;
use crate::tcp::send_state::SendState;
use crate::tcp::transmitter::Transmitter;

#[derive(Default)]
pub struct Sack {
    in_recovery: bool,
    /// cwnd at entry and exit, from the reduction (RFC 6675 §5 step 4.2, RFC 5681: ssthresh).
    restart_cwnd_bytes: u64,
    /// RFC 6675 HighRxt, one past the highest byte retransmitted in this recovery.
    high_rxt: u64,
}

impl RecoveryOps for Sack {
    fn in_recovery(&self) -> bool {
        self.in_recovery
    }

    /// §5 step 4: DupThresh duplicate ACKs or IsLost(HighACK + 1).
    fn loss_detected(&self, s: &SendState) -> bool {
        s.dupacks >= s.dupack_threshold || first_unacked_is_lost(s)
    }

    /// §5 step (1.c), limited transmit by pipe rather than by window: HighRxt = HighACK, then
    /// while cwnd − SetPipe() ≥ 1 SMSS, new data exists and the receiver's window allows, send
    /// one SMSS of it. SACKed segments have left the pipe, so each duplicate ACK (which SACKs
    /// one more) releases one segment, as the window rule does.
    fn limited_transmit(&mut self, s: &mut SendState, tx: &mut Transmitter) {
        self.high_rxt = s.snd_una;
        let mut pipe = self.set_pipe(s);
        while pipe + s.mss <= s.window.cwnd_bytes {
            match send_new_segment(s, s.rwnd_bytes, tx) {
                Some(len) => pipe += len,
                None => break,
            }
        }
    }

    /// §5 step 4 (4.1–4.5).
    fn enter(&mut self, s: &mut SendState, r: &Reduction, tx: &mut Transmitter) {
        self.restart_cwnd_bytes = r.cwnd_bytes.unwrap_or(r.ssthresh_bytes);
        s.window.cwnd_bytes = self.restart_cwnd_bytes;
        self.in_recovery = true;
        self.high_rxt = s.snd_una;
        self.retransmit(s, s.snd_una, tx);
        tx.restart_rto_timer();
    }

    /// A cumulative ACK at or beyond RecoveryPoint (the default `recovery_complete`) ends
    /// recovery with cwnd = ssthresh; a partial one only restarts the timer (RFC 6298), the
    /// rest — sending by pipe — happens in `send`.
    fn exit(&mut self, s: &mut SendState) {
        s.window.cwnd_bytes = self.restart_cwnd_bytes;
        self.in_recovery = false;
    }

    /// Step C in recovery: while cwnd − pipe ≥ 1 SMSS, send what NextSeg() chooses.
    fn send(&mut self, s: &mut SendState, tx: &mut Transmitter) {
        if !self.in_recovery {
            return send_by_window(s, tx);
        }
        let mut pipe = self.set_pipe(s);
        while pipe + s.mss <= s.window.cwnd_bytes {
            match self.next_seg(s) {
                Some((seq, true)) => {
                    self.retransmit(s, seq, tx);
                    pipe += s.segment_len(seq);
                }
                Some((seq, false)) => {
                    let len = s.segment_len(seq);
                    tx.send(s, seq, Retransmission::No);
                    s.snd_nxt = seq + len;
                    s.snd_max = s.snd_nxt;
                    pipe += len;
                }
                None => break,
            }
        }
    }

    fn on_timeout(&mut self, s: &SendState) {
        self.in_recovery = false;
        self.high_rxt = s.snd_una;
    }

    fn uninflated_cwnd(&self, s: &SendState) -> u64 {
        if self.in_recovery {
            s.window.cwnd_bytes.min(self.restart_cwnd_bytes)
        } else {
            s.window.cwnd_bytes
        }
    }
}

impl Sack {
    fn retransmit(&mut self, s: &mut SendState, seq: u64, tx: &mut Transmitter) {
        tx.send(s, seq, Retransmission::Fast);
        self.high_rxt = self.high_rxt.max(seq + s.segment_len(seq));
    }

    /// RFC 6675 §4 SetPipe(), in bytes.
    fn set_pipe(&self, s: &SendState) -> u64 {
        let threshold = s.dupack_threshold as usize;
        sacked_above(s)
            .filter(|&(i, _)| !s.segments[i].sacked)
            .map(|(i, above)| {
                let seq = s.segment_seq(i);
                let len = s.segment_len(seq);
                let lost = above >= threshold;
                (!lost as u64) * len + ((seq < self.high_rxt) as u64) * len
            })
            .sum()
    }

    /// RFC 6675 §4 NextSeg(): the segment to send and whether it is a retransmission.
    fn next_seg(&self, s: &SendState) -> Option<(u64, bool)> {
        let threshold = s.dupack_threshold as usize;
        let candidates = || {
            sacked_above(s)
                .map(|(i, above)| (s.segment_seq(i), above, s.segments[i].sacked))
                .filter(|&(seq, _, sacked)| !sacked && seq >= self.high_rxt && seq < s.high_sacked)
        };
        if let Some((seq, _, _)) = candidates().find(|&(_, above, _)| above >= threshold) {
            return Some((seq, true)); // rule 1
        }
        let len = s.segment_len(s.snd_max);
        if s.snd_max < s.data_end && s.snd_max + len <= s.snd_una + s.rwnd_bytes {
            return Some((s.snd_max, false)); // rule 2
        }
        candidates().next().map(|(seq, _, _)| (seq, true)) // rule 3
    }
}

/// Whether the first unacknowledged segment is lost by the IsLost() rule.
fn first_unacked_is_lost(s: &SendState) -> bool {
    let above = s.segments.iter().skip(1).filter(|g| g.sacked).count();
    !s.segments.is_empty() && !s.segments[0].sacked && above >= s.dupack_threshold as usize
}

/// SACKed segments strictly above each segment, by index (one backward pass).
fn sacked_above(s: &SendState) -> impl Iterator<Item = (usize, usize)> + '_ {
    let total = s.segments.iter().filter(|g| g.sacked).count();
    s.segments.iter().enumerate().scan(total, |remaining, (i, g)| {
        *remaining -= g.sacked as usize;
        Some((i, *remaining))
    })
}
