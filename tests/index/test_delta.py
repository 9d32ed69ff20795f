"""A run that changes a few files applies the change to the previous generation (index/delta.py):
the same search results and links as a generation built whole, with the real parts."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from drrag_cli.config import Settings
from drrag_cli.errors import IndexDamagedError
from drrag_cli.index import dense, layout
from drrag_cli.index.api import Index
from drrag_cli.index.dense import dead_count, deleted_count, dropped_labels, recent_file
from tests.conftest import truncate, write_notes

PEOPLE = ["Ada Lind", "Bo Krantz", "Cleo Varga", "Dag Holm", "Eva Storm", "Finn Aker", "Gry Moen", "Hal Berg"]
PLACES = ["Tromsø", "Bergen", "Uppsala", "Ghent", "Lyon", "Porto", "Graz", "Turku"]


def _notes() -> dict[str, str]:
    notes = {}
    for i, (person, place) in enumerate(zip(PEOPLE, PLACES, strict=True)):
        peer = PEOPLE[(i + 1) % len(PEOPLE)]
        notes[f"{person.lower().replace(' ', '-')}.md"] = (
            f"# {person}\n\n{person} was born in {place} and works with {peer} on survey {i}. "
            f"The survey counted {i * 11} terns near the {place} shore.\n"
        )
    for i in range(16):
        notes[f"log-{i:02d}.md"] = f"# Log {i}\n\nDay {i} of the tern survey: {PEOPLE[i % 8]} logged {i * 3} nests.\n"
    notes["log-05.md"] += "See [[Ivo Dahl]] for the handover.\n"  # a wiki-link to a note that comes later
    return notes


def _change(folder: Path) -> None:
    """One note edited, one added that names an existing one, one removed."""
    ada = folder / "ada-lind.md"
    ada.write_text(ada.read_text(encoding="utf-8") + "Ada Lind also rings kittiwakes at Hornøya.\n", encoding="utf-8")
    ivo = "# Ivo Dahl\n\nIvo Dahl took over the tern survey from Cleo Varga and [Bo](bo-krantz.md).\n"
    write_notes(folder, {"ivo-dahl.md": ivo})
    (folder / "log-03.md").unlink()


def _view(index: Index, queries: list[str]) -> tuple[list, list, set]:
    """What a reader sees, by text rather than passage id: BM25 and dense top 10 per query,
    and every (passage text, linked note) pair."""
    def texts(ranked: list[tuple[int, float]]) -> list[str]:
        found = index.passages([pid for pid, _ in ranked])
        return [found[pid].text for pid, _ in ranked]

    lexical = [texts(index.bm25_ranked(q, 10)) for q in queries]
    dense = [texts(index.dense_ranked(index.embed([q])[0], 10)) for q in queries]
    ids = [row[0] for row in index.store.all_passages()]
    passages = index.passages(ids)
    sources = {doc: src for doc, src in index.store.conn.execute("SELECT id, source FROM documents")}
    links = {
        (passages[pid].text, Path(sources[doc]).name)
        for pid, doc in index.store.conn.execute("SELECT passage_id, document_id FROM links")
    }
    return lexical, dense, links


QUERIES = ["Ada Lind kittiwakes", "tern survey Cleo Varga", "Ivo Dahl", "nests logged day 3", "born in Porto"]


def test_a_small_change_is_applied_to_the_previous_generation_as_a_whole_build_would_make_it(
    tmp_path: Path, settings: Settings
) -> None:
    folder = write_notes(tmp_path / "vault", _notes())
    Index.build([folder], settings)
    before = layout.current_generation(Path(settings.index.path))
    _change(folder)
    report = Index.build([folder], settings)
    assert (report.added, report.updated, report.removed) == (1, 1, 1) and report.passages_embedded == 2
    live = layout.current_generation(Path(settings.index.path))
    assert live is not None and before is not None
    shared = {f.name for f in (live / "bm25").iterdir()} & {f.name for f in (before / "bm25").iterdir()}
    assert any(name.endswith(".idx") for name in shared)  # the old segment is shared, not written again
    assert deleted_count(live / "dense.hnsw") == 2  # Ada's old passage and log 3's

    whole = settings.replace({"index.path": str(tmp_path / "whole")})
    Index.build([folder], whole, rebuild=True)
    incremental, rebuilt = Index.open(settings), Index.open(whole)
    assert incremental.status()["passages"] == rebuilt.status()["passages"]
    assert _view(incremental, QUERIES) == _view(rebuilt, QUERIES)
    links = _view(incremental, [])[2]
    assert {note for text, note in links if "took over" in text} == {"cleo-varga.md", "bo-krantz.md"}  # new links
    assert [text.endswith("[[Ivo Dahl]] for the handover.") for text, note in links if note == "ivo-dahl.md"] == [True]


def test_deletes_past_the_threshold_rebuild_the_generation_whole(tmp_path: Path, settings: Settings) -> None:
    """Each edit leaves a deleted element in the HNSW; once they pass a fifth of the live
    passages the run compacts: BM25 and HNSW are built from every passage again."""
    folder = write_notes(tmp_path / "vault", _notes())
    Index.build([folder], settings)
    root = Path(settings.index.path)
    seen = []
    for i in range(7):
        log = folder / f"log-{i:02d}.md"
        log.write_text(log.read_text(encoding="utf-8") + f"Edit {i}.\n", encoding="utf-8")
        Index.build([folder], settings)
        seen.append(deleted_count(layout.current_generation(root) / "dense.hnsw"))
    assert seen == [1, 2, 3, 4, 0, 1, 2]  # 24 live passages: 5 deleted would pass 4.8
    index = Index.open(settings)
    assert index.status()["passages"] == 24 and index.dense.count == 24
    assert index.dense.index.get_current_count() == 24 + seen[-1]


def test_a_freed_passage_id_given_to_a_new_passage_finds_the_new_text(tmp_path: Path, settings: Settings) -> None:
    """SQLite gives the highest freed rowid to the next row: the new passage takes the removed
    one's id, and both indexes then hold the new text under it, never the old."""
    folder = write_notes(tmp_path / "vault", _notes())
    Index.build([folder], settings)
    index = Index.open(settings)
    last = max(row[0] for row in index.store.all_passages())
    gone = index.passages([last])[last]
    Path(gone.source).unlink()
    write_notes(folder, {"zz-new.md": "# Zed\n\nZed Quist counted puffins at Runde.\n"})
    Index.build([folder], settings)
    index = Index.open(settings)
    assert index.passages([last])[last].text.endswith("Zed Quist counted puffins at Runde.")
    assert [pid for pid, _ in index.bm25_ranked("puffins Runde", 3)][:1] == [last]
    assert all(index.passages([pid])[pid].text != gone.text for pid, _ in index.bm25_ranked(gone.text, 10))
    assert index.dense_ranked(index.embed(["Zed Quist puffins"])[0], 1)[0][0] == last


