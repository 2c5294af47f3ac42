//! The event queue: a min-heap ordered by (time, event).
//!
//! Events at the same nanosecond run in a fixed order of their own: by kind (transmission
//! ends, then arrivals, timers, applications, trace sampling, the warm-up's end; see
//! [`Event::pack`]), then by the component they name. That order depends on nothing but the
//! events themselves, not on when they were scheduled (ns-3 breaks ties by insertion order
//! instead; with integer time both are arbitrary), so a run is a pure function of its scenario
//! and seed, and a component may run an event of its own later, when it is next touched,
//! without putting it in the heap: [`Scheduler::has_passed`] tells whether that event would
//! have run by now. The links do so for their transmission ends (`net`).
//!
//! Components keep at most one pending wake-up each (a propagation pipe its head, a flow its
//! retransmission and delayed-ACK timers), so the heap stays as small as the number of
//! components, not the number of packets in flight.

/// Everything that can happen. Small and `Copy`; the payload is only component indices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// The packet being serialized on link direction `channel` has been fully transmitted.
    TxEnd { channel: u32 },
    /// The head of `channel`'s propagation pipe, `packet`, reaches the far node (named here so
    /// that the run loop can prefetch it an event ahead).
    PipeHead { channel: u32, packet: u32 },
    /// A flow's retransmission timer (RFC 6298); stale if `generation` moved on.
    Rto { flow: u32, generation: u32 },
    /// A flow's delayed-ACK timer (RFC 5681 §4.2); stale if `generation` moved on.
    DelayedAck { flow: u32, generation: u32 },
    /// A flow's application starts sending, or resumes at the start of an ON interval.
    AppStart { flow: u32 },
    /// A flow's application stops producing new data (its stop time, an ON interval's end).
    AppStop { flow: u32 },
    /// A constant-bit-rate UDP source sends its next datagram.
    UdpSend { flow: u32 },
    /// A web generator's next transfer starts.
    WebArrival { generator: u32 },
    /// Periodic trace sampling.
    TraceSample,
    /// Start of the measurement window: counters are snapshotted.
    WarmupEnd,
}

impl Event {
    /// Pack into 64 bits (kind: 8, id: 24, generation or packet: 32), which with the time is
    /// the event's place in the order: the kind's number is its rank among events of the same
    /// nanosecond. Transmission ends come first (a wire freed at t takes a packet arriving at
    /// t), then arrivals, then timers (an ACK arriving at a retransmission timer's deadline is
    /// taken first), then the applications, and last the trace samples and the warm-up's
    /// snapshot, which so see everything of their instant.
    #[inline]
    fn pack(self) -> u64 {
        let (kind, id, generation) = match self {
            Event::TxEnd { channel } => (0, channel, 0),
            Event::PipeHead { channel, packet } => (1, channel, packet),
            Event::Rto { flow, generation } => (2, flow, generation),
            Event::DelayedAck { flow, generation } => (3, flow, generation),
            Event::AppStart { flow } => (4, flow, 0),
            Event::AppStop { flow } => (5, flow, 0),
            Event::UdpSend { flow } => (6, flow, 0),
            Event::WebArrival { generator } => (7, generator, 0),
            Event::TraceSample => (8, 0, 0),
            Event::WarmupEnd => (9, 0, 0),
        };
        debug_assert!(id < 1 << 24, "component index {id} exceeds 2^24");
        (kind << 56) | ((id as u64) << 32) | generation as u64
    }

    #[inline]
    fn unpack(packed: u64) -> Event {
        let id = ((packed >> 32) & 0xff_ffff) as u32;
        let generation = packed as u32;
        match packed >> 56 {
            0 => Event::TxEnd { channel: id },
            1 => Event::PipeHead { channel: id, packet: generation },
            2 => Event::Rto { flow: id, generation },
            3 => Event::DelayedAck { flow: id, generation },
            4 => Event::AppStart { flow: id },
            5 => Event::AppStop { flow: id },
            6 => Event::UdpSend { flow: id },
            7 => Event::WebArrival { generator: id },
            8 => Event::TraceSample,
            _ => Event::WarmupEnd,
        }
    }

    /// The place of this event at `time_ns` in the order of all events.
    #[inline]
    fn key(self, time_ns: u64) -> u128 {
        ((time_ns as u128) << 64) | self.pack() as u128
    }
}

/// Most components of each kind an event can name (the packed id is 24 bits).
pub const MAX_COMPONENTS: usize = 1 << 24;

/// A pending event: 16 bytes, so four siblings share one or two cache lines.
#[derive(Clone, Copy, Debug)]
struct Entry {
    time_ns: u64,
    event: u64,
}

impl Entry {
    /// (time, event) as one number: one comparison, no branch on ties.
    #[inline]
    fn key(&self) -> u128 {
        ((self.time_ns as u128) << 64) | self.event as u128
    }
}

