//! The event queue: a min-heap ordered by (time, event).
//!
//! Events at the same nanosecond run in a fixed order of their own: by kind (transmission
//! ends, then arrivals, timers, applications, trace sampling, the warm-up's end; see
//! [`Event::pack`]), then among the components they name by a rank that changes with the time
//! ([`tie_rank`]: no link or flow wins every tie). That order depends on nothing but the
//! events themselves, not on when they were scheduled (ns-2 and ns-3 break ties by insertion
//! order instead; with integer time both are arbitrary), so a run is a pure function of its
//! scenario and seed, and a component may run an event of its own later, when it is next touched,
//! without putting it in the heap: [`Scheduler::has_passed`] tells whether that event would
//! have run by now. The links do so for their transmission ends (`net`).
//!
//! Components keep at most one pending wake-up each (a propagation pipe its head, a flow its
//! retransmission, delayed-ACK and pacing timers), so the heap stays as small as the number of
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
    /// A flow's pacing timer: its next segment may leave (Linux `tcp_internal_pacing`);
    /// stale if `generation` moved on.
    Pace { flow: u32, generation: u32 },
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
    /// Pack into 64 bits (kind: 8, the component's rank at `time_ns`: 24, generation or packet:
    /// 32), which with the time is the event's place in the order: the kind's number is its rank
    /// among events of the same nanosecond, then the component's [`tie_rank`]. Transmission ends come first (a wire freed at t takes a packet arriving at
    /// t), then arrivals, then timers (an ACK arriving at a retransmission timer's deadline is
    /// taken first; the pacing timer after the other two), then the applications, and last the trace samples and the warm-up's
    /// snapshot, which so see everything of their instant.
    #[inline]
    fn pack(self, time_ns: u64) -> u64 {
        let (kind, id, generation) = match self {
            Event::TxEnd { channel } => (0, channel, 0),
            Event::PipeHead { channel, packet } => (1, channel, packet),
            Event::Rto { flow, generation } => (2, flow, generation),
            Event::DelayedAck { flow, generation } => (3, flow, generation),
            Event::Pace { flow, generation } => (4, flow, generation),
            Event::AppStart { flow } => (5, flow, 0),
            Event::AppStop { flow } => (6, flow, 0),
            Event::UdpSend { flow } => (7, flow, 0),
            Event::WebArrival { generator } => (8, generator, 0),
            Event::TraceSample => (9, 0, 0),
            Event::WarmupEnd => (10, 0, 0),
        };
        debug_assert!(id < 1 << 24, "component index {id} exceeds 2^24");
        (kind << 56) | ((tie_rank(id, time_ns) as u64) << 32) | generation as u64
    }

    #[inline]
    fn unpack(packed: u64, time_ns: u64) -> Event {
        let id = tie_component(((packed >> 32) & 0xff_ffff) as u32, time_ns);
        let generation = packed as u32;
        match packed >> 56 {
            0 => Event::TxEnd { channel: id },
            1 => Event::PipeHead { channel: id, packet: generation },
            2 => Event::Rto { flow: id, generation },
            3 => Event::DelayedAck { flow: id, generation },
            4 => Event::Pace { flow: id, generation },
            5 => Event::AppStart { flow: id },
            6 => Event::AppStop { flow: id },
            7 => Event::UdpSend { flow: id },
            8 => Event::WebArrival { generator: id },
            9 => Event::TraceSample,
            _ => Event::WarmupEnd,
        }
    }

    /// The place of this event at `time_ns` in the order of all events.
    #[inline]
    fn key(self, time_ns: u64) -> u128 {
        ((time_ns as u128) << 64) | self.pack(time_ns) as u128
    }
}

/// Ties between components: events of one kind at the same nanosecond run in the order of
/// their component's *rank*, a bijection of the 24-bit index that a hash of the time selects.
/// Ordering them by index instead served the lowest-numbered link or flow first at every tie,
/// and with integer time on symmetric networks ties recur at every packet: an output queue
/// with one free place at a simultaneous arrival from three workers always took worker 0's
/// packet, so its drops all fell on the others (the incast twin of ns-3.44). ns-2 and ns-3 run
/// ties in the order the events were scheduled, which follows the run's history and favours
/// no index either. The rank is a pure function of (component, time), so a run stays a pure
/// function of its scenario and seed, and it needs no memory per event.
const ID_MASK: u32 = (1 << 24) - 1;
/// Odd multipliers (invertible modulo 2^24) of the rank's mixing.
const MIX_1: u32 = 0x9e_3779;
const MIX_2: u32 = 0x85_ebcb;
const MIX_1_INVERSE: u32 = inverse_mod_2_24(MIX_1);
const MIX_2_INVERSE: u32 = inverse_mod_2_24(MIX_2);

