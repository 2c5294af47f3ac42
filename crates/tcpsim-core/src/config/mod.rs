//! The canonical scenario the engine runs: every quantity an integer in base units
//! (nanoseconds, bits per second, bytes), every reference an index.
//!
//! Users never write this form. The Python layer (`tcpsim.scenario`) parses human units
//! ("10Mbps", "1BDP"), checks every field against one schema and reports errors by path;
//! it then emits this structure as JSON. The engine still re-checks what it relies on
//! ([`SimConfig::validate`]) so that a malformed canonical file is an error, never a panic.

mod network;
mod tcp;
mod trace;
mod traffic;

use schemars::JsonSchema;

use serde::{Deserialize, Serialize};

pub use crate::queue::StepConfig;
pub use crate::queue::{PieConfig, PieDelayEstimator};
pub use crate::tcp::cc::CcConfig;

pub use crate::queue::{RdConfig, RedConfig, RedMode, MAX_COUNTER_SLOTS};
pub use network::*;
pub use tcp::*;
pub use trace::*;
pub use traffic::*;

/// Largest segment payload and header, and largest UDP datagram. With them a packet's wire
/// size (payload + header + at most 36 bytes of SACK option) stays below 2^31, so it fits the
/// engine's `u32` sizes and `bytes · 8 · 10^9` fits a `u64`.
pub const MAX_MSS_BYTES: u32 = 1 << 30;
pub const MAX_HEADER_BYTES: u32 = 1 << 16;
pub const MAX_UDP_PACKET_BYTES: u32 = 1 << 30;

/// Largest web transfer (2^53 bytes, 9 PB: exact in an f64 and an i64); a Pareto draw beyond
/// it is cut to it.
pub const MAX_TRANSFER_BYTES: u64 = 1 << 53;

/// Longest time any field may hold (about 31.7 years): a sum of a few of them (now + delay +
/// serialization, now + timeout) never overflows a `u64` of nanoseconds.
pub const MAX_TIME_NS: u64 = 1_000_000_000_000_000_000;

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
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
    /// How routers choose among paths of equally few hops.
    #[serde(default)]
    pub routing: RoutingConfig,
    /// Nodes whose output queues share one buffer with a dynamic threshold per port
    /// (`net::shared_buffer`); every other queue has only its own limit.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shared_buffers: Vec<crate::net::SharedBufferConfig>,
    #[serde(default)]
    pub flows: Vec<FlowConfig>,
    #[serde(default)]
    pub udp_flows: Vec<UdpFlowConfig>,
    /// Flow generators of finite TCP transfers (`app::web`).
    #[serde(default)]
    pub web: Vec<WebConfig>,
    #[serde(default)]
    pub trace: TraceConfig,
}

/// Every time in `value` (the numbers under a key ending in `_ns`, and UDP `on` intervals) is
/// at most [`MAX_TIME_NS`]; errors name the first one that is not.
fn check_times(value: &serde_json::Value, path: &str, is_time: bool) -> Result<(), String> {
    match value {
        serde_json::Value::Object(fields) => fields.iter().try_for_each(|(key, v)| {
            let sub = if path.is_empty() { key.clone() } else { format!("{path}.{key}") };
            check_times(v, &sub, key.ends_with("_ns") || key == "on")
        }),
        serde_json::Value::Array(items) => {
            items.iter().enumerate().try_for_each(|(j, v)| check_times(v, &format!("{path}[{j}]"), is_time))
        }
        serde_json::Value::Number(n) if is_time && n.as_u64().is_none_or(|ns| ns > MAX_TIME_NS) => {
            Err(format!("{path}: {n} ns is longer than the longest time allowed, {MAX_TIME_NS} ns (about 31.7 years)"))
        }
        _ => Ok(()),
    }
}

