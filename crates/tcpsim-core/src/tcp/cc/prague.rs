//! TCP Prague, the L4S scalable sender (RFC 9331 §4.3, the congestion response of the "Prague
//! L4S requirements": Reno-friendly on loss, reduced RTT-dependence, fractional windows;
//! draft-briscoe-iccrg-prague-congestion-control-04, "Prague"), as the L4STeam Linux
//! implementation `net/ipv4/tcp_prague.c` (0.7, its fractional-window mode) does it where the
//! draft leaves a choice. DCTCP (`super::dctcp`) is its base; what differs:
//!
//! - α (Prague §2.4, "moving average of ECN feedback"; Linux `prague_update_alpha`): α ←
//!   (1 − g)·α + g·F, F the fraction of the bytes acknowledged in a round that were echoed
//!   with ECE, g = 1/16. A round ends on the ACK that covers `snd_nxt` as it was when the round
//!   began (`prague_e2e_rtt_elapsed`). α is not updated until the first ECE of the connection
//!   (`saw_ce`: proof of an AQM on the path). Linux starts α at 0 (`prague_alpha_mode` 0) and
//!   halves the window at the first mark; the first cut here is a halving whatever α.
//! - The window is fractional (Linux `frac_cwnd`, 2⁻²⁰ segment; here an `f64` of bytes):
//!   growth and cuts keep their fractions, and the window the sender uses is the fractional
//!   one rounded up to whole segments, at least 2 (`prague_frac_cwnd_to_snd_cwnd`).
//! - Reduction on ECE (`prague_enter_cwr`): cwnd ← cwnd·(1 − α/2) of the fractional window, at
//!   most once per window of data (the sender's CWR bookkeeping asks `on_ecn` at most once
//!   per window, as Linux's CWR state). Linux steps cwnd down one segment per ACK to the
//!   target; here it drops at once, as for DCTCP.
//! - Growth (`prague_update_cwnd`): slow start adds the bytes each ACK acknowledges up to
//!   ssthresh (Linux `tcp_slow_start`, no per-ACK limit), the rest is congestion avoidance:
//!   acked·ai·SMSS/cwnd bytes per ACK, ai the RTT scaling below. Only ACKs without ECE grow
//!   the window (Linux grows by the non-CE-marked delivered segments, in CWR too; the
//!   sender here calls `increase_window` for every ACK without ECE outside loss recovery).
//!   Slow start ends at the first ECE, whose cut sets ssthresh (as DCTCP).
//! - Reduced RTT-dependence (Prague §2.4.4; Linux `RTT_CONTROL_RATE`, its only mode since 0.7):
//!   once the flow has spent `rtt_transition_rounds` rounds (4) out of slow start, a flow whose
//!   smoothed RTT R is below `rtt_target` T (25 ms) grows by ai = (R/T)² segments per round
//!   instead of 1, so its rate cwnd/R grows by SMSS/T² per unit time, as a flow at T does;
//!   and α is updated, and a cut for ECE made, at most once per T (`prague_target_rtt_elapsed`,
//!   `cwr_stamp`): a round that ends sooner is extended until T has passed, and an echo that
//!   comes sooner than T after the last cut enters CWR without cutting. `rtt_scaling = "none"`
//!   turns all three off (Linux 0.6's `RTT_CONTROL_NONE`).
//! - Pacing (`prague_update_pacing_rate`): rate = ratio·cwnd/SRTT with the fractional window
//!   (0.6's rule; 0.7 takes the larger of its whole segments and the packets in flight),
//!   ratio `pacing_ss_ratio` (2) while cwnd < ssthresh/2 and `pacing_ca_ratio` (1) otherwise
//!   ("Pacing is set to 100% during AI"; Linux's generic `tcp_update_pacing_rate` would use
//!   2 and 1.2). Linux multiplies the window in segments by the MTU and its `fq` qdisc paces
//!   wire bytes; here the payload window paces payload bytes, the same packets per SRTT.
//!   SRTT is RFC 6298's (gain 1/8) over the RTT samples of `AckSample`; no pacing before the
//!   first.
//! - Loss (RFC 9331 §4.3: Reno-friendly; Linux `prague_enter_loss`): the
//!   fractional window is halved (Reno), ssthresh = that rounded up to whole segments; the
//!   engine's `ssthresh_from = "flight_size"` halves FlightSize instead. A timeout restarts
//!   from one segment in slow start (Linux instead steps back up to the halved window).
//!
//! Left out: the classic-ECN fallback (Linux `prague_ecn_fallback`, off by default; the draft's
//! detection of an RFC 3168 bottleneck); 0.7's rate-based mode below 4 MTUs of window, its
//! ±3 % pacing offset in that mode and its shrinking of the MTU at low rates; the GSO burst
//! limit (no TSO here); counting SACKed segments in F (Linux `tp->delivered`: here cumulative
//! ACKs, as `Dctcp`); growth only while cwnd-limited (`tcp_is_cwnd_limited`) and 0.7's scaling
//! of the growth by 1500 bytes/MTU; Accurate ECN (the per-segment echo comes from the DCTCP
//! receiver, `ecn_receiver = "dctcp"`); ECT(1). `ca_increment` does not apply.
//!
//! State: α (dimensionless), the fractional window (bytes), the round's acknowledged and
//! echoed bytes, the round's end (`snd_nxt`), rounds out of slow start, the times of the last
//! α update and the last cut (ns), SRTT (ns).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{aimd, AckSample, CcParameters, CongestionOps, LossSignal, Reduction, Window};

