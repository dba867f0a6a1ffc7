"""A law that keeps its tables after its last article, without any 附件/附表 label, pointing at them with 附后 (a tax
law's 税额表附后): the tables are its 附表, and the pointer sentence links to it."""
from __future__ import annotations

from kb.ingest.after_articles import tables_after_articles
from kb.ingest.assemble import build_document
from kb.model import ParsedFile

LAW = "\n".join([
    "中华人民共和国车辆通行税法（示例）",
    "第一条 在中华人民共和国境内行驶的车辆，其所有人为车辆通行税的纳税人。",
    "第二条 车辆通行税的税额：（一）载客汽车，适用每辆每年六十元至五百四十元的税额（税额表附后）；"
    "（二）载货汽车，按整备质量每吨每年十六元至一百二十元（税额表附后）。",
    "第三条 本法自公布之日起施行。",
    "车辆通行税税额表一（载客汽车适用）",
    "级数 | 核定载客人数 | 年税额（元）",
    "1 | 9人以下 | 60",
    "2 | 10人至19人 | 240",
    "车辆通行税税额表二（载货汽车适用）",
    "级数 | 整备质量 | 每吨年税额（元）",
    "1 | 不超过10吨 | 16",
    "2 | 超过10吨 | 120",
])


def _doc(text: str):
    return build_document("laws", ParsedFile("通行税法.docx", "通行税法.docx", text, str(hash(text))))


def test_the_tables_after_the_last_article_are_the_laws_attachment_named_as_its_pointer_names_them():
    doc = _doc(LAW)
    assert [(a.label, a.title) for a in doc.attachments] == [("附表", "税额表")]
    table = doc.attachments[0]
    held = doc.text[table.start:table.end]
    assert held.startswith("车辆通行税税额表一") and "超过10吨 | 120" in held
    assert "第三条" not in held


def test_the_pointer_sentence_links_to_the_tables():
    doc = _doc(LAW)
    links = {(r.mention, r.target) for r in doc.references}
    assert links == {("税额表附后", "附表")}


def test_tables_with_no_pointer_or_inside_an_article_are_no_attachment():
    unpointed = LAW.replace("（税额表附后）", "")
    assert tables_after_articles(unpointed.split("\n")) is None
    assert _doc(unpointed).attachments == ()
    uncaptioned = "\n".join(line for line in LAW.split("\n") if not line.startswith("车辆通行税税额表"))
    assert tables_after_articles(uncaptioned.split("\n")) is None  # the last article's own table
