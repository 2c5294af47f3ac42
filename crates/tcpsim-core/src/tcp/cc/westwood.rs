//! TCP Westwood, `casetti` Sec. 2–3: a per-ACK end-to-end bandwidth estimate (BWE) and
//! "faster recovery", which sets ssthresh (and cwnd) from BWE·RTTmin after a loss instead of
//! halving.
//!
//! Estimation (Sec. 2.2–2.3): each ACK at time t_k gives the sample b_k = d_k/Δ_k, where d_k
//! is the AckedCount of the ACK ([`AckedCount`]: duplicate ACKs count one segment, the
//! cumulative ACK after them is debited) and Δ_k = t_k − t_{k−1}. Samples go through a
//! low-pass [`Filter`], by default the time-varying Tustin filter with cut-off 1/τ. When more
//! than τ/m passes without an ACK, the filter receives virtual null samples b = 0 every τ/m
//! (Nyquist, Sec. 2.2, Fig. 1), so the estimate decays as ((2m−1)/(2m+1))^h during silence.
//! Algorithms never schedule events: the null samples are folded in lazily, in closed form,
//! when the next ACK or a loss signal arrives.
//! Window growth: unchanged from Reno (RFC 5681, [`super::Aimd`]), Sec. 3.
//! ECN: an ECN-Echo gets the n-duplicate-ACK answer (the trait's default `on_ecn`, RFC 3168
//! §6.1.2 "treated just as a congestion loss"): ssthresh = BWE·RTTmin and cwnd lowered to it if
//! larger, the window-sized reaction Westwood was built to give (`casetti` Sec. 3.1).
//! Loss (Sec. 3.1, 3.2): ssthresh = max(2, ⌊BWE·RTTmin/seg_size⌋) segments for both signals;
//! after n duplicate ACKs cwnd = ssthresh only if cwnd > ssthresh, after a timeout cwnd = 1
//! (the sender's default). RTTmin is the smallest Karn-valid RTT sample of the connection.
//!
//! State: `accounted_bytes` (bytes), filter estimate and last sample (bytes/s),
//! `last_ack_ns` t_{k−1} and `last_step_ns` (time of the last real or virtual sample, ns),
//! `pending_bytes` (bytes counted at an instant with Δ = 0), `min_rtt_ns`; times are on the
//! sampling clock.
//!
//! Deviations and interpretations:
//! - The first ACK only starts the clock (Δ_1 is unknown), so it yields no sample.
//! - After virtual samples, the real sample is b = d/(t_k − t_{k−1}) over the whole silence
//!   (the data was delivered over all of it), while α uses the remainder since the last
//!   virtual sample. The paper leaves this open; ns-2 divides d by the remainder and then
//!   patches remainders below 10 ms, which makes a spike of up to d/10 ms.
//! - The n-duplicate-ACK ssthresh is floored at 2 segments as on a timeout (the paper has no
//!   floor there; ns-2's TCP-Westwood-NR and Linux floor both).
//! - ssthresh is a whole number of segments, as in ns-2 and Linux (`seg_size` division).
//! - How the cwnd of Sec. 3.1 meets Reno fast recovery ("the standard Fast Retransmit/Fast
//!   Recovery à la Reno then follows") is decided by the recovery half: the returned cwnd is
//!   the window recovery inflates (by `dupack_threshold` segments at entry and one per further
//!   duplicate ACK) and deflates back to at its end — ns-2's `cwnd_ + dupwnd_`.
//! - `bandwidth_estimate_bps` reports the estimate as of the last ACK or loss (silence since
//!   then is folded in only when the next one arrives).
//! - ACKs are timed on the simulator's exact clock unless `sample_tick_ns` gives the tick of
//!   a coarser one (Linux 2.2's 10 ms `jiffies`): times are rounded down to it, and ACKs
//!   within one tick join one sample, as ACKs at one instant do (`pending_bytes`).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::bandwidth_filter::{
    alpha_ok, bwe_window_bytes, AckedCount, AckedCountRule, Filter, FilterKind, WestwoodFilter,
};
use super::{AckSample, CcParameters, CongestionOps, LossSignal, Reduction, Window};

