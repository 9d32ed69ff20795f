"""A spare first-stage document for a walk that led nowhere (``retrieval.spare``).

The first stage picks the k1 static documents by their likeness to the question, and for
a bridge question that is often a neighbour of the first hop rather than the first hop
itself: "In what city did the 'Prince of tenors' star in a film based on an opera by
Giacomo Puccini?" ranks *Festival Puccini* and *Jacopo Puccini* first, and CFS rightly
keeps nothing from their walks (the label is "both documents are needed"). When a static
document's walk keeps nothing, the next :data:`~.strategies.SPARE` documents of the
first stage are walked too, each with its own q* list and the classifier on (q, spare,
candidate). The spare whose first candidate above the CFS threshold scores highest, at
least ``retrieval.spare``, joins with that candidate; when the context has no room for
both, the lowest-ranked barren static document gives up its place, unless it brought two
or more passages (:func:`_yielding`). Only then does it cost anything: two q* searches and
one classifier call.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from drrag_cli.retrieve.context import Selected
from drrag_cli.retrieve.walks import adds_of, predict_walks, views_of, walk_lists
from drrag_cli.select import core

if TYPE_CHECKING:
    from drrag_cli.retrieve.context import RunContext


def _walks(
    ctx: RunContext, spares: list[list[Selected]], taken: set[object]
) -> tuple[list, list, list, list, list[dict[int, float]]]:
    """(spare lead ids, q* texts, q* embeddings, walks with no document ``taken``, each
    walk's q* scores by candidate id)."""
    p = ctx.params
    ids, texts, vecs, lists = walk_lists(ctx, spares, p.depth + len(spares) * p.static_passages)
    linked = ctx.linked([[d.passage.passage_id for d in g] for g in spares], lists)
    walks = [  # each spare's own walk: another spare may be its second hop
        core.cfs_walks([lead], [[pid for pid, _ in ranked]], p.depth, ctx.doc_of, [links])[0]
        for lead, ranked, links in zip(ids, lists, linked, strict=True)
    ]
    walks = [[(pid, rank) for pid, rank in walk if ctx.doc_of(pid) not in taken] for walk in walks]
    return ids, texts, vecs, walks, [dict(ranked) for ranked in lists]


def spare_static(
    ctx: RunContext,
    docs: list[Selected],
    decisions: Sequence[Sequence[core.Decision]],
    static_ids: Sequence[int],
    spares: list[list[Selected]],
    threshold: float,
) -> tuple[list[Selected], list[dict[str, Any]]]:
    """``docs`` with the best spare pair added (module docstring), and the spare walks for
    the trace (``"spare": true``); ``docs`` as they are when every walk kept something,
    there are no ``spares`` (``retrieval.spare: 0``) or no spare reaches it."""
    barren = [static_ids[i] for i, walk in enumerate(decisions) if not any(d.decision == "kept" for d in walk)]
    taken = {ctx.doc_of(d.passage.passage_id) for d in docs}
    spares = [g for g in spares if ctx.doc_of(g[0].passage.passage_id) not in taken]
    if not barren or not spares:
        return docs, []
    ids, texts, vecs, walks, scores = _walks(ctx, spares, taken)
    views = views_of(ctx, sorted({pid for walk in walks for pid, _ in walk} | set(ids)), spares)
    owners = [(i, pid) for i, walk in enumerate(walks) for pid, _ in walk]
    probs = ctx.timed("classify_s", lambda: predict_walks(ctx, ids, owners, views, vecs))
    prob_of = {owner: float(prob) for owner, prob in zip(owners, probs, strict=True)}
    firsts = {i: next(((pid, prob_of[(i, pid)]) for pid, _ in walk if prob_of[(i, pid)] >= threshold), None)
              for i, walk in enumerate(walks)}  # fmt: skip
    top = max(((f[1], i) for i, f in firsts.items() if f and f[1] >= ctx.params.spare), default=None)
    kept = _room(ctx, docs, _yielding(ctx, docs, barren)) if top else None
    best = top[1] if top and kept is not None else None
    trace = [
        {"from": ids[i], "source": spares[i][0].passage.source, "text": texts[i], "spare": True, "candidates": [
            {**ctx.fetch([pid])[pid].to_json(score=round(scores[i].get(pid, 0.0), 6)), "rank": rank,
             "classifier_prob": round(prob_of[(i, pid)], 4),
             "decision": "kept" if i == best and pid == firsts[i][0] else "spare walk"}  # type: ignore[index]
            for pid, rank in walk
        ]}
        for i, walk in enumerate(walks)
    ]  # fmt: skip
    if best is None or kept is None:
        return docs, trace
    pid, prob = firsts[best]  # type: ignore[misc]
    joined = [Selected(d.passage, "static", d.score) for d in spares[best]]
    score = scores[best].get(pid, 0.0)
    hop = Selected(ctx.answering(pid, adds_of(ctx, [spares[best]])[0]), "dynamic", score, prob, via=ids[best])
    return [*kept, *joined, hop], trace


def _yielding(ctx: RunContext, docs: list[Selected], barren: list[int]) -> list[int]:
    """The barren static documents that may give up their place: not one that brought two or
    more passages (the first stage found it twice, or the question names it by its title).
    Such a note usually answers on its own ("Which musical instrument does the Porto office
    lead play?": Inês Carvalho's table says "Porto office lead", another of her passages
    "plays the cello"), and CFS keeps no second hop for it for that very reason."""
    passages = Counter(ctx.doc_of(d.passage.passage_id) for d in docs if d.stage == "static")
    return [pid for pid in barren if passages[ctx.doc_of(pid)] < 2]


def _room(ctx: RunContext, docs: list[Selected], barren: list[int]) -> list[Selected] | None:
    """``docs`` without barren static documents (the lowest-ranked first) until two more
    documents fit within k; None when they never do."""
    kept = list(docs)
    for pid in [None, *reversed(barren)]:
        if pid is not None:
            kept = [d for d in kept if ctx.doc_of(d.passage.passage_id) != ctx.doc_of(pid)]
        if len({ctx.doc_of(d.passage.passage_id) for d in kept}) + 2 <= ctx.params.k:
            return kept
    return None
