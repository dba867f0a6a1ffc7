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

from kb.answer.ordinals import ordinal_question, place
from kb.answer.question import ATTRIBUTES
from kb.answer.question_words import Titles, Word, words_of
from kb.labels import LABEL
from kb.search.tokens import STOPWORDS
from kb.text import fold_case

ELLIPSIS, ANAPHORA, NO_SUBJECT, ORDINAL = "ellipsis", "anaphora", "no_subject", "ordinal"
HOW = {ELLIPSIS: "省略", ANAPHORA: "指代", NO_SUBJECT: "缺主语", ORDINAL: "序数指代"}  # named in the turn's thinking
# What a question asks with: a phrase that holds one is a question of its own, not an elided one.
QUESTION_WORD = re.compile(r"多少|几|哪|什么|啥|谁|怎|如何|吗|是否|为何|为什么|能否|可否|有没有|何时|何处|多[远大长久高宽重深]")
# `那西岭街道呢？` `还有救生衣呢？`: the connective before an elided phrase, and the phrase.
_ELIDED = re.compile(r"^(?:那么|那|还有|另外|而|至于|如果是|要是|换成)?(?P<what>.*?)的?呢$")
# 它的电话呢？ asks what that thing's 电话 is: a number for these attributes (是多少, as 电话是多少 is asked), else 是什么
ASKED_OF, ASKED_NUMBER = "是什么？", "是多少？"
NUMBERED = frozenset("电话 号码 手机 手机号 联系电话 数量 数目 总数 金额 费用 价格 比例 面积 长度 高度 宽度 重量 距离 时长".split())
MAX_ELIDED = 20  # characters of an elided phrase; a longer 呢 sentence is a question of its own
END_MARKS = "？?。.!！…"  # with spaces, what ends a question: stripped from the end (a `[…]+$` search is quadratic in a run)
# A demonstrative starts a referring word (该村, 这些, 此类, 上述); these start words that refer to nothing before.
DEMONSTRATIVES = ("上述", "前者", "后者", "它", "他", "她", "其", "该", "此", "这", "那")
NOT_REFERRING = frozenset("其他 其它 其余 其实 其次 那么 这样 那样 这么 这儿 那儿 此外 因此 该当".split())
# Words that frame what is asked rather than name it (存放地点在哪里): no subject of their own.
FRAME_NOUNS = frozenset("时候 时间 地点 地方 位置 方位 方式 方法 办法 要求 情形 问题 答案 东西 人员 单位 部门".split())
# A role or a contact detail asked alone (联系人是谁？ 传真号多少？ 邮箱呢？) is asked of what the last question was about.
CONTACT_NOUNS = frozenset("联系人 负责人 传真 传真号 邮箱 电子邮箱 邮件 地址 网址 账号 账户 帐户 帐号 开户行 邮编".split())
# Parts of speech of a subject's words; jieba tags some nouns as idioms (冲锋舟 i, 呼吸器 l) and suffixes k (正压式).
_RUN_FLAGS = ("n", "vn", "i", "l", "j", "eng", "b", "s", "k")
_WORD_CHAR = re.compile(r"\w")
_LINKS = frozenset("的 之 和 与 及 及其 或 、".split())  # inside one noun phrase: 铅及其化合物的废弃物, 金刚石和石墨
_COORDINATORS = frozenset("和 与 及 或 、 以及".split())


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
    elided = _ELIDED.match(text)
    if elided and len(elided.group("what")) <= MAX_ELIDED and not QUESTION_WORD.search(elided.group("what")):
        what = elided.group("what").strip()
        if LABEL.search(what):  # 那附件3里呢？: the same question of another attachment
            before = next((q for q in reversed(earlier) if LABEL.search(q)), earlier[-1])
            skipped = len(earlier) - 1 - max(i for i, q in enumerate(earlier) if q == before)
            return Reading(question, _relabelled(what, before), before, ELLIPSIS, skipped)
        mine = words_of(what)
        if mine and _refers(mine[0]):  # 它的电话呢？: that thing's 电话, what it refers to read from an earlier question
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
    words = words_of(question)
    own = [w for w in words if _is_subject(w)]
    refer = next((i for i, w in enumerate(words) if _refers(w)), None)
    if refer is not None and not any(w.start < words[refer].start for w in own):
        return Reading(question, _resolve_reference(question, words, refer, before, naming), before, ANAPHORA)
    if not own:
        subject = _asked_about(before, naming)
        if subject:
            return Reading(question, subject + question.strip(), before, NO_SUBJECT)
    return Reading(question, question)


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
    冲锋舟); the last question when none does or when there is nothing to test."""
    asked = [q for q in earlier if q.strip()]
    if together is None or len(asked) < 2 or not what:
        return earlier[-1]
    named, thing = _split_elided(what, naming)
    for before in reversed(asked):
        words = words_of(before)
        rest = [w for w in words_of(thing) if _WORD_CHAR.search(w.text)]
        span = (_parallel(rest, words, naming) if thing else None) or _last_thing(words, naming)
        title = _title_span(words, naming) if span is None and not thing else None
        if title and any(_is_content(w) for w in words if w.start >= title[1]):
            return before  # it names a document and asks for what the document's name holds (…指挥部的值班电话);
            # one that asks about the document's own subject (餐厨垃圾如何处理) leaves no thing to ask of another
        if span is not None and together(thing or named, before[span[0]:span[1]], not thing):
            return before
    return earlier[-1]


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
        topic = _topic(before, words_of(before), lambda phrase: together(phrase, phrase, False))
        if topic and together(topic, rest, False):
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
    mine = [w for w in words_of(what) if _WORD_CHAR.search(w.text)]
    lead = 0
    while lead < len(mine) and naming.holds(mine[lead].text):
        lead += 1
    named = what[: mine[lead - 1].end] if lead and any(naming.names(w.text) for w in mine[:lead]) else ""
    return named, (what[len(named):].lstrip("的之") if named else what)


def _substitute(what: str, before: str, naming: Titles) -> str:
    """The earlier question asked again of `what`. A document's name in it takes the place of the earlier one
    (西岭街道 for 东岭街道); the rest takes the place of the phrase it parallels (第三类 for 第二类, 黄色预警 for 蓝色预警:
    the same head word), else of the thing the earlier question asked about (救生衣 for 冲锋舟)."""
    if not what:
        return before  # 还有呢？: the same question again
    words = words_of(before)
    named, thing = _split_elided(what, naming)  # 西岭街道 of 西岭街道的救生衣: the document it names, then the thing
    rest = [w for w in words_of(thing) if _WORD_CHAR.search(w.text)]
    edits: list[tuple[tuple[int, int], str]] = []
    if thing:
        span = _parallel(rest, words, naming) or _last_thing(words, naming)
        if span is None:
            return what + before
        edits.append((span, thing))
    if named and named not in before:
        span = _title_span(words, naming)
        if span is None:
            return what + before
        edits.append((span, named))
    for span, text in sorted(edits, reverse=True):  # right to left, so the earlier offsets still hold
        before = _replace(before, span, text)
    return before


def _parallel(mine: list[Word], words: list[Word], naming: Titles) -> tuple[int, int] | None:
    """Where the earlier question holds a phrase of the same head as `mine`: a word that `mine` ends with
    (人民法院 of 最高人民法院), as many words ending in the same word (蓝色预警 for 黄色预警; with the modifier before 的
    when `mine` has one: 1000元以下的部分 for 1000001元以上的部分), else a phrase up to the same last character
    (现场处置组 of 现场处置组组长 for 警戒疏散组, however jieba cut it)."""
    if not mine:
        return None
    head = mine[-1].text
    whole = "".join(w.text for w in mine)
    for w in reversed(words if len(mine) == 1 else []):  # one word holding an earlier one: a narrower name
        if len(w.text) > 1 and w.text != whole and whole.endswith(w.text) and _is_content(w):
            return w.start, w.end
    for phrase in reversed(_phrases(words, naming)):
        for j in range(len(phrase) - 1, -1, -1):
            if phrase[j].text == head:
                if any(w.text == "的" for w in mine):
                    return _modified(words, phrase[j]), phrase[j].end
                return phrase[max(0, j - len(mine) + 1)].start, phrase[j].end
    for phrase in _phrases(words, naming):
        first = phrase[0].start
        for w in phrase:
            at = w.text.find(head[-1])
            if at >= 0 and w.start + at + 1 - first > 1:
                return first, w.start + at + 1
    return None


def _modified(words: list[Word], head: Word) -> int:
    """Where the modifier of `head` before its 的 begins (1000元以下的部分: at 1000), back to a verb, preposition,
    punctuation or question word."""
    i = next(k for k, w in enumerate(words) if w.start == head.start)
    if i < 2 or words[i - 1].text != "的":
        return head.start
    k = i - 2
    while k > 0 and _WORD_CHAR.search(words[k - 1].text) and words[k - 1].flag[0] not in "pvcr" \
            and not QUESTION_WORD.search(words[k - 1].text):
        k -= 1
    return words[k].start


def _last_thing(words: list[Word], naming: Titles) -> tuple[int, int] | None:
    """What the earlier question asked about: its last phrase that owns something (事故池 of 事故池的有效容积: what
    follows 的 is the attribute asked for), else its last phrase; with the phrases coordinated with it (金刚石和石墨)."""
    phrases = _phrases(words, naming)
    follows = {w.start: w.text for w in words}
    owners = [p for p in phrases if follows.get(p[-1].end) == "的"]
    last = (owners or phrases or [None])[-1]
    if last is None:
        return None
    start = last[0].start
    for p in reversed(phrases):  # A和B: the coordinated phrases before it, joined by 和/与/及/、
        if p[-1].end < start and follows.get(p[-1].end) in _COORDINATORS \
                and p[-1].end + len(follows[p[-1].end]) == start:
            start = p[0].start
    return start, last[-1].end


def _phrases(words: list[Word], naming: Titles) -> list[list[Word]]:
    """The noun phrases of a question: runs of words between its function words (的, 有, 是, a question word, a
    number), from the first to the last word that can be a subject, without the document name they begin with
    (磁压式堵漏器, 消防控制室 of 青禾县人民医院消防控制室; not 24小时, a measure)."""
    out: list[list[Word]] = []
    run: list[Word] = []
    for i, w in enumerate(words + [Word("", "x", -1, -1)]):
        if w.text and not _is_function(w, words[i - 1] if i else None):
            run.append(w)
            continue
        counted = run and i - len(run) > 0 and words[i - len(run) - 1].flag == "m" \
            and not QUESTION_WORD.search(words[i - len(run) - 1].text) and not words[i - len(run) - 1].text.startswith("第")
        lead = 0
        while lead < len(run) and naming.holds(run[lead].text):
            lead += 1
        named = [k for k in range(lead) if naming.names(run[k].text)]
        run = run[named[-1] + 1:] if named else run
        # a word before a suffix is a modifier (正压|式 of 正压式空气呼吸器, however jieba tagged 正压)
        subjects = [k for k, x in enumerate(run)
                    if _is_subject(x) or (x.flag == "k" and k) or (k + 1 < len(run) and run[k + 1].flag == "k")]
        if subjects and not counted:
            out.append(run[subjects[0] : subjects[-1] + 1])
        run = []
    return out


def _is_function(w: Word, before: Word | None) -> bool:
    """A word that ends a noun phrase: punctuation, a particle or preposition, a question word, a number, a pronoun;
    a lone character right after a question word is what is counted (多少人)."""
    if not _WORD_CHAR.search(w.text) or QUESTION_WORD.search(w.text) or fold_case(w.text) in STOPWORDS:
        return True
    if w.flag[0] in "pcuyedro" or (w.flag == "m" and not w.text.startswith("第")):
        return True
    return len(w.text) == 1 and before is not None and bool(QUESTION_WORD.search(before.text))


def _title_span(words: list[Word], naming: Titles) -> tuple[int, int] | None:
    """The first run of title words that names a document (东岭街道 in 东岭街道有几艘冲锋舟？)."""
    i = 0
    while i < len(words):
        if naming.holds(words[i].text):
            j = i
            while j + 1 < len(words) and words[j + 1].start == words[j].end and naming.holds(words[j + 1].text):
                j += 1
            if any(naming.names(w.text) for w in words[i : j + 1]):
                return words[i].start, words[j].end
            i = j
        i += 1
    return None


def _resolve_reference(question: str, words: list[Word], at: int, before: str, naming: Titles,
                       written: Callable[[str], bool] | None = None) -> str:
    """The question with its referring word replaced by what it refers to in the earlier question: 该村 → the village
    named there (the same head), 该预案 → the document named there, 这个仓库 → that document's 仓库, 它 → the earlier
    question's subject (its first noun phrase, 的 and all)."""
    word = words[at]
    prefix = next(d for d in DEMONSTRATIVES if word.text.startswith(d))
    rest = word.text[len(prefix):].lstrip("个些种类项位")  # 该村 → 村; 这些 → ""; 此类 → ""
    end = word.end
    noun = rest
    if not noun and at + 1 < len(words) and not _is_function(words[at + 1], word):
        noun, end = words[at + 1].text, words[at + 1].end  # jieba tags some nouns otherwise (清单 a)
    earlier = words_of(before)
    runs = _runs(before, naming)
    title = _title_span(earlier, naming)
    title_text = before[title[0]:title[1]] if title else ""
    if noun and naming.holds(noun):  # 该预案: the document the earlier question named
        what, end = title_text or _topic(before, earlier), word.end
    elif noun and (same := [r for r, _ in runs if r[-1] == noun[-1]]):  # 该村: the village named there
        what = same[-1] if not title_text or title_text in same[-1] else title_text + same[-1]
    elif noun:
        what, end = title_text, word.end  # 这个仓库: the earlier question's document's 仓库
    else:
        what = _topic(before, earlier, written)
    return question[: word.start] + what + question[end:]


