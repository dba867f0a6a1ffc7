"""What a body says of the attachments it names but does not carry: their titles, and the sentences that defer to them."""
from __future__ import annotations

from kb.answer.dangling import dangling_titles, deferred_labels

# A notice's body as such notices are written: the attachments listed after 附件：, one named beside its label
BODY = "\n".join([
    "一、请各设点单位根据《AED安装点选点要求》（附件1）完善《2018年AED配置点信息情况汇总表》(附件2)，各栏均为必填项目。",
    "（4）完整填写的《公开招聘报名登记表》（见附件3）；",
    "附件：1.AED安装点选点要求",
    "　　　2.2018年AED配置点信息情况汇总表",
    "",
    "绍兴市红十字会",
])
# A list whose opener stands on a line of its own, each item a download link
LINKS = "报名方式：下载附件中的报名表。\n附件：\n1、《2017全国青少年宫体育舞蹈比赛报名表》点击下载\n2、《比赛组别、项目》点击下载"


def test_the_titles_of_attachments_the_body_names_and_does_not_carry():
    assert dangling_titles(BODY, {"附件1"}) == {"附件2": "2018年AED配置点信息情况汇总表", "附件3": "公开招聘报名登记表"}
    assert dangling_titles(LINKS, set()) == {"附件1": "2017全国青少年宫体育舞蹈比赛报名表", "附件2": "比赛组别、项目"}
    assert dangling_titles("绍兴市红十字会\n1.各单位要认真组织。", set()) == {}  # a numbered line, no list of attachments


def test_a_sentence_defers_to_the_attachment_it_sends_the_reader_to():
    assert deferred_labels("具体招聘岗位和资格条件详见附件1。") == ["附件1"]
    assert deferred_labels("（二）资格及岗位条件（详见附件1）") == ["附件1"]
    assert deferred_labels("请根据附件1完善附件2") == []  # names them, sends nobody there for the answer


def test_a_sentence_that_says_more_than_its_pointer_does_not_defer():
    sentence = "全国高职素质教育工作委员会定于2016年5月5-7日在江苏省常州市万达嘉华酒店（具体地址详见附件1）召开年会。"
    assert deferred_labels(sentence) == []
    # …unless the question asks for the detail the pointer names
    assert deferred_labels(sentence, "年会会场万达嘉华酒店的具体地址是哪里？") == ["附件1"]


def test_a_list_written_as_header_lines_names_what_the_body_does_not_carry():
    # 成都地铁 检三技[2017]第078号: the entries are header lines under the body, then the department and the date
    body = ("九、其他\n    各班组将学习记录填入附件1《检技通学习记录表》中。\n附件1：《检技通学习记录表》\n"
            "附件2：《7号线受电弓气阀箱电磁阀整改记录表》\n\n检修三车间技术组\n2017年10月20日\n")
    assert dangling_titles(body, {"附件1"}) == {"附件2": "7号线受电弓气阀箱电磁阀整改记录表"}
    # a list of tables is a list of 附表, and a 附图 named beside its label is a 附图
    tables = "附表：1.增加滤波元件记录表\n2.增加滤波元件统计表\n\n检修三车间技术组\n"
    assert dangling_titles(tables, set()) == {"附表1": "增加滤波元件记录表", "附表2": "增加滤波元件统计表"}
    assert dangling_titles("疏散路线按《厂区疏散路线图》（见附图2）执行。", set()) == {"附图2": "厂区疏散路线图"}


def test_a_question_that_asks_which_attachment_is_answered_by_the_pointer():
    # 见哪个附件 asks for the label: 见附件1 is the answer, carried or not
    assert deferred_labels("二、名额分配情况（见附件1）", "名额分配情况见哪个附件？") == []
    assert deferred_labels("三、评审程序（见附件2）", "评审程序在哪个附件里？") == []
    assert deferred_labels("三、评审程序（见附件2）", "评审程序有哪几步？") == ["附件2"]


def test_a_pointer_to_the_detail_the_question_asks_defers_though_its_sentence_gives_a_total():
    sentence = "本次夏令营面向全县各区的在校中学生，共招收60名营员（各区的营员名额分配表见附件1）。"
    assert deferred_labels(sentence, "夏令营每个区分到几个名额") == ["附件1"]  # 名额: only the pointer's clause writes it
    assert deferred_labels(sentence, "夏令营一共招收多少名营员") == []  # the sentence itself gives the total


def test_markdown_emphasis_does_not_hide_a_pointer():
    assert deferred_labels("具体课程安排详见**附件2**。") == ["附件2"]
