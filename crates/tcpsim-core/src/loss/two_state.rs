//! Two-state (Good/Bad) channel with deterministic sojourns: every sojourn in Good lasts exactly
//! `good_sojourn_ns`, every sojourn in Bad exactly `bad_sojourn_ns`, and when a sojourn ends the
//! next one is Bad with probability `p_bad`, else Good, whatever the current state. Each packet
//! is lost independently with the current state's loss probability.
//!
//! Paper: `macura` Sec. 5.5 (mixed wired/wireless): "a segment loss probability equal to 0,
//! when the channel is in the Good state, and equal to 0.1 when the channel is in the Bad
//! state. The permanence time in the Good state is assumed deterministic and equal to 1s
//! whereas the permanence time in the Bad state is assumed also deterministic but this time we
//! consider values ranging from 0.1 ms to 100 ms. When the permanence time in a state elapses,
//! the state can transit to a Good or Bad state with a probability p=0.5."
//!
//! Ambiguity: the last sentence reads either as "the next state is Bad with probability p, Good
//! otherwise" (a fresh draw, so a state may repeat) or as "the state changes with probability
//! p". With p = 0.5, the paper's only value, both give the same process; this model implements
//! the first reading and calls p `p_bad`. A sojourn that is followed by one of the same state
//! is indistinguishable from one longer sojourn, so runs of one state last a whole number of
//! sojourns: Good runs k·good_sojourn with k ~ Geometric(p_bad) (k ≥ 1), Bad runs
//! k·bad_sojourn with k ~ Geometric(1 − p_bad).
//!
//! Analytical loss rate for packets sent at times independent of the state:
//! π_G·good_loss + π_B·bad_loss with the time fraction in Bad
//! π_B = p_bad·bad_sojourn / (p_bad·bad_sojourn + (1 − p_bad)·good_sojourn)
//! (macura: 1 s Good, 10 ms Bad, p = 0.5: π_B ≈ 0.99 %, loss rate ≈ 0.099 %).
//!
//! Implementation: rather than one draw per sojourn, one draw per run gives its length in
//! sojourns directly (inverse transform of the geometric distribution), so the cost is per
//! state change, a run of one state never ends when its state is certain to repeat
//! (p_bad = 0 or 1), and short sojourns cost nothing while the channel is quiet. The timeline
//! is advanced lazily, when a packet asks, through every run that ended at or before `now_ns`,
//! drawing from the model's `<name>:state` stream in time order; per-packet loss draws use the
//! `<name>` stream. So the timeline depends only on the seed, the stream name and time.
//!
//! State: the `timeline` (`bad`, `end_ns`: exclusive end of the current run; `u64::MAX`:
//! never), the two streams. Boundaries are exact integers: every run is a whole number of sojourns.
//!
//! Choices: the state when a packet finishes serialization decides its fate. The initial state
//! is `good` by default (a Good sojourn starts at time 0), `bad`, or `stationary`: Bad with
//! probability π_B, at a uniformly random phase of its current sojourn (remaining length
//! uniform in [1, sojourn] ns), so that the channel is stationary from time 0.

use super::good_bad_timeline::Timeline;
use crate::config::InitialChannelState;
use crate::rng::RandomStream;

pub struct DeterministicTwoState {
    runs: RunLengths,
    good_loss: f64,
    bad_loss: f64,
    /// The current state and the (exclusive) end of its run of sojourns.
    timeline: Timeline,
    /// Draws the run lengths and the stationary initial state, in time order.
    state_rng: RandomStream,
    /// Draws one Bernoulli per packet in a state with 0 < loss < 1.
    packet_rng: RandomStream,
}

/// How long a run of one state lasts: a whole number of fixed sojourns.
struct RunLengths {
    good_sojourn_ns: u64,
    bad_sojourn_ns: u64,
    /// ln(1 − p_bad): log-probability that a Good sojourn is followed by another Good one.
    ln_good_repeats: f64,
    /// ln(p_bad): log-probability that a Bad sojourn is followed by another Bad one.
    ln_bad_repeats: f64,
}

impl RunLengths {
    #[inline]
    fn sojourn_ns(&self, bad: bool) -> u64 {
        if bad {
            self.bad_sojourn_ns
        } else {
            self.good_sojourn_ns
        }
    }

    /// How many more sojourns of a state follow the current one: Geometric on {0, 1, ...}
    /// with P(≥ k) = q^k, q the repeat probability, by inverse transform (`u64::MAX` when
    /// q = 1: the state never changes again).
    #[inline]
    fn repeats(&self, bad: bool, rng: &mut RandomStream) -> u64 {
        let ln_q = if bad { self.ln_bad_repeats } else { self.ln_good_repeats };
        if ln_q == 0.0 {
            return u64::MAX;
        }
        // ln(1 − U) ∈ [−37, 0], ln q < 0 (or −∞ when q = 0, giving 0 repeats).
        ((1.0 - rng.uniform()).ln() / ln_q).floor() as u64
    }

