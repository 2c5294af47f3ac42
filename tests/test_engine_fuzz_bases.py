"""The Rust fuzz target's seed configs (`engine_fuzz_bases.py`) are what the scenario layer gives
today, so the fuzzer mutates the engine's real input, not a stale copy."""

import os

from engine_fuzz_bases import BASES_PATH, bases_json


def test_the_fuzz_bases_are_todays_canonical_configs():
    expected = bases_json()
    if os.environ.get("TCPSIM_UPDATE_FUZZ_BASES"):
        BASES_PATH.write_text(expected)
    assert BASES_PATH.read_text() == expected, (
        f"{BASES_PATH} is stale: regenerate it with "
        "TCPSIM_UPDATE_FUZZ_BASES=1 .venv/bin/python -m pytest tests/test_engine_fuzz_bases.py"
    )
