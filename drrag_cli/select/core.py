"""The selection core of DR-RAG: which documents QDC, CFS and CIS keep, given ranked ids
and classifier probabilities. One function per decision, used by the product
(:mod:`drrag_cli.retrieve.strategies`) and by the classifier's training and threshold
choice (:mod:`drrag_cli.select.simulate`), so the two cannot drift apart.

Everything here is pure: ids in, ids out, no index, no model.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

RULES = ("first", "best")


def resolve_k1(k: int, k1: int = 0) -> int:
    """k1 = ceil(k / 2) unless set: the paper's k/2, rounded so k = 3 keeps two static docs."""
    return max(1, min(k1 or math.ceil(k / 2), k))


def qstar_depth(k: int) -> int:
    """How deep QDC retrieves each q* list: enough for k picks, never under 10."""
    return max(k, 10)


def qdc_select(static_ids: Sequence[int], qstar_lists: Sequence[Sequence[int]], k: int) -> list[tuple[int, int]]:
    """QDC (DR-RAG §3.2.1): round-robin over the q* lists, each adding its first id not yet
    in the context, until the context holds k documents. Returns [(id, static index)]."""
    context = set(static_ids)
    picks: list[tuple[int, int]] = []
    cursors = [0] * len(qstar_lists)
    while len(context) < k and any(c < len(ranked) for c, ranked in zip(cursors, qstar_lists, strict=True)):
        for i, ranked in enumerate(qstar_lists):
            while cursors[i] < len(ranked) and ranked[cursors[i]] in context:
                cursors[i] += 1
            if cursors[i] < len(ranked) and len(context) < k:
                context.add(ranked[cursors[i]])
                picks.append((ranked[cursors[i]], i))
    return picks


def cfs_walks(
    static_ids: Sequence[int], qstar_lists: Sequence[Sequence[int]], depth: int
) -> list[list[tuple[int, int]]]:
    """Each static document's walk: its q* list without the static documents, at most
    ``depth`` candidates, as [(id, rank in the q* list, 1-based)]."""
    statics = set(static_ids)
    return [
        [(pid, rank) for rank, pid in enumerate(ranked, start=1) if pid not in statics][:depth]
        for ranked in qstar_lists
    ]


@dataclass(frozen=True, slots=True)
class Decision:
    """What CFS decided for one candidate of one static document's walk."""

    static: int  # index of the static document whose q* list holds the candidate
    pid: int
    rank: int
    prob: float | None
    decision: str  # kept | already in context | context full | not needed (...) | below threshold


def cfs_select(
    static_ids: Sequence[int],
    walks: Sequence[Sequence[tuple[int, int]]],
    probs: Mapping[tuple[int, int], float],
    *,
    k: int,
    threshold: float,
    rule: str = "first",
    per_static: int = 1,
) -> list[list[Decision]]:
    """CFS (DR-RAG §3.2.2): walk each static document's candidates and keep the first
    ``per_static`` whose C(q, d_static, d) = ``probs[(static index, id)]`` ≥ ``threshold``,
    while the context holds fewer than k documents. Rule ``best`` walks each list in
    probability order instead of rank order. Returns every decision, per walk; the kept
    ones are those with ``decision == "kept"`` (:func:`kept`)."""
    if rule not in RULES:
        raise ValueError(f"unknown CFS rule {rule!r} (choose {' or '.join(RULES)})")
    in_context = set(static_ids)
    size = len(in_context)
    out = []
    for i, walk in enumerate(walks):
        order = list(walk)
        if rule == "best":  # stable: equal probabilities keep rank order
            order.sort(key=lambda item, i=i: -probs.get((i, item[0]), -1.0))
        taken = 0
        steps = []
        for pid, rank in order:
            prob = probs.get((i, pid))
            if pid in in_context:
                decision = "already in context"
            elif size >= k:
                decision = "context full"
            elif taken >= per_static:
                decision = "not needed (static doc satisfied)"
            elif prob is not None and prob >= threshold:
                decision = "kept"
                taken += 1
                size += 1
                in_context.add(pid)
            else:
                decision = "below threshold"
            steps.append(Decision(i, pid, rank, prob, decision))
        out.append(steps)
    return out


def kept(decisions: Sequence[Sequence[Decision]]) -> list[Decision]:
    """The kept candidates, in the order CFS kept them."""
    return [d for walk in decisions for d in walk if d.decision == "kept"]


def cis_select(
    n_docs: int, pair_probs: Mapping[tuple[int, int], float], threshold: float
) -> tuple[list[int], list[float]]:
    """CIS (DR-RAG §3.2.3): each document's best pair probability with any other (either
    order); keep those ≥ ``threshold``. Never returns nothing: with no document kept, the
    first (best-ranked) stays. Returns (kept indices ascending, best probability per doc)."""
    best = [0.0] * n_docs
    for (m, n), p in pair_probs.items():
        best[m] = max(best[m], float(p))
        best[n] = max(best[n], float(p))
    keep = [i for i, b in enumerate(best) if b >= threshold]
    return (keep or ([0] if n_docs else [])), best