/// The inverse of odd `k` modulo 2^24: Newton's iteration x ← x(2 − kx) doubles the correct
/// low bits, from 3 (x = k) to 48 in four steps.
const fn inverse_mod_2_24(k: u32) -> u32 {
    let mut x = k;
    let mut step = 0;
    while step < 4 {
        x = x.wrapping_mul(2u32.wrapping_sub(k.wrapping_mul(x)));
        step += 1;
    }
    x & ID_MASK
}

/// 24 bits of SplitMix64's finalizer of the time: which bijection ranks the ties at `time_ns`.
#[inline]
fn time_salt(time_ns: u64) -> u32 {
    let mut z = time_ns.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (z ^ (z >> 31)) as u32 & ID_MASK
}

/// Component `id`'s rank among the events of its kind at `time_ns` (see [`ID_MASK`]): xor with
/// the time's salt, multiply, xor-shift, multiply, each invertible on 24 bits.
#[inline]
fn tie_rank(id: u32, time_ns: u64) -> u32 {
    let mut x = (id ^ time_salt(time_ns)).wrapping_mul(MIX_1) & ID_MASK;
    x ^= x >> 12;
    x.wrapping_mul(MIX_2) & ID_MASK
}

/// The component whose rank at `time_ns` is `rank`: [`tie_rank`] undone step by step.
#[inline]
fn tie_component(rank: u32, time_ns: u64) -> u32 {
    let mut x = rank.wrapping_mul(MIX_2_INVERSE) & ID_MASK;
    x ^= x >> 12;
    (x.wrapping_mul(MIX_1_INVERSE) & ID_MASK) ^ time_salt(time_ns)
}

/// Most components of each kind an event can name (the packed id is 24 bits).
pub const MAX_COMPONENTS: usize = 1 << 24;

/// A pending event: 16 bytes.
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

/// log2 of a wheel slot's width in ns when a run starts (16.4 µs); the wheel then adapts it
/// ([`Scheduler::adapt_slot_width`]).
const INITIAL_SLOT_SHIFT: u32 = 14;
/// The narrowest slot (64 ns) and the widest (the initial width: wider slots made sparse
/// networks no faster, and the dumbbells and podlesny_1g 5–10 % slower, as the current slot's
/// heap took more of their events).
const MIN_SLOT_SHIFT: u32 = 6;
const MAX_SLOT_SHIFT: u32 = INITIAL_SLOT_SHIFT;
/// Slots in the wheel (a power of two): 268 ms ahead at the initial width; later events wait
/// in `later`.
const SLOTS: usize = 1 << 14;
/// The width is reconsidered after this many slots have been reached, or as many times
/// `DENSE_SLOT_EVENTS` events run (so that a crowded start adapts quickly) ...
const ADAPT_EVERY_SLOTS: u64 = 256;
/// ... and halved if they held more events than this on average (the events of a slot are
/// sorted, or go through the current slot's heap, so a crowded slot costs a deep heap and
/// a sort that spills out of the first-level cache: a k = 8 fat tree runs about 400 events
/// per microsecond) ...
const DENSE_SLOT_EVENTS: u64 = 128;
/// ... or doubled, up to the initial width, if they held fewer than this (a narrow wheel
/// scans many empty slots, and spans less than a propagation delay, so that events pass
/// through `later` first).
const SPARSE_SLOT_EVENTS: u64 = 8;
/// End of a slot's list.
const NIL: u32 = u32::MAX;

