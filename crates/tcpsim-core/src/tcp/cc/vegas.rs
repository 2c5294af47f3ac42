//! TCP Vegas, `podlesny` Sec. II-B, `macura` Sec. 4 and Brakmo & Peterson, "TCP Vegas: end
//! to end congestion avoidance on a global Internet", IEEE JSAC 13(8), 1995: a window set by
//! the queueing its own packets see, not by losses. The implementations the papers' tools ran
//! differ in many small rules; each is a field of `VegasConfig` and the Python front end
//! names the sets as flavours (`brakmo`, `ns2`, `linux`, `ns3`: README "TCP variants").
//!
//! Once per RTT (a round: Brakmo's "beg_snd_nxt"; it ends on the ACK that covers the snd_nxt
//! recorded when the previous round ended, `round_end = ack_covers` as ns-3, or the first ACK
//! beyond it, `ack_beyond` as Linux `after(ack, beg_snd_nxt)` and ns-2 `seqno >= v_begseq_`)
//! Vegas computes diff, the segments the flow keeps queued:
//! - `diff = cwnd`: cwnd·(RTT − BaseRTT)/RTT (`podlesny` eqs. 2–4, ns-3);
//! - `cwnd_over_base`: cwnd·(RTT − BaseRTT)/BaseRTT (Linux `tcp_vegas_cong_avoid`);
//! - `ns2_in_flight`: ns-2 `tcp-vegas.cc` `recv`: (expect − actual)·BaseRTT with expect =
//!   (`t_seqno_` − `last_ack_`)/BaseRTT — the packets outstanding after the closing ACK, plus
//!   one — and actual = `rttLen`/RTT, `rttLen` the packets sent during the round;
//!
//! rounded (`diff_rounding`: ns-2 `int(x + 0.5)`, Linux down, ns-3 up) or exact. BaseRTT is the
//! smallest RTT of the connection (ns-2 also resets it to the round's RTT when the round sent at
//! most one packet: `base_rtt_reset`); RTT is the smallest (`rtt = min`: Linux, ns-3) or the
//! mean (`mean`: ns-2 `v_sumRTT_/v_cntRTT_`) of the round's samples. A sample is the fresh
//! per-segment RTT (`rtt_input = sample`: Brakmo, ns-2, Linux) or an RFC 6298 smoothed RTT over
//! them (`smoothed`: ns-3.44, whose `TcpSocketBase` hands `PktsAcked` `m_lastRtt`, set to
//! `m_rtt->GetEstimate()` in `EstimateRtt`). ns-2 adds the closing ACK's sample after the
//! round's decision, to the next round (`closing_sample_next_round`).
//!
//! `increase = round_end` (Brakmo, Linux, ns-3): at the round's closing ACK, in congestion
//! avoidance cwnd grows by one segment if diff < α, shrinks by one (never below 2) if
//! diff > β, else holds; a decrease also lowers ssthresh to cwnd so that Vegas stays in
//! congestion avoidance. Slow start (cwnd < ssthresh) grows per ACK but only every other round
//! (`slow_start = every_other_rtt`, Brakmo: "so a valid comparison of the expected and actual
//! rates can be made", `podlesny` Sec. II-B.1) or every round (Linux, ns-3); at a round end with
//! diff > γ it ends: cwnd − cwnd/8 (`slow_start_exit = eighth`, ns-2) or the window of the
//! actual rate (`target`, Linux, ns-3), and ssthresh = that window.
//! `increase = ns2_per_ack` (ns-2 `tcp-vegas.cc` `recv`): the round end sets `v_incr_`, added
//! on every ACK of new data of the next round while the window is used (`cwnd_ − (t_seqno_ −
//! last_ack_) <= 2`, i.e. cwnd − outstanding ≤ 3 segments): in slow start `v_inc_flag_`
//! alternates hold and growth rounds, γ is tested at the end of each held round (exit: cwnd −
//! cwnd/8, ssthresh 2), a growth round adds 1 segment per ACK until cwnd ≥ ssthresh; in
//! congestion avoidance diff < α sets 1/cwnd of a segment per ACK (one segment a round with an
//! ACK per packet, half with delayed ACKs), diff > β takes a segment at once (floor 2; ssthresh
//! untouched), else 0.
//!
//! Few samples: a round with fewer than `min_round_samples` samples makes no Vegas decision and
//! Reno's increase is applied once, on its closing ACK (Linux and ns-3, `cntRTT <= 2`:
//! `tcp_reno_cong_avoid` / `TcpNewReno::IncreaseWindow`): slow start's per-ACK growth, or in
//! congestion avoidance SMSS²/cwnd (ns-3, `reno_increase = ack`) or that per acknowledged
//! segment (Linux `tcp_cong_avoid_ai(tp, cwnd, acked)`, `segments`) — about 1/cwnd of a segment
//! per round, not a segment. With delayed ACKs a round of one or two ACKs is often timed by the
//! receiver's delayed-ACK timer: at cwnd = 3 the third segment waits 200 ms for a partner, and a
//! round holding only that sample reads as 1.3 segments queued on a 250 ms path. ns-2 decides
//! every round (`min_round_samples = 0`), timing a round without samples by its duration
//! (`currentTime − v_begtime_`).
//!
//! Losses (`podlesny` Sec. II-B.3): duplicate ACKs cut the window by a quarter (ssthresh =
//! 3/4·cwnd, at least 2 segments; NewReno recovery then deflates to it); a timeout restarts
//! from 2 segments with ssthresh = max(FlightSize/2, 2·SMSS), as NewReno's. After a loss,
//! Vegas decides nothing until a round has passed entirely after recovery (Linux's
//! `vegas_enable` on returning to the Open state): the samples of a round that straddles a
//! recovery describe another window.
//! ECN (RFC 3168 §6.1.2: "treated just as a congestion loss"): an ECN-Echo gets the answer to
//! duplicate ACKs, the 1/4 cut by default, or its own cut `ecn_decrease`: ns-2's Vegas hands
//! an ECN-Echo to `TcpAgent::ecn`, which halves the window (`slowdown(CLOSE_CWND_HALF |
//! CLOSE_SSTHRESH_HALF)`), so the ns-2 flavour is `ecn_decrease = 0.5`.
//!
//! RTT samples: the sender times, for each ACK of new data, the newest segment the ACK
//! covers, and gives no sample if any covered segment was ever retransmitted (Karn). This
//! is Linux's `ca_rtt_us` (`tcp_clean_rtx_queue` times `last_ackt`, the newest acked skb)
//! and ns-2's `v_sendtime_[seqno]` (only if `v_transmits_` is 1). ns-3.44 times the oldest
//! segment the ACK covers (`m_history.front()`) and smooths it; tcpsim's `smoothed` input
//! smooths the newest segment's sample.
//!
//! Not modelled (deviations): ns-2's fine-grained retransmission (`vegas_expire` on a duplicate
//! ACK and on the two ACKs after a retransmission, against `v_timeout_`), its 3/4 cut only
//! when cwnd has not changed since the lost packet was sent, and its round decisions during
//! fast recovery — these belong to tcpsim's recovery half, which is any of tcpsim's; Linux's
//! and ns-3's integer windows (tcpsim's is in bytes); Linux's clamp of ssthresh to 3/4·cwnd
//! after each decision (ns-3's is `loss_decrease = "ns3"`). A back-off timeout of the same
//! loss episode, which asks no reduction, restarts from one segment (the sender's rule).
//! Stock ns-2 Vegas also sends its data packets without the 40-byte TCP/IP header that
//! `TcpAgent::output` adds when `useHeaders_` is true (`VegasTcpAgent::output` never adds
//! `headersize()`): a scenario matching ns-2 sets the Vegas flows' `header` to 0.