impl SimConfig {
    /// Captured links and nodes exist, each once; every packet fits an IPv4 packet (65535
    /// bytes) when anything is captured.
    fn validate_pcap(&self) -> Result<(), String> {
        for (i, &node) in self.trace.pcap_nodes.iter().enumerate() {
            if node as usize >= self.nodes.len() {
                return Err(format!("trace.pcap_nodes[{i}]: {node} is not a node index (< {})", self.nodes.len()));
            }
            if self.trace.pcap_nodes[..i].contains(&node) {
                return Err(format!("trace.pcap_nodes[{i}]: node {node} is captured twice"));
            }
        }
        for (i, tap) in self.trace.pcap.iter().enumerate() {
            if tap.link as usize >= self.links.len() {
                return Err(format!("trace.pcap[{i}].link: {} is not a link index (< {})", tap.link, self.links.len()));
            }
            if self.trace.pcap[..i].contains(tap) {
                return Err(format!("trace.pcap[{i}]: link {} {:?} is captured twice", tap.link, tap.direction));
            }
        }
        if self.trace.pcap.is_empty() && self.trace.pcap_nodes.is_empty() {
            return Ok(());
        }
        // A data segment, or an ACK with three SACK blocks (4 + 3 · 8 option bytes).
        let largest = |tcp: &TcpConfig| {
            let header = tcp.header_bytes.max(tcp.ack_bytes.unwrap_or(0)) as u64;
            tcp.mss_bytes.max(28) as u64 + header
        };
        let sizes = [
            ("flows", self.flows.iter().map(|f| largest(&f.tcp)).collect::<Vec<_>>()),
            ("web", self.web.iter().map(|w| largest(&w.tcp)).collect()),
            ("udp_flows", self.udp_flows.iter().map(|u| u.packet_bytes as u64).collect()),
        ];
        for (kind, bytes) in sizes {
            let most = crate::trace::pcap::MAX_IPV4_BYTES;
            if let Some((i, b)) = bytes.iter().enumerate().find(|(_, &b)| b > most) {
                return Err(format!(
                    "trace.pcap: {kind}[{i}] sends packets of up to {b} bytes; an IPv4 packet holds at most {most}"
                ));
            }
        }
        Ok(())
    }

