"""How much room a build needs, and whether what it wrote is whole.

Both matter only when something went wrong: :class:`SpaceNeed` turns what a build has
learned so far into the "about N MB needed" of a full-disk error, and
:func:`check_generation` catches the writer (hnswlib) that fails without a word.
"""

from __future__ import annotations

import errno
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from drrag_cli.index import layout

# What a build writes, measured on sample_corpus/ (201 passages): the generation (store,
# BM25, HNSW) 620 KB, the embedding cache 436 KB; the input was 248 KB.
GEN_BYTES_PER_PASSAGE = 3_100
CACHE_BYTES_PER_PASSAGE = 2_200
BYTES_PER_INPUT_BYTE = 5
SMALL_INDEX_BYTES = 1_056_000


@dataclass
class SpaceNeed:
    """How much room a build needs, refined as the build learns what it will write; read
    only when the disk fills up, to tell the user how much to free."""

    root: Path
    files: list[str] | None = None  # the input's paths, once walked
    passages: int = 0  # passages of the new generation (an upper bound)
    new_passages: int = 0  # passages that may need a vector in the cache
    per_passage: float = GEN_BYTES_PER_PASSAGE
    basis: str = f"~{GEN_BYTES_PER_PASSAGE / 1000:.1f} KB per passage"

    def plan(self, old_gen: Path | None, old_manifest: dict[str, Any] | None, changes: Any) -> None:  # noqa: ANN401
        """Once the scan is done: the passages to write, priced like the live index."""
        self.new_passages = sum(len(hashed) for *_r, docs in changes.new.values() for _s, _t, hashed, _a in docs)
        old_passages = (old_manifest or {}).get("counts", {}).get("passages", 0)
        self.passages = old_passages + self.new_passages
        if old_gen is not None and old_passages:
            self.per_passage = tree_bytes(old_gen) / old_passages
            self.basis = f"the live index's {self.per_passage / 1000:.1f} KB per passage"

    def estimate(self) -> tuple[int, str]:
        if self.passages:
            need = self.passages * self.per_passage + self.new_passages * CACHE_BYTES_PER_PASSAGE
            return int(need), f"{self.passages} passages at {self.basis}, {self.new_passages} of them new"
        live = layout.current_generation(self.root)
        if live is not None:
            return tree_bytes(live), "the size of the live index"
        if self.files is None:  # failed before even the input was listed
            return SMALL_INDEX_BYTES, "nothing measured yet: the sample corpus's index takes ~1 MB"
        size = 0
        for file in self.files:
            try:
                size += os.stat(file).st_size
            except OSError:
                continue
        return size * BYTES_PER_INPUT_BYTE, f"{BYTES_PER_INPUT_BYTE} x the input's {size / 1000:.0f} KB"


def tree_bytes(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file())


def check_generation(staging: Path, passages: int, dim: int) -> None:
    """Open the new BM25 and HNSW indexes as a reader would before publishing them.

    hnswlib writes through a C++ stream and ignores write errors: on a full disk it
    leaves a truncated ``dense.hnsw`` without a word (seen on a 700 KB tmpfs), which only
    loading it back reveals. A short file with too little space left is a full disk.
    """
    from drrag_cli.index.bm25 import BM25Index
    from drrag_cli.index.dense import M, live_count

    try:
        found = (live_count(staging / "dense.hnsw", dim), BM25Index(staging / "bm25").searcher.num_docs)
    except (RuntimeError, ValueError) as exc:
        found, cause = None, exc
    else:
        cause = None
        if found == (passages, passages):
            return
    hnsw_bytes = passages * (dim * 4 + (2 * M + 1) * 4 + 12)  # vectors, level-0 links, label
    if layout.free_bytes(staging) < hnsw_bytes:
        raise OSError(errno.ENOSPC, f"the new index in {staging} was written incompletely") from cause
    raise RuntimeError(
        f"the new index in {staging} failed its check ({found} of {passages} passages "
        "in HNSW/BM25); the previous index is still live"
    ) from cause
