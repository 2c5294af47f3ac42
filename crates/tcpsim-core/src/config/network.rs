//! The network axis of the canonical scenario: links, their directions' queues and loss
//! models, and routing (the Python side: `tcpsim.scenario.network`).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::*;

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
    /// DualPI2 (RFC 9332): the Dual-Queue Coupled AQM of L4S, an L queue for ECT(1)/CE
    /// (RFC 9331) with a step on its sojourn time and a C queue under PI2, coupled by
    /// p_CL = k·p', p_C = p'²; see `queue::dualpi2`.
    #[serde(rename = "dualpi2")]
    DualPi2(crate::queue::DualPi2Config),
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
            QueueConfig::DualPi2(q) => (&q.limit_packets, &q.limit_bytes),
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
        if let QueueConfig::DualPi2(q) = self {
            return q.validate().map_err(|e| format!("{at}.{e}"));
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
pub(crate) fn check_intervals(field: &str, intervals: &[(u64, u64)]) -> Result<(), String> {
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
