"""Train the relevance classifier on labelled multi-hop data (`drrag train-classifier`).

Steps: load each dataset (:func:`drrag_cli.evaluate.datasets.load_dataset`), mine pairs
the way CFS meets them (:mod:`drrag_cli.select.mining`), hold out whole questions for
validation, fit gradient-boosted trees (or a small MLP) on balanced pairs, export them to numpy
(:class:`RelevanceClassifier`), choose the threshold on the held-out questions and write
``relevance.npz`` + ``relevance.json``. scikit-learn is imported here only, never at
inference.
"""

from __future__ import annotations

import datetime as _dt
import random
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from drrag_cli.errors import InputError
from drrag_cli.select.classifier import RelevanceClassifier
from drrag_cli.select.features import SCALAR_FEATURES
from drrag_cli.select.forest import Forest
from drrag_cli.select.mining import KS, PairPool, mine_pairs, pool_features
from drrag_cli.select.simulate import (
    cfs_scores,
    choose_cis_threshold,
    choose_threshold,
    simulate_cfs,
    simulate_cis,
)

# Chosen by out-of-fold CFS recall on the training questions (benchmarks/train_classifier.py
# compare): scalar features only — interaction-vector blocks overfit ~1k positive pairs —
# and 3 negatives per positive, class-weighted 1:1. The model: 300 gradient-boosted trees of
# at most 31 leaves (the same out-of-fold recall as the MLP below with ~0.25 fewer
# documents at k = 4); ``model="mlp"`` is a 32-unit ReLU layer with strong L2.
DEFAULT_MODEL = "gbm"
GBM_PARAMS = {"learning_rate": 0.03, "max_leaf_nodes": 31, "max_iter": 300, "l2_regularization": 1.0,
              "min_samples_leaf": 20, "early_stopping": False}
DEFAULT_BLOCKS: tuple[str, ...] = ()
DEFAULT_HIDDEN: tuple[int, ...] = (32,)
DEFAULT_ALPHA = 1.0
DEFAULT_NEG_RATIO = 3.0
CIS_GRID = (0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5)


if TYPE_CHECKING:
    from drrag_cli.config import Settings
    from drrag_cli.types import Dataset

def fit_fallback(pools: Sequence[PairPool]) -> list[float]:
    """Least-squares (a, b) with emb(q*) ≈ a·q + b·d1 over every mined q*."""
    rows_a, rows_y = [], []
    for pool in pools:
        for (q, d1), s in pool.qstar.items():
            rows_a.append(np.stack([pool.q_vecs[q], pool.corpus_vecs[d1]], axis=1))
            rows_y.append(s)
    if not rows_a:
        return [0.5, 0.5]
    a_mat = np.concatenate(rows_a).astype(np.float64)
    y = np.concatenate(rows_y).astype(np.float64)
    coef, *_ = np.linalg.lstsq(a_mat, y, rcond=None)
    return [round(float(c), 6) for c in coef]


# ------------------------------------------------------------------------ sampling
def split_questions(pool: PairPool, val_fraction: float, seed: int) -> tuple[set, set]:
    """Whole questions to (train, validation); validation empty when there are < 5."""
    qs = list(range(len(pool.questions)))
    random.Random(f"{seed}:{pool.name}").shuffle(qs)
    n_val = int(round(len(qs) * val_fraction)) if len(qs) >= 5 else 0
    return set(qs[n_val:]), set(qs[:n_val])


