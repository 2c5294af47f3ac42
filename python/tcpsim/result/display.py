"""How a RunResult shows itself: a one-line `repr` and a compact HTML summary for Jupyter.

A notebook cell that ends with a result should show what a researcher looks at first (per-flow
goodput, the busiest links, the classes) and where the rest is, not every table and column.
`RunResult.__repr__` and `RunResult._repr_html_` hand over the parts shown, so this module
does not know the class.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd

#: Rows shown per table before "… N more".
MAX_ROWS = 8
_FLOW_COLUMNS = {
    "name": "flow",
    "variant": "variant",
    "goodput_bps": "goodput (Mb/s)",
    "throughput_bps": "throughput (Mb/s)",
    "packets_dropped": "drops",
    "timeouts": "timeouts",
    "rtt_mean_s": "mean RTT (ms)",
}
_LINK_COLUMNS = {
    "name": "link",
    "direction": "dir",
    "utilization": "utilization",
    "drops_queue": "queue drops",
    "drops_error": "loss drops",
    "queue_mean_pkts": "mean queue (pkts)",
}
_CLASS_COLUMNS = {
    "class": "class",
    "flows": "flows",
    "throughput_bps": "throughput (Mb/s)",
    "share": "share",
    "jain": "Jain",
}
_SCALE = {"goodput_bps": 1e-6, "throughput_bps": 1e-6, "rtt_mean_s": 1e3}


def one_line(meta: dict[str, Any], counts: dict[str, int]) -> str:
    """`repr`: what the result is and how to look inside, in one line (`counts`: the numbers of
    flows and link directions, `RunResult.counts`)."""
    return (
        f"<RunResult seed={meta.get('seed')}: {_plural(counts['flows'], 'flow')}, "
        f"{_plural(counts['links'], 'link direction')}, {meta.get('sim_s', 0.0):g} s simulated, "
        f"{meta.get('events', 0):,} events; see .flows .links .classes .traces>"
    )


def summary_html(
    meta: dict[str, Any],
    flows: pd.DataFrame,
    links: pd.DataFrame,
    classes: pd.DataFrame,
    web: pd.DataFrame,
    trace_kinds: Sequence[str],
) -> str:
    """The Jupyter view: a header line, per-flow, busiest links and (two or more) classes."""
    parts = [
        "<div class='tcpsim-run'>",
        f"<p><b>tcpsim run</b> · seed {_e(meta.get('seed'))} · {meta.get('sim_s', 0.0):g} s simulated · "
        f"{meta.get('events', 0):,} events in {meta.get('wall_s', 0.0):.3g} s · "
        f"scenario <code>{_e(str(meta.get('scenario_hash', ''))[:12])}</code> · tcpsim {_e(meta.get('version'))}</p>",
        _table("Flows", flows, _FLOW_COLUMNS, sort=None),
        _table("Links (busiest first)", links, _LINK_COLUMNS, sort="utilization"),
    ]
    if len(classes) >= 2:
        parts.append(_table("Classes", classes, _CLASS_COLUMNS, sort=None))
    if not web.empty:
        parts.append(f"<p>{len(web)} web generator(s): see <code>.web</code> and <code>.transfers</code></p>")
    if trace_kinds:
        names = ", ".join(f"<code>{_e(kind)}</code>" for kind in trace_kinds)
        parts.append(f"<p>Traces: {names} (<code>.trace(kind)</code>, <code>.plot(kind)</code>)</p>")
    parts.append("</div>")
    return "\n".join(parts)


def _table(title: str, df: pd.DataFrame, columns: dict[str, str], sort: str | None) -> str:
    if df.empty:
        return f"<p><i>{_e(title)}: none</i></p>"
    if sort is not None:
        df = df.sort_values(sort, ascending=False, kind="stable")
    shown = df[[column for column in columns if column in df.columns]].head(MAX_ROWS).copy()
    for column, scale in _SCALE.items():
        if column in shown.columns:
            shown[column] = shown[column] * scale
    shown = shown.rename(columns=columns)
    more = len(df) - len(shown)
    caption = _e(title) + (f" (first {len(shown)} of {len(df)})" if more > 0 else "")
    body = shown.to_html(index=False, float_format=lambda value: f"{value:.4g}", border=0, na_rep="–")
    return f"<p><b>{caption}</b></p>\n{body}"


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def _e(value: Any) -> str:
    return html.escape(str(value))
