"""Function schemas from signatures and docstrings, for parameter types beyond str and int."""
from __future__ import annotations

import pytest

from kb.errors import SchemaError
from kb.agent.schemas import function_schema


class _Tools:
    def weigh(self, ratio: float, exact: bool = False, tags: list[str] | None = None, note: str = "") -> dict:
        """Weigh something.

        Args:
            ratio (float): how much, 0-1
            exact: only exact matches
            tags: restrict to these tags
        Returns:
            the weight
        """
        return {}

    def odd(self, when: complex) -> None:
        """No JSON type stands for this."""


def test_float_bool_optional_list_and_undocumented_parameters_get_json_types():
    schema = function_schema("weigh", _Tools().weigh)["function"]
    props = schema["parameters"]["properties"]
    assert {k: v["type"] for k, v in props.items()} == {
        "ratio": "number", "exact": "boolean", "tags": "array", "note": "string"}
    assert props["ratio"]["description"] == "how much, 0-1" and props["note"]["description"] == ""
    assert schema["parameters"]["required"] == ["ratio"] and schema["description"] == "Weigh something."


def test_a_type_without_a_json_schema_type_is_named_not_a_key_error():
    with pytest.raises(SchemaError, match="odd: parameter when is annotated <class 'complex'>"):
        function_schema("odd", _Tools().odd)
