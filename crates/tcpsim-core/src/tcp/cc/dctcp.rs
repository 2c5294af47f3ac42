//! Data Center TCP: M. Alizadeh et al., "Data Center TCP (DCTCP)", SIGCOMM 2010 ("DCTCP"),
//! Sec. 3; RFC 8257 §3.3 (the sender) and §3.4 (loss). The switch half is `queue::step`; the
//! receiver half (ECE = CE of the last segment, RFC 8257 §3.2) is `TcpReceiver` with
//! `EcnReceiver::Dctcp`.
//!
//! Estimation (RFC 8257 §3.3 steps 1–8; DCTCP Sec. 3.1 eq. (1)): every ACK adds its newly
//! acknowledged bytes to `bytes_acked` and, if it carries ECE, to `bytes_marked`. When an ACK
//! ends the observation window — it covers SND.NXT as recorded when the previous window ended
//! (`CongestionOps::on_round_end`; Linux `dctcp_update_alpha`: `!before(snd_una, next_seq)`;
//! RFC 8257's "SND.UNA > WindowEnd" reads the same byte one past) — the fraction
//! M = bytes_marked / bytes_acked updates α ← (1 − g)·α + g·M, and both counts restart. The
//! first ACK ends the empty window that precedes it (Linux initialises `next_seq` to snd_nxt),
//! so the first α update uses that ACK alone. α is kept as an `f64` (RFC 8257's formula; ns-3's
//! `TcpDctcp` likewise); Linux keeps it in 1/1024 units.
//!
//! Reaction to ECE (RFC 8257 §3.3 step 9; DCTCP Sec. 3.1 eq. (2)): cwnd ← cwnd·(1 − α/2), at
//! most once per window of data. The sender asks `on_ecn` at most once per window (its RFC 3168
//! CWR bookkeeping, `TcpSender::on_ecn_echo`), after this ACK's α update, as Linux calls
//! `dctcp_update_alpha` (`in_ack_event`) before the ECE enters CWR; the answer is ssthresh =
//! max(cwnd·(1 − α/2), 2·SMSS) (Linux `dctcp_ssthresh`; ns-3.44's `TcpDctcp::GetSsThresh`
//! returns cwnd·(1 − α/2) without the floor, docs/ns3-comparison/incast.md) and cwnd drops to it. An ACK with ECE does not grow the window (the sender's RFC 3168 §6.1.2 rule).
//!
//! Loss (RFC 8257 §3.4: "react to loss episodes in the same way as conventional TCP"): RFC 5681
//! halving (`loss_decrease = "halve"`, Linux `dctcp_react_to_loss`), or ns-3.44's
//! `TcpDctcp::GetSsThresh`, which answers losses with cwnd·(1 − α/2) too (`"alpha"`).
//! Window growth: RFC 5681 ([`super::Aimd`]).
//!
//! State: α (dimensionless, in [0, 1]), `bytes_acked` and `bytes_marked` (bytes).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{aimd, AckSample, CcParameters, CongestionOps, LossSignal, Reduction, Window};

/// DCTCP's parameters (RFC 8257 §3.3, §3.4). Defaults users get are set in the scenario layer
/// (`DctcpCc` in `tcpsim.scenario.tcp`).
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct DctcpConfig {
    /// g, the weight of the newest window's marked fraction in α, in (0, 1]. RFC 8257 §4.2 and
    /// DCTCP Sec. 3.4: 1/16 (Linux `dctcp_shift_g` = 4, ns-3 `DctcpShiftG` = 0.0625).
    pub g: f64,
    /// α at the start, in [0, 1]. RFC 8257 §3.3 leaves it to the implementation; Linux's
    /// `dctcp_alpha_on_init` = 1024 (of 1024) and ns-3's `DctcpAlphaOnInit` = 1.0: α = 1, so
    /// the first marks halve the window as RFC 3168 would.
    pub alpha_init: f64,
    /// The reduction after a loss (`DctcpLossDecrease`).
    pub loss_decrease: DctcpLossDecrease,
}

/// DCTCP's answer to a loss (`DctcpConfig::loss_decrease`).
#[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum DctcpLossDecrease {
    /// RFC 5681 eq. (4), as Reno (RFC 8257 §3.4; Linux `dctcp_react_to_loss`).
    Halve,
    /// cwnd·(1 − α/2), as for ECE (ns-3.44's `TcpDctcp::GetSsThresh` answers every signal so).
    Alpha,
}

