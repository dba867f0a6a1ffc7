"""The Chroma vector store: body and attachment chunks in two cosine collections, embedded by our Embedder.

Chroma holds each chunk's vector and the metadata to filter and place it by, not its text: the read models hold
every chunk's text already (kb/search/readmodels.py), and Chroma's own store of documents doubled the cost of an add
(1.3 instead of 0.8 ms of CPU a chunk, most of an ingest's time). A hit's text comes from the snapshot it is read in.
"""
from __future__ import annotations

from typing import Any, Callable, Iterator, Sequence

import chromadb
import httpx
import numpy as np
from chromadb.api.types import Documents, EmbeddingFunction, Embeddings
from chromadb.config import Settings as ChromaSettings
from chromadb.errors import ChromaError
from chromadb.utils.embedding_functions import register_embedding_function

from kb.search.embedding_cache import with_cache
from kb.errors import VectorStoreError
from kb.model import BODY, Document, is_private
from kb.readers_first import ReadersFirst
from kb.settings import Settings, load_settings
from kb.search.embeddings import make_embedder
from kb.search.indexed_text import indexed_texts
from kb.search.vectors import ATTACHMENT_COLLECTION, BODY_COLLECTION, Embedder, VectorHit

COLLECTIONS = (BODY_COLLECTION, ATTACHMENT_COLLECTION)
_CHROMA_ERRORS = (ChromaError, ValueError, httpx.HTTPError)
_PAGE = 5000  # rows per get() page when listing document ids
_IDS_PER_GET = 500  # document ids per `doc_id $in` filter
# Chunks per add: Chroma copies a batch's vectors into Python lists before its index takes them, and the process
# keeps that memory; 1,000 costs the same CPU as Chroma's maximum (5,461) at half the memory (18k chunks: 85 vs 158 MB).
ADD_BATCH = 1000
# Chunks per add in a process that serves turns (kb/readers_first.py): an add holds the interpreter for its whole
# call, so a question asked during one waits for it. At 92k chunks 100 held it 140-400 ms, 50 ~100 ms (~35 ms of it
# fixed per call), for more CPU a chunk, which an upload of a few documents does not notice and a bulk load
# (ADD_BATCH) does not pay.
SERVING_ADD_BATCH = 50


@register_embedding_function
class AnnexEmbeddingFunction(EmbeddingFunction[Documents]):
    """Chroma's view of our Embedder, so a collection never falls back to Chroma's downloading default."""

    def __init__(self, embedder: Embedder) -> None:
        self.embedder = embedder

    def __call__(self, input: Documents) -> Embeddings:
        return list(self.embedder.embed_passages(list(input)))

    def embed_query(self, input: Documents) -> Embeddings:
        return list(self.embedder.embed_queries(list(input)))

    @staticmethod
    def name() -> str:
        return "annex_rag"

    def get_config(self) -> dict[str, Any]:
        return {"embedding": self.embedder.name, "dim": self.embedder.dim}

    @staticmethod
    def build_from_config(config: dict[str, Any]) -> "AnnexEmbeddingFunction":
        settings = load_settings(env={}, embedding=config["embedding"], embedding_dim=int(config["dim"]))
        return AnnexEmbeddingFunction(make_embedder(settings))

    def default_space(self) -> str:  # type: ignore[override]
        return "cosine"

    def supported_spaces(self) -> list[str]:  # type: ignore[override]
        return ["cosine"]


