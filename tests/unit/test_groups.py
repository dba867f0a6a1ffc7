"""A list question names a group the attachment lists while the body's articles only regulate it: the answer is the
attachment's group — a table's rows by their column value, a catalogue heading's entries (kb/answer/groups.py)."""
from __future__ import annotations

from kb.answer.offline import ExtractiveAnswerer
from kb.turn import Source

LAW = "\n".join([
    "第八条 生产第三类危险物品的，应当自生产之日起30日内报所在地公安机关备案。",
    "第九条 运输第三类危险物品的，由运出地的县级公安机关审批。",
    "第十条 个人不得购买第一类、第三类危险物品。",
    "第十一条 第三类危险物品的销售情况，应当自销售之日起30日内报当地公安机关备案。",
])
TABLE = "\n".join([
    "附表", "危险物品的分类和品种目录",
    "| 类别 | 序号 | 品种 |", "|---|---|---|",
    "| 第一类 | 1 | 氰化钠 |", "| 第一类 | 2 | 黄磷 |",
    "| 第三类 | 1 | 甲苯 |", "| 第三类 | 2 | 丙酮 |", "| 第三类 | 3 | 硫酸 |",
])
RULES = "\n".join([
    "第五条 服务分为基本服务和扩展服务。",
    "服务分类的具体划分在本办法所附的《服务分类目录》中列出。",
    "第六条 提供扩展服务，应当具备下列条件：",
    "(一)有相应的专业人员；",
    "(二)有与服务相适应的场地。",
    "第七条 申请提供扩展服务的，应当向市教育局提出申请。",
])
CATALOGUE = "\n".join([
    "附：", "服务分类目录",
    "一、基本服务", "(一)课堂教学；", "(二)课后辅导。",
    "二、扩展服务", "(一)在线课程；", "(二)远程答疑；", "(三)学习档案。",
])


def source(n: int, doc: str, label: str, title: str, text: str) -> Source:
    return Source(n, doc, {"d1": "危险物品管理条例", "d2": "课后服务管理办法"}[doc], "lib", label, title, text,
                  ((0, len(text)),), (f"c{n}",), 1.0)


def quoted(question: str, sources: list[Source]) -> list[str]:
    return [c.text for c in ExtractiveAnswerer().select_parts(question, sources)]


def test_a_class_asked_for_is_the_table_rows_of_that_class_not_the_articles_regulating_it():
    sources = [source(1, "d1", "", "", LAW), source(2, "d1", "附表", "危险物品的分类和品种目录", TABLE)]
    lines = quoted("第三类危险物品都包括什么", sources)
    assert [line for line in lines if "品种" in line] == [
        "类别：第三类；序号：1；品种：甲苯", "类别：第三类；序号：2；品种：丙酮", "类别：第三类；序号：3；品种：硫酸"]
    assert not any("备案" in line or "审批" in line for line in lines)


def test_a_catalogue_heading_asked_for_gives_its_entries_the_body_points_to_it_by_title():
    sources = [source(1, "d2", "", "", RULES), source(2, "d2", "附件", "服务分类目录", CATALOGUE)]
    assert quoted("扩展服务具体有哪几种", sources) == [
        "二、扩展服务", "(一)在线课程；", "(二)远程答疑；", "(三)学习档案。"]


def test_a_list_the_body_itself_holds_is_still_the_answer():
    sources = [source(1, "d2", "", "", RULES), source(2, "d2", "附件", "服务分类目录", CATALOGUE)]
    lines = quoted("提供扩展服务应当具备哪些条件", sources)
    assert "(一)有相应的专业人员；" in lines and "(一)在线课程；" not in lines


def test_a_heading_that_names_more_than_the_question_is_no_group_it_asks_for():
    sources = [source(1, "d1", "", "", LAW), source(2, "d1", "附表", "危险物品的分类和品种目录", TABLE)]
    assert not any("品种：" in line for line in quoted("第三类危险物品运输由谁审批", sources))


RULE = "\n".join([
    "第六条 对实习期的学生，实习单位不得安排夜班工作。",
    "第七条 对未满18周岁的学生，实习单位不得安排加班工作。",
])
APPENDIX = "\n".join([
    "学生禁止从事的工作范围",
    "一、学生禁止从事的工作范围：", "(一)矿山井下作业；", "(二)高处作业。",
    "二、学生在考试期禁止从事的工作范围：", "(一)长途出差；", "(二)夜间值班。",
])


def test_a_case_the_articles_do_not_speak_of_is_the_lead_in_that_names_it_with_its_items():
    sources = [Source(1, "d3", "学生实习管理规定", "lib", "", "", RULE, ((0, len(RULE)),), ("c1",), 1.0),
               Source(2, "d3", "学生实习管理规定", "lib", "附录", "学生禁止从事的工作范围", APPENDIX,
                      ((0, len(APPENDIX)),), ("c2",), 1.0)]
    assert quoted("学生考试期的时候哪些工作不能安排", sources) == [
        "二、学生在考试期禁止从事的工作范围：", "(一)长途出差；", "(二)夜间值班。"]
