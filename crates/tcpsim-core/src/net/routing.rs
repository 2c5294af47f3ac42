//! Static shortest-path routing (fewest hops) over any graph of duplex links, with one path
//! per destination or, at routers, equal-cost multipath (ECMP).
//!
//! For every node that some flow sends to, a breadth-first search from that destination
//! gives each node its next channel towards it. Neighbours are visited in link order, so
//! among equal-hop paths the one through lower-numbered links wins, deterministically.
//!
//! Most nodes of a large topology are hosts with a single link, which is their next hop
//! towards everything; only the other nodes (routers) keep a next hop per destination. And
//! the search from a host `h` behind router `g` visits `g` first and then exactly what a
//! search from `g` visits, in the same order (`h`'s only neighbour is `g`): so every router
//! other than `g` routes to `h` as it routes to `g`, and one search serves all of `g`'s hosts.
//! A 1600-flow dumbbell thus needs two searches and a table of 2 routers × 3200 destinations
//! rather than 3200 searches and 3200 × 3200 entries (41 MB, a cache miss per hop).
//!
//! With ECMP (RFC 2992's multipath model: a router holds every next hop on a shortest path
//! and picks one per packet), the same searches give each router the set of its neighbours
//! one hop nearer the destination (the same holds for `g`'s hosts: every shortest path to `h`
//! is one to `g` and the last hop). A table entry with more than one choice points into a flat
//! array of choices (`choices[at]` = how many, then the channels in link order); an entry with
//! one is the channel itself, as without ECMP, so a topology without equal-cost paths (a
//! dumbbell) routes exactly as before at the same cost. A router picks:
//! - by flow hash (RFC 2992 §3, hash-threshold): a hash of the packet's flow, its connection
//!   epoch (a web connection slot's next connection may take another path) and its kind (data,
//!   ACK or UDP: the two directions of a connection hash apart and need not share a path),
//!   mixed with a salt of the router's own (drawn from the stream `ecmp:<node name>`), so
//!   that routers in series do not all make the same choice (hash polarization). Every packet
//!   of a connection direction takes the same path: no reordering.
//! - by packet spraying (random packet spraying, Dixit et al., INFOCOM 2013): each packet
//!   draws its choice uniformly from the router's stream `ecmp:<node name>`, in the order
//!   packets reach the router. A packet's choice is then known only when it arrives, so it is
//!   never handed over to the chosen channel ahead of time ([`Routes::next_channel_ahead`]).

use std::collections::VecDeque;

use crate::config::EcmpSelect;
use crate::packet::{Packet, PacketKind};
use crate::rng::RandomStream;

const NONE: u32 = u32::MAX;
/// Set in `route[node]` when the rest is the node's only channel rather than a router index.
const ONLY_LINK: u32 = 1 << 31;
/// Set in a `next` entry when the rest is the index in `choices` of the router's equal-cost
/// choices rather than its one channel.
const MULTI: u32 = 1 << 31;

pub struct Routes {
    /// Per node: `ONLY_LINK | channel` for a node with one link, else its router index.
    route: Vec<u32>,
    /// Per node: its row in `next` as a destination (NONE if never a destination).
    dst_row: Vec<u32>,
    routers: usize,
    /// `next[row · routers + router]` = channel the router takes towards the row's destination,
    /// or `MULTI | at` when it has a choice (`choices[at]` of them, in `choices[at + 1..]`).
    next: Vec<u32>,
    choices: Vec<u32>,
    /// How routers choose among equal-cost channels (`None`: they have no choice).
    select: Option<EcmpSelect>,
    /// Per router: its flow-hash salt (flow hashing only).
    salt: Vec<u64>,
    /// Per router: its random stream (packet spraying only).
    spray: Vec<RandomStream>,
    /// Connected component of each node (links are full duplex).
    component: Vec<u32>,
}

impl Routes {
    /// One path per destination. `links[l] = (a, b)`; channel `2l` goes a→b and `2l+1` goes b→a.
    pub fn new(n_nodes: usize, links: &[(u32, u32)], destinations: impl Iterator<Item = u32>) -> Self {
        Self::build(n_nodes, links, destinations, None, |_| unreachable!("no ECMP streams without ECMP"))
    }

