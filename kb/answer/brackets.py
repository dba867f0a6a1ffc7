"""A tier rule read as a table in prose: 已满10年不满20年的，年休假10天；已满20年的，… is a row per bracket, and an
amount the question gives (我工作了12年) picks the row whose bracket holds it, as a reader looks it up.

Texts and questions are read after kb/search/same_words.py (numbers in digits, 不满/未满/不到 as 不足), so a bracket
is written in few ways: 已满A不足B / A以上不足B / 满A不足B, A至B / A-B, A以上 / 已满A / 超过A, A以下 / 不足A / 低于A.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace
from functools import lru_cache

from kb.search.same_words import NUMERALS, numeral_value, same_words

_NUM = r"([0-9]+(?:\.[0-9]+)?)(万|千)?"
# the measure an amount is counted in: years and months are one measure (in months), as are 元 and 万元
_UNITS = "个月|月|年|周岁|岁|日|天|元|角|%|倍|人|名|次|分|小时|公里|米|吨|平方米"
_UNIT = rf"({_UNITS})"
_AMOUNT = re.compile(_NUM + _UNIT)
_IN_MONTHS = {"年": 12.0, "个月": 1.0, "月": 1.0}
_SAME = {"周岁": "岁", "天": "日", "名": "人"}
_SCALE = {"万": 10000.0, "千": 1000.0}
# One bracket, with its two ends or one; the amount is written in full at each end (已满10年不足20年).
_BETWEEN = re.compile(rf"(?:已满|满)?{_NUM}{_UNIT}?(?:(?:以上|起)(?:不足)?|不足|至|到|[-－~～—])(?:已满|满)?{_NUM}{_UNIT}(?:以下)?")
# A table's cell bounds one end in words or signs: 100人及以上 / 2000万元（含）以上 / 不少于20人 / ≥100人 (and the
# other end in the same cell or the next clause: …，300人以下); 以上 and 以下 hold the number itself, as laws count.
# A sign word after 不 is its opposite (不超过 bounds from above, 不少于 from below).
_AT_LEAST = r"(?<!不)(?:已满|满|超过|高于|多于|大于|不少于|不低于|不小于|达到|[≥>＞]=?)"
_AT_MOST = r"(?<!不)(?:不足|低于|少于|小于|不超过|不高于|不多于|[≤<＜]=?)"
_FROM = re.compile(rf"(?:{_AT_LEAST}{_NUM}{_UNIT}(?:(?:及|或)?以上)?|{_NUM}{_UNIT}(?:(?:及|或)?以上|（含）以上|以上（含）))")
_BELOW = re.compile(rf"(?:{_AT_MOST}{_NUM}{_UNIT}|{_NUM}{_UNIT}(?:(?:及|或)?以下|（含）以下|以下（含）|以内))")
# 100≤X＜300 or 100人≤从业人员＜300人: a row's bracket written as a chain of signs around what it bounds
_CHAIN = re.compile(rf"{_NUM}{_UNIT}?\s*[≤<＜≦]=?\s*[^0-9≤<＜≦；;，,]{{1,10}}?\s*[≤<＜≦]=?\s*{_NUM}{_UNIT}?")
# A column whose header names its unit (从业人员（人）, 营业收入（万元）) writes bare numbers in its cells; the flat row
# (kb/answer/flat_tables.py) reads 营业收入（万元）：300及以上，2000以下, and each number there is counted in that unit.
_HEADED = re.compile(rf"[（(]((?:万|千)?(?:{_UNITS}))[）)]：([^；]*)")
_BARE = re.compile(rf"(?<![0-9.])[0-9]+(?:\.[0-9]+)?(?![0-9.]|万|千|{_UNITS})")


# A sum said in 万 or 千 with nothing after it (50万到100万那档, 五十万到一百万的部分): people say money so, the 元 left
# unsaid; read as that many 元, so the question's range finds the row of its tier.
_BARE_SUM = re.compile(rf"(?<![0-9.])([0-9]+(?:\.[0-9]+)?|[{NUMERALS}]+?)(万|千)(?![0-9{NUMERALS}]|(?:{_UNITS})|个|多)")


_PEOPLE = re.compile(r"(?<=[0-9])个人")  # 我们有50个人: fifty people, counted as a table counts 从业人员 (人)


def _sum_in_yuan(match: re.Match[str]) -> str:
    number, scale = match.groups()
    value = number if number[0].isdigit() else numeral_value(number)
    return match.group(0) if value is None else f"{value}{scale}元"


@dataclass(frozen=True)
class Amount:
    value: float
    unit: str
    written: str = ""  # its number as the question writes it (in digits): a word of the question a row holds


@dataclass(frozen=True)
class Bracket:
    low: float
    high: float
    unit: str

    def holds(self, amount: Amount) -> bool:
        return amount.unit == self.unit and self.low <= amount.value <= self.high


def _amount(number: str, scale: str | None, unit: str) -> Amount:
    value = float(number) * _SCALE.get(scale or "", 1.0)
    if unit in _IN_MONTHS:
        return Amount(value * _IN_MONTHS[unit], "个月")
    return Amount(value, _SAME.get(unit, unit))


@lru_cache(maxsize=4096)
def amounts(question: str) -> tuple[Amount, ...]:
    """The amounts a question gives (工作了12年 → 144 个月; 3万元 → 30000 元), none it asks for (几天). A range it gives
    (三至五年, 3-5年) is the amount at its middle: the row whose bracket holds it is the row of that range (3-5年 of 1-3年 /
    3-5年 / 5-10年), where either end alone would be held by two rows."""
    text = _BARE_SUM.sub(_sum_in_yuan, _PEOPLE.sub("人", same_words(question)))
    ranges = [(m, bracket) for m in _BETWEEN.finditer(text) if (bracket := _between(m))]
    middles = [Amount((b.low + b.high) / 2, b.unit, m.group(1)) for m, b in ranges]
    return tuple(middles) + tuple(_bounded(text, m) for m in _AMOUNT.finditer(text)
                                  if not any(r.start() <= m.start() < r.end() for r, _ in ranges))


# A question that bounds its amount (不到20人的企业, 20人以下的, 超过100万的部分) asks for the row of the numbers past
# it: read one step inside the bound, a step of the last digit written (tiers are written in whole units: 1000元以下 /
# 1001元至50000元 / 1000001元以上), so the row "20人以下" holds 不到20人 and the row from 20 up does not.
_UNDER = re.compile(rf"{_AT_MOST}$")
_OVER = re.compile(rf"{_AT_LEAST}$")


def _bounded(text: str, m: re.Match[str]) -> Amount:
    """The amount an _AMOUNT match gives, moved just inside a bound the question puts on it."""
    amount = replace(_amount(*m.groups()), written=m.group(1))
    before, after = text[max(0, m.start() - 3):m.start()], text[m.end():m.end() + 2]
    step = 10.0 ** -len(m.group(1).partition(".")[2])  # 1 of 20人 or 100万元; 0.1 of 0.5%
    if _UNDER.search(before) and not before.endswith(("不超过", "不高于", "不多于")) or after.startswith("以下"):
        return replace(amount, value=amount.value - step)
    if _OVER.search(before) and not before.endswith(("已满", "满", "达到")) or after.startswith("以上"):
        return replace(amount, value=amount.value + step)
    return amount


def _between(m: re.Match[str]) -> Bracket | None:
    """The bracket a _BETWEEN match states, when its ends are in one measure and in order."""
    n1, s1, u1, n2, s2, u2 = m.groups()
    high = _amount(n2, s2, u2 or u1)
    low = _amount(n1, s1, u1 or u2)
    fits = low.unit == high.unit and bool(high.unit) and low.value <= high.value
    return Bracket(low.value, high.value, high.unit) if fits else None


def _with_header_units(text: str) -> str:
    """A flat row's cells with their column's unit written after each bare number (营业收入（万元）：300及以上 →
    300万元及以上)."""
    return _HEADED.sub(lambda m: m.group(0)[: m.start(2) - m.start(0)]
                       + _BARE.sub(lambda n: n.group(0) + m.group(1), m.group(2)), text)


@lru_cache(maxsize=32768)
def brackets(text: str) -> tuple[Bracket, ...]:
    """The brackets a tier clause or a table's row states (已满10年不足20年的 → 120–240 个月), in the order written."""
    text = _with_header_units(same_words(text))
    out, taken = [], []
    for m in (*_BETWEEN.finditer(text), *_CHAIN.finditer(text)):
        if any(a <= m.start() < b for a, b in taken):
            continue
        if bracket := _between(m):
            out.append(bracket)
            taken.append(m.span())
    for pattern, lower in ((_FROM, True), (_BELOW, False)):
        for m in pattern.finditer(text):
            if any(a <= m.start() < b for a, b in taken):
                continue
            number, scale, unit = next((m.groups()[i:i + 3] for i in (0, 3) if m.groups()[i]), (None, None, None))
            if number is None:
                continue
            at = _amount(number, scale, unit)
            out.append(Bracket(at.value, math.inf, at.unit) if lower else Bracket(-math.inf, at.value, at.unit))
    return tuple(out)


def bracket_fit(given: tuple[Amount, ...], text: str) -> bool | None:
    """Whether the text's brackets hold an amount the question gives (every bracket it states in that amount's
    measure: 满1年不满10年的职工，请病假累计2个月以上 is no row for 12年): True, False (the row of another case), or None
    (no bracket in the measure of any amount given)."""
    if not given:
        return None
    measured = [b for b in brackets(text) if any(b.unit == a.unit for a in given)]
    if not measured:
        return None
    # only an amount in a measure the text brackets decides (1次 of 一次性 holds in no bracket of years)
    return any(all(b.holds(a) for b in measured if b.unit == a.unit) for a in given
               if any(b.unit == a.unit for b in measured))
