//! The part of a TCP sender that loss recovery acts on: the sequence space, the window and
//! the scoreboard. Nothing here sends a packet or schedules an event.
//!
//! RFC names, all in bytes (the ISS is 0): `snd_una` oldest unacknowledged byte, `snd_nxt`
//! next byte to send, `snd_max` highest byte sent + 1 (they differ after go-back-N),
//! `recover` (RFC 6582), `dupacks` (RFC 5681). One record per outstanding segment keeps its
//! last send time, whether it was ever retransmitted (Karn's algorithm, RFC 6298 §3) and
//! whether a SACK block covers it (the RFC 6675 scoreboard).

use std::collections::VecDeque;

use super::cc::Window;
use super::delivery_rate::DeliveryRate;
use super::sacked_counts::SackedCounts;
use crate::packet::SackBlock;

/// One outstanding segment.
#[derive(Clone, Copy, Debug)]
pub struct Segment {
    pub(crate) sent_ns: u64,
    pub(crate) retransmitted: bool,
    /// Covered by a SACK block (RFC 6675 scoreboard); the receiver never reneges.
    pub sacked: bool,
}

pub struct SendState {
    pub snd_una: u64,
    pub snd_nxt: u64,
    pub snd_max: u64,
    /// End of the data the application has supplied (u64::MAX: persistent source).
    pub data_end: u64,
    /// SMSS.
    pub mss: u64,
    /// The receiver's advertised window (a constant).
    pub rwnd_bytes: u64,
    /// Duplicate ACKs that signal a loss (RFC 5681 §3.2 step 2; RFC 6675 DupThresh).
    pub dupack_threshold: u32,
    pub window: Window,
    /// Duplicate ACKs since the last ACK of new data (or the end of the last recovery).
    pub dupacks: u32,
    /// RFC 6582 `recover`, stored as one past the highest byte sent when it was set.
    pub recover: Option<u64>,
    /// One record per segment from `snd_una` on (the first is `snd_una`'s segment). Its
    /// `sacked` flags change only through `update_scoreboard`, which keeps `sacked` in step.
    pub segments: VecDeque<Segment>,
    /// The same flags, counted (RFC 6675's scoreboard questions in O(log n)).
    sacked: SackedCounts,
    /// One past the highest byte SACKed so far (RFC 6675's "highest octet covered by SACK").
    pub high_sacked: u64,
    /// Bytes sent by limited transmit since the last ACK of new data (RFC 3042), which
    /// FlightSize leaves out when fast retransmit sets ssthresh (RFC 5681 §3.2 step 2).
    pub limited_transmit_bytes: u64,
    /// Delivery-rate estimation, kept only when the congestion control wants rate samples.
    pub rate: DeliveryRate,
}

impl SendState {
    pub fn new(mss: u64, rwnd_bytes: u64, dupack_threshold: u32, window: Window, data_end: u64) -> Self {
        SendState {
            snd_una: 0,
            snd_nxt: 0,
            snd_max: 0,
            data_end,
            mss,
            rwnd_bytes,
            dupack_threshold,
            window,
            dupacks: 0,
            recover: None,
            segments: VecDeque::new(),
            sacked: SackedCounts::default(),
            high_sacked: 0,
            limited_transmit_bytes: 0,
            rate: DeliveryRate::default(),
        }
    }

    /// Bytes sent and not yet cumulatively acknowledged (RFC 5681 FlightSize).
    pub fn flight_size(&self) -> u64 {
        self.snd_max - self.snd_una
    }

    /// FlightSize as fast retransmit's ssthresh reads it: without the segments limited transmit
    /// sent on this loss's first duplicate ACKs (RFC 5681 §3.2 step 2: "MUST NOT be included").
    pub fn flight_size_before_limited_transmit(&self) -> u64 {
        self.flight_size() - self.limited_transmit_bytes
    }

    /// Payload bytes of the segment starting at `seq` (full-sized but for a transfer's last).
    pub fn segment_len(&self, seq: u64) -> u64 {
        (self.data_end.max(self.snd_max) - seq).min(self.mss)
    }

