"""Reading a generation from Milvus: the :class:`~drrag_cli.index.backend.Backend` protocol.

Every request carries the generation's filter (schema.visible), so a build under way or
killed is never seen. A BM25 list is one ``hybrid_search``: a BM25 request on the title's
field and one on the text's, their scores summed with the title's weighted
:data:`~drrag_cli.index.bm25.TITLE_BOOST` (``WeightedRanker`` without normalisation), as
tantivy sums its two fields. Each field's list goes :data:`FIELD_DEPTH` deep, so a passage
ranked by one field keeps its other field's score. Hybrid is Milvus's own: one ``hybrid_search``
of the BM25 list of the ``boosted_terms`` field (schema.py: the title's terms marked, then the
text's) and the dense list, ``depth`` each, fused by ``RRFRanker(rrf_k)``: the score of
index/fusion.py, ties broken by row key (so by passage id), not by first seen as locally.
:meth:`MilvusBackend.ranked_many` asks for several texts' lists in one request per list kind
(one round trip for all of a question's q* lists); ``round_trips`` counts the requests made.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from drrag_cli.index.milvus import schema
from drrag_cli.index.milvus.schema import NONE, PASSAGE_FIELDS, visible
from drrag_cli.types import Passage

if TYPE_CHECKING:
    import numpy as np
    from pymilvus import MilvusClient

    from drrag_cli.config import Settings

Ranked = list[tuple[int, float]]
MAX_IDS = 4096  # ids per query request
FIELD_DEPTH = 1000  # each BM25 field's list before the sum (a field's score past it counts as 0)


class MilvusBackend:
    name = "milvus"

    def __init__(self, record: dict[str, Any], settings: Settings, gen: int, dim: int) -> None:
        self.uri, self.collection = str(record["uri"]), str(record["collection"])
        self.settings, self.gen, self.dim = settings, gen, dim
        self.where = visible(gen)
        self.round_trips = 0
        schema.check_schema(record)

    @cached_property
    def client(self) -> MilvusClient:
        client = schema.connect(self.uri, self.settings)
        if not client.has_collection(self.collection):
            from drrag_cli.errors import IndexMissingError

            raise IndexMissingError(
                f"Milvus at {self.uri} has no collection {self.collection} (dropped?); "
                "re-run `drrag index --rebuild PATH...`"
            )
        client.load_collection(self.collection)
        return client

    # the parts a reader warms up (drrag serve): both lists come from the one collection
    bm25 = dense = property(lambda self: self.client)

    # -- ranked lists ---------------------------------------------------------------------
    def bm25_ranked(self, text: str, n: int) -> Ranked:
        return self.ranked_many([text], "bm25", n, [None], n, 0)[0]

    def dense_ranked(self, vec: np.ndarray, n: int) -> Ranked:
        return self.ranked_many([""], "dense", n, [vec], n, 0)[0]

    def hybrid_ranked(self, text: str, vec: np.ndarray, n: int, depth: int, rrf_k: int) -> Ranked:
        return self.ranked_many([text], "hybrid", n, [vec], depth, rrf_k)[0]

    def ranked_many(
        self, texts: Sequence[str], mode: str, n: int, vecs: Sequence[Any], depth: int, rrf_k: int
    ) -> list[Ranked]:
        """One ranked list per text (and vector): one request per list kind for all of them."""
        if n <= 0 or not texts:
            return [[] for _ in texts]
        if mode == "bm25":
            return self._bm25([schema.query(t) for t in texts], n)
        dense = [_floats(v) for v in vecs]
        if mode == "dense":
            return self._search(dense, "vector", n, self._dense_params(n))
        return self._hybrid([schema.boosted_query(t) for t in texts], dense, n, depth, rrf_k)

    def _dense_params(self, n: int) -> dict[str, Any]:
        return {"metric_type": "IP", "params": {"ef": max(schema.EF_SEARCH, n)}}

    def _search(self, data: list[Any], field: str, n: int, params: dict[str, Any]) -> list[Ranked]:
        self.round_trips += 1
        found = self.client.search(
            self.collection,
            data=data,
            anns_field=field,
            limit=n,
            filter=self.where,
            search_params=params,
            output_fields=["pid"],
        )
        return [_ranked(hits) for hits in found]

    def _bm25(self, queries: list[str], n: int) -> list[Ranked]:
        """BM25 over title and text, summed as tantivy sums them; a query without terms finds
        nothing, as locally."""
        from pymilvus import AnnSearchRequest, WeightedRanker

        from drrag_cli.index.bm25 import TITLE_BOOST

        asked = [i for i, q in enumerate(queries) if q]
        out: list[Ranked] = [[] for _ in queries]
        if not asked:
            return out
        deep, data = max(n, FIELD_DEPTH), [queries[i] for i in asked]
        reqs = [
            AnnSearchRequest(data, sparse, {"metric_type": "BM25"}, deep, expr=self.where)
            for sparse in schema.SUMMED
        ]
        self.round_trips += 1
        found = self.client.hybrid_search(
            self.collection, reqs, WeightedRanker(TITLE_BOOST, 1.0, norm_score=False), limit=n, output_fields=["pid"]
        )
        for i, hits in zip(asked, found, strict=True):
            out[i] = _ranked(hits)
        return out

    def _hybrid(self, queries: list[str], dense: list[Any], n: int, depth: int, rrf_k: int) -> list[Ranked]:
        """Milvus's RRF of the boosted BM25 list and the dense list, ``depth`` deep each; a query
        without terms has no BM25 list, so its hybrid list is the dense one with its RRF scores
        (as locally: the RRF of an empty list and the dense one)."""
        from pymilvus import AnnSearchRequest, RRFRanker

        out: list[Ranked] = [[] for _ in queries]
        asked = [i for i, q in enumerate(queries) if q]
        if asked:
            reqs = [
                AnnSearchRequest([queries[i] for i in asked], schema.HYBRID_SPARSE, {"metric_type": "BM25"}, depth,
                                 expr=self.where),
                AnnSearchRequest([dense[i] for i in asked], "vector", self._dense_params(depth), depth,
                                 expr=self.where),
            ]
            self.round_trips += 1
            found = self.client.hybrid_search(
                self.collection, reqs, RRFRanker(rrf_k), limit=n, output_fields=["pid"]
            )
            for i, hits in zip(asked, found, strict=True):
                out[i] = _ranked(hits)
        bare = [i for i, q in enumerate(queries) if not q]
        if bare:
            from drrag_cli.index.fusion import rrf

            lists = self._search([dense[i] for i in bare], "vector", n, self._dense_params(n))
            for i, ranked in zip(bare, lists, strict=True):
                out[i] = rrf([[pid for pid, _s in ranked]], k=rrf_k)
        return out

    # -- by id ---------------------------------------------------------------------------
    def _rows(self, ids: Sequence[int], fields: list[str]) -> dict[int, dict[str, Any]]:
        out: dict[int, dict[str, Any]] = {}
        unique = list(dict.fromkeys(int(i) for i in ids))
        for start in range(0, len(unique), MAX_IDS):
            chunk = unique[start : start + MAX_IDS]
            self.round_trips += 1
            for row in self.client.query(
                self.collection, filter=f"pid in {chunk} and {self.where}", output_fields=fields
            ):
                out[int(row["pid"])] = row
        return out

    def vectors(self, ids: Sequence[int]) -> np.ndarray:
        """Stored (normalised) embeddings, in the order of ``ids``."""
        import numpy as np

        if not ids:
            return np.zeros((0, self.dim), dtype=np.float32)
        rows = self._rows(ids, ["pid", "vector"])
        return np.asarray([rows[int(i)]["vector"] for i in ids], dtype=np.float32)

    def passages(self, ids: Sequence[int]) -> dict[int, Passage]:
        if not ids:
            return {}
        return {pid: _passage(row) for pid, row in self._rows(ids, PASSAGE_FIELDS).items()}

    def close(self) -> None:
        """Close the connection; a Milvus Lite file is released for other processes."""
        if "client" in self.__dict__:
            self.__dict__.pop("client").close()
        schema.release(self.uri)

    def stats(self) -> dict[str, Any]:
        self.round_trips += 1
        rows = self.client.query(self.collection, filter=self.where, output_fields=["count(*)"])
        return {
            "backend": "milvus",
            "milvus_uri": self.uri,
            "milvus_collection": self.collection,
            "milvus_passages": int(rows[0]["count(*)"]),
            **({"milvus_lite_bytes": _size(Path(self.uri))} if self.uri.endswith(".db") else {}),
        }


def _passage(row: dict[str, Any]) -> Passage:

    def opt(key: str) -> int | None:
        return None if row[key] == NONE else int(row[key])

    return Passage(
        source=row["source"],
        title=row["title"],
        text=row["text"],
        ordinal=int(row["ordinal"]),
        char_start=int(row["char_start"]),
        char_end=int(row["char_end"]),
        line_start=opt("line_start"),
        line_end=opt("line_end"),
        page=opt("page"),
        passage_id=int(row["pid"]),
    )


def _ranked(hits: list[dict[str, Any]]) -> Ranked:
    """(passage id, score) of a result list."""
    return [(int(h["entity"]["pid"]), float(h["distance"])) for h in hits]


def _size(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file()) if path.is_dir() else 0


def _floats(vec: Any) -> list[float]:  # noqa: ANN401
    import numpy as np

    return np.asarray(vec, dtype=np.float32).reshape(-1).tolist()