mod config;

pub use config::*;

use super::{aimd, AckSample, CongestionOps, LossSignal, Reduction, Window};

/// The RTT samples of the round in progress.
#[derive(Clone, Copy, Debug, Default)]
struct RoundSamples {
    count: u64,
    sum_ns: u64,
    min_ns: u64,
}

impl RoundSamples {
    fn add(&mut self, rtt_ns: u64) {
        self.min_ns = if self.count == 0 { rtt_ns } else { self.min_ns.min(rtt_ns) };
        self.sum_ns += rtt_ns;
        self.count += 1;
    }

    /// The round's RTT, if it had at least `min_samples` samples; with `min_samples` 0 a
    /// round without samples is timed by its duration `elapsed_ns` (ns-2).
    fn rtt(&self, kind: VegasRtt, min_samples: u64, elapsed_ns: u64) -> Option<u64> {
        if self.count == 0 {
            return (min_samples == 0 && elapsed_ns > 0).then_some(elapsed_ns);
        }
        if self.count < min_samples {
            return None;
        }
        Some(match kind {
            VegasRtt::Min => self.min_ns,
            VegasRtt::Mean => self.sum_ns / self.count,
        })
    }
}

/// What a round that just ended tells `increase_window`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RoundEnd {
    /// The round's RTT (ns), the bytes outstanding after its closing ACK and the bytes sent
    /// during it.
    Measured { rtt_ns: u64, in_flight_bytes: u64, sent_bytes: u64 },
    /// Fewer samples than `min_round_samples`: one Reno increase.
    TooFewSamples,
    /// The round began before recovery ended: no decision.
    Stale,
}

pub struct Vegas {
    p: VegasConfig,
    mss_bytes: u64,
    timeout_cwnd_bytes: u64,
    /// BaseRTT, the smallest RTT of the connection (ns).
    base_rtt_ns: Option<u64>,
    /// The smoothed RTT (`rtt_input = smoothed`), ns.
    srtt_ns: Option<u64>,
    round: RoundSamples,
    /// snd_nxt when the round in progress began, and the time it began.
    beg_snd_nxt: u64,
    beg_ns: u64,
    /// snd_nxt − ACK after the latest ACK of new data.
    in_flight_bytes: u64,
    /// A round ended on the ACK being processed; acted on by `increase_window`, which alone
    /// may change the window.
    ended_round: Option<RoundEnd>,
    /// Slow start (`increase = round_end`): the round in progress grows the window.
    growing: bool,
    /// ns-2's `v_inc_flag_` (starts at 1) and `v_incr_` (segments per ACK).
    ns2_inc_flag: bool,
    ns2_incr: f64,
    /// Fractions of a byte of ns-2's per-ACK growth not yet in cwnd.
    ns2_carry_bytes: f64,
    /// From a loss signal to the first ACK that may grow the window again.
    recovering: bool,
    /// The round in progress began before recovery ended: no decision at its end.
    stale_round: bool,
}

impl Vegas {
    pub fn new(p: &VegasConfig, mss_bytes: u64) -> Self {
        Vegas {
            p: *p,
            mss_bytes,
            timeout_cwnd_bytes: p.timeout_cwnd_segments as u64 * mss_bytes,
            base_rtt_ns: None,
            srtt_ns: None,
            round: RoundSamples::default(),
            beg_snd_nxt: 0,
            beg_ns: 0,
            in_flight_bytes: 0,
            ended_round: None,
            growing: false,
            ns2_inc_flag: true,
            ns2_incr: 0.0,
            ns2_carry_bytes: 0.0,
            recovering: false,
            stale_round: false,
        }
    }

    /// The RTT this ACK feeds Vegas: its own sample, or the smoothed RTT (RFC 6298 §2.2–2.3,
    /// gain 1/8) on every ACK of new data once there is one (ns-3).
    fn fed_rtt(&mut self, sample_ns: Option<u64>) -> Option<u64> {
        match self.p.rtt_input {
            VegasRttInput::Sample => sample_ns,
            VegasRttInput::Smoothed => {
                if let Some(r) = sample_ns {
                    self.srtt_ns = Some(self.srtt_ns.map_or(r, |s| (7 * s + r) / 8));
                }
                self.srtt_ns
            }
        }
    }

    fn take_sample(&mut self, rtt_ns: Option<u64>) {
        if let Some(r) = rtt_ns {
            self.base_rtt_ns = Some(self.base_rtt_ns.map_or(r, |b| b.min(r)));
            self.round.add(r);
        }
    }

    /// diff in segments, rounded as `diff_rounding` says.
    fn diff_segments(&self, cwnd_bytes: u64, base_ns: u64, end: (u64, u64, u64)) -> f64 {
        let (rtt_ns, in_flight_bytes, sent_bytes) = end;
        let mss = self.mss_bytes as f64;
        let (base, rtt) = (base_ns as f64, rtt_ns as f64);
        let cwnd = cwnd_bytes as f64 / mss;
        let x = match self.p.diff {
            VegasDiff::Cwnd => cwnd * (rtt - base) / rtt,
            VegasDiff::CwndOverBase => cwnd * (rtt - base) / base,
            VegasDiff::Ns2InFlight => (in_flight_bytes as f64 / mss + 1.0) - sent_bytes as f64 / mss * base / rtt,
        };
        match self.p.diff_rounding {
            VegasDiffRounding::None => x,
            VegasDiffRounding::Nearest => (x + 0.5).trunc(),
            VegasDiffRounding::Floor => x.floor(),
            VegasDiffRounding::Ceil => x.ceil(),
        }
    }

