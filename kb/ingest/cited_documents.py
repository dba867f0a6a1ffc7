"""Labels that belong to another document: 附录B inside a passage quoted from a cited standard is that standard's."""
from __future__ import annotations

import bisect
import re
import unicodedata
from dataclasses import dataclass

# 《…》 naming a document, then an optional standard number (Q/SY1190-2013, GB 50016-2014, HJ/T 169—2018) and an
# optional clause number (5.4.2): a standard's clause number means the text that follows is quoted from it.
_CITED = re.compile(r"《(?P<title>[^《》\n]{2,80})》")
_STANDARD = r"[A-Z]{1,4}(?:/[A-Z]{1,3})?\s*(?:\d{1,6}(?:\.\d+)?\s*[-—–－]\s*\d{2,4}|\d{3,6})"
# Blanks taken whole (+): the two \s* around an optional bracket split a run of n blanks n² ways before failing.
_CODE = re.compile(rf"\s*+(?:[（(]\s*+)?(?P<code>{_STANDARD})\s*[）)]?")
# A standard named by its number alone, right before the label: 按GB 50016-2014附录B确定.
_STANDARD_BEFORE = re.compile(rf"{_STANDARD}\s*[）)]?\s*(?:的|中)?\s*$")
_CLAUSE = re.compile(r"\s*(?P<clause>\d+(?:\.\d+)+)")
# The document speaking of itself again ends any quote: 本指南附录B is this guide's.
_OWN = re.compile(r"本(?:指南|预案|标准|办法|规定|条例|细则|规则|方案|导则|规范|通知|意见|法)")
_THAT_DOCUMENT = re.compile(r"(?:该|上述|此|其)(?:标准|规范|导则|规程|文件)(?:的|中)?\s*$")
_CLAUSE_END = re.compile(r"[。；;！？!?，,：:\n]")
_PARAGRAPH_END = re.compile(r"\n\s*\n|\n\s*#")
# A bracketed pointer after a title (《…报名登记表》（见附件2）) says where this document holds it, not what the titled
# document holds.
_POINTER = re.compile(r"[（(]\s*(?:详见|参见|见)\s*$")
MAX_QUOTE_CHARS = 600  # a quoted passage is bounded: past this a label is the document's own again
_NEAR = 4  # 《标准》附录B / 《标准》的附录B / 《标准》（GB…）中附录B


@dataclass(frozen=True)
class _Citation:
    start: int
    end: int  # after the title, its standard number and clause number
    coded: bool
    quoting: bool


class ExternalCitations:
    """The 《…》 documents a text cites (other than its own attachments), and whether a label belongs to one."""

    def __init__(self, text: str, own_titles: set[str], document_title: str = "") -> None:
        self._text = text
        own = _bare(document_title)
        found = []
        for match in _CITED.finditer(text):
            title = _norm(match.group("title"))
            if title in own_titles or (len(own) >= 4 and (_bare(title) in own or own in _bare(title))):
                continue  # the document's own attachment, or the document itself: 《本指南（试行）》附录B is its own
            end = match.end()
            code = _CODE.match(text, end)
            end = code.end() if code else end
            clause = _CLAUSE.match(text, end)
            end = clause.end() if clause else end
            found.append(_Citation(match.start(), end, bool(code), bool(clause)))
        self._items = found
        self._ends = [c.end for c in found]

    def quotes(self, pos: int, owner: tuple[int, int], kind: str) -> bool:
        """Whether the label at pos belongs to a document cited just before it, in the same attachment or body.

        A standard's appendices are 附录 (GB/T 1.1): an 附件 after a standard's number stays this document's."""
        before = self._text[max(owner[0], pos - 24) : pos]
        if _THAT_DOCUMENT.search(before):
            return True
        standard_kind = kind == "附录"
        if standard_kind and _STANDARD_BEFORE.search(before):
            return True
        i = bisect.bisect_right(self._ends, pos) - 1
        if i < 0 or self._items[i].start < owner[0]:
            return False
        cited = self._items[i]
        between = self._text[cited.end : pos]
        if _OWN.search(between) or _POINTER.search(between):
            return False
        if len(between.strip()) <= _NEAR and not _CLAUSE_END.search(between):
            return True  # 《某办法》附件3 / 《某标准》的附录B
        if not standard_kind:
            return False
        if cited.coded and not _CLAUSE_END.search(between):
            return True  # 按《…》（GB 50016-2014）规定的附录B确定: the same clause names the standard
        return cited.quoting and len(between) <= MAX_QUOTE_CHARS and not _PARAGRAPH_END.search(between)


def _norm(title: str) -> str:
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", title))


def _bare(title: str) -> str:
    """A title without its bracketed qualifiers: 企业风险评估指南（试行） → 企业风险评估指南."""
    return re.sub(r"[（(][^（）()]*[）)]", "", _norm(title))
