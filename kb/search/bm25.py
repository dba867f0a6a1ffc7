"""BM25 search of one read-model snapshot: its segments (kb/search/bm25_segments.py), hits resolved to its chunks."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Mapping, Sequence

from graph.view import GraphView
from kb.search.bm25_segments import Segments
from kb.search.tokens import tokenize
from kb.search.vocabulary import Vocabulary


@dataclass(frozen=True)
class IndexedChunk:
    """What BM25 needs to know of a chunk to filter and return it."""

    chunk_id: str
    doc_id: str
    library: str
    attachment: str
    index: int
    start: int
    end: int
    text: str
    context: str = ""  # indexed before the text (kb/search/indexed_text.py); never shown
    continues: str = ""  # the table header row or list lead-in its start continues (indexed_text.continued_lines)


class BM25Index:
    """BM25 as one snapshot sees it: only chunks of the snapshot's documents are returned."""

    def __init__(
        self,
        segments: Segments,
        vocab: Vocabulary,
        view: GraphView,
        library_of: Callable[[str], str | None],
        libraries: frozenset[str],
        citing: frozenset[str],
        continues: Mapping[str, str],
    ) -> None:
        self.segments = segments
        self._vocab = vocab  # word → id, shared with the keyword store (it only grows)
        self._view = view
        self._library_of = library_of  # doc_id → library, None for a document the snapshot does not hold
        self.libraries = libraries  # every library that holds a chunk
        self.citing = citing  # ids of the chunks that hold a resolved reference to an attachment
        self._continues = continues

    def with_segments(self, segments: Segments) -> BM25Index:
        """The same index over other segments (a merge's)."""
        return BM25Index(segments, self._vocab, self._view, self._library_of, self.libraries, self.citing,
                         self._continues)

    def placed(self, chunk_ids: Sequence[str]) -> list[IndexedChunk]:
        """The chunks among these ids that a document of the snapshot holds, in the order asked, with their text and
        place (a vector hit's: Chroma keeps neither, and one of a document the snapshot lacks is dropped)."""
        out = []
        for chunk in self._view.chunks_by_id(chunk_ids):
            library = self._library_of(chunk.doc_id)
            if library is not None:
                out.append(IndexedChunk(chunk.id, chunk.doc_id, library, chunk.attachment, chunk.index, chunk.start,
                                        chunk.end, chunk.text, continues=self.continued(chunk.id)))
        return out

    @property
    def size(self) -> int:
        """Chunks the snapshot's documents hold."""
        return self._view.size

    def continued(self, chunk_id: str) -> str:
        """The line a chunk's start continues (its table's header row, its list's lead-in), or ""."""
        return self._continues.get(chunk_id, "")

    def search(
        self, query: str, k: int, libraries: Sequence[str] | None = None, doc_id: str | None = None
    ) -> list[tuple[IndexedChunk, float]]:
        """The k best chunks with a positive BM25 score, best first.

        A hit of a chunk the snapshot does not hold is dropped: a reader sees one state of the library."""
        found = self.segments.search(self._vocab.known(tokenize(query)), k, libraries, doc_id)
        scores = dict(found)
        return [(c, scores[c.chunk_id]) for c in self.placed([chunk_id for chunk_id, _ in found])]
