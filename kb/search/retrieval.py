"""Retrieval: vector search, BM25 fused by reciprocal rank fusion, threshold, topK, rerank, context expansion.

Score scale. Every hit carries `score` in [0, 1], its relevance relative to the best match: for each
retriever that found the chunk, its score divided by that retriever's best score (cosine similarity for
vectors, BM25 for words), and the larger of the two. The best hit scores 1.0; the threshold (default 0.7)
keeps chunks at least 70% as relevant as the best one by either retriever. Ranking uses RRF (k = 60).
Whether the knowledge base holds an answer at all is the answerer's call, not the threshold's. A document's best
chunk that cites an attachment is kept even under the threshold (see keep()): it leads to content it does not show.
And a few attachment chunks above the threshold keep a place past topK: a document's many body chunks would
otherwise push out the table that holds the answer (keep()).
"""
from __future__ import annotations

from dataclasses import replace
from typing import Callable, Mapping, Sequence

from kb.search.bm25 import BM25Index, IndexedChunk
from kb.search.rerank import Reranker
from kb.turn import Hit, TurnRequest
from kb.search.vectors import VectorStore

RRF_K = 60
CANDIDATES = 50  # per retriever, before threshold and topK
# Open vector queries asked, each twice as wide, before the filtered one (Retriever._vector_hits): the unknown vectors
# are an upload's in flight or a crash's orphans, a few batches at most, and an open query costs ~10 ms at 92k chunks.
OPEN_WIDENINGS = 3
# Attachment chunks that keep a place among the hits by their own relevance, however the body chunks rank. Found by
# one retriever alone (the words of a phone table, not its vector), a table ranks ~30th by RRF behind twenty body
# chunks that both retrievers find; 2 places brought dev reached 0.984 → 1.0 (the contact tables of 附件5).
ATTACHMENT_PLACES = 2


class Retriever:
    """Finds the chunks for a query over the chosen libraries (and optionally one document)."""

    def __init__(
        self,
        vectors: VectorStore,
        bm25: Callable[[], BM25Index],
        neighbours: Callable[[Sequence[Hit]], list[Hit]],
        reranker: Reranker,
    ) -> None:
        self.vectors = vectors
        self.bm25 = bm25
        self.neighbours = neighbours
        self.reranker = reranker

    def retrieve(self, query: str, request: TurnRequest, leads: bool = True) -> list[Hit]:
        """The top-k hits above the threshold, best first, with neighbours when expansion is on.

        `leads`: keep a document's best chunk that cites an attachment under the threshold, and the best attachment
        chunks above it past topK (keep()). Which chunks cite one is the graph's REFERENCES edges, and attachments as
        places of their own are the graph's nodes, so a baseline without the graph retrieves without them."""
        index = self.bm25()
        # Explicit, always: "every library" is every library the read model knows, never whatever Chroma holds
        # (an upload's vectors land batch by batch before its graph commit makes the read model know it).
        libraries = sorted(request.library_ids or index.libraries)
        if not libraries:
            return []
        pool = max(CANDIDATES, request.top_k * 2)
        vector_hits = self._vector_hits(index, query, pool, libraries, request.document_id,
                                        set(libraries) >= index.libraries)
        word_hits = index.search(query, pool, libraries, request.document_id) if request.enable_hybrid_search else []
        hits = fuse(vector_hits, word_hits)
        hits = keep(hits, request.threshold, request.top_k, index.citing if leads else frozenset(),
                    ATTACHMENT_PLACES if leads else 0)
        if request.enable_rerank and hits:
            scores = self.reranker.scores(query, [h.text for h in hits])
            order = sorted(range(len(hits)), key=lambda i: -scores[i])
            hits = [replace(hits[i], rerank_score=scores[i]) for i in order]
        if request.enable_context_expansion and hits:
            hits = self._expand(hits)
        return [replace(h, continues=index.continued(h.chunk_id)) for h in hits]

    def _vector_hits(self, index: BM25Index, query: str, pool: int, libraries: list[str], doc_id: str | None,
                     everything: bool) -> list[tuple[IndexedChunk, float]]:
        """The vector store's `pool` closest chunks in these libraries, placed by the snapshot (Chroma returns ids and
        similarities only: the snapshot holds each chunk's text, document and library).

        A filtered query costs ~20x an open one on a large store, so a question over every library the read model
        knows asks without the filter; Chroma may still hold vectors of a library the read model does not know yet
        (an upload's land batch by batch before its graph commit) or no longer (a crash before a delete's commit).
        The known ones among the open query's closest are exactly the closest known ones, so when unknown ones take
        places the open query is asked again, wider (OPEN_WIDENINGS times), and only then with the filter: during an
        upload at 92k chunks its own vectors, near a question on its topic, sent every such chat to the filtered
        query (~800 ms) between its vector add and its graph commit. The pool is always full.
        """
        if everything:
            asked = pool
            for _ in range(OPEN_WIDENINGS):
                found = self.vectors.nearest(query, asked, None, doc_id)
                placed = index.placed([chunk_id for chunk_id, _ in found])
                if len(placed) >= pool or len(found) < asked:  # the known ones among the closest: the pool, or all
                    return _scored(placed[:pool], found)
                asked *= 2  # unknown ones took places: the closest known ones lie a little further out
        found = self.vectors.nearest(query, pool, libraries, doc_id)
        return _scored([c for c in index.placed([chunk_id for chunk_id, _ in found]) if c.library in libraries], found)

    def _expand(self, hits: list[Hit]) -> list[Hit]:
        """Each hit followed by its neighbouring chunks of the same body or attachment (once each)."""
        seen = {h.chunk_id for h in hits}
        out: list[Hit] = []
        extra = {}
        for n in self.neighbours(hits):
            extra.setdefault((n.doc_id, n.attachment), []).append(n)
        for hit in hits:
            out.append(hit)
            for n in extra.get((hit.doc_id, hit.attachment), []):
                if abs(n.index - hit.index) == 1 and n.chunk_id not in seen:
                    seen.add(n.chunk_id)
                    out.append(replace(n, score=hit.score, expanded=True))
        return out


