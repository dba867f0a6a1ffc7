"""The noun phrases of a question as the follow-up reader reads them: runs of jieba's words between function words,
which of them can be a subject of its own, which refer back (它, 该村), and which name a document."""
from __future__ import annotations

import re
from typing import Callable

from kb.answer.question import ATTRIBUTES, MODALS
from kb.answer.question_words import Titles, Word, words_of
from kb.labels import LABEL
from kb.search.pos_tags import is_word
from kb.search.tokens import STOPWORDS
from kb.text import fold_case

# What a question asks with: a phrase that holds one is a question of its own, not an elided one.
QUESTION_WORD = re.compile(r"多少|几|哪|什么|啥|谁|怎|如何|吗|是否|为何|为什么|能否|可否|有没有|何时|何处|多[远大长久高宽重深]")
_FROM = frozenset({"距离", "离开"})  # before a place: "from" (酒店距离机场多远), though jieba tags 距离 a noun
_HOW = re.compile(r"怎么|怎样|怎么样|如何|咋|怎")  # the question words of a manner: a verb follows them
# A demonstrative starts a referring word (该村, 这些, 此类, 上述); these start words that refer to nothing before.
DEMONSTRATIVES = ("上述", "前者", "后者", "它", "他", "她", "其", "该", "此", "这", "那")
NOT_REFERRING = frozenset("其他 其它 其余 其实 其次 那么 这样 那样 这么 这儿 那儿 此外 因此 该当".split())
# Words that frame what is asked rather than name it (存放地点在哪里): no subject of their own.
FRAME_NOUNS = frozenset("时候 时间 地点 地方 位置 方位 方式 方法 办法 要求 情形 问题 答案 东西 人员 单位 部门 "
                         "格式 样式 模板 流程 步骤 程序 期限 有效期".split())  # 格式是什么样的: of the last thing
# A role or a contact detail asked alone (联系人是谁？ 传真号多少？ 邮箱呢？) is asked of what the last question was about.
CONTACT_NOUNS = frozenset("联系人 负责人 传真 传真号 邮箱 电子邮箱 邮件 地址 网址 账号 账户 帐户 帐号 开户行 邮编".split())
# Parts of speech of a subject's words; jieba tags some nouns as idioms (冲锋舟 i, 呼吸器 l) and suffixes k (正压式).
RUN_FLAGS = ("n", "vn", "i", "l", "j", "eng", "b", "s", "k")
WORD_CHAR = re.compile(r"\w")
LINKS = frozenset("的 之 和 与 及 及其 或 、".split())  # inside one noun phrase: 铅及其化合物的废弃物, 金刚石和石墨
# X中Y: the place a question looks in, then what it asks about there (应急通讯录中*总指挥*是谁, 附件一中*选举委员会*):
# the thing a later 它/他 refers to is Y, read with the place it was found in
LOCATIVES = frozenset("中 里 内 之中 当中 里面".split())
COORDINATORS = frozenset("和 与 及 或 、 以及".split())


def parallel(mine: list[Word], words: list[Word], naming: Titles) -> tuple[int, int] | None:
    """Where the earlier question holds a phrase of the same head as `mine`: a word that `mine` ends with
    (人民法院 of 最高人民法院), as many words ending in the same word (蓝色预警 for 黄色预警; with the modifier before 的
    when `mine` has one: 1000元以下的部分 for 1000001元以上的部分), else a phrase up to the same last character
    (现场处置组 of 现场处置组组长 for 警戒疏散组, however jieba cut it)."""
    if not mine:
        return None
    head = mine[-1].text
    whole = "".join(w.text for w in mine)
    for w in reversed(words if len(mine) == 1 else []):  # one word holding an earlier one: a narrower name
        if len(w.text) > 1 and w.text != whole and whole.endswith(w.text) and is_content(w):
            return w.start, w.end
    for phrase in reversed(noun_phrases(words, naming)):
        for j in range(len(phrase) - 1, -1, -1):
            if phrase[j].text == head:
                if any(w.text == "的" for w in mine):
                    return modified(words, phrase[j]), phrase[j].end
                return phrase[max(0, j - len(mine) + 1)].start, phrase[j].end
    for phrase in noun_phrases(words, naming):
        first = phrase[0].start
        for w in phrase:
            at = w.text.find(head[-1])
            if at >= 0 and w.start + at + 1 - first > 1:
                return first, w.start + at + 1
    return None


