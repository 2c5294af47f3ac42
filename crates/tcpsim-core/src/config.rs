//! The canonical scenario the engine runs: every quantity an integer in base units
//! (nanoseconds, bits per second, bytes), every reference an index.
//!
//! Users never write this form. The Python layer (`tcpsim.scenario`) parses human units
//! ("10Mbps", "1BDP"), checks every field against one schema and reports errors by path;
//! it then emits this structure as JSON. The engine still re-checks what it relies on
//! ([`SimConfig::validate`]) so that a malformed canonical file is an error, never a panic.

use schemars::JsonSchema;

use serde::{Deserialize, Serialize};

pub use crate::queue::StepConfig;
pub use crate::queue::{PieConfig, PieDelayEstimator};
pub use crate::tcp::cc::CcConfig;

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

/// How packets are routed (`net::routing`): always on a path of the fewest hops.
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(tag = "mode", rename_all = "snake_case", deny_unknown_fields)]
pub enum RoutingConfig {
    /// One path per destination: among equal-hop paths, the one through lower-numbered links.
    #[default]
    Shortest,
    /// Equal-cost multipath: a router with several next hops on shortest paths picks one.
    Ecmp { select: EcmpSelect },
}

/// How an ECMP router picks among its equal-cost next hops (`net::routing`).
#[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum EcmpSelect {
    /// By a hash of the packet's connection and direction: one path per connection direction.
    FlowHash,
    /// Uniformly at random for every packet (random packet spraying).
    PacketSpray,
}

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
    fn validate(&self, n_nodes: u32) -> Result<(), String> {
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

/// A full-duplex point-to-point link between nodes `a` and `b`. Each direction has its own
/// serializer, queue and loss models.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
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

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DirectionConfig {
    pub queue: QueueConfig,
    #[serde(default)]
    pub loss: Vec<LossConfig>,
}

/// Queue discipline of one link direction.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum QueueConfig {
    /// FIFO that drops arrivals when full. At least one limit is set; with both, either
    /// one being reached drops.
    DropTail { limit_packets: Option<u64>, limit_bytes: Option<u64> },
    /// Random Early Detection (Floyd & Jacobson 1993, as ns-2's `red.cc`), optionally marking
    /// ECN-capable packets (RFC 3168 §5); see `queue::red`.
    Red(RedConfig),
    /// RD Network Services (`podlesny` Sec. II-C, III, Fig. 2): an R and a D FIFO served in
    /// the ratio k·n_R : n_D of their active flows; see `queue::rd`.
    Rd(RdConfig),
    /// PIE (RFC 8033): random early drop with a probability a PI controller on the queueing
    /// delay updates every T_UPDATE; see `queue::pie`.
    Pie(PieConfig),
    /// Step marking (DCTCP's switch, RFC 8257 §3.1): a FIFO that marks CE on ECN-capable
    /// arrivals finding more than K waiting; see `queue::step`.
    Step(StepConfig),
    /// CoDel (RFC 8289): head drops (or CE marks) when the sojourn time stays above target
    /// for an interval; see `queue::codel`.
    Codel(crate::queue::CodelConfig),
    /// FQ-CoDel (RFC 8290): flows hashed into sub-queues served by deficit round robin, new
    /// flows first, each sub-queue managed by CoDel; see `queue::fq_codel`.
    FqCodel(crate::queue::FqCodelConfig),
}

/// The RD discipline's parameters (`queue::rd` cites each). Defaults users get are set in the
/// scenario layer (`RdQueue` in `tcpsim.scenario.network`).
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct RdConfig {
    /// The whole buffer, shared by the two queues: exactly one of the two.
    pub limit_packets: Option<u64>,
    pub limit_bytes: Option<u64>,
    /// Target ratio of R's per-flow throughput to D's (eq. 5), > 0.
    pub k: f64,
    /// B_D as a fraction of the buffer, in (0, 1); exclusive with `d_delay_bound_ns`.
    pub d_share: Option<f64>,
    /// B_D = S_D·d for a delay bound d of D packets (needs `limit_bytes`), > 0.
    pub d_delay_bound_ns: Option<u64>,
    /// Period of the recalculation of the flow counts and the buffer split, > 0.
    pub interval_ns: u64,
    /// Slots of each class's timestamp vector, > 0.
    pub counter_slots: u32,
    /// A flow not seen for longer than this is no longer counted as active, > 0 (with
    /// `counter_delay_multiple` 0; else the base of the window).
    pub counter_timeout_ns: u64,
    /// m >= 0: a class's counting window is `counter_timeout_ns` + m × the longest queueing
    /// delay of its packets within the window (one backed-off RTO of a flow behind that
    /// queue, `queue::rd`); 0 (the default here) keeps the fixed window.
    #[serde(default)]
    pub counter_delay_multiple: f64,
}

