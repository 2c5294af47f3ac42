"""A result's tables built from the engine's output (`EngineOutput`): as rows of plain values
(`engine_rows`, `transfer_rows`: JSON without pandas) or as DataFrames (`engine_frames`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tcpsim.gc_paused import gc_paused
from tcpsim.result.layout import NOT_COMPLETED_NS, TRANSFER_COLUMNS, TRANSFER_TCP_COLUMNS, WEB_COLUMNS, EngineOutput

if TYPE_CHECKING:
    import numpy as np
    import pandas as pd


def engine_rows(engine: EngineOutput) -> dict[str, list[dict[str, Any]]]:
    """Rows of the flows, links, udp and web tables, labelled like the DataFrames of
    :func:`engine_frames`."""
    summary, canonical, nodes = engine.summary, engine.canonical, engine.canonical["nodes"]
    flows = [
        {
            "id": row["id"],
            "name": flow["name"],
            "variant": variant,
            "class": flow_class,
            "src": nodes[flow["src"]],
            "dst": nodes[flow["dst"]],
            **{key: value for key, value in row.items() if key != "id"},
        }
        for row, flow, variant, flow_class in zip(
            summary["flows"], canonical["flows"], engine.flow_variants, engine.flow_classes, strict=True
        )
    ]
    links = [
        {
            "name": canonical["links"][channel["link"]]["name"],
            **{key: value for key, value in channel.items() if key not in ("from", "to")},
            "src": nodes[channel["from"]],
            "dst": nodes[channel["to"]],
        }
        for channel in summary["channels"]
    ]
    udp = []
    for row, source in zip(summary["udp_flows"], canonical["udp_flows"], strict=True):
        first, *others = row.items()
        udp.append(
            dict(
                [first, ("name", source["name"]), ("src", nodes[source["src"]]), ("dst", nodes[source["dst"]]), *others]
            )
        )
    web = [
        {
            "name": generator["name"],
            "class": generator["class"],
            "variant": variant,
            "server": nodes[generator["server"]] if generator["server"] is not None else None,
            "clients": [nodes[client] for client in generator["clients"]],
            **{key: value for key, value in row.items() if key != "id"},
        }
        for row, generator, variant in zip(
            engine.summary["web"], engine.canonical["web"], engine.web_variants, strict=True
        )
    ]
    return {"flows": flows, "links": links, "udp": udp, "web": web}


def _transfer_columns(engine: EngineOutput) -> dict[str, Any]:
    """The transfers table's columns, decoded without numpy (`array`, little-endian)."""
    import array
    import sys

    def column(name: str, code: str) -> array.array:
        values = array.array(code, engine.raw_transfers[name])
        if sys.byteorder == "big":
            values.byteswap()
        return values

    return {
        name: column(name, code)
        for name, code in (
            ("generator", "I"),
            ("client", "I"),
            ("src", "I"),
            ("dst", "I"),
            ("start_ns", "Q"),
            ("end_ns", "Q"),
            ("bytes", "Q"),
            *((name, "I") for name in TRANSFER_TCP_COLUMNS),
        )
    }


def transfer_rows(engine: EngineOutput) -> list[dict[str, Any]]:
    """Rows of the transfers table as JSON-ready dicts (unfinished transfers: null end and FCT)."""
    c = _transfer_columns(engine)
    names = [generator["name"] for generator in engine.canonical["web"]]
    nodes = engine.canonical["nodes"]
    rows = []
    tcp = zip(*(c[name] for name in TRANSFER_TCP_COLUMNS), strict=True)
    for generator, client, src, dst, start, end, size, counts in zip(
        c["generator"], c["client"], c["src"], c["dst"], c["start_ns"], c["end_ns"], c["bytes"], tcp, strict=True
    ):
        completed = end != NOT_COMPLETED_NS
        rows.append(
            {
                "generator": names[generator],
                "client": nodes[client],
                "src": nodes[src],
                "dst": nodes[dst],
                "start_s": start / 1e9,
                "end_s": end / 1e9 if completed else None,
                "bytes": size,
                "fct_s": (end - start) / 1e9 if completed else None,
                "completed": completed,
                **dict(zip(TRANSFER_TCP_COLUMNS, counts, strict=True)),
            }
        )
    return rows


def _transfer_frame(engine: EngineOutput) -> pd.DataFrame:
    import numpy as np
    import pandas as pd

    raw = engine.raw_transfers
    generator, client = _column(raw, "generator", "u4"), _column(raw, "client", "u4")
    src, dst = _column(raw, "src", "u4"), _column(raw, "dst", "u4")
    start, end = _column(raw, "start_ns", "u8"), _column(raw, "end_ns", "u8")
    completed = end != NOT_COMPLETED_NS
    names = np.array([g["name"] for g in engine.canonical["web"]], dtype=object)
    nodes = np.array(engine.canonical["nodes"], dtype=object)
    return pd.DataFrame(
        {
            "generator": names[generator] if len(generator) else np.array([], dtype=object),
            "client": nodes[client] if len(client) else np.array([], dtype=object),
            "src": nodes[src] if len(src) else np.array([], dtype=object),
            "dst": nodes[dst] if len(dst) else np.array([], dtype=object),
            "start_s": start / 1e9,
            "end_s": np.where(completed, end / 1e9, np.nan),
            "bytes": _column(raw, "bytes", "u8").astype("int64"),  # the engine caps sizes at 2^53
            "fct_s": np.where(completed, (end - start) / 1e9, np.nan),
            "completed": completed,
            **{name: _column(raw, name, "u4").astype("int64") for name in TRANSFER_TCP_COLUMNS},
        }
    )