class ChromaVectorStore:
    """VectorStore on an embedded PersistentClient, or a Chroma server when settings.chroma_host is set."""

    def __init__(self, settings: Settings, embedder: Embedder) -> None:
        self.embedder = with_cache(embedder, settings.embedding_cache_path)
        self._uncached = embedder  # a visitor's private text: its vectors must not outlive it in the cache
        self._function = AnnexEmbeddingFunction(self.embedder)
        chroma_settings = ChromaSettings(anonymized_telemetry=False)
        if settings.chroma_host:
            self.where = f"Chroma server {settings.chroma_host}:{settings.chroma_port}"
            remedy = "start it with `chroma run --host ... --port ...` or fix ANNEX_CHROMA_HOST/ANNEX_CHROMA_PORT"
            with self._errors("connect to the server", remedy):
                self.client = chromadb.HttpClient(
                    host=settings.chroma_host, port=settings.chroma_port, settings=chroma_settings
                )
        else:
            self.where = f"embedded Chroma at {settings.chroma_dir}"
            remedy = "check that the directory is writable and not held by another Chroma version"
            with self._errors("open the database", remedy):
                self.client = chromadb.PersistentClient(path=str(settings.chroma_dir), settings=chroma_settings)
        with self._errors("open the collections"):
            self.collections = {
                name: self.client.get_or_create_collection(
                    name,
                    configuration={"hnsw": {"space": "cosine"}},
                    embedding_function=self._function,  # type: ignore[arg-type]
                )
                for name in COLLECTIONS
            }
            self.max_batch = self.client.get_max_batch_size()
        for name, collection in self.collections.items():
            self._check_config(name, collection.configuration_json)

    def upsert_documents(self, docs: Sequence[Document], readers: ReadersFirst | None = None) -> None:
        """Write every chunk of the documents, replacing what was stored for those document ids; with `readers`,
        each call that holds the interpreter waits for the turns in flight first."""
        latest = {doc.id: doc for doc in docs}  # a doc given twice: the last one wins
        if not latest:
            return
        step = readers.step if readers is not None else _no_wait
        size = min(SERVING_ADD_BATCH if readers is not None and readers.serving else ADD_BATCH, self.max_batch)
        held = self._stored_ids(list(latest))  # by primary key: no delete for a document Chroma never held
        if held:
            with self._errors(f"remove the old chunks of {len(latest)} documents"):
                for name, ids in held.items():
                    for batch in _batches(ids, size):
                        step()
                        self.collections[name].delete(ids=batch)
        rows: dict[str, list[tuple[str, str, str, dict[str, Any]]]] = {name: [] for name in COLLECTIONS}
        for doc in latest.values():
            titles = {a.label: a.title for a in doc.attachments}
            contexts = indexed_texts(doc.title, doc.chunks, titles)
            for chunk, context in zip(doc.chunks, contexts):
                metadata = {  # what a hit is rebuilt from and filtered by, nothing more: every key costs each add
                    "library": doc.library,
                    "doc_id": doc.id,
                    "content_hash": doc.content_hash,  # which version of the document this vector belongs to
                    "attachment": chunk.attachment,
                    "index": chunk.index,
                    "start": chunk.start,
                    "end": chunk.end,
                }
                name = BODY_COLLECTION if chunk.attachment == BODY else ATTACHMENT_COLLECTION
                rows[name].append((chunk.id, f"{context}\n{chunk.text}", metadata))
        for name, items in rows.items():
            for batch in _batches(items, size):
                ids, to_embed, metadatas = (list(column) for column in zip(*batch))
                private = all(is_private(str(meta["library"])) for meta in metadatas)
                embeddings = (self._uncached if private else self.embedder).embed_passages(to_embed)
                step()
                with self._errors(f"add {len(ids)} chunks to {name}"):  # no documents: see the module docstring
                    self.collections[name].add(ids=ids, embeddings=embeddings, metadatas=metadatas)  # type: ignore[arg-type]

    def begin_upsert(self, docs: Sequence[Document], readers: ReadersFirst | None = None) -> Callable[[], None]:
        """upsert_documents(), done before returning: this process holds the client."""
        self.upsert_documents(docs, readers)
        return _no_wait

    def close(self) -> None:
        """Nothing to let go: Chroma's client lives as long as the process and writes as it goes."""

    def _stored_ids(self, doc_ids: list[str]) -> dict[str, list[str]]:
        """The ids of the chunks stored for these documents, per collection (only the collections that hold some)."""
        found: dict[str, list[str]] = {}
        with self._errors(f"look up the stored chunks of {len(doc_ids)} documents"):
            for name, collection in self.collections.items():
                for lo in range(0, len(doc_ids), _IDS_PER_GET):
                    where = {"doc_id": {"$in": doc_ids[lo : lo + _IDS_PER_GET]}}
                    ids = collection.get(where=where, include=[])["ids"]  # type: ignore[arg-type]
                    if ids:
                        found.setdefault(name, []).extend(ids)
        return found

    def delete_document(self, doc_id: str) -> int:
        """Remove every chunk of a document from both collections; returns how many were removed."""
        removed = 0
        with self._errors(f"delete document {doc_id!r}"):
            for collection in self.collections.values():
                ids = collection.get(where={"doc_id": doc_id}, include=[])["ids"]
                if ids:
                    collection.delete(ids=ids)
                removed += len(ids)
        return removed

    def query(
        self,
        text: str,
        k: int,
        libraries: Sequence[str] | None = None,
        doc_id: str | None = None,
        collections: Sequence[str] = COLLECTIONS,
    ) -> list[VectorHit]:
        """The k closest chunks across the collections, best first, filtered by library and document."""
        rows = self._nearest_rows(text, k, libraries, doc_id, collections, ["metadatas", "distances"])
        hits = [hit for result in rows for hit in _hits(result)]
        hits.sort(key=lambda hit: (-hit.score, hit.chunk_id))
        return hits[:k]

    def nearest(self, text: str, k: int, libraries: Sequence[str] | None = None,
                doc_id: str | None = None) -> list[tuple[str, float]]:
        """The k closest chunk ids of both collections and their cosine similarity, best first (no metadata read)."""
        rows = self._nearest_rows(text, k, libraries, doc_id, COLLECTIONS, ["distances"])
        found = [(chunk_id, 1.0 - float(distance)) for result in rows
                 for chunk_id, distance in zip(result["ids"][0], result["distances"][0])]
        found.sort(key=lambda pair: (-pair[1], pair[0]))
        return found[:k]

    def _nearest_rows(self, text: str, k: int, libraries: Sequence[str] | None, doc_id: str | None,
                      collections: Sequence[str], include: list[str]) -> list[Any]:
        """One Chroma QueryResult per collection for the text's vector (none when nothing can match)."""
        unknown = [name for name in collections if name not in self.collections]
        if unknown:
            raise ValueError(f"Unknown collection(s) {unknown}; the collections are {list(COLLECTIONS)}.")
        if isinstance(libraries, str):
            raise TypeError(f"libraries must be a list of library names, not the str {libraries!r}.")
        if k <= 0 or (libraries is not None and not libraries):
            return []
        vector = self.embedder.embed_queries([text])
        if not np.any(vector):  # nothing to compare: the query has no letters or digits
            return []
        where = _where(libraries, doc_id)
        rows = []
        for name in collections:
            # No count() first: Chroma 1.x returns what it has when asked for more (or for an empty
            # collection), and a count costs ~5 ms per collection at 100k chunks.
            with self._errors(f"query {name}"):
                rows.append(self.collections[name].query(query_embeddings=vector, n_results=k,  # type: ignore[arg-type]
                                                         where=where, include=include))  # type: ignore[arg-type]
        return rows

    def attachment_chunk_ids(self, doc_id: str, label: str) -> list[str]:
        """The ids of one attachment's chunks in the attachment collection, in chunk order (the keyword baseline's
        fetch)."""
        with self._errors(f"fetch the chunks of {label} of {doc_id!r}"):
            result = self.collections[ATTACHMENT_COLLECTION].get(
                where={"$and": [{"doc_id": doc_id}, {"attachment": label}]}, include=["metadatas"]
            )
        found = sorted(zip(result["ids"], result["metadatas"] or []), key=lambda row: int(row[1]["index"]))
        return [chunk_id for chunk_id, _ in found]

    def doc_ids(self) -> set[str]:
        """Every document id that has chunks stored."""
        return set(self.chunk_counts())

    def chunk_counts(self) -> dict[str, int]:
        """Stored chunks per document id, both collections together."""
        return {doc_id: sum(by_hash.values()) for doc_id, by_hash in self.chunk_versions().items()}

    def chunk_versions(self, doc_ids: Sequence[str] | None = None) -> dict[str, dict[str, int]]:
        """Stored chunks per document id and content hash ("" for vectors written before the hash was kept).

        One metadata scan of both collections, of every document or only of `doc_ids`.
        """
        versions: dict[str, dict[str, int]] = {}
        ids = None if doc_ids is None else list(dict.fromkeys(doc_ids))
        groups = [None] if ids is None else [ids[i : i + _IDS_PER_GET] for i in range(0, len(ids), _IDS_PER_GET)]
        with self._errors("count chunks per document"):
            for collection in self.collections.values():
                for group in groups:
                    where = None if group is None else {"doc_id": {"$in": group}}
                    offset = 0
                    while True:
                        page = collection.get(
                            where=where, include=["metadatas"], limit=_PAGE, offset=offset  # type: ignore[arg-type]
                        )
                        metadatas = page["metadatas"] or []
                        for meta in metadatas:
                            by_hash = versions.setdefault(str(meta["doc_id"]), {})
                            version = str(meta.get("content_hash", ""))
                            by_hash[version] = by_hash.get(version, 0) + 1
                        if len(metadatas) < _PAGE:
                            break
                        offset += _PAGE
        return versions

    def count(self) -> dict[str, int]:
        """Chunks per collection."""
        with self._errors("count chunks"):
            return {name: collection.count() for name, collection in self.collections.items()}

    def _check_config(self, name: str, configuration: dict[str, Any]) -> None:
        """Refuse a collection made for another embedder or distance: its scores would be meaningless."""
        space = (configuration.get("hnsw") or {}).get("space")
        if space != "cosine":
            raise VectorStoreError(
                f"Collection {name} in {self.where} uses distance {space!r}, not 'cosine'; "
                "delete the collection (or the Chroma store) and re-ingest."
            )
        persisted = configuration.get("embedding_function") or {}
        config = persisted.get("config") or {}
        if persisted.get("name") != AnnexEmbeddingFunction.name() or config == self._function.get_config():
            return
        raise VectorStoreError(
            f"Collection {name} in {self.where} was built with embedding {config.get('embedding')!r} "
            f"({config.get('dim')} dims), but settings ask for {self.embedder.name!r} ({self.embedder.dim} dims). "
            "Set ANNEX_EMBEDDING/ANNEX_EMBEDDING_DIM back, or delete the Chroma store and re-ingest."
        )

    def _errors(self, action: str, remedy: str = "") -> "_Wrap":
        return _Wrap(f"{self.where}: could not {action}", remedy)


