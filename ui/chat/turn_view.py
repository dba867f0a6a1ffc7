"""One turn as the UI sees it: the pipeline's events folded into a TurnView, and that view as Chatbot messages."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Sequence

from kb.answer.fold import TurnFold
from kb.answer.prompts import ATTACHMENT_BLOCK_HEADER, ATTACHMENT_BLOCK_TITLE
from ui.safe import md
from ui.chat.thinking_steps import thinking_messages

_HEADING = re.compile(r"^[ \t]{0,3}#{1,6}[ \t]+(.+?)[ \t#]*$", re.MULTILINE)

THINKING_TITLE = "思考过程 · 检索与图谱跳转"
ATTACHMENTS_TITLE = f"{ATTACHMENT_BLOCK_TITLE} · 经图谱取回的附件原文"
WORKING = "正在检索…"
_BLOCK_SPLIT = "\n\n" + ATTACHMENT_BLOCK_HEADER


@dataclass
class TurnView(TurnFold):
    """Everything the chat and the side panels show for one question and its answer (the fold, plus the question)."""

    question: str
    sources: list[dict] = field(default_factory=list)  # from the stored turn, once it is done
    standalone: str = ""  # a follow-up as the pipeline read it (西岭街道呢？ → 西岭街道有几艘冲锋舟？), once done

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
            sources=extra.get("sources", []), standalone=extra.get("standalone", ""), token_usage=answer.usage, model=extra.get("model", ""),
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
        messages.append({"role": "assistant", "content": readable(md(view.answer.rstrip()))})
    if view.block:
        title = ATTACHMENTS_TITLE
        if view.attachment_labels:
            title += "（" + "、".join(label.split()[0] for label in view.attachment_labels) + "）"
        messages.append({"role": "assistant", "content": readable(md(view.block.rstrip())),
                         "metadata": {"title": title}})
    return messages


def readable(markdown: str) -> str:
    """Escaped Markdown as the chat shows it: an attachment's `# 标题` as a bold line (a heading inside a bubble must
    not be the page's biggest text). Digits never wrap one by one: the theme's CSS keeps a table cell's words whole."""
    return _HEADING.sub(lambda m: f"**{m.group(1).strip()}**", markdown)


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


def find_source(view: TurnView, n: Any) -> Mapping | None:
    """The source numbered n of the turn, or None."""
    try:
        number = int(n)
    except (TypeError, ValueError):
        return None
    return next((s for s in view.sources if s["n"] == number), None)