/// TCP Prague's parameters (Linux `tcp_prague.c` module parameters and constants). Defaults
/// users get are set in the scenario layer (`PragueCc` in `tcpsim.scenario.tcp`).
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct PragueConfig {
    /// g, the weight of the newest round's marked fraction in α, in (0, 1]: 1/16 (Linux
    /// `PRAGUE_SHIFT_G` = 4, as DCTCP).
    pub g: f64,
    /// α before the first update, in [0, 1]: 0 (Linux `prague_alpha_mode` 0; 1 is mode 1 and
    /// Prague 0.6). The first cut halves the window either way.
    pub alpha_init: f64,
    /// The reduced RTT-dependence heuristic (Linux `prague_rtt_scaling`).
    pub rtt_scaling: PragueRttScaling,
    /// T, the RTT below which flows grow as a flow at T does, ns, > 0: 25 ms (Linux
    /// `prague_rtt_target`; Prague §2.4.4).
    pub rtt_target_ns: u64,
    /// Rounds out of slow start before the RTT scaling applies: 4 (Linux
    /// `prague_rtt_transition`, 0.7; 500 in 0.6).
    pub rtt_transition_rounds: u32,
    /// Pacing rate over cwnd/SRTT while cwnd < ssthresh/2, > 0: 2 (Linux Prague, as the
    /// generic `tcp_pacing_ss_ratio` = 200 %).
    pub pacing_ss_ratio: f64,
    /// Pacing rate over cwnd/SRTT otherwise, > 0: 1 (Linux Prague; the generic
    /// `tcp_pacing_ca_ratio` is 1.2).
    pub pacing_ca_ratio: f64,
}

/// How Prague reduces its RTT-dependence (`PragueConfig::rtt_scaling`).
#[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum PragueRttScaling {
    /// As DCTCP: one segment per round, α once per round, a cut at most once per round
    /// (Linux 0.6 `RTT_CONTROL_NONE`).
    None,
    /// Flows below the target RTT grow their rate as a flow at the target does, and update α
    /// and cut at most once per target RTT (Linux `RTT_CONTROL_RATE`, the default).
    Rate,
}

impl CcParameters for PragueConfig {
    /// Check the parameters; errors are `<field>: message`.
    fn validate(&self) -> Result<(), String> {
        if !(self.g > 0.0 && self.g <= 1.0) {
            return Err(format!("g: {} must be in (0, 1]", self.g));
        }
        if !(0.0..=1.0).contains(&self.alpha_init) {
            return Err(format!("alpha_init: {} must be in [0, 1]", self.alpha_init));
        }
        if self.rtt_target_ns == 0 {
            return Err("rtt_target_ns: must be > 0".to_string());
        }
        for (field, ratio) in [("pacing_ss_ratio", self.pacing_ss_ratio), ("pacing_ca_ratio", self.pacing_ca_ratio)] {
            if !(ratio.is_finite() && ratio > 0.0) {
                return Err(format!("{field}: {ratio} must be a number > 0"));
            }
        }
        Ok(())
    }
}

