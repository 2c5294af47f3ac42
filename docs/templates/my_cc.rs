//! Template of a congestion control (`docs/adding-an-algorithm.md`): copy it to
//! `crates/tcpsim-core/src/tcp/cc/<name>.rs`, rename `MyCc`, and register it with three lines
//! in `tcp/cc/mod.rs`. As written it is GAIMD (Yang & Lam, "General AIMD congestion control",
//! ICNP 2000): congestion avoidance adds `increase_segments` segments per RTT (a per-ACK share
//! of a·SMSS²/cwnd, RFC 5681 eq. 3 scaled by a), and a loss keeps `decrease_factor` of the
//! window (RFC 5681 eq. 4 with b in place of 1/2). Reno is a = 1, b = 1/2.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{CcParameters, CongestionOps, LossSignal, Reduction, Window};

/// MyCc's parameters (`cc = {kind = "my_cc", …}`); users' defaults are set by its Python model.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct MyCcConfig {
    /// a, segments added per RTT in congestion avoidance, > 0 (Reno: 1).
    pub increase_segments: f64,
    /// b, the share of the window kept after a loss, in (0, 1) (Reno: 0.5).
    pub decrease_factor: f64,
}

impl CcParameters for MyCcConfig {
    fn validate(&self) -> Result<(), String> {
        let a = self.increase_segments;
        if !(a > 0.0 && a.is_finite()) {
            return Err(format!("increase_segments: {a} must be a finite number > 0"));
        }
        let b = self.decrease_factor;
        if !(b > 0.0 && b < 1.0) {
            return Err(format!("decrease_factor: {b} must be in (0, 1)"));
        }
        Ok(())
    }
}

pub struct MyCc {
    cfg: MyCcConfig,
    /// Congestion-avoidance growth not yet added to cwnd, bytes (below one byte).
    credit_bytes: f64,
}

impl MyCc {
    pub fn new(cfg: &MyCcConfig, _mss_bytes: u64) -> Self {
        MyCc { cfg: *cfg, credit_bytes: 0.0 }
    }
}

impl CongestionOps for MyCc {
    fn increase_window(&mut self, w: &mut Window, acked_bytes: u64) {
        if w.cwnd_bytes < w.ssthresh_bytes {
            w.cwnd_bytes += acked_bytes.min(w.mss_bytes); // RFC 5681 eq. 2
            return;
        }
        let mss = w.mss_bytes as f64;
        self.credit_bytes += self.cfg.increase_segments * mss * mss / w.cwnd_bytes as f64;
        let whole = self.credit_bytes.floor();
        w.cwnd_bytes += whole as u64;
        self.credit_bytes -= whole;
    }

    fn on_loss(&mut self, w: &Window, flight_bytes: u64, _signal: LossSignal, _now_ns: u64) -> Reduction {
        let kept = (flight_bytes as f64 * self.cfg.decrease_factor) as u64;
        Reduction::ssthresh(kept.max(2 * w.mss_bytes))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::CaIncrement;
    use crate::tcp::cc::{CcConfig, CongestionControl};

    fn window(cwnd_bytes: u64) -> Window {
        Window { cwnd_bytes, ssthresh_bytes: 0, mss_bytes: 1000, ca_credit: 0, ca_increment: CaIncrement::Exact }
    }

    #[test]
    fn a_window_of_acks_adds_a_segments_and_a_loss_keeps_b() {
        let mut cc = MyCc::new(&MyCcConfig { increase_segments: 2.0, decrease_factor: 0.8 }, 1000);
        let mut w = window(10_000);
        // Ten ACKs at cwnd 10 segments add 2·1000²/cwnd bytes each, recomputed as cwnd grows:
        // 200 + 196.1 + … = 1846 bytes (the per-ACK form slightly under-runs a·SMSS per RTT).
        for _ in 0..10 {
            cc.increase_window(&mut w, 1000);
        }
        assert_eq!(w.cwnd_bytes, 11_846);
        let r = cc.on_loss(&w, 10_000, LossSignal::DuplicateAcks, 0);
        assert_eq!(r.ssthresh_bytes, 8_000);
        assert_eq!(cc.on_loss(&w, 2_000, LossSignal::Timeout, 0).ssthresh_bytes, 2_000, "floor of 2 segments");
    }

    #[test]
    fn the_kind_parses_checks_and_builds() {
        let cfg: CcConfig =
            serde_json::from_str(r#"{"kind": "my_cc", "increase_segments": 1, "decrease_factor": 0.5}"#).unwrap();
        assert!(cfg.validate().is_ok());
        assert!(matches!(CongestionControl::from_config(&cfg, 1000), CongestionControl::MyCc(_)));
        let bad: CcConfig =
            serde_json::from_str(r#"{"kind": "my_cc", "increase_segments": 1, "decrease_factor": 1.5}"#).unwrap();
        assert_eq!(bad.validate().unwrap_err(), "decrease_factor: 1.5 must be in (0, 1)");
    }
}