/// The pending events and the current time, in three tiers by how far ahead they are:
/// `near`, those before `near_end` (the current slot's, sorted); a timing wheel of `SLOTS`
/// slots of 2^`slot_shift` ns holding, unsorted, those of the next `SLOTS` slot widths (one
/// slot each interval); and `later`, a heap of the rest. Scheduling into the wheel is a
/// constant-time push onto its slot's list; the events of a slot are sorted only when time
/// reaches it, a few entries at a time. The order is exactly (time, event) whatever the tier, so any
/// correct priority queue would run the same events in the same order.
pub struct Scheduler {
    near: Near,
    /// Every event before this time is in `near`; it is the end of a slot.
    near_end: u64,
    /// Each slot's list head, into `nodes`.
    slot_head: Vec<u32>,
    /// A bit per slot holding events, to skip empty ones.
    occupied: Vec<u64>,
    /// Events in the wheel.
    in_wheel: usize,
    /// The wheel's events and their list links; `free` chains the unused nodes.
    nodes: Vec<Node>,
    free: u32,
    later: Heap,
    /// log2 of a slot's width in ns.
    slot_shift: u32,
    /// Slots reached, and the events popped before the first of them, since the width was
    /// last reconsidered.
    slots_reached: u64,
    events_at_adapt: u64,
    /// The wheel's events while its slots are re-cut (kept to reuse its memory).
    resize_scratch: Vec<Entry>,
    now_ns: u64,
    /// The event being handled, with `now_ns`: its place in the order.
    now_key: u128,
    /// Events popped so far.
    pub events: u64,
    /// The entry [`Scheduler::peek`] last unpacked, and its event: popped next, it is not
    /// unpacked again (each unpacking hashes the time).
    peeked: (Entry, Event),
    /// Whether the peeked entry is still the least pending, and where (`Some(true)`: the
    /// end of the current slot's sorted run; `Some(false)`: the top of its heap). Only an
    /// event scheduled into the current slot before it can displace it (`insert`); while it
    /// holds, the next pop takes it without looking for the least again.
    peeked_at: Option<bool>,
}

#[derive(Clone, Copy)]
struct Node {
    entry: Entry,
    next: u32,
}

impl Default for Scheduler {
    fn default() -> Self {
        Scheduler {
            near: Near::default(),
            near_end: 1 << INITIAL_SLOT_SHIFT,
            slot_head: vec![NIL; SLOTS],
            occupied: vec![0; SLOTS / 64],
            in_wheel: 0,
            nodes: Vec::new(),
            free: NIL,
            later: Heap::default(),
            slot_shift: INITIAL_SLOT_SHIFT,
            slots_reached: 0,
            events_at_adapt: 0,
            resize_scratch: Vec::new(),
            now_ns: 0,
            now_key: 0,
            events: 0,
            peeked: (Entry { time_ns: u64::MAX, event: u64::MAX }, Event::WarmupEnd),
            peeked_at: None,
        }
    }
}

impl Scheduler {
    /// Current simulated time.
    #[inline]
    pub fn now(&self) -> u64 {
        self.now_ns
    }

    /// Whether `event` at `time_ns` comes before the event being handled now (had it been in
    /// the queue, it would have run already). The event's rank is worked out only for a tie
    /// with the present: a link asks this at every packet it takes.
    #[inline]
    pub fn has_passed(&self, time_ns: u64, event: Event) -> bool {
        if time_ns != self.now_ns {
            return time_ns < self.now_ns;
        }
        event.key(time_ns) < self.now_key
    }

    /// Schedule `event` at absolute time `time_ns` (never in the past). One scheduled for the
    /// current instant that ranks before the event being handled runs next.
    #[inline]
    pub fn at(&mut self, time_ns: u64, event: Event) {
        debug_assert!(time_ns >= self.now_ns, "event scheduled in the past");
        self.insert(Entry { time_ns, event: event.pack(time_ns) });
    }

    #[inline]
    fn insert(&mut self, entry: Entry) {
        if entry.time_ns < self.near_end {
            if self.peeked_at.is_some() && entry.key() < self.peeked.0.key() {
                self.peeked_at = None;
            }
            self.near.push(entry);
        } else if entry.time_ns - self.near_end < self.wheel_ns() {
            self.push_to_wheel(entry);
        } else {
            self.later.push(entry);
        }
    }

    #[inline]
    fn push_to_wheel(&mut self, entry: Entry) {
        let slot = (entry.time_ns >> self.slot_shift) as usize & (SLOTS - 1);
        let next = self.slot_head[slot];
        let node = Node { entry, next };
        let i = if self.free != NIL {
            let i = self.free;
            self.free = self.nodes[i as usize].next;
            self.nodes[i as usize] = node;
            i
        } else {
            self.nodes.push(node);
            (self.nodes.len() - 1) as u32
        };
        self.slot_head[slot] = i;
        self.occupied[slot / 64] |= 1 << (slot % 64);
        self.in_wheel += 1;
    }