/// RED's parameters; `queue::red` cites the rule each one enters. The defaults users get are
/// set in the scenario layer (`RedQueue` in `tcpsim.scenario.network`).
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct RedConfig {
    /// Hard limits: an arrival that does not fit is dropped (as drop-tail). At least one.
    pub limit_packets: Option<u64>,
    pub limit_bytes: Option<u64>,
    /// Whether the average and the thresholds count packets or bytes; byte mode also scales
    /// the drop probability by packet size.
    pub mode: RedMode,
    /// Thresholds of the average queue in the mode's unit, 0 <= min_th < max_th.
    pub min_th: f64,
    pub max_th: f64,
    /// Drop probability at max_th, in (0, 1].
    pub max_p: f64,
    /// Weight of the newest sample in the average, in (0, 1].
    pub w_q: f64,
    /// The drop probability rises from max_p to 1 between max_th and 2·max_th (else every
    /// arrival above max_th is dropped).
    pub gentle: bool,
    /// ns-2's `wait_`: drops spaced uniformly in [1/p_b, 2/p_b) arrivals; false: F&J's
    /// p_b/(1 − count·p_b).
    pub wait: bool,
    /// Mean packet size (bytes): the idle-time decay counts packets of this size, byte mode
    /// divides by it. Must be > 0.
    pub mean_packet_bytes: u32,
    /// Mark ECN-capable packets CE instead of dropping them early.
    pub ecn: bool,
    /// With `ecn`: mark only while p_b <= mark_p, drop above (ns-2's `mark_p_`); 1 marks
    /// every early decision. In [0, 1].
    pub mark_p: f64,
    /// Byte mode only: count the traffic since the last early drop or mark in whole
    /// mean-sized packets of the bytes arrived, space with the unscaled p_b and scale the
    /// result by size/mean (ns-2.35's `REDQueue::modify_p` with `bytes_`); false: count
    /// arrivals and scale p_b first (F&J). They differ when packet sizes mix (ACKs).
    #[serde(default)]
    pub count_bytes: bool,
}

/// What RED's average and thresholds count.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum RedMode {
    Packet,
    Byte,
}

impl QueueConfig {
    /// Check the discipline's parameters; errors are `<at>[.field]: message`.
    pub fn validate(&self, at: &str) -> Result<(), String> {
        let (limit_packets, limit_bytes) = match self {
            QueueConfig::DropTail { limit_packets, limit_bytes } => (limit_packets, limit_bytes),
            QueueConfig::Red(red) => (&red.limit_packets, &red.limit_bytes),
            QueueConfig::Rd(rd) => (&rd.limit_packets, &rd.limit_bytes),
            QueueConfig::Pie(pie) => (&pie.limit_packets, &pie.limit_bytes),
            QueueConfig::Step(step) => (&step.limit_packets, &step.limit_bytes),
            QueueConfig::Codel(codel) => return codel.validate().map_err(|e| format!("{at}.{e}")),
            QueueConfig::FqCodel(fq) => return fq.validate().map_err(|e| format!("{at}.{e}")),
        };
        if limit_packets.is_none() && limit_bytes.is_none() {
            return Err(format!("{at}: needs limit_packets or limit_bytes"));
        }
        if let QueueConfig::Rd(rd) = self {
            return rd.validate(at);
        }
        if let QueueConfig::Pie(pie) = self {
            return pie.validate().map_err(|e| format!("{at}.{e}"));
        }
        if let QueueConfig::Step(step) = self {
            return step.validate().map_err(|e| format!("{at}.{e}"));
        }
        let QueueConfig::Red(red) = self else { return Ok(()) };
        let in_unit_interval = |field: &str, value: f64, zero_allowed: bool| {
            let above_low = if zero_allowed { value >= 0.0 } else { value > 0.0 };
            if above_low && value <= 1.0 {
                Ok(())
            } else {
                let low = if zero_allowed { "[0" } else { "(0" };
                Err(format!("{at}.{field}: {value} must be in {low}, 1]"))
            }
        };
        if !(red.min_th >= 0.0 && red.min_th < red.max_th && red.max_th.is_finite()) {
            return Err(format!("{at}.min_th: {} must be >= 0 and < max_th ({})", red.min_th, red.max_th));
        }
        in_unit_interval("max_p", red.max_p, false)?;
        in_unit_interval("w_q", red.w_q, false)?;
        in_unit_interval("mark_p", red.mark_p, true)?;
        if red.mean_packet_bytes == 0 {
            return Err(format!("{at}.mean_packet_bytes: must be > 0"));
        }
        Ok(())
    }
}

