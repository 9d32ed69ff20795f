"""Dense index: hnswlib cosine HNSW over normalised embeddings, labels = passage ids.

Small on purpose (cf. txtai's hnsw adapter): build, save, load, query. k is clamped to
the element count because hnswlib raises otherwise.

A generation made from the previous one (:func:`update_dense`) takes only the change. In a
small index it loads the graph, marks the removed passages deleted, adds the new ones and
saves it: hnswlib keeps a deleted element in the graph (searches skip it) and does not say
which are, so ``dense.deleted.npy`` beside the file lists them. A label added again (SQLite
gives a freed passage id to a new passage, in this run or a later one) is un-deleted and its
vector replaced by hnswlib itself.

From :data:`RECENT_FROM` elements, loading and saving the whole graph is most of an edit's
cost (1.8 GB at a million passages), so the graph is shared with the previous generation (a
hard link) and left as it is: the new passages go into a second, small graph
(``dense.recent.hnsw``, updated the same way), and the main graph's removed passages are
listed in ``dense.dropped.npy`` and marked deleted when a reader loads it. Once the recent
graph and the dropped list pass :data:`FOLD` of the main graph, a run folds them into it
(loaded, updated and saved once). A search asks both graphs and keeps the best.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from pathlib import Path

import numpy as np

M = 32
EF_CONSTRUCTION = 200
EF_SEARCH = 128
RECENT_FROM = 20_000  # main-graph elements from which an edit leaves the main graph as it is
FOLD = 0.05  # recent elements and dropped labels, as a share of the main graph's, past which a run folds them in


def build_dense(path: Path, ids: np.ndarray, vecs: np.ndarray, threads: int = -1) -> None:
    import hnswlib

    dim = vecs.shape[1] if vecs.ndim == 2 and len(vecs) else 384
    index = hnswlib.Index(space="cosine", dim=dim)
    index.init_index(max_elements=max(1, len(ids)), ef_construction=EF_CONSTRUCTION, M=M)
    if len(ids):
        index.add_items(vecs, ids, num_threads=threads)
    index.save_index(str(path))


def update_dense(old: Path, path: Path, removed: Sequence[int], ids: np.ndarray, vecs: np.ndarray, dim: int) -> None:
    """Write at ``path`` the dense index of ``old`` with the ``removed`` passage ids deleted
    and (``ids``, ``vecs``) added: into the main graph, or beside it (module docstring)."""
    recent = _load(recent_file(old), dim) if recent_file(old).is_file() else None
    recent_live = _live(recent, recent_file(old))
    gone = {int(pid) for pid in removed}
    dropped = set(dropped_labels(old).tolist()) | (gone - recent_live)  # the rest were the main graph's
    new = {int(pid) for pid in ids}
    main = element_count(old)
    waiting = len(_labels(recent) | new) + len(dropped)
    if main < RECENT_FROM or waiting > FOLD * main:
        kept = sorted(recent_live - gone - new)
        if kept:
            assert recent is not None
            ids = np.concatenate([np.array(kept, dtype=np.int64), ids])
            vecs = np.concatenate([np.asarray(recent.get_items(kept), dtype=np.float32).reshape(len(kept), -1), vecs])
        _apply(old, path, dropped, ids, vecs, dim)
        return
    _share(old, path)
    _share(_deleted_file(old), _deleted_file(path))
    _write_labels(_dropped_file(path), sorted(dropped))
    if recent is not None:
        _apply(recent_file(old), recent_file(path), gone & recent_live, ids, vecs, dim)
    elif len(ids):
        build_dense(recent_file(path), ids, vecs)


def _apply(old: Path, path: Path, removed: set[int], ids: np.ndarray, vecs: np.ndarray, dim: int) -> None:
    """The graph of ``old`` loaded, ``removed`` marked deleted, (``ids``, ``vecs``) added, saved at ``path``."""
    deleted = set(deleted_labels(old).tolist())
    index = _load(old, dim)
    present = _labels(index)
    for pid in (removed & present) - deleted:
        index.mark_deleted(int(pid))
        deleted.add(int(pid))
    if len(ids):
        if index.get_current_count() + len(ids) > index.get_max_elements():
            index.resize_index(index.get_current_count() + len(ids))
        index.add_items(vecs, ids)
        deleted -= {int(i) for i in ids}  # a freed id given to a new passage (now or in an earlier run): un-deleted
    index.save_index(str(path))
    _write_labels(_deleted_file(path), sorted(deleted))


def element_count(path: Path) -> int:
    """The elements an hnswlib file holds, deleted ones too, from its header (hnswlib writes
    its level-0 offset, capacity and element count first, as 8-byte integers)."""
    with open(path, "rb") as fh:
        header = fh.read(24)
    if len(header) < 24:
        raise ValueError(f"{path.name} is cut short")
    return struct.unpack("<QQQ", header)[2]


def dead_count(path: Path) -> int:
    """The dead elements the dense index at ``path`` carries: the main graph's deleted and
    dropped ones and the recent graph's deleted ones (what compaction clears)."""
    return deleted_count(path) + len(dropped_labels(path)) + deleted_count(recent_file(path))


