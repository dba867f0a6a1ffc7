"""A question that says in its own words what the document writes otherwise (选委 for 选举委员, 颜色 for 涂色) is
answered; one about what the document never speaks of (油漆, 工资) is still declined."""
from __future__ import annotations

import pytest

from kb.answer.offline import ExtractiveAnswerer
from kb.answer.rewording import kind_kept, said_otherwise, shortened, written_nowhere
from kb.turn import Source

# An election annex and a drawing specification in the form real laws attach them (附件一, 附件 with 说明)
ELECTION = "\n".join([
    "附件一：行政长官的产生办法",
    "一、行政长官由一个具有广泛代表性的选举委员会根据本法选出，由中央人民政府任命。",
    "二、选举委员会委员共800人，由下列各界人士组成：",
    "工商、金融界 200人",
    "专业界 200人",
    "选举委员会每届任期五年。",
    "四、不少于一百名的选举委员可联合提名行政长官候选人。每名委员只可提出一名候选人。",
])
COUNCIL = "\n".join([
    "附件二：立法会的产生办法和表决程序",
    "第二届",
    "功能团体选举的议员 30人",
    "选举委员会选举的议员 6人",
    "分区直接选举的议员 24人",
    "政府提出的法案，如获得出席会议的全体议员的过半数票，即为通过。",
])
EMBLEM = "\n".join([
    "中华人民共和国国徽图案制作说明",
    "一、 两把麦稻组成正圆形的环。齿轮安在下方麦稻杆的交叉点上。",
    "二、 从图案正中垂直画一直线，其左右两部分，完全对称。",
    "五、 国徽之涂色为金红二色：麦稻、五星、天安门、齿轮为金色，圆环内之底子及垂绶为红色。",
])


def _source(n: int, doc: str, label: str, title: str, text: str) -> Source:
    return Source(n, doc, doc, "lib", label, title, text, ((0, len(text)),), (f"c{n}",), 1.0)


LAW = [_source(1, "基本法", "附件1", "行政长官的产生办法", ELECTION),
       _source(2, "基本法", "附件2", "立法会的产生办法和表决程序", COUNCIL)]
EMBLEM_LAW = [_source(1, "国徽法", "附件", "中华人民共和国国徽图案", EMBLEM)]


def quoted(question: str, sources: list[Source]) -> list[str]:
    return [c.text for c in ExtractiveAnswerer().select_parts(question, sources)]


@pytest.mark.parametrize(("word", "text", "expected"), [
    ("选委", "不少于一百名的选举委员可联合提名", True),  # 选(举)委: one character skipped
    ("直选", "分区直接选举的议员 24人", True),
    ("环保", "依法加强环境保护工作", True),  # 环(境)保: one
    ("特首", "行政长官是香港特别行政区的首长", False),  # 特…首: five apart, one sentence but no phrase
    ("工资", "劳工、社会服务、宗教等界 200人", False),
])
def test_a_shortened_word_is_the_phrase_whose_characters_it_keeps_in_order_close_together(word, text, expected):
    assert shortened(word, text) is expected


def test_only_the_words_no_text_writes_whole_are_read_as_reworded():
    assert written_nowhere(["选委", "议员", "a1", "选"], ["选举委员会选举的议员"]) == {"选委"}


@pytest.mark.parametrize(("question", "line"), [
    ("候选人要多少选委联合提名？", "四、不少于一百名的选举委员可联合提名行政长官候选人。"),
    ("第二届立法会分区直选的议员有多少？", "分区直接选举的议员 24人"),
])
def test_a_question_that_shortens_the_documents_phrase_is_answered_by_it(question, line):
    assert line in quoted(question, LAW)


def test_a_word_written_nowhere_counts_as_the_share_of_its_characters_a_sentence_holds():
    # 颜色: the specification writes 涂色; no sentence holds 颜色 whole, so 色 of 涂色 is all a sentence can hold
    answer = quoted("国徽是什么颜色的？", EMBLEM_LAW)
    assert answer and answer[0].startswith("五、 国徽之涂色为金红二色"), answer


@pytest.mark.parametrize("question", ["国徽的金色涂料用的是什么型号的油漆？", "立法会议员每月工资多少钱？"])
def test_a_question_about_what_the_document_never_speaks_of_is_still_declined(question):
    assert quoted(question, EMBLEM_LAW + LAW) == []


@pytest.mark.parametrize(("word", "flag", "text", "expected"), [
    ("颜色", "n", "国徽之涂色为金红二色", True),
    ("颜色", "n", "颜料为红", False),  # 颜 is no noun's head
    ("处罚", "v", "由公安机关处以十五日以下拘留", True),  # a verb's either character carries the act
    ("发布", "v", "中央人民政府委员会办公厅公布", True),
    ("无人机", "n", "柴油发电机：2台", False),  # 机 alone is too little of a three-character word
    ("每天", "r", "每日至少收运一次", False),  # 每 is no head: 每天 and 每日 are not named for one kind by it
    ("不算", "v", "排放量按照下列方法和顺序计算", False),  # a negated verb is no act of its verb: 不算 is no 计算
])
def test_a_two_character_word_is_spoken_of_where_the_text_writes_its_head(word, flag, text, expected):
    assert kind_kept(word, text, flag) is expected


def test_of_a_word_cut_into_pieces_only_the_whole_word_is_read_as_reworded():
    assert written_nowhere(["无人", "人机", "无人机", "东岭"], ["6．柴油发电机：2台，存放于东岭仓库。"]) == {"无人机"}


NOTICE = "\n".join([
    "一、资助项目和范围",
    "1. 国家奖学金：每生每年8000元。我校二年级及以上特别优秀的全日制本科在校生。",
    "二、名额分配情况（见附件1）",
    "4. 9月28日组织各院（部）资助工作专员在致远楼424进行奖助学金填报系统的相关培训。",
])
AID = [_source(1, "奖助学金评审工作的通知", "", "", NOTICE)]


def test_a_colloquial_verb_and_the_unit_after_how_much_that_no_text_writes_weigh_nothing():
    assert said_otherwise("国家奖学金一年能拿多少钱？", [NOTICE]) >= {"拿", "钱"}
    assert "书" not in said_otherwise("国家奖学金发几本书？", [NOTICE])  # a thing the question names still counts
    answer = quoted("国家奖学金一年能拿多少钱？", AID)
    assert "1. 国家奖学金：每生每年8000元。" in answer, answer


def test_how_much_money_is_answered_by_an_amount_of_money_only():
    # 多少钱 asks for 元: the council's 60人 is a number, no amount; the document does not say what a chairman earns
    assert quoted("立法会议员每届多少钱？", LAW) == []
