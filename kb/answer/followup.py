"""How a reader tells a follow-up from a new question, and reads a follow-up as the question it continues.

`西岭街道呢？` after `东岭街道有几艘冲锋舟？` asks `西岭街道有几艘冲锋舟？` (ellipsis: a phrase and 呢); `它的负责人是谁？` after
`东岭中学体育馆可以安置多少人？` asks for the hall's (anaphora: 它/该/这些/上述 before any subject of its own);
`存放在哪里？` names nothing and continues the last question (no subject). A question that names its own subject is read
alone, whatever was asked before: an earlier topic must not drown a new one. The words are jieba's, with their
parts of speech; a word of a document's title names that document (东岭 of 东岭街道防汛应急预案).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Collection, Sequence

from kb.answer.modifiers import swap_modifier
from kb.answer.ordinals import ordinal_question, place
from kb.answer.phrases import (
    CONTACT_NOUNS, DEMONSTRATIVES, QUESTION_WORD, WORD_CHAR, form_span, is_content, is_function, is_subject,
    last_thing, of_form_asked, parallel, predicated, refers, subject_runs, title_span, topic,
)
from kb.answer.question import ATTRIBUTES, MODALS, glued_modal
from kb.answer.question_words import Titles, Word, words_of
from kb.labels import LABEL

ELLIPSIS, ANAPHORA, NO_SUBJECT, ORDINAL, DOCUMENT = "ellipsis", "anaphora", "no_subject", "ordinal", "document"
HOW = {ELLIPSIS: "省略", ANAPHORA: "指代", NO_SUBJECT: "缺主语", ORDINAL: "序数指代",
       DOCUMENT: "同一文件"}  # named in the turn's thinking
# `那西岭街道呢？` `还有救生衣呢？`: the connective before an elided phrase, and the phrase.
_ELIDED = re.compile(r"^(?:那么|那|还有|另外|而|至于|如果是|要是|换成)?(?P<what>.*?)的?呢$")
# 它的电话呢？ asks what that thing's 电话 is: a number for these attributes (是多少, as 电话是多少 is asked), else 是什么
ASKED_OF, ASKED_NUMBER = "是什么？", "是多少？"
NUMBERED = frozenset("电话 号码 手机 手机号 联系电话 数量 数目 总数 金额 费用 价格 比例 面积 长度 高度 宽度 重量 距离 时长".split())
# 那张表里, 扩展项目名录中: where to look, not what to ask about
_LOCATIVES = ("里", "中", "内", "上")
_LOCATIVE = re.compile(r"(?:里面|里边|里头|当中|之中|里|中|内)$")
# a tier of a rule, told by a range (五百万到一千万, 500-1000万元, 10万到20万) or a bound (1000元以下): its unit is one a
# tier is counted in, so the question's own words after it (…20万怎么收) stay the question's
_NUMERAL = r"[0-9０-９.零〇一二两三四五六七八九十百千万亿]+"
_UNIT_WORD = (r"%|％|‰|[万亿千百]?(?:元|人|名|户|吨|千克|公斤|克|亩|公顷|平方米|立方米|米|公里|千米|毫升|升|辆|台|个|件|家|所|"
              r"张|周岁|岁|年|个月|月|天|日|小时|分钟|倍|度|分)")
_UNIT = rf"(?:{_UNIT_WORD})?"
_AMOUNT = re.compile(rf"{_NUMERAL}\s*{_UNIT}\s*(?:到|至|-|－|~|～|—)\s*{_NUMERAL}\s*{_UNIT}"
                     rf"|{_NUMERAL}\s*{_UNIT}\s*(?:及|或)?(?:以下|以上|以内|之内)"
                     rf"|(?:超过|高于|多于|大于|不足|不到|不满|低于|少于|满)\s*{_NUMERAL}\s*{_UNIT}")
# one amount, as a question gives the case it asks of (争议金额8万元; 那30万呢): digits with a unit or a 万 of money
_ONE_AMOUNT = re.compile(rf"(?=[^0-9０-９]*[0-9０-９])(?:{_NUMERAL}\s*(?:{_UNIT_WORD})|[0-9０-９.]+\s*[万千亿])")
# what a tier is called after its amount: 超过100万的部分, 20万到50万那一档
_TIER_WORDS = re.compile(r"(?:的部分|部分|的那档|的那一档|那一档|那档|这档|的)$")
_INSIDE = re.compile(r"^\s*(?:那么?)?(?:这|那)?(?:里面|里边|里头|其中|当中|上面)")  # a question that opens inside something
COUNTERS = "个些种类项位张份本件条"  # 这个, 那张, 这份: the counter after a demonstrative names no thing
_POINTED = re.compile(r"^(?:那|这)[个张份本件些]?(?P<noun>[\u4e00-\u9fff]{1,4}?)的?呢$")
_PREPOSITIONS = "离在到从向对给跟往"  # one-character prepositions an elided phrase may open with
MAX_ELIDED = 20  # characters of an elided phrase; a longer 呢 sentence is a question of its own
END_MARKS = "？?。.!！…"  # with spaces, what ends a question: stripped from the end (a `[…]+$` search is quadratic in a run)


@dataclass(frozen=True)
class Reading:
    """A question as the conversation reads it: alone, or as the earlier question it continues."""

    question: str  # as the user wrote it
    standalone: str  # what it asks, on its own: the follow-up resolved, or the question itself
    continues: str = ""  # the earlier question it continues; "" for a new question
    how: str = ""  # ELLIPSIS, ANAPHORA or NO_SUBJECT
    skipped: int = 0  # the unrelated questions asked between the one it continues and this one

    @property
    def follows(self) -> bool:
        return bool(self.continues)


def read_question(question: str, earlier: Sequence[str], titles: Collection[str],
                  together: Callable[[str, str, bool], bool] | None = None, answer: str = "") -> Reading:
    """The question read after the earlier questions of its conversation (oldest first, each as it stood alone).

    `titles` are the knowledge base's document names (title, and cover lines such as the issuer): a word of one
    names a document. `together(a, b, document)`: whether the knowledge base writes both phrases in one part of a
    document (or, `document`, whether the document `a` names writes `b`) — an elided question leans on the most recent
    earlier one whose subject is written beside its own (消防服呢？ after 灭火器存放在哪里？ and an unrelated question
    between them). `answer` is the answer to the last of them: 第二个呢？ points into its list (kb/answer/ordinals.py).
    """
    if not earlier or not earlier[-1].strip():
        return Reading(question, question)
    before = earlier[-1]
    naming = Titles(tuple(titles))
    if answer and place(question):
        asked = ordinal_question(question, answer, _document_named(before, naming))
        if asked is not None:
            return Reading(question, asked, before, ORDINAL)
    text = without_end(question)
    pointed = _POINTED.match(text)  # 那张表呢 after …报名表…: that same thing asked again
    if pointed and whole_name(pointed.group("noun"), before, words_of(before), title_span(words_of(before), naming)):
        return Reading(question, before, before, ANAPHORA)
    elided = _ELIDED.match(text)
    if elided and len(elided.group("what")) <= MAX_ELIDED and not QUESTION_WORD.search(elided.group("what")):
        what = elided.group("what").strip()
        if LABEL.search(what):  # 那附件3里呢？: the same question of another attachment
            before = next((q for q in reversed(earlier) if LABEL.search(q)), earlier[-1])
            skipped = len(earlier) - 1 - max(i for i, q in enumerate(earlier) if q == before)
            return Reading(question, _relabelled(what, before), before, ELLIPSIS, skipped)
        swapped = swap_modifier(what, before, text.endswith("的呢"))
        if swapped is not None:  # 那300毫升的呢？: the 矿泉水 of that other value (kb/answer/modifiers.py)
            return Reading(question, swapped, before, ELLIPSIS)
        mine = words_of(what)
        if mine and refers(mine[0]):  # 它的电话呢？: that thing's 电话, what it refers to read from an earlier question
            before = _referred(what, mine, earlier, naming, together)
            skipped = len(earlier) - 1 - max(i for i, q in enumerate(earlier) if q == before)
            numbered = any(w.text in NUMBERED for w in mine)
            written = (lambda phrase: together(phrase, phrase, False)) if together else None
            standalone = _resolve_reference(what, mine, 0, before, naming, written) + (
                ASKED_NUMBER if numbered else ASKED_OF)
            return Reading(question, standalone, before, ANAPHORA, skipped)
        before = _leaned_on(what, earlier, naming, together)
        skipped = len(earlier) - 1 - max(i for i, q in enumerate(earlier) if q == before)
        return Reading(question, _substitute(what, before, naming), before, ELLIPSIS, skipped)
    headless = of_form_asked(text, before)  # 手写的算数吗 after …回执表什么时候交: a handwritten 回执表
    if headless:
        return Reading(question, headless, before, ELLIPSIS)
    words = words_of(question)
    own = [w for i, w in enumerate(words) if is_subject(w) and not predicated(words, i)]
    refer = next((i for i, w in enumerate(words) if refers(w)), None)
    if refer is not None and not any(w.start < words[refer].start for w in own):
        return Reading(question, _resolve_reference(question, words, refer, before, naming), before, ANAPHORA)
    if not own or _INSIDE.match(question):  # 里面有哪些人？: inside what the earlier question asked about
        subject = _asked_about(before, naming)
        first = next((w for w in words if WORD_CHAR.search(w.text)), None)
        noun, end = _unglued(first) if first is not None else ("", 0)
        if subject and noun and first.start == 0 and len(subject) > len(noun) and subject.endswith(noun):
            return Reading(question, subject + question[end:].strip(), before, NO_SUBJECT)  # 表交给谁 after
            # …报名表…: 表 is the 报名表 asked about
        if subject:
            return Reading(question, subject + question.strip(), before, NO_SUBJECT)
    document = _carried_document(question, words, before, naming, together)
    if document:
        return Reading(question, document + question.strip(), before, DOCUMENT)
    return Reading(question, question)


def _carried_document(question: str, words: list[Word], before: str, naming: Titles,
                      together: Callable[[str, str, bool], bool] | None) -> str:
    """The document the earlier question named, when this one names none and that document writes its subject
    (普通许可证有效期多久？ after 海洋倾废要申请什么许可证？): a conversation stays with its document, as a reader
    asked a new question about the law in front of them reads it in that law, not in another that shares a word."""
    if together is None or title_span(words, naming) is not None:
        return ""
    document = _document_named(before, naming)
    subject = next((w.text for w in words if is_subject(w)), "")
    if not document or not subject or not together(document, subject, True):
        return ""
    return document


def without_end(question: str) -> str:
    """The question without the spaces and END_MARKS it ends with."""
    end = len(question)
    while end and (question[end - 1].isspace() or question[end - 1] in END_MARKS):
        end -= 1
    return question[:end].strip()


def _leaned_on(what: str, earlier: Sequence[str], naming: Titles,
               together: Callable[[str, str, bool], bool] | None) -> str:
    """The earlier question an elided one continues: the most recent whose subject — the phrase `what` takes the
    place of, or the thing it asked about when `what` names a document — the knowledge base writes in one part of a
    document with `what` (消防服 beside 灭火器 in one 物资清单), or in the document `what` names (西岭街道's plan holds
    冲锋舟), or the last question when one document writes both; the last question when none does or when there is
    nothing to test."""
    asked = [q for q in earlier if q.strip()]
    if together is None or len(asked) < 2 or not what:
        return earlier[-1]
    named, thing = _split_elided(what, naming)
    for before in reversed(asked):
        words = words_of(before)
        rest = [w for w in words_of(thing) if WORD_CHAR.search(w.text)]
        span = (parallel(rest, words, naming) if thing else None) or last_thing(words, naming)
        title = title_span(words, naming) if span is None and not thing else None
        if title and any(is_content(w) for w in words if w.start >= title[1]):
            return before  # it names a document and asks for what the document's name holds (…指挥部的值班电话);
            # one that asks about the document's own subject (餐厨垃圾如何处理) leaves no thing to ask of another
        if span is not None and together(thing or named, before[span[0]:span[1]], not thing):
            return before
        if before is asked[-1] and span is not None and thing and _nominal(words, span) \
                and together(thing, before[span[0]:span[1]], True):
            return before  # the last question asked of a thing the same document writes (氨的临界量…, then 那氯气呢)
    return earlier[-1]


def _nominal(words: list[Word], span: tuple[int, int]) -> bool:
    """The words of the span name a thing (氨, 正压式空气呼吸器), not an act jieba tags a noun too (巡查 vn)."""
    inside = [w for w in words if span[0] <= w.start < span[1] and WORD_CHAR.search(w.text)]
    return bool(inside) and all(w.flag != "vn" and w.flag.startswith(("n", "l", "i", "j", "eng")) for w in inside)


def _referred(what: str, mine: list[Word], earlier: Sequence[str], naming: Titles,
              together: Callable[[str, str, bool], bool] | None) -> str:
    """The earlier question a referring phrase (它的电话) points into: the most recent whose subject the knowledge
    base writes in one part of a document with what is asked of it (防汛站 beside its 电话, not 餐厨垃圾); the last
    question when none does or there is nothing to test."""
    asked = [q for q in earlier if q.strip()]
    rest = what[mine[0].end:].lstrip("的之")
    if together is None or len(asked) < 2 or not rest:
        return earlier[-1]
    for before in reversed(asked):
        subject = topic(before, words_of(before), lambda phrase: together(phrase, phrase, False))
        if subject and together(subject, rest, False):
            return before
    return earlier[-1]


def _relabelled(what: str, before: str) -> str:
    """The earlier question asked of the attachment `what` names (附件3 for 附件2); the attachment put before it
    when it named none."""
    new = LABEL.search(what)
    old = LABEL.search(before)
    if old is None:
        return f"{new.group(0)}里{before}"
    return before[: old.start()] + new.group(0) + before[old.end():]


def _split_elided(what: str, naming: Titles) -> tuple[str, str]:
    """An elided phrase as the document it names, if any, and the thing it asks about (西岭街道 | 救生衣 of
    西岭街道的救生衣)."""
    if _is_amount(what):
        return "", what  # 10万到20万: a tier, whatever title its digits occur in
    mine = [w for w in words_of(what) if WORD_CHAR.search(w.text)]
    lead = 0
    while lead < len(mine) and naming.holds(mine[lead].text):
        lead += 1
    named = what[: mine[lead - 1].end] if lead and any(naming.names(w.text) for w in mine[:lead]) else ""
    return named, (what[len(named):].lstrip("的之") if named else what)


def _substitute(what: str, before: str, naming: Titles) -> str:
    """The earlier question asked again of `what`. A document's name in it takes the place of the earlier one
    (西岭街道 for 东岭街道); the rest takes the place of the phrase it parallels (第三类 for 第二类, 黄色预警 for 蓝色预警:
    the same head word; 一千万到五千万 for 五百万到一千万: a range for a range), else of the thing the earlier
    question asked about (救生衣 for 冲锋舟). A phrase that says where to look (证券期货业那张表里) takes the place of
    the earlier one's (银行业可疑交易报告里)."""
    if not what:
        return before  # 还有呢？: the same question again
    words = words_of(before)
    named, thing = _split_elided(what, naming)  # 西岭街道 of 西岭街道的救生衣: the document it names, then the thing
    inside = _LOCATIVE.search(thing)
    thing = thing[: inside.start()] if inside and inside.start() else thing  # 扩展项目名录里 → 扩展项目名录
    rest = [w for w in words_of(thing) if WORD_CHAR.search(w.text)]
    edits: list[tuple[tuple[int, int], str]] = []
    if thing:
        span = (_range_of(thing, before) or parallel(rest, words, naming)
                or (_looked_in(words) if inside else None) or last_thing(words, naming))
        if span is None:  # 电话呢？ of …联系人是谁？: the contact's phone; else the phrase, then the earlier question
            return _asked_of(before, words) + what if _attribute(thing) else what + before
        span = form_span(words, span, thing)  # 注销会员登记表 → 入会的申请书: one form's whole name for another's
        edits.append((span, thing))
    if named and named not in before:
        span = title_span(words, naming)
        if span is None:
            return what + before
        edits.append((span, named))
    for span, text in sorted(edits, reverse=True):  # right to left, so the earlier offsets still hold
        if len(text) > 1 and text[0] in _PREPOSITIONS and before[:span[0]].endswith(text[0]):
            text = text[1:]  # 离火车站呢 after 距离机场多远: the earlier question says 离 already
        before = _replace(before, span, text)
    return before


