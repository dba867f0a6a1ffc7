"""annex-rag knowledge base: parsing, attachment splitting, linking, chunking, stores and ingestion."""
