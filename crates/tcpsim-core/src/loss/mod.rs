//! Packet-error models of a link direction.
//!
//! A model is asked once per packet when the packet finishes serialization: the packet used
//! the link but is corrupted and does not arrive. Each model owns its random stream, named
//! after the link, the direction and the model's position, so models never share randomness.
//!
//! Models whose state evolves in time (Gilbert–Elliott, deterministic two-state, outages) are
//! functions of the time the packet asks at, advanced lazily: no events, no allocation per
//! packet. The two-state models draw their Good/Bad timeline from a second stream,
//! `<name>:state`, so the timeline depends only on the seed, the name and time, never on how
//! many packets crossed the link direction.

mod bernoulli;
mod bit_error;
mod gilbert_elliott;
mod good_bad_timeline;
mod ns2_multistate;
mod outage;
mod scripted;
mod two_state;

pub use bernoulli::Bernoulli;
pub use bit_error::BitError;
pub use gilbert_elliott::GilbertElliott;
pub use ns2_multistate::{Ns2MultiState, Ns2PacketMarkov};
pub use outage::{OutageIntervals, PeriodicOutage};
pub use scripted::Scripted;
pub use two_state::DeterministicTwoState;

use crate::build_context::BuildContext;
use crate::config::{InitialChannelState, LossConfig, TwoStateTransitions};
use crate::packet::Packet;

pub enum LossModel {
    Bernoulli(Bernoulli),
    BitError(BitError),
    GilbertElliott(GilbertElliott),
    TwoState(DeterministicTwoState),
    Ns2MultiState(Ns2MultiState),
    PacketMarkov(Ns2PacketMarkov),
    PeriodicOutage(PeriodicOutage),
    OutageIntervals(OutageIntervals),
    Scripted(Scripted),
}

impl LossModel {
    /// Build a model: it draws per packet from the context's stream and its Good/Bad timeline
    /// from the substream `state`; a Gilbert–Elliott model with `shared_state = k` takes its
    /// timeline from the link's stream `shared:<k>:state` instead, so the models of both
    /// directions of the link with that key see the same Good/Bad periods.
    pub fn from_config(cfg: &LossConfig, ctx: &BuildContext) -> Self {
        let stream = || ctx.stream();
        let state_stream = || ctx.substream("state");
        match cfg {
            LossConfig::Bernoulli { p } => LossModel::Bernoulli(Bernoulli::new(*p, stream())),
            LossConfig::BitError { ber } => LossModel::BitError(BitError::new(*ber, stream())),
            LossConfig::GilbertElliott {
                good_mean_ns,
                bad_mean_ns,
                good_loss,
                bad_loss,
                initial,
                shared_state,
                clock_rate_bps,
            } => {
                let state_rng = match shared_state {
                    None => state_stream(),
                    Some(k) => ctx.link_stream(&format!("shared:{k}:state")),
                };
                LossModel::GilbertElliott(GilbertElliott::new(
                    *good_mean_ns,
                    *bad_mean_ns,
                    *good_loss,
                    *bad_loss,
                    *initial,
                    *clock_rate_bps,
                    state_rng,
                    stream(),
                ))
            }
            LossConfig::TwoState {
                good_sojourn_ns,
                bad_sojourn_ns,
                good_loss,
                bad_loss,
                p_bad,
                initial,
                transitions: TwoStateTransitions::Ns2Multistate,
            } => LossModel::Ns2MultiState(Ns2MultiState::new(
                *good_sojourn_ns,
                *bad_sojourn_ns,
                *good_loss,
                *bad_loss,
                *p_bad,
                *initial == InitialChannelState::Bad,
                state_stream(),
                stream(),
            )),
            LossConfig::TwoState {
                good_sojourn_ns,
                bad_sojourn_ns,
                good_loss,
                bad_loss,
                p_bad,
                initial,
                transitions: TwoStateTransitions::Time,
            } => LossModel::TwoState(DeterministicTwoState::new(
                *good_sojourn_ns,
                *bad_sojourn_ns,
                *good_loss,
                *bad_loss,
                *p_bad,
                *initial,
                state_stream(),
                stream(),
            )),
            LossConfig::PacketMarkov { good_mean_pkts, bad_mean_pkts, good_loss, bad_loss, initial } => {
                LossModel::PacketMarkov(Ns2PacketMarkov::new(
                    *good_mean_pkts,
                    *bad_mean_pkts,
                    *good_loss,
                    *bad_loss,
                    *initial,
                    state_stream(),
                    stream(),
                ))
            }
            LossConfig::PeriodicOutage { period_ns, duration_ns, offset_ns } => {
                LossModel::PeriodicOutage(PeriodicOutage::new(*period_ns, *duration_ns, *offset_ns))
            }
            LossConfig::OutageIntervals { intervals_ns } => {
                LossModel::OutageIntervals(OutageIntervals::new(intervals_ns.clone()))
            }
            LossConfig::Scripted { flow, segments } => {
                let mss = ctx.flows[*flow as usize].tcp.mss_bytes as u64;
                LossModel::Scripted(Scripted::new(*flow, segments.iter().map(|n| (n - 1) * mss)))
            }
        }
    }

