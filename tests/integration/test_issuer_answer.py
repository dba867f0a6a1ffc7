"""Who issued a notice, asked in a chat: its letterhead answers, not a sentence that mentions a bureau (real stores)."""
from __future__ import annotations

import pytest

from tests.integration.test_answerer import _served
from tests.integration.test_law_gaps import _answer
from tests.unit.test_issuers import JOINT


@pytest.fixture(scope="module")
def joint(tmp_path_factory):
    yield from _served(tmp_path_factory, {"专项资金通知.md": JOINT}, "joint")


def test_the_issuers_of_a_joint_notice_are_its_letterhead(joint):
    answer = _answer(joint, "下达安全生产专项资金的通知是哪几个单位联合发的？").split("**相关附件**")[0]
    assert "- 青阳市应急管理局 青阳市财政局 [" in answer, answer
    assert "管理办法" not in answer  # not the sentence that names another document


def test_a_question_about_who_does_something_is_answered_from_the_text(joint):
    answer = _answer(joint, "专项资金按什么办法使用？").split("**相关附件**")[0]
    assert "青阳市安全生产专项资金管理办法" in answer, answer