    /// Every shortest path, routers choosing by `select`; `stream(node)` is the random stream
    /// of router `node` (`ecmp:<node name>` of the run seed).
    pub fn with_ecmp(
        n_nodes: usize,
        links: &[(u32, u32)],
        destinations: impl Iterator<Item = u32>,
        select: EcmpSelect,
        stream: impl FnMut(u32) -> RandomStream,
    ) -> Self {
        Self::build(n_nodes, links, destinations, Some(select), stream)
    }

    fn build(
        n_nodes: usize,
        links: &[(u32, u32)],
        destinations: impl Iterator<Item = u32>,
        select: Option<EcmpSelect>,
        mut stream: impl FnMut(u32) -> RandomStream,
    ) -> Self {
        let mut adjacent: Vec<Vec<(u32, u32)>> = vec![Vec::new(); n_nodes]; // (neighbour, channel from neighbour to me)
        for (l, &(a, b)) in links.iter().enumerate() {
            adjacent[a as usize].push((b, 2 * l as u32 + 1));
            adjacent[b as usize].push((a, 2 * l as u32));
        }
        let mut route = vec![NONE; n_nodes];
        let mut routers = 0;
        let (mut salt, mut spray) = (Vec::new(), Vec::new());
        for (node, neighbours) in adjacent.iter().enumerate() {
            if let [(_, to_me)] = neighbours[..] {
                route[node] = ONLY_LINK | (to_me ^ 1); // the reverse of the channel towards me
            } else {
                route[node] = routers as u32;
                routers += 1;
                match select {
                    None => {}
                    Some(EcmpSelect::FlowHash) => salt.push(stream(node as u32).next_u64()),
                    Some(EcmpSelect::PacketSpray) => spray.push(stream(node as u32)),
                }
            }
        }
        let mut routes = Routes {
            route,
            dst_row: vec![NONE; n_nodes],
            routers,
            next: Vec::new(),
            choices: Vec::new(),
            select,
            salt,
            spray,
            component: components(&adjacent),
        };
        // Rows of routers' next hops from a search, by the node searched from.
        let mut searched: Vec<Option<Box<[u32]>>> = vec![None; n_nodes];
        for dst in destinations {
            if routes.dst_row[dst as usize] != NONE {
                continue;
            }
            // A host's row is its router's, but for that router's own hop to it.
            let (base, last_hop) = match adjacent[dst as usize][..] {
                [(gateway, to_me)] => (gateway, Some((gateway, to_me))),
                _ => (dst, None),
            };
            let row = match &mut searched[base as usize] {
                Some(row) => row,
                empty => empty.insert(match select {
                    None => routes.search(&adjacent, base),
                    Some(_) => routes.search_all(&adjacent, base),
                }),
            };
            routes.dst_row[dst as usize] = (routes.next.len() / routers.max(1)) as u32;
            routes.next.extend_from_slice(row);
            if let Some((gateway, to_me)) = last_hop {
                if routes.route[gateway as usize] & ONLY_LINK == 0 {
                    let at = routes.next.len() - routers + routes.route[gateway as usize] as usize;
                    routes.next[at] = to_me;
                }
            }
        }
        routes
    }

    /// Each router's next channel towards `dst`, by a breadth-first search from it.
    fn search(&self, adjacent: &[Vec<(u32, u32)>], dst: u32) -> Box<[u32]> {
        let mut row = vec![NONE; self.routers].into_boxed_slice();
        let mut seen = vec![false; adjacent.len()];
        seen[dst as usize] = true;
        let mut frontier = VecDeque::from([dst]);
        while let Some(u) = frontier.pop_front() {
            for &(v, channel_v_to_u) in &adjacent[u as usize] {
                if !seen[v as usize] {
                    seen[v as usize] = true;
                    if self.route[v as usize] & ONLY_LINK == 0 {
                        row[self.route[v as usize] as usize] = channel_v_to_u;
                    }
                    frontier.push_back(v);
                }
            }
        }
        row
    }

