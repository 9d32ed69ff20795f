"""Reciprocal rank fusion (Cormack et al. 2009): score(d) = Σ_lists 1 / (k + rank)."""

from __future__ import annotations

from collections.abc import Sequence


def rrf(
    lists: Sequence[Sequence[int]], k: int = 60, weights: Sequence[float] | None = None
) -> list[tuple[int, float]]:
    """Fuse ranked id lists (best first) → [(id, fused score)], best first, ties by first seen.

    ``weights`` scale each list's contribution (default: all 1, plain RRF).
    """
    scores: dict[int, float] = {}
    weights = weights if weights is not None else [1.0] * len(lists)
    for ranked, weight in zip(lists, weights, strict=True):
        for rank, pid in enumerate(ranked, start=1):
            scores[pid] = scores.get(pid, 0.0) + weight / (k + rank)
    order = {pid: i for i, pid in enumerate(dict.fromkeys(p for ranked in lists for p in ranked))}
    return sorted(scores.items(), key=lambda item: (-item[1], order[item[0]]))
