"""Replay CFS on mined questions to see what a classifier and threshold do to recall.

Pair accuracy is not the target: CFS keeps the *first* candidate of each q* walk that
the classifier accepts, so one false positive early in a walk hides the real second hop.
The threshold is therefore chosen by replaying CFS (first stage → k1 = ceil(k/2) static
docs → walk each q* list to depth 20 → keep the first accepted candidate) on held-out
questions and measuring the recall of gold paragraphs, as `drrag eval` will.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from drrag_cli.select.classifier import RelevanceClassifier
from drrag_cli.select.mining import PairPool

KS: tuple[int, ...] = (3, 4, 6)


def walk_triples(pool: PairPool, questions: Sequence[int], n_static: int = 3,
                 depth: int = 20) -> list[tuple[int, int, int]]:
    """Every (q, static d1, candidate d2) a CFS run with up to `n_static` static docs asks."""
    out = []
    for q in questions:
        for d1 in pool.static[q][:n_static]:
            out += [(q, d1, d2) for d2 in pool.walks[(q, d1)][:depth]]
    return out


def cfs_scores(pool: PairPool, clf: RelevanceClassifier | None, questions: Sequence[int],
               n_static: int = 3, fallback: bool = False) -> dict[tuple[int, int, int], float]:
    """Classifier probability for every pair a CFS run can ask; `clf=None` → oracle."""
    from drrag_cli.select.train import triple_features

    triples = walk_triples(pool, questions, n_static)
    if clf is None:
        return {t: float(t[1] in pool.gold[t[0]] and t[2] in pool.gold[t[0]]) for t in triples}
    if not triples:
        return {}
    x = triple_features(pool, triples, clf.blocks, clf.fallback if fallback else None)
    return dict(zip(triples, clf.forward(x).tolist(), strict=True))


def simulate_cfs(pool: PairPool, questions: Sequence[int], scores: dict, k: int,
                 threshold: float, rule: str = "first", depth: int = 20) -> dict:
    """Mean gold recall and documents fed for CFS with k1 = ceil(k/2) static docs.

    rule "first": keep the first candidate ≥ threshold (the paper); "best": keep the
    highest-scoring candidate of the walk if it is ≥ threshold.
    """
    recalls, docs = [], []
    k1 = math.ceil(k / 2)
    for q in questions:
        context = list(pool.static[q][:k1])
        for d1 in pool.static[q][:k1]:
            if len(context) >= k:
                break
            cands = [d for d in pool.walks[(q, d1)][:depth] if d not in context]
            probs = [scores[(q, d1, d)] for d in cands]
            if rule == "best":
                if probs and max(probs) >= threshold:
                    context.append(cands[int(np.argmax(probs))])
            else:
                hit = next((d for d, p in zip(cands, probs, strict=True) if p >= threshold),
                           None)
                if hit is not None:
                    context.append(hit)
        gold = pool.gold[q]
        if gold:
            recalls.append(len(gold & set(context)) / len(gold))
            docs.append(len(context))
    return {"recall": round(100 * float(np.mean(recalls)), 2) if recalls else 0.0,
            "docs": round(float(np.mean(docs)), 2) if docs else 0.0}


def first_stage_recall(pool: PairPool, questions: Sequence[int], k: int) -> float:
    """Recall of the plain hybrid top-k (the baseline CFS has to beat)."""
    vals = [len(pool.gold[q] & set(pool.static[q][:k])) / len(pool.gold[q])
            for q in questions if pool.gold[q]]
    return round(100 * float(np.mean(vals)), 2) if vals else 0.0


def choose_threshold(runs: Sequence[tuple[PairPool, Sequence[int], dict]],
                     grid: Sequence[float] | None = None, rule: str = "first",
                     tolerance: float = 0.5) -> tuple[float, list[dict]]:
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


def qdc_context(pool: PairPool, q: int, k: int) -> list[int]:
    """QDC: k1 = ceil(k/2) static docs, then the first new result of each q* list; topped
    up from the first-stage ranking when the walks run dry."""
    ctx = list(pool.static[q][: math.ceil(k / 2)])
    for d1 in list(ctx):
        nxt = next((d for d in pool.walks[(q, d1)] if d not in ctx), None)
        if nxt is not None and len(ctx) < k:
            ctx.append(nxt)
    return ctx + [d for d in pool.static[q] if d not in ctx][: k - len(ctx)]


def cis_best(pool: PairPool, clf: RelevanceClassifier, q: int, ctx: Sequence[int]
             ) -> dict[int, float]:
    """Each context doc's highest pair probability with any other (both orders).

    Only static docs have a q* embedding here; pairs led by a dynamic doc use the
    fallback, as a CIS caller without those embeddings would.
    """
    from drrag_cli.select.classifier import DocView

    c = pool.corpus
    view = {i: DocView(c[i].title, c[i].text, pool.corpus_vecs[i]) for i in ctx}
    pairs = [(a, b) for a in ctx for b in ctx if a != b]
    best = dict.fromkeys(ctx, 0.0)
    if not pairs:
        return best
    probs = clf.predict(pool.questions[q], pool.q_vecs[q], [(view[a], view[b]) for a, b in pairs],
                        [pool.qstar.get((q, a)) for a, _ in pairs])
    for (a, b), p in zip(pairs, probs, strict=True):
        best[a], best[b] = max(best[a], float(p)), max(best[b], float(p))
    return best


def simulate_cis(pool: PairPool, questions: Sequence[int], clf: RelevanceClassifier,
                 grid: Sequence[float]) -> dict:
    """{"k3": {"qdc": [recall, docs], "0.1": [recall, docs], ...}, ...}: CIS over the QDC
    context at each threshold of `grid` (keys are str(threshold))."""
    out: dict = {}
    for k in KS:
        acc: dict = {t: ([], []) for t in ["qdc", *grid]}
        for q in questions:
            gold = pool.gold[q]
            if not gold:
                continue
            ctx = qdc_context(pool, q, k)
            best = cis_best(pool, clf, q, ctx)
            for t in acc:
                kept = set(ctx) if t == "qdc" else {i for i in ctx if best[i] >= t}
                acc[t][0].append(len(gold & kept) / len(gold))
                acc[t][1].append(len(kept))
        out[f"k{k}"] = {str(t): [round(100 * float(np.mean(r)), 2) if r else 0.0,
                                 round(float(np.mean(d)), 2) if d else 0.0]
                        for t, (r, d) in acc.items()}
    return out


def choose_cis_threshold(results: Sequence[dict], max_loss: float = 2.0) -> float:
    """The highest threshold whose mean recall loss against QDC stays within `max_loss`
    points (CIS can only remove documents, so it trades recall for fewer documents)."""
    grid = [t for t in results[0][f"k{KS[0]}"] if t != "qdc"] if results else []
    ok = [float(t) for t in grid
          if np.mean([r[f"k{k}"]["qdc"][0] - r[f"k{k}"][t][0] for r in results for k in KS])
          <= max_loss]
    return max(ok) if ok else min((float(t) for t in grid), default=0.05)
