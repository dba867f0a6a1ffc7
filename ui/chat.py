"""One turn as the UI sees it: the pipeline's events folded into a TurnView, and that view as Chatbot messages."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Sequence

from kb.events import Event, jsonable
from kb.prompts import ATTACHMENT_BLOCK_HEADER
from ui.safe import md
from ui.thinking_steps import thinking_messages

THINKING_TITLE = "🧭 思考过程 · 检索与图谱跳转"
ATTACHMENTS_TITLE = "📎 相关附件内容 · 经图谱取回的附件原文"
WORKING = "正在检索…"
_BLOCK_SPLIT = "\n\n" + ATTACHMENT_BLOCK_HEADER


@dataclass
class TurnView:
    """Everything the chat and the side panels show for one question and its answer."""

    question: str
    conversation_id: str = ""
    message_id: str = ""
    trace: list[str] = field(default_factory=list)  # the pipeline's own steps
    model_thinking: str = ""  # the model's reasoning, when it streams any
    answer: str = ""
    block: str = ""  # the **相关附件内容：** block of the post-answer hop
    attachments: list[dict] = field(default_factory=list)
    referenced_docs: list[dict] = field(default_factory=list)
    graph_paths: list[dict] = field(default_factory=list)
    sources: list[dict] = field(default_factory=list)  # from the stored turn, once it is done
    warnings: list[str] = field(default_factory=list)
    token_usage: dict | None = None
    model: str = ""
    elapsed_ms: float | None = None
    steps: dict = field(default_factory=dict)  # step → ms (retrieval, prefetch, model, hop), once done
    fallback: bool = False
    done: bool = False

    def apply(self, event: Event) -> None:
        """Fold one pipeline event into the view."""
        data: Any = jsonable(event.data)
        if event.type == "conversation_id":
            self.conversation_id = data["conversation_id"]
        elif event.type == "assistant_message_id":
            self.message_id = data["message_id"]
        elif event.type == "thinking":
            if data.get("source") == "model":
                self.model_thinking += data["text"]
            else:
                self.trace.append(data["text"].rstrip("\n"))
        elif event.type == "content":
            text = data["text"]
            if self.block or text.lstrip().startswith(ATTACHMENT_BLOCK_HEADER):
                self.block += text.lstrip("\n") if not self.block else text
            else:
                self.answer += text
        elif event.type == "attachments":
            self.attachments = data["items"]
        elif event.type == "referenced_docs":
            self.referenced_docs = data["docs"]
        elif event.type == "graph_paths":
            self.graph_paths = data["paths"]
        elif event.type == "token_usage":
            self.token_usage = data
        elif event.type == "error":
            self.warnings.append(data["message"])
        elif event.type == "done":
            self.elapsed_ms = data.get("elapsed_ms")
            self.steps = data.get("steps") or {}
            self.model = data.get("model", "")
            self.fallback = bool(data.get("fallback"))
            self.done = True

    @classmethod
    def from_messages(cls, question: Any, answer: Any) -> TurnView:
        """A finished turn rebuilt from its two stored history messages (user, assistant)."""
        extra = answer.extra or {}
        text, _, block = answer.content.partition(_BLOCK_SPLIT)
        trace, _, model_thinking = answer.thinking.partition("\n\n")
        return cls(
            question=question.content, conversation_id=answer.conversation_id, message_id=answer.id,
            trace=[line for line in trace.splitlines() if line], model_thinking=model_thinking, answer=text,
            block=ATTACHMENT_BLOCK_HEADER + block if block else "", attachments=extra.get("attachments", []),
            referenced_docs=extra.get("referenced_docs", []), graph_paths=extra.get("graph_paths", []),
            sources=extra.get("sources", []), token_usage=answer.usage, model=extra.get("model", ""),
            steps=extra.get("steps", {}),
            fallback=bool(extra.get("fallback")), done=True,
        )

    @property
    def attachment_labels(self) -> list[str]:
        return [f"{a['label']} {a.get('title', '')}".strip() for a in self.attachments if a.get("resolved")]


def turn_messages(view: TurnView, key: str = "t") -> list[dict]:
    """The Chatbot messages of one turn: question, thinking (nested steps), answer, attachments block.

    `key` makes the thinking block's message ids unique in the conversation.
    """
    messages: list[dict] = [{"role": "user", "content": md(view.question)}]
    messages += thinking_messages(view, f"thinking-{key}", THINKING_TITLE, WORKING)
    if view.answer.strip():
        messages.append({"role": "assistant", "content": md(view.answer.rstrip())})
    if view.block:
        title = ATTACHMENTS_TITLE
        if view.attachment_labels:
            title += "（" + "、".join(label.split()[0] for label in view.attachment_labels) + "）"
        messages.append({"role": "assistant", "content": md(view.block.rstrip()), "metadata": {"title": title}})
    return messages


def chat_messages(turns: Sequence[TurnView]) -> list[dict]:
    """The whole conversation as Chatbot messages."""
    return [m for i, view in enumerate(turns) for m in turn_messages(view, str(i))]


def turn_at(turns: Sequence[TurnView], message_index: int) -> int | None:
    """The index of the turn that owns the Chatbot message at message_index."""
    seen = 0
    for i, view in enumerate(turns):
        seen += len(turn_messages(view))
        if message_index < seen:
            return i
    return None


def thinking_markdown(view: TurnView) -> str:
    """The pipeline trace as a list, then the model's own reasoning, then any warnings (Markdown, escaped)."""
    parts = []
    if view.trace:
        parts.append("\n".join(f"- {md(line)}" for line in view.trace))
    if view.model_thinking.strip():
        parts.append("**模型思考**\n\n" + md(view.model_thinking.strip()))
    parts += [f"⚠️ {md(w)}" for w in view.warnings]
    return "\n\n".join(parts)


def turns_from_history(messages: Iterable[Any]) -> list[TurnView]:
    """Turns of a stored conversation: each user message paired with the assistant message after it."""
    turns, pending = [], None
    for message in messages:
        if message.role == "user":
            pending = message
        elif message.role == "assistant" and pending is not None:
            turns.append(TurnView.from_messages(pending, message))
            pending = None
    return turns


def texts_needed(view: TurnView) -> list[str]:
    """The document ids whose text the citations panel shows."""
    return list(dict.fromkeys(d["doc_id"] for d in view.referenced_docs))


def doc_titles(view: TurnView) -> dict[str, str]:
    """doc_id → title of every document the turn touched."""
    titles: dict[str, str] = {}
    for s in view.sources:
        titles.setdefault(s["doc_id"], s["doc_title"])
    for d in view.referenced_docs:
        titles.setdefault(d["doc_id"], d["title"])
    for a in view.attachments:
        if a.get("doc_id"):
            titles.setdefault(a["doc_id"], a.get("doc_title", ""))
    return titles


def find_source(view: TurnView, n: Any) -> Mapping | None:
    """The source numbered n of the turn, or None."""
    try:
        number = int(n)
    except (TypeError, ValueError):
        return None
    return next((s for s in view.sources if s["n"] == number), None)