    /// Pop the next event at or before `until_ns`, advancing the clock to it.
    #[inline]
    pub fn pop_until(&mut self, until_ns: u64) -> Option<Event> {
        if let Some(from_run) = self.peeked_at {
            let (top, event) = self.peeked;
            if top.time_ns > until_ns {
                return None;
            }
            self.peeked_at = None;
            self.near.remove(from_run);
            self.now_ns = top.time_ns;
            self.now_key = top.key();
            self.events += 1;
            return Some(event);
        }
        if self.near.is_empty() && !self.refill() {
            return None;
        }
        let (top, from_run) = self.near.least().expect("refilled");
        if top.time_ns > until_ns {
            return None;
        }
        self.near.remove(from_run);
        self.now_ns = top.time_ns;
        self.now_key = top.key();
        self.events += 1;
        let (peeked, event) = self.peeked;
        if (peeked.time_ns, peeked.event) == (top.time_ns, top.event) {
            return Some(event);
        }
        Some(Event::unpack(top.event, top.time_ns))
    }

    /// `near` is empty: move the next occupied slot's events into it, bringing events of
    /// `later` into the wheel as it turns. False if no event is pending.
    #[cold]
    fn refill(&mut self) -> bool {
        self.adapt_slot_width();
        loop {
            if self.in_wheel == 0 {
                let Some(first) = self.later.peek() else { return false };
                // Nothing before `later`'s first event: start the wheel at its slot.
                self.near_end = self.near_end.max(first.time_ns & !(self.slot_ns() - 1));
                self.bring_later_into_wheel();
            }
            let slot = self.next_occupied_slot((self.near_end >> self.slot_shift) as usize & (SLOTS - 1));
            let ahead = (slot.wrapping_sub((self.near_end >> self.slot_shift) as usize)) & (SLOTS - 1);
            self.near_end += (ahead as u64 + 1) * self.slot_ns();
            self.occupied[slot / 64] &= !(1 << (slot % 64));
            let mut i = std::mem::replace(&mut self.slot_head[slot], NIL);
            while i != NIL {
                let node = self.nodes[i as usize];
                self.near.run.push(node.entry);
                self.nodes[i as usize].next = self.free;
                self.free = i;
                self.in_wheel -= 1;
                i = node.next;
            }
            self.near.sort_run(self.near_end - self.slot_ns(), self.slot_shift);
            self.bring_later_into_wheel();
            if !self.near.is_empty() {
                return true;
            }
        }
    }

    /// Move the events of `later` that the wheel now spans into it.
    #[inline]
    fn bring_later_into_wheel(&mut self) {
        while let Some(first) = self.later.peek() {
            if first.time_ns - self.near_end >= self.wheel_ns() {
                break;
            }
            self.later.pop();
            self.push_to_wheel(first);
        }
    }

    #[inline]
    fn slot_ns(&self) -> u64 {
        1 << self.slot_shift
    }

    /// How far ahead the wheel reaches from `near_end`.
    #[inline]
    fn wheel_ns(&self) -> u64 {
        (SLOTS as u64) << self.slot_shift
    }

    /// Fit the slots' width to the run's density of events, which a scenario does not tell
    /// beforehand (a 10 µs fat tree runs a thousand times more events per millisecond than a
    /// 2 Mb/s satellite path): every [`ADAPT_EVERY_SLOTS`] slots reached (or sooner if they
    /// are crowded), halve the width if they were crowded, double it if nearly empty. Called when `near` is empty. Which tier
    /// holds an event never changes its place in the order, so the width changes the speed
    /// only, never a result.
    fn adapt_slot_width(&mut self) {
        self.slots_reached += 1;
        let events = self.events - self.events_at_adapt;
        if self.slots_reached < ADAPT_EVERY_SLOTS && events < ADAPT_EVERY_SLOTS * DENSE_SLOT_EVENTS {
            return;
        }
        let per_slot = events / self.slots_reached;
        (self.slots_reached, self.events_at_adapt) = (0, self.events);
        if per_slot > DENSE_SLOT_EVENTS && self.slot_shift > MIN_SLOT_SHIFT {
            self.resize_slots(self.slot_shift - 1);
        } else if per_slot < SPARSE_SLOT_EVENTS && self.slot_shift < MAX_SLOT_SHIFT {
            self.resize_slots(self.slot_shift + 1);
        }
    }

    /// Re-cut the wheel into slots of 2^`shift` ns: take its events out, align `near_end`
    /// down to the new width (nothing is pending before it: `near` is empty), and schedule
    /// them again, with those of `later` the wheel now spans.
    #[cold]
    fn resize_slots(&mut self, shift: u32) {
        let mut entries = std::mem::take(&mut self.resize_scratch);
        for word in 0..SLOTS / 64 {
            let mut bits = std::mem::replace(&mut self.occupied[word], 0);
            while bits != 0 {
                let slot = word * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let mut i = std::mem::replace(&mut self.slot_head[slot], NIL);
                while i != NIL {
                    let node = self.nodes[i as usize];
                    entries.push(node.entry);
                    self.nodes[i as usize].next = self.free;
                    self.free = i;
                    i = node.next;
                }
            }
        }
        self.in_wheel = 0;
        self.slot_shift = shift;
        self.near_end &= !(self.slot_ns() - 1);
        for entry in entries.drain(..) {
            self.insert(entry);
        }
        self.resize_scratch = entries;
        self.bring_later_into_wheel();
    }