# The last character of a written form's name (声明书, 报名表, 登记单, 许可证): what one form is called after another
FORM_ENDS = "书表单证函"


def form_span(words: list[Word], span: tuple[int, int], thing: str) -> tuple[int, int]:
    """The span a follow-up's `thing` takes the place of, from the verb a form's name begins with when both are forms
    (a form's whole name for another's)."""
    return (named_by_verb(words, *span), span[1]) if thing and thing[-1] in FORM_ENDS else span


def named_by_verb(words: list[Word], first: int, end: int) -> int:
    """Where a form's name begins: at the verb glued before it (注销|会员登记表, 退赛|声明书), which names the form as a
    reader names it, when a follow-up puts another form in its place (那入会的申请书呢 after 注销会员登记表由谁签字)."""
    before = next((w for w in words if w.end == first), None)
    named = next((w for w in words if w.start <= end - 1 < w.end), None)
    if before is not None and before.flag.startswith("v") and named is not None and named.text[-1] in FORM_ENDS:
        return before.start
    return first


def modified(words: list[Word], head: Word) -> int:
    """Where the modifier of `head` before its 的 begins (1000元以下的部分: at 1000), back to a verb, preposition,
    punctuation or question word."""
    i = next(k for k, w in enumerate(words) if w.start == head.start)
    if i < 2 or words[i - 1].text != "的":
        return head.start
    k = i - 2
    while k > 0 and WORD_CHAR.search(words[k - 1].text) and words[k - 1].flag[0] not in "pvcr" \
            and not QUESTION_WORD.search(words[k - 1].text):
        k -= 1
    return words[k].start


def last_thing(words: list[Word], naming: Titles) -> tuple[int, int] | None:
    """What the earlier question asked about: its last phrase that owns something (事故池 of 事故池的有效容积: what
    follows 的 is the attribute asked for), else its last phrase; with the phrases coordinated with it (金刚石和石墨)."""
    phrases = noun_phrases(words, naming)
    follows = {w.start: w.text for w in words}
    owners = [p for p in phrases if follows.get(p[-1].end) == "的"]
    last = (owners or phrases or [None])[-1]
    if last is None:
        return None
    start = last[0].start
    for p in reversed(phrases):  # A和B: the coordinated phrases before it, joined by 和/与/及/、
        if p[-1].end < start and follows.get(p[-1].end) in COORDINATORS \
                and p[-1].end + len(follows[p[-1].end]) == start:
            start = p[0].start
    return start, last[-1].end


def noun_phrases(words: list[Word], naming: Titles) -> list[list[Word]]:
    """The noun phrases of a question: runs of words between its function words (的, 有, 是, a question word, a
    number), from the first to the last word that can be a subject, without the document name they begin with
    (磁压式堵漏器, 消防控制室 of 青禾县人民医院消防控制室; not 24小时, a measure)."""
    out: list[list[Word]] = []
    run: list[Word] = []
    for i, w in enumerate(words + [Word("", "x", -1, -1)]):
        if w.text and not is_function(w, words[i - 1] if i else None) and not _measured_from(words, i) \
                and not _parted(words, i) and not predicated(words, i):
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
                    if is_subject(x) or (x.flag == "k" and k) or (k + 1 < len(run) and run[k + 1].flag == "k")]
        if subjects and not counted:
            out.append(run[subjects[0] : subjects[-1] + 1])
        run = []
    return out


NEGATIONS = frozenset("不 没 没有 别 未 不用 不必 无需 不要".split())


