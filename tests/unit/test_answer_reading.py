"""The offline answerer reads structure as a careful reader does: a list inside a paragraph, a heading that owns the
lines below it, an attachment the question names by its title, and the plan the question names by its cover."""
from __future__ import annotations

from pathlib import Path

import pytest

from kb.answer.offline import ExtractiveAnswerer
from kb.answer.question import examples
from kb.answer.units import read_units
from kb.turn import Source

CORPUS = Path(__file__).resolve().parents[2] / ".." / "shared" / "corpus"


def source(n: int, text: str, label: str = "", title: str = "", doc_id: str = "d1", doc_title: str = "风险评估指南",
           prefetched: bool = False) -> Source:
    return Source(n, doc_id, doc_title, "lib", label, title, text, ((0, len(text)),), (f"c{n}",), 1.0,
                  prefetched=prefetched)


def quoted(question: str, sources: list[Source], covers: dict | None = None) -> list[str]:
    return [c.text for c in ExtractiveAnswerer().select_parts(question, sources, "", covers)]


def test_a_list_written_inside_a_paragraph_is_quoted_item_by_item_after_its_lead_in():
    text = ("本指南适用于企业的环境风险评估。本指南不适用于下列情况的环境风险评估：1）涉及核设施的单位；"
            "2）从事危险化学品运输的车辆或单位；3）尾矿库；4）加油站、加气站；5）港口、码头。")
    answer = quoted("本指南不适用于哪些单位？", [source(1, text)])
    # every item of the lead-in answers, those that never say 单位 too (尾矿库, 加油站)
    assert answer[0] == "本指南不适用于下列情况的环境风险评估：", answer
    assert "4）加油站、加气站；" in answer and "3）尾矿库；" in answer, answer


def test_an_entry_is_read_under_the_heading_that_owns_it():
    text = "\n".join(["预案体系", "本单位应急预案体系包括综合预案、专项预案和现场处置方案。", "预案衔接",
                      "《甲市乙区生产安全事故应急预案》", "《丙丁酒店有限公司生产安全事故应急预案》"])
    answer = quoted("丙丁酒店的应急预案与哪个上级政府预案相衔接？",
                    [source(1, text, "附件3", "预案体系", doc_title="丙丁酒店生产安全事故应急预案")])
    assert answer[:2] == ["预案衔接", "《甲市乙区生产安全事故应急预案》"], answer


def test_a_category_heading_answers_with_the_paragraph_below_it():
    text = "\n".join(["矿产资源分类细目", "(一)能源矿产", "", "煤、煤成气、石煤、石油、天然气。", "", "(二)金属矿产",
                      "", "铁、锰、铬、钒、钛。"])
    answer = quoted("能源矿产包括哪些？", [source(1, text, "附件", "矿产资源分类细目", doc_title="矿产资源法实施细则")])
    # the heading owns one line: it is that line's label
    assert answer == ["能源矿产：煤、煤成气、石煤、石油、天然气。"], answer


def test_a_form_the_question_names_by_its_caption_answers_with_its_fields():
    text = "\n".join(["表1  某酒店有限公司生产安全事故报告单", "| 报告单位 |  | 报告编号 |  |",
                      "表2  某酒店有限公司应急状态启动令", "| 发布人 |  | 发布时间 | 年月日时分 |",
                      "| 传令人 |  | 传令时间 | 年月日时分 |", "| 受令部门： 受令人： 时间： |"])
    answer = quoted("酒店的应急状态启动令需要填写哪些栏目？",
                    [source(1, text, "附件6", "格式化文本", doc_title="某酒店生产安全事故应急预案")])
    # none of the fields is called 栏目: the caption the question writes out owns them
    assert answer and answer[0].endswith("应急状态启动令"), answer
    assert any("传令人" in line for line in answer) and any("受令部门" in line for line in answer), answer
    assert not any("报告单位" in line for line in answer), answer


