"""The retrieval tools of agent mode and the MCP server: plain, read-only methods over the read models.

They read what the pipeline reads (the snapshot: documents, catalog, the graph view for paths and the hop) and
only what their reader lets them see: the MCP server hands them the shared libraries (SharedReads), an agent turn
the libraries its request is scoped to (`within`). The graph store is read only for a whole stored document.

The tool methods keep Google-style docstrings (not one line): their `Args:` become the parameter descriptions
of the MCP schema (Gradio parses them) and of the agent's function schemas (tool_schemas below).
"""
from __future__ import annotations

from pathlib import PurePath
from typing import Any, Sequence

from graph.resolve import AttachmentCatalog
from graph.store import DocumentSummary, GraphStore, attachment_node_id
from kb.agent.schemas import function_schemas
from kb.errors import ToolError
from kb.answer.hop import HopResult, post_answer_hop
from graph.neighbourhood import neighbourhood
from kb.answer.prompts import ATTACHMENT_SECTION
from kb.search.readmodels import LibraryReads, Reads, Snapshot
from kb.search.retrieval import Retriever
from kb.answer.section import extract_section
from kb.turn import Hit, TurnRequest

TOOL_NAMES = ("search_chunks", "search_by_tags", "get_document", "resolve_attachments", "graph_neighbors")
MAX_TOP_K = 50
MAX_HOPS = 3
_LIST_HINT = "call search_by_tags with an empty keyword to list every document (id, file name, title)"


def citation(file: str, heading: str) -> str:
    """How a passage is cited: [文件名#标题]."""
    return f"[{file}#{heading}]"


