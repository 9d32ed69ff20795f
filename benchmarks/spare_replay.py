"""Replay CFS with spare first-stage documents (``retrieval.spare``) over the mined pools.

The replay is CFS "first" at k = 4 without named hops or the third hop (the replay of
:mod:`drrag_cli.select.simulate`): when a static document's walk keeps nothing, the 3rd
and 4th first-stage documents are walked, and the best of their first positives joins when
it scores at least tau (a barren static document leaves when k is full), as
``retrieve/spare.py`` does. Scores are **out-of-fold** on the training pools: five models
of the shipped recipe, each scoring the questions it did not see, so a threshold chosen here
is not flattered by the classifier's in-sample confidence (``drrag eval`` on the training
sets is). With ``--test`` the shipped model scores the test pools instead.

    .venv/bin/python benchmarks/spare_replay.py [--test]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import train_classifier as tc  # noqa: E402

from drrag_cli.select.simulate import WALK_DEPTH, cfs_scores, cfs_triples, linked, recall_of  # noqa: E402

K, SPARES = 4, (2, 3)
TAUS = (None, 0.5, 0.6, 0.7, 0.8, 0.9)


def first_positive(pool, q: int, static: int, scores: dict, threshold: float, taken: list[int]):
    """(candidate, score) of the first candidate of ``static``'s walk scored >= threshold."""
    walk = linked(pool, q, static) + pool.qstar_lists[(q, static)][: WALK_DEPTH + 3]
    for d in walk:
        if d != static and d not in taken and scores.get((q, static, d), 0.0) >= threshold:
            return d, scores[(q, static, d)]
    return None, 0.0


def context(pool, q: int, scores: dict, threshold: float, tau: float | None) -> list[int]:
    """The replayed CFS context of question q at k = 4, with spares at ``tau`` (None: off)."""
    statics = pool.static[q]
    ctx, barren = list(statics[:2]), []
    for s in statics[:2]:
        d, _ = first_positive(pool, q, s, scores, threshold, ctx)
        if d is None:
            barren.append(s)
        else:
            ctx.append(d)
    if tau is None or not barren:
        return ctx
    found = [(s, *first_positive(pool, q, s, scores, threshold, ctx)) for i, s in enumerate(statics) if i in SPARES]
    found = [(p, s, d) for s, d, p in found if d is not None and s not in ctx and p >= tau]
    if not found:
        return ctx
    _, s, d = max(found)
    if len(ctx) + 2 > K:
        ctx = [c for c in ctx if c != barren[-1]]
    return ctx + [s, d] if len(ctx) + 2 <= K else ctx


def fold_models(pools: dict, meta: dict | None = None, feats: dict | None = None):
    """For each of the five folds: (fold, a model of the shipped recipe (train.py's trees, 3
    negatives per positive, half from the walks) fitted on the other folds' questions, and
    each training set's question → fold). ``feats``: the pools' feature caches, to share."""
    from drrag_cli.select.train import DEFAULT_MODEL, DEFAULT_NEG_RATIO, balanced_rows, fit_model

    feats = feats or {n: tc.Feats(pools[n]) for n in tc.TRAIN}
    fold = {n: tc.folds(len(pools[n].questions), n) for n in tc.TRAIN}
    for f in range(tc.FOLDS):
        xs, ys = [], []
        for n in tc.TRAIN:
            rows = balanced_rows(pools[n], {q for q, g in fold[n].items() if g != f}, f, DEFAULT_NEG_RATIO)
            xs.append(feats[n].matrix(tc.triples_of(pools[n], rows), ()))
            ys.append(np.array([pools[n].label[r] for r in rows]))
        clf, _, _ = fit_model(np.concatenate(xs), np.concatenate(ys), hidden=(), alpha=1.0, seed=f,
                              meta={"vector_blocks": [], "dim": 384, **(meta or {})}, model=DEFAULT_MODEL)
        yield f, clf, fold


def out_of_fold(pools: dict) -> dict[str, dict]:
    """C(q, d1, d2) for every replayed triple of the training pools, each from a fold model
    (:func:`fold_models`) that never saw q."""
    feats = {n: tc.Feats(pools[n]) for n in tc.TRAIN}
    scores: dict[str, dict] = {n: {} for n in tc.TRAIN}
    for f, clf, fold in fold_models(pools, feats=feats):
        for n in tc.TRAIN:
            walk = cfs_triples(pools[n], sorted(q for q, g in fold[n].items() if g == f), n_static=4)
            scores[n].update(zip(walk, clf.forward(feats[n].matrix(walk, ())), strict=True))
    return scores


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--test", action="store_true", help="the test pools, scored by the shipped model")
    args = parser.parse_args()
    pools = tc.load_pools()
    if args.test:
        from drrag_cli.select.classifier import RelevanceClassifier

        clf = RelevanceClassifier.load()
        names = tc.TEST
        scores = {n: cfs_scores(pools[n], clf, range(len(pools[n].questions)), n_static=4) for n in names}
        threshold = clf.thresholds["first"]
    else:
        names, scores, threshold = tc.TRAIN, out_of_fold(pools), 0.4  # the shipped "first" threshold
    for n in names:
        pool = pools[n]
        qs = [q for q in range(len(pool.questions)) if pool.gold[q]]
        cells = []
        for tau in TAUS:
            r = recall_of(pool, qs, {q: context(pool, q, scores[n], threshold, tau) for q in qs})
            cells.append(f"{'off' if tau is None else tau}: {r['recall']} ({r['docs']})")
        print(n, " | ".join(cells), flush=True)


if __name__ == "__main__":
    main()
