"""A compiled scenario: what a run needs of a validated scenario, as plain data.

Validating a scenario takes its models (`tcpsim.scenario`, built on pydantic); running it needs
only what they produce: the engine's canonical input and the labels its results carry (flow
variants and classes, capture files, the trace row cap). Compiled once, a scenario runs
(`tcpsim.engine_run`) without loading the models again: `tcpsim run` keeps it between processes
(`tcpsim.scenario_cache`), so running the same file again skips validation. This module imports
nothing heavy; `compile_scenario` takes a loaded Scenario.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tcpsim.gc_paused import gc_paused

if TYPE_CHECKING:
    from tcpsim.scenario import Scenario


@dataclass(frozen=True)
class CompiledScenario:
    """A validated scenario in the engine's form, with the labels of its results."""

    name: str | None
    canonical: dict[str, Any]
    """:meth:`Scenario.to_engine`: the engine's input."""
    engine_json: str
    """`canonical` as :meth:`Scenario.to_engine_json` writes it (sorted keys, compact)."""
    scenario_hash: str
    """:meth:`Scenario.hash`: what the engine sees, and the flow classes."""
    flow_variants: list[str]
    flow_classes: list[str]
    web_variants: list[str]
    pcap_taps: list[tuple[int, str, str]]
    """:meth:`Scenario.pcap_taps`: (link index, link name, "ab" or "ba")."""
    pcap_nodes: list[tuple[int, str]]
    """:meth:`Scenario.pcap_nodes`: (node index, node name)."""
    max_trace_rows: int
    """`limits.max_trace_rows`, which a truncated trace's warning names."""

    def to_json(self) -> dict[str, Any]:
        """Plain JSON data; :meth:`from_json` reads it back equal. The engine's JSON text is not
        kept: it is `canonical` with sorted keys."""
        return {
            "name": self.name,
            "canonical": self.canonical,
            "scenario_hash": self.scenario_hash,
            "flow_variants": self.flow_variants,
            "flow_classes": self.flow_classes,
            "web_variants": self.web_variants,
            "pcap_taps": self.pcap_taps,
            "pcap_nodes": self.pcap_nodes,
            "max_trace_rows": self.max_trace_rows,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> CompiledScenario:
        return cls(
            name=data["name"],
            canonical=data["canonical"],
            engine_json=engine_json(data["canonical"]),
            scenario_hash=data["scenario_hash"],
            flow_variants=data["flow_variants"],
            flow_classes=data["flow_classes"],
            web_variants=data["web_variants"],
            pcap_taps=[(link, name, direction) for link, name, direction in data["pcap_taps"]],
            pcap_nodes=[(node, name) for node, name in data["pcap_nodes"]],
            max_trace_rows=data["max_trace_rows"],
        )


def engine_json(canonical: dict[str, Any]) -> str:
    """The engine's input text: `canonical` with sorted keys, compact (key order means nothing to
    the engine, and one text serves as both its input and the scenario hash's)."""
    return json.dumps(canonical, sort_keys=True, separators=(",", ":"))


@gc_paused
def compile_scenario(scenario: Scenario, canonical: dict[str, Any] | None = None) -> CompiledScenario:
    """`scenario` compiled; `canonical`, if given, is its :meth:`~Scenario.to_engine` already at hand."""
    canonical = scenario.to_engine() if canonical is None else canonical
    text = engine_json(canonical)
    flows = scenario.flow_table()
    return CompiledScenario(
        name=scenario.name,
        canonical=canonical,
        engine_json=text,
        scenario_hash=scenario.hash(text),
        flow_variants=[row.variant for row in flows],
        flow_classes=[row.class_ for row in flows],
        web_variants=[row.variant for row in scenario.web_table()],
        pcap_taps=scenario.pcap_taps(),
        pcap_nodes=scenario.pcap_nodes(),
        max_trace_rows=scenario.limits.max_trace_rows,
    )
