"""The knowledge-base tab's handlers on the real stores: upload with a corrupt file, view, picture, delete, and
who may do which: the token for the shared libraries, the session for its private one."""
from __future__ import annotations

import threading
import time
from dataclasses import replace

import gradio as gr
import pytest

from kb.model import PRIVATE_PREFIX
from tests.demo_service import wait_until_gone
from ui.library.tab import WAITING_FOR_SHARED, KnowledgeBase

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


TOKEN = "s3cret-token"


@pytest.fixture
def admin(service):
    """The same stores served with ANNEX_API_TOKEN set (the shared fixture has it empty: shared writes off)."""
    return replace(service, settings=replace(service.settings, api_token=TOKEN))


def test_upload_reports_every_file_ingests_the_good_ones_and_the_document_can_be_viewed_and_deleted(admin, tmp_path):
    kb = KnowledgeBase(admin)
    progress = []
    with pytest.warns(UserWarning, match="入库完成：2 个文件成功，2 个失败，详情见“入库”按钮下方"):  # a toast too
        html = kb.ingest("s1", _uploads(tmp_path), "uploads", "测试, 消防", TOKEN,
                         lambda fraction, desc: progress.append((fraction, desc)))
    assert "已写入共享库“uploads”" in html and "2 个文件成功，2 个失败" in html
    assert "✓ 已入库" in html and "↳ 作为附件并入" in html and html.count("✗ 失败") == 2
    assert "损坏.docx" in html and "图片.txt" in html
    assert "悬空引用：附件7" in html  # 附件7 is mentioned but does not exist
    assert progress and progress[-1][0] == 1.0
    rows, choices = kb.listing("another session")  # a shared library: every session sees it
    [row] = [r for r in rows if r[0] == "北湖仓储消防预案.md"]
    doc_id = row[-1]
    assert row[3] == "uploads" and row[4].startswith("2：附件1、附件2") and row[6] == "附件7" and row[7] == "测试、消防"
    assert ("北湖仓储消防预案.md（uploads）", doc_id) in choices
    assert "uploads" in kb.libraries(None)
    view = kb.view(None, doc_id)
    assert "夜间巡查路线" in view and "灭火器分布表" in view and "附件7 不存在（悬空引用）" in view
    figure = kb.picture(None, "灭火器", "uploads", 5)
    assert "筛选命中 1 / 共 1" in figure.layout.annotations[-1].text
    with pytest.raises(gr.Error, match="确认删除"):
        kb.delete("s1", doc_id, False, TOKEN)
    with pytest.raises(gr.Error, match="口令不对"):
        kb.delete("s1", doc_id, True, "wrong")
    assert "已删除《北湖仓储消防预案》" in kb.delete("s1", doc_id, True, TOKEN)
    assert doc_id not in [r[-1] for r in kb.listing(None)[0]] and "uploads" not in kb.libraries(None)
    with pytest.raises(gr.Error):
        kb.delete("s1", doc_id, True, TOKEN)


def test_without_the_token_an_upload_is_private_to_its_session_and_goes_when_the_session_ends(service, tmp_path,
                                                                                            capsys):
    kb = KnowledgeBase(service)
    html = kb.ingest("visitor", _uploads(tmp_path)[:2], "demo", "", "")
    assert "入库完成：2 个文件成功，0 个失败" in capsys.readouterr().out  # gr.Info outside a page prints
    assert "已写入本会话私有库" in html and "2 个文件成功" in html
    library = service.sessions.own("visitor")
    assert library.startswith(PRIVATE_PREFIX)
    [doc] = [d for d in service.read.current().documents.values() if d.library == library]
    assert doc.id in [r[-1] for r in kb.listing("visitor")[0]] and kb.libraries("visitor")[-1] == library
    assert doc.id not in [r[-1] for r in kb.listing("stranger")[0]] and library not in kb.libraries("stranger")
    assert "夜间巡查路线" in kb.view("visitor", doc.id) and "夜间巡查路线" not in kb.view("stranger", doc.id)
    with pytest.raises(gr.Error, match="已不在知识库中"):
        kb.delete("stranger", doc.id, True, "")
    assert doc.id in service.read.current().documents
    service.sessions.end("visitor")
    wait_until_gone(service, doc.id)
    assert doc.id not in service.read.current().documents and service.sessions.own("visitor") is None


