"""The Milvus backend (``index.backend: milvus``): one collection per index folder.

* :mod:`.schema`: the collection (text with its BM25 function, dense HNSW/IP, scalar fields),
  how to connect (Milvus Lite file or server URI) and which rows a generation sees;
* :mod:`.write`: a build's sync: insert changed passages, retire removed ones, by content hash;
* :mod:`.search`: BM25, dense and Milvus's own hybrid RRF, passages and vectors by id.

pymilvus is imported only here, inside functions: it needs the ``milvus`` extra
(``pip install 'drrag-cli[milvus]'``) and pulls in ~400 MB that the local backend never loads.
"""