    /// Check what the engine relies on. Returns the first problem as `path: message`.
    pub fn validate(&self) -> Result<(), String> {
        let n = self.nodes.len() as u32;
        let most = crate::engine::MAX_COMPONENTS;
        if 2 * self.links.len() > most
            || self.flows.len() > most
            || self.udp_flows.len() > most
            || self.web.len() > most
        {
            return Err(format!(
                "a scenario may have at most {} links and {most} flows of each kind and web generators",
                most / 2
            ));
        }
        if self.duration_ns == 0 {
            return Err("duration_ns: must be > 0".into());
        }
        for (i, b) in self.shared_buffers.iter().enumerate() {
            b.validate(n).map_err(|e| format!("shared_buffers[{i}]{e}"))?;
            if self.shared_buffers[..i].iter().any(|other| other.node == b.node) {
                return Err(format!("shared_buffers[{i}].node: node {} already has a shared buffer", b.node));
            }
        }
        let as_json = serde_json::to_value(self).map_err(|e| e.to_string())?;
        check_times(&as_json, "", false)?;
        if self.warmup_ns >= self.duration_ns {
            return Err(format!("warmup_ns: {} must be < duration_ns ({})", self.warmup_ns, self.duration_ns));
        }
        if self.trace.max_rows == 0 {
            return Err("trace.max_rows: must be >= 1 (every run's traces are capped)".into());
        }
        self.validate_pcap()?;
        for (i, l) in self.links.iter().enumerate() {
            if l.a >= n || l.b >= n || l.a == l.b {
                return Err(format!("links[{i}]: endpoints {} and {} must be two distinct nodes < {n}", l.a, l.b));
            }
            if l.rate_bps == 0 {
                return Err(format!("links[{i}].rate_bps: must be > 0"));
            }
            for (d, dir) in [("ab", &l.ab), ("ba", &l.ba)] {
                dir.queue.validate(&format!("links[{i}].{d}.queue"))?;
                for (j, loss) in dir.loss.iter().enumerate() {
                    loss.validate(self.flows.len()).map_err(|e| format!("links[{i}].{d}.loss[{j}].{e}"))?;
                }
            }
            // Models sharing a Good/Bad timeline must describe the same process: at most one
            // per key and direction, and the same parameters in both directions.
            let shared = |dir: &DirectionConfig| -> Result<Vec<(u32, LossConfig)>, u32> {
                let mut keyed: Vec<(u32, LossConfig)> = Vec::new();
                for m in &dir.loss {
                    if let LossConfig::GilbertElliott { shared_state: Some(k), .. } = m {
                        if keyed.iter().any(|(key, _)| key == k) {
                            return Err(*k);
                        }
                        keyed.push((*k, m.clone()));
                    }
                }
                Ok(keyed)
            };
            let (ab, ba) = match (shared(&l.ab), shared(&l.ba)) {
                (Ok(ab), Ok(ba)) => (ab, ba),
                (Err(k), _) | (_, Err(k)) => {
                    return Err(format!("links[{i}]: shared_state {k} appears twice in one direction"))
                }
            };
            for (k, m) in &ab {
                if let Some((_, other)) = ba.iter().find(|(key, _)| key == k) {
                    if format!("{m:?}") != format!("{other:?}") {
                        return Err(format!("links[{i}]: the two directions' models with shared_state {k} differ"));
                    }
                }
            }
        }
        for (i, f) in self.flows.iter().enumerate() {
            if f.src >= n || f.dst >= n || f.src == f.dst {
                return Err(format!("flows[{i}]: src {} and dst {} must be two distinct nodes < {n}", f.src, f.dst));
            }
            f.tcp.validate().map_err(|e| format!("flows[{i}].tcp{e}"))?;
            if let AppConfig::OnOff { on_ns, .. } = &f.app {
                check_intervals("on_ns", on_ns).map_err(|e| format!("flows[{i}].app.{e}"))?;
            }
        }
        for (i, u) in self.udp_flows.iter().enumerate() {
            if u.src >= n || u.dst >= n || u.src == u.dst {
                return Err(format!(
                    "udp_flows[{i}]: src {} and dst {} must be two distinct nodes < {n}",
                    u.src, u.dst
                ));
            }
            if u.rate_bps == 0 || u.packet_bytes == 0 || u.packet_bytes > MAX_UDP_PACKET_BYTES {
                return Err(format!(
                    "udp_flows[{i}]: rate_bps must be > 0 and packet_bytes in [1, {MAX_UDP_PACKET_BYTES}]"
                ));
            }
            if let Some((j, _)) = u.on.iter().enumerate().find(|(_, (start, end))| start > end) {
                return Err(format!("udp_flows[{i}].on[{j}]: start must be <= end"));
            }
        }
        for (i, w) in self.web.iter().enumerate() {
            w.validate(n).map_err(|e| format!("web[{i}].{e}"))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_beyond_the_longest_allowed_are_named_by_path() {
        let json = serde_json::json!({"duration_ns": 5, "links": [{"delay_ns": MAX_TIME_NS + 1}]});
        let error = check_times(&json, "", false).unwrap_err();
        assert!(error.starts_with("links[0].delay_ns: 1000000000000000001 ns is longer"), "{error}");
        let udp = serde_json::json!({"udp_flows": [{"rate_bps": u64::MAX, "on": [[0, u64::MAX]]}]});
        assert!(check_times(&udp, "", false).unwrap_err().starts_with("udp_flows[0].on[0][1]: "));
        assert!(check_times(&serde_json::json!({"rate_bps": u64::MAX, "delay_ns": MAX_TIME_NS}), "", false).is_ok());
    }

    #[test]
    fn red_parameters_are_checked_and_named_by_path() {
        let red = |extra: serde_json::Value| {
            let mut q = serde_json::json!({"kind": "red", "limit_packets": 100, "limit_bytes": null, "mode": "packet",
                "min_th": 5.0, "max_th": 15.0, "max_p": 0.1, "w_q": 0.002, "gentle": true, "wait": true,
                "mean_packet_bytes": 500, "ecn": true, "mark_p": 1.0});
            q.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
            serde_json::from_value::<QueueConfig>(q)
        };
        let check = |extra| red(extra).unwrap().validate("links[0].ab.queue");
        assert_eq!(check(serde_json::json!({})), Ok(()));
        assert_eq!(
            check(serde_json::json!({"min_th": 15.0})).unwrap_err(),
            "links[0].ab.queue.min_th: 15 must be >= 0 and < max_th (15)"
        );
        assert_eq!(
            check(serde_json::json!({"max_p": 0.0})).unwrap_err(),
            "links[0].ab.queue.max_p: 0 must be in (0, 1]"
        );
        assert_eq!(check(serde_json::json!({"w_q": 1.5})).unwrap_err(), "links[0].ab.queue.w_q: 1.5 must be in (0, 1]");
        assert_eq!(
            check(serde_json::json!({"mark_p": -0.1})).unwrap_err(),
            "links[0].ab.queue.mark_p: -0.1 must be in [0, 1]"
        );
        assert!(check(serde_json::json!({"mean_packet_bytes": 0})).is_err());
        assert_eq!(
            check(serde_json::json!({"limit_packets": null})).unwrap_err(),
            "links[0].ab.queue: needs limit_packets or limit_bytes"
        );
        assert!(red(serde_json::json!({"typo": 1})).is_err(), "unknown keys are refused");
    }

    #[test]
    fn traces_are_capped_by_default_and_a_cap_of_zero_is_refused() {
        let json = serde_json::json!({"duration_ns": 5, "nodes": ["a"], "links": [], "trace": {"cwnd": true}});
        let mut cfg: SimConfig = serde_json::from_value(json).unwrap();
        assert_eq!(cfg.trace.max_rows, DEFAULT_MAX_TRACE_ROWS);
        assert_eq!(TraceConfig::default().max_rows, DEFAULT_MAX_TRACE_ROWS);
        assert!(cfg.validate().is_ok());
        cfg.trace.max_rows = 0;
        assert_eq!(cfg.validate().unwrap_err(), "trace.max_rows: must be >= 1 (every run's traces are capped)");
    }
}
