"""Index stage: BM25 (tantivy), dense (hnswlib + embedder), SQLite store, manifest."""
