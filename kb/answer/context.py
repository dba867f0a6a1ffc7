"""The prompt's token budget: a conservative token estimate, and sources cut to fit the model's context window.

No tokenizer is downloaded: a CJK character (or any non-ASCII one) counts as one token — Qwen, DeepSeek and Llama
tokenizers spend 0.6–1 token on a Chinese character — and ASCII text as one token per three characters (English
runs about four); each message adds a few tokens of chat-template framing. So the estimate is high, never low,
and a prompt it lets through fits.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Callable, Sequence

from kb.turn import Source

ASCII_CHARS_PER_TOKEN = 3
MESSAGE_OVERHEAD_TOKENS = 8  # role markers and separators of a chat template
MIN_CUT_TOKENS = 120  # a source cut shorter than this is dropped instead
CUT_MARK = "\n…（超出模型上下文窗口，已截断）"


def estimate_tokens(text: str) -> int:
    """Tokens a chat model spends on text, estimated high."""
    ascii_chars = sum(1 for c in text if c < "\x80")
    return (len(text) - ascii_chars) + math.ceil(ascii_chars / ASCII_CHARS_PER_TOKEN)


def estimate_messages(messages: Sequence[dict[str, str]]) -> int:
    """Tokens of a chat prompt, estimated high."""
    return sum(estimate_tokens(m.get("content") or "") + MESSAGE_OVERHEAD_TOKENS for m in messages)


@dataclass(frozen=True)
class Fitted:
    """The sources and history that fit, and what was left out."""

    sources: list[Source]  # renumbered 1..n in their original order
    history: list[tuple[str, str]]
    tokens: int  # the estimate of the prompt built from them
    budget: int  # tokens the prompt may take: the context window minus the answer cap
    first_tokens: int  # the estimate before anything was left out
    dropped: tuple[Source, ...] = ()  # sources left out, lowest-ranked first
    cut: tuple[Source, ...] = ()  # sources shortened (as they were before the cut)
    history_dropped: int = 0  # earlier messages left out, oldest first

    @property
    def changed(self) -> bool:
        return bool(self.dropped or self.cut or self.history_dropped)


Build = Callable[[Sequence[Source], Sequence[tuple[str, str]]], list[dict[str, str]]]


def fit(sources: Sequence[Source], history: Sequence[tuple[str, str]], build: Build, budget: int) -> Fitted:
    """Leave out the lowest-ranked sources (cutting the last one to fit where enough room is left), then the
    oldest history, until build(sources, history) is estimated within budget; the question and system prompt stay.

    Rank is the source's score, ties broken by its place in the prompt (retrieved chunks come before the
    attachments prefetched through the graph).
    """
    kept, turns = list(sources), list(history)
    first = tokens = estimate_messages(build(kept, turns))
    dropped: list[Source] = []
    cut: list[Source] = []
    by_rank = sorted(kept, key=lambda s: (-s.score, s.n))
    while tokens > budget and by_rank:
        lowest = by_rank.pop()
        without = [s for s in kept if s is not lowest]
        over = tokens - budget
        room = estimate_tokens(lowest.text) - over - MIN_CUT_TOKENS // 4
        shortened = _cut(lowest, room) if room >= MIN_CUT_TOKENS else None
        if shortened is not None:
            candidate = [shortened if s is lowest else s for s in kept]
            candidate_tokens = estimate_messages(build(candidate, turns))
            if candidate_tokens <= budget:
                cut.append(lowest)
                kept, tokens = candidate, candidate_tokens
                break
        dropped.append(lowest)
        kept = without
        tokens = estimate_messages(build(kept, turns))
    history_dropped = 0
    while tokens > budget and turns:
        turns = turns[2:] if len(turns) >= 2 else []  # a question and its answer go together
        history_dropped = len(history) - len(turns)
        tokens = estimate_messages(build(kept, turns))
    renumbered = [replace(s, n=i + 1) for i, s in enumerate(kept)]
    if renumbered != kept:
        tokens = estimate_messages(build(renumbered, turns))
    return Fitted(renumbered, turns, tokens, budget, first, tuple(dropped), tuple(cut), history_dropped)


def _cut(source: Source, tokens: int) -> Source | None:
    """The source's text shortened to about `tokens` tokens, or None when that is all of it."""
    text, wide, narrow = source.text, 0, 0
    for end, c in enumerate(text):
        if c < "\x80":
            narrow += 1
        else:
            wide += 1
        if wide + math.ceil(narrow / ASCII_CHARS_PER_TOKEN) > tokens:
            return replace(source, text=text[:end] + CUT_MARK)
    return None
