"""What a question asks for — a number, a list, a name; what it counts; where it says to look — and how its words
stand, read as a careful person reads a question before looking for the answer."""
from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass
from functools import lru_cache

import jieba
from jieba import posseg

from kb.search.tokens import MEASURE_WORDS, jieba_pieces, tokenize
from kb.text import fold_case

# What a question asks for, from its question words.
LIST = re.compile(r"哪些|哪几|有什么|有哪|包括什么|包含什么|分别|包括|包含")
QUANTITY = re.compile(r"多少|(?<!哪)几(?!乎)|多远|多大|多长|多久|多高|多宽|多重|多深|尺寸|比例|税率|费率|电话|号码|手机|容积|面积")
TITLE = re.compile(r"叫什么|名称|哪个附件|哪一个附件|什么附件")  # asks what something is called
NAME = re.compile(rf"{TITLE.pattern}|谁")
# A quantity or list question asks for something: the words right after 多少名/几艘/哪些 (多少名在编医生, 哪些外部救援
# 电话), or right before a closing 是多少/有多大 (累计降雨量是多少). A sentence that lacks them (in its own words or in
# what its source is about) speaks of something else. Attribute words (尺寸, 数量)
# are what the number itself expresses, so they need not appear.
_COUNTED_AFTER = re.compile(rf"(?:多少|(?<!哪)几|哪些|哪几)[{MEASURE_WORDS}]?(?P<what>[^，。？！?!,、；;]*)")
# 有效容积是多少; 每年检验几次 (a count of times counts the verb before it): the phrase from its clause's start to the
# first such ending past that start. Found by scanning the endings and the clause breaks once each: a pattern with
# the clause before the ending (`[^，…]+?(?:是多少|…)`) retries every start of a long clause, quadratic in its length.
_COUNT_ENDING = re.compile(r"(?:是|有|为)(?:多少|多远|多大|多长|多久|多高|多宽|多重|多深)|(?:多少|几)[次遍回趟]")
_CLAUSE_BREAK = re.compile(r"[，。？！?!,、；;]")
COUNTED_WORDS = 2  # the last (or first) words of that phrase are what is counted
_CONJUNCTION = re.compile(r"和|及|与|或|以及|、")
ATTRIBUTES = frozenset(
    "内容 事项 情况 电话 号码 手机 手机号 联系电话 联系方式 尺寸 大小 数量 数目 总数 金额 费用 价格 比例 面积 规模 长度 高度 宽度 重量 "
    "距离 时长 数值 标准 范围 幅度 区间".split())
QUANTITY_SUFFIXES = "费价率额量值数"  # 受理费, 税率, 总量: a measured quantity, named in the text in other words
# 一式几份, 多少名: the measure an answer's number is given in
ASKED_MEASURE = re.compile(rf"(?:多少|(?<!哪)几)([{MEASURE_WORDS}])")
CODE = re.compile(r"(?=[0-9a-z]*[a-z])(?=[0-9a-z]*[0-9])[0-9a-z]{3,}")  # 0x001a, rhzkf6: a code names one thing
# 按照香港基本法原来的规定，… / 依照国旗法，…: the opening clause says where to look, the rest what is asked; the
# document's name already counts through what its sentences are about, so the frame's words weigh half.
FRAME = re.compile(r"^\s*(?:按照|依照|根据|依据|按|依|据)(?P<frame>[^，,。；;？?！!]{1,40})[，,]")
FRAME_WEIGHT = 0.5
# 在…中的 / 在…里 inside a question says where to look as well (X在某清单中的临界量是多少): the list, not what is asked
PLACE = re.compile(r"在(?P<frame>[^，,。；;？?！!在]{2,30}?)(?:中|里|之中)的?")
_WORD_CHAR = re.compile(r"\w")


@dataclass(frozen=True)
class Asks:
    """What a question asks for: a quantity (a number answers it), a list, a name."""

    quantity: bool
    list: bool
    name: bool


def asked_for(question: str) -> tuple[list[set[str]], set[str]]:
    """What a 多少/几/哪些 question asks for: per alternative (平面图和疏散图), the words a sentence must hold (its
    first two nouns, attribute words such as 电话 or 尺寸 aside: the number itself is those); and all the phrase's
    words, which weigh more than the rest of the question. Empty when it asks for no count or list."""
    def words(text: str) -> list[str]:  # single characters are measure words and particles here
        return [t for t in tokenize(text) if len(t) > 1]

    def nouns(found: list[str]) -> list[str]:  # nor the pieces jieba also cuts an attribute into (联系 of 联系电话)
        attributes = [t for t in found if t in ATTRIBUTES]
        return [t for t in found if t not in ATTRIBUTES and t[-1] not in QUANTITY_SUFFIXES
                and not any(t in a for a in attributes)]

    after = _COUNTED_AFTER.search(question)
    if after and words(after.group("what")):
        parts = [found for part in _CONJUNCTION.split(after.group("what")) if (found := words(part))]
        needed = [set(nouns(found)[:COUNTED_WORDS]) for found in parts if nouns(found)]
        return needed, {t for found in parts for t in found}
    before = counted_before(question)
    found = words(before) if before else []
    needed = nouns(found)[-COUNTED_WORDS:]
    return ([set(needed)] if needed else []), set(found[-COUNTED_WORDS - 1:])