/// Linux's smallest window, segments (`MIN_CWND_RTT`).
const MIN_CWND_SEGMENTS: u64 = 2;

pub struct Prague {
    cfg: PragueConfig,
    mss_bytes: u64,
    alpha: f64,
    /// An ECE has been seen: α is updated from now on.
    saw_ce: bool,
    /// The first cut (a halving) has been made.
    cut_once: bool,
    /// The fractional window, bytes; `None` until the window is first seen.
    frac_cwnd: Option<f64>,
    /// The window last handed to the sender; another value there means recovery or a
    /// timeout set it, and the fractional window restarts from it.
    cwnd_set: u64,
    /// cwnd and ssthresh as last seen or set (slow start, pacing ratio).
    cwnd: u64,
    ssthresh: u64,
    /// The current round: its acknowledged and ECE-echoed bytes, and its end.
    bytes_acked: u64,
    bytes_marked: u64,
    next_seq: u64,
    /// Rounds ended out of slow start (Linux `round`).
    rounds: u32,
    alpha_stamp_ns: u64,
    cwr_stamp_ns: Option<u64>,
    srtt_ns: Option<f64>,
}

impl Prague {
    pub fn new(cfg: &PragueConfig, mss_bytes: u64) -> Self {
        Prague {
            cfg: cfg.clone(),
            mss_bytes,
            alpha: cfg.alpha_init,
            saw_ce: false,
            cut_once: false,
            frac_cwnd: None,
            cwnd_set: 0,
            cwnd: 0,
            ssthresh: u64::MAX,
            bytes_acked: 0,
            bytes_marked: 0,
            next_seq: 0,
            rounds: 0,
            alpha_stamp_ns: 0,
            cwr_stamp_ns: None,
            srtt_ns: None,
        }
    }

    /// α, the estimate of the fraction of marked bytes.
    pub fn alpha(&self) -> f64 {
        self.alpha
    }

    /// The fractional window, bytes.
    pub fn frac_cwnd(&self) -> Option<f64> {
        self.frac_cwnd
    }

    fn in_slow_start(&self) -> bool {
        self.cwnd < self.ssthresh
    }

    /// Linux `prague_is_rtt_indep`: scaling on, out of slow start, past the transition.
    fn rtt_independent(&self) -> bool {
        self.cfg.rtt_scaling == PragueRttScaling::Rate
            && !self.in_slow_start()
            && self.rounds >= self.cfg.rtt_transition_rounds
    }

    /// Segments of growth per round of ACKs (Linux `ai_ack_increase`): (R/T)² below the target
    /// once past the transition (`prague_rate_scaled_ai_ack_increase`), else 1.
    fn ai_per_round(&self) -> f64 {
        let target = self.cfg.rtt_target_ns as f64;
        match self.srtt_ns {
            Some(srtt)
                if self.cfg.rtt_scaling == PragueRttScaling::Rate
                    && self.rounds >= self.cfg.rtt_transition_rounds
                    && srtt < target =>
            {
                (srtt / target).powi(2)
            }
            _ => 1.0,
        }
    }

    /// The whole-segment window the sender uses for a fractional one (rounded up, ≥ 2 segments).
    fn window_for(&self, frac_bytes: f64) -> u64 {
        let segments = (frac_bytes / self.mss_bytes as f64).ceil() as u64;
        segments.max(MIN_CWND_SEGMENTS) * self.mss_bytes
    }

    /// Take the sender's window: the fractional one restarts from it if someone else set it.
    fn sync(&mut self, w: &Window) -> f64 {
        self.cwnd = w.cwnd_bytes;
        self.ssthresh = w.ssthresh_bytes;
        match self.frac_cwnd {
            Some(frac) if w.cwnd_bytes == self.cwnd_set => frac,
            _ => {
                self.cwnd_set = w.cwnd_bytes;
                *self.frac_cwnd.insert(w.cwnd_bytes as f64)
            }
        }
    }