/// Westwood's parameters (`cc = {kind = "westwood", …}`).
#[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct WestwoodConfig {
    /// τ, ns: the filter's time constant (cut-off frequency 1/τ), `casetti` Sec. 2.2; also
    /// sets the spacing τ/m of virtual null samples. Recommended 500 ms (`casetti` Sec. 4:
    /// "we set τ equal to 500 ms"; ns-2's `tau_` is 1 s). Must be > 0.
    pub tau_ns: u64,
    /// m: after τ/m without ACKs the filter receives a virtual null sample
    /// (`casetti` Sec. 2.2, m ≥ 2); 0 disables virtual samples (the fixed-coefficient
    /// filters of ns-2 and ns-3 have none). Recommended 2 (ns-2's time-varying filter
    /// feeds a null sample every τ/2). The `tustin` filter requires m ≥ 2.
    pub null_sample_divisor: u32,
    /// The low-pass filter. Recommended `{kind = "tustin"}` (`casetti` Sec. 2.2).
    pub filter: WestwoodFilter,
    /// After n duplicate ACKs: false (`casetti` Sec. 3.1) sets cwnd = min(cwnd, ssthresh),
    /// then Reno fast recovery inflates it by n segments and deflates back to it; true
    /// (the `gangadhar` ns-3 `TcpWestwood`: `DupAck`, `NewAck`) starts recovery from
    /// min(cwnd, ssthresh) without the n-segment inflation and leaves it with cwnd =
    /// ssthresh, raising a smaller window. Recommended false.
    pub ns3_fast_recovery: bool,
    /// Granularity of the clock that timestamps ACKs for the bandwidth samples, ns; 0
    /// (the default, a simulator's exact clock) or e.g. 10 ms for a Linux 2.2 kernel,
    /// whose only TCP clock is `jiffies` (HZ = 100), as in the `casetti` Sec. 4.3 testbed.
    /// ACKs within one tick count together: their AckedCounts join the next sample.
    #[serde(default)]
    pub sample_tick_ns: u64,
    /// How AckedCount debits and caps: `paper` (the default, `casetti` Sec. 2.3) or
    /// `ns2_agent` (the ns-2 TCPW agent: debit one segment less, at most two per ACK).
    #[serde(default)]
    pub acked_count: AckedCountRule,
    /// How silence enters the estimate: `whole_silence` (the default, see the module's
    /// deviations) or `ns2_agent`, the ns-2 TCPW agent's filter type 3 (see [`SilenceRule`]).
    #[serde(default)]
    pub silence: SilenceRule,
    /// The ns-2 TCPW agent's adaptive timeout divisor `fr_a_` (`tcp/tcp-westwood.cc`
    /// `slowdown(CLOSE_FASTER)`): a timeout sets ssthresh = ⌊BWE·RTTmin/seg_size/a⌋ (at least
    /// 2), where a = 1 after a loss in congestion avoidance and grows by one per timeout (by
    /// 1/4 per fast retransmit) in slow start, up to 4. Default false (`casetti` Sec. 3.2:
    /// a = 1).
    #[serde(default)]
    pub timeout_divisor: bool,
}

/// How [`Westwood`] folds a silence between ACKs into the estimate.
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum SilenceRule {
    /// A virtual null sample every τ/m, then the real sample d over the whole silence; a
    /// loss signal folds in the silence before it reads the estimate.
    #[default]
    WholeSilence,
    /// ns-2's TCPW agent (`tcp/tcp-westwood.cc`, filter type 3): on each ACK, ⌊Δ/(τ/m)⌋ null
    /// samples and the real sample d over the remainder, a remainder under 10 ms becoming
    /// τ/m (one null sample fewer); the clock starts at time 0 (`lastackrx_` = 0), and a
    /// loss reads the estimate of the last ACK (only ACKs fold in silence).
    Ns2Agent,
}

/// ns-2's TCPW agent: "the remainder is too small (less than 10ms)".
const NS2_MIN_REMAINDER_NS: u64 = 10_000_000;

