"""Embedding cache: (model id, passage content hash) → vector, committed as it grows.

It lives beside the generations, not inside one, so embeddings computed by a run that
was killed halfway are kept and the re-run only embeds the rest. Unchanged passages of
a changed file (same text) are never embedded twice either.
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

import numpy as np


def content_hash(embed_text: str) -> str:
    return hashlib.sha1(embed_text.encode("utf-8")).hexdigest()


class VectorCache:
    def __init__(self, path: Path, model_id: str, dim: int) -> None:
        self.conn = sqlite3.connect(path, timeout=30)
        self.conn.execute("PRAGMA journal_mode = WAL")
        self.conn.execute(
            "CREATE TABLE IF NOT EXISTS vectors (model TEXT NOT NULL, hash TEXT NOT NULL, "
            "vec BLOB NOT NULL, PRIMARY KEY (model, hash))"
        )
        self.model_id = model_id
        self.dim = dim

    def close(self) -> None:
        self.conn.close()

    def _rows(self, columns: str, hashes: Iterable[str]) -> Iterator[tuple]:
        """SELECT `columns` for these hashes, in chunks under SQLite's variable limit."""
        items = list(hashes)
        for start in range(0, len(items), 500):
            chunk = items[start : start + 500]
            marks = ",".join("?" * len(chunk))
            yield from self.conn.execute(
                f"SELECT {columns} FROM vectors WHERE model = ? AND hash IN ({marks})", (self.model_id, *chunk)
            )

    def missing(self, hashes: Iterable[str]) -> set[str]:
        wanted = set(hashes)
        return wanted - {h for (h,) in self._rows("hash", wanted)}

    def put(self, hashes: Sequence[str], vecs: np.ndarray) -> None:
        self.conn.executemany(
            "INSERT OR REPLACE INTO vectors(model, hash, vec) VALUES (?,?,?)",
            [(self.model_id, h, np.asarray(v, dtype=np.float32).tobytes()) for h, v in zip(hashes, vecs, strict=True)],
        )
        self.conn.commit()

    def get_many(self, hashes: Sequence[str]) -> np.ndarray:
        """Vectors in the order of `hashes` (all must be present; duplicates allowed)."""
        positions: dict[str, list[int]] = {}
        for i, h in enumerate(hashes):
            positions.setdefault(h, []).append(i)
        out = np.zeros((len(hashes), self.dim), dtype=np.float32)
        found = 0
        for h, blob in self._rows("hash, vec", positions):
            out[positions[h]] = np.frombuffer(blob, dtype=np.float32)
            found += 1
        if found != len(positions):
            raise RuntimeError("embedding cache is missing vectors it was just given")
        return out

    def prune(self, keep: set[str]) -> int:
        """Drop this model's vectors whose passages are gone (keeps the cache small)."""
        rows = self.conn.execute("SELECT hash FROM vectors WHERE model = ?", (self.model_id,))
        stale = [h for (h,) in rows if h not in keep]
        self.conn.executemany(
            "DELETE FROM vectors WHERE model = ? AND hash = ?", [(self.model_id, h) for h in stale]
        )
        self.conn.commit()
        return len(stale)
