"""Dense index: hnswlib cosine HNSW over normalised embeddings, labels = passage ids.

Small on purpose (cf. txtai's hnsw adapter): build, save, load, query. k is clamped to
the element count because hnswlib raises otherwise.

A generation made from the previous one (:func:`update_dense`) loads its graph, marks the
removed passages deleted and adds the new ones: hnswlib keeps a deleted element in the
graph (searches skip it), so ``dense.json`` beside the file counts them, and the live count
is the elements less those. A label added again (SQLite reuses a freed passage id) is
un-deleted and its vector replaced by hnswlib itself.
"""

from __future__ import annotations

import json
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

    deleted = deleted_count(old)
    index = hnswlib.Index(space="cosine", dim=dim)
    index.load_index(str(old))
    present = {int(i) for i in index.get_ids_list()}
    for pid in set(removed) & present:
        index.mark_deleted(int(pid))
        deleted += 1
    if len(ids):
        deleted -= len(present & set(removed) & {int(i) for i in ids})  # a freed id used again: un-deleted
        if index.get_current_count() + len(ids) > index.get_max_elements():
            index.resize_index(index.get_current_count() + len(ids))
        index.add_items(vecs, ids)
    index.save_index(str(path))
    write_deleted(path, deleted)
    return deleted


def deleted_count(path: Path) -> int:
    """The elements of the HNSW at ``path`` that are deleted (0 for a file built whole)."""
    try:
        return int(json.loads(_meta(path).read_text(encoding="utf-8"))["deleted"])
    except (OSError, ValueError, KeyError, TypeError):
        return 0


def write_deleted(path: Path, deleted: int) -> None:
    """Record beside ``path`` how many of its elements are deleted (nothing when none)."""
    if deleted:
        _meta(path).write_text(json.dumps({"deleted": deleted}) + "\n", encoding="utf-8")


def _meta(path: Path) -> Path:
    return path.with_suffix(".json")


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