def test_a_list_question_that_names_an_attachment_by_its_title_quotes_its_list_not_the_citing_article():
    body = "第十一条 废弃物根据其毒性、有害物质含量和对海洋环境的影响等因素，分为三类。其中第一类禁止倾倒。"
    annex = "\n".join(["附件1", "禁止倾倒的物质", "一、强放射性废弃物及其他强放射性物质。",
                       "二、原油及其废弃物、石油炼制品、残油。", "三、渔网、绳索、塑料制品。"])
    sources = [source(1, body, doc_title="海洋倾废管理条例"),
               source(2, annex, "附件1", "禁止倾倒的物质", doc_title="海洋倾废管理条例", prefetched=True)]
    answer = quoted("海洋倾废管理条例第十一条规定禁止倾倒的废弃物具体有哪些？", sources)
    assert "二、原油及其废弃物、石油炼制品、残油。" in answer and body not in answer, answer


def test_the_plan_a_question_names_by_its_cover_rules_out_its_template_twin():
    # both plans are titled alike; only their cover lines name the hotel
    rows = "| 序号 | 事故类型 | 风险等级 |\n| 1 | 火灾 | 较大风险 |\n| 2 | 触电 | 一般风险 |"
    twin = "| 序号 | 事故类型 | 风险等级 |\n| 1 | 爆炸 | 较大风险 |\n| 2 | 淹溺 | 低风险 |"
    sources = [source(1, twin, "附件2", "风险评估结果", "a", "甲酒店生产安全事故应急预案"),
               source(2, rows, "附件2", "风险评估结果", "b", "生产安全事故应急预案")]
    covers = {"a": "应急预案编号：01 甲酒店有限公司 甲酒店生产安全事故应急预案",
              "b": "应急预案编号：02 乙紫楹酒店有限公司 生产安全事故应急预案"}
    answer = quoted("乙紫楹酒店风险评估中被评为“较大风险”的事故类型有哪些？", sources, covers)
    assert any("火灾" in line for line in answer) and not any("爆炸" in line for line in answer), answer
    # the value the question quotes picks the rows: 触电 is rated 一般风险
    assert not any("触电" in line for line in answer), answer


def test_a_name_the_question_gives_keeps_the_titles_word_order():
    # 预案…应急物资 is the plan and then its supplies, not a plan called 预案中提到的应急… that the library lacks
    rows = "| 序号 | 应急物资 | 数量 |\n| 1 | 消火栓 | 118 |\n| 2 | 灭火器 | 360 |"
    sources = [source(1, rows, "附件4", "应急物资清单", "b", "生产安全事故应急预案")]
    covers = {"b": "丙丁酒店有限公司 生产安全事故应急预案"}
    answer = quoted("丙丁酒店预案中提到的应急物资配备明细，具体列了哪些物资？", sources, covers)
    assert any("灭火器" in line for line in answer), answer


@pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus is absent (real documents for development)")
def test_real_plan_headings_own_their_entries_and_a_guides_inline_list_reads_as_items():
    plan = (CORPUS / "zh_plan_ziyingtai_hotel_2024.txt").read_text(encoding="utf-8")
    section = plan[plan.rindex("附件3：预案体系与衔接"):plan.rindex("附件4：应急物资清单")]
    units = read_units(section)
    entry = next(u for u in units if u.text == "《西安市灞桥区生产安全事故应急预案》")
    assert entry.heading == "预案衔接"
    guide = (CORPUS / "zh_guide_qiye_tufa_huanjing_fengxian_pinggu_2014.md").read_text(encoding="utf-8")
    paragraph = next(line for line in guide.split("\n") if "本指南不适用于下列情况" in line)
    items = [u for u in read_units(paragraph) if u.lead == "本指南不适用于下列情况的环境风险评估："]
    assert [u.text for u in items][-2:] == ["8）加油站、加气站；", "9）港口、码头。"]


def test_where_the_question_says_to_look_weighs_less_than_what_it_asks_about():
    # 在…清单中 says where to look; a substance the list does not hold is not answered by a sentence about the list
    table = "| 序号 | 物质名称 | CAS号 | 临界量（吨） |\n| 1 | 甲醛 | 50-00-0 | 0.5 |\n| 2 | 苯 | 71-43-2 | 10 |"
    method = "计算涉及突发环境事件风险物质清单中环境风险物质数量与其临界量比值（Q）。"
    sources = [source(1, table, "附录B", "突发环境事件风险物质及临界量清单"), source(2, method, "附录A", "风险等级划分方法")]
    assert quoted("二噁英类物质在突发环境事件风险物质及临界量清单中的临界量是多少？", sources) == []
    answer = quoted("甲醛在突发环境事件风险物质及临界量清单中的临界量是多少？", sources)
    assert answer and "甲醛" in answer[0] and "0.5" in answer[0], answer


