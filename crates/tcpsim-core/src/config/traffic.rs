//! The traffic axis of the canonical scenario: TCP flows and what drives them, UDP sources and
//! web generators (the Python side: `tcpsim.scenario.traffic` and `tcpsim.scenario.web`).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::*;

/// A constant-bit-rate UDP source (`app::cbr`), switched on during the `on` intervals.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UdpFlowConfig {
    pub name: String,
    pub src: u32,
    pub dst: u32,
    /// Sending rate counted in wire bytes.
    pub rate_bps: u64,
    /// Size of each datagram on the wire (headers included).
    pub packet_bytes: u32,
    /// ON intervals [start_ns, end_ns).
    pub on: Vec<(u64, u64)>,
}

/// A flow generator of finite TCP transfers between a server and its clients, or between two
/// of its hosts (`all_to_all`) (`app::web`): each transfer is a new connection with its own
/// cwnd, RTT estimate and RTO, so it starts in slow start; arrivals only in [start_ns, stop_ns).
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WebConfig {
    pub name: String,
    /// Label of the generator in results (its traffic class); the engine does not read it.
    pub class: String,
    /// None exactly when `direction` is `all_to_all`.
    pub server: Option<u32>,
    /// Each transfer serves one of them, drawn uniformly (with `barrier` arrivals: each one in
    /// every round). With `all_to_all`, the hosts: each transfer joins an ordered pair of two
    /// of them, drawn uniformly.
    pub clients: Vec<u32>,
    pub direction: WebDirection,
    pub tcp: TcpConfig,
    pub arrivals: ArrivalConfig,
    pub sizes: SizeConfig,
    pub start_ns: u64,
    /// None: until the end of the run.
    pub stop_ns: Option<u64>,
}

/// Which way a web transfer's data goes.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum WebDirection {
    /// Server to client.
    Download,
    /// Client to server.
    Upload,
    /// From one host to another, both drawn uniformly (no server).
    AllToAll,
}

/// When a generator's transfers start.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(tag = "process", rename_all = "snake_case", deny_unknown_fields)]
pub enum ArrivalConfig {
    /// A Poisson process of `rate_per_s` transfers per second (exponential gaps).
    Poisson { rate_per_s: f64 },
    /// Pareto gaps of mean 1/`rate_per_s` and `shape` > 1 (heavy-tailed, bursty arrivals).
    Pareto { rate_per_s: f64, shape: f64 },
    /// Barrier-synchronised rounds (incast): at start_ns every client starts one transfer; the
    /// next round starts `gap_ns` after the last transfer of the round completed; `rounds` of
    /// them (none starts at or after stop_ns).
    Barrier { rounds: u32, gap_ns: u64 },
}

/// How large a generator's transfers are (payload bytes).
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(tag = "dist", rename_all = "snake_case", deny_unknown_fields)]
pub enum SizeConfig {
    /// Pareto of mean `mean_bytes` and `shape` > 1, rounded to whole bytes (at least one).
    Pareto {
        mean_bytes: u64,
        shape: f64,
    },
    Fixed {
        bytes: u64,
    },
    /// One of the listed sizes, drawn uniformly.
    List {
        bytes: Vec<u64>,
    },
    /// Inverse-CDF sampling of the piecewise-linear CDF through the points (bytes, cumulative
    /// probability): probabilities from 0 to 1 strictly increasing, sizes non-decreasing.
    Empirical {
        cdf: Vec<(u64, f64)>,
    },
}

