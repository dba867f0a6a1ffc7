"""The app at the large scale (~92k chunks) against a real `chroma run` server: what a deployment past one machine runs.

Slow (about a quarter of an hour on two cores): `python -m pytest -m slow tests/integration/test_scale_chroma_server.py`.
"""
from __future__ import annotations

import dataclasses
import threading
import time

import pytest

from kb.eval.synthetic import generate
from kb.service import open_service
from kb.settings import Settings
from kb.turn import TurnRequest
from tests.integration.test_chroma_store import chroma_server  # noqa: F401  (the fixture)

pytestmark = pytest.mark.slow
DOCS, ATTACHMENTS = 2000, 20  # kb.bench's large size: 92,466 chunks


def test_a_large_library_on_a_chroma_server_starts_answers_and_takes_uploads(
    settings: Settings, chroma_server: int, tmp_path  # noqa: F811
) -> None:
    remote = dataclasses.replace(settings, chroma_host="127.0.0.1", chroma_port=chroma_server, llm_base_url="")
    written = generate(tmp_path / "corpus", DOCS, ATTACHMENTS)
    service = open_service(remote)
    try:
        results = service.stores.ingestor.ingest([tmp_path / "corpus"], "bench")
        assert not [r for r in results if r.error]
        chunks = service.stores.graph.stats()["chunks"]
        assert chunks > 90_000
        assert sum(service.stores.vectors.count().values()) == chunks  # every vector went to the server
    finally:
        service.close()
    assert not remote.chroma_dir.exists()
    started = time.perf_counter()
    service = open_service(remote)  # a start: the stores are opened and the read models loaded, not rebuilt
    try:
        assert time.perf_counter() - started < 60
        for doc in written[:: DOCS // 10]:
            answer = "".join(e.data.get("text", "") for e in service.pipeline.run(TurnRequest(doc.fact.question))
                             if e.type == "content")
            assert doc.fact.answer in answer, doc.fact.question
        note = tmp_path / "upload" / "值班安排.md"
        note.parent.mkdir()
        note.write_text("# 值班安排\n本周值班员：测试员甲，电话0571-00000000。\n", encoding="utf-8")
        before = service.read.current()
        took: list[float] = []
        upload = threading.Thread(target=lambda: service.stores.ingestor.ingest([note], "bench"))
        upload.start()
        while upload.is_alive() or not took:  # chats while the upload runs answer from the state before or after
            begun = time.perf_counter()
            list(service.pipeline.run(TurnRequest(written[0].fact.question)))
            took.append(time.perf_counter() - begun)
        upload.join()
        after = service.read.current()
        assert after is not before and all(after.stored[k] is v for k, v in before.stored.items())
        hits = service.pipeline.retriever.retrieve("测试员甲 值班", TurnRequest("测试员甲 值班"))
        assert hits and hits[0].text.find("测试员甲") >= 0  # the uploader's next question sees the new document
    finally:
        service.close()
