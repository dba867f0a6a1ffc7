"""Scoring what a turn showed: a decline never shows the answer, whatever it quotes; a question's history parses."""
from __future__ import annotations

import pytest

from kb.answer.prompts import ATTACHMENT_BLOCK_HEADER, NO_ANSWER, OFFLINE_NO_ANSWER
from kb.eval.metrics import Outcome, Question, parse_question, score

BOATS = Question(1, "东岭街道有几艘冲锋舟？", "attachment", "东岭街道防汛应急预案.md", labels=("附件4",),
                 answer_contains=("3艘",))
MARS = Question(2, "火星基地的氧气储备有多少？", "unanswerable")


def _scored(q: Question, shown: str) -> Outcome:
    return score(Outcome(q, "d1" if q.doc else None, 1.0), shown)


def test_a_decline_never_counts_as_showing_the_answer_even_when_text_beside_it_holds_it():
    block = f"\n\n{ATTACHMENT_BLOCK_HEADER}\n**附件4-防汛抢险物资储备清单** [1]\n冲锋舟：3艘，存放于东岭仓库。"
    assert _scored(BOATS, "- 冲锋舟：3艘，存放于东岭仓库。 [1]").contains_ok
    assert not _scored(BOATS, OFFLINE_NO_ANSWER + block).contains_ok  # declined, then the hop's block
    assert not _scored(BOATS, f"{NO_ANSWER}\n\n- 冲锋舟：3艘 [1]").contains_ok  # answers and declines: not an answer


@pytest.mark.parametrize(("shown", "declined"), [
    (OFFLINE_NO_ANSWER, True),
    ("根据参考资料，知识库中没有提供火星基地的信息。", True),  # a model's own words
    ("- 申请人未提供担保的，不予受理。 [3]", False),  # a quoted sentence that says 未提供 is an answer
])
def test_an_unanswerable_question_counts_as_declined_only_in_the_answers_own_words(shown, declined):
    assert _scored(MARS, shown).unanswerable_ok is declined


def test_a_question_line_reads_its_history_and_refuses_a_bad_one():
    q = parse_question(3, {"question": "西岭街道呢？", "doc": "西岭街道防汛应急预案.txt", "attachments": ["附件4"],
                           "history": ["东岭街道有几艘冲锋舟？"]})
    assert q.history == ("东岭街道有几艘冲锋舟？",)
    assert parse_question(4, {"question": "q", "kind": "unanswerable"}).history == ()
    for bad in (3, [""], [" "], [1]):
        with pytest.raises(ValueError, match="history"):
            parse_question(5, {"question": "q", "kind": "unanswerable", "history": bad})


def test_an_outcome_records_the_history_it_was_asked_after():
    outcome = score(Outcome(BOATS, "d1", 1.0, history=("火星上有猫吗？",)), "- 3艘 [1]")
    assert outcome.to_dict()["history"] == ["火星上有猫吗？"]
