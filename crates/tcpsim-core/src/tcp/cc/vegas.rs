//! TCP Vegas, `podlesny` Sec. II-B, `macura` Sec. 4 and Brakmo & Peterson, "TCP Vegas: end
//! to end congestion avoidance on a global Internet", IEEE JSAC 13(8), 1995: a window set by
//! the queueing its own packets see, not by losses.
//!
//! Once per RTT (a round, `CongestionOps::on_round_end`: Brakmo's "beg_snd_nxt"):
//! diff = (cwnd/BaseRTT − cwnd/RTT)·BaseRTT = cwnd·(RTT − BaseRTT)/RTT segments
//! (`podlesny` eqs. 2–4), the packets the flow keeps queued. BaseRTT is the smallest RTT
//! sample of the connection; RTT is the smallest (`rtt = min`) or the mean (`rtt = mean`) of
//! the samples taken during the round that just ended. In congestion avoidance cwnd grows by
//! one segment if diff < α, shrinks by one (never below 2) if diff > β, else holds; a
//! decrease also lowers ssthresh to cwnd so that Vegas stays in congestion avoidance.
//! Slow start (cwnd < ssthresh) grows as RFC 5681 (one segment per ACK) but only every other
//! round, the window held in between "so a valid comparison of the expected and actual rates
//! can be made" (`podlesny` Sec. II-B.1); at every round end with a fresh RTT, diff > γ ends
//! it: cwnd − cwnd/8 (`slow_start_exit = eighth`) or the window of the actual rate
//! (`target`), and ssthresh = that window.
//! A round with fewer than `min_round_samples` Karn-valid samples decides nothing: slow start
//! goes on, congestion avoidance adds a segment as Reno would (Linux's and ns-3's
//! `cntRTT <= 2` rule; 1 decides on any sample, as ns-2). With delayed ACKs a round of one or
//! two ACKs is often timed by the receiver's delayed-ACK timer: at cwnd = 3 the third segment
//! waits 200 ms for a partner, and a round holding only that sample reads as 1.3 segments
//! queued on a 250 ms path, which ended slow start at 3 segments (the `tests/test_vegas.py`
//! idle-path run: 64 % of the link over 4–10 s with 1, 99.9 % with 3).
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
//! Defaults are the papers' (α 1, β 3, γ 1, the 1/4 cut, 2 segments after a timeout); where
//! they are silent, Brakmo's slow start every other RTT and ns-2's exit, with the
//! round's minimum RTT and three samples a round (Linux), both needed with delayed ACKs.
//!
//! RTT samples: the sender times, for each ACK of new data, the newest segment the ACK
//! covers, and gives no sample if any covered segment was ever retransmitted (Karn). This
//! is Linux's `ca_rtt_us` (`tcp_clean_rtx_queue` times `last_ackt`, the newest acked skb,
//! for the congestion controller) and ns-2's `v_sendtime_[seqno]`. With delayed ACKs the ACK
//! of a pair is sent when the second segment arrives, so timing the newest segment measures
//! the path, not the receiver's wait; timing the oldest (as ns-3.44 feeds `TcpVegas`, with
//! its smoothed RTT) adds the inter-segment gap and, for a lone segment, the whole delayed-ACK
//! timeout, which Vegas reads as queueing (ns-3.44 is reported to stall near 9 segments,
//! 0.37 Mb/s, alone on an idle 2 Mb/s, 250 ms path, which this Vegas fills).
//!
//! Flavours (parameters of `CcConfig::Vegas`; defaults are the papers'):
//! - ns-2 `tcp/tcp-vegas.cc` (the `podlesny` simulator): α 1, β 3, γ 1, `rtt = mean`,
//!   `min_round_samples = 1`, slow start every other RTT, exit cwnd − cwnd/8, loss cut 1/4,
//!   timeout to 2 segments.
//! - Linux `net/ipv4/tcp_vegas.c`: α 2, β 4, γ 1, `rtt = min`, slow start every RTT, exit to
//!   the target window, loss answer `tcp_reno_ssthresh` (`loss_decrease = 0.5`), timeout to
//!   1 segment.
//! - ns-3 `src/internet/model/tcp-vegas.cc` (`TcpVegas`): as Linux, but its milder loss
//!   answer `GetSsThresh` = max(min(ssthresh, cwnd − 1 segment), 2 segments) on duplicate
//!   ACKs and timeouts (`loss_decrease = "ns3"`).
//!
//! Deviations: diff is exact (Linux divides by BaseRTT instead of RTT and truncates, ns-3
//! truncates, ns-2 rounds a difference of in-flight counts); Brakmo's fine-grained
//! retransmission checks (on the first duplicate ACK and the two ACKs after a retransmission)
//! belong to the recovery half and are not modelled — recovery is any of tcpsim's. A
//! back-off timeout of the same loss episode, which asks no reduction, restarts from one
//! segment (the sender's rule).
//!
//! State: `base_rtt_ns` (ns), the round's samples (ns), `growing` (slow start), and the loss
//! flags `recovering` / `stale_round`.

