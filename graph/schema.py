"""Every Cypher statement of the Kuzu graph store: the schema DDL, then the queries."""
from __future__ import annotations

# Char spans are char_start/char_end because END is a Cypher keyword. The RETURN column order of the
# queries below is what graph/kuzu_tables.py decodes.
LIBRARY = "CREATE NODE TABLE IF NOT EXISTS Library(id STRING PRIMARY KEY)"

# parts, headings, tags, dangling and unplaced are JSON strings; the n_* counts feed listings and stats.
DOCUMENT = (
    "CREATE NODE TABLE IF NOT EXISTS Document("
    "id STRING PRIMARY KEY, library STRING, name STRING, stem STRING, title STRING, text STRING, "
    "content_hash STRING, parts STRING, headings STRING, tags STRING, dangling STRING, unplaced STRING, "
    "n_attachments INT64, n_chunks INT64, n_dangling INT64, source STRING)"
)
# Stores made before provenance was recorded get the column, empty (kb.model.UNKNOWN), on open.
DOCUMENT_SOURCE = "ALTER TABLE Document ADD IF NOT EXISTS source STRING DEFAULT ''"

# id = attachment_node_id(doc_id, label) (graph/store.py); pos = index in Document.attachments;
# omitted = named but content left out (（略）)
ATTACHMENT = (
    "CREATE NODE TABLE IF NOT EXISTS Attachment("
    "id STRING PRIMARY KEY, doc_id STRING, label STRING, kind STRING, number STRING, title STRING, "
    "char_start INT64, char_end INT64, pos INT64, omitted BOOLEAN)"
)

# attachment = owner label or "" (body); idx = order within the owner; pos = index in Document.chunks
CHUNK = (
    "CREATE NODE TABLE IF NOT EXISTS Chunk("
    "id STRING PRIMARY KEY, doc_id STRING, attachment STRING, idx INT64, "
    "char_start INT64, char_end INT64, text STRING, pos INT64)"
)

HAS_DOCUMENT = "CREATE REL TABLE IF NOT EXISTS HAS_DOCUMENT(FROM Library TO Document)"
HAS_ATTACHMENT = "CREATE REL TABLE IF NOT EXISTS HAS_ATTACHMENT(FROM Document TO Attachment)"
HAS_CHUNK = "CREATE REL TABLE IF NOT EXISTS HAS_CHUNK(FROM Document TO Chunk, FROM Attachment TO Chunk)"

# One edge per resolved mention: from the chunk holding it, and from its attachment when it sits in another
# attachment. pos = index in Document.references, so load_document rebuilds the written order.
REFERENCES = (
    "CREATE REL TABLE IF NOT EXISTS REFERENCES("
    "FROM Chunk TO Attachment, FROM Attachment TO Attachment, "
    "label STRING, mention STRING, char_start INT64, char_end INT64, pos INT64)"
)

# Stores made before omitted attachments were recorded get the column, false, on open.
ATTACHMENT_OMITTED = "ALTER TABLE Attachment ADD IF NOT EXISTS omitted BOOLEAN DEFAULT false"
SCHEMA: tuple[str, ...] = (
    LIBRARY, DOCUMENT, DOCUMENT_SOURCE, ATTACHMENT, ATTACHMENT_OMITTED, CHUNK, HAS_DOCUMENT, HAS_ATTACHMENT, HAS_CHUNK,
    REFERENCES,
)

# --- queries ------------------------------------------------------------

# UNWIND joins by hash; `x IN $ids` compares every row with every id (0.44 s vs 0.016 s for 2000 ids).
EXISTING_DOCUMENTS = "UNWIND $ids AS i MATCH (d:Document {id: i}) RETURN d.id"
MERGE_LIBRARIES = "UNWIND $libraries AS name MERGE (:Library {id: name})"

# Edges go with their nodes (DETACH); chunks and attachments are found by their doc_id property.
DELETE_DOCUMENTS: tuple[str, ...] = (
    "UNWIND $ids AS i MATCH (c:Chunk) WHERE c.doc_id = i DETACH DELETE c",
    "UNWIND $ids AS i MATCH (a:Attachment) WHERE a.doc_id = i DETACH DELETE a",
    "UNWIND $ids AS i MATCH (d:Document {id: i}) DETACH DELETE d",
)
# A library exists only through its documents, so one left empty goes too.
DELETE_EMPTY_LIBRARIES = "MATCH (l:Library) WHERE NOT EXISTS { MATCH (l)-[:HAS_DOCUMENT]->(:Document) } DELETE l"

