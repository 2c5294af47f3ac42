//! Congestion control: the window-growth and reduction-target half of a TCP sender.
//!
//! Shaped like Linux's `tcp_congestion_ops`: an algorithm observes every ACK (to feed its
//! estimators), grows the window when the loss-recovery half allows it, and *returns* the new
//! slow-start threshold on a loss; it never sets cwnd during recovery and never schedules
//! events. Loss recovery (`super::recovery`) decides when each hook is called.

mod aimd;

pub use aimd::Aimd;

use crate::config::CcConfig;

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
}

/// A congestion-control algorithm. Enum dispatch keeps the per-ACK call direct.
pub enum CongestionControl {
    Aimd(Aimd),
}

impl CongestionControl {
    pub fn from_config(cfg: &CcConfig) -> Self {
        match cfg {
            CcConfig::Aimd {} => CongestionControl::Aimd(Aimd),
        }
    }

    /// Observe an ACK (every ACK, duplicate or not, in or out of recovery).
    #[inline]
    pub fn on_ack(&mut self, _ack: &AckSample) {
        match self {
            CongestionControl::Aimd(_) => {}
        }
    }

    /// Grow the window for an ACK of `acked_bytes` new data outside loss recovery.
    #[inline]
    pub fn increase_window(&mut self, w: &mut Window, acked_bytes: u64) {
        match self {
            CongestionControl::Aimd(a) => a.increase_window(w, acked_bytes),
        }
    }

    /// The slow-start threshold after a loss signal, given the bytes in flight.
    pub fn ssthresh_after_loss(&mut self, w: &Window, flight_bytes: u64, signal: LossSignal) -> u64 {
        match self {
            CongestionControl::Aimd(a) => a.ssthresh_after_loss(w, flight_bytes, signal),
        }
    }
}