/// Bound on an RD flow counter's slots (8 bytes each: 128 MiB per class), so that a user's
/// number cannot make the engine's first allocation abort the process.
pub const MAX_COUNTER_SLOTS: u32 = 1 << 24;

impl RdConfig {
    fn validate(&self, at: &str) -> Result<(), String> {
        if self.limit_packets.is_some() && self.limit_bytes.is_some() {
            return Err(format!("{at}: an RD buffer has one limit, in packets or in bytes, not both"));
        }
        if !(self.k > 0.0 && self.k.is_finite()) {
            return Err(format!("{at}.k: {} must be a finite number > 0", self.k));
        }
        match (self.d_share, self.d_delay_bound_ns) {
            (Some(share), None) if !(share > 0.0 && share < 1.0) => {
                return Err(format!("{at}.d_share: {share} must be in (0, 1)"));
            }
            (Some(_), None) => {}
            (None, Some(0)) => return Err(format!("{at}.d_delay_bound_ns: must be > 0")),
            (None, Some(_)) if self.limit_bytes.is_none() => {
                return Err(format!("{at}.d_delay_bound_ns: a delay bound sizes B_D in bytes: needs limit_bytes"));
            }
            (None, Some(_)) => {}
            _ => return Err(format!("{at}: exactly one of d_share and d_delay_bound_ns")),
        }
        if self.interval_ns == 0 {
            return Err(format!("{at}.interval_ns: must be > 0"));
        }
        if self.counter_slots == 0 || self.counter_slots > MAX_COUNTER_SLOTS {
            return Err(format!("{at}.counter_slots: {} must be in [1, {MAX_COUNTER_SLOTS}]", self.counter_slots));
        }
        if self.counter_timeout_ns == 0 {
            return Err(format!("{at}.counter_timeout_ns: must be > 0"));
        }
        if !(self.counter_delay_multiple >= 0.0 && self.counter_delay_multiple.is_finite()) {
            return Err(format!(
                "{at}.counter_delay_multiple: {} must be a finite number >= 0",
                self.counter_delay_multiple
            ));
        }
        Ok(())
    }
}

