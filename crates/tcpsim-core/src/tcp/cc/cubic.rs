//! CUBIC congestion control, RFC 9438 (Xu, Ha, Rhee, Goel, Eggert 2023; the algorithm of
//! Ha, Rhee & Xu, "CUBIC: A New TCP-Friendly High-Speed TCP Variant", SIGOPS OSR 2008).
//!
//! Windows in the RFC's formulas are in segments (SMSS); here they are `f64` segments derived
//! from the byte window (`cwnd_bytes / SMSS`), and time is the engine's integer ns converted to
//! seconds. Every rule below names the section or equation it implements.
//!
//! - Window growth (§4.2, eqs. 1–2): W_cubic(t) = C·(t − K)³ + W_max with
//!   K = ∛((W_max − cwnd_epoch)/C), t the time since the congestion-avoidance stage began
//!   (t_epoch: the first ACK that grows the window in congestion avoidance after a reduction
//!   or after slow start) and cwnd_epoch the window then. C = 0.4, β_cubic = 0.7 (§4.6).
//! - Concave and convex regions (§4.4, §4.5, same rule): on each ACK the target is
//!   W_cubic(t + RTT) bounded to [cwnd, 1.5·cwnd], and cwnd grows by (target − cwnd)/cwnd
//!   (per segment acknowledged by default, `CubicCount`). RTT is the smoothed RTT as the RFC
//!   says (an RFC 6298 α = 1/8 average of the ACKs' samples) or, as Linux and ns-3 do
//!   (`delay_min`), the smallest sample (`CubicRtt`).
//! - Reno-friendly region (§4.3): W_est starts at cwnd_epoch and grows by
//!   α_cubic·segments_acked/cwnd per ACK, α_cubic = 3(1 − β)/(1 + β) until W_est reaches
//!   cwnd_prior (the window when ssthresh was last set), then 1. When W_cubic(t) < W_est the
//!   window is set to W_est; here it is never lowered by that rule (cwnd = max(cwnd, W_est)).
//! - Multiplicative decrease (§4.6): ssthresh = max(β·W, 2·SMSS), W the window the sender
//!   hands over (`TcpConfig::ssthresh_from`: cwnd as Linux, or FlightSize as the RFC's
//!   `flight_size`); cwnd_prior = cwnd. The window to restart from is the recovery algorithm's
//!   own (ssthresh for fast recovery, one segment after a timeout: RFC 5681, as §4.8 says).
//! - Fast convergence (§4.7): W_max = cwnd·(1 + β)/2 if cwnd < the previous W_max, else cwnd.
//! - Timeout (§4.8): ssthresh as in §4.6; the first congestion-avoidance stage afterwards uses
//!   K = 0 and W_max = W_est = cwnd_epoch. The same holds before the first loss (§4.10: "W_max
//!   is undefined"). A timeout the sender does not hand to the controller (one inside a loss
//!   episode already reduced, `TimeoutSsthresh::FirstOfEpisode`, as Linux's `tcp_enter_loss`)
//!   is recognised by the window having shrunk without a reduction being asked for, and gets
//!   the same restart, as Linux's `CA_EVENT_LOSS` resets CUBIC's state on every timeout.
//! - ECN (§4.6): an ECN-Echo gets the loss answer (the trait's default `on_ecn`).
//! - Slow start: RFC 5681's ([`super::aimd`]), as the engine's other controllers; optionally
//!   with HyStart++ (RFC 9406, which §4.10 recommends; `hystart`, off by default as the
//!   engine's other controllers have none — Linux runs its older HyStart, ns-3.44 too, both on
//!   by default). HyStart++ as RFC 9406 §4.2 in the initial slow start only (§4.3: "SHOULD be
//!   used only in the initial slow start"): per round (an ACK at or beyond the `snd_nxt` of the
//!   round's start) the minimum of the ACKs' RTT samples; once a round has N_RTT_SAMPLE = 8
//!   samples and its minimum exceeds the previous round's by RttThresh = clamp(lastRoundMinRTT/8,
//!   4 ms, 16 ms), Conservative Slow Start (CSS): growth divided by CSS_GROWTH_DIVISOR = 4; back
//!   to slow start if a CSS round's minimum (8 samples) falls below the baseline; after
//!   CSS_ROUNDS = 5 rounds, congestion avoidance with ssthresh = cwnd. A loss ends it. L is
//!   infinite (no pacing), so the slow-start step is the engine's min(N, SMSS) per ACK and CSS
//!   adds a quarter of it, fractions carried.
//!
//! Not modelled: §4.9 spurious-congestion undo (the engine has no undo), the application-
//! limited and idle-restart rules (Linux's `CA_EVENT_TX_START`). The cube root and the
//! polynomial are `f64` (`f64::cbrt`, deterministic on one platform); Linux computes K with a
//! fixed-point cube root in 1/1024-s units and W_cubic in segments with integer arithmetic,
//! which rounds differently by a fraction of a segment.
//!
//! State: `w_max`, `cwnd_prior`, `cwnd_epoch` and `w_est` (segments, f64), `k_s` (seconds),
//! `epoch_start_ns`, `srtt_ns` and `min_rtt_ns` (ns), `last_ack_ns` (ns); HyStart++'s round
//! end (bytes), round minima (ns), sample and round counts.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{aimd, AckSample, CcParameters, CongestionOps, LossSignal, Reduction, Window};

