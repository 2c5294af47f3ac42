//! Two-state Markov (Gilbert–Elliott) channel in continuous time: the link direction is Good or
//! Bad, stays in each state for an exponentially distributed time, and loses each packet
//! independently with the current state's loss probability.
//!
//! Paper: `casetti` Sec. 5.2 (Fig. 14), "2-state Markov models following [1,5]": the link stays
//! in Good for an exponential time with rate λ_gb and in Bad with rate λ_bg, with Bernoulli
//! errors in each state. Sec. 5.2.1 (fading): Good mean 8 s with 0.001 % packet loss, Bad mean
//! 4 s with 0…30 % loss; Sec. 5.2.2 (blackouts): Good mean 4 s, Bad mean 0…0.5 s with 100 %
//! loss. Parameters here are the mean sojourns (1/λ_gb, 1/λ_bg) in ns.
//!
//! Analytical loss rate seen by packets sent at times independent of the state (e.g. at a
//! constant rate): π_G·good_loss + π_B·bad_loss with π_B = bad_mean / (good_mean + bad_mean).
//!
//! The state is a function of time only: it is advanced lazily, when a packet asks, through
//! every sojourn that ended at or before `now_ns`, with the sojourn lengths drawn in order from
//! a stream of their own (`<name>:state`). The per-packet loss draws use the model's stream
//! (`<name>`). So the Good/Bad timeline of a link direction depends only on the run seed, the
//! stream name and time, never on how many packets crossed it (or on any other traffic); which
//! packets are lost within a Bad period depends, as it must, on this direction's packets.
//! No events are scheduled and nothing is allocated per packet.
//!
//! State: the `timeline` (`bad`, and `end_ns`, the exclusive end of the current sojourn: the state
//! holds on [start, end_ns); `u64::MAX` means the sojourn never ends).
//!
//! Deviations and choices:
//! - The state at the instant a packet finishes serialization decides its fate (a packet that
//!   straddles a transition is judged by the later state).
//! - Sojourn lengths are rounded to whole nanoseconds (bias < 0.5 ns per sojourn); a sojourn
//!   that rounds to 0 ns is skipped over.
//! - Initial state: `good` (the default: the channel starts in its normal condition, the first
//!   fade after an exponential Good sojourn), `bad`, or `stationary`, drawn Bad with probability
//!   π_B; the exponential's memorylessness makes the first sojourn's remaining length the same
//!   exponential, so a `stationary` channel is stationary from time 0 (no warm-up bias).
//! - "Gilbert–Elliott" usually names the discrete-time chain stepped per bit or packet; this is
//!   the continuous-time version `casetti` describes, so the burst lengths are in seconds, not
//!   packets, and do not scale with the link rate.
//!
//! Transmission-time clock (`clock_rate_bps = Some(r)`): the ns-2 two-state models of the
//! `casetti` era (`ErrorModel/TwoState`, errmodel.cc from 1998, and `ErrorModel/Expo`) with
//! `unit time` did not follow the simulator's clock: each packet advanced the sojourn by its
//! own transmission time at the model's `bandwidth_` (8·size / r), so the channel stands still
//! while the link is idle, e.g. during a retransmission timeout. A blackout of mean 0.1 s then
//! lasts until about 0.1 s worth of packets has been sent into it. Then, as in ns-2, a packet
//! whose transmission interval [c, c + 8·size/r] on that clock touches a Bad sojourn (starts
//! in one, or one begins before it ends) is judged by `bad_loss`, otherwise by `good_loss`.

use super::good_bad_timeline::Timeline;
use crate::config::InitialChannelState;
use crate::rng::RandomStream;

pub struct GilbertElliott {
    good_mean_ns: f64,
    bad_mean_ns: f64,
    good_loss: f64,
    bad_loss: f64,
    /// The current state and the (exclusive) end of its sojourn.
    timeline: Timeline,
    /// Draws the sojourn lengths and the stationary initial state, in time order.
    state_rng: RandomStream,
    /// Draws one Bernoulli per packet in a state with 0 < loss < 1.
    packet_rng: RandomStream,
    /// None: sojourns in simulated time. Some: the transmission-time clock (module docs).
    clock: Option<TransmissionClock>,
}

