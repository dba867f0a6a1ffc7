"""What a question asks for — a number, a list, a name; what it counts; where it says to look — and how its words
stand, read as a careful person reads a question before looking for the answer."""
from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass
from functools import lru_cache

from kb.search import pos_tags
from kb.search.tokens import MEASURE_WORDS, STOPWORDS, is_dictionary_word, jieba_pieces, jieba_words, tokenize
from kb.text import LAW_KINDS, fold_case

# What a question asks for, from its question words.
LIST = re.compile(r"哪些|哪几|有什么|有哪|包括什么|包含什么|分别|包括|包含")
QUANTITY = re.compile(r"多少|(?<!哪)几(?!乎)|多远|多大|多长|多久|多高|多宽|多重|多深|尺寸|比例|税率|费率|电话|号码|手机|容积|面积")
TITLE = re.compile(r"叫什么|名称|哪个附件|哪一个附件|什么附件")  # asks what something is called
NAME = re.compile(rf"{TITLE.pattern}|谁|哪家|哪一家")
# 需要盖手印吗, 是否需要填写电话: a yes-or-no question asks whether, not for the value
YES_NO = re.compile(r"吗|是否|有没有|要不要|需不需要|是不是")
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
_TIMES = re.compile(r"(?:多少|几)[次遍回趟]")
# What a 哪些 phrase names ends where its predicate begins: a verb, an adverb or a modal (哪些情形|暂时免征…, 哪些凭证|不用交…,
# 哪些情形|不能申请…); a verbal noun stays (哪些外部救援电话).
_PREDICATE_FLAGS = ("v", "d", "p")
COUNTED_WORDS = 2  # the last (or first) words of that phrase are what is counted
_CONJUNCTION = re.compile(r"和|及|与|或|以及|、")
# A vague noun names no thing (要带哪些东西, 这事儿怎么办): the answer gives the things themselves and never calls them so
VAGUE = frozenset("东西 事情 事儿 玩意 玩意儿 啥东西".split())
ATTRIBUTES = VAGUE | frozenset(
    "内容 事项 情况 情形 行为 电话 号码 手机 手机号 联系电话 联系方式 尺寸 大小 数量 数目 总数 金额 费用 价格 比例 面积 规模 长度 高度 宽度 重量 "
    "距离 时长 数值 标准 范围 幅度 区间 信息 要求 要素 栏目 材料 字段 编码 代码 编号 代号 取值".split())
QUANTITY_SUFFIXES = "费价率额量值数"  # 受理费, 税率, 总量: a measured quantity, named in the text in other words
# 一式几份, 多少名: the measure an answer's number is given in
ASKED_MEASURE = re.compile(rf"(?:多少|(?<!哪)几)([{MEASURE_WORDS}])")
CODE = re.compile(r"(?=[0-9a-z]*[a-z])(?=[0-9a-z]*[0-9])[0-9a-z]{3,}")  # 0x001a, rhzkf6: a code names one thing
# 按照香港基本法原来的规定，… / 依照国旗法，…: the opening clause says where to look, the rest what is asked; the
# document's name already counts through what its sentences are about, so the frame's words weigh half.
FRAME = re.compile(r"^\s*(?:按照|依照|根据|依据|按|依|据)(?P<frame>[^，,。；;？?！!]{1,40})[，,]")
FRAME_WEIGHT = 0.5
# 印花税暂行条例哪天开始实施的: a question that opens with a law's name (by the word that ends such names, LAW_KINDS;
# a name holds no 的) asks about that law; its sentences say 本条例, not its name, so the name says where to look.
# A plan named so (青禾县…应急行动预案中，…组长的电话) is left out: it declined a contact row of the unit tests.
NAMED_FIRST = re.compile(rf"^\s*(?:这部|这个|本)?(?P<frame>(?:(?!的)[\u4e00-\u9fff《》]){{2,30}}?(?:{LAW_KINDS})》?)"
                         r"(?=的|是|从|自|什么|哪|何|几|多|有|对|关于|规定|怎么|如何|要|里|中|上)")