    /// Each router's channels towards `dst` on a shortest path (to every neighbour one hop
    /// nearer), by a breadth-first search from it: the channel itself if one, else `MULTI`
    /// and where the choices were appended to `choices`.
    fn search_all(&mut self, adjacent: &[Vec<(u32, u32)>], dst: u32) -> Box<[u32]> {
        let mut row = vec![NONE; self.routers].into_boxed_slice();
        let mut hops = vec![NONE; adjacent.len()];
        hops[dst as usize] = 0;
        let mut frontier = VecDeque::from([dst]);
        let mut nearer = Vec::new();
        while let Some(u) = frontier.pop_front() {
            for &(v, _) in &adjacent[u as usize] {
                if hops[v as usize] == NONE {
                    hops[v as usize] = hops[u as usize] + 1;
                    frontier.push_back(v);
                }
            }
            let router = self.route[u as usize];
            if u == dst || router & ONLY_LINK != 0 {
                continue;
            }
            // Channels u→w in link order (the reverse of w's channel to u).
            nearer.clear();
            nearer.extend(
                adjacent[u as usize]
                    .iter()
                    .filter(|&&(w, _)| hops[w as usize] + 1 == hops[u as usize])
                    .map(|&(_, c)| c ^ 1),
            );
            row[router as usize] = match nearer[..] {
                [c] => c,
                _ => {
                    let at = self.choices.len() as u32;
                    self.choices.push(nearer.len() as u32);
                    self.choices.extend_from_slice(&nearer);
                    MULTI | at
                }
            };
        }
        row
    }

    /// Whether some router has a choice of equal-cost channels towards some destination.
    pub fn has_choices(&self) -> bool {
        !self.choices.is_empty()
    }

    /// Whether `dst` can be reached from `node`.
    pub fn reachable(&self, node: u32, dst: u32) -> bool {
        match (self.component.get(node as usize), self.component.get(dst as usize)) {
            (Some(a), Some(b)) => a == b,
            _ => false,
        }
    }

    /// `node`'s table entry towards `dst` (a channel, or `MULTI` and its choices) and its
    /// router index (`ONLY_LINK` for a node with one link, whose entry is that link).
    #[inline]
    fn entry(&self, node: u32, dst: u32) -> (u32, u32) {
        let route = self.route[node as usize];
        if route & ONLY_LINK != 0 {
            return (route & !ONLY_LINK, ONLY_LINK);
        }
        (self.next[self.dst_row[dst as usize] as usize * self.routers + route as usize], route)
    }

    /// The channel packet `p`, now at `node`, takes towards its destination (given at build
    /// time, checked reachable). A spraying router draws its choice now.
    #[inline]
    pub fn next_channel(&mut self, node: u32, p: &Packet) -> u32 {
        let (c, router) = self.entry(node, p.dst);
        if c & MULTI == 0 {
            return c;
        }
        self.choose(router, c & !MULTI, p)
    }

    /// The channel packet `p` will take from `node` when it gets there, if that is known
    /// before (always, but for a spraying router's choice).
    #[inline]
    pub fn next_channel_ahead(&self, node: u32, p: &Packet) -> Option<u32> {
        let (c, router) = self.entry(node, p.dst);
        if c & MULTI == 0 {
            return Some(c);
        }
        match self.select {
            Some(EcmpSelect::PacketSpray) => None,
            _ => Some(self.choice(c & !MULTI, flow_hash(self.salt[router as usize], p))),
        }
    }

    /// `router`'s pick for `p` among the choices at `choices[at]`. Out of line, as is
    /// [`Routes::choice`]: routers without a choice (every router of a dumbbell) never call
    /// them, and the common path stays small.
    #[inline(never)]
    fn choose(&mut self, router: u32, at: u32, p: &Packet) -> u32 {
        let draw = match self.select {
            Some(EcmpSelect::PacketSpray) => self.spray[router as usize].next_u64(),
            _ => flow_hash(self.salt[router as usize], p),
        };
        self.choice(at, draw)
    }

    /// The choice at `choices[at]` that `draw` (uniform over 64 bits) picks.
    #[inline(never)]
    fn choice(&self, at: u32, draw: u64) -> u32 {
        let at = at as usize;
        self.choices[at + 1 + below(draw, self.choices[at] as u64)]
    }

