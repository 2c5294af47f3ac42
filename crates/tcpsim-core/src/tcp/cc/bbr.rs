//! BBR v1 (Cardwell, Cheng, Gunn, Hassas Yeganeh, Jacobson, "BBR: Congestion-Based Congestion
//! Control", ACM Queue 14(5), 2016; draft-cardwell-iccrg-bbr-congestion-control-00), as Linux
//! 4.9–5.x implements it in `net/ipv4/tcp_bbr.c` (the reference where the paper leaves a
//! choice) and ns-3.44's `TcpBbr` follows it.
//!
//! The model, updated on every ACK from its delivery-rate sample (`super::RateSample`,
//! `crate::tcp::delivery_rate`) in `cong_control` (Linux `bbr_main`):
//!
//! - BtlBw: the windowed maximum of the delivery-rate samples over the last
//!   `bw_window_rounds` (10) packet-timed round trips (`bbr_update_bw`, Kathleen Nichols'
//!   three-sample running max of `lib/win_minmax.c`, [`MaxFilter`]). A round ends when a
//!   sample's P.delivered reaches the `delivered` count recorded at the previous round's end.
//!   Application-limited samples enter only if they are not below the estimate.
//! - RTprop: the minimum RTT over `min_rtt_window_ns` (10 s); a sample replaces it if not
//!   larger or once the window has expired (`bbr_update_min_rtt`).
//!
//! The state machine (§"BBR state machine" of the paper, `bbr_check_full_bw_reached`,
//! `bbr_check_drain`, `bbr_update_cycle_phase`, `bbr_update_min_rtt`):
//!
//! - STARTUP: pacing and cwnd gain `high_gain` (2/ln 2 ≈ 2.885). At each round start of a non
//!   application-limited sample: if BtlBw ≥ `full_bw_threshold` (1.25) × the last recorded
//!   full_bw, record it and restart the count; else count, and after `full_bw_rounds` (3)
//!   the pipe is full → DRAIN.
//! - DRAIN: pacing gain `drain_gain` (1/high_gain), cwnd gain high_gain, until in-flight ≤
//!   the BDP target at gain 1 → PROBE_BW.
//! - PROBE_BW: cwnd gain `cwnd_gain` (2); the pacing gain cycles through
//!   `pacing_gain_cycle` ([5/4, 3/4, 1, 1, 1, 1, 1, 1]), starting at phase len − 1 −
//!   U{0, …, cycle_rand − 1} and advancing at once (Linux `bbr_reset_probe_bw_mode`, so never
//!   at the 3/4 phase), U from the flow's own random stream. A phase lasts at least RTprop
//!   (of delivered time); the 5/4 phase also until in-flight before the ACK reaches 5/4 of the
//!   BDP target or a loss, the 3/4 phase at most until in-flight falls to the target at gain 1.
//! - PROBE_RTT: when RTprop has not been refreshed for `min_rtt_window_ns`: pacing and cwnd
//!   gain 1, cwnd capped at `min_cwnd_segments` (4); once in-flight is that small, stay
//!   `probe_rtt_duration_ns` (200 ms) and one round, refresh the RTprop stamp, restore cwnd
//!   and return to PROBE_BW (or STARTUP if the pipe was never filled). Samples taken in it are
//!   marked application-limited.
//!
//! Outputs (`bbr_set_pacing_rate`, `bbr_target_cwnd`, `bbr_set_cwnd`):
//!
//! - pacing rate = pacing_gain · BtlBw · (1 − `pacing_margin_percent`/100) (Linux ≥ 4.20:
//!   1 %), raised only until the pipe is first full; before the first sample, high_gain ·
//!   10 segments / RTT, with 1 ms until the first RTT sample (`bbr_init_pacing_rate_from_rtt`;
//!   10 is Linux's `TCP_INIT_CWND`).
//! - target cwnd = ⌈gain · BtlBw · RTprop / SMSS⌉ + 3·tso_segs_goal segments (with
//!   `tso_quanta`: Linux's `bbr_tso_segs_goal`, ⌊rate/1024/SMSS⌋ clamped to [1 or 2, 127], 2
//!   at ≥ 1.2 Mb/s), rounded up to even, + 2 in the PROBE_BW phases with gain > 1; 10
//!   segments before an RTT sample.
//! - cwnd: below the target it grows by the bytes each ACK delivers (SACKed or ACKed); once the
//!   pipe has been full it is min(cwnd + delivered, target); never below 4 segments, at most 4
//!   in PROBE_RTT.
//! - Loss (`bbr_set_cwnd_to_recover_or_restore`, `bbr_ssthresh`, `bbr_set_state`): ssthresh
//!   is not used (kept as it is); on a loss signal the last good cwnd is saved. Fast recovery's
//!   first round is packet conservation: cwnd = in-flight + delivered at entry, then
//!   max(cwnd, in-flight + delivered) until a round ends; after that cwnd grows as usual
//!   (at most 2 segments per segment delivered). Leaving recovery or the timeout's loss state
//!   restores max(cwnd, saved cwnd). A timeout (Linux `tcp_enter_loss`) restarts from one
//!   segment, counts as a round start and clears full_bw. Newly lost bytes are taken off cwnd.
//!
//! Units: bytes, ns; BtlBw in bytes of payload per second (`u64`), gains `f64`.
//! Deviations from Linux: no long-term ("policer") bandwidth model (`lt_bw`, added in 4.10);
//! no idle-restart handling (`CA_EVENT_TX_START`: the flows here restart only after an OFF
//! period); the newly-lost count is the sender's estimate (`RateSample::lost_bytes`); the
//! retransmission that starts recovery has already left when packet conservation is applied,
//! so the first cwnd of recovery counts it in flight; no ACK-aggregation allowance
//! (`bbr_extra_acked`, Linux 5.1+). ns-3.44 `TcpBbr` (which has that allowance) differs from
//! Linux in its cwnd quanta (3 × one segment, not rounded to even), a high gain of 2.89, and
//! gain-cycle phases timed by the clock rather than by delivered time.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{CaState, CcParameters, CongestionOps, LossSignal, RateSample, Reduction, Window};
use crate::rng::RandomStream;