    /// The first slot holding events at or after `from`, wrapping around (one exists).
    #[inline]
    fn next_occupied_slot(&self, from: usize) -> usize {
        let words = SLOTS / 64;
        let (mut w, first_bits) = (from / 64, self.occupied[from / 64] & (!0u64 << (from % 64)));
        if first_bits != 0 {
            return w * 64 + first_bits.trailing_zeros() as usize;
        }
        loop {
            w = (w + 1) % words;
            if self.occupied[w] != 0 {
                return w * 64 + self.occupied[w].trailing_zeros() as usize;
            }
        }
    }

    /// The next event, if it is in the current slot (a hint for prefetching).
    #[inline]
    pub fn peek(&mut self) -> Option<Event> {
        let Some((next, from_run)) = self.near.least() else {
            self.peeked_at = None;
            return None;
        };
        let event = Event::unpack(next.event, next.time_ns);
        (self.peeked, self.peeked_at) = ((next, event), Some(from_run));
        Some(event)
    }

    /// Move the clock to `t` (the end of the run) once no event remains at or before it: every
    /// event up to `t` has then passed.
    pub fn advance_to(&mut self, t: u64) {
        if t >= self.now_ns {
            (self.now_ns, self.now_key) = (t, ((t as u128) << 64) | u64::MAX as u128);
        }
    }
}

/// The current slot's events: those it held when time reached it, sorted once (latest first,
/// so that the next is popped off the end), and a heap of those scheduled into it since (few:
/// only delays shorter than a slot land there).
#[derive(Default)]
struct Near {
    run: Vec<Entry>,
    since: Heap,
    /// A counting sort's counts per interval and its output (kept to reuse their memory).
    counts: Vec<u32>,
    sorted: Vec<Entry>,
}

/// A slot at most 2^`COUNTING_SORT_MAX_SHIFT` ns wide holding from `COUNTING_SORT_MIN` to
/// `COUNTING_SORT_MAX` events is sorted by counting its events into 2^`COUNTING_SORT_BUCKETS_LOG2`
/// equal intervals of time, then ordering the few that share one by insertion. A dense
/// network's slots hold about a hundred events at mostly distinct times, which a comparison
/// sort orders in some 700 unpredictable comparisons of 128-bit keys: the k = 8 fat tree runs
/// 7 % more events per second. Wider slots (sparser networks', which rarely reach 32 events a
/// slot) keep the comparison sort, as measured. The order is the same either way.
const COUNTING_SORT_BUCKETS_LOG2: u32 = 7;
const COUNTING_SORT_MIN: usize = 32;
const COUNTING_SORT_MAX: usize = 4 << COUNTING_SORT_BUCKETS_LOG2;
const COUNTING_SORT_MAX_SHIFT: u32 = 10;

impl Near {
    #[inline]
    fn is_empty(&self) -> bool {
        self.run.is_empty() && self.since.is_empty()
    }

    /// Sort `run`, the events of the slot of 2^`slot_shift` ns starting at `slot_start`,
    /// latest first.
    #[inline]
    fn sort_run(&mut self, slot_start: u64, slot_shift: u32) {
        if slot_shift > COUNTING_SORT_MAX_SHIFT || !(COUNTING_SORT_MIN..=COUNTING_SORT_MAX).contains(&self.run.len()) {
            self.run.sort_unstable_by_key(|e| std::cmp::Reverse(e.key()));
            return;
        }
        // Bucket b holds the events of the b-th interval from the slot's end (latest first);
        // counts[b] becomes where bucket b starts, then where the next of its events goes.
        let interval_shift = slot_shift.saturating_sub(COUNTING_SORT_BUCKETS_LOG2);
        let last = (1usize << (slot_shift - interval_shift)) - 1;
        let bucket = |e: &Entry| {
            debug_assert!(
                e.time_ns >= slot_start && (e.time_ns - slot_start) >> slot_shift == 0,
                "event outside its slot"
            );
            last - ((e.time_ns - slot_start) >> interval_shift) as usize
        };
        self.counts.clear();
        self.counts.resize(last + 1, 0);
        for e in &self.run {
            self.counts[bucket(e)] += 1;
        }
        let mut start = 0;
        for count in self.counts.iter_mut() {
            (*count, start) = (start, start + *count);
        }
        self.sorted.clear();
        self.sorted.resize(self.run.len(), Entry { time_ns: 0, event: 0 });
        for e in &self.run {
            let at = &mut self.counts[bucket(e)];
            self.sorted[*at as usize] = *e;
            *at += 1;
        }
        // Events of the same interval, adjacent now, in their order: an insertion sort moves
        // only those.
        for i in 1..self.sorted.len() {
            let e = self.sorted[i];
            let mut j = i;
            while j > 0 && self.sorted[j - 1].key() < e.key() {
                self.sorted[j] = self.sorted[j - 1];
                j -= 1;
            }
            self.sorted[j] = e;
        }
        std::mem::swap(&mut self.run, &mut self.sorted);
    }

