"""Several collections' indexes as one: what DR-RAG's strategies read, fused by RRF.

Every ranked list (bm25, dense, each q*) is asked of every collection and merged by score
(cosine is one measure for one model; BM25 is close enough), and hybrid is the RRF of the
two merged lists, as in one index. So the second stage may cross collections: a note's q*
finds the paper it cites. (RRF across collections instead would tie every collection's
best hit at 1/(k+1) and let the collection order decide.) Passage ids are made unique by interleaving:
collection ``i`` of ``n`` maps its passage ``p`` to ``p * n + i``, so a global id says
its collection (``gid % n``) and its passage (``gid // n``) without a table. When every
collection is searched, BM25 reads one index over all of them instead, whose ``pid`` is
that global id (:mod:`drrag_cli.index.union`): one search, and scores that compare.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from drrag_cli.errors import IndexMismatchError
from drrag_cli.index.api import Index
from drrag_cli.types import Passage

if TYPE_CHECKING:
    import numpy as np

    from drrag_cli.index.bm25 import BM25Index

_score = itemgetter(1)  # of a (passage id, score) hit


class MultiIndex:
    """``(name, Index)`` pairs behind the :class:`~drrag_cli.retrieve.context.Retriever`
    protocol; embedding and settings come from the first (all share the model)."""

    search = Index.search  # ranked + passages: the same for one index and many

    def __init__(self, indexes: Sequence[tuple[str, Index]], union: BM25Index | None = None) -> None:
        self.union = union  # one BM25 index over exactly these collections (index/union.py)
        self.names = [name for name, _ix in indexes]
        self.indexes = [ix for _name, ix in indexes]
        first = self.indexes[0]
        model = _model(first)
        for name, ix in indexes[1:]:
            if _model(ix) != model:
                raise IndexMismatchError(
                    f"collection {name} was indexed with {_model(ix)[0]} (dim {_model(ix)[1]}), "
                    f"{self.names[0]} with {model[0]} (dim {model[1]}); they cannot be searched together. "
                    f"Search them one at a time (--collection NAME), or re-index with one model"
                )
        self.settings = first.settings
        self.manifest = first.manifest
        self.root = first.root

    # -- ids ------------------------------------------------------------------------------
    def _gid(self, i: int, pid: int) -> int:
        return pid * len(self.indexes) + i

    def _split(self, ids: Sequence[int]) -> dict[int, list[int]]:
        """Collection position → its local passage ids, in the order given."""
        n, out = len(self.indexes), {}
        for gid in ids:
            out.setdefault(gid % n, []).append(gid // n)
        return out

    # -- the Retriever protocol -----------------------------------------------------------
    def embed(self, texts: Sequence[str]) -> np.ndarray:
        return self.indexes[0].embed(texts)

    # ranked and hybrid_ranked are one index's: hybrid is the RRF of the BM25 and the dense
    # list, here each merged across collections by score (below)
    ranked = Index.ranked
    hybrid_ranked = Index.hybrid_ranked

    def bm25_ranked(self, text: str, n: int) -> list[tuple[int, float]]:
        """The union index's top ``n`` (one search, global IDF) when it is built; else the
        top ``n`` of every collection's BM25 list, best first (per-collection IDF: close
        enough to compare), the query parsed once for all (bm25.parse_query)."""
        if self.union is not None:
            return self.union.search(text, n)
        return self._merged([ix.bm25_ranked(text, n) for ix in self.indexes], n)

    def dense_ranked(self, vec: np.ndarray, n: int) -> list[tuple[int, float]]:
        """The top ``n`` of every collection's dense list, best first (one model: cosine is
        the same measure everywhere)."""
        return self._merged([ix.dense_ranked(vec, n) for ix in self.indexes], n)

    def ranked_many(
        self, texts: Sequence[str], mode: str, n: int, vecs: Sequence[np.ndarray] | None = None
    ) -> list[list[tuple[int, float]]]:
        """``ranked`` for several texts (a question's q* lists), as :meth:`Index.ranked_many`."""
        if vecs is None:
            vecs = list(self.embed(texts)) if mode != "bm25" and texts else [None] * len(texts)
        return [self.ranked(text, mode, n, vec) for text, vec in zip(texts, vecs, strict=True)]

    def _merged(self, lists: list[list[tuple[int, float]]], n: int) -> list[tuple[int, float]]:
        size = len(lists)
        hits = [(pid * size + i, s) for i, ranked in enumerate(lists) for pid, s in ranked]
        hits.sort(key=_score, reverse=True)  # stable: ties keep collection order
        return hits[:n]

    def vectors(self, ids: Sequence[int]) -> np.ndarray:
        import numpy as np

        if not ids:
            return self.indexes[0].vectors([])
        rows: dict[int, Any] = {}
        for i, local in self._split(ids).items():
            for pid, vec in zip(local, self.indexes[i].vectors(local), strict=True):
                rows[self._gid(i, pid)] = vec
        return np.stack([rows[gid] for gid in ids])

    def passages(self, ids: Sequence[int]) -> dict[int, Passage]:
        size, out = len(self.indexes), {}
        for i, local in self._split(ids).items():
            name = self.names[i]
            for pid, p in self.indexes[i].passages(local).items():
                # each call builds new Passages (from store or Milvus rows): ours to renumber, and
                # setting two fields costs 1/50 of dataclasses.replace (2.5 us, x k per search)
                p.passage_id, p.collection = pid * size + i, name
                out[p.passage_id] = p
        return {gid: out[gid] for gid in ids if gid in out}

    def linked(self, ids: Sequence[int]) -> dict[int, list[list[int]]]:
        out: dict[int, list[list[int]]] = {}
        for i, local in self._split(ids).items():
            for pid, docs in self.indexes[i].linked(local).items():
                out[self._gid(i, pid)] = [[self._gid(i, p) for p in doc] for doc in docs]
        return out

    def siblings(self, ids: Sequence[int]) -> dict[int, list[int]]:
        out: dict[int, list[int]] = {}
        for i, local in self._split(ids).items():
            for pid, sibs in self.indexes[i].siblings(local).items():
                out[self._gid(i, pid)] = [self._gid(i, p) for p in sibs]
        return out

    def aliases(self, ids: Sequence[int]) -> dict[int, tuple[str, ...]]:
        out: dict[int, tuple[str, ...]] = {}
        for i, local in self._split(ids).items():
            out.update({self._gid(i, pid): names for pid, names in self.indexes[i].aliases(local).items()})
        return out

    def frequency(self, phrase: str) -> tuple[int, int]:
        """(passages that hold ``phrase``, all passages) over every collection."""
        counts = [ix.frequency(phrase) for ix in self.indexes]
        return sum(c[0] for c in counts), sum(c[1] for c in counts)

    def status(self) -> list[dict[str, Any]]:
        return [{"collection": name, **ix.status()} for name, ix in zip(self.names, self.indexes, strict=True)]


def _model(index: Index) -> tuple[str, int]:
    emb = index.manifest["embedding"]
    return str(emb["model_id"]), int(emb["dim"])