class KnowledgeTools:
    """search_chunks, search_by_tags, get_document, resolve_attachments and graph_neighbors over one knowledge base."""

    def __init__(self, read: Reads, retriever: Retriever, graph: GraphStore) -> None:
        self.read = read
        self.retriever = retriever
        self.graph = graph
        self._headings: dict[tuple[int, str], list[tuple[int, str]]] = {}

    def within(self, libraries: Sequence[str]) -> KnowledgeTools:
        """The same tools seeing only these libraries (of what this reader sees); every library if empty."""
        if not libraries:
            return self
        scoped = KnowledgeTools(LibraryReads.of(self.read, libraries), self.retriever, self.graph)
        scoped._headings = self._headings
        return scoped

    @classmethod
    def from_service(cls, service: Any) -> KnowledgeTools:
        """The tools over an open kb.service.Service."""
        return cls(service.read, service.pipeline.retriever, service.stores.graph)

    def search_chunks(self, query: str, top_k: int = 8, library: str = "") -> list[dict]:
        """Search the knowledge base (vector + BM25) for the passages that best match a question.

        Args:
            query: the question or keywords, in the documents' language (Chinese)
            top_k: how many passages to return, 1-50
            library: only search this library; empty searches every library
        Returns:
            passages best first, each with its text, document, attachment and `cite` ([文件名#标题]),
            and the attachments the passage cites (`cites_attachments`)
        """
        library = library.strip() if isinstance(library, str) else ""
        return self.search(query, top_k, (library,) if library else ())

    def search(
        self, query: str, top_k: int = 8, libraries: Sequence[str] = (), document_id: str | None = None
    ) -> list[dict]:
        """search_chunks over several libraries (empty: every library this reader sees) and optionally one document."""
        query = query.strip() if isinstance(query, str) else ""
        if not query:
            raise ToolError("search_chunks needs a query: a question or keywords.")
        top_k = _integer("top_k", top_k)
        if not 1 <= top_k <= MAX_TOP_K:
            raise ToolError(f"top_k must be between 1 and {MAX_TOP_K}, got {top_k}.")
        snapshot = self.read.current()
        for library in libraries:
            if library not in snapshot.libraries:
                names = ", ".join(sorted(snapshot.libraries)) or "none yet"
                raise ToolError(f"Unknown library {library!r}; the libraries are: {names}.")
        scope = tuple(libraries) or tuple(sorted(snapshot.libraries))  # explicit, so nothing unseen is searched
        if not scope:
            return []  # this reader sees no document
        hits = self.retriever.retrieve(query, TurnRequest(query, library_ids=scope, document_id=document_id,
                                                          top_k=top_k))
        cited: dict[str, list[dict]] = {}
        for path in snapshot.view.attachment_paths([h.chunk_id for h in hits], 1) if hits else []:
            info = snapshot.catalog.get(path.doc_id, path.labels[0])
            cited.setdefault(path.chunk_id, []).append({
                "label": path.labels[0], "title": info.title if info else "", "mention": path.mentions[0],
                "node_id": attachment_node_id(path.doc_id, path.labels[0])})
        return [self._hit(h, snapshot, cited.get(h.chunk_id, [])) for h in hits]

    def search_by_tags(self, keyword: str = "") -> list[dict]:
        """Find documents by tag (.docx keywords, Markdown front-matter tags, or tags given at ingest).

        Args:
            keyword: part of a tag, case-insensitive; empty lists every document
        Returns:
            documents with their id, file name, title, library and tags
        """
        wanted = keyword.strip().casefold() if isinstance(keyword, str) else ""
        docs = self.read.current().documents.values()
        return [_summary(d) for d in docs if not wanted or any(wanted in t.casefold() for t in d.tags)]

    def get_document(self, doc: str) -> dict:
        """The whole text of one document, with its attachments.

        Args:
            doc: the document's id, file name, file name without extension, or title
        Returns:
            the document's text, attachments (label, title, node_id, char span) and `cite`
        """
        snapshot = self.read.current()
        doc_id = self._find(doc, snapshot, "get_document")
        stored = self.graph.load_document(doc_id)
        if stored is None:
            raise ToolError(f"Document {doc!r} was deleted a moment ago; {_LIST_HINT}.")
        return {
            **_summary(snapshot.documents[doc_id]),
            "cite": citation(stored.name, stored.title),
            "text": stored.text,
            "attachments": [{"label": a.label, "title": a.title, "node_id": attachment_node_id(doc_id, a.label),
                             "start": a.start, "end": a.end} for a in stored.attachments],
        }

    def resolve_attachments(self, text: str, doc: str = "") -> dict:
        """Fetch whole attachments named by 相关附件 lines (the post-answer hop as a tool).

        Args:
            text: an answer with a **相关附件** section, or just lines such as "附件4-应急物资清单" (one per line)
            doc: resolve in this document only (id, file name or title); empty resolves across every document
        Returns:
            one item per line: resolved or not, and if resolved the attachment's document, full content and `cite`
        """
        snapshot = self.read.current()
        hop = self.hop(text, doc, snapshot)
        items = []
        for item in hop.items:
            out: dict[str, Any] = {"line": item.line, "label": item.label, "resolved": item.resolved}
            if item.resolved:
                summary = snapshot.documents.get(item.doc_id)
                file = summary.name if summary else item.doc_title
                out.update(doc_id=item.doc_id, file=file, doc_title=item.doc_title, title=item.title,
                           match=item.match, node_id=attachment_node_id(item.doc_id, item.label or ""),
                           cite=citation(file, f"{item.label} {item.title}".strip()), content=item.content,
                           spans=[list(s) for s in item.spans], chunk_ids=list(item.chunk_ids))
            else:
                out["why"] = ("no attachment matches this line" + ("" if doc.strip() else
                              ", or its label names attachments in several documents: pass doc to choose one"))
            items.append(out)
        return {"items": items}

    def hop(self, text: str, doc: str = "", snapshot: Snapshot | None = None) -> HopResult:
        """The post-answer hop over `text` (a bare list of lines counts as the section), optionally in one document."""
        if not isinstance(text, str) or not text.strip():
            raise ToolError("resolve_attachments needs text: an answer with a **相关附件** section, or lines like "
                            "'附件4-应急物资清单'.")
        snapshot = snapshot or self.read.current()
        answer = text if extract_section(text) else f"{ATTACHMENT_SECTION}\n{text.strip()}"
        catalog = snapshot.catalog
        if doc.strip():
            catalog = AttachmentCatalog(catalog.of_documents([self._find(doc, snapshot, "resolve_attachments")]))
        return post_answer_hop(answer, snapshot.view, catalog, [], None, snapshot.documents)

    def graph_neighbors(self, node_id: str, hops: int = 1) -> dict:
        """The nodes around one node of the knowledge graph: a document's attachments, which attachments a chunk cites.

        Args:
            node_id: a document id, an attachment node id ("<doc_id>:附件4") or a chunk id, as other tools return them
            hops: how many edges to walk (both directions), 1-3
        Returns:
            nodes (id, kind, label, distance) and edges (source, target, type, mention) of the neighbourhood
        """
        hops = _integer("hops", hops)
        if not 1 <= hops <= MAX_HOPS:
            raise ToolError(f"hops must be between 1 and {MAX_HOPS}, got {hops}.")
        node_id = node_id.strip() if isinstance(node_id, str) else ""
        snapshot = self.read.current()
        doc_id = node_id.split(":", 1)[0]
        stored = self.graph.load_document(doc_id) if doc_id in snapshot.documents else None
        found = neighbourhood(stored, node_id, hops) if stored is not None else None
        if found is None:
            raise ToolError(f"No graph node {node_id!r}. Node ids are document ids, attachment node ids "
                            f"('<doc_id>:附件4') and chunk ids, as search_chunks and get_document return them; "
                            f"{_LIST_HINT}.")
        return found

    def heading(self, doc_id: str, attachment: str, attachment_title: str, start: int) -> str:
        """The 标题 of a citation: the attachment ('附件4 应急物资清单'), else the nearest heading above, else the title."""
        if attachment:
            return f"{attachment} {attachment_title}".strip()
        snapshot = self.read.current()
        key = (snapshot.generation, doc_id)
        if key not in self._headings:
            stored = self.graph.load_document(doc_id)
            self._headings = {k: v for k, v in self._headings.items() if k[0] == snapshot.generation}
            self._headings[key] = [] if stored is None else [
                (h.start, stored.text[h.start : h.end].lstrip("#").strip()) for h in stored.headings]
        above = [title for pos, title in self._headings[key] if pos <= start and title]
        summary = snapshot.documents.get(doc_id)
        return above[-1] if above else (summary.title if summary else doc_id)

    def _hit(self, hit: Hit, snapshot: Snapshot, cites: list[dict]) -> dict:
        summary = snapshot.documents.get(hit.doc_id)
        file = summary.name if summary else hit.doc_id
        info = snapshot.catalog.get(hit.doc_id, hit.attachment) if hit.attachment else None
        title = info.title if info else ""
        return {
            "chunk_id": hit.chunk_id, "doc_id": hit.doc_id, "file": file,
            "doc_title": summary.title if summary else "", "library": hit.library,
            "attachment": hit.attachment, "attachment_title": title,
            "cite": citation(file, self.heading(hit.doc_id, hit.attachment, title, hit.start)),
            "score": hit.score, "start": hit.start, "end": hit.end, "text": hit.text, "cites_attachments": cites,
        }

    def _find(self, doc: str, snapshot: Snapshot, tool: str) -> str:
        """A document id from an id, file name, stem or title; ToolError naming the candidates otherwise."""
        doc = doc.strip() if isinstance(doc, str) else ""
        if not doc:
            raise ToolError(f"{tool} needs a document: its id, file name or title; {_LIST_HINT}.")
        if doc in snapshot.documents:
            return doc
        matches = [d for d in snapshot.documents.values() if doc in (d.name, PurePath(d.name).stem, d.title)]
        if len(matches) == 1:
            return matches[0].id
        if matches:
            names = "; ".join(f"{d.id} ({d.library}/{d.name})" for d in matches)
            raise ToolError(f"{doc!r} names {len(matches)} documents: {names}; pass one of these ids.")
        raise ToolError(f"No document {doc!r} in the knowledge base; {_LIST_HINT}.")


def _integer(name: str, value: Any) -> int:
    """An integer argument; models sometimes send "5" for 5."""
    try:
        if isinstance(value, bool) or float(value) != int(float(value)):
            raise ValueError
        return int(float(value))
    except (TypeError, ValueError, OverflowError):
        raise ToolError(f"{name} must be a whole number, got {value!r}.") from None


def _summary(d: DocumentSummary) -> dict:
    return {"doc_id": d.id, "file": d.name, "title": d.title, "library": d.library, "tags": list(d.tags),
            "attachments": d.attachments, "chunks": d.chunks}


def tool_schemas(tools: KnowledgeTools) -> list[dict]:
    """OpenAI function-calling schemas of the tools, from their signatures and docstrings."""
    return function_schemas(tools, TOOL_NAMES)
