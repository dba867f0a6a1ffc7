"""A law's article asked by its number is read from its first line to the next article."""
from __future__ import annotations

from kb.answer.articles import asked_article
from kb.labels import ordinal_number
from kb.search.tokens import tokenize
from tests.unit.test_answer_reading import quoted, source

LAW = "\n\n".join([
    "第四条 本办法所称主管部门是市生态环境局。",
    "第五条 废弃物处置场所由主管部门会同有关部门划定，报市人民政府批准。",
    "处置场所划定后，应当向社会公布。",
    "第六条 需要处置废弃物的单位，应当事先提出申请，并提交下列材料：",
    "（一）申请书；",
    "（二）废弃物成分检验单。",
    "第十五条 因紧急避险处置废弃物的，应当在事后二十四小时内报告主管部门。",
    "第二十五条 违反本办法第十五条规定，未及时报告的，处二千元以下罚款。",
])


def test_an_article_asked_by_its_number_is_that_article_not_the_lines_citing_a_longer_number():
    sent = [source(1, LAW, doc_title="示范市废弃物处置管理办法")]
    assert quoted("示范市废弃物处置管理办法第五条讲什么？", sent) == [
        "第五条 废弃物处置场所由主管部门会同有关部门划定，报市人民政府批准。", "处置场所划定后，应当向社会公布。"]
    # its items come with it, and a number written in digits is the same article
    assert quoted("第6条规定了什么？", sent)[-1] == "（二）废弃物成分检验单。"
    # 第五条 is one word: 第十五条 and 第二十五条 do not hold it
    assert "第五条" in tokenize("第五条讲什么") and "五条" not in tokenize("第十五条 因紧急避险…")


def test_a_question_about_breaking_an_article_asks_for_the_article_that_punishes_it():
    assert asked_article("违反第十五条的怎么处罚？") is None
    assert asked_article("第十五条的内容是什么") == 15 and asked_article("第二十五条说的是啥") == 25
    answer = quoted("违反第十五条不报告怎么处罚？", [source(1, LAW, doc_title="示范市废弃物处置管理办法")])
    assert any("二千元以下罚款" in line for line in answer), answer


def test_a_number_that_is_no_numeral_asks_no_place_and_no_article():
    # 十十 is a typo, not a number: cn2an refuses it, and the question is read by its words instead of crashing
    sent = [source(1, "1．甲\n2．乙\n第十条 本办法自公布之日起施行。", doc_title="示范市废弃物处置管理办法")]
    assert asked_article("第十十条讲什么？") == 0
    assert "1．甲" not in quoted("第十十项是什么？", sent)  # no place: not the first item either
    assert quoted("第十十条讲什么？", sent) == ["第十条 本办法自公布之日起施行。"]


def test_a_malformed_chinese_numeral_in_a_label_is_kept_as_written_not_a_crash():
    # cn2an raises KeyError, not ValueError, on some malformed numerals; a document or a question may hold one
    assert "附件百百九十九" in tokenize("详见附件百百九十九") and ordinal_number("百百九十九") == 0
