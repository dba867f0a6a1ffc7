"""One way of writing what readers write several ways: short names, everyday words for a law's terms, numbers and
lengths of time. Documents and questions are both read through it before they are cut into words (BM25, the
offline answerer), so 驾照 finds 机动车驾驶证, 什么时候实施 finds 本法自…起施行, and 三个月 finds 九十日.

Each table is what any reader of Chinese laws and notices knows, never a phrase of one document; a mapping only ever
replaces a word by its equal, in both texts, so it can join two ways of writing and never part one.
"""
from __future__ import annotations

import re
from decimal import Decimal

# The short names every reader uses for the bodies a law or notice writes out in full (全国人大常委会 for
# 全国人民代表大会常务委员会): read as the full name, so a question in the short form finds the text.
ABBREVIATIONS = {
    "全国人大常委会": "全国人民代表大会常务委员会",
    "人大常委会": "人民代表大会常务委员会",
    "全国人大": "全国人民代表大会",
    "全国政协": "中国人民政治协商会议全国委员会",
    "发展改革委": "发展和改革委员会",
    "发改委": "发展和改革委员会",
}
# 环保税 is what people call 环境保护税, as 环保部门 is 环境保护部门.
ABBREVIATIONS["环保"] = "环境保护"
# The everyday word for a law's term, read as the term: 驾照 is what people call a 驾驶证. And the three verbs a law
# uses for coming into force: 本法自…起施行 / 本规范自…起实施 / 自…起生效 answer one question, however it is asked.
EVERYDAY = {
    "驾照": "驾驶证",
    "醉驾": "醉酒驾驶",
    "酒驾": "饮酒后驾驶",
    "及格": "合格",
    "罚钱": "罚款",
    "年假": "年休假",
    "实施": "施行",
    "生效": "施行",
    # paying a tax or a fee: 要交/应当缴纳 is 应纳, 不用交/免交/不缴纳 is 免纳, however a law or a person says it
    "应当缴纳": "应纳", "应当交纳": "应纳", "需要交": "应纳", "要交": "应纳", "应交": "应纳", "要缴": "应纳",
    "不缴纳": "免纳", "不用交": "免纳", "不用缴": "免纳", "不需要交": "免纳", "不必交": "免纳", "免交": "免纳",
    # a tax or fee waived is not paid: 免征 (the levying side) and 免纳 (the paying side) say one thing
    "免征": "免纳", "免于征收": "免纳", "免予征收": "免纳",
    # paid late: 晚交, 迟交 are what a law calls 逾期缴纳; filing a tax return: 报税 is 申报纳税
    "晚交": "逾期缴纳", "迟交": "逾期缴纳", "晚缴": "逾期缴纳", "迟缴": "逾期缴纳", "延迟缴纳": "逾期缴纳",
    "报税": "申报纳税",
    "不能": "不得", "不准": "不得", "不许": "不得", "不可以": "不得",  # what a law forbids
    "终了": "结束",  # 季度终了 is the quarter's end
    # a licence, a card or a certificate lost: what a rule calls 遗失, however it is said
    "丢失": "遗失", "弄丢了": "遗失", "弄丢": "遗失", "搞丢了": "遗失", "搞丢": "遗失", "丢了": "遗失",
    "名字": "姓名",  # a person's 名字 is what a form's field calls 姓名
    # who works for an employer and when, as a labour rule writes it: 员工 is its 职工; 例假, 生理期, 月经期 its 经期
    "员工": "职工",
    "从业人员": "职工",  # a plan's or a safety law's word for who works there (酒店从业人员约200名)
    "例假": "经期", "生理期": "经期", "月经期": "经期",
    "怀孕期间": "孕期",
    "多少天": "多少日", "几天": "几日",
    # what a notice of a meeting or a course writes of meals and travel: 午饭 is its 午餐, 路费 its 交通费
    "午饭": "午餐", "中饭": "午餐", "早饭": "早餐", "晚饭": "晚餐",
    "路费": "交通费", "车费": "交通费", "车旅费": "差旅费",
    "哪一天": "什么时候",  # the ways of asking when, written one way: a question word no text answers with
    "哪天": "什么时候",
    "何时": "什么时候",
    "几时": "什么时候",
    "啥时候": "什么时候",
    "几号": "什么时候",  # 回执几号前寄回: the day of a month, as 哪天 asks it (not 几号楼, 几号线: below)
    "开始施行": "起施行",  # 什么时候开始实施 asks what 本法自…起施行 says
    "开始实施": "起施行",
    "开始生效": "起施行",
    "开始执行": "起施行",
    "起执行": "起施行",  # 本办法自…起执行: 执行 alone is also 强制执行, only 起执行 is coming into force
}
_WORDS = {**ABBREVIATIONS, **EVERYDAY}
# The law's own terms come first, matched as themselves: 酒驾 inside 醉酒驾驶 is no everyday word.
_TERMS = sorted(set(_WORDS.values()) - set(_WORDS), key=len, reverse=True)
# A word that is part of a name keeps its writing there: 实施细则, 实施条例 name a document, they do not come into force.
# And 交 is paying only where nothing is handed to someone (回执要交给…, 材料要交到…).
_HANDED = "给|到|至|于|回|由|上"
_NOT_BEFORE = {"实施": "细则|条例|办法|方案|意见|计划|规则",
               "几号": "楼|线|门|馆|厅|房|室|窗|场|车|位|床|柜|文|令|附件|表|选手|运动员",
               **dict.fromkeys(("晚交", "迟交", "需要交", "要交", "应交", "要缴", "不用交", "不用缴", "不需要交", "不必交", "免交"), _HANDED)}
