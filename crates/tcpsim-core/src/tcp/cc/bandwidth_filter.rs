//! Bandwidth-estimation building blocks shared by Westwood (`super::westwood`) and Westwood+
//! (`super::westwood_plus`): the AckedCount procedure and the low-pass filters.
//!
//! - [`AckedCount`]: `casetti` Sec. 2.3 (pseudocode "PROCEDURE AckedCount"), in bytes rather
//!   than segments, as Linux `tcp_westwood.c` does: a duplicate ACK counts one SMSS and is
//!   remembered in `accounted_bytes`; a cumulative ACK of more than one SMSS is debited by what
//!   the duplicate ACKs already counted. State: `accounted_bytes` (bytes).
//! - [`Filter`]: the filter flavours of the references, all on rates in bytes per second:
//!   * `Tustin` — `casetti` Sec. 2.2: b̂_k = α_k·b̂_{k−1} + (1−α_k)·(b_k + b_{k−1})/2 with
//!     α_k = (2τ − Δ_k)/(2τ + Δ_k), the Tustin discretisation of 1/(1 + sτ) with a
//!     time-varying step Δ_k;
//!   * `TustinLatest` — an ablation of `Tustin`: the same α_k on b_k alone, without the
//!     trapezoid's (b_k + b_{k−1})/2 (which over-counts bunched ACKs);
//!   * `TustinFixed { alpha }` — the same form with a constant coefficient: ns-2
//!     `tcp-westwood-nr.cc` filter types 1 (α = 19/21 ≈ 0.9047, the paper's Δ = τ/10 example)
//!     and 2 (α = 29/31 ≈ 0.9355, Δ = τ/15), and the ns-3 code of `gangadhar` (Sec. 2.4 eq. 1,
//!     Sec. 3.2 eqs. 4–6, α = 0.9; eq. 4's "w1 × w2" is a typo for w1 + w2);
//!   * `Ewma { alpha }` — b̂_k = α·b̂_{k−1} + (1−α)·b_k: ns-2 filter type 0 (per ACK) and
//!     type 5 (per RTT, the Westwood+ estimator), α = `fr_alpha_` = 0.9;
//!   * `TwoStage` — Linux `tcp_westwood.c`: two cascaded 7/8 EWMAs, both stages set to the
//!     first sample (while both are zero).
//!
//!   State: `estimate` b̂_{k−1} and `last_sample` b_{k−1} (the first stage for `TwoStage`),
//!   bytes per second.
//!
//! Deviations: rates are `f64` (deterministic IEEE arithmetic; Linux uses integer bytes per
//! jiffy and loses precision at low rates). The filters never allocate.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Westwood's low-pass filter over per-ACK bandwidth samples b_k.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum WestwoodFilter {
    /// `casetti` Sec. 2.2: b̂_k = α_k·b̂_{k−1} + (1−α_k)·(b_k + b_{k−1})/2 with the
    /// time-varying α_k = (2τ − Δ_k)/(2τ + Δ_k) (Tustin discretisation of 1/(1 + sτ)).
    Tustin {},
    /// Ablation of `tustin`: the same time-varying α_k on the latest sample only,
    /// b̂_k = α_k·b̂_{k−1} + (1−α_k)·b_k. With bunched ACKs the trapezoid weighs a short gap's
    /// large b_{k−1} by the next, long Δ_k and over-estimates; this form does not. Not a
    /// paper's filter: a sensitivity tool.
    TustinLatest {},
    /// b̂_k = α·b̂_{k−1} + (1−α)·(b_k + b_{k−1})/2 with a constant α in [0, 1): ns-2
    /// `tcp-westwood-nr.cc` filter type 1 (α = 19/21, i.e. weights 0.9047 and 0.0476: the
    /// paper's Δ = τ/10 example) and type 2 (α = 29/31), ns-3 (`gangadhar` eq. 1, α = 0.9).
    TustinFixed { alpha: f64 },
    /// b̂_k = α·b̂_{k−1} + (1−α)·b_k with α in [0, 1): ns-2 filter type 0 (α = `fr_alpha_` = 0.9).
    Ewma { alpha: f64 },
}

