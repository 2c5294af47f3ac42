"""Scenario errors: what is wrong, at the path the user wrote."""

from collections.abc import Sequence

Loc = tuple[str | int, ...]
"""A path into the user's scenario: ("links", 0, "rate") is shown as links[0].rate."""

Problem = tuple[Loc, str]


class ScenarioError(Exception):
    """Everything wrong with a scenario, as (path, message) pairs; str() gives one line each.

    Paths are the user's (`links[0].rate`), never the engine's or pydantic's. An empty path
    means the scenario as a whole (e.g. an unreadable file).
    """

    def __init__(self, errors: Sequence[tuple[str, str]]) -> None:
        super().__init__(list(errors))
        self.errors: list[tuple[str, str]] = list(errors)

    def __str__(self) -> str:
        return "\n".join(f"{path}: {message}" if path else message for path, message in self.errors)


class Problems(ValueError):
    """Raised by model validators to report several problems at paths below the model.

    Pydantic can only attach one message to a model; this carries all of them, and
    error translation (`translate.py`) spreads them back out under the model's own path.
    """

    def __init__(self, problems: Sequence[Problem]) -> None:
        super().__init__("; ".join(message for _, message in problems))
        self.problems = list(problems)


def raise_if_any(problems: Sequence[Problem]) -> None:
    if problems:
        raise Problems(list(dict.fromkeys(problems)))


def format_path(loc: Loc) -> str:
    """("links", 0, "rate") → "links[0].rate"."""
    text = ""
    for part in loc:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += f".{part}" if text else part
    return text


def show(value: object) -> str:
    """A value as the user wrote it, shortened for one error line."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def unknown_key(key: str, allowed: Sequence[str]) -> str:
    """The message for a key no table of this type has, with the closest allowed one."""
    import difflib  # only for this message: not loaded by every scenario that validates

    close = difflib.get_close_matches(key, allowed, n=1)
    hint = f"did you mean {close[0]!r}? " if close else ""
    return f"unknown key; {hint}allowed: {', '.join(allowed)}"