use super::{aimd, AckSample, CongestionOps, LossSignal, Reduction, Window};
use crate::config::{VegasLossDecrease, VegasNamedDecrease, VegasRtt, VegasSlowStart, VegasSlowStartExit};

/// The Karn-valid RTT samples of the round in progress.
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

    /// How the round ended: its RTT if it had at least `min_samples` samples.
    fn end(&self, kind: VegasRtt, min_samples: u64) -> RoundEnd {
        if self.count < min_samples.max(1) {
            return RoundEnd::TooFewSamples;
        }
        RoundEnd::Rtt(match kind {
            VegasRtt::Min => self.min_ns,
            VegasRtt::Mean => self.sum_ns / self.count,
        })
    }
}

/// What a round that just ended tells `increase_window`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RoundEnd {
    /// The round's RTT (ns).
    Rtt(u64),
    /// Fewer samples than `min_round_samples`: act as Reno.
    TooFewSamples,
    /// The round began before recovery ended: no decision.
    Stale,
}

pub struct Vegas {
    mss_bytes: u64,
    /// α, β, γ in segments.
    alpha: f64,
    beta: f64,
    gamma: f64,
    rtt: VegasRtt,
    slow_start: VegasSlowStart,
    slow_start_exit: VegasSlowStartExit,
    loss_decrease: VegasLossDecrease,
    ecn_decrease: Option<f64>,
    timeout_cwnd_bytes: u64,
    min_round_samples: u64,
    /// BaseRTT, the smallest sample of the connection (ns).
    base_rtt_ns: Option<u64>,
    round: RoundSamples,
    /// A round ended on the ACK being processed; acted on by `increase_window`, which alone
    /// may change the window.
    ended_round: Option<RoundEnd>,
    /// Slow start: the round in progress grows the window.
    growing: bool,
    /// From a loss signal to the first ACK that may grow the window again.
    recovering: bool,
    /// The round in progress began before recovery ended: no decision at its end.
    stale_round: bool,
}