impl CcParameters for WestwoodConfig {
    fn validate(&self) -> Result<(), String> {
        let (tau_ns, m) = (self.tau_ns, self.null_sample_divisor);
        if tau_ns == 0 {
            return Err("tau_ns: must be > 0".into());
        }
        if m == 1 {
            return Err("null_sample_divisor: 1 must be 0 (no virtual samples) or >= 2".into());
        }
        if m as u64 > tau_ns {
            return Err(format!("null_sample_divisor: {m} must be <= tau_ns ({tau_ns})"));
        }
        match self.filter {
            // α_k > 0 needs Δ_k < 2τ, which the virtual samples guarantee.
            WestwoodFilter::Tustin {} | WestwoodFilter::TustinLatest {} if m < 2 => {
                Err(format!("null_sample_divisor: {m} must be >= 2 with the tustin filters"))
            }
            WestwoodFilter::Tustin {} | WestwoodFilter::TustinLatest {} => Ok(()),
            WestwoodFilter::TustinFixed { alpha } | WestwoodFilter::Ewma { alpha } => alpha_ok(alpha),
        }
    }
}

pub struct Westwood {
    mss_bytes: u64,
    /// τ/m between virtual null samples, ns; None: no virtual samples.
    null_period_ns: Option<u64>,
    acked: AckedCount,
    filter: Filter,
    /// Arrival of the last real ACK, t_{k−1} (ns); None before the first ACK.
    last_ack_ns: Option<u64>,
    /// Time of the last filter step, real or virtual (ns).
    last_step_ns: u64,
    /// Bytes counted by ACKs that arrived at the same instant as the previous one (Δ = 0),
    /// carried into the next sample.
    pending_bytes: u64,
    /// RTTmin, the smallest RTT sample (ns).
    min_rtt_ns: Option<u64>,
    /// ns-3 `TcpWestwood`'s fast recovery: from min(cwnd, ssthresh) uninflated, leaving at
    /// ssthresh even when that raises the window (see `WestwoodConfig`).
    ns3_fast_recovery: bool,
    /// Tick of the clock the samples are timed with (ns; 0: exact), see `WestwoodConfig`.
    sample_tick_ns: u64,
    silence: SilenceRule,
    /// `fr_a_` of the ns-2 agent; None: no divisor (see `WestwoodConfig::timeout_divisor`).
    timeout_divisor: Option<f64>,
}

impl Westwood {
    /// `mss_bytes` is seg_size.
    pub fn new(cfg: &WestwoodConfig, mss_bytes: u64) -> Self {
        let (tau_ns, m) = (cfg.tau_ns, cfg.null_sample_divisor);
        let ns2 = cfg.silence == SilenceRule::Ns2Agent;
        Westwood {
            mss_bytes,
            null_period_ns: (m > 0).then(|| (tau_ns / m as u64).max(1)),
            acked: AckedCount::new(cfg.acked_count),
            filter: Filter::new(FilterKind::for_westwood(&cfg.filter, tau_ns)),
            last_ack_ns: ns2.then_some(0),
            last_step_ns: 0,
            pending_bytes: 0,
            min_rtt_ns: None,
            ns3_fast_recovery: cfg.ns3_fast_recovery,
            sample_tick_ns: cfg.sample_tick_ns,
            silence: cfg.silence,
            timeout_divisor: cfg.timeout_divisor.then_some(1.0),
        }
    }

    /// `now_ns` as the sampling clock reads it: rounded down to its tick.
    fn clock(&self, now_ns: u64) -> u64 {
        match self.sample_tick_ns {
            0 => now_ns,
            tick => now_ns / tick * tick,
        }
    }

    /// The filtered estimate, bytes of payload acknowledged per second.
    pub fn bwe_bytes_per_s(&self) -> f64 {
        self.filter.estimate()
    }

    /// Virtual null samples for every τ/m that passed since the last sample (Sec. 2.2),
    /// leaving a remainder in (0, τ/m] for the next real sample.
    fn fold_in_silence(&mut self, now: u64) {
        let Some(period) = self.null_period_ns else { return };
        if self.last_ack_ns.is_none() {
            return;
        }
        let elapsed = now.saturating_sub(self.last_step_ns);
        if elapsed > period {
            let n = (elapsed - 1) / period;
            self.filter.null_samples(n, period);
            self.last_step_ns += n * period;
        }
    }

    /// The ns-2 agent's null samples for an interval Δ since the last ACK (filter type 3):
    /// ⌊Δ/(τ/m)⌋ of them, one fewer if the remainder is under 10 ms, which then becomes τ/m.
    /// Returns the remainder the real sample is taken over (ns).
    fn ns2_null_samples(&mut self, interval_ns: u64) -> u64 {
        let Some(period) = self.null_period_ns else { return interval_ns };
        let mut idle = interval_ns / period;
        let mut remainder = interval_ns - idle * period;
        if remainder < NS2_MIN_REMAINDER_NS && idle > 0 {
            remainder = period;
            idle -= 1;
        }
        self.filter.null_samples(idle, period);
        remainder
    }

