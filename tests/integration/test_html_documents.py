"""Documents with HTML inside, ingested into real Kuzu and Chroma and asked with the offline answerer.

A standard as a PDF converter writes it (its appendix tables as `<table>` lines) and a notice copied from a web page
(`<p>` paragraphs saved as .txt): a row question finds the row read with its header, and the citation's span is
the stored text.
"""
from __future__ import annotations

import pytest

from kb.service import open_service
from kb.settings import load_settings
from kb.turn import TurnRequest

TD = "<td style='text-align: center;'>"
ROWS = [("R", "居住区", "居住生活聚居区"), ("A", "公共管理与公共服务区", "行政、文化、教育等机构和设施的区域"),
        ("B", "商业服务业区", "商业、商务、加油、加气站等设施区域"), ("M", "工业区", "工矿企业的生产车间、库房及其附属设施区域"),
        ("W", "物流仓储区", "物资储备、中转、配送等区域"), ("Q", "其他区", "以上区域之外的区域")]
STANDARD = "\n".join([
    "# 青禾县组织机构地理信息采集规范",
    "",
    "## 1 范围",
    "",
    "本规范规定了组织机构地理信息的采集要求。院落类型按附录C确定。",
    "",
    "## 附录 C",
    "",
    "(规范性附录)",
    "",
    "组织机构院落分类及代码",
    "",
    '<div style="text-align: center;">表 C.1 组织机构院落分类及代码</div>',
    "",
    "",
    "<table border=1 style='margin: auto; width: max-content;'>"
    f"<tr>{TD}代码</td>{TD}属性值</td>{TD}属性值定义</td></tr>"
    + "".join(f"<tr>{TD}{a}</td>{TD}{b}</td>{TD}{c}</td></tr>" for a, b, c in ROWS) + "</table>",
    "",
])
NOTICE = "\n".join([
    '<p style="text-align:center">\n    青禾县应急管理局\n</p>',
    "<p>\n    第一条 为做好应急值守，制定本办法。值班电话见附件1。\n</p>",
    "<p>\n    附件：1．青禾县应急值班电话表\n</p>",
    '<p style="text-align:center">\n    附件1\n</p>',
    '<p style="text-align:center">\n    青禾县应急值班电话表\n</p>',
    "<table><tbody><tr><td>部门</td><td>值班电话</td></tr>",
    "<tr><td>县应急管理局</td><td>0931-5550110</td></tr>",
    "<tr><td>县消防救援大队</td><td>0931-5550119</td></tr></tbody></table>",
])


@pytest.fixture(scope="module")
def service(tmp_path_factory):
    folder = tmp_path_factory.mktemp("html-docs")
    (folder / "青禾县组织机构地理信息采集规范.md").write_text(STANDARD, encoding="utf-8")
    (folder / "青禾县应急值守办法.txt").write_text(NOTICE, encoding="utf-8")
    svc = open_service(load_settings(env={}, store_dir=tmp_path_factory.mktemp("store")))
    results = svc.stores.ingestor.ingest([folder], "html")
    assert not [r.error for r in results if r.error]
    yield svc
    svc.close()


def ask(service, question: str) -> dict:
    events = list(service.pipeline.run(TurnRequest(question)))
    content = "".join(e.data["text"] for e in events if e.type == "content")
    items = next(e.data["items"] for e in events if e.type == "attachments")
    hits = next(e.data["docs"] for e in events if e.type == "referenced_docs")
    return {"quoted": content.split("**相关附件")[0], "shown": {i.label for i in items if i.resolved}, "docs": hits}


def test_a_row_of_a_converter_table_answers_with_its_header(service):
    t = ask(service, "青禾县采集规范中组织机构院落类型代码M代表哪一类院落？")
    assert "代码：M；属性值：工业区" in t["quoted"], t["quoted"]
    assert "附录C" in t["shown"]


def test_the_stored_text_is_the_converted_table_and_citations_point_into_it(service):
    hits = service.pipeline.retriever.retrieve("院落 代码 M 工业区", TurnRequest("q"))
    row = next(h for h in hits if "| M | 工业区 |" in h.text)
    assert row.attachment == "附录C"
    doc = service.stores.graph.load_document(row.doc_id)
    assert "<td" not in doc.text and "| 代码 | 属性值 | 属性值定义 |" in doc.text
    assert doc.text[row.start : row.end] == row.text


def test_a_web_page_notice_saved_as_txt_splits_at_its_attachment_and_answers_from_its_table(service):
    t = ask(service, "青禾县消防救援大队的值班电话是多少？")
    assert "部门：县消防救援大队；值班电话：0931-5550119" in t["quoted"], t["quoted"]
    assert "附件1" in t["shown"]
    doc = next(d for d in t["docs"] if d.title.startswith("青禾县应急"))
    text = service.stores.graph.document_text(doc.doc_id)
    assert "<p" not in text and "\n附件1\n青禾县应急值班电话表\n| 部门 | 值班电话 |" in text