CONTENT_HASH = "MATCH (d:Document {id: $id}) RETURN d.content_hash"

LOAD_DOCUMENT = (
    "MATCH (d:Document {id: $id}) RETURN d.library, d.name, d.title, d.text, d.content_hash, "
    "d.parts, d.headings, d.tags, d.dangling, d.unplaced, d.source"
)
LOAD_ATTACHMENTS = (
    "MATCH (:Document {id: $id})-[:HAS_ATTACHMENT]->(a:Attachment) "
    "RETURN a.label, a.kind, a.number, a.title, a.char_start, a.char_end, a.omitted ORDER BY a.pos"
)
_CHUNK_COLUMNS = "c.id, c.doc_id, c.attachment, c.idx, c.char_start, c.char_end, c.text, c.pos"
LOAD_CHUNKS = (
    f"MATCH (:Document {{id: $id}})-[:HAS_CHUNK]->(c:Chunk) RETURN {_CHUNK_COLUMNS} "
    f"UNION ALL MATCH (:Document {{id: $id}})-[:HAS_ATTACHMENT]->(:Attachment)-[:HAS_CHUNK]->(c:Chunk) "
    f"RETURN {_CHUNK_COLUMNS}"
)
# Resolved references never leave their document, so they all end at one of its attachments.
LOAD_REFERENCES = (
    "MATCH (:Document {id: $id})-[:HAS_ATTACHMENT]->(a:Attachment)<-[r:REFERENCES]-(c:Chunk) "
    "RETURN r.pos, r.label, r.mention, r.char_start, r.char_end, c.attachment, a.label"
)

# For a handful of ids, IN (a scan of the Attachment ids) beats UNWIND, which Kuzu 0.11 plans as a hash join
# whose build side is every attachment chunk with its text: 5 ms vs 80 ms for 10 ids at ~92k chunks.
ATTACHMENTS_CHUNKS = (
    f"MATCH (a:Attachment)-[:HAS_CHUNK]->(c:Chunk) WHERE a.id IN $ids "
    f"RETURN a.id, {_CHUNK_COLUMNS} ORDER BY a.id, c.idx"
)
CHUNKS_BY_ID = f"UNWIND $ids AS i MATCH (c:Chunk {{id: i}}) RETURN {_CHUNK_COLUMNS}"
# Sorted in Python (graph/kuzu_store.py): an ORDER BY holds every chunk's text in the buffer pool at once.
ALL_CHUNKS = f"MATCH (c:Chunk) RETURN {_CHUNK_COLUMNS}"
CHUNK_REFERENCES = (
    "MATCH (c:Chunk)-[r:REFERENCES]->(a:Attachment) RETURN c.doc_id, c.id, '', a.label, r.mention, r.char_start"
)
ATTACHMENT_REFERENCES = (
    "MATCH (b:Attachment)-[r:REFERENCES]->(a:Attachment) RETURN b.doc_id, '', b.label, a.label, r.mention, r.char_start"
)
# One document's rows of ALL_CHUNKS (LOAD_CHUNKS), the reference edges and LIST_ATTACHMENTS, each found from its
# Document node (primary key), never by a table scan.
DOCUMENT_CHUNK_REFERENCES = (
    "MATCH (:Document {id: $id})-[:HAS_ATTACHMENT]->(a:Attachment)<-[r:REFERENCES]-(c:Chunk) "
    "RETURN c.doc_id, c.id, '', a.label, r.mention, r.char_start"
)
DOCUMENT_ATTACHMENT_REFERENCES = (
    "MATCH (:Document {id: $id})-[:HAS_ATTACHMENT]->(b:Attachment)-[r:REFERENCES]->(a:Attachment) "
    "RETURN b.doc_id, '', b.label, a.label, r.mention, r.char_start"
)
DOCUMENT_ATTACHMENTS = (
    "MATCH (d:Document {id: $id})-[:HAS_ATTACHMENT]->(a:Attachment) "
    "RETURN d.id, d.title, d.library, a.label, a.title, a.omitted ORDER BY a.pos"
)
LIST_ATTACHMENTS = (
    "MATCH (d:Document)-[:HAS_ATTACHMENT]->(a:Attachment) "
    "RETURN d.id, d.title, d.library, a.label, a.title, a.omitted ORDER BY d.library, d.name, d.id, a.pos"
)
DOCUMENT_TEXT = "MATCH (d:Document {id: $id}) RETURN d.text"