/// The sojourn clock of ns-2's two-state models with `unit time`: it advances by the
/// transmission time, at `rate_bps`, of each packet that crosses the link direction.
struct TransmissionClock {
    rate_bps: u64,
    now_ns: u64,
}

impl GilbertElliott {
    /// Means > 0 and losses in [0, 1] (checked by `SimConfig::validate`).
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        good_mean_ns: u64,
        bad_mean_ns: u64,
        good_loss: f64,
        bad_loss: f64,
        initial: InitialChannelState,
        clock_rate_bps: Option<u64>,
        mut state_rng: RandomStream,
        packet_rng: RandomStream,
    ) -> Self {
        let (good_mean_ns, bad_mean_ns) = (good_mean_ns as f64, bad_mean_ns as f64);
        let bad = match initial {
            InitialChannelState::Good => false,
            InitialChannelState::Bad => true,
            InitialChannelState::Stationary => state_rng.bernoulli(bad_mean_ns / (good_mean_ns + bad_mean_ns)),
        };
        let end_ns = sojourn_ns(&mut state_rng, if bad { bad_mean_ns } else { good_mean_ns });
        GilbertElliott {
            good_mean_ns,
            bad_mean_ns,
            good_loss,
            bad_loss,
            timeline: Timeline { bad, end_ns },
            state_rng,
            packet_rng,
            clock: clock_rate_bps.map(|rate_bps| TransmissionClock { rate_bps, now_ns: 0 }),
        }
    }

    /// Whether the channel is Bad at `now_ns`; `now_ns` never decreases between calls.
    #[inline]
    pub fn is_bad_at(&mut self, now_ns: u64) -> bool {
        let (rng, good_mean_ns, bad_mean_ns) = (&mut self.state_rng, self.good_mean_ns, self.bad_mean_ns);
        self.timeline.is_bad_at(now_ns, |bad| sojourn_ns(rng, if bad { bad_mean_ns } else { good_mean_ns }))
    }

    /// Whether a packet of `wire_bytes` that finishes serialization at `now_ns` is lost.
    #[inline]
    pub fn is_lost(&mut self, wire_bytes: u32, now_ns: u64) -> bool {
        let bad = match &mut self.clock {
            None => self.is_bad_at(now_ns),
            Some(clock) => {
                let start_ns = clock.now_ns;
                clock.now_ns += wire_bytes as u64 * 8_000_000_000 / clock.rate_bps;
                let (rng, good_mean_ns, bad_mean_ns) = (&mut self.state_rng, self.good_mean_ns, self.bad_mean_ns);
                self.timeline.is_bad_during(start_ns, clock.now_ns, |bad| {
                    sojourn_ns(rng, if bad { bad_mean_ns } else { good_mean_ns })
                })
            }
        };
        self.packet_rng.bernoulli(if bad { self.bad_loss } else { self.good_loss })
    }
}