    /// The round's diff; `None` before any BaseRTT.
    fn measured_diff(&mut self, w: &Window, end: RoundEnd) -> Option<(f64, u64, u64)> {
        let RoundEnd::Measured { rtt_ns, in_flight_bytes, sent_bytes } = end else { return None };
        let base = self.base_rtt_ns?.min(rtt_ns);
        Some((self.diff_segments(w.cwnd_bytes, base, (rtt_ns, in_flight_bytes, sent_bytes)), base, rtt_ns))
    }

    /// Reno's increase, once (a round with too few samples).
    fn reno_once(&self, w: &mut Window, acked_bytes: u64) {
        let times = match self.p.reno_increase {
            VegasRenoIncrease::Ack => 1,
            VegasRenoIncrease::Segments => acked_bytes.div_ceil(self.mss_bytes).max(1),
        };
        for _ in 0..times {
            aimd::congestion_avoidance(w, self.mss_bytes); // one segment's increase each
        }
    }

    /// Slow start's growth for one ACK.
    fn slow_start_step(&self, acked_bytes: u64) -> u64 {
        match self.p.reno_increase {
            VegasRenoIncrease::Ack => acked_bytes.min(self.mss_bytes),
            VegasRenoIncrease::Segments => acked_bytes,
        }
    }

    /// The once-per-RTT decision (`increase = round_end`), on the window as the round ends.
    fn end_round(&mut self, w: &mut Window, end: RoundEnd, acked_bytes: u64) {
        let mss = self.mss_bytes;
        let diff = self.measured_diff(w, end);
        if w.cwnd_bytes < w.ssthresh_bytes {
            if let Some((_, base, rtt)) = diff.filter(|&(d, _, _)| d > self.p.gamma) {
                w.cwnd_bytes = match self.p.slow_start_exit {
                    VegasSlowStartExit::Eighth => w.cwnd_bytes - w.cwnd_bytes / 8,
                    VegasSlowStartExit::Target => {
                        let target_segments = (w.cwnd_bytes / mss) as f64 * base as f64 / rtt as f64;
                        w.cwnd_bytes.min((target_segments as u64 + 1) * mss)
                    }
                }
                .max(2 * mss);
                w.ssthresh_bytes = w.cwnd_bytes;
                self.growing = false;
                return;
            }
            self.growing = match self.p.slow_start {
                VegasSlowStart::EveryOtherRtt => !self.growing,
                VegasSlowStart::EveryRtt => true,
            };
        } else if end == RoundEnd::TooFewSamples {
            self.reno_once(w, acked_bytes);
        } else if let Some((d, _, _)) = diff {
            if d > self.p.beta {
                w.cwnd_bytes = w.cwnd_bytes.saturating_sub(mss).max(2 * mss);
                w.ssthresh_bytes = w.ssthresh_bytes.min(w.cwnd_bytes);
            } else if d < self.p.alpha {
                w.cwnd_bytes += mss;
            }
        }
    }

    /// ns-2 `tcp-vegas.cc` `recv`'s once-per-RTT section: sets `v_incr_` (`increase = ns2_per_ack`).
    fn ns2_end_round(&mut self, w: &mut Window, end: RoundEnd, acked_bytes: u64) {
        let mss = self.mss_bytes;
        let Some((delta, _, _)) = self.measured_diff(w, end) else {
            self.ns2_incr = 0.0;
            if end == RoundEnd::TooFewSamples {
                self.reno_once(w, acked_bytes);
            }
            return;
        };
        if w.cwnd_bytes < w.ssthresh_bytes {
            self.ns2_inc_flag = !self.ns2_inc_flag;
            if !self.ns2_inc_flag {
                self.ns2_incr = 0.0;
            } else if delta > self.p.gamma {
                w.cwnd_bytes = (w.cwnd_bytes - w.cwnd_bytes / 8).max(2 * mss);
                w.ssthresh_bytes = 2 * mss;
                self.ns2_incr = 0.0;
            } else {
                self.ns2_incr = 1.0;
            }
        } else if delta > self.p.beta {
            w.cwnd_bytes = w.cwnd_bytes.saturating_sub(mss).max(2 * mss);
            self.ns2_incr = 0.0;
        } else if delta < self.p.alpha {
            self.ns2_incr = mss as f64 / w.cwnd_bytes as f64;
        } else {
            self.ns2_incr = 0.0;
        }
    }

    /// ns-2's per-ACK growth: `v_incr_` while the window is used.
    fn ns2_grow(&mut self, w: &mut Window) {
        if self.ns2_incr == 1.0 && w.cwnd_bytes >= w.ssthresh_bytes {
            self.ns2_incr = 0.0;
        }
        // `cwnd_ − (t_seqno_ − last_ack_) <= 2`, t_seqno_ − last_ack_ = outstanding + 1.
        let unused = w.cwnd_bytes as f64 - (self.in_flight_bytes + self.mss_bytes) as f64;
        if self.ns2_incr > 0.0 && unused <= 2.0 * self.mss_bytes as f64 {
            self.ns2_carry_bytes += self.ns2_incr * self.mss_bytes as f64;
            let whole = self.ns2_carry_bytes.floor();
            self.ns2_carry_bytes -= whole;
            w.cwnd_bytes += whole as u64;
        }
    }

    /// The ssthresh a loss signal leaves (the restart window aside).
    fn ssthresh_after(&self, w: &Window, flight_bytes: u64, signal: LossSignal) -> u64 {
        let floor = 2 * self.mss_bytes;
        match (self.p.loss_decrease, signal) {
            (VegasLossDecrease::Fraction(f), LossSignal::DuplicateAcks) => {
                ((w.cwnd_bytes as f64 * (1.0 - f)) as u64).max(floor)
            }
            (VegasLossDecrease::Fraction(_), LossSignal::Timeout) => aimd::ssthresh_after_loss(w, flight_bytes),
            // ns-3 keeps ssthresh ≥ 3/4·cwnd at each round end; its GetSsThresh then takes
            // min(ssthresh, cwnd − 1 segment).
            (VegasLossDecrease::Named(VegasNamedDecrease::Ns3), _) => {
                let tracked = w.ssthresh_bytes.max(3 * w.cwnd_bytes / 4);
                tracked.min(w.cwnd_bytes.saturating_sub(self.mss_bytes)).max(floor)
            }
        }
    }

    fn enter_recovery(&mut self) {
        self.recovering = true;
        self.ended_round = None;
        self.ns2_incr = 0.0;
    }
}

