"""Scenarios: the one user-facing schema, validated in one place, turned into the engine's input.

A scenario is a TOML file (or a dict of the same shape) written in human units ("10Mbps",
"45ms", "1.5BDP") with names for nodes and flows. :func:`load_scenario` reads it, applies
``--set``-style overrides, validates every field and cross-reference, and returns a
:class:`Scenario`; :meth:`Scenario.to_engine` emits the canonical ``SimConfig`` the Rust core
deserializes (``crates/tcpsim-core/src/config/``): integers in ns, bit/s and bytes, nodes and
flows referred to by index.

Every problem is reported, with the path the user wrote, as a :class:`ScenarioError`; pydantic
stays an implementation detail. Checks that need the whole scenario (node names, flow names,
BDP limits, packet sizes against queue sizes) run once every field is individually valid.

The package is split by concept: ``fields`` (value types and units), ``tcp`` (variants,
congestion control, the [tcp] table), ``network`` (links, queues, loss models), ``traffic``
(flows, ON/OFF, UDP), ``schedule`` (flow-count schedules), ``web`` (flow generators of finite
transfers), ``sections`` ([trace], [limits]), ``root`` (the whole scenario and its engine form),
``checks`` (cross-checks), ``translate`` (pydantic errors → user paths), ``overrides`` (``--set``
paths), ``source`` (reading TOML and dicts), ``schema`` (the JSON Schema) and ``on_use`` (the
rarely used tables, built when a scenario first holds one).
"""

import os
from collections.abc import Mapping, Sequence
from typing import Any

from tcpsim.gc_paused import gc_paused
from tcpsim.scenario.errors import Loc, Problem, ScenarioError, format_path
from tcpsim.scenario.fields import (
    INITIAL_STATES,
    MAX_FLOW_COUNT,
    MAX_HEADER_BYTES,
    MAX_MSS_BYTES,
    MAX_TIME_NS,
    U32_MAX,
)
from tcpsim.scenario.network import (
    BernoulliLoss,
    BitErrorLoss,
    CodelQueue,
    DirectionSpec,
    DropTailQueue,
    GilbertElliottLoss,
    LinkSpec,
    OutageLoss,
    PacketMarkovLoss,
    PieQueue,
    RdQueue,
    RedQueue,
    ScriptedLoss,
    StepQueue,
    TwoStateLoss,
)
from tcpsim.scenario.overrides import apply_overrides
from tcpsim.scenario.root import FlowInfo, Scenario, WebInfo
from tcpsim.scenario.schema import json_schema
from tcpsim.scenario.sections import LimitsSpec, TraceSpec
from tcpsim.scenario.source import MAX_DEPTH, plain_data, read_source
from tcpsim.scenario.tcp import (
    RECOVERY_KINDS,
    VARIANTS,
    AimdCc,
    CubicCc,
    DctcpCc,
    TcpOptions,
    Variant,
    VegasCc,
    WestwoodCc,
    WestwoodPlusCc,
)
from tcpsim.scenario.traffic import FlowSpec, UdpSpec
from tcpsim.scenario.translate import validate_plain, validate_scenario
from tcpsim.scenario.web import WebSpec


@gc_paused
def load_scenario(
    source: str | os.PathLike[str] | Mapping[str, Any],
    overrides: Sequence[str] | Mapping[str, Any] = (),
) -> Scenario:
    """Read a scenario from a TOML file path or a dict, apply overrides, and validate it.

    Raises :class:`ScenarioError` listing every problem found.
    """
    return validate_plain(apply_overrides(read_source(source), overrides))  # already a plain copy


__all__ = [
    "INITIAL_STATES",
    "MAX_DEPTH",
    "MAX_FLOW_COUNT",
    "MAX_HEADER_BYTES",
    "MAX_MSS_BYTES",
    "MAX_TIME_NS",
    "RECOVERY_KINDS",
    "U32_MAX",
    "VARIANTS",
    "AimdCc",
    "DctcpCc",
    "BernoulliLoss",
    "BitErrorLoss",
    "CubicCc",
    "DirectionSpec",
    "DropTailQueue",
    "FlowInfo",
    "FlowSpec",
    "GilbertElliottLoss",
    "LimitsSpec",
    "LinkSpec",
    "Loc",
    "OutageLoss",
    "PacketMarkovLoss",
    "PieQueue",
    "Problem",
    "CodelQueue",
    "RdQueue",
    "RedQueue",
    "StepQueue",
    "Scenario",
    "ScenarioError",
    "ScriptedLoss",
    "TcpOptions",
    "TraceSpec",
    "TwoStateLoss",
    "UdpSpec",
    "Variant",
    "WebInfo",
    "WebSpec",
    "WestwoodCc",
    "VegasCc",
    "WestwoodPlusCc",
    "apply_overrides",
    "format_path",
    "json_schema",
    "load_scenario",
    "plain_data",
    "validate_scenario",
]