    /// Index in `segments` of the segment starting at `seq`.
    pub fn segment_index(&self, seq: u64) -> usize {
        ((seq - self.segment_start(self.snd_una)) / self.mss) as usize
    }

    pub fn segment_at(&self, seq: u64) -> &Segment {
        &self.segments[self.segment_index(seq)]
    }

    /// Sequence number of the first byte of `segments[index]`.
    pub fn segment_seq(&self, index: usize) -> u64 {
        self.segment_start(self.snd_una) + index as u64 * self.mss
    }

    fn segment_start(&self, seq: u64) -> u64 {
        seq - seq % self.mss
    }

    /// Record that the segment starting at `seq` was put on the wire at `now_ns`.
    pub(crate) fn record_sent(&mut self, seq: u64, retransmitted: bool, now_ns: u64) {
        let index = self.segment_index(seq);
        if self.rate.enabled() {
            self.rate.on_sent(index, self.segments.is_empty(), now_ns);
        }
        if index < self.segments.len() {
            let s = &mut self.segments[index];
            s.sent_ns = now_ns;
            s.retransmitted |= retransmitted;
        } else {
            debug_assert_eq!(index, self.segments.len(), "segments are sent in order");
            self.segments.push_back(Segment { sent_ns: now_ns, retransmitted, sacked: false });
            if self.sacked.is_built() && !self.sacked.covers(self.first_segment() + index as u64) {
                self.rebuild_sacked_counts();
            }
        }
    }

    /// Absolute number (`seq / SMSS`) of `segments[0]`.
    fn first_segment(&self) -> u64 {
        self.snd_una / self.mss
    }

    fn rebuild_sacked_counts(&mut self) {
        let flags = self.segments.iter().map(|g| g.sacked);
        self.sacked.rebuild(self.first_segment(), self.segments.len(), flags);
    }

    /// SACKed segments outstanding.
    pub fn sacked_count(&self) -> u64 {
        self.sacked.total()
    }

    /// SACKed segments among `segments[from..to]`.
    pub fn sacked_in(&self, from: usize, to: usize) -> u64 {
        let first = self.first_segment();
        self.sacked.in_range(first + from as u64, first + to as u64)
    }

    /// Index of the k-th SACKed segment counted from the highest (1 ≤ k ≤ `sacked_count`).
    pub fn kth_highest_sacked(&self, k: u64) -> usize {
        (self.sacked.kth(self.sacked.total() + 1 - k) - self.first_segment()) as usize
    }

    /// Index of the lowest un-SACKed segment at or above index `from` (`segments.len()` or
    /// more if there is none).
    pub fn first_unsacked_from(&self, from: usize) -> usize {
        let first = self.first_segment();
        (self.sacked.first_unsacked_from(first + from as u64) - first) as usize
    }

    /// Number of segments starting below byte `seq` (0 ≤ result ≤ `segments.len()`).
    pub fn segments_below(&self, seq: u64) -> usize {
        let start = self.segment_start(self.snd_una);
        (seq.saturating_sub(start).div_ceil(self.mss) as usize).min(self.segments.len())
    }

    /// Mark every outstanding segment fully inside a SACK block (RFC 6675 §4 "Update()").
    /// Without SACK the receiver sends no blocks and this does nothing.
    pub fn update_scoreboard(&mut self, blocks: &[SackBlock]) {
        for b in blocks {
            let start = b.start.max(self.snd_una);
            let end = b.end.min(self.snd_max);
            if start >= end {
                continue;
            }
            if !self.sacked.is_built() {
                self.rebuild_sacked_counts();
            }
            // Only the segments not yet SACKed are visited: a block repeated by every ACK
            // costs O(log n), not its length.
            let mut i = self.first_unsacked_from(self.segment_index(start.next_multiple_of(self.mss)));
            while i < self.segments.len() {
                let seq = self.segment_seq(i);
                if seq + self.segment_len(seq) > end {
                    break;
                }
                self.segments[i].sacked = true;
                self.sacked.add(self.first_segment() + i as u64, 1);
                if self.rate.enabled() {
                    let g = self.segments[i];
                    self.rate.on_delivered(i, self.segment_len(seq), g.sent_ns, g.retransmitted);
                }
                i = self.first_unsacked_from(i + 1);
            }
            self.high_sacked = self.high_sacked.max(end);
        }
    }