impl CongestionOps for Vegas {
    /// Samples and round boundaries: every ACK of new data, in or out of recovery.
    fn on_ack(&mut self, ack: &AckSample) {
        if ack.duplicate || ack.acked_bytes == 0 {
            return;
        }
        self.in_flight_bytes = ack.snd_nxt.saturating_sub(ack.ack);
        let rtt = self.fed_rtt(ack.rtt_ns);
        if !self.p.closing_sample_next_round {
            self.take_sample(rtt);
        }
        let ends = match self.p.round_end {
            VegasRoundEnd::AckCovers => ack.ack >= self.beg_snd_nxt,
            VegasRoundEnd::AckBeyond => ack.ack > self.beg_snd_nxt,
        };
        if ends {
            let elapsed_ns = ack.now_ns.saturating_sub(self.beg_ns);
            let sent_bytes = ack.snd_nxt.saturating_sub(self.beg_snd_nxt);
            let end = match self.round.rtt(self.p.rtt, self.p.min_round_samples as u64, elapsed_ns) {
                Some(rtt_ns) => {
                    if self.p.base_rtt_reset && sent_bytes <= self.mss_bytes {
                        // ns-2: `if (rtt < v_baseRTT_ || rttLen <= 1) v_baseRTT_ = rtt`
                        self.base_rtt_ns = Some(rtt_ns);
                    }
                    RoundEnd::Measured { rtt_ns, in_flight_bytes: self.in_flight_bytes, sent_bytes }
                }
                None => RoundEnd::TooFewSamples,
            };
            self.round = RoundSamples::default();
            self.beg_snd_nxt = ack.snd_nxt;
            self.beg_ns = ack.now_ns;
            if !self.recovering {
                self.ended_round = Some(if self.stale_round { RoundEnd::Stale } else { end });
                self.stale_round = false;
            }
        }
        if self.p.closing_sample_next_round {
            self.take_sample(rtt);
        }
    }

    fn increase_window(&mut self, w: &mut Window, acked_bytes: u64) {
        if self.recovering {
            // Recovery is over: the round in progress began inside it.
            self.recovering = false;
            self.stale_round = true;
            self.growing = true;
        }
        let end = self.ended_round.take();
        match self.p.increase {
            VegasIncrease::RoundEnd => {
                if let Some(end) = end {
                    self.end_round(w, end, acked_bytes);
                }
                if w.cwnd_bytes < w.ssthresh_bytes && self.growing {
                    w.cwnd_bytes += self.slow_start_step(acked_bytes);
                }
            }
            VegasIncrease::Ns2PerAck => {
                if let Some(end) = end {
                    self.ns2_end_round(w, end, acked_bytes);
                }
                self.ns2_grow(w);
            }
        }
    }

    /// `podlesny` Sec. II-B.3: 3/4·cwnd after duplicate ACKs, 2 segments after a timeout.
    fn on_loss(&mut self, w: &Window, flight_bytes: u64, signal: LossSignal, _now_ns: u64) -> Reduction {
        self.enter_recovery();
        let ssthresh_bytes = self.ssthresh_after(w, flight_bytes, signal);
        let cwnd_bytes = (signal == LossSignal::Timeout).then_some(self.timeout_cwnd_bytes);
        Reduction { ssthresh_bytes, cwnd_bytes, entry_cwnd_bytes: None }
    }

    /// An ECN-Echo: the answer to duplicate ACKs, or the cut `ecn_decrease` (ns-2: a halving).
    fn on_ecn(&mut self, w: &Window, flight_bytes: u64, now_ns: u64) -> Reduction {
        match self.p.ecn_decrease {
            None => self.on_loss(w, flight_bytes, LossSignal::DuplicateAcks, now_ns),
            Some(f) => {
                self.enter_recovery();
                Reduction::ssthresh(((w.cwnd_bytes as f64 * (1.0 - f)) as u64).max(2 * self.mss_bytes))
            }
        }
    }

    fn rtt_estimate_ns(&self) -> Option<u64> {
        self.base_rtt_ns
    }
}

#[cfg(test)]
mod tests {
    //! Hand-worked rounds: BaseRTT 100 ms, 1000-byte segments; a round's last ACK ends it
    //! (the sender calls `on_ack`, then `on_round_end`, then `increase_window`).
    use super::*;
    use crate::config::CaIncrement;

    const MSS: u64 = 1000;
    const MS: u64 = 1_000_000;
    const HUGE: u64 = 1 << 30;

    /// The tcpsim defaults (the papers' α, β, γ), deciding on any sample.
    fn params() -> VegasConfig {
        VegasConfig {
            alpha: 1.0,
            beta: 3.0,
            gamma: 1.0,
            rtt: VegasRtt::Min,
            slow_start: VegasSlowStart::EveryOtherRtt,
            slow_start_exit: VegasSlowStartExit::Eighth,
            loss_decrease: VegasLossDecrease::Fraction(0.25),
            ecn_decrease: None,
            timeout_cwnd_segments: 2,
            min_round_samples: 1,
            rtt_input: VegasRttInput::Sample,
            diff: VegasDiff::Cwnd,
            diff_rounding: VegasDiffRounding::None,
            round_end: VegasRoundEnd::AckCovers,
            increase: VegasIncrease::RoundEnd,
            base_rtt_reset: false,
            closing_sample_next_round: false,
            reno_increase: VegasRenoIncrease::Ack,
        }
    }

    fn vegas() -> Vegas {
        Vegas::new(&params(), MSS)
    }

    fn window(cwnd_bytes: u64, ssthresh_bytes: u64) -> Window {
        Window { cwnd_bytes, ssthresh_bytes, mss_bytes: MSS, ca_credit: 0, ca_increment: CaIncrement::Exact }
    }

    fn sample(rtt_ms: f64) -> AckSample {
        let rtt_ns = (rtt_ms * MS as f64) as u64;
        AckSample {
            now_ns: 0,
            ack: 1,
            snd_nxt: 1,
            acked_bytes: MSS,
            duplicate: false,
            rtt_ns: Some(rtt_ns),
            oldest_rtt_ns: None,
            ece: false,
        }
    }

