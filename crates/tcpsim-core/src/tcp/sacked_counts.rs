//! Counts of SACKed segments for the RFC 6675 scoreboard: a Fenwick tree (Fenwick 1994) of one
//! 0/1 per segment, indexed by absolute segment number (`seq / SMSS`) from a base that moves
//! forward when the tree is rebuilt. SetPipe(), IsLost() and NextSeg() ask how many segments in
//! a range are SACKed, where the k-th SACKed segment is and where the next un-SACKed one is.
//! Each answer costs O(log n). Before, each was a pass over every outstanding segment, once per
//! ACK or per segment sent, so a recovery from 10^5 lost segments took minutes.
//!
//! The tree is built on the first SACK block, so flows without SACK never pay for it. It is
//! rebuilt (allocating only when it grows) when a segment is sent beyond its capacity. The new
//! capacity is twice the segments outstanding, so a rebuild happens at most once per that many
//! segments sent.

const MIN_CAPACITY: usize = 64;

#[derive(Default)]
pub struct SackedCounts {
    /// Absolute segment number of slot 0.
    base: u64,
    /// The Fenwick tree, 1-based: `tree[i]` counts the SACKed slots in (i − lowbit(i), i].
    /// Empty until the first SACK block.
    tree: Vec<u32>,
    /// SACKed segments outstanding.
    total: u64,
}

impl SackedCounts {
    /// Whether the tree exists (a SACK block has been seen).
    pub fn is_built(&self) -> bool {
        !self.tree.is_empty()
    }

    pub fn total(&self) -> u64 {
        self.total
    }

    fn capacity(&self) -> usize {
        self.tree.len().saturating_sub(1)
    }

    /// Whether absolute segment `abs` has a slot.
    pub fn covers(&self, abs: u64) -> bool {
        abs >= self.base && abs - self.base < self.capacity() as u64
    }

    /// Rebuild from the outstanding segments' flags, the first being absolute segment `first`,
    /// with room for at least `needed` segments from `first`.
    pub fn rebuild(&mut self, first: u64, needed: usize, sacked: impl Iterator<Item = bool>) {
        let capacity = (2 * needed).next_power_of_two().max(MIN_CAPACITY);
        self.base = first;
        self.tree.clear();
        self.tree.resize(capacity + 1, 0);
        self.total = 0;
        for (slot, flag) in sacked.enumerate() {
            self.tree[slot + 1] = flag as u32;
            self.total += flag as u64;
        }
        // Linear-time construction: push each node's count into its parent.
        for i in 1..=capacity {
            let parent = i + (i & i.wrapping_neg());
            if parent <= capacity {
                self.tree[parent] += self.tree[i];
            }
        }
    }

    /// Add `delta` (±1) at absolute segment `abs`, which must have a slot.
    pub fn add(&mut self, abs: u64, delta: i32) {
        debug_assert!(self.covers(abs), "segment {abs} outside [{}, +{})", self.base, self.capacity());
        self.total = self.total.wrapping_add_signed(delta as i64);
        let mut i = (abs - self.base) as usize + 1;
        while i < self.tree.len() {
            self.tree[i] = self.tree[i].wrapping_add_signed(delta);
            i += i & i.wrapping_neg();
        }
    }

    /// SACKed segments with absolute number below `abs` (from the base on).
    fn below(&self, abs: u64) -> u64 {
        if !self.is_built() || abs <= self.base {
            return 0;
        }
        let mut i = ((abs - self.base) as usize).min(self.capacity());
        let mut sum = 0u64;
        while i > 0 {
            sum += self.tree[i] as u64;
            i &= i - 1;
        }
        sum
    }

    /// SACKed segments with absolute numbers in [from, to).
    pub fn in_range(&self, from: u64, to: u64) -> u64 {
        if to <= from {
            return 0;
        }
        self.below(to) - self.below(from)
    }

    /// Absolute number of the k-th SACKed segment counted from the lowest (1 ≤ k ≤ total).
    pub fn kth(&self, k: u64) -> u64 {
        debug_assert!(k >= 1 && k <= self.total);
        self.descend(k, |_, count| count)
    }

    /// Absolute number of the lowest un-SACKed segment at or above `from` (which may lie
    /// beyond the segments sent: the caller bounds it).
    pub fn first_unsacked_from(&self, from: u64) -> u64 {
        if !self.is_built() || from < self.base || from - self.base >= self.capacity() as u64 {
            return from;
        }
        // The (u + 1)-th un-SACKed slot, u the un-SACKed slots below `from`; past the tree's
        // end if every slot from `from` on is SACKed.
        let before = (from - self.base) - self.below(from);
        self.descend(before + 1, |size, count| size - count)
    }

    /// Fenwick descent: the absolute number of the slot where the running sum of
    /// `value(node size, node count)` first reaches `k`; the tree's end if it never does.
    fn descend(&self, mut k: u64, value: impl Fn(u64, u64) -> u64) -> u64 {
        let capacity = self.capacity();
        let mut pos = 0usize;
        let mut step = capacity; // a power of two
        while step > 0 {
            let next = pos + step;
            if next <= capacity {
                let v = value(step as u64, self.tree[next] as u64);
                if v < k {
                    pos = next;
                    k -= v;
                }
            }
            step /= 2;
        }
        self.base + pos as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn built(flags: &[bool], base: u64) -> SackedCounts {
        let mut c = SackedCounts::default();
        c.rebuild(base, flags.len(), flags.iter().copied());
        c
    }

    #[test]
    fn counts_kth_and_next_unsacked_agree_with_a_plain_pass() {
        // A fixed pseudo-random pattern over 300 segments from absolute number 1000.
        let flags: Vec<bool> = (0..300u64).map(|i| (i * 7919 + 13) % 5 < 2).collect();
        let c = built(&flags, 1000);
        let plain_below = |a: usize| flags[..a].iter().filter(|&&f| f).count() as u64;
        for a in 0..=flags.len() {
            assert_eq!(c.in_range(1000, 1000 + a as u64), plain_below(a), "below {a}");
        }
        let positions: Vec<u64> = (0..flags.len()).filter(|&i| flags[i]).map(|i| 1000 + i as u64).collect();
        for (k, &p) in positions.iter().enumerate() {
            assert_eq!(c.kth(k as u64 + 1), p, "k = {}", k + 1);
        }
        for from in 0..flags.len() {
            let plain = (from..flags.len()).find(|&i| !flags[i]).map_or(1000 + flags.len() as u64, |i| 1000 + i as u64);
            let got = c.first_unsacked_from(1000 + from as u64);
            // beyond the flags the tree's slots are un-SACKed: the first is len
            assert_eq!(got.min(1000 + flags.len() as u64), plain, "from {from}");
        }
    }

    #[test]
    fn adding_and_removing_keeps_the_counts() {
        let mut c = built(&[false; 10], 50);
        c.add(53, 1);
        c.add(57, 1);
        assert_eq!((c.total(), c.in_range(50, 55), c.kth(2)), (2, 1, 57));
        c.add(53, -1);
        assert_eq!((c.total(), c.kth(1), c.first_unsacked_from(57)), (1, 57, 58));
    }

    #[test]
    fn an_all_sacked_tail_sends_the_search_past_the_tree() {
        let c = built(&[true; 64], 0);
        assert_eq!(c.capacity(), 128);
        assert_eq!(c.first_unsacked_from(10), 64);
        let mut full = SackedCounts::default();
        full.rebuild(0, 32, [true; 64].into_iter());
        assert_eq!((full.capacity(), full.first_unsacked_from(3)), (64, 64));
    }
}
