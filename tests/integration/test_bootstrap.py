"""The app's start-up sync: build from the corpus folder, reuse on the next start, follow edits and removals."""
from __future__ import annotations

import shutil

from kb.ingest.sync import sync_corpus
from kb.service import open_service
from kb.settings import load_settings
from tests.conftest import DEMO_CORPUS


def test_first_start_builds_later_starts_reuse_and_changes_are_followed(tmp_path):
    corpus = tmp_path / "corpus"
    shutil.copytree(DEMO_CORPUS, corpus)
    settings = load_settings(env={}, store_dir=tmp_path / "store")
    service = open_service(settings)
    try:
        first = sync_corpus(service, corpus, "demo")
        assert first.written == 6 and not first.errors and first.removed == ()
    finally:
        service.close()

    service = open_service(settings)  # a later start on the same store
    try:
        again = sync_corpus(service, corpus, "demo")
        assert again.written == 0 and {r.status for r in again.results} == {"unchanged"}
        east = corpus / "东岭街道防汛应急预案.md"
        east.write_text(east.read_text(encoding="utf-8").replace("冲锋舟：3艘", "冲锋舟：4艘"), encoding="utf-8")
        (corpus / "示范市餐厨垃圾管理办法.md").unlink()
        changed = sync_corpus(service, corpus, "demo")
        assert changed.written == 1 and changed.removed == ("示范市餐厨垃圾管理办法.md",)
        names = [d.name for d in service.stores.graph.list_documents("demo")]
        assert "示范市餐厨垃圾管理办法.md" not in names and len(names) == 5
        doc = service.stores.graph.find_document("demo", "东岭街道防汛应急预案.md")
        assert "冲锋舟：4艘" in service.stores.graph.document_text(doc.id)
        assert service.stores.vectors.doc_ids() == {d.id for d in service.stores.graph.list_documents()}
    finally:
        service.close()