impl WebConfig {
    /// Check the generator's own parameters; errors are `field: message` relative to it.
    pub(crate) fn validate(&self, n_nodes: u32) -> Result<(), String> {
        match (self.server, self.direction) {
            (Some(_), WebDirection::AllToAll) => return Err("server: must be null with direction all_to_all".into()),
            (None, WebDirection::Download | WebDirection::Upload) => {
                return Err("server: needed with direction download or upload".into())
            }
            (Some(server), _) if server >= n_nodes => {
                return Err(format!("server: {server} must be a node < {n_nodes}"));
            }
            _ => {}
        }
        let least = if self.server.is_some() { 1 } else { 2 };
        if self.clients.len() < least {
            return Err(format!("clients: needs at least {least}, has {}", self.clients.len()));
        }
        for (j, &c) in self.clients.iter().enumerate() {
            if c >= n_nodes || Some(c) == self.server {
                return Err(format!("clients[{j}]: {c} must be a node < {n_nodes} other than the server"));
            }
            if self.server.is_none() && self.clients[..j].contains(&c) {
                return Err(format!("clients[{j}]: {c} is listed twice; all_to_all hosts must be distinct"));
            }
        }
        let positive = |field: &str, x: f64| {
            if x.is_finite() && x > 0.0 {
                Ok(())
            } else {
                Err(format!("{field}: {x} must be a finite number > 0"))
            }
        };
        let shape = |field: &str, a: f64| {
            if a.is_finite() && a > 1.0 {
                Ok(())
            } else {
                Err(format!("{field}: {a} must be > 1 (a Pareto with shape <= 1 has an infinite mean)"))
            }
        };
        match self.arrivals {
            ArrivalConfig::Poisson { rate_per_s } => positive("arrivals.rate_per_s", rate_per_s)?,
            ArrivalConfig::Pareto { rate_per_s, shape: a } => {
                positive("arrivals.rate_per_s", rate_per_s)?;
                shape("arrivals.shape", a)?;
            }
            ArrivalConfig::Barrier { rounds: 0, .. } => {
                return Err("arrivals.rounds: 0 must be >= 1".into());
            }
            ArrivalConfig::Barrier { .. } if self.direction == WebDirection::AllToAll => {
                return Err("arrivals.process: barrier needs a server and clients, not all_to_all".into());
            }
            ArrivalConfig::Barrier { .. } => {}
        }
        let size = |field: &str, bytes: u64| {
            if (1..=MAX_TRANSFER_BYTES).contains(&bytes) {
                Ok(())
            } else {
                Err(format!("{field}: {bytes} must be in [1, {MAX_TRANSFER_BYTES}]"))
            }
        };
        match &self.sizes {
            SizeConfig::Pareto { mean_bytes, shape: a } => {
                size("sizes.mean_bytes", *mean_bytes)?;
                shape("sizes.shape", *a)?;
            }
            SizeConfig::Fixed { bytes } => size("sizes.bytes", *bytes)?,
            SizeConfig::List { bytes } if bytes.is_empty() => return Err("sizes.bytes: needs at least one size".into()),
            SizeConfig::List { bytes } => {
                for (k, b) in bytes.iter().enumerate() {
                    size(&format!("sizes.bytes[{k}]"), *b)?;
                }
            }
            SizeConfig::Empirical { cdf } => validate_cdf(cdf).map_err(|e| format!("sizes.cdf{e}"))?,
        }
        if let Some(stop) = self.stop_ns.filter(|stop| *stop <= self.start_ns) {
            return Err(format!("stop_ns: {stop} must be > start_ns ({})", self.start_ns));
        }
        self.tcp.validate().map_err(|e| format!("tcp{e}"))
    }
}

/// An empirical size CDF is usable: at least two points, the first probability 0 and the last
/// 1, probabilities strictly increasing, sizes non-decreasing and at most
/// [`MAX_TRANSFER_BYTES`]. Errors are `[k]: message` relative to the list.
fn validate_cdf(cdf: &[(u64, f64)]) -> Result<(), String> {
    if cdf.len() < 2 {
        return Err(format!(": needs at least two points, has {}", cdf.len()));
    }
    for (k, &(bytes, p)) in cdf.iter().enumerate() {
        if bytes > MAX_TRANSFER_BYTES {
            return Err(format!("[{k}]: size {bytes} must be <= {MAX_TRANSFER_BYTES}"));
        }
        if !(0.0..=1.0).contains(&p) {
            return Err(format!("[{k}]: probability {p} must be in [0, 1]"));
        }
        if let Some(&(previous_bytes, previous_p)) = k.checked_sub(1).map(|j| &cdf[j]) {
            if p <= previous_p {
                return Err(format!("[{k}]: probability {p} must be > the previous point's ({previous_p})"));
            }
            if bytes < previous_bytes {
                return Err(format!("[{k}]: size {bytes} must be >= the previous point's ({previous_bytes})"));
            }
        }
    }
    if cdf[0].1 != 0.0 || cdf[cdf.len() - 1].1 != 1.0 {
        return Err(format!(": probabilities must run from 0 to 1, not {} to {}", cdf[0].1, cdf[cdf.len() - 1].1));
    }
    Ok(())
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FlowConfig {
    pub name: String,
    pub src: u32,
    pub dst: u32,
    pub tcp: TcpConfig,
    pub app: AppConfig,
}

/// What drives a flow.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
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
    /// An ON/OFF source (`app::on_off`): new data only inside the ON intervals [start_ns,
    /// end_ns) (sorted, disjoint, each non-empty; an empty list never sends). One connection
    /// serves every interval: cwnd, ssthresh and the RTT estimate persist across OFF periods
    /// and the first ON period's window is sent at once when the next one begins, as an ns-2
    /// FTP agent's `start`/`stop` do; RFC 5681 §4.1's restart after idle is not applied.
    OnOff {
        on_ns: Vec<(u64, u64)>,
        /// Total bytes over all ON intervals (None: unlimited).
        bytes: Option<u64>,
    },
}
