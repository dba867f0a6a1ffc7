"""Open the graph and vector stores named by the settings, once, and the ingestor over them."""
from __future__ import annotations

from dataclasses import dataclass

from graph.factory import open_graph_store
from kb.errors import SettingsError
from graph.store import GraphStore
from kb.search.factory import open_vector_store
from kb.ingest.ingestor import Ingestor
from kb.search.keyword_index import KeywordIndex
from kb.settings import Settings
from kb.search.vector_process import VectorsApart
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
        self.vectors.close()  # first: a vector store in its own process finishes what it was sent
        self.keywords.close()
        self.graph.close()


ENGINE_FILE = "graph-engine"  # the graph engine a store was made with, one word
ENGINES = ("kuzu", "ladybug")


def open_stores(settings: Settings, bulk: bool = False) -> Stores:
    """Open (creating if needed) the stores under settings.store_dir; for a `bulk` load (a process that only
    writes), the vector store runs in a process of its own beside this one (kb/search/vector_process.py)."""
    settings.store_dir.mkdir(parents=True, exist_ok=True)
    check_engine(settings)
    graph = open_graph_store(settings.graph_dir, settings.graph_engine, settings.graph_buffer_pool_mb)
    vectors = VectorsApart(settings) if bulk else open_vector_store(settings)
    keywords = KeywordIndex(settings.keyword_path)
    ingestor = Ingestor(settings, graph, vectors, keywords)
    ingestor.reconcile_keywords()  # cheap when they agree: one listing of the graph's documents
    return Stores(settings, graph, vectors, keywords, ingestor)


def check_engine(settings: Settings) -> None:
    """Refuse a store made with the other graph engine: its vectors would look orphaned and be deleted."""
    marker = settings.store_dir / ENGINE_FILE
    recorded = marker.read_text(encoding="utf-8").strip() if marker.exists() else ""
    if not recorded:  # a store from before the marker: the graph folder present tells its engine
        made = [e for e in ENGINES if (settings.store_dir / f"graph-{e}").exists()]
        recorded = made[0] if len(made) == 1 else ""
    if recorded and recorded != settings.graph_engine:
        raise SettingsError(
            f"The store {settings.store_dir} was made with ANNEX_GRAPH_ENGINE={recorded}, not "
            f"{settings.graph_engine}; set ANNEX_GRAPH_ENGINE={recorded} to open it, or point ANNEX_STORE_DIR at "
            "another folder for the other engine."
        )
    marker.write_text(settings.graph_engine + "\n", encoding="utf-8")
