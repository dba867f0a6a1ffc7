"""Attachments named without their label: by an alias the document defines, or by a shortened title without 《》."""
from __future__ import annotations

import bisect
import re
import unicodedata
from functools import lru_cache
from typing import Iterator, Mapping, Sequence

from kb.model import Attachment, Reference
from kb.search.tokens import jieba_words
from kb.text import squash


# （以下简称《管制清单》） / (以下简称“物资表”) / （以下称清单表）, right after the mention it names.
_ALIAS = re.compile(
    r"\s{0,2}[（(]\s*以下(?:简称|称)\s*(?:(?P<book>《[^《》\n]{1,30}》)|(?P<quoted>[“\"][^“”\"\n]{1,30}[”\"])"
    r"|(?P<bare>[^（）()，,。；;\n“”\"《》]{2,30}))\s*[）)]"
)
MIN_BARE_ALIAS = 4  # a bare alias of 2–3 chars (清单, 该表) is an ordinary word elsewhere in the text
# A shortened title counts only where the sentence points at a document: before it, or after it.
_LEAD = re.compile(r"(?:按照|依照|依据|根据|参照|对照|按|见|详见|参见|填写|填报|执行|列入|适用|所附|附)$")
_TAIL = re.compile(r"^(?:的规定|规定|所列|所附|执行|确定|计算|填写|填报|的标准|标准)")
MIN_INNER_TITLE_CHARS, MAX_INNER_TITLE_CHARS = 4, 60
_NOT_TITLE = re.compile(r"[。；;！？!?，,：:|《》“”\"]")
_CJK = re.compile(r"[\u4e00-\u9fff]")
_PREPOSITIONS = frozenset("在按依照据于与和及将把对由从经")
MIN_SUFFIX_CHARS = 5
# The whole title of an attachment that is a document (…说明, …表, …清单, …办法), written out, names it
# wherever it stands (主席团公布的国旗制法说明制作, 国旗制法说明中所列明的…); a shortened one needs the sentence
# to point at a document. A title naming a topic (园区基本情况, 事故废水三级防控体系) is ordinary prose elsewhere.
MIN_WHOLE_TITLE_CHARS = 6
_DOCUMENT_NOUN = re.compile(
    r"(?:说明|说明书|表|清单|目录|名录|名单|图|办法|规定|细则|标准|规范|方案|预案|制度|规程|规则|条例|须知|手册|指南|"
    r"明细|图案|曲谱|乐谱)$"
)
MIN_SUFFIX_WORDS = 2
_FUNCTION_WORDS = frozenset("的 和 及 与 或 、 之 等 以及".split())


def alias_references(text: str, found: Sequence[Reference], start: int = 0) -> Iterator[tuple[str, int, int]]:
    """(label, start, end) of each later use of an alias defined right after a resolved mention.

    Each alias is searched for once, however often it is defined: a use belongs to the latest definition before
    it, so 1,000 repeats of one （以下简称《…》） cost one pass over the text, not 1,000."""
    defined: dict[str, list[tuple[int, str]]] = {}  # use pattern → (where a definition ends, its label), in order
    for ref in found:
        if ref.target is None:
            continue
        match = _ALIAS.match(text, ref.end)
        pattern = _alias_pattern(match) if match else None
        if pattern is not None:
            definitions = defined.setdefault(pattern, [])
            if not definitions or definitions[-1][1] != ref.target:  # the same alias for the same label: one alias
                definitions.append((match.end(), ref.target))
    for pattern, definitions in defined.items():
        definitions.sort()
        ends = [end for end, _ in definitions]
        for use in re.compile(pattern).finditer(text, max(start, ends[0])):
            latest = bisect.bisect_right(ends, use.start()) - 1
            if latest >= 0:
                yield definitions[latest][1], use.start(), use.end()


def _alias_pattern(match: re.Match[str]) -> str | None:
    """The pattern of an alias's uses, or None for a bare alias too short to tell from ordinary words."""
    if match.group("book"):
        return re.escape(match.group("book"))
    if match.group("quoted"):
        return rf"[“\"《]{re.escape(match.group('quoted')[1:-1])}[”\"》]"
    name = match.group("bare").strip()
    if len(name) < MIN_BARE_ALIAS:
        return None
    return rf"《{re.escape(name)}》|{re.escape(name)}"