def _attribute(thing: str) -> bool:
    """Whether the elided phrase is one attribute asked of something (电话, 地址, 联系方式), not a thing or a case."""
    return thing in ATTRIBUTES or thing in CONTACT_NOUNS


def _asked_of(before: str, words: list[Word]) -> str:
    """What the earlier question asked of, up to its asking (青年教师培训班联系人 of 青年教师培训班联系人是谁？): a thing
    asked after it (电话呢？) is that one's — the contact's phone —, when nothing in it is the thing's parallel."""
    first = next((w for w in words if w.start > 0 and is_function(w, None)), None)
    return before[: first.start] if first is not None else without_end(before)


def _range_of(thing: str, before: str) -> tuple[int, int] | None:
    """Where the earlier question gives a range or an amount when `thing` is one (要是一千万到五千万呢 after
    …中标价五百万到一千万那一档…): the one it takes the place of."""
    if not _is_amount(thing):
        return None
    found = _AMOUNT.search(before) or _ONE_AMOUNT.search(before)
    return found.span() if found else None


def _is_amount(thing: str) -> bool:
    """Whether an elided phrase is a tier or an amount (10万到20万, 超过100万的部分, 30万), not a thing."""
    bare = _TIER_WORDS.sub("", thing.strip())
    return bool(_AMOUNT.fullmatch(bare) or _ONE_AMOUNT.fullmatch(bare))