/// Westwood+'s low-pass filter over per-RTT bandwidth samples.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum WestwoodPlusFilter {
    /// Linux `tcp_westwood.c`: two cascaded EWMAs with gain 1/8, both set to the first sample.
    TwoStageEwma {},
    /// The ns-3 code of `gangadhar` (Sec. 3.2, eqs. 4–6): α·b̂ + (1−α)·(b_k + b_{k−1})/2,
    /// α in [0, 1) (ns-3: 0.9).
    TustinFixed { alpha: f64 },
    /// b̂_k = α·b̂_{k−1} + (1−α)·b_k, α in [0, 1): ns-2 `tcp-westwood-nr.cc` filter type 5,
    /// the per-RTT Westwood+ estimator (α = `fr_alpha_` = 0.9).
    Ewma { alpha: f64 },
}

/// A fixed filter coefficient is in [0, 1); errors name the field relative to `cc`.
pub fn alpha_ok(alpha: f64) -> Result<(), String> {
    if (0.0..1.0).contains(&alpha) {
        Ok(())
    } else {
        Err(format!("filter.alpha: {alpha} must be in [0, 1)"))
    }
}

/// The window BWE·RTTmin of faster recovery as a whole number of segments, at least two,
/// in bytes: `max(2, ⌊BWE·RTTmin/seg_size⌋)·seg_size` (`casetti` Sec. 3.1–3.2, `macura`
/// Sec. 2.1). With no RTT sample yet the window is two segments.
pub fn bwe_window_bytes(bwe_bytes_per_s: f64, min_rtt_ns: Option<u64>, mss_bytes: u64) -> u64 {
    let rtt_ns = min_rtt_ns.unwrap_or(0) as f64;
    let segments = (bwe_bytes_per_s * rtt_ns / (1e9 * mss_bytes as f64)).floor();
    // `as` saturates (NaN → 0); cap so that the product cannot overflow.
    let segments = (segments as u64).clamp(2, u32::MAX as u64);
    segments * mss_bytes
}

/// The window BWE·RTTmin in whole bytes, at least two segments: `max(2·seg_size,
/// ⌊BWE·RTTmin⌋)`. ns-3.17 `TcpWestwood` (the `gangadhar` code) sets ssthresh so, not rounded
/// to segments: `DupAck` assigns `m_currentBW · m_minRtt` to the integer `m_ssThresh`,
/// `Retransmit` takes its max with `2 · m_segmentSize` (the floor is kept on duplicate ACKs too,
/// so that a loss before the first bandwidth sample cannot leave a zero window).
pub fn bwe_window_exact_bytes(bwe_bytes_per_s: f64, min_rtt_ns: Option<u64>, mss_bytes: u64) -> u64 {
    let bytes = (bwe_bytes_per_s * min_rtt_ns.unwrap_or(0) as f64 / 1e9).floor();
    (bytes as u64).clamp(2 * mss_bytes, u32::MAX as u64)
}

/// How [`AckedCount`] debits a cumulative ACK and caps what one ACK counts
/// (`WestwoodConfig::acked_count`).
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum AckedCountRule {
    /// `casetti` Sec. 2.3's pseudocode: a cumulative ACK that the duplicates already counted
    /// counts one segment and debits all it covers (`accounted_for -= cumul_ack`); no cap.
    #[default]
    Paper,
    /// The ns-2 TCPW agent (`tcp/tcp-westwood.cc` `recv`): such an ACK counts one segment and
    /// debits one less than it covers (`unaccounted_ − cumul_ack + 1`), and no ACK counts more
    /// than two segments ("safety check").
    Ns2Agent,
}

/// `casetti` Sec. 2.3 AckedCount, in bytes.
#[derive(Clone, Copy, Debug, Default)]
pub struct AckedCount {
    /// Bytes already counted by duplicate ACKs and not yet covered by a cumulative ACK
    /// (`accounted_for` of the paper, times SMSS).
    pub accounted_bytes: u64,
    pub rule: AckedCountRule,
}

impl AckedCount {
    pub fn new(rule: AckedCountRule) -> Self {
        AckedCount { accounted_bytes: 0, rule }
    }

    /// The bytes an ACK counts toward the bandwidth estimate (`acked` of the pseudocode).
    /// `acked_bytes` is the cumulative advance of `snd_una` (0 for a duplicate ACK).
    pub fn count(&mut self, acked_bytes: u64, duplicate: bool, mss_bytes: u64) -> u64 {
        let counted = self.uncapped(acked_bytes, duplicate, mss_bytes);
        match self.rule {
            AckedCountRule::Paper => counted,
            AckedCountRule::Ns2Agent => counted.min(2 * mss_bytes),
        }
    }

