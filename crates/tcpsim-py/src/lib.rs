//! Thin PyO3 bindings: run a canonical scenario and hand back the summary as JSON text, and
//! the traces and the web transfers as little-endian byte buffers (one per column) that numpy
//! reads without copying element by element. The simulation runs with the GIL released, taking it back briefly every
//! few thousand events to run Python's signal handlers, so Ctrl-C stops it.

use std::path::PathBuf;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

use tcpsim_core::app::connections::Transfer;
use tcpsim_core::trace::Trace;

/// A column as raw little-endian bytes.
trait Column {
    fn byte_len(&self) -> usize;
    fn write_le(&self, out: &mut [u8]);
}

macro_rules! column {
    ($t:ty) => {
        impl Column for Vec<$t> {
            fn byte_len(&self) -> usize {
                self.len() * std::mem::size_of::<$t>()
            }
            fn write_le(&self, out: &mut [u8]) {
                for (chunk, v) in out.chunks_exact_mut(std::mem::size_of::<$t>()).zip(self) {
                    chunk.copy_from_slice(&v.to_le_bytes());
                }
            }
        }
    };
}

column!(u64);
column!(u32);
column!(f64);

/// Each column is written straight into a Python bytes object: when Python cannot allocate
/// it (a forced run with huge traces, issue 27), the caller gets MemoryError, not a panic.
fn table<'py>(py: Python<'py>, columns: &[(&str, &dyn Column)]) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    for (name, col) in columns {
        let bytes = PyBytes::new_with(py, col.byte_len(), |out| {
            col.write_le(out);
            Ok(())
        })?;
        d.set_item(*name, bytes)?;
    }
    Ok(d)
}

fn traces<'py>(py: Python<'py>, t: &Trace) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    if t.cwnd_on {
        let c = &t.cwnd;
        d.set_item(
            "cwnd",
            table(
                py,
                &[
                    ("time_ns", &c.time_ns),
                    ("flow", &c.flow),
                    ("cwnd_bytes", &c.cwnd_bytes),
                    ("ssthresh_bytes", &c.ssthresh_bytes),
                    ("bwe_bps", &c.bwe_bps),
                    ("min_rtt_ns", &c.min_rtt_ns),
                ],
            )?,
        )?;
    }
    if t.rtt_on {
        let r = &t.rtt;
        d.set_item(
            "rtt",
            table(
                py,
                &[
                    ("time_ns", &r.time_ns),
                    ("flow", &r.flow),
                    ("rtt_ns", &r.rtt_ns),
                    ("srtt_ns", &r.srtt_ns),
                    ("rto_ns", &r.rto_ns),
                ],
            )?,
        )?;
    }
    if t.queue_on {
        let q = &t.queue;
        d.set_item(
            "queue",
            table(
                py,
                &[("time_ns", &q.time_ns), ("channel", &q.channel), ("packets", &q.packets), ("bytes", &q.bytes)],
            )?,
        )?;
    }
    if t.throughput_bin_ns > 0 {
        let bins: Vec<u64> = t.delivered_bins.iter().flatten().copied().collect();
        let d2 = table(py, &[("bytes", &bins)])?;
        d2.set_item("bin_ns", t.throughput_bin_ns)?;
        d2.set_item("series", t.delivered_bins.len())?;
        d.set_item("throughput", d2)?;
    }
    Ok(d)
}

/// One column per field of the transfers table (`end_ns` u64::MAX: not completed).
fn transfers<'py>(py: Python<'py>, rows: &[Transfer]) -> PyResult<Bound<'py, PyDict>> {
    let column_u32 = |f: fn(&Transfer) -> u32| rows.iter().map(f).collect::<Vec<u32>>();
    let column_u64 = |f: fn(&Transfer) -> u64| rows.iter().map(f).collect::<Vec<u64>>();
    table(
        py,
        &[
            ("generator", &column_u32(|t| t.generator)),
            ("client", &column_u32(|t| t.client)),
            ("src", &column_u32(|t| t.src)),
            ("dst", &column_u32(|t| t.dst)),
            ("start_ns", &column_u64(|t| t.start_ns)),
            ("end_ns", &column_u64(|t| t.end_ns)),
            ("bytes", &column_u64(|t| t.bytes)),
            ("packets_sent", &column_u32(|t| t.tcp.packets_sent)),
            ("packets_retransmitted", &column_u32(|t| t.tcp.packets_retransmitted)),
            ("timeouts", &column_u32(|t| t.tcp.timeouts)),
            ("fast_retransmits", &column_u32(|t| t.tcp.fast_retransmits)),
        ],
    )
}

/// run(config_json, seed, pcap_paths=None) -> (summary_json, traces, transfers)
///
/// `pcap_paths`: one file path per entry of the scenario's `trace.pcap`, then of its
/// `trace.pcap_nodes`, where the captures are written; None captures nothing.
/// Raises ValueError if the canonical scenario is malformed, the run breaks an invariant or a
/// capture cannot be written.
/// Pending signals are handled every `STOP_CHECK_EVENTS` events: a handler that raises (Ctrl-C's
/// KeyboardInterrupt) stops the run and its exception propagates.
#[pyfunction]
#[pyo3(signature = (config_json, seed, pcap_paths=None))]
#[allow(clippy::type_complexity)]
fn run<'py>(
    py: Python<'py>,
    config_json: &str,
    seed: u64,
    pcap_paths: Option<Vec<PathBuf>>,
) -> PyResult<(String, Bound<'py, PyDict>, Bound<'py, PyDict>)> {
    let mut interrupt: Option<PyErr> = None;
    let outcome = py.detach(|| {
        let mut sim = tcpsim_core::sim_from_json(config_json, seed, pcap_paths.as_deref())?;
        let finished = sim.run_unless_stopped(|| match Python::attach(|py| py.check_signals()) {
            Ok(()) => false,
            Err(e) => {
                interrupt = Some(e);
                true
            }
        });
        if let Some(pcap) = sim.trace.pcap.as_mut() {
            pcap.finish()?;
        }
        if !finished {
            return Ok(None);
        }
        let summary = sim.summary()?;
        let json = serde_json::to_string(&summary).map_err(|e| e.to_string())?;
        Ok::<_, String>(Some((json, sim)))
    });
    match outcome.map_err(PyValueError::new_err)? {
        Some((json, sim)) => Ok((json, traces(py, &sim.trace)?, transfers(py, sim.transfers())?)),
        None => Err(interrupt.expect("a run stops only on a raised signal handler")),
    }
}

/// source_digest() -> sha256 hex of the engine's sources this library was built from (see
/// build.rs): the result store's key uses it, so a rebuild of the same sources anywhere reuses
/// stored runs.
#[pyfunction]
fn source_digest() -> &'static str {
    env!("TCPSIM_SOURCE_DIGEST")
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(run, m)?)?;
    m.add_function(wrap_pyfunction!(source_digest, m)?)?;
    m.add("ENGINE_VERSION", env!("CARGO_PKG_VERSION"))?;
    // The git commit this library was built from, "unknown" outside a checkout (build.rs).
    m.add("BUILD_COMMIT", env!("TCPSIM_BUILD_COMMIT"))?;
    // "pgo", "instrumented" or "plain": how the compiler optimized this library (build.rs).
    m.add("ENGINE_BUILD", env!("TCPSIM_ENGINE_BUILD"))?;
    Ok(())
}