def _looked_in(words: list[Word]) -> tuple[int, int] | None:
    """The phrase the earlier question says to look in (银行业可疑交易报告 of …报告里“…”排第几): the words before its
    first 里/中, back to punctuation or a function word."""
    for i, w in enumerate(words):
        if w.flag == "f" and w.text in _LOCATIVES and i:
            k = i
            while k > 0 and WORD_CHAR.search(words[k - 1].text) and words[k - 1].flag[0] not in "pcrumxy" \
                    and not QUESTION_WORD.search(words[k - 1].text):
                k -= 1  # 银行业|可疑|交易|报告: a verb inside a name stays (可疑)
            if k < i:
                return words[k].start, words[i - 1].end
    return None


def _resolve_reference(question: str, words: list[Word], at: int, before: str, naming: Titles,
                       written: Callable[[str], bool] | None = None) -> str:
    """The question with its referring word replaced by what it refers to in the earlier question: 该村 → the village
    named there (the same head), 该预案 → the document named there, 这个仓库 → that document's 仓库, 它 → the earlier
    question's subject (its first noun phrase, 的 and all)."""
    word = words[at]
    prefix = next(d for d in DEMONSTRATIVES if word.text.startswith(d))
    rest = word.text[len(prefix):].lstrip(COUNTERS)  # 该村 → 村; 这些 → ""; 此类 → ""; 那张 → ""
    end = word.end
    noun = rest
    after = at + 1
    if not noun and after + 1 < len(words) and words[after].text in COUNTERS:
        after += 1  # 那|张|表: the counter jieba cut apart
    if not noun and after < len(words) and not is_function(words[after], word) and words[after].flag != "f":
        # 它里面: a locative is where to look in it, not a noun of its own
        noun, end = _unglued(words[after])  # jieba tags some nouns otherwise (清单 a)
    earlier = words_of(before)
    runs = subject_runs(before, naming)
    title = title_span(earlier, naming)
    title_text = before[title[0]:title[1]] if title else ""
    whole = whole_name(noun, before, earlier, title) if noun else ""
    if whole:  # 那张表 after …的报名表…: the 报名表 asked about, not a new 表
        what = whole
    elif noun and naming.holds(noun):  # 该预案: the document the earlier question named
        what, end = title_text or topic(before, earlier), word.end
    elif noun and (same := [r for r, _ in runs if r[-1] == noun[-1]]):  # 该村: the village named there
        what = same[-1] if not title_text or title_text in same[-1] else title_text + same[-1]
    elif noun:
        what, end = title_text, word.end  # 这个仓库: the earlier question's document's 仓库
    else:
        what = topic(before, earlier, written)
    return question[: word.start] + what + question[end:]