/// BBR's parameters (Linux `tcp_bbr.c` constants). Defaults users get are set in the scenario
/// layer (`BbrCc`).
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct BbrConfig {
    /// STARTUP pacing and cwnd gain, > 1: 2/ln 2 ≈ 2.885, the smallest gain that doubles the
    /// delivery rate each round (Linux `bbr_high_gain`).
    pub high_gain: f64,
    /// DRAIN pacing gain, in (0, 1]: 1/high_gain, which drains STARTUP's queue in one round
    /// (Linux `bbr_drain_gain`).
    pub drain_gain: f64,
    /// PROBE_BW cwnd gain, ≥ 1: 2 (Linux `bbr_cwnd_gain`).
    pub cwnd_gain: f64,
    /// PROBE_BW pacing gains, one per phase, each > 0: [1.25, 0.75, 1, 1, 1, 1, 1, 1] (Linux
    /// `bbr_pacing_gain`). Length 2 to 64.
    pub pacing_gain_cycle: Vec<f64>,
    /// The cycle starts at phase len − 1 − U{0, …, cycle_rand − 1}, then advances one: 7
    /// (Linux `bbr_cycle_rand`); 1 to the cycle's length.
    pub cycle_rand: u32,
    /// BtlBw max-filter window, round trips, ≥ 1: 10 (Linux `bbr_bw_rtts` = CYCLE_LEN + 2).
    pub bw_window_rounds: u32,
    /// RTprop min-filter window, ns, > 0: 10 s (Linux `bbr_min_rtt_win_sec`).
    pub min_rtt_window_ns: u64,
    /// Time held at the minimum window in PROBE_RTT, ns: 200 ms (Linux `bbr_probe_rtt_mode_ms`;
    /// 0 disables PROBE_RTT).
    pub probe_rtt_duration_ns: u64,
    /// Minimum cwnd and PROBE_RTT's cap, segments, ≥ 1: 4 (Linux `bbr_cwnd_min_target`).
    pub min_cwnd_segments: u32,
    /// STARTUP's growth threshold, > 1: 1.25 (Linux `bbr_full_bw_thresh`).
    pub full_bw_threshold: f64,
    /// Rounds without that growth that end STARTUP, ≥ 1: 3 (Linux `bbr_full_bw_cnt`).
    pub full_bw_rounds: u32,
    /// Pacing below the estimate, percent, 0 to 99: 1 (Linux ≥ 4.20
    /// `bbr_pacing_margin_percent`; ns-3.44 `TcpBbr` `m_pacingMargin` 0.01).
    pub pacing_margin_percent: u32,
    /// Add 3 × Linux's TSO segment goal (2 segments at ≥ 1.2 Mb/s) to the cwnd target and round
    /// it up to even (`bbr_target_cwnd`); false: neither (ns-3.44 adds 3 segments, unrounded).
    pub tso_quanta: bool,
}

impl CcParameters for BbrConfig {
    /// Check the parameters; errors are `<field>: message`.
    fn validate(&self) -> Result<(), String> {
        let finite = |field: &str, v: f64, ok: bool, what: &str| {
            if v.is_finite() && ok {
                Ok(())
            } else {
                Err(format!("{field}: {v} must be {what}"))
            }
        };
        finite("high_gain", self.high_gain, self.high_gain > 1.0, "> 1")?;
        finite("drain_gain", self.drain_gain, self.drain_gain > 0.0 && self.drain_gain <= 1.0, "in (0, 1]")?;
        finite("cwnd_gain", self.cwnd_gain, self.cwnd_gain >= 1.0, ">= 1")?;
        finite("full_bw_threshold", self.full_bw_threshold, self.full_bw_threshold > 1.0, "> 1")?;
        let n = self.pacing_gain_cycle.len();
        if !(2..=64).contains(&n) {
            return Err(format!("pacing_gain_cycle: {n} phases, must be 2 to 64"));
        }
        for (i, g) in self.pacing_gain_cycle.iter().enumerate() {
            finite(&format!("pacing_gain_cycle[{i}]"), *g, *g > 0.0, "> 0")?;
        }
        if self.cycle_rand == 0 || self.cycle_rand as usize > n {
            return Err(format!("cycle_rand: {} must be 1 to the cycle's length ({n})", self.cycle_rand));
        }
        for (field, v) in [
            ("bw_window_rounds", self.bw_window_rounds),
            ("min_cwnd_segments", self.min_cwnd_segments),
            ("full_bw_rounds", self.full_bw_rounds),
        ] {
            if v == 0 {
                return Err(format!("{field}: must be >= 1"));
            }
        }
        if self.min_rtt_window_ns == 0 {
            return Err("min_rtt_window_ns: must be > 0".into());
        }
        if self.pacing_margin_percent > 99 {
            return Err(format!("pacing_margin_percent: {} must be 0 to 99", self.pacing_margin_percent));
        }
        Ok(())
    }
}

