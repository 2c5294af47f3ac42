//! Congestion control: the window-growth and reduction-target half of a TCP sender.
//!
//! Shaped like Linux's `tcp_congestion_ops`: an algorithm observes every ACK (to feed its
//! estimators), grows the window when the loss-recovery half allows it, and *returns* the new
//! slow-start threshold on a loss — with, optionally, the window to restart from (Westwood's
//! faster recovery) — as a [`Reduction`]; it never sets cwnd itself and never schedules
//! events. Loss recovery (`super::recovery`) decides when each hook is called and applies the
//! reduction.
//!
//! Every algorithm implements [`CongestionOps`], whose hooks all have defaults (RFC 5681
//! AIMD, no estimator), so an algorithm writes only what it changes. Each owns its
//! configuration: a struct in its own file (`VegasConfig` in `vegas.rs`) implementing
//! [`CcParameters`], and a `new(&Config, mss_bytes)`. Dispatch is static through one enum,
//! [`CongestionControl`], matched once in [`CongestionControl::ops`] /
//! [`CongestionControl::ops_mut`]. Adding an algorithm is its file plus three lines here: the
//! `mod`, the `pub use` of the algorithm and its config, and its entry in
//! `congestion_controls!`, which declares the `kind` users write ([`CcConfig`]) and builds and
//! checks it.

mod aimd;
mod bandwidth_filter;
mod bbr;
mod cubic;
mod dctcp;
mod prague;
mod round;
mod vegas;
mod westwood;
mod westwood_plus;

pub use aimd::{Aimd, AimdConfig};
pub use bandwidth_filter::{AckedCountRule, WestwoodFilter, WestwoodPlusFilter};
pub use bbr::{Bbr, BbrConfig, BbrMode};
pub use cubic::{Cubic, CubicConfig, CubicCount, CubicRtt};
pub use dctcp::{Dctcp, DctcpConfig, DctcpLossDecrease};
pub use prague::{Prague, PragueConfig, PragueRttScaling};
pub use round::RoundCounter;
pub use vegas::*;
pub use westwood::{SilenceRule, Westwood, WestwoodConfig};
pub use westwood_plus::{WestwoodPlus, WestwoodPlusConfig, WestwoodPlusSampling};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::config::CaIncrement;
use crate::rng::RandomStream;
pub use crate::tcp::delivery_rate::RateSample;

/// The sender's loss-recovery state as a congestion control that sets the window itself sees
/// it (Linux `icsk_ca_state`, without Disorder and CWR).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CaState {
    /// No loss being recovered.
    Open,
    /// Fast recovery (`TCP_CA_Recovery`), from fast retransmit until `recover` is acknowledged.
    Recovery,
    /// After a retransmission timeout until everything outstanding at the timeout is
    /// acknowledged (`TCP_CA_Loss`).
    Loss,
}

/// What the sender learned from one ACK.
#[derive(Clone, Copy, Debug)]
pub struct AckSample {
    pub now_ns: u64,
    /// The cumulative ACK number (next byte the receiver expects).
    pub ack: u64,
    /// The sender's snd_nxt as the ACK is processed (before what it releases is sent).
    pub snd_nxt: u64,
    /// Bytes newly acknowledged cumulatively (0 for a duplicate ACK).
    pub acked_bytes: u64,
    /// A duplicate ACK (RFC 5681 §2).
    pub duplicate: bool,
    /// RTT measured from this ACK (Karn-valid), if any.
    pub rtt_ns: Option<u64>,
    /// RTT from the oldest segment this ACK covers, if that one was never retransmitted
    /// (ns-3.17 `RttEstimator::AckSeq`); only Westwood+'s `ns3_timer` window reads it.
    pub oldest_rtt_ns: Option<u64>,
    /// The ACK carries ECN-Echo (RFC 3168 §6.1.2; every such ACK, whether or not the sender
    /// reduces for it: DCTCP counts the bytes it acknowledges, RFC 8257 §3.3).
    pub ece: bool,
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
    pub ca_increment: CaIncrement,
}

/// What a congestion controller answers to a loss signal (one answer per episode: the
/// sender asks once per fast retransmit and once per run of back-to-back timeouts).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reduction {
    /// The new slow-start threshold.
    pub ssthresh_bytes: u64,
    /// The window to restart from, before fast-recovery inflation; `None`: the recovery
    /// algorithm's own rule. Reno and NewReno fast recovery inflate this window by
    /// `dupack_threshold` segments at entry and one per further duplicate ACK, and deflate
    /// back to it when recovery ends (default: ssthresh, RFC 5681 §3.2 steps 3 and 6); a
    /// timeout restarts from it (default: one segment, RFC 5681 §3.1). Tahoe ignores it and
    /// always restarts from one segment (its defining rule).
    pub cwnd_bytes: Option<u64>,
    /// The window Reno/NewReno fast recovery starts from, replacing "`cwnd_bytes` +
    /// `dupack_threshold` segments" (RFC 5681 §3.2 step 3); `None`: that rule. ns-3's
    /// `TcpWestwood::DupAck` starts from min(cwnd, ssthresh) with no inflation.
    pub entry_cwnd_bytes: Option<u64>,
}