class _Wrap:
    """Context manager turning Chroma's exceptions into VectorStoreError with the action and a remedy."""

    def __init__(self, what: str, remedy: str) -> None:
        self.what, self.remedy = what, remedy

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type | None, exc: BaseException | None, tb: object) -> bool:
        if exc is not None and isinstance(exc, _CHROMA_ERRORS):
            remedy = f" To fix: {self.remedy}." if self.remedy else ""
            raise VectorStoreError(f"{self.what}: {type(exc).__name__}: {exc}{remedy}") from exc
        return False


def _where(libraries: Sequence[str] | None, doc_id: str | None) -> dict[str, Any] | None:
    """A Chroma where clause: one condition bare, several under $and."""
    conditions: list[dict[str, Any]] = []
    if libraries is not None:
        conditions.append({"library": {"$in": list(libraries)}})
    if doc_id is not None:
        conditions.append({"doc_id": doc_id})
    if not conditions:
        return None
    return conditions[0] if len(conditions) == 1 else {"$and": conditions}


def _hits(result: Any) -> Iterator[VectorHit]:
    """VectorHits from the first (only) query row of a Chroma QueryResult."""
    rows = zip(result["ids"][0], result["metadatas"][0], result["distances"][0])
    for chunk_id, meta, distance in rows:
        yield VectorHit(
            chunk_id=chunk_id,
            doc_id=str(meta["doc_id"]),
            library=str(meta["library"]),
            attachment=str(meta["attachment"]),
            index=int(meta["index"]),
            start=int(meta["start"]),
            end=int(meta["end"]),
            score=1.0 - float(distance),
        )


def _no_wait() -> None:
    """A write with no readers to step aside for (a bulk load, a test)."""


def _batches(items: list[Any], size: int) -> Iterator[list[Any]]:
    for lo in range(0, len(items), size):
        yield items[lo : lo + size]
