"""ChromaVectorStore contract, run on embedded Chroma in tmp_path and on a real `chroma run` server."""
from __future__ import annotations

import dataclasses
import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Callable, Iterator

import pytest

from kb.search.chroma import ChromaVectorStore, VectorStoreError
from kb.search.embeddings import make_embedder
from kb.model import BODY, Attachment, Chunk, Document
from kb.settings import Settings
from kb.search.vectors import ATTACHMENT_COLLECTION, BODY_COLLECTION

ROOT = Path(__file__).resolve().parents[2]
PHONE_QUESTION = "各成员单位的应急值班电话是多少？"


def make_doc(
    doc_id: str, library: str, title: str, body: list[str], attachments: list[tuple[str, str, list[str]]]
) -> Document:
    """A Document built by hand: body chunks, then each attachment (header line + chunks), with exact spans."""
    text, chunks, atts = "", [], []

    def add(owner: str, index: int, piece: str) -> None:
        nonlocal text
        chunk_id = f"{doc_id}:{owner or 'body'}:{index}"
        chunks.append(Chunk(chunk_id, doc_id, owner, index, len(text), len(text) + len(piece), piece))
        text += piece + "\n"

    for i, piece in enumerate(body):
        add(BODY, i, piece)
    for label, att_title, pieces in attachments:
        start = len(text)
        text += f"{label} {att_title}\n"
        for i, piece in enumerate(pieces):
            add(label, i, piece)
        atts.append(Attachment(label, label[:2], label[2:], att_title, start, len(text)))
    return Document(
        doc_id, library, f"{title}.docx", title, text, f"hash-{len(text)}", (), tuple(atts), (), tuple(chunks)
    )


PLAN_BODY = [
    "为及时有效处置突发环境事件，市政府成立突发环境事件应急指挥部，由分管副市长任总指挥。",
    "应急响应分为四级。发生较大突发环境事件时，指挥部各成员单位立即赶赴现场，联络方式详见附件11。",
]
PHONES = "市生态环境局值班电话0571-87001234；市应急管理局值班电话0571-87005678；市消防救援支队值班电话119。"
SUPPLIES = "吸油毡500张、围油栏2000米、活性炭10吨、应急监测车2辆，存放于市应急物资储备库。"
PLAN = make_doc("plan", "demo", "某市突发环境事件应急预案", PLAN_BODY,
                [("附件11", "应急联系电话表", [PHONES]), ("附件12", "应急物资装备清单", [SUPPLIES])])
PLAN_EDITED = make_doc("plan", "demo", "某市突发环境事件应急预案", PLAN_BODY[:1],
                       [("附件11", "应急联系电话表", [PHONES])])
LAW = make_doc(
    "law", "law", "中华人民共和国环境保护税法",
    ["应税大气污染物和水污染物的应纳税额，按照污染当量数乘以具体适用税额计算，税额详见附件1。"],
    [("附件1", "环境保护税税目税额表", ["大气污染物每污染当量1.2元至12元；水污染物每污染当量1.4元至14元。"])],
)


