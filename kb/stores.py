"""Open the graph and vector stores named by the settings, once, and the ingestor over them."""
from __future__ import annotations

from dataclasses import dataclass

from graph.factory import open_graph_store
from graph.store import GraphStore
from kb.search.factory import open_vector_store
from kb.ingest.ingestor import Ingestor
from kb.search.keyword_index import KeywordIndex
from kb.settings import Settings
from kb.search.vectors import VectorStore


@dataclass
class Stores:
    """Everything that holds data, opened together and closed together."""

    settings: Settings
    graph: GraphStore
    vectors: VectorStore
    keywords: KeywordIndex
    ingestor: Ingestor

    def close(self) -> None:
        self.keywords.close()
        self.graph.close()


def open_stores(settings: Settings) -> Stores:
    """Open (creating if needed) the stores under settings.store_dir."""
    settings.store_dir.mkdir(parents=True, exist_ok=True)
    graph = open_graph_store(settings.graph_dir, settings.graph_engine, settings.graph_buffer_pool_mb)
    vectors = open_vector_store(settings)
    keywords = KeywordIndex(settings.keyword_path)
    ingestor = Ingestor(settings, graph, vectors, keywords)
    ingestor.reconcile_keywords()  # cheap when they agree: one listing of the graph's documents
    return Stores(settings, graph, vectors, keywords, ingestor)