impl Reduction {
    /// A new ssthresh and the recovery algorithm's own windows.
    pub fn ssthresh(ssthresh_bytes: u64) -> Self {
        Reduction { ssthresh_bytes, cwnd_bytes: None, entry_cwnd_bytes: None }
    }
}

/// The hooks of a congestion-control algorithm (Linux `tcp_congestion_ops`, ns-3
/// `TcpCongestionOps`). Every hook has a default: RFC 5681 slow start, congestion avoidance
/// and eq. (4) reduction ([`aimd`]), and no estimator.
pub trait CongestionOps {
    /// Observe an ACK: every ACK, duplicate or not, in or out of loss recovery.
    #[inline]
    fn on_ack(&mut self, _ack: &AckSample) {}

    /// A round trip ended: this ACK of new data covers every byte that had been sent when
    /// the previous round ended (`ack` ≥ that round's `snd_nxt`, Brakmo's "beg_snd_nxt"), so
    /// an algorithm that acts once per RTT (Vegas) acts here. Called after `on_ack`, in or out
    /// of recovery; the window is read-only: growth happens in `increase_window`.
    #[inline]
    fn on_round_end(&mut self, _ack: &AckSample, _w: &Window) {}

    /// Grow the window for an ACK of `acked_bytes` new data outside loss recovery.
    #[inline]
    fn increase_window(&mut self, w: &mut Window, acked_bytes: u64) {
        aimd::increase_window(w, acked_bytes);
    }

    /// The reduction after a loss signal at `now_ns`, given the window and the window the
    /// loss halves, `flight_bytes` (FlightSize or cwnd: `TcpConfig::ssthresh_from` and
    /// `timeout_ssthresh`; RFC 5681 eq. (4): ssthresh = max(FlightSize/2, 2·SMSS)).
    fn on_loss(&mut self, w: &Window, flight_bytes: u64, _signal: LossSignal, _now_ns: u64) -> Reduction {
        Reduction::ssthresh(aimd::ssthresh_after_loss(w, flight_bytes))
    }

    /// The reduction after an ECN congestion echo (RFC 3168 §6.1.2: "treated just as a
    /// congestion loss", without retransmitting). The caller asks at most once per window of
    /// data, as the RFC requires, and sets cwnd to `cwnd_bytes` (default ssthresh) if that is
    /// smaller — there is no fast recovery to inflate it. The default is the algorithm's own
    /// answer to duplicate ACKs: RFC 5681's halving, Westwood's BWE·RTTmin, Vegas's 1/4 cut.
    fn on_ecn(&mut self, w: &Window, flight_bytes: u64, now_ns: u64) -> Reduction {
        self.on_loss(w, flight_bytes, LossSignal::DuplicateAcks, now_ns)
    }

    /// The bandwidth estimate in bits of payload per second, for algorithms that keep one
    /// (as of the last ACK or loss signal).
    fn bandwidth_estimate_bps(&self) -> Option<f64> {
        None
    }

    /// The algorithm's own RTT estimate (ns; Westwood's RTTmin), for algorithms that keep one.
    fn rtt_estimate_ns(&self) -> Option<u64> {
        None
    }

    /// The estimated fraction of marked bytes (DCTCP's α, RFC 8257 §3.3), for algorithms that
    /// keep one.
    fn ecn_alpha(&self) -> Option<f64> {
        None
    }

    /// The pacing rate, bits of payload per second (Linux `sk_pacing_rate`): the sender then
    /// spaces its segments by it (`super::transmitter`). None (the default): no pacing, every
    /// segment the window allows leaves at once. Read before each round of sending.
    fn pacing_rate_bps(&self) -> Option<u64> {
        None
    }

    /// Whether the sender is to estimate the delivery rate (`super::delivery_rate`) and call
    /// [`Self::cong_control`] on every ACK. Asked once, when the sender is built; by default
    /// no, and the sender then keeps no per-segment rate state.
    fn wants_rate_samples(&self) -> bool {
        false
    }

    /// Linux `tcp_congestion_ops::cong_control`, for algorithms that set the window
    /// themselves from the delivery rate (BBR): called on every ACK, duplicate or not, after
    /// loss recovery has acted on it and before anything is sent, with the ACK's rate sample
    /// and the recovery state. Only if [`Self::wants_rate_samples`]. Returns whether the
    /// connection is to be marked application-limited from now on (BBR's PROBE_RTT sets Linux's
    /// `tp->app_limited` so that its low-rate samples do not lower the bandwidth estimate).
    fn cong_control(&mut self, _w: &mut Window, _rs: &RateSample, _state: CaState) -> bool {
        false
    }

    /// The algorithm's own random stream, named after its flow (`flow:<name>:cc`), given once
    /// before the flow starts; by default unused.
    fn set_random_stream(&mut self, _stream: RandomStream) {}
}