impl BbrConfig {
    /// Linux's constants (`tcp_bbr.c`, 4.20–5.x).
    pub fn linux() -> Self {
        BbrConfig {
            high_gain: 2.885,
            drain_gain: 1.0 / 2.885,
            cwnd_gain: 2.0,
            pacing_gain_cycle: vec![1.25, 0.75, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0],
            cycle_rand: 7,
            bw_window_rounds: 10,
            min_rtt_window_ns: 10_000_000_000,
            probe_rtt_duration_ns: 200_000_000,
            min_cwnd_segments: 4,
            full_bw_threshold: 1.25,
            full_bw_rounds: 3,
            pacing_margin_percent: 1,
            tso_quanta: true,
        }
    }
}

/// Linux's `TCP_INIT_CWND`: the window before any RTT sample and BBR's initial pacing basis.
const INIT_CWND_SEGMENTS: u64 = 10;

/// Kathleen Nichols' windowed running maximum (Linux `lib/win_minmax.c`): the best, second-best
/// and third-best samples of the window, each (time, value), time in rounds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MaxFilter {
    s: [(u64, u64); 3],
}

impl MaxFilter {
    /// The window's maximum.
    pub fn get(&self) -> u64 {
        self.s[0].1
    }

    fn reset(&mut self, t: u64, v: u64) -> u64 {
        self.s = [(t, v); 3];
        v
    }

