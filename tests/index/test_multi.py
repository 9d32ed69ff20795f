"""Several collections searched as one (MultiIndex): without the union index, the BM25
query is parsed once and run against every collection's tantivy index, which must rank
exactly as each index parsing it itself; passage ids interleave and map back to their
collection. (The union index over every collection: test_union.py.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from drrag_cli.collections import Registry
from drrag_cli.config import Settings
from drrag_cli.index import bm25
from drrag_cli.index.multi import MultiIndex

QUERIES = ("Heron budget approved", "who was born in Tromsø", "bird migration radar", "Lark telescope", "")


@pytest.fixture()
def multi(tmp_path: Path, corpus: Path) -> MultiIndex:
    reg = Registry(tmp_path / "data")
    reg.add("notes", [str(corpus / "notes")], Settings())
    reg.add("wiki", [str(corpus / "wiki"), str(corpus / "records.jsonl")], Settings())
    together = reg.open(["notes", "wiki"], Settings())
    assert together.union is not None  # every collection: one BM25 index (test_union.py)
    return MultiIndex(list(zip(together.names, together.indexes, strict=True)))  # one by one


def own_parse(index: bm25.BM25Index, text: str, n: int) -> list[tuple[int, float]]:
    """BM25 as one index alone would rank it: its own parse, no shared query."""
    terms = bm25.query_terms(text)
    if not terms:
        return []
    query = index.index.parse_query(" ".join(terms), ["title", "text"], field_boosts={"title": bm25.TITLE_BOOST})
    hits = index.searcher.search(query, min(n, index.num_docs)).hits
    return [(int(index.searcher.doc(a)["pid"][0]), float(s)) for s, a in hits]


def test_one_parse_ranks_every_collection_as_its_own_parse(multi: MultiIndex) -> None:
    for query in (*QUERIES, *reversed(QUERIES)):  # each after another: the kept query follows the text
        want = sorted(
            ((pid * 2 + i, s) for i, ix in enumerate(multi.indexes) for pid, s in own_parse(ix.bm25, query, 5)),
            key=lambda hit: -hit[1],
        )[:5]
        assert multi.bm25_ranked(query, 5) == want, query
        assert bool(want) == bool(query)


def test_hits_name_their_collection_and_passage(multi: MultiIndex) -> None:
    hits = multi.search("Heron budget approved", mode="bm25", k=3)
    assert hits[0].passage.collection == "notes" and Path(hits[0].passage.source).name == "heron.md"
    hits = multi.search("bird migration radar", mode="bm25", k=3)
    top = hits[0].passage
    assert top.collection == "wiki" and top.passage_id % 2 == 1
    assert multi.indexes[1].passages([top.passage_id // 2])[top.passage_id // 2].text == top.text


def test_a_name_is_counted_in_every_collection(multi: MultiIndex) -> None:
    # named hops (select/bridges.py) leave out names that too many passages hold
    each = [ix.frequency("Heron") for ix in multi.indexes]
    assert multi.frequency("Heron") == (sum(n for n, _ in each), sum(total for _, total in each))
    assert multi.frequency("Heron")[0] >= 1 and multi.frequency("zzqx unseen name")[0] == 0
