//! tcpsim-core: a deterministic packet-level discrete-event simulator for TCP
//! congestion-control research. No Python here; `tcpsim-py` wraps it.
//!
//! Entry point: build a [`sim::Sim`] from a [`config::SimConfig`] and a seed, `run()` it,
//! read `summary()` and `trace`. See `../../README.md` for the architecture.

use std::path::PathBuf;

pub mod app;
pub mod build_context;
pub mod config;
pub mod context;
pub mod engine;
pub mod loss;
pub mod net;
pub mod packet;
pub mod prefetch;
pub mod queue;
pub mod results;
pub mod rng;
pub mod schema;
pub mod sim;
pub mod tcp;
pub mod time;
pub mod trace;

/// Build the simulation of a canonical scenario (JSON text of a [`config::SimConfig`]) with
/// `seed`, ready to run. `pcap_paths`, if given, are the files of the scenario's packet
/// captures (`trace.pcap`, then `trace.pcap_nodes`), one each in order, created now; without
/// them nothing is captured.
pub fn sim_from_json(config_json: &str, seed: u64, pcap_paths: Option<&[PathBuf]>) -> Result<sim::Sim, String> {
    let cfg: config::SimConfig = serde_json::from_str(config_json).map_err(|e| format!("canonical scenario: {e}"))?;
    let mut sim = sim::Sim::new(&cfg, seed)?;
    if let Some(paths) = pcap_paths {
        sim.trace.pcap = Some(Box::new(trace::pcap::Pcap::create(&cfg, paths)?));
    }
    Ok(sim)
}
