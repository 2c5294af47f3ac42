//! The canonical scenario the engine runs: every quantity an integer in base units
//! (nanoseconds, bits per second, bytes), every reference an index.
//!
//! Users never write this form. The Python layer (`tcpsim.scenario`) parses human units
//! ("10Mbps", "1BDP"), checks every field against one schema and reports errors by path;
//! it then emits this structure as JSON. The engine still re-checks what it relies on
//! ([`SimConfig::validate`]) so that a malformed canonical file is an error, never a panic.

use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct SimConfig {
    /// Simulated time at which the run ends.
    pub duration_ns: u64,
    /// Start of the measurement window; summaries cover [warmup_ns, duration_ns].
    #[serde(default)]
    pub warmup_ns: u64,
    /// Node names; links and flows refer to nodes by index into this list.
    pub nodes: Vec<String>,
    pub links: Vec<LinkConfig>,
    #[serde(default)]
    pub flows: Vec<FlowConfig>,
    #[serde(default)]
    pub trace: TraceConfig,
}

/// A full-duplex point-to-point link between nodes `a` and `b`. Each direction has its own
/// serializer, queue and loss models.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct LinkConfig {
    pub name: String,
    pub a: u32,
    pub b: u32,
    pub rate_bps: u64,
    pub delay_ns: u64,
    /// Direction a → b.
    pub ab: DirectionConfig,
    /// Direction b → a.
    pub ba: DirectionConfig,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct DirectionConfig {
    pub queue: QueueConfig,
    #[serde(default)]
    pub loss: Vec<LossConfig>,
}

/// Queue discipline of one link direction.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum QueueConfig {
    /// FIFO that drops arrivals when full. At least one limit is set; with both, either
    /// one being reached drops.
    DropTail { limit_packets: Option<u64>, limit_bytes: Option<u64> },
}

/// A loss (packet error) model on one link direction, applied when a packet finishes
/// serialization: the packet occupied the link but does not arrive.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum LossConfig {
    /// Each packet independently lost with probability `p`.
    Bernoulli { p: f64 },
    /// Drop the first transmission of the listed data segments of one TCP flow.
    /// Segments count from 1: segment n carries bytes [(n-1)·mss, n·mss).
    Scripted { flow: u32, segments: Vec<u64> },
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct FlowConfig {
    pub name: String,
    pub src: u32,
    pub dst: u32,
    pub tcp: TcpConfig,
    pub app: AppConfig,
}

/// Loss-recovery algorithm (DESIGN "two separate axes": this half owns duplicate ACKs,
/// fast retransmit, fast recovery and the retransmission timer).
#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum RecoveryKind {
    /// Fast retransmit, then slow start from one segment with go-back-N (4.3BSD-Tahoe as in ns-2).
    Tahoe,
    /// RFC 5681 §3.2 fast retransmit / fast recovery; leaves recovery on the first new ACK.
    Reno,
    /// RFC 6582: stays in fast recovery until all data outstanding at its start is acked.
    Newreno,
}

/// Congestion-control algorithm (the window-growth and reduction-target half).
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum CcConfig {
    /// RFC 5681 slow start and congestion avoidance, ssthresh = max(FlightSize/2, 2·SMSS).
    Aimd {},
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct TcpConfig {
    /// Payload bytes per segment (SMSS).
    pub mss_bytes: u32,
    /// IP + TCP header bytes added on the wire to data and ACK packets.
    pub header_bytes: u32,
    /// Initial window in segments (RFC 5681 §3.1 IW).
    pub init_cwnd_segments: u32,
    /// Initial slow-start threshold (RFC 5681: arbitrarily high).
    pub init_ssthresh_bytes: u64,
    /// Receiver's advertised window; the sender never has more than this outstanding.
    pub rwnd_bytes: u64,
    /// RFC 6298 §2.1 initial RTO.
    pub initial_rto_ns: u64,
    /// RFC 6298 §2.4 lower bound.
    pub min_rto_ns: u64,
    /// RFC 6298 §2.5 upper bound.
    pub max_rto_ns: u64,
    /// RFC 6298 clock granularity G.
    pub clock_granularity_ns: u64,
    /// Duplicate ACKs that trigger fast retransmit (RFC 5681: 3).
    pub dupack_threshold: u32,
    pub recovery: RecoveryKind,
    /// Do not enter fast retransmit again for duplicate ACKs that do not cover `recover`
    /// (RFC 6582 §3.2 step 1; ns-2's `bug_fix_`), applied to every recovery algorithm.
    pub avoid_repeated_fast_retransmit: bool,
    pub cc: CcConfig,
    /// Receiver: acknowledge every `delack_count`-th full segment (1 = no delayed ACKs).
    pub delack_count: u32,
    /// Receiver: longest an ACK is withheld (RFC 5681 §4.2: < 500 ms).
    pub delack_timeout_ns: u64,
}

/// What drives a flow.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum AppConfig {
    /// Always has data to send (`bytes` = None) or sends `bytes` and stops.
    Bulk {
        start_ns: u64,
        /// The start is delayed by a uniform draw in [0, start_jitter_ns] from the flow's
        /// own random stream.
        #[serde(default)]
        start_jitter_ns: u64,
        /// No new data is sent after this time (retransmissions still are).
        stop_ns: Option<u64>,
        bytes: Option<u64>,
    },
}

