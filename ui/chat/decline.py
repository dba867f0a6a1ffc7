"""The side panels of an answer that declines (知识库中没有找到…): a few closest passages instead of every source.

Listing thirty retrieved sources and every prefetch path under "nothing found" contradicts the answer; these
panels say what was closest instead, and leave the paths out (one click draws them, faded).
"""
from __future__ import annotations

from typing import Mapping, Sequence

from kb.answer.prompts import NO_ANSWER
from kb.answer.sources import cited_numbers
from ui.chat.citations import how_reached, where
from ui.safe import clip, h

CLOSEST = 3  # passages listed under a declined answer
PASSAGE_CHARS = 220
PATHS_NOTE = "回答没有在知识库中找到答案，所以这里不画检索路径（点“显示全部路径”可查看，均为淡色）。"


def declined(answer: str) -> bool:
    """Whether the answer says the knowledge base does not hold the answer and cites nothing."""
    return NO_ANSWER in answer and not cited_numbers(answer)


def closest_sources(sources: Sequence[Mapping], limit: int = CLOSEST) -> list[Mapping]:
    """The `limit` retrieved (not prefetched or hopped-to) sources with the highest relevance."""
    retrieved = [s for s in sources if not s.get("prefetched") and s.get("via") != "post_hop"]
    return sorted(retrieved, key=lambda s: (-float(s.get("score") or 0.0), s["n"]))[:limit]


def render_closest(sources: Sequence[Mapping], limit: int = CLOSEST) -> str:
    """HTML: the note that nothing answered, then the closest passages, each with its relevance."""
    closest = closest_sources(sources, limit)
    head = (f'<div class="decline-note">知识库中没有找到这个问题的答案。下面是检索到的最接近的 {len(closest)} 段原文'
            f'（共检索到 {len(sources)} 段），仅供参考：</div>')
    if not closest:
        return '<div class="annex-cites"><div class="decline-note">知识库中没有找到这个问题的答案，也没有检索到相近的原文。</div></div>'
    items = []
    for s in closest:
        score = float(s.get("score") or 0.0)
        items.append(
            f'<li class="decline-passage"><div class="cite-where">{h(where(s))} · 《{h(s["doc_title"])}》'
            f'<span class="cite-how">{h(how_reached(s))} · 相关度 {score:.2f}</span></div>'
            f'<div class="cite-text">{h(clip(" ".join(s.get("text", "").split()), PASSAGE_CHARS))}</div></li>')
    return f'<div class="annex-cites annex-closest">{head}<ol>{"".join(items)}</ol></div>'


def closest_choices(sources: Sequence[Mapping], limit: int = CLOSEST) -> list[tuple[str, int]]:
    """(label, n) of the closest passages, for the citation selector."""
    return [(clip(f"{where(s)} · {s['doc_title']}", 80), s["n"]) for s in closest_sources(sources, limit)]