impl Vegas {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        alpha: f64,
        beta: f64,
        gamma: f64,
        rtt: VegasRtt,
        slow_start: VegasSlowStart,
        slow_start_exit: VegasSlowStartExit,
        loss_decrease: VegasLossDecrease,
        ecn_decrease: Option<f64>,
        timeout_cwnd_segments: u32,
        min_round_samples: u32,
        mss_bytes: u64,
    ) -> Self {
        Vegas {
            mss_bytes,
            alpha,
            beta,
            gamma,
            rtt,
            slow_start,
            slow_start_exit,
            loss_decrease,
            ecn_decrease,
            timeout_cwnd_bytes: timeout_cwnd_segments as u64 * mss_bytes,
            min_round_samples: min_round_samples as u64,
            base_rtt_ns: None,
            round: RoundSamples::default(),
            ended_round: None,
            growing: false,
            recovering: false,
            stale_round: false,
        }
    }

    /// `podlesny` eq. (2): (cwnd/BaseRTT − cwnd/RTT)·BaseRTT, in segments.
    fn diff_segments(&self, cwnd_bytes: u64, base_rtt_ns: u64, rtt_ns: u64) -> f64 {
        if rtt_ns == 0 {
            return 0.0;
        }
        let cwnd = cwnd_bytes as f64 / self.mss_bytes as f64;
        cwnd * (rtt_ns - base_rtt_ns) as f64 / rtt_ns as f64
    }

    /// The once-per-RTT decision, on the window as the round ends.
    fn end_round(&mut self, w: &mut Window, end: RoundEnd) {
        let mss = self.mss_bytes;
        let rtt_ns = match end {
            RoundEnd::Rtt(rtt) => Some(rtt),
            RoundEnd::TooFewSamples | RoundEnd::Stale => None,
        };
        let diff =
            rtt_ns.zip(self.base_rtt_ns).map(|(rtt, base)| (self.diff_segments(w.cwnd_bytes, base, rtt), base, rtt));
        if w.cwnd_bytes < w.ssthresh_bytes {
            if let Some((_, base, rtt)) = diff.filter(|&(d, _, _)| d > self.gamma) {
                w.cwnd_bytes = match self.slow_start_exit {
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
            self.growing = match self.slow_start {
                VegasSlowStart::EveryOtherRtt => !self.growing,
                VegasSlowStart::EveryRtt => true,
            };
        } else if end == RoundEnd::TooFewSamples {
            w.cwnd_bytes += mss; // Reno's one segment per RTT (Linux `tcp_reno_cong_avoid`)
        } else if let Some((d, _, _)) = diff {
            if d > self.beta {
                w.cwnd_bytes = w.cwnd_bytes.saturating_sub(mss).max(2 * mss);
                w.ssthresh_bytes = w.ssthresh_bytes.min(w.cwnd_bytes);
            } else if d < self.alpha {
                w.cwnd_bytes += mss;
            }
        }
    }

    /// The ssthresh a loss signal leaves (the restart window aside).
    fn ssthresh_after(&self, w: &Window, flight_bytes: u64, signal: LossSignal) -> u64 {
        let floor = 2 * self.mss_bytes;
        match (self.loss_decrease, signal) {
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
}

impl CongestionOps for Vegas {
    fn on_ack(&mut self, ack: &AckSample) {
        if let Some(r) = ack.rtt_ns {
            self.base_rtt_ns = Some(self.base_rtt_ns.map_or(r, |b| b.min(r)));
            self.round.add(r);
        }
    }

    fn on_round_end(&mut self, _ack: &AckSample, _w: &Window) {
        let end = self.round.end(self.rtt, self.min_round_samples);
        self.round = RoundSamples::default();
        if self.recovering {
            return;
        }
        self.ended_round = Some(if self.stale_round { RoundEnd::Stale } else { end });
        self.stale_round = false;
    }

    fn increase_window(&mut self, w: &mut Window, acked_bytes: u64) {
        if self.recovering {
            // Recovery is over: the round in progress began inside it.
            self.recovering = false;
            self.stale_round = true;
            self.growing = true;
        }
        if let Some(end) = self.ended_round.take() {
            self.end_round(w, end);
        }
        if w.cwnd_bytes < w.ssthresh_bytes && self.growing {
            w.cwnd_bytes += acked_bytes.min(self.mss_bytes);
        }
    }

    /// `podlesny` Sec. II-B.3: 3/4·cwnd after duplicate ACKs, 2 segments after a timeout.
    fn on_loss(&mut self, w: &Window, flight_bytes: u64, signal: LossSignal, _now_ns: u64) -> Reduction {
        self.recovering = true;
        self.ended_round = None;
        let ssthresh_bytes = self.ssthresh_after(w, flight_bytes, signal);
        let cwnd_bytes = (signal == LossSignal::Timeout).then_some(self.timeout_cwnd_bytes);
        Reduction { ssthresh_bytes, cwnd_bytes, entry_cwnd_bytes: None }
    }

    /// An ECN-Echo: the answer to duplicate ACKs, or the cut `ecn_decrease` (ns-2: a halving).
    fn on_ecn(&mut self, w: &Window, flight_bytes: u64, now_ns: u64) -> Reduction {
        match self.ecn_decrease {
            None => self.on_loss(w, flight_bytes, LossSignal::DuplicateAcks, now_ns),
            Some(f) => {
                self.recovering = true;
                self.ended_round = None;
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

    fn vegas() -> Vegas {
        Vegas::new(
            1.0,
            3.0,
            1.0,
            VegasRtt::Min,
            VegasSlowStart::EveryOtherRtt,
            VegasSlowStartExit::Eighth,
            VegasLossDecrease::Fraction(0.25),
            None,
            2,
            1,
            MSS,
        )
    }

    fn window(cwnd_bytes: u64, ssthresh_bytes: u64) -> Window {
        Window { cwnd_bytes, ssthresh_bytes, mss_bytes: MSS, ca_credit: 0, ca_increment: CaIncrement::Exact }
    }

    fn sample(rtt_ms: f64) -> AckSample {
        let rtt_ns = (rtt_ms * MS as f64) as u64;
        AckSample { now_ns: 0, ack: 0, snd_nxt: 0, acked_bytes: MSS, duplicate: false, rtt_ns: Some(rtt_ns) }
    }

    /// One round of ACKs of one segment each, with these RTTs (ms); the cwnd after each ACK.
    fn round(v: &mut Vegas, w: &mut Window, rtts_ms: &[f64]) -> Vec<u64> {
        let mut after = vec![];
        for (i, &r) in rtts_ms.iter().enumerate() {
            let s = sample(r);
            v.on_ack(&s);
            if i + 1 == rtts_ms.len() {
                v.on_round_end(&s, w);
            }
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
        v.beta = 2.0;
        round(&mut v, &mut w, &[400.0]); // 2.25 > 2: down to 2 segments, ssthresh with it
        assert_eq!((w.cwnd_bytes, w.ssthresh_bytes), (2 * MSS, 2 * MSS));
        round(&mut v, &mut w, &[1000.0]); // diff 1.8 < 2 = β, > α: hold
        v.beta = 1.5;
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
        v.rtt = VegasRtt::Mean;
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
        v.slow_start = VegasSlowStart::EveryRtt;
        v.slow_start_exit = VegasSlowStartExit::Target;
        let mut w = window(2 * MSS, HUGE);
        assert_eq!(round(&mut v, &mut w, &[100.0, 100.0]), vec![2, 3]);
        assert_eq!(round(&mut v, &mut w, &[100.0, 100.0, 100.0]), vec![4, 5, 6]);
        w.cwnd_bytes = 10 * MSS;
        // diff = 10·25/125 = 2 > γ: cwnd = min(10, ⌊10·100/125⌋ + 1) = 9 segments.
        round(&mut v, &mut w, &[125.0]);
        assert_eq!((w.cwnd_bytes, w.ssthresh_bytes), (9 * MSS, 9 * MSS));
    }

    #[test]
    fn rounds_with_too_few_samples_act_as_reno() {
        let mut v = vegas();
        v.min_round_samples = 3;
        let mut w = in_congestion_avoidance(&mut v);
        // Two samples, diff = 10·200/300 = 6.7 > β, but too few to trust: Reno's +1.
        round(&mut v, &mut w, &[300.0, 300.0]);
        assert_eq!(w.cwnd_bytes, 11 * MSS);
        // Three: trusted, −1.
        round(&mut v, &mut w, &[300.0, 300.0, 300.0]);
        assert_eq!(w.cwnd_bytes, 10 * MSS);
        // Slow start: a lone delayed-ACK sample (3·200/300 = 2 > γ) does not end it.
        let mut w = window(3 * MSS, HUGE);
        round(&mut v, &mut w, &[300.0]);
        assert_eq!(w.ssthresh_bytes, HUGE);
    }

    #[test]
    fn three_duplicate_acks_cut_the_window_by_a_quarter() {
        let mut v = vegas();
        let w = window(12 * MSS, HUGE);
        let r = v.on_loss(&w, 12 * MSS, LossSignal::DuplicateAcks, 0);
        assert_eq!(r, Reduction::ssthresh(9 * MSS), "3/4·cwnd; recovery deflates cwnd to it");
        let r = v.on_loss(&window(2 * MSS, HUGE), 2 * MSS, LossSignal::DuplicateAcks, 0);
        assert_eq!(r.ssthresh_bytes, 2 * MSS, "never below 2 segments");
        v.loss_decrease = VegasLossDecrease::Fraction(0.5);
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
        v.ecn_decrease = Some(0.5);
        let w = window(12 * MSS, HUGE);
        assert_eq!(v.on_ecn(&w, 12 * MSS, 0), Reduction::ssthresh(6 * MSS));
        assert!(v.recovering);
        assert_eq!(v.on_ecn(&window(3 * MSS, HUGE), 3 * MSS, 0), Reduction::ssthresh(2 * MSS), "floor 2 segments");
        assert_eq!(v.on_loss(&w, 12 * MSS, LossSignal::DuplicateAcks, 0).ssthresh_bytes, 9 * MSS);
    }

    #[test]
    fn ns3_loss_answer_is_one_segment_less_but_at_most_a_quarter() {
        let mut v = vegas();
        v.loss_decrease = VegasLossDecrease::Named(VegasNamedDecrease::Ns3);
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
        v.on_ack(&sample(500.0));
        v.on_round_end(&sample(500.0), &w);
        // Recovery over: the round in progress is stale, the one after it decides (+1).
        round(&mut v, &mut w, &[500.0, 500.0]);
        assert_eq!(w.cwnd_bytes, 7 * MSS + MSS / 2);
        round(&mut v, &mut w, &[100.0]);
        assert_eq!(w.cwnd_bytes, 8 * MSS + MSS / 2);
        assert_eq!(v.rtt_estimate_ns(), Some(100 * MS), "BaseRTT");
    }
}