    /// Take sample `v` at time `t` into a window of `win` (`minmax_running_max`).
    pub fn update(&mut self, win: u64, t: u64, v: u64) -> u64 {
        let val = (t, v);
        if v >= self.s[0].1 || t - self.s[2].0 > win {
            return self.reset(t, v); // a new maximum, or nothing left in the window
        }
        if v >= self.s[1].1 {
            self.s[2] = val;
            self.s[1] = val;
        } else if v >= self.s[2].1 {
            self.s[2] = val;
        }
        // `minmax_subwin_update`
        let dt = t - self.s[0].0;
        if dt > win {
            // The best is out of the window: the 2nd and 3rd move up.
            self.s = [self.s[1], self.s[2], val];
            if t - self.s[0].0 > win {
                self.s = [self.s[1], self.s[2], val];
            }
        } else if self.s[1].0 == self.s[0].0 && dt > win / 4 {
            // A quarter of the window without a new 2nd choice: take one from this quarter.
            self.s[2] = val;
            self.s[1] = val;
        } else if self.s[2].0 == self.s[1].0 && dt > win / 2 {
            self.s[2] = val;
        }
        self.s[0].1
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BbrMode {
    Startup,
    Drain,
    ProbeBw,
    ProbeRtt,
}

pub struct Bbr {
    cfg: BbrConfig,
    mss: u64,
    rng: RandomStream,
    mode: BbrMode,
    /// BtlBw filter, bytes per second, time in rounds.
    bw: MaxFilter,
    /// RTprop (ns) and when it was last set.
    min_rtt_ns: Option<u64>,
    min_rtt_stamp_ns: u64,
    /// PROBE_RTT: when it may end (None until in-flight is down to the minimum), and whether a
    /// round has passed since.
    probe_rtt_done_ns: Option<u64>,
    probe_rtt_round_done: bool,
    /// Packet-timed rounds so far, and the `delivered` count that ends the current one.
    rtt_cnt: u64,
    next_rtt_delivered: u64,
    round_start: bool,
    /// PROBE_BW: the phase and when it began (delivered time).
    cycle_idx: usize,
    cycle_stamp_ns: u64,
    pacing_gain: f64,
    cwnd_gain: f64,
    full_bw_reached: bool,
    full_bw: u64,
    full_bw_cnt: u32,
    prev_ca_state: CaState,
    packet_conservation: bool,
    restore_cwnd: bool,
    /// The last good cwnd, saved on a loss signal or entering PROBE_RTT.
    prior_cwnd: u64,
    /// Bytes of payload per second.
    pacing_rate: u64,
    has_seen_rtt: bool,
}

impl Bbr {
    pub fn new(cfg: &BbrConfig, mss_bytes: u64) -> Self {
        let mut b = Bbr {
            cfg: cfg.clone(),
            mss: mss_bytes,
            rng: RandomStream::new(0, "bbr"),
            mode: BbrMode::Startup,
            bw: MaxFilter::default(),
            min_rtt_ns: None,
            min_rtt_stamp_ns: 0,
            probe_rtt_done_ns: None,
            probe_rtt_round_done: false,
            rtt_cnt: 0,
            next_rtt_delivered: 0,
            round_start: false,
            cycle_idx: 0,
            cycle_stamp_ns: 0,
            pacing_gain: cfg.high_gain,
            cwnd_gain: cfg.high_gain,
            full_bw_reached: false,
            full_bw: 0,
            full_bw_cnt: 0,
            prev_ca_state: CaState::Open,
            packet_conservation: false,
            restore_cwnd: false,
            prior_cwnd: 0,
            pacing_rate: 0,
            has_seen_rtt: false,
        };
        b.init_pacing_rate(1_000_000);
        b
    }

    pub fn mode(&self) -> BbrMode {
        self.mode
    }

    /// BtlBw, bytes per second.
    pub fn btl_bw(&self) -> u64 {
        self.bw.get()
    }

    pub fn pacing_gain(&self) -> f64 {
        self.pacing_gain
    }

    pub fn cycle_index(&self) -> usize {
        self.cycle_idx
    }

    /// `bbr_init_pacing_rate_from_rtt`: high_gain × 10 segments per `rtt_ns`.
    fn init_pacing_rate(&mut self, rtt_ns: u64) {
        let bw = INIT_CWND_SEGMENTS * self.mss * 1_000_000_000 / rtt_ns.max(1);
        self.pacing_rate = self.rate_with_gain(bw, self.cfg.high_gain);
    }

    /// `bbr_bw_to_pacing_rate`: bytes per second with a gain and the margin.
    fn rate_with_gain(&self, bw: u64, gain: f64) -> u64 {
        let rate = (bw as f64 * gain).round() as u64;
        (rate as u128 * (100 - self.cfg.pacing_margin_percent) as u128 / 100) as u64
    }

    /// `bbr_tso_segs_goal`: about 1 ms of data at the pacing rate, in segments.
    fn tso_segs_goal(&self) -> u64 {
        let min_segs = if self.pacing_rate < 1_200_000 / 8 { 1 } else { 2 };
        let bytes = (self.pacing_rate >> 10).min(65_535 - 1 - 320);
        (bytes / self.mss).max(min_segs).min(127)
    }

    /// `bbr_target_cwnd`, bytes.
    fn target_cwnd(&self, bw: u64, gain: f64) -> u64 {
        let Some(min_rtt) = self.min_rtt_ns else { return INIT_CWND_SEGMENTS * self.mss };
        let bdp_segments = bw as f64 * min_rtt as f64 / 1e9 / self.mss as f64;
        let mut segments = (bdp_segments * gain).ceil() as u64;
        if self.cfg.tso_quanta {
            segments += 3 * self.tso_segs_goal();
        }
        segments = (segments + 1) & !1;
        if self.mode == BbrMode::ProbeBw && gain > 1.0 {
            segments += 2;
        }
        segments * self.mss
    }

    fn save_cwnd(&mut self, cwnd: u64) {
        if self.prev_ca_state == CaState::Open && self.mode != BbrMode::ProbeRtt {
            self.prior_cwnd = cwnd;
        } else {
            self.prior_cwnd = self.prior_cwnd.max(cwnd);
        }
    }

    fn reset_startup_mode(&mut self) {
        self.mode = BbrMode::Startup;
        self.pacing_gain = self.cfg.high_gain;
        self.cwnd_gain = self.cfg.high_gain;
    }

    fn reset_probe_bw_mode(&mut self, delivered_ns: u64) {
        self.mode = BbrMode::ProbeBw;
        self.pacing_gain = 1.0;
        self.cwnd_gain = self.cfg.cwnd_gain;
        let n = self.cfg.pacing_gain_cycle.len();
        let r = self.rng.below_or_equal(self.cfg.cycle_rand as u64 - 1) as usize;
        self.cycle_idx = n - 1 - r;
        self.advance_cycle_phase(delivered_ns);
    }

    fn reset_mode(&mut self, delivered_ns: u64) {
        if self.full_bw_reached {
            self.reset_probe_bw_mode(delivered_ns);
        } else {
            self.reset_startup_mode();
        }
    }

    fn advance_cycle_phase(&mut self, delivered_ns: u64) {
        self.cycle_idx = (self.cycle_idx + 1) % self.cfg.pacing_gain_cycle.len();
        self.cycle_stamp_ns = delivered_ns;
        self.pacing_gain = self.cfg.pacing_gain_cycle[self.cycle_idx];
    }

    /// `bbr_update_bw`.
    fn update_bw(&mut self, rs: &RateSample) {
        self.round_start = false;
        let (Some(interval), Some(prior_delivered)) = (rs.interval_ns, rs.prior_delivered) else { return };
        if interval == 0 {
            return;
        }
        if prior_delivered >= self.next_rtt_delivered {
            self.next_rtt_delivered = rs.total_delivered_bytes;
            self.rtt_cnt += 1;
            self.round_start = true;
            self.packet_conservation = false;
        }
        let bw = (rs.delivered_bytes as u128 * 1_000_000_000 / interval as u128) as u64;
        if !rs.is_app_limited || bw >= self.bw.get() {
            self.bw.update(self.cfg.bw_window_rounds as u64, self.rtt_cnt, bw);
        }
    }

    /// `bbr_is_next_cycle_phase`.
    fn is_next_cycle_phase(&self, rs: &RateSample) -> bool {
        let is_full_length = self.min_rtt_ns.is_some_and(|m| rs.delivered_ns.saturating_sub(self.cycle_stamp_ns) > m);
        if self.pacing_gain == 1.0 {
            return is_full_length;
        }
        let inflight = rs.prior_in_flight_bytes;
        let bw = self.bw.get();
        if self.pacing_gain > 1.0 {
            return is_full_length && (rs.lost_bytes > 0 || inflight >= self.target_cwnd(bw, self.pacing_gain));
        }
        is_full_length || inflight <= self.target_cwnd(bw, 1.0)
    }

    /// `bbr_check_full_bw_reached`.
    fn check_full_bw_reached(&mut self, rs: &RateSample) {
        if self.full_bw_reached || !self.round_start || rs.is_app_limited {
            return;
        }
        let max_bw = self.bw.get();
        if max_bw as f64 >= self.full_bw as f64 * self.cfg.full_bw_threshold {
            self.full_bw = max_bw;
            self.full_bw_cnt = 0;
            return;
        }
        self.full_bw_cnt += 1;
        self.full_bw_reached = self.full_bw_cnt >= self.cfg.full_bw_rounds;
    }

    /// `bbr_check_drain`.
    fn check_drain(&mut self, rs: &RateSample) {
        if self.mode == BbrMode::Startup && self.full_bw_reached {
            self.mode = BbrMode::Drain;
            self.pacing_gain = self.cfg.drain_gain;
            self.cwnd_gain = self.cfg.high_gain;
        }
        if self.mode == BbrMode::Drain && rs.in_flight_bytes <= self.target_cwnd(self.bw.get(), 1.0) {
            self.reset_probe_bw_mode(rs.delivered_ns);
        }
    }

    /// `bbr_update_min_rtt`; returns whether the connection is to be marked app-limited.
    fn update_min_rtt(&mut self, rs: &RateSample, cwnd: u64) -> bool {
        let now = rs.now_ns;
        let expired = now > self.min_rtt_stamp_ns + self.cfg.min_rtt_window_ns;
        if let Some(rtt) = rs.rtt_ns {
            if self.min_rtt_ns.is_none_or(|m| rtt <= m) || expired {
                self.min_rtt_ns = Some(rtt);
                self.min_rtt_stamp_ns = now;
            }
        }
        if self.cfg.probe_rtt_duration_ns > 0 && expired && self.mode != BbrMode::ProbeRtt {
            self.mode = BbrMode::ProbeRtt;
            self.pacing_gain = 1.0;
            self.cwnd_gain = 1.0;
            self.save_cwnd(cwnd);
            self.probe_rtt_done_ns = None;
        }
        if self.mode != BbrMode::ProbeRtt {
            return false;
        }
        match self.probe_rtt_done_ns {
            None if rs.in_flight_bytes <= self.cfg.min_cwnd_segments as u64 * self.mss => {
                self.probe_rtt_done_ns = Some(now + self.cfg.probe_rtt_duration_ns);
                self.probe_rtt_round_done = false;
                self.next_rtt_delivered = rs.total_delivered_bytes;
            }
            None => {}
            Some(done) => {
                if self.round_start {
                    self.probe_rtt_round_done = true;
                }
                if self.probe_rtt_round_done && now > done {
                    self.min_rtt_stamp_ns = now;
                    self.restore_cwnd = true;
                    self.reset_mode(rs.delivered_ns);
                }
            }
        }
        true
    }

    /// `bbr_set_pacing_rate`.
    fn set_pacing_rate(&mut self, rs: &RateSample) {
        if !self.has_seen_rtt {
            if let Some(rtt) = rs.rtt_ns {
                self.has_seen_rtt = true;
                self.init_pacing_rate(rtt);
            }
        }
        let rate = self.rate_with_gain(self.bw.get(), self.pacing_gain);
        if self.full_bw_reached || rate > self.pacing_rate {
            self.pacing_rate = rate;
        }
    }

    /// `bbr_set_cwnd` with `bbr_set_cwnd_to_recover_or_restore`.
    fn set_cwnd(&mut self, w: &mut Window, rs: &RateSample, state: CaState) {
        let acked = rs.acked_sacked_bytes;
        let min_cwnd = self.cfg.min_cwnd_segments as u64 * self.mss;
        let mut cwnd = w.cwnd_bytes;
        if acked > 0 {
            let mut conserving = false;
            if rs.lost_bytes > 0 {
                cwnd = cwnd.saturating_sub(rs.lost_bytes).max(self.mss);
            }
            if state == CaState::Recovery && self.prev_ca_state != CaState::Recovery {
                self.packet_conservation = true;
                self.next_rtt_delivered = rs.total_delivered_bytes;
                cwnd = rs.in_flight_bytes + acked;
            } else if self.prev_ca_state != CaState::Open && state == CaState::Open {
                self.restore_cwnd = true;
                self.packet_conservation = false;
            }
            self.prev_ca_state = state;
            if self.restore_cwnd {
                cwnd = cwnd.max(self.prior_cwnd);
                self.restore_cwnd = false;
            }
            if self.packet_conservation {
                cwnd = cwnd.max(rs.in_flight_bytes + acked);
                conserving = true;
            }
            if !conserving {
                let target = self.target_cwnd(self.bw.get(), self.cwnd_gain);
                if self.full_bw_reached {
                    cwnd = (cwnd + acked).min(target);
                } else if cwnd < target || rs.total_delivered_bytes < INIT_CWND_SEGMENTS * self.mss {
                    cwnd += acked;
                }
                cwnd = cwnd.max(min_cwnd);
            }
        }
        if self.mode == BbrMode::ProbeRtt {
            cwnd = cwnd.min(min_cwnd);
        }
        w.cwnd_bytes = cwnd;
    }
}

impl CongestionOps for Bbr {
    /// BBR sets cwnd in `cong_control`; ssthresh-based growth does not apply.
    fn increase_window(&mut self, _w: &mut Window, _acked_bytes: u64) {}

    /// `bbr_ssthresh` (save the cwnd, ssthresh unchanged) and, on a timeout, `bbr_set_state`
    /// for `TCP_CA_Loss`: restart from one segment, a round start, full_bw cleared.
    fn on_loss(&mut self, w: &Window, _flight_bytes: u64, signal: LossSignal, _now_ns: u64) -> Reduction {
        self.save_cwnd(w.cwnd_bytes);
        match signal {
            LossSignal::DuplicateAcks => Reduction {
                ssthresh_bytes: w.ssthresh_bytes,
                cwnd_bytes: Some(w.cwnd_bytes),
                entry_cwnd_bytes: Some(w.cwnd_bytes),
            },
            LossSignal::Timeout => {
                self.prev_ca_state = CaState::Loss;
                self.full_bw = 0;
                self.round_start = true;
                Reduction { ssthresh_bytes: w.ssthresh_bytes, cwnd_bytes: None, entry_cwnd_bytes: None }
            }
        }
    }

    /// BBR v1 does not answer ECN-Echo (the window stays as it is).
    fn on_ecn(&mut self, w: &Window, _flight_bytes: u64, _now_ns: u64) -> Reduction {
        Reduction { ssthresh_bytes: w.ssthresh_bytes, cwnd_bytes: Some(w.cwnd_bytes), entry_cwnd_bytes: None }
    }

    fn bandwidth_estimate_bps(&self) -> Option<f64> {
        Some(self.bw.get() as f64 * 8.0)
    }

    fn rtt_estimate_ns(&self) -> Option<u64> {
        self.min_rtt_ns
    }

    fn pacing_rate_bps(&self) -> Option<u64> {
        Some(self.pacing_rate.saturating_mul(8))
    }

    fn wants_rate_samples(&self) -> bool {
        true
    }

    /// `bbr_main`: update the model, then the pacing rate and cwnd.
    fn cong_control(&mut self, w: &mut Window, rs: &RateSample, state: CaState) -> bool {
        self.update_bw(rs);
        if self.mode == BbrMode::ProbeBw && self.is_next_cycle_phase(rs) {
            self.advance_cycle_phase(rs.delivered_ns);
        }
        self.check_full_bw_reached(rs);
        self.check_drain(rs);
        let app_limited = self.update_min_rtt(rs, w.cwnd_bytes);
        self.set_pacing_rate(rs);
        self.set_cwnd(w, rs, state);
        app_limited
    }

    fn set_random_stream(&mut self, stream: RandomStream) {
        self.rng = stream;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::CaIncrement;

    const MSS: u64 = 1000;
    const MS: u64 = 1_000_000;

    fn window(cwnd_segments: u64) -> Window {
        Window {
            cwnd_bytes: cwnd_segments * MSS,
            ssthresh_bytes: u64::MAX,
            mss_bytes: MSS,
            ca_credit: 0,
            ca_increment: CaIncrement::Exact,
        }
    }

    /// A valid sample: `delivered` bytes over `interval_ms`, P.delivered `prior`, at `now_ms`.
    fn sample(now_ms: u64, prior: u64, total: u64, delivered: u64, interval_ms: u64, acked: u64) -> RateSample {
        RateSample {
            delivered_bytes: delivered,
            interval_ns: Some(interval_ms * MS),
            is_app_limited: false,
            prior_delivered: Some(prior),
            acked_sacked_bytes: acked,
            total_delivered_bytes: total,
            prior_in_flight_bytes: 0,
            in_flight_bytes: 0,
            rtt_ns: Some(100 * MS),
            lost_bytes: 0,
            now_ns: now_ms * MS,
            delivered_ns: now_ms * MS,
        }
    }

    #[test]
    fn the_max_filter_keeps_the_best_of_the_window_and_ages_it_out_through_the_runners_up() {
        let mut f = MaxFilter::default();
        // Window 10 rounds. A new maximum fills all three choices.
        assert_eq!(f.update(10, 0, 100), 100);
        assert_eq!(f.s, [(0, 100); 3]);
        // Round 1: 90 is below every choice and only a quarter window (2.5 rounds) makes room.
        assert_eq!(f.update(10, 1, 90), 100);
        assert_eq!(f.s, [(0, 100); 3]);
        // Round 3: dt 3 > 10/4 with the 2nd choice as old as the best: 80 is 2nd and 3rd.
        assert_eq!(f.update(10, 3, 80), 100);
        assert_eq!(f.s, [(0, 100), (3, 80), (3, 80)]);
        // Round 6: dt 6 > 10/2 with the 3rd as old as the 2nd: 70 is 3rd.
        assert_eq!(f.update(10, 6, 70), 100);
        assert_eq!(f.s, [(0, 100), (3, 80), (6, 70)]);
        // Round 11: the best (round 0) is out of the window; 80 moves up.
        assert_eq!(f.update(10, 11, 60), 80);
        assert_eq!(f.s, [(3, 80), (6, 70), (11, 60)]);
        // Round 14: 80 (round 3) is out too; 70 (round 6) leads.
        assert_eq!(f.update(10, 14, 50), 70);
        assert_eq!(f.s, [(6, 70), (11, 60), (14, 50)]);
        // A new maximum resets all three; so does a sample after a window with nothing.
        assert_eq!(f.update(10, 15, 200), 200);
        assert_eq!(f.s, [(15, 200); 3]);
        assert_eq!(f.update(10, 40, 5), 5);
    }

    #[test]
    fn startup_grows_cwnd_by_what_is_delivered_and_paces_at_high_gain_times_btlbw() {
        let mut b = Bbr::new(&BbrConfig::linux(), MSS);
        // Before any ACK: 2.885 × 10 segments per 1 ms × 0.99 = 28 561 500 B/s.
        assert_eq!(b.pacing_rate_bps(), Some(28_561_500 * 8));
        let mut w = window(10);
        // First ACK at 100 ms delivers 1000 bytes over 100 ms: 10 000 B/s; a round starts
        // (P.delivered 0 ≥ next_rtt_delivered 0); RTprop = 100 ms.
        assert!(!b.cong_control(&mut w, &sample(100, 0, 1000, 1000, 100, 1000), CaState::Open));
        assert_eq!((b.btl_bw(), b.rtt_cnt, b.min_rtt_ns), (10_000, 1, Some(100 * MS)));
        // The first RTT sample re-initialises the pacing rate: 2.885 × 10 000 B per 100 ms =
        // 288 500 B/s, × 0.99 = 285 615; 2.885 × BtlBw is smaller.
        assert_eq!(b.pacing_rate, 285_615);
        // Target: ⌈2.885 × 10 000 B/s × 100 ms / 1000⌉ = 3 segments + 3·1 (pacing below 150 kB/s:
        // one TSO segment) = 6 → 6; cwnd 10 is above it, but only 1000 B have been delivered
        // (< 10 segments), so it still grows by the bytes delivered.
        assert_eq!(w.cwnd_bytes, 11 * MSS);
        assert_eq!(b.mode(), BbrMode::Startup);
    }

    #[test]
    fn startup_ends_after_three_rounds_without_a_quarter_more_bandwidth_then_drain_then_probe_bw() {
        let mut b = Bbr::new(&BbrConfig::linux(), MSS);
        let mut w = window(10);
        // Round r (1-based) ends at delivered = 10 000·r bytes; bandwidth 1 MB/s, then flat.
        let mut total = 0;
        let mut prior = 0;
        for (r, bw) in [(1, 1_000_000u64), (2, 1_200_000), (3, 1_200_000), (4, 1_200_000)] {
            total += 10_000;
            // delivered over 10 ms = bw·10 ms.
            let rs = sample(100 * r, prior, total, bw / 100, 10, 10_000);
            b.cong_control(&mut w, &rs, CaState::Open);
            prior = total;
            assert!(b.round_start, "round {r} starts");
        }
        // Round 1: full_bw = 1.0 MB/s. Round 2: 1.2 < 1.25 → cnt 1; round 3 → 2; round 4 → 3.
        assert!(b.full_bw_reached);
        assert_eq!(b.full_bw, 1_000_000);
        // Full pipe: DRAIN at once, and since in-flight (0) ≤ BDP target, PROBE_BW in the same ACK.
        assert_eq!(b.mode(), BbrMode::ProbeBw);
        assert_eq!(b.cwnd_gain, 2.0);
        assert_ne!(b.cycle_index(), 1, "never starts in the 3/4 phase");
        assert_eq!(b.pacing_gain(), BbrConfig::linux().pacing_gain_cycle[b.cycle_index()]);
    }

    #[test]
    fn the_target_cwnd_is_gain_times_bdp_plus_quanta_rounded_to_even() {
        let mut b = Bbr::new(&BbrConfig::linux(), MSS);
        b.min_rtt_ns = Some(40 * MS);
        // BtlBw 1.25 MB/s (10 Mb/s) × 40 ms = 50 000 B = 50 segments.
        b.pacing_rate = 1_250_000; // tso goal: max(1_250_000>>10 = 1220 B / 1000, 2) = 2
        assert_eq!(b.tso_segs_goal(), 2);
        assert_eq!(b.target_cwnd(1_250_000, 2.0), (100 + 6) * MSS);
        assert_eq!(b.target_cwnd(1_250_000, 1.0), (50 + 6) * MSS);
        // 2.885 × 50 = 144.25 → 145 + 6 = 151 → even 152.
        assert_eq!(b.target_cwnd(1_250_000, 2.885), 152 * MSS);
        b.mode = BbrMode::ProbeBw;
        // 1.25 × 50 = 62.5 → 63 + 6 = 69 → 70, + 2 in PROBE_BW's probing phase.
        assert_eq!(b.target_cwnd(1_250_000, 1.25), 72 * MSS);
        b.min_rtt_ns = None;
        assert_eq!(b.target_cwnd(1_250_000, 2.0), 10 * MSS, "no RTT sample: TCP_INIT_CWND");
    }

    #[test]
    fn the_gain_cycle_advances_after_rtprop_and_its_probing_phase_waits_for_the_inflight() {
        let mut b = Bbr::new(&BbrConfig::linux(), MSS);
        b.min_rtt_ns = Some(40 * MS);
        b.min_rtt_stamp_ns = 0;
        b.bw.update(10, 0, 1_250_000);
        b.full_bw_reached = true;
        b.pacing_rate = 1_250_000;
        b.mode = BbrMode::ProbeBw;
        b.cwnd_gain = 2.0;
        b.cycle_idx = 0;
        b.pacing_gain = 1.25;
        b.cycle_stamp_ns = 0;
        let mut rs = sample(30, 0, 1000, 1000, 40, 1000);
        rs.prior_in_flight_bytes = 100 * MSS;
        assert!(!b.is_next_cycle_phase(&rs), "30 ms < RTprop");
        rs.delivered_ns = 41 * MS;
        rs.prior_in_flight_bytes = 71 * MSS;
        assert!(!b.is_next_cycle_phase(&rs), "in-flight 71 < 72 segments");
        rs.prior_in_flight_bytes = 72 * MSS;
        assert!(b.is_next_cycle_phase(&rs));
        rs.prior_in_flight_bytes = 10 * MSS;
        rs.lost_bytes = MSS;
        assert!(b.is_next_cycle_phase(&rs), "a loss ends probing");
        b.advance_cycle_phase(41 * MS);
        assert_eq!((b.cycle_idx, b.pacing_gain), (1, 0.75));
        // The 3/4 phase ends early once in-flight ≤ the gain-1 target (56 segments).
        let mut rs = sample(50, 0, 1000, 1000, 40, 1000);
        rs.prior_in_flight_bytes = 57 * MSS;
        assert!(!b.is_next_cycle_phase(&rs));
        rs.prior_in_flight_bytes = 56 * MSS;
        assert!(b.is_next_cycle_phase(&rs));
    }

    #[test]
    fn probe_rtt_caps_cwnd_at_four_segments_for_200_ms_and_a_round_then_restores() {
        let mut b = Bbr::new(&BbrConfig::linux(), MSS);
        b.min_rtt_ns = Some(40 * MS);
        b.min_rtt_stamp_ns = 0;
        b.bw.update(10, 0, 1_250_000);
        b.full_bw_reached = true;
        b.pacing_rate = 1_250_000;
        b.reset_probe_bw_mode(0);
        let mut w = window(100);
        // 10.001 s: the RTprop stamp (0) has expired; the sample (50 ms) does not lower it but
        // replaces it as the window expired.
        let mut rs = sample(10_001, 0, 1000, 1000, 40, 1000);
        rs.rtt_ns = Some(50 * MS);
        rs.in_flight_bytes = 90 * MSS;
        assert!(b.cong_control(&mut w, &rs, CaState::Open), "PROBE_RTT marks app-limited");
        assert_eq!(b.mode(), BbrMode::ProbeRtt);
        assert_eq!(b.min_rtt_ns, Some(50 * MS));
        assert_eq!(b.prior_cwnd, 100 * MSS, "saved");
        assert_eq!(w.cwnd_bytes, 4 * MSS);
        assert_eq!(b.probe_rtt_done_ns, None, "in-flight still 90 segments");
        // In-flight down to 4 segments at 10.1 s: done at 10.3 s (and one round).
        let mut rs = sample(10_100, 1000, 2000, 1000, 40, 1000);
        rs.in_flight_bytes = 4 * MSS;
        b.cong_control(&mut w, &rs, CaState::Open);
        assert_eq!(b.probe_rtt_done_ns, Some(10_300 * MS));
        assert_eq!(b.next_rtt_delivered, 2000);
        // 10.2 s: a round ends (P.delivered 2000 ≥ 2000) but 200 ms have not passed.
        let rs = sample(10_200, 2000, 3000, 1000, 40, 1000);
        b.cong_control(&mut w, &rs, CaState::Open);
        assert!(b.probe_rtt_round_done);
        assert_eq!(b.mode(), BbrMode::ProbeRtt);
        // 10.301 s: back to PROBE_BW; cwnd restored to the saved 100 segments (then capped by
        // min(cwnd + acked, target)).
        let rs = sample(10_301, 2500, 3500, 1000, 40, 500);
        b.cong_control(&mut w, &rs, CaState::Open);
        assert_eq!(b.mode(), BbrMode::ProbeBw);
        assert_eq!(b.min_rtt_stamp_ns, 10_301 * MS);
        let target = b.target_cwnd(b.btl_bw(), 2.0);
        assert_eq!(w.cwnd_bytes, (100 * MSS + 500).min(target));
    }

    #[test]
    fn recovery_starts_with_packet_conservation_and_restores_the_saved_cwnd_after() {
        let mut b = Bbr::new(&BbrConfig::linux(), MSS);
        b.min_rtt_ns = Some(40 * MS);
        b.min_rtt_stamp_ns = 0;
        b.bw.update(10, 0, 1_250_000);
        b.full_bw_reached = true;
        b.pacing_rate = 1_250_000;
        b.reset_probe_bw_mode(0);
        let mut w = window(80);
        let r = b.on_loss(&w, 80 * MSS, LossSignal::DuplicateAcks, 0);
        assert_eq!((r.ssthresh_bytes, r.cwnd_bytes), (u64::MAX, Some(80 * MSS)), "ssthresh unused");
        assert_eq!(b.prior_cwnd, 80 * MSS);
        // First ACK in recovery: 1 segment SACKed, 60 in flight → cwnd = 60 + 1.
        let mut rs = sample(100, 0, 1000, 1000, 40, 1000);
        rs.in_flight_bytes = 60 * MSS;
        b.cong_control(&mut w, &rs, CaState::Recovery);
        assert_eq!(w.cwnd_bytes, 61 * MSS);
        assert!(b.packet_conservation);
        // In-flight falls: conservation keeps max(cwnd, in-flight + acked).
        rs.in_flight_bytes = 50 * MSS;
        b.cong_control(&mut w, &rs, CaState::Recovery);
        assert_eq!(w.cwnd_bytes, 61 * MSS);
        // Recovery over: max(cwnd, 80) = 80, then min(80 + 1, target 106).
        rs.in_flight_bytes = 50 * MSS;
        b.cong_control(&mut w, &rs, CaState::Open);
        assert!(!b.packet_conservation);
        assert_eq!(w.cwnd_bytes, 81 * MSS);
    }

    #[test]
    fn a_timeout_restarts_from_one_segment_and_counts_as_a_round_start() {
        let mut b = Bbr::new(&BbrConfig::linux(), MSS);
        b.full_bw = 5;
        let w = window(30);
        let r = b.on_loss(&w, 30 * MSS, LossSignal::Timeout, 0);
        assert_eq!(r.cwnd_bytes, None, "the sender's one segment");
        assert_eq!((b.full_bw, b.round_start, b.prev_ca_state), (0, true, CaState::Loss));
    }

    #[test]
    fn the_start_phase_is_drawn_from_the_flows_stream() {
        let phases = |seed: u64| {
            (0..20)
                .map(|i| {
                    let mut b = Bbr::new(&BbrConfig::linux(), MSS);
                    b.set_random_stream(RandomStream::new(seed, &format!("flow:f{i}:cc")));
                    b.reset_probe_bw_mode(0);
                    b.cycle_idx
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(phases(1), phases(1), "deterministic per seed");
        assert_ne!(phases(1), phases(2));
        assert!(phases(1).iter().all(|&i| i != 1), "phase 1 (3/4) never first: {:?}", phases(1));
    }

    #[test]
    fn validation_names_the_field() {
        assert_eq!(BbrConfig::linux().validate(), Ok(()));
        let bad = BbrConfig { high_gain: 1.0, ..BbrConfig::linux() };
        assert!(bad.validate().unwrap_err().starts_with("high_gain:"));
        let bad = BbrConfig { cycle_rand: 9, ..BbrConfig::linux() };
        assert!(bad.validate().unwrap_err().starts_with("cycle_rand:"));
        let bad = BbrConfig { pacing_gain_cycle: vec![1.0], ..BbrConfig::linux() };
        assert!(bad.validate().unwrap_err().starts_with("pacing_gain_cycle:"));
    }
}
