"""Chinese word tokens (jieba) for BM25, the lexical reranker and the offline answerer."""
from __future__ import annotations

import logging
import re
from functools import lru_cache

import jieba

from kb.text import fold_case

jieba.setLogLevel(logging.WARNING)

# Question words and particles that say nothing about what is asked for.
STOPWORDS = frozenset(
    "的 了 是 在 和 与 及 或 等 把 被 对 从 向 为 以 于 也 都 就 还 又 吗 呢 吧 啊 么 "
    "什么 哪些 哪个 哪里 哪 多少 几 怎么 怎样 如何 为何 为什么 谁 是否 有没有 有 没有 请问 请 "
    "一下 这个 那个 这些 那些 其 之 该 本 各 每 个 中 上 下 里 时 要 应 应当 需要 可以 能 "
    "它 他 她 它们 我们 你们 我 你 呀 哦".split()
)
_WORD = re.compile(r"\w", re.UNICODE)


@lru_cache(maxsize=4096)
def _normalize(text: str) -> str:
    return fold_case(text)


def tokenize(text: str) -> list[str]:
    """Search-mode jieba tokens, NFKC-lowercased, punctuation and stopwords dropped."""
    return [t for t in jieba.lcut_for_search(_normalize(text)) if _WORD.search(t) and t not in STOPWORDS]