def _unglued(word: Word) -> tuple[str, int]:
    """A word without the modal jieba glued to it (表 of 表要), and where it ends."""
    text = word.text
    if glued_modal(text):
        text = text.rstrip("".join(MODALS))
    return (text, word.start + len(text)) if text else (word.text, word.end)


def whole_name(noun: str, before: str, earlier: list[Word], title: tuple[int, int] | None) -> str:
    """The earlier question's name that `noun` is the end of (报名表 for 表, 应急物资清单 for 清单), with the document it
    was named under when only 的 stands between them (作文比赛的报名表); "" when it names none longer than `noun`. A
    follow-up calls a thing by the last word of its name, as a reader does once it is known."""
    for i in range(len(earlier) - 1, -1, -1):
        w = earlier[i]
        if not w.text.endswith(noun):
            continue
        if title and w.end <= title[1]:  # 该街道 of 东岭街道: the document's name ends in it
            named = before[title[0]:title[1]]
            return named if named.endswith(noun) and len(named) > len(noun) else ""
        k = i
        while k > 0 and earlier[k - 1].end == earlier[k].start and not is_function(earlier[k - 1], None) \
                and (title is None or earlier[k - 1].start >= title[1]):
            k -= 1  # 应急|物资|清单: the words of the name, back to 的 or the document's name
        start = earlier[k].start
        if w.end - start <= len(noun):
            continue
        if title and before[title[1]:start] in ("", "的"):
            start = title[0]
        return before[start:w.end]
    return ""


