"""Reading a generation from Milvus: the :class:`~drrag_cli.index.backend.Backend` protocol.

Every request carries the generation's filter (schema.visible), so a build under way or
killed is never seen. A BM25 list is a search of the title's field and one of the text's,
summed here with the title's weighted :data:`~drrag_cli.index.bm25.TITLE_BOOST` as tantivy
sums its two fields (:mod:`.summed`, which also asks by id for a field's score a list cut
off). Hybrid is the RRF of that list and the dense one, ``depth`` each, fused here by
index/fusion.py as the local backend fuses them. :meth:`MilvusBackend.ranked_many` asks
for several texts' lists in one request per list kind (a question's q* lists: three
requests, and one per field for a missing score); ``round_trips`` counts the requests made.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from drrag_cli.index.bm25 import phrase_words
from drrag_cli.index.milvus import schema, summed
from drrag_cli.index.milvus.schema import NONE, PASSAGE_FIELDS, visible
from drrag_cli.types import Passage

if TYPE_CHECKING:
    import numpy as np
    from pymilvus import MilvusClient

    from drrag_cli.config import Settings

Ranked = list[tuple[int, float]]
MAX_IDS = 4096  # ids per query request
# each BM25 field's list before the sum; .summed asks by id for a score a cut list left out that could matter,
# and for deeper lists when a passage in neither could, so this is a cost, not an accuracy: deeper lists cost
# every query more, shallower ones ask more often
FIELD_DEPTH = 400
MAX_LIMIT = 16_384  # Milvus's largest top-k
BM25_PARAMS = {"metric_type": "BM25"}


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
            return self._dense(dense, n)
        return self._hybrid([schema.query(t) for t in texts], dense, n, depth, rrf_k)

    def _dense(self, vecs: list[Any], n: int) -> list[Ranked]:
        params = {"metric_type": "IP", "params": {"ef": max(schema.EF_SEARCH, n)}}
        return [_ranked(hits) for hits in self._search(vecs, "vector", n, params)]

    def _search(
        self, data: list[Any], field: str, n: int, params: dict[str, Any], where: str = ""
    ) -> list[list[dict[str, Any]]]:
        """One search request: each of ``data``'s hits (``pid`` and ``distance``), best first."""
        self.round_trips += 1
        return self.client.search(
            self.collection, data=data, anns_field=field, limit=n, filter=where or self.where, search_params=params,
            output_fields=["pid"],
        )  # fmt: skip

    def _bm25(self, queries: list[str], n: int) -> list[Ranked]:
        """BM25 over title and text, summed as tantivy sums them (:mod:`.summed`): one request per
        field for all the queries (again, four times deeper, for those whose cut lists could
        hide a passage of their top ``n``), then one per field for the scores some sums lack
        that could matter; a query without terms finds nothing, as locally."""
        from drrag_cli.index.bm25 import TITLE_BOOST

        out: list[Ranked] = [[] for _ in queries]
        pending, depth = [i for i, q in enumerate(queries) if q], max(n, FIELD_DEPTH)
        lists: dict[int, tuple[Ranked, Ranked]] = {}
        lacking: dict[int, tuple[list[int], list[int]]] = {}
        while pending:
            asked = [queries[i] for i in pending]
            titles, texts = (self._field(asked, field, depth) for field in schema.SUMMED)
            deeper = []
            for i, title, text in zip(pending, titles, texts, strict=True):
                no_title, no_text, hidden = summed.short_of(title, text, (depth, depth), n, TITLE_BOOST)
                if hidden and depth < MAX_LIMIT:
                    deeper.append(i)
                lists[i], lacking[i] = (title, text), (no_title, no_text)
            pending, depth = deeper, min(4 * depth, MAX_LIMIT)
        done = sorted(lists)
        for side, field in enumerate(schema.SUMMED):
            more = self._scored([queries[i] for i in done], field, [lacking[i][side] for i in done])
            for i, found in zip(done, more, strict=True):
                lists[i][side].extend(found)
        for i in done:
            out[i] = summed.top(summed.add(*lists[i], TITLE_BOOST), n)
        return out

    def _field(self, queries: list[str], field: str, n: int) -> list[Ranked]:
        return [_scores(hits) for hits in self._search(queries, field, n, BM25_PARAMS)]

    def _scored(self, queries: list[str], field: str, wanted: list[list[int]]) -> list[Ranked]:
        """Each query's BM25 scores on ``field`` of its ``wanted`` passages (those that match),
        all the queries in one request per :data:`MAX_IDS` passages."""
        found: list[Ranked] = [[] for _ in queries]
        union = sorted({pid for ids in wanted for pid in ids})
        asking = [i for i, ids in enumerate(wanted) if ids]
        for start in range(0, len(union), MAX_IDS):
            chunk = union[start : start + MAX_IDS]
            where = f"pid in {chunk} and {self.where}"
            hits = self._search([queries[i] for i in asking], field, len(chunk), BM25_PARAMS, where)
            for i, got in zip(asking, hits, strict=True):
                mine = set(wanted[i])
                found[i] += [(pid, score) for pid, score in _scores(got) if pid in mine]
        return found

    def _hybrid(self, queries: list[str], dense: list[Any], n: int, depth: int, rrf_k: int) -> list[Ranked]:
        """The RRF of each text's BM25 list (title and text summed, as :meth:`_bm25`) and its dense
        list, ``depth`` deep each, fused here as locally (index/fusion.py, ties by first seen): three
        requests for all the texts, and what :mod:`.summed` asks. A query without terms has an
        empty BM25 list, so its hybrid list is the dense one with its RRF scores."""
        from drrag_cli.index.fusion import rrf

        lexical, semantic = self._bm25(queries, depth), self._dense(dense, depth)
        return [
            rrf([[pid for pid, _s in words], [pid for pid, _s in near]], k=rrf_k)[:n]
            for words, near in zip(lexical, semantic, strict=True)
        ]

    def frequency(self, phrase: str) -> tuple[int, int]:
        """(passages whose ``text_terms`` hold ``phrase``'s terms in a row, all passages): the
        local BM25 index's phrase count, as those terms are tantivy's own, space-separated."""
        words = schema.terms(" ".join(phrase_words(phrase)))
        if not words:
            return 0, self.passage_total
        spaced = " or ".join(f'text_terms like "{like}"' for like in (f"{words} %", f"% {words} %", f"% {words}"))
        return self._count(f'(text_terms == "{words}" or {spaced}) and {self.where}'), self.passage_total

    @cached_property
    def passage_total(self) -> int:
        return self._count(self.where)

    def _count(self, where: str) -> int:
        self.round_trips += 1
        return int(self.client.query(self.collection, filter=where, output_fields=["count(*)"])[0]["count(*)"])

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


def _scores(hits: list[dict[str, Any]]) -> Ranked:
    """(passage id, BM25 score) of a BM25 search's hits: Milvus Lite gives the score negated
    as a distance (best first either way), a server as it is."""
    return [(int(h["entity"]["pid"]), abs(float(h["distance"]))) for h in hits]


def _size(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file()) if path.is_dir() else 0


def _floats(vec: Any) -> list[float]:  # noqa: ANN401
    import numpy as np

    return np.asarray(vec, dtype=np.float32).reshape(-1).tolist()