# 在…中的 / 在…里 inside a question says where to look as well (X在某清单中的临界量是多少): the list, not what is asked
PLACE = re.compile(r"在(?P<frame>[^，,。；;？?！!在]{2,30}?)(?:中|里|之中)的?")
_WORD_CHAR = re.compile(r"\w")
_CJK = re.compile(r"[\u4e00-\u9fff]")


@dataclass(frozen=True)
class Asks:
    """What a question asks for: a quantity (a number answers it), a list, a name."""

    quantity: bool
    list: bool
    name: bool
    whether: bool = False  # a yes-or-no question (需要盖手印吗)

    @property
    def value(self) -> bool:
        """It asks for a value (乙方是谁, 电话是多少): a blank field of a form does not answer it."""
        return (self.quantity or self.name) and not self.list and not self.whether


def asked_for(question: str) -> tuple[list[set[str]], set[str]]:
    """What a 多少/几/哪些 question asks for: per alternative (平面图和疏散图), the words a sentence must hold (its
    first two nouns, attribute words such as 电话 or 尺寸 aside: the number itself is those); and all the phrase's
    words, which weigh more than the rest of the question. Empty when it asks for no count or list."""
    def words(text: str) -> list[str]:  # single characters are measure words and particles here
        return [t for t in tokenize(text) if len(t) > 1]

    def nouns(found: list[str]) -> list[str]:  # nor the pieces jieba also cuts an attribute into (联系 of 联系电话)
        attributes = [t for t in found if t in ATTRIBUTES]
        return [t for t in found if t not in ATTRIBUTES and t[-1] not in QUANTITY_SUFFIXES
                and not any(t in a for a in attributes) and t not in _NOT_COUNTED]

    after = _COUNTED_AFTER.search(question)
    # 哪些不用交: what follows 哪些 is what is done (a negation, a modal), and the thing counted is the one before it
    counted_after = words(noun_phrase(after.group("what"))) if after else []
    if counted_after and not set(counted_after) <= _NOT_COUNTED:
        parts = [found for part in _CONJUNCTION.split(noun_phrase(after.group("what"))) if (found := words(part))]
        needed = [set(nouns(found)[:COUNTED_WORDS]) for found in parts if nouns(found)]
        return needed, {t for found in parts for t in found}
    before = clause_before(PLACE.sub("", question), _COUNT_ENDING)  # X在…清单中的临界量: the list is where, not what
    found = words(before) if before else []
    # 补考几次: a count of times counts the act, the one word before it (科目一没考过能|补考)
    needed = nouns(found)[-1 if _TIMES.search(question) else -COUNTED_WORDS:]
    return ([set(needed)] if needed else []), set(found[-COUNTED_WORDS - 1:])


# what a 哪些 is never followed by as the thing it counts: the act's negation or modal (哪些不用交, 哪些需要填)
_NOT_COUNTED = frozenset("不用 不必 无需 不要 不能 不得 需要 应当 应该 必须 可以 能够".split())


def noun_phrase(text: str) -> str:
    """The words of `text` up to its predicate (情形 of 情形暂时免征环境保护税): what a 哪些 question counts."""
    at, joined = 0, True  # a word right after 和/及/、 opens the next name of the phrase (平面图和*疏散*图)
    for w in (w for _, piece in jieba_pieces(text) for w in pos_tags.cut(piece)):
        if not joined and (w.word in MODALS or (w.flag.startswith(_PREDICATE_FLAGS) and w.flag != "vn")):
            return text[:at]
        joined = bool(_CONJUNCTION.fullmatch(w.word))
        at += len(w.word)
    return text


# 互救协议的乙方是哪家单位: the one asked for is named after the last 的 (乙方), as a form names its field
_NAMING_ENDING = re.compile(r"(?:是|为)(?:谁|哪家|哪一家|什么)")


def asked_field(question: str) -> set[str]:
    """The words of what a `X的Y是谁` question asks for, as a form would label its field (乙方, 乙方代表); empty
    when it asks otherwise."""
    return {t for t in tokenize(field_phrase(question)) if len(t) > 1}


