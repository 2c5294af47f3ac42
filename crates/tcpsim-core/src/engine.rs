//! The event queue: a binary min-heap ordered by (time, insertion sequence).
//!
//! Ties break by insertion order, so a run is a pure function of its scenario and seed.
//! Components keep at most one pending wake-up each (a link its next transmission end, a
//! propagation pipe its head, a flow its retransmission and delayed-ACK timers), so the heap
//! stays as small as the number of components, not the number of packets in flight.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// Everything that can happen. Small and `Copy`; the payload is only component indices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// The packet being serialized on link direction `channel` has been fully transmitted.
    TxEnd { channel: u32 },
    /// The head of `channel`'s propagation pipe reaches the far node.
    PipeHead { channel: u32 },
    /// A flow's retransmission timer (RFC 6298); stale if `generation` moved on.
    Rto { flow: u32, generation: u32 },
    /// A flow's delayed-ACK timer (RFC 5681 §4.2); stale if `generation` moved on.
    DelayedAck { flow: u32, generation: u32 },
    /// A flow's application starts sending.
    AppStart { flow: u32 },
    /// A flow's application stops producing new data.
    AppStop { flow: u32 },
    /// Periodic trace sampling.
    TraceSample,
    /// Start of the measurement window: counters are snapshotted.
    WarmupEnd,
}

#[derive(Clone, Copy, Debug)]
struct Scheduled {
    time_ns: u64,
    seq: u64,
    event: Event,
}

impl PartialEq for Scheduled {
    fn eq(&self, other: &Self) -> bool {
        self.time_ns == other.time_ns && self.seq == other.seq
    }
}
impl Eq for Scheduled {}
impl PartialOrd for Scheduled {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Scheduled {
    /// Reversed so that `BinaryHeap` (a max-heap) pops the earliest event first.
    fn cmp(&self, other: &Self) -> Ordering {
        (other.time_ns, other.seq).cmp(&(self.time_ns, self.seq))
    }
}

/// The pending events and the current time.
#[derive(Default)]
pub struct Scheduler {
    heap: BinaryHeap<Scheduled>,
    next_seq: u64,
    now_ns: u64,
    /// Events popped so far.
    pub events: u64,
}

impl Scheduler {
    /// Current simulated time.
    #[inline]
    pub fn now(&self) -> u64 {
        self.now_ns
    }

    /// Schedule `event` at absolute time `time_ns` (never in the past).
    #[inline]
    pub fn at(&mut self, time_ns: u64, event: Event) {
        debug_assert!(time_ns >= self.now_ns, "event scheduled in the past");
        self.heap.push(Scheduled { time_ns, seq: self.next_seq, event });
        self.next_seq += 1;
    }

    /// Pop the next event at or before `until_ns`, advancing the clock to it.
    #[inline]
    pub fn pop_until(&mut self, until_ns: u64) -> Option<Event> {
        match self.heap.peek() {
            Some(s) if s.time_ns <= until_ns => {
                let s = self.heap.pop().expect("peeked");
                self.now_ns = s.time_ns;
                self.events += 1;
                Some(s.event)
            }
            _ => None,
        }
    }

    /// Move the clock to `t` (the end of the run) once no event remains before it.
    pub fn advance_to(&mut self, t: u64) {
        self.now_ns = self.now_ns.max(t);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_pop_in_time_order_and_ties_in_insertion_order() {
        let mut s = Scheduler::default();
        s.at(20, Event::AppStart { flow: 2 });
        s.at(10, Event::AppStart { flow: 0 });
        s.at(10, Event::AppStart { flow: 1 });
        s.at(30, Event::AppStart { flow: 3 });
        let mut order = vec![];
        while let Some(Event::AppStart { flow }) = s.pop_until(25) {
            order.push((s.now(), flow));
        }
        assert_eq!(order, vec![(10, 0), (10, 1), (20, 2)]);
        assert_eq!(s.events, 3);
    }
}
