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


# A notice of a meeting: its agenda names the items, its list of attachments names the files that did not come
AGENDA = "\n".join([
    "关于召开2024年度安全生产工作会议的通知",
    "各部门：",
    "经研究，定于2024年3月15日上午9:00在公司三楼会议室召开2024年度安全生产工作会议。现将有关事项通知如下：",
    "一、会议议程",
    "1. 传达上级安全生产工作会议精神；",
    "2. 总结2023年度安全生产工作；",
    "3. 部署2024年度安全生产重点任务；",
    "4. 签订安全生产目标责任书。",
    "二、参会人员",
    "各部门负责人及安全员。",
    "三、其他事项",
    "请参会人员提前10分钟到场，会议材料见附件1。",
    "附件：1. 会议材料",
    "2. 参会回执",
])
AGENDA_TITLE = "关于召开2024年度安全生产工作会议的通知"


def test_asked_what_an_item_holds_the_line_that_only_names_it_does_not_answer():
    sources = [source(1, AGENDA, doc_title=AGENDA_TITLE)]
    assert quoted("安全生产目标责任书的内容是什么？", sources) == []  # 4. 签订安全生产目标责任书。
    assert quoted("2024年度安全生产重点任务具体有哪些？", sources) == []  # 3. 部署2024年度安全生产重点任务；
    assert quoted("参会回执要填哪些内容？", sources) == []  # 附件：… 2. 参会回执, a title
    # 会议材料见附件1, an attachment that did not come: the pointer is kept for kb/answer/gaps.py, which answers that
    # the document names 附件1 and does not carry it (tests/integration/test_notice_gaps.py), not a bare decline
    assert any("附件1" in q for q in quoted("会议材料里写了什么？", sources))
    # what the lines do say is answered
    assert any("三楼会议室" in q for q in quoted("会议在哪里开？", sources))
    assert any("负责人及安全员" in q for q in quoted("参会人员有哪些？", sources))
    assert any("目标责任书" in q for q in quoted("会上要签订安全生产目标责任书吗？", sources))  # yes or no


def test_naming_lines_are_told_from_lines_that_say_more():
    from kb.answer.unsaid import only_named
    assert only_named("安全生产目标责任书的内容是什么？", ["4. 签订安全生产目标责任书。"])
    assert not only_named("国家奖学金每年多少钱？", ["1. 国家奖学金：每生每年8000元。"])  # a number
    assert not only_named("谁负责本学院的评审工作？", ["1. 学院成立评审工作小组，由学院党委书记任组长，负责本学院的评审工作。"])
    assert not only_named("学校的意见是什么？", ["学校意见：经评审，同意该同学获得国家奖学金。"])  # the label's value
    assert not only_named("会议材料见哪个附件？", ["会议材料见附件1。"])  # the pointer answers which attachment


# An application form as an attachment carries it: fields with blanks to fill, boxes to tick, dates to write
FORM = "\n".join([
    "国家奖学金申请审批表",
    "姓名：＿＿＿＿  性别：＿＿  出生年月：＿＿年＿＿月",
    "学院：＿＿＿＿＿＿  专业：＿＿＿＿＿＿  学号：＿＿＿＿",
    "是否为建档立卡家庭学生：□是 □否",
    "申请理由（200字）：",
    "学校意见：  经评审，同意该同学获得国家奖学金。   （公章）  年 月 日",
])


def test_a_blank_field_gives_no_value_even_where_the_forms_title_matches():
    from kb.answer.forms import is_blank
    sources = [source(1, FORM, label="附件2", title="国家奖学金申请审批表", doc_title="关于国家奖学金评审的通知")]
    assert quoted("申请人的姓名是什么？", sources) == []
    assert any("同意该同学" in q for q in quoted("学校的意见是什么？", sources))
    assert is_blank("是否为建档立卡家庭学生：□是 □否") and not is_blank("是否为建档立卡家庭学生：是")


def test_a_pointer_to_an_attachment_that_never_came_is_left_to_the_gap_answer():
    notice = "\n".join([
        "关于公开招聘工作人员的公告",
        "一、招聘岗位",
        "具体招聘岗位和资格条件详见附件1。",
        "二、报名时间",
        "2024年5月6日至5月10日，每天8:30-17:30。",
    ])
    sources = [source(1, notice, doc_title="关于公开招聘工作人员的公告")]
    # the pointer is kept for kb/answer/gaps.py, which names the attachment the document does not carry
    assert any("详见附件1" in q for q in quoted("招聘岗位的资格条件是什么？", sources))
    assert any("附件1" in q for q in quoted("招聘岗位和资格条件见哪个附件？", sources))  # the pointer answers which


def test_a_line_goes_on_past_the_clause_that_holds_the_question_words():
    from kb.answer.unsaid import only_named
    # the clause after 情节较轻的 gives the penalty; the fields after 名称 give the number and the place
    assert not only_named("故意践踏国徽情节比较轻的怎么处罚？", ["情节较轻的，由公安机关处以十五日以下拘留。"])
    assert not only_named("医院有几辆负压救护车？", ["名称：负压救护车；数量：2辆；存放位置：急诊科车库"])
    # a list's lead-in ends in a colon, as a blank field does, and is none
    assert not only_named("国徽的图案能印在商业广告上吗？", ["第十三条 国徽及其图案不得用于：", "（一）商标、商业广告；"])
    assert not only_named("国徽的图案用于商业广告怎么处理？", ["第十三条 国徽及其图案不得用于：", "（一）商标、商业广告；"])