def test_a_sentence_that_points_to_an_attachment_is_answered_by_the_attachments_rows():
    body = "五、应急保障\n需要区级部门和有关单位支援时，按附件9所列电话联系。\n街道值班室24小时有人值守。"
    annex = "附件9\n区级部门和有关单位联系电话\n| 单位 | 电话 |\n| 区应急管理局 | 0571-86000001 |\n| 区水利局 | 0571-86000002 |"
    sources = [source(1, body, doc_title="南溪街道防汛应急预案"),
               Source(2, "d1", "南溪街道防汛应急预案", "lib", "附件9", "区级部门和有关单位联系电话", annex,
                      ((0, len(annex)),), ("c2",), 0.0, prefetched=True, via="按附件9")]
    for question in ("南溪街道需要区级部门和有关单位支援时打哪些电话？", "南溪街道需要区级部门支援时怎么联系？"):
        answer = quoted(question, sources)
        assert any("0571-86000001" in line for line in answer) and any("0571-86000002" in line for line in answer), \
            answer
        # the pointer is at most the lead-in, never the answer on its own
        pointer = "需要区级部门和有关单位支援时，按附件9所列电话联系。"
        assert pointer not in answer[1:], answer


def test_each_example_a_question_lists_is_looked_up_in_its_own_row():
    body = "进入现场的救援人员必须配备个人防护器具（如消防头盔、防毒面具、消防服、消防靴等）。"
    rows = "\n".join(["| 序号 | 应急物资 | 数量 | 存放地点 |", "| 1 | 灭火器 | 360 | 酒店内 |",
                      "| 2 | 消防服 | 5 | 一楼大厅 |", "| 3 | 消防头盔 | 5 | 二楼库房 |", "| 4 | 消防靴 | 5 | 一楼大厅 |"])
    sources = [source(1, body, doc_title="某酒店应急预案"), source(2, rows, "附件4", "应急物资清单", doc_title="某酒店应急预案")]
    question = "消防服、消防头盔、消防靴等消防员个人防护装备存放在哪里？"
    answer = [c.text for c in ExtractiveAnswerer().select_parts(question, sources, question)]
    assert any("消防头盔" in line and "二楼库房" in line for line in answer), answer
    assert any("消防服" in line and "一楼大厅" in line for line in answer) and body not in answer, answer


def test_captions_in_a_row_are_a_list_of_entries_not_headings():
    text = "\n".join(["附件6：格式文本", "表4  事故调查报告表", "表5  应急预案变更记录表", "表6  隐患整改回执单"])
    assert all(not u.heading for u in read_units(text))
    answer = quoted("应急预案附带的格式文本里有哪几种表？", [source(1, text, "附件6", "格式文本", doc_title="某酒店应急预案")])
    assert [line for line in answer if line.startswith("表")] == ["表4  事故调查报告表", "表5  应急预案变更记录表",
                                                                  "表6  隐患整改回执单"], answer


def test_a_formulas_variables_are_read_one_by_one_under_it():
    inline = ("污染雨水储存设施的容积可按下式计算：V=Fh/1000 式中： V——污染雨水储存容积（m3）；"
              "h——降雨深度，宜取15mm~30mm； F——污染区面积（m2）。")
    lines = "\n".join(["事故池容积按下式计算：", "V总=V1+V2-V3", "式中：", "V1——一个罐组的物料量，m3；",
                       "V2——发生事故的储罐的消防水量，m3；", "注：本式适用于化工企业。"])
    units = read_units(inline)
    assert [u.text for u in units if u.lead.endswith("式中：")] == [
        "V——污染雨水储存容积（m3）；", "h——降雨深度，宜取15mm~30mm；", "F——污染区面积（m2）。"]
    assert [u.text for u in read_units(lines) if u.lead == "式中："] == [
        "V1——一个罐组的物料量，m3；", "V2——发生事故的储罐的消防水量，m3；"]
    answer = quoted("计算污染雨水储存容积时，降雨深度宜取多少？", [source(1, inline, "附录C", "对照表")])
    assert answer and answer[-1] == "h——降雨深度，宜取15mm~30mm；", answer


