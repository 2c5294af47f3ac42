//! TCP: a sender and a receiver per flow, with loss recovery and congestion control as two
//! separate axes (docs/architecture.md, "TCP: two axes").

pub mod cc;
pub mod receiver;
pub mod recovery;
pub mod rtt;
pub mod send_state;
pub mod sender;
mod timer;
pub mod transmitter;

use crate::config::FlowConfig;
pub use receiver::TcpReceiver;
pub use sender::TcpSender;

/// One TCP connection: the sender at `src`, the receiver at `dst`.
pub struct TcpFlow {
    pub sender: TcpSender,
    pub receiver: TcpReceiver,
}

impl TcpFlow {
    pub fn new(index: u32, cfg: &FlowConfig, data_end: u64) -> Self {
        TcpFlow {
            sender: TcpSender::new(index, cfg.src, cfg.dst, &cfg.tcp, data_end),
            receiver: TcpReceiver::new(index, cfg.dst, cfg.src, &cfg.tcp),
        }
    }
}

#[cfg(test)]
mod ecn_tests;

#[cfg(test)]
pub(crate) mod tests {
    use crate::config::{CaIncrement, CcConfig, RecoveryKind, TcpConfig, TimeoutSsthresh};

    /// A TCP configuration for tests: 1000-byte segments, 40-byte headers.
    pub fn tcp_config(recovery: RecoveryKind, delack_count: u32) -> TcpConfig {
        TcpConfig {
            mss_bytes: 1000,
            header_bytes: 40,
            init_cwnd_segments: 1,
            init_ssthresh_bytes: 1 << 30,
            rwnd_bytes: 1 << 30,
            initial_rto_ns: 1_000_000_000,
            min_rto_ns: 1_000_000_000,
            max_rto_ns: 60_000_000_000,
            clock_granularity_ns: 1_000_000,
            rtt_tick_ns: 0,
            dupack_threshold: 3,
            recovery,
            avoid_repeated_fast_retransmit: true,
            timeout_ssthresh: TimeoutSsthresh::FirstOfEpisode,
            cc: CcConfig::Aimd {},
            ca_increment: CaIncrement::Exact,
            delack_count,
            delack_timeout_ns: 200_000_000,
            ecn: false,
            ecn_immediate_ack: true,
            rd_class: None,
        }
    }
}
