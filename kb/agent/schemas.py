"""OpenAI function-calling schemas read from a method's signature and its Google-style `Args:` docstring."""
from __future__ import annotations

import inspect
import re
import types
import typing
from typing import Any, Callable, Sequence

from kb.errors import SchemaError

JSON_TYPES: dict[type, str] = {str: "string", int: "integer", float: "number", bool: "boolean", list: "array",
                               tuple: "array", dict: "object"}
_ARG = re.compile(r"^\s+(\w+)(?: \([^)]*\))?: (.+)$")


def function_schemas(owner: object, names: Sequence[str]) -> list[dict]:
    """One schema per named method of owner, in the order given."""
    return [function_schema(name, getattr(owner, name)) for name in names]


def function_schema(name: str, method: Callable[..., Any]) -> dict:
    """The schema of one method: first docstring line as description, `Args:` lines as parameter descriptions."""
    doc = inspect.getdoc(method) or ""
    described = arg_descriptions(doc)
    hints = typing.get_type_hints(method)
    params, required = {}, []
    for p in inspect.signature(method).parameters.values():
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            continue
        params[p.name] = {"type": json_type(name, p.name, hints.get(p.name, str)),
                          "description": described.get(p.name, "")}
        if p.default is inspect.Parameter.empty:
            required.append(p.name)
        else:
            params[p.name]["default"] = p.default
    return {"type": "function", "function": {
        "name": name, "description": doc.split("\n")[0],
        "parameters": {"type": "object", "properties": params, "required": required}}}


def arg_descriptions(doc: str) -> dict[str, str]:
    """`name: text` lines of the docstring's `Args:` section (empty when it has none)."""
    section = doc.split("Args:", 1)[1] if "Args:" in doc else ""
    lines = re.split(r"^\S.*$", section, maxsplit=1, flags=re.MULTILINE)[0].splitlines()
    return {m.group(1): m.group(2).strip() for m in map(_ARG.match, lines) if m}


def json_type(tool: str, param: str, hint: Any) -> str:
    """The JSON schema type of a Python annotation (`X | None` counts as X)."""
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        kinds = [a for a in typing.get_args(hint) if a is not type(None)]
        if len(kinds) == 1:
            return json_type(tool, param, kinds[0])
    base = origin or hint
    if isinstance(base, type):
        for kind in type.mro(base):
            if kind in JSON_TYPES:
                return JSON_TYPES[kind]
    raise SchemaError(f"tool {tool}: parameter {param} is annotated {hint!r}, which has no JSON schema type; "
                      f"annotate it as one of {', '.join(t.__name__ for t in JSON_TYPES)} (kb/agent/schemas.py)")