    /// Length of a run of a state starting at a sojourn boundary.
    #[inline]
    fn run_ns(&self, bad: bool, rng: &mut RandomStream) -> u64 {
        self.sojourn_ns(bad).saturating_mul(self.repeats(bad, rng).saturating_add(1))
    }
}

impl DeterministicTwoState {
    /// Sojourns > 0, `p_bad` and losses in [0, 1] (checked by `SimConfig::validate`).
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        good_sojourn_ns: u64,
        bad_sojourn_ns: u64,
        good_loss: f64,
        bad_loss: f64,
        p_bad: f64,
        initial: InitialChannelState,
        mut state_rng: RandomStream,
        packet_rng: RandomStream,
    ) -> Self {
        let runs = RunLengths {
            good_sojourn_ns,
            bad_sojourn_ns,
            ln_good_repeats: (-p_bad).ln_1p(),
            ln_bad_repeats: p_bad.ln(),
        };
        let timeline = match initial {
            InitialChannelState::Good | InitialChannelState::Bad => {
                let bad = initial == InitialChannelState::Bad;
                Timeline { bad, end_ns: runs.run_ns(bad, &mut state_rng) }
            }
            InitialChannelState::Stationary => {
                let (good_ns, bad_ns) = (good_sojourn_ns as f64, bad_sojourn_ns as f64);
                let bad = state_rng.bernoulli(p_bad * bad_ns / (p_bad * bad_ns + (1.0 - p_bad) * good_ns));
                let sojourn_ns = runs.sojourn_ns(bad);
                let remaining_ns = sojourn_ns - state_rng.below_or_equal(sojourn_ns - 1);
                let end_ns = remaining_ns.saturating_add(sojourn_ns.saturating_mul(runs.repeats(bad, &mut state_rng)));
                Timeline { bad, end_ns }
            }
        };
        DeterministicTwoState { runs, good_loss, bad_loss, timeline, state_rng, packet_rng }
    }

    /// Whether the channel is Bad at `now_ns`; `now_ns` never decreases between calls.
    #[inline]
    pub fn is_bad_at(&mut self, now_ns: u64) -> bool {
        let (runs, rng) = (&self.runs, &mut self.state_rng);
        self.timeline.is_bad_at(now_ns, |bad| runs.run_ns(bad, rng))
    }

    #[inline]
    pub fn is_lost(&mut self, now_ns: u64) -> bool {
        let p = if self.is_bad_at(now_ns) { self.bad_loss } else { self.good_loss };
        self.packet_rng.bernoulli(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: u64 = 1_000_000;

    fn model(
        good_ns: u64,
        bad_ns: u64,
        good_loss: f64,
        bad_loss: f64,
        p_bad: f64,
        initial: InitialChannelState,
        seed: u64,
    ) -> DeterministicTwoState {
        let name = "link:l:ab:loss:0";
        DeterministicTwoState::new(
            good_ns,
            bad_ns,
            good_loss,
            bad_loss,
            p_bad,
            initial,
            RandomStream::new(seed, &format!("{name}:state")),
            RandomStream::new(seed, name),
        )
    }

    /// (state, start, end) of the first `n` runs, stepping from run end to run end.
    fn runs(m: &mut DeterministicTwoState, n: usize) -> Vec<(bool, u64, u64)> {
        let mut start_ns = 0;
        (0..n)
            .map(|_| {
                let run = (m.timeline.bad, start_ns, m.timeline.end_ns);
                m.is_bad_at(m.timeline.end_ns);
                start_ns = run.2;
                run
            })
            .collect()
    }

    #[test]
    fn runs_are_whole_numbers_of_exact_sojourns_and_alternate() {
        // macura Sec. 5.5: Good 1 s, Bad 10 ms, p = 0.5.
        let (good_ns, bad_ns) = (1_000 * MS, 10 * MS);
        let mut m = model(good_ns, bad_ns, 0.0, 0.1, 0.5, InitialChannelState::Good, 1);
        let all = runs(&mut m, 40_000);
        assert!(!all[0].0 && all[0].1 == 0, "starts with a Good sojourn at time 0");
        let (mut good_sojourns, mut bad_sojourns, mut good_runs, mut bad_runs) = (0u64, 0u64, 0u64, 0u64);
        for pair in all.windows(2) {
            assert_ne!(pair[0].0, pair[1].0, "runs alternate");
        }
        for &(bad, start, end) in &all {
            let sojourn_ns = if bad { bad_ns } else { good_ns };
            assert!(end > start && (end - start) % sojourn_ns == 0, "run [{start}, {end}) is not whole sojourns");
            let k = (end - start) / sojourn_ns;
            if bad {
                bad_sojourns += k;
                bad_runs += 1;
            } else {
                good_sojourns += k;
                good_runs += 1;
            }
        }
        // Runs last Geometric(0.5) sojourns: mean 2, sd sqrt(2), so the sample mean's sd is
        // sqrt(2 / 20000) = 0.01.
        for (sojourns, runs) in [(good_sojourns, good_runs), (bad_sojourns, bad_runs)] {
            let mean = sojourns as f64 / runs as f64;
            assert!((mean - 2.0).abs() < 0.04, "mean run {mean} sojourns");
        }
    }

    #[test]
    fn next_state_probability_sets_the_mean_run_lengths() {
        // p_bad = 0.2: Good runs last 1/0.2 = 5 sojourns on average, Bad runs 1/0.8 = 1.25.
        let mut m = model(7, 3, 0.0, 1.0, 0.2, InitialChannelState::Good, 2);
        let all = runs(&mut m, 100_000);
        let mean = |bad: bool, sojourn: u64| {
            let lengths: Vec<u64> = all.iter().filter(|r| r.0 == bad).map(|r| (r.2 - r.1) / sojourn).collect();
            lengths.iter().sum::<u64>() as f64 / lengths.len() as f64
        };
        // Geometric sds: sqrt(0.8) / 0.2 = 4.5 and sqrt(0.2) / 0.8 = 0.56, over 50 000 runs each.
        assert!((mean(false, 7) - 5.0).abs() < 0.08, "{}", mean(false, 7));
        assert!((mean(true, 3) - 1.25).abs() < 0.01, "{}", mean(true, 3));
    }

    #[test]
    fn certain_next_states_never_end_a_run() {
        let mut never_bad = model(MS, MS, 0.0, 1.0, 0.0, InitialChannelState::Good, 1);
        assert!(!never_bad.is_bad_at(u64::MAX - 1));
        // p_bad = 1: one Good sojourn, then Bad for ever.
        let mut always_bad = model(MS, MS, 0.0, 1.0, 1.0, InitialChannelState::Good, 1);
        assert!(!always_bad.is_bad_at(MS - 1));
        assert!(always_bad.is_bad_at(MS));
        assert!(always_bad.is_bad_at(u64::MAX - 1));
    }

    #[test]
    fn long_run_loss_rate_is_the_time_weighted_mix() {
        // p_bad = 0.5, Good 100 ms, Bad 20 ms: π_B = 20 / 120.
        let mut m = model(100 * MS, 20 * MS, 0.01, 0.5, 0.5, InitialChannelState::Stationary, 3);
        let n = 2_000_000u64;
        let lost = (0..n).filter(|i| m.is_lost(i * MS)).count() as f64 / n as f64;
        let pi_bad = 20.0 / 120.0;
        let expected = (1.0 - pi_bad) * 0.01 + pi_bad * 0.5;
        // 2000 s hold ~17 000 sojourns; the Bad time fraction's sd is about 0.002, i.e. 0.001
        // on the loss rate.
        assert!((lost - expected).abs() < 0.004, "{lost} vs {expected}");
    }

    #[test]
    fn stationary_start_is_bad_with_the_time_fraction_at_a_uniform_phase() {
        let (seeds, pi_bad) = (20_000u64, 0.5 * 30.0 / (0.5 * 30.0 + 0.5 * 90.0));
        let (mut bad, mut phase_sum) = (0u64, 0.0);
        for s in 0..seeds {
            let m = model(90 * MS, 30 * MS, 0.0, 1.0, 0.5, InitialChannelState::Stationary, s);
            bad += m.timeline.bad as u64;
            // The run ends after the rest of the current sojourn, in [1, sojourn] ns, plus
            // whole sojourns.
            let sojourn_ns = m.runs.sojourn_ns(m.timeline.bad);
            phase_sum += ((m.timeline.end_ns - 1) % sojourn_ns + 1) as f64 / sojourn_ns as f64;
        }
        let frac = bad as f64 / seeds as f64;
        assert!((frac - pi_bad).abs() < 4.0 * (pi_bad * (1.0 - pi_bad) / seeds as f64).sqrt(), "{frac} vs {pi_bad}");
        // Uniform remaining fraction: mean 1/2, sd 0.29 / sqrt(20000) = 0.002.
        assert!((phase_sum / seeds as f64 - 0.5).abs() < 0.01);
    }

    #[test]
    fn state_timeline_depends_only_on_seed_name_and_time_not_on_queries() {
        let mut dense = model(5 * MS, 2 * MS, 0.0, 1.0, 0.5, InitialChannelState::Stationary, 4);
        let mut sparse = model(5 * MS, 2 * MS, 0.0, 1.0, 0.5, InitialChannelState::Stationary, 4);
        for i in 0..1_000_000u64 {
            let t = i * MS / 100;
            let bad = dense.is_lost(t);
            if i % 73 == 0 {
                assert_eq!(sparse.is_lost(t), bad, "at {t} ns");
            }
        }
    }

    #[test]
    fn same_seed_and_name_give_the_same_losses() {
        let pattern = |seed| {
            let mut m = model(50 * MS, 10 * MS, 0.01, 0.3, 0.5, InitialChannelState::Good, seed);
            (0..20_000u64).map(|i| m.is_lost(i * MS)).collect::<Vec<_>>()
        };
        assert_eq!(pattern(5), pattern(5));
        assert_ne!(pattern(5), pattern(6));
    }
}