/// Which time series to record. Summaries are always on.
#[derive(Clone, Debug, Default, Deserialize, Serialize)]
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
}

impl SimConfig {
    /// Check what the engine relies on. Returns the first problem as `path: message`.
    pub fn validate(&self) -> Result<(), String> {
        let n = self.nodes.len() as u32;
        if self.duration_ns == 0 {
            return Err("duration_ns: must be > 0".into());
        }
        if self.warmup_ns >= self.duration_ns {
            return Err(format!(
                "warmup_ns: {} must be < duration_ns ({})",
                self.warmup_ns, self.duration_ns
            ));
        }
        for (i, l) in self.links.iter().enumerate() {
            if l.a >= n || l.b >= n || l.a == l.b {
                return Err(format!("links[{i}]: endpoints {} and {} must be two distinct nodes < {n}", l.a, l.b));
            }
            if l.rate_bps == 0 {
                return Err(format!("links[{i}].rate_bps: must be > 0"));
            }
            for (d, dir) in [("ab", &l.ab), ("ba", &l.ba)] {
                let QueueConfig::DropTail { limit_packets, limit_bytes } = &dir.queue;
                if limit_packets.is_none() && limit_bytes.is_none() {
                    return Err(format!("links[{i}].{d}.queue: needs limit_packets or limit_bytes"));
                }
                for (j, loss) in dir.loss.iter().enumerate() {
                    match loss {
                        LossConfig::Bernoulli { p } if !(0.0..=1.0).contains(p) => {
                            return Err(format!("links[{i}].{d}.loss[{j}].p: {p} must be in [0, 1]"));
                        }
                        LossConfig::Scripted { flow, .. } if *flow as usize >= self.flows.len() => {
                            return Err(format!("links[{i}].{d}.loss[{j}].flow: {flow} is not a flow index"));
                        }
                        _ => {}
                    }
                }
            }
        }
        for (i, f) in self.flows.iter().enumerate() {
            if f.src >= n || f.dst >= n || f.src == f.dst {
                return Err(format!("flows[{i}]: src {} and dst {} must be two distinct nodes < {n}", f.src, f.dst));
            }
            let t = &f.tcp;
            if t.mss_bytes == 0 {
                return Err(format!("flows[{i}].tcp.mss_bytes: must be > 0"));
            }
            if t.init_cwnd_segments == 0 || t.dupack_threshold == 0 || t.delack_count == 0 {
                return Err(format!(
                    "flows[{i}].tcp: init_cwnd_segments, dupack_threshold and delack_count must be >= 1"
                ));
            }
            if t.rwnd_bytes < t.mss_bytes as u64 {
                return Err(format!("flows[{i}].tcp.rwnd_bytes: {} must be >= mss_bytes", t.rwnd_bytes));
            }
            if t.min_rto_ns == 0 || t.min_rto_ns > t.max_rto_ns {
                return Err(format!("flows[{i}].tcp.min_rto_ns: must be in (0, max_rto_ns]"));
            }
        }
        Ok(())
    }
}
