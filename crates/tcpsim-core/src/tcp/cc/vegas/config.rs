//! Vegas's parameters: each rule in which Brakmo & Peterson's Vegas, ns-2's `tcp-vegas.cc`,
//! Linux's `tcp_vegas.c` and ns-3's `TcpVegas` differ is a field (`super` explains each
//! rule); the Python front end names the sets as flavours (README "TCP variants").

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::super::CcParameters;

/// Vegas's parameters (`cc = {kind = "vegas", …}`).
#[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct VegasConfig {
    /// α, segments: grow while diff < α. Papers 1; ns-3 `TcpVegas` and Linux 2.
    pub alpha: f64,
    /// β ≥ α, segments: shrink while diff > β. Papers 3; ns-3 and Linux 4.
    pub beta: f64,
    /// γ, segments: slow start ends when diff > γ. 1 everywhere.
    pub gamma: f64,
    /// The round's RTT that diff compares with BaseRTT.
    pub rtt: VegasRtt,
    /// How often slow start grows the window.
    pub slow_start: VegasSlowStart,
    /// The window slow start leaves with when diff > γ.
    pub slow_start_exit: VegasSlowStartExit,
    /// The answer to duplicate ACKs (and, unless `ecn_decrease` is set, ECN echoes).
    pub loss_decrease: VegasLossDecrease,
    /// The answer to an ECN echo, if not that to duplicate ACKs: ssthresh = cwnd =
    /// max((1 − f)·cwnd, 2 segments), f in (0, 1). ns-2's `tcp-vegas.cc` answers with
    /// `TcpAgent::ecn`, a halving (0.5); absent: `loss_decrease` (RFC 3168 §6.1.2).
    #[serde(default)]
    pub ecn_decrease: Option<f64>,
    /// The window a timeout restarts from, segments: 2 (`podlesny` Sec. II-B.3, ns-2);
    /// 1 (Linux, ns-3).
    pub timeout_cwnd_segments: u32,
    /// A round with fewer RTT samples makes no Vegas decision: Reno's increase is applied
    /// once, on the round's closing ACK (slow start: its per-ACK growth; congestion
    /// avoidance: about 1/cwnd of a segment). 3: Linux `tcp_vegas_cong_avoid` and ns-3
    /// `TcpVegas::IncreaseWindow` (`cntRTT <= 2` → `tcp_reno_cong_avoid` /
    /// `TcpNewReno::IncreaseWindow`: with delayed ACKs a round of one or two ACKs is likely
    /// timed by the receiver's delayed-ACK timer). 0: ns-2 `tcp-vegas.cc`, which decides
    /// every round, timing a round without samples by its duration (`currentTime −
    /// v_begtime_`); 1: decide on any sample.
    pub min_round_samples: u32,
    /// The RTT Vegas is fed: the fresh per-segment sample (`sample`: Brakmo & Peterson,
    /// ns-2 `v_sendtime_`, Linux `ca_rtt_us`) or the sender's smoothed RTT (`smoothed`:
    /// ns-3.44, whose `PktsAcked` gets `m_tcb->m_lastRtt = m_rtt->GetEstimate()`).
    #[serde(default)]
    pub rtt_input: VegasRttInput,
    /// How diff, the segments the flow keeps queued, is formed.
    #[serde(default)]
    pub diff: VegasDiff,
    /// How diff is rounded before it is compared with α, β, γ.
    #[serde(default)]
    pub diff_rounding: VegasDiffRounding,
    /// Which ACK ends a round.
    #[serde(default)]
    pub round_end: VegasRoundEnd,
    /// How a decision changes the window.
    #[serde(default)]
    pub increase: VegasIncrease,
    /// ns-2 `tcp-vegas.cc` `recv`: a round that sent at most one packet (`rttLen <= 1`)
    /// resets BaseRTT to the round's RTT.
    #[serde(default)]
    pub base_rtt_reset: bool,
    /// ns-2 `tcp-vegas.cc` `recv`: the sample of a round's closing ACK is added after the
    /// round's decision, so it counts in the next round.
    #[serde(default)]
    pub closing_sample_next_round: bool,
    /// The Reno increase of a round with too few samples counts the ACK once (`ack`: ns-3
    /// `TcpNewReno::IncreaseWindow`, one segment in slow start, segSize²/cwnd in congestion
    /// avoidance) or by its acknowledged segments (`segments`: Linux `tcp_reno_cong_avoid`,
    /// `tcp_slow_start(tp, acked)` and `tcp_cong_avoid_ai(tp, cwnd, acked)`).
    #[serde(default)]
    pub reno_increase: VegasRenoIncrease,
}