/// A loss (packet error) model on one link direction, applied when a packet finishes
/// serialization: the packet occupied the link but does not arrive.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum LossConfig {
    /// Each packet independently lost with probability `p`.
    Bernoulli { p: f64 },
    /// Independent bit errors at rate `ber`: a packet of w wire bytes is lost with probability
    /// 1 − (1 − ber)^(8·w) (`casetti` Sec. 5.1, "1 bit in 64 kBytes").
    BitError { ber: f64 },
    /// Two-state Markov channel with exponential sojourns of the given means and a loss
    /// probability per state (`casetti` Sec. 5.2).
    ///
    /// `shared_state`: models of the two directions of one link with the same key follow one
    /// Good/Bad timeline (their state stream is named after the link and the key, not the
    /// direction), so a fade or blackout hits both directions at once; each direction still
    /// draws its own per-packet losses. They must have the same parameters. None: each
    /// direction has its own independent timeline.
    ///
    /// `clock_rate_bps`: None (the default) measures sojourns in simulated time. Some(r): the
    /// sojourn clock advances only by each packet's transmission time at rate r and stands
    /// still while no packet crosses (ns-2's `ErrorModel/TwoState` and `ErrorModel/Expo` with
    /// `unit time`, whose `bandwidth_` is r); not combinable with `shared_state`.
    GilbertElliott {
        good_mean_ns: u64,
        bad_mean_ns: u64,
        good_loss: f64,
        bad_loss: f64,
        initial: InitialChannelState,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        shared_state: Option<u32>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        clock_rate_bps: Option<u64>,
    },
    /// Two-state channel with deterministic sojourns; at each sojourn end the next state is
    /// Bad with probability `p_bad`, else Good (`macura` Sec. 5.5). `transitions` says when
    /// a state changes (default: at sojourn ends in simulated time).
    TwoState {
        good_sojourn_ns: u64,
        bad_sojourn_ns: u64,
        good_loss: f64,
        bad_loss: f64,
        p_bad: f64,
        initial: InitialChannelState,
        #[serde(default, skip_serializing_if = "TwoStateTransitions::is_time")]
        transitions: TwoStateTransitions,
    },
    /// Two-state Markov chain stepped by packets, as ns-2's `ErrorModel/MultiState` with
    /// `sttype pkt` (`loss/ns2_multistate.rs`, `Ns2PacketMarkov`): each packet of the link
    /// direction first moves Good → Bad with probability 1/`good_mean_pkts` or Bad → Good with
    /// 1/`bad_mean_pkts`, then is lost with the new state's probability. Means ≥ 1 packet.
    PacketMarkov {
        good_mean_pkts: f64,
        bad_mean_pkts: f64,
        good_loss: f64,
        bad_loss: f64,
        initial: InitialChannelState,
    },
    /// Every packet lost during [offset + k·period, offset + k·period + duration), k ≥ 0
    /// (`casetti` Sec. 5.3: LEO hand-offs).
    PeriodicOutage { period_ns: u64, duration_ns: u64, offset_ns: u64 },
    /// Every packet lost during the listed windows [start_ns, end_ns), sorted and disjoint.
    OutageIntervals { intervals_ns: Vec<(u64, u64)> },
    /// Drop the first transmission of the listed data segments of one TCP flow.
    /// Segments count from 1: segment n carries bytes [(n-1)·mss, n·mss).
    Scripted { flow: u32, segments: Vec<u64> },
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

/// When a `two_state` channel changes state.
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum TwoStateTransitions {
    /// At the end of each sojourn, in simulated time, whether packets cross or not.
    #[default]
    Time,
    /// At packets, as ns-2's `ErrorModel/MultiState` with `sttype time`: a sojourn starts at
    /// the first packet of its state; once it has elapsed every packet draws the next state
    /// until the state changes (`loss/ns2_multistate.rs`).
    Ns2Multistate,
}

impl TwoStateTransitions {
    fn is_time(&self) -> bool {
        *self == TwoStateTransitions::Time
    }
}

/// State of a two-state loss model at time 0.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum InitialChannelState {
    Good,
    Bad,
    /// Drawn from the stationary distribution (Bad with the long-run fraction of time in Bad,
    /// at a random point of its sojourn), so the channel is stationary from time 0.
    Stationary,
}

