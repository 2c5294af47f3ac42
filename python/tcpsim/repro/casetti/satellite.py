"""Sec. 5.3 of `casetti`: the LEO satellite link with periodic hand-offs (fig18)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from tcpsim.repro import register
from tcpsim.repro.casetti import checks
from tcpsim.repro.casetti.common import (
    BASE_TCP,
    CONFIGS,
    MAIN,
    ThroughputSweep,
    bernoulli,
    buffer_pkts,
    flow_spec,
    fmt_bps,
    fmt_ms,
)
from tcpsim.repro.framework import Claim, Outcome
from tcpsim.repro.ns2_queue import ns2_drop_tail
from tcpsim.tidy import RunKey

if TYPE_CHECKING:
    from tcpsim.result import RunResult


@register
class Fig18(ThroughputSweep):
    id = "casetti.fig18"
    kind = "simulation"
    title = "LEO satellite (one-way 100 ms, 0.1 % errors, 100 ms hand-off every 4 s): throughput vs capacity"
    setup = (
        "A LEO satellite link gateway → terminal: one-way 100 ms, a buffer of one bandwidth-delay product "
        "(RTT 200 ms), 0.1 % Bernoulli packet errors and a 100 ms total outage (hand-off) every 4 s from 2 s "
        "on, both directions; capacity swept 0.5…10 Mb/s (the paper gives no range); TCPW vs Reno vs SACK "
        "with fig9's TCP, 600 s (300 s in quick mode), the first 20 s excluded, and fig9's sensitivity runs "
        "at 10 Mb/s. Checked: TCPW above Reno and SACK at every capacity and at least twice their throughput "
        "at 10 Mb/s, and its gain increasing with the capacity; the paper reports no numbers for this "
        "figure."
    )
    xlabel = "satellite link capacity (Mb/s)"
    axis = "capacity_bps"
    grid_full = (0.5e6, 1e6, 2e6, 4e6, 6e6, 8e6, 10e6)
    grid_quick = (1e6, 4e6, 10e6)
    headline_x = 10e6
    x_plot_scale = 1e-6
    x_unit = " Mb/s"
    one_way_s = 0.100
    error_p = 0.001
    handoff_period_s = 4.0
    handoff_s = 0.100
    far_above = 1.0
    """"Far above": TCPW at least twice Reno's and SACK's throughput at the highest capacity."""

    def scenario(self, config: str, x: float, quick: bool) -> dict[str, Any]:
        c = CONFIGS[config]
        rtt = 2 * self.one_way_s
        loss = bernoulli(self.error_p) + [
            {
                "kind": "outage",
                "period": f"{self.handoff_period_s}s",
                "duration": fmt_ms(self.handoff_s),
                "offset": "2s",
                "direction": "both",
            }
        ]
        return {
            "name": f"casetti LEO satellite, {c.label}",
            "duration": f"{self.duration(quick)}s",
            "warmup": f"{self.warmup_s}s",
            "tcp": {**BASE_TCP, **c.tcp},
            "links": [
                {
                    "name": "satellite",
                    "a": "gateway",
                    "b": "terminal",
                    "rate": fmt_bps(x),
                    "delay": fmt_ms(self.one_way_s),
                    "queue": ns2_drop_tail(buffer_pkts(x, rtt)),
                    "loss": loss,
                }
            ],
            "flows": [flow_spec("tcp", "gateway", "terminal", config)],
        }

    def analyze(self, results: Mapping[RunKey, RunResult], quick: bool) -> Outcome:
        t = self.table(results)
        out = self.base_outcome(t, quick, results)
        grid = list(self.grid(quick))
        top = grid[-1]
        above, above_test = checks.above_everywhere(
            {x: {CONFIGS[c].label: t[(x, c)] for c in MAIN} for x in grid}, CONFIGS["westwood"].label, self.label
        )
        far, far_test = checks.ratio_at_least(
            t[(top, "westwood")], {CONFIGS[o].label: t[(top, o)] for o in ("reno", "sack")}, 1 + self.far_above
        )
        out.claims.append(
            Claim(
                "TCPW far above Reno and SACK (above at every capacity, ≥ 2× at the highest)",
                above and far,
                f"{above_test}; at {self.label(top)}, {far_test}. "
                + "; ".join(f"{x / 1e6:g} Mb/s: {self.throughput_detail(t, x)}" for x in grid),
            )
        )
        out.claims += self.increase_claims(t, grid, "the capacity (more so at high speed)")
        out.notes.append(
            f"one satellite link gateway → terminal of the given capacity, one-way {self.one_way_s * 1e3:g} ms, "
            f"buffer = BDP (RTT 200 ms); {self.error_p:.1%} Bernoulli packet errors and a "
            f"{self.handoff_s * 1e3:g} ms total outage every {self.handoff_period_s:g} s (first at 2 s) in both "
            "directions; the paper gives no capacity range: 0.5–10 Mb/s"
        )
        return out