/// The pending events and the current time: a 4-ary min-heap on (time, event).
/// Four children per node halve the depth of a binary heap and keep siblings in adjacent
/// cache lines, which matters because popping the minimum is the engine's hottest path.
///
/// Popping leaves the root's slot empty (`hole`) rather than filling it at once: most
/// handlers schedule an event, which then takes the root's place and sinks to its own, one
/// pass down the heap instead of a pass down for the pop and one up for the insertion. Only
/// when the next pop finds the hole still open does the last entry fill it.
#[derive(Default)]
pub struct Scheduler {
    heap: Vec<Entry>,
    /// `heap[0]` is the event being handled, already taken: not pending.
    hole: bool,
    now_ns: u64,
    /// The event being handled, with `now_ns`: its place in the order.
    now_key: u128,
    /// Events popped so far.
    pub events: u64,
}

const ARITY: usize = 4;

impl Scheduler {
    /// Current simulated time.
    #[inline]
    pub fn now(&self) -> u64 {
        self.now_ns
    }

    /// Whether `event` at `time_ns` comes before the event being handled now (had it been in
    /// the heap, it would have run already).
    #[inline]
    pub fn has_passed(&self, time_ns: u64, event: Event) -> bool {
        event.key(time_ns) < self.now_key
    }

    /// Schedule `event` at absolute time `time_ns` (never in the past). One scheduled for the
    /// current instant that ranks before the event being handled runs next.
    #[inline]
    pub fn at(&mut self, time_ns: u64, event: Event) {
        debug_assert!(time_ns >= self.now_ns, "event scheduled in the past");
        let entry = Entry { time_ns, event: event.pack() };
        if self.hole {
            // Not earlier than the event just taken: it may take the root's place and sink.
            self.hole = false;
            self.sift_down(entry);
            return;
        }
        self.heap.push(entry);
        let heap = &mut self.heap[..];
        let key = entry.key();
        let mut i = heap.len() - 1;
        while i > 0 {
            let parent = (i - 1) / ARITY;
            // Mostly false at once (a new event is later than most): a branch predicts it well.
            if key >= heap[parent].key() {
                break;
            }
            heap[i] = heap[parent];
            i = parent;
        }
        heap[i] = entry;
    }

    /// Pop the next event at or before `until_ns`, advancing the clock to it.
    #[inline]
    pub fn pop_until(&mut self, until_ns: u64) -> Option<Event> {
        self.fill_hole();
        let top = *self.heap.first()?;
        if top.time_ns > until_ns {
            return None;
        }
        self.hole = true;
        self.now_ns = top.time_ns;
        self.now_key = top.key();
        self.events += 1;
        Some(Event::unpack(top.event))
    }

    /// Close the root's slot left by a pop with the last entry.
    #[inline]
    fn fill_hole(&mut self) {
        if std::mem::take(&mut self.hole) {
            let last = self.heap.pop().expect("the hole is an entry");
            if !self.heap.is_empty() {
                self.sift_down(last);
            }
        }
    }

    /// Put `last` in the root's place and sift it down. A node whose four children all exist
    /// (nearly every node) picks the least of them by a tournament of selects rather than
    /// branches, which the processor could not predict: which child is least is random.
    #[inline]
    fn sift_down(&mut self, last: Entry) {
        let heap = &mut self.heap[..];
        let n = heap.len();
        let key = last.key();
        let mut i = 0;
        loop {
            let first = ARITY * i + 1;
            let best = if first + ARITY <= n {
                let c = &heap[first..first + ARITY];
                let (k0, k1, k2, k3) = (c[0].key(), c[1].key(), c[2].key(), c[3].key());
                let (b01, k01) = if k1 < k0 { (1, k1) } else { (0, k0) };
                let (b23, k23) = if k3 < k2 { (3, k3) } else { (2, k2) };
                let (b, least) = if k23 < k01 { (b23, k23) } else { (b01, k01) };
                if least >= key {
                    break;
                }
                first + b
            } else if first < n {
                // The last parent: its children are leaves.
                let best =
                    (first + 1..n).fold(first, |best, c| if heap[c].key() < heap[best].key() { c } else { best });
                if heap[best].key() < key {
                    heap[i] = heap[best];
                    i = best;
                }
                break;
            } else {
                break;
            };
            heap[i] = heap[best];
            i = best;
        }
        heap[i] = last;
    }

    /// The next event, without taking it (unless the handler of the current one schedules an
    /// earlier one).
    #[inline]
    pub fn peek(&self) -> Option<Event> {
        let pending = if self.hole {
            // The least of the root's children: the least of all but the root.
            let children = &self.heap[1..self.heap.len().min(1 + ARITY)];
            children.iter().min_by_key(|e| e.key())
        } else {
            self.heap.first()
        };
        pending.map(|e| Event::unpack(e.event))
    }