def test_shared_writes_are_off_without_a_server_token_and_refused_with_a_wrong_one(service, admin, tmp_path):
    before = set(service.read.current().documents)
    plan = _uploads(tmp_path)[:1]
    with pytest.raises(gr.Error, match="共享库的写入已关闭"):
        KnowledgeBase(service).ingest("s", plan, "demo", "", "anything")
    with pytest.raises(gr.Error, match="口令不对"):
        KnowledgeBase(admin).ingest("s", plan, "demo", "", "wrong")
    with pytest.raises(gr.Error, match="session-"):
        KnowledgeBase(admin).ingest("s", plan, PRIVATE_PREFIX + "mine", "", TOKEN)
    shared = next(d for d in service.read.current().documents.values() if d.library == "demo")
    with pytest.raises(gr.Error, match="共享库的写入已关闭"):
        KnowledgeBase(service).delete("s", shared.id, True, "")
    assert set(service.read.current().documents) == before


def test_uploading_nothing_is_refused(service):
    with pytest.raises(gr.Error, match="先选择"):
        KnowledgeBase(service).ingest("s", [], "demo", "")


def test_the_library_picture_is_capped(service):
    figure = KnowledgeBase(service).picture(None, "", "全部", 2)
    caption = figure.layout.annotations[-1].text
    assert caption.startswith("显示 2 个文档") and "已截断" in caption


def test_uploads_are_not_serialized_across_visitors_and_say_where_they_are_in_the_queue(service):
    from ui.blocks import build_demo
    from ui.library.tab import UPLOAD_WORKERS

    demo = build_demo(service)
    [ingest] = [fn for fn in demo.fns.values() if fn.name == "run_ingest"]
    assert UPLOAD_WORKERS > 1 and ingest.concurrency_limit == UPLOAD_WORKERS  # Gradio's default was 1 for everyone
    [shown] = [d for d in demo.get_config_file()["dependencies"] if d["id"] == ingest._id]
    assert shown["show_progress"] == "full"  # the queue's place and the ingest's progress show on the results


def test_a_private_upload_never_waits_behind_a_shared_bulk_ingest_and_a_second_shared_one_says_it_waits(admin,
                                                                                                        tmp_path):
    kb = KnowledgeBase(admin)
    bulk_running, finish_bulk = threading.Event(), threading.Event()

    def slow(fraction, desc):  # a bulk ingest still reading its files: it holds its place until told to go on
        bulk_running.set()
        assert finish_bulk.wait(30)

    def upload(name: str, text: str) -> list[str]:
        folder = tmp_path / name
        folder.mkdir()
        (folder / f"{name}.md").write_text(text, encoding="utf-8")
        return [str(folder / f"{name}.md")]

    done: dict[str, str] = {}
    second: list[str] = []
    bulk = threading.Thread(target=lambda: done.update(bulk=kb.ingest("admin", upload("批量", PLAN), "bulk", "", TOKEN,
                                                                      slow)))
    bulk.start()
    try:
        assert bulk_running.wait(30)
        private = kb.ingest("visitor-2", upload("访客", "# 访客笔记\n\n仓库钥匙在门卫室。\n"), "demo", "", "")
        assert "已写入本会话私有库" in private and not done  # done while the bulk ingest is still running
        other = threading.Thread(target=lambda: done.update(
            shared=kb.ingest("admin", upload("第二批", ATTACHMENT), "bulk", "", TOKEN,
                             lambda fraction, desc: second.append(desc))))
        other.start()
        deadline = time.monotonic() + 10
        while WAITING_FOR_SHARED not in second and time.monotonic() < deadline:
            time.sleep(0.05)
        assert "shared" not in done and WAITING_FOR_SHARED in second  # it waits, and says why
    finally:
        finish_bulk.set()
        bulk.join(60)
    other.join(60)
    assert "已写入共享库“bulk”" in done["bulk"] and "已写入共享库“bulk”" in done["shared"]
    assert second.index(WAITING_FOR_SHARED) < len(second) - 1  # it ran once the first had finished
    for doc in [d for d in admin.read.current().documents.values() if d.library == "bulk"]:
        admin.stores.ingestor.delete(doc.id)  # the UI tests share one store: leave its libraries as they were
    admin.sessions.end("visitor-2")
