"""Open a graph store: a directory and an engine name ('kuzu' or 'ladybug'); nothing here reads settings."""
from __future__ import annotations

from pathlib import Path

from graph.engine import check_engine_name
from graph.kuzu_store import KuzuGraphStore
from graph.store import GraphStore


def open_graph_store(path: Path, engine: str = "kuzu", buffer_pool_mb: int = 0) -> GraphStore:
    """Open (or create) the graph at path with the named engine; an unknown name raises GraphEngineError.

    `buffer_pool_mb` bounds the engine's page cache (0: its default, about 80% of the machine's memory)."""
    check_engine_name(engine)
    return KuzuGraphStore(path, engine=engine, buffer_pool_mb=buffer_pool_mb)
