"""Tables of labels and their values (项目编号 | SZ-2025-0371), in Markdown, a real .docx and an HTML page, ingested
into real Kuzu and Chroma and asked with the offline answerer: each row is quoted as the field it is,
`label：value`, the first row's too; a two-column table whose first row names its columns keeps reading under it."""
from __future__ import annotations

import docx
import pytest

from kb.service import open_service
from kb.settings import load_settings
from kb.turn import TurnRequest

NOTICE = "\n".join([
    "# 青禾县第一中学食堂食材采购项目招标公告",
    "",
    "一、项目基本情况",
    "",
    "| 项目编号 | QH-ZC-2025-0371 |",
    "| --- | --- |",
    "| 项目名称 | 青禾县第一中学食堂食材采购项目 |",
    "| 预算金额 | 100000元 |",
    "| 最高限价 | 98000元 |",
    "| 采购需求 | 大米、食用油、肉类、蔬菜等食材配送 |",
    "| 合同履行期限 | 3-5年 |",
    "| 本项目是否接受联合体投标 | 否 |",
    "",
    "二、获取招标文件",
    "",
    "时间：2025年3月3日至2025年3月10日，每天上午9:00至11:30。地点：青禾县公共资源交易中心。",
    "",
    "三、应急物资",
    "",
    "| 物资名称 | 数量 |",
    "| --- | --- |",
    "| 灭火器 | 24具 |",
    "| 应急照明灯 | 12盏 |",
])
PROFILE = [("单位名称", "青禾县溪畔环保科技有限公司"), ("法定代表人", "罗文舟"), ("统一社会信用代码", "91620421MA74QH2X3K"),
           ("注册资本", "伍佰万元"), ("成立日期", "2016年4月18日"), ("经营范围", "污水处理及其再生利用、环境监测服务")]
SUPPLIES = [("序号", "物资名称", "数量", "存放位置"), *((str(i), name, f"{n}件", place) for i, (name, n, place) in enumerate(
    [("消防服", 5, "一层库房"), ("消防头盔", 5, "一层库房"), ("灭火毯", 12, "厨房"), ("防毒面具", 20, "二层库房"),
     ("应急照明灯", 30, "各楼层走廊"), ("急救箱", 4, "前台"), ("担架", 2, "一层库房"), ("警戒带", 10, "保安室")], 1))]
HTML_FORM = """<html><body>
<h1>青禾县河道保洁服务项目成交结果公告</h1>
<p>一、项目信息</p>
<table>
<tr><td>采购项目名称</td><td>青禾县2025年度河道保洁服务</td></tr>
<tr><td>成交供应商</td><td>青禾县清流环境服务有限公司</td></tr>
<tr><td>成交金额</td><td>人民币叁拾贰万元（320000元）</td></tr>
<tr><td>采购方式</td><td>竞争性磋商</td></tr>
</table>
<p>二、公告期限：自本公告发布之日起1个工作日。</p>
</body></html>"""


@pytest.fixture(scope="module")
def service(tmp_path_factory):
    folder = tmp_path_factory.mktemp("label-tables")
    (folder / "青禾县第一中学食堂食材采购项目招标公告.md").write_text(NOTICE, encoding="utf-8")
    document = docx.Document()
    document.add_heading("青禾县溪畔环保科技有限公司企业简介", level=1)
    document.add_paragraph("本公司专业从事污水处理设施的运营管理。基本情况如下。")
    table = document.add_table(rows=len(PROFILE), cols=2)
    for row, values in zip(table.rows, PROFILE):
        for cell, value in zip(row.cells, values):
            cell.text = value
    document.save(folder / "青禾县溪畔环保科技有限公司企业简介.docx")
    plan = docx.Document()
    plan.add_heading("青禾宾馆生产安全事故应急预案", level=1)
    plan.add_paragraph("第十条 本宾馆应急物资的配备见附件3。")
    plan.add_heading("附件3 应急物资配备清单", level=2)
    table = plan.add_table(rows=len(SUPPLIES), cols=4)
    for row, values in zip(table.rows, SUPPLIES):
        for cell, value in zip(row.cells, values):
            cell.text = value
    plan.save(folder / "青禾宾馆生产安全事故应急预案.docx")
    (folder / "青禾县河道保洁服务项目成交结果公告.html").write_text(HTML_FORM, encoding="utf-8")
    svc = open_service(load_settings(env={}, store_dir=tmp_path_factory.mktemp("store")))
    results = svc.stores.ingestor.ingest([folder], "label-tables")
    assert not [r.error for r in results if r.error]
    yield svc
    svc.close()


def quoted(service, question: str) -> str:
    events = list(service.pipeline.run(TurnRequest(question)))
    return "".join(e.data["text"] for e in events if e.type == "content").split("**相关附件")[0]


def test_the_first_row_of_a_label_table_is_a_field_of_its_own(service):
    answer = quoted(service, "青禾县第一中学食堂食材采购项目的项目编号是多少？")
    assert "项目编号：QH-ZC-2025-0371" in answer, answer


def test_each_row_of_a_markdown_label_table_is_quoted_as_label_and_value(service):
    answer = quoted(service, "青禾县第一中学食堂食材采购项目的预算金额是多少？")
    assert "预算金额：100000元" in answer, answer
    assert "项目编号：预算金额" not in answer and "QH-ZC-2025-0371" not in answer, answer


def test_a_two_column_table_under_column_names_keeps_its_header(service):
    answer = quoted(service, "青禾县第一中学招标公告里应急照明灯的数量是多少？")
    assert "物资名称：应急照明灯；数量：12盏" in answer, answer


def test_a_docx_company_profile_table_is_read_as_fields(service):
    answer = quoted(service, "青禾县溪畔环保科技有限公司的法定代表人是谁？")
    assert "法定代表人：罗文舟" in answer, answer
    assert "单位名称：法定代表人" not in answer, answer


def test_a_docx_row_asked_by_its_place_is_found_by_its_serial_number(service):
    answer = quoted(service, "青禾宾馆应急物资配备清单第七项是什么？")
    assert "序号：7；物资名称：担架；数量：2件；存放位置：一层库房" in answer, answer
    assert "急救箱" not in answer and "警戒带" not in answer, answer


def test_an_html_table_of_fields_is_read_as_fields(service):
    answer = quoted(service, "青禾县河道保洁服务项目的成交供应商是哪家？")
    assert "成交供应商：青禾县清流环境服务有限公司" in answer, answer