_WORD = re.compile("|".join([*map(re.escape, _TERMS), *(re.escape(w) + (f"(?!{_NOT_BEFORE[w]})" if w in _NOT_BEFORE else "")
                                                        for w in sorted(_WORDS, key=len, reverse=True))]))

# A number written in characters before what it counts (十五日, 两个月, 一角, 三年, 百分之五十): written in digits, as
# most texts write it, so 15日 and 十五日 are one word. Only before a unit: 一般, 统一, 第三章 keep their characters.
_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9,
           # the capitals a contract or a notice writes its sums in (叁拾贰万元, 伍佰万元): the same numbers
           "壹": 1, "贰": 2, "叁": 3, "肆": 4, "伍": 5, "陆": 6, "柒": 7, "捌": 8, "玖": 9}
_POWERS = {"十": 10, "百": 100, "千": 1000, "万": 10000, "拾": 10, "佰": 100, "仟": 1000, "萬": 10000}
NUMERALS = "".join([*_DIGITS, *_POWERS])  # every character of a number written in characters
_NUMERAL = NUMERALS
UNITS = "个多月|个月|块钱|元钱|毛钱|角钱|个工作日|工作日|日|天|周岁|岁|年|元|角|分钟|小时|倍|次(?!性)|人|名|周|公里|米"
_COUNT = re.compile(rf"(?<![第{_NUMERAL}])([{_NUMERAL}]+)(?=(?:{UNITS}))")
# A range's first end written in characters (三至五年, 三到五个工作日): in digits too, as its second end is by _COUNT,
# and its mark (至, 到, ～, —) written as the hyphen tables write (3-5年), so 三至五年 is the row's 3-5年.
_RANGE_MARK = "至|到|～|~|—|－|–|-"
_RANGE_START = re.compile(rf"(?<![第{_NUMERAL}])([{_NUMERAL}]+)(?=(?:{_RANGE_MARK})[0-9]+(?:{UNITS}))")
_RANGE = re.compile(rf"(?<=[0-9])(?:{_RANGE_MARK})(?=[0-9]+(?:{UNITS}))")
# A sum in 万 written with digits (10万元, 1.5万人): in full, as 十万元 and a table's 100000元 are.
_TEN_THOUSANDS = re.compile(r"(?<![0-9.])([0-9]{1,8}(?:\.[0-9]{1,4})?)万(?=元|人|名|次|吨|平方米|公里|米|亩|户)")
_PERCENT = re.compile(rf"百分之([{_NUMERAL}0-9.]+)")
# A length of time in days that is whole months (九十日, 180天) is read in months, as people say it (三个月); 半年 too.
# Every number pattern starts at a run of digits only (a run of 10k digits is one attempt, not 10k), and a length
# of time has at most six digits (int() of a long run is quadratic, and past 4,300 digits refused).
_DAYS = re.compile(r"(?<![0-9.月])([0-9]{1,6})(?:日|天)")  # not a date's day (1月30日)
# 不到一角, 不满1角, 未满五年, 少于…: below a number is one thing however it is said
_MONEY = re.compile(r"(?<![0-9])([0-9]+)(块钱|元钱|毛钱|角钱)")  # 一块钱 is 1元, 一毛钱 and 一角钱 are 1角
_MORE = re.compile(r"(?<![0-9])([0-9]+)个多月")  # 三个多月: more than three months, as a law says 三个月以上
_BELOW = re.compile(rf"(?:不到|不满|未满|不够|(?<!不)少于)(?=[0-9{_NUMERAL}半])")  # 不少于 is its opposite


