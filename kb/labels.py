"""Attachment labels: kind (附件/附录/附表) + normalized number (附件一 → 附件1, 附件３－１ → 附件3-1, 附录ｂ → 附录B).

A document with one unnumbered attachment labels it by its kind alone (附件)."""
from __future__ import annotations

import re

import cn2an

from kb.text import fold

# Inside a label only horizontal space may separate its parts: "改装附件" at a line's end and "4．调节" on the
# next line are two things, not 附件4. Text taken from PDFs spaces the kind itself (附 件 1).
SPACE = r"[ \t\u3000\xa0]*"
KIND = r"(?P<kind>附[ \u3000]?件|附[ \u3000]?录|附[ \u3000]?表)"
_CN_NUM = r"[零〇一二两三四五六七八九十百]+"
_DASH = r"[-－—–]"
# Arabic (with an optional sub-number), Chinese numerals, or a single Latin letter.
NUMBER = (
    rf"(?:[0-9０-９]+(?:{SPACE}{_DASH}{SPACE}[0-9０-９]+)?(?![0-9０-９])|{_CN_NUM}(?!分)"
    rf"|[A-Za-zＡ-Ｚａ-ｚ](?![A-Za-zＡ-Ｚａ-ｚ]))"
)
LABEL = re.compile(rf"{KIND}{SPACE}(?P<number>{NUMBER})")


def chinese_to_int(text: str) -> int:
    """A Chinese numeral (十一, 二十三, 一百零五, 〇三) as an int."""
    return int(cn2an.cn2an(text, "smart"))


def normalize_number(raw: str) -> str:
    """'一' → '1', '３－１' → '3-1', 'b' → 'B', '011' → '11'; '' stays '' (an unnumbered attachment)."""
    text = fold(raw).strip()
    text = re.sub(r"\s*[-－—–]\s*", "-", text)
    if re.fullmatch(r"[0-9]+(?:-[0-9]+)?", text):
        return "-".join(str(int(p)) for p in text.split("-"))
    if re.fullmatch(_CN_NUM, text):
        try:
            return str(chinese_to_int(text))
        except ValueError:  # 十十 is not a numeral: keep it as written rather than guess
            return text
    return text.upper()


def normalize_kind(raw: str) -> str:
    """'附 件' → '附件'."""
    return re.sub(r"\s", "", raw)


def make_label(kind: str, raw_number: str) -> str:
    """The normalized label, e.g. make_label('附件', '十一') == '附件11', make_label('附件', '') == '附件'."""
    return f"{normalize_kind(kind)}{normalize_number(raw_number)}"


def parse_label(text: str) -> str | None:
    """The normalized label at the start of a free-form label text ('附件4：应急物资清单' → '附件4'), or None."""
    match = LABEL.match(fold(text).strip())
    return make_label(match.group("kind"), match.group("number")) if match else None


_KIND_ALONE = re.compile(rf"{KIND}\s*(?:[：:]|$)")


def parse_unnumbered_label(text: str) -> str | None:
    """The label of a single unnumbered attachment written as its kind alone ('附件：受理费表' → '附件'), or None."""
    match = _KIND_ALONE.match(fold(text).strip())
    return normalize_kind(match.group("kind")) if match else None
