"""Attachment labels: kind (附件/附录/附表) + normalized number (附件一 → 附件1, 附件３－１ → 附件3-1, 附录ｂ → 附录B)."""
from __future__ import annotations

import re

from kb.text import fold

KIND = r"(?P<kind>附件|附录|附表)"
_CN_DIGITS = "零〇一二三四五六七八九两"
_CN_NUM = r"[零〇一二两三四五六七八九十百]+"
_DASH = r"[-－—–]"
# Arabic (with an optional sub-number), Chinese numerals, or a single Latin letter.
NUMBER = rf"(?:[0-9０-９]+(?:\s*{_DASH}\s*[0-9０-９]+)?(?![0-9０-９])|{_CN_NUM}(?!分)|[A-Za-zＡ-Ｚａ-ｚ](?![A-Za-zＡ-Ｚａ-ｚ]))"
LABEL = re.compile(rf"{KIND}\s*(?P<number>{NUMBER})")


def chinese_to_int(text: str) -> int:
    """Convert a Chinese numeral below 1000 (十一, 二十三, 一百零五, 〇三) to an int."""
    if all(c in _CN_DIGITS for c in text):
        return int("".join(str(_digit(c)) for c in text))
    total, current = 0, 0
    for char in text:
        if char == "百":
            total += (current or 1) * 100
            current = 0
        elif char == "十":
            total += (current or 1) * 10
            current = 0
        else:
            current = _digit(char)
    return total + current


def _digit(char: str) -> int:
    return {"零": 0, "〇": 0, "两": 2}.get(char, _CN_DIGITS.index(char) - 1 if char in _CN_DIGITS[2:] else 0)


def normalize_number(raw: str) -> str:
    """'一' → '1', '３－１' → '3-1', 'b' → 'B', '011' → '11'."""
    text = fold(raw).strip()
    text = re.sub(r"\s*[-－—–]\s*", "-", text)
    if re.fullmatch(r"[0-9]+(?:-[0-9]+)?", text):
        return "-".join(str(int(p)) for p in text.split("-"))
    if re.fullmatch(_CN_NUM, text):
        return str(chinese_to_int(text))
    return text.upper()


def make_label(kind: str, raw_number: str) -> str:
    """The normalized label, e.g. make_label('附件', '十一') == '附件11'."""
    return f"{kind}{normalize_number(raw_number)}"


def parse_label(text: str) -> str | None:
    """The normalized label at the start of a free-form label text ('附件4：应急物资清单' → '附件4'), or None."""
    match = LABEL.match(fold(text).strip())
    return make_label(match.group("kind"), match.group("number")) if match else None
