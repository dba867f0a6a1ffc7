"""Text normalisation, spelled once: compatibility and full-width forms folded (NFKC), 附件３ → 附件3, Ｂ → B."""
from __future__ import annotations

import re
import unicodedata

_SPACE = re.compile(r"\s+")


# Characters a reader does not see: format controls (U+200B zero-width space, U+FEFF, U+2060 word joiner, U+200E
# direction marks, U+00AD soft hyphen), control characters, and the Hangul fillers and variation selectors that
# render as nothing. A question made only of these has no words.
_UNSEEN_CATEGORIES = frozenset({"Cc", "Cf"})
_UNSEEN = frozenset("\u034f\u115f\u1160\u3164\uffa0") | frozenset(map(chr, range(0xFE00, 0xFE10)))


def visible(text: str) -> str:
    """The text without the characters nobody sees (control characters become spaces), trimmed."""
    kept = (" " if unicodedata.category(c) == "Cc" else "" if c in _UNSEEN or unicodedata.category(c) in
            _UNSEEN_CATEGORIES else c for c in text)
    return "".join(kept).strip()


def fold(text: str) -> str:
    """NFKC: full-width digits, letters and punctuation to their plain forms."""
    return unicodedata.normalize("NFKC", text)


def fold_case(text: str) -> str:
    """fold and lower case, for search tokens and embeddings."""
    return fold(text).lower()


def squash(text: str) -> str:
    """fold without any whitespace, for comparing titles, names and answers."""
    return _SPACE.sub("", fold(text))


# A title set letter-spaced (PDF and OCR copies: 中 华 人 民 共 和 国 国 家 标 准, 功 能 码): single CJK characters with
# one space between each, three or more of them.
_SPACED = re.compile(r"(?<![\u4e00-\u9fff])[\u4e00-\u9fff](?:[ \u3000][\u4e00-\u9fff]){2,}(?![\u4e00-\u9fff])")


def unspace(title: str) -> str:
    """A letter-spaced title written as a reader reads it (功 能 码 → 功能码); other spaces are kept."""
    return _SPACED.sub(lambda m: re.sub(r"[ \u3000]", "", m.group(0)), title)


# A line that opens with an enumeration mark: 甲、 (一) （1） 1. 一、 ① A．
ENUMERATED = re.compile(
    r"^\s*(?:[（(][0-9０-９一二三四五六七八九十]+[)）]|[0-9０-９]+[、.．)）](?![0-9０-９])|[一二三四五六七八九十]+[、.．]"
    r"|[甲乙丙丁戊己庚辛壬癸][、.．]|[①-⑳]|[A-Za-zＡ-Ｚ][、.．)）])"
)
# The words a law's or a rule's name ends with (中华人民共和国印花税暂行*条例*): how it names itself (本条例) and how a
# question names it (印花税暂行条例哪天开始实施). A plan's 预案 is no such word: every clause of a plan says 本预案.
LAW_KINDS = "法|条例|办法|规定|细则|规范|规则|决定|解释"
INTRODUCES = re.compile(r"[：:]\s*$")  # a sentence that introduces the list below it (按照以下标准给予奖励：)
# A short label that opens a list with its first item on the same line (附件：1、查处酒后驾驶操作规程, 主要职责：1.负责…):
# the lines below with the same mark are its items too
_OPENS_INLINE = re.compile(r"^(?P<lead>[^：:，,。；;！？!?\s]{1,12}[：:])\s*(?P<first>\S.*)$")
# The addressees a notice opens with (各区教育局、各直属学校：, 各学院、各有关部门：, 市政府各部门：): bodies, each
# 各… or ending as a body's name ends, and a colon — to whom it is sent, not the lead-in of its numbered points.
_BODY = r"(?:各[^、，,。；;：:\s]{1,12}|[^、，,。；;：:\s]{1,16}(?:单位|部门|学院|学校|局|委|办|厅|政府|公司|处|室|中心|委员会|街道|乡镇|社区|党委|党组|支部|集团|医院|机关))"
ADDRESSEE = re.compile(rf"^{_BODY}(?:[、，,]{_BODY})*[：:]\s*$")
_MARK_STYLES = str.maketrans({
    **dict.fromkeys("0123456789０１２３４５６７８９", "1"), **dict.fromkeys("一二三四五六七八九十", "一"),
    **dict.fromkeys("甲乙丙丁戊己庚辛壬癸", "甲"), **{chr(c): "①" for c in range(ord("①"), ord("⑳") + 1)},
    **{chr(c): "A" for c in [*range(ord("A"), ord("Z") + 1), *range(ord("a"), ord("z") + 1)]},
    "(": "（", ")": "）", ".": "．",
})


def opens_inline(line: str) -> tuple[str, str] | None:
    """The label and the first item of a line that opens a list on itself (附件： | 1、查处酒后驾驶操作规程), or None."""
    opens = _OPENS_INLINE.match(line.strip())
    return (opens.group("lead"), opens.group("first")) if opens and enumeration_style(opens.group("first")) else None


def enumeration_style(line: str) -> str:
    """The kind of mark a line opens with (（一） and （二） are one kind, 甲、 another), or "" when it has none."""
    match = ENUMERATED.match(line)
    return re.sub(r"1+|一+", lambda m: m.group(0)[0], match.group(0).strip().translate(_MARK_STYLES)) if match else ""


class ListReader:
    """Reads lines in order and tells which list lead-in each one is an item of: the sentence ending in ： above a
    run of lines that open with marks of one kind. A blank line between items does not end the list; a line of
    another kind does (（三） after 甲、乙、 is the next point, not an item under （二）…如下：)."""

    def __init__(self) -> None:
        self.lead = ""
        self.style = ""

    def read(self, line: str, lead: str | None = None) -> str:
        """The lead-in `line` is an item under, or ""; `lead` is what to remember when the line introduces a list
        (default: the whole line)."""
        stripped = line.strip()
        if not stripped:
            return ""
        style = enumeration_style(stripped)
        under = ""
        if self.lead and style and self.style in ("", style):
            under, self.style = self.lead, style
        else:
            self.end()
        if INTRODUCES.search(stripped) and not ADDRESSEE.match(stripped):
            self.lead, self.style = (stripped if lead is None else lead), ""
        elif not under and (opened := opens_inline(stripped)):
            self.lead, self.style = opened[0], enumeration_style(opened[1])
        return under

    def end(self) -> None:
        """A heading or a table ends every list."""
        self.lead, self.style = "", ""
