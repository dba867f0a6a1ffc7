"""The knowledge-base tab's handlers on the real stores: upload with a corrupt file, view, picture, delete."""
from __future__ import annotations

import gradio as gr
import pytest

from ui.library.tab import KnowledgeBase

PLAN = "# 北湖仓储消防预案\n\n夜间巡查路线详见附件1，灭火器位置见附件2，消防泵房钥匙见附件7。\n\n附件1：夜间巡查路线\n\n一号库→二号库→泵房。\n"
ATTACHMENT = "附件2：灭火器分布表\n\n一号库：干粉灭火器12具。\n"


def _uploads(tmp_path):
    """Files as Gradio hands them over: each in its own temporary folder."""
    files = {"北湖仓储消防预案.md": PLAN.encode(), "附件2-灭火器分布表.md": ATTACHMENT.encode(),
             "损坏.docx": b"PK\x03\x04 this is not a zip archive", "图片.txt": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" * 40}
    paths = []
    for i, (name, data) in enumerate(files.items()):
        folder = tmp_path / f"upload{i}"
        folder.mkdir()
        (folder / name).write_bytes(data)
        paths.append(str(folder / name))
    return paths


def test_upload_reports_every_file_ingests_the_good_ones_and_the_document_can_be_viewed_and_deleted(service, tmp_path):
    kb = KnowledgeBase(service)
    progress = []
    html = kb.ingest(_uploads(tmp_path), "uploads", "测试, 消防", lambda fraction, desc: progress.append((fraction, desc)))
    assert "2 个文件成功，2 个失败" in html
    assert "✓ 已入库" in html and "↳ 作为附件并入" in html and html.count("✗ 失败") == 2
    assert "损坏.docx" in html and "图片.txt" in html
    assert "悬空引用：附件7" in html  # 附件7 is mentioned but does not exist
    assert progress and progress[-1][0] == 1.0
    rows, choices = kb.listing()
    [row] = [r for r in rows if r[0] == "北湖仓储消防预案.md"]
    doc_id = row[-1]
    assert row[1] == "uploads" and row[2].startswith("2：附件1、附件2") and row[4] == "附件7" and row[5] == "测试、消防"
    assert ("北湖仓储消防预案.md（uploads）", doc_id) in choices
    assert "uploads" in kb.libraries()
    view = kb.view(doc_id)
    assert "夜间巡查路线" in view and "灭火器分布表" in view and "附件7 不存在（悬空引用）" in view
    figure = kb.picture("灭火器", "uploads", 5)
    assert "筛选命中 1 / 共 1" in figure.layout.annotations[-1].text
    assert "已删除《北湖仓储消防预案》" in kb.delete(doc_id)
    assert doc_id not in [r[-1] for r in kb.listing()[0]] and "uploads" not in kb.libraries()
    with pytest.raises(gr.Error):
        kb.delete(doc_id)


def test_uploading_nothing_is_refused(service):
    with pytest.raises(gr.Error, match="先选择"):
        KnowledgeBase(service).ingest([], "demo", "")


def test_the_library_picture_is_capped(service):
    figure = KnowledgeBase(service).picture("", "全部", 2)
    caption = figure.layout.annotations[-1].text
    assert caption.startswith("显示 2 个文档") and "已截断" in caption