def live_count(path: Path, dim: int) -> int:
    """The live passages of the dense index at ``path``, as a reader that loads it counts them;
    a main graph shared with the previous generation was loaded when that one was checked,
    so only its header is read."""
    if path.stat().st_nlink > 1:
        recent = recent_file(path)
        count = element_count(path) - deleted_count(path) - len(_hidden(path))
        return count + (len(_live(_load(recent, dim), recent)) if recent.is_file() else 0)
    return DenseIndex(path, dim).count


def deleted_labels(path: Path) -> np.ndarray:
    """The labels of the HNSW at ``path`` that are marked deleted (none for a file built whole)."""
    return _read_labels(_deleted_file(path))


def deleted_count(path: Path) -> int:
    return len(deleted_labels(path))


def dropped_labels(path: Path) -> np.ndarray:
    """The labels of the main graph at ``path`` removed since it was written (marked deleted on load)."""
    return _read_labels(_dropped_file(path))


def _hidden(path: Path) -> set[int]:
    """The main graph's dropped labels it does not already hold as deleted: what a reader marks."""
    return set(dropped_labels(path).tolist()) - set(deleted_labels(path).tolist())


def recent_file(path: Path) -> Path:
    return path.with_suffix(".recent.hnsw")


def part_files(path: Path) -> list[Path]:
    """Every file the dense index at ``path`` may consist of, the main graph first."""
    recent = recent_file(path)
    return [path, _deleted_file(path), _dropped_file(path), recent, _deleted_file(recent)]


def _read_labels(file: Path) -> np.ndarray:
    """The labels saved at ``file`` (none when there is no file). A file that cannot be read is
    damage, not "none": read as none, a dropped list would bring removed passages back, and a
    freed id the recent graph reuses would answer with the old passage's vector."""
    try:
        return np.load(file, allow_pickle=False)
    except FileNotFoundError:
        return np.zeros(0, dtype=np.int64)
    except (OSError, ValueError) as exc:  # hnswlib's damage is a RuntimeError too (_load)
        raise RuntimeError(f"{file.name}: {exc}") from exc


def _write_labels(file: Path, labels: Sequence[int]) -> None:
    """Labels saved at ``file`` (no file when none)."""
    if labels:
        with open(file, "wb") as fh:
            np.save(fh, np.asarray(labels, dtype=np.int64), allow_pickle=False)


def _share(old: Path, path: Path) -> None:
    """``old`` at ``path`` too: a hard link (neither generation writes it again), else a copy."""
    import os
    import shutil

    if not old.is_file():
        return
    try:
        os.link(old, path)
    except OSError:  # a file system without hard links
        shutil.copy2(old, path)


def _deleted_file(path: Path) -> Path:
    return path.with_suffix(".deleted.npy")


def _dropped_file(path: Path) -> Path:
    return path.with_suffix(".dropped.npy")


def _load(path: Path, dim: int):  # noqa: ANN202 (hnswlib.Index, imported lazily)
    import hnswlib

    index = hnswlib.Index(space="cosine", dim=dim)
    try:
        index.load_index(str(path))
    except RuntimeError as exc:  # hnswlib does not say which file: the recent graph's damage names it
        raise RuntimeError(f"{path.name}: {exc}") from exc
    return index


def _labels(index) -> set[int]:  # noqa: ANN001
    return {int(i) for i in index.get_ids_list()} if index is not None else set()


def _live(index, path: Path) -> set[int]:  # noqa: ANN001
    """The labels of a loaded graph that are not marked deleted."""
    return _labels(index) - set(deleted_labels(path).tolist()) if index is not None else set()


class DenseIndex:
    """The main graph (its dropped labels marked deleted) and the recent one, if any."""

    def __init__(self, path: Path, dim: int) -> None:
        self.index = _load(path, dim)
        dropped = _hidden(path)
        for label in dropped:
            self.index.mark_deleted(int(label))
        self.main_count = self.index.get_current_count() - deleted_count(path) - len(dropped)
        recent = recent_file(path)
        self.recent = _load(recent, dim) if recent.is_file() else None
        self.recent_labels = _live(self.recent, recent)
        self.count = self.main_count + len(self.recent_labels)  # live passages

    def search(self, vec: np.ndarray, n: int) -> list[tuple[int, float]]:
        """(passage id, cosine similarity), best first."""
        query = np.asarray(vec, dtype=np.float32).reshape(1, -1)
        hits = _query(self.index, query, min(n, self.main_count))
        if self.recent is not None:
            hits = sorted(hits + _query(self.recent, query, min(n, len(self.recent_labels))), key=lambda h: -h[1])
        return hits[:n]

    def vectors(self, ids: Sequence[int]) -> np.ndarray:
        """The stored (normalised) vectors of passages ``ids``, each from the graph that holds it live."""
        ids = [int(pid) for pid in ids]
        out = np.zeros((len(ids), self.index.dim), dtype=np.float32)
        for graph, pick in ((self.index, False), (self.recent, True)):
            rows = [i for i, pid in enumerate(ids) if (pid in self.recent_labels) == pick]
            if rows:
                out[rows] = np.asarray(graph.get_items([ids[i] for i in rows]), dtype=np.float32)
        return out


def _query(index, query: np.ndarray, k: int) -> list[tuple[int, float]]:  # noqa: ANN001
    if k <= 0:
        return []
    index.set_ef(max(EF_SEARCH, k))
    labels, dists = index.knn_query(query, k=k)
    return [(int(lab), float(1.0 - d)) for lab, d in zip(labels[0], dists[0], strict=True)]
