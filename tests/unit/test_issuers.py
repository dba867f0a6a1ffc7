"""Who issued a document: its letterhead or its signature block (kb/answer/issuers.py), on text written as notices are."""
from __future__ import annotations

from kb.answer.issuers import asks_issuer, issuer_answer, issuers, organs

JOINT = "\n\n".join([
    "青阳市应急管理局 青阳市财政局关于下达2025年度安全生产专项资金的通知",
    "发布时间:2025-03-02 09:10 信息来源:市应急局",
    "青阳市应急管理局  青阳市财政局",
    "关于下达2025年度安全生产专项资金的通知",
    "各县（区）应急管理局、财政局：",
    "根据《青阳市安全生产专项资金管理办法》，现将2025年度专项资金下达给你们，请按规定使用。",
    "青阳市应急管理局",
    "青阳市财政局",
    "2025年2月28日",
])
SIGNED_ONLY = "\n".join([
    "关于举办2025年校园安全知识竞赛的通知",
    "各学院：",
    "为提高师生安全意识，学校定于5月举办安全知识竞赛，报名由各学院团委负责。",
    "青阳职业技术学院保卫处",
    "青阳职业技术学院团委",
    "二〇二五年四月一日",
])


def test_a_question_about_who_issued_the_document_is_told_from_one_about_who_does_something_in_it():
    for asked in ("这份通知是哪几个单位联合发的？", "这个文件是哪个部门印发的", "由谁发布？", "发文单位是哪个？"):
        assert asks_issuer(asked), asked
    for other in ("哪个部门负责制定应急预案？", "谁负责报名？", "哪些单位要参加会议？", "报名表发给谁？"):
        assert not asks_issuer(other), other


def test_the_letterhead_names_the_issuers_before_the_sentences_that_mention_a_bureau():
    assert issuers(JOINT) == ["青阳市应急管理局 青阳市财政局"]  # the title's bodies before 关于, once
    assert organs("青阳市应急管理局  青阳市财政局") == ["青阳市应急管理局", "青阳市财政局"]
    assert organs("各县（区）应急管理局、财政局：") == []  # addressees, with a colon: not a line of names


def test_without_a_letterhead_the_signature_block_above_the_date_names_them():
    assert issuers(SIGNED_ONLY) == ["青阳职业技术学院保卫处", "青阳职业技术学院团委"]
    assert issuers("关于停水的通知\n明天停水。\n请相互转告。") == []


def test_the_answer_quotes_the_lines_with_their_source():
    answer = issuer_answer(["青阳市应急管理局 青阳市财政局"], 2)
    assert "- 青阳市应急管理局 青阳市财政局 [2]" in answer and "**相关附件**" in answer