    fn uncapped(&mut self, acked_bytes: u64, duplicate: bool, mss_bytes: u64) -> u64 {
        if duplicate || acked_bytes == 0 {
            // "if (cumul_ack = 0) accounted_for += 1; cumul_ack = 1"
            self.accounted_bytes += mss_bytes;
            return mss_bytes;
        }
        if acked_bytes > mss_bytes {
            // A delayed ACK, or the cumulative ACK that ends a loss episode.
            if self.accounted_bytes >= acked_bytes {
                // Everything it covers was counted by duplicate ACKs: count one segment.
                self.accounted_bytes -= match self.rule {
                    AckedCountRule::Paper => acked_bytes,
                    AckedCountRule::Ns2Agent => acked_bytes - mss_bytes,
                };
                return mss_bytes;
            }
            // Count only what the duplicate ACKs did not (a delayed ACK: all of it).
            let counted = acked_bytes - self.accounted_bytes;
            self.accounted_bytes = 0;
            return counted;
        }
        acked_bytes
    }
}

/// Which filter, with its constants.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum FilterKind {
    /// `casetti` Sec. 2.2, cut-off 1/τ (τ in ns).
    Tustin {
        tau_ns: f64,
    },
    /// The `Tustin` coefficient on the latest sample only (ablation).
    TustinLatest {
        tau_ns: f64,
    },
    TustinFixed {
        alpha: f64,
    },
    Ewma {
        alpha: f64,
    },
    /// Linux: two cascaded 7/8 EWMAs, first-sample initialisation.
    TwoStage,
}

impl FilterKind {
    pub fn for_westwood(f: &WestwoodFilter, tau_ns: u64) -> Self {
        match *f {
            WestwoodFilter::Tustin {} => FilterKind::Tustin { tau_ns: tau_ns as f64 },
            WestwoodFilter::TustinLatest {} => FilterKind::TustinLatest { tau_ns: tau_ns as f64 },
            WestwoodFilter::TustinFixed { alpha } => FilterKind::TustinFixed { alpha },
            WestwoodFilter::Ewma { alpha } => FilterKind::Ewma { alpha },
        }
    }

    pub fn for_westwood_plus(f: &WestwoodPlusFilter) -> Self {
        match *f {
            WestwoodPlusFilter::TwoStageEwma {} => FilterKind::TwoStage,
            WestwoodPlusFilter::TustinFixed { alpha } => FilterKind::TustinFixed { alpha },
            WestwoodPlusFilter::Ewma { alpha } => FilterKind::Ewma { alpha },
        }
    }
}

/// A low-pass filter over bandwidth samples (bytes per second).
#[derive(Clone, Copy, Debug)]
pub struct Filter {
    kind: FilterKind,
    /// b̂ after the last sample, bytes/s (Linux: `bw_est`).
    estimate: f64,
    /// The last sample b_{k−1}, bytes/s (Linux: the first stage `bw_ns_est`).
    last_sample: f64,
}

impl Filter {
    pub fn new(kind: FilterKind) -> Self {
        Filter { kind, estimate: 0.0, last_sample: 0.0 }
    }

    /// The filtered estimate b̂, bytes per second.
    pub fn estimate(&self) -> f64 {
        self.estimate
    }

    /// The coefficient α applied to b̂_{k−1} for a step of `interval_ns`.
    fn alpha(&self, interval_ns: u64) -> f64 {
        match self.kind {
            // casetti Sec. 2.2: α_k = (2τ − Δ_k)/(2τ + Δ_k)
            FilterKind::Tustin { tau_ns } | FilterKind::TustinLatest { tau_ns } => {
                let d = interval_ns as f64;
                (2.0 * tau_ns - d) / (2.0 * tau_ns + d)
            }
            FilterKind::TustinFixed { alpha } | FilterKind::Ewma { alpha } => alpha,
            FilterKind::TwoStage => 0.875,
        }
    }