def balanced_rows(pool: PairPool, questions: set, seed: int, neg_ratio: float = 1.0,
                  walk_share: float = 0.5) -> list[int]:
    """All positives of `questions` plus `neg_ratio`× as many negatives.

    Negatives are drawn `walk_share` from q* walks (what CFS meets) and the rest from the
    paper's random context pairs; a short supply on one side is filled from the other.
    """
    rng = random.Random(seed)
    pos = [r for r, q in enumerate(pool.qi) if q in questions and pool.label[r]]
    walk = [r for r, q in enumerate(pool.qi)
            if q in questions and not pool.label[r] and pool.source[r] == "walk"]
    rand = [r for r, q in enumerate(pool.qi)
            if q in questions and not pool.label[r] and pool.source[r] != "walk"]
    n_neg = int(round(len(pos) * neg_ratio))
    n_walk = min(len(walk), int(round(n_neg * walk_share)))
    n_rand = min(len(rand), n_neg - n_walk)
    n_walk = min(len(walk), n_neg - n_rand)
    return sorted(pos + rng.sample(walk, n_walk) + rng.sample(rand, n_rand))


# -------------------------------------------------------------------------- models
def fit_model(x: np.ndarray, y: np.ndarray, *, hidden: Sequence[int] = DEFAULT_HIDDEN,
              alpha: float = DEFAULT_ALPHA, seed: int = 0, meta: dict | None = None,
              max_iter: int = 400, model: str = "mlp"):
    """Standardise, fit (``model="gbm"``: gradient-boosted trees; else an MLP, or a logistic
    regression when `hidden` is empty), export.

    Returns (numpy classifier, sklearn estimator, standardised x). Classes are weighted
    to 1:1 so extra negatives sharpen the boundary without moving the prior.
    """
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.linear_model import LogisticRegression
    from sklearn.neural_network import MLPClassifier

    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale < 1e-9] = 1.0
    xs = (x - mean) / scale
    n_pos = max(int(y.sum()), 1)
    n_neg = max(len(y) - n_pos, 1)
    weight = np.where(y == 1, len(y) / (2 * n_pos), len(y) / (2 * n_neg))
    if model == "gbm":
        return _fit_trees(xs, y, weight, mean, scale, seed, meta)
    if hidden:
        est = MLPClassifier(hidden_layer_sizes=tuple(hidden), alpha=alpha, max_iter=max_iter,
                            random_state=seed, learning_rate_init=1e-3,
                            batch_size=min(128, len(y)))
        with warnings.catch_warnings():  # max_iter reached is fine here: L2 keeps it tame
            warnings.simplefilter("ignore", ConvergenceWarning)
            est.fit(xs, y, sample_weight=weight)
        layers = list(zip(est.coefs_, est.intercepts_, strict=True))
        activation = est.activation
    else:
        est = LogisticRegression(C=1.0 / max(alpha, 1e-6), max_iter=2000)
        est.fit(xs, y, sample_weight=weight)
        layers = [(est.coef_.T, est.intercept_)]
        activation = "identity"
    meta = dict(meta or {}, activation=activation,
                model="mlp" if hidden else "logreg", hidden=list(hidden), alpha=alpha)
    return RelevanceClassifier(layers, mean, scale, meta), est, xs


def _fit_trees(xs: np.ndarray, y: np.ndarray, weight: np.ndarray, mean: np.ndarray, scale: np.ndarray,
               seed: int, meta: dict | None):
    from sklearn.ensemble import HistGradientBoostingClassifier

    est = HistGradientBoostingClassifier(random_state=seed, **GBM_PARAMS)
    est.fit(xs, y, sample_weight=weight)
    meta = dict(meta or {}, activation="identity", model="gbm", hidden=[], trees=dict(GBM_PARAMS))
    return RelevanceClassifier([], mean, scale, meta, Forest.from_sklearn(est)), est, xs


def pair_metrics(y: np.ndarray, p: np.ndarray, threshold: float) -> dict:
    """accuracy / precision / recall / F1 at `threshold` and ROC AUC (rank based)."""
    y = np.asarray(y).astype(int)
    pred = np.asarray(p) >= threshold
    tp = int((pred & (y == 1)).sum())
    fp = int((pred & (y == 0)).sum())
    fn = int((~pred & (y == 1)).sum())
    prec = tp / (tp + fp) if tp + fp else 0.0
    rec = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * prec * rec / (prec + rec) if prec + rec else 0.0
    return {"n": int(len(y)), "positives": int(y.sum()), "accuracy": round(float((pred == y)
            .mean()) if len(y) else 0.0, 4), "precision": round(prec, 4),
            "recall": round(rec, 4), "f1": round(f1, 4), "auc": round(auc(y, p), 4)}