impl LossConfig {
    /// Check the model's parameters; errors are `field: message` relative to the model.
    pub fn validate(&self, flow_count: usize) -> Result<(), String> {
        fn probability(field: &str, p: f64) -> Result<(), String> {
            if (0.0..=1.0).contains(&p) {
                Ok(())
            } else {
                Err(format!("{field}: {p} must be in [0, 1]"))
            }
        }
        fn positive(field: &str, value: u64) -> Result<(), String> {
            if value > 0 {
                Ok(())
            } else {
                Err(format!("{field}: must be > 0"))
            }
        }
        match self {
            LossConfig::Bernoulli { p } => probability("p", *p),
            LossConfig::BitError { ber } => probability("ber", *ber),
            LossConfig::GilbertElliott {
                good_mean_ns,
                bad_mean_ns,
                good_loss,
                bad_loss,
                shared_state,
                clock_rate_bps,
                ..
            } => {
                positive("good_mean_ns", *good_mean_ns)?;
                positive("bad_mean_ns", *bad_mean_ns)?;
                probability("good_loss", *good_loss)?;
                probability("bad_loss", *bad_loss)?;
                if let Some(rate) = clock_rate_bps {
                    positive("clock_rate_bps", *rate)?;
                    if let Some(k) = shared_state {
                        return Err(format!(
                            "clock_rate_bps: a transmission-time clock counts one direction's packets; it cannot drive the shared timeline {k}"
                        ));
                    }
                }
                Ok(())
            }
            LossConfig::TwoState {
                good_sojourn_ns,
                bad_sojourn_ns,
                good_loss,
                bad_loss,
                p_bad,
                initial,
                transitions,
            } => {
                positive("good_sojourn_ns", *good_sojourn_ns)?;
                positive("bad_sojourn_ns", *bad_sojourn_ns)?;
                probability("good_loss", *good_loss)?;
                probability("bad_loss", *bad_loss)?;
                probability("p_bad", *p_bad)?;
                if *transitions == TwoStateTransitions::Ns2Multistate && *initial == InitialChannelState::Stationary {
                    return Err(
                        "initial: \"stationary\" has no ns-2 counterpart with transitions = \"ns2_multistate\"; use \"good\" or \"bad\"".into()
                    );
                }
                Ok(())
            }
            LossConfig::PacketMarkov { good_mean_pkts, bad_mean_pkts, good_loss, bad_loss, .. } => {
                for (field, mean) in [("good_mean_pkts", *good_mean_pkts), ("bad_mean_pkts", *bad_mean_pkts)] {
                    if !(mean.is_finite() && mean >= 1.0) {
                        return Err(format!("{field}: must be a finite number of packets >= 1"));
                    }
                }
                probability("good_loss", *good_loss)?;
                probability("bad_loss", *bad_loss)
            }
            LossConfig::PeriodicOutage { period_ns, duration_ns, .. } => {
                positive("period_ns", *period_ns)?;
                positive("duration_ns", *duration_ns)?;
                if duration_ns > period_ns {
                    return Err(format!("duration_ns: {duration_ns} must be <= period_ns ({period_ns})"));
                }
                Ok(())
            }
            LossConfig::OutageIntervals { intervals_ns } => check_intervals("intervals_ns", intervals_ns),
            LossConfig::Scripted { flow, .. } if *flow as usize >= flow_count => {
                Err(format!("flow: {flow} is not a flow index"))
            }
            LossConfig::Scripted { segments, .. } => match segments.iter().position(|&n| n == 0) {
                Some(k) => Err(format!("segments[{k}]: 0 is not a segment number; segments count from 1")),
                None => Ok(()),
            },
        }
    }
}

/// `intervals` are non-empty [start, end) windows, sorted and disjoint; errors are
/// `<field>[k]: message`.
fn check_intervals(field: &str, intervals: &[(u64, u64)]) -> Result<(), String> {
    let mut previous_end_ns = 0;
    for (k, &(start_ns, end_ns)) in intervals.iter().enumerate() {
        if start_ns >= end_ns {
            return Err(format!("{field}[{k}]: start {start_ns} must be < end {end_ns}"));
        }
        if start_ns < previous_end_ns {
            return Err(format!(
                "{field}[{k}]: start {start_ns} must be >= the previous window's end {previous_end_ns} (sorted, disjoint)"
            ));
        }
        previous_end_ns = end_ns;
    }
    Ok(())
}

/// Loss-recovery algorithm (docs/architecture.md, "TCP: two axes": this half owns duplicate ACKs,
/// fast retransmit, fast recovery and the retransmission timer).
#[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum RecoveryKind {
    /// Fast retransmit, then slow start from one segment with go-back-N (4.3BSD-Tahoe as in ns-2).
    Tahoe,
    /// RFC 5681 §3.2 fast retransmit / fast recovery; leaves recovery on the first new ACK.
    Reno,
    /// RFC 6582: stays in fast recovery until all data outstanding at its start is acked.
    Newreno,
    /// RFC 6675 SACK-based loss recovery (scoreboard, pipe, NextSeg); the receiver sends
    /// RFC 2018 SACK blocks.
    Sack,
    /// ns-2.35's `Agent/TCP/Vegas` recovery (`tcp/tcp-vegas.cc`): a fine-grained timeout checked
    /// on every duplicate ACK and on the two ACKs after recovery, its own window cut
    /// (≤ 3 → 2, resent → ½, else −¼; only if the window is unchanged since the segment left),
    /// Reno-style inflation and deflation.
    VegasNs2,
    /// The ns-2 TCP Westwood agent's (`Agent/TCP/Westwood`, `tcp/tcp-westwood.cc`): on the n-th
    /// duplicate ACK the congestion controller's cut and one retransmission, no window
    /// inflation; the next ACK of new data ends it with cwnd left where the cut put it.
    WestwoodNs2,
}

