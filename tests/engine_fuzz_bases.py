"""The engine JSON the Rust fuzz target (crates/tcpsim-core/tests/engine_json_fuzz.rs) mutates:
canonical configs of scenarios that between them use every queue, loss model and traffic kind,
shortened to a few seconds. `test_engine_fuzz_bases.py` checks the checked-in file against what
the scenario layer gives today; regenerate it with
`TCPSIM_UPDATE_FUZZ_BASES=1 .venv/bin/python -m pytest tests/test_engine_fuzz_bases.py`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tcpsim.paths import builtin_scenario
from tcpsim.scenario import load_scenario

BASES_PATH = Path(__file__).resolve().parent.parent / "crates" / "tcpsim-core" / "tests" / "data" / "fuzz_bases.json"


def rd_and_channels() -> dict[str, Any]:
    """An RD bottleneck behind a shared-buffer switch, every stochastic loss model, a UDP flow
    and the traces."""
    return {
        "name": "fuzz: rd and channels",
        "duration": "3s",
        "tcp": {"mss": 1000},
        "network": {"shared_buffers": [{"node": "r", "size": "150KB", "alpha": 2}]},
        "trace": {"cwnd": True, "rtt": True, "queue": True, "interval": "10ms", "throughput_bin": "500ms"},
        "links": [
            {
                "name": "a",
                "a": "s",
                "b": "r",
                "rate": "50Mbps",
                "delay": "2ms",
                "queue": "200pkt",
                "loss": [
                    {
                        "kind": "gilbert_elliott",
                        "good_mean": "1s",
                        "bad_mean": "50ms",
                        "bad_loss": 0.5,
                        "direction": "ab",
                    },
                    {
                        "kind": "two_state",
                        "good_sojourn": "1s",
                        "bad_sojourn": "20ms",
                        "bad_loss": 0.3,
                        "transitions": "ns2_multistate",
                        "direction": "ba",
                    },
                    {"kind": "packet_markov", "good_mean": 100, "bad_mean": 5, "bad_loss": 0.5, "direction": "ab"},
                ],
            },
            {
                "name": "b",
                "a": "r",
                "b": "d",
                "rate": "10Mbps",
                "delay": "10ms",
                "queue": {"kind": "rd", "limit": "100pkt"},
                "loss": [
                    {"kind": "bit_error", "ber": 1e-6, "direction": "both"},
                    {"kind": "outage", "intervals": [["1s", "1.1s"]], "direction": "ab"},
                    {"kind": "scripted", "flow": "reno.1", "segments": [5, 9], "direction": "ab"},
                ],
            },
        ],
        "flows": [
            {"name": "reno", "src": "s", "dst": "d", "variant": "reno", "count": 2},
            {"name": "vegas", "src": "s", "dst": "d", "variant": "vegas"},
            {"name": "sack", "src": "s", "dst": "d", "variant": "newreno", "tcp": {"recovery": "sack"}},
            {"name": "westwood", "src": "d", "dst": "s", "variant": "westwood", "bytes": "200KB"},
            {
                "name": "cubic",
                "src": "s",
                "dst": "d",
                "variant": "cubic",
                "tcp": {"cc": {"kind": "cubic", "hystart": True}},
            },
        ],
        "udp": [{"name": "cbr", "src": "s", "dst": "d", "rate": "1Mbps"}],
    }


def bases() -> list[dict[str, Any]]:
    """The canonical engine configs, in a fixed order."""
    shipped = [
        load_scenario(builtin_scenario(name)).model_copy(update={"duration_ns": 3_000_000_000, "warmup_ns": 0})
        for name in ("parking_lot_mix", "red_ecn", "lossy_link", "pie", "dctcp", "fat_tree_k4", "dualpi2")
    ]
    return [s.to_engine() for s in shipped] + [load_scenario(rd_and_channels()).to_engine()]


def bases_json() -> str:
    return json.dumps(bases(), indent=1, sort_keys=True) + "\n"