    /// Set the fractional window after a cut; returns the whole-segment window (the new
    /// ssthresh and cwnd).
    fn cut_to(&mut self, frac_bytes: f64) -> u64 {
        let frac = frac_bytes.max((MIN_CWND_SEGMENTS * self.mss_bytes) as f64);
        let window = self.window_for(frac);
        self.frac_cwnd = Some(frac);
        self.cwnd_set = window;
        self.cwnd = window;
        self.ssthresh = window;
        window
    }
}

impl CongestionOps for Prague {
    /// SRTT, the round's counts, and at a round's end the α update (`prague_should_update_ewma`,
    /// `prague_update_alpha`, `prague_new_round`).
    fn on_ack(&mut self, ack: &AckSample) {
        if let Some(r) = ack.rtt_ns {
            let r = r as f64;
            self.srtt_ns = Some(self.srtt_ns.map_or(r, |s| s + (r - s) / 8.0));
        }
        self.bytes_acked += ack.acked_bytes;
        if ack.ece {
            self.bytes_marked += ack.acked_bytes;
            self.saw_ce = true;
        }
        let round_over = ack.ack >= self.next_seq;
        let target_passed = ack.now_ns.saturating_sub(self.alpha_stamp_ns) >= self.cfg.rtt_target_ns;
        if !round_over || (self.rtt_independent() && !target_passed) {
            return;
        }
        if self.saw_ce {
            let marked = if self.bytes_acked > 0 { self.bytes_marked as f64 / self.bytes_acked as f64 } else { 0.0 };
            self.alpha = ((1.0 - self.cfg.g) * self.alpha + self.cfg.g * marked).min(1.0);
            self.alpha_stamp_ns = ack.now_ns;
        }
        self.next_seq = ack.snd_nxt;
        self.bytes_acked = 0;
        self.bytes_marked = 0;
        if !self.in_slow_start() {
            self.rounds = self.rounds.saturating_add(1);
        }
    }

    /// Only to learn the initial window (the first ACK ends round 0): in loss recovery the
    /// window is inflated, so it is taken only from the hooks that run outside recovery.
    fn on_round_end(&mut self, _ack: &AckSample, w: &Window) {
        if self.frac_cwnd.is_none() {
            self.sync(w);
        }
    }

    /// `prague_update_cwnd` for an ACK without ECE outside loss recovery.
    fn increase_window(&mut self, w: &mut Window, acked_bytes: u64) {
        let mut frac = self.sync(w);
        let mut acked = acked_bytes as f64;
        if w.cwnd_bytes < w.ssthresh_bytes {
            let grown = (frac + acked).min(w.ssthresh_bytes as f64);
            acked -= grown - frac;
            frac = grown;
        }
        if acked > 0.0 {
            frac += acked * self.ai_per_round() * self.mss_bytes as f64 / frac;
        }
        let window = self.window_for(frac);
        self.frac_cwnd = Some(frac);
        self.cwnd_set = window;
        self.cwnd = window;
        w.cwnd_bytes = window;
    }

    /// Reno's halving of the fractional window (`prague_enter_loss`), or of FlightSize when the
    /// sender hands over another window (`ssthresh_from = "flight_size"`, a timeout).
    fn on_loss(&mut self, w: &Window, flight_bytes: u64, signal: LossSignal, _now_ns: u64) -> Reduction {
        let ours = signal == LossSignal::DuplicateAcks && flight_bytes == w.cwnd_bytes;
        let half = match self.frac_cwnd {
            Some(frac) if ours && w.cwnd_bytes == self.cwnd_set => frac / 2.0,
            _ => aimd::ssthresh_after_loss(w, flight_bytes) as f64,
        };
        let ssthresh = self.cut_to(half);
        if signal == LossSignal::Timeout {
            self.cwnd = self.mss_bytes; // RFC 5681 §3.1: slow start from one segment
        }
        Reduction::ssthresh(ssthresh)
    }

