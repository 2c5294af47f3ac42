//! Packet-error models of a link direction.
//!
//! A model is asked once per packet when the packet finishes serialization: the packet used
//! the link but is corrupted and does not arrive. Each model owns its random stream, named
//! after the link, the direction and the model's position, so models never share randomness.

mod bernoulli;
mod scripted;

pub use bernoulli::Bernoulli;
pub use scripted::Scripted;

use crate::config::{FlowConfig, LossConfig};
use crate::packet::Packet;
use crate::rng::RandomStream;

pub enum LossModel {
    Bernoulli(Bernoulli),
    Scripted(Scripted),
}

impl LossModel {
    /// Build a model; `stream_name` names its random stream.
    pub fn from_config(cfg: &LossConfig, flows: &[FlowConfig], seed: u64, stream_name: &str) -> Self {
        match cfg {
            LossConfig::Bernoulli { p } => {
                LossModel::Bernoulli(Bernoulli::new(*p, RandomStream::new(seed, stream_name)))
            }
            LossConfig::Scripted { flow, segments } => {
                let mss = flows[*flow as usize].tcp.mss_bytes as u64;
                LossModel::Scripted(Scripted::new(*flow, segments.iter().map(|n| (n - 1) * mss)))
            }
        }
    }

    /// Whether `p`, which just finished serialization at `now_ns`, is lost.
    #[inline]
    pub fn is_lost(&mut self, p: &Packet, _now_ns: u64) -> bool {
        match self {
            LossModel::Bernoulli(m) => m.is_lost(),
            LossModel::Scripted(m) => m.is_lost(p),
        }
    }
}
