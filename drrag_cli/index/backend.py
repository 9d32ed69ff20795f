"""The seam between :class:`~drrag_cli.index.api.Index` and where passages are searched.

Two backends implement :class:`Backend`, chosen by ``index.backend`` when a generation is
written and recorded in its manifest (what readers go by):

* ``local``: tantivy BM25 + hnswlib HNSW files inside the generation, fused by client RRF;
* ``milvus``: one Milvus collection (:mod:`drrag_cli.index.milvus`) holding text, BM25
  sparse vectors (title and text, summed as tantivy sums its fields: milvus/summed.py) and
  dense vectors; hybrid is the same client RRF of its BM25 and dense lists.

Both read the generation's SQLite store for what only the build knows whole: files and
their hashes (change detection), the link graph and a document's siblings. Writing is
:func:`write_generation`: local rebuilds its files from the store, Milvus upserts the
passages that changed and retires the removed ones, by content hash.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from drrag_cli.index.layout import backend_of
from drrag_cli.types import Passage

if TYPE_CHECKING:
    import numpy as np

    from drrag_cli.config import Settings
    from drrag_cli.index.bm25 import BM25Index
    from drrag_cli.index.dense import DenseIndex
    from drrag_cli.index.store import PassageStore

Ranked = list[tuple[int, float]]  # (passage id, score), best first


class Backend(Protocol):
    """What a generation's reader asks of its backend. Ids are the store's passage ids."""

    name: str

    def bm25_ranked(self, text: str, n: int) -> Ranked: ...

    def dense_ranked(self, vec: np.ndarray, n: int) -> Ranked: ...

    def hybrid_ranked(self, text: str, vec: np.ndarray, n: int, depth: int, rrf_k: int) -> Ranked: ...

    def ranked_many(
        self, texts: Sequence[str], mode: str, n: int, vecs: Sequence[Any], depth: int, rrf_k: int
    ) -> list[Ranked]: ...

    def vectors(self, ids: Sequence[int]) -> np.ndarray: ...

    def frequency(self, phrase: str) -> tuple[int, int]:
        """(passages whose text holds ``phrase``'s words in a row, as the BM25 index analyses
        them; all passages)."""
        ...

    def passages(self, ids: Sequence[int]) -> dict[int, Passage]: ...

    def stats(self) -> dict[str, Any]: ...


class LocalBackend:
    """tantivy + hnswlib files of one generation; hybrid is the client-side RRF."""

    name = "local"

    def __init__(self, gen: Path, dim: int, store: PassageStore, passages: int | None = None) -> None:
        self.gen, self.dim, self.store = gen, dim, store
        self.passage_count = passages  # the manifest's, which each file must agree with

    @cached_property
    def bm25(self) -> BM25Index:
        from drrag_cli.index.health import open_bm25  # a damaged file: one error naming the repair

        return open_bm25(self.gen, self.passage_count)

    @cached_property
    def dense(self) -> DenseIndex:
        from drrag_cli.index.health import open_dense

        return open_dense(self.gen, self.dim, self.passage_count)

    def bm25_ranked(self, text: str, n: int) -> Ranked:
        return self.bm25.search(text, n)

    def dense_ranked(self, vec: np.ndarray, n: int) -> Ranked:
        return self.dense.search(vec, n)

    def hybrid_ranked(self, text: str, vec: np.ndarray, n: int, depth: int, rrf_k: int) -> Ranked:
        from drrag_cli.index.fusion import rrf

        lexical = [pid for pid, _s in self.bm25_ranked(text, depth)]
        semantic = [pid for pid, _s in self.dense_ranked(vec, depth)]
        return rrf([lexical, semantic], k=rrf_k)[:n]

    def ranked_many(
        self, texts: Sequence[str], mode: str, n: int, vecs: Sequence[Any], depth: int, rrf_k: int
    ) -> list[Ranked]:
        """One list per text; in-process, so a loop costs nothing extra."""
        if mode == "bm25":
            return [self.bm25_ranked(t, n) for t in texts]
        if mode == "dense":
            return [self.dense_ranked(v, n) for v in vecs]
        return [self.hybrid_ranked(t, v, n, depth, rrf_k) for t, v in zip(texts, vecs, strict=True)]

    def frequency(self, phrase: str) -> tuple[int, int]:
        return self.bm25.count(phrase), self.bm25.num_docs

    def vectors(self, ids: Sequence[int]) -> np.ndarray:
        """Stored (normalised) embeddings of passages, from the HNSW index."""
        import numpy as np

        if not ids:
            return np.zeros((0, self.dim), dtype=np.float32)
        return self.dense.vectors(ids)

    def passages(self, ids: Sequence[int]) -> dict[int, Passage]:
        return self.store.get(ids)

    def stats(self) -> dict[str, Any]:
        return {"backend": "local"}


def open_backend(gen: Path, manifest: dict[str, Any], settings: Settings, store: PassageStore) -> Backend:
    dim = int(manifest["embedding"]["dim"])
    if backend_of(manifest) == "milvus":
        from drrag_cli.index.milvus.schema import gen_number
        from drrag_cli.index.milvus.search import MilvusBackend

        return MilvusBackend(manifest["backend"], settings, gen_number(gen), dim)
    return LocalBackend(gen, dim, store, int(manifest["counts"]["passages"]))


def write_generation(
    settings: Settings,
    root: Path,
    staging: Path,
    embedder: Any,
    rows: list,
    progress: Any,  # noqa: ANN401
) -> dict[str, Any] | None:
    """Write the search side of a staged generation; returns the manifest's ``backend``
    record, or None for local (whose files build.py writes and checks itself)."""
    if settings.index.backend != "milvus":
        return None
    from drrag_cli.index.milvus.write import sync

    return sync(settings, root, staging, embedder, rows, progress)