    #[inline]
    fn push(&mut self, entry: Entry) {
        self.since.push(entry);
    }

    /// The least entry, and whether it is the run's.
    #[inline]
    fn least(&self) -> Option<(Entry, bool)> {
        match (self.run.last(), self.since.peek()) {
            (Some(&r), Some(s)) => Some(if r.key() <= s.key() { (r, true) } else { (s, false) }),
            (Some(&r), None) => Some((r, true)),
            (None, Some(s)) => Some((s, false)),
            (None, None) => None,
        }
    }

    /// Remove the least entry, which [`Near::least`] found in the run (`from_run`) or in the heap.
    #[inline]
    fn remove(&mut self, from_run: bool) {
        if from_run {
            self.run.pop();
        } else {
            self.since.pop();
        }
    }
}

/// A 4-ary min-heap of entries by key. Four children per node halve the depth of a binary
/// heap and keep siblings in adjacent cache lines.
#[derive(Default)]
struct Heap {
    v: Vec<Entry>,
}

const ARITY: usize = 4;

impl Heap {
    #[inline]
    fn is_empty(&self) -> bool {
        self.v.is_empty()
    }

    #[inline]
    fn peek(&self) -> Option<Entry> {
        self.v.first().copied()
    }

    #[inline]
    fn push(&mut self, entry: Entry) {
        self.v.push(entry);
        let heap = &mut self.v[..];
        let key = entry.key();
        let mut i = heap.len() - 1;
        while i > 0 {
            let parent = (i - 1) / ARITY;
            if key >= heap[parent].key() {
                break;
            }
            heap[i] = heap[parent];
            i = parent;
        }
        heap[i] = entry;
    }

    /// Remove the least entry (the heap is not empty).
    #[inline]
    fn pop(&mut self) {
        let last = self.v.pop().expect("pop from an empty heap");
        if !self.v.is_empty() {
            self.sift_down(last);
        }
    }