def no_transfers() -> pd.DataFrame:
    """The transfers table of a run without web generators: its columns, no rows."""
    import pandas as pd

    return pd.DataFrame({column: [] for column in TRANSFER_COLUMNS})


@gc_paused
def engine_frames(engine: EngineOutput) -> dict[str, Any]:
    """The DataFrames of a result: flows, links, udp, web, transfers and traces."""
    import pandas as pd

    rows = engine_rows(engine)
    series_names = [f["name"] for f in engine.canonical["flows"]] + [g["name"] for g in engine.canonical["web"]]
    channel_names = [(engine.canonical["links"][c["link"]]["name"], c["direction"]) for c in engine.summary["channels"]]
    return {
        "flows": pd.DataFrame(rows["flows"]) if rows["flows"] else _no_flows(),
        "links": pd.DataFrame(rows["links"]),
        "udp": pd.DataFrame(rows["udp"]),
        "web": pd.DataFrame(rows["web"], columns=WEB_COLUMNS).astype(
            {column: float for column in ("fct_mean_s", "fct_median_s", "fct_p95_s")}
        ),
        "transfers": _transfer_frame(engine),
        "traces": _traces(engine.raw_traces, series_names, channel_names),
    }


def _no_flows() -> pd.DataFrame:
    """The flows table of a run without TCP flows: its label columns, no rows."""
    import pandas as pd

    empty = pd.DataFrame(columns=["id"])
    for position, column in enumerate(("name", "variant", "class", "src", "dst"), start=1):
        empty.insert(position, column, [])
    return empty


def _column(raw: dict[str, Any], name: str, dtype: str) -> np.ndarray:
    import numpy as np

    return np.frombuffer(raw[name], dtype=np.dtype(dtype).newbyteorder("<"))


def _traces(raw: dict[str, Any], flow_names: list[str], channels: list[tuple[str, str]]) -> dict[str, pd.DataFrame]:
    """The trace DataFrames; `flow_names` names the flows, then (in the throughput trace) the
    web generators, whose series follow the flows'."""
    import numpy as np
    import pandas as pd

    out: dict[str, pd.DataFrame] = {}
    names = np.array(flow_names, dtype=object)
    if "cwnd" in raw:
        r = raw["cwnd"]
        flow = _column(r, "flow", "u4")
        out["cwnd"] = pd.DataFrame(
            {
                "time_s": _column(r, "time_ns", "u8") / 1e9,
                "flow": flow,
                "flow_name": names[flow] if len(flow) else [],
                "cwnd_bytes": _column(r, "cwnd_bytes", "u8"),
                "ssthresh_bytes": _column(r, "ssthresh_bytes", "u8"),
                # Bandwidth estimate of the Westwood family (NaN for others) and the smallest RTT
                # sample so far (NaN before the first).
                "bwe_bps": _column(r, "bwe_bps", "f8"),
                "min_rtt_s": np.where(min_rtt := _column(r, "min_rtt_ns", "u8"), min_rtt / 1e9, np.nan),
            }
        )
    if "rtt" in raw:
        r = raw["rtt"]
        flow = _column(r, "flow", "u4")
        out["rtt"] = pd.DataFrame(
            {
                "time_s": _column(r, "time_ns", "u8") / 1e9,
                "flow": flow,
                "flow_name": names[flow] if len(flow) else [],
                "rtt_s": _column(r, "rtt_ns", "u8") / 1e9,
                "srtt_s": _column(r, "srtt_ns", "u8") / 1e9,
                "rto_s": _column(r, "rto_ns", "u8") / 1e9,
            }
        )
    if "queue" in raw:
        r = raw["queue"]
        channel = _column(r, "channel", "u4")
        link = np.array([c[0] for c in channels], dtype=object)
        direction = np.array([c[1] for c in channels], dtype=object)
        out["queue"] = pd.DataFrame(
            {
                "time_s": _column(r, "time_ns", "u8") / 1e9,
                "link": link[channel] if len(channel) else [],
                "direction": direction[channel] if len(channel) else [],
                "packets": _column(r, "packets", "u8"),
                "bytes": _column(r, "bytes", "u8"),
            }
        )
    if "throughput" in raw:
        r = raw["throughput"]
        bin_s = r["bin_ns"] / 1e9
        per_flow = _column(r, "bytes", "u8").reshape(r["series"], -1) if r["series"] else np.zeros((0, 0), "u8")
        n_bins = per_flow.shape[1]
        out["throughput"] = pd.DataFrame(
            {
                "time_s": np.tile(np.arange(n_bins) * bin_s, per_flow.shape[0]),
                "flow": np.repeat(np.arange(per_flow.shape[0]), n_bins),
                "flow_name": np.repeat(names, n_bins),
                "bytes": per_flow.ravel(),
                "throughput_bps": per_flow.ravel() * 8.0 / bin_s,
            }
        )
    return out
