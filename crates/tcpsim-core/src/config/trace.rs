//! What a run records beside its summaries: time series and packet captures (the Python
//! side: the `[trace]` table of `tcpsim.scenario.sections`).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Rows the cwnd, rtt and queue traces may hold together when the scenario names no cap:
/// about 4.4 GB at the widest row (cwnd: 44 bytes), far above what any reproduction records.
pub const DEFAULT_MAX_TRACE_ROWS: u64 = 100_000_000;

fn default_max_trace_rows() -> u64 {
    DEFAULT_MAX_TRACE_ROWS
}

/// Which time series to record. Summaries are always on.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TraceConfig {
    /// cwnd and ssthresh per flow.
    #[serde(default)]
    pub cwnd: bool,
    /// Every RTT sample with the smoothed RTT and RTO after it.
    #[serde(default)]
    pub rtt: bool,
    /// Queue length of every link direction.
    #[serde(default)]
    pub queue: bool,
    /// 0: record cwnd and queue at every change; otherwise sample them at this period.
    #[serde(default)]
    pub interval_ns: u64,
    /// Bytes delivered per flow in bins of this width (0: off).
    #[serde(default)]
    pub throughput_bin_ns: u64,
    /// Most rows (one row = one recorded sample) the cwnd, rtt and queue traces hold together,
    /// so their memory is bounded whatever the interval. Once reached, nothing more is
    /// recorded and the summary reports `trace_truncated` with the simulated time of the first
    /// row left out. Always >= 1: there is no unbounded setting.
    #[serde(default = "default_max_trace_rows")]
    #[schemars(range(min = 1))]
    pub max_rows: u64,
    /// Link directions whose packets are written to pcap files (`trace::pcap`); the files'
    /// paths are given with the run, not here. Captures never change a result.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pcap: Vec<PcapTapConfig>,
    /// Nodes (indices in `nodes`) captured as a host's own capture would show them
    /// (`trace::pcap`): the packets each sends, as they start serialization on one of its
    /// links, and those that reach it, as they arrive. Files follow `pcap`'s, in this order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pcap_nodes: Vec<u32>,
}

/// A link direction captured to a pcap file.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct PcapTapConfig {
    /// Index of the link in `links`.
    pub link: u32,
    pub direction: LinkDirection,
}

/// One direction of a link: a → b or b → a.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum LinkDirection {
    Ab,
    Ba,
}

impl Default for TraceConfig {
    fn default() -> Self {
        TraceConfig {
            cwnd: false,
            rtt: false,
            queue: false,
            interval_ns: 0,
            throughput_bin_ns: 0,
            max_rows: DEFAULT_MAX_TRACE_ROWS,
            pcap: Vec::new(),
            pcap_nodes: Vec::new(),
        }
    }
}
