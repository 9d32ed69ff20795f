"""The union BM25 index over every collection (index/union.py): it ranks as one index over
all of their passages would, it follows every change to the registry, and a reader whose
collections changed without it searches them one by one instead."""

from __future__ import annotations

from pathlib import Path

from drrag_cli.collections import Registry
from drrag_cli.config import Settings
from drrag_cli.index.api import Index
from drrag_cli.index.union import FOLDER

QUERIES = ("Heron budget approved", "who was born in Tromsø", "bird migration radar", "Lark telescope")


def _hits(index, query: str) -> list[tuple[str, int, float]]:
    return [(Path(h.passage.source).name, h.passage.ordinal, round(h.score, 4)) for h in index.search(query, "bm25", 5)]


def test_the_union_ranks_as_one_index_of_every_collection(tmp_path: Path, corpus: Path) -> None:
    reg = Registry(tmp_path / "data")
    reg.add("notes", [str(corpus / "notes")], Settings())
    reg.add("wiki", [str(corpus / "wiki")], Settings())
    together = reg.open([], Settings())
    assert together.union is not None
    one = Settings().replace({"index.path": str(tmp_path / "one")})
    Index.build([str(corpus / "notes"), str(corpus / "wiki")], one)
    single = Index.open(one)
    for query in QUERIES:
        assert _hits(together, query) == _hits(single, query), query
    top = together.search("bird migration radar", "bm25", 1)[0].passage
    assert top.collection == "wiki" and Path(top.source).parent.name == "wiki"
    assert reg.open(["notes"], Settings()).union is None  # a subset reads its own indexes
    assert reg.open(["wiki", "notes"], Settings()).union is None  # another order, other ids


def test_the_union_follows_the_registry(tmp_path: Path, corpus: Path) -> None:
    reg = Registry(tmp_path / "data")
    reg.add("notes", [str(corpus / "notes")], Settings())
    assert not (reg.base / FOLDER).exists() or not any((reg.base / FOLDER).iterdir())  # one: none
    reg.add("wiki", [str(corpus / "wiki")], Settings())
    reg.add("more", [str(corpus / "wiki")], Settings())
    assert reg.open([], Settings()).union is not None
    reg.rename("more", "extra", Settings())
    assert reg.open([], Settings()).union is not None
    reg.remove("extra", Settings())
    assert reg.open([], Settings()).union is not None
    assert len(list((reg.base / FOLDER).iterdir())) == 1  # older unions are dropped

    (corpus / "wiki" / "new-page.md").write_text("# Quokka\n\nThe quokka census ran in 2024.\n", encoding="utf-8")
    reg.sync(reg.get("wiki"), Settings())  # one collection alone: the union no longer matches
    stale = reg.open([], Settings())
    assert stale.union is None
    assert Path(stale.search("quokka census", "bm25", 1)[0].passage.source).name == "new-page.md"
    reg.refresh_union(Settings())  # what `drrag index` does after syncing every collection
    fresh = reg.open([], Settings())
    assert fresh.union is not None
    assert Path(fresh.search("quokka census", "bm25", 1)[0].passage.source).name == "new-page.md"


def test_a_damaged_union_is_searched_around_and_built_again(tmp_path: Path, corpus: Path) -> None:
    """It is a cache: a torn file (a disk full, a user's cleanup) never fails a search."""
    reg = Registry(tmp_path / "data")
    reg.add("notes", [str(corpus / "notes")], Settings())
    reg.add("wiki", [str(corpus / "wiki")], Settings())
    (folder,) = (reg.base / FOLDER).iterdir()
    (folder / "meta.json").unlink()
    damaged = reg.open([], Settings())
    assert damaged.union is None and damaged.search("bird migration radar", "bm25", 1)
    reg.refresh_union(Settings())  # what the next `drrag index` does
    assert reg.open([], Settings()).union is not None
