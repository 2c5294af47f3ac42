//! ns-2's `ErrorModel/MultiState` with `sttype time` and two states: the `two_state` channel
//! (`macura` Sec. 5.5: deterministic Good and Bad sojourns, the next state Bad with probability
//! `p_bad`) as ns-2 runs it, where every transition happens at a packet (`transitions =
//! ns2_multistate`). The `macura` paper's runs were made with ns-2.
//!
//! ns-2.35 `queue/errmodel.cc` (`MultiStateErrorModel::corrupt`) and `tcl/lib/ns-errmodel.tcl`
//! (`ErrorModel/MultiState instproc corrupt`, `time-transition`), per packet at time `now`:
//! 1. if now − prevTime_ ≥ curperiod_, the expiry flag `texpired_` is set;
//! 2. while it is set, the packet draws the next state from the transition matrix (Bad with
//!    probability `p_bad`) and `curperiod_` becomes that state's period; a draw that changes
//!    the state resets the model (`firstTime_`);
//! 3. the packet is lost with the (possibly new) state's probability;
//! 4. after a reset (and at the first packet) prevTime_ = now and the flag is cleared.
//!
//! So a state's sojourn starts at the first packet it judges, a Bad state judges at least one
//! packet however short its period, and a draw that repeats the state leaves the flag set, so
//! every following packet draws again until the state changes: after its period, a state lasts
//! a geometric number of packets more (mean 1/(1 − p) with p its repeat probability), not
//! whole further periods as in simulated time (`two_state.rs`).
//!
//! Choice: ns-2 judges a packet as it leaves the queue (the error module sits between the queue
//! and the link); tcpsim asks every loss model when the packet finishes serialization, one
//! transmission time later. `initial = stationary` has no ns-2 counterpart (rejected by
//! validation).
//!
//! State: `bad`, `prev_ns` (ns-2's prevTime_, 0 until the first packet), `expired`, `first`.

use crate::rng::RandomStream;

pub struct Ns2MultiState {
    good_sojourn_ns: u64,
    bad_sojourn_ns: u64,
    good_loss: f64,
    bad_loss: f64,
    p_bad: f64,
    bad: bool,
    prev_ns: u64,
    expired: bool,
    /// The next packet starts the current state's period (ns-2's `firstTime_`).
    first: bool,
    state_rng: RandomStream,
    packet_rng: RandomStream,
}

impl Ns2MultiState {
    /// Sojourns > 0, `p_bad` and losses in [0, 1] (checked by `SimConfig::validate`).
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        good_sojourn_ns: u64,
        bad_sojourn_ns: u64,
        good_loss: f64,
        bad_loss: f64,
        p_bad: f64,
        initially_bad: bool,
        state_rng: RandomStream,
        packet_rng: RandomStream,
    ) -> Self {
        Ns2MultiState {
            good_sojourn_ns,
            bad_sojourn_ns,
            good_loss,
            bad_loss,
            p_bad,
            bad: initially_bad,
            prev_ns: 0,
            expired: false,
            first: true,
            state_rng,
            packet_rng,
        }
    }

    /// The state that judges a packet at `now_ns` (never decreasing between calls), after the
    /// transition this packet may make.
    #[inline]
    fn state_for_packet(&mut self, now_ns: u64) -> bool {
        let period_ns = if self.bad { self.bad_sojourn_ns } else { self.good_sojourn_ns };
        if now_ns - self.prev_ns >= period_ns {
            self.expired = true;
        }
        if self.expired {
            let next_bad = self.state_rng.bernoulli(self.p_bad);
            if next_bad != self.bad {
                self.bad = next_bad;
                self.first = true;
            }
        }
        let bad = self.bad;
        if self.first {
            self.first = false;
            self.prev_ns = now_ns;
            self.expired = false;
        }
        bad
    }

    #[inline]
    pub fn is_lost(&mut self, now_ns: u64) -> bool {
        let p = if self.state_for_packet(now_ns) { self.bad_loss } else { self.good_loss };
        self.packet_rng.bernoulli(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: u64 = 1_000_000;

    fn model(p_bad: f64, seed: u64) -> Ns2MultiState {
        // macura: Good 1 s, Bad 0.1 ms; every packet lost in Bad, none in Good.
        let name = "link:l:ab:loss:0";
        Ns2MultiState::new(
            1_000 * MS,
            MS / 10,
            0.0,
            1.0,
            p_bad,
            false,
            RandomStream::new(seed, &format!("{name}:state")),
            RandomStream::new(seed, name),
        )
    }

    #[test]
    fn a_bad_state_shorter_than_the_packet_gap_still_judges_its_first_packet() {
        // p_bad = 1: after the first Good second, Bad for ever; a 0.1 ms Bad period cannot end
        // between packets 6 ms apart, but every packet keeps drawing Bad again.
        let mut m = model(1.0, 1);
        let lost: Vec<bool> = (0..400u64).map(|i| m.is_lost(i * 6 * MS)).collect();
        // The period starts at the first packet (t = 0) and ends 1 s later: the packet at
        // 1002 ms is the first after it and the first judged Bad.
        let first_lost = lost.iter().position(|&l| l).unwrap();
        assert_eq!(first_lost as u64 * 6, 1002);
        assert!(lost[first_lost..].iter().all(|&l| l), "a repeated Bad state keeps every packet Bad");
    }

    #[test]
    fn after_its_period_a_state_lasts_a_geometric_number_of_packets() {
        // p = 0.5: each packet after a period has elapsed leaves the state with probability 1/2,
        // so a Bad run holds 1 + Geometric packets, mean 2 (the entering packet and, on average,
        // one more), and a Good run holds 1 s plus on average 1 packet more.
        let mut m = model(0.5, 7);
        let gap_ns = 6 * MS;
        let (mut bad_runs, mut bad_packets, mut previous) = (0u64, 0u64, false);
        for i in 0..3_000_000u64 {
            let lost = m.is_lost(i * gap_ns);
            bad_packets += lost as u64;
            bad_runs += (lost && !previous) as u64;
            previous = lost;
        }
        let mean = bad_packets as f64 / bad_runs as f64;
        // Runs are Geometric(1/2) from 1: mean 2, sd sqrt(2); over ~8 000 runs the mean's sd is 0.016.
        assert!((mean - 2.0).abs() < 0.07, "mean Bad run {mean} packets");
        // A Good run: 1 s (167 packets at 6 ms, counting the one that entered it) plus Geometric
        // draws, mean 1 more packet: about 1 Bad run per 168 + 2 packets.
        let per_run = 3_000_000.0 / bad_runs as f64;
        assert!((per_run - 170.0).abs() < 3.0, "{per_run} packets per Good+Bad cycle");
    }

    #[test]
    fn a_packetless_period_changes_nothing_until_a_packet_comes() {
        let mut m = model(1.0, 3);
        assert!(!m.is_lost(0));
        // No packet for 5 s: the first one after it draws (Bad), and only then starts Bad's period.
        assert!(m.is_lost(5_000 * MS));
        assert!(m.bad && m.prev_ns == 5_000 * MS);
    }
}