def field_phrase(question: str) -> str:
    """What a `X的Y是谁` question asks for, as it writes it (互救协议乙方 of 紫楹台酒店的互救协议乙方是谁); "" when it
    asks otherwise."""
    named = clause_before(question, _NAMING_ENDING)
    return named.rsplit("的", 1)[-1] if "的" in named else ""


# 二噁英类物质在…清单中的临界量是多少: the thing whose value is asked, before the last 的 of the clause that asks
_OWNER = re.compile(r"(?P<owner>[^，,。；;？?！!的]{1,20})的[^，,。；;？?！!的]{1,12}?(?:是|为|有)?(?:多少|几|谁|哪家|什么)")


def owner_words(question: str) -> set[str]:
    """The words of the thing a `X的Y是多少` question asks a value of (四氯化碳 of 四氯化碳的CAS号是多少; 二/噁/英/类物质
    of 二噁英类物质在…清单中的临界量是多少, as jieba cuts a name it does not know), without its grammar (其中): a
    table row answers it only if the table lists that thing."""
    found = _OWNER.search(PLACE.sub("的", question))  # X在…清单中的Y: X的Y
    if not found:
        return set()
    grammar = grammar_words(found.group("owner"))
    return {t for t in tokenize(found.group("owner"))
            if _CJK.match(t) and t not in STOPWORDS and not (len(t) > 1 and t in grammar)}


# 包括哪些内容, 有什么要求: the word after the question word names the kind of answer, which the answer never writes
_KIND = re.compile(r"(?:哪些|哪几[项个类种条]?|什么|何种)(?P<kind>[\u4e00-\u9fff]{2,4})")


def kind_words(question: str) -> set[str]:
    """The attribute words that say what kind of answer a 哪些/什么 question wants (内容 of 首部包括哪些内容): they weigh
    nothing, as the answer gives the thing itself (首部包括标题、…) and never calls it that."""
    return {t for m in _KIND.finditer(question) for t in tokenize(m.group("kind")) if t in ATTRIBUTES}


# Words that carry the question's grammar, not its matter (这次, 如果, 用, 以后, 的话): pronouns, conjunctions, adverbs,
# prepositions, particles, locatives — jieba's tags — and the modal verbs, a closed class (想, 应该, 要, 能).
_GRAMMAR_FLAGS = ("r", "c", "d", "p", "u", "f")  # not e/o: jieba tags a rare character of a name so (噁)
MODALS = frozenset("想 要 应该 应当 需要 需 能 能够 可以 可 会 得 必须 该 愿意 打算".split())


@lru_cache(maxsize=4096)
def grammar_words(question: str) -> frozenset[str]:
    """The question's words that carry its grammar (这次 如果 用 想 应该 以后), as the tokenizer writes them: written in
    no source, they weigh nothing — a reader looks past them for the words that name the matter."""
    return frozenset(fold_case(w.word) for w in pos_tags.cut(question)
                     if w.flag.startswith(_GRAMMAR_FLAGS) or w.word in MODALS)


def glued_modal(word: str) -> bool:
    """jieba made the word up by gluing a modal verb to its neighbour (上要, 前要 of 审批表上要填, 领钱前要提供)."""
    return not is_dictionary_word(word) and any(ch in MODALS for ch in word)


def clause_before(question: str, ending: re.Pattern[str]) -> str:
    """The phrase from its clause's start to the first `ending` past that start (累计降雨量 of 累计降雨量是多少, with
    _COUNT_ENDING); "" if none. One scan of the endings and the clause breaks: linear in the question."""
    breaks = [m.start() for m in _CLAUSE_BREAK.finditer(question)]
    at = 0
    while found := ending.search(question, at):
        start = breaks[bisect_left(breaks, found.start()) - 1] + 1 if breaks and breaks[0] < found.start() else 0
        if found.start() > start:
            return question[start:found.start()]
        at = found.start() + 1  # an ending that opens its clause names nothing: the next one may
    return ""