def check_contract(open_store: Callable[[], ChromaVectorStore]) -> None:
    """Everything a caller of the VectorStore Protocol relies on, from an empty store to a deleted document."""
    store = open_store()
    assert store.query(PHONE_QUESTION, 5) == []
    assert store.count() == {BODY_COLLECTION: 0, ATTACHMENT_COLLECTION: 0}
    assert store.doc_ids() == set()

    store.upsert_documents([PLAN, LAW])
    assert store.count() == {BODY_COLLECTION: 3, ATTACHMENT_COLLECTION: 3}
    assert store.doc_ids() == {"plan", "law"}

    # The phone question finds the attachment that holds the phone list, not the body that mentions it.
    hits = store.query(PHONE_QUESTION, 4)
    assert [h.chunk_id for h in hits][:1] == ["plan:附件11:0"]
    top = hits[0]
    assert (top.doc_id, top.library, top.attachment, top.index) == ("plan", "demo", "附件11", 0)
    assert top.text == PHONES  # the plain chunk text, without the title context that was embedded
    assert PLAN.text[top.start : top.end] == PHONES  # the char span survives the metadata round trip
    assert len(hits) == 4 and all(-1.0 <= h.score <= 1.0 + 1e-6 for h in hits)
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    assert hits[0].score > hits[-1].score

    stored = store.collections[ATTACHMENT_COLLECTION].get(ids=["plan:附件11:0"], include=["metadatas"])
    assert stored["metadatas"][0] == {
        "library": "demo", "doc_id": "plan", "doc_name": "某市突发环境事件应急预案.docx", "attachment": "附件11",
        "attachment_title": "应急联系电话表", "index": 0, "start": top.start, "end": top.end,
        "content_hash": PLAN.content_hash,  # the version of the document the vector belongs to
    }

    # Collection choice and filters.
    body_only = store.query(PHONE_QUESTION, 10, collections=(BODY_COLLECTION,))
    assert body_only and all(h.attachment == "" for h in body_only)
    assert {h.chunk_id for h in store.query("税额", 10)} == {c.id for c in PLAN.chunks + LAW.chunks}
    assert {h.library for h in store.query("污染物 税额", 10, libraries=["law"])} == {"law"}
    assert {h.doc_id for h in store.query("污染物 税额", 10, libraries=["demo", "law"])} == {"plan", "law"}
    assert store.query("污染物 税额", 10, libraries=[]) == []
    assert {h.doc_id for h in store.query("应急", 10, doc_id="law")} == {"law"}
    assert store.query("应急", 10, libraries=["demo"], doc_id="law") == []
    supplies = store.query("应急物资", 10, libraries=["demo"], doc_id="plan")
    assert [h.chunk_id for h in supplies][:1] == ["plan:附件12:0"]
    assert store.query("？！。", 5) == []  # nothing to compare, so nothing matched
    with pytest.raises(ValueError, match="annex_body"):
        store.query("应急", 5, collections=("annex_other",))

    # Re-upserting the same documents changes nothing; an edited, shorter document leaves no stale chunks.
    store.upsert_documents([PLAN, LAW])
    assert store.count() == {BODY_COLLECTION: 3, ATTACHMENT_COLLECTION: 3}
    store.upsert_documents([PLAN_EDITED])
    assert store.count() == {BODY_COLLECTION: 2, ATTACHMENT_COLLECTION: 2}
    assert PLAN_EDITED.content_hash != PLAN.content_hash
    assert store.chunk_versions() == {"plan": {PLAN_EDITED.content_hash: 2}, "law": {LAW.content_hash: 2}}
    assert store.chunk_versions(["law", "absent"]) == {"law": {LAW.content_hash: 2}}
    assert store.chunk_counts() == {"plan": 2, "law": 2}
    left = store.query("吸油毡 围油栏", 10, doc_id="plan")
    assert {h.chunk_id for h in left} == {c.id for c in PLAN_EDITED.chunks}

    # A second client sees the same data.
    again = open_store()
    assert again.count() == {BODY_COLLECTION: 2, ATTACHMENT_COLLECTION: 2}
    assert again.query(PHONE_QUESTION, 1)[0].chunk_id == "plan:附件11:0"

    assert store.delete_document("plan") == 2
    assert store.delete_document("plan") == 0
    assert store.doc_ids() == {"law"}
    assert store.query(PHONE_QUESTION, 5, doc_id="plan") == []
    assert store.count() == {BODY_COLLECTION: 1, ATTACHMENT_COLLECTION: 1}


def opener(settings: Settings) -> Callable[[], ChromaVectorStore]:
    return lambda: ChromaVectorStore(settings, make_embedder(settings))


def test_contract_on_embedded_chroma(settings: Settings) -> None:
    check_contract(opener(settings))


def test_upsert_writes_in_batches_of_the_client_limit(settings: Settings) -> None:
    store = opener(settings)()
    assert store.max_batch > 100
    store.max_batch = 2  # as if Chroma allowed only two records per add()
    body = [f"第{i}段正文内容" for i in range(5)]
    big = make_doc("big", "demo", "大文档", body, [("附件1", "清单", ["甲", "乙", "丙"])])
    store.upsert_documents([big])
    assert store.count() == {BODY_COLLECTION: 5, ATTACHMENT_COLLECTION: 3}