def auc(y: np.ndarray, p: np.ndarray) -> float:
    """ROC AUC by the rank-sum formula (ties averaged); 0.5 when one class is absent."""
    y = np.asarray(y).astype(int)
    n_pos, n_neg = int(y.sum()), int(len(y) - y.sum())
    if n_pos == 0 or n_neg == 0:
        return 0.5
    order = np.argsort(p, kind="mergesort")
    ranks = np.empty(len(p))
    sorted_p = np.asarray(p)[order]
    i = 0
    while i < len(p):
        j = i
        while j + 1 < len(p) and sorted_p[j + 1] == sorted_p[i]:
            j += 1
        ranks[order[i:j + 1]] = (i + j) / 2 + 1
        i = j + 1
    return float((ranks[y == 1].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg))


def best_f1_threshold(y: np.ndarray, p: np.ndarray) -> float:
    """The threshold (a midpoint between scores) that maximises F1; 0.5 without data."""
    if len(y) == 0 or int(np.sum(y)) == 0:
        return 0.5
    cands = np.unique(np.round(p, 4))
    scores = [(pair_metrics(y, p, t)["f1"], -abs(t - 0.5), t) for t in cands]
    return round(float(max(scores)[2]), 4)


# ------------------------------------------------------------------------- driver
def _fit(pools: Sequence[PairPool], question_sets: Sequence[set], cfg: dict, seed: int):
    """Fit one model on the balanced pairs of the given questions of each pool."""
    xs, ys = [], []
    for pool, qs in zip(pools, question_sets, strict=True):
        rows = balanced_rows(pool, qs, seed, cfg["neg_ratio"])
        xs.append(pool_features(pool, rows, cfg["blocks"]))
        ys.append(np.array([pool.label[r] for r in rows], dtype=int))
    x, y = np.concatenate(xs), np.concatenate(ys)
    if y.sum() == 0 or y.sum() == len(y):
        return None
    meta = {"vector_blocks": list(cfg["blocks"]), "dim": int(pools[0].corpus_vecs.shape[1]),
            "scalar_features": list(SCALAR_FEATURES), "neg_ratio": cfg["neg_ratio"]}
    clf, est, xs_std = fit_model(x, y, hidden=cfg["hidden"], alpha=cfg["alpha"], seed=seed,
                                 meta=meta, model=cfg.get("model", "mlp"))
    return clf, est, x, y, xs_std


def _oof_runs(pools: Sequence[PairPool], train_sets: Sequence[set], cfg: dict, seed: int,
              folds: int = 5) -> list:
    """CFS-walk scores for every training question from a model that did not see it."""
    fold_of = []
    for pool, tr in zip(pools, train_sets, strict=True):
        qs = sorted(tr)
        random.Random(f"oof:{seed}:{pool.name}").shuffle(qs)
        fold_of.append({q: i % folds for i, q in enumerate(qs)})
    scores: list[dict] = [{} for _ in pools]
    for f in range(folds):
        fitted = _fit(pools, [{q for q, g in fo.items() if g != f} for fo in fold_of], cfg,
                      seed + f)
        if fitted is None:
            continue
        for i, pool in enumerate(pools):
            held = sorted(q for q, g in fold_of[i].items() if g == f and pool.gold[q])
            scores[i].update(cfs_scores(pool, fitted[0], held))
    return [(pool, sorted({t[0] for t in sc}), sc) for pool, sc in zip(pools, scores,
                                                                           strict=True) if sc]


