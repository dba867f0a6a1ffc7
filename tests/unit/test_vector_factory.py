"""The vector store is chosen by name from one registry (kb/search/factory.py)."""
from __future__ import annotations

import pytest

from kb.errors import SettingsError
from kb.search import factory
from kb.search.chroma import ChromaVectorStore
from kb.settings import Settings
from kb.stores import open_stores


def test_the_default_backend_is_chroma(settings: Settings) -> None:
    assert isinstance(factory.open_vector_store(settings), ChromaVectorStore)


def test_an_unknown_backend_names_the_registered_ones(settings: Settings) -> None:
    with pytest.raises(SettingsError, match="ANNEX_VECTOR_STORE='faiss' is not a vector store; use one of 'chroma'"):
        factory.open_vector_store(Settings(store_dir=settings.store_dir, vector_store="faiss"))


def test_a_registered_backend_is_what_the_stores_open(settings: Settings, monkeypatch) -> None:
    class Recording(ChromaVectorStore):
        pass

    monkeypatch.setitem(factory.VECTOR_STORES, "recording", Recording)
    stores = open_stores(Settings(store_dir=settings.store_dir, vector_store="recording"))
    try:
        assert type(stores.vectors) is Recording and stores.ingestor.vectors is stores.vectors
    finally:
        stores.close()
