"""Template of a user's own experiments (docs/your-experiments.md): a package with an entry point
``mylab = "mylab_experiments"`` in the group ``tcpsim.experiments`` adds the paper ``mylab``, whose
experiments ``tcpsim repro mylab`` runs, scores and reports like the shipped papers'."""

from collections.abc import Mapping

from tcpsim.repro import register
from tcpsim.repro.framework import Claim, Experiment, Number, Outcome, Series
from tcpsim.result import RunResult
from tcpsim.runner import RunSpec
from tcpsim.tidy import RunKey

BUFFERS_PKTS = (5, 20, 80)
"""Bottleneck buffers of the sweep, packets (the one-BDP buffer of `single_flow` is about 43)."""


@register
class BufferSweep(Experiment):
    id = "mylab.buffer_sweep"
    paper = "mylab"  # the entry point's name
    kind = "simulation"
    title = "one NewReno flow over 2 Mb/s, RTT 250 ms: utilization against the buffer"
    setup = (
        "The bundled single_flow scenario (one NewReno flow, 2 Mb/s bottleneck, 250 ms RTT) with a drop-tail "
        "bottleneck buffer of 5, 20 or 80 packets, 100 s (30 s quick), measured after 10 s. Checked: utilization "
        "rises with the buffer; with 80 packets (about 2 BDP) it is within 5 % of 1 (Villamizar & Song 1994: "
        "one BDP of buffer keeps a lone Reno flow's link busy)."
    )
    xlabel = "bottleneck buffer (packets)"
    ylabel = "bottleneck utilization"

    def runs(self, quick: bool, seeds: int | None) -> list[RunSpec]:
        duration = "30s" if quick else "100s"
        return [
            RunSpec(
                key=RunKey(buffer=b),
                scenario="single_flow",  # a bundled scenario by name, or a path to your own TOML
                seed=1,  # nothing in it is random: one run is exact
                overrides=(("duration", duration), ("warmup", "10s"), ("links[1].queue", f"{b}pkt")),
            )
            for b in BUFFERS_PKTS
        ]

    def analyze(self, results: Mapping[RunKey, RunResult], quick: bool) -> Outcome:
        def utilization(b: int) -> float:
            links = results[RunKey(buffer=b)].links
            return float(links[(links["name"] == "bottleneck") & (links["direction"] == "ab")]["utilization"].iloc[0])

        u = [utilization(b) for b in BUFFERS_PKTS]
        return Outcome(
            series=[Series("NewReno", list(BUFFERS_PKTS), u)],
            claims=[
                Claim("utilization rises with the buffer", u == sorted(u), f"utilizations {[round(x, 3) for x in u]}")
            ],
            numbers=[Number("utilization with 80 packets", paper=1.0, measured=u[-1], tolerance=0.05)],
        )