    /// One round of ACKs of one segment each, with these RTTs (ms), the window kept full; the
    /// cwnd (segments) after each ACK. The round's boundary is placed so that its last ACK
    /// ends it, under either `round_end` rule.
    fn round(v: &mut Vegas, w: &mut Window, rtts_ms: &[f64]) -> Vec<u64> {
        let start = v.beg_snd_nxt;
        let n = rtts_ms.len() as u64;
        v.beg_snd_nxt = start + n * MSS - 1;
        let mut after = vec![];
        for (i, &r) in rtts_ms.iter().enumerate() {
            let ack = start + (i as u64 + 1) * MSS;
            let s = AckSample { ack, snd_nxt: ack + w.cwnd_bytes, ..sample(r) };
            v.on_ack(&s);
            v.increase_window(w, MSS);
            after.push(w.cwnd_bytes / MSS);
        }
        after
    }

    /// Congestion avoidance with cwnd = 10 segments and a BaseRTT of 100 ms.
    fn in_congestion_avoidance(v: &mut Vegas) -> Window {
        v.base_rtt_ns = Some(100 * MS);
        window(10 * MSS, 5 * MSS)
    }

    #[test]
    fn congestion_avoidance_adds_below_alpha_holds_from_alpha_to_beta_and_removes_above_beta() {
        let mut v = vegas();
        let mut w = in_congestion_avoidance(&mut v);
        // diff = 10·(105 − 100)/105 = 0.48 < α = 1: one more segment.
        round(&mut v, &mut w, &[105.0]);
        assert_eq!(w.cwnd_bytes, 11 * MSS);
        // diff = 11·(110 − 100)/110 = 1 = α exactly: hold.
        round(&mut v, &mut w, &[110.0]);
        assert_eq!(w.cwnd_bytes, 11 * MSS);
        // diff = 11·(137.5 − 100)/137.5 = 3 = β exactly: hold.
        round(&mut v, &mut w, &[137.5]);
        assert_eq!(w.cwnd_bytes, 11 * MSS);
        // diff = 11·38/138 = 3.03 > β: one segment less; ssthresh stays at or below cwnd.
        round(&mut v, &mut w, &[138.0]);
        assert_eq!((w.cwnd_bytes, w.ssthresh_bytes), (10 * MSS, 5 * MSS));
        // ACKs inside a round change nothing: Vegas acts once per RTT.
        assert_eq!(round(&mut v, &mut w, &[100.0, 100.0, 100.0]), vec![10, 10, 11]);
    }

    #[test]
    fn a_decrease_never_goes_below_two_segments_nor_back_into_slow_start() {
        let mut v = vegas();
        v.base_rtt_ns = Some(100 * MS);
        let mut w = window(3 * MSS, 3 * MSS);
        round(&mut v, &mut w, &[400.0]); // diff = 3·300/400 = 2.25 > β? no: hold
        assert_eq!(w.cwnd_bytes, 3 * MSS);
        v.p.beta = 2.0;
        round(&mut v, &mut w, &[400.0]); // 2.25 > 2: down to 2 segments, ssthresh with it
        assert_eq!((w.cwnd_bytes, w.ssthresh_bytes), (2 * MSS, 2 * MSS));
        round(&mut v, &mut w, &[1000.0]); // diff 1.8 < 2 = β, > α: hold
        v.p.beta = 1.5;
        round(&mut v, &mut w, &[1000.0]); // 1.8 > 1.5 but 2 segments is the floor
        assert_eq!(w.cwnd_bytes, 2 * MSS);
        round(&mut v, &mut w, &[100.0, 100.0]); // diff 0: +1 once per round, not slow start
        assert_eq!(w.cwnd_bytes, 3 * MSS);
    }

    #[test]
    fn the_round_rtt_is_the_minimum_or_the_mean_of_its_samples() {
        // diff with min 100 ms: 0 → +1; with the mean 166.7 ms: 10·66.7/166.7 = 4 > β → −1.
        let mut v = vegas();
        let mut w = in_congestion_avoidance(&mut v);
        round(&mut v, &mut w, &[100.0, 100.0, 300.0]);
        assert_eq!(w.cwnd_bytes, 11 * MSS);
        let mut v = vegas();
        v.p.rtt = VegasRtt::Mean;
        let mut w = in_congestion_avoidance(&mut v);
        round(&mut v, &mut w, &[100.0, 100.0, 300.0]);
        assert_eq!(w.cwnd_bytes, 9 * MSS);
    }

    #[test]
    fn slow_start_grows_every_other_round_and_leaves_when_diff_exceeds_gamma() {
        let mut v = vegas();
        let mut w = window(2 * MSS, HUGE);
        // The first round holds the initial 2 segments; its last ACK opens a growth round.
        assert_eq!(round(&mut v, &mut w, &[100.0, 100.0]), vec![2, 3]);
        // Growth: one segment per ACK; the last ACK ends it and holds.
        assert_eq!(round(&mut v, &mut w, &[100.0, 100.0, 100.0]), vec![4, 5, 5]);
        // Held: a valid measurement of a fixed window.
        assert_eq!(round(&mut v, &mut w, &[100.0; 5]), vec![5, 5, 5, 5, 6]);
        assert_eq!(round(&mut v, &mut w, &[100.0; 6]), vec![7, 8, 9, 10, 11, 11]);
        // diff = 11·(110 − 100)/110 = 1 = γ exactly: still slow start, the next round grows.
        assert_eq!(round(&mut v, &mut w, &[110.0; 11]).last(), Some(&12));
        assert_eq!(round(&mut v, &mut w, &[100.0; 12]).last(), Some(&23));
        // Held, diff = 23·(120 − 100)/120 = 3.8 > γ: leave with cwnd − cwnd/8 = ssthresh.
        round(&mut v, &mut w, &[120.0; 23]);
        assert_eq!((w.cwnd_bytes, w.ssthresh_bytes), (23 * MSS - 23 * MSS / 8, 23 * MSS - 23 * MSS / 8));
        // Congestion avoidance from there: no per-ACK growth, +1 at the round's end.
        let before = w.cwnd_bytes;
        round(&mut v, &mut w, &[100.0; 19]);
        assert_eq!(w.cwnd_bytes, before + MSS);
    }

    #[test]
    fn linux_and_ns3_slow_start_grows_every_round_and_leaves_at_the_actual_rate() {
        let mut v = vegas();
        v.p.slow_start = VegasSlowStart::EveryRtt;
        v.p.slow_start_exit = VegasSlowStartExit::Target;
        let mut w = window(2 * MSS, HUGE);
        assert_eq!(round(&mut v, &mut w, &[100.0, 100.0]), vec![2, 3]);
        assert_eq!(round(&mut v, &mut w, &[100.0, 100.0, 100.0]), vec![4, 5, 6]);
        w.cwnd_bytes = 10 * MSS;
        // diff = 10·25/125 = 2 > γ: cwnd = min(10, ⌊10·100/125⌋ + 1) = 9 segments.
        round(&mut v, &mut w, &[125.0]);
        assert_eq!((w.cwnd_bytes, w.ssthresh_bytes), (9 * MSS, 9 * MSS));
    }