# 消防服、消防头盔、消防靴等消防员个人防护装备存放在哪里: examples the question lists, each asked about in turn
# A list of at most MAX_EXAMPLES, in the question's last clause (searched from that clause's start): unbounded, every
# start in a long 、-list would read the rest of the list again (quadratic).
MAX_EXAMPLES = 12
# Things named one by one and asked of each (消防服、头盔各有多少, 甲、乙分别在哪, 消防服、头盔这些放在哪) are examples too
_EXAMPLES = re.compile(rf"(?P<items>[^，,。；;？?！!、]{{1,12}}(?:、[^，,。；;？?！!、]{{1,12}}){{1,{MAX_EXAMPLES - 1}}})"
                       r"(?:等|各(?![级类种个项位条款部单方地])|分别|这些|这几[样种个件类项])(?P<rest>[^，,。；;？?！!]*[？?]?)$")
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
    for w in (w for _, piece in jieba_pieces(rest) for w in pos_tags.cut(piece)):
        if w.flag == "v":
            verb = at
        at += len(w.word)
    asked = rest[rest.index("的"):] if "的" in rest else rest[verb:] if verb is not None else rest
    head = question[:match.start()]
    return [f"{head}{item}{asked}" for item in items if item.strip()]


def asks(question: str) -> Asks:
    """The kind of answer the question words call for (多少/几 → a number, 哪些 → a list, 叫什么/谁 → a name)."""
    return Asks(bool(QUANTITY.search(question)), bool(LIST.search(question)), bool(NAME.search(question)),
                bool(YES_NO.search(question)))


def framed(question: str) -> tuple[str, set[str]]:
    """The question with its framing preposition standing apart (jieba would glue it to a name it does not know:
    按紫楹|台酒店), and the words only its frames hold (依照国旗法，… → 国旗法; 二噁英在*风险物质清单*中的临界量 → the
    list; 印花税暂行条例*哪天开始实施* → the law it opens with), which weigh FRAME_WEIGHT."""
    frame = FRAME.match(question)
    places = list(PLACE.finditer(question))
    named = NAMED_FIRST.match(question)
    if not frame and not places and not named:
        return question, set()
    spaced, framing = question, [m.group("frame") for m in places]
    if frame:
        at = frame.start("frame")
        spaced = f"{question[:at]} {question[at:]}"
        framing.append(frame.group("frame"))
    elif named:
        framing.append(named.group("frame"))
    rest = PLACE.sub(" ", spaced[frame.end() + 1:] if frame else spaced[named.end():] if named else spaced)
    kept = set(tokenize(rest))
    return spaced, {t for f in framing for t in tokenize(f) if t not in kept}


@lru_cache(maxsize=4096)
def person_names(question: str) -> frozenset[str]:
    """The people the question names (jieba's part-of-speech tag nr: 朱雯, 陈柏良), as the tokenizer writes them."""
    return frozenset(fold_case(w.word) for _, piece in jieba_pieces(question) for w in pos_tags.cut(piece)
                     if w.flag == "nr" and len(w.word) > 1)


@lru_cache(maxsize=32768)
def word_spans(text: str) -> tuple[tuple[str, int, int], ...]:
    """The words of a text with where they stand (jieba's default cut: whole words only)."""
    spans = []
    for at, piece in jieba_pieces(text):
        for word in jieba_words(piece):
            spans.append((fold_case(word), at, at + len(word)))
            at += len(word)
    return tuple(spans)


def single_runs(question: str) -> list[str]:
    """Where the question writes a one-character word beside another word (一式 of 一式几份, 旗杆套): a text that
    writes the same characters together holds that word, however jieba cuts the text (一/式, 旗杆/套为)."""
    spans = [(w, a, b) for w, a, b in word_spans(question) if _WORD_CHAR.match(w)]
    runs = []
    for (w1, a1, b1), (w2, a2, b2) in zip(spans, spans[1:]):
        if b1 == a2 and (len(w1) == 1 or len(w2) == 1):
            runs.append(question[a1:b2])
    return [fold_case(r) for r in runs]
