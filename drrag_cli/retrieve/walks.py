"""The pieces every q* walk is made of: the lists, the classifier's views and its scores.

CFS walks each static document's q* list (:mod:`.strategies`), a kept second hop's list for
a third hop, and a spare first-stage document's list when a walk led nowhere (:mod:`.spare`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from drrag_cli.retrieve.context import RunContext, Selected


def walk_lists(ctx: RunContext, groups: list[list[Selected]], depth: int) -> tuple[list[int], list, list, list]:
    """Static ids (each document's lead passage), q* texts, embeddings and ranked lists."""
    texts, vecs, lists = ctx.qstar_lists([[d.passage for d in g] for g in groups], depth)
    ctx.fetch([pid for ranked in lists for pid, _ in ranked])
    return [g[0].passage.passage_id for g in groups], texts, vecs, lists


def adds_of(ctx: RunContext, groups: list[list[Selected]]) -> list[frozenset[str]]:
    """For each static document, the question's words it lacks (:func:`drrag_cli.select.bridges.missing`)."""
    from drrag_cli.select import bridges

    return [
        frozenset(bridges.missing(ctx.question, g[0].passage.title, [d.passage.text for d in g])) for g in groups
    ]


def predict_walks(ctx: RunContext, static_ids: list[int], owners: list, views: dict, qstar_vecs: list) -> Any:
    """C(q, static document, candidate) for each (walk index, candidate id) of ``owners``,
    with each walk's q* embedding."""
    if not owners:
        return []
    assert ctx.classifier is not None
    pairs = [(views[static_ids[i]], views[pid]) for i, pid in owners]
    return ctx.classifier.predict(ctx.question, ctx.q_vec, pairs, [qstar_vecs[i] for i, _ in owners])


def views_of(ctx: RunContext, ids: list[int], groups: Sequence[Sequence[Selected]] = ()) -> dict[int, Any]:
    """The classifier's view of each passage: its title, text and embedding. A static
    document of ``groups`` is read as its passages together, under its lead's id."""
    from drrag_cli.select.classifier import DocView

    found = ctx.fetch(ids)
    views = {pid: DocView(found[pid].title, found[pid].text, v) for pid, v in zip(ids, ctx.vectors(ids), strict=True)}
    for g in groups:
        lead = views[g[0].passage.passage_id]
        views[g[0].passage.passage_id] = DocView(lead.title, " ".join(d.passage.text for d in g), lead.vec)
    return views