    /// Put `last` in the root's place and sift it down. A node whose four children all exist
    /// picks the least of them by a tournament of selects rather than branches, which the
    /// processor could not predict: which child is least is random.
    #[inline]
    fn sift_down(&mut self, last: Entry) {
        let heap = &mut self.v[..];
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
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reproducible stream of draws below `n` (a 64-bit linear congruential generator's top
    /// bits) for the randomized order tests.
    fn draws(seed: u64) -> impl FnMut(u64) -> u64 {
        let mut x = seed;
        move |n| {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (x >> 33) % n
        }
    }

    /// The initial slot width and the wheel's span at it.
    const SLOT_NS: u64 = 1 << INITIAL_SLOT_SHIFT;
    const WHEEL_NS: u64 = SLOT_NS * SLOTS as u64;

    #[test]
    fn events_pop_in_time_order_and_ties_by_kind_then_component_rank() {
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
        // the two applications at 10 ns in the order of their ranks at 10 ns
        let (a, b) = if tie_rank(0, 10) < tie_rank(1, 10) { (0, 1) } else { (1, 0) };
        assert_eq!(
            order,
            vec![
                (10, Event::TxEnd { channel: 9 }),
                (10, Event::PipeHead { channel: 5, packet: 0 }),
                (10, Event::AppStart { flow: a }),
                (10, Event::AppStart { flow: b }),
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
        let ranked_below = |c: u32| tie_rank(c, 10) < tie_rank(3, 10);
        let lower = (0..100).find(|&c| ranked_below(c)).expect("some channel ranks below 3 at 10 ns");
        let higher = (0..100).find(|&c| c != 3 && !ranked_below(c)).expect("and some above");
        assert!(s.has_passed(10, Event::PipeHead { channel: lower, packet: 9 }), "same kind, lower rank");
        assert!(!s.has_passed(10, Event::PipeHead { channel: higher, packet: 0 }), "same kind, higher rank");
        assert!(!s.has_passed(10, Event::Rto { flow: 0, generation: 0 }), "later kind: still pending");
        assert!(!s.has_passed(11, Event::TxEnd { channel: 0 }));
        s.advance_to(10);
        assert!(s.has_passed(10, Event::WarmupEnd), "at the end every event up to its time has passed");
        assert!(!s.has_passed(11, Event::TxEnd { channel: 0 }));
    }

    #[test]
    fn many_events_come_out_sorted_by_time_then_component_rank_whatever_the_insertion_order() {
        let mut s = Scheduler::default();
        let mut draw = draws(12345);
        let mut expected = vec![];
        for i in 0..10_000u32 {
            let t = draw(500);
            let flow = i.wrapping_mul(7919) % 10_000;
            s.at(t, Event::Rto { flow, generation: flow.wrapping_mul(7) });
            expected.push((t, tie_rank(flow, t), flow));
        }
        expected.sort();
        let mut got = vec![];
        while let Some(Event::Rto { flow, generation }) = s.pop_until(u64::MAX) {
            assert_eq!(generation, flow.wrapping_mul(7));
            got.push((s.now(), tie_rank(flow, s.now()), flow));
        }
        assert_eq!(got, expected);
    }

    #[test]
    fn events_scheduled_while_others_are_handled_come_out_in_order_and_peek_names_the_next() {
        // Each handled event schedules 0, 1 or 2 more, some at its own time as a later kind: the
        // hole left by a pop is filled by an insertion or by the next pop, and the order is
        // (time, event), which only grows. (An event at the current instant that ranks before
        // the one handled runs next: the reference-model test below covers it.)
        let mut s = Scheduler::default();
        let mut draw = draws(99);
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
                    let delay = draw(50);
                    let event = match (delay, event) {
                        (0, Event::AppStart { .. }) => Event::UdpSend { flow: scheduled },
                        (0, _) => continue,
                        _ => Event::AppStart { flow: scheduled },
                    };
                    s.at(s.now() + delay, event);
                    scheduled += 1;
                }
            }
            peeked = s.peek();
        }
        assert_eq!(handled, scheduled);
    }

    #[test]
    fn every_tier_gives_events_in_order_near_across_the_wheel_and_beyond_it() {
        // Handled events schedule 0–3 more, at delays from 0 to several wheel turns; the
        // reference is a sorted set of the pending (time, event) pairs.
        let mut s = Scheduler::default();
        let mut pending = std::collections::BTreeSet::new();
        let mut draw = draws(7);
        let delays = [0, 1, SLOT_NS - 1, SLOT_NS, 5 * SLOT_NS + 3, WHEEL_NS - 1, WHEEL_NS, 3 * WHEEL_NS + 17];
        let mut id = 0u32;
        let mut schedule = |s: &mut Scheduler, pending: &mut std::collections::BTreeSet<(u64, u64)>, t: u64| {
            let event = Event::AppStart { flow: id % (1 << 24) };
            id += 1;
            s.at(t, event);
            pending.insert((t, event.pack(t)));
        };
        for _ in 0..20 {
            schedule(&mut s, &mut pending, draw(2 * WHEEL_NS));
        }
        let mut handled = 0;
        while let Some(event) = s.pop_until(u64::MAX) {
            let first = pending.pop_first().expect("the reference has it too");
            assert_eq!((s.now(), event.pack(s.now())), first, "after {handled} events");
            handled += 1;
            if handled < 20_000 {
                for _ in 0..draw(4) {
                    let d = delays[draw(delays.len() as u64) as usize] + draw(3) * draw(1000);
                    let t = s.now() + d;
                    schedule(&mut s, &mut pending, t);
                }
            }
        }
        assert!(pending.is_empty() && handled > 20_000, "{handled} handled");
    }

    #[test]
    fn the_slots_narrow_in_a_dense_phase_and_widen_again_in_a_sparse_one_and_the_order_holds() {
        // 200 components each rescheduling itself 0–99 ns ahead (thousands of events per
        // initial slot), then 10–90 ms ahead (one every few slots); checked against a sorted set.
        let mut s = Scheduler::default();
        let mut pending = std::collections::BTreeSet::new();
        let mut draw = draws(11);
        for flow in 0..200 {
            let event = Event::AppStart { flow };
            s.at(0, event);
            pending.insert((0, event.pack(0)));
        }
        let (mut narrowest, mut handled) = (INITIAL_SLOT_SHIFT, 0u64);
        while let Some(event) = s.pop_until(u64::MAX) {
            let first = pending.pop_first().expect("the reference has it too");
            assert_eq!((s.now(), event.pack(s.now())), first, "after {handled} events");
            narrowest = narrowest.min(s.slot_shift);
            handled += 1;
            let ahead = if handled < 300_000 { draw(100) } else { 10_000_000 + draw(80_000_000) };
            if handled < 400_000 {
                let t = s.now() + ahead;
                s.at(t, event);
                pending.insert((t, event.pack(t)));
            }
        }
        assert!(pending.is_empty(), "{} left", pending.len());
        assert!(narrowest < 10, "the dense phase narrowed the slots to 2^{narrowest} ns only");
        assert_eq!(s.slot_shift, MAX_SLOT_SHIFT, "the sparse phase widened the slots back");
    }

    #[test]
    fn a_dense_slot_sorted_by_counting_comes_out_as_a_comparison_sort_orders_it() {
        // Slots of 2^6..2^10 ns with 32..512 events, some at the same nanosecond and several of
        // one interval, several of one kind and component at one time (a stale timer).
        let mut draw = draws(5);
        for slot_shift in [6, 7, 8, 9, 10] {
            for n in [COUNTING_SORT_MIN, 100, COUNTING_SORT_MAX] {
                let slot_start = 7 << slot_shift;
                let mut near = Near::default();
                for _ in 0..n {
                    let t = slot_start + draw(1 << slot_shift).min(draw(1 << slot_shift));
                    let event = match draw(3) {
                        0 => Event::PipeHead { channel: draw(8) as u32, packet: draw(1000) as u32 },
                        1 => Event::Rto { flow: draw(4) as u32, generation: draw(3) as u32 },
                        _ => Event::TxEnd { channel: draw(8) as u32 },
                    };
                    near.run.push(Entry { time_ns: t, event: event.pack(t) });
                }
                let mut expected: Vec<u128> = near.run.iter().map(Entry::key).collect();
                expected.sort_unstable_by(|a, b| b.cmp(a));
                near.sort_run(slot_start, slot_shift);
                let got: Vec<u128> = near.run.iter().map(Entry::key).collect();
                assert_eq!(got, expected, "slots of 2^{slot_shift} ns, {n} events");
            }
        }
    }

    #[test]
    fn an_event_beyond_the_until_time_stays_pending() {
        let mut s = Scheduler::default();
        s.at(3 * WHEEL_NS, Event::TraceSample);
        assert_eq!(s.pop_until(WHEEL_NS), None);
        assert_eq!(s.pop_until(3 * WHEEL_NS), Some(Event::TraceSample));
        assert_eq!(s.pop_until(u64::MAX), None);
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
            assert_eq!(Event::unpack(e.pack(7), 7), e);
        }
    }

