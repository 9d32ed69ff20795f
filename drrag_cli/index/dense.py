"""Dense index: hnswlib cosine HNSW over normalised embeddings, labels = passage ids.

Small on purpose (cf. txtai's hnsw adapter): build, save, load, query. k is clamped to
the element count because hnswlib raises otherwise.
"""

from __future__ import annotations

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


class DenseIndex:
    def __init__(self, path: Path, dim: int) -> None:
        import hnswlib

        self.index = hnswlib.Index(space="cosine", dim=dim)
        self.index.load_index(str(path))
        self.count = self.index.get_current_count()
        self.index.set_ef(EF_SEARCH)

    def search(self, vec: np.ndarray, n: int) -> list[tuple[int, float]]:
        """(passage id, cosine similarity), best first."""
        k = min(n, self.count)
        if k <= 0:
            return []
        self.index.set_ef(max(EF_SEARCH, k))
        labels, dists = self.index.knn_query(np.asarray(vec, dtype=np.float32).reshape(1, -1), k=k)
        return [(int(lab), float(1.0 - d)) for lab, d in zip(labels[0], dists[0], strict=True)]