def test_an_office_or_a_website_is_where_a_reader_goes():
    where = "申请表交到哪里？"
    assert not unsaid_kinds(where, ["申请表经班级评议后，统一向学院资助办提交。"])
    assert not unsaid_kinds("在哪里申请？", ["学生登录河南省高校学生资助业务系统进行申请。"])
    assert unsaid_kinds(where, ["申请表须本人签字，字迹清楚。"])


def test_a_two_character_word_jieba_reads_as_a_place_is_no_name():
    law = [source(1, "四、渔网、绳索、塑料制品及其他能在海面漂浮的人工合成物质。", doc_title="海洋倾废管理条例")]
    assert unnamed("废弃的渔网和塑料制品可以倾倒入海吗？", law, {}) == []  # 入海: jieba's ns


def test_a_body_or_an_event_verb_is_no_place():
    where = "选举委员会投票在什么地点举行？"
    assert unsaid_kinds(where, ["选举办法及选举委员会选举议员的办法，由特别行政区政府提出并经立法会通过。"])


def test_a_place_named_generally_or_a_value_given_later_is_what_the_document_says():
    assert not unsaid_kinds("奖助结果在哪里公示？", ["并于9月23—27日将奖助结果在显要位置进行公示。"])
    assert not unsaid_kinds("培训的具体时间是什么时候？", ["（具体时间另行在资助群通知）"])
    # a list's lead names its items places
    assert not unsaid_kinds("国徽在哪里悬挂？", ["第五条 下列场所应当悬挂国徽：（一）北京天安门城楼、人民大会堂；"])


# A competition notice: a contact by name, where to send the form — no number to call, no mail address
CONTEST = "\n".join([
    "关于举办2024年全市青少年科技创新大赛的通知",
    "各区教育局、各直属学校：",
    "一、比赛时间：2024年5月18日上午9:00。",
    "二、比赛地点：市青少年宫三楼多功能厅。",
    "三、报名方式：各校于5月10日前将报名表发送至市教育局装备中心，联系人：王老师。",
    "四、咨询电话：0571-86503110（工作日），或发邮件至 kjds2024@hz.edu.cn。",
])


def test_a_number_to_call_or_an_address_is_known_by_its_shape_and_declined_when_no_line_writes_one():
    sent = [source(1, "\n".join(CONTEST.splitlines()[:5]), doc_title="关于举办2024年全市青少年科技创新大赛的通知")]
    assert quoted("王老师的电话是多少？", sent) == []  # the contact line names her, with no number
    assert quoted("报名表发到哪个邮箱？", sent) == []  # a centre to send it to, no mail address
    whole = [source(1, CONTEST, doc_title="关于举办2024年全市青少年科技创新大赛的通知")]
    assert any("0571-86503110" in q for q in quoted("比赛的咨询电话是多少？", whole))
    assert any("kjds2024@hz.edu.cn" in q for q in quoted("咨询邮箱是什么？", whole))
    assert unsaid_kinds("应急办的联系方式？", ["应急办设在区政府三楼。"])
    assert not unsaid_kinds("应急办的联系方式？", ["应急办：值班电话 84777777。"])
    assert not unsaid_kinds("着火了打什么号码？", ["发生火情立即拨打火警119。"])
    assert unsaid_kinds("报名费怎么交，打什么号码？", ["报名费每人100元，现场交纳。"])  # 100元 is no number to call
    # 电话 as the way something is done asks for no number; whether a form asks for an account asks no account
    assert not unsaid_kinds("发现事故后多长时间内要电话报告指挥部？", ["事发单位应在15分钟内电话报告指挥部办公室。"])
    assert not unsaid_kinds("可疑交易报告要填账户的开户时间吗？", ["账户信息：开户时间、销户时间。"])


def test_a_line_that_sends_the_reader_to_an_attachment_for_the_value_says_where_it_is():
    # the graph mode's hop brings 附件9; the line is what a reader quotes before opening it
    asked = "需要区级部门支援时打哪些电话？"
    assert not unsaid_kinds(asked, ["需要区级部门和有关单位支援时，按附件9所列电话联系。"])
    assert not unsaid_kinds("演练在哪里举行？", ["演练地点详见附件2。"])
    # an attachment named in another clause says nothing of the number
    assert unsaid_kinds(asked, ["报名表见附件1，支援单位须盖章。"])


def test_the_addressees_a_notice_opens_with_are_no_lead_in_of_its_points():
    whole = [source(1, CONTEST, doc_title="关于举办2024年全市青少年科技创新大赛的通知")]
    answer = quoted("比赛地点在哪？", whole)
    assert any("市青少年宫三楼多功能厅" in q for q in answer) and not any("各直属学校" in q for q in answer)


def test_a_letter_code_no_source_writes_is_not_spoken_of():
    catalogue = [source(1, "二、扩展服务\n(一)在线课程；\n(二)远程答疑。", doc_title="服务分类目录")]
    assert unnamed("服务分类目录里VPN服务的编号是什么", catalogue, {}) == ["VPN"]
    assert quoted("服务分类目录里VPN服务的编号是什么", catalogue) == []
    written = [source(1, "重症监护病房（ICU）每床配备呼吸机1台。", doc_title="病房设备配置标准")]
    assert unnamed("icu每床配几台呼吸机", written, {}) == []  # written in either case, it is spoken of