def _document_named(before: str, naming: Titles) -> str:
    """The document the earlier question names, up to its last naming word (紫楹台酒店 of 紫楹台酒店应急物资清单…: 应急
    is a word of every plan's title, the list's name rather than the hotel's)."""
    words = words_of(before)
    span = _title_span(words, naming)
    if span is None:
        return ""
    last = max(w.end for w in words if span[0] <= w.start < span[1] and naming.names(w.text))
    return before[span[0]:last]


def _asked_about(before: str, naming: Titles) -> str:
    """The document and the thing the earlier question asked about (西岭街道 … 冲锋舟 of 西岭街道有几艘冲锋舟？): what
    a question with no subject of its own continues."""
    words = words_of(before)
    title, thing = _title_span(words, naming), _last_thing(words, naming)
    if title and thing and title[1] == thing[0]:
        return before[title[0]:thing[1]]
    return "".join(before[span[0]:span[1]] for span in (title, thing) if span)


def _topic(text: str, words: list[Word], written: Callable[[str], bool] | None = None) -> str:
    """The earlier question's subject: its first noun phrase with what modifies it (铅及其化合物的废弃物 of
    铅及其化合物的废弃物属于…哪个附件？), up to its predicate; with a character jieba read as a verb (站 of 防汛站在哪里)
    when the knowledge base writes the phrase with it (`written`)."""
    start = next((i for i, w in enumerate(words) if _is_content(w)), None)
    if start is None:
        return ""
    end = start
    for i in range(start, len(words)):
        w = words[i]
        if _is_content(w) or w.flag == "k":
            end = i
        elif w.text not in _LINKS:
            break
    after = words[end + 1] if end + 1 < len(words) else None
    if after and len(after.text) == 1 and _WORD_CHAR.search(after.text) and written \
            and written(text[words[start].start:after.end]):
        return text[words[start].start:after.end]
    return text[words[start].start:words[end].end]


