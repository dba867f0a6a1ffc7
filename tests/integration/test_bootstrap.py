"""The app's start-up sync: build from the corpus folder, reuse on the next start, follow edits and removals."""
from __future__ import annotations

import shutil

from kb.ingest.sync import sync_corpus
from kb.ingest.uploads import UPLOADS_DIR
from kb.service import open_service
from kb.settings import load_settings
from tests.conftest import DEMO_CORPUS


def test_first_start_builds_later_starts_reuse_and_changes_are_followed(tmp_path):
    corpus = tmp_path / "corpus"
    shutil.copytree(DEMO_CORPUS, corpus)
    settings = load_settings(env={}, store_dir=tmp_path / "store")
    service = open_service(settings)
    try:
        first = sync_corpus(service.stores.ingestor, corpus, "demo")
        assert first.written == 6 and not first.errors and first.removed == ()
    finally:
        service.close()

    service = open_service(settings)  # a later start on the same store
    try:
        again = sync_corpus(service.stores.ingestor, corpus, "demo")
        assert again.written == 0 and {r.status for r in again.results} == {"unchanged"}
        east = corpus / "东岭街道防汛应急预案.md"
        east.write_text(east.read_text(encoding="utf-8").replace("冲锋舟：3艘", "冲锋舟：4艘"), encoding="utf-8")
        (corpus / "示范市餐厨垃圾管理办法.md").unlink()
        changed = sync_corpus(service.stores.ingestor, corpus, "demo")
        assert changed.written == 1 and changed.removed == ("示范市餐厨垃圾管理办法.md",)
        names = [d.name for d in service.stores.graph.list_documents("demo")]
        assert "示范市餐厨垃圾管理办法.md" not in names and len(names) == 5
        doc = service.stores.graph.find_document("demo", "东岭街道防汛应急预案.md")
        assert "冲锋舟：4艘" in service.stores.graph.document_text(doc.id)
        assert service.stores.vectors.doc_ids() == {d.id for d in service.stores.graph.list_documents()}
    finally:
        service.close()


MY_PLAN = (
    "# 我的防汛预案\n\n一、值守\n汛期由社区值班室24小时值守，详见附件1。\n\n"
    "附件1 值班表\n张三 周一至周三；李四 周四至周日。\n"
)


def test_uploads_into_the_default_library_survive_restarts_and_a_same_named_upload_wins(tmp_path):
    """What a user expects from the sync, who uploads into the default library (the UI's 库 field defaults to it):

    - a new document stays through every restart;
    - an upload named like a corpus file replaces the bundled version in that library and is theirs from then on:
      the sync neither puts the corpus file back over it, nor removes it when the corpus file goes away;
    - after they delete it, the next start brings the bundled version back.
    """
    from fastapi import FastAPI
    import httpx

    from tests.live_server import LiveServer
    from ui.api import api_router

    corpus = tmp_path / "corpus"
    shutil.copytree(DEMO_CORPUS, corpus)
    settings = load_settings(env={}, store_dir=tmp_path / "store", api_token="t0ken")
    east = "东岭街道防汛应急预案.md"
    mine = (corpus / east).read_text(encoding="utf-8").replace("冲锋舟：3艘", "冲锋舟：9艘")

    def start():
        """What app.py does at start: open the service, then sync the corpus into the default library."""
        service = open_service(settings)
        return service, sync_corpus(service.stores.ingestor, corpus, settings.default_library)

    service, report = start()
    try:
        assert report.written == 6 and not report.errors
        app = FastAPI()
        app.include_router(api_router(service), prefix="/api")
        with LiveServer(app) as server:
            r = httpx.post(f"{server.url}/api/knowledge/documents", headers={"Authorization": "Bearer t0ken"},
                           files=[("files", ("my_plan.md", MY_PLAN.encode())), ("files", (east, mine.encode()))],
                           timeout=60)
        assert r.status_code == 200, r.text
        assert r.json()["library"] == "demo" and [x["status"] for x in r.json()["results"]] == ["ingested"] * 2
        staging = settings.store_dir / UPLOADS_DIR
        assert staging.is_dir() and list(staging.iterdir()) == []  # staged in the store, and cleaned up
    finally:
        service.close()

    service, report = start()  # a restart
    try:
        assert report.removed == () and report.written == 0 and report.kept == (east,)
        assert "1 removed" not in report.summary() and "1 corpus files skipped" in report.summary()
        graph = service.stores.graph
        plan = graph.find_document("demo", "my_plan.md")
        assert plan is not None and plan.source == "upload"
        assert "冲锋舟：9艘" in graph.document_text(graph.find_document("demo", east).id)
        assert service.stores.vectors.query("社区值班室24小时值守", 1, libraries=["demo"])[0].doc_id == plan.id
        assert service.stores.vectors.chunk_counts() == {d.id: d.chunks for d in graph.list_documents()}
    finally:
        service.close()

    (corpus / east).unlink()  # the bundled file goes: the user's document of that name stays
    service, report = start()
    try:
        assert report.removed == () and len(service.stores.graph.list_documents("demo")) == 7
        service.stores.ingestor.delete(service.stores.graph.find_document("demo", east).id)
    finally:
        service.close()
    shutil.copy(DEMO_CORPUS / east, corpus / east)
    service, report = start()
    try:
        assert report.written == 1 and report.kept == ()
        doc = service.stores.graph.find_document("demo", east)
        assert doc.source == "corpus" and "冲锋舟：3艘" in service.stores.graph.document_text(doc.id)
        assert service.stores.graph.find_document("demo", "my_plan.md") is not None
    finally:
        service.close()


