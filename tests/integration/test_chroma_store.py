"""ChromaVectorStore: the vector contract (tests/vector_contract.py) on embedded Chroma in tmp_path and on a real
`chroma run` server, and what is Chroma's own (metadata, collection configuration, batching, errors)."""
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

from kb.errors import VectorStoreError
from kb.search.chroma import ChromaVectorStore
from kb.search.embeddings import make_embedder
from kb.settings import Settings
from kb.search.vectors import ATTACHMENT_COLLECTION, BODY_COLLECTION
from tests.vector_contract import LAW, PHONE_QUESTION, PLAN, check_contract, make_doc

ROOT = Path(__file__).resolve().parents[2]
def check_chroma_metadata(open_store: Callable[[], ChromaVectorStore]) -> None:
    """Chroma stores what a hit is rebuilt from, and the document version, as each record's metadata."""
    store = open_store()
    store.upsert_documents([PLAN])
    top = PLAN.chunks[2]
    stored = store.collections[ATTACHMENT_COLLECTION].get(ids=["plan:附件11:0"], include=["metadatas"])
    assert stored["metadatas"][0] == {
        "library": "demo", "doc_id": "plan", "attachment": "附件11", "index": 0, "start": top.start, "end": top.end,
        "content_hash": PLAN.content_hash,  # the version of the document the vector belongs to
    }


def opener(settings: Settings) -> Callable[[], ChromaVectorStore]:
    return lambda: ChromaVectorStore(settings, make_embedder(settings))


def test_contract_on_embedded_chroma(settings: Settings) -> None:
    check_contract(opener(settings))
    check_chroma_metadata(opener(settings))


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
    check_chroma_metadata(opener(remote))
    assert not settings.chroma_dir.exists()  # everything went to the server, nothing to the local store