def test_a_passage_id_freed_by_one_run_and_given_out_by_the_next_is_counted_live(
    tmp_path: Path, settings: Settings
) -> None:
    """Run 1 removes the note with the highest passage id (its HNSW element marked deleted);
    run 2 adds a note, which SQLite gives that id: hnswlib un-deletes the element, and the
    deleted list must follow, or the live count falls short of the store's (a reader's check)."""
    folder = write_notes(tmp_path / "vault", _notes())
    Index.build([folder], settings)
    index = Index.open(settings)
    last = max(row[0] for row in index.store.all_passages())
    Path(index.passages([last])[last].source).unlink()
    Index.build([folder], settings)
    root = Path(settings.index.path)
    assert deleted_count(layout.current_generation(root) / "dense.hnsw") == 1
    write_notes(folder, {"zz-new.md": "# Zed\n\nZed Quist counted puffins at Runde.\n"})
    Index.build([folder], settings)
    index = Index.open(settings)
    assert deleted_count(layout.current_generation(root) / "dense.hnsw") == 0
    assert index.status()["passages"] == index.dense.count == 24
    assert index.dense_ranked(index.embed(["Zed Quist puffins"])[0], 1)[0][0] == last


@pytest.fixture()
def large(monkeypatch: pytest.MonkeyPatch) -> None:
    """The tiny vault indexed as a large one is: edits leave the main graph as it is."""
    monkeypatch.setattr(dense, "RECENT_FROM", 0)
    monkeypatch.setattr(dense, "FOLD", 1.0)


@pytest.mark.usefixtures("large")
def test_a_large_index_shares_its_graph_and_puts_the_change_beside_it(tmp_path: Path, settings: Settings) -> None:
    folder = write_notes(tmp_path / "vault", _notes())
    Index.build([folder], settings)
    before = layout.current_generation(Path(settings.index.path))
    _change(folder)
    Index.build([folder], settings)
    live = layout.current_generation(Path(settings.index.path))
    assert live is not None and before is not None
    assert os.path.samefile(live / "dense.hnsw", before / "dense.hnsw")  # a hard link, not written again
    assert len(dropped_labels(live / "dense.hnsw")) == 2 and dead_count(live / "dense.hnsw") == 2
    assert recent_file(live / "dense.hnsw").is_file()

    whole = settings.replace({"index.path": str(tmp_path / "whole")})
    Index.build([folder], whole, rebuild=True)
    incremental, rebuilt = Index.open(settings), Index.open(whole)
    assert incremental.dense.count == rebuilt.dense.count == incremental.status()["passages"]
    assert _view(incremental, QUERIES) == _view(rebuilt, QUERIES)


