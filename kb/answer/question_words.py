"""A question's words as the follow-up reader sees them: jieba's words with their parts of speech and where they
stand, and which of them name a document of the knowledge base."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache


from kb.search import pos_tags
from kb.search.tokens import jieba_pieces
from kb.text import fold_case


@dataclass(frozen=True)
class Word:
    text: str
    flag: str
    start: int
    end: int


class Titles:
    """Which words are words of a document title, and which of them name a document (not a word every title has)."""

    def __init__(self, titles: tuple[str, ...]) -> None:
        self.titles = [fold_case(t) for t in titles if t]
        self.most = max(1, len(self.titles) // 2)

    def holds(self, word: str) -> bool:
        return len(word) > 1 and any(fold_case(word) in t for t in self.titles)

    def names(self, word: str) -> bool:
        return len(word) > 1 and 0 < sum(fold_case(word) in t for t in self.titles) <= self.most


@lru_cache(maxsize=4096)
def cut(text: str) -> tuple[tuple[str, str, int, int], ...]:
    out = []
    for at, piece in jieba_pieces(text):
        for pair in pos_tags.cut(piece):
            out.append((pair.word, pair.flag, at, at + len(pair.word)))
            at += len(pair.word)
    return tuple(out)


def words_of(text: str) -> list[Word]:
    """The words of a text with their parts of speech and where they stand."""
    return [Word(*w) for w in cut(text)]
