"""The offline answerer's reading of a question against its sources, without stores: one rule a test."""
from __future__ import annotations

from kb.answer.offline import ExtractiveAnswerer
from kb.turn import Source

BODY = "\n".join([
    "第九条 领取奖励资金时，举报人须持本人有效身份证明。",
    "委托他人代领的，受托人须同时持有举报人授权委托书。",
    "附件：1．举报奖励审批表",
    "2．举报奖励资金授权委托书",
])
FORM = "\n".join([
    "附件2",
    "举报奖励资金授权委托书",
    "本人因故无法亲自办理奖励资金领取，现委托 为我办理有关奖励资金领取手续。",
    "注：此文书一式4份，委托人、受托人、财务、存档各1份。",
])


def source(n: int, label: str, title: str, text: str) -> Source:
    return Source(n, "d1", "举报奖励实施细则", "lib", label, title, text, ((0, len(text)),), (f"c{n}",), 1.0)


SOURCES = [source(1, "", "", BODY), source(2, "附件2", "举报奖励资金授权委托书", FORM)]


def quoted(question: str) -> list[str]:
    return [c.text for c in ExtractiveAnswerer().select_parts(question, SOURCES)]


def test_a_line_of_the_attachment_list_is_no_answer_to_a_question_about_people():
    # 谁 asks for people, not for what an attachment is called: the list line names the form, it does not answer
    answer = quoted("举报奖励资金授权委托书一式几份，分别给谁？")
    assert answer and all("2．举报奖励资金授权委托书" != line for line in answer), answer
    assert any("一式4份" in line for line in answer), answer


def test_the_attachment_list_answers_a_question_about_what_is_attached():
    answer = quoted("举报奖励实施细则附了哪些表和委托书？")
    assert any("授权委托书" in line for line in answer), answer


FLAG = "\n".join([
    "为便利计，本件仅以旗杆在左之一面为说明之标准。",
    "对于旗杆在右之一面，凡本件所称左均应改右，所称右均应改左。",
    "旗面为红色，长方形。旗杆套为白色。",
])


def test_a_word_the_question_writes_beside_another_counts_where_the_text_writes_them_together():
    # the question writes 旗杆套 (jieba: 旗杆/套), the text 旗杆套为 (jieba: 旗杆/套为): 套 is there all the same
    sources = [Source(1, "d2", "国旗制法说明", "lib", "附件", "国旗制法说明", FLAG, ((0, len(FLAG)),), ("c9",), 1.0)]
    answer = [c.text for c in ExtractiveAnswerer().select_parts("国旗的旗杆套是什么颜色？", sources)]
    assert answer and answer[0] == "旗杆套为白色。", answer


CODES = "\n".join([
    "名称 | 单位 | 代号",
    "--- | --- | ---",
    *(f"{name} | {unit} | 0x{n:04X}" for n, (name, unit) in enumerate(
        [("电能", "kWh"), ("热流量", "GJ/h"), ("质量流量", "t/h"), ("体积流量", "m3/h"), ("温度", "℃"), ("压力", "MPa"),
         ("电流", "A"), ("电压", "V")], start=20)),
])


def test_a_code_the_question_gives_finds_its_row():
    # 0x001A is one row's code: the row answers though it holds few of the question's other words
    sources = [Source(1, "d3", "能源计量仪表通用数据接口技术协议", "lib", "附录A", "计量单位代码表", CODES,
                      ((0, len(CODES)),), ("c7",), 1.0)]
    answer = [c.text for c in ExtractiveAnswerer().select_parts("能源计量仪表接口协议中，代号0x001A对应哪种物理量的单位？", sources)]
    assert answer and "电流" in answer[0], answer


CONTRACT = "\n".join([
    "9、委托代理报酬的收取",
    "9.1由委托人支付代理报酬的，在本合同签订后10日内，委托人应向受托人支付不少于全部代理报酬20％的代理预付款。",
    "9.2医院现有医生120名，其中主任医师8名。",
])


def test_a_word_jieba_makes_up_from_the_questions_characters_asks_for_nothing():
    # 多少日内要付 is cut 多少/日/内要/付: no source writes 内要, and no dictionary holds it
    sources = [Source(1, "d4", "招标代理合同", "lib", "", "", CONTRACT, ((0, len(CONTRACT)),), ("c5",), 1.0)]
    answer = [c.text for c in ExtractiveAnswerer().select_parts("招标代理合同签订后多少日内要付预付款？", sources)]
    # the clause is quoted under its heading (9、委托代理报酬的收取), which owns it
    assert answer and "10日内" in answer[-1] and answer[0] == "9、委托代理报酬的收取", answer
    # a dictionary word that no source writes still asks for something the knowledge base lacks
    assert ExtractiveAnswerer().select_parts("医院有多少名在编医生？", sources) == []


