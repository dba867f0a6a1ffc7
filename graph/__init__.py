"""The attachment graph: documents, attachments, chunks and REFERENCES edges in embedded Kuzu (or ladybug)."""