    /// The divisor of a timeout's ssthresh, updated for this loss (`fr_a_`: +1/4 per fast
    /// retransmit and +1 per timeout in slow start, at most 4; 1 in congestion avoidance).
    fn timeout_divisor(&mut self, w: &Window, signal: LossSignal) -> f64 {
        let Some(a) = self.timeout_divisor.as_mut() else { return 1.0 };
        let step = if signal == LossSignal::Timeout { 1.0 } else { 0.25 };
        *a = if w.ssthresh_bytes > w.cwnd_bytes { (*a + step).min(4.0) } else { 1.0 };
        *a
    }
}

/// Window growth is RFC 5681's, unchanged (Sec. 3): the default `increase_window`.
impl CongestionOps for Westwood {
    fn on_ack(&mut self, ack: &AckSample) {
        if let Some(r) = ack.rtt_ns {
            self.min_rtt_ns = Some(self.min_rtt_ns.map_or(r, |m| m.min(r)));
        }
        let now = self.clock(ack.now_ns);
        let d = self.pending_bytes + self.acked.count(ack.acked_bytes, ack.duplicate, self.mss_bytes);
        let Some(prev) = self.last_ack_ns else {
            self.last_ack_ns = Some(now);
            self.last_step_ns = now;
            return;
        };
        if now <= prev {
            self.pending_bytes = d;
            return;
        }
        let (sample, interval) = match self.silence {
            SilenceRule::WholeSilence => {
                self.fold_in_silence(now);
                // b_k = d_k/Δ_k (Sec. 2.2), Δ_k measured from the last real ACK.
                (d as f64 * 1e9 / (now - prev) as f64, now - self.last_step_ns)
            }
            SilenceRule::Ns2Agent => {
                let remainder = self.ns2_null_samples(now - prev);
                (d as f64 * 1e9 / remainder as f64, remainder)
            }
        };
        self.filter.update(sample, interval);
        self.last_ack_ns = Some(now);
        self.last_step_ns = now;
        self.pending_bytes = 0;
    }

