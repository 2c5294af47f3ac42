//! Shared-buffer switches: the output queues of one node draw on one pool of memory, and a
//! port takes an arriving packet only while its queue is shorter than a dynamic threshold, a
//! multiple α of the memory the pool has free (Choudhury & Hahne, "Dynamic Queue Length
//! Thresholds for Shared-Memory Packet Switches", IEEE/ACM ToN 6(2), 1998, §II). Commodity
//! data-centre switches share their buffer this way.
//!
//! With N ports congested the threshold settles where each holds αB/(1 + αN) bytes and
//! B/(1 + αN) stay free: one busy port cannot take the memory that a burst at another port
//! needs. The pool counts the wire bytes waiting in its ports' queues (the packet being
//! serialized is not counted, as for a port's own limit), and each port's own discipline and
//! limit still apply after the pool has admitted a packet.
//!
//! The rule reads the queues of every port of the node at the arrival's time, so the ports of
//! a pool never take hand-overs (`handover`), which would run a port ahead of the clock.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A node whose output queues share one buffer (`SimConfig::shared_buffers`).
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct SharedBufferConfig {
    /// The node whose output queues (the channels leaving it) share the memory.
    pub node: u32,
    /// Bytes of memory shared by those queues (wire bytes of waiting packets), > 0.
    pub size_bytes: u64,
    /// The dynamic threshold's α: a port admits a packet while its queue holds fewer than
    /// α · (free bytes of the pool) (Choudhury & Hahne §II), finite and > 0.
    pub alpha: f64,
}

impl SharedBufferConfig {
    /// Check one entry of `shared_buffers` against `n_nodes`; errors name the field.
    pub fn validate(&self, n_nodes: u32) -> Result<(), String> {
        if self.node >= n_nodes {
            return Err(format!(".node: {} must be a node < {n_nodes}", self.node));
        }
        if self.size_bytes == 0 {
            return Err(".size_bytes: must be > 0".into());
        }
        if !(self.alpha.is_finite() && self.alpha > 0.0) {
            return Err(format!(".alpha: {} must be a finite number > 0", self.alpha));
        }
        Ok(())
    }
}

/// The pool of one node: its size, α, and the channels (output ports) that draw on it.
#[derive(Clone, Debug)]
pub struct SharedBuffer {
    size_bytes: u64,
    alpha: f64,
    /// The channels leaving the node.
    pub channels: Vec<u32>,
}

impl SharedBuffer {
    pub fn new(config: &SharedBufferConfig, channels: Vec<u32>) -> Self {
        SharedBuffer { size_bytes: config.size_bytes, alpha: config.alpha, channels }
    }

    /// Whether a port whose queue holds `port_bytes` may take a packet of `wire_bytes` while
    /// the node's queues hold `used_bytes` together: the packet fits in the free memory and
    /// the port is below the threshold α · free (both read before the packet is added).
    #[inline]
    pub fn admits(&self, port_bytes: u64, used_bytes: u64, wire_bytes: u32) -> bool {
        let free = self.size_bytes.saturating_sub(used_bytes);
        wire_bytes as u64 <= free && (port_bytes as f64) < self.alpha * free as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pool(size_bytes: u64, alpha: f64) -> SharedBuffer {
        SharedBuffer::new(&SharedBufferConfig { node: 0, size_bytes, alpha }, vec![0, 2])
    }

    /// Fill ports with 100-byte packets in turn, each while the pool admits it (no port
    /// drains), and return how many each took.
    fn fill(pool: &SharedBuffer, ports: usize) -> Vec<u64> {
        let mut queued = vec![0u64; ports];
        loop {
            let mut any = false;
            for p in 0..ports {
                let used: u64 = queued.iter().sum();
                if pool.admits(queued[p], used, 100) {
                    queued[p] += 100;
                    any = true;
                }
            }
            if !any {
                return queued.iter().map(|b| b / 100).collect();
            }
        }
    }

    #[test]
    fn one_congested_port_takes_at_most_alpha_over_one_plus_alpha_of_the_pool() {
        // B = 10 000 bytes. α = 1: a port stops at q ≥ B − q, i.e. at 5 000 bytes (50 packets:
        // the 50th arrives at q = 4 900 < 5 100 free; the 51st finds 5 000 ≥ 5 000).
        assert_eq!(fill(&pool(10_000, 1.0), 1), vec![50]);
        // α = 2: q < 2(B − q) until q = 6 700 (6 600 < 6 800; 6 700 ≥ 6 600): 67 packets.
        assert_eq!(fill(&pool(10_000, 2.0), 1), vec![67]);
        // α = 1/2: q < (B − q)/2 until q = 3 400 (3 300 < 3 350; 3 400 ≥ 3 300): 34 packets.
        assert_eq!(fill(&pool(10_000, 0.5), 1), vec![34]);
    }

    #[test]
    fn congested_ports_share_the_pool_and_leave_one_share_free() {
        // Two ports, α = 1: each settles at B/3 (33 or 34 packets), a third stays free.
        let two = fill(&pool(10_000, 1.0), 2);
        assert_eq!(two, vec![34, 33]);
        // Four ports, α = 1: each near B/5.
        assert_eq!(fill(&pool(10_000, 1.0), 4), vec![20, 20, 20, 20]);
    }

    #[test]
    fn a_packet_larger_than_the_free_memory_is_refused_even_by_an_empty_port() {
        let p = pool(1_000, 100.0);
        assert!(p.admits(0, 0, 1_000));
        assert!(!p.admits(0, 1, 1_000));
        assert!(!p.admits(0, 0, 1_001));
    }

    #[test]
    fn validation_names_the_field() {
        let ok = SharedBufferConfig { node: 1, size_bytes: 1, alpha: 1.0 };
        assert_eq!(ok.validate(2), Ok(()));
        let bad_node = SharedBufferConfig { node: 2, ..ok.clone() };
        assert_eq!(bad_node.validate(2), Err(".node: 2 must be a node < 2".into()));
        assert!(SharedBufferConfig { size_bytes: 0, ..ok.clone() }.validate(2).unwrap_err().starts_with(".size_bytes"));
        for alpha in [0.0, -1.0, f64::NAN, f64::INFINITY] {
            assert!(SharedBufferConfig { alpha, ..ok.clone() }.validate(2).unwrap_err().starts_with(".alpha"));
        }
    }
}
