"""Tables that most scenarios never hold (queue disciplines other than drop-tail, loss models
other than Bernoulli, web traffic) are validated by their own model, built the first time a
scenario holds one, rather than as part of the scenario's schema, which is built at import:
that saves 6 of the 50 ms of importing the scenario models, which every `tcpsim run` pays.
(The congestion controls are built at import all the same: their defaults make the variants.)

A model takes part by being declared with `defer_build=True`, and the tables that hold it name
its type `on_use(model)`. Validation, errors (pydantic reports them at the same locations), dumps
and the JSON Schema are the model's own, as when it is built in place.
"""

from typing import Annotated, Any

from pydantic import GetCoreSchemaHandler, GetJsonSchemaHandler
from pydantic_core import CoreSchema, core_schema

from tcpsim.scenario.fields import Model
from tcpsim.scenario.introspect import tag_key, tag_of


def on_use(model: type[Model]) -> Any:
    """The type under which a table holds `model`: the model itself, or, when the model is
    declared with `defer_build=True`, the model validated by its own validator, built on first use."""
    return Annotated[model, BuiltOnUse(model)] if model.model_config.get("defer_build") else model


class BuiltOnUse:
    """`Annotated[model, BuiltOnUse(model)]`: see the module."""

    __slots__ = ("model",)

    def __init__(self, model: type[Model]) -> None:
        self.model = model

    def __get_pydantic_core_schema__(self, source: Any, handler: GetCoreSchemaHandler) -> CoreSchema:
        # A tagged union (`Field(discriminator=...)`) reads each member's tag from the schema
        # that the member's validator wraps; that schema validates nothing.
        key = tag_key(self.model)
        shape = (
            core_schema.typed_dict_schema(
                {key: core_schema.typed_dict_field(core_schema.literal_schema([tag_of(self.model)]))}
            )
            if key is not None
            else core_schema.any_schema()
        )
        # Dumped as any model instance is: by the model's own serializer.
        return core_schema.no_info_wrap_validator_function(
            self._validate, shape, serialization=core_schema.simple_ser_schema("any")
        )

    def _validate(self, value: Any, _: core_schema.ValidatorFunctionWrapHandler) -> Model:
        return self.model.model_validate(value)

    def __get_pydantic_json_schema__(self, schema: CoreSchema, handler: GetJsonSchemaHandler) -> dict[str, Any]:
        # The model's schema, as a reference to its definition (as when built in place); a schema
        # that brings its own definitions already is one.
        model = self.model.__pydantic_core_schema__
        if "ref" in model:
            model = core_schema.definitions_schema(core_schema.definition_reference_schema(model["ref"]), [model])
        return handler(model)
