"""Reference extraction: every form that names an attachment, and the look-alikes that do not."""
from __future__ import annotations

import pytest

from kb.ingest.assemble import build_document
from kb.model import ParsedFile

TAIL = "".join(
    f"\n附件{n}：{t}\n{t}的内容。\n"
    for n, t in [("1", "指挥部名单"), ("2", "物资清单"), ("3", "通讯录"), ("3-1", "车辆表"), ("4", "疏散图"),
                 ("5", "报告表"), ("6", "值班表"), ("11", "专家库")]
) + "\n附录B 风险物质临界量\n氯气 5吨。\n附表一\n收费标准表\n每吨100元。\n"


def _refs(body: str) -> list[tuple[str, str | None]]:
    doc = build_document("t", ParsedFile("p.md", "p.md", body + "\n" + TAIL, "h"))
    return [(r.label, r.target) for r in doc.references if r.source == ""]


@pytest.mark.parametrize(
    ("body", "labels"),
    [
        ("专家名单详见附件11。", ["附件11"]),
        ("物资见附件4。", ["附件4"]),
        ("按规定报告（附件1）。", ["附件1"]),
        ("填写附件一和附件二。", ["附件1", "附件2"]),
        ("执行附件五、六的要求。", ["附件5", "附件6"]),
        ("车辆见附件3-1。", ["附件3-1"]),
        ("临界量见附录 B。", ["附录B"]),
        ("临界量见附录B。", ["附录B"]),
        ("收费按附表一执行。", ["附表1"]),
        ("按本预案所附《收费标准表》收费。", ["附表1"]),
        ("见附件1至附件3。", ["附件1", "附件2", "附件3"]),
        ("压力容器安全附件失效时立即停机。", []),
        ("司法建议书如有附件，应当注明附件的顺序号和名称。", []),
        ("依照《中华人民共和国安全生产法》执行。", []),
    ],
)
def test_reference_forms(body, labels):
    assert _refs(body) == [(label, label) for label in labels]


def test_missing_attachment_is_dangling_never_guessed():
    assert _refs("专家名单详见附件15。") == [("附件15", None)]


def test_self_reference_inside_an_attachment_is_not_a_reference():
    text = "正文。\n附件1：名单\n本附件第一项由办公室维护，另见附件1的说明。\n附件2：物资\n联系人见附件1。\n"
    doc = build_document("t", ParsedFile("p.md", "p.md", text, "h"))
    assert [(r.source, r.label) for r in doc.references] == [("附件2", "附件1")]


def test_header_and_list_lines_are_not_references():
    text = "正文。\n附件：1、名单\n2、物资\n附件1：名单\n甲。\n附件2：物资\n乙。\n"
    doc = build_document("t", ParsedFile("p.md", "p.md", text, "h"))
    assert doc.references == ()