/// CUBIC's parameters (RFC 9438 §4). Defaults users get are set in the scenario layer
/// (`CubicCc` in `tcpsim.scenario.tcp`).
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct CubicConfig {
    /// C, segments/s³: the aggressiveness of the cubic function, > 0. RFC 9438: 0.4 (Linux
    /// and ns-3.44 the same).
    pub c: f64,
    /// β_cubic: multiplicative decrease factor, in (0, 1). RFC 9438 §4.6: 0.7 (Linux
    /// 717/1024).
    pub beta: f64,
    /// §4.7 fast convergence: a flow whose window peaks below its previous W_max releases
    /// bandwidth by lowering W_max to cwnd·(1 + β)/2. RFC 9438 and Linux: on.
    pub fast_convergence: bool,
    /// §4.3 Reno-friendly region (Linux `tcp_friendliness`): on in the RFC, Linux and ns-3.44.
    pub reno_friendly: bool,
    /// The RTT in the target W_cubic(t + RTT) (§4.4).
    pub target_rtt: CubicRtt,
    /// What one ACK's growth counts (§4.3, §4.4).
    pub count: CubicCount,
    /// HyStart++ (RFC 9406) in the initial slow start. Off by default (tcpsim's slow start is
    /// RFC 5681's for every controller); RFC 9438 §4.10 recommends it.
    pub hystart: bool,
}

/// The RTT of the target W_cubic(t + RTT) (`CubicConfig::target_rtt`).
#[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum CubicRtt {
    /// The smoothed RTT (RFC 9438 §4.4: "RTT is the smoothed round-trip time"), an RFC 6298
    /// α = 1/8 average of the ACKs' samples.
    Smoothed,
    /// The smallest RTT sample of the connection (Linux and ns-3 `delay_min`).
    Min,
}

/// What one ACK's growth counts (`CubicConfig::count`).
#[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum CubicCount {
    /// (target − cwnd)/cwnd and α/cwnd per segment acknowledged (§4.3's `segments_acked`;
    /// Linux `tcp_cong_avoid_ai` and ns-3 `TcpCubic::IncreaseWindow` count segments).
    Segments,
    /// Once per ACK whatever it acknowledges (§4.4's "for each received new ACK" read
    /// literally; with delayed ACKs the window lags the cubic function).
    Ack,
}

impl CcParameters for CubicConfig {
    /// Check the parameters; errors are `<field>: message` (what was given, what is allowed).
    fn validate(&self) -> Result<(), String> {
        if !(self.c.is_finite() && self.c > 0.0) {
            return Err(format!("c: {} must be > 0 (segments/s³; RFC 9438: 0.4)", self.c));
        }
        if !(self.beta > 0.0 && self.beta < 1.0) {
            return Err(format!("beta: {} must be in (0, 1) (RFC 9438: 0.7)", self.beta));
        }
        Ok(())
    }
}

/// RFC 9406 §4.3's constants.
const MIN_RTT_THRESH_NS: u64 = 4_000_000;
const MAX_RTT_THRESH_NS: u64 = 16_000_000;
const MIN_RTT_DIVISOR: u64 = 8;
const N_RTT_SAMPLE: u32 = 8;
const CSS_GROWTH_DIVISOR: u64 = 4;
const CSS_ROUNDS: u32 = 5;

/// HyStart++ (RFC 9406 §4.2) state.
#[derive(Default)]
struct HyStart {
    /// The initial slow start has ended (loss, CSS_ROUNDS, or ssthresh reached).
    done: bool,
    /// windowEnd: the round ends with the ACK that covers it.
    window_end: Option<u64>,
    last_round_min_rtt_ns: Option<u64>,
    current_round_min_rtt_ns: Option<u64>,
    rtt_sample_count: u32,
    /// In CSS since the round whose minimum was this (cssBaselineMinRtt).
    css_baseline_min_rtt_ns: Option<u64>,
    css_rounds: u32,
    /// CSS_ROUNDS rounds done: the next growth sets ssthresh = cwnd.
    enter_ca: bool,
    /// Fraction of CSS growth carried, in bytes·CSS_GROWTH_DIVISOR.
    css_credit: u64,
}

