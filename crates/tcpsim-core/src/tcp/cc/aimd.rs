//! Standard TCP congestion control, RFC 5681 §3.1.
//!
//! Slow start: cwnd += min(N, SMSS) per ACK of N new bytes (eq. 2).
//! Congestion avoidance: cwnd += SMSS·SMSS/cwnd per ACK (eq. 3), i.e. ACK counting as in
//! ns-2 and the classic BSD stack (so delayed ACKs halve the growth rate, the `b = 2` of the
//! Padhye model). Fractions are carried in `Window::ca_credit` so tiny segments (41 bytes
//! in `gangadhar` Fig. 9) still grow the window exactly. `CaIncrement::Linux` counts whole
//! segments instead, as Linux and ns-3's `TcpLinuxReno` (and so `TcpDctcp`) do.
//! Loss: ssthresh = max(W/2, 2·SMSS) (eq. 4), for duplicate ACKs and timeouts, and for an
//! ECN-Echo (RFC 3168 §6.1.2: "the TCP source halves the congestion window"). W is the window
//! the sender hands over: FlightSize, as eq. 4 has it, or cwnd, as ns-2 and Linux halve
//! (`TcpConfig::ssthresh_from`, `TcpConfig::timeout_ssthresh`).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{CcParameters, CongestionOps, Window};
use crate::config::CaIncrement;

/// RFC 5681 has no parameters of its own (`cc = {kind = "aimd"}`); the window rules it
/// shares with every algorithm are `TcpConfig`'s.
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct AimdConfig {}

impl CcParameters for AimdConfig {}

/// RFC 5681 is what [`CongestionOps`]' defaults do.
pub struct Aimd;

impl Aimd {
    pub fn new(_: &AimdConfig, _mss_bytes: u64) -> Self {
        Aimd
    }
}

impl CongestionOps for Aimd {}

/// RFC 5681 eqs. (2) and (3): slow start below ssthresh, congestion avoidance above.
#[inline]
pub fn increase_window(w: &mut Window, acked_bytes: u64) {
    if w.cwnd_bytes < w.ssthresh_bytes {
        w.cwnd_bytes += acked_bytes.min(w.mss_bytes);
    } else {
        congestion_avoidance(w, acked_bytes);
    }
}

/// RFC 5681 eq. (4): ssthresh = max(W/2, 2·SMSS), W the window the loss halves (FlightSize
/// or cwnd, as the sender was configured), for duplicate ACKs and timeouts.
pub fn ssthresh_after_loss(w: &Window, flight_bytes: u64) -> u64 {
    (flight_bytes / 2).max(2 * w.mss_bytes)
}

/// One ACK's worth of RFC 5681 eq. (3) growth, for an ACK of `acked_bytes` new bytes: exact
/// over many ACKs, ns-3's rounding, or Linux's whole segments.
pub fn congestion_avoidance(w: &mut Window, acked_bytes: u64) {
    match w.ca_increment {
        CaIncrement::Ns3 => w.cwnd_bytes += (w.mss_bytes * w.mss_bytes / w.cwnd_bytes).max(1),
        CaIncrement::Linux => whole_segment_increase(w, acked_bytes),
        CaIncrement::Exact => {
            w.ca_credit += w.mss_bytes * w.mss_bytes;
            let inc = w.ca_credit / w.cwnd_bytes;
            w.ca_credit -= inc * w.cwnd_bytes;
            w.cwnd_bytes += inc;
        }
    }
}