def test_collections_use_cosine_and_our_embedding_function(settings: Settings) -> None:
    store = opener(settings)()
    store.upsert_documents([PLAN])
    for collection in store.collections.values():
        configuration = collection.configuration_json
        assert configuration["hnsw"]["space"] == "cosine"
        assert configuration["embedding_function"]["name"] == "annex_rag"
        assert configuration["embedding_function"]["config"] == {"embedding": "hash", "dim": 512}
    # Chroma embedding a text itself goes through our embedder too, never its downloading default.
    found = store.collections[ATTACHMENT_COLLECTION].query(query_texts=[PHONE_QUESTION], n_results=1)
    assert found["ids"] == [["plan:附件11:0"]]


def test_persistent_store_survives_a_new_process(settings: Settings) -> None:
    opener(settings)().upsert_documents([PLAN, LAW])
    script = (
        "import json, sys; from pathlib import Path; from kb.settings import load_settings;"
        "from kb.search.embeddings import make_embedder; from kb.search.chroma import ChromaVectorStore;"
        "s = load_settings(env={}, store_dir=Path(sys.argv[1])); store = ChromaVectorStore(s, make_embedder(s));"
        "hit = store.query(sys.argv[2], 1)[0];"
        "print(json.dumps({'count': store.count(), 'top': hit.chunk_id, 'span': [hit.start, hit.end]}))"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", script, str(settings.store_dir), PHONE_QUESTION],
        capture_output=True, text=True, env=env, cwd=ROOT, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    chunk = PLAN.chunks[2]
    assert seen["count"] == {BODY_COLLECTION: 3, ATTACHMENT_COLLECTION: 3}
    assert (seen["top"], seen["span"]) == (chunk.id, [chunk.start, chunk.end])


def test_reopening_with_another_embedding_is_refused(settings: Settings) -> None:
    opener(settings)().upsert_documents([PLAN])
    other = dataclasses.replace(settings, embedding_dim=256)
    with pytest.raises(VectorStoreError, match="ANNEX_EMBEDDING_DIM"):
        opener(other)()


def test_unreachable_server_is_a_clear_error(settings: Settings) -> None:
    remote = dataclasses.replace(settings, chroma_host="127.0.0.1", chroma_port=free_port())
    with pytest.raises(VectorStoreError, match="chroma run"):
        opener(remote)()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def chroma_executable() -> str:
    beside = Path(sys.executable).parent / "chroma"
    found = str(beside) if beside.exists() else shutil.which("chroma")
    if not found:
        pytest.fail("The `chroma` command is missing; it comes with `pip install chromadb`.")
    return found


@pytest.fixture
def chroma_server(tmp_path: Path) -> Iterator[int]:
    """A real `chroma run` server on a free port; yields the port and always stops the server."""
    port, log_path = free_port(), tmp_path / "chroma-server.log"
    data = tmp_path / "server-data"
    command = [chroma_executable(), "run", "--path", str(data), "--port", str(port), "--host", "127.0.0.1"]
    with open(log_path, "wb") as log:
        server = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 30
        while not heartbeat(port):
            if server.poll() is not None or time.monotonic() > deadline:
                tail = log_path.read_text(errors="replace")[-2000:]
                pytest.fail(f"Chroma server did not answer on port {port}:\n{tail}")
            time.sleep(0.1)
        yield port
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(timeout=10)


def heartbeat(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v2/heartbeat", timeout=1) as response:
            return response.status == 200
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return False


def test_contract_on_a_chroma_server(settings: Settings, chroma_server: int) -> None:
    remote = dataclasses.replace(settings, chroma_host="127.0.0.1", chroma_port=chroma_server)
    check_contract(opener(remote))
    assert not settings.chroma_dir.exists()  # everything went to the server, nothing to the local store
