"""The typed event stream of one turn, consumed by the UI, the HTTP API and the evaluation."""
from __future__ import annotations

from dataclasses import asdict, dataclass, is_dataclass
from typing import Any

EVENT_TYPES = (
    "conversation_id",
    "user_message_id",
    "assistant_message_id",
    "thinking",
    "content",
    "referenced_docs",
    "graph_paths",
    "attachments",
    "token_usage",
    "done",
    "error",
)


@dataclass(frozen=True)
class Event:
    """One event: its type (one of EVENT_TYPES) and JSON-ready data."""

    type: str
    data: Any

    def __post_init__(self) -> None:
        if self.type not in EVENT_TYPES:
            raise ValueError(f"unknown event type {self.type!r}; known: {', '.join(EVENT_TYPES)}")

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "data": jsonable(self.data)}


def jsonable(value: Any) -> Any:
    """Dataclasses and tuples turned into plain dicts and lists."""
    if is_dataclass(value) and not isinstance(value, type):
        return jsonable(asdict(value))
    if isinstance(value, dict):
        return {k: jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    return value
