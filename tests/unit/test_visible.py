"""Characters nobody sees are not words: a question made of them is empty, and they never split a word."""
from __future__ import annotations

import pytest

from kb.text import visible


@pytest.mark.parametrize("text", ["\u200b", "\ufeff", "\u2060", "\u200b\u200c\u200d", "\x00\x07", "\u3164",
                                  "\ufe0f", " \u200e\u200f\u202a\u202c ", "\u00ad", "\t\n\r"])
def test_invisible_or_control_characters_alone_leave_nothing(text):
    assert visible(text) == ""


def test_invisible_characters_inside_a_question_go_and_its_words_stay():
    assert visible("\ufeff附件\u200b8 里\u2060的容积？\x00") == "附件8 里的容积？"
    assert visible("值班\x1b电话") == "值班 电话"  # a control character separates, as a space would
