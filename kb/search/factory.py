"""Open the vector store that settings.vector_store names: a registry of backends, like the embedders'."""
from __future__ import annotations

from typing import Callable

from kb.errors import SettingsError
from kb.search.chroma import ChromaVectorStore
from kb.search.embeddings import make_embedder
from kb.search.vectors import Embedder, VectorStore
from kb.settings import Settings

# name -> class (or function) taking (settings, embedder); a new backend is one class and one line here
VECTOR_STORES: dict[str, Callable[[Settings, Embedder], VectorStore]] = {"chroma": ChromaVectorStore}


def open_vector_store(settings: Settings, embedder: Embedder | None = None) -> VectorStore:
    """The vector store named by ANNEX_VECTOR_STORE, over the configured embedder unless one is given."""
    opener = VECTOR_STORES.get(settings.vector_store)
    if opener is None:
        names = ", ".join(repr(name) for name in VECTOR_STORES)
        raise SettingsError(f"ANNEX_VECTOR_STORE={settings.vector_store!r} is not a vector store; use one of {names}.")
    return opener(settings, embedder or make_embedder(settings))