def counted_before(question: str) -> str:
    """The phrase a closing 是多少/几次 counts (累计降雨量 of 累计降雨量是多少), from its clause's start; "" if none."""
    breaks = [m.start() for m in _CLAUSE_BREAK.finditer(question)]
    at = 0
    while ending := _COUNT_ENDING.search(question, at):
        start = breaks[bisect_left(breaks, ending.start()) - 1] + 1 if breaks and breaks[0] < ending.start() else 0
        if ending.start() > start:
            return question[start:ending.start()]
        at = ending.start() + 1  # an ending that opens its clause counts nothing: the next one may
    return ""


# 消防服、消防头盔、消防靴等消防员个人防护装备存放在哪里: examples the question lists, each asked about in turn
# A list of at most MAX_EXAMPLES, in the question's last clause (searched from that clause's start): unbounded, every
# start in a long 、-list would read the rest of the list again (quadratic).
MAX_EXAMPLES = 12
_EXAMPLES = re.compile(rf"(?P<items>[^，,。；;？?！!、]{{1,12}}(?:、[^，,。；;？?！!、]{{1,12}}){{1,{MAX_EXAMPLES - 1}}})等"
                       r"(?P<rest>[^，,。；;？?！!]*[？?]?)$")
_BREAKS = "，,。；;？?！!"


def examples(question: str) -> list[str]:
    """The question once per example it lists (A、B、C等…存放在哪里 → A存放在哪里, …), or [] when it lists none: a
    reader looks each one up; the class they stand for (等消防员个人防护装备) is context."""
    end = len(question) - 1 if question.endswith(("？", "?")) else len(question)
    match = _EXAMPLES.search(question, max(question.rfind(c, 0, end) for c in _BREAKS) + 1)
    if not match:
        return []
    items = match.group("items").split("、")
    rest = match.group("rest")
    # after 等 comes the class the examples stand for, up to its 的 (等物质|的临界量是多少) or to the predicate, the last
    # verb (等消防员个人防护装备|存放在哪里)
    at, verb = 0, None
    for w in (w for _, piece in jieba_pieces(rest) for w in posseg.cut(piece)):
        if w.flag == "v":
            verb = at
        at += len(w.word)
    asked = rest[rest.index("的"):] if "的" in rest else rest[verb:] if verb is not None else rest
    head = question[:match.start()]
    return [f"{head}{item}{asked}" for item in items if item.strip()]


def asks(question: str) -> Asks:
    """The kind of answer the question words call for (多少/几 → a number, 哪些 → a list, 叫什么/谁 → a name)."""
    return Asks(bool(QUANTITY.search(question)), bool(LIST.search(question)), bool(NAME.search(question)))


def framed(question: str) -> tuple[str, set[str]]:
    """The question with its framing preposition standing apart (jieba would glue it to a name it does not know:
    按紫楹|台酒店), and the words only its frames hold (依照国旗法，… → 国旗法; 二噁英在*风险物质清单*中的临界量 → the
    list), which weigh FRAME_WEIGHT."""
    frame = FRAME.match(question)
    places = list(PLACE.finditer(question))
    if not frame and not places:
        return question, set()
    spaced, framing = question, [m.group("frame") for m in places]
    if frame:
        at = frame.start("frame")
        spaced = f"{question[:at]} {question[at:]}"
        framing.append(frame.group("frame"))
    rest = PLACE.sub(" ", spaced[frame.end() + 1:] if frame else spaced)
    kept = set(tokenize(rest))
    return spaced, {t for f in framing for t in tokenize(f) if t not in kept}


@lru_cache(maxsize=4096)
def person_names(question: str) -> frozenset[str]:
    """The people the question names (jieba's part-of-speech tag nr: 朱雯, 陈柏良), as the tokenizer writes them."""
    return frozenset(fold_case(w.word) for _, piece in jieba_pieces(question) for w in posseg.cut(piece)
                     if w.flag == "nr" and len(w.word) > 1)


@lru_cache(maxsize=32768)
def word_spans(text: str) -> tuple[tuple[str, int, int], ...]:
    """The words of a text with where they stand (jieba's default cut: whole words only)."""
    return tuple((fold_case(w), at + a, at + b) for at, piece in jieba_pieces(text) for w, a, b in jieba.tokenize(piece))


def single_runs(question: str) -> list[str]:
    """Where the question writes a one-character word beside another word (一式 of 一式几份, 旗杆套): a text that
    writes the same characters together holds that word, however jieba cuts the text (一/式, 旗杆/套为)."""
    spans = [(w, a, b) for w, a, b in word_spans(question) if _WORD_CHAR.match(w)]
    runs = []
    for (w1, a1, b1), (w2, a2, b2) in zip(spans, spans[1:]):
        if b1 == a2 and (len(w1) == 1 or len(w2) == 1):
            runs.append(question[a1:b2])
    return [fold_case(r) for r in runs]
