"""ThinkTagSplitter: <think>…</think> in streamed text, wherever the chunk boundaries fall."""
from __future__ import annotations

import pytest

from kb.answer.deltas import ModelDelta, ThinkTagSplitter

FULL = "前言<think>先查附件三。</think>\n\n答案见附件3。"


def _run(pieces: list[str]) -> list[ModelDelta]:
    splitter = ThinkTagSplitter()
    out = [d for piece in pieces for d in splitter.feed(piece)] + splitter.flush()
    merged: list[ModelDelta] = []
    for d in out:  # chunk boundaries may split one run of text into several deltas
        if merged and merged[-1].kind == d.kind:
            merged[-1] = ModelDelta(d.kind, merged[-1].text + d.text)
        else:
            merged.append(d)
    return merged


EXPECTED = [ModelDelta("content", "前言"), ModelDelta("thinking", "先查附件三。"), ModelDelta("content", "答案见附件3。")]


@pytest.mark.parametrize("cut", range(len(FULL) + 1))
def test_one_cut_anywhere_gives_the_same_result(cut):
    assert _run([FULL[:cut], FULL[cut:]]) == EXPECTED


@pytest.mark.parametrize("first", range(0, len(FULL) + 1, 3))
@pytest.mark.parametrize("second", range(0, len(FULL) + 1, 2))
def test_two_cuts_give_the_same_result(first, second):
    a, b = sorted((first, second))
    assert _run([FULL[:a], FULL[a:b], FULL[b:]]) == EXPECTED


def test_one_character_per_chunk():
    assert _run(list(FULL)) == EXPECTED


@pytest.mark.parametrize(
    ("pieces", "expected"),
    [
        (["<th", "ink>想", "</think>答"], [("thinking", "想"), ("content", "答")]),
        (["<", "think", ">想</", "think>答"], [("thinking", "想"), ("content", "答")]),
        (["<think>\n还在想，没有结束"], [("thinking", "还在想，没有结束")]),
        (["<think>想", "到一半"], [("thinking", "想到一半")]),
        (["没有标签的回答"], [("content", "没有标签的回答")]),
        (["<think></think>", "答"], [("content", "答")]),
        (["a < b", " 且 c <th"], [("content", "a < b 且 c <th")]),  # never completed: released at the end
        (["x <b>粗体</b>"], [("content", "x <b>粗体</b>")]),
        (["<think>一</think>中<think>二</think>尾"],
         [("thinking", "一"), ("content", "中"), ("thinking", "二"), ("content", "尾")]),
        ([""], []),
    ],
)
def test_table(pieces, expected):
    assert [(d.kind, d.text) for d in _run(pieces)] == expected


def test_text_is_released_as_soon_as_it_cannot_be_a_tag():
    splitter = ThinkTagSplitter()
    assert splitter.feed("回答 <") == [ModelDelta("content", "回答 ")]
    assert splitter.feed("b") == [ModelDelta("content", "<b")]
    assert splitter.feed("<think>想") == [ModelDelta("thinking", "想")]
    assert splitter.feed("</thi") == []
    assert splitter.flush() == [ModelDelta("thinking", "</thi")]
