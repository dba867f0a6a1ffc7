"""The one fold from a turn's event stream to what it produced: the UI's TurnView, the API and eval all use it."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

from kb.answer.events import Event, jsonable
from kb.answer.prompts import ATTACHMENT_BLOCK_HEADER


@dataclass(kw_only=True)
class TurnFold:
    """A turn as its events tell it, JSON-ready (dicts and lists); `apply` one event at a time, or `fold_events`."""

    conversation_id: str = ""
    user_message_id: str = ""
    message_id: str = ""  # the assistant message
    thinking: str = ""  # every thinking text, in order
    trace: list[str] = field(default_factory=list)  # the pipeline's own steps
    model_thinking: str = ""  # the model's reasoning, when it streams any
    content: str = ""  # every content text: the answer and then the hop's block
    answer: str = ""  # the content before the block
    block: str = ""  # the **相关附件内容：** block of the post-answer hop
    attachments: list[dict] = field(default_factory=list)
    referenced_docs: list[dict] = field(default_factory=list)
    graph_paths: list[dict] = field(default_factory=list)
    token_usage: dict | None = None
    warnings: list[str] = field(default_factory=list)  # the error events' messages
    model: str = ""
    elapsed_ms: float | None = None
    steps: dict = field(default_factory=dict)  # step → ms (retrieval, prefetch, model, hop), once done
    fallback: bool = False
    done: bool = False
    done_data: dict = field(default_factory=dict)

    def apply(self, event: Event) -> None:
        """Fold one pipeline event in."""
        data: Any = jsonable(event.data)
        kind = event.type
        if kind == "conversation_id":
            self.conversation_id = data["conversation_id"]
        elif kind == "user_message_id":
            self.user_message_id = data["message_id"]
        elif kind == "assistant_message_id":
            self.message_id = data["message_id"]
        elif kind == "thinking":
            self._think(data)
        elif kind == "content":
            self._content(data["text"])
        elif kind in ("attachments", "referenced_docs", "graph_paths"):
            key = {"attachments": "items", "referenced_docs": "docs", "graph_paths": "paths"}[kind]
            setattr(self, kind, data[key])
        elif kind == "token_usage":
            self.token_usage = data
        elif kind == "error":
            self.warnings.append(data["message"])
        elif kind == "done":
            self.done_data = data
            self.elapsed_ms = data.get("elapsed_ms")
            self.steps = data.get("steps") or {}
            self.model = data.get("model", "")
            self.fallback = bool(data.get("fallback"))
            self.done = True

    def _think(self, data: dict) -> None:
        self.thinking += data["text"]
        if data.get("source") == "model":
            self.model_thinking += data["text"]
        else:
            self.trace.append(data["text"].rstrip("\n"))

    def _content(self, text: str) -> None:
        self.content += text
        if self.block or text.lstrip().startswith(ATTACHMENT_BLOCK_HEADER):
            self.block += text.lstrip("\n") if not self.block else text
        else:
            self.answer += text


def fold_events(events: Iterable[Event]) -> TurnFold:
    """Every event of a turn folded into one TurnFold."""
    fold = TurnFold()
    for event in events:
        fold.apply(event)
    return fold
