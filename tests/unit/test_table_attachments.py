"""Attachments that are tables, in .docx notices (python-docx files written here) and web pages: the label in a
paragraph above the table or in the table's own top row, the title above it, in its first row or beside the label; each is found,
and a long table's later rows are indexed under its header row, not under the label row."""
from __future__ import annotations

from pathlib import Path

import docx
import pytest

from kb.ingest.assemble import build_document
from kb.ingest.parsing import parse_file
from kb.search.indexed_text import continued_lines
from tests import pdf_copies


def _table(document, rows: list[list[str]], merged_first: bool = False):
    table = document.add_table(rows=len(rows), cols=max(len(r) for r in rows))
    for r, row in enumerate(rows):
        if merged_first and r == 0:
            table.cell(0, 0).merge(table.cell(0, len(table.columns) - 1)).text = row[0]
            continue
        for c, value in enumerate(row):
            table.cell(r, c).text = value
    return table


def _notice(tmp_path: Path) -> Path:
    d = docx.Document()
    d.add_paragraph("关于做好国庆节值班和防汛物资储备工作的通知")
    d.add_paragraph("各单位：值班安排见附件1，值班电话见附件2，物资登记见附件3，储备点见附件4，救援队伍见附件5。")
    d.add_paragraph("某某县应急管理局")
    d.add_paragraph("2024年9月20日")
    # the label and the title in the table's top row, each in a cell of its own
    _table(d, [["附件1", "节日值班安排表", ""], ["日期", "值班领导", "值班员"], ["10月1日", "王五", "赵六"]])
    # the label alone in the top row, no title
    _table(d, [["附件2", ""], ["单位", "电话"], ["县应急局", "0571-1234567"]])
    # the label in a paragraph, the title in the table's first row, merged across it
    d.add_paragraph("附件3")
    _table(d, [["防汛物资储备登记表"], ["序号", "物资名称", "数量"], ["1", "编织袋", "5000条"]], merged_first=True)
    # the label alone in the top row, the title alone in the row below it, then the header row
    _table(d, [["附件5", "", ""], ["应急救援队伍名单", "", ""], ["队伍", "人数", "电话"], ["民兵应急排", "30", "13900000000"]])
    # a long table under a label row: its later chunks continue its header row
    rows = [["附件4", "全县应急物资储备点名单", "", ""], ["序号", "储备点名称", "地址", "联系电话"]]
    rows += [[str(n), f"第{n}号储备点仓库", f"某某镇某某村{n}号大院内东侧", f"0571-8800{n:04d}"] for n in range(1, 60)]
    _table(d, rows)
    path = tmp_path / "值班通知.docx"
    d.save(str(path))
    return path


def test_table_attachments_are_found_by_the_label_over_or_atop_the_table(tmp_path):
    doc = build_document("t", parse_file(_notice(tmp_path), 1 << 20))
    assert [(a.label, a.title) for a in doc.attachments] == [
        ("附件1", "节日值班安排表"), ("附件2", ""), ("附件3", "防汛物资储备登记表"), ("附件5", "应急救援队伍名单"),
        ("附件4", "全县应急物资储备点名单")]
    assert not doc.dangling
    duty = doc.attachments[0]
    assert "10月1日 | 王五 | 赵六" in doc.text[duty.start:duty.end]
    assert "县应急局 | 0571-1234567" in doc.text[doc.attachments[1].start:doc.attachments[1].end]
    storage = [c for c in doc.chunks if c.attachment == "附件4"]
    assert len(storage) > 2
    header = continued_lines(doc.chunks)
    assert {header[c.id] for c in storage[1:]} == {"序号 | 储备点名称 | 地址 | 联系电话"}


def test_a_table_that_lists_attachments_is_no_header(tmp_path):
    d = docx.Document()
    d.add_paragraph("关于报送材料的通知")
    d.add_paragraph("各单位：请按下表报送材料。")
    _table(d, [["附件1", "报名表"], ["附件2", "承诺书"]])  # a table naming the files sent, label and title a row
    _table(d, [["编号", "材料名称"], ["附件3", "汇总表"]])
    path = tmp_path / "材料通知.docx"
    d.save(str(path))
    doc = build_document("t", parse_file(path, 1 << 20))
    assert doc.attachments == ()  # rows of labels and titles name the files; none of them heads a table


PAGE = """<html><body><p>关于报送国庆值班表的通知</p><p>各单位：值班安排见附件1，值班电话见附件2。</p>
<table><tr><td>附件1</td><td colspan="2">节日值班安排表</td></tr><tr><td>日期</td><td>值班领导</td><td>值班员</td></tr>
<tr><td>10月1日</td><td>王五</td><td>赵六</td></tr></table>
<table><tr><td>附件2</td><td></td></tr><tr><td>单位</td><td>电话</td></tr><tr><td>县应急局</td><td>0571-1234567</td></tr></table>
<table><tr><td>附件3</td><td>报名表</td></tr><tr><td>附件4</td><td>承诺书</td></tr></table>
</body></html>"""


def test_a_web_pages_table_headed_by_its_label_row_is_that_attachment(tmp_path):
    path = tmp_path / "值班通知.html"
    path.write_text(PAGE, encoding="utf-8")
    doc = build_document("t", parse_file(path, 1 << 20))
    assert [(a.label, a.title) for a in doc.attachments] == [("附件1", "节日值班安排表"), ("附件2", "")]
    duty = doc.text[doc.attachments[0].start:doc.attachments[0].end]
    assert duty.split("\n")[:2] == ["附件1 节日值班安排表", "| 日期 | 值班领导 | 值班员 |"]  # the header row is the table's
    assert "| 附件3 | 报名表 |" in doc.text  # a table of labels and titles stays a table


@pytest.mark.skipif(pdf_copies.SOFFICE is None, reason="LibreOffice is not installed "
                    "(apt-get install libreoffice-writer-nogui): no writer to print the .docx")
def test_the_docx_notice_printed_by_libreoffice_reads_the_same_attachments(tmp_path):
    # LibreOffice draws no rules for a plain Word table and leaves empty cells out: 附件4 | 全县应急物资储备 over its
    # wrapped 点名单, under the last row of 附件5's table
    source = _notice(tmp_path)
    pdf_copies._run_in_group([pdf_copies.SOFFICE, f"-env:UserInstallation=file://{tmp_path}/profile", "--headless",
                              "--convert-to", "pdf", "--outdir", str(tmp_path), str(source)])
    printed = build_document("t", parse_file(source.with_suffix(".pdf"), 1 << 20))
    assert [(a.label, a.title) for a in printed.attachments] == [
        (a.label, a.title) for a in build_document("t", parse_file(source, 1 << 20)).attachments]
    assert not printed.dangling
