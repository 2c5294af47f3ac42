//! Static shortest-path routing (fewest hops) over any graph of duplex links.
//!
//! For every node that some flow sends to, a breadth-first search from that destination
//! gives each node its next channel towards it. Neighbours are visited in link order, so
//! among equal-hop paths the one through lower-numbered links wins, deterministically.

use std::collections::VecDeque;

const NONE: u32 = u32::MAX;

pub struct Routes {
    n_nodes: usize,
    /// Row of the next-hop table for each node as a destination (NONE if never a destination).
    row_of: Vec<u32>,
    /// `next[row · n_nodes + node]` = channel to take from `node`.
    next: Vec<u32>,
}

impl Routes {
    /// `links[l] = (a, b)`; channel `2l` goes a→b and `2l+1` goes b→a.
    pub fn new(n_nodes: usize, links: &[(u32, u32)], destinations: impl Iterator<Item = u32>) -> Self {
        let mut adjacent: Vec<Vec<(u32, u32)>> = vec![Vec::new(); n_nodes]; // (neighbour, channel from neighbour to me)
        for (l, &(a, b)) in links.iter().enumerate() {
            adjacent[a as usize].push((b, 2 * l as u32 + 1));
            adjacent[b as usize].push((a, 2 * l as u32));
        }
        let mut routes = Routes { n_nodes, row_of: vec![NONE; n_nodes], next: Vec::new() };
        for dst in destinations {
            if routes.row_of[dst as usize] != NONE {
                continue;
            }
            routes.row_of[dst as usize] = (routes.next.len() / n_nodes) as u32;
            let start = routes.next.len();
            routes.next.resize(start + n_nodes, NONE);
            let row = &mut routes.next[start..];
            let mut seen = vec![false; n_nodes];
            seen[dst as usize] = true;
            let mut frontier = VecDeque::from([dst]);
            while let Some(u) = frontier.pop_front() {
                for &(v, channel_v_to_u) in &adjacent[u as usize] {
                    if !seen[v as usize] {
                        seen[v as usize] = true;
                        row[v as usize] = channel_v_to_u;
                        frontier.push_back(v);
                    }
                }
            }
        }
        routes
    }

    /// Whether `dst` can be reached from `node`.
    pub fn reachable(&self, node: u32, dst: u32) -> bool {
        node == dst || self.next_channel_checked(node, dst).is_some()
    }

    fn next_channel_checked(&self, node: u32, dst: u32) -> Option<u32> {
        let row = *self.row_of.get(dst as usize)?;
        if row == NONE {
            return None;
        }
        let c = self.next[row as usize * self.n_nodes + node as usize];
        (c != NONE).then_some(c)
    }

    /// The channel to take from `node` towards `dst` (both checked reachable at build time).
    #[inline]
    pub fn next_channel(&self, node: u32, dst: u32) -> u32 {
        self.next[self.row_of[dst as usize] as usize * self.n_nodes + node as usize]
    }
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
    }
}
