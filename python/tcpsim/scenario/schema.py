"""The JSON Schema of the user-facing format, with each attribute's docstring as its description.

Pydantic can read attribute docstrings itself (`use_attribute_docstrings`), but it does so for
every model at import, parsing the source: a fifth of `tcpsim run`'s start-up. Only the schema
needs them, so they are read here, when it is asked for.
"""

import ast
import inspect
import textwrap
from typing import Any

from tcpsim.scenario.fields import Model
from tcpsim.scenario.root import Scenario


def json_schema() -> dict[str, Any]:
    """JSON Schema of the user-facing format (for editors and docs)."""
    schema = Scenario.model_json_schema(by_alias=True)
    definitions = schema.get("$defs", {})
    for model in _models():
        definition = schema if model is Scenario else definitions.get(model.__name__)
        if definition is None:
            continue
        docs = _attribute_docstrings(model)
        for name, field in model.model_fields.items():
            prop = definition["properties"].get(field.alias or name)
            if prop is not None and field.description is None and name in docs:
                prop["description"] = docs[name]
                definition["properties"][field.alias or name] = dict(sorted(prop.items()))
    return schema


def _models() -> list[type[Model]]:
    """Every scenario table."""
    found, pending = [], [Model]
    while pending:
        for model in pending.pop().__subclasses__():
            found.append(model)
            pending.append(model)
    return found


def _attribute_docstrings(model: type[Model]) -> dict[str, str]:
    """Attribute name → the string literal right below its annotated assignment in the class."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(model)))
    body = tree.body[0].body  # type: ignore[attr-defined]
    return {
        statement.target.id: inspect.cleandoc(following.value.value)
        for statement, following in zip(body, body[1:], strict=False)
        if isinstance(statement, ast.AnnAssign)
        and isinstance(statement.target, ast.Name)
        and isinstance(following, ast.Expr)
        and isinstance(following.value, ast.Constant)
        and isinstance(following.value.value, str)
    }