def test_a_form_is_read_as_its_fields_and_a_blank_field_answers_no_question_about_its_value():
    text = "\n".join(["表1  某酒店有限公司生产安全事故报告单", "| 报告单位 |  | 报告编号 |  |",
                      "| 报告时间 | 年   月   日   时   分 | 收到时间 | 时分 |", "| 事故简要说明 |", "| 事故类型 |  |"])
    lines = [u.text for u in read_units(text)]
    assert lines[1:] == ["报告单位：；报告编号：", "报告时间：年   月   日   时   分；收到时间：时分", "事故简要说明",
                         "事故类型："], lines
    fields = quoted("酒店的事故报告单需要填写哪些信息？",
                    [source(1, text, "附件6", "格式化文本", doc_title="某酒店生产安全事故应急预案")])
    assert fields[0].endswith("事故报告单") and "报告单位：；报告编号：" in fields, fields
    agreement = "\n".join(["生产安全事故应急救援互救协议", "甲方：某酒店有限公司", "乙方：",
                           "1、乙方发生生产安全事故时，甲方应出动应急抢险人员支援乙方救援；", "甲方代表签字：      乙方代表签字："])
    agreed = [source(1, agreement, "附件8", "有关协议或备忘录", doc_title="某酒店生产安全事故应急预案")]
    assert quoted("某酒店互救协议的甲方是谁？", agreed)[0] == "甲方：某酒店有限公司"
    # the field for 乙方 was never filled in: the agreement does not say, whatever sentence speaks of 乙方
    assert quoted("某酒店互救协议的乙方是哪家单位？", agreed) == []
    assert quoted("某酒店互救协议的乙方代表是谁？", agreed) == []
    assert quoted("某酒店的互救协议乙方是谁？", agreed) == []  # the field the phrase ends in, without a 的 before it
    assert quoted("某酒店的互救协议甲方是谁？", agreed)[0] == "甲方：某酒店有限公司"


@pytest.mark.skipif(not CORPUS.is_dir(), reason="needs ../shared/corpus")
def test_a_table_written_out_on_one_line_is_read_back_into_rows_under_its_column_names():
    guide = (CORPUS / "zh_guide_qiye_tufa_huanjing_fengxian_pinggu_2014.md").read_text(encoding="utf-8")
    line = next(line for line in guide.split("\n") if line.startswith("突发环境事件风险物质及临界量清单 序号"))
    units = read_units(line)
    row = next(u for u in units if u.text.startswith("2 四氯化碳"))
    assert row.text == "2 四氯化碳 56-23-5 7.5" and "CAS 号" in row.header, row
    assert sum(1 for u in units if u.header == row.header) == 310  # every row of the list, and no more
    assert any("本表共规定了 310 种（类）" in u.text for u in units)  # the note below the table is read as sentences
    table = [source(1, line, "附录B", "突发环境事件风险物质及临界量清单", doc_title="企业突发环境事件风险评估指南")]
    assert quoted("四氯化碳的CAS号是多少？", table)[-1] == "2 四氯化碳 56-23-5 7.5"
    # a thing the list does not hold: no row answers, however well the question names the list
    assert quoted("二噁英类物质在突发环境事件风险物质及临界量清单中的临界量是多少？", table) == []


def test_the_word_that_names_the_kind_of_answer_is_no_word_the_answer_must_hold():
    text = "\n".join(["## 二、首部", "首部包括标题、司法建议书编号、被建议单位名称。", "## 三、主文", "主文写明问题和建议。"])
    answer = quoted("司法建议书的首部包括哪些内容？", [source(1, text, "附件1", "司法建议书格式", doc_title="司法建议规定")])
    assert "首部包括标题、司法建议书编号、被建议单位名称。" in answer, answer