CONTACTS = "\n".join([
    "附1: 应急行动工作领导小组联络方式",
    "朱雯 17757550666 陈银伟 18906858010",
    "陈柏良 13357570708 俞建种 18906858199",
])
PLAN = "二、领导小组\n组 长：朱雯\n副组长：陈银伟、陈柏良、俞建种\n气象灾害红色预警信号发出后，领导小组全体成员必须到校待命。"


def plan_sources() -> list[Source]:
    title = "青禾县第一中学极端天气应急行动预案"
    return [Source(1, "d5", title, "lib", "", "", PLAN, ((0, len(PLAN)),), ("c1",), 1.0),
            Source(2, "d5", title, "lib", "附件1", "应急行动工作领导小组联络方式", CONTACTS,
                   ((0, len(CONTACTS)),), ("c2",), 0.9)]


def test_a_contact_line_answers_for_the_person_the_question_names_whatever_role_it_gives():
    # 组长朱雯的联系电话: the list writes the name and the number, not the role, nor the 联系 of 联系电话
    answer = [c.text for c in ExtractiveAnswerer().select_parts(
        "青禾县第一中学极端天气应急行动预案中，领导小组组长朱雯的联系电话是多少？", plan_sources())]
    assert answer and "17757550666" in answer[0], answer


def test_a_document_named_by_its_short_name_is_not_taken_for_another():
    # 青禾一中 is how a reader shortens 青禾县第一中学: the question names this plan, not one the library lacks
    answer = [c.text for c in ExtractiveAnswerer().select_parts(
        "青禾一中极端天气应急行动预案里，副组长陈柏良的手机号是多少？", plan_sources())]
    assert answer and "13357570708" in answer[0], answer
    assert not ExtractiveAnswerer().select_parts("青禾一中地震应急预案里，副组长陈柏良的手机号是多少？", plan_sources())


def test_a_line_labelled_for_the_field_asked_gives_its_value_over_one_that_only_names_the_field():
    body = "\n".join(["报警时应讲清三要素：", "①讲清事故单位和详细地址。", "②讲清事故类型和受伤人数。"])
    profile = "\n".join(["附件1：单位概况", "本馆建于1998年，馆内设有三个展厅。", "本馆地址：青河县滨湖路88号。"])
    sources = [Source(1, "m1", "青河县博物馆应急预案", "lib", "", "", body, ((0, len(body)),), ("c1",), 1.0),
               Source(2, "m1", "青河县博物馆应急预案", "lib", "附件1", "单位概况", profile, ((0, len(profile)),),
                      ("c2",), 1.0)]
    answer = [c.text for c in ExtractiveAnswerer().select_parts("青河县博物馆的详细地址是什么？", sources)]
    assert answer and answer[0] == "本馆地址：青河县滨湖路88号。", answer


def test_a_table_row_speaks_of_what_its_caption_names():
    # 外部 is written once, in the caption: every row of that table is an outside contact, none of the inner one
    body = "发生火灾时，值班人员应立即请求外部救援。"
    contacts = "\n".join(["附件3：联系方式", "表1  内部通讯录", "| 姓名 | 职务 | 电话 |", "| 王明 | 站长 | 1301 |", "",
                          "表2  外部应急通讯录", "| 单位 | 联系电话 | 备注 |", "| 急救中心 | 120 | 社会救援单位 |",
                          "| 火警 | 119 |  |"])
    sources = [Source(1, "s1", "河西加油站应急预案", "lib", "", "", body, ((0, len(body)),), ("c1",), 1.0),
               Source(2, "s1", "河西加油站应急预案", "lib", "附件3", "联系方式", contacts, ((0, len(contacts)),),
                      ("c2",), 1.0)]
    answer = " ".join(c.text for c in ExtractiveAnswerer().select_parts("加油站发生火灾后应拨打哪些外部救援电话？", sources))
    assert "急救中心" in answer and "王明" not in answer, answer


def test_a_code_asked_by_the_asker_word_for_it_is_the_row_under_the_column_that_holds_codes():
    # 编码 names the value itself, as 电话 or 数量 do: the table writes the codes under 报警类型, never saying 编码
    table = "\n".join(["附录B：报警类型定义", "| 序号 | 报警类型 | 报警类型名称 |", "| 1 | 0x21 | 火警 |",
                       "| 2 | 0x22 | 水浸 |", "| 3 | 0x23 | 门禁 |"])
    sources = [Source(1, "b1", "机房监控接口规范", "lib", "附录B", "报警类型定义", table, ((0, len(table)),), ("c1",), 1.0)]
    answer = [c.text for c in ExtractiveAnswerer().select_parts("水浸的报警类型编码是多少？", sources)]
    assert answer and "0x22" in answer[0], answer



def test_the_asker_words_for_a_value_are_no_thing_a_row_must_write():
    # 字段/取值/编码 name the value asked, as 电话 does: a bit table writes 道闸位置 and its values, never 字段
    from kb.answer.question import asked_for
    assert asked_for("门禁位置字段的取值是多少？")[0] == [{"门禁", "位置"}]
    assert asked_for("水浸的报警类型编码是多少？")[0] == [{"报警", "类型"}]
