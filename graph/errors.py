"""Exceptions of the graph store; each message says what happened and what to do."""
from __future__ import annotations

from kb.errors import AnnexError


class GraphStoreError(AnnexError):
    """The graph store could not do what was asked."""


class GraphEngineError(GraphStoreError):
    """The graph engine is unknown or its Python package is not installed."""


class GraphOpenError(GraphStoreError):
    """The graph database could not be opened."""


class GraphWriteError(GraphStoreError):
    """A write transaction failed and was rolled back; the stored graph is unchanged."""


class GraphQueryError(GraphStoreError):
    """A read query failed."""


class InvalidDocumentError(GraphStoreError, ValueError):
    """A Document is internally inconsistent (a chunk or reference points at a missing attachment)."""