def test_a_form_named_by_the_last_word_of_its_title_answers_past_the_questions_own_grammar():
    form = "\n".join(["某市粮食购销违法违规行为举报奖励审批表", "| 举报人姓名 |  | 举报人联系方式 |  |", "| --- | --- | --- | --- |",
                      "| 行政处罚金额 |  |  |  |", "| 奖励金额 |  |  |  |"])
    proxy = "\n".join(["本人因故无法亲自办理奖励资金领取，现委托他人为我办理领取手续。", "委托人（签字并盖手印）：",
                       "受托人（签字并盖手印）："])
    sources = [source(1, "委托他人代领的，受托人须同时持有举报人授权委托书和有效身份证明。", doc_title="某市举报奖励办法"),
               source(2, form, "附件1", "某市粮食购销违法违规行为举报奖励审批表", doc_title="某市举报奖励办法"),
               source(3, proxy, "附件4", "某市领取举报奖励资金授权委托书", doc_title="某市举报奖励办法")]
    # 审批表 names 附件1; 上要 (jieba's glue of 上 and 要) and 栏目 (the kind of answer) are no words an answer holds
    fields = quoted("举报奖励审批表上要填哪些栏目？", sources)
    assert "奖励金额：" in fields and "行政处罚金额：" in fields, fields
    # 签 is held inside 签字: the field that says how the 受托人 signs answers
    assert "受托人（签字并盖手印）：" in quoted("委托书上受托人要怎么签？", sources)


def test_a_joined_table_row_whose_edge_cells_are_empty_keeps_its_columns():
    """A .docx, PDF or spreadsheet row is its cells joined by ' | ': an empty last (or first) cell leaves the row
    ending (or starting) with '|', which in Markdown would be a border. Read as a border, the row lost a column,
    no longer matched its header and was read as a form (8 | 秦华天然气客服 | 029-96777 |  of a printed plan)."""
    joined = "\n".join(["附件5：有关应急部门、机构或人员的联系方式", "表2 外部应急通讯录", "序号 | 单位名称 | 联系电话 | 备注",
                        "7 | 西安市国家电网 | 029-95598 | 抢修单位",
                        "8 | 秦华天然气客服 | 029-96777 | ", " | 灞桥区燃气办 | 029-83510000 | "])
    rows = [u.text for u in read_units(joined) if u.header]
    assert rows == ["序号：7；单位名称：西安市国家电网；联系电话：029-95598；备注：抢修单位",
                    "序号：8；单位名称：秦华天然气客服；联系电话：029-96777", "单位名称：灞桥区燃气办；联系电话：029-83510000"]
    markdown = "\n".join(["| 序号 | 单位名称 | 联系电话 | 备注 |", "| 8 | 秦华天然气客服 | 029-96777 |  |"])
    assert [u.text for u in read_units(markdown) if u.header] == ["序号：8；单位名称：秦华天然气客服；联系电话：029-96777"]
    answer = quoted("酒店发生天然气泄漏需要联系燃气公司时，应拨打哪个电话？",
                    [source(1, joined, "附件5", "有关应急部门、机构或人员的联系方式",
                            doc_title="西安新兴紫楹台酒店有限公司生产安全事故应急预案")])
    assert "序号：8；单位名称：秦华天然气客服；联系电话：029-96777" in answer, answer


def test_a_list_that_opens_on_its_labels_line_is_quoted_whole():
    # a rule's list of attachments, its first entry on the 附件： line, the others below it (blank lines between)
    text = "\n\n".join(["本规范自2009年1月1日起施行。", "附件：1、查处酒后驾驶操作规程", "2、查处违反装载规定违法行为操作规程",
                        "3、查处超速行驶操作规程", "附件1：查处酒后驾驶操作规程"])
    answer = quoted("这个规范有哪些附件？", [source(1, text, doc_title="交通警察道路执勤执法工作规范")])
    assert answer == ["附件：1、查处酒后驾驶操作规程", "2、查处违反装载规定违法行为操作规程", "3、查处超速行驶操作规程"]
    # asked what is attached (附了什么), the list of attachments is the answer, though no line says 附
    assert quoted("规范后面附了什么材料？", [source(1, text, doc_title="交通警察道路执勤执法工作规范")]) == answer
    # asked how many, the list is the count
    assert quoted("附件有几个？", [source(1, text, doc_title="交通警察道路执勤执法工作规范")]) == answer
    duties = "主要职责：1、负责值班值守；\n2、负责信息报送；\n3、负责物资调配。\n二、工作要求"
    assert quoted("主要职责有哪些？", [source(1, duties)])[-1] == "3、负责物资调配。"


