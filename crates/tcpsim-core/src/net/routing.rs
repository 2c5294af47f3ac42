//! Static shortest-path routing (fewest hops) over any graph of duplex links.
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

use std::collections::VecDeque;

const NONE: u32 = u32::MAX;
/// Set in `route[node]` when the rest is the node's only channel rather than a router index.
const ONLY_LINK: u32 = 1 << 31;

pub struct Routes {
    /// Per node: `ONLY_LINK | channel` for a node with one link, else its router index.
    route: Vec<u32>,
    /// Per node: its row in `next` as a destination (NONE if never a destination).
    dst_row: Vec<u32>,
    routers: usize,
    /// `next[row · routers + router]` = channel the router takes towards the row's destination.
    next: Vec<u32>,
    /// Connected component of each node (links are full duplex).
    component: Vec<u32>,
}

impl Routes {
    /// `links[l] = (a, b)`; channel `2l` goes a→b and `2l+1` goes b→a.
    pub fn new(n_nodes: usize, links: &[(u32, u32)], destinations: impl Iterator<Item = u32>) -> Self {
        let mut adjacent: Vec<Vec<(u32, u32)>> = vec![Vec::new(); n_nodes]; // (neighbour, channel from neighbour to me)
        for (l, &(a, b)) in links.iter().enumerate() {
            adjacent[a as usize].push((b, 2 * l as u32 + 1));
            adjacent[b as usize].push((a, 2 * l as u32));
        }
        let mut route = vec![NONE; n_nodes];
        let mut routers = 0;
        for (node, neighbours) in adjacent.iter().enumerate() {
            if let [(_, to_me)] = neighbours[..] {
                route[node] = ONLY_LINK | (to_me ^ 1); // the reverse of the channel towards me
            } else {
                route[node] = routers as u32;
                routers += 1;
            }
        }
        let mut routes =
            Routes { route, dst_row: vec![NONE; n_nodes], routers, next: Vec::new(), component: components(&adjacent) };
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
            let row = searched[base as usize].get_or_insert_with(|| routes.search(&adjacent, base));
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

    /// Whether `dst` can be reached from `node`.
    pub fn reachable(&self, node: u32, dst: u32) -> bool {
        match (self.component.get(node as usize), self.component.get(dst as usize)) {
            (Some(a), Some(b)) => a == b,
            _ => false,
        }
    }

    /// The channel to take from `node` towards `dst` (a destination given at build time,
    /// checked reachable).
    #[inline]
    pub fn next_channel(&self, node: u32, dst: u32) -> u32 {
        let route = self.route[node as usize];
        if route & ONLY_LINK != 0 {
            return route & !ONLY_LINK;
        }
        self.next[self.dst_row[dst as usize] as usize * self.routers + route as usize]
    }
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

    #[test]
    fn routes_follow_fewest_hops_with_lowest_link_on_ties() {
        // 0 - 1 - 3 and 0 - 2 - 3: two equal paths; link order prefers 0-1.
        let links = [(0, 1), (0, 2), (1, 3), (2, 3)];
        let r = Routes::new(4, &links, [3u32, 0].into_iter());
        assert_eq!(r.next_channel(0, 3), 0); // 0→1 is channel 0 (a→b of link 0)
        assert_eq!(r.next_channel(1, 3), 4); // link 2 a→b
        assert_eq!(r.next_channel(3, 0), 5); // 3→1 is link 2 b→a
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

    #[test]
    fn every_hop_is_the_one_a_search_from_the_destination_gives() {
        // Random graphs of routers (meshed, with parallel links) and hosts (one link each,
        // some in pairs on their own), every node a destination.
        let mut x: u64 = 7;
        let mut draw = |n: u64| {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (x >> 33) % n
        };
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
            let n_nodes = n as usize + 2;
            let r = Routes::new(n_nodes, &links, (0..n_nodes as u32).rev());
            for dst in 0..n_nodes as u32 {
                let expected = searched_from(n_nodes, &links, dst);
                for node in (0..n_nodes as u32).filter(|&node| node != dst) {
                    assert_eq!(r.reachable(node, dst), expected[node as usize] != NONE, "{links:?}");
                    if expected[node as usize] != NONE {
                        assert_eq!(r.next_channel(node, dst), expected[node as usize], "{node}→{dst} in {links:?}");
                    }
                }
            }
        }
    }
}
