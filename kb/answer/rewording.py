"""How a question says in its own words what a document writes otherwise, as a careful reader hears it.

A user shortens the document's phrase (选委 for 选举委员, 直选 for 直接选举) or picks a near word sharing its characters
(颜色 for 涂色). A question word that no source writes whole cannot be held by any sentence: counted at its full
weight it would count against every sentence alike and decline an answerable question. So a word written nowhere
is read through its characters: a unit that writes them in order, close together, holds it (an abbreviation); a unit
that writes the last character of a two-character word — the head that names its kind: 色 of 颜色 and of 涂色, a
colour — holds that share of it in full (kb/answer/offline.py), there being no sentence that holds it whole to prefer.
A word none of whose characters is written (油漆, 工资), or only one that is no head (机 of 无人机 in 发电机, 处置 of
处置厂 in 处置场所), still counts against every sentence: the document does not speak of it, and the question may be
one it cannot answer.
"""
from __future__ import annotations

import re
from typing import Iterable

from kb.answer.question_words import words_of

# Characters a shortened word may skip between two of its own in the document's phrase: one in 选(举)委 and
# 直(接)选, two in 环(境)(保)护 — past that the characters are merely in one sentence, not one phrase (特…首 of
# 特别行政区的首长 skips five; 工…资 never stand that close in a document that does not speak of 工资).
MAX_SKIP = 2
_CJK_WORD = re.compile(r"^[\u4e00-\u9fff]{2,}$")
_CJK_CHAR = re.compile(r"^[\u4e00-\u9fff]$")
# 多少钱, 几岁, 几天: the question word, then the unit the answer is counted in
_COUNTING = re.compile(r"(?:多少|几)$")


def written_nowhere(words: Iterable[str], texts: Iterable[str]) -> frozenset[str]:
    """The question's Chinese words of two or more characters that none of the texts writes whole; of a word jieba
    also cut into pieces (无人机, 无人, 人机), the whole word only: a piece of a word nobody writes is no word the
    question says (人机 is no 机 of 发电机)."""
    texts = list(texts)
    nowhere = {w for w in words if _CJK_WORD.match(w) and not any(w in t for t in texts)}
    return frozenset(w for w in nowhere if not any(w != other and w in other for other in nowhere))


def shortened(word: str, text: str) -> bool:
    """The text writes the word's characters in order, each within MAX_SKIP characters of the one before: a phrase
    the word abbreviates (选举委员会 for 选委)."""
    start = text.find(word[0])
    while start != -1:
        at, ok = start, True
        for ch in word[1:]:
            nxt = text.find(ch, at + 1, at + 2 + MAX_SKIP)
            if nxt == -1:
                ok = False
                break
            at = nxt
        if ok:
            return True
        start = text.find(word[0], start + 1)
    return False


def kind_kept(word: str, text: str, flag: str = "n") -> bool:
    """The text writes a two-character word's head in a word of its own: a noun's last character names its kind (色 of
    颜色, in 涂色); a verb's two characters each carry the act (处 of 处罚 in 处以, 布 of 发布 in 公布). A longer word's
    one character is too little of it to stand for the whole (机 of 无人机), and a word of time or a pronoun has no such
    head (每 of 每天 in 每日 is no day)."""
    if len(word) != 2 or word[0] in NEGATIONS:
        return False
    if flag.startswith("v"):
        return bool(re.search(f"{re.escape(word[0])}{_CJK}|{_CJK}{re.escape(word[1])}", text))
    return flag.startswith("n") and bool(re.search(f"{_CJK}{re.escape(word[1])}", text))


_CJK = "[\u4e00-\u9fff]"
# A negated word says the opposite of its verb: 不算 is no 算 of 计算 (哪些情况不算直接排放 was answered by the article
# on how emissions are 计算ed instead of the one listing what 不属于 direct emission).
NEGATIONS = frozenset("不没未非无别勿")


def said_otherwise(question: str, texts: Iterable[str]) -> frozenset[str]:
    """The question's one-character words that no text writes and that name nothing: a verb of speech (拿 of 能拿多少,
    给 of 给多少) where the document writes its own (每生每年8000元 gives no verb at all), or the unit right after
    多少/几 (钱 of 多少钱, where the document counts in 元: the sentence must give an amount of money instead,
    kb/answer/offline.py). They weigh nothing, as a reader looks past them; a noun
    the question names (狗, 车) is no such word, and still counts against every sentence that does not write it."""
    texts = list(texts)
    words = words_of(question)
    out = set()
    for i, w in enumerate(words):
        if not _CJK_CHAR.match(w.text) or any(w.text in t for t in texts):
            continue
        counted = i > 0 and bool(_COUNTING.search(words[i - 1].text))
        if w.flag.startswith("v") or counted:
            out.add(w.text)
    return frozenset(out)


def asks_money(question: str) -> bool:
    """多少钱, 几块钱: the question asks for an amount of money."""
    return bool(_MONEY_ASKED.search(question))


_MONEY_ASKED = re.compile(r"(?:多少|几)[块元]?钱")
