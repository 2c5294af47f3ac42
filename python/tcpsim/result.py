"""The result of one run: per-flow and per-link tables, time series, and run metadata.

Everything is held in pandas DataFrames and plain dicts so that a result travels between
processes (the parallel runner's workers), is cached as data (``tcpsim.cache``) and converts to
JSON, CSV and Parquet without the engine.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

TRACE_KINDS = ("cwnd", "rtt", "queue", "throughput")
SAVED_FILES = ("flows.csv", "links.csv", "udp.csv", "meta.json", *(f"trace_{kind}.parquet" for kind in TRACE_KINDS))
"""Every file :meth:`RunResult.save` may write."""

FLOW_JSON_COLUMNS = [
    "id", "name", "variant", "src", "dst", "throughput_bps", "goodput_bps", "bytes_delivered",
    "bytes_sent", "bytes_retransmitted", "timeouts", "fast_retransmits",
    "fast_retransmitted_segments", "spurious_fast_retransmits", "rtt_min_s", "rtt_mean_s",
]
LINK_JSON_COLUMNS = [
    "name", "direction", "src", "dst", "rate_bps", "utilization", "tx_packets", "drops_queue",
    "drops_error", "queue_mean_pkts", "queue_max_pkts",
]


@dataclass
class RunResult:
    """Per-flow (`flows`), per-link-direction (`links`) and per-UDP-source (`udp`) summaries
    over the measurement window [warmup, duration], the recorded time series, and `meta`."""

    flows: pd.DataFrame
    links: pd.DataFrame
    meta: dict[str, Any]
    traces: dict[str, pd.DataFrame] = field(default_factory=dict)
    udp: pd.DataFrame = field(default_factory=pd.DataFrame)
    """One row per UDP constant-bit-rate source: packets/bytes sent and received, throughput."""

    def trace(self, kind: str) -> pd.DataFrame:
        """The time series `kind` (one of cwnd, rtt, queue, throughput) as a DataFrame."""
        if kind not in TRACE_KINDS:
            raise ValueError(f"trace kind {kind!r} is unknown; allowed: {', '.join(TRACE_KINDS)}")
        if kind not in self.traces:
            raise KeyError(
                f"trace {kind!r} was not recorded; enable it in the scenario's [trace] table "
                f"(e.g. --set trace.{'throughput_bin=1s' if kind == 'throughput' else kind + '=true'})"
            )
        return self.traces[kind]

    def to_json_dict(self) -> dict[str, Any]:
        """meta, flows and links as JSON-ready objects (NaN becomes null)."""
        return {
            "meta": self.meta,
            "flows": _records(self.flows[[c for c in FLOW_JSON_COLUMNS if c in self.flows]]),
            "links": _records(self.links[[c for c in LINK_JSON_COLUMNS if c in self.links]]),
            "udp": _records(self.udp),
        }

    def save(self, directory: str | Path) -> Path:
        """Write flows.csv, links.csv, udp.csv (if any), meta.json and one Parquet file per
        recorded trace. A previous save's files in ``directory`` are removed first, so none of
        them lingers beside this result's (a trace or UDP table it did not record); other files
        are left alone."""
        out = Path(directory)
        out.mkdir(parents=True, exist_ok=True)
        for name in SAVED_FILES:
            (out / name).unlink(missing_ok=True)
        self.flows.to_csv(out / "flows.csv", index=False)
        if not self.udp.empty:
            self.udp.to_csv(out / "udp.csv", index=False)
        self.links.to_csv(out / "links.csv", index=False)
        (out / "meta.json").write_text(json.dumps(self.meta, indent=2) + "\n")
        for kind, df in self.traces.items():
            df.to_parquet(out / f"trace_{kind}.parquet", index=False)
        return out


def _records(df: pd.DataFrame) -> list[dict[str, Any]]:
    return json.loads(df.to_json(orient="records"))


def _column(raw: dict[str, Any], name: str, dtype: str) -> np.ndarray:
    return np.frombuffer(raw[name], dtype=np.dtype(dtype).newbyteorder("<"))


def build_result(engine_summary: dict[str, Any], raw_traces: dict[str, Any], canonical: dict[str, Any],
                 flow_variants: list[str], meta: dict[str, Any]) -> RunResult:
    """Assemble a RunResult from the engine's output and the canonical scenario it ran.

    ``meta`` gains the engine's ``trace_truncated`` (the cwnd, rtt and queue traces stopped at
    the canonical ``trace.max_rows`` rows) and ``trace_truncated_at_s`` (simulated time of the
    first row left out, or None)."""
    meta = meta | {key: engine_summary[key] for key in ("trace_truncated", "trace_truncated_at_s")}
    nodes = canonical["nodes"]
    flow_names = [f["name"] for f in canonical["flows"]]
    flows = pd.DataFrame(engine_summary["flows"])
    if flows.empty:
        flows = pd.DataFrame(columns=["id"])
    flows.insert(1, "name", flow_names)
    flows.insert(2, "variant", flow_variants)
    flows.insert(3, "src", [nodes[f["src"]] for f in canonical["flows"]])
    flows.insert(4, "dst", [nodes[f["dst"]] for f in canonical["flows"]])
    links = pd.DataFrame(engine_summary["channels"])
    links.insert(0, "name", [canonical["links"][c["link"]]["name"] for c in engine_summary["channels"]])
    links["src"] = [nodes[c["from"]] for c in engine_summary["channels"]]
    links["dst"] = [nodes[c["to"]] for c in engine_summary["channels"]]
    links = links.drop(columns=["from", "to"])
    channel_names = [(canonical["links"][c["link"]]["name"], c["direction"]) for c in engine_summary["channels"]]
    traces = _traces(raw_traces, flow_names, channel_names)
    udp = pd.DataFrame(engine_summary["udp_flows"])
    if not udp.empty:
        sources = canonical["udp_flows"]
        udp.insert(1, "name", [u["name"] for u in sources])
        udp.insert(2, "src", [nodes[u["src"]] for u in sources])
        udp.insert(3, "dst", [nodes[u["dst"]] for u in sources])
    return RunResult(flows=flows, links=links, meta=meta, traces=traces, udp=udp)


def _traces(raw: dict[str, Any], flow_names: list[str], channels: list[tuple[str, str]]) -> dict[str, pd.DataFrame]:
    out: dict[str, pd.DataFrame] = {}
    names = np.array(flow_names, dtype=object)
    if "cwnd" in raw:
        r = raw["cwnd"]
        flow = _column(r, "flow", "u4")
        out["cwnd"] = pd.DataFrame({
            "time_s": _column(r, "time_ns", "u8") / 1e9,
            "flow": flow,
            "flow_name": names[flow] if len(flow) else [],
            "cwnd_bytes": _column(r, "cwnd_bytes", "u8"),
            "ssthresh_bytes": _column(r, "ssthresh_bytes", "u8"),
            # Bandwidth estimate of the Westwood family (NaN for others) and the smallest RTT
            # sample so far (NaN before the first).
            "bwe_bps": _column(r, "bwe_bps", "f8"),
            "min_rtt_s": np.where(min_rtt := _column(r, "min_rtt_ns", "u8"), min_rtt / 1e9, np.nan),
        })
    if "rtt" in raw:
        r = raw["rtt"]
        flow = _column(r, "flow", "u4")
        out["rtt"] = pd.DataFrame({
            "time_s": _column(r, "time_ns", "u8") / 1e9,
            "flow": flow,
            "flow_name": names[flow] if len(flow) else [],
            "rtt_s": _column(r, "rtt_ns", "u8") / 1e9,
            "srtt_s": _column(r, "srtt_ns", "u8") / 1e9,
            "rto_s": _column(r, "rto_ns", "u8") / 1e9,
        })
    if "queue" in raw:
        r = raw["queue"]
        channel = _column(r, "channel", "u4")
        link = np.array([c[0] for c in channels], dtype=object)
        direction = np.array([c[1] for c in channels], dtype=object)
        out["queue"] = pd.DataFrame({
            "time_s": _column(r, "time_ns", "u8") / 1e9,
            "link": link[channel] if len(channel) else [],
            "direction": direction[channel] if len(channel) else [],
            "packets": _column(r, "packets", "u8"),
            "bytes": _column(r, "bytes", "u8"),
        })
    if "throughput" in raw:
        r = raw["throughput"]
        bin_s = r["bin_ns"] / 1e9
        per_flow = _column(r, "bytes", "u8").reshape(r["flows"], -1) if r["flows"] else np.zeros((0, 0), "u8")
        n_bins = per_flow.shape[1]
        out["throughput"] = pd.DataFrame({
            "time_s": np.tile(np.arange(n_bins) * bin_s, per_flow.shape[0]),
            "flow": np.repeat(np.arange(per_flow.shape[0]), n_bins),
            "flow_name": np.repeat(names, n_bins),
            "bytes": per_flow.ravel(),
            "throughput_bps": per_flow.ravel() * 8.0 / bin_s,
        })
    return out
