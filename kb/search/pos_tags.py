"""jieba's part-of-speech cut (`jieba.posseg.cut`), word for word, over jieba-rs's copy of the same dictionary.

jieba.posseg keeps two tables of its dictionary in Python beside the one jieba-rs (rjieba) already holds: every
word's frequency with its prefixes (498k entries) and every word's tag (349k), about 100 MB of the serving process
at any library size, for the few words of a question or a source sentence. Here the dictionary walk is jieba-rs's
(`rjieba.tag` without HMM: the same route over the same words and frequencies, with each word's tag), and only what
posseg does beyond it is done in Python: the run of single characters between dictionary words that no dictionary
word spells is cut and tagged by posseg's own HMM (its viterbi and tables, loaded from jieba's package files without
importing jieba.posseg, whose import loads the word tags). tests/unit/test_pos_tags.py holds both to one answer.
"""
from __future__ import annotations

import importlib.util
import pickle
import re
import runpy
from functools import lru_cache
from pathlib import Path
from typing import Iterator, NamedTuple

import rjieba

_POSSEG = Path(importlib.util.find_spec("jieba").origin).parent / "posseg"  # read, never imported

# posseg's own patterns (jieba/posseg/__init__.py)
_HAN_DETAIL = re.compile("([\u4E00-\u9FD5]+)")
_SKIP_DETAIL = re.compile(r"([\.0-9]+|[a-zA-Z0-9]+)")
_HAN_INTERNAL = re.compile(r"([\u4E00-\u9FD5a-zA-Z0-9+#&\._]+)")
_SKIP_INTERNAL = re.compile(r"(\r\n|\s)")
_ENG = re.compile("[a-zA-Z0-9]+")
_NUM = re.compile(r"[\.0-9]+")
_ASCII_RUN = re.compile("[a-zA-Z0-9]{2,}")  # jieba-rs joins single ASCII letters and digits the walk leaves apart


class Tagged(NamedTuple):
    """One word and its jieba tag (n, v, nr, m, eng, x, …), as jieba.posseg's `pair` has them."""

    word: str
    flag: str


def cut(sentence: str) -> Iterator[Tagged]:
    """The words of the sentence with their tags, as `jieba.posseg.cut(sentence)` gives them."""
    for block in _HAN_INTERNAL.split(sentence):
        if not block:
            continue
        if _HAN_INTERNAL.fullmatch(block):
            yield from _cut_block(block)
            continue
        for piece in _SKIP_INTERNAL.split(block):
            if _SKIP_INTERNAL.fullmatch(piece):
                yield Tagged(piece, "x")
                continue
            for char in piece:
                yield Tagged(char, _symbol_tag(char, piece))


def _cut_block(block: str) -> Iterator[Tagged]:
    """posseg's cut of a run of Chinese, letters and digits: dictionary words as tagged; between them, the single
    characters gathered, and cut by the HMM when no dictionary word spells them."""
    pending = ""
    for word, flag in _walk(block):
        if len(word) == 1:
            pending += word
            continue
        if pending:
            yield from _single_run(pending)
            pending = ""
        yield Tagged(word, flag)
    if pending:
        yield from _single_run(pending)


def is_word(text: str) -> bool:
    """Whether jieba's dictionary holds the text as one word (报到, though its cut of 什么时候报到 parts it 报 / 到)."""
    return rjieba.has_word(text)


def _walk(block: str) -> Iterator[tuple[str, str]]:
    """The dictionary walk's words: a run of ASCII that jieba-rs joined and no dictionary word spells is given back
    as the single characters the walk left."""
    for word, flag in rjieba.tag(block, False):
        if _ASCII_RUN.fullmatch(word) and not rjieba.has_word(word):
            yield from ((char, _tag(char)) for char in word)
        else:
            yield word, flag


def _single_run(run: str) -> Iterator[Tagged]:
    if len(run) == 1:
        yield Tagged(run, _tag(run))
    elif rjieba.has_word(run):
        yield from (Tagged(char, _tag(char)) for char in run)
    else:
        yield from _detail(run)


def _detail(run: str) -> Iterator[Tagged]:
    """posseg's __cut_detail: Chinese by its HMM, numbers as m, letters as eng."""
    for block in _HAN_DETAIL.split(run):
        if not block:
            continue
        if _HAN_DETAIL.fullmatch(block):
            yield from _hmm(block)
            continue
        for piece in _SKIP_DETAIL.split(block):
            if piece:
                yield Tagged(piece, _symbol_tag(piece, piece))


def _symbol_tag(number: str, letters: str) -> str:
    """posseg's tag of text outside Chinese: m when `number` is a number, eng when `letters` is letters, else x."""
    return "m" if _NUM.match(number) else "eng" if _ENG.match(letters) else "x"


def _hmm(text: str) -> Iterator[Tagged]:
    """posseg's __cut: its viterbi over (position, tag) states."""
    model = _model()
    _, path = model.viterbi(text, model.states, model.start, model.trans, model.emit)
    begin = following = 0
    for i, char in enumerate(text):
        place, flag = path[i]
        if place == "B":
            begin = i
        elif place == "E":
            yield Tagged(text[begin:i + 1], flag)
            following = i + 1
        elif place == "S":
            yield Tagged(char, flag)
            following = i + 1
    if following < len(text):
        yield Tagged(text[following:], path[following][1])


@lru_cache(maxsize=None)
def _tag(char: str) -> str:
    """A single character's dictionary tag, "x" when the dictionary lacks it."""
    return rjieba.tag(char, False)[0][1] if rjieba.has_word(char) else "x"


class _Model(NamedTuple):
    viterbi: object
    states: dict
    start: dict
    trans: dict
    emit: dict


@lru_cache(maxsize=1)
def _model() -> _Model:
    """posseg's HMM, read from jieba's package files (about 16 MB), once."""
    tables = [pickle.loads((_POSSEG / name).read_bytes())
              for name in ("char_state_tab.p", "prob_start.p", "prob_trans.p", "prob_emit.p")]
    return _Model(runpy.run_path(str(_POSSEG / "viterbi.py"))["viterbi"], *tables)
