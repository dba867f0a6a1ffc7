"""A table's row looked up by what the question gives, through the real stores and the offline answerer: a size
standard's band by a head count and a turnover, a schedule's day by its place (kb/answer/brackets.py,
kb/answer/day_rows.py). The two notices in tests/files/lookups are written for these tests."""
from __future__ import annotations

from pathlib import Path

import pytest

from kb.service import open_service
from kb.settings import load_settings
from kb.answer.prompts import OFFLINE_LABEL
from tests.integration.test_pipeline import turn

LOOKUPS = Path(__file__).resolve().parents[1] / "files" / "lookups"


@pytest.fixture(scope="module")
def lookups(tmp_path_factory):
    service = open_service(load_settings(env={}, store_dir=tmp_path_factory.mktemp("lookups"), llm_base_url=""))
    assert not [r.error for r in service.stores.ingestor.ingest([LOOKUPS], "lookups") if r.error]
    yield service
    service.close()


def _answer(service, question: str) -> str:
    content = turn(service, question, library_ids=("lookups",))["content"]
    assert content.startswith(OFFLINE_LABEL), content  # answered, not declined
    return content.split("**相关附件**")[0]


def test_a_head_count_and_a_turnover_pick_their_band_of_a_size_standard(lookups):
    answer = _answer(lookups, "我们公司有50个人，营业收入800万，算什么规模的企业？")
    assert "小型企业" in answer and "中型企业" not in answer and "微型企业" not in answer
    answer = _answer(lookups, "员工不到20人的企业算哪一类？")
    assert "微型企业" in answer and "小型企业" not in answer


def test_a_day_asked_by_its_place_is_that_row_of_the_schedule(lookups):
    answer = _answer(lookups, "青年教师培训第二天下午干什么？")
    assert "说课训练" in answer and "分组研讨" not in answer and "结业考核" not in answer
    answer = _answer(lookups, "最后一天上午安排了什么")  # the heading owns the rows: only the last day's is kept
    assert "微格教学实训" in answer and "示范课观摩" not in answer and "开班仪式" not in answer


def test_a_list_question_the_body_answers_is_not_answered_by_the_attachment_its_title_names(lookups):
    # 稳岗补贴 is 附件2 稳岗补贴标准's title, but 适用 is written only in 第二条: the body says which enterprises
    answer = _answer(lookups, "稳岗补贴适用于哪些企业？")
    assert "依法参加失业保险的企业" in answer and "每名参保职工补贴" not in answer


def test_a_kind_the_table_does_not_list_is_declined_not_answered_by_its_siblings_rows(lookups):
    content = turn(lookups, "大型企业每名职工补贴多少？", library_ids=("lookups",))["content"]
    assert "知识库中没有找到" in content and "500" not in content  # the 中型 row would be a wrong fact