def inner_titles(text: str, attachments: Sequence[Attachment]) -> dict[str, str]:
    """Title (as kb.text.squash leaves it) → label for the title lines inside attachments past their header: one attachment may hold
    several documents (国徽法's 附件 holds 中华人民共和国国徽图案, then 中华人民共和国国徽图案制作说明), each cited by
    its own 《title》. A title line found in two attachments names neither."""
    seen: dict[str, set[str]] = {}
    for att in attachments:
        lines = text[att.start : att.end].split("\n")[1:]
        for line in lines:
            candidate = line.strip().strip("#* ").strip()
            if MIN_INNER_TITLE_CHARS <= len(candidate) <= MAX_INNER_TITLE_CHARS and not _NOT_TITLE.search(candidate):
                seen.setdefault(squash(candidate), set()).add(att.label)
    return {title: labels.pop() for title, labels in seen.items() if len(labels) == 1}


def shortened_title_references(text: str, attachments: Sequence[Attachment],
                               absent: Mapping[str, str] | None = None) -> Iterator[tuple[str, int, int]]:
    """(label, start, end) of each title, or distinctive word-aligned tail of one, written without 《》.

    The whole title (MIN_WHOLE_TITLE_CHARS or more) counts wherever it is written. 按照仲裁案件受理费表的规定 names the attachment 仲裁委员会仲裁案件受理费表: the tail must be at least
    MIN_SUFFIX_CHARS long and MIN_SUFFIX_WORDS words, start on a word, belong to one attachment only, and stand
    where a sentence points at a document (按照… / …的规定). `absent` maps the labels the document lists but does
    not hold to their listed titles: a tail one of those titles ends with names that attachment, not this one."""
    others = [_norm(t) for t in (absent or {}).values() if t]
    titled = [a for a in attachments if len(_norm(a.title)) >= MIN_SUFFIX_CHARS]
    tails: dict[str, set[str]] = {}
    for att in titled:
        for tail in _word_tails(_norm(att.title)):
            tails.setdefault(tail, set()).add(att.label)
    for att in titled:
        title = _norm(att.title)
        taken: list[tuple[int, int]] = []
        for tail in sorted((t for t in _word_tails(title) if len(tails[t]) == 1), key=len, reverse=True):
            if any(tail != _norm(o.title) and _norm(o.title).endswith(tail) for o in attachments if o is not att) \
                    or any(o.endswith(tail) for o in others):
                continue
            whole = tail == title and len(title) >= MIN_WHOLE_TITLE_CHARS and bool(_DOCUMENT_NOUN.search(title))
            for use in re.finditer(re.escape(tail), text):
                inside = any(s <= use.start() < e for s, e in taken)  # a shorter tail inside a longer one
                if not inside and (_points_at(text, use.start(), use.end()) or whole and _unquoted(text, use.start())):
                    taken.append((use.start(), use.end()))
                    yield att.label, use.start(), use.end()


@lru_cache(maxsize=4096)
def _word_tails(title: str) -> tuple[str, ...]:
    """The title and its tails that start on a word boundary, long enough to be distinctive (remembered: jieba
    cutting every attachment title twice a document was a third of building one)."""
    words = jieba_words(title)
    out = []
    for i in range(len(words)):
        tail = "".join(words[i:])
        if words[i] in _FUNCTION_WORDS or len(tail) < MIN_SUFFIX_CHARS or len(words) - i < MIN_SUFFIX_WORDS:
            continue
        out.append(tail)
    return tuple(out)


def _unquoted(text: str, start: int) -> bool:
    return not (start > 0 and text[start - 1] in "《“\"")  # a 《…》 or quoted title is the title reference's


def _points_at(text: str, start: int, end: int) -> bool:
    if text[start - 1 : start] in "《“\"" and start > 0:
        return False  # a 《…》 or quoted title is the title reference's, not a shortened one
    if _LEAD.search(text[max(0, start - 4) : start]):
        return True
    # Closed by …的规定, the tail must also begin the name: 县突发事件应急预案的规定 names another plan.
    before = text[start - 1 : start] if start > 0 else ""
    begins = not _CJK.match(before) or before in _PREPOSITIONS
    return begins and bool(_TAIL.match(text[end : end + 4]))


@lru_cache(maxsize=4096)
def _norm(title: str) -> str:
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", title))
