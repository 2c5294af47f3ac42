//! TCP: a sender and a receiver per flow, with loss recovery and congestion control as two
//! separate axes (docs/architecture.md, "TCP: two axes").

pub mod cc;
pub mod delivery_rate;
pub mod receiver;
pub mod recovery;
pub mod rtt;
mod sacked_counts;
pub mod send_state;
pub mod sender;
mod timer;
pub mod transmitter;

use crate::config::{FlowConfig, TcpConfig};
pub use receiver::TcpReceiver;
pub use sender::TcpSender;

/// One TCP connection: the sender at `src`, the receiver at `dst`.
pub struct TcpFlow {
    pub sender: TcpSender,
    pub receiver: TcpReceiver,
}

impl TcpFlow {
    pub fn new(index: u32, cfg: &FlowConfig, data_end: u64) -> Self {
        Self::connect(index, cfg.src, cfg.dst, &cfg.tcp, data_end)
    }

    /// A connection `index` from `src` to `dst` with `data_end` bytes to send (u64::MAX:
    /// unlimited), in its initial state.
    pub fn connect(index: u32, src: u32, dst: u32, tcp: &TcpConfig, data_end: u64) -> Self {
        TcpFlow {
            sender: TcpSender::new(index, src, dst, tcp, data_end),
            receiver: TcpReceiver::new(index, dst, src, tcp),
        }
    }

    /// Put `next` (a fresh connection) in this connection's slot, continuing the slot's epoch,
    /// counters and timer generations (`app::connections`).
    pub fn succeed(&mut self, mut next: TcpFlow) {
        next.sender.succeed(&self.sender);
        next.receiver.succeed(&self.receiver);
        *self = next;
    }

    /// The connection is over: its packets still in flight become stale.
    pub fn retire(&mut self) {
        self.sender.retire();
        self.receiver.retire();
    }
}

#[cfg(test)]
mod ecn_tests;
#[cfg(test)]
mod handshake_tests;
#[cfg(test)]
mod pacing_tests;

#[cfg(test)]
pub(crate) mod tests {
    use crate::config::{CaIncrement, CcConfig, RecoveryKind, SsthreshFrom, TcpConfig, TimeoutSsthresh};
    use crate::tcp::cc::AimdConfig;

    /// A TCP configuration for tests: 1000-byte segments, 40-byte headers, no limited transmit
    /// (the hand-worked sequences of the recovery tests predate it; its own tests turn it on).
    pub fn tcp_config(recovery: RecoveryKind, delack_count: u32) -> TcpConfig {
        TcpConfig {
            mss_bytes: 1000,
            header_bytes: 40,
            ack_bytes: None,
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
            limited_transmit: false,
            handshake: false,
            timeout_ssthresh: TimeoutSsthresh::FirstOfEpisode,
            ssthresh_from: SsthreshFrom::Cwnd,
            cc: CcConfig::Aimd(AimdConfig {}),
            ca_increment: CaIncrement::Exact,
            delack_count,
            delack_timeout_ns: 200_000_000,
            ecn: false,
            ecn_immediate_ack: true,
            ecn_sender: Default::default(),
            ecn_receiver: Default::default(),
            ecn_codepoint: Default::default(),
            rtt_sampling: Default::default(),
            rto_estimator: Default::default(),
            partial_ack_timer: Default::default(),
            fast_retransmit_timer: Default::default(),
            rd_class: None,
        }
    }
}