/// Linux's additive increase (`tcp_cong_avoid_ai`, also ns-3's `TcpLinuxReno`): the window is a
/// whole number of segments W, `ca_credit` counts the segments acknowledged (each ACK's, rounded
/// up, at least one), and every W of them add a segment. Credit left from a larger window (the
/// window was cut while it accrued) first adds one segment and is dropped, as Linux does.
fn whole_segment_increase(w: &mut Window, acked_bytes: u64) {
    let mut segments = (w.cwnd_bytes / w.mss_bytes).max(1);
    if w.ca_credit >= segments {
        w.ca_credit = 0;
        segments += 1;
    }
    w.ca_credit += acked_bytes.div_ceil(w.mss_bytes).max(1);
    let added = w.ca_credit / segments;
    w.ca_credit -= added * segments;
    w.cwnd_bytes = (segments + added) * w.mss_bytes;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tcp::cc::LossSignal;

    fn window(cwnd: u64, ssthresh: u64) -> Window {
        Window {
            cwnd_bytes: cwnd,
            ssthresh_bytes: ssthresh,
            mss_bytes: 100,
            ca_credit: 0,
            ca_increment: CaIncrement::Exact,
        }
    }

    #[test]
    fn slow_start_adds_at_most_one_segment_per_ack() {
        let mut w = window(200, 10_000);
        Aimd.increase_window(&mut w, 300);
        assert_eq!(w.cwnd_bytes, 300);
    }

    #[test]
    fn congestion_avoidance_adds_one_segment_per_window_of_acks() {
        let mut w = window(1000, 500);
        for _ in 0..10 {
            Aimd.increase_window(&mut w, 100);
        }
        // 10 ACKs at cwnd ≈ 1000 add ≈ 1 segment (slightly less as cwnd grows)
        assert!((1095..=1100).contains(&w.cwnd_bytes), "{}", w.cwnd_bytes);
    }

    #[test]
    fn tiny_segments_still_grow_the_window() {
        let mut w = Window {
            cwnd_bytes: 41_000,
            ssthresh_bytes: 0,
            mss_bytes: 41,
            ca_credit: 0,
            ca_increment: CaIncrement::Exact,
        };
        for _ in 0..1000 {
            Aimd.increase_window(&mut w, 41);
        }
        // 1000 ACKs of 41²/41000 bytes each add 40.96 bytes; whole bytes only are added.
        assert_eq!(w.cwnd_bytes, 41_040);
    }

    #[test]
    fn linux_increment_adds_a_whole_segment_per_window_of_segments_acked() {
        // cwnd 1050 bytes = 10 whole segments of 100 after a cut left a fraction: the first ACK
        // drops it; 10 segments acked add one (the 10th ACK); delayed ACKs of 2 segments count 2
        // each, so 6 more reach 11 + 1 of credit; a cut (credit reset by the sender) starts over.
        let mut w = window(1050, 500);
        w.ca_increment = CaIncrement::Linux;
        Aimd.increase_window(&mut w, 100);
        assert_eq!((w.cwnd_bytes, w.ca_credit), (1000, 1));
        for _ in 0..8 {
            Aimd.increase_window(&mut w, 100);
        }
        assert_eq!((w.cwnd_bytes, w.ca_credit), (1000, 9));
        Aimd.increase_window(&mut w, 100);
        assert_eq!((w.cwnd_bytes, w.ca_credit), (1100, 0));
        for _ in 0..6 {
            Aimd.increase_window(&mut w, 200);
        }
        assert_eq!((w.cwnd_bytes, w.ca_credit), (1200, 1));
    }

    #[test]
    fn linux_increment_spends_credit_left_from_a_larger_window_as_one_segment() {
        // 12 segments of credit against a window cut to 5: one segment more, the rest dropped,
        // then this ACK's segment counted.
        let mut w = window(500, 100);
        (w.ca_increment, w.ca_credit) = (CaIncrement::Linux, 12);
        Aimd.increase_window(&mut w, 100);
        assert_eq!((w.cwnd_bytes, w.ca_credit), (600, 1));
    }

    #[test]
    fn ns3_increment_drops_fractions_but_adds_at_least_one_byte() {
        let mut w = Window {
            cwnd_bytes: 41_000,
            ssthresh_bytes: 0,
            mss_bytes: 41,
            ca_credit: 0,
            ca_increment: CaIncrement::Ns3,
        };
        for _ in 0..1000 {
            Aimd.increase_window(&mut w, 41);
        }
        assert_eq!(w.cwnd_bytes, 42_000, "41²/41 000 < 1: one byte per ACK");
        let mut w = window(1000, 500);
        w.ca_increment = CaIncrement::Ns3;
        Aimd.increase_window(&mut w, 100);
        assert_eq!(w.cwnd_bytes, 1010, "⌊100²/1000⌋ = 10");
    }

    #[test]
    fn loss_halves_the_flight_but_not_below_two_segments() {
        let w = window(1000, 500);
        assert_eq!(Aimd.on_loss(&w, 1000, LossSignal::DuplicateAcks, 0).ssthresh_bytes, 500);
        assert_eq!(Aimd.on_loss(&w, 100, LossSignal::Timeout, 0).ssthresh_bytes, 200);
    }

    #[test]
    fn an_ecn_echo_gets_the_duplicate_ack_answer_by_default() {
        let w = window(1000, 500);
        assert_eq!(Aimd.on_ecn(&w, 1000, 0), Aimd.on_loss(&w, 1000, LossSignal::DuplicateAcks, 0));
        assert_eq!(Aimd.on_ecn(&w, 1000, 0).ssthresh_bytes, 500);
    }
}