    /// Whether `p`, which just finished serialization at `now_ns`, is lost.
    #[inline]
    pub fn is_lost(&mut self, p: &Packet, now_ns: u64) -> bool {
        match self {
            LossModel::Bernoulli(m) => m.is_lost(),
            LossModel::BitError(m) => m.is_lost(p.wire_bytes),
            LossModel::GilbertElliott(m) => m.is_lost(p.wire_bytes, now_ns),
            LossModel::TwoState(m) => m.is_lost(now_ns),
            LossModel::Ns2MultiState(m) => m.is_lost(now_ns),
            LossModel::PacketMarkov(m) => m.is_lost(),
            LossModel::PeriodicOutage(m) => m.is_lost(now_ns),
            LossModel::OutageIntervals(m) => m.is_lost(now_ns),
            LossModel::Scripted(m) => m.is_lost(p),
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{json, Value};

    use crate::config::{RecoveryKind, SimConfig};
    use crate::sim::Sim;
    use crate::tcp::tests::tcp_config;

    /// Two disjoint links, x–y and p–q (10 Mb/s, 1 ms, 100 packets), each direction with the
    /// given loss models, and bulk TCP flows between the named node pairs.
    fn scenario(loss_xy: Value, loss_pq: Value, flows: &[(u32, u32)]) -> Value {
        let link = |name: &str, a: u32, b: u32, loss: &Value| {
            let direction =
                json!({"queue": {"kind": "drop_tail", "limit_packets": 100, "limit_bytes": null}, "loss": loss});
            json!({"name": name, "a": a, "b": b, "rate_bps": 10_000_000u64, "delay_ns": 1_000_000u64, "ab": direction, "ba": direction})
        };
        let tcp = serde_json::to_value(tcp_config(RecoveryKind::Newreno, 1)).unwrap();
        let flows: Vec<Value> = flows
            .iter()
            .enumerate()
            .map(|(i, &(src, dst))| {
                json!({"name": format!("f{i}"), "src": src, "dst": dst, "tcp": tcp,
                       "app": {"kind": "bulk", "start_ns": 0, "start_jitter_ns": 100_000_000u64, "stop_ns": null, "bytes": null}})
            })
            .collect();
        json!({"duration_ns": 20_000_000_000u64, "nodes": ["x", "y", "p", "q"],
               "links": [link("xy", 0, 1, &loss_xy), link("pq", 2, 3, &loss_pq)], "flows": flows})
    }

    fn validate(v: Value) -> Result<(), String> {
        serde_json::from_value::<SimConfig>(v).map_err(|e| e.to_string())?.validate()
    }

    /// (tx_packets, drops_error) of every direction of link x–y.
    fn xy_counters(v: Value, seed: u64) -> Vec<(u64, u64)> {
        let mut sim = Sim::new(&serde_json::from_value(v).unwrap(), seed).unwrap();
        sim.run();
        let summary = sim.summary().unwrap();
        summary.channels.iter().filter(|c| c.link == 0).map(|c| (c.tx_packets, c.drops_error)).collect()
    }

    fn every_model() -> Value {
        json!([
            {"kind": "bernoulli", "p": 0.001},
            {"kind": "bit_error", "ber": 1e-7},
            {"kind": "gilbert_elliott", "good_mean_ns": 2_000_000_000u64, "bad_mean_ns": 200_000_000u64,
             "good_loss": 0.0, "bad_loss": 0.05, "initial": "stationary"},
            {"kind": "two_state", "good_sojourn_ns": 1_000_000_000u64, "bad_sojourn_ns": 10_000_000u64,
             "good_loss": 0.0, "bad_loss": 0.1, "p_bad": 0.5, "initial": "good"},
            {"kind": "two_state", "good_sojourn_ns": 1_000_000_000u64, "bad_sojourn_ns": 100_000u64,
             "good_loss": 0.0, "bad_loss": 0.1, "p_bad": 0.5, "initial": "bad", "transitions": "ns2_multistate"},
            {"kind": "periodic_outage", "period_ns": 4_000_000_000u64, "duration_ns": 100_000_000u64, "offset_ns": 0},
            {"kind": "outage_intervals", "intervals_ns": [[5_000_000_000u64, 5_200_000_000u64]]},
            {"kind": "packet_markov", "good_mean_pkts": 8.0, "bad_mean_pkts": 4.0,
             "good_loss": 1e-5, "bad_loss": 0.05, "initial": "good"}
        ])
    }

    #[test]
    fn every_kind_parses_from_the_canonical_form_and_validates() {
        assert_eq!(validate(scenario(every_model(), json!([]), &[(0, 1)])), Ok(()));
    }

    #[test]
    fn invalid_parameters_are_errors_with_their_path() {
        let cases = [
            (json!({"kind": "bit_error", "ber": 1.5}), "links[0].ab.loss[0].ber: 1.5 must be in [0, 1]"),
            (
                json!({"kind": "gilbert_elliott", "good_mean_ns": 0, "bad_mean_ns": 1, "good_loss": 0.0, "bad_loss": 1.0, "initial": "good"}),
                "links[0].ab.loss[0].good_mean_ns: must be > 0",
            ),
            (
                json!({"kind": "two_state", "good_sojourn_ns": 1, "bad_sojourn_ns": 1, "good_loss": 0.0, "bad_loss": 1.0, "p_bad": -0.5, "initial": "bad"}),
                "links[0].ab.loss[0].p_bad: -0.5 must be in [0, 1]",
            ),
            (
                json!({"kind": "periodic_outage", "period_ns": 10, "duration_ns": 11, "offset_ns": 0}),
                "links[0].ab.loss[0].duration_ns: 11 must be <= period_ns (10)",
            ),
            (
                json!({"kind": "gilbert_elliott", "good_mean_ns": 1, "bad_mean_ns": 1, "good_loss": 0.0, "bad_loss": 1.0, "initial": "good",
                       "clock_rate_bps": 0}),
                "links[0].ab.loss[0].clock_rate_bps: must be > 0",
            ),
            (
                json!({"kind": "gilbert_elliott", "good_mean_ns": 1, "bad_mean_ns": 1, "good_loss": 0.0, "bad_loss": 1.0, "initial": "good",
                       "clock_rate_bps": 2_000_000, "shared_state": 0}),
                "links[0].ab.loss[0].clock_rate_bps: a transmission-time clock counts one direction's packets; it cannot drive the shared timeline 0",
            ),
            (
                json!({"kind": "two_state", "good_sojourn_ns": 1, "bad_sojourn_ns": 1, "good_loss": 0.0, "bad_loss": 1.0, "p_bad": 0.5,
                       "initial": "stationary", "transitions": "ns2_multistate"}),
                "links[0].ab.loss[0].initial: \"stationary\" has no ns-2 counterpart with transitions = \"ns2_multistate\"; use \"good\" or \"bad\"",
            ),
            (json!({"kind": "outage_intervals", "intervals_ns": [[5, 5]]}), "links[0].ab.loss[0].intervals_ns[0]: start 5 must be < end 5"),
            (
                json!({"kind": "outage_intervals", "intervals_ns": [[1, 5], [4, 6]]}),
                "links[0].ab.loss[0].intervals_ns[1]: start 4 must be >= the previous window's end 5 (sorted, disjoint)",
            ),
            (json!({"kind": "scripted", "flow": 0, "segments": [3, 0]}), "links[0].ab.loss[0].segments[1]: 0 is not a segment number; segments count from 1"),
        ];
        for (model, message) in cases {
            assert_eq!(validate(scenario(json!([model]), json!([]), &[(0, 1)])), Err(message.to_string()));
        }
        let unknown = validate(scenario(
            json!([{"kind": "gilbert_elliott", "good_mean_ns": 1, "bad_mean_ns": 1, "good_loss": 0.0,
                                                 "bad_loss": 1.0, "initial": "good", "burst": 3}]),
            json!([]),
            &[(0, 1)],
        ));
        assert!(unknown.unwrap_err().contains("unknown field `burst`"));
        let state = validate(scenario(
            json!([{"kind": "two_state", "good_sojourn_ns": 1, "bad_sojourn_ns": 1, "good_loss": 0.0,
                                               "bad_loss": 1.0, "p_bad": 0.5, "initial": "ugly"}]),
            json!([]),
            &[(0, 1)],
        ));
        assert!(state.unwrap_err().contains("unknown variant `ugly`"));
    }

    /// The Good/Bad state of a Gilbert–Elliott model at 1 ms steps over 60 s.
    fn timeline(model: &Value, stream_name: &str) -> Vec<bool> {
        let cfg: crate::config::LossConfig = serde_json::from_value(model.clone()).unwrap();
        let ctx = crate::build_context::BuildContext::named(3, stream_name, "link:l", &[]);
        let super::LossModel::GilbertElliott(mut m) = super::LossModel::from_config(&cfg, &ctx) else {
            panic!("not a Gilbert–Elliott model")
        };
        (0..60_000u64).map(|t| m.is_bad_at(t * 1_000_000)).collect()
    }

    #[test]
    fn a_shared_state_key_gives_both_directions_one_timeline() {
        let ge = |shared: Value| {
            json!({"kind": "gilbert_elliott", "good_mean_ns": 1_000_000_000u64, "bad_mean_ns": 100_000_000u64,
                   "good_loss": 0.0, "bad_loss": 1.0, "initial": "stationary", "shared_state": shared})
        };
        let (ab, ba) = (timeline(&ge(json!(0)), "link:l:ab:loss:0"), timeline(&ge(json!(0)), "link:l:ba:loss:1"));
        assert_eq!(ab, ba);
        assert!(ab.iter().any(|&b| b) && ab.iter().any(|&b| !b));
        let own = (timeline(&ge(Value::Null), "link:l:ab:loss:0"), timeline(&ge(Value::Null), "link:l:ba:loss:0"));
        assert_ne!(own.0, own.1, "without a key each direction has its own timeline");
        // Parameters must agree, and a key appears once per direction.
        let mut v = scenario(json!([ge(json!(0))]), json!([]), &[(0, 1)]);
        assert_eq!(validate(v.clone()), Ok(()));
        v["links"][0]["ba"]["loss"][0]["bad_mean_ns"] = json!(200_000_000u64);
        assert_eq!(validate(v), Err("links[0]: the two directions' models with shared_state 0 differ".to_string()));
        let twice = scenario(json!([ge(json!(0)), ge(json!(0))]), json!([]), &[(0, 1)]);
        assert_eq!(validate(twice), Err("links[0]: shared_state 0 appears twice in one direction".to_string()));
    }

    #[test]
    fn a_flow_and_loss_models_on_another_link_do_not_change_this_links_losses() {
        // docs/architecture.md, "Randomness": x–y's streams are named after x–y, so the p–q flow (with its own
        // start jitter) and p–q's loss models draw nothing from them.
        let alone = xy_counters(scenario(every_model(), json!([]), &[(0, 1)]), 7);
        let with_other = xy_counters(scenario(every_model(), every_model(), &[(0, 1), (2, 3)]), 7);
        assert_eq!(alone, with_other);
        assert!(alone.iter().all(|&(_, drops)| drops > 0), "every direction loses packets: {alone:?}");
        assert_ne!(alone, xy_counters(scenario(every_model(), json!([]), &[(0, 1)]), 8), "another seed, other losses");
    }
}