impl CcParameters for DctcpConfig {
    /// Check the parameters; errors are `<field>: message`.
    fn validate(&self) -> Result<(), String> {
        if !(self.g > 0.0 && self.g <= 1.0) {
            return Err(format!("g: {} must be in (0, 1]", self.g));
        }
        if !(0.0..=1.0).contains(&self.alpha_init) {
            return Err(format!("alpha_init: {} must be in [0, 1]", self.alpha_init));
        }
        Ok(())
    }
}

pub struct Dctcp {
    g: f64,
    alpha: f64,
    loss_decrease: DctcpLossDecrease,
    mss_bytes: u64,
    /// Bytes acknowledged in the current observation window.
    bytes_acked: u64,
    /// Of them, bytes acknowledged by ACKs carrying ECE.
    bytes_marked: u64,
}

impl Dctcp {
    pub fn new(cfg: &DctcpConfig, mss_bytes: u64) -> Self {
        Dctcp {
            g: cfg.g,
            alpha: cfg.alpha_init,
            loss_decrease: cfg.loss_decrease,
            mss_bytes,
            bytes_acked: 0,
            bytes_marked: 0,
        }
    }

    /// α, the estimate of the fraction of marked bytes.
    pub fn alpha(&self) -> f64 {
        self.alpha
    }

    /// RFC 8257 §3.3 step 9: max(cwnd·(1 − α/2), 2·SMSS).
    fn alpha_target(&self, w: &Window) -> u64 {
        let target = (w.cwnd_bytes as f64 * (1.0 - self.alpha / 2.0)) as u64;
        target.max(2 * self.mss_bytes)
    }
}

impl CongestionOps for Dctcp {
    /// RFC 8257 §3.3 steps 1–2.
    fn on_ack(&mut self, ack: &AckSample) {
        self.bytes_acked += ack.acked_bytes;
        if ack.ece {
            self.bytes_marked += ack.acked_bytes;
        }
    }

    /// RFC 8257 §3.3 steps 3–8: the observation window ends.
    fn on_round_end(&mut self, _ack: &AckSample, _w: &Window) {
        let marked = if self.bytes_acked > 0 { self.bytes_marked as f64 / self.bytes_acked as f64 } else { 0.0 };
        self.alpha = (1.0 - self.g) * self.alpha + self.g * marked;
        self.bytes_acked = 0;
        self.bytes_marked = 0;
    }

    fn on_loss(&mut self, w: &Window, flight_bytes: u64, _signal: LossSignal, _now_ns: u64) -> Reduction {
        match self.loss_decrease {
            DctcpLossDecrease::Halve => Reduction::ssthresh(aimd::ssthresh_after_loss(w, flight_bytes)),
            DctcpLossDecrease::Alpha => Reduction::ssthresh(self.alpha_target(w)),
        }
    }

    /// RFC 8257 §3.3 step 9 (the caller asks at most once per window of data).
    fn on_ecn(&mut self, w: &Window, _flight_bytes: u64, _now_ns: u64) -> Reduction {
        Reduction::ssthresh(self.alpha_target(w))
    }

