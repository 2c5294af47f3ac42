//! TCP Westwood+, `macura` Sec. 2.1 and `gangadhar` Sec. 2.5 / 3.2: Westwood's faster
//! recovery with one bandwidth sample per RTT instead of one per ACK, which makes the
//! estimate robust to ACK compression; and the modified Westwood+ of `moller` Sec. IV.
//!
//! Estimation: the bytes counted by AckedCount ([`AckedCount`], as Linux's slow path and the
//! ns-3 `CountAck` of `gangadhar` Sec. 3.2) are summed over a sampling window, in one of two
//! ways ([`WestwoodPlusSampling`]):
//! - `ack_clocked` (Linux `westwood_update_window`): the first ACK that arrives more than
//!   max(RTT, `min_window_ns`) after the window opened closes it with the sample
//!   b = bytes/elapsed (`gangadhar` eq. 3) and opens the next one. RTT is the latest Karn-valid
//!   sample (Linux `w->rtt`); `min_window_ns` is Linux's 50 ms floor (`TCP_WESTWOOD_RTT_MIN`).
//!   A window's samples are the ACKs in [open, close): the closing ACK counts in the next
//!   window, so the bytes of every ACK are divided by the time they span, idle time included.
//!   No window closes before an RTT sample exists.
//! - `ns3_timer` (the `gangadhar` code, ns-3.17 `TcpWestwood` with `ProtocolType`
//!   WestwoodPlus: `EstimateRtt` schedules `EstimateBW` one RTT ahead): an ACK that finds no
//!   window open opens one lasting exactly R, the latest RTT sample taken from the oldest
//!   segment an ACK covered (ns-3.17 `RttEstimator::AckSeq`; its own if it has one), and is
//!   counted in it; the window's sample is the bytes of the ACKs that arrive
//!   before it ends over R (not over the time to the next ACK). The time from a window's end to
//!   the next ACK belongs to no window, so a silence shortens no sample but the one it starts in.
//!   `min_window_ns` does not apply.
//!
//! The algorithm schedules nothing: a window that is due closes at the next ACK or loss,
//! before that event reads or feeds the estimate.
//! Samples go through a [`Filter`]: by default Linux's two cascaded 7/8 EWMAs, initialised
//! with the first sample; or the fixed-coefficient Tustin filter of the ns-3 code (α = 0.9);
//! or ns-2's per-RTT EWMA (α = 0.9).
//! Window growth: RFC 5681, unchanged ([`super::Aimd`]).
//! ECN: an ECN-Echo gets the duplicate-ACK answer (the trait's default `on_ecn`, RFC 3168
//! §6.1.2), ssthresh = cwnd = BWE·RTTmin — Linux `tcp_westwood.c` likewise sets both to
//! BWE·RTTmin when the CWR state an ECN-Echo starts completes (`CA_EVENT_COMPLETE_CWR`).
//! Loss (`macura` Sec. 2.1): ssthresh = max(2, ⌊BWE·RTTmin/seg_size⌋) segments on both
//! signals, or with `ssthresh_in_bytes` max(2·seg_size, ⌊BWE·RTTmin⌋) bytes (ns-3.17
//! `TcpWestwood::DupAck` and `Retransmit`, the `gangadhar` code); cwnd = ssthresh after 3
//! duplicate ACKs and 1 after a timeout — both the recovery half's default, so no cwnd is
//! returned. RTTmin is the smallest RTT sample of the connection.
//! Modified Westwood+ (`moller` Sec. IV, `min_decrease_half`): "the new window is never set to
//! a value smaller than half of the previous value", i.e. never below what New Reno would set:
//! ssthresh = max(BWE·RTTmin, max(W/2, 2·SMSS)) — the [`super::Aimd`] target, W the window
//! the loss halves (`TcpConfig::ssthresh_from`) — on duplicate ACKs and timeouts alike.
//!
//! State: `accounted_bytes` (bytes), `window_start_ns`, `window_length_ns` (`ns3_timer`) and
//! `window_bytes` (the open sampling window, ns and bytes), `last_rtt_ns`, `last_oldest_rtt_ns`
//! (`ns3_timer`) and `min_rtt_ns` (ns), filter state (bytes/s).
//!
//! Deviations: Linux keeps RTTmin only since the last timeout (`reset_rtt_min`) and sets
//! cwnd = ssthresh = BWE·RTTmin when fast recovery completes (CA_EVENT_COMPLETE_CWR) rather
//! than at its start; here the `macura` pseudocode is followed (connection-wide RTTmin, the
//! reduction at the third duplicate ACK). Like `macura`'s "cwnd = ssthresh", a BWE·RTTmin
//! above the current cwnd raises cwnd on a loss. Linux works in integer bytes per jiffy,
//! here rates are `f64`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::bandwidth_filter::{
    alpha_ok, bwe_window_bytes, bwe_window_exact_bytes, AckedCount, Filter, FilterKind, WestwoodPlusFilter,
};
use super::{aimd, AckSample, CcParameters, CongestionOps, LossSignal, Reduction, Window};

