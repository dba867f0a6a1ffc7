"""A node's neighbourhood in the knowledge graph, computed from its stored Document (no query language here).

Every edge of the graph stays inside one document: Document -HAS_ATTACHMENT-> Attachment, Document or
Attachment -HAS_CHUNK-> Chunk, Chunk -REFERENCES-> Attachment and Attachment -REFERENCES-> Attachment (see
graph/schema.py). So a neighbourhood is a walk over one Document's parts; the Library node is left out, since
through it every document would neighbour every other.
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from graph.store import attachment_node_id
from kb.model import BODY, Document

MAX_NODES = 150  # a neighbourhood is cut at this many nodes (a document can hold hundreds of chunks)
PREVIEW_CHARS = 60


@dataclass(frozen=True)
class Node:
    id: str
    kind: str  # document | attachment | chunk
    label: str
    text: str = ""  # a chunk's first characters


@dataclass(frozen=True)
class Edge:
    source: str
    target: str
    type: str  # HAS_ATTACHMENT | HAS_CHUNK | REFERENCES
    mention: str = ""  # for REFERENCES: the text that cites the attachment


def document_graph(doc: Document) -> tuple[dict[str, Node], list[Edge]]:
    """Every node and edge the graph store holds for one document."""
    nodes = {doc.id: Node(doc.id, "document", doc.title)}
    edges: list[Edge] = []
    for att in doc.attachments:
        aid = attachment_node_id(doc.id, att.label)
        nodes[aid] = Node(aid, "attachment", f"{att.label} {att.title}".strip())
        edges.append(Edge(doc.id, aid, "HAS_ATTACHMENT"))
    for chunk in doc.chunks:
        owner = doc.id if chunk.attachment == BODY else attachment_node_id(doc.id, chunk.attachment)
        preview = chunk.text.strip().replace("\n", " ")[:PREVIEW_CHARS]
        nodes[chunk.id] = Node(chunk.id, "chunk", f"{chunk.attachment or '正文'} 片段{chunk.index + 1}", preview)
        edges.append(Edge(owner, chunk.id, "HAS_CHUNK"))
    for ref in doc.references:
        if ref.target is None:
            continue  # dangling: the graph holds no edge for it
        target = attachment_node_id(doc.id, ref.target)
        holder = next((c for c in doc.chunks if c.attachment == ref.source and c.start <= ref.start < c.end), None)
        if holder is not None:
            edges.append(Edge(holder.id, target, "REFERENCES", ref.mention))
        if ref.source != BODY and ref.source != ref.target:
            edges.append(Edge(attachment_node_id(doc.id, ref.source), target, "REFERENCES", ref.mention))
    return nodes, edges


def neighbourhood(doc: Document, node_id: str, hops: int, limit: int = MAX_NODES) -> dict | None:
    """Nodes within `hops` edges of node_id (edges followed both ways) and the edges among them; None if absent."""
    nodes, edges = document_graph(doc)
    if node_id not in nodes:
        return None
    adjacent: dict[str, list[str]] = {}
    for e in edges:
        adjacent.setdefault(e.source, []).append(e.target)
        adjacent.setdefault(e.target, []).append(e.source)
    distance = {node_id: 0}
    queue = deque([node_id])
    truncated = False
    while queue:
        current = queue.popleft()
        if distance[current] == hops:
            continue
        for other in adjacent.get(current, ()):
            if other in distance:
                continue
            if len(distance) >= limit:
                truncated = True
                break
            distance[other] = distance[current] + 1
            queue.append(other)
    return {
        "center": node_id,
        "hops": hops,
        "nodes": [{"id": n, "kind": nodes[n].kind, "label": nodes[n].label, "distance": d,
                   **({"text": nodes[n].text} if nodes[n].text else {})} for n, d in distance.items()],
        "edges": [{"source": e.source, "target": e.target, "type": e.type,
                   **({"mention": e.mention} if e.mention else {})}
                  for e in edges if e.source in distance and e.target in distance],
        "truncated": truncated,
    }
