"""Dense index: hnswlib cosine HNSW over normalised embeddings, labels = passage ids.

Small on purpose (cf. txtai's hnsw adapter): build, save, load, query. k is clamped to
the element count because hnswlib raises otherwise.

A generation made from the previous one (:func:`update_dense`) loads its graph, marks the
removed passages deleted and adds the new ones: hnswlib keeps a deleted element in the
graph (searches skip it) and does not say which are, so ``dense.deleted.npy`` beside the
file lists them, and the live count is the elements less those. A label added again
(SQLite gives a freed passage id to a new passage, in this run or a later one) is
un-deleted and its vector replaced by hnswlib itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

M = 32
EF_CONSTRUCTION = 200
EF_SEARCH = 128


def build_dense(path: Path, ids: np.ndarray, vecs: np.ndarray, threads: int = -1) -> None:
    import hnswlib

    dim = vecs.shape[1] if vecs.ndim == 2 and len(vecs) else 384
    index = hnswlib.Index(space="cosine", dim=dim)
    index.init_index(max_elements=max(1, len(ids)), ef_construction=EF_CONSTRUCTION, M=M)
    if len(ids):
        index.add_items(vecs, ids, num_threads=threads)
    index.save_index(str(path))


def update_dense(old: Path, path: Path, removed: Sequence[int], ids: np.ndarray, vecs: np.ndarray, dim: int) -> int:
    """Write at ``path`` the HNSW of ``old`` with the ``removed`` passage ids deleted and
    (``ids``, ``vecs``) added; returns the deleted elements it then holds."""
    import hnswlib

    deleted = set(deleted_labels(old).tolist())
    index = hnswlib.Index(space="cosine", dim=dim)
    index.load_index(str(old))
    present = {int(i) for i in index.get_ids_list()}
    for pid in (set(removed) & present) - deleted:
        index.mark_deleted(int(pid))
        deleted.add(int(pid))
    if len(ids):
        if index.get_current_count() + len(ids) > index.get_max_elements():
            index.resize_index(index.get_current_count() + len(ids))
        index.add_items(vecs, ids)
        deleted -= {int(i) for i in ids}  # a freed id given to a new passage (now or in an earlier run): un-deleted
    index.save_index(str(path))
    write_deleted(path, sorted(deleted))
    return len(deleted)


def deleted_labels(path: Path) -> np.ndarray:
    """The labels of the HNSW at ``path`` that are marked deleted (none for a file built whole)."""
    try:
        return np.load(_deleted_file(path), allow_pickle=False)
    except (OSError, ValueError):
        return np.zeros(0, dtype=np.int64)


def deleted_count(path: Path) -> int:
    return len(deleted_labels(path))


def write_deleted(path: Path, labels: Sequence[int]) -> None:
    """Record beside ``path`` which of its elements are deleted (no file when none)."""
    if labels:
        with open(_deleted_file(path), "wb") as fh:
            np.save(fh, np.asarray(labels, dtype=np.int64), allow_pickle=False)


def _deleted_file(path: Path) -> Path:
    return path.with_suffix(".deleted.npy")


class DenseIndex:
    def __init__(self, path: Path, dim: int) -> None:
        import hnswlib

        self.index = hnswlib.Index(space="cosine", dim=dim)
        self.index.load_index(str(path))
        self.count = self.index.get_current_count() - deleted_count(path)  # live passages
        self.index.set_ef(EF_SEARCH)

    def search(self, vec: np.ndarray, n: int) -> list[tuple[int, float]]:
        """(passage id, cosine similarity), best first."""
        k = min(n, self.count)
        if k <= 0:
            return []
        self.index.set_ef(max(EF_SEARCH, k))
        labels, dists = self.index.knn_query(np.asarray(vec, dtype=np.float32).reshape(1, -1), k=k)
        return [(int(lab), float(1.0 - d)) for lab, d in zip(labels[0], dists[0], strict=True)]
