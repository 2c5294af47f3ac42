"""The ready-made scenarios, shipped inside the package (`tcpsim/scenarios/*.toml`) and read
with importlib.resources, so a wheel install has them as a source checkout does (where the
top-level `scenarios` is a link to the same directory)."""

import tomllib
from typing import Any


def builtin_scenario(name: str) -> dict[str, Any]:
    """The ready-made scenario `name` (file name without `.toml`) as a raw scenario dict."""
    from importlib.resources import files  # imported here: ~15 ms of start-up that most runs never use

    return tomllib.loads((files("tcpsim") / "scenarios" / f"{name}.toml").read_text(encoding="utf-8"))