/// Which retransmission timeouts reduce ssthresh.
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum TimeoutSsthresh {
    /// RFC 5681 §3.1: only a timeout that starts a loss episode (its segment not yet resent by
    /// the timer; extended to timeouts in fast recovery, as Linux's `tcp_enter_loss`), with
    /// FlightSize as the base of eq. (4).
    #[default]
    FirstOfEpisode,
    /// Every expiry, back-off and in-recovery ones included, halving the window then in use
    /// (min(cwnd, rwnd), un-inflated in fast recovery), at least 2 segments: 4.4BSD's
    /// `tcp_timers` and ns-2's `TcpAgent::timeout` (`slowdown(CLOSE_SSTHRESH_HALF)`, after
    /// `RenoTcpAgent::timeout` has dropped the fast-recovery inflation `dupwnd_`). A loss that
    /// fast retransmit halved and a timeout then ends is halved twice; a timeout of the
    /// retransmission itself sets ssthresh to 2 segments.
    Every,
}

/// The window that fast retransmit and an ECN-Echo reduction halve (the `flight_bytes` handed
/// to `CongestionOps::on_loss` and `on_ecn`). In a flow that its window limits the two differ by
/// less than a segment, but only `Cwnd` keeps the fraction of a segment that congestion
/// avoidance has added: with `FlightSize` every cut lands on a multiple of half a segment, which
/// in a noise-free simulation can lock two flows of equal RTT into a fixed drop order.
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum SsthreshFrom {
    /// min(cwnd, rwnd), un-inflated: ns-2 (`TcpAgent::slowdown`, `windowd() / 2` with
    /// `precision_reduce_`, cwnd keeping its fraction) and Linux (`tcp_reno_ssthresh`,
    /// `snd_cwnd >> 1`).
    #[default]
    Cwnd,
    /// RFC 5681 eq. (4): FlightSize, limited-transmit segments left out (§3.2); ns-3's
    /// `TcpNewReno` (`BytesInFlight () / 2`).
    FlightSize,
}

/// Which ACKs give the retransmission timer's estimator (RFC 6298) an RTT sample.
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum RttSampling {
    /// Every ACK of new data whose segments were sent once (RFC 6298 §3 with Karn; Linux with
    /// timestamps, ns-3).
    #[default]
    EveryAck,
    /// One timed segment at a time, as ns-2.35's `TcpAgent` without timestamps (tcp/tcp.cc:
    /// `output` times the first never-sent segment while none is timed, `rtt_active_` /
    /// `rtt_seq_`; `newack` samples when an ACK covers it; `reset_rtx_timer` — timeouts, fast
    /// retransmit — cancels the timing, and NewReno's `partialnewack` ends it without a
    /// sample): about one sample per round trip, so RTTVAR decays per round trip rather than per
    /// ACK. Only the estimator reads these samples; the congestion control still sees every ACK's.
    TimedSegment,
}

/// Which partial ACKs restart the retransmission timer during fast recovery (RFC 6582 §4.1
/// names both). With many losses in one window, NewReno resends one segment per round trip; the
/// impatient timer then expires one RTO after the first partial ACK and the rest goes by
/// slow start, while the slow-but-steady timer lets recovery run its course however long it
/// takes (at data-centre round trips of 100 µs, a few ms for tens of losses).
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum PartialAckTimer {
    /// The recovery algorithm's rule: NewReno restarts the timer on the first partial ACK only
    /// ("Impatient", the variant RFC 6582 §4.1 recommends), SACK on each (RFC 6675 §5).
    #[default]
    Impatient,
    /// Every partial ACK restarts the timer ("Slow-but-Steady", RFC 6582 §4.1), as an ACK of
    /// new data does outside recovery (RFC 6298 §5.3): ns-3 (`TcpSocketBase::NewAck`) and
    /// Linux (`tcp_rearm_rto` on every ACK that advances snd_una) behave so.
    SlowButSteady,
}

