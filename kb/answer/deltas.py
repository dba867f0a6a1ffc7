"""What a streamed completion is made of: deltas of thinking, content and usage, and the <think> tag splitter."""
from __future__ import annotations

from dataclasses import dataclass

THINK_OPEN, THINK_CLOSE = "<think>", "</think>"


@dataclass(frozen=True)
class TokenUsage:
    """Token counts the server reported for one completion."""

    prompt_tokens: int
    completion_tokens: int
    total_tokens: int


@dataclass(frozen=True)
class ModelDelta:
    """One piece of a streamed answer."""

    kind: str  # "thinking" | "content" | "usage"
    text: str = ""
    usage: TokenUsage | None = None


class ThinkTagSplitter:
    """Splits streamed text into thinking and content at <think>…</think>, even when a tag straddles chunks."""

    def __init__(self) -> None:
        self._pending = ""  # text that may be the start of a tag; held back until the next chunk decides
        self._thinking = False
        self._after_tag = False  # models put "\n\n" after a tag; dropped so answers don't start blank

    def feed(self, text: str) -> list[ModelDelta]:
        """Deltas for the text that is now unambiguous; a possible tag prefix at the end waits."""
        buf, out = self._pending + text, []
        while True:
            tag = THINK_CLOSE if self._thinking else THINK_OPEN
            at = buf.find(tag)
            if at < 0:
                keep = _tag_prefix_len(buf, tag)
                self._emit(out, buf[: len(buf) - keep])
                self._pending = buf[len(buf) - keep :]
                return out
            self._emit(out, buf[:at])
            buf = buf[at + len(tag) :]
            self._thinking, self._after_tag = not self._thinking, True

    def flush(self) -> list[ModelDelta]:
        """Deltas for whatever was held back; call once when the stream ends."""
        out: list[ModelDelta] = []
        self._emit(out, self._pending)
        self._pending = ""
        return out

    def _emit(self, out: list[ModelDelta], text: str) -> None:
        if self._after_tag:
            text = text.lstrip()
            self._after_tag = not text
        if not text:
            return
        kind = "thinking" if self._thinking else "content"
        if out and out[-1].kind == kind:
            out[-1] = ModelDelta(kind, out[-1].text + text)
        else:
            out.append(ModelDelta(kind, text))


def _tag_prefix_len(text: str, tag: str) -> int:
    """Length of the longest suffix of text that is a proper prefix of tag."""
    for n in range(min(len(text), len(tag) - 1), 0, -1):
        if text.endswith(tag[:n]):
            return n
    return 0
