"""The Milvus backend (``index.backend: milvus``): one collection per index folder.

* :mod:`.schema`: the collection (title and text with a BM25 function each, dense HNSW/IP, scalars),
  how to connect (Milvus Lite file or server URI) and which rows a generation sees;
* :mod:`.write`: a build's sync: insert changed passages, retire removed ones, by content hash;
* :mod:`.search`: BM25 (title and text fields summed, as tantivy), dense, their RRF, passages
  and vectors by id.

pymilvus is imported only here, inside functions: it needs the ``milvus`` extra
(``pip install 'drrag-cli[milvus]'``) and pulls in ~400 MB that the local backend never loads.
"""