/// Westwood+'s parameters (`cc = {kind = "westwood_plus", …}`).
#[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct WestwoodPlusConfig {
    /// The low-pass filter. Recommended `{kind = "two_stage_ewma"}` (Linux
    /// `tcp_westwood.c`); `{kind = "tustin_fixed", alpha = 0.9}` is the ns-3 code of
    /// `gangadhar`.
    pub filter: WestwoodPlusFilter,
    /// Shortest sampling window, ns: a sample is taken by the first ACK more than
    /// max(RTT, min_window_ns) after the window opened. Recommended 50 ms (Linux
    /// `TCP_WESTWOOD_RTT_MIN`); 0 samples exactly once per RTT (ns-3, `gangadhar` Sec. 3.2).
    pub min_window_ns: u64,
    /// Modified Westwood+ (`moller` Sec. IV): after a loss the window never drops below
    /// half its previous value (New Reno's reduction). Recommended false (plain Westwood+).
    pub min_decrease_half: bool,
    /// ns-3 `TcpWestwood`'s fast recovery (the class serves Westwood+ too, `gangadhar`):
    /// start from min(cwnd, ssthresh) without the n-segment inflation, leave with cwnd =
    /// ssthresh; false: Reno's ssthresh + n segments, then ssthresh. Recommended false.
    pub ns3_fast_recovery: bool,
    /// Where a sampling window ends and what its bytes are divided by (module docs).
    /// Recommended `ack_clocked` (Linux); `ns3_timer` is the `gangadhar` ns-3 code.
    #[serde(default)]
    pub sampling: WestwoodPlusSampling,
    /// ssthresh = BWE·RTTmin in whole bytes (at least two segments), not rounded down to whole
    /// segments: ns-3.17 `TcpWestwood` (`gangadhar`). Recommended false (`macura`, Linux).
    #[serde(default)]
    pub ssthresh_in_bytes: bool,
}

/// The sampling window of Westwood+'s bandwidth samples (module docs).
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum WestwoodPlusSampling {
    /// Closed by the first ACK after max(RTT, `min_window_ns`); bytes over the elapsed time.
    #[default]
    AckClocked,
    /// ns-3.17 `TcpWestwood::EstimateRtt`/`EstimateBW`: exactly one RTT (of the oldest segment
    /// an ACK covered) from the ACK that opens it; bytes over that RTT; none open until the next
    /// ACK.
    Ns3Timer,
}

impl CcParameters for WestwoodPlusConfig {
    fn validate(&self) -> Result<(), String> {
        match self.filter {
            WestwoodPlusFilter::TwoStageEwma {} => Ok(()),
            WestwoodPlusFilter::TustinFixed { alpha } | WestwoodPlusFilter::Ewma { alpha } => alpha_ok(alpha),
        }
    }
}