def predicated(words: list[Word], i: int) -> bool:
    """A word a negation or a modal makes a predicate, however jieba tagged it: 交会 of 不交会怎么样 (cut so, tagged a
    noun), 交 of 哪些凭证要交 (tagged a noun): what is done, no thing asked about."""
    before = words[i - 1].text if i else ""
    return before in NEGATIONS or (before in MODALS and len(words[i].text) == 1)


def _parted(words: list[Word], i: int) -> bool:
    """A lone character jieba parted from the next, with which the dictionary spells one word (报 of 什么时候报到,
    cut 报 / 到): the word's, no thing of its own."""
    w, after = words[i], words[i + 1] if i + 1 < len(words) else None
    return (len(w.text) == 1 and after is not None and len(after.text) == 1 and after.start == w.end
            and is_word(w.text + after.text))


def _measured_from(words: list[Word], i: int) -> bool:
    """距离 before a place is "from" (酒店距离机场多远: 酒店 | 机场), though jieba tags it the noun "distance"."""
    return words[i].text in _FROM and i + 1 < len(words) and is_content(words[i + 1])


def is_function(w: Word, before: Word | None) -> bool:
    """A word that ends a noun phrase: punctuation, a particle or preposition, a question word, a number, a pronoun;
    a lone character right after a question word is what is counted (多少人); the word right after 怎么/如何 is what
    is done (怎么收税: jieba tags 收税 a noun)."""
    if not WORD_CHAR.search(w.text) or QUESTION_WORD.search(w.text) or fold_case(w.text) in STOPWORDS:
        return True
    if w.flag[0] in "pcuyedro" or (w.flag == "m" and not w.text.startswith("第")):
        return True
    if before is not None and _HOW.fullmatch(before.text):
        return True
    return len(w.text) == 1 and before is not None and bool(QUESTION_WORD.search(before.text))


def title_span(words: list[Word], naming: Titles) -> tuple[int, int] | None:
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


def topic(text: str, words: list[Word], written: Callable[[str], bool] | None = None) -> str:
    """The earlier question's subject: its first noun phrase with what modifies it (铅及其化合物的废弃物 of
    铅及其化合物的废弃物属于…哪个附件？), up to its predicate, across the place it is looked for in (应急通讯录中总指挥:
    LOCATIVES); with a character jieba read as a verb (站 of 防汛站在哪里)
    when the knowledge base writes the phrase with it (`written`)."""
    start = next((i for i, w in enumerate(words) if is_content(w)), None)
    if start is None:
        return ""
    end = start
    for i in range(start, len(words)):
        w = words[i]
        if is_content(w) or w.flag == "k":
            end = i
        elif w.text in LOCATIVES and (thing := _in_place(words, i + 1)) is not None:
            end = thing  # 通讯录中总指挥: the thing in that place, however jieba cut it (指挥部中指挥/长)
            break
        elif w.text not in LINKS:
            break
    after = words[end + 1] if end + 1 < len(words) else None
    if after and len(after.text) == 1 and WORD_CHAR.search(after.text) and written \
            and written(text[words[start].start:after.end]):
        return text[words[start].start:after.end]
    label = next((m for m in LABEL.finditer(text) if m.start() < words[end].end < m.end()), None)
    return text[words[start].start:label.end() if label else words[end].end]  # …附件2, its number and all


def _in_place(words: list[Word], at: int) -> int | None:
    """The last word of what a question asks about after a locative (总指挥 of 通讯录中总指挥是谁): up to its predicate
    (是, 有, 在, 为) or question word; None when nothing stands there or it does not begin with a word of content."""
    if at >= len(words) or not (is_content(words[at]) or words[at].flag.startswith("v")):
        return None
    end = None
    for i in range(at, len(words)):
        w = words[i]
        if w.text in _PREDICATES or QUESTION_WORD.search(w.text) or not WORD_CHAR.search(w.text):
            break
        end = i
    return end


