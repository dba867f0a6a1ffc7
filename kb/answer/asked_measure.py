"""How many of a measure the question asks (多少人, 几排, 多少项), and whether a line gives a number in it.

A reader asked `大会议室能坐多少人？` who finds only `最晚应于每周一上午11:30前…提出使用申请` sees a time, no number of
people, and says the notice does not tell; asked `储建学院的学生坐哪几排？` of `储建150人，经管150人` sees people, no
rows. The measure word fused with the question word is the kind of number the answer writes: an answer gives it right
after its number (150人, 3-5排, 二十项, 200万元), after an ordinal (第3排), or as the measure of a labelled value
(人数：200, 金额（元）：3000) — a table row is quoted label by label. Dates and clock times are read by
kb/answer/unsaid.py (a day or an hour is written in many ways); a generic 个 counts anything (多少个单位 is answered
by a list of units), so neither is read here, nor the many measures things are counted in (KIN).
"""
from __future__ import annotations

import re
from typing import Iterable

from kb.answer.question import YES_NO

# The measures whose number an answer writes beside them, each with the measures that count the same thing
# (多少人 is answered by 15名 or 3位; 多少项 by 12条; 几天 by 7日). Things are counted in many measures (多少台 of
# `3套`, 多少套 of `800米` 围油栏), so only people, items of a list, money, days and times are read here.
KIN = {
    "人": "人名位", "名": "人名位", "位": "人名位",
    "项": "项条", "条": "条项款",
    "元": "元块", "块": "元块",
    "天": "天日", "次": "次遍回", "遍": "次遍回",
    "排": "排", "届": "届", "轮": "轮",
}
# 几个人 asks a number of people as 几人 does: the generic 个 between them counts them, it is no measure of its own
# 哪几/第几 ask which ones: an ordinal's measure says them (第3排, 第二轮); 哪几种表 is answered by the tables' names
ORDINAL_MEASURES = "排届轮次"
ASKED = re.compile(rf"(?:多少|(?<![哪第])几)\s*(?:个\s*)?([{''.join(KIN)}])|(?:哪几|第几)\s*([{ORDINAL_MEASURES}])")
_NUMERAL = r"[0-9０-９零〇一二两三四五六七八九十百千万]"


def _giving(kin: str) -> re.Pattern[str]:
    """A number in one of the measures `kin`: beside it (150人, 3-5排, 二十余项, 200万元, 约30多名, 7个工作日; 第3排),
    or as the measure of a labelled value (人数：200, 金额（元）：3000, 名额(人): 5)."""
    measures = f"[{re.escape(kin)}]"
    return re.compile(rf"{_NUMERAL}\s*(?:多|余|来)?\s*[万千百亿]?\s*(?:个)?\s*(?:工作)?{measures}"
                      rf"|{measures}[^：:；;，,。\s]{{0,3}}[)）]?\s*[：:]\s*{_NUMERAL}")


_GIVES = {measure: _giving(kin) for measure, kin in KIN.items()}


def asked_measure(question: str) -> str:
    """The measure word the question asks a number of (多少人 → 人), or '' (几点, 多少个, none)."""
    m = ASKED.search(question)
    return (m.group(1) or m.group(2)) if m else ""


def gives_measure(text: str, measure: str) -> bool:
    """The line writes a number in the measure or one of its kin (150人, 第3排, 人数：200)."""
    return bool(_GIVES[measure].search(text))


def unsaid_measure(question: str, lines: Iterable[str]) -> bool:
    """The question asks how many of a measure (多少人, 哪几排) and no line gives a number in it."""
    measure = asked_measure(question)
    if not measure or YES_NO.search(question):
        return False  # 是不是要交两份: a yes or no, not the number
    return not any(gives_measure(line, measure) for line in lines)