pub struct WestwoodPlus {
    mss_bytes: u64,
    /// Shortest sampling window (ns).
    min_window_ns: u64,
    /// `moller` Sec. IV: never reduce below what New Reno would.
    min_decrease_half: bool,
    /// ns-3 `TcpWestwood`'s fast-recovery windows (see `WestwoodPlusConfig`).
    ns3_fast_recovery: bool,
    sampling: WestwoodPlusSampling,
    /// ssthresh in bytes rather than whole segments (see `WestwoodPlusConfig`).
    ssthresh_in_bytes: bool,
    acked: AckedCount,
    filter: Filter,
    /// Opening time of the current sampling window (ns); None before the first ACK (and, with
    /// `ns3_timer`, between a window's end and the next ACK).
    window_start_ns: Option<u64>,
    /// `ns3_timer`: the open window's length, the RTT sample it opened with (ns).
    window_length_ns: u64,
    /// Bytes counted in the current sampling window.
    window_bytes: u64,
    /// Latest RTT sample (ns).
    last_rtt_ns: Option<u64>,
    /// `ns3_timer`: latest RTT sample from the oldest segment an ACK covered (ns-3.17's
    /// `m_lastRtt`, ns).
    last_oldest_rtt_ns: Option<u64>,
    /// RTTmin, the smallest RTT sample (ns).
    min_rtt_ns: Option<u64>,
}

impl WestwoodPlus {
    /// `mss_bytes` is seg_size.
    pub fn new(cfg: &WestwoodPlusConfig, mss_bytes: u64) -> Self {
        WestwoodPlus {
            mss_bytes,
            min_window_ns: cfg.min_window_ns,
            min_decrease_half: cfg.min_decrease_half,
            ns3_fast_recovery: cfg.ns3_fast_recovery,
            sampling: cfg.sampling,
            ssthresh_in_bytes: cfg.ssthresh_in_bytes,
            acked: AckedCount::default(),
            filter: Filter::new(FilterKind::for_westwood_plus(&cfg.filter)),
            window_start_ns: None,
            window_length_ns: 0,
            window_bytes: 0,
            last_rtt_ns: None,
            last_oldest_rtt_ns: None,
            min_rtt_ns: None,
        }
    }

    /// The filtered estimate, bytes of payload acknowledged per second.
    pub fn bwe_bytes_per_s(&self) -> f64 {
        self.filter.estimate()
    }
}

impl WestwoodPlus {
    /// `ns3_timer` (ns-3.17 `TcpWestwood`): `EstimateRtt` opens a window on an ACK when none is
    /// open and an RTT sample exists; `ReceivedAck` then counts the ACK (`CountAck`) only while
    /// a window is open.
    fn ns3_timer_ack(&mut self, ack: &AckSample) {
        if ack.oldest_rtt_ns.is_some() {
            self.last_oldest_rtt_ns = ack.oldest_rtt_ns;
        }
        self.close_due_window(ack.now_ns);
        if self.window_start_ns.is_none() {
            let Some(rtt) = self.last_oldest_rtt_ns else { return };
            self.window_start_ns = Some(ack.now_ns);
            self.window_length_ns = rtt;
            self.window_bytes = 0;
        }
        self.window_bytes += self.acked.count(ack.acked_bytes, ack.duplicate, self.mss_bytes);
    }

    /// `ns3_timer`: ns-3.17's `EstimateBW` event, run late: an open window whose RTT has
    /// passed by `now_ns` gives its sample (bytes over that RTT) and closes. An event at the
    /// window's end comes after it (ns-3 ran the timer, scheduled first, first).
    fn close_due_window(&mut self, now_ns: u64) {
        if self.sampling != WestwoodPlusSampling::Ns3Timer {
            return;
        }
        let Some(start) = self.window_start_ns else { return };
        // RTT samples are at least one clock tick; max(1) only guards the division.
        let length = self.window_length_ns.max(1);
        if now_ns >= start + length {
            self.filter.update(self.window_bytes as f64 * 1e9 / length as f64, length);
            self.window_start_ns = None;
            self.window_bytes = 0;
        }
    }
}