def _document_named(before: str, naming: Titles) -> str:
    """The document the earlier question names, up to its last naming word (紫楹台酒店 of 紫楹台酒店应急物资清单…: 应急
    is a word of every plan's title, the list's name rather than the hotel's)."""
    words = words_of(before)
    span = title_span(words, naming)
    if span is None:
        return ""
    last = max(w.end for w in words if span[0] <= w.start < span[1] and naming.names(w.text))
    return before[span[0]:last]


def _asked_about(before: str, naming: Titles) -> str:
    """The document and the thing the earlier question asked about (西岭街道 … 冲锋舟 of 西岭街道有几艘冲锋舟？): what
    a question with no subject of its own continues."""
    words = words_of(before)
    title, thing = title_span(words, naming), last_thing(words, naming)
    label = next(reversed(list(LABEL.finditer(before))), None)
    if label:  # 附件二 is one name, though jieba reads 二 a number; a thing after it is inside it (附件4里灭火器)
        thing = (label.start(), max(label.end(), thing[1] if thing and thing[0] >= label.start() else 0))
    if title and thing and title[1] == thing[0]:
        return before[title[0]:thing[1]]
    return "".join(before[span[0]:span[1]] for span in (title, thing) if span)


def _replace(text: str, span: tuple[int, int], what: str) -> str:
    return text[: span[0]] + what + text[span[1]:]


