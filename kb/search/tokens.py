"""Chinese word tokens (jieba) for BM25, the lexical reranker and the offline answerer."""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Iterator

import rjieba

from kb.labels import LABEL, make_label, normalize_kind
from kb.search.same_words import same_words
from kb.text import fold_case

# Question words and particles that say nothing about what is asked for.
STOPWORDS = frozenset(
    "的 了 是 在 和 与 及 或 等 把 被 对 从 向 为 以 于 也 都 就 还 又 吗 呢 吧 啊 么 "
    "什么 哪些 哪个 哪里 哪 多少 几 怎么 怎样 如何 为何 为什么 谁 是否 有没有 有 没有 请问 请 时候 啥 "
    "一下 这个 那个 这些 那些 其 之 该 本 各 每 个 中 上 下 里 时 要 应 应当 需要 可以 能 "
    "它 他 她 它们 我们 你们 我 你 呀 哦 "
    "哪几 哪几种 哪种 哪一 哪一个 多远 多大 多长 多久 多高 多宽 多重 多深 分别 一共 共 总共 大约 大概 约 做 按 里 说 所说 包括 包含".split()
)
MEASURE_WORDS = "个名人位艘台辆架份联页册张本期届轮次遍倍块根把枚颗道天日周年月时分秒种类项条件部间处座只支套层级批家所户元"
# 几艘, 几种, 多少名: a question word fused with its measure word; never a word of the documents.
_QUESTION_MEASURE = re.compile(rf"^(?:几|多少)[{MEASURE_WORDS}]$")
_WORD = re.compile(r"\w", re.UNICODE)
_HAN = re.compile("[\u4E00-\u9FD5]")  # jieba's Chinese characters
_ALNUM_RUN = re.compile(r"([a-zA-Z0-9]+(?:\.\d+)?%?)")  # jieba.finalseg.re_skip: how jieba cuts a non-Chinese run


@lru_cache(maxsize=4096)
def _normalize(text: str) -> str:
    return fold_case(text)


def tokenize(text: str) -> list[str]:
    """Search-mode jieba tokens, NFKC-lowercased, punctuation and stopwords dropped.

    An attachment label is one word, its number normalized (附件三中 → 附件 + 附件3 + 中, as 附件3 is): jieba
    would cut it 附件/三中 here and 附件/三 there, and 附件三 and 附件3 name the same attachment."""
    text = same_words(_normalize(text))
    out: list[str] = []
    at = 0
    for match in LABEL.finditer(text):
        out += _words(text[at:match.start()])
        kind = match.group("kind")
        out += [normalize_kind(kind), fold_case(make_label(kind, match.group("number")))]
        at = match.end()
    return out + _words(text[at:])


def _words(text: str) -> list[str]:
    return [t for word in rjieba.cut(text, True) for t in _kept(word)]


WORD_CACHE = 32768  # distinct words whose search-mode parts are remembered (~5 MB); a library repeats its words


# 第五条, 第十二款, 第三章: a citation of one article (section, chapter) is one word. Its search-mode parts (五条 of 第五条,
# which 第十五条 holds too) would make every line citing 第十五条 an answer to 第五条讲什么.
_CITATION = re.compile(r"^第[零〇一二两三四五六七八九十百千0-9]+[条款项章节编]$")


def is_citation(word: str) -> bool:
    """第五条, 第三款: one article's (clause's, chapter's) number, matched whole or not at all."""
    return bool(_CITATION.match(word))


@lru_cache(maxsize=WORD_CACHE)
def _kept(word: str) -> tuple[str, ...]:
    """The search-mode parts of one cut word that are indexed: punctuation, stopwords and question words dropped."""
    if _CITATION.match(word):
        return (word,)
    return tuple(t for t in _parts(word) if _WORD.search(t) and t not in STOPWORDS and not _QUESTION_MEASURE.match(t))


def search_words(text: str) -> list[str]:
    """jieba.lcut_for_search(text), word for word, at about a sixth of its cost.

    Tokenizing was nearly all of indexing (about 2.5 ms a chunk). jieba-rs (rjieba) cuts with jieba's dictionary and
    HMM and gives the same words for Chinese text; a run of letters, digits and signs (GB18218-2009, A.1, 100%) it
    keeps whole, where jieba cuts it as finalseg does, so such runs are cut here the same way, and the search-mode
    2- and 3-grams are jieba's own (words of its dictionary, tests/unit/test_tokens.py holds both to one answer).
    """
    return [t for word in rjieba.cut(text, True) for t in _parts(word)]


def jieba_words(text: str) -> list[str]:
    """jieba.lcut(text), word for word, without jieba's Python dictionary: jieba-rs's words, a run of letters, digits
    and signs cut as jieba's finalseg cuts it (tests/unit/test_tokens.py holds both to one answer)."""
    return [part for word in rjieba.cut(text) for part in _alnum_parts(word)]


def _alnum_parts(word: str) -> list[str]:
    return [p for p in _ALNUM_RUN.split(word) if p] if len(word) > 1 and not _HAN.search(word) else [word]


@lru_cache(maxsize=WORD_CACHE)
def _parts(word: str) -> tuple[str, ...]:
    """One cut word's search-mode parts: its dictionary 2- and 3-grams, then itself; a run of letters and digits
    cut as jieba's finalseg cuts it. Remembered per word: the same words recur in every chunk (2.3x faster)."""
    out: list[str] = []
    for part in _alnum_parts(word):
        n = len(part)
        if n > 2:
            out += [g for i in range(n - 1) if rjieba.has_word(g := part[i:i + 2])]
        if n > 3:
            out += [g for i in range(n - 2) if rjieba.has_word(g := part[i:i + 3])]
        out.append(part)
    return tuple(out)


# jieba's HMM for the characters its dictionary does not join (jieba.finalseg) copies its best path at every character:
# quadratic in such a run (8,000 of 是: 1.4 s, 16,000: 10 s). A text is handed to it in pieces of at most
# JIEBA_PIECE characters, each ending at a break jieba cuts at anyway (space, punctuation), so its words are the same;
# only a run of JIEBA_PIECE characters without one is cut where jieba would not.
JIEBA_PIECE = 200
_JIEBA_BREAK = re.compile(r"[^\u4E00-\u9FD5a-zA-Z0-9+#&._%\-]")  # outside jieba's re_han_default: it cuts there


def jieba_pieces(text: str) -> Iterator[tuple[int, str]]:
    """The text in pieces for jieba, each with where it starts."""
    start = 0
    while len(text) - start > JIEBA_PIECE:
        end = start + JIEBA_PIECE
        cut = None
        for cut in _JIEBA_BREAK.finditer(text, start, end):
            pass
        end = cut.end() if cut else end
        yield start, text[start:end]
        start = end
    if start < len(text):
        yield start, text[start:]


def is_dictionary_word(word: str) -> bool:
    """jieba's dictionary holds the word; else its HMM made it up from the characters around it (内要 of 日内要付)."""
    return rjieba.has_word(word)
