//! What the two-state (Good/Bad) channels share: the current state, when it ends, and the lazy
//! advance through every state change up to a packet's time. The models differ only in how
//! long a state lasts (`gilbert_elliott`: exponential sojourns; `deterministic_two_state`:
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
}
