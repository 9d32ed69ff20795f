"""A full disk, wherever a build hits it, is one user error; no failure leaves a staging
folder behind; what a killed run left is removed by the next one.

Real components throughout. The full disk is real SQLITE_FULL where SQLite writes (a
`PRAGMA max_page_count` at the current size), and a write failing with ENOSPC at the
point where tantivy, hnswlib or the CURRENT swap write. hnswlib is the sly one: on a
full disk it leaves a truncated file and raises nothing, so that case truncates the
real file and leaves no free space.
"""

from __future__ import annotations

import errno
import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from drrag_cli.config import Settings
from drrag_cli.errors import DiskFullError
from drrag_cli.index import layout
from drrag_cli.index.api import Index
from tests.conftest import truncate


def _cap_pages(conn: sqlite3.Connection) -> None:
    """Real SQLITE_FULL: the database may not grow past its current size."""
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    conn.execute(f"PRAGMA max_page_count = {max(pages, 1)}")


def _full_store(monkeypatch: pytest.MonkeyPatch) -> None:
    from drrag_cli.index.store import PassageStore

    real = PassageStore.__init__

    def init(self: PassageStore, path: Path, readonly: bool = False) -> None:
        real(self, path, readonly)
        if not readonly:
            _cap_pages(self.conn)

    monkeypatch.setattr(PassageStore, "__init__", init)


def _full_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    from drrag_cli.index.vectors import VectorCache

    real = VectorCache.__init__

    def init(self: VectorCache, path: Path, model_id: str, dim: int) -> None:
        real(self, path, model_id, dim)
        _cap_pages(self.conn)

    monkeypatch.setattr(VectorCache, "__init__", init)


def _full_tantivy(monkeypatch: pytest.MonkeyPatch) -> None:
    import drrag_cli.index.bm25 as bm25

    real = bm25.build_bm25

    def build(path: Path, rows: list) -> None:
        real(path, rows[:1])  # the writer got going, then the disk filled (tantivy's own words:)
        raise ValueError(f"An IO error occurred: 'No space left on device (os error 28) at path \"{path}/.tmpX\"'")

    def update(old: Path, path: Path, removed, rows: list) -> None:  # noqa: ANN001 - a run that applies its change
        real_update(old, path, removed, rows[:1])
        raise ValueError(f"An IO error occurred: 'No space left on device (os error 28) at path \"{path}/.tmpX\"'")

    real_update = bm25.update_bm25
    monkeypatch.setattr(bm25, "build_bm25", build)
    monkeypatch.setattr(bm25, "update_bm25", update)


def _full_hnswlib(monkeypatch: pytest.MonkeyPatch) -> None:
    import drrag_cli.index.dense as dense

    real = dense.build_dense

    def build(path: Path, ids, vecs, threads: int = -1) -> None:  # noqa: ANN001
        real(path, ids, vecs, threads)
        truncate(path)  # what hnswlib's unchecked ofstream leaves on a full disk

    def update(old: Path, path: Path, removed, ids, vecs, dim: int) -> None:  # noqa: ANN001 - a run that applies its change
        real_update(old, path, removed, ids, vecs, dim)
        truncate(path)

    real_update = dense.update_dense
    monkeypatch.setattr(dense, "build_dense", build)
    monkeypatch.setattr(dense, "update_dense", update)
    monkeypatch.setattr(layout, "free_bytes", lambda path: 0)


def _full_at_swap(monkeypatch: pytest.MonkeyPatch) -> None:
    real = layout.write_text_atomic

    def write(path: Path, text: str) -> None:
        if path.name == layout.CURRENT:
            raise OSError(errno.ENOSPC, "No space left on device", str(path))
        real(path, text)

    monkeypatch.setattr(layout, "write_text_atomic", write)


FULL_DISKS: dict[str, Callable[[pytest.MonkeyPatch], None]] = {
    "sqlite store": _full_store,
    "embedding cache": _full_cache,
    "tantivy": _full_tantivy,
    "hnswlib": _full_hnswlib,
    "CURRENT swap": _full_at_swap,
}


def _grow(corpus: Path) -> None:
    """New text to index: more passages than fit in the pages the stores have."""
    body = " ".join(f"Sandpiper survey {i} counted {i * 7} birds near the Lofoten shore." for i in range(120))
    (corpus / "notes" / "sandpiper.md").write_text(f"# Sandpiper\n\n{body}\n", encoding="utf-8")


