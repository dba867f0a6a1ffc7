"""Body facts of laws asked in everyday words, through the whole pipeline over real Kuzu and Chroma: the laws of
../shared/corpus and 职工带薪年休假条例 (tests/files/laws/, a real regulation: laws are outside copyright)."""
from __future__ import annotations

import shutil

import pytest

from kb.service import open_service
from kb.settings import load_settings
from kb.turn import TurnRequest
from tests.conftest import ROOT, SHARED_CORPUS

LAWS = ["zh_law_huanjing_baohushui_fa_empty_tables.md", "zh_reg_yinhuashui_zanxing_tiaoli_empty_table.md",
        "zh_reg_zhongcai_shoufei_banfa_1995.md", "zh_reg_haiyang_qingfei_guanli_tiaoli.md",
        "zh_rule_jiashizheng_shenling_2021_dangling_refs.md", "zh_rule_jiaojing_daolu_zhiqin_zhifa_guifan.md"]


@pytest.fixture(scope="module")
def laws(tmp_path_factory):
    if not SHARED_CORPUS.is_dir():
        pytest.skip(f"{SHARED_CORPUS} is absent (a fresh clone has no ../shared/corpus)")
    folder = tmp_path_factory.mktemp("laws")
    for name in LAWS:
        shutil.copy(SHARED_CORPUS / name, folder / name)
    shutil.copy(ROOT / "tests" / "files" / "laws" / "职工带薪年休假条例.md", folder / "职工带薪年休假条例.md")
    svc = open_service(load_settings(env={}, store_dir=tmp_path_factory.mktemp("store")))
    assert not [r.error for r in svc.stores.ingestor.ingest([folder], "laws") if r.error]
    yield svc
    svc.close()


def _ask(service, *turns: str) -> str:
    """The last turn's answer (without the appended attachment block), asked after the others in one conversation."""
    conversation = None
    for question in turns:
        events = list(service.pipeline.run(TurnRequest(question, conversation_id=conversation)))
        conversation = next(e.data["conversation_id"] for e in events if e.type == "conversation_id")
    answer = "".join(e.data["text"] for e in events if e.type == "content")
    return answer.split("**相关附件**")[0]


@pytest.mark.parametrize("question, date", [
    ("环境保护税法什么时候开始实施？", "2018年1月1日"),  # the law says 施行
    ("环保税法是从哪天起生效的？", "2018年1月1日"),
    ("仲裁收费办法从什么时候开始执行？", "1995年9月1日"),
    ("印花税暂行条例哪天开始实施的？", "1988年10月1日"),
    ("交警道路执勤执法工作规范什么时候开始施行？", "2009年1月1"),  # the rule says 实施
    ("年休假条例啥时候生效？", "2008年1月1日"),
])
def test_when_a_law_comes_into_force_however_it_is_asked(laws, question, date):
    answer = _ask(laws, question)
    assert date in answer, answer


def test_an_articles_items_come_with_their_lead_in(laws):
    answer = _ask(laws, "哪些情况不算直接向环境排放污染物？")
    assert "有下列情形之一的，不属于直接向环境排放污染物" in answer  # the lead-in says what the items are
    assert "污水集中处理" in answer and "贮存或者处置固体废物" in answer  # both items, one chunk apart before
    answer = _ask(laws, "哪些情形暂时免征环境保护税？")
    assert "暂予免征环境保护税" in answer and "农业生产" in answer and "流动污染源" in answer
    answer = _ask(laws, "伪造废弃物检验单会被怎么处罚？")
    assert "处以警告或人民币2000元以下的罚款" in answer and "伪造废弃物检验单" in answer  # the item under its lead


def test_everyday_words_find_the_laws_terms(laws):
    assert "六年、十年和长期" in _ask(laws, "驾照的有效期分几种？")
    assert "补考一次" in _ask(laws, "科目一没考过能补考几次？")
    assert "免纳印花税" in _ask(laws, "印花税算下来不到一角钱还要交吗？")  # 不足1角 and 免纳
    assert "九十日以上" in _ask(laws, "拿境外驾照的人，在发证国家一年里住了三个多月，能申请国内驾照吗？")


def test_a_tier_rule_is_looked_up_by_the_amount_given(laws):
    answer = _ask(laws, "我工作了12年，每年能休几天年假？")
    assert "已满10年不满20年的，年休假10天" in answer
    assert "年休假5天" not in answer and "年休假15天" not in answer  # the rows of other brackets
    # the follow-up is read with the earlier amount still in it (工作了25年我工作了12年…: kb/answer/followup.py), so
    # both rows answer; the one of 25 years is there, and the first row is not
    answer = _ask(laws, "我工作了12年，每年能休几天年假？", "那工作了25年呢？")
    assert "已满20年的，年休假15天" in answer and "年休假5天" not in answer


def test_a_range_said_in_wan_is_answered_by_its_own_tier(laws):
    answer = _ask(laws, "仲裁收费办法里，争议金额50万到100万那档按多少比例交？")
    assert "500001元至1000000元的部分" in answer and "按0.5%－1%交纳" in answer, answer
    assert "200001元至500000元" not in answer and "1000001元以上" not in answer, answer  # the neighbouring tiers


def test_a_value_of_a_table_the_law_cites_but_lost_names_that_table(laws):
    answer = _ask(laws, "借款合同的印花税税率是多少？")
    # the sentence that sends the reader to the table, then which table and that it came empty
    assert "依照本条例所附《印花税税目税率表》执行" in answer and "“印花税税目税率表”在知识库中只有标题" in answer, answer
    answer = _ask(laws, "印花税的税目税率表里有哪些税目？")  # the table named with 的 between its words
    assert "“印花税税目税率表”在知识库中只有标题" in answer and "续表" not in answer, answer


def test_a_follow_up_reads_the_question_it_continues(laws):
    answer = _ask(laws, "科目一考多少分算及格？", "年休假条例什么时候开始实施？", "仲裁收费办法呢？")
    assert "1995年9月1日" in answer, answer