/// An exponential sojourn of the given mean, in whole ns (the `as` cast saturates at
/// `u64::MAX`).
#[inline]
fn sojourn_ns(rng: &mut RandomStream, mean_ns: f64) -> u64 {
    rng.exponential(mean_ns).round() as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: u64 = 1_000_000;

    fn model(
        good_mean_ns: u64,
        bad_mean_ns: u64,
        good_loss: f64,
        bad_loss: f64,
        initial: InitialChannelState,
        seed: u64,
    ) -> GilbertElliott {
        let name = "link:l:ab:loss:0";
        GilbertElliott::new(
            good_mean_ns,
            bad_mean_ns,
            good_loss,
            bad_loss,
            initial,
            None,
            RandomStream::new(seed, &format!("{name}:state")),
            RandomStream::new(seed, name),
        )
    }

    /// Lengths of the first `n` Good and `n` Bad sojourns, stepping from end to end.
    fn sojourns(m: &mut GilbertElliott, n: usize) -> (Vec<u64>, Vec<u64>) {
        let (mut good, mut bad) = (Vec::new(), Vec::new());
        let mut start_ns = 0;
        while good.len() < n || bad.len() < n {
            let (end_ns, was_bad) = (m.timeline.end_ns, m.timeline.bad);
            if was_bad { &mut bad } else { &mut good }.push(end_ns - start_ns);
            m.is_bad_at(end_ns);
            start_ns = end_ns;
        }
        (good, bad)
    }

    #[test]
    fn sojourns_are_exponential_with_the_configured_means() {
        // casetti Sec. 5.2.1: Good 8 s, Bad 4 s.
        let mut m = model(8_000 * MS, 4_000 * MS, 0.0, 1.0, InitialChannelState::Good, 1);
        let n = 40_000;
        let (good, bad) = sojourns(&mut m, n);
        for (lengths, mean_ns) in [(&good[..n], 8e9), (&bad[..n], 4e9)] {
            let mean = lengths.iter().sum::<u64>() as f64 / n as f64;
            // Exponential: sd = mean, so the sample mean's sd is mean / sqrt(n).
            assert!((mean / mean_ns - 1.0).abs() < 4.0 / (n as f64).sqrt(), "{mean} vs {mean_ns}");
            let longer = lengths.iter().filter(|&&l| l as f64 > mean_ns).count() as f64 / n as f64;
            assert!((longer - (-1.0f64).exp()).abs() < 0.01, "P(sojourn > mean) = {longer}, exponential: 1/e");
        }
    }

    #[test]
    fn long_run_loss_rate_is_the_stationary_mix_of_the_state_loss_rates() {
        // Probe at a constant rate (one packet per ms), as a saturated link would.
        let (good_mean_ns, bad_mean_ns, good_loss, bad_loss) = (80 * MS, 40 * MS, 0.01, 0.3);
        let mut m = model(good_mean_ns, bad_mean_ns, good_loss, bad_loss, InitialChannelState::Stationary, 2);
        let n = 2_000_000u64;
        let lost = (0..n).filter(|i| m.is_lost(400, i * MS)).count() as f64 / n as f64;
        let pi_bad = 40.0 / 120.0;
        let expected = (1.0 - pi_bad) * good_loss + pi_bad * bad_loss;
        // Over L = 2000 s the Bad time fraction has sd ≈ sqrt(2·π_G·π_B / (ν·L)) with
        // ν = 1/80 ms + 1/40 ms = 37.5/s: 0.0024, i.e. 0.0007 on the loss rate.
        assert!((lost - expected).abs() < 0.003, "{lost} vs {expected}");
    }

    #[test]
    fn initial_state_good_bad_or_drawn_with_the_stationary_probability() {
        assert!(!model(MS, MS, 0.0, 1.0, InitialChannelState::Good, 1).is_bad_at(0));
        assert!(model(MS, MS, 0.0, 1.0, InitialChannelState::Bad, 1).is_bad_at(0));
        let seeds = 20_000;
        let bad = (0..seeds)
            .filter(|&s| model(3 * MS, MS, 0.0, 1.0, InitialChannelState::Stationary, s).is_bad_at(0))
            .count();
        let frac = bad as f64 / seeds as f64;
        assert!((frac - 0.25).abs() < 4.0 * (0.25 * 0.75 / seeds as f64).sqrt(), "{frac}");
    }

    #[test]
    fn blackout_loses_everything_in_bad_and_nothing_in_good() {
        // casetti Sec. 5.2.2 with a lossless Good state: losses are exactly the Bad periods.
        let mut m = model(4_000 * MS, 100 * MS, 0.0, 1.0, InitialChannelState::Good, 3);
        let mut probe = model(4_000 * MS, 100 * MS, 0.0, 1.0, InitialChannelState::Good, 3);
        for t in (0..600_000).map(|i| i * MS / 10) {
            assert_eq!(m.is_lost(400, t), probe.is_bad_at(t));
        }
    }

    #[test]
    fn state_timeline_depends_only_on_seed_name_and_time_not_on_queries() {
        // One model asked every 0.1 ms, the other only every 7.3 ms: same state at shared times.
        let mut dense = model(50 * MS, 20 * MS, 0.0, 1.0, InitialChannelState::Stationary, 9);
        let mut sparse = model(50 * MS, 20 * MS, 0.0, 1.0, InitialChannelState::Stationary, 9);
        let mut changes = 0;
        let mut last = false;
        for i in 0..1_000_000u64 {
            let t = i * MS / 10;
            let bad = dense.is_bad_at(t);
            changes += (bad != last) as u32;
            last = bad;
            if i % 73 == 0 {
                assert_eq!(sparse.is_bad_at(t), bad, "at {t} ns");
            }
        }
        assert!(changes > 1000, "the test must see many transitions ({changes})");
        // A different seed gives a different timeline.
        let mut other = model(50 * MS, 20 * MS, 0.0, 1.0, InitialChannelState::Stationary, 10);
        let mut same = model(50 * MS, 20 * MS, 0.0, 1.0, InitialChannelState::Stationary, 9);
        assert!((0..10_000u64).any(|i| other.is_bad_at(i * MS) != same.is_bad_at(i * MS)));
    }

    #[test]
    fn same_seed_and_name_give_the_same_losses() {
        let pattern = |seed| {
            let mut m = model(80 * MS, 40 * MS, 0.05, 0.5, InitialChannelState::Good, seed);
            (0..20_000u64).map(|i| m.is_lost(400, i * MS)).collect::<Vec<_>>()
        };
        assert_eq!(pattern(5), pattern(5));
        assert_ne!(pattern(5), pattern(6));
    }

    /// casetti Sec. 5.2.2 blackouts (Good 4 s, Bad 0.1 s) on ns-2's transmission-time clock at
    /// 2 Mb/s: a 400-byte packet advances the clock 1.6 ms.
    fn clocked(seed: u64) -> GilbertElliott {
        let name = "link:l:ab:loss:0";
        let streams = (RandomStream::new(seed, &format!("{name}:state")), RandomStream::new(seed, name));
        GilbertElliott::new(
            4_000 * MS,
            100 * MS,
            0.0,
            1.0,
            InitialChannelState::Good,
            Some(2_000_000),
            streams.0,
            streams.1,
        )
    }

    #[test]
    fn transmission_clock_stands_still_while_no_packet_is_sent() {
        // The same packets back to back (1.6 ms apart) or one every 10 s: the same losses,
        // because only transmissions move the clock.
        let (mut busy, mut idle) = (clocked(4), clocked(4));
        let n = 200_000u64;
        let a: Vec<bool> = (0..n).map(|i| busy.is_lost(400, i * 1_600_000)).collect();
        let b: Vec<bool> = (0..n).map(|i| idle.is_lost(400, i * 10_000 * MS)).collect();
        assert_eq!(a, b);
        // The time-clocked model asked every 10 s sees the 4 s / 0.1 s process sampled, not a
        // blackout of about 62 consecutive packets.
        assert!(a.windows(40).any(|w| w.iter().all(|&lost| lost)), "a blackout spans many packets on this clock");
    }

    #[test]
    fn transmission_clock_blackouts_last_their_mean_in_packet_times() {
        // Mean 0.1 s at 1.6 ms per packet: 62.5 packet times, plus the packet that overlaps the
        // blackout's start (ns-2 loses every packet whose interval touches the Bad state).
        let mut m = clocked(5);
        let losses: Vec<bool> = (0..4_000_000u64).map(|_| m.is_lost(400, 0)).collect();
        let bursts: Vec<usize> = losses.split(|&lost| !lost).map(|b| b.len()).filter(|&l| l > 0).collect();
        let mean = bursts.iter().sum::<usize>() as f64 / bursts.len() as f64;
        // About 1 600 blackouts; the burst length has sd ≈ 62.5, so the mean's sd is ≈ 1.6.
        assert!(bursts.len() > 1_000, "{} blackouts", bursts.len());
        assert!((mean - 63.5).abs() < 6.0, "mean blackout {mean} packets");
        // Good sojourns of 4 s = 2 500 packet times between blackouts.
        let share = losses.iter().filter(|&&l| l).count() as f64 / losses.len() as f64;
        assert!((share - 63.5 / (2_500.0 + 62.5)).abs() < 0.004, "lost share {share}");
    }
}