impl HyStart {
    /// One ACK's bookkeeping and the RFC 9406 §4.2 decisions (while the initial slow start runs).
    fn on_ack(&mut self, ack: &AckSample) {
        if ack.duplicate {
            return;
        }
        if self.window_end.is_none_or(|end| ack.ack >= end) {
            // A new round.
            self.last_round_min_rtt_ns = self.current_round_min_rtt_ns;
            self.current_round_min_rtt_ns = None;
            self.rtt_sample_count = 0;
            self.window_end = Some(ack.snd_nxt);
            if self.css_baseline_min_rtt_ns.is_some() {
                self.css_rounds += 1;
                if self.css_rounds >= CSS_ROUNDS {
                    self.enter_ca = true;
                }
            }
        }
        let Some(rtt) = ack.rtt_ns else { return };
        let current = self.current_round_min_rtt_ns.map_or(rtt, |m| m.min(rtt));
        self.current_round_min_rtt_ns = Some(current);
        self.rtt_sample_count += 1;
        if self.rtt_sample_count < N_RTT_SAMPLE {
            return;
        }
        match self.css_baseline_min_rtt_ns {
            None => {
                let Some(last) = self.last_round_min_rtt_ns else { return };
                let thresh = (last / MIN_RTT_DIVISOR).clamp(MIN_RTT_THRESH_NS, MAX_RTT_THRESH_NS);
                if current >= last + thresh {
                    self.css_baseline_min_rtt_ns = Some(current);
                    self.css_rounds = 0;
                }
            }
            Some(baseline) if current < baseline => {
                // The delay increase was spurious: back to slow start.
                self.css_baseline_min_rtt_ns = None;
                self.css_rounds = 0;
            }
            Some(_) => {}
        }
    }

    /// Slow-start growth for an ACK of `acked_bytes`: RFC 5681's, a quarter of it in CSS.
    fn increase_window(&mut self, w: &mut Window, acked_bytes: u64) {
        if self.css_baseline_min_rtt_ns.is_none() {
            aimd::increase_window(w, acked_bytes);
            return;
        }
        self.css_credit += acked_bytes.min(w.mss_bytes);
        let inc = self.css_credit / CSS_GROWTH_DIVISOR;
        self.css_credit -= inc * CSS_GROWTH_DIVISOR;
        w.cwnd_bytes += inc;
    }
}

pub struct Cubic {
    c: f64,
    beta: f64,
    fast_convergence: bool,
    reno_friendly: bool,
    target_rtt: CubicRtt,
    count: CubicCount,
    /// HyStart++ state; None when disabled.
    hystart: Option<HyStart>,
    mss_bytes: u64,
    /// W_max, segments; None: undefined (before the first loss, after a timeout).
    w_max: Option<f64>,
    /// cwnd_prior, segments: the window when ssthresh was last set (§4.6).
    cwnd_prior: f64,
    /// Start of the congestion-avoidance stage (t_epoch), None until its first ACK.
    epoch_start_ns: Option<u64>,
    /// cwnd_epoch and W_max of the stage, segments, and K (s).
    cwnd_epoch: f64,
    epoch_w_max: f64,
    k_s: f64,
    /// W_est, segments (§4.3).
    w_est: f64,
    /// The time of the latest ACK (ns): `increase_window` has no clock.
    last_ack_ns: u64,
    srtt_ns: Option<u64>,
    min_rtt_ns: Option<u64>,
    /// cwnd after the last growth, and whether a reduction was asked for since: a smaller
    /// window without one is a timeout the controller was not told of.
    last_cwnd_bytes: u64,
    reduced_since_growth: bool,
}

impl Cubic {
    pub fn new(cfg: &CubicConfig, mss_bytes: u64) -> Self {
        Cubic {
            c: cfg.c,
            beta: cfg.beta,
            fast_convergence: cfg.fast_convergence,
            reno_friendly: cfg.reno_friendly,
            target_rtt: cfg.target_rtt,
            count: cfg.count,
            hystart: cfg.hystart.then(HyStart::default),
            mss_bytes,
            w_max: None,
            cwnd_prior: 0.0,
            epoch_start_ns: None,
            cwnd_epoch: 0.0,
            epoch_w_max: 0.0,
            k_s: 0.0,
            w_est: 0.0,
            last_ack_ns: 0,
            srtt_ns: None,
            min_rtt_ns: None,
            last_cwnd_bytes: 0,
            reduced_since_growth: false,
        }
    }

    /// W_cubic(t) of the current stage, segments (eq. 1).
    fn w_cubic(&self, t_s: f64) -> f64 {
        let d = t_s - self.k_s;
        self.c * d * d * d + self.epoch_w_max
    }

    /// The RTT of the target (§4.4), seconds; 0 before the first sample.
    fn rtt_s(&self) -> f64 {
        let rtt = match self.target_rtt {
            CubicRtt::Smoothed => self.srtt_ns,
            CubicRtt::Min => self.min_rtt_ns,
        };
        rtt.unwrap_or(0) as f64 * 1e-9
    }