@pytest.mark.usefixtures("large")
def test_a_freed_id_lives_in_the_recent_graph_until_a_fold_puts_it_in_the_main_one(
    tmp_path: Path, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The main graph keeps the removed passage's element, dropped; the new passage under the
    same id is the recent graph's, for search and for its stored vector. A run past FOLD
    writes the main graph with both in it, and no file beside it."""
    folder = write_notes(tmp_path / "vault", _notes())
    Index.build([folder], settings)
    index = Index.open(settings)
    last = max(row[0] for row in index.store.all_passages())
    Path(index.passages([last])[last].source).unlink()
    write_notes(folder, {"zz-new.md": "# Zed\n\nZed Quist counted puffins at Runde.\n"})
    Index.build([folder], settings)
    root = Path(settings.index.path)
    main = layout.current_generation(root) / "dense.hnsw"
    assert dropped_labels(main).tolist() == [last] and dense.DenseIndex(main, 384).recent_labels == {last}
    index = Index.open(settings)
    assert index.status()["passages"] == index.dense.count == 24
    assert index.dense_ranked(index.embed(["Zed Quist puffins"])[0], 1)[0][0] == last
    assert np.array_equal(index.vectors([last, 1]), [index.dense.recent.get_items([last])[0],
                                                     index.dense.index.get_items([1])[0]])

    monkeypatch.setattr(dense, "FOLD", 0.0)
    log = folder / "log-00.md"
    log.write_text(log.read_text(encoding="utf-8") + "Folded.\n", encoding="utf-8")
    Index.build([folder], settings)
    main = layout.current_generation(root) / "dense.hnsw"
    assert not recent_file(main).exists() and len(dropped_labels(main)) == 0 and deleted_count(main) == 1
    index = Index.open(settings)
    assert index.status()["passages"] == index.dense.count == 24
    assert index.dense_ranked(index.embed(["Zed Quist puffins"])[0], 1)[0][0] == last
    assert len(index.dense_ranked(index.embed(["Folded"])[0], 24)) == 24  # every live passage, none dead


def _changed_large(tmp_path: Path, settings: Settings) -> tuple[Path, Path]:
    """A vault built, changed and built again (a shared main graph with a recent one and a
    dropped list beside it): the vault and the live generation's main graph."""
    folder = write_notes(tmp_path / "vault", _notes())
    Index.build([folder], settings)
    _change(folder)
    Index.build([folder], settings)
    live = layout.current_generation(Path(settings.index.path))
    assert live is not None
    return folder, live / "dense.hnsw"


@pytest.mark.usefixtures("large")
@pytest.mark.parametrize(("part", "damage", "words"), [
    (recent_file, truncate, "dense.hnsw cannot be read (dense.recent.hnsw: "),
    (recent_file, Path.unlink, "holds"),  # the recent graph's passages gone: more in the manifest than found
    (dense.part_files, lambda files: files[2].unlink(), "holds"),  # the dropped list gone: removed ones back
    (dense.part_files, lambda files: truncate(files[2]), "dense.hnsw cannot be read (dense.dropped.npy: "),
])
def test_a_damaged_file_beside_a_shared_graph_is_found_by_the_next_run_and_repaired(
    tmp_path: Path, settings: Settings, part, damage, words: str  # noqa: ANN001
) -> None:
    """The main graph is as published, so a writer does not load it; the recent graph and the
    dropped list beside it are checked all the same."""
    folder, main = _changed_large(tmp_path, settings)
    damage(part(main))
    report = Index.build([folder], settings)
    assert report.published and any(words in line for line in report.repaired), report.repaired
    index = Index.open(settings)
    assert index.dense.count == index.status()["passages"]
    (best, _), = index.dense_ranked(index.embed(["Ada Lind kittiwakes"])[0], 1)
    assert "kittiwakes" in index.passages([best])[best].text


@pytest.mark.usefixtures("large")
def test_a_reader_of_a_damaged_dropped_list_is_told_which_file(tmp_path: Path, settings: Settings) -> None:
    """Read as "none", a damaged dropped list brought the removed passages back; only the count
    check caught it ("holds 26 passages, the manifest says 24"), and not when counts agree."""
    _, main = _changed_large(tmp_path, settings)
    truncate(dense.part_files(main)[2])
    with pytest.raises(IndexDamagedError, match=r"dense\.dropped\.npy: .*--rebuild"):
        index = Index.open(settings)
        index.dense_ranked(index.embed(["Ada Lind kittiwakes"])[0], 1)
