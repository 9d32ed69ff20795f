"""Any user text is safe for every search mode (tantivy's grammar never sees it raw)."""

from __future__ import annotations

import pytest

from drrag_cli.config import Settings
from drrag_cli.index.api import Index
from drrag_cli.index.bm25 import query_terms
from drrag_cli.index.fusion import rrf

HOSTILE = [
    '"',
    '"unbalanced quote',
    "it's",
    "foo:bar",
    "title:",
    "text:heron",
    "https://example.com/a?b=c&d=(e)#f",
    "(",
    "(unbalanced",
    ")",
    "[brackets]",
    "{braces}",
    "AND",
    "OR",
    "NOT",
    "AND OR NOT",
    "a AND OR b",
    "",
    "   ",
    "\n\t",
    "*",
    "?",
    "-",
    "+",
    "+heron -mara",
    "~2",
    "^3",
    "\\",
    "heron^2",
    "'single'",
    "Tromsø",
    "日本語のクエリ",
    "emoji 🚀 query",
    "x" * 5000,
    "NOT heron",
    "heron AND",
    "IN [1 TO 5]",
    "field:(a OR b)",
    '"phrase with" AND (stuff',
    "$$$%%%",
    "a/b\\c|d",
    "0",
    "-1",
    "\udcff\udcfe heron",  # undecodable argv bytes as os.fsdecode gives them (library callers too)
    "lone \ud800 surrogate",
]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Index:
    from tests.conftest import write_corpus

    root = tmp_path_factory.mktemp("q")
    settings = Settings().replace({"index.path": str(root / "ix")})
    Index.build([write_corpus(root / "corpus")], settings)
    return Index.open(settings)


@pytest.mark.parametrize("query", HOSTILE)
def test_hostile_queries_never_crash(built: Index, query: str) -> None:
    for mode in ("bm25", "hybrid"):
        hits = built.search(query, mode=mode, k=3)
        assert len(hits) <= 3


def test_dense_handles_empty_and_huge(built: Index) -> None:
    assert len(built.search("", mode="dense", k=2)) == 2
    assert len(built.search("y " * 3000, mode="dense", k=2)) == 2


def test_a_huge_k_returns_every_passage_instead_of_a_tantivy_panic(built: Index) -> None:
    for mode in ("bm25", "dense", "hybrid"):
        hits = built.search("Heron", mode=mode, k=2**62)
        assert 0 < len(hits) <= built.status()["passages"]


def test_operators_are_plain_words() -> None:
    assert query_terms('Heron AND "Mara" (Quint) OR NOT x:y') == [
        "heron",
        "and",
        "mara",
        "quint",
        "or",
        "not",
        "x",
        "y",
    ]


def test_modes_find_the_right_passage(built: Index) -> None:
    assert "Tromsø" in built.search("Where was Mara Quint born?", mode="bm25", k=1)[0].passage.text
    assert "Tromsø" in built.search("birthplace of Mara", mode="dense", k=1)[0].passage.text
    top = built.search("lark telescope mirror width", mode="hybrid", k=1)[0]
    assert top.passage.page == 2 and top.passage.source.endswith("report.pdf")


def test_rrf_fuses_and_orders() -> None:
    fused = rrf([[1, 2, 3], [3, 1]], k=60)
    assert [pid for pid, _ in fused] == [1, 3, 2]
    assert fused[0][1] == pytest.approx(1 / 61 + 1 / 62)