_SUMMARY_COLUMNS = (
    "d.id, d.library, d.name, d.title, d.content_hash, d.n_attachments, d.n_chunks, d.dangling, d.tags, d.source, "
    "d.parts"
)
SUMMARY = f"MATCH (d:Document {{id: $id}}) RETURN {_SUMMARY_COLUMNS}"
LIST_ALL = f"MATCH (d:Document) RETURN {_SUMMARY_COLUMNS} ORDER BY d.library, d.name, d.id"
LIST_LIBRARY = f"MATCH (d:Document) WHERE d.library = $library RETURN {_SUMMARY_COLUMNS} ORDER BY d.name, d.id"
FIND_DOCUMENT = (
    f"MATCH (d:Document) WHERE d.library = $library AND (d.name = $name OR d.stem = $name) "
    f"RETURN {_SUMMARY_COLUMNS} ORDER BY d.name = $name DESC, d.name, d.id LIMIT 1"
)

STATS: dict[str, str] = {
    "libraries": "MATCH (l:Library) RETURN count(l)",
    "documents": "MATCH (d:Document) RETURN count(d)",
    "attachments": "MATCH (a:Attachment) RETURN count(a)",
    "chunks": "MATCH (c:Chunk) RETURN count(c)",
    "references": "MATCH (:Chunk)-[r:REFERENCES]->(:Attachment) RETURN count(r)",
    "dangling": "MATCH (d:Document) RETURN coalesce(sum(d.n_dangling), 0)",
}


def attachment_paths_query(hops: int) -> str:
    """REFERENCES walks of 1..hops steps from the chunks $ids (ACYCLIC, though Kuzu lets the end node repeat)."""
    if not 1 <= hops <= 30:  # Kuzu needs literal bounds; 30 is its default upper limit
        raise ValueError(f"hops must be between 1 and 30, got {hops}")
    # WHERE ... IN scans Chunk once (~10-30 ms at 100k chunks); UNWIND + {id: cid} before a recursive
    # pattern measured 5x slower on both engines.
    return (
        f"MATCH (c:Chunk)-[r:REFERENCES* ACYCLIC 1..{hops}]->(a:Attachment) WHERE c.id IN $ids "
        "RETURN c.id, c.doc_id, properties(nodes(r), 'label'), a.label, "
        "properties(rels(r), 'mention'), properties(rels(r), 'char_start')"
    )


def create_statement(table: str, columns: tuple[str, ...], src: str, dst: str) -> str:
    """What a small write uses instead of COPY, whose commit into a rel table that holds edges already costs ~0.1 s
    a table whatever the rows (a one-line upload spent 0.6 s in it). Nodes: every row of $rows at once. Edges: one
    edge, its ends given as parameters ($from_id, $to_id) — an end matched from an UNWIND row is found by scanning
    its whole table (at 92k chunks, 46 edges into Chunk took 2–4 s and filled the page cache), a parameter by the
    primary-key index (40 edges: 17 ms)."""
    if not src:
        fields = ", ".join(f"{c}: r.{c}" for c in columns)
        return f"UNWIND $rows AS r CREATE (:{table} {{{fields}}})"
    fields = ", ".join(f"{c}: ${c}" for c in columns if c not in ("from", "to"))
    return (f"MATCH (a:{src} {{id: $from_id}}), (b:{dst} {{id: $to_id}}) "
            f"CREATE (a)-[:{table} {{{fields}}}]->(b)")


def copy_statement(table: str, src: str, dst: str) -> str:
    """Bulk load of $frame into a table; rel tables with several FROM/TO pairs need the pair spelled out."""
    pair = f" (from='{src}', to='{dst}')" if src else ""
    return f"COPY {table} FROM $frame{pair}"
