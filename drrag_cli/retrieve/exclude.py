"""An index view without some passages, so a strategy fills their places with the next
candidates. The answer guard uses it to hold out passages that address the model
(:mod:`drrag_cli.answer.guard`) without losing the documents they displaced."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

    from drrag_cli.index.api import Index


class Excluding:
    """``index`` minus ``excluded`` passage ids in every list a strategy reads: ranked
    lists, links and siblings. Everything else is the index itself."""

    def __init__(self, index: Index, excluded: frozenset[int]) -> None:
        self._index = index
        self.excluded = excluded

    def __getattr__(self, name: str) -> Any:
        return getattr(self._index, name)

    def ranked(self, text: str, mode: str, n: int, vec: np.ndarray | None = None) -> list[tuple[int, float]]:
        found = self._index.ranked(text, mode, n + len(self.excluded), vec)
        return [(pid, score) for pid, score in found if pid not in self.excluded][:n]

    def ranked_many(
        self, texts: Sequence[str], mode: str, n: int, vecs: Sequence[np.ndarray | None] | None = None
    ) -> list[list[tuple[int, float]]]:
        lists = self._index.ranked_many(texts, mode, n + len(self.excluded), vecs)
        return [[(pid, score) for pid, score in found if pid not in self.excluded][:n] for found in lists]

    def linked(self, ids: Sequence[int]) -> dict[int, list[list[int]]]:
        out = {}
        for pid, docs in self._index.linked(ids).items():
            kept = [[p for p in doc if p not in self.excluded] for doc in docs]
            out[pid] = [doc for doc in kept if doc]
        return out

    def siblings(self, ids: Sequence[int]) -> dict[int, list[int]]:
        return {pid: [p for p in sibs if p not in self.excluded] for pid, sibs in self._index.siblings(ids).items()}
