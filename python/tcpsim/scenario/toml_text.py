"""A user-format scenario written back as TOML: what a generated topology or a swept scenario
saves so that `tcpsim run FILE` reads the same scenario again."""

from collections.abc import Mapping
from typing import Any

from tcpsim.scenario.source import plain_data


def scenario_toml(raw: Mapping[str, Any]) -> str:
    """`raw` (a scenario dict as `load_scenario` takes it) as TOML text. Keys set to None (the
    Python spelling of "not set": the default applies) are left out, as TOML has no null.
    Multi-line strings (a scenario's notes) stay readable."""
    import tomli_w

    return tomli_w.dumps(_without_none(plain_data(raw)), multiline_strings=True)


def _without_none(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _without_none(item) for key, item in value.items() if item is not None}
    if isinstance(value, list):
        return [_without_none(item) for item in value]
    return value