def _leftovers(root: Path) -> list[str]:
    live = layout.current_generation(root)
    return sorted(
        p.name for p in root.iterdir()
        if p.name.endswith(".tmp") or (p.name.startswith("gen-") and live is not None and p.name > live.name)
    )


@pytest.mark.parametrize("where", list(FULL_DISKS))
def test_disk_full_is_one_user_error_and_the_old_index_stays_live(
    where: str, corpus: Path, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = Path(settings.index.path)
    first = Index.build([corpus], settings)
    live = layout.current_generation(root)
    _grow(corpus)
    with monkeypatch.context() as patch:
        FULL_DISKS[where](patch)
        with pytest.raises(DiskFullError) as caught:
            Index.build([corpus], settings)
    message = str(caught.value)
    assert str(root) in message and "needs about" in message and "estimate" in message
    assert "previous index is still live" in message and "\n" not in message
    assert layout.current_generation(root) == live and _leftovers(root) == []
    index = Index.open(settings)
    assert index.status()["passages"] == first.passages_total
    assert index.search("Where was Mara Quint born?", mode="hybrid", k=1)[0].passage.text.count("Tromsø")

    again = Index.build([corpus], settings)  # space is back: the next run just works
    assert again.published and again.added == 1 and _leftovers(root) == []
    assert "sandpiper" in Index.open(settings).search("Sandpiper survey Lofoten", mode="bm25", k=1)[0].passage.source


def test_truncated_hnsw_with_space_left_is_an_internal_error_not_published(
    corpus: Path, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = Path(settings.index.path)
    Index.build([corpus], settings)
    live = layout.current_generation(root)
    _grow(corpus)
    _full_hnswlib(monkeypatch)
    monkeypatch.setattr(layout, "free_bytes", lambda path: 10**12)
    with pytest.raises(RuntimeError, match="failed its check"):
        Index.build([corpus], settings)
    assert layout.current_generation(root) == live and _leftovers(root) == []


def test_cli_prints_one_line_and_exits_1(cli, corpus: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: ANN001
    _full_cache(monkeypatch)
    code, out, err = cli("index", str(corpus), "--index", "ix")
    assert code == 1 and out == ""
    assert err.startswith("drrag: error: the disk holding ix is full: this build needs about ")
    assert "nothing was written" in err and err.count("\n") == 1
    assert [p.name for p in Path("ix").iterdir() if p.name.startswith("gen-")] == []


def test_any_failure_removes_the_staging_folder(
    corpus: Path, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    import drrag_cli.index.build as build

    def boom(*args: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(build, "_write_indexes", boom)
    with pytest.raises(RuntimeError, match="boom"):
        Index.build([corpus], settings)
    assert [p.name for p in Path(settings.index.path).iterdir() if p.name.startswith("gen-")] == []


def test_next_run_removes_what_a_killed_run_left(corpus: Path, settings: Settings) -> None:
    root = Path(settings.index.path)
    Index.build([corpus], settings)
    (corpus / "notes" / "mara.txt").write_text("Mara Quint now lives in Stavanger.\n", encoding="utf-8")
    Index.build([corpus], settings)
    previous, live = sorted(p.name for p in root.glob("gen-*"))
    # SIGKILL leftovers: a half-built staging folder, a generation renamed but never made
    # live, a half-written CURRENT
    (root / "gen-000007.tmp" / "bm25").mkdir(parents=True)
    shutil.copytree(root / live, root / "gen-000006")
    (root / ".CURRENT.4242.tmp").write_text("gen-000006", encoding="utf-8")

    report = Index.build([corpus], settings)  # nothing changed: no new generation either
    assert not report.published
    kept = [CURRENT, "lock", "vectors.sqlite", "vectors.checked", previous, live]
    assert sorted(p.name for p in root.iterdir()) == sorted(kept)
    assert Index.open(settings).gen.name == live


def test_without_current_only_staging_is_removed(tmp_path: Path) -> None:
    (tmp_path / "gen-000001").mkdir()  # perhaps all the user has: kept
    (tmp_path / "gen-000002.tmp").mkdir()
    layout.prune_generations(tmp_path)
    assert [p.name for p in tmp_path.iterdir()] == ["gen-000001"]


CURRENT = layout.CURRENT
