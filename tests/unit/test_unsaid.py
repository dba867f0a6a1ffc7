"""A careful reader declines when the lines that match give none of what is asked (kb/answer/unsaid.py)."""
from __future__ import annotations

from kb.answer.unsaid import unnamed, unsaid_kinds
from tests.unit.test_answer_reading import quoted, source

# A university notice, written as such notices are: dated steps, a training at a room, the amounts of each award
NOTICE = "\n".join([
    "关于做好2024年本科生国家奖助学金评审工作的通知",
    "各学院：",
    "一、奖助标准",
    "1. 国家奖学金：每生每年8000元。",
    "2. 国家助学金：分三个档次，一等4000元，二等3300元，三等2600元。",
    "二、评审程序",
    "1. 学院成立评审工作小组，由学院党委书记任组长，负责本学院的评审工作。",
    "2. 9月28日组织各学院资助工作专员在致远楼424进行填报系统的相关培训。",
    "3. 通过评审的学生须经学校公示，公示期不少于五个工作日。",
    "三、其他要求",
    "评审工作小组按照公开、公平、公正的原则开展评审，评审结果经集体研究确定。",
])
TITLE = "关于做好2024年本科生国家奖助学金评审工作的通知"
# An ordinance's articles: who elects, how they vote — nowhere where or in which year
LAW = "\n".join([
    "第三条 行政长官由选举委员会选出，由中央人民政府任命。",
    "第四条 选举委员会根据提名的名单，经一人一票无记名投票选出行政长官候任人。",
    "第五条 选举委员以个人身份投票。",
])


def test_a_where_question_is_declined_when_the_lines_that_match_give_no_place():
    sources = [source(1, LAW, doc_title="行政长官选举条例")]
    assert quoted("选举委员会投票在什么地点举行？", sources) == []
    # the same lines answer what they do say
    assert any("无记名投票" in q for q in quoted("选举委员会怎样投票选出行政长官候任人？", sources))


def test_a_place_or_a_time_written_unlabelled_is_given():
    sources = [source(1, NOTICE, doc_title=TITLE)]
    assert any("致远楼424" in q for q in quoted("填报系统的培训在哪个地方？", sources))
    assert any("9月28日" in q for q in quoted("填报系统的培训什么时候进行？", sources))
    place = "选举委员会投票在什么地点举行？"
    assert not unsaid_kinds(place, ["1．冲锋舟：3艘，存放于东岭仓库。"])
    assert not unsaid_kinds(place, ["住院部A楼氧气总阀位于一层北侧设备间。"])
    assert unsaid_kinds(place, ["选举委员以个人身份投票。"])
    when = "互助协议有效期到什么时候？"
    assert not unsaid_kinds(when, ["有效期自2023年3月至2026年3月。"])
    assert not unsaid_kinds(when, ["发生重大突发事件时，立即启动一级响应。"])
    assert unsaid_kinds(when, ["评审工作小组按照公开、公平、公正的原则开展评审。"])


def test_a_question_about_a_condition_or_an_attachment_asks_no_place():
    # 在哪些情况下 asks a condition; 在哪个附件 the attachment, which the pointer names
    assert not unsaid_kinds("应急预案在哪些情况下启动？", ["出现下列情形之一的，启动本预案："])
    assert not unsaid_kinds("岗位条件在哪个附件里？", ["具体招聘岗位和资格条件详见附件1。"])
    assert not unsaid_kinds("学院评审小组由谁任组长？", ["由学院党委书记任组长"])  # no where/when asked


def test_a_year_or_a_name_no_source_writes_is_not_spoken_of():
    law = [source(1, LAW, doc_title="行政长官选举条例")]
    assert unnamed("2022年选举委员会有多少人投票？", law, {}) == ["2022年"]
    assert quoted("2022年选举委员会有多少人投票？", law) == []
    notice = [source(1, NOTICE, doc_title=TITLE)]
    assert "文学院" in unnamed("文学院分到几个国家奖学金名额？", notice, {})
    assert quoted("文学院分到几个国家奖学金名额？", notice) == []
    # the year the title writes, and a name the reader shortens from the title, are spoken of
    assert unnamed("2024年国家奖学金每生每年多少钱？", notice, {}) == []
    assert any("8000元" in q for q in quoted("2024年国家奖学金每生每年多少钱？", notice))
    flag = [source(1, "第一条 国徽是国家的象征和标志。", doc_title="中华人民共和国国徽法")]
    assert unnamed("中国国徽是什么的象征？", flag, {}) == []


def test_how_to_handle_asks_no_place():
    # 如何处理 holds 何处 by its characters: it asks what is done, not where
    assert not unsaid_kinds("擅自用公路运输剧毒化学品的，交警如何处理？", ["应当扣留运输车辆，调查取证，依法实施处罚。"])
