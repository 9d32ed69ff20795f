"""Reciprocal rank fusion (Cormack et al. 2009): score(d) = Σ_lists 1 / (k + rank)."""

from __future__ import annotations

from collections.abc import Sequence


def rrf(lists: Sequence[Sequence[int]], k: int = 60) -> list[tuple[int, float]]:
    """Fuse ranked id lists (best first) → [(id, fused score)], best first, ties by first seen."""
    scores: dict[int, float] = {}
    for ranked in lists:
        for rank, pid in enumerate(ranked, start=1):
            scores[pid] = scores.get(pid, 0.0) + 1.0 / (k + rank)
    order = {pid: i for i, pid in enumerate(dict.fromkeys(p for ranked in lists for p in ranked))}
    return sorted(scores.items(), key=lambda item: (-item[1], order[item[0]]))
