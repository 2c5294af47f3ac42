"""The engine's input contract: crates/tcpsim-core/engine-schema.json, the JSON Schema that
config/ derives (a Rust test keeps the file equal to it). Tests check the canonical scenarios
the Python layer emits against it instead of keeping their own copies of the engine's keys."""

import json
from functools import cache
from pathlib import Path

from jsonschema import Draft202012Validator

SCHEMA_PATH = Path(__file__).resolve().parent.parent / "crates" / "tcpsim-core" / "engine-schema.json"


@cache
def engine_validator() -> Draft202012Validator:
    schema = json.loads(SCHEMA_PATH.read_text())
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def engine_schema_errors(config: dict) -> list[str]:
    """Every way `config` breaks the engine's schema, as `path: message` lines."""
    errors = engine_validator().iter_errors(config)
    return [f"{'.'.join(map(str, e.absolute_path)) or '<root>'}: {e.message}" for e in errors]


def assert_canonical_shape(config: dict) -> None:
    """`config` is a SimConfig the engine accepts: exactly config/'s keys and types."""
    assert engine_schema_errors(config) == []