    /// Open a congestion-avoidance stage at `now_ns` with window `cwnd` segments (§4.2;
    /// §4.8 and §4.10 when W_max is undefined).
    fn start_epoch(&mut self, now_ns: u64, cwnd: f64) {
        self.epoch_start_ns = Some(now_ns);
        self.cwnd_epoch = cwnd;
        self.w_est = cwnd;
        match self.w_max {
            Some(w_max) => {
                self.epoch_w_max = w_max;
                // eq. 2; W_max < cwnd_epoch gives K < 0 and still W_cubic(0) = cwnd_epoch.
                self.k_s = ((w_max - cwnd) / self.c).cbrt();
            }
            None => {
                // §4.8 / §4.10: K = 0, W_max = cwnd_epoch (and cwnd_prior = cwnd if unset).
                self.epoch_w_max = cwnd;
                self.k_s = 0.0;
                if self.cwnd_prior <= 0.0 {
                    self.cwnd_prior = cwnd;
                }
            }
        }
    }

    /// Congestion avoidance for one ACK of `acked_bytes` (§4.3–§4.5).
    fn congestion_avoidance(&mut self, w: &mut Window, acked_bytes: u64) {
        let mss = self.mss_bytes as f64;
        let now = self.last_ack_ns;
        if self.epoch_start_ns.is_none() {
            self.start_epoch(now, w.cwnd_bytes as f64 / mss);
        }
        let cwnd = w.cwnd_bytes as f64 / mss;
        let t = now.saturating_sub(self.epoch_start_ns.unwrap_or(now)) as f64 * 1e-9;
        // Units of growth this ACK counts: segments acknowledged, or one ACK.
        let (units_seg, units_bytes) = match self.count {
            CubicCount::Segments => (acked_bytes as f64 / mss, acked_bytes),
            CubicCount::Ack => (1.0, self.mss_bytes),
        };
        if self.reno_friendly {
            // §4.3: α_cubic = 3(1 − β)/(1 + β) until W_est ≥ cwnd_prior, then 1.
            let alpha = if self.w_est >= self.cwnd_prior { 1.0 } else { 3.0 * (1.0 - self.beta) / (1.0 + self.beta) };
            self.w_est += alpha * units_seg / cwnd;
            if self.w_cubic(t) < self.w_est {
                let est_bytes = (self.w_est * mss) as u64;
                if est_bytes > w.cwnd_bytes {
                    w.cwnd_bytes = est_bytes;
                    w.ca_credit = 0;
                }
                return;
            }
        }
        // §4.4: target = W_cubic(t + RTT) bounded to [cwnd, 1.5·cwnd].
        let target = self.w_cubic(t + self.rtt_s()).clamp(cwnd, 1.5 * cwnd);
        let target_bytes = ((target * mss) as u64).max(w.cwnd_bytes);
        // cwnd += (target − cwnd)/cwnd per unit, in bytes with the fraction carried (u128: a
        // product of two byte counts).
        let credit = (target_bytes - w.cwnd_bytes) as u128 * units_bytes as u128 + w.ca_credit as u128;
        let cwnd = w.cwnd_bytes as u128;
        w.ca_credit = (credit % cwnd) as u64;
        w.cwnd_bytes = w.cwnd_bytes.saturating_add(u64::try_from(credit / cwnd).unwrap_or(u64::MAX));
    }
}

impl CongestionOps for Cubic {
    fn on_ack(&mut self, ack: &AckSample) {
        self.last_ack_ns = ack.now_ns;
        if let Some(hs) = self.hystart.as_mut().filter(|hs| !hs.done) {
            hs.on_ack(ack);
        }
        if let Some(r) = ack.rtt_ns {
            self.min_rtt_ns = Some(self.min_rtt_ns.map_or(r, |m| m.min(r)));
            // RFC 6298 §2.2–2.3: SRTT = 7/8·SRTT + 1/8·R, the first sample taken as it is.
            self.srtt_ns = Some(self.srtt_ns.map_or(r, |s| s - s / 8 + r / 8));
        }
    }

    fn increase_window(&mut self, w: &mut Window, acked_bytes: u64) {
        if !self.reduced_since_growth && w.cwnd_bytes < self.last_cwnd_bytes {
            // A timeout the sender did not hand over (§4.8, Linux `CA_EVENT_LOSS`).
            self.w_max = None;
            self.epoch_start_ns = None;
        }
        self.reduced_since_growth = false;
        if let Some(hs) = self.hystart.as_mut().filter(|hs| !hs.done) {
            if hs.enter_ca {
                // RFC 9406 §4.2: CSS_ROUNDS rounds of CSS, then congestion avoidance.
                w.ssthresh_bytes = w.cwnd_bytes;
            }
            if w.cwnd_bytes < w.ssthresh_bytes {
                hs.increase_window(w, acked_bytes);
                self.last_cwnd_bytes = w.cwnd_bytes;
                return;
            }
            hs.done = true;
        }
        if w.cwnd_bytes < w.ssthresh_bytes {
            aimd::increase_window(w, acked_bytes);
        } else {
            self.congestion_avoidance(w, acked_bytes);
        }
        self.last_cwnd_bytes = w.cwnd_bytes;
    }