impl CcParameters for VegasConfig {
    /// Vegas reads queueing delay: its flows are RD's D class (`podlesny` Sec. III).
    const DELAY_BASED: bool = true;

    fn validate(&self) -> Result<(), String> {
        let VegasConfig {
            alpha,
            beta,
            gamma,
            loss_decrease,
            ecn_decrease,
            timeout_cwnd_segments,
            slow_start,
            slow_start_exit,
            increase,
            ..
        } = self;
        for (field, value) in [("alpha", alpha), ("gamma", gamma)] {
            if !(value.is_finite() && *value >= 0.0) {
                return Err(format!("{field}: {value} must be a number of segments >= 0"));
            }
        }
        if !(beta.is_finite() && beta >= alpha) {
            return Err(format!("beta: {beta} must be >= alpha ({alpha})"));
        }
        if let VegasLossDecrease::Fraction(f) = loss_decrease {
            if !(*f > 0.0 && *f < 1.0) {
                return Err(format!("loss_decrease: {f} must be in (0, 1)"));
            }
        }
        if let Some(f) = ecn_decrease {
            if !(*f > 0.0 && *f < 1.0) {
                return Err(format!("ecn_decrease: {f} must be in (0, 1)"));
            }
        }
        if *timeout_cwnd_segments == 0 {
            return Err("timeout_cwnd_segments: must be >= 1".into());
        }
        if *increase == VegasIncrease::Ns2PerAck
            && (*slow_start != VegasSlowStart::EveryOtherRtt || *slow_start_exit != VegasSlowStartExit::Eighth)
        {
            return Err("increase: ns2_per_ack needs slow_start = every_other_rtt and slow_start_exit = eighth \
                        (ns-2's own slow start)"
                .into());
        }
        Ok(())
    }
}

/// Which RTT of a round Vegas compares with BaseRTT.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum VegasRtt {
    /// The smallest sample of the round (Linux `tcp_vegas.c`, ns-3 `TcpVegas`): blind to
    /// delayed-ACK waits.
    Min,
    /// The mean of the round's samples (ns-2 `tcp-vegas.cc`, `v_sumRTT_/v_cntRTT_`).
    Mean,
}

/// The RTT fed to Vegas (`VegasConfig::rtt_input`).
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum VegasRttInput {
    /// Each ACK's fresh Karn-valid sample.
    #[default]
    Sample,
    /// An RFC 6298 smoothed RTT (gain 1/8, first sample taken whole) over those samples, fed
    /// on every ACK of new data once it exists, as ns-3's `TcpSocketBase` passes `m_lastRtt`.
    Smoothed,
}

/// How Vegas forms diff (`VegasConfig::diff`), in segments.
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum VegasDiff {
    /// cwnd·(RTT − BaseRTT)/RTT (`podlesny` eqs. 2–4; ns-3 `segCwnd − targetCwnd`).
    #[default]
    Cwnd,
    /// cwnd·(RTT − BaseRTT)/BaseRTT (Linux `tcp_vegas_cong_avoid`).
    CwndOverBase,
    /// ns-2 `tcp-vegas.cc` `recv`: expect·BaseRTT − actual·BaseRTT with expect = (`t_seqno_` −
    /// `last_ack_`)/BaseRTT, the packets outstanding after the closing ACK plus one, and
    /// actual = `rttLen`/RTT, the packets sent during the round.
    Ns2InFlight,
}