_PREDICATES = frozenset("是 有 在 为 叫 属于".split())


def subject_runs(text: str, naming: Titles) -> list[tuple[str, bool]]:
    """The subject phrases of a question — runs of subject words — and whether each names a document."""
    words = words_of(text)
    out = []
    for a, b in run_spans(words):
        out.append((text[a:b], any(naming.names(w.text) for w in words if a <= w.start < b)))
    return out


def run_spans(words: list[Word]) -> list[tuple[int, int]]:
    """Runs of adjacent content words; none right after a number or a question word is a phrase: that is what is
    counted or measured (24小时, 多少人)."""
    spans: list[tuple[int, int]] = []
    for w in words:
        if not is_content(w):
            continue
        if spans and spans[-1][1] == w.start:
            spans[-1] = (spans[-1][0], w.end)
        else:
            spans.append((w.start, w.end))
    counted = {w.start for prev, w in zip(words, words[1:])
               if (prev.flag == "m" and not prev.text.startswith("第") and not QUESTION_WORD.search(prev.text))
               or (len(w.text) == 1 and QUESTION_WORD.search(prev.text))}
    return [(a, b) for a, b in spans if a not in counted]


def refers(w: Word) -> bool:
    """A referring word: a pronoun or determiner that points back (它, 其, 该村, 这些, 上述)."""
    return (w.flag.startswith("r") or w.flag == "b") and w.text.startswith(DEMONSTRATIVES) and w.text not in NOT_REFERRING


def is_content(w: Word) -> bool:
    """A word that can belong to a subject phrase: a noun-like word that asks nothing (第二类 counts, 几类 does not)."""
    if not WORD_CHAR.search(w.text) or QUESTION_WORD.search(w.text) or fold_case(w.text) in STOPWORDS or refers(w):
        return False
    return w.flag.startswith(RUN_FLAGS) or (w.flag == "m" and w.text.startswith("第"))


def is_subject(w: Word) -> bool:
    """A word that gives the question a subject of its own (冲锋舟, 氨), not one that frames what is asked (电话, 地点)."""
    if not is_content(w) or w.text in ATTRIBUTES or w.text in FRAME_NOUNS or w.text in CONTACT_NOUNS or w.flag == "b":
        return False
    return len(w.text) > 1 or w.flag.startswith("n")


def form_asked(before: str) -> tuple[int, int] | None:
    """Where the earlier question names the form it asks about (参会回执表 of 年会的参会回执表什么时候交): its last
    word that ends a form's name, with the verb its name begins with (注销会员登记表)."""
    words = words_of(before)
    form = next((w for w in reversed(words) if len(w.text) > 1 and w.text[-1] in FORM_ENDS and is_content(w)), None)
    if form is None:
        return None
    start = form.start
    glued = next((w for w in words if w.end == start and w.flag.startswith(("v", "n"))), None)
    start = glued.start if glued is not None and WORD_CHAR.search(glued.text) and glued.text not in MODALS else start
    return start, form.end


# 手写的算数吗, 传真的可以吗: a kind of the thing asked before, named by what it is without naming it (a 的 phrase
# with no head, then what is asked of it)
_HEADLESS = re.compile(r"^(?:那|那么|要是|如果是?)?(?P<kind>[\u4e00-\u9fff]{1,6}?)的(?P<rest>(?:能|可以|可|算|行|也|还|有效|管用)"
                       r"[\u4e00-\u9fff]{0,8})$")


def of_form_asked(text: str, before: str) -> str:
    """The earlier question's form asked of again as the kind a headless 的 phrase names (手写的算数吗 after 年会的参会
    回执表什么时候交 → 年会的手写的参会回执表算数吗？), or "" when the follow-up is no such phrase or no form was asked."""
    headless = _HEADLESS.match(text)
    form = form_asked(before) if headless else None
    if form is None:
        return ""
    start, end = form
    return f"{before[:start]}{headless.group('kind')}的{before[start:end]}{headless.group('rest')}？"
