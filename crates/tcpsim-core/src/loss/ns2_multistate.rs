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

use crate::config::InitialChannelState;
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

/// ns-2's `ErrorModel/MultiState` with `sttype pkt` and two states (Good, Bad), each an
/// `ErrorModel` with a packet error rate: a Markov chain stepped by the packets themselves
/// (`kind = "packet_markov"`). Mean sojourns are counted in packets of this link direction.
///
/// ns-2.35 `queue/errmodel.cc` (`MultiStateErrorModel::corrupt`) and `tcl/lib/ns-errmodel.tcl`
/// (`ErrorModel/MultiState instproc corrupt` → `transition`), per packet: first one draw from
/// the current state's row of the transition matrix picks the state (a change resets the
/// model and makes the new state's error model current), then that state's error model judges
/// the packet. With the rows {1 − 1/g, 1/g} (Good) and {1/b, 1 − 1/b} (Bad) a run of Good
/// holds Geometric(1/g) packets (mean g), a run of Bad Geometric(1/b) (mean b). Time plays no
/// part: the chain stands still while no packet crosses, and on a link direction carrying
/// ACKs it is the ACKs that step it. This is `casetti`'s fading channel read with sojourns
/// in packets (means 8 and 4), as ns-2 runs it; the continuous-time `gilbert_elliott` with
/// means of g and b packet transmission times is a different model (it also runs while the
/// link is idle, and one direction's packets do not set the other's clock).
///
/// Choices: the state before the first packet is `initial` (`good`, `bad`, or `stationary`:
/// Bad with probability b/(g + b), which ns-2 has no counterpart for: its chain starts in the
/// `start` state given to the model); the transition draw comes from the `<name>:state`
/// stream, one per packet, the packet's loss draw from `<name>` (none when the state's
/// loss is 0 or 1). ns-2 judges the packet where its error module sits (here, as every tcpsim
/// model, when it finishes serialization).
///
/// State: `bad`, the two streams.
pub struct Ns2PacketMarkov {
    /// Probability that a packet in Good moves the chain to Bad (1/g).
    p_good_to_bad: f64,
    /// Probability that a packet in Bad moves the chain to Good (1/b).
    p_bad_to_good: f64,
    good_loss: f64,
    bad_loss: f64,
    bad: bool,
    state_rng: RandomStream,
    packet_rng: RandomStream,
}

impl Ns2PacketMarkov {
    /// Means `good_mean_pkts`, `bad_mean_pkts` ≥ 1 and losses in [0, 1] (checked by
    /// `SimConfig::validate`).
    pub fn new(
        good_mean_pkts: f64,
        bad_mean_pkts: f64,
        good_loss: f64,
        bad_loss: f64,
        initial: InitialChannelState,
        mut state_rng: RandomStream,
        packet_rng: RandomStream,
    ) -> Self {
        let bad = match initial {
            InitialChannelState::Good => false,
            InitialChannelState::Bad => true,
            InitialChannelState::Stationary => state_rng.bernoulli(bad_mean_pkts / (good_mean_pkts + bad_mean_pkts)),
        };
        Ns2PacketMarkov {
            p_good_to_bad: 1.0 / good_mean_pkts,
            p_bad_to_good: 1.0 / bad_mean_pkts,
            good_loss,
            bad_loss,
            bad,
            state_rng,
            packet_rng,
        }
    }

    /// The transition this packet makes, then the state that judges it. One uniform draw
    /// per packet, whatever the state (as ns-2's `transition` draws `uniform 0 1`).
    #[inline]
    fn step(&mut self) -> bool {
        let u = self.state_rng.uniform();
        let leave = if self.bad { self.p_bad_to_good } else { self.p_good_to_bad };
        if u < leave {
            self.bad = !self.bad;
        }
        self.bad
    }

    #[inline]
    pub fn is_lost(&mut self) -> bool {
        let p = if self.step() { self.bad_loss } else { self.good_loss };
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

    fn packet_markov(g: f64, b: f64, initial: InitialChannelState, seed: u64) -> Ns2PacketMarkov {
        let name = "link:l:ab:loss:0";
        Ns2PacketMarkov::new(
            g,
            b,
            0.0,
            1.0,
            initial,
            RandomStream::new(seed, &format!("{name}:state")),
            RandomStream::new(seed, name),
        )
    }

    #[test]
    fn packet_markov_with_unit_means_alternates_at_every_packet() {
        // g = b = 1: every packet leaves its state (rows {0, 1} and {1, 0}). Starting in Good,
        // the first packet already moves the chain (ns-2 transitions before judging): Bad, Good,
        // Bad, ... and with Bad = lost, Good = kept: lost, kept, lost, kept.
        let mut m = packet_markov(1.0, 1.0, InitialChannelState::Good, 5);
        let lost: Vec<bool> = (0..6).map(|_| m.is_lost()).collect();
        assert_eq!(lost, [true, false, true, false, true, false]);
        let mut m = packet_markov(1.0, 1.0, InitialChannelState::Bad, 5);
        assert!(!m.is_lost());
        assert!(m.is_lost());
    }

    #[test]
    fn packet_markov_steps_once_per_packet_on_its_state_stream() {
        // Hand-worked against the state stream itself: g = 8, b = 4 (casetti's fading means
        // read in packets). Packet k draws u_k; from Good it moves to Bad iff u_k < 1/8, from
        // Bad to Good iff u_k < 1/4; the packet is lost iff the state after the move is Bad.
        let seed = 11;
        let mut m = packet_markov(8.0, 4.0, InitialChannelState::Good, seed);
        let mut u = RandomStream::new(seed, "link:l:ab:loss:0:state");
        let mut bad = false;
        let mut changes = 0;
        for _ in 0..2_000 {
            let x = u.uniform();
            let next = if bad { x >= 0.25 } else { x < 0.125 };
            changes += (next != bad) as u32;
            bad = next;
            assert_eq!(m.is_lost(), bad);
        }
        assert!(changes > 100, "{changes} state changes in 2000 packets");
    }

    #[test]
    fn packet_markov_runs_have_the_mean_lengths_in_packets() {
        // Geometric runs: mean 8 packets in Good, 4 in Bad; π_B = 4/12.
        let mut m = packet_markov(8.0, 4.0, InitialChannelState::Stationary, 3);
        let n = 600_000u64;
        let (mut bad_packets, mut bad_runs, mut prev) = (0u64, 0u64, false);
        for _ in 0..n {
            let lost = m.is_lost();
            bad_packets += lost as u64;
            bad_runs += (lost && !prev) as u64;
            prev = lost;
        }
        let pi_bad = bad_packets as f64 / n as f64;
        let mean_bad_run = bad_packets as f64 / bad_runs as f64;
        let mean_good_run = (n - bad_packets) as f64 / bad_runs as f64;
        assert!((pi_bad - 1.0 / 3.0).abs() < 0.01, "π_B {pi_bad}");
        assert!((mean_bad_run - 4.0).abs() < 0.1, "Bad run {mean_bad_run}");
        assert!((mean_good_run - 8.0).abs() < 0.2, "Good run {mean_good_run}");
    }
}