def numeral_value(text: str) -> int | None:
    """The value of a number written in characters (十五 → 15, 两千零五 → 2005, 一九 → None: a year spelled out)."""
    if not text or any(ch not in _DIGITS and ch not in _POWERS for ch in text) or text[0] in "百千万佰仟萬":
        return None  # 万人, 百米: a word, not a count
    total, section, digit, last_power = 0, 0, None, None
    for ch in text:
        if ch in "零〇" and last_power:
            continue  # 一百零五: the zero only holds a place
        if ch in _DIGITS:
            if digit is not None:
                return None  # two digits in a row (一九八五): not a counted number
            digit = _DIGITS[ch]
        else:
            power = _POWERS[ch]
            if power == 10000:
                total += (section + (digit or 0)) * power
                section, digit = 0, None
            else:
                section += (1 if digit is None else digit) * power
                digit = None
            last_power = power
    value = total + section + (digit or 0)
    if digit is not None and last_power and last_power > 10 and text[-2] in _POWERS:
        value = total + section + digit * last_power // 10  # 一百五 is 150, as it is said
    return value


def _digits(match: re.Match[str]) -> str:
    value = numeral_value(match.group(1))
    return match.group(0) if value is None else str(value)


def _in_full(match: re.Match[str]) -> str:
    value = Decimal(match.group(1)) * 10000
    return str(int(value)) if value == value.to_integral_value() else match.group(0)


def _months(match: re.Match[str]) -> str:
    days = int(match.group(1))
    return f"{days // 30}个月" if days >= 30 and days % 30 == 0 else f"{days}日"


def other_ways(text: str) -> frozenset[str]:
    """The words of the text that the table reads as another's (免征 read as 免纳, 驾照 as 驾驶证), as written: a
    question that writes the law's own word (暂时免征) is closer to the clause that writes it than to one the table
    only makes equal (不缴纳)."""
    return frozenset(m.group(0) for m in _WORD.finditer(text) if m.group(0) in _WORDS)


def same_words(text: str) -> str:
    """The text written the one way (already case- and width-folded): short names in full, everyday words as the
    law's, numbers in digits, whole months of days as months, 天 as 日, every "below N" as 不足N."""
    text = _WORD.sub(lambda m: _WORDS.get(m.group(0), m.group(0)), text)
    text = _PERCENT.sub(lambda m: f"{numeral_value(m.group(1)) or m.group(1)}%", text)
    text = _COUNT.sub(_digits, text)
    text = _RANGE.sub("-", _RANGE_START.sub(_digits, text))
    text = _TEN_THOUSANDS.sub(_in_full, text)
    text = _MORE.sub(r"\1个月以上", text.replace("半年", "6个月"))
    text = _MONEY.sub(lambda m: m.group(1) + ("元" if m.group(2)[0] in "块元" else "角"), text)
    text = _DAYS.sub(_months, text)
    return _BELOW.sub("不足", text)
