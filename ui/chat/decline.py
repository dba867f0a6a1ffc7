"""The side panels of an answer that declines (知识库中没有找到…): a few closest passages instead of every source.

Listing thirty retrieved sources and every prefetch path under "nothing found" contradicts the answer; these
panels say what was closest instead, and leave the paths out (one click draws them, faded). Closest means sharing
the question's words: the retrieval score is relative to the best hit (the best always scores 1.00), so under a
decline it would call an unrelated passage fully relevant.
"""
from __future__ import annotations

import re
from typing import Mapping, Sequence

from kb.answer.question import word_spans
from kb.answer.sources import cited_numbers, declines
from kb.search.tokens import tokenize
from kb.text import fold_case
from ui.chat.citations import how_reached, where
from ui.safe import clip, h

CLOSEST = 3  # passages listed under a declined answer
PASSAGE_CHARS = 220
# what a visitor can do next: a decline that stops at "not found" leaves a first-time visitor stuck
NEXT_STEP = "可以换个说法再问、点一个示例问题，或在“知识库”页上传含有答案的文档。"
_HEADING_MARK = re.compile(r"^[ \t]{0,3}#{1,6}[ \t]+", re.MULTILINE)  # a Markdown file's `## 一、总则`
PATHS_NOTE = "回答没有在知识库中找到答案，所以这里不画检索路径（点“显示全部路径”可查看，均为淡色）。"


def declined(answer: str) -> bool:
    """Whether the answer says the knowledge base does not hold the answer and cites nothing."""
    return declines(answer) and not cited_numbers(answer)


def shared_words(question: str, text: str) -> tuple[list[str], int]:
    """The question's words the passage holds (as written, however jieba cuts the passage), and how many it has."""
    words = [w for w in dict.fromkeys(w for w, _, _ in word_spans(question)) if w in tokenize(w)]  # whole words
    folded = fold_case(text)
    return [w for w in words if w in folded], len(words)


def closest_sources(sources: Sequence[Mapping], question: str = "", limit: int = CLOSEST) -> list[Mapping]:
    """The `limit` retrieved (not prefetched or hopped-to) sources that share most of the question's words (any at
    all), the more relevant first; by retrieval relevance alone when no question is given."""
    retrieved = [s for s in sources if not s.get("prefetched") and s.get("via") != "post_hop"]
    if not question:
        return sorted(retrieved, key=lambda s: (-float(s.get("score") or 0.0), s["n"]))[:limit]
    shared = {s["n"]: len(shared_words(question, s.get("text", ""))[0]) for s in retrieved}
    near = [s for s in retrieved if shared[s["n"]]]
    return sorted(near, key=lambda s: (-shared[s["n"]], -float(s.get("score") or 0.0), s["n"]))[:limit]


def render_closest(sources: Sequence[Mapping], question: str = "", limit: int = CLOSEST) -> str:
    """HTML: the note that nothing answered, then the closest passages, each with the question's words it holds."""
    closest = closest_sources(sources, question, limit)
    if not closest:
        return (f'<div class="annex-cites"><div class="decline-note">知识库中没有找到这个问题的答案，也没有检索到'
                f'与问题用词相近的原文（共检索到 {len(sources)} 段，都不含问题中的词语）。{NEXT_STEP}</div></div>')
    head = (f'<div class="decline-note">知识库中没有找到这个问题的答案。下面是检索到的与问题用词最接近的 '
            f'{len(closest)} 段原文（共检索到 {len(sources)} 段），它们不回答这个问题，仅供参考：</div>')
    items = []
    for s in closest:
        items.append(
            f'<li class="decline-passage"><div class="cite-where">{h(where(s))} · 《{h(s["doc_title"])}》'
            f'<span class="cite-how">{h(how_reached(s))} · {h(_closeness(s, question))}</span></div>'
            f'<div class="cite-text">{h(clip(_one_paragraph(s.get("text", "")), PASSAGE_CHARS))}</div></li>')
    return (f'<div class="annex-cites annex-closest">{head}<ol>{"".join(items)}</ol>'
            f'<div class="decline-note">{NEXT_STEP}</div></div>')


def _one_paragraph(text: str) -> str:
    """A passage as one run of text: its lines joined, without the `#` marks of Markdown headings."""
    return " ".join(_HEADING_MARK.sub("", text).split())


def _closeness(source: Mapping, question: str) -> str:
    """`含问题词 2/5：冲锋舟、存放`, or the retrieval's relative score when there is no question to compare with."""
    if not question:
        return f"检索相对得分 {float(source.get('score') or 0.0):.2f}"
    shared, total = shared_words(question, source.get("text", ""))
    return f"含问题词 {len(shared)}/{total}：{'、'.join(shared)}"


def closest_choices(sources: Sequence[Mapping], question: str = "", limit: int = CLOSEST) -> list[tuple[str, int]]:
    """(label, n) of the closest passages, for the citation selector."""
    return [(clip(f"{where(s)} · {s['doc_title']}", 80), s["n"]) for s in closest_sources(sources, question, limit)]