/// Rounding of diff (`VegasConfig::diff_rounding`).
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum VegasDiffRounding {
    /// Exact.
    #[default]
    None,
    /// ns-2 `int((expect − actual)·baseRTT + 0.5)`: x + 0.5 truncated toward zero.
    Nearest,
    /// Down (Linux's u32 division).
    Floor,
    /// Up: ns-3's `segCwnd − ⌊segCwnd·baseRtt/minRtt⌋` for a whole-segment window.
    Ceil,
}

/// Which ACK ends a Vegas round (`VegasConfig::round_end`).
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum VegasRoundEnd {
    /// ACK ≥ the snd_nxt recorded when the previous round ended (ns-3 `m_lastAckedSeq >=
    /// m_begSndNxt`).
    #[default]
    AckCovers,
    /// ACK > that snd_nxt: the first segment sent in the round is acknowledged (Linux
    /// `after(ack, beg_snd_nxt)`, ns-2 `seqno >= v_begseq_`).
    AckBeyond,
}

/// How Vegas's decisions change the window (`VegasConfig::increase`).
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum VegasIncrease {
    /// At the round's closing ACK: ±1 segment in congestion avoidance; slow start per
    /// `slow_start` and `slow_start_exit` (Brakmo & Peterson, Linux, ns-3).
    #[default]
    RoundEnd,
    /// ns-2 `tcp-vegas.cc` `recv`: the round end sets a per-ACK increment `v_incr_` (1 in a
    /// slow-start growth round, 1/cwnd when diff < α) added on each ACK of the next round
    /// while the window is used (`cwnd_ − (t_seqno_ − last_ack_) <= 2`); diff > β takes one
    /// segment at once; slow start grows every other round, testing γ at the end of each held
    /// round, and leaves with cwnd − cwnd/8. Needs `slow_start = every_other_rtt` and
    /// `slow_start_exit = eighth`.
    Ns2PerAck,
}

/// How the Reno increase of a few-sample round counts (`VegasConfig::reno_increase`).
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum VegasRenoIncrease {
    /// Once per ACK (ns-3).
    #[default]
    Ack,
    /// Once per acknowledged segment (Linux).
    Segments,
}

/// How often Vegas's slow start grows the window.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum VegasSlowStart {
    /// Every other RTT, the window held in between (Brakmo & Peterson, `podlesny` Sec.
    /// II-B.1, ns-2).
    EveryOtherRtt,
    /// Every RTT, as Reno (Linux, ns-3).
    EveryRtt,
}

/// The window Vegas's slow start leaves with when diff > γ (ssthresh becomes that window).
#[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum VegasSlowStartExit {
    /// cwnd − cwnd/8 (ns-2 `tcp-vegas.cc`, a port of USC's NetBSD Vegas).
    Eighth,
    /// min(cwnd, ⌊cwnd·BaseRTT/RTT⌋ + 1 segments), the window of the actual rate (Linux, ns-3).
    Target,
}

/// Vegas's answer to duplicate ACKs.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(untagged)]
pub enum VegasLossDecrease {
    /// ssthresh = max((1 − f)·cwnd, 2 segments), f in (0, 1): 0.25 (Brakmo & Peterson,
    /// `podlesny` Sec. II-B.3, ns-2), 0.5 (Linux `tcp_reno_ssthresh`).
    Fraction(f64),
    /// ns-3 `TcpVegas::GetSsThresh`, see [`VegasNamedDecrease::Ns3`].
    Named(VegasNamedDecrease),
}

#[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum VegasNamedDecrease {
    /// ns-3 `TcpVegas`: ssthresh = max(min(ssthresh, cwnd − 1 segment), 2 segments), where
    /// ns-3 keeps ssthresh ≥ 3/4 of the window of the last round: a cut of 1/4 at most.
    Ns3,
}
