"""`Index`: the one object the rest of drrag (and Python users) talk to.

    index = Index.open(settings)
    hits = index.search("who led Project Heron?", mode="hybrid", k=5)

Opening resolves the live generation once; every part (store, BM25, HNSW, embedder)
loads on first use, so a BM25-only search never imports torch.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from drrag_cli.config import Settings
from drrag_cli.errors import IndexDamagedError, InputError
from drrag_cli.index import layout
from drrag_cli.types import Hit, Passage

if TYPE_CHECKING:
    import numpy as np

    from drrag_cli.index.backend import Backend
    from drrag_cli.index.bm25 import BM25Index
    from drrag_cli.index.build import BuildProgress, BuildReport
    from drrag_cli.index.dense import DenseIndex
    from drrag_cli.index.embedder import Embedder
    from drrag_cli.index.store import PassageStore

MODES = ("hybrid", "bm25", "dense")


class Index:
    def __init__(self, root: Path, gen: Path, manifest: dict[str, Any], settings: Settings) -> None:
        self.root = root
        self.gen = gen
        self.manifest = manifest
        self.settings = settings

    # -- lifecycle -------------------------------------------------------------------
    @classmethod
    def open(cls, settings: Settings, path: str | Path | None = None) -> Index:
        """The live generation of the index at ``path`` (default ``index.path``). A damaged
        CURRENT or manifest is an :class:`IndexDamagedError` that names the repair."""
        from drrag_cli.index.health import check_compatible, read_live, require_files

        root = Path(path if path is not None else settings.index.path).expanduser()
        for attempt in range(3):  # a build may swap CURRENT (and prune) between our reads
            try:
                gen, manifest = read_live(root)
                if manifest.get("format_version") == layout.FORMAT_VERSION:
                    require_files(gen, manifest)
                break
            except IndexDamagedError:
                if attempt == 2:
                    raise
                time.sleep(0.05)
        check_compatible(manifest, settings, root, writing=False)
        return cls(root, gen, manifest, settings)

    @staticmethod
    def build(
        paths: Sequence[str | Path], settings: Settings, *, rebuild: bool = False, replace: bool = False,
        progress: BuildProgress | None = None, path: str | Path | None = None,
    ) -> BuildReport:
        """Add ``paths`` to the index (new folders become roots); with ``replace`` they
        become its only roots. See :func:`drrag_cli.index.build.build_index`."""
        from drrag_cli.index.build import build_index

        return build_index(paths, settings, rebuild=rebuild, replace=replace, progress=progress, path=path)

    # -- parts, loaded lazily ----------------------------------------------------------
    @cached_property
    def store(self) -> PassageStore:
        from drrag_cli.index.health import open_store

        return open_store(self.gen, self.manifest["counts"]["passages"])

    @cached_property
    def backend(self) -> Backend:
        """Where this generation is searched: its own files (local) or a Milvus collection,
        as its manifest says (index/backend.py)."""
        from drrag_cli.index.backend import open_backend

        return open_backend(self.gen, self.manifest, self.settings, self.store)

    @property
    def bm25(self) -> BM25Index:
        return self.backend.bm25  # type: ignore[attr-defined]

    @property
    def dense(self) -> DenseIndex:
        return self.backend.dense  # type: ignore[attr-defined]

    @cached_property
    def embedder(self) -> Embedder:
        from drrag_cli.index.embedder import get_embedder

        emb = self.settings.embedding
        return get_embedder(emb.model, emb.threads, emb.runtime)

    # -- retrieval primitives (ids) -------------------------------------------------------
    def embed(self, texts: Sequence[str]) -> np.ndarray:
        return self.embedder.encode(list(texts), batch_size=self.settings.embedding.batch_size)

    def bm25_ranked(self, text: str, n: int) -> list[tuple[int, float]]:
        return self.backend.bm25_ranked(text, n)

    def dense_ranked(self, vec: np.ndarray, n: int) -> list[tuple[int, float]]:
        return self.backend.dense_ranked(vec, n)

    def hybrid_ranked(
        self, text: str, n: int, vec: np.ndarray | None = None
    ) -> list[tuple[int, float]]:
        depth = max(n, self.settings.search.candidates)
        if vec is None:
            vec = self.embed([text])[0]
        if isinstance(self, Index):  # one index: its backend fuses (Milvus on its side)
            return self.backend.hybrid_ranked(text, vec, n, depth, self.settings.search.rrf_k)
        from drrag_cli.index.fusion import rrf  # MultiIndex borrows this: the RRF of its merged lists

        lexical = [pid for pid, _s in self.bm25_ranked(text, depth)]
        semantic = [pid for pid, _s in self.dense_ranked(vec, depth)]
        return rrf([lexical, semantic], k=self.settings.search.rrf_k)[:n]

    def ranked(self, text: str, mode: str, n: int, vec: np.ndarray | None = None) -> list[tuple[int, float]]:
        if mode == "bm25":
            return self.bm25_ranked(text, n)
        if mode == "dense":
            return self.dense_ranked(self.embed([text])[0] if vec is None else vec, n)
        if mode == "hybrid":
            return self.hybrid_ranked(text, n, vec)
        raise InputError(f"unknown search mode {mode!r} (choose one of: {', '.join(MODES)})")

    def ranked_many(
        self, texts: Sequence[str], mode: str, n: int, vecs: Sequence[np.ndarray] | None = None
    ) -> list[list[tuple[int, float]]]:
        """``ranked`` for several texts (a question's q* lists): one request per list kind on Milvus."""
        if mode not in MODES:
            raise InputError(f"unknown search mode {mode!r} (choose one of: {', '.join(MODES)})")
        if vecs is None:
            vecs = list(self.embed(texts)) if mode != "bm25" and texts else [None] * len(texts)
        depth = max(n, self.settings.search.candidates)
        return self.backend.ranked_many(list(texts), mode, n, list(vecs), depth, self.settings.search.rrf_k)

    def vectors(self, ids: Sequence[int]) -> np.ndarray:
        """Stored (normalised) embeddings of passages, in the order of ``ids``."""
        return self.backend.vectors(ids)

    def passages(self, ids: Sequence[int]) -> dict[int, Passage]:
        return self.backend.passages(ids)

    def linked(self, ids: Sequence[int]) -> dict[int, list[list[int]]]:
        """Passage id → the documents it links to (:mod:`drrag_cli.index.links`), each as
        its passage ids in order."""
        links = self.store.linked(list(ids))
        passages = self.store.document_passages(sorted({doc for docs in links.values() for doc in docs}))
        return {pid: [passages[doc] for doc in docs if doc in passages] for pid, docs in links.items()}

    def frequency(self, phrase: str) -> tuple[int, int]:
        """(passages that hold ``phrase``, all passages): "Halyard Labs" stands in 25 of the
        sample corpus's 216, "Kestrel Rail" in 5."""
        return self.backend.frequency(phrase)

    def siblings(self, ids: Sequence[int]) -> dict[int, list[int]]:
        """Passage id → all passage ids of its document, in order."""
        return self.store.siblings(list(ids))

    def aliases(self, ids: Sequence[int]) -> dict[int, tuple[str, ...]]:
        """Passage id → the other names of its document a wiki-link may use (front matter)."""
        return self.store.aliases(list(ids))

    # -- what `drrag search` does ------------------------------------------------------
    def search(self, query: str, mode: str = "hybrid", k: int = 5) -> list[Hit]:
        if k <= 0:
            raise InputError(f"-k must be at least 1 (got {k})")
        from drrag_cli.question import clean_text

        ranked = self.ranked(clean_text(query), mode, k)  # a lone surrogate breaks the tokenizers
        found = self.passages([pid for pid, _s in ranked])
        return [
            Hit(passage=found[pid], score=score, rank=i, scores={mode: score})
            for i, (pid, score) in enumerate(((p, s) for p, s in ranked if p in found), start=1)
        ]

    def status(self) -> dict[str, Any]:
        size = sum(f.stat().st_size for f in self.gen.rglob("*") if f.is_file())
        cache = self.root / "vectors.sqlite"
        size += cache.stat().st_size if cache.exists() else 0
        counts = self.store.counts()
        return {
            "index": str(self.root),
            "generation": self.gen.name,
            "files": counts["files"],
            "documents": counts["documents"],
            "passages": counts["passages"],
            "size_bytes": size,
            "embedding_model": self.manifest["embedding"]["model_id"],
            "embedding_dim": self.manifest["embedding"]["dim"],
            "chunk_words": self.manifest["chunking"]["chunk_words"],
            "roots": self.manifest.get("roots", []),
            "created_at": self.manifest.get("created_at"),
            "updated_at": self.manifest.get("updated_at"),
            **self.backend.stats(),
        }