    #[test]
    fn a_rank_names_its_component_again_at_any_time() {
        for time in [0, 1, 7, 12_000, 1 << 40, u64::MAX] {
            for id in [0, 1, 2, 3, 1000, ID_MASK - 1, ID_MASK] {
                let rank = tie_rank(id, time);
                assert!(rank <= ID_MASK);
                assert_eq!(tie_component(rank, time), id, "id {id} at {time} ns");
            }
        }
    }

    /// Three links' packets arriving at the same nanosecond, at 3 000 different times: each link's
    /// arrival runs first about a third of the time. Ranked by index, link 0's always did.
    #[test]
    fn no_component_wins_every_tie() {
        let mut s = Scheduler::default();
        let mut first = [0u32; 3];
        for k in 0..3_000u64 {
            let t = 1_000 + 12_000 * k; // a 1500-byte packet's time at 1 Gb/s: ties recur on this grid
            for channel in 0..3 {
                s.at(t, Event::PipeHead { channel, packet: 9 });
            }
            let Some(Event::PipeHead { channel, .. }) = s.pop_until(u64::MAX) else { panic!("an arrival") };
            first[channel as usize] += 1;
            for _ in 0..2 {
                assert!(matches!(s.pop_until(u64::MAX), Some(Event::PipeHead { .. })));
            }
        }
        for (channel, wins) in first.iter().enumerate() {
            assert!((800..1200).contains(wins), "link {channel} ran first {wins} times of 3000: {first:?}");
        }
    }
}