def keep(hits: Sequence[Hit], threshold: float, top_k: int, citing: frozenset[str], places: int = 0) -> list[Hit]:
    """The hits at or above the threshold (top_k of them), plus, per document they come from, its best chunk that
    cites an attachment when none of its kept chunks does, and up to `places` attachment chunks above the threshold
    that rank below top_k, best score first, of attachments no kept chunk belongs to.

    A chunk such as "禁止倾倒附件一所列的废弃物" stands for content its own words do not show: a question that names
    the law matches the law's other chunks better, and the threshold would cut the one way to 附件一. A table such
    as 外部应急通讯录 matches the question's words (医院, 电话) as well as any body chunk, but only by its words: RRF
    ranks it below every chunk both retrievers find, and topK would cut the answer itself.
    """
    above = [h for h in hits if h.score >= threshold]
    kept = above[:top_k]
    docs = {h.doc_id for h in kept}
    leading = {h.doc_id for h in kept if h.chunk_id in citing}
    leads: list[str] = []  # in rank order
    for h in hits:
        if h.doc_id in docs and h.doc_id not in leading and h.chunk_id in citing and h.score < threshold:
            leading.add(h.doc_id)
            leads.append(h.chunk_id)
    owners = {(h.doc_id, h.attachment) for h in kept if h.attachment}
    placed: list[str] = []
    for h in sorted(above[top_k:], key=lambda h: -h.score):  # stable: RRF order on ties
        if len(placed) < places and h.attachment and h.doc_id in docs and (h.doc_id, h.attachment) not in owners:
            owners.add((h.doc_id, h.attachment))
            placed.append(h.chunk_id)
    extra = leads + placed
    room = max(1, top_k - len(extra))  # topK still bounds the whole: the extra take the places of the weakest hits
    chosen = {h.chunk_id for h in kept[:room]} | set(extra[: top_k - min(room, len(kept))])
    return [h for h in hits if h.chunk_id in chosen]


def fuse(vector_hits: Sequence[tuple[IndexedChunk, float]], word_hits: Sequence[tuple[IndexedChunk, float]]
         ) -> list[Hit]:
    """Reciprocal rank fusion of the two lists (each a chunk and its retriever's score, best first); score = best
    relative score (see module docstring)."""
    rrf: dict[str, float] = {}
    hits: dict[str, Hit] = {}
    for kind, found in (("vector", vector_hits), ("bm25", word_hits)):
        best = max((s for _, s in found), default=0.0)
        for rank, (c, s) in enumerate(found):
            rrf[c.chunk_id] = rrf.get(c.chunk_id, 0.0) + 1.0 / (RRF_K + rank + 1)
            relative = max(0.0, s) / best if best > 0 else 0.0
            known = hits.get(c.chunk_id)
            if known is None:
                known = hits[c.chunk_id] = Hit(c.chunk_id, c.doc_id, c.library, c.attachment, c.index, c.start,
                                               c.end, c.text, score=relative)
            hits[c.chunk_id] = replace(known, score=max(known.score, relative), **{f"{kind}_score": s})
    order = sorted(hits, key=lambda cid: (-rrf[cid], cid))
    return [replace(hits[cid], score=round(min(1.0, hits[cid].score), 6)) for cid in order]


def _scored(placed: Sequence[IndexedChunk], found: Sequence[tuple[str, float]]) -> list[tuple[IndexedChunk, float]]:
    """The placed chunks with the similarity the vector store found them at, in its order."""
    score = dict(found)
    return [(c, score[c.chunk_id]) for c in placed]


OWN_WORDS_WEIGHT = 0.5  # a follow-up's own words rank below its reading: 西岭街道呢？ alone matches any 西岭 chunk


def fuse_readings(resolved: list[Hit], own: list[Hit], top_k: int) -> list[Hit]:
    """Reciprocal rank fusion of two hit lists (the follow-up read in full, its own words), top_k hits; a hit keeps
    the context-expansion neighbours that follow it."""
    groups: dict[str, list[Hit]] = {}
    rank: dict[str, float] = {}
    for weight, hits in ((1.0, resolved), (OWN_WORDS_WEIGHT, own)):
        place, last = 0, ""
        for h in hits:
            if h.expanded:
                if last in groups and h.chunk_id not in {x.chunk_id for x in groups[last]}:
                    groups[last].append(h)
                continue
            last = h.chunk_id
            place += 1
            rank[h.chunk_id] = rank.get(h.chunk_id, 0.0) + weight / (RRF_K + place)
            groups.setdefault(h.chunk_id, [h])
    order = sorted(rank, key=lambda cid: -rank[cid])[:top_k]
    seen: set[str] = set()
    out = []
    for cid in order:
        for h in groups[cid]:
            if h.chunk_id not in seen:
                seen.add(h.chunk_id)
                out.append(h)
    return out
