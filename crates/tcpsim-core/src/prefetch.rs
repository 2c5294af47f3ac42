//! A hint to the processor to start loading what the next event will read.
//!
//! A packet's record is read when it reaches each node, tens or hundreds of milliseconds of
//! simulated time after it was last touched: by then it has left the caches, and the load
//! stalled the run loop for a large share of its time at thousands of flows. The loop knows the
//! next event before it handles the current one, so it asks for that memory one event ahead.

/// Start loading the cache lines of `value` (a no-op off x86-64).
#[inline(always)]
pub fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        const LINE: usize = 64;
        let size = std::mem::size_of::<T>();
        let start = value as *const T as *const i8;
        // Every line the value may span, whatever its offset in the first: the whole lines from
        // its start, then its last byte. Counts known at compile time: no loop or test is left.
        for line in 0..size / LINE {
            // SAFETY: a prefetch is only a hint: it never faults (not even past the end of an
            // object) and never changes memory.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(start.wrapping_add(line * LINE)) };
        }
        // A value aligned to whole lines (a packet's record) has no partial line at its end.
        if std::mem::align_of::<T>() % LINE != 0 || size % LINE != 0 || size == 0 {
            // SAFETY: as above.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(start.wrapping_add(size.max(1) - 1)) };
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}