    #[test]
    fn rounds_with_too_few_samples_get_one_reno_increase_on_their_closing_ack() {
        let mut v = vegas();
        v.p.min_round_samples = 3;
        let mut w = in_congestion_avoidance(&mut v);
        // Two samples, diff = 10·200/300 = 6.7 > β, but too few to trust: Reno's increase
        // once, SMSS²/cwnd = 100 bytes (ns-3 `TcpNewReno::IncreaseWindow`), not a segment.
        round(&mut v, &mut w, &[300.0, 300.0]);
        assert_eq!(w.cwnd_bytes, 10 * MSS + 100);
        // Three: trusted, −1.
        round(&mut v, &mut w, &[300.0, 300.0, 300.0]);
        assert_eq!(w.cwnd_bytes, 9 * MSS + 100);
        // Slow start: a lone delayed-ACK sample (3·200/300 = 2 > γ) does not end it.
        let mut w = window(3 * MSS, HUGE);
        round(&mut v, &mut w, &[300.0]);
        assert_eq!(w.ssthresh_bytes, HUGE);
    }

    /// Linux `tcp_vegas.c` (α 2, β 4, γ 1, `cntRTT <= 2` → `tcp_reno_cong_avoid`, diff =
    /// cwnd·(minRTT − baseRTT)/baseRTT truncated). Delayed ACKs: each ACK covers 2 segments.
    fn linux() -> Vegas {
        Vegas::new(
            &VegasConfig {
                alpha: 2.0,
                beta: 4.0,
                slow_start: VegasSlowStart::EveryRtt,
                slow_start_exit: VegasSlowStartExit::Target,
                loss_decrease: VegasLossDecrease::Fraction(0.5),
                timeout_cwnd_segments: 1,
                min_round_samples: 3,
                diff: VegasDiff::CwndOverBase,
                diff_rounding: VegasDiffRounding::Floor,
                round_end: VegasRoundEnd::AckBeyond,
                reno_increase: VegasRenoIncrease::Segments,
                ..params()
            },
            MSS,
        )
    }

    /// A round of `acks` ACKs of 2 segments each, RTT `rtt_ms`; cwnd in bytes after it.
    fn delack_round(v: &mut Vegas, w: &mut Window, acks: u64, rtt_ms: f64) -> u64 {
        let start = v.beg_snd_nxt;
        v.beg_snd_nxt = start + 2 * acks * MSS - 1;
        for i in 1..=acks {
            let ack = start + 2 * i * MSS;
            v.on_ack(&AckSample { ack, snd_nxt: ack + w.cwnd_bytes, acked_bytes: 2 * MSS, ..sample(rtt_ms) });
            v.increase_window(w, 2 * MSS);
        }
        w.cwnd_bytes
    }

    #[test]
    fn linux_few_sample_rounds_follow_tcp_vegas_c() {
        // tcp_vegas.c by hand, cwnd 10 in congestion avoidance, baseRTT 100 ms, rounds of two
        // delayed ACKs (cntRTT = 2 ≤ 2): each round ends in tcp_reno_cong_avoid(acked = 2),
        // tcp_cong_avoid_ai: snd_cwnd_cnt += 2, and cwnd + 1 once the count reaches cwnd:
        // round 1..5 → cwnd 10, 10, 10, 10, 11 (cnt 2, 4, 6, 8, 10 → 0). tcpsim's window is in
        // bytes, so the same 2/cwnd per round arrives smoothly (SMSS²/cwnd per acknowledged
        // segment): 10.20, 10.39, 10.59, 10.77, 10.96 segments — never the whole segment per round the old rule added (15 by round 5).
        let mut v = linux();
        let mut w = in_congestion_avoidance(&mut v);
        let by_round: Vec<u64> = (0..5).map(|_| delack_round(&mut v, &mut w, 2, 150.0)).collect();
        assert_eq!(by_round, vec![10_199, 10_394, 10_585, 10_773, 10_958]);
        // Round 6 with three ACKs (cntRTT 3): the Vegas decision. minRTT 150 ms: diff =
        // ⌊10.958·50/100⌋ = 5 > β = 4: cwnd − 1 segment, ssthresh = min(ssthresh, cwnd).
        assert_eq!(delack_round(&mut v, &mut w, 3, 150.0), 9_958);
        // Round 7, three ACKs at 115 ms: diff = ⌊9.958·15/100⌋ = 1 < α = 2: + 1 segment.
        assert_eq!(delack_round(&mut v, &mut w, 3, 115.0), 10_958);
        // Round 8, three ACKs at 125 ms: diff = ⌊10.958·25/100⌋ = 2, in [α, β]: hold.
        assert_eq!(delack_round(&mut v, &mut w, 3, 125.0), 10_958);
    }

    #[test]
    fn linux_slow_start_counts_acknowledged_segments_even_in_a_few_sample_round() {
        // tcp_vegas.c: slow start's `tcp_slow_start(tp, acked)` on every ACK, and a round with
        // cntRTT ≤ 2 ends in tcp_reno_cong_avoid, i.e. the same: cwnd + 2 per delayed ACK.
        let mut v = linux();
        let mut w = window(2 * MSS, HUGE);
        assert_eq!(delack_round(&mut v, &mut w, 1, 100.0), 4 * MSS);
        assert_eq!(delack_round(&mut v, &mut w, 2, 100.0), 8 * MSS);
    }

    #[test]
    fn ns3_reno_increase_counts_the_ack_once() {
        // ns-3 TcpNewReno::IncreaseWindow → CongestionAvoidance: cwnd += segSize²/cwnd once
        // per call, whatever segmentsAcked: 100 bytes at cwnd 10, however many segments.
        let mut v = Vegas::new(&VegasConfig { min_round_samples: 3, ..params() }, MSS);
        let mut w = in_congestion_avoidance(&mut v);
        assert_eq!(delack_round(&mut v, &mut w, 2, 150.0), 10_100);
    }