def test_the_start_up_sync_repairs_what_a_crash_left(tmp_path):
    corpus = tmp_path / "corpus"
    shutil.copytree(DEMO_CORPUS, corpus)
    settings = load_settings(env={}, store_dir=tmp_path / "store")
    service = open_service(settings)
    try:
        sync_corpus(service.stores.ingestor, corpus, "demo")
        doc = service.stores.graph.find_document("demo", "东岭街道防汛应急预案.md")
        service.stores.vectors.delete_document(doc.id)  # what a kill between the two stores could leave
        report = sync_corpus(service.stores.ingestor, corpus, "demo")
        assert report.repaired == 1 and report.written == 0 and "1 repaired" in report.summary()
        assert service.stores.vectors.chunk_counts()[doc.id] == doc.chunks
    finally:
        service.close()


def test_an_attachment_file_stored_alone_is_left_alone_by_the_next_start_and_dropped_once_it_joins(tmp_path):
    # two notices, neither naming 附件3: the file is stored as its own document (with a note saying how to attach it)
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    duty = corpus / "关于做好汛期值班工作的通知.md"
    duty.write_text("# 关于做好汛期值班工作的通知\n\n各单位：汛期实行24小时值班，值班表见附件1。\n\n附件1 值班表\n张三 周一。\n",
                    encoding="utf-8")
    (corpus / "关于开展安全检查的通知.md").write_text(
        "# 关于开展安全检查的通知\n\n各单位：请对照附件1检查。\n\n附件1 检查表\n消防通道是否畅通。\n", encoding="utf-8")
    (corpus / "附件3-防汛物资清单.md").write_text("防汛物资清单\n编织袋 500条。\n", encoding="utf-8")
    settings = load_settings(env={}, store_dir=tmp_path / "store")
    service = open_service(settings)
    try:
        first = sync_corpus(service.stores.ingestor, corpus, "demo")
        assert first.written == 3 and not first.errors
        alone = service.stores.graph.find_document("demo", "附件3-防汛物资清单.md")
        assert alone is not None
    finally:
        service.close()

    service = open_service(settings)  # a later start, nothing changed: nothing removed, nothing built again
    try:
        again = sync_corpus(service.stores.ingestor, corpus, "demo")
        assert (again.written, again.removed) == (0, ()) and {r.status for r in again.results} == {"unchanged"}
        assert service.stores.graph.find_document("demo", "附件3-防汛物资清单.md").id == alone.id
        # the notice comes to name it: the file joins it, and its own document goes
        duty.write_text(duty.read_text(encoding="utf-8").replace("值班表见附件1。", "值班表见附件1，防汛物资见附件3。"),
                        encoding="utf-8")
        joined = sync_corpus(service.stores.ingestor, corpus, "demo")
        assert joined.removed == ("附件3-防汛物资清单.md",) and joined.written == 1
        assert service.stores.graph.find_document("demo", "附件3-防汛物资清单.md") is None
        notice = service.stores.graph.load_document(service.stores.graph.find_document("demo", duty.name).id)
        assert [(a.label, a.title) for a in notice.attachments] == [("附件1", "值班表"), ("附件3", "防汛物资清单")]
        assert service.stores.vectors.doc_ids() == {d.id for d in service.stores.graph.list_documents()}
    finally:
        service.close()