NOTICE = "\n".join(["关于开展2024年春季消防疏散演练的通知", "各年级、各处室：",
                    "为提高师生应急避险能力，经研究，决定开展春季消防疏散演练。现将有关事项通知如下：",
                    "一、演练时间", "2024年5月10日上午9:00", "二、演练地点", "学校东操场", "三、参加人员", "全体师生",
                    "四、演练内容", "模拟教学楼二层发生火灾，师生按疏散路线撤离至东操场集合。",
                    "五、联系人", "王老师，电话：0571-88886666"])


def test_a_heading_that_owns_one_line_is_read_as_that_lines_label():
    texts = [u.text for u in read_units(NOTICE)]
    assert "演练时间：2024年5月10日上午9:00" in texts, texts
    # the short unmarked line under a numbered heading is its content, not a heading of its own
    assert "演练地点：学校东操场" in texts and "学校东操场" not in texts, texts
    assert "二、演练地点" not in texts, texts


@pytest.mark.parametrize("question, expected", [
    ("演练时间是哪天？", "演练时间：2024年5月10日上午9:00"),
    ("演练地点在哪？", "演练地点：学校东操场"),
    ("谁参加演练？", "参加人员：全体师生"),
    ("联系人是谁？", "联系人：王老师，电话：0571-88886666"),
])
def test_the_value_on_the_line_below_a_heading_that_names_it_answers(question, expected):
    answer = quoted(question, [source(1, NOTICE, doc_title="关于开展2024年春季消防疏散演练的通知")])
    assert answer == [expected], answer


def test_a_heading_owning_more_than_one_line_still_heads_them():
    text = "\n".join(["二、演练地点", "学校东操场", "学校西操场", "三、参加人员", "全体师生"])
    texts = [u.text for u in read_units(text)]
    assert "演练地点：学校东操场" not in texts and "二、演练地点" in texts, texts


def test_a_list_ends_at_the_next_point_of_the_text():
    text = "\n".join(["三、报名方式", "参赛学生报名时须提交以下材料：", "1．学生证复印件；", "2．参赛作品一份；",
                      "3．指导教师推荐意见。", "四、比赛时间", "比赛定于2024年5月10日举行。"])
    answer = quoted("报名要提交哪些材料？", [source(1, text, doc_title="关于举办作文比赛的通知")])
    assert "3．指导教师推荐意见。" in answer and not any("比赛" in line for line in answer), answer


def test_things_named_one_by_one_and_asked_of_each_are_each_looked_up():
    rows = "\n".join(["| 序号 | 物资名称 | 数量 | 存放地点 |", "| --- | --- | --- | --- |", "| 1 | 消防服 | 10套 | 一楼消防控制室 |",
                      "| 2 | 消防头盔 | 10顶 | 一楼消防控制室 |", "| 3 | 灭火器 | 120具 | 各楼层 |"])
    sources = [source(1, rows, "附件4", "应急物资清单", doc_title="某酒店应急预案")]
    for question in ("消防服、头盔各有多少？", "消防服、头盔这些东西放在哪里？"):
        answer = quoted(question, sources)
        assert any("消防服" in line for line in answer) and any("消防头盔" in line for line in answer), answer
        assert not any("灭火器" in line for line in answer), answer


def test_each_level_is_no_list_of_things_asked_of_each():
    assert examples("消防服、头盔各有多少？") == ["消防服有多少？", "头盔有多少？"]
    assert examples("市、区各级部门有哪些职责？") == []  # 各级: every level, not each of 市 and 区


def test_a_list_question_whose_words_past_the_documents_name_are_an_attachments_title_quotes_that_list():
    # the body speaks of 物资 in passing; the attachment's title holds 物资 (and 防汛, the plan's word too)
    body = "\n".join(["每年汛前，街道完成抢险物资补充和队伍培训。", "街道财政安排防汛专项经费，保障物资储备。",
                      "抢险队伍所需物资从仓库领取。"])
    annex = "\n".join(["1．冲锋舟：3艘，存放于南湖仓库。", "2．救生衣：150件，存放于南湖仓库。", "3．编织袋：8000条，存放于南湖仓库。"])
    sources = [source(1, body, doc_title="南湖街道防汛应急预案"),
               source(2, annex, "附件4", "防汛抢险物资储备清单", doc_title="南湖街道防汛应急预案", prefetched=True)]
    assert quoted("南湖街道的防汛物资有哪些？", sources) == annex.split("\n")

