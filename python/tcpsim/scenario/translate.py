"""Error translation: pydantic's errors → problems at the user's own paths, in the user's terms.
Pydantic stays an implementation detail."""

from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import ValidationError

from tcpsim.scenario.errors import Loc, Problem, Problems, ScenarioError, format_path, show, unknown_key
from tcpsim.scenario.introspect import field_type, keys_of, list_item, models_in, tag_key, tag_of
from tcpsim.scenario.root import Scenario
from tcpsim.scenario.source import plain_data


def _walk(raw_loc: Sequence[str | int]) -> tuple[Loc, Any]:
    """Pydantic's error location → the user's path and the type found there.

    Pydantic names a tagged union's member in the location (`loss.0.bernoulli.p`); users never
    wrote it, so it is dropped (`loss[0].p`).
    """
    annotation: Any = Scenario
    loc: list[str | int] = []
    for part in raw_loc:
        models = models_in(annotation)
        tagged = [model for model in models if tag_of(model) == part]
        if isinstance(part, int):
            annotation = list_item(annotation)
            loc.append(part)
        elif tagged:
            annotation = tagged[0]
        else:
            annotation = field_type(models, part)
            loc.append(part)
    return tuple(loc), annotation


def _describe(error: Mapping[str, Any]) -> list[Problem]:
    """One pydantic error → problems in the user's terms."""
    kind, value = error["type"], error.get("input")
    if kind == "extra_forbidden":
        loc, container = _walk(error["loc"][:-1])
        key = error["loc"][-1]
        return [((*loc, key), unknown_key(key, keys_of(models_in(container))))]
    loc, annotation = _walk(error["loc"])
    if kind == "value_error":
        cause = error["ctx"]["error"]
        if isinstance(cause, Problems):
            return [((*loc, *sub_loc), message) for sub_loc, message in cause.problems]
        return [(loc, str(cause))]
    if kind in ("union_tag_invalid", "union_tag_not_found"):
        noun = next((part for part in reversed(loc) if isinstance(part, str)), "table")
        members = models_in(annotation)
        allowed = ", ".join(sorted(filter(None, map(tag_of, members))))
        key = next(filter(None, map(tag_key, members)), "kind")
        if kind == "union_tag_not_found":
            return [((*loc, key), f"required key is missing; allowed: {allowed}")]
        what = f"a {noun} kind" if key == "kind" else f"a {key} of {noun}"
        return [((*loc, key), f"{error['ctx']['tag']!r} is not {what}; allowed: {allowed}")]
    if kind == "missing":
        return [(loc, "required key is missing")]
    if kind in ("model_type", "model_attributes_type", "dict_type"):
        return [(loc, f"{show(value)} is not a table")]
    if kind == "list_type":
        return [(loc, f"{show(value)} is not a list")]
    if kind == "too_short":
        return [(loc, f"needs at least {error['ctx']['min_length']} entry")]
    message = error["msg"]
    return [(loc, f"{show(value)} is invalid; {message[:1].lower()}{message[1:]}")]


def validate_scenario(raw: Mapping[str, Any]) -> Scenario:
    """Validate a raw scenario dict, reporting every problem as one :class:`ScenarioError`."""
    return validate_plain(plain_data(raw))


def validate_plain(data: dict[str, Any]) -> Scenario:
    """:func:`validate_scenario` of data that is already a plain copy (:func:`plain_data`)."""
    try:
        return Scenario.model_validate(data)
    except ValidationError as error:
        problems = [problem for item in error.errors() for problem in _describe(item)]
        raise ScenarioError([(format_path(loc), message) for loc, message in problems]) from None
