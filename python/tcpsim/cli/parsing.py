"""Values of command-line options read as tcpsim reads them: `--set` and `--grid` values
(TOML when they parse, else text), seeds and seed counts, whole numbers."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from tcpsim.cli.errors import CliError


def parse_value(text: str) -> Any:
    """A TOML value when ``text`` is one (3, 2.5, true, "x", [1, 2]), else the text itself
    (10Mbps, reno): the rule ``tcpsim.scenario`` applies to ``--set``, so both options agree."""
    from tcpsim.toml_input import TomlInputError, parse_toml

    try:
        return parse_toml(f"value = {text}")["value"]
    except TomlInputError:  # not TOML (or too deep, too long a number for the parser): text
        return text


def parse_grid(items: Iterable[str]) -> dict[str, list[Any]]:
    """``PATH=V1,V2,...`` or ``PATH=[TOML array]`` (for values that themselves contain commas)."""
    grid: dict[str, list[Any]] = {}
    for item in items:
        path, sep, text = (part.strip() for part in item.partition("="))
        if not sep or not path or not text:
            raise CliError(f"--grid {item!r}: expected PATH=VALUES, e.g. --grid 'links[0].rate=1Mbps,2Mbps'")
        if path in grid:
            raise CliError(f"--grid {path} given twice")
        if text.startswith("["):
            values = parse_value(text)
            if not isinstance(values, list) or not values:
                raise CliError(f"--grid {path}: {text!r} is not a non-empty array")
        else:
            values = [parse_value(v.strip()) for v in text.split(",")]
            if "" in values:
                raise CliError(f"--grid {path}: empty value in {text!r}")
        grid[path] = values
    return grid


def parse_set(items: Iterable[str]) -> dict[str, Any]:
    """``--set PATH=VALUE`` options of a sweep as path → value (VALUE read as in ``parse_value``)."""
    fixed: dict[str, Any] = {}
    for item in items:
        path, sep, text = (part.strip() for part in item.partition("="))
        if not sep or not path:
            raise CliError(f"--set {item!r}: expected PATH=VALUE, e.g. --set 'duration=100s'")
        if path in fixed:
            raise CliError(f"--set {path} given twice; give each path once")
        fixed[path] = parse_value(text)
    return fixed


def parse_seeds(text: str) -> int | list[int]:
    """``--seeds``: a count N (seeds 1..N) or a comma list of seeds."""
    if "," in text:
        try:
            return [parse_seed(part) for part in text.split(",")]
        except CliError as error:
            raise CliError(f"--seeds {text!r}: {str(error).split(': ', 1)[1]}") from None
    count = whole_number(text)
    if count is None or count < 1:
        raise CliError(f"--seeds: {text!r} is neither a count >= 1 nor a list of seeds such as 1,7,42")
    return count


SEED_MAX = 2**64 - 1


def parse_seed(text: str) -> int:
    """``--seed``: a whole number in [0, 2^64 − 1], the engine's u64 (ASCII digits only)."""
    seed = whole_number(text)
    if seed is None or seed > SEED_MAX:
        raise CliError(f"--seed: {text!r} is not a seed; use a whole number from 0 to {SEED_MAX}, e.g. --seed 2")
    return seed


def whole_number(text: str) -> int | None:
    """``text`` (spaces around allowed) as a whole number of ASCII digits that fits in 64 bits'
    20 digits, else None: full-width digits are not one, and a number of thousands of digits
    never reaches int(), which refuses it with a traceback."""
    digits = text.strip()
    if not (digits.isascii() and digits.isdigit()) or len(digits) > 20:
        return None
    return int(digits)
