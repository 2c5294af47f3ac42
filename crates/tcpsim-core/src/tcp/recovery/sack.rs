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
        tx.restart_rto_timer_at_fast_retransmit();
    }

    /// A cumulative ACK at or beyond RecoveryPoint (the default `recovery_complete`) ends
    /// recovery with cwnd = ssthresh; a partial one only restarts the timer (RFC 6298), the
    /// rest — sending by pipe — happens in `send`.
    fn exit(&mut self, s: &mut SendState) {
        s.window.cwnd_bytes = self.restart_cwnd_bytes;
        self.in_recovery = false;
    }

    /// Step C in recovery: while cwnd − pipe ≥ 1 SMSS (and pacing allows), send what
    /// NextSeg() chooses.
    fn send(&mut self, s: &mut SendState, tx: &mut Transmitter) {
        if !self.in_recovery {
            return send_by_window(s, tx);
        }
        let mut pipe = self.set_pipe(s);
        while pipe + s.mss <= s.window.cwnd_bytes && !tx.paced() {
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

    /// In recovery, SetPipe(); outside it the default.
    fn pipe_bytes(&self, s: &SendState) -> u64 {
        if self.in_recovery {
            self.set_pipe(s)
        } else {
            s.flight_size().saturating_sub(s.sacked_count() * s.mss)
        }
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

    /// RFC 6675 §4 SetPipe(), in bytes: every un-SACKed segment counts once if not lost and
    /// once more if it was retransmitted in this recovery (below HighRxt).
    fn set_pipe(&self, s: &SendState) -> u64 {
        let n = s.segments.len();
        let unsacked = |from: usize, to: usize| unsacked_bytes(s, from, to);
        unsacked(lost_below(s), n) + unsacked(0, s.segments_below(self.high_rxt))
    }

    /// RFC 6675 §4 NextSeg(): the segment to send and whether it is a retransmission.
    fn next_seg(&self, s: &SendState) -> Option<(u64, bool)> {
        // Rules 1 and 3 look at the lowest un-SACKed segment at or above HighRxt and below the
        // highest SACK; rule 1 takes it only if it is lost (lost segments are a prefix).
        let candidate = s.first_unsacked_from(s.segments_below(self.high_rxt));
        let below_high_sack = candidate < s.segments_below(s.high_sacked);
        if below_high_sack && candidate < lost_below(s) {
            return Some((s.segment_seq(candidate), true)); // rule 1
        }
        let len = s.segment_len(s.snd_max);
        if s.snd_max < s.data_end && s.snd_max + len <= s.snd_una + s.rwnd_bytes {
            return Some((s.snd_max, false)); // rule 2
        }
        below_high_sack.then(|| (s.segment_seq(candidate), true)) // rule 3
    }
}

/// Whether the first unacknowledged segment is lost by the IsLost() rule.
fn first_unacked_is_lost(s: &SendState) -> bool {
    let Some(first) = s.segments.front() else { return false };
    !first.sacked && s.sacked_count() >= s.dupack_threshold as u64
}

/// IsLost() (§4) as a boundary: segment i is lost iff at least DupThresh segments above it are
/// SACKed, i.e. iff it lies below the DupThresh-th highest SACKed segment. Returns that index
/// (0: nothing is lost).
fn lost_below(s: &SendState) -> usize {
    let threshold = s.dupack_threshold as u64;
    if s.sacked_count() < threshold {
        return 0;
    }
    s.kth_highest_sacked(threshold)
}

/// Payload bytes of the un-SACKed segments among `segments[from..to]`: full-sized, but for a
/// transfer's last segment.
fn unsacked_bytes(s: &SendState, from: usize, to: usize) -> u64 {
    if to <= from {
        return 0;
    }
    let count = (to - from) as u64 - s.sacked_in(from, to);
    let mut bytes = count * s.mss;
    let last = to - 1;
    if last + 1 == s.segments.len() && !s.segments[last].sacked {
        bytes -= s.mss - s.segment_len(s.segment_seq(last));
    }
    bytes
}

#[cfg(test)]
mod tests {
    //! The scoreboard's counted answers against the plain passes over every segment that they
    //! replace (RFC 6675 §4 read literally), on scoreboards of every shape.
    use super::*;
    use crate::config::CaIncrement;
    use crate::packet::SackBlock;
    use crate::tcp::cc::Window;
    use crate::tcp::send_state::Segment;

    fn plain_set_pipe(sack: &Sack, s: &SendState) -> u64 {
        let threshold = s.dupack_threshold as usize;
        plain_sacked_above(s)
            .filter(|&(i, _)| !s.segments[i].sacked)
            .map(|(i, above)| {
                let seq = s.segment_seq(i);
                let len = s.segment_len(seq);
                let lost = above >= threshold;
                (!lost as u64) * len + ((seq < sack.high_rxt) as u64) * len
            })
            .sum()
    }

    fn plain_next_seg(sack: &Sack, s: &SendState) -> Option<(u64, bool)> {
        let threshold = s.dupack_threshold as usize;
        let candidates = || {
            plain_sacked_above(s)
                .map(|(i, above)| (s.segment_seq(i), above, s.segments[i].sacked))
                .filter(|&(seq, _, sacked)| !sacked && seq >= sack.high_rxt && seq < s.high_sacked)
        };
        if let Some((seq, _, _)) = candidates().find(|&(_, above, _)| above >= threshold) {
            return Some((seq, true));
        }
        let len = s.segment_len(s.snd_max);
        if s.snd_max < s.data_end && s.snd_max + len <= s.snd_una + s.rwnd_bytes {
            return Some((s.snd_max, false));
        }
        candidates().next().map(|(seq, _, _)| (seq, true))
    }

    fn plain_first_unacked_is_lost(s: &SendState) -> bool {
        let above = s.segments.iter().skip(1).filter(|g| g.sacked).count();
        !s.segments.is_empty() && !s.segments[0].sacked && above >= s.dupack_threshold as usize
    }

    fn plain_sacked_above(s: &SendState) -> impl Iterator<Item = (usize, usize)> + '_ {
        let total = s.segments.iter().filter(|g| g.sacked).count();
        s.segments.iter().enumerate().scan(total, |remaining, (i, g)| {
            *remaining -= g.sacked as usize;
            Some((i, *remaining))
        })
    }

    /// A sender with `sent` segments of 100 bytes out from `una`, the last `short` bytes short
    /// of full size when `finite`, the given SACK blocks received.
    fn state(una_segments: u64, sent: u64, finite: bool, short: u64, blocks: &[(u64, u64)]) -> SendState {
        let mss = 100;
        let window = Window {
            cwnd_bytes: 10_000,
            ssthresh_bytes: 10_000,
            mss_bytes: mss,
            ca_credit: 0,
            ca_increment: CaIncrement::Exact,
        };
        let snd_max = (una_segments + sent) * mss - if finite { short } else { 0 };
        let data_end = if finite { snd_max } else { u64::MAX };
        let mut s = SendState::new(mss, 1 << 30, 3, window, data_end);
        (s.snd_una, s.snd_nxt, s.snd_max) = (una_segments * mss, snd_max, snd_max);
        for _ in 0..sent {
            s.segments.push_back(Segment { sent_ns: 0, retransmitted: false, sacked: false });
        }
        let blocks: Vec<SackBlock> = blocks
            .iter()
            .map(|&(a, b)| SackBlock { start: (una_segments + a) * mss, end: ((una_segments + b) * mss).min(snd_max) })
            .collect();
        s.update_scoreboard(&blocks);
        s
    }

    #[test]
    fn counted_answers_equal_the_plain_passes() {
        let mut checked = 0;
        for seed in 0..400u64 {
            let sent = 1 + seed % 37;
            let finite = seed % 3 == 0;
            let short = if finite { seed % 100 } else { 0 };
            // up to three blocks from a fixed pseudo-random sequence
            let mut blocks = Vec::new();
            let mut x = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            for _ in 0..(seed % 4) {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let a = 1 + (x >> 33) % sent;
                let b = (a + 1 + (x >> 17) % 6).min(sent);
                if a < b {
                    blocks.push((a, b));
                }
            }
            let s = state(1000 + seed, sent, finite, short, &blocks);
            for high_rxt_segments in [0, 1, sent / 2, sent] {
                let sack =
                    Sack { in_recovery: true, restart_cwnd_bytes: 0, high_rxt: s.snd_una + high_rxt_segments * s.mss };
                let case = format!("seed {seed}, blocks {blocks:?}, high_rxt {high_rxt_segments}");
                assert_eq!(sack.set_pipe(&s), plain_set_pipe(&sack, &s), "SetPipe, {case}");
                assert_eq!(sack.next_seg(&s), plain_next_seg(&sack, &s), "NextSeg, {case}");
                checked += 1;
            }
            assert_eq!(first_unacked_is_lost(&s), plain_first_unacked_is_lost(&s), "IsLost, seed {seed}");
        }
        assert_eq!(checked, 1600);
    }
}
