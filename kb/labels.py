"""Attachment labels: kind (附件/附录/附表/附图) + normalized number (附件一 → 附件1, 附件３－１ → 附件3-1, 附录ｂ → 附录B).

A document with one unnumbered attachment labels it by its kind alone (附件)."""
from __future__ import annotations

import re
import unicodedata

import cn2an

from kb.text import fold

# Inside a label only horizontal space may separate its parts: "改装附件" at a line's end and "4．调节" on the
# next line are two things, not 附件4. Text taken from PDFs spaces the kind itself (附 件 1).
SPACE = r"[ \t\u3000\xa0]*"
_CN_NUM = r"[零〇一二两三四五六七八九十百]+"
# 附1, 附2: the short form of 附件1 (附1: 应急行动工作领导小组联络方式), but not the verb 附 before a count (附1张照片,
# 附二维码): Arabic digits not followed by a measure word, or a Chinese numeral followed by a separator.
_MEASURE = r"[张份页件个本套篇册幅项条种]"
_BARE = (rf"附(?={SPACE}(?:[0-9０-９]+(?![0-9０-９]*{SPACE}{_MEASURE})|{_CN_NUM}(?=[：:．.、\s]|$)))")
# The kinds a document gives its attachments: 附件 (an annex of any content), 附录 (a standard's appendix), 附表 (a
# table), 附图 (a drawing or map: 附图1 厂区平面布置图). Text taken from PDFs spaces them (附 件).
KINDS = ("附件", "附录", "附表", "附图")
KIND_WORD = rf"附[ \u3000]?[{''.join(kind[1] for kind in KINDS)}]"
KIND = rf"(?P<kind>{KIND_WORD}|{_BARE})"
BARE_KIND = "附件"  # what 附1 is short for
_DASH = r"[-－—–]"
_DIGITS = r"[0-9０-９]+"
# A sub-number: 附件1-2, 附件1.2 (dotted, as a standard numbers its clauses: not 附件1.2023年…, a title after the dot),
# 附件一（1） / 附件2(3) (in brackets, one or two digits: not 附件1（略）, not 附件1（2023年版）).
_SUB = (
    rf"(?:{SPACE}{_DASH}{SPACE}{_DIGITS}(?![0-9０-９])"
    rf"|[.．]{_DIGITS}(?![0-9０-９]|{SPACE}[年月日万亿元个项%％.．])"
    rf"|{SPACE}[（(][0-9０-９]{{1,2}}[）)])"
)
# Arabic or Chinese numerals (with an optional sub-number), or a single Latin letter.
NUMBER = (
    rf"(?:{_DIGITS}(?![0-9０-９]){_SUB}?|{_CN_NUM}(?!分){_SUB}?"
    rf"|[A-Za-zＡ-Ｚａ-ｚ](?![A-Za-zＡ-Ｚａ-ｚ]))"
)
LABEL = re.compile(rf"{KIND}{SPACE}(?P<number>{NUMBER})")


def chinese_to_int(text: str) -> int:
    """A Chinese numeral (十一, 二十三, 一百零五, 〇三) as an int; ValueError for what is none (十十, 百百九十九)."""
    try:
        return int(cn2an.cn2an(text, "smart"))
    except (KeyError, IndexError) as exc:  # cn2an's own lookups fail on some malformed numerals instead of refusing them
        raise ValueError(f"not a Chinese numeral: {text!r}") from exc


def ordinal_number(text: str) -> int:
    """A number written in digits (full-width too) or Chinese (第十二条's 十二, 7), as an int; 0 for what is no numeral
    (十十, a typo a question may hold): a place or an article nobody can have meant."""
    text = unicodedata.normalize("NFKC", text).strip()
    if text.isdigit():
        return int(text)
    try:
        return chinese_to_int(text)
    except ValueError:
        return 0


def normalize_number(raw: str) -> str:
    """'一' → '1', '３－１' → '3-1', '1.2' → '1-2', '一（1）' → '1-1', 'b' → 'B', '011' → '11'; '' stays '' (an
    unnumbered attachment). A sub-number is one however a document writes it: 附件1.2 and 附件1-2 name one attachment."""
    text = fold(raw).strip()
    text = re.sub(r"\s*(?:[-－—–.]|\((?=[0-9]+\)$))\s*", "-", text).removesuffix(")")
    head, dash, sub = text.partition("-")
    if re.fullmatch(_CN_NUM, head) and re.fullmatch(r"[0-9]*", sub):
        try:
            head = str(chinese_to_int(head))
        except ValueError:  # 十十 is not a numeral: keep it as written rather than guess
            return text
    if re.fullmatch(r"[0-9]+(?:-[0-9]+)?", text := head + dash + sub):
        return "-".join(p.lstrip("0") or "0" for p in text.split("-"))  # str(int()) of 5,000 digits would raise
    return text.upper()


def normalize_kind(raw: str) -> str:
    """'附 件' → '附件'; '附' (of 附1) → '附件'."""
    kind = re.sub(r"\s", "", raw)
    return BARE_KIND if kind == "附" else kind


def make_label(kind: str, raw_number: str) -> str:
    """The normalized label, e.g. make_label('附件', '十一') == '附件11', make_label('附件', '') == '附件'."""
    return f"{normalize_kind(kind)}{normalize_number(raw_number)}"


def parse_label(text: str) -> str | None:
    """The normalized label at the start of a free-form label text ('附件4：应急物资清单' → '附件4'), or None."""
    match = LABEL.match(fold(text).strip())
    return make_label(match.group("kind"), match.group("number")) if match else None


def asked_labels(question: str) -> tuple[str, ...]:
    """The labels a question names, normalized, in order (附件六、附录C是什么 → 附件6, 附录C)."""
    found = (make_label(m.group("kind"), m.group("number")) for m in LABEL.finditer(fold(question)))
    return tuple(dict.fromkeys(found))


_KIND_ALONE = re.compile(rf"{KIND}\s*(?:[：:]|$)")


def parse_unnumbered_label(text: str) -> str | None:
    """The label of a single unnumbered attachment written as its kind alone ('附件：受理费表' → '附件'), or None."""
    match = _KIND_ALONE.match(fold(text).strip())
    return normalize_kind(match.group("kind")) if match else None


_LABEL_ALONE = re.compile(rf"{KIND}(?:{SPACE}(?P<number>{NUMBER}))?{SPACE}[：:]?")


def is_label_alone(text: str) -> bool:
    """The text is a label and nothing else (附件1, 附件2：, 附 件 3, 附件): a table cell that heads the table."""
    return bool(_LABEL_ALONE.fullmatch(fold(text).strip()))