/// What an algorithm's configuration tells the engine besides the algorithm's own rules.
pub trait CcParameters {
    /// A delay-based algorithm (Vegas): by default its flows mark their packets for RD's D
    /// queue, loss-based ones for the R queue (`podlesny` Sec. III).
    const DELAY_BASED: bool = false;

    /// Check the parameters; errors are `field: message` relative to `cc`, naming the value
    /// given and what is allowed.
    fn validate(&self) -> Result<(), String> {
        Ok(())
    }
}

/// Declares [`CongestionControl`], one variant per algorithm (named after its type), and
/// [`CcConfig`], one `kind` per algorithm holding its configuration (`Vegas(VegasConfig)` is
/// `{"kind": "vegas", …}`), with the matches that build, check and dispatch to them.
macro_rules! congestion_controls {
    ($($(#[doc = $doc:literal])* $algorithm:ident($config:ident)),+ $(,)?) => {
        /// A congestion-control algorithm. Enum dispatch keeps the algorithms concrete types;
        /// each hook call matches once, in `ops`/`ops_mut`.
        pub enum CongestionControl {
            $($algorithm($algorithm)),+
        }

        /// Congestion-control algorithm (the window-growth and reduction-target half).
        #[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
        #[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
        pub enum CcConfig {
            $($(#[doc = $doc])* $algorithm($config)),+
        }

        impl CcConfig {
            /// Check the algorithm's parameters; errors are `field: message` relative to `cc`.
            pub fn validate(&self) -> Result<(), String> {
                match self {
                    $(CcConfig::$algorithm(c) => c.validate()),+
                }
            }

            /// The algorithm is delay-based ([`CcParameters::DELAY_BASED`]).
            pub fn delay_based(&self) -> bool {
                match self {
                    $(CcConfig::$algorithm(_) => <$config as CcParameters>::DELAY_BASED),+
                }
            }
        }

        impl CongestionControl {
            /// Build the configured algorithm; `mss_bytes` is the sender's SMSS.
            pub fn from_config(cfg: &CcConfig, mss_bytes: u64) -> Self {
                match cfg {
                    $(CcConfig::$algorithm(c) => CongestionControl::$algorithm($algorithm::new(c, mss_bytes))),+
                }
            }

            #[inline]
            pub fn ops(&self) -> &dyn CongestionOps {
                match self {
                    $(CongestionControl::$algorithm(a) => a),+
                }
            }

            #[inline]
            pub fn ops_mut(&mut self) -> &mut dyn CongestionOps {
                match self {
                    $(CongestionControl::$algorithm(a) => a),+
                }
            }
        }
    };
}

congestion_controls!(
    /// RFC 5681 slow start and congestion avoidance, ssthresh = max(W/2, 2·SMSS), W cwnd or
    /// FlightSize (`TcpConfig::ssthresh_from`).
    Aimd(AimdConfig),
    /// TCP Westwood (`casetti` Sec. 2–3): per-ACK bandwidth estimate (BWE) and faster
    /// recovery, ssthresh = BWE·RTTmin after a loss.
    Westwood(WestwoodConfig),
    /// TCP Westwood+ (`macura` Sec. 2.1, `gangadhar` Sec. 2.5): one bandwidth sample per
    /// RTT; ssthresh = BWE·RTTmin after a loss; cwnd = ssthresh after 3 duplicate ACKs.
    WestwoodPlus(WestwoodPlusConfig),
    /// TCP Vegas (`podlesny` Sec. II-B, `macura` Sec. 4, Brakmo & Peterson, JSAC 1995): once
    /// per RTT, diff = (cwnd/BaseRTT − cwnd/RTT)·BaseRTT segments; +1 segment below α, −1
    /// above β; slow start leaves when diff > γ. See `tcp::cc::vegas` for the flavours.
    Vegas(VegasConfig),
    /// CUBIC (RFC 9438): the window follows W(t) = C·(t − K)³ + W_max after a loss, never below
    /// the Reno-friendly estimate; β = 0.7; HyStart++ (RFC 9406) as an option. See `tcp::cc::cubic`.
    Cubic(CubicConfig),
    /// DCTCP (RFC 8257 §3.3–3.4, Alizadeh et al. 2010): α, the EWMA of the marked fraction per
    /// window of data, and cwnd·(1 − α/2) once per window on ECN-Echo; see `tcp::cc::dctcp`.
    Dctcp(DctcpConfig),
    /// BBR v1 (Cardwell et al. 2016, Linux `tcp_bbr.c`): paces at the bottleneck bandwidth it
    /// measures and keeps about twice the bandwidth-delay product in flight; see `tcp::cc::bbr`.
    Bbr(BbrConfig),
    /// TCP Prague (RFC 9331 §4.3, draft-briscoe-iccrg-prague-congestion-control, Linux
    /// `tcp_prague.c`): DCTCP's α with a fractional window, reduced RTT-dependence below a
    /// 25 ms target, pacing at cwnd/SRTT; see `tcp::cc::prague`.
    Prague(PragueConfig),
);

#[cfg(test)]
mod tests;
