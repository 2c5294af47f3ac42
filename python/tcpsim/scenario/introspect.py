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


def tag_of(model: type[Model]) -> str | None:
    """The `kind` a tagged-union member answers to."""
    field = model.model_fields.get("kind")
    return get_args(field.annotation)[0] if field is not None else None


def keys_of(models: Sequence[type[Model]]) -> list[str]:
    """The keys users may write in these tables."""
    return list(dict.fromkeys(field.alias or name for model in models for name, field in model.model_fields.items()))


def field_type(models: Sequence[type[Model]], key: str) -> Any:
    for model in models:
        for name, field in model.model_fields.items():
            if (field.alias or name) == key:
                return field.annotation
    return None
