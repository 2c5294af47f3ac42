//! Congestion control: the window-growth and reduction-target half of a TCP sender.
//!
//! Shaped like Linux's `tcp_congestion_ops`: an algorithm observes every ACK (to feed its
//! estimators), grows the window when the loss-recovery half allows it, and *returns* the new
//! slow-start threshold on a loss — with, optionally, the window to restart from (Westwood's
//! faster recovery) — as a [`Reduction`]; it never sets cwnd itself and never schedules
//! events. Loss recovery (`super::recovery`) decides when each hook is called and applies the
//! reduction.

mod aimd;
mod bandwidth_filter;
mod westwood;
mod westwood_plus;

pub use aimd::Aimd;
pub use westwood::Westwood;
pub use westwood_plus::WestwoodPlus;

use crate::config::{CaIncrement, CcConfig};

/// What the sender learned from one ACK.
#[derive(Clone, Copy, Debug)]
pub struct AckSample {
    pub now_ns: u64,
    /// Bytes newly acknowledged cumulatively (0 for a duplicate ACK).
    pub acked_bytes: u64,
    /// A duplicate ACK (RFC 5681 §2).
    pub duplicate: bool,
    /// RTT measured from this ACK (Karn-valid), if any.
    pub rtt_ns: Option<u64>,
}

/// Why the window is being reduced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LossSignal {
    /// `dupack_threshold` duplicate ACKs (fast retransmit).
    DuplicateAcks,
    /// Retransmission timeout.
    Timeout,
}

/// The window a congestion controller grows.
#[derive(Clone, Copy, Debug)]
pub struct Window {
    pub cwnd_bytes: u64,
    pub ssthresh_bytes: u64,
    pub mss_bytes: u64,
    /// Fractional congestion-avoidance growth carried between ACKs, in bytes·(1/cwnd).
    pub ca_credit: u64,
    pub ca_increment: CaIncrement,
}

/// What a congestion controller answers to a loss signal (one answer per episode: the
/// sender asks once per fast retransmit and once per run of back-to-back timeouts).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reduction {
    /// The new slow-start threshold.
    pub ssthresh_bytes: u64,
    /// The window to restart from, before fast-recovery inflation; `None`: the recovery
    /// algorithm's own rule. Reno and NewReno fast recovery inflate this window by
    /// `dupack_threshold` segments at entry and one per further duplicate ACK, and deflate
    /// back to it when recovery ends (default: ssthresh, RFC 5681 §3.2 steps 3 and 6); a
    /// timeout restarts from it (default: one segment, RFC 5681 §3.1). Tahoe ignores it and
    /// always restarts from one segment (its defining rule).
    pub cwnd_bytes: Option<u64>,
    /// The window Reno/NewReno fast recovery starts from, replacing "`cwnd_bytes` +
    /// `dupack_threshold` segments" (RFC 5681 §3.2 step 3); `None`: that rule. ns-3's
    /// `TcpWestwood::DupAck` starts from min(cwnd, ssthresh) with no inflation.
    pub entry_cwnd_bytes: Option<u64>,
}

/// A congestion-control algorithm. Enum dispatch keeps the per-ACK call direct.
pub enum CongestionControl {
    Aimd(Aimd),
    Westwood(Westwood),
    WestwoodPlus(WestwoodPlus),
}

impl CongestionControl {
    /// `mss_bytes` is the sender's SMSS (Westwood's seg_size).
    pub fn from_config(cfg: &CcConfig, mss_bytes: u64) -> Self {
        match cfg {
            CcConfig::Aimd {} => CongestionControl::Aimd(Aimd),
            CcConfig::Westwood { tau_ns, null_sample_divisor, filter, ns3_fast_recovery, sample_tick_ns } => {
                CongestionControl::Westwood(Westwood::new(
                    *tau_ns,
                    *null_sample_divisor,
                    filter,
                    mss_bytes,
                    *ns3_fast_recovery,
                    *sample_tick_ns,
                ))
            }
            CcConfig::WestwoodPlus { filter, min_window_ns, min_decrease_half, ns3_fast_recovery } => {
                CongestionControl::WestwoodPlus(WestwoodPlus::new(filter, *min_window_ns, *min_decrease_half, *ns3_fast_recovery, mss_bytes))
            }
        }
    }

    /// Observe an ACK (every ACK, duplicate or not, in or out of recovery).
    #[inline]
    pub fn on_ack(&mut self, ack: &AckSample) {
        match self {
            CongestionControl::Aimd(_) => {}
            CongestionControl::Westwood(w) => w.on_ack(ack),
            CongestionControl::WestwoodPlus(w) => w.on_ack(ack),
        }
    }

    /// Grow the window for an ACK of `acked_bytes` new data outside loss recovery.
    #[inline]
    pub fn increase_window(&mut self, w: &mut Window, acked_bytes: u64) {
        match self {
            CongestionControl::Aimd(a) => a.increase_window(w, acked_bytes),
            CongestionControl::Westwood(a) => a.increase_window(w, acked_bytes),
            CongestionControl::WestwoodPlus(a) => a.increase_window(w, acked_bytes),
        }
    }

    /// The reduction after a loss signal at `now_ns`, given the window and the bytes in
    /// flight before it.
    pub fn on_loss(&mut self, w: &Window, flight_bytes: u64, signal: LossSignal, now_ns: u64) -> Reduction {
        match self {
            CongestionControl::Aimd(a) => {
                Reduction { ssthresh_bytes: a.ssthresh_after_loss(w, flight_bytes, signal), cwnd_bytes: None, entry_cwnd_bytes: None }
            }
            CongestionControl::Westwood(a) => a.on_loss(w, signal, now_ns),
            CongestionControl::WestwoodPlus(a) => a.on_loss(w, flight_bytes, signal),
        }
    }

    /// The bandwidth estimate in bits of payload per second, for algorithms that keep one
    /// (as of the last ACK or loss signal).
    pub fn bandwidth_estimate_bps(&self) -> Option<f64> {
        match self {
            CongestionControl::Aimd(_) => None,
            CongestionControl::Westwood(a) => Some(a.bwe_bytes_per_s() * 8.0),
            CongestionControl::WestwoodPlus(a) => Some(a.bwe_bytes_per_s() * 8.0),
        }
    }
}

#[cfg(test)]
mod tests;