def _runs(text: str, naming: Titles) -> list[tuple[str, bool]]:
    """The subject phrases of a question — runs of subject words — and whether each names a document."""
    words = words_of(text)
    out = []
    for a, b in _run_spans(words):
        out.append((text[a:b], any(naming.names(w.text) for w in words if a <= w.start < b)))
    return out


def _run_spans(words: list[Word]) -> list[tuple[int, int]]:
    """Runs of adjacent content words; none right after a number or a question word is a phrase: that is what is
    counted or measured (24小时, 多少人)."""
    spans: list[tuple[int, int]] = []
    for w in words:
        if not _is_content(w):
            continue
        if spans and spans[-1][1] == w.start:
            spans[-1] = (spans[-1][0], w.end)
        else:
            spans.append((w.start, w.end))
    counted = {w.start for prev, w in zip(words, words[1:])
               if (prev.flag == "m" and not prev.text.startswith("第") and not QUESTION_WORD.search(prev.text))
               or (len(w.text) == 1 and QUESTION_WORD.search(prev.text))}
    return [(a, b) for a, b in spans if a not in counted]


def _replace(text: str, span: tuple[int, int], what: str) -> str:
    return text[: span[0]] + what + text[span[1]:]


def _refers(w: Word) -> bool:
    """A referring word: a pronoun or determiner that points back (它, 其, 该村, 这些, 上述)."""
    return (w.flag.startswith("r") or w.flag == "b") and w.text.startswith(DEMONSTRATIVES) and w.text not in NOT_REFERRING


def _is_content(w: Word) -> bool:
    """A word that can belong to a subject phrase: a noun-like word that asks nothing (第二类 counts, 几类 does not)."""
    if not _WORD_CHAR.search(w.text) or QUESTION_WORD.search(w.text) or fold_case(w.text) in STOPWORDS or _refers(w):
        return False
    return w.flag.startswith(_RUN_FLAGS) or (w.flag == "m" and w.text.startswith("第"))


def _is_subject(w: Word) -> bool:
    """A word that gives the question a subject of its own (冲锋舟, 氨), not one that frames what is asked (电话, 地点)."""
    if not _is_content(w) or w.text in ATTRIBUTES or w.text in FRAME_NOUNS or w.text in CONTACT_NOUNS or w.flag == "b":
        return False
    return len(w.text) > 1 or w.flag.startswith("n")