    /// Move the clock to `t` (the end of the run) once no event remains at or before it: every
    /// event up to `t` has then passed.
    pub fn advance_to(&mut self, t: u64) {
        if t >= self.now_ns {
            (self.now_ns, self.now_key) = (t, ((t as u128) << 64) | u64::MAX as u128);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_pop_in_time_order_and_ties_by_kind_then_component() {
        let mut s = Scheduler::default();
        s.at(20, Event::AppStart { flow: 2 });
        s.at(10, Event::AppStart { flow: 1 });
        s.at(10, Event::PipeHead { channel: 5, packet: 0 });
        s.at(10, Event::AppStart { flow: 0 });
        s.at(10, Event::TxEnd { channel: 9 });
        s.at(30, Event::AppStart { flow: 3 });
        let mut order = vec![];
        while let Some(event) = s.pop_until(25) {
            order.push((s.now(), event));
        }
        assert_eq!(
            order,
            vec![
                (10, Event::TxEnd { channel: 9 }),
                (10, Event::PipeHead { channel: 5, packet: 0 }),
                (10, Event::AppStart { flow: 0 }),
                (10, Event::AppStart { flow: 1 }),
                (20, Event::AppStart { flow: 2 }),
            ]
        );
        assert_eq!(s.events, 5);
    }

    #[test]
    fn an_event_never_scheduled_has_passed_once_the_order_has_gone_beyond_it() {
        let mut s = Scheduler::default();
        s.at(10, Event::PipeHead { channel: 3, packet: 0 });
        s.at(10, Event::Rto { flow: 0, generation: 0 });
        assert_eq!(s.pop_until(u64::MAX), Some(Event::PipeHead { channel: 3, packet: 0 }));
        assert!(s.has_passed(9, Event::Rto { flow: 4, generation: 0 }), "earlier time");
        assert!(s.has_passed(10, Event::TxEnd { channel: 7 }), "same time, earlier kind");
        assert!(s.has_passed(10, Event::PipeHead { channel: 2, packet: 9 }), "same kind, lower channel");
        assert!(!s.has_passed(10, Event::PipeHead { channel: 4, packet: 0 }), "same kind, higher channel");
        assert!(!s.has_passed(10, Event::Rto { flow: 0, generation: 0 }), "later kind: still pending");
        assert!(!s.has_passed(11, Event::TxEnd { channel: 0 }));
        s.advance_to(10);
        assert!(s.has_passed(10, Event::WarmupEnd), "at the end every event up to its time has passed");
        assert!(!s.has_passed(11, Event::TxEnd { channel: 0 }));
    }

    #[test]
    fn many_events_come_out_sorted_by_time_then_component_whatever_the_insertion_order() {
        let mut s = Scheduler::default();
        let mut x: u64 = 12345;
        let mut expected = vec![];
        for i in 0..10_000u32 {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let t = (x >> 33) % 500;
            let flow = i.wrapping_mul(7919) % 10_000;
            s.at(t, Event::Rto { flow, generation: flow.wrapping_mul(7) });
            expected.push((t, flow));
        }
        expected.sort();
        let mut got = vec![];
        while let Some(Event::Rto { flow, generation }) = s.pop_until(u64::MAX) {
            assert_eq!(generation, flow.wrapping_mul(7));
            got.push((s.now(), flow));
        }
        assert_eq!(got, expected);
    }

    #[test]
    fn events_scheduled_while_others_are_handled_come_out_in_order_and_peek_names_the_next() {
        // Each handled event schedules 0, 1 or 2 more, some at its own time: the hole left by a
        // pop is filled by an insertion or by the next pop, and the order is (time, event):
        // each new event names a flow higher than any before, so the order only grows.
        let mut s = Scheduler::default();
        let mut x: u64 = 99;
        let mut draw = |n: u64| {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (x >> 33) % n
        };
        let mut scheduled = 0u32;
        for _ in 0..50 {
            s.at(draw(100), Event::AppStart { flow: scheduled });
            scheduled += 1;
        }
        let (mut last, mut handled, mut peeked) = (0, 0, None);
        while let Some(event) = s.pop_until(u64::MAX) {
            assert!(peeked.is_none_or(|p| p == event), "peek named {peeked:?}, then came {event:?}");
            let key = s.now_key;
            assert!(handled == 0 || key > last, "{key:?} after {last:?}");
            (last, handled) = (key, handled + 1);
            if scheduled < 5_000 {
                for _ in 0..draw(3) {
                    s.at(s.now() + draw(50), Event::AppStart { flow: scheduled });
                    scheduled += 1;
                }
            }
            peeked = s.peek();
        }
        assert_eq!(handled, scheduled);
    }

    #[test]
    fn every_event_kind_survives_packing() {
        let all = [
            Event::TxEnd { channel: 5 },
            Event::PipeHead { channel: (1 << 24) - 1, packet: u32::MAX },
            Event::Rto { flow: 3, generation: u32::MAX },
            Event::DelayedAck { flow: 9, generation: 1 },
            Event::AppStart { flow: 1 },
            Event::AppStop { flow: 2 },
            Event::UdpSend { flow: 4 },
            Event::TraceSample,
            Event::WarmupEnd,
            Event::WebArrival { generator: (1 << 24) - 1 },
        ];
        for e in all {
            assert_eq!(Event::unpack(e.pack()), e);
        }
    }
}