    /// `prague_enter_cwr`: cwnd·(1 − α/2) of the fractional window; the first cut halves; with
    /// reduced RTT-dependence not again within the target RTT of the last.
    fn on_ecn(&mut self, w: &Window, _flight_bytes: u64, now_ns: u64) -> Reduction {
        let frac = self.sync(w);
        if self.rtt_independent()
            && self.cwr_stamp_ns.is_some_and(|t| now_ns.saturating_sub(t) < self.cfg.rtt_target_ns)
        {
            return Reduction {
                ssthresh_bytes: w.ssthresh_bytes,
                cwnd_bytes: Some(w.cwnd_bytes),
                entry_cwnd_bytes: None,
            };
        }
        self.cwr_stamp_ns = Some(now_ns);
        let cut = if self.cut_once { self.alpha / 2.0 } else { 0.5 };
        self.cut_once = true;
        Reduction::ssthresh(self.cut_to(frac * (1.0 - cut)))
    }

    fn ecn_alpha(&self) -> Option<f64> {
        Some(self.alpha)
    }

    /// `prague_update_pacing_rate`: ratio·cwnd/SRTT, bits of payload per second.
    fn pacing_rate_bps(&self) -> Option<u64> {
        let (srtt, frac) = (self.srtt_ns?, self.frac_cwnd?);
        let ratio = if self.cwnd < self.ssthresh / 2 { self.cfg.pacing_ss_ratio } else { self.cfg.pacing_ca_ratio };
        Some(((ratio * frac * 8e9 / srtt.max(1.0)) as u64).max(1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::CaIncrement;

    const MSS: u64 = 1000;
    const MS: u64 = 1_000_000;

    fn config(rtt_scaling: PragueRttScaling) -> PragueConfig {
        PragueConfig {
            g: 1.0 / 16.0,
            alpha_init: 0.0,
            rtt_scaling,
            rtt_target_ns: 25 * MS,
            rtt_transition_rounds: 4,
            pacing_ss_ratio: 2.0,
            pacing_ca_ratio: 1.0,
        }
    }

    fn window(cwnd_bytes: u64, ssthresh_bytes: u64) -> Window {
        Window { cwnd_bytes, ssthresh_bytes, mss_bytes: MSS, ca_credit: 0, ca_increment: CaIncrement::Exact }
    }

    fn sample(now_ns: u64, ack: u64, snd_nxt: u64, acked_bytes: u64, ece: bool, rtt_ns: Option<u64>) -> AckSample {
        AckSample { now_ns, ack, snd_nxt, acked_bytes, duplicate: false, rtt_ns, oldest_rtt_ns: None, ece }
    }

    #[test]
    fn alpha_waits_for_the_first_mark_then_follows_the_marked_fraction_of_each_round() {
        let mut p = Prague::new(&config(PragueRttScaling::None), MSS);
        p.on_round_end(&sample(0, 1000, 4000, 1000, false, None), &window(20 * MSS, 20 * MSS));
        // ACK 1000 ends the empty round 0; no mark yet, so α stays at its initial 0.
        p.on_ack(&sample(0, 1000, 4000, 1000, false, None));
        assert_eq!(p.alpha(), 0.0);
        // Round 1 ends at 4000: 3000 bytes, 1000 of them echoed: α = 1/16·1/3.
        p.on_ack(&sample(0, 2000, 5000, 1000, true, None));
        p.on_ack(&sample(0, 3000, 6000, 1000, false, None));
        assert_eq!(p.alpha(), 0.0, "the round has not ended");
        p.on_ack(&sample(0, 4000, 7000, 1000, false, None));
        let alpha1 = 1.0 / 16.0 / 3.0;
        assert!((p.alpha() - alpha1).abs() < 1e-15, "{}", p.alpha());
        // Round 2 ends at 7000, every byte echoed: α = 15/16·α1 + 1/16 = 0.08203125.
        p.on_ack(&sample(0, 5000, 8000, 1000, true, None));
        p.on_ack(&sample(0, 7000, 9000, 2000, true, None));
        let alpha2 = 15.0 / 16.0 * alpha1 + 1.0 / 16.0;
        assert!((p.alpha() - alpha2).abs() < 1e-15);
        assert_eq!(p.ecn_alpha(), Some(p.alpha()));
    }

    #[test]
    fn the_first_cut_halves_then_each_cuts_alpha_over_two_of_the_fractional_window() {
        let mut p = Prague::new(&config(PragueRttScaling::None), MSS);
        // α = 0 (Linux's start), yet the first mark halves: 20 → 10 segments.
        assert_eq!(p.on_ecn(&window(20 * MSS, u64::MAX), 0, 0), Reduction::ssthresh(10 * MSS));
        assert_eq!(p.frac_cwnd(), Some(10_000.0));
        // α = 0.08203125: 10 000·(1 − α/2) = 9589.84375 bytes, used as 10 whole segments.
        p.alpha = 0.08203125;
        assert_eq!(p.on_ecn(&window(10 * MSS, 10 * MSS), 0, 0), Reduction::ssthresh(10 * MSS));
        assert_eq!(p.frac_cwnd(), Some(9589.84375));
        // The fraction carries to the next cut: 9589.84375·(1 − α/2) = 9196.5179… → 10 segments.
        assert_eq!(p.on_ecn(&window(10 * MSS, 10 * MSS), 0, 0), Reduction::ssthresh(10 * MSS));
        assert!((p.frac_cwnd().unwrap() - 9589.84375 * (1.0 - 0.041015625)).abs() < 1e-9);
        // α = 1 cuts to 4598.26 → 5 segments; never below 2 segments.
        p.alpha = 1.0;
        assert_eq!(p.on_ecn(&window(10 * MSS, 10 * MSS), 0, 0), Reduction::ssthresh(5 * MSS));
        let mut small = Prague::new(&config(PragueRttScaling::None), MSS);
        assert_eq!(small.on_ecn(&window(3 * MSS, 3 * MSS), 0, 0), Reduction::ssthresh(2 * MSS));
    }

    #[test]
    fn growth_keeps_the_fraction_and_uses_whole_segments_rounded_up() {
        let mut p = Prague::new(&config(PragueRttScaling::None), MSS);
        // Slow start adds what the ACK acknowledges up to ssthresh (Linux tcp_slow_start); the
        // rest is congestion avoidance: 10 000 + 1000 to ssthresh, then 1000·1000/11 000.
        let mut w = window(10 * MSS, 11 * MSS);
        p.increase_window(&mut w, 2 * MSS);
        let frac = 11_000.0 + 1_000_000.0 / 11_000.0;
        assert_eq!(p.frac_cwnd(), Some(frac));
        assert_eq!(w.cwnd_bytes, 12 * MSS, "11.09 segments are used as 12");
        // An ECE-free ACK of one segment in congestion avoidance adds SMSS²/frac.
        w.ssthresh_bytes = 11 * MSS;
        p.increase_window(&mut w, MSS);
        assert_eq!(p.frac_cwnd(), Some(frac + 1_000_000.0 / frac));
        // A window set by someone else (recovery, a timeout) restarts the fraction.
        let mut w = window(MSS, 6 * MSS);
        p.increase_window(&mut w, MSS);
        assert_eq!((p.frac_cwnd(), w.cwnd_bytes), (Some(2000.0), 2 * MSS));
    }

    #[test]
    fn a_loss_halves_the_fractional_window_as_reno() {
        let mut p = Prague::new(&config(PragueRttScaling::None), MSS);
        let mut w = window(20 * MSS, 10 * MSS);
        p.increase_window(&mut w, 500); // 20 000 + 500·1000/20 000 = 20 025 bytes, 21 segments
        assert_eq!(w.cwnd_bytes, 21 * MSS);
        let r = p.on_loss(&w, w.cwnd_bytes, LossSignal::DuplicateAcks, 0);
        assert_eq!((r, p.frac_cwnd()), (Reduction::ssthresh(11 * MSS), Some(10_012.5)));
        // FlightSize (`ssthresh_from = "flight_size"`) or a timeout: RFC 5681 eq. (4).
        let r = p.on_loss(&window(11 * MSS, 11 * MSS), 9 * MSS, LossSignal::DuplicateAcks, 0);
        assert_eq!((r, p.frac_cwnd()), (Reduction::ssthresh(5 * MSS), Some(4500.0)));
        let r = p.on_loss(&window(11 * MSS, 11 * MSS), 11 * MSS, LossSignal::Timeout, 0);
        assert_eq!(r, Reduction::ssthresh(6 * MSS));
        assert!(p.in_slow_start(), "a timeout restarts slow start from one segment");
    }

    /// Drive `p` through one round trip of ACKs, one segment each, ending at `now_ns` + RTT;
    /// returns the new time and the last ACK number.
    fn one_round(p: &mut Prague, w: &mut Window, now_ns: u64, ack: u64, rtt_ns: u64, ece: bool) -> (u64, u64) {
        let segments = w.cwnd_bytes / MSS;
        let (mut now, mut ack) = (now_ns, ack);
        for i in 0..segments {
            now = now_ns + rtt_ns * (i + 1) / segments;
            ack += MSS;
            p.on_ack(&sample(now, ack, ack + w.cwnd_bytes, MSS, ece, Some(rtt_ns)));
            if !ece {
                p.increase_window(w, MSS);
            }
        }
        (now, ack)
    }

    /// The rate cwnd/RTT gains per second of congestion avoidance, bytes/s², measured over 1 s
    /// after 0.2 s (past the 4-round transition), starting at 160 Mb/s.
    fn rate_growth(rtt_ns: u64, scaling: PragueRttScaling) -> f64 {
        let mut p = Prague::new(&config(scaling), MSS);
        let segments = 20_000_000 * rtt_ns / 1_000_000_000 / MSS; // 20 MB/s × RTT
        let mut w = window(segments * MSS, segments * MSS);
        let (mut now, mut ack) = (0, 0);
        let mut at = |p: &mut Prague, w: &mut Window, until: u64| {
            while now < until {
                (now, ack) = one_round(p, w, now, ack, rtt_ns, false);
            }
            p.frac_cwnd().unwrap()
        };
        let start = at(&mut p, &mut w, 200 * MS);
        let end = at(&mut p, &mut w, 1200 * MS);
        (end - start) / (rtt_ns as f64 / 1e9)
    }

    #[test]
    fn below_the_target_rtt_the_rate_grows_as_at_the_target() {
        // A flow at T = 25 ms grows one segment per round: its rate by SMSS/T² = 1.6 MB/s².
        let at_target = rate_growth(25 * MS, PragueRttScaling::Rate);
        assert!((at_target - 1.6e6).abs() < 0.01 * 1.6e6, "{at_target}");
        // At 5 ms, (5/25)² = 1/25 segment per round, five times as many rounds per second: the
        // same rate growth; without the scaling, 25 times more.
        let short = rate_growth(5 * MS, PragueRttScaling::Rate);
        assert!((short / at_target - 1.0).abs() < 0.02, "{short} vs {at_target}");
        let unscaled = rate_growth(5 * MS, PragueRttScaling::None);
        assert!((unscaled / at_target - 25.0).abs() < 0.5, "{unscaled} vs {at_target}");
    }

    #[test]
    fn below_the_target_rtt_alpha_and_the_cuts_wait_for_the_target_rtt() {
        let mut p = Prague::new(&config(PragueRttScaling::Rate), MSS);
        let mut w = window(10 * MSS, 10 * MSS);
        p.on_round_end(&sample(0, 0, 0, 0, false, None), &w);
        // Four 5 ms rounds out of slow start without marks, then marked rounds until α moves.
        let (mut now, mut ack) = (0, 0);
        for _ in 0..4 {
            (now, ack) = one_round(&mut p, &mut w, now, ack, 5 * MS, false);
        }
        while p.alpha() == 0.0 {
            (now, ack) = one_round(&mut p, &mut w, now, ack, 5 * MS, true);
        }
        assert!(p.rtt_independent());
        // Marked ACKs every 0.5 ms (a 5 ms round ends every 10): α moves only on the first ACK
        // 25 ms after its last update, with the fraction of everything in between (all marked).
        let (alpha, stamp) = (p.alpha(), p.alpha_stamp_ns);
        loop {
            now += MS / 2;
            ack += MSS;
            p.on_ack(&sample(now, ack, ack + w.cwnd_bytes, MSS, true, Some(5 * MS)));
            if now >= stamp + 25 * MS {
                break;
            }
            assert_eq!(p.alpha(), alpha, "{} ms after the update", (now - stamp) / MS);
        }
        assert!((p.alpha() - (15.0 / 16.0 * alpha + 1.0 / 16.0)).abs() < 1e-15);
        // A cut, then an echo 10 ms later enters CWR without cutting; at 25 ms it cuts again.
        let cut = p.on_ecn(&w, w.cwnd_bytes, now);
        assert!(cut.ssthresh_bytes < w.cwnd_bytes);
        let w = window(cut.ssthresh_bytes, cut.ssthresh_bytes);
        let kept = p.on_ecn(&w, 0, now + 10 * MS);
        let unchanged =
            Reduction { ssthresh_bytes: w.ssthresh_bytes, cwnd_bytes: Some(w.cwnd_bytes), entry_cwnd_bytes: None };
        let frac = p.frac_cwnd().unwrap();
        assert_eq!((kept, p.frac_cwnd()), (unchanged, Some(frac)));
        p.on_ecn(&w, 0, now + 25 * MS);
        assert!((p.frac_cwnd().unwrap() - frac * (1.0 - p.alpha() / 2.0)).abs() < 1e-9);
        // Without the scaling every echo the sender passes on cuts.
        let mut q = Prague::new(&config(PragueRttScaling::None), MSS);
        q.on_ecn(&w, 0, 0);
        q.alpha = 0.5;
        assert!(q.on_ecn(&w, 0, MS).ssthresh_bytes < w.cwnd_bytes);
    }

    #[test]
    fn pacing_is_the_fractional_window_per_srtt_twice_that_early_in_slow_start() {
        let mut p = Prague::new(&config(PragueRttScaling::Rate), MSS);
        assert_eq!(p.pacing_rate_bps(), None, "no window, no RTT yet");
        p.on_ack(&sample(0, 1000, 1000, 1000, false, Some(10 * MS)));
        let mut w = window(19 * MSS, 100 * MSS);
        p.increase_window(&mut w, MSS); // slow start: 20 segments, below ssthresh/2
                                        // 2 × 20 000 bytes per 10 ms: 32 Mb/s.
        assert_eq!(p.pacing_rate_bps(), Some(32_000_000));
        // Congestion avoidance after a cut to 17 500 bytes (α = 0.25): 1 × 17 500 B / 10 ms.
        p.cut_once = true;
        p.alpha = 0.25;
        p.on_ecn(&w, 0, 0);
        assert_eq!(p.pacing_rate_bps(), Some(14_000_000));
        // SRTT follows RFC 6298: a 20 ms sample moves it by 1/8 to 11.25 ms.
        p.on_ack(&sample(0, 2000, 2000, 1000, false, Some(20 * MS)));
        assert_eq!(p.pacing_rate_bps(), Some((17_500.0 * 8e9 / 11.25e6) as u64));
    }

    #[test]
    fn parameters_outside_their_ranges_are_refused() {
        assert!(config(PragueRttScaling::Rate).validate().is_ok());
        let with = |f: fn(&mut PragueConfig)| {
            let mut c = config(PragueRttScaling::Rate);
            f(&mut c);
            c.validate().unwrap_err()
        };
        assert!(with(|c| c.g = 0.0).starts_with("g:"));
        assert!(with(|c| c.alpha_init = 1.5).starts_with("alpha_init:"));
        assert!(with(|c| c.rtt_target_ns = 0).starts_with("rtt_target_ns:"));
        assert!(with(|c| c.pacing_ss_ratio = f64::NAN).starts_with("pacing_ss_ratio:"));
        assert!(with(|c| c.pacing_ca_ratio = 0.0).starts_with("pacing_ca_ratio:"));
    }
}