/// How an ECN sender (`TcpConfig::ecn`) marks its segments ECN-capable and where it sets CWR.
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum EcnSender {
    /// RFC 3168: new data leaves ECT(0), retransmissions not-ECT (§6.1.5); CWR on the first
    /// new data segment after a reduction for ECN-Echo (§6.1.2).
    #[default]
    Rfc3168,
    /// ns-2.35's `TcpAgent` (tcp/tcp.cc): every data segment, retransmissions included, is
    /// ECT (`output`: `if (ecn_) hf->ect() = 1`), and CWR rides on the next segment sent after
    /// any window reduction — ECN-Echo, fast retransmit, timeout — retransmission or not
    /// (`slowdown` sets `cong_action_` for CLOSE_CWND_HALF/RESTART/ONE; `output` sends it while
    /// `SetCWRonRetransmit_`, true in ns-default.tcl since 2005/06/19). So the retransmission
    /// after a timeout ends the receiver's echo, and the window grows again from one segment.
    Ns2,
    /// Linux with a congestion control that needs ECN (DCTCP, `tcp_ca_needs_ecn`): every
    /// packet of the connection is ECT(0), retransmissions and the receiver's pure ACKs
    /// included (net/ipv4/tcp_output.c `tcp_ecn_send` clears ECT from them only for other
    /// congestion controls); CWR as `rfc3168`, on the first new data segment after an
    /// ECN-Echo reduction. So a queue that drops packets that are not ECN-capable above its
    /// marking threshold never drops this connection's ACKs for it.
    LinuxDctcp,
}

/// What an ECN receiver (`TcpConfig::ecn`) echoes.
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum EcnReceiver {
    /// RFC 3168 §6.1.3: ECE on every ACK from a CE segment until a segment with CWR arrives.
    #[default]
    Rfc3168,
    /// DCTCP (RFC 8257 §3.2, Fig. 1): ECE = CE of the last segment received, CWR ignored; a
    /// change of that state acknowledges at once, first the withheld segments with the old
    /// value (Linux `dctcp_ece_ack_update`); see `tcp::receiver`.
    Dctcp,
}

/// Rounding of the congestion-avoidance increment SMSS·SMSS/cwnd.
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum CaIncrement {
    /// Exact: fractions of a byte are carried to the next ACK.
    #[default]
    Exact,
    /// max(1, ⌊SMSS·SMSS/cwnd⌋) bytes per ACK, fractions dropped: ns-3's
    /// `TcpNewReno::CongestionAvoidance` of the `gangadhar` era (faster than exact when
    /// cwnd > SMSS², e.g. 41-byte segments).
    Ns3,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TcpConfig {
    /// Payload bytes per segment (SMSS).
    pub mss_bytes: u32,
    /// IP + TCP header bytes added on the wire to data and ACK packets.
    pub header_bytes: u32,
    /// Size on the wire of the receiver's ACKs, if not `header_bytes`: ns-2's `TCPSink` sends
    /// 40-byte ACKs (its `packetSize_`) whatever its sender adds to data, and stock ns-2 Vegas
    /// adds nothing (`VegasTcpAgent::output` never adds `headersize()`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ack_bytes: Option<u32>,
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
    /// Tick of the clock that times RTT samples (0 = exact). With a tick T every sample r
    /// becomes max(1, ⌊r/T + ½⌋)·T before it reaches the RFC 6298 estimator and the
    /// congestion controller (Westwood's RTTmin, Vegas' BaseRTT), as ns-2's `TcpAgent::rtt_update`
    /// turns a sample into whole `tcp_tick_`s (`t_rtt_`) and ns-2's TCPW agent takes
    /// RTTmin from `t_rtt_ * tcp_tick_`. See `tcp::sender::quantize_rtt`.
    #[serde(default)]
    pub rtt_tick_ns: u64,
    /// Which ACKs feed the RTO estimator (`RttSampling`).
    #[serde(default)]
    pub rtt_sampling: RttSampling,
    /// Which partial ACKs of a fast recovery restart the retransmission timer (`PartialAckTimer`).
    #[serde(default)]
    pub partial_ack_timer: PartialAckTimer,
    /// Duplicate ACKs that trigger fast retransmit (RFC 5681: 3).
    pub dupack_threshold: u32,
    pub recovery: RecoveryKind,
    /// Do not enter fast retransmit again for duplicate ACKs that do not cover `recover`
    /// (RFC 6582 §3.2 step 1; ns-2's `bug_fix_`), applied to every recovery algorithm.
    pub avoid_repeated_fast_retransmit: bool,
    /// RFC 3042 limited transmit: a previously unsent segment on each of the first
    /// `dupack_threshold − 1` duplicate ACKs (see `RecoveryOps::limited_transmit`), in every
    /// recovery algorithm. On by default, as in ns-2 (`singledup_ 1` since 2001/11/28), ns-3 and
    /// Linux; ns-2 releases before that date, ns-3's TCP of 2010–2015 and ns-2's Vegas agent
    /// (its own `recv`) send nothing on them.
    #[serde(default = "default_true")]
    pub limited_transmit: bool,
    /// Which retransmission timeouts reduce ssthresh, and from what.
    #[serde(default)]
    pub timeout_ssthresh: TimeoutSsthresh,
    /// The window fast retransmit and ECN-Echo halve: cwnd (ns-2, Linux) or FlightSize (RFC
    /// 5681 eq. 4, ns-3).
    #[serde(default)]
    pub ssthresh_from: SsthreshFrom,
    pub cc: CcConfig,
    /// How congestion avoidance adds SMSS·SMSS/cwnd bytes per ACK (RFC 5681 eq. 3).
    pub ca_increment: CaIncrement,
    /// Receiver: acknowledge every `delack_count`-th full segment (1 = no delayed ACKs).
    pub delack_count: u32,
    /// Receiver: longest an ACK is withheld (RFC 5681 §4.2: < 500 ms).
    pub delack_timeout_ns: u64,
    /// ECN (RFC 3168 §6.1): new data is sent ECT(0), the receiver echoes CE marks (ECE) until
    /// the sender's CWR, and the sender reduces once per window of data. Both ends of the
    /// flow use it, so there is no negotiation.
    #[serde(default)]
    pub ecn: bool,
    /// With `ecn`: the receiver acknowledges a CE-marked segment at once (Linux's
    /// `tcp_ecn_check_ce` quick ACK) rather than by the delayed-ACK rules, which RFC 3168
    /// §6.1.3 also allows (ns-2's `DelAckSink`: the delayed ACK carries ECE).
    #[serde(default = "default_true")]
    pub ecn_immediate_ack: bool,
    /// With `ecn`: which segments are ECN-capable and which carry CWR (`EcnSender`).
    #[serde(default)]
    pub ecn_sender: EcnSender,
    /// With `ecn`: what the receiver's ECN-Echo says (`EcnReceiver`).
    #[serde(default)]
    pub ecn_receiver: EcnReceiver,
    /// The RD service class the flow marks its packets with, data and ACKs alike
    /// (`podlesny` Sec. II-C: the ToS field). None: by the congestion control — delay-based
    /// (Vegas) → D, loss-based → R (Sec. III).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rd_class: Option<RdMark>,
}

impl TcpConfig {
    /// The RD class the flow marks its packets with: `rd_class`, else by the congestion
    /// control (`podlesny` Sec. III: NewReno → R, Vegas → D).
    pub fn rd_mark(&self) -> RdMark {
        self.rd_class.unwrap_or(if self.cc.delay_based() { RdMark::D } else { RdMark::R })
    }
}

/// An RD service class mark.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum RdMark {
    /// Throughput-greedy (the R queue).
    R,
    /// Delay-sensitive (the D queue).
    D,
}