def mine_datasets(
    datasets: Sequence[Dataset], settings: Settings, *, seed: int = 0, progress: Callable[[str], None] | None = None
) -> list[PairPool]:
    """Index each dataset's paragraphs (once, in the eval cache) and mine its pairs there,
    with the product's retriever and first-stage mode."""
    from drrag_cli.index.api import Index
    from drrag_cli.index.paragraphs import ONE_PASSAGE_WORDS, index_paragraphs

    say = progress or (lambda _msg: None)
    settings = settings.replace({"index.chunk_words": ONE_PASSAGE_WORDS})
    mode = {"sm": "dense"}.get(settings.retrieval.first_stage, settings.retrieval.first_stage)
    pools = []
    for ds in datasets:
        say(f"{ds.name}: indexing {len(ds.corpus)} paragraphs (once; cached)")
        path, _report = index_paragraphs(ds.corpus, settings, ds.name)
        index = Index.open(settings, path)
        pools.append(
            mine_pairs(
                ds.name, ds.examples, ds.corpus, index,
                mode=mode, seed=seed, focus=settings.retrieval.qstar_focus, progress=say,
            )
        )
    return pools


def train_from_pools(
    pools: Sequence[PairPool],
    out: str | Path | None,
    *,
    model_id: str = "",
    val_fraction: float = 0.2,
    seed: int = 0,
    blocks: Sequence[str] = DEFAULT_BLOCKS,
    hidden: Sequence[int] = DEFAULT_HIDDEN,
    alpha: float = DEFAULT_ALPHA,
    neg_ratio: float = DEFAULT_NEG_RATIO,
    model: str = DEFAULT_MODEL,
    progress: Callable[[str], None] | None = None,
) -> tuple[RelevanceClassifier, dict, list[tuple[set, set]]]:
    """Split, fit, choose the thresholds, evaluate; save to `out` unless None.

    The model is fitted on the training split. The CFS thresholds maximise simulated CFS
    recall on out-of-fold scores of the training questions (5 folds, same recipe): far
    more questions than the validation split, which stays untouched for the reported
    metrics. Returns (classifier, report, splits).
    """
    say = progress or (lambda _msg: None)
    if sum(sum(p.label) for p in pools) == 0:
        raise InputError("no positive training pairs: every question needs at least two gold "
                         "(supporting) paragraphs found in its corpus; check the dataset labels")
    splits = [split_questions(p, val_fraction, seed) for p in pools]
    cfg = {"blocks": tuple(blocks), "hidden": tuple(hidden), "alpha": alpha, "neg_ratio": neg_ratio, "model": model}
    fitted = _fit(pools, [tr for tr, _ in splits], cfg, seed)
    if fitted is None:
        raise InputError("the training split has only one class of pairs; add questions "
                         "with two or more gold paragraphs (or lower the validation fraction)")
    clf, est, x, y, xs_std = fitted
    say(f"fitted on {len(y)} pairs ({int(y.sum())} positive), {x.shape[1]} features")
    clf.fallback = fit_fallback(pools)
    report: dict = {"train_pairs": int(len(y)), "train_positives": int(y.sum()), "qstar_fallback": clf.fallback,
                    "sklearn_parity_max_abs_diff": float(np.max(np.abs(clf.forward(x)
                                                                       - est.predict_proba(xs_std)[:, 1])))}
    report.update(_cfs_thresholds(clf, pools, splits, cfg, seed, x, y, say))
    report["validation"] = {pool.name: _validate(clf, pool, va, blocks, report["thresholds"], seed)
                            for pool, (_tr, va) in zip(pools, splits, strict=True)}
    cis_runs = [r["cis"] for r in report["validation"].values() if "cis" in r]
    report["thresholds"]["cis"] = choose_cis_threshold(cis_runs) if cis_runs else 0.1
    clf.meta.update({
        "version": 1,
        "thresholds": report["thresholds"],
        "created": _dt.datetime.now(_dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "embedding_model": model_id,
        "training_data": [{"name": p.name, "questions": len(p.questions),
                           "pairs": len(p.label), "positive_pairs": int(sum(p.label))}
                          for p in pools],
        "val_fraction": val_fraction, "seed": seed, "metrics": report,
    })
    if out is not None:
        clf.save(out)
        say(f"saved classifier to {out}")
    return clf, report, splits


def _cfs_thresholds(clf: RelevanceClassifier, pools: Sequence[PairPool], splits: Sequence[tuple[set, set]],
                    cfg: dict, seed: int, x: np.ndarray, y: np.ndarray, say: Callable[[str], None]) -> dict:
    """The "first" and "best" thresholds: by simulated CFS on out-of-fold training
    questions when there are enough of them, else by F1 on the training pairs."""
    n_train = sum(len([q for q in tr if p.gold[q]]) for p, (tr, _) in zip(pools, splits, strict=True))
    runs = _oof_runs(pools, [tr for tr, _ in splits], cfg, seed) if n_train >= 25 else []
    if runs:
        say(f"choosing the thresholds by simulated CFS on {n_train} out-of-fold questions")
        clf.threshold, _table = choose_threshold(runs)
        best, _ = choose_threshold(runs, rule="best")
        rule = "max mean simulated CFS recall (k=3,4,6), 5-fold out-of-fold training questions"
    else:
        clf.threshold = best = best_f1_threshold(y, clf.forward(x))
        rule = "max F1 on training pairs (too few questions for a CFS simulation)"
    return {"threshold": clf.threshold, "threshold_rule": rule, "thresholds": {"first": clf.threshold, "best": best}}


def _validate(clf: RelevanceClassifier, pool: PairPool, va: set, blocks: Sequence[str],
              thresholds: dict, seed: int) -> dict:
    """Pair metrics (with and without q*), simulated CFS recall per rule and the CIS grid
    on the held-out questions of one pool."""
    rep: dict = {"val_questions": len(va)}
    rows = balanced_rows(pool, va, seed + 1)
    if rows:
        yv = np.array([pool.label[r] for r in rows])
        rep["pairs"] = pair_metrics(yv, clf.forward(pool_features(pool, rows, blocks)), clf.threshold)
        rep["pairs_no_qstar"] = pair_metrics(
            yv, clf.forward(pool_features(pool, rows, blocks, clf.fallback)), clf.threshold)
    qs = sorted(q for q in va if pool.gold[q])
    if qs:
        scores, oracle = cfs_scores(pool, clf, qs), cfs_scores(pool, None, qs)
        rep["cfs_recall"] = {f"k{k}": {
            "first": simulate_cfs(pool, qs, scores, k, thresholds["first"]),
            "best": simulate_cfs(pool, qs, scores, k, thresholds["best"], "best"),
            "oracle": simulate_cfs(pool, qs, oracle, k, 0.5)} for k in KS}
        rep["cis"] = simulate_cis(pool, qs, clf, CIS_GRID)
    return rep


def train_classifier(
    dataset_paths: Sequence[str | Path],
    out: str | Path,
    settings: Settings | None = None,
    *,
    val_fraction: float = 0.2,
    seed: int = 0,
    max_questions: int | None = None,
    progress: Callable[[str], None] | None = None,
) -> dict:
    """Train C(q, d1, d2) on labelled multi-hop files and write it to `out`.

    Each file is read with ``load_dataset`` (any supported format; its questions'
    paragraphs form its corpus, indexed with ``settings``' embedding model);
    `max_questions` caps the questions read per file. Returns the metrics report (also
    stored in the model's JSON meta).
    """
    from drrag_cli.config import Settings
    from drrag_cli.evaluate.datasets import load_dataset

    if not dataset_paths:
        raise InputError("give at least one labelled dataset file to train on")
    if not 0.0 <= val_fraction < 1.0:
        raise InputError(f"val_fraction must be in [0, 1), got {val_fraction}")
    settings = settings or Settings()
    datasets = [load_dataset(p, limit=max_questions) for p in dataset_paths]
    pools = mine_datasets(datasets, settings, seed=seed, progress=progress)
    _clf, report, _splits = train_from_pools(
        pools, out, model_id=settings.embedding.model, val_fraction=val_fraction, seed=seed, progress=progress)
    return report
