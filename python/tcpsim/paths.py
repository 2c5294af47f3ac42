"""The ready-made scenarios, shipped inside the package (`tcpsim/scenarios/*.toml`) and read
with importlib.resources, so a wheel install has them as a source checkout does (where the
top-level `scenarios` is a link to the same directory). Anywhere a scenario file is expected,
a bundled scenario's bare name (`lossy_link`) names it when no such file exists."""

import tomllib
from typing import Any


def _scenarios():  # noqa: ANN202 - an importlib.resources Traversable
    from importlib.resources import files  # imported here: ~15 ms of start-up that most runs never use

    return files("tcpsim") / "scenarios"


def builtin_scenario_names() -> list[str]:
    """Names of the bundled scenarios (file names without `.toml`), sorted."""
    return sorted(entry.name.removesuffix(".toml") for entry in _scenarios().iterdir() if entry.name.endswith(".toml"))


def builtin_scenario_text(name: str) -> str | None:
    """The TOML text of bundled scenario `name` (with or without `.toml`), or None if there is none."""
    stem = name.removesuffix(".toml")
    if stem not in builtin_scenario_names():
        return None
    return (_scenarios() / f"{stem}.toml").read_text(encoding="utf-8")


def builtin_scenario(name: str) -> dict[str, Any]:
    """The ready-made scenario `name` (file name without `.toml`) as a raw scenario dict."""
    text = builtin_scenario_text(name)
    if text is None:
        raise KeyError(f"no bundled scenario {name!r}; bundled: {', '.join(builtin_scenario_names())}")
    return tomllib.loads(text)