    #[test]
    fn the_smoothed_rtt_input_feeds_an_rfc6298_average() {
        let mut v = Vegas::new(&VegasConfig { rtt_input: VegasRttInput::Smoothed, ..params() }, MSS);
        let mut w = in_congestion_avoidance(&mut v);
        v.base_rtt_ns = None;
        // srtt: 100, then (7·100 + 180)/8 = 110 ms; BaseRTT is the smallest smoothed value.
        round(&mut v, &mut w, &[100.0]);
        round(&mut v, &mut w, &[180.0]);
        assert_eq!((v.srtt_ns, v.base_rtt_ns), (Some(110 * MS), Some(100 * MS)));
        // An ACK without a sample (Karn) still feeds the smoothed RTT, as ns-3's m_lastRtt.
        let before = v.round.count;
        v.on_ack(&AckSample { ack: v.beg_snd_nxt - 1, snd_nxt: v.beg_snd_nxt, rtt_ns: None, ..sample(0.0) });
        assert_eq!((v.round.count, v.round.min_ns), (before + 1, 110 * MS));
    }

    /// ns-2.35 tcp-vegas.cc as the `ns2` flavour sets it.
    fn ns2() -> Vegas {
        Vegas::new(
            &VegasConfig {
                rtt: VegasRtt::Mean,
                min_round_samples: 0,
                diff: VegasDiff::Ns2InFlight,
                diff_rounding: VegasDiffRounding::Nearest,
                round_end: VegasRoundEnd::AckBeyond,
                increase: VegasIncrease::Ns2PerAck,
                base_rtt_reset: true,
                closing_sample_next_round: true,
                ecn_decrease: Some(0.5),
                ..params()
            },
            MSS,
        )
    }

    fn ack(ack: u64, snd_nxt: u64, rtt_ms: f64, now_ms: u64) -> AckSample {
        AckSample {
            now_ns: now_ms * MS,
            ack,
            snd_nxt,
            acked_bytes: MSS,
            duplicate: false,
            rtt_ns: Some((rtt_ms * MS as f64) as u64),
            oldest_rtt_ns: None,
            ece: false,
        }
    }

    #[test]
    fn ns2_delta_counts_the_packets_outstanding_after_the_closing_ack_and_rounds_it() {
        // recv(): expect = (t_seqno_ − last_ack_)/baseRTT, actual = rttLen/rtt, delta =
        // int((expect − actual)·baseRTT + 0.5). Congestion avoidance, cwnd 10, BaseRTT 100 ms.
        let mut v = ns2();
        let mut w = window(10 * MSS, 2 * MSS);
        v.base_rtt_ns = Some(100 * MS);
        v.beg_snd_nxt = 20 * MSS; // the round began when packets 0..19 had been sent
                                  // Packets 20..29 sent in the round; the ACK of packet 20 (ack = 21 000) closes it with
                                  // 29 − 20 = 9 outstanding: t_seqno_ − last_ack_ = 30 − 20 = 10. The round's samples
                                  // (mean 125 ms) come from ACKs before it; the closing ACK's 300 ms goes to the next.
        v.round.add(120 * MS);
        v.round.add(130 * MS);
        v.on_ack(&ack(21 * MSS, 30 * MSS, 300.0, 0));
        // delta = 10 − 10·100/125 = 2 → int(2.5) = 2: between α and β, v_incr_ = 0.
        v.increase_window(&mut w, MSS);
        assert_eq!((w.cwnd_bytes, v.ns2_incr), (10 * MSS, 0.0));
        assert_eq!(v.round.count, 1, "the closing ACK's sample opens the next round");
        // From cwnd, as tcpsim's default, diff would be 10·25/125 = 2 as well; with 6 packets
        // outstanding and 10 sent: 7 − 8 = −1 → int(−0.5) = 0 < α: v_incr_ = 1/cwnd.
        let mut v = ns2();
        v.base_rtt_ns = Some(100 * MS);
        v.beg_snd_nxt = 20 * MSS;
        v.round.add(125 * MS);
        v.on_ack(&ack(24 * MSS, 30 * MSS, 125.0, 0));
        v.increase_window(&mut w, MSS);
        assert_eq!(v.ns2_incr, 0.1);
    }

    #[test]
    fn ns2_grows_per_ack_only_while_the_window_is_used() {
        // `if (v_incr_ > 0 && (cwnd_ − (t_seqno_ − last_ack_)) <= 2) cwnd_ += v_incr_`.
        let mut v = ns2();
        let mut w = window(10 * MSS, 2 * MSS);
        v.ns2_incr = 0.1;
        v.beg_snd_nxt = 1_000 * MSS; // no round ends here
                                     // 9 outstanding after the ACK: 10 − (9 + 1) = 0 ≤ 2: +0.1 segment.
        v.on_ack(&ack(100 * MSS, 109 * MSS, 100.0, 0));
        v.increase_window(&mut w, MSS);
        assert_eq!(w.cwnd_bytes, 10 * MSS + 100);
        // 6 outstanding: 10.1 − 7 = 3.1 > 2: the window is not used, no growth.
        v.on_ack(&ack(101 * MSS, 107 * MSS, 100.0, 0));
        v.increase_window(&mut w, MSS);
        assert_eq!(w.cwnd_bytes, 10 * MSS + 100);
        // 7 outstanding: 10.1 − 8 = 2.1 > 2, still none; 8: 1.1, growth.
        v.on_ack(&ack(102 * MSS, 109 * MSS, 100.0, 0));
        v.increase_window(&mut w, MSS);
        assert_eq!(w.cwnd_bytes, 10 * MSS + 100);
        v.on_ack(&ack(103 * MSS, 111 * MSS, 100.0, 0));
        v.increase_window(&mut w, MSS);
        assert_eq!(w.cwnd_bytes, 10 * MSS + 200);
    }

    #[test]
    fn ns2_resets_base_rtt_after_a_round_that_sent_one_packet_and_times_empty_rounds() {
        let mut v = ns2();
        let mut w = window(10 * MSS, 2 * MSS);
        v.base_rtt_ns = Some(100 * MS);
        v.beg_snd_nxt = 20 * MSS;
        v.beg_ns = 1_000 * MS;
        // The round sent one packet (rttLen = 1) and holds no sample: its RTT is its duration,
        // 1 300 − 1 000 = 300 ms, and BaseRTT becomes 300 ms (`rttLen <= 1`).
        v.on_ack(&ack(21 * MSS, 21 * MSS, 250.0, 1_300));
        v.increase_window(&mut w, MSS);
        assert_eq!(v.base_rtt_ns, Some(250 * MS), "reset to 300 ms, then the closing ACK's 250 ms sample");
    }