    /// Drop the records of the segments fully acknowledged by `ack` (before `snd_una`
    /// advances); returns the RTT samples the ACK gives (`AckedRtt`).
    pub(crate) fn take_acked_segments(&mut self, ack: u64, now: u64) -> AckedRtt {
        let first = self.snd_una / self.mss;
        let last_exclusive = ack.div_ceil(self.mss);
        let full =
            if ack == self.data_end.max(self.snd_max) || ack % self.mss == 0 { last_exclusive } else { ack / self.mss };
        let mut valid = true;
        let mut newest_sent = None;
        let mut oldest = None;
        for abs in first..full {
            match self.segments.pop_front() {
                Some(s) => {
                    valid &= !s.retransmitted;
                    if abs == first && !s.retransmitted {
                        oldest = Some(now - s.sent_ns);
                    }
                    newest_sent = Some(s.sent_ns);
                    if s.sacked {
                        self.sacked.add(abs, -1);
                    }
                    if self.rate.enabled() {
                        if !s.sacked {
                            let len = (self.data_end.max(self.snd_max) - abs * self.mss).min(self.mss);
                            self.rate.on_delivered(0, len, s.sent_ns, s.retransmitted);
                        }
                        self.rate.pop_front();
                    }
                }
                None => break,
            }
        }
        AckedRtt { newest: newest_sent.filter(|_| valid).map(|t| now - t), oldest }
    }
}

/// The RTT samples of one ACK of new data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct AckedRtt {
    /// From the newest segment it covers, if none of them was ever retransmitted (Karn, RFC 6298
    /// §3): the sample of the RTO estimator and of every controller.
    pub newest: Option<u64>,
    /// From the oldest segment it covers, if that one was never retransmitted: ns-3.17's
    /// `RttEstimator::AckSeq` (the head of its history), which timed Westwood+'s sampling window.
    pub oldest: Option<u64>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::CaIncrement;

    const MSS: u64 = 1000;
    const MS: u64 = 1_000_000;

    fn state() -> SendState {
        let window = Window {
            cwnd_bytes: 10 * MSS,
            ssthresh_bytes: u64::MAX,
            mss_bytes: MSS,
            ca_credit: 0,
            ca_increment: CaIncrement::Exact,
        };
        SendState::new(MSS, 1 << 30, 3, window, u64::MAX)
    }

    /// Two segments sent at 0 and 1 ms, one delayed ACK of both at 101 ms.
    fn two_sent(retransmit: Option<u64>) -> SendState {
        let mut s = state();
        s.record_sent(0, false, 0);
        s.record_sent(MSS, false, MS);
        if let Some(seq) = retransmit {
            s.record_sent(seq, true, 50 * MS);
        }
        s.snd_nxt = 2 * MSS;
        s.snd_max = 2 * MSS;
        s
    }

    #[test]
    fn an_ack_gives_the_newest_segments_rtt_and_the_oldest_segments() {
        // Newest: 101 − 1 = 100 ms; oldest (ns-3.17's AckSeq): 101 − 0 = 101 ms.
        let rtt = two_sent(None).take_acked_segments(2 * MSS, 101 * MS);
        assert_eq!(rtt, AckedRtt { newest: Some(100 * MS), oldest: Some(101 * MS) });
        // Karn drops the newest-segment sample if any covered segment was resent; the oldest
        // one only if the oldest segment was.
        let rtt = two_sent(Some(MSS)).take_acked_segments(2 * MSS, 101 * MS);
        assert_eq!(rtt, AckedRtt { newest: None, oldest: Some(101 * MS) });
        let rtt = two_sent(Some(0)).take_acked_segments(2 * MSS, 101 * MS);
        assert_eq!(rtt, AckedRtt { newest: None, oldest: None });
    }
}
