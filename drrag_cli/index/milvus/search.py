"""Reading a generation from Milvus: the :class:`~drrag_cli.index.backend.Backend` protocol.

Every request carries the generation's filter (schema.visible), so a build under way or
killed is never seen. Hybrid is Milvus's own ``hybrid_search`` with ``RRFRanker(k=rrf_k)``
over a BM25 and a dense request of ``depth`` each, like the local client-side fusion.
:meth:`MilvusBackend.ranked_many` asks for several texts' lists in one request (one round
trip for all of a question's q* lists); ``round_trips`` counts the requests made.
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


class MilvusBackend:
    name = "milvus"

    def __init__(self, record: dict[str, Any], settings: Settings, gen: int, dim: int) -> None:
        self.uri, self.collection = str(record["uri"]), str(record["collection"])
        self.settings, self.gen, self.dim = settings, gen, dim
        self.where = visible(gen)
        self.round_trips = 0

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
        """One ranked list per text (and vector), all in one request."""
        if n <= 0 or not texts:
            return [[] for _ in texts]
        terms = [schema.query(t) for t in texts]
        if mode == "bm25":
            asked = [i for i, t in enumerate(terms) if t]  # a text without terms finds nothing, as locally
            out: list[Ranked] = [[] for _ in texts]
            if asked:
                hits = self._search([terms[i] for i in asked], "sparse", n, {"metric_type": "BM25"})
                for i, ranked in zip(asked, hits, strict=True):
                    out[i] = ranked
            return out
        dense = [_floats(v) for v in vecs]
        if mode == "dense":
            return self._search(dense, "vector", n, self._dense_params(n))
        return self._hybrid(terms, dense, n, depth, rrf_k)

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
        return [_ranked(hits, bm25=field == "sparse") for hits in found]

    def _hybrid(self, terms: list[str], dense: list[Any], n: int, depth: int, rrf_k: int) -> list[Ranked]:
        """Milvus RRF of a BM25 and a dense request; a text without terms (BM25 would find
        nothing) keeps its dense list, fused alone, as the local RRF of one list does."""
        from pymilvus import AnnSearchRequest, RRFRanker

        asked = [i for i, t in enumerate(terms) if t]
        out: list[Ranked] = [[] for _ in terms]
        if asked:
            reqs = [
                AnnSearchRequest([terms[i] for i in asked], "sparse", {"metric_type": "BM25"}, depth, expr=self.where),
                AnnSearchRequest(
                    [dense[i] for i in asked], "vector", self._dense_params(depth), depth, expr=self.where
                ),
            ]
            self.round_trips += 1
            found = self.client.hybrid_search(self.collection, reqs, RRFRanker(rrf_k), limit=n, output_fields=["pid"])
            for i, hits in zip(asked, found, strict=True):
                out[i] = _ranked(hits)
        rest = [i for i in range(len(terms)) if not terms[i]]
        if rest:
            for i, ranked in zip(
                rest, self._search([dense[i] for i in rest], "vector", depth, self._dense_params(depth)), strict=True
            ):
                out[i] = [(pid, 1.0 / (rrf_k + r)) for r, (pid, _s) in enumerate(ranked, start=1)][:n]
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


def _ranked(hits: list[dict[str, Any]], bm25: bool = False) -> Ranked:
    """(passage id, score) of a result list; Milvus Lite reports BM25 as a negative distance,
    a server as the positive score: both become the score."""
    return [(int(h["entity"]["pid"]), abs(float(h["distance"])) if bm25 else float(h["distance"])) for h in hits]


def _size(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file()) if path.is_dir() else 0


def _floats(vec: Any) -> list[float]:  # noqa: ANN401
    import numpy as np

    return np.asarray(vec, dtype=np.float32).reshape(-1).tolist()