    #[test]
    fn ns2_slow_start_holds_then_grows_one_segment_per_ack_and_tests_gamma_after_held_rounds() {
        let mut v = ns2();
        let mut w = window(2 * MSS, HUGE);
        v.base_rtt_ns = Some(100 * MS);
        // Round end 1: v_inc_flag_ 1 → 0: hold.
        v.round.add(100 * MS);
        v.on_ack(&ack(MSS, 2 * MSS, 100.0, 100));
        v.increase_window(&mut w, MSS);
        assert_eq!(w.cwnd_bytes, 2 * MSS);
        // Round end 2 (the held round): flag → 1, delta = 2 − 1·100/100 = 1 ≤ γ: v_incr_ = 1,
        // and this ACK grows already (2 − 2 ≤ 2).
        v.on_ack(&ack(3 * MSS, 3 * MSS, 100.0, 200));
        v.increase_window(&mut w, MSS);
        assert_eq!(w.cwnd_bytes, 3 * MSS);
        // Round end 3: flag → 0, hold whatever delta is.
        v.on_ack(&ack(4 * MSS, 6 * MSS, 400.0, 300));
        v.increase_window(&mut w, MSS);
        assert_eq!((w.cwnd_bytes, v.ns2_incr), (3 * MSS, 0.0));
        // Round end 4: flag → 1; the round's mean RTT 400 ms: delta = (2 + 1) − 3·100/400 =
        // 2.25 → 2 > γ: cwnd − cwnd/8, ssthresh_ = 2.
        v.on_ack(&ack(7 * MSS, 8 * MSS, 400.0, 700));
        v.increase_window(&mut w, MSS);
        assert_eq!((w.cwnd_bytes, w.ssthresh_bytes), (3 * MSS - 3 * MSS / 8, 2 * MSS));
    }

    #[test]
    fn three_duplicate_acks_cut_the_window_by_a_quarter() {
        let mut v = vegas();
        let w = window(12 * MSS, HUGE);
        let r = v.on_loss(&w, 12 * MSS, LossSignal::DuplicateAcks, 0);
        assert_eq!(r, Reduction::ssthresh(9 * MSS), "3/4·cwnd; recovery deflates cwnd to it");
        let r = v.on_loss(&window(2 * MSS, HUGE), 2 * MSS, LossSignal::DuplicateAcks, 0);
        assert_eq!(r.ssthresh_bytes, 2 * MSS, "never below 2 segments");
        v.p.loss_decrease = VegasLossDecrease::Fraction(0.5);
        assert_eq!(v.on_loss(&w, 12 * MSS, LossSignal::DuplicateAcks, 0).ssthresh_bytes, 6 * MSS, "Linux");
    }

    #[test]
    fn an_ecn_echo_cuts_the_window_by_a_quarter_too() {
        let mut v = vegas();
        let w = window(12 * MSS, HUGE);
        assert_eq!(v.on_ecn(&w, 12 * MSS, 0), Reduction::ssthresh(9 * MSS));
        assert!(v.recovering, "no per-RTT decision on the rounds of the reduced window");
    }

    #[test]
    fn ns2s_vegas_halves_the_window_on_an_ecn_echo() {
        // ns-2 tcp-vegas.cc: `if (flagh->ecnecho()) ecn(seqno)`, TcpAgent's halving; duplicate
        // ACKs keep the 1/4 cut.
        let mut v = vegas();
        v.p.ecn_decrease = Some(0.5);
        let w = window(12 * MSS, HUGE);
        assert_eq!(v.on_ecn(&w, 12 * MSS, 0), Reduction::ssthresh(6 * MSS));
        assert!(v.recovering);
        assert_eq!(v.on_ecn(&window(3 * MSS, HUGE), 3 * MSS, 0), Reduction::ssthresh(2 * MSS), "floor 2 segments");
        assert_eq!(v.on_loss(&w, 12 * MSS, LossSignal::DuplicateAcks, 0).ssthresh_bytes, 9 * MSS);
    }

    #[test]
    fn ns3_loss_answer_is_one_segment_less_but_at_most_a_quarter() {
        let mut v = vegas();
        v.p.loss_decrease = VegasLossDecrease::Named(VegasNamedDecrease::Ns3);
        // In slow start ssthresh is huge: cwnd − 1 segment.
        assert_eq!(v.on_loss(&window(12 * MSS, HUGE), 0, LossSignal::DuplicateAcks, 0).ssthresh_bytes, 11 * MSS);
        // A low ssthresh is first raised to 3/4·cwnd, as ns-3 does every round.
        assert_eq!(v.on_loss(&window(12 * MSS, 5 * MSS), 0, LossSignal::Timeout, 0).ssthresh_bytes, 9 * MSS);
    }

    #[test]
    fn a_timeout_restarts_from_two_segments_and_the_next_round_decides_nothing() {
        let mut v = vegas();
        v.base_rtt_ns = Some(100 * MS);
        let mut w = window(20 * MSS, 10 * MSS);
        let r = v.on_loss(&w, 16 * MSS, LossSignal::Timeout, 0);
        assert_eq!(r, Reduction { ssthresh_bytes: 8 * MSS, cwnd_bytes: Some(2 * MSS), entry_cwnd_bytes: None });
        (w.cwnd_bytes, w.ssthresh_bytes) = (2 * MSS, 8 * MSS);
        // The first ACK after the timeout resumes slow start; the round it is in began before
        // the timeout, so its end decides nothing, whatever its RTT (diff = 3·200/300 = 2 > γ).
        assert_eq!(round(&mut v, &mut w, &[300.0, 300.0]), vec![3, 3]);
        // The next round is measured: 3·200/300 = 2 > γ ends slow start, cwnd − cwnd/8.
        round(&mut v, &mut w, &[300.0, 300.0, 300.0]);
        assert_eq!((w.cwnd_bytes, w.ssthresh_bytes), (3 * MSS - 3 * MSS / 8, 3 * MSS - 3 * MSS / 8));
    }

    #[test]
    fn rounds_ending_during_recovery_decide_nothing() {
        let mut v = vegas();
        let mut w = in_congestion_avoidance(&mut v);
        v.on_loss(&w, 10 * MSS, LossSignal::DuplicateAcks, 0);
        w.cwnd_bytes = 7 * MSS + MSS / 2;
        // Recovery: ACKs are observed and rounds end, but the window is recovery's.
        v.on_ack(&AckSample { ack: v.beg_snd_nxt + MSS, snd_nxt: v.beg_snd_nxt + 8 * MSS, ..sample(500.0) });
        // Recovery over: the round in progress is stale, the one after it decides (+1).
        round(&mut v, &mut w, &[500.0, 500.0]);
        assert_eq!(w.cwnd_bytes, 7 * MSS + MSS / 2);
        round(&mut v, &mut w, &[100.0]);
        assert_eq!(w.cwnd_bytes, 8 * MSS + MSS / 2);
        assert_eq!(v.rtt_estimate_ns(), Some(100 * MS), "BaseRTT");
    }
}
