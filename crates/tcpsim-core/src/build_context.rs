//! What a link direction's components — its queue discipline and loss models — are built
//! with: the run seed and a stream name per component (docs/architecture.md, "Randomness": every random
//! component draws from its own named stream), the link's rate, and the flows (for models
//! that count a flow's segments). Every discipline and model takes the same context, so a
//! component that needs randomness (RED's drop decision) or the rate (RED's idle-time decay)
//! needs no special construction path.

use crate::config::FlowConfig;
use crate::rng::RandomStream;

pub struct BuildContext<'a> {
    seed: u64,
    /// The component's stream name, `link:<link>:<ab|ba>:<component>`.
    name: String,
    /// The link's stream name, `link:<link>`, for streams both directions share.
    link: String,
    /// Rate of the link direction, bits per second.
    pub rate_bps: u64,
    pub flows: &'a [FlowConfig],
}

impl<'a> BuildContext<'a> {
    /// The context of `component` (`queue`, `loss:<j>`) of direction `direction` of `link`.
    pub fn new(
        seed: u64,
        link: &str,
        direction: &str,
        component: &str,
        rate_bps: u64,
        flows: &'a [FlowConfig],
    ) -> Self {
        BuildContext {
            seed,
            name: format!("link:{link}:{direction}:{component}"),
            link: format!("link:{link}"),
            rate_bps,
            flows,
        }
    }

    /// The component's own random stream, named after it.
    pub fn stream(&self) -> RandomStream {
        RandomStream::new(self.seed, &self.name)
    }

    /// A second stream of the component, `<name>:<purpose>` (e.g. a Good/Bad timeline that
    /// must not depend on how many packets the first stream served).
    pub fn substream(&self, purpose: &str) -> RandomStream {
        RandomStream::new(self.seed, &format!("{}:{purpose}", self.name))
    }

    /// A stream of the link shared by the components of both directions, `link:<link>:<purpose>`.
    pub fn link_stream(&self, purpose: &str) -> RandomStream {
        RandomStream::new(self.seed, &format!("{}:{purpose}", self.link))
    }
}

#[cfg(test)]
impl<'a> BuildContext<'a> {
    /// A context with explicit stream names (tests of stream separation).
    pub fn named(seed: u64, name: &str, link: &str, flows: &'a [FlowConfig]) -> Self {
        BuildContext { seed, name: name.into(), link: link.into(), rate_bps: 1, flows }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_are_named_after_the_link_direction_and_component() {
        let c = BuildContext::new(7, "l", "ab", "loss:0", 1_000_000, &[]);
        let same =
            |mut a: RandomStream, name: &str| a.uniform().to_bits() == RandomStream::new(7, name).uniform().to_bits();
        assert!(same(c.stream(), "link:l:ab:loss:0"));
        assert!(same(c.substream("state"), "link:l:ab:loss:0:state"));
        assert!(same(c.link_stream("shared:3:state"), "link:l:shared:3:state"));
    }
}
