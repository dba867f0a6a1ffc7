"""Uploads are staged under <store>/uploads/ and removed after the ingest; leftovers of a killed process go at open."""
from __future__ import annotations

import io

from kb.service import open_service
from kb.settings import load_settings
from kb.ingest.uploads import UPLOADS_DIR, ingest_uploads


def test_a_leftover_staging_folder_is_removed_when_the_service_opens(tmp_path):
    store = tmp_path / "store"
    leftover = store / UPLOADS_DIR / "3f2a9c"  # what a kill -9 during an upload leaves behind
    leftover.mkdir(parents=True)
    (leftover / "预案.md").write_bytes(b"x" * 100_000)
    service = open_service(load_settings(env={}, store_dir=store))
    try:
        assert not leftover.exists() and list((store / UPLOADS_DIR).iterdir()) == []
    finally:
        service.close()


def test_an_upload_is_staged_under_the_store_and_the_folder_is_gone_after_the_ingest(tmp_path):
    store = tmp_path / "store"
    service = open_service(load_settings(env={}, store_dir=store))
    seen = []
    try:
        def progress(done, total, what):
            seen.extend(p for p in (store / UPLOADS_DIR).rglob("*") if p.is_file())

        sent = [("演练.md", io.BytesIO("# 演练\n\n参演 30 人。\n".encode())), ("..", io.BytesIO(b"x")),
                ("演练.md", io.BytesIO(b"# dup\n"))]
        results = ingest_uploads(service.stores.ingestor, store, sent, "uploads", progress)
    finally:
        service.close()
    assert [(r.file, r.status) for r in results] == [("演练.md", "ingested"), ("..", "error"), ("演练.md", "error")]
    assert "another file of this upload has the same name" in results[2].error
    assert [p.name for p in set(seen)] == ["演练.md"]  # it was there during the ingest, in the store
    assert list((store / UPLOADS_DIR).iterdir()) == []