    /// Fold in the sample b_k = `sample` (bytes/s) taken `interval_ns` after the previous one.
    pub fn update(&mut self, sample: f64, interval_ns: u64) {
        let a = self.alpha(interval_ns);
        match self.kind {
            FilterKind::Tustin { .. } | FilterKind::TustinFixed { .. } => {
                self.estimate = a * self.estimate + (1.0 - a) * (sample + self.last_sample) / 2.0;
                self.last_sample = sample;
            }
            FilterKind::TustinLatest { .. } | FilterKind::Ewma { .. } => {
                self.estimate = a * self.estimate + (1.0 - a) * sample;
                self.last_sample = sample;
            }
            FilterKind::TwoStage => {
                if self.estimate == 0.0 && self.last_sample == 0.0 {
                    // "If the filter is empty fill it with the first sample of bandwidth"
                    self.last_sample = sample;
                    self.estimate = sample;
                } else {
                    self.last_sample = a * self.last_sample + (1.0 - a) * sample;
                    self.estimate = a * self.estimate + (1.0 - a) * self.last_sample;
                }
            }
        }
    }

    /// Fold in `n` virtual null samples spaced `interval_ns` apart (`casetti` Sec. 2.2):
    /// the first still averages with the last real sample, the others decay the estimate
    /// geometrically, b̂_{k+h} = α^h·b̂_k (for the Tustin filter α = (2m−1)/(2m+1)).
    /// Closed form, so a long silence costs O(1).
    pub fn null_samples(&mut self, n: u64, interval_ns: u64) {
        debug_assert!(self.kind != FilterKind::TwoStage, "the two-stage filter has no null samples");
        if n == 0 {
            return;
        }
        self.update(0.0, interval_ns);
        let rest = (n - 1).min(i32::MAX as u64) as i32;
        self.estimate *= self.alpha(interval_ns).powi(rest);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MSS: u64 = 1000;

    #[test]
    fn the_bwe_window_in_segments_rounds_down_and_in_bytes_does_not() {
        // 105 500 bytes/s · 0.1 s = 10 550 bytes: 10 whole segments of 1000, or 10 550 bytes.
        assert_eq!(bwe_window_bytes(105_500.0, Some(100_000_000), MSS), 10_000);
        assert_eq!(bwe_window_exact_bytes(105_500.0, Some(100_000_000), MSS), 10_550);
        // Both floor at two segments (no estimate or no RTT sample yet).
        assert_eq!(bwe_window_bytes(0.0, Some(100_000_000), MSS), 2000);
        assert_eq!(bwe_window_exact_bytes(0.0, Some(100_000_000), MSS), 2000);
        assert_eq!(bwe_window_exact_bytes(105_500.0, None, MSS), 2000);
    }

    #[test]
    fn a_duplicate_ack_counts_one_segment_and_is_remembered() {
        let mut c = AckedCount::default();
        assert_eq!(c.count(1000, false, MSS), 1000);
        for _ in 0..3 {
            assert_eq!(c.count(0, true, MSS), 1000);
        }
        assert_eq!(c.accounted_bytes, 3000);
    }

    #[test]
    fn the_cumulative_ack_after_duplicates_counts_only_what_they_did_not() {
        // Segment 1 lost, 2..4 produce three duplicate ACKs (counted 1000 each); the
        // retransmission of 1 brings an ACK of 4 segments: only the retransmitted one is new.
        let mut c = AckedCount::default();
        for _ in 0..3 {
            c.count(0, true, MSS);
        }
        assert_eq!(c.count(4000, false, MSS), 1000);
        assert_eq!(c.accounted_bytes, 0);
    }

    #[test]
    fn a_partial_ack_covered_by_duplicates_counts_one_segment_and_keeps_the_rest() {
        // Four duplicate ACKs, then a (NewReno partial) ACK of 2 segments: already counted,
        // so it counts one segment and 2000 of the 4000 stay accounted; the next ACK of 3
        // segments is debited by them.
        let mut c = AckedCount::default();
        for _ in 0..4 {
            c.count(0, true, MSS);
        }
        assert_eq!(c.count(2000, false, MSS), 1000);
        assert_eq!(c.accounted_bytes, 2000);
        assert_eq!(c.count(3000, false, MSS), 1000);
        assert_eq!(c.accounted_bytes, 0);
    }

    #[test]
    fn a_delayed_ack_counts_both_segments() {
        let mut c = AckedCount::default();
        assert_eq!(c.count(2000, false, MSS), 2000);
        assert_eq!(c.count(2000, false, MSS), 2000);
        assert_eq!(c.accounted_bytes, 0);
    }

    #[test]
    fn a_short_last_segment_counts_its_bytes() {
        let mut c = AckedCount::default();
        assert_eq!(c.count(300, false, MSS), 300);
    }

    #[test]
    fn fixed_tustin_with_19_over_21_weighs_each_of_the_last_two_samples_by_1_over_21() {
        let mut f = Filter::new(FilterKind::TustinFixed { alpha: 19.0 / 21.0 });
        f.update(21_000.0, 10_000_000);
        assert!((f.estimate() - 1000.0).abs() < 1e-9); // (21000 + 0)/21
        f.update(42_000.0, 10_000_000);
        // 19/21·1000 + (42000 + 21000)/21 = 904.76 + 3000
        assert!((f.estimate() - (19_000.0 / 21.0 + 3000.0)).abs() < 1e-9);
    }

    #[test]
    fn ewma_weighs_only_the_newest_sample() {
        let mut f = Filter::new(FilterKind::Ewma { alpha: 0.9 });
        f.update(1000.0, 1_000_000_000);
        f.update(1000.0, 1_000_000_000);
        assert!((f.estimate() - 190.0).abs() < 1e-9); // 0.9·100 + 0.1·1000
    }

    #[test]
    fn two_stage_starts_from_the_first_sample_then_smooths_twice_by_seven_eighths() {
        let mut f = Filter::new(FilterKind::TwoStage);
        f.update(100_000.0, 100_000_000);
        assert_eq!(f.estimate(), 100_000.0);
        f.update(200_000.0, 100_000_000);
        // stage 1: (7·100000 + 200000)/8 = 112500; stage 2: (7·100000 + 112500)/8
        assert_eq!(f.estimate(), 101_562.5);
    }

    #[test]
    fn the_ns2_agent_debits_one_segment_less_and_caps_an_ack_at_two_segments() {
        // Four duplicate ACKs (4 segments accounted for), then a cumulative ACK of 3: the paper
        // leaves 4 − 3 = 1 accounted, the agent 4 − 3 + 1 = 2; both count one segment.
        let (mut paper, mut agent) =
            (AckedCount::new(AckedCountRule::Paper), AckedCount::new(AckedCountRule::Ns2Agent));
        for c in [&mut paper, &mut agent] {
            for _ in 0..4 {
                c.count(0, true, MSS);
            }
            assert_eq!(c.count(3 * MSS, false, MSS), MSS);
        }
        assert_eq!((paper.accounted_bytes, agent.accounted_bytes), (MSS, 2 * MSS));
        // An ACK of 5 segments beyond what was accounted for: the paper counts 5 − 1 = 4 (paper)
        // and 5 − 2 = 3 capped to 2 (agent).
        assert_eq!(paper.count(5 * MSS, false, MSS), 4 * MSS);
        assert_eq!(agent.count(5 * MSS, false, MSS), 2 * MSS);
        assert_eq!((paper.accounted_bytes, agent.accounted_bytes), (0, 0));
    }

    #[test]
    fn null_samples_in_closed_form_equal_one_by_one() {
        let kind = FilterKind::Tustin { tau_ns: 5e8 };
        let (mut a, mut b) = (Filter::new(kind), Filter::new(kind));
        for f in [&mut a, &mut b] {
            for _ in 0..50 {
                f.update(250_000.0, 10_000_000);
            }
        }
        a.null_samples(7, 250_000_000);
        for _ in 0..7 {
            b.update(0.0, 250_000_000);
        }
        assert!((a.estimate() - b.estimate()).abs() < 1e-6 * b.estimate());
    }

    /// ACKs in pairs 1 ms apart every 100 ms, 1000 bytes each: 20 000 bytes/s. The paper's
    /// trapezoid weighs each pair's 10⁶ bytes/s sample by the following 99 ms gap and runs
    /// far above the rate; the latest-sample ablation stays within a few per cent of it.
    #[test]
    fn the_trapezoid_over_counts_bunched_acks_and_the_latest_sample_form_does_not() {
        let estimate = |kind| {
            let mut f = Filter::new(kind);
            for _ in 0..500 {
                f.update(1000.0 / 0.099, 99_000_000);
                f.update(1000.0 / 0.001, 1_000_000);
            }
            f.estimate()
        };
        let trapezoid = estimate(FilterKind::Tustin { tau_ns: 5e8 });
        let latest = estimate(FilterKind::TustinLatest { tau_ns: 5e8 });
        assert!(trapezoid > 5.0 * 20_000.0, "{trapezoid}");
        assert!((latest / 20_000.0 - 1.0).abs() < 0.1, "{latest}");
    }
}
