"""An attachment of several tables, each under its caption: the rows of the table the question names answer a
question for the items of the kind its column holds, not articles of the body that share the topic's words."""
from __future__ import annotations

from kb.answer.offline import ExtractiveAnswerer
from kb.answer.units import read_units
from kb.turn import Source

BODY = "\n".join([
    "第八条 合伙企业变更主要经营场所的，应当自作出变更决定之日起15日内申请变更登记。",
    "第九条 个人独资企业设立登记时，投资人应当对提交材料的真实性负责。",
    "第十条 登记机关应当将提交材料的目录公示（见附表）。",
])
TABLES = "\n".join([
    "附表：企业设立登记提交材料目录",
    "企业设立登记提交材料目录",
    "序号 | 材料名称 | 序号 | 材料名称",
    "1 | 设立登记申请书 | 2 | 投资人身份证明",
    "3 | 住所使用证明 | 4 | 经营场所租赁合同",
    "个人独资企业设立登记提交材料列表",
    "序号 | 材料名称 | 序号 | 材料名称",
    "1 | 投资人签署的设立申请书 | 2 | 投资人身份证明",
    "3 | 企业住所证明 | 4 | 出资方式说明",
    "合伙企业设立登记提交材料列表",
    "序号 | 材料名称 | 序号 | 材料名称",
    "1 | 全体合伙人签署的设立登记申请书 | 2 | 合伙协议",
    "3 | 主要经营场所使用证明 | 4 | 场所产权人同意书",
    "5 | 全体合伙人的身份证明 | 6 | 出资权属证明",
])


def source(n: int, label: str, title: str, text: str) -> Source:
    return Source(n, "d1", "企业登记办法", "lib", label, title, text, ((0, len(text)),), (f"c{n}",), 1.0)


SOURCES = [source(1, "", "", BODY), source(2, "附表", "企业设立登记提交材料目录", TABLES)]


def quoted(question: str) -> list[str]:
    return [c.text for c in ExtractiveAnswerer().select_parts(question, SOURCES)]


def test_a_line_between_two_tables_is_the_second_tables_caption_and_heads_its_rows():
    units = read_units(TABLES)
    row = next(u for u in units if "合伙协议" in u.text)
    assert row.heading == "合伙企业设立登记提交材料列表", row
    first = next(u for u in units if "经营场所租赁合同" in u.text)
    assert first.heading == "企业设立登记提交材料目录", first  # the first table under its caption too


def test_the_rows_of_the_table_the_question_names_answer_not_the_articles_on_its_topic():
    answer = quoted("合伙企业办设立登记时，场所方面要交哪些材料")
    assert answer[0] == "合伙企业设立登记提交材料列表", answer
    assert any("主要经营场所使用证明" in line for line in answer), answer
    assert not any(line.startswith("第") for line in answer), answer  # no article of the body
    assert not any("经营场所租赁合同" in line for line in answer), answer  # no row of another table


def test_another_table_is_asked_by_its_own_caption():
    answer = quoted("个人独资企业设立登记，住所方面要交哪些材料？")
    assert any("企业住所证明" in line for line in answer), answer
    assert not any("主要经营场所使用证明" in line for line in answer), answer


def test_the_information_a_report_asks_for_is_its_elements_column():
    from kb.answer.unit_match import names_column
    assert names_column("要素", "编号 要素名称 编号 要素名称")
    assert names_column("信息", "编号 要素名称 编号 要素名称")  # 要填哪些信息: the report's 要素
    assert names_column("材料", "序号 材料名称")
    assert not names_column("材料", "编号 要素名称") and not names_column("要素", "序号 单位名称 电话")


ELEMENTS = "\n".join([
    "附表：统计报告要素",
    "工业企业统计报告要素列表",
    "编号 | 要素名称 | 编号 | 要素名称",
    "1 | 企业名称 | 2 | 工业总产值",
    "3 | 能源消费量 | 4 | 填报人",
    "建筑企业统计报告要素列表",
    "编号 | 要素名称 | 编号 | 要素名称",
    "1 | 企业名称 | 2 | 施工面积",
    "3 | 项目负责人姓名 | 4 | 填报人",
])
ELEMENT_BODY = "第六条 建筑企业应当按月报送统计报告，项目负责人对报告内容的真实性负责。"


def test_whether_to_report_an_item_is_answered_by_its_row_in_the_table_the_question_names():
    given = [source(1, "", "", ELEMENT_BODY), source(2, "附表", "统计报告要素", ELEMENTS)]
    answer = [c.text for c in ExtractiveAnswerer().select_parts("建筑企业的统计报告需要填项目负责人信息吗？", given)]
    assert any("项目负责人姓名" in line for line in answer), answer
    assert not any(line.startswith("第六条") for line in answer), answer
    listed = [c.text for c in ExtractiveAnswerer().select_parts("工业企业统计报告要报哪些能源信息？", given)]
    assert any("能源消费量" in line for line in listed) and not any("施工面积" in line for line in listed), listed


def test_rows_of_the_tables_beside_the_one_the_question_names_are_dropped():
    from kb.answer.captions import in_named_table
    from kb.answer.shapes import Candidate

    law = source(1, "", "", BODY)
    day, night = "停车收费表一（日间停车适用）", "停车收费表二（夜间停车适用）"
    rows = [Candidate(law, "停放时长：超过2小时至6小时的部分；收费：3", 0.6, 3, True, heading=day),
            Candidate(law, "停放时长：超过2小时至6小时的部分；收费：6", 0.58, 8, True, heading=night),
            Candidate(law, "第五条 停车场按时段分档收费。", 0.5, 0)]
    weights = {"日间": 1.0, "停车": 1.0, "小时": 1.0, "收费": 1.0}
    units = [(law, 3, "", "停放时长 收费"), (law, 8, "", "停放时长 收费"), (law, 0, "", None)]
    kept = in_named_table(weights, rows, units)
    assert [c.position for c in kept] == [3, 0], kept  # the night table's row goes; the article is no row
    assert in_named_table({"停车": 1.0}, rows, units) == rows  # no caption named: all stay
