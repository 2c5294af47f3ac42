//! What the two-state (Good/Bad) channels share: the current state, when it ends, and the lazy
//! advance through every state change up to a packet's time. The models differ only in how
//! long a state lasts (`gilbert_elliott`: exponential sojourns; `two_state`:
//! whole numbers of fixed sojourns), which they pass in as `next_duration_ns`.

/// The Good/Bad timeline of a channel.
pub struct Timeline {
    pub bad: bool,
    /// End (exclusive) of the current state, ns; `u64::MAX`: it never ends.
    pub end_ns: u64,
}

impl Timeline {
    /// Whether the channel is Bad at `now_ns` (never decreasing between calls), entering each
    /// new state in turn and asking `next_duration_ns(bad)` how long it lasts.
    #[inline]
    pub fn is_bad_at(&mut self, now_ns: u64, mut next_duration_ns: impl FnMut(bool) -> u64) -> bool {
        while self.end_ns <= now_ns && self.end_ns != u64::MAX {
            self.bad = !self.bad;
            self.end_ns = self.end_ns.saturating_add(next_duration_ns(self.bad));
        }
        self.bad
    }

    /// Whether the channel is Bad at any instant of [start_ns, end_ns] (`start_ns` never
    /// decreasing between calls): Bad at `start_ns`, or a Bad state entered at or before
    /// `end_ns`. Afterwards the timeline stands at `end_ns`.
    #[inline]
    pub fn is_bad_during(&mut self, start_ns: u64, end_ns: u64, mut next_duration_ns: impl FnMut(bool) -> u64) -> bool {
        let mut touched = self.is_bad_at(start_ns, &mut next_duration_ns);
        while self.end_ns <= end_ns && self.end_ns != u64::MAX {
            self.bad = !self.bad;
            self.end_ns = self.end_ns.saturating_add(next_duration_ns(self.bad));
            touched |= self.bad;
        }
        touched
    }
}

#[cfg(test)]
mod tests {
    use super::Timeline;

    #[test]
    fn bad_during_an_interval_counts_a_bad_state_begun_and_ended_inside_it() {
        // Good until 10, then Bad for 1 ns, Good for 100, Bad for 5, ...
        let mut durations = [1u64, 100, 5, 1000].into_iter();
        let mut t = Timeline { bad: false, end_ns: 10 };
        let mut next = |_| durations.next().unwrap();
        assert!(!t.is_bad_during(0, 9, &mut next), "Good throughout [0, 9]");
        assert!(t.is_bad_during(9, 10, &mut next), "a Bad state entered at the interval's end counts");
        assert!(t.bad && t.end_ns == 11, "the 1-ns Bad state lasts until 11");
        assert!(!t.is_bad_during(11, 110, &mut next));
        assert!(t.is_bad_during(110, 200, &mut next), "Bad from 111 to 116, inside the interval");
        assert!(!t.bad && t.end_ns == 1116);
    }
}
