"""Open the configured graph store."""
from __future__ import annotations

from graph.engine import check_engine_name
from graph.kuzu_store import KuzuGraphStore
from graph.store import GraphStore
from kb.settings import Settings


def open_graph_store(settings: Settings) -> GraphStore:
    """Open settings.graph_dir with settings.graph_engine ('kuzu' or 'ladybug')."""
    check_engine_name(settings.graph_engine)
    return KuzuGraphStore(settings.graph_dir, engine=settings.graph_engine)