/// Window growth is RFC 5681's, unchanged: the default `increase_window`.
impl CongestionOps for WestwoodPlus {
    fn on_ack(&mut self, ack: &AckSample) {
        if let Some(r) = ack.rtt_ns {
            self.last_rtt_ns = Some(r);
            self.min_rtt_ns = Some(self.min_rtt_ns.map_or(r, |m| m.min(r)));
        }
        if self.sampling == WestwoodPlusSampling::Ns3Timer {
            self.ns3_timer_ack(ack);
            return;
        }
        let now = ack.now_ns;
        let counted = self.acked.count(ack.acked_bytes, ack.duplicate, self.mss_bytes);
        let Some(start) = self.window_start_ns else {
            self.window_start_ns = Some(now);
            self.window_bytes = counted;
            return;
        };
        if let Some(rtt) = self.last_rtt_ns {
            let elapsed = now.saturating_sub(start);
            if elapsed > rtt.max(self.min_window_ns) {
                self.filter.update(self.window_bytes as f64 * 1e9 / elapsed as f64, elapsed);
                self.window_start_ns = Some(now);
                self.window_bytes = 0;
            }
        }
        self.window_bytes += counted;
    }

    /// `macura` Sec. 2.1 steps 2–3, with `moller` Sec. IV's floor if enabled.
    fn on_loss(&mut self, w: &Window, flight_bytes: u64, signal: LossSignal, now_ns: u64) -> Reduction {
        self.close_due_window(now_ns);
        let window = if self.ssthresh_in_bytes { bwe_window_exact_bytes } else { bwe_window_bytes };
        let mut ssthresh = window(self.filter.estimate(), self.min_rtt_ns, self.mss_bytes);
        if self.min_decrease_half {
            ssthresh = ssthresh.max(aimd::ssthresh_after_loss(w, flight_bytes));
        }
        // ns-3 `TcpWestwood::DupAck`: cwnd = min(cwnd, ssthresh), uninflated.
        let entry_cwnd_bytes =
            (self.ns3_fast_recovery && signal == LossSignal::DuplicateAcks).then(|| w.cwnd_bytes.min(ssthresh));
        Reduction { ssthresh_bytes: ssthresh, cwnd_bytes: None, entry_cwnd_bytes }
    }

    fn bandwidth_estimate_bps(&self) -> Option<f64> {
        Some(self.bwe_bytes_per_s() * 8.0)
    }

