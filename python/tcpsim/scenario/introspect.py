"""What a schema type holds (tables, list items, tagged-union members, keys): shared by error
translation and overrides, which both walk the schema along a user's path."""

from collections.abc import Sequence
from types import NoneType, UnionType
from typing import Annotated, Any, Union, get_args, get_origin

from tcpsim.scenario.fields import Model


def strip_annotated(annotation: Any) -> Any:
    """Drop `Annotated[...]` wrappers: the bare type pydantic validates against."""
    while get_origin(annotation) is Annotated:
        annotation = get_args(annotation)[0]
    return annotation


def models_in(annotation: Any) -> list[type[Model]]:
    """The tables a value of this type may be: one model, the members of a tagged union, or
    none (a scalar or a list)."""
    annotation = strip_annotated(annotation)
    if get_origin(annotation) in (Union, UnionType):
        return [model for member in get_args(annotation) if member is not NoneType for model in models_in(member)]
    if isinstance(annotation, type) and issubclass(annotation, Model):
        return [annotation]
    return []


def list_item(annotation: Any) -> Any:
    """The item type of a list field (through Optional), else None."""
    annotation = strip_annotated(annotation)
    if get_origin(annotation) in (Union, UnionType):
        items = [list_item(member) for member in get_args(annotation) if member is not NoneType]
        return items[0] if items else None
    return get_args(annotation)[0] if get_origin(annotation) is list else None


TAG_KEYS = ("kind", "process", "dist")
"""Keys that tell a tagged union's members apart: `kind` (queues, losses, congestion control),
`process` (web arrivals), `dist` (web transfer sizes)."""


def tag_key(model: type[Model]) -> str | None:
    """The key a tagged-union member's tag is written under."""
    return next((key for key in TAG_KEYS if key in model.model_fields), None)


def tag_of(model: type[Model]) -> str | None:
    """The tag (e.g. the `kind`) a tagged-union member answers to."""
    key = tag_key(model)
    return get_args(model.model_fields[key].annotation)[0] if key is not None else None


def keys_of(models: Sequence[type[Model]]) -> list[str]:
    """The keys users may write in these tables."""
    return list(dict.fromkeys(field.alias or name for model in models for name, field in model.model_fields.items()))


def field_type(models: Sequence[type[Model]], key: str) -> Any:
    for model in models:
        for name, field in model.model_fields.items():
            if (field.alias or name) == key:
                return field.annotation
    return None