    /// Faster recovery, Sec. 3.1 (n duplicate ACKs) and Sec. 3.2 (coarse timeout).
    fn on_loss(&mut self, w: &Window, _flight_bytes: u64, signal: LossSignal, now_ns: u64) -> Reduction {
        if self.silence == SilenceRule::WholeSilence {
            self.fold_in_silence(self.clock(now_ns));
        }
        let divisor = self.timeout_divisor(w, signal);
        let ssthresh = bwe_window_bytes(self.filter.estimate(), self.min_rtt_ns, self.mss_bytes);
        let clamped = w.cwnd_bytes.min(ssthresh);
        match signal {
            // ns-3 `TcpWestwood`: `DupAck` clamps cwnd to ssthresh only if larger and does not
            // inflate it by the n duplicate ACKs; `NewAck` leaves recovery with cwnd =
            // ssthresh (the recovery default), raising a smaller window.
            LossSignal::DuplicateAcks if self.ns3_fast_recovery => {
                Reduction { ssthresh_bytes: ssthresh, cwnd_bytes: None, entry_cwnd_bytes: Some(clamped) }
            }
            // "if (cwin > ssthresh) cwin = ssthresh", then Reno's fast recovery from there.
            LossSignal::DuplicateAcks => {
                Reduction { ssthresh_bytes: ssthresh, cwnd_bytes: Some(clamped), entry_cwnd_bytes: None }
            }
            // "cwin = 1": the sender's default after a timeout; the ns-2 agent divides by fr_a_.
            LossSignal::Timeout => Reduction {
                ssthresh_bytes: bwe_window_bytes(self.filter.estimate() / divisor, self.min_rtt_ns, self.mss_bytes),
                cwnd_bytes: None,
                entry_cwnd_bytes: None,
            },
        }
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

    fn westwood(tau_ns: u64, m: u32, filter: WestwoodFilter, sample_tick_ns: u64) -> Westwood {
        let cfg = WestwoodConfig {
            tau_ns,
            null_sample_divisor: m,
            filter,
            ns3_fast_recovery: false,
            sample_tick_ns,
            acked_count: AckedCountRule::Paper,
            silence: SilenceRule::WholeSilence,
            timeout_divisor: false,
        };
        Westwood::new(&cfg, 1250)
    }

    fn tustin() -> Westwood {
        // τ = 0.5 s, m = 2 (null samples every 250 ms), 1250-byte segments.
        westwood(500 * MS, 2, WestwoodFilter::Tustin {}, 0)
    }

    fn ack(w: &mut Westwood, now_ns: u64, acked_bytes: u64) {
        w.on_ack(&AckSample {
            now_ns,
            ack: 0,
            snd_nxt: 0,
            acked_bytes,
            duplicate: false,
            rtt_ns: Some(105 * MS),
            oldest_rtt_ns: None,
            ece: false,
        });
    }

    fn dupack(w: &mut Westwood, now_ns: u64) {
        w.on_ack(&AckSample {
            now_ns,
            ack: 0,
            snd_nxt: 0,
            acked_bytes: 0,
            duplicate: true,
            rtt_ns: None,
            oldest_rtt_ns: None,
            ece: false,
        });
    }

    /// One 1250-byte segment acknowledged every 10 ms: B = 125 000 bytes/s (1 Mb/s).
    const B: f64 = 125_000.0;

    fn close(a: f64, b: f64, rel: f64) -> bool {
        (a - b).abs() <= rel * b.abs().max(1e-12)
    }

    #[test]
    fn tustin_step_response_is_the_hand_worked_first_order_lag() {
        // Δ = 10 ms, τ = 500 ms: α = (1000 − 10)/(1000 + 10) = 99/101. The first ACK (t = 0)
        // starts the clock; the first sample gives b̂_1 = (1 − α)/2·(B + 0) = B/101, and then
        // the error e_k = B − b̂_k obeys e_k = α·e_{k−1}, so e_k = B·(100/101)·(99/101)^(k−1).
        let mut w = tustin();
        ack(&mut w, 0, 1250);
        ack(&mut w, 10 * MS, 1250);
        assert!(close(w.bwe_bytes_per_s(), B / 101.0, 1e-12));
        for k in 2..=100u64 {
            ack(&mut w, k * 10 * MS, 1250);
        }
        let e100 = B * (100.0 / 101.0) * (99.0f64 / 101.0).powi(99);
        assert!(close(B - w.bwe_bytes_per_s(), e100, 1e-9));
        // A first-order lag with time constant τ: after 1 s = 2τ about e^−2 of the step remains.
        assert!(close(e100 / B, (-2.0f64).exp(), 0.03), "{}", e100 / B);
    }

    #[test]
    fn delayed_acks_do_not_bias_the_estimate() {
        // The same 1 Mb/s, acknowledged per segment every 10 ms or per two segments every
        // 20 ms (AckedCount counts both segments of a delayed ACK); α_k follows Δ_k.
        let (mut one, mut two) = (tustin(), tustin());
        for k in 0..=500u64 {
            ack(&mut one, k * 10 * MS, 1250);
            if k % 2 == 0 {
                ack(&mut two, k * 10 * MS, 2500);
            }
        }
        assert!(close(one.bwe_bytes_per_s(), B, 1e-3));
        assert!(close(two.bwe_bytes_per_s(), B, 1e-3));
    }

    #[test]
    fn duplicate_acks_keep_the_estimate_as_if_nothing_was_lost() {
        // Segment 21 lost: the arrivals of 22, 23, 24 produce duplicate ACKs (one segment
        // each); the retransmission of 21 brings the cumulative ACK of 21..24 (4 segments),
        // of which AckedCount credits only the one the duplicates did not count.
        let (mut clean, mut lossy) = (tustin(), tustin());
        for k in 0..=40u64 {
            ack(&mut clean, k * 10 * MS, 1250);
            match k {
                21..=23 => dupack(&mut lossy, k * 10 * MS),
                24 => ack(&mut lossy, k * 10 * MS, 4 * 1250),
                _ => ack(&mut lossy, k * 10 * MS, 1250),
            }
        }
        assert_eq!(lossy.acked.accounted_bytes, 0);
        assert!(close(lossy.bwe_bytes_per_s(), clean.bwe_bytes_per_s(), 1e-12));
    }

    #[test]
    fn silence_decays_the_estimate_through_virtual_null_samples() {
        let mut w = tustin();
        for k in 0..=1000u64 {
            ack(&mut w, k * 10 * MS, 1250);
        }
        let before = w.bwe_bytes_per_s();
        assert!(close(before, B, 1e-6));
        // The next ACK comes 1.1 s after the last one (t = 10 s). Virtual samples at 10.25,
        // 10.5, 10.75 and 11.0 s (τ/m = 250 ms, α = (2m−1)/(2m+1) = 3/5): the first averages
        // with the last real sample B, b̂ = 3/5·b̂ + (0 + B)/5; the next three multiply by 3/5.
        // Then the real ACK: b = 1250 B/1.1 s, Δ = 0.1 s, α = (1 − 0.1)/(1 + 0.1) = 9/11.
        ack(&mut w, 11_100 * MS, 1250);
        let virtual_part = (0.6 * before + B / 5.0) * 0.6f64.powi(3);
        // (1 − α)/2·(b + 0) = b/11: the last "sample" before it was virtual (0).
        let expected = 9.0 / 11.0 * virtual_part + (1250.0 / 1.1) / 11.0;
        assert!(close(w.bwe_bytes_per_s(), expected, 1e-12), "{} vs {expected}", w.bwe_bytes_per_s());
        assert!(w.bwe_bytes_per_s() < 0.2 * B);
    }

    #[test]
    fn a_timeout_folds_in_the_silence_before_computing_ssthresh() {
        let mut w = tustin();
        for k in 0..=1000u64 {
            ack(&mut w, k * 10 * MS, 1250);
        }
        let b = w.bwe_bytes_per_s();
        // A timeout 0.6 s after the last ACK: virtual samples at +0.25 and +0.5 s,
        // b̂ = (3/5·b̂ + B/5)·3/5 ≈ 0.48·B.
        let win = Window {
            cwnd_bytes: 50 * 1250,
            ssthresh_bytes: 1 << 30,
            mss_bytes: 1250,
            ca_credit: 0,
            ca_increment: CaIncrement::Exact,
        };
        let r = w.on_loss(&win, 0, LossSignal::Timeout, 10_600 * MS);
        let decayed = (0.6 * b + B / 5.0) * 0.6;
        assert!(close(w.bwe_bytes_per_s(), decayed, 1e-12));
        // ⌊BWE·RTTmin/seg⌋ = ⌊0.48·125000·0.105/1250⌋ = ⌊5.04⌋ = 5 segments; cwnd = 1 (default).
        assert_eq!(r, Reduction { ssthresh_bytes: 5 * 1250, cwnd_bytes: None, entry_cwnd_bytes: None });
    }

    #[test]
    fn without_virtual_samples_silence_does_not_change_the_estimate() {
        let mut w = westwood(500 * MS, 0, WestwoodFilter::TustinFixed { alpha: 0.9 }, 0);
        for k in 0..=300u64 {
            ack(&mut w, k * 10 * MS, 1250);
        }
        let b = w.bwe_bytes_per_s();
        let win = Window {
            cwnd_bytes: 50 * 1250,
            ssthresh_bytes: 1 << 30,
            mss_bytes: 1250,
            ca_credit: 0,
            ca_increment: CaIncrement::Exact,
        };
        w.on_loss(&win, 0, LossSignal::Timeout, 100_000 * MS);
        assert_eq!(w.bwe_bytes_per_s(), b);
    }

    #[test]
    fn faster_recovery_sets_ssthresh_to_bwe_times_rtt_min_and_clamps_cwnd_only_if_larger() {
        let mut w = tustin();
        for k in 0..=1000u64 {
            ack(&mut w, k * 10 * MS, 1250);
        }
        // RTTmin = 105 ms: BWE·RTTmin ≈ 125 000·0.105 = 13 125 bytes = 10.5 segments → 10.
        let ideal = 10 * 1250;
        let big = Window {
            cwnd_bytes: 30 * 1250,
            ssthresh_bytes: 1 << 30,
            mss_bytes: 1250,
            ca_credit: 0,
            ca_increment: CaIncrement::Exact,
        };
        let r = w.on_loss(&big, 0, LossSignal::DuplicateAcks, 10_000 * MS);
        assert_eq!(r, Reduction { ssthresh_bytes: ideal, cwnd_bytes: Some(ideal), entry_cwnd_bytes: None });
        let small = Window { cwnd_bytes: 4 * 1250, ..big };
        let r = w.on_loss(&small, 0, LossSignal::DuplicateAcks, 10_000 * MS);
        assert_eq!(r, Reduction { ssthresh_bytes: ideal, cwnd_bytes: Some(4 * 1250), entry_cwnd_bytes: None });
        // ns-3: recovery starts from the smaller window, uninflated, and ends at ssthresh
        // (the recovery default), raising it.
        w.ns3_fast_recovery = true;
        let r = w.on_loss(&small, 0, LossSignal::DuplicateAcks, 10 * MS);
        assert_eq!(r, Reduction { ssthresh_bytes: ideal, cwnd_bytes: None, entry_cwnd_bytes: Some(4 * 1250) });
        let r = w.on_loss(&big, 0, LossSignal::DuplicateAcks, 10 * MS);
        assert_eq!(r, Reduction { ssthresh_bytes: ideal, cwnd_bytes: None, entry_cwnd_bytes: Some(ideal) });
    }

    #[test]
    fn without_an_estimate_ssthresh_is_two_segments() {
        let mut w = tustin();
        let win = Window {
            cwnd_bytes: 10 * 1250,
            ssthresh_bytes: 1 << 30,
            mss_bytes: 1250,
            ca_credit: 0,
            ca_increment: CaIncrement::Exact,
        };
        assert_eq!(w.on_loss(&win, 0, LossSignal::Timeout, MS).ssthresh_bytes, 2 * 1250);
        assert_eq!(w.on_loss(&win, 0, LossSignal::DuplicateAcks, MS).cwnd_bytes, Some(2 * 1250));
    }

    #[test]
    fn an_ecn_echo_sets_ssthresh_to_bwe_times_rtt_min() {
        let mut w = tustin();
        for k in 0..=1000u64 {
            ack(&mut w, k * 10 * MS, 1250);
        }
        let big = Window {
            cwnd_bytes: 30 * 1250,
            ssthresh_bytes: 1 << 30,
            mss_bytes: 1250,
            ca_credit: 0,
            ca_increment: CaIncrement::Exact,
        };
        // As after n duplicate ACKs: BWE·RTTmin = 10 segments, cwnd clamped to it.
        let ideal = 10 * 1250;
        let r = w.on_ecn(&big, 0, 10_000 * MS);
        assert_eq!(r, Reduction { ssthresh_bytes: ideal, cwnd_bytes: Some(ideal), entry_cwnd_bytes: None });
    }

    #[test]
    fn an_ack_at_the_same_instant_as_the_previous_one_is_carried_into_the_next_sample() {
        // Δ = 0 gives no rate: the second ACK at 50 ms is credited to the sample at 60 ms.
        let (mut same_instant, mut carried) = (tustin(), tustin());
        for k in 0..=10u64 {
            ack(&mut same_instant, k * 10 * MS, 1250);
            if k == 5 {
                ack(&mut same_instant, k * 10 * MS, 750);
            }
            ack(&mut carried, k * 10 * MS, if k == 6 { 2000 } else { 1250 });
        }
        assert_eq!(same_instant.bwe_bytes_per_s(), carried.bwe_bytes_per_s());
    }

    fn ns2_agent(timeout_divisor: bool) -> Westwood {
        let cfg = WestwoodConfig {
            tau_ns: 500 * MS,
            null_sample_divisor: 2,
            filter: WestwoodFilter::Tustin {},
            ns3_fast_recovery: false,
            sample_tick_ns: 0,
            acked_count: AckedCountRule::Ns2Agent,
            silence: SilenceRule::Ns2Agent,
            timeout_divisor,
        };
        Westwood::new(&cfg, 1250)
    }

    #[test]
    fn the_ns2_agent_samples_over_the_remainder_and_patches_short_ones() {
        // τ = 500 ms, null samples every 250 ms, 1250-byte segments, the clock from time 0.
        let mut w = ns2_agent(false);
        // t = 40 ms: Δ = 40 ms from time 0, no null sample; b = 1250/0.04 = 31 250 B/s and
        // α = (1000 − 40)/(1000 + 40) = 12/13, so b̂ = (1/26)·(31 250 + 0).
        ack(&mut w, 40 * MS, 1250);
        let mut expected = 31_250.0 / 26.0;
        assert!(close(w.bwe_bytes_per_s(), expected, 1e-12));
        // t = 560 ms: Δ = 520 ms = 2·250 + 20: two null samples (the first averages with the
        // last sample, 31 250), then b = 1250/0.02 = 62 500 over the 20 ms remainder, α = 49/51.
        ack(&mut w, 560 * MS, 1250);
        expected = (0.6 * expected + 31_250.0 / 5.0) * 0.6;
        expected = 49.0 / 51.0 * expected + (62_500.0 + 0.0) / 51.0;
        assert!(close(w.bwe_bytes_per_s(), expected, 1e-12));
        // t = 815 ms: Δ = 255 ms, a 5 ms remainder: no null sample, b = 1250/0.25 = 5000 over
        // τ/2, α = 3/5.
        ack(&mut w, 815 * MS, 1250);
        expected = 0.6 * expected + (5000.0 + 62_500.0) / 5.0;
        assert!(close(w.bwe_bytes_per_s(), expected, 1e-12));
    }

    #[test]
    fn the_ns2_agent_divides_a_timeouts_ssthresh_in_slow_start_and_keeps_a_stale_estimate() {
        let mut w = ns2_agent(true);
        for k in 0..=1000u64 {
            ack(&mut w, k * 10 * MS, 1250);
        }
        let b = w.bwe_bytes_per_s();
        assert!(close(b, B, 1e-3));
        // BWE·RTTmin = 125 000·0.105/1250 = 10.5 segments. A timeout 0.6 s after the last ACK
        // reads the estimate of that ACK (no null samples on a loss).
        let slow_start = Window {
            cwnd_bytes: 4 * 1250,
            ssthresh_bytes: 1 << 30,
            mss_bytes: 1250,
            ca_credit: 0,
            ca_increment: CaIncrement::Exact,
        };
        let ssthresh = |r: Reduction| r.ssthresh_bytes / 1250;
        // In slow start a = 1 + 1 = 2: ⌊10.5/2⌋ = 5; again: a = 3, ⌊3.5⌋ = 3.
        assert_eq!(ssthresh(w.on_loss(&slow_start, 0, LossSignal::Timeout, 10_600 * MS)), 5);
        assert_eq!(w.bwe_bytes_per_s(), b);
        assert_eq!(ssthresh(w.on_loss(&slow_start, 0, LossSignal::Timeout, 11_600 * MS)), 3);
        // A fast retransmit in slow start adds 1/4 (its own ssthresh is not divided): a = 3.25,
        // then a timeout: a = 4 (the cap), ⌊10.5/4⌋ = 2.
        assert_eq!(ssthresh(w.on_loss(&slow_start, 0, LossSignal::DuplicateAcks, 11_700 * MS)), 10);
        assert_eq!(ssthresh(w.on_loss(&slow_start, 0, LossSignal::Timeout, 12_600 * MS)), 2);
        // In congestion avoidance a = 1.
        let avoidance = Window { ssthresh_bytes: 4 * 1250, ..slow_start };
        assert_eq!(ssthresh(w.on_loss(&avoidance, 0, LossSignal::Timeout, 13_600 * MS)), 10);
    }

    #[test]
    fn a_ten_ms_sampling_clock_times_bunched_acks_together() {
        // Two 1250-byte segments acknowledged 0.1 ms apart every 10 ms (a bunched ACK pair at
        // 250 000 B/s on average), the pairs straddling no tick boundary. On the exact clock the
        // trapezoid feeds the 12.5 MB/s sample of each pair's second ACK into the next step
        // and over-counts; on a 10 ms clock (Linux 2.2 jiffies) both ACKs read the same tick,
        // join one sample, and the estimate is the true rate.
        let run = |tick_ns| {
            let mut w = westwood(500 * MS, 2, WestwoodFilter::Tustin {}, tick_ns);
            for k in 0..=500u64 {
                ack(&mut w, k * 10 * MS + MS, 1250);
                ack(&mut w, k * 10 * MS + MS + MS / 10, 1250);
            }
            w.bwe_bytes_per_s()
        };
        let (exact, ticked) = (run(0), run(10 * MS));
        assert!(exact > 3.0 * 250_000.0, "{exact}");
        assert!(close(ticked, 250_000.0, 0.01), "{ticked}");
    }
}