    fn rtt_estimate_ns(&self) -> Option<u64> {
        self.min_rtt_ns
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::CaIncrement;

    const MS: u64 = 1_000_000;

    fn plus(filter: WestwoodPlusFilter, min_window_ns: u64, min_decrease_half: bool) -> WestwoodPlus {
        let cfg = WestwoodPlusConfig {
            filter,
            min_window_ns,
            min_decrease_half,
            ns3_fast_recovery: false,
            sampling: WestwoodPlusSampling::AckClocked,
            ssthresh_in_bytes: false,
        };
        WestwoodPlus::new(&cfg, 1000)
    }

    fn linux(min_window_ns: u64) -> WestwoodPlus {
        plus(WestwoodPlusFilter::TwoStageEwma {}, min_window_ns, false)
    }

    fn ack(w: &mut WestwoodPlus, now_ns: u64, acked_bytes: u64, rtt_ns: u64) {
        w.on_ack(&AckSample {
            now_ns,
            ack: 0,
            snd_nxt: 0,
            acked_bytes,
            duplicate: false,
            rtt_ns: Some(rtt_ns),
            oldest_rtt_ns: Some(rtt_ns),
            ece: false,
        });
    }

    fn window(cwnd_segments: u64) -> Window {
        Window {
            cwnd_bytes: cwnd_segments * 1000,
            ssthresh_bytes: 1 << 30,
            mss_bytes: 1000,
            ca_credit: 0,
            ca_increment: CaIncrement::Exact,
        }
    }

    #[test]
    fn one_sample_per_rtt_initialises_the_filter_then_smooths_it() {
        // 1000 bytes acknowledged every 10 ms, RTT 100 ms, 50 ms floor. The window opens at the
        // first ACK (t = 0) and stays open at t = 100 ms (not > RTT); the ACK at 110 ms closes
        // it with the 11 ACKs of [0, 110) ms: 11 000 bytes / 0.11 s = 100 000 bytes/s, which
        // initialises both stages. The next window [110, 220) ms also gives 100 000.
        let mut w = linux(50 * MS);
        for k in 0..=10u64 {
            ack(&mut w, k * 10 * MS, 1000, 100 * MS);
        }
        assert_eq!(w.bwe_bytes_per_s(), 0.0, "no sample within the first RTT");
        ack(&mut w, 110 * MS, 1000, 100 * MS);
        assert!((w.bwe_bytes_per_s() - 100_000.0).abs() < 1e-6);
        assert_eq!((w.window_start_ns, w.window_bytes), (Some(110 * MS), 1000));
        // Double the rate: 2000 bytes every 10 ms. The window [110, 220) ms holds one ACK at
        // the old rate (the one at 110 ms) and ten at the new one: 21 000 bytes / 0.11 s.
        for k in 12..=22u64 {
            ack(&mut w, k * 10 * MS, 2000, 100 * MS);
        }
        let sample = 21_000.0 / 0.11;
        let stage1 = (7.0 * 100_000.0 + sample) / 8.0;
        let expected = (7.0 * 100_000.0 + stage1) / 8.0;
        assert!((w.bwe_bytes_per_s() - expected).abs() < 1e-6, "{} vs {expected}", w.bwe_bytes_per_s());
    }

    #[test]
    fn short_rtts_are_sampled_over_the_50_ms_floor() {
        // RTT 20 ms but windows of at least 50 ms: the first closes at 60 ms (6 ACKs).
        let mut w = linux(50 * MS);
        for k in 0..=5u64 {
            ack(&mut w, k * 10 * MS, 1000, 20 * MS);
        }
        assert_eq!(w.bwe_bytes_per_s(), 0.0);
        ack(&mut w, 60 * MS, 1000, 20 * MS);
        assert!((w.bwe_bytes_per_s() - 100_000.0).abs() < 1e-6);
        // Without the floor (ns-3 style) the window closes at the first ACK after 20 ms.
        let mut w = linux(0);
        for k in 0..=3u64 {
            ack(&mut w, k * 10 * MS, 1000, 20 * MS);
        }
        assert!((w.bwe_bytes_per_s() - 100_000.0).abs() < 1e-6); // 3000 bytes / 30 ms
    }

    #[test]
    fn duplicate_acks_count_toward_the_window() {
        let mut w = linux(0);
        ack(&mut w, 0, 1000, 100 * MS);
        for k in 1..=3u64 {
            w.on_ack(&AckSample {
                now_ns: k * 10 * MS,
                ack: 0,
                snd_nxt: 0,
                acked_bytes: 0,
                duplicate: true,
                rtt_ns: None,
                oldest_rtt_ns: None,
                ece: false,
            });
        }
        // The cumulative ACK of 4 segments counts 1000 (3000 were counted by the duplicates).
        ack(&mut w, 40 * MS, 4000, 100 * MS);
        assert_eq!(w.window_bytes, 5000);
    }

    #[test]
    fn the_ns3_filter_averages_the_last_two_samples_with_alpha_0_9() {
        let mut w = plus(WestwoodPlusFilter::TustinFixed { alpha: 0.9 }, 0, false);
        for k in 0..=11u64 {
            ack(&mut w, k * 10 * MS, 1000, 100 * MS);
        }
        // First sample 100 000 from an empty filter: 0.9·0 + 0.05·(100 000 + 0).
        assert!((w.bwe_bytes_per_s() - 5000.0).abs() < 1e-6);
    }

    #[test]
    fn loss_sets_ssthresh_to_bwe_times_rtt_min_and_leaves_cwnd_to_recovery() {
        let mut w = linux(50 * MS);
        for k in 0..=11u64 {
            ack(&mut w, k * 10 * MS, 1000, 100 * MS);
        }
        // BWE 100 000 bytes/s · RTTmin 0.1 s = 10 segments.
        let r = w.on_loss(&window(30), 30_000, LossSignal::DuplicateAcks, 0);
        assert_eq!(r, Reduction { ssthresh_bytes: 10_000, cwnd_bytes: None, entry_cwnd_bytes: None });
        let r = w.on_loss(&window(30), 30_000, LossSignal::Timeout, 0);
        assert_eq!(r, Reduction { ssthresh_bytes: 10_000, cwnd_bytes: None, entry_cwnd_bytes: None });
        // ns-3: fast recovery starts from min(cwnd, ssthresh), uninflated; a timeout is unchanged.
        w.ns3_fast_recovery = true;
        let r = w.on_loss(&window(30), 30_000, LossSignal::DuplicateAcks, 0);
        assert_eq!(r, Reduction { ssthresh_bytes: 10_000, cwnd_bytes: None, entry_cwnd_bytes: Some(10_000) });
        let r = w.on_loss(&window(4), 4_000, LossSignal::DuplicateAcks, 0);
        assert_eq!(r, Reduction { ssthresh_bytes: 10_000, cwnd_bytes: None, entry_cwnd_bytes: Some(4_000) });
        let r = w.on_loss(&window(30), 30_000, LossSignal::Timeout, 0);
        assert_eq!(r.entry_cwnd_bytes, None);
    }

    #[test]
    fn ssthresh_in_bytes_keeps_the_fraction_of_a_segment() {
        // 1055 bytes every 10 ms, RTT 100 ms: the first window closes at 110 ms with 11 ACKs,
        // 11 605 bytes / 0.11 s = 105 500 bytes/s (the two-stage filter starts at it);
        // · RTTmin 0.1 s = 10 550 bytes: 10 000 in whole segments, 10 550 in bytes.
        let mut w = linux(50 * MS);
        for k in 0..=11u64 {
            ack(&mut w, k * 10 * MS, 1055, 100 * MS);
        }
        assert!((w.bwe_bytes_per_s() - 105_500.0).abs() < 1e-6);
        assert_eq!(w.on_loss(&window(30), 30_000, LossSignal::DuplicateAcks, 0).ssthresh_bytes, 10_000);
        w.ssthresh_in_bytes = true;
        assert_eq!(w.on_loss(&window(30), 30_000, LossSignal::DuplicateAcks, 0).ssthresh_bytes, 10_550);
        assert_eq!(w.on_loss(&window(30), 30_000, LossSignal::Timeout, 0).ssthresh_bytes, 10_550);
    }

    /// The ns-3.17 timer window against the ACK-clocked one on the same ACKs: 1000 bytes every
    /// 10 ms over [0, 190] ms, RTT 100 ms, then silence until an ACK at 500 ms.
    #[test]
    fn the_ns3_timer_window_lasts_one_rtt_and_leaves_silence_out() {
        let feed = |sampling| {
            let mut w = linux(0);
            w.sampling = sampling;
            for k in 0..=19u64 {
                ack(&mut w, k * 10 * MS, 1000, 100 * MS);
            }
            ack(&mut w, 500 * MS, 1000, 100 * MS);
            w
        };
        // ns3_timer: the window [0, 100) ms holds the ACKs at 0…90 ms, 10 000 bytes / 0.1 s; the
        // ACK at 100 ms, after the timer, opens [100, 200) ms, whose 10 000 bytes / 0.1 s the ACK
        // at 500 ms folds in before it opens [500, 600) ms. Both samples are 100 000 bytes/s.
        let mut t = feed(WestwoodPlusSampling::Ns3Timer);
        assert!((t.bwe_bytes_per_s() - 100_000.0).abs() < 1e-6, "{}", t.bwe_bytes_per_s());
        assert_eq!((t.window_start_ns, t.window_length_ns, t.window_bytes), (Some(500 * MS), 100 * MS, 1000));
        // A loss at 650 ms finds [500, 600) ms due: its sample, 1000 bytes / 0.1 s = 10 000,
        // enters before ssthresh is read (two-stage: stage 1 (7·100 000 + 10 000)/8 = 88 750,
        // stage 2 (7·100 000 + 88 750)/8 = 98 593.75), and no window is open until the next ACK.
        t.on_loss(&window(30), 30_000, LossSignal::Timeout, 650 * MS);
        assert!((t.bwe_bytes_per_s() - 98_593.75).abs() < 1e-6, "{}", t.bwe_bytes_per_s());
        assert_eq!(t.window_start_ns, None);
        // ack_clocked: the ACK at 110 ms closes [0, 110) ms, 11 000 bytes / 0.11 s = 100 000; the
        // ACK at 500 ms closes [110, 500) ms over the silence, 9000 bytes / 0.39 s = 23 077.
        let c = feed(WestwoodPlusSampling::AckClocked);
        let stage1 = (7.0 * 100_000.0 + 9000.0 / 0.39) / 8.0;
        let expected = (7.0 * 100_000.0 + stage1) / 8.0;
        assert!((c.bwe_bytes_per_s() - expected).abs() < 1e-6, "{} vs {expected}", c.bwe_bytes_per_s());
    }

    #[test]
    fn the_ns3_timer_window_lasts_the_oldest_segments_rtt() {
        // Delayed ACKs of two segments every 10 ms: 100 ms from the newest segment, 101 ms from
        // the oldest. The window opened at 0 lasts 101 ms, so the ACK at 100 ms is in it:
        // 11 ACKs of 2000 bytes over 0.101 s.
        let mut w = linux(0);
        w.sampling = WestwoodPlusSampling::Ns3Timer;
        for k in 0..=11u64 {
            w.on_ack(&AckSample {
                now_ns: k * 10 * MS,
                ack: 0,
                snd_nxt: 0,
                acked_bytes: 2000,
                duplicate: false,
                rtt_ns: Some(100 * MS),
                oldest_rtt_ns: Some(101 * MS),
                ece: false,
            });
        }
        assert!((w.bwe_bytes_per_s() - 22_000.0 / 0.101).abs() < 1e-6, "{}", w.bwe_bytes_per_s());
        assert_eq!((w.window_start_ns, w.window_length_ns), (Some(110 * MS), 101 * MS));
    }

    #[test]
    fn an_ecn_echo_sets_ssthresh_to_bwe_times_rtt_min() {
        let mut w = linux(50 * MS);
        for k in 0..=11u64 {
            ack(&mut w, k * 10 * MS, 1000, 100 * MS);
        }
        let r = w.on_ecn(&window(30), 30_000, 0);
        assert_eq!(r, Reduction { ssthresh_bytes: 10_000, cwnd_bytes: None, entry_cwnd_bytes: None });
    }

    #[test]
    fn the_modified_decrease_never_goes_below_half_the_flight() {
        let mut plain = linux(50 * MS);
        let mut modified = plus(WestwoodPlusFilter::TwoStageEwma {}, 50 * MS, true);
        for k in 0..=11u64 {
            ack(&mut plain, k * 10 * MS, 1000, 100 * MS);
            ack(&mut modified, k * 10 * MS, 1000, 100 * MS);
        }
        // BWE·RTTmin = 10 segments. A large buffer let the flight grow to 40 segments:
        // Westwood+ would divide it by 4, the modified version by 2 (New Reno's cut).
        assert_eq!(plain.on_loss(&window(40), 40_000, LossSignal::DuplicateAcks, 0).ssthresh_bytes, 10_000);
        assert_eq!(modified.on_loss(&window(40), 40_000, LossSignal::DuplicateAcks, 0).ssthresh_bytes, 20_000);
        assert_eq!(modified.on_loss(&window(40), 40_000, LossSignal::Timeout, 0).ssthresh_bytes, 20_000);
        // With a small buffer (flight 14 segments) BWE·RTTmin is already above half: unchanged.
        assert_eq!(modified.on_loss(&window(14), 14_000, LossSignal::DuplicateAcks, 0).ssthresh_bytes, 10_000);
    }
}
