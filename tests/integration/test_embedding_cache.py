"""The passage-vector cache: an unchanged corpus is embedded once, into any number of fresh vector stores."""
from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path
from typing import Sequence

import numpy as np
import pytest

from kb.errors import EmbeddingCacheError
from graph.factory import open_graph_store
from kb.search.chroma import ChromaVectorStore
from kb.search.keyword_index import KeywordIndex
from kb.search.embedding_cache import CachedEmbedder
from kb.search.embeddings import make_embedder
from kb.search.hash_embedding import HashEmbedder
from kb.ingest.ingestor import Ingestor
from kb.settings import Settings
from tests.conftest import DEMO_CORPUS
from tests.recording_embedder import RecordsTexts

DOCS = ["青禾县人民医院火灾事故应急预案.md", "示范市餐厨垃圾管理办法.md", "西岭街道防汛应急预案.txt"]
QUESTIONS = ["发生火灾时应拨打哪些外部应急电话？", "餐厨垃圾收运单位应当具备哪些条件？", "防汛物资储备在哪里？"]


class CountingHash(RecordsTexts, HashEmbedder):
    """The real hash embedder, declared worth caching, recording every text it is asked to embed."""

    cache_key = "counting-hash"


def ingest(settings: Settings, embedder: CountingHash, paths: Sequence[Path]) -> ChromaVectorStore:
    """Ingest through the product's Ingestor into the graph and a ChromaVectorStore on this embedder."""
    graph = open_graph_store(settings.graph_dir, settings.graph_engine)
    vectors = ChromaVectorStore(settings, embedder)
    try:
        results = Ingestor(settings, graph, vectors, KeywordIndex(settings.keyword_path)).ingest(list(paths), "demo")
    finally:
        graph.close()
    assert results and all(r.status != "error" for r in results), results
    return vectors


def small_corpus(tmp_path: Path) -> Path:
    """Three documents of the demo corpus (plans and a regulation, with attachments), copied so they can be edited."""
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for name in DOCS:
        shutil.copy(DEMO_CORPUS / name, corpus)
    return corpus


def test_a_fresh_vector_store_with_a_warm_cache_embeds_nothing(tmp_path: Path, settings: Settings) -> None:
    corpus = small_corpus(tmp_path)
    cache = tmp_path / "cache" / "vectors.sqlite"
    first_settings = dataclasses.replace(settings, store_dir=tmp_path / "a", embedding_cache=str(cache))
    first = CountingHash()
    cold = ingest(first_settings, first, [corpus])
    stored = sum(cold.count().values())
    assert stored > 30 and len(first.passages) == stored  # cold: every chunk went to the model once
    assert isinstance(cold.embedder, CachedEmbedder) and cold.embedder.count() == len(set(first.passages))

    second = CountingHash()
    warm = ingest(dataclasses.replace(first_settings, store_dir=tmp_path / "b"), second, [corpus])
    assert second.passages == []  # warm: the model was not called once
    assert warm.count() == cold.count() and warm.chunk_counts() == cold.chunk_counts()
    for question in QUESTIONS:  # and the store answers exactly as the one embedded by the model
        assert [(h.chunk_id, round(h.score, 6)) for h in warm.query(question, 5)] == [
            (h.chunk_id, round(h.score, 6)) for h in cold.query(question, 5)
        ]
    assert len(second.queries) == len(QUESTIONS)  # questions are never cached


def test_an_edited_document_sends_only_its_changed_chunk_to_the_model(tmp_path: Path, settings: Settings) -> None:
    corpus = small_corpus(tmp_path)
    cached = dataclasses.replace(settings, embedding_cache=str(tmp_path / "vectors.sqlite"))
    first = CountingHash()
    ingest(cached, first, [corpus])
    doc = corpus / DOCS[0]
    text = doc.read_text(encoding="utf-8")
    assert text.count("立即报告") == 1
    doc.write_text(text.replace("立即报告", "及时报告"), encoding="utf-8")  # same length: chunk bounds stay

    second = CountingHash()
    store = ingest(cached, second, [corpus])
    assert len(second.passages) == 1 < sum(store.count().values())
    assert "及时报告" in second.passages[0] and second.passages[0] not in first.passages


def test_vectors_come_back_bit_for_bit_and_are_kept_apart_by_model_and_width(tmp_path: Path) -> None:
    path = tmp_path / "vectors.sqlite"
    texts = ["附件11 应急联系电话表", "应急物资装备清单", "附件11 应急联系电话表", "应急值班电话"]
    model = CountingHash()
    cached = CachedEmbedder(model, path)
    np.testing.assert_array_equal(cached.embed_passages(texts), HashEmbedder().embed(texts))
    assert model.passages == ["附件11 应急联系电话表", "应急物资装备清单", "应急值班电话"]  # a repeat once
    cached.close()

    again = CountingHash()
    reopened = CachedEmbedder(again, path)  # persisted: a new instance on the same file embeds nothing
    np.testing.assert_array_equal(reopened.embed_passages(texts[::-1]), HashEmbedder().embed(texts[::-1]))
    assert again.passages == [] and reopened.count() == 3

    narrower = CountingHash(256)  # another width is another model's vectors
    assert CachedEmbedder(narrower, path).embed_passages(texts).shape == (4, 256) and len(narrower.passages) == 3
    other = CountingHash()
    other.cache_key = "another-model"
    CachedEmbedder(other, path).embed_passages(texts[:1])
    assert other.passages == texts[:1]


def test_the_hash_embedder_is_not_cached(settings: Settings) -> None:
    store = ChromaVectorStore(settings, make_embedder(settings))
    assert isinstance(store.embedder, HashEmbedder)
    assert not settings.embedding_cache_path.exists()


def test_a_damaged_cache_file_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "vectors.sqlite"
    path.write_bytes(b"this is not a database" * 100)
    with pytest.raises(EmbeddingCacheError, match="delete the file: it is only a cache") as caught:
        CachedEmbedder(CountingHash(), path)
    assert str(path) in str(caught.value)
