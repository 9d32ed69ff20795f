"""Replay QDC, CFS and CIS on mined questions, through the product's selection core.

Pair accuracy is not the target: CFS keeps the *first* candidate of each q* walk that
the classifier accepts, so one false positive early in a walk hides the real second hop.
Thresholds are therefore chosen by replaying the strategies on held-out questions and
measuring the recall of gold paragraphs, as `drrag eval` will. The replay calls the same
functions ``drrag ask`` runs (:mod:`drrag_cli.select.core`) on the lists the product's
retriever returned (recorded by :mod:`drrag_cli.select.mining`), with the classifier's
own ``predict``; ``tests/select/test_simulate.py`` checks that both select the same
documents.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from drrag_cli.retrieve.context import Classifier
from drrag_cli.select import core
from drrag_cli.select.features import link_order
from drrag_cli.select.mining import KS, WALK_DEPTH, PairPool, qdc_context


def _views(pool: PairPool, ids: Sequence[int]) -> dict[int, object]:
    from drrag_cli.select.classifier import DocView

    c = pool.corpus
    return {i: DocView(c[i].title, c[i].text, pool.corpus_vecs[i]) for i in ids}


def predict(pool: PairPool, clf: Classifier, q: int, pairs: Sequence[tuple[int, int]]) -> list[float]:
    """C(q, d1, d2) for corpus-index pairs, exactly as the product calls it: stored
    vectors, the question's embedding and the q* embedding of each pair's d1."""
    if not pairs:
        return []
    views = _views(pool, {i for pair in pairs for i in pair})
    probs = clf.predict(
        pool.questions[q],
        pool.q_vecs[q],
        [(views[a], views[b]) for a, b in pairs],
        [pool.qstar.get((q, a)) for a, _ in pairs],
    )
    return [float(p) for p in probs]


def linked(pool: PairPool, q: int, d1: int) -> list[int]:
    """The paragraphs d1 links to, in the order CFS offers them (features.link_order;
    pools mined before links were recorded have none)."""
    found = getattr(pool, "links", {}).get(d1, [])
    if not found:
        return []
    rank = {pid: r for r, pid in enumerate(pool.qstar_lists.get((q, d1), []))}
    p1 = pool.corpus[d1]
    titled = [(pid, pool.corpus[pid].title) for pid in found]
    return link_order(pool.questions[q], p1.title, p1.text, titled, rank)


N_STATIC = max(core.resolve_k1(k) for k in KS)  # static documents a CFS run at k ∈ KS can have


def cfs_triples(pool: PairPool, questions: Sequence[int], n_static: int = N_STATIC) -> list[tuple[int, int, int]]:
    """Every (q, static d1, candidate d2) a CFS run at k ∈ KS can ask the classifier."""
    out = []
    for q in questions:
        for d1 in pool.static[q][:n_static]:
            walk = pool.qstar_lists[(q, d1)][: WALK_DEPTH + n_static] + linked(pool, q, d1)
            out += [(q, d1, d2) for d2 in walk if d2 != d1]
    return list(dict.fromkeys(out))


def cfs_scores(
    pool: PairPool, clf: Classifier | None, questions: Sequence[int], n_static: int = N_STATIC
) -> dict[tuple[int, int, int], float]:
    """C(q, d1, d2) for every triple of :func:`cfs_triples`, through the classifier's own
    ``predict``; ``clf=None`` gives the oracle (1 when both are gold)."""
    triples = cfs_triples(pool, questions, n_static)
    if clf is None:
        return {t: float(t[1] in pool.gold[t[0]] and t[2] in pool.gold[t[0]]) for t in triples}
    by_q: dict[int, list[tuple[int, int, int]]] = {}
    for t in triples:
        by_q.setdefault(t[0], []).append(t)
    out: dict[tuple[int, int, int], float] = {}
    for q, mine in by_q.items():
        out.update(zip(mine, predict(pool, clf, q, [(a, b) for _, a, b in mine]), strict=True))
    return out


def cfs_context(
    pool: PairPool,
    q: int,
    scores: dict[tuple[int, int, int], float],
    k: int,
    threshold: float,
    rule: str = "first",
    depth: int = WALK_DEPTH,
    per_static: int = 0,
) -> list[int]:
    """The CFS context the product builds for question q at k, from recorded lists
    (``per_static`` 0: the product's default for k, :func:`core.resolve_per_static`)."""
    k1 = core.resolve_k1(k)
    statics = pool.static[q][:k1]
    per_static = core.resolve_per_static(k, k1, per_static)
    lists = [pool.qstar_lists[(q, d1)] for d1 in statics]
    walks = core.cfs_walks(statics, lists, depth, linked=[linked(pool, q, d1) for d1 in statics])
    probs = {(i, d2): scores[(q, statics[i], d2)] for i, walk in enumerate(walks) for d2, _ in walk}
    decisions = core.cfs_select(statics, walks, probs, k=k, threshold=threshold, rule=rule, per_static=per_static)
    return statics + [d.pid for d in core.kept(decisions)]


def cis_pairs(pool: PairPool, clf: Classifier, q: int, k: int) -> tuple[list[int], dict[tuple[int, int], float]]:
    """The QDC context of question q at k and C of every ordered pair of it (by position)."""
    ctx = qdc_context(pool, q, k)
    order = [(m, n) for m in range(len(ctx)) for n in range(len(ctx)) if m != n]
    return ctx, dict(zip(order, predict(pool, clf, q, [(ctx[m], ctx[n]) for m, n in order]), strict=True))


def cis_context(ctx: list[int], pair_probs: dict[tuple[int, int], float], threshold: float) -> list[int]:
    """The CIS context the product keeps of a QDC context (select.core.cis_select); like
    the product, a context of fewer than two documents is kept as it is."""
    if len(ctx) < 2:
        return ctx
    return [ctx[i] for i in core.cis_select(len(ctx), pair_probs, threshold)[0]]


def _mean(values: list[float], scale: float = 1.0) -> float:
    return round(scale * float(np.mean(values)), 2) if values else 0.0


def recall_of(pool: PairPool, questions: Sequence[int], contexts: dict[int, list[int]]) -> dict:
    """Mean gold recall (%) and documents fed of per-question contexts."""
    qs = [q for q in questions if pool.gold[q]]
    recalls = [len(pool.gold[q] & set(contexts[q])) / len(pool.gold[q]) for q in qs]
    return {"recall": _mean(recalls, 100), "docs": _mean([len(contexts[q]) for q in qs])}


def simulate_cfs(
    pool: PairPool,
    questions: Sequence[int],
    scores: dict,
    k: int,
    threshold: float,
    rule: str = "first",
    depth: int = WALK_DEPTH,
) -> dict:
    """Mean gold recall and documents fed for CFS at k, as the product runs it."""
    qs = [q for q in questions if pool.gold[q]]
    return recall_of(pool, qs, {q: cfs_context(pool, q, scores, k, threshold, rule, depth) for q in qs})


def first_stage_recall(pool: PairPool, questions: Sequence[int], k: int) -> float:
    """Recall of the plain first-stage top-k (the baseline CFS has to beat)."""
    qs = [q for q in questions if pool.gold[q]]
    return recall_of(pool, qs, {q: pool.static[q][:k] for q in qs})["recall"]


def choose_threshold(
    runs: Sequence[tuple[PairPool, Sequence[int], dict]],
    grid: Sequence[float] | None = None,
    rule: str = "first",
    tolerance: float = 0.5,
) -> tuple[float, list[dict]]:
    """The highest threshold whose mean simulated CFS recall (k ∈ KS, all runs) is within
    `tolerance` points of the best.

    Recall alone never punishes an extra document, so it drifts to low thresholds that
    feed more noise for gains smaller than one question in a few hundred; among
    thresholds that are indistinguishable on recall, fewer and surer documents win.
    """
    grid = list(grid) if grid is not None else [round(t, 2) for t in np.arange(0.05, 1.0, 0.05)]
    table = []
    for t in grid:
        row: dict = {"threshold": t}
        vals = []
        for pool, qs, scores in runs:
            for k in KS:
                r = simulate_cfs(pool, qs, scores, k, t, rule)
                row[f"{pool.name}@{k}"] = r
                vals.append(r["recall"])
        row["mean_recall"] = round(float(np.mean(vals)), 3) if vals else 0.0
        table.append(row)
    if not table or all(not r["mean_recall"] for r in table):
        return 0.5, table
    best = max(r["mean_recall"] for r in table)
    chosen = max(r["threshold"] for r in table if r["mean_recall"] >= best - tolerance)
    return float(chosen), table


def simulate_cis(pool: PairPool, questions: Sequence[int], clf: Classifier, grid: Sequence[float]) -> dict:
    """{"k3": {"qdc": [recall, docs], "0.1": [recall, docs], ...}, ...}: CIS over the QDC
    context at each threshold of `grid` (keys are str(threshold))."""
    out: dict = {}
    qs = [q for q in questions if pool.gold[q]]
    for k in KS:
        scored = {q: cis_pairs(pool, clf, q, k) for q in qs}  # the probabilities do not depend on t
        row = {"qdc": recall_of(pool, qs, {q: ctx for q, (ctx, _) in scored.items()})}
        for t in grid:
            row[str(t)] = recall_of(pool, qs, {q: cis_context(ctx, probs, t) for q, (ctx, probs) in scored.items()})
        out[f"k{k}"] = {name: [r["recall"], r["docs"]] for name, r in row.items()}
    return out


def choose_cis_threshold(results: Sequence[dict], max_loss: float = 2.0) -> float:
    """The highest threshold whose mean recall loss against QDC stays within `max_loss`
    points (CIS can only remove documents, so it trades recall for fewer documents)."""
    grid = [t for t in results[0][f"k{KS[0]}"] if t != "qdc"] if results else []
    ok = [
        float(t)
        for t in grid
        if np.mean([r[f"k{k}"]["qdc"][0] - r[f"k{k}"][t][0] for r in results for k in KS]) <= max_loss
    ]
    return max(ok) if ok else min((float(t) for t in grid), default=0.05)