fn default_true() -> bool {
    true
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

impl TcpConfig {
    /// Check the settings; errors are `.field: message` or `: message` relative to `tcp`.
    pub fn validate(&self) -> Result<(), String> {
        if self.mss_bytes == 0 || self.mss_bytes > MAX_MSS_BYTES {
            return Err(format!(".mss_bytes: must be in [1, {MAX_MSS_BYTES}]"));
        }
        if self.header_bytes > MAX_HEADER_BYTES {
            return Err(format!(".header_bytes: must be <= {MAX_HEADER_BYTES}"));
        }
        if self.ack_bytes.is_some_and(|b| b > MAX_HEADER_BYTES) {
            return Err(format!(".ack_bytes: must be <= {MAX_HEADER_BYTES}"));
        }
        if self.init_cwnd_segments == 0 || self.dupack_threshold == 0 || self.delack_count == 0 {
            return Err(": init_cwnd_segments, dupack_threshold and delack_count must be >= 1".into());
        }
        if self.rwnd_bytes < self.mss_bytes as u64 {
            return Err(format!(".rwnd_bytes: {} must be >= mss_bytes", self.rwnd_bytes));
        }
        if self.min_rto_ns == 0 || self.min_rto_ns > self.max_rto_ns {
            return Err(".min_rto_ns: must be in (0, max_rto_ns]".into());
        }
        if self.rtt_tick_ns > self.max_rto_ns {
            return Err(".rtt_tick_ns: must be <= max_rto_ns".into());
        }
        self.cc.validate().map_err(|e| format!(".cc.{e}"))
    }
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
