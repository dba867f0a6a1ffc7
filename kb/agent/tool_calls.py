"""The agent's tool-calling completion: one non-streamed call offering the tools, read into plain records."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kb.errors import LLMError
from kb.answer.deltas import ThinkTagSplitter, TokenUsage
from kb.answer.llm import OpenAIChatModel


@dataclass(frozen=True)
class ToolCall:
    """One function call the model asked for; arguments is the JSON text as the model wrote it."""

    id: str
    name: str
    arguments: str


@dataclass(frozen=True)
class ToolReply:
    """A non-streamed completion: the answer text, or the tool calls the model wants first."""

    content: str
    tool_calls: tuple[ToolCall, ...]
    thinking: str = ""
    usage: TokenUsage | None = None


def complete_with_tools(
    model: OpenAIChatModel, messages: list[dict[str, Any]], tools: list[dict[str, Any]], seconds: float = 0.0
) -> ToolReply:
    """One non-streamed completion offering `tools` (OpenAI function schemas; none: answer now) within `seconds`
    (0: no limit); raises LLMError."""
    response = model.complete(messages, seconds, **({"tools": tools} if tools else {}))
    if not response.choices:
        raise LLMError(f"The model endpoint {model.base_url} answered with no choices; check that "
                       "ANNEX_LLM_BASE_URL points at an OpenAI-compatible /v1 API with tool calling.")
    message = response.choices[0].message
    extra = message.model_extra or {}
    reasoning = extra.get("reasoning_content") or extra.get("reasoning") or ""
    splitter = ThinkTagSplitter()
    deltas = splitter.feed(message.content or "") + splitter.flush()
    thinking = str(reasoning) + "".join(d.text for d in deltas if d.kind == "thinking")
    content = "".join(d.text for d in deltas if d.kind == "content")
    calls = tuple(
        ToolCall(call.id or f"call_{i}", call.function.name, call.function.arguments or "{}")
        for i, call in enumerate(message.tool_calls or ())
        if getattr(call, "function", None) is not None
    )
    usage = response.usage
    return ToolReply(content, calls, thinking, TokenUsage(usage.prompt_tokens, usage.completion_tokens,
                                                          usage.total_tokens) if usage else None)
