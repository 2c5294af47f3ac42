//! Which channels a packet may be handed to straight from the end of its previous hop's
//! serialization, skipping the event of its arrival at the node between.
//!
//! A channel X whose packets all come from one channel C (every route that enters X's node
//! through C and leaves through X, and no other route through X) sees its arrivals in C's pipe
//! order, each a propagation delay after its serialization on C ended. Nothing but that
//! sequence changes X (its ends are its own, see `Network`), so X can take a packet when C
//! finishes serializing it, dated its arrival time, rather than when the arrival event runs:
//! X's state then runs ahead of the clock, in the same order and at the same times, and its
//! queue, loss models and counters see exactly what they would have. On a dumbbell this is the
//! router-to-host hop of every packet, a third of all packet events. With ECMP, every channel
//! of every equal-cost path counts as a route.

use super::{Channel, Routes};

/// `sole_feeder` value of a channel no route uses.
pub const UNUSED: u32 = u32::MAX;
/// Packets enter the channel from its node's own flows (which it sends as they happen).
const LOCAL: u32 = u32::MAX - 1;
/// Packets enter the channel from more than one place.
const SHARED: u32 = u32::MAX - 2;

/// For each channel, the channel through which all its packets arrive, or a value above every
/// channel index (`UNUSED`, or fed by its node's own flows or by several channels). `routes`
/// lists each (source, destination) that packets travel, in both directions of a connection.
pub fn sole_feeders(channels: &[Channel], routes: &Routes, paths: impl Iterator<Item = (u32, u32)>) -> Vec<u32> {
    let mut feeder = vec![UNUSED; channels.len()];
    // Every channel of every path a packet may take (one, or all equal-cost ones with ECMP):
    // channels entered on this path, and the (node, channel it came in by) still to follow.
    let (mut entered, mut todo) = (Vec::new(), Vec::new());
    for (src, dst) in paths {
        todo.push((src, LOCAL));
        while let Some((node, from)) = todo.pop() {
            if node == dst {
                continue;
            }
            for c in routes.next_channels(node, dst) {
                let f = &mut feeder[c as usize];
                if *f == UNUSED {
                    *f = from;
                } else if *f != from {
                    *f = SHARED;
                }
                if !entered.contains(&c) {
                    entered.push(c);
                    todo.push((channels[c as usize].to, c));
                }
            }
        }
        entered.clear();
    }
    feeder.iter_mut().filter(|f| **f == LOCAL).for_each(|f| *f = SHARED);
    feeder
}

/// Whether `sole_feeders` found a single feeding channel.
#[inline]
pub fn is_channel(feeder: u32) -> bool {
    feeder < SHARED
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::queue::{DropTail, Queue};

    fn channels(links: &[(u32, u32)]) -> Vec<Channel> {
        let channel = |l: usize, from, to| {
            Channel::new(l as u32, from, to, 1_000_000, 0, Queue::DropTail(DropTail::new(Some(10), None)), vec![])
        };
        links.iter().enumerate().flat_map(|(l, &(a, b))| [channel(l, a, b), channel(l, b, a)]).collect()
    }

    #[test]
    fn a_dumbbell_hands_over_onto_the_receivers_access_links_only() {
        // Senders 0, 1 → router 2 → router 3 → receivers 4, 5; link 0 is the bottleneck.
        let links = [(2, 3), (0, 2), (1, 2), (3, 4), (3, 5)];
        let channels = channels(&links);
        let routes = Routes::new(6, &links, [0, 1, 4, 5].into_iter());
        // Connections 0→4 and 1→5, with their ACKs.
        let feeder = sole_feeders(&channels, &routes, [(0, 4), (4, 0), (1, 5), (5, 1)].into_iter());
        // Channel 2l is a→b of link l, 2l+1 is b→a.
        assert_eq!(feeder[6], 0, "router 3 → receiver 4 is fed by the bottleneck alone");
        assert_eq!(feeder[8], 0);
        assert_eq!(feeder[3], 1, "router 2 → sender 0 (ACKs) is fed by the reverse bottleneck");
        assert_eq!(feeder[5], 1);
        for c in [0, 1, 2, 4, 7, 9] {
            assert!(!is_channel(feeder[c]), "channel {c} is fed by several channels or its node's flows");
        }
        // A flow from sender 0 to sender 1 turns at router 2: its access link now has two feeders.
        let feeder = sole_feeders(&channels, &routes, [(0, 4), (4, 0), (1, 5), (5, 1), (0, 1), (1, 0)].into_iter());
        assert!(!is_channel(feeder[3]) && !is_channel(feeder[5]));
        assert_eq!(feeder[6], 0);
    }

    #[test]
    fn a_router_that_is_a_flow_end_feeds_its_links_itself() {
        // 0 — 1 — 2, flows 0→2 and 1→2: channel 1→2 carries 0's packets and 1's own.
        let links = [(0, 1), (1, 2)];
        let channels = channels(&links);
        let routes = Routes::new(3, &links, [0, 1, 2].into_iter());
        let feeder = sole_feeders(&channels, &routes, [(0, 2), (2, 0), (1, 2), (2, 1)].into_iter());
        assert!(!is_channel(feeder[2]), "1→2 is fed by 0→1 and by node 1's flow");
        assert_eq!(feeder[1], 3, "1→0 carries only ACKs for node 0, all from 2→1");
        assert!(!is_channel(feeder[0]) && !is_channel(feeder[3]), "hosts' own packets");
    }
}