    /// α, for traces and summaries.
    fn ecn_alpha(&self) -> Option<f64> {
        Some(self.alpha)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::CaIncrement;
    use crate::tcp::cc::RoundCounter;

    const MSS: u64 = 1000;

    fn dctcp(alpha_init: f64, loss_decrease: DctcpLossDecrease) -> Dctcp {
        Dctcp::new(&DctcpConfig { g: 1.0 / 16.0, alpha_init, loss_decrease }, MSS)
    }

    fn window(cwnd_bytes: u64) -> Window {
        Window { cwnd_bytes, ssthresh_bytes: u64::MAX, mss_bytes: MSS, ca_credit: 0, ca_increment: CaIncrement::Exact }
    }

    /// Feed one ACK as the sender does: `on_ack`, then `on_round_end` if it ends the window.
    fn ack(d: &mut Dctcp, rounds: &mut RoundCounter, ack: u64, snd_nxt: u64, acked_bytes: u64, ece: bool) {
        let sample = AckSample {
            now_ns: 0,
            ack,
            snd_nxt,
            acked_bytes,
            duplicate: false,
            rtt_ns: None,
            oldest_rtt_ns: None,
            ece,
        };
        d.on_ack(&sample);
        if rounds.on_ack(ack, snd_nxt) {
            d.on_round_end(&sample, &window(10 * MSS));
        }
    }

    #[test]
    fn alpha_follows_the_marked_fraction_of_each_window() {
        let mut d = dctcp(1.0, DctcpLossDecrease::Halve);
        let mut rounds = RoundCounter::default();
        // ACK 1000 (no ECE) ends the empty window 0 with M = 0/1000: α = 15/16.
        ack(&mut d, &mut rounds, 1000, 4000, 1000, false);
        assert_eq!(d.alpha(), 15.0 / 16.0);
        // Window 1 ends at 4000: 3000 bytes, 1000 of them with ECE, M = 1/3:
        // α = 15/16·15/16 + 1/16·1/3 = 225/256 + 1/48 = 0.8997395833…
        ack(&mut d, &mut rounds, 2000, 5000, 1000, true);
        ack(&mut d, &mut rounds, 3000, 6000, 1000, false);
        assert_eq!(d.alpha(), 15.0 / 16.0, "the window has not ended");
        ack(&mut d, &mut rounds, 4000, 7000, 1000, false);
        let alpha1 = 15.0 / 16.0 * (15.0 / 16.0) + 1.0 / 16.0 / 3.0;
        assert!((d.alpha() - alpha1).abs() < 1e-15, "{}", d.alpha());
        // Window 2 ends at 7000: 3000 bytes, all with ECE (a stretch ACK of 2000 counts whole):
        // α = 15/16·α1 + 1/16.
        ack(&mut d, &mut rounds, 5000, 8000, 1000, true);
        ack(&mut d, &mut rounds, 7000, 9000, 2000, true);
        let alpha2 = 15.0 / 16.0 * alpha1 + 1.0 / 16.0;
        assert!((d.alpha() - alpha2).abs() < 1e-15);
        // A duplicate ACK with ECE acknowledges nothing: it changes neither count.
        let dup = AckSample {
            now_ns: 0,
            ack: 7000,
            snd_nxt: 9000,
            acked_bytes: 0,
            duplicate: true,
            rtt_ns: None,
            oldest_rtt_ns: None,
            ece: true,
        };
        d.on_ack(&dup);
        assert_eq!((d.bytes_acked, d.bytes_marked), (0, 0));
    }

    #[test]
    fn an_echo_cuts_the_window_by_half_of_alpha() {
        // α = 1: halving (20 → 10 segments); α = 0.25: cwnd·(1 − 1/8) = 17 500 bytes.
        let mut d = dctcp(1.0, DctcpLossDecrease::Halve);
        assert_eq!(d.on_ecn(&window(20 * MSS), 0, 0), Reduction::ssthresh(10 * MSS));
        d.alpha = 0.25;
        assert_eq!(d.on_ecn(&window(20 * MSS), 0, 0), Reduction::ssthresh(17_500));
        // With α = 0 nothing is cut; never below two segments.
        d.alpha = 0.0;
        assert_eq!(d.on_ecn(&window(20 * MSS), 0, 0), Reduction::ssthresh(20 * MSS));
        d.alpha = 1.0;
        assert_eq!(d.on_ecn(&window(3 * MSS), 0, 0), Reduction::ssthresh(2 * MSS));
    }

    #[test]
    fn a_loss_halves_unless_the_ns3_rule_is_chosen() {
        let mut d = dctcp(0.25, DctcpLossDecrease::Halve);
        let loss = d.on_loss(&window(20 * MSS), 20 * MSS, LossSignal::DuplicateAcks, 0);
        assert_eq!(loss, Reduction::ssthresh(10 * MSS), "RFC 8257 §3.4: as Reno");
        let mut d = dctcp(0.25, DctcpLossDecrease::Alpha);
        let loss = d.on_loss(&window(20 * MSS), 20 * MSS, LossSignal::DuplicateAcks, 0);
        assert_eq!(loss, Reduction::ssthresh(17_500), "ns-3.44: cwnd·(1 − α/2)");
    }

    #[test]
    fn parameters_outside_their_ranges_are_refused() {
        let cfg = |g, alpha_init| DctcpConfig { g, alpha_init, loss_decrease: DctcpLossDecrease::Halve };
        assert!(cfg(1.0 / 16.0, 1.0).validate().is_ok());
        assert!(cfg(0.0, 1.0).validate().unwrap_err().starts_with("g:"));
        assert!(cfg(f64::NAN, 1.0).validate().unwrap_err().starts_with("g:"));
        assert!(cfg(0.5, 1.5).validate().unwrap_err().starts_with("alpha_init:"));
    }
}