    /// Every channel a packet at `node` may take towards `dst`.
    pub fn next_channels(&self, node: u32, dst: u32) -> Vec<u32> {
        let (c, _) = self.entry(node, dst);
        if c & MULTI == 0 {
            return vec![c];
        }
        let at = (c & !MULTI) as usize;
        self.choices[at + 1..at + 1 + self.choices[at] as usize].to_vec()
    }
}

/// A hash of packet `p`'s connection direction (flow, epoch, kind) under `salt`: SplitMix64's
/// finalizer (Steele, Lea & Flood, OOPSLA 2014) over the salted key, so that nearby flow
/// numbers spread evenly.
#[inline]
fn flow_hash(salt: u64, p: &Packet) -> u64 {
    let kind = match p.kind {
        PacketKind::Data => 0,
        PacketKind::Ack => 1,
        PacketKind::Udp => 2,
    };
    mix(mix(salt ^ (((p.flow as u64) << 32) | p.epoch as u64)) ^ kind)
}

#[inline]
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// `draw`, uniform over 64 bits, mapped to [0, n) by multiplying (Lemire, 2019).
#[inline]
fn below(draw: u64, n: u64) -> usize {
    ((draw as u128 * n as u128) >> 64) as usize
}

/// The connected component of each node, named by its lowest-numbered node.
fn components(adjacent: &[Vec<(u32, u32)>]) -> Vec<u32> {
    let mut component = vec![NONE; adjacent.len()];
    for start in 0..adjacent.len() {
        if component[start] != NONE {
            continue;
        }
        component[start] = start as u32;
        let mut stack = vec![start as u32];
        while let Some(u) = stack.pop() {
            for &(v, _) in &adjacent[u as usize] {
                if component[v as usize] == NONE {
                    component[v as usize] = start as u32;
                    stack.push(v);
                }
            }
        }
    }
    component
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A data packet of flow 0 to `dst`.
    fn to(dst: u32) -> Packet {
        Packet::new(PacketKind::Data, 0, dst, 1000, 1040)
    }

    #[test]
    fn routes_follow_fewest_hops_with_lowest_link_on_ties() {
        // 0 - 1 - 3 and 0 - 2 - 3: two equal paths; link order prefers 0-1.
        let links = [(0, 1), (0, 2), (1, 3), (2, 3)];
        let mut r = Routes::new(4, &links, [3u32, 0].into_iter());
        assert_eq!(r.next_channel(0, &to(3)), 0); // 0→1 is channel 0 (a→b of link 0)
        assert_eq!(r.next_channel(1, &to(3)), 4); // link 2 a→b
        assert_eq!(r.next_channel(3, &to(0)), 5); // 3→1 is link 2 b→a
        assert_eq!(r.next_channels(0, 3), [0], "one path: no choice");
        assert!(r.reachable(2, 3));
    }

    #[test]
    fn disconnected_nodes_are_unreachable() {
        let r = Routes::new(3, &[(0, 1)], [1u32].into_iter());
        assert!(!r.reachable(2, 1));
        assert!(!r.reachable(0, 2));
        assert!(r.reachable(0, 1) && r.reachable(1, 0));
    }

    /// The next hop of every node towards `dst` by a breadth-first search from `dst` over the
    /// whole graph: the table this module compresses.
    fn searched_from(n_nodes: usize, links: &[(u32, u32)], dst: u32) -> Vec<u32> {
        let mut adjacent: Vec<Vec<(u32, u32)>> = vec![Vec::new(); n_nodes];
        for (l, &(a, b)) in links.iter().enumerate() {
            adjacent[a as usize].push((b, 2 * l as u32 + 1));
            adjacent[b as usize].push((a, 2 * l as u32));
        }
        let mut next = vec![NONE; n_nodes];
        let mut seen = vec![false; n_nodes];
        seen[dst as usize] = true;
        let mut frontier = VecDeque::from([dst]);
        while let Some(u) = frontier.pop_front() {
            for &(v, channel) in &adjacent[u as usize] {
                if !seen[v as usize] {
                    seen[v as usize] = true;
                    next[v as usize] = channel;
                    frontier.push_back(v);
                }
            }
        }
        next
    }

    /// Random graphs of routers (meshed, with parallel links) and hosts (one link each, some
    /// in pairs on their own): (node count, links).
    fn random_graphs() -> Vec<(usize, Vec<(u32, u32)>)> {
        let mut x: u64 = 7;
        let mut draw = |n: u64| {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (x >> 33) % n
        };
        let mut graphs = vec![];
        for _ in 0..40 {
            let routers = 1 + draw(6) as u32;
            let hosts = draw(12) as u32;
            let mut links = vec![];
            for r in 1..routers {
                links.push((draw(r as u64) as u32, r));
            }
            for _ in 0..draw(6) {
                links.push((draw(routers as u64) as u32, draw(routers as u64) as u32));
            }
            for h in 0..hosts {
                let host = routers + h;
                links.insert(draw(links.len() as u64 + 1) as usize, (host, draw(routers as u64) as u32));
            }
            let n = routers + hosts;
            links.push((n, n + 1)); // a pair of hosts apart from the rest
            links.retain(|&(a, b)| a != b);
            graphs.push((n as usize + 2, links));
        }
        graphs
    }

    #[test]
    fn every_hop_is_the_one_a_search_from_the_destination_gives() {
        // Every node a destination.
        for (n_nodes, links) in random_graphs() {
            let mut r = Routes::new(n_nodes, &links, (0..n_nodes as u32).rev());
            for dst in 0..n_nodes as u32 {
                let expected = searched_from(n_nodes, &links, dst);
                for node in (0..n_nodes as u32).filter(|&node| node != dst) {
                    assert_eq!(r.reachable(node, dst), expected[node as usize] != NONE, "{links:?}");
                    if expected[node as usize] != NONE {
                        assert_eq!(
                            r.next_channel(node, &to(dst)),
                            expected[node as usize],
                            "{node}→{dst} in {links:?}"
                        );
                    }
                }
            }
        }
    }

    /// Hops from every node to `dst` (NONE if unreachable).
    fn hops_to(n_nodes: usize, links: &[(u32, u32)], dst: u32) -> Vec<u32> {
        let mut hops = vec![NONE; n_nodes];
        hops[dst as usize] = 0;
        let mut frontier = VecDeque::from([dst]);
        while let Some(u) = frontier.pop_front() {
            for &(a, b) in links {
                for (x, y) in [(a, b), (b, a)] {
                    if x == u && hops[y as usize] == NONE {
                        hops[y as usize] = hops[u as usize] + 1;
                        frontier.push_back(y);
                    }
                }
            }
        }
        hops
    }

    /// The far end of channel `c` of `links`.
    fn far_end(links: &[(u32, u32)], c: u32) -> u32 {
        let (a, b) = links[c as usize / 2];
        if c % 2 == 0 {
            b
        } else {
            a
        }
    }

    fn ecmp(n_nodes: usize, links: &[(u32, u32)], select: EcmpSelect, seed: u64) -> Routes {
        Routes::with_ecmp(n_nodes, links, 0..n_nodes as u32, select, |node| {
            RandomStream::new(seed, &format!("ecmp:{node}"))
        })
    }

    /// Hosts 4 and 5 behind routers 0 and 3, joined by two equal paths through 1 and 2.
    const DIAMOND: [(u32, u32); 6] = [(4, 0), (0, 1), (0, 2), (1, 3), (2, 3), (3, 5)];

    #[test]
    fn ecmp_offers_every_next_hop_on_a_shortest_path_and_only_those() {
        for (n_nodes, links) in random_graphs() {
            for select in [EcmpSelect::FlowHash, EcmpSelect::PacketSpray] {
                let mut r = ecmp(n_nodes, &links, select, 1);
                for dst in 0..n_nodes as u32 {
                    let hops = hops_to(n_nodes, &links, dst);
                    for node in (0..n_nodes as u32).filter(|&n| n != dst && hops[n as usize] != NONE) {
                        // Channels node→w in link order to every w one hop nearer.
                        let nearer: Vec<u32> = (0..2 * links.len() as u32)
                            .filter(|&c| {
                                let (a, b) = links[c as usize / 2];
                                let from = if c % 2 == 0 { a } else { b };
                                from == node && hops[far_end(&links, c) as usize] + 1 == hops[node as usize]
                            })
                            .collect();
                        assert_eq!(r.next_channels(node, dst), nearer, "{node}→{dst} in {links:?}");
                        // Every path a flow takes is a shortest one.
                        for flow in 0..8 {
                            let mut p = to(dst);
                            p.flow = flow;
                            let (mut at, mut taken) = (node, 0);
                            while at != dst {
                                at = far_end(&links, r.next_channel(at, &p));
                                taken += 1;
                                assert!(taken <= hops[node as usize], "{node}→{dst} in {links:?}");
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn flows_hash_onto_both_paths_of_a_diamond_each_flow_on_one() {
        let r = ecmp(6, &DIAMOND, EcmpSelect::FlowHash, 1);
        // Router 0 towards host 5: channel 2 (0→1) or 4 (0→2).
        assert_eq!(r.next_channels(0, 5), [2, 4]);
        let mut on = [0; 2];
        for flow in 0..1000 {
            let mut p = to(5);
            p.flow = flow;
            let c = r.next_channel_ahead(0, &p).unwrap();
            on[(c == 4) as usize] += 1;
            for seq in 1..5 {
                p.seq = seq * 1000;
                assert_eq!(r.next_channel_ahead(0, &p), Some(c), "every packet of a flow takes its path");
            }
        }
        // Binomial(1000, 1/2): sd 15.8; 450..550 is over 3 sd either side.
        assert!((450..=550).contains(&on[0]), "{on:?}");
        // A web slot's next connection (epoch) and the ACK direction hash afresh.
        let path = |flow, epoch, kind| {
            let mut p = Packet::new(kind, flow, 5, 0, 40);
            p.epoch = epoch;
            r.next_channel_ahead(0, &p).unwrap()
        };
        assert!((0..64).any(|e| path(0, e, PacketKind::Data) != path(0, 0, PacketKind::Data)));
        assert!((0..64).any(|f| path(f, 0, PacketKind::Ack) != path(f, 0, PacketKind::Data)));
    }

    #[test]
    fn the_same_seed_makes_the_same_choices_and_another_seed_others() {
        let choices = |seed| {
            let r = ecmp(6, &DIAMOND, EcmpSelect::FlowHash, seed);
            (0..64)
                .map(|flow| r.next_channel_ahead(0, &Packet::new(PacketKind::Data, flow, 5, 0, 40)))
                .collect::<Vec<_>>()
        };
        assert_eq!(choices(1), choices(1));
        assert_ne!(choices(1), choices(2));
        let sprayed = |seed| {
            let mut r = ecmp(6, &DIAMOND, EcmpSelect::PacketSpray, seed);
            (0..64).map(|_| r.next_channel(0, &to(5))).collect::<Vec<_>>()
        };
        assert_eq!(sprayed(1), sprayed(1));
        assert_ne!(sprayed(1), sprayed(2));
    }

    #[test]
    fn spraying_spreads_one_flows_packets_over_both_paths() {
        let mut r = ecmp(6, &DIAMOND, EcmpSelect::PacketSpray, 1);
        let path: Vec<u32> = (0..1000).map(|_| r.next_channel(0, &to(5))).collect();
        let on_first = path.iter().filter(|&&c| c == 2).count();
        assert!((450..=550).contains(&on_first), "{on_first} of 1000 on the first path");
        // Uniform draws: the path changes between about half of the consecutive packets.
        let switches = path.windows(2).filter(|w| w[0] != w[1]).count();
        assert!((450..=550).contains(&switches), "{switches} switches");
        // A sprayer's choice is made when the packet arrives; elsewhere it is known before.
        assert_eq!(r.next_channel_ahead(0, &to(5)), None);
        assert_eq!(r.next_channel_ahead(1, &to(5)), Some(6));
        assert_eq!(r.next_channel_ahead(4, &to(5)), Some(0));
    }

    #[test]
    fn a_topology_without_equal_paths_keeps_no_choices() {
        // A dumbbell: senders 2, 3 → router 0 → router 1 → receivers 4, 5.
        let links = [(0, 1), (2, 0), (3, 0), (1, 4), (1, 5)];
        let plain = Routes::new(6, &links, 0..6);
        let r = ecmp(6, &links, EcmpSelect::FlowHash, 1);
        assert!(r.choices.is_empty());
        assert_eq!(r.next, plain.next);
    }
}