    /// §4.6 multiplicative decrease, §4.7 fast convergence, §4.8 timeout.
    fn on_loss(&mut self, w: &Window, flight_bytes: u64, signal: LossSignal, _now_ns: u64) -> Reduction {
        let mss = self.mss_bytes as f64;
        let cwnd = w.cwnd_bytes as f64 / mss;
        self.reduced_since_growth = true;
        if let Some(hs) = self.hystart.as_mut() {
            hs.done = true; // RFC 9406 §4.2: a loss ends slow start and CSS for good.
        }
        self.epoch_start_ns = None;
        self.cwnd_prior = cwnd;
        self.w_max = match signal {
            LossSignal::Timeout => None,
            LossSignal::DuplicateAcks => Some(match self.w_max {
                Some(prev) if self.fast_convergence && cwnd < prev => cwnd * (1.0 + self.beta) / 2.0,
                _ => cwnd,
            }),
        };
        let ssthresh = ((flight_bytes as f64 * self.beta) as u64).max(2 * self.mss_bytes);
        Reduction::ssthresh(ssthresh)
    }

    fn rtt_estimate_ns(&self) -> Option<u64> {
        match self.target_rtt {
            CubicRtt::Smoothed => self.srtt_ns,
            CubicRtt::Min => self.min_rtt_ns,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::CaIncrement;

    const MS: u64 = 1_000_000;
    const MSS: u64 = 1000;

    fn rfc() -> CubicConfig {
        CubicConfig {
            c: 0.4,
            beta: 0.7,
            fast_convergence: true,
            reno_friendly: true,
            target_rtt: CubicRtt::Min,
            count: CubicCount::Segments,
            hystart: false,
        }
    }

    fn window(cwnd: u64, ssthresh: u64) -> Window {
        Window {
            cwnd_bytes: cwnd,
            ssthresh_bytes: ssthresh,
            mss_bytes: MSS,
            ca_credit: 0,
            ca_increment: CaIncrement::Exact,
        }
    }

    fn ack(c: &mut Cubic, now_ns: u64, rtt_ns: Option<u64>) {
        c.on_ack(&AckSample {
            now_ns,
            ack: 0,
            snd_nxt: 0,
            acked_bytes: MSS,
            duplicate: false,
            rtt_ns,
            oldest_rtt_ns: None,
            ece: false,
        });
    }

    /// Loss at cwnd = 100 segments: ssthresh = 70 segments, W_max = 100, cwnd_prior = 100.
    fn after_loss_at_100(cfg: &CubicConfig) -> (Cubic, Window) {
        let mut c = Cubic::new(cfg, MSS);
        ack(&mut c, 0, Some(100 * MS));
        let w = window(100_000, 50_000);
        let r = c.on_loss(&w, 100_000, LossSignal::DuplicateAcks, 0);
        assert_eq!(r, Reduction::ssthresh(70_000));
        (c, window(70_000, 70_000))
    }

    #[test]
    fn validate_names_the_field() {
        assert!(rfc().validate().is_ok());
        assert!(CubicConfig { beta: 1.0, ..rfc() }.validate().unwrap_err().starts_with("beta:"));
        assert!(CubicConfig { c: 0.0, ..rfc() }.validate().unwrap_err().starts_with("c:"));
        assert!(CubicConfig { c: f64::NAN, ..rfc() }.validate().unwrap_err().starts_with("c:"));
    }

    #[test]
    fn ssthresh_is_beta_times_the_window_but_at_least_two_segments() {
        let mut c = Cubic::new(&rfc(), MSS);
        let w = window(10_000, 50_000);
        // §4.6: 0.7 · 10 000 = 7000; from FlightSize 9000 when the sender hands that over.
        assert_eq!(c.on_loss(&w, 10_000, LossSignal::DuplicateAcks, 0).ssthresh_bytes, 7000);
        assert_eq!(c.on_loss(&w, 9000, LossSignal::DuplicateAcks, 0).ssthresh_bytes, 6300);
        // 0.7 · 2000 = 1400 < 2 SMSS.
        assert_eq!(c.on_loss(&window(2000, 2000), 2000, LossSignal::Timeout, 0).ssthresh_bytes, 2000);
    }

    #[test]
    fn k_is_the_cube_root_of_the_distance_to_w_max_over_c() {
        // eq. 2: K = ∛((100 − 70)/0.4) = ∛75 = 4.2171633… s.
        let (mut c, mut w) = after_loss_at_100(&rfc());
        ack(&mut c, 1000 * MS, None);
        c.increase_window(&mut w, MSS);
        assert_eq!(c.epoch_start_ns, Some(1000 * MS));
        assert!((c.k_s - 75f64.cbrt()).abs() < 1e-12, "{}", c.k_s);
        assert!((c.k_s - 4.217_163_3).abs() < 1e-6);
    }

    #[test]
    fn first_ack_of_the_epoch_grows_toward_w_cubic_of_t_plus_rtt() {
        // Without the Reno-friendly rule (at t = 0 W_est = 70 + α/70 is above W_cubic(0) = 70).
        // t = 0, RTT (min) = 100 ms: W_cubic(0.1) = 0.4·(0.1 − ∛75)³ + 100 = 72.0839 segments,
        // target 72 083 bytes (floored); cwnd += (72 083 − 70 000)·1000/70 000 = 29.76 → 29
        // bytes, 2 083 000 − 29·70 000 = 53 000 carried.
        let (mut c, mut w) = after_loss_at_100(&CubicConfig { reno_friendly: false, ..rfc() });
        ack(&mut c, 1000 * MS, None);
        c.increase_window(&mut w, MSS);
        let target = 0.4 * (0.1 - 75f64.cbrt()).powi(3) + 100.0;
        assert!((target - 72.0839).abs() < 1e-4, "{target}");
        assert_eq!(w.cwnd_bytes, 70_029);
        assert_eq!(w.ca_credit, 53_000);
    }

    #[test]
    fn the_target_is_capped_at_one_and_a_half_windows() {
        // Far in the convex region (t = 20 s ≫ K): W_cubic ≫ 1.5·cwnd, so one ACK of one
        // segment at cwnd = 80 segments adds (120 − 80)/80 = 0.5 segment = 500 bytes.
        let (mut c, mut w) = after_loss_at_100(&CubicConfig { reno_friendly: false, ..rfc() });
        ack(&mut c, 1000 * MS, None);
        c.increase_window(&mut w, MSS);
        w.cwnd_bytes = 80_000;
        w.ca_credit = 0;
        ack(&mut c, 21_000 * MS, None);
        c.increase_window(&mut w, MSS);
        assert_eq!(w.cwnd_bytes, 80_500);
    }

    #[test]
    fn w_cubic_reaches_w_max_at_k() {
        let (mut c, mut w) = after_loss_at_100(&rfc());
        ack(&mut c, 0, None);
        c.increase_window(&mut w, MSS);
        assert!((c.w_cubic(c.k_s) - 100.0).abs() < 1e-9);
        assert!((c.w_cubic(0.0) - 70.0).abs() < 1e-9, "W_cubic(0) = cwnd_epoch");
    }

    #[test]
    fn fast_convergence_lowers_w_max_when_the_peak_falls_short() {
        // §4.7: W_max = 100; next loss at 90 < 100: W_max = 90·(1 + 0.7)/2 = 76.5.
        let (mut c, _) = after_loss_at_100(&rfc());
        c.on_loss(&window(90_000, 70_000), 90_000, LossSignal::DuplicateAcks, 0);
        assert_eq!(c.w_max, Some(76.5));
        assert_eq!(c.cwnd_prior, 90.0);
        // Without fast convergence W_max = cwnd = 90; a peak above W_max always sets cwnd.
        let (mut c, _) = after_loss_at_100(&CubicConfig { fast_convergence: false, ..rfc() });
        c.on_loss(&window(90_000, 70_000), 90_000, LossSignal::DuplicateAcks, 0);
        assert_eq!(c.w_max, Some(90.0));
        let (mut c, _) = after_loss_at_100(&rfc());
        c.on_loss(&window(120_000, 70_000), 120_000, LossSignal::DuplicateAcks, 0);
        assert_eq!(c.w_max, Some(120.0));
    }

    #[test]
    fn reno_friendly_region_follows_w_est() {
        // Loss at cwnd = 10 segments: W_max = 10, cwnd = ssthresh = 7. First ACK of the stage
        // (t = 0): W_est = 7 + α·1/7 with α = 3·0.3/1.7 = 0.529412 → 7.075630 segments, above
        // W_cubic(0) = cwnd_epoch = 7: the Reno-friendly region, cwnd = ⌊7075.63⌋ = 7075 bytes.
        let mut c = Cubic::new(&rfc(), MSS);
        c.on_loss(&window(10_000, 50_000), 10_000, LossSignal::DuplicateAcks, 0);
        let mut w = window(7000, 7000);
        ack(&mut c, 0, Some(10 * MS));
        c.increase_window(&mut w, MSS);
        assert!((c.w_est - 7.075_630_25).abs() < 1e-8, "{}", c.w_est);
        assert_eq!(w.cwnd_bytes, 7075);
        // One second later W_cubic(1) = 0.4·(1 − ∛7.5)³ + 10 = 9.649 is far above W_est: the
        // cubic rule (target W_cubic(1.01) = 9.6598, cwnd += (9659 − 7075)·1000/7075 = 365).
        ack(&mut c, 1000 * MS, Some(10 * MS));
        c.increase_window(&mut w, MSS);
        let target = 0.4 * (1.01 - 7.5f64.cbrt()).powi(3) + 10.0;
        assert_eq!((target * 1000.0) as u64, 9659);
        assert_eq!(w.cwnd_bytes, 7075 + 365);
    }

    #[test]
    fn alpha_becomes_one_once_w_est_reaches_cwnd_prior() {
        let mut c = Cubic::new(&rfc(), MSS);
        c.on_loss(&window(10_000, 50_000), 10_000, LossSignal::DuplicateAcks, 0);
        let mut w = window(7000, 7000);
        ack(&mut c, 0, Some(10 * MS));
        c.increase_window(&mut w, MSS);
        c.w_est = 10.0; // = cwnd_prior
        w.cwnd_bytes = 10_000;
        ack(&mut c, 1, Some(10 * MS));
        c.increase_window(&mut w, MSS);
        assert!((c.w_est - 10.1).abs() < 1e-12, "α = 1: W_est += 1/10, {}", c.w_est);
    }

    #[test]
    fn timeout_restarts_with_k_zero_and_w_max_the_epoch_window() {
        // §4.8: after a timeout the next stage starts with K = 0, W_max = cwnd_epoch, so
        // W_cubic(t) = 0.4·t³ + cwnd_epoch.
        let (mut c, _) = after_loss_at_100(&rfc());
        let r = c.on_loss(&window(80_000, 70_000), 60_000, LossSignal::Timeout, 0);
        assert_eq!(r.ssthresh_bytes, 42_000);
        assert_eq!(c.w_max, None);
        let mut w = window(42_000, 42_000);
        ack(&mut c, 5000 * MS, None);
        c.increase_window(&mut w, MSS);
        assert_eq!(c.k_s, 0.0);
        assert_eq!(c.epoch_w_max, 42.0);
        assert!((c.w_est - (42.0 + 0.529_411_764_7 / 42.0)).abs() < 1e-9, "{}", c.w_est);
        assert_eq!(w.cwnd_bytes, 42_012, "Reno-friendly at t = 0");
    }

    #[test]
    fn a_timeout_not_handed_over_is_recognised_by_the_shrunk_window() {
        let (mut c, mut w) = after_loss_at_100(&rfc());
        ack(&mut c, 0, None);
        c.increase_window(&mut w, MSS);
        assert!(c.w_max.is_some());
        // The sender restarts from one segment without asking (timeout within the episode).
        let mut w = window(1000, 70_000);
        ack(&mut c, 1000 * MS, None);
        c.increase_window(&mut w, MSS);
        assert_eq!(c.w_max, None);
        assert_eq!(w.cwnd_bytes, 2000, "slow start");
    }

    #[test]
    fn slow_start_is_rfc_5681() {
        let mut c = Cubic::new(&rfc(), MSS);
        let mut w = window(2000, 1 << 30);
        ack(&mut c, 0, Some(MS));
        c.increase_window(&mut w, 2 * MSS);
        assert_eq!(w.cwnd_bytes, 3000);
        assert!(c.epoch_start_ns.is_none());
    }

    #[test]
    fn srtt_is_the_rfc_6298_average() {
        let mut c = Cubic::new(&CubicConfig { target_rtt: CubicRtt::Smoothed, ..rfc() }, MSS);
        ack(&mut c, 0, Some(80 * MS));
        ack(&mut c, 1, Some(160 * MS));
        assert_eq!(c.srtt_ns, Some(90 * MS));
        assert_eq!(c.min_rtt_ns, Some(80 * MS));
        assert_eq!(c.rtt_estimate_ns(), Some(90 * MS));
    }

    #[test]
    fn ack_counting_grows_once_per_ack_whatever_it_acknowledges() {
        // The first ACK of `first_ack_of_the_epoch…` acknowledging two segments: Segments counts
        // 2·29.76 = 59.5 → 59 bytes; Ack counts once, 29 bytes.
        for (count, grown) in [(CubicCount::Segments, 59), (CubicCount::Ack, 29)] {
            let (mut c, mut w) = after_loss_at_100(&CubicConfig { count, reno_friendly: false, ..rfc() });
            ack(&mut c, 1000 * MS, None);
            c.increase_window(&mut w, 2 * MSS);
            assert_eq!(w.cwnd_bytes, 70_000 + grown, "{count:?}");
        }
    }

    /// One new ACK as the sender delivers it: `on_ack`, then `increase_window`.
    fn step(c: &mut Cubic, w: &mut Window, now_ns: u64, ack: u64, snd_nxt: u64, rtt_ms: u64) {
        c.on_ack(&AckSample {
            now_ns,
            ack,
            snd_nxt,
            acked_bytes: MSS,
            duplicate: false,
            rtt_ns: Some(rtt_ms * MS),
            oldest_rtt_ns: None,
            ece: false,
        });
        c.increase_window(w, MSS);
    }

    /// HyStart++ (RFC 9406): a round of 8 samples at 100 ms, then a round whose minimum is
    /// 113 ms ≥ 100 + clamp(100/8, 4, 16) = 112.5 ms: CSS from its 8th sample on.
    fn into_css() -> (Cubic, Window) {
        let mut c = Cubic::new(&CubicConfig { hystart: true, ..rfc() }, MSS);
        let mut w = window(10_000, 1 << 30);
        // Round 1 (window end 20 000): 8 ACKs, +1 segment each (slow start).
        for i in 0..8 {
            step(&mut c, &mut w, i * MS, 11_000 + i * 1000, 20_000, 100);
        }
        assert_eq!(w.cwnd_bytes, 18_000);
        // Round 2 starts with the ACK that covers 20 000 (window end 40 000).
        for i in 0..7 {
            step(&mut c, &mut w, 100 * MS + i * MS, 20_000 + i * 1000, 40_000, 113 + i);
        }
        assert!(c.hystart.as_ref().unwrap().css_baseline_min_rtt_ns.is_none(), "7 samples decide nothing");
        assert_eq!(w.cwnd_bytes, 25_000);
        step(&mut c, &mut w, 107 * MS, 27_000, 40_000, 120);
        assert_eq!(c.hystart.as_ref().unwrap().css_baseline_min_rtt_ns, Some(113 * MS));
        // The 8th ACK itself already grows by a quarter segment.
        assert_eq!(w.cwnd_bytes, 25_250);
        (c, w)
    }

    #[test]
    fn hystart_enters_css_on_a_delay_increase_and_grows_by_a_quarter() {
        let (mut c, mut w) = into_css();
        step(&mut c, &mut w, 108 * MS, 28_000, 40_000, 120);
        assert_eq!(w.cwnd_bytes, 25_500);
        // 112 ms < 100 + 12.5: no CSS (same set-up, round 2 at 112 ms).
        let mut c = Cubic::new(&CubicConfig { hystart: true, ..rfc() }, MSS);
        let mut w = window(10_000, 1 << 30);
        for i in 0..8 {
            step(&mut c, &mut w, i * MS, 11_000 + i * 1000, 20_000, 100);
        }
        for i in 0..8 {
            step(&mut c, &mut w, 100 * MS + i * MS, 20_000 + i * 1000, 40_000, 112);
        }
        assert!(c.hystart.as_ref().unwrap().css_baseline_min_rtt_ns.is_none());
        assert_eq!(w.cwnd_bytes, 26_000);
    }

    #[test]
    fn hystart_leaves_css_for_congestion_avoidance_after_five_rounds() {
        let (mut c, mut w) = into_css();
        // Rounds 3..7 (each started by the ACK covering the previous window end), RTT steady
        // at the baseline: the 5th CSS round start sets ssthresh = cwnd on its growth.
        let mut end = 40_000;
        for round in 0..5u64 {
            let before = w.cwnd_bytes;
            step(&mut c, &mut w, (200 + round * 100) * MS, end, end + 20_000, 113);
            end += 20_000;
            if round < 4 {
                assert_eq!(w.cwnd_bytes, before + 250, "CSS round {round}");
            } else {
                assert_eq!(w.ssthresh_bytes, before, "ssthresh = cwnd after CSS_ROUNDS");
            }
        }
        assert!(c.hystart.as_ref().unwrap().done);
        // §4.10: no loss yet, so the stage starts with K = 0, W_max = cwnd_epoch.
        assert_eq!(c.k_s, 0.0);
        assert_eq!(c.epoch_w_max, w.ssthresh_bytes as f64 / 1000.0);
    }

    #[test]
    fn hystart_returns_to_slow_start_when_the_delay_falls_back() {
        let (mut c, mut w) = into_css();
        // Round 3: 8 samples at 105 ms < baseline 113 ms: slow start again.
        for i in 0..8 {
            step(&mut c, &mut w, 200 * MS + i * MS, 40_000 + i * 1000, 60_000, 105);
        }
        assert!(c.hystart.as_ref().unwrap().css_baseline_min_rtt_ns.is_none());
        let before = w.cwnd_bytes;
        step(&mut c, &mut w, 210 * MS, 48_000, 60_000, 105);
        assert_eq!(w.cwnd_bytes, before + 1000);
    }

    #[test]
    fn a_loss_ends_hystart_for_good() {
        let (mut c, mut w) = into_css();
        c.on_loss(&w, w.cwnd_bytes, LossSignal::DuplicateAcks, 0);
        assert!(c.hystart.as_ref().unwrap().done);
        w.ssthresh_bytes = 1 << 30; // as after a timeout with a high ssthresh: plain slow start
        let before = w.cwnd_bytes;
        step(&mut c, &mut w, 300 * MS, 60_000, 80_000, 113);
        assert_eq!(w.cwnd_bytes, before + 1000);
    }
}
