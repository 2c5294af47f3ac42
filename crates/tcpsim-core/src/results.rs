//! Run results: per-flow and per-link-direction summaries over the measurement window.

use serde::Serialize;

#[derive(Clone, Debug, Serialize)]
pub struct FlowResult {
    pub id: u32,
    /// Data packets sent, retransmissions included.
    pub packets_sent: u64,
    /// Data packets dropped by a queue or a loss model (packets_dropped / packets_sent is the
    /// flow's loss rate).
    pub packets_dropped: u64,
    /// Bytes delivered in order to the receiving application.
    pub bytes_delivered: u64,
    /// Payload bytes sent, retransmissions included.
    pub bytes_sent: u64,
    pub bytes_retransmitted: u64,
    /// Data packets that were retransmissions.
    pub packets_retransmitted: u64,
    /// ACKs the receiver sent repeating its previous ACK's number (duplicate ACKs).
    pub dupacks_sent: u64,
    /// bytes_delivered · 8 / window: what the receiver got.
    pub throughput_bps: f64,
    /// `macura` eq. (1): (sent − retransmitted) · 8 / window, the new data the sender sent; it
    /// exceeds `throughput_bps` by the new data in flight or lost at the window's end.
    pub goodput_bps: f64,
    pub timeouts: u64,
    pub fast_retransmits: u64,
    pub fast_retransmitted_segments: u64,
    /// Fast retransmissions that reached a receiver already holding their data.
    pub spurious_fast_retransmits: u64,
    /// Window reductions in answer to ECN-Echo (RFC 3168 §6.1.2).
    pub ecn_reductions: u64,
    /// Data segments that reached the receiver marked CE.
    pub ce_received: u64,
    pub rtt_min_s: Option<f64>,
    pub rtt_mean_s: Option<f64>,
    pub final_cwnd_bytes: u64,
    pub final_ssthresh_bytes: u64,
    pub final_rto_s: f64,
}

#[derive(Clone, Debug, Serialize)]
pub struct ChannelResult {
    pub link: u32,
    /// "ab" or "ba".
    pub direction: &'static str,
    pub from: u32,
    pub to: u32,
    pub rate_bps: u64,
    /// Fraction of the window spent serializing.
    pub utilization: f64,
    pub tx_packets: u64,
    pub tx_bytes: u64,
    /// Arrivals the queue dropped, for want of room or by its congestion signal.
    pub drops_queue: u64,
    /// The part of `drops_queue` decided by RED's average (early and forced drops).
    pub drops_early: u64,
    /// Packets the queue marked CE instead of dropping them.
    pub marks_ecn: u64,
    pub drops_error: u64,
    pub queue_mean_pkts: f64,
    pub queue_mean_bytes: f64,
    pub queue_max_pkts: u64,
    /// The part of `drops_queue` its node's shared buffer refused (`net::shared_buffer`;
    /// absent for a queue with its own memory only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub drops_shared_buffer: Option<u64>,
    /// The R and D queues of an RD discipline (absent for other disciplines).
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub rd: Option<RdQueueResult>,
    /// The L and C queues of a DualPI2 discipline (absent for other disciplines).
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub dualpi2: Option<DualPi2QueueResult>,
}

/// The L and C queues of a DualPI2 link direction over the window (`queue::dualpi2`).
#[derive(Clone, Debug, Serialize)]
pub struct DualPi2QueueResult {
    /// CE marks (L: the step or k·p'; C: ECT(0) packets with p'²).
    pub l_marks_ecn: u64,
    pub c_marks_ecn: u64,
    /// Drops at dequeue (L: only in overload; C: p'²); full-buffer drops are not in either.
    pub l_drops_early: u64,
    pub c_drops_early: u64,
    pub l_bytes_served: u64,
    pub c_bytes_served: u64,
    pub l_queue_mean_pkts: f64,
    pub c_queue_mean_pkts: f64,
}

/// The two queues of an RD link direction over the window (`queue::rd`).
#[derive(Clone, Debug, Serialize)]
pub struct RdQueueResult {
    pub r_drops: u64,
    pub d_drops: u64,
    pub r_bytes_served: u64,
    pub d_bytes_served: u64,
    pub r_queue_mean_pkts: f64,
    pub d_queue_mean_pkts: f64,
    /// n_R and n_D, the active-flow estimates at the last recalculation.
    pub r_flows: f64,
    pub d_flows: f64,
    /// n_R and n_D averaged over the window (each count weighted by the time it was in force).
    pub r_flows_mean: f64,
    pub d_flows_mean: f64,
    /// B_R and B_D at the end, in the buffer's unit (packets or bytes).
    pub r_limit: u64,
    pub d_limit: u64,
}

#[derive(Clone, Debug, Serialize)]
pub struct UdpFlowResult {
    pub id: u32,
    pub packets_sent: u64,
    pub bytes_sent: u64,
    pub packets_received: u64,
    pub bytes_received: u64,
    /// bytes_received · 8 / window.
    pub throughput_bps: f64,
}

/// One web generator's transfers (`app::web`). Counts and flow-completion times cover the
/// transfers that started inside the window; bytes and packets are counted inside the window,
/// like a flow's.
#[derive(Clone, Debug, Serialize)]
pub struct WebResult {
    pub id: u32,
    pub transfers_started: u64,
    /// Of those started, the ones whose receiver held every byte by the end of the run.
    pub transfers_completed: u64,
    pub bytes_delivered: u64,
    /// bytes_delivered · 8 / window.
    pub throughput_bps: f64,
    pub packets_sent: u64,
    pub packets_dropped: u64,
    pub fct_mean_s: Option<f64>,
    pub fct_median_s: Option<f64>,
    /// 95th percentile, linearly interpolated between order statistics (numpy's default).
    pub fct_p95_s: Option<f64>,
    /// Connection slots the generator used: the most of its transfers in progress at once.
    pub connection_slots: u64,
}

#[derive(Clone, Debug, Serialize)]
pub struct RunSummary {
    pub flows: Vec<FlowResult>,
    pub udp_flows: Vec<UdpFlowResult>,
    pub web: Vec<WebResult>,
    pub channels: Vec<ChannelResult>,
    pub events: u64,
    pub sim_ns: u64,
    pub window_ns: u64,
    pub packets_created: u64,
    pub packets_delivered: u64,
    pub packets_dropped: u64,
    pub packets_in_network: u64,
    /// Packets of finished web connections discarded at delivery (counted as delivered).
    pub packets_stale: u64,
    /// Connection slots of all web generators: the flow table's size beyond the flows.
    pub connection_slots: u64,
    /// Whether the cwnd, rtt and queue traces stopped at `trace.max_rows` rows.
    pub trace_truncated: bool,
    /// Simulated time of the first trace row left out, s.
    pub trace_truncated_at_s: Option<f64>,
}
