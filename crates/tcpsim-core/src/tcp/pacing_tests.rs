//! Pacing (Linux `tcp_internal_pacing`, see `transmitter`) against hand-worked send times:
//! at 8 Mb/s a 1000-byte segment takes 1 ms, so a window of segments leaves one per
//! millisecond, each released by the pacing timer; without a rate it leaves at once.
//!
//! Set-up: as `ecn_tests`, an idle 100 Mb/s link between node 0 and node 1; only the pacing
//! events are handled, everything else stays in the network.

use super::recovery::send_by_window;
use super::send_state::SendState;
use super::transmitter::{Transmitter, Wire};
use crate::config::{CaIncrement, RdMark};
use crate::context::Ctx;
use crate::engine::{Event, Scheduler};
use crate::net::{Channel, Network, Routes};
use crate::packet::PacketPool;
use crate::queue::{DropTail, Queue};
use crate::tcp::cc::Window;
use crate::trace::Trace;

const MSS: u64 = 1000;
const MS: u64 = 1_000_000;

struct World {
    sched: Scheduler,
    net: Network,
    pool: PacketPool,
    trace: Trace,
}

impl World {
    fn new() -> Self {
        let channel = |from, to| {
            let queue = Queue::DropTail(DropTail::new(Some(100_000), None));
            Channel::new(0, from, to, 100_000_000, 10_000_000, queue, vec![])
        };
        World {
            sched: Scheduler::default(),
            net: Network::new(
                vec![channel(0, 1), channel(1, 0)],
                Routes::new(2, &[(0, 1)], [0, 1].into_iter()),
                1,
                false,
            ),
            pool: PacketPool::default(),
            trace: Trace::new(&Default::default(), 1, 0, 1).unwrap(),
        }
    }

    fn ctx(&mut self) -> Ctx<'_> {
        Ctx { sched: &mut self.sched, net: &mut self.net, pool: &mut self.pool, trace: &mut self.trace }
    }

    /// The next pacing event (other events are left unhandled): its time and generation.
    fn next_pace(&mut self) -> Option<(u64, u32)> {
        while let Some(e) = self.sched.pop_until(u64::MAX) {
            if let Event::Pace { generation, .. } = e {
                return Some((self.sched.now(), generation));
            }
        }
        None
    }
}

fn wire(pacing_rate_bps: Option<u64>) -> Wire {
    Wire {
        flow: 0,
        epoch: 0,
        node: 0,
        peer: 1,
        header_bytes: 40,
        ecn: false,
        ect: crate::packet::Ecn::Ect0,
        ecn_ns2: false,
        ect_retransmissions: false,
        rd_class: RdMark::R,
        cwr_pending: false,
        rto_timer: Default::default(),
        keep_timer_at_fast_retransmit: false,
        counters: Default::default(),
        time_one_segment: false,
        timed: None,
        pacing_rate_bps,
        next_send_ns: 0,
        pace_timer: Default::default(),
    }
}

fn state(cwnd_segments: u64) -> SendState {
    let window = Window {
        cwnd_bytes: cwnd_segments * MSS,
        ssthresh_bytes: u64::MAX,
        mss_bytes: MSS,
        ca_credit: 0,
        ca_increment: CaIncrement::Exact,
    };
    SendState::new(MSS, 1 << 30, 3, window, u64::MAX)
}

#[test]
fn without_a_pacing_rate_the_whole_window_leaves_at_once() {
    let mut w = World::new();
    let (mut wire, mut s) = (wire(None), state(4));
    send_by_window(&mut s, &mut Transmitter::new(&mut wire, MS, &mut w.ctx()));
    assert_eq!((w.pool.created, s.snd_nxt), (4, 4 * MSS));
    assert_eq!(w.next_pace(), None, "no pacing timer");
}

#[test]
fn a_paced_window_leaves_one_segment_per_length_over_rate() {
    let mut w = World::new();
    let (mut wire, mut s) = (wire(Some(8_000_000)), state(4));
    send_by_window(&mut s, &mut Transmitter::new(&mut wire, MS, &mut w.ctx()));
    assert_eq!((w.pool.created, s.snd_nxt), (1, MSS), "the first leaves at 0, the next waits");
    assert_eq!(wire.next_send_ns, MS, "1000 bytes · 8 / 8 Mb/s");
    let mut times = vec![];
    while let Some((t, generation)) = w.next_pace() {
        assert_eq!(wire.pace_timer.fire(generation, t), Ok(true));
        let before = w.pool.created;
        send_by_window(&mut s, &mut Transmitter::new(&mut wire, MS, &mut w.ctx()));
        times.push((t, w.pool.created - before));
    }
    // After the 4th the window is full: the loop stops before asking pacing, no timer is armed.
    assert_eq!(times, vec![(MS, 1), (2 * MS, 1), (3 * MS, 1)]);
    assert_eq!(s.snd_nxt, 4 * MSS);
}

#[test]
fn the_gap_is_rounded_down_to_whole_nanoseconds() {
    let mut w = World::new();
    // 3 Gb/s: 1000 bytes take 2666.67 ns, rounded down as Linux's do_div.
    let (mut wire, mut s) = (wire(Some(3_000_000_000)), state(2));
    send_by_window(&mut s, &mut Transmitter::new(&mut wire, MS, &mut w.ctx()));
    assert_eq!(wire.next_send_ns, 2666);
    assert_eq!(w.next_pace().map(|(t, _)| t), Some(2666));
}
