"""Train and evaluate the shipped relevance classifier (drrag_cli/select/weights).

Data split (strict — the retrieval/QA benchmarks depend on it):
  train/validation: HotpotQA train100 (+ its corpus), HotpotQA dev500 questions 250..499
                    (corpus = their own paragraphs only), MuSiQue train100 (+ its corpus);
                    20% of each file's questions (whole questions) held out for validation.
  extra (mined, trained on only when `final` names it): 2WikiMultihopQA train500 (its own
                    paragraphs); the model card says what adding it measured.
  test, never used for fitting or choosing anything: HotpotQA dev500 questions 0..249
                    (corpus = all 4,858 dev500 paragraphs, as in the benchmarks), MuSiQue
                    dev100 and 2WikiMultihopQA dev182 (their own paragraphs).

Usage (from the repo root; each dataset is indexed once in the eval cache, pools are pickled in benchmarks/out/):
  .venv/bin/python benchmarks/train_classifier.py mine        # embed + mine pairs (slow once)
  .venv/bin/python benchmarks/train_classifier.py compare     # alternatives on validation
  .venv/bin/python benchmarks/train_classifier.py final       # train, evaluate, ship weights
  .venv/bin/python benchmarks/train_classifier.py final 2wiki_train500   # ... with an extra set too
  .venv/bin/python benchmarks/train_classifier.py speed       # inference time, 40 pairs
"""

from __future__ import annotations

import dataclasses
import json
import pickle
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from drrag_cli.evaluate.datasets import Dataset, load_dataset  # noqa: E402
from drrag_cli.select.mining import PairPool  # noqa: E402

DATA = ROOT.parent / "shared" / "data"
OUT = ROOT / "benchmarks" / "out"


def _subset(ds: Dataset, start: int, stop: int, own_corpus: bool) -> Dataset:
    examples = ds.examples[start:stop]
    corpus = ds.corpus
    if own_corpus:
        corpus = list({p.key: p for ex in examples for p in ex.paragraphs}.values())
    return Dataset(f"{ds.name}[{start}:{stop}]", ds.fmt, examples, corpus)


def datasets() -> dict[str, tuple[Dataset, str]]:
    """name → (dataset, role) with role 'train' (train+val) or 'test'."""
    hp = DATA / "hotpotqa"
    mq = DATA / "musique"
    wk = DATA / "2wiki"
    dev = load_dataset(hp / "dev500.ircot.jsonl")
    return {
        "hotpot_train100": (load_dataset(hp / "train100.hotpot.json",
                                         corpus=hp / "train100.corpus.json"), "train"),
        "hotpot_dev250_499": (_subset(dev, 250, 500, own_corpus=True), "train"),
        "musique_train100": (load_dataset(mq / "train100.musique.json",
                                          corpus=mq / "train100.corpus.json"), "train"),
        "2wiki_train500": (load_dataset(wk / "train500.2wiki.json"), "extra"),
        "hotpot_dev0_249": (_subset(dev, 0, 250, own_corpus=False), "test"),
        "musique_dev100": (load_dataset(mq / "dev100.musique.json"), "test"),
        "2wiki_dev182": (load_dataset(wk / "dev182.2wiki.json"), "test"),
    }


def mine() -> dict[str, PairPool]:
    """Index each dataset's paragraphs (eval cache) and mine pairs with the product's retrieval;
    a dataset already in pools.pkl is kept as mined."""
    return _mine_missing(_read_pools())


def _read_pools() -> dict[str, PairPool]:
    path = OUT / "pools.pkl"
    return pickle.loads(path.read_bytes()) if path.is_file() else {}


def _mine_missing(pools: dict[str, PairPool]) -> dict[str, PairPool]:
    """``pools`` with every dataset it lacks mined, pools.pkl saved after each (a crash keeps
    the ones mined)."""
    from drrag_cli.config import Settings
    from drrag_cli.select.train import mine_datasets

    settings = Settings().replace({"embedding.threads": 1})
    path = OUT / "pools.pkl"
    for name, (ds, _role) in datasets().items():
        if name in pools:
            continue
        t = time.time()
        pools[name] = mine_datasets([dataclasses.replace(ds, name=name)], settings, progress=print)[0]
        print(f"  {name}: {time.time() - t:.0f}s")
        OUT.mkdir(parents=True, exist_ok=True)  # git-ignored: absent on a fresh clone
        path.write_bytes(pickle.dumps(pools))
    return pools


def load_pools() -> dict[str, PairPool]:
    """The mined pools, mining those pools.pkl lacks (it is read once)."""
    pools = _read_pools()
    return pools if set(pools) >= set(DATASET_ROLES) else _mine_missing(pools)


# ------------------------------------------------------------------ feature cache
class Feats:
    """Scalar features per (q, d1, d2) triple of one pool, computed once; vector blocks
    are assembled on demand (same column order as `build_features`)."""

    def __init__(self, pool: PairPool) -> None:
        self.pool = pool
        self.rows: dict[tuple[int, int, int], np.ndarray] = {}

    def matrix(self, triples: list[tuple[int, int, int]], blocks: tuple[str, ...],
               fallback: list[float] | None = None) -> np.ndarray:
        from drrag_cli.select.features import VECTOR_BLOCKS
        from drrag_cli.select.mining import triple_features

        pool = self.pool
        if fallback is not None:
            return triple_features(pool, triples, blocks, fallback)
        todo = [t for t in dict.fromkeys(triples) if t not in self.rows]
        if todo:
            self.rows.update(zip(todo, triple_features(pool, todo, ()), strict=True))
        scal = np.stack([self.rows[t] for t in triples])
        if not blocks:
            return scal
        q = pool.q_vecs[[t[0] for t in triples]].astype(np.float64)
        d1 = pool.corpus_vecs[[t[1] for t in triples]].astype(np.float64)
        d2 = pool.corpus_vecs[[t[2] for t in triples]].astype(np.float64)
        s = np.stack([pool.qstar[(t[0], t[1])] for t in triples]).astype(np.float64)
        named = {"q": q, "s": s, "d1": d1, "d2": d2}
        parts = [scal] + [named[a] * named[b] for a, b in (VECTOR_BLOCKS[n] for n in blocks)]
        return np.concatenate(parts, axis=1)


def triples_of(pool: PairPool, rows: list[int]) -> list[tuple[int, int, int]]:
    return [(pool.qi[r], pool.i1[r], pool.i2[r]) for r in rows]


DATASET_ROLES = {"hotpot_train100": (None, "train"), "hotpot_dev250_499": (None, "train"),
                 "musique_train100": (None, "train"), "2wiki_train500": (None, "extra"),
                 "hotpot_dev0_249": (None, "test"), "musique_dev100": (None, "test"),
                 "2wiki_dev182": (None, "test")}
TRAIN = [n for n, (_, r) in DATASET_ROLES.items() if r == "train"]
TEST = [n for n, (_, r) in DATASET_ROLES.items() if r == "test"]


CONFIGS = {  # name → (blocks, hidden, alpha, neg_ratio, walk_share[, model])
    "logreg": ((), (), 1e-1, 3.0, 0.5),
    "mlp32-neg1": ((), (32,), 1e-2, 1.0, 0.5),
    "mlp32-neg1-a1": ((), (32,), 1.0, 1.0, 0.5),
    "mlp32-neg3-a1-walk": ((), (32,), 1.0, 3.0, 1.0),
    "mlp32-neg3": ((), (32,), 1e-2, 3.0, 0.5),
    "mlp32-neg6": ((), (32,), 1e-2, 6.0, 0.5),
    "mlp32-neg3-walk": ((), (32,), 1e-2, 3.0, 1.0),
    "mlp32-neg3-paper": ((), (32,), 1e-2, 3.0, 0.0),
    "mlp32-neg3-w75": ((), (32,), 1e-2, 3.0, 0.75),
    "mlp16-neg3": ((), (16,), 1e-2, 3.0, 0.5),
    "mlp64-neg3": ((), (64,), 1e-2, 3.0, 0.5),
    "mlp32x16-neg3": ((), (32, 16), 1e-2, 3.0, 0.5),
    "mlp32-neg3-a1e-1": ((), (32,), 1e-1, 3.0, 0.5),
    "mlp32-neg3-a1": ((), (32,), 1.0, 3.0, 0.5),
    "mlp32-neg3-s*d2": (("s*d2",), (32,), 1.0, 3.0, 0.5),
    "mlp32-neg3-3blocks-a3": (("s*d2", "d1*d2", "q*d2"), (32,), 3.0, 3.0, 0.5),
    "mlp16-neg3-a1": ((), (16,), 1.0, 3.0, 0.5),
    "mlp64-neg3-a1": ((), (64,), 1.0, 3.0, 0.5),
    "mlp32-neg6-a1": ((), (32,), 1.0, 6.0, 0.5),
    "mlp32-neg3-a3": ((), (32,), 3.0, 3.0, 0.5),
    "gbm-neg3": ((), (), 1.0, 3.0, 0.5, "gbm"),  # train.GBM_PARAMS
    "gbm-neg6": ((), (), 1.0, 6.0, 0.5, "gbm"),
    "gbm-neg10": ((), (), 1.0, 10.0, 0.5, "gbm"),
    "gbm-neg6-walk75": ((), (), 1.0, 6.0, 0.75, "gbm"),
}
FOLDS = 5


def folds(n: int, name: str) -> dict[int, int]:
    """Question index → fold for the training set ``name`` of ``n`` questions (whole questions,
    the same draw every run)."""
    import random

    qs = list(range(n))
    random.Random(f"cv:{name}").shuffle(qs)
    return {q: i % FOLDS for i, q in enumerate(qs)}


def compare(only: list[str] | None = None) -> None:
    """Out-of-fold (5 folds over whole training questions) comparison of configs.

    Every training question gets scores from a model that never saw it; the threshold
    is then chosen once on the pooled out-of-fold CFS simulation. Test sets untouched.
    """
    from drrag_cli.select.simulate import KS, cfs_triples, choose_threshold, simulate_cfs
    from drrag_cli.select.train import balanced_rows, fit_model, pair_metrics

    pools = load_pools()
    feats = {n: Feats(pools[n]) for n in TRAIN}
    fold = {n: folds(len(pools[n].questions), n) for n in TRAIN}
    results = {}
    for name, (blocks, hidden, alpha, neg_ratio, walk_share, *model) in CONFIGS.items():
        if only and name not in only:
            continue
        t = time.time()
        scores = {n: {} for n in TRAIN}
        pair_p = {n: {} for n in TRAIN}
        for f in range(FOLDS):
            xs, ys = [], []
            for n in TRAIN:
                pool = pools[n]
                tr = {q for q, g in fold[n].items() if g != f}
                rows = balanced_rows(pool, tr, f, neg_ratio, walk_share)
                xs.append(feats[n].matrix(triples_of(pool, rows), blocks))
                ys.append(np.array([pool.label[r] for r in rows]))
            clf, _, _ = fit_model(np.concatenate(xs), np.concatenate(ys), hidden=hidden,
                                  alpha=alpha, seed=f, meta={"vector_blocks": list(blocks),
                                                             "dim": 384}, model=(model or ["mlp"])[0])
            for n in TRAIN:
                pool = pools[n]
                va = sorted(q for q, g in fold[n].items() if g == f)
                walk = cfs_triples(pool, va)
                scores[n].update(zip(walk, clf.forward(feats[n].matrix(walk, blocks)),
                                     strict=True))
                rows = [r for r, q in enumerate(pool.qi) if fold[n][q] == f]
                pair_p[n].update(zip(rows, clf.forward(feats[n].matrix(
                    triples_of(pool, rows), blocks)), strict=True))
        runs = [(pools[n], sorted(fold[n]), scores[n]) for n in TRAIN]
        thr, _ = choose_threshold(runs)
        thr_b, _ = choose_threshold(runs, rule="best")
        summary = {"threshold": thr, "secs": round(time.time() - t, 1)}
        for n in TRAIN:
            pool = pools[n]
            bal = balanced_rows(pool, set(fold[n]), 99)
            yb = np.array([pool.label[r] for r in bal])
            pb = np.array([pair_p[n][r] for r in bal])
            ya = np.array(pool.label)
            pa = np.array([pair_p[n][r] for r in range(len(ya))])
            qs = sorted(fold[n])
            summary[n] = {
                "bal": {k: pair_metrics(yb, pb, thr)[k] for k in ("accuracy", "f1", "auc")},
                "all_auc": pair_metrics(ya, pa, thr)["auc"],
                "first": [simulate_cfs(pool, qs, scores[n], k, thr)["recall"] for k in KS],
                "best": [simulate_cfs(pool, qs, scores[n], k, thr_b, "best")["recall"]
                         for k in KS],
                "docs": [simulate_cfs(pool, qs, scores[n], k, thr)["docs"] for k in KS]}
        summary["mean_first"] = round(float(np.mean([summary[n]["first"] for n in TRAIN])), 2)
        summary["mean_best"] = round(float(np.mean([summary[n]["best"] for n in TRAIN])), 2)
        results[name] = summary
        print(name, json.dumps(summary), flush=True)
    path = OUT / "compare.json"
    old = json.loads(path.read_text()) if path.is_file() else {}
    old.update(results)
    path.write_text(json.dumps(old, indent=1))


# Chosen by `compare` (out-of-fold CFS recall on training questions only).
FINAL = {"blocks": (), "hidden": (32,), "alpha": 1.0, "model": "gbm"}
WEIGHTS = ROOT / "drrag_cli" / "select" / "weights"


def test_report(clf, pools: dict[str, PairPool]) -> dict:
    """Metrics on the untouched test sets (dev500[0:250], MuSiQue dev100, 2Wiki dev182)."""
    from drrag_cli.select.mining import pool_features
    from drrag_cli.select.simulate import KS, cfs_scores, first_stage_recall, simulate_cfs, simulate_cis
    from drrag_cli.select.train import CIS_GRID, balanced_rows, pair_metrics

    thr_first = clf.meta["thresholds"]["first"]
    thr_best = clf.meta["thresholds"]["best"]
    out = {}
    for name in TEST:
        pool = pools[name]
        qs = list(range(len(pool.questions)))
        rows = balanced_rows(pool, set(qs), seed=1)
        y = np.array([pool.label[r] for r in rows])
        p = clf.forward(pool_features(pool, rows, clf.blocks))
        p_fb = clf.forward(pool_features(pool, rows, clf.blocks, clf.fallback))
        ya = np.array(pool.label)
        pa = clf.forward(pool_features(pool, range(len(ya)), clf.blocks))
        scores = cfs_scores(pool, clf, qs)
        oracle = cfs_scores(pool, None, qs)
        out[name] = {
            "pairs": pair_metrics(y, p, clf.threshold),
            "pairs_no_qstar": pair_metrics(y, p_fb, clf.threshold),
            "all_pairs": pair_metrics(ya, pa, clf.threshold),
            "cfs": {f"k{k}": {
                "hybrid_topk": first_stage_recall(pool, qs, k),
                "oracle": simulate_cfs(pool, qs, oracle, k, 0.5),
                "first": simulate_cfs(pool, qs, scores, k, thr_first),
                "best": simulate_cfs(pool, qs, scores, k, thr_best, "best"),
            } for k in KS},
            "cis": simulate_cis(pool, qs, clf, CIS_GRID),
        }
    return out


def final(extra: list[str] | None = None) -> dict:
    """Train on the train split (and the ``extra`` sets named), choose the threshold on
    validation, test, ship."""
    from drrag_cli.index.embedder import DEFAULT_MODEL_ID
    from drrag_cli.select.train import train_from_pools

    pools = load_pools()
    clf, report, _ = train_from_pools(
        [pools[n] for n in TRAIN + list(extra or ())], None, model_id=DEFAULT_MODEL_ID, progress=print, **FINAL)
    report["test"] = test_report(clf, pools)
    clf.meta["metrics"] = report
    clf.meta["training_data"] = [
        dict(d, source=SOURCES[d["name"]]) for d in clf.meta["training_data"]]
    clf.meta["test_data"] = {n: SOURCES[n] for n in TEST}
    clf.save(WEIGHTS)
    (OUT / "final_report.json").write_text(json.dumps(report, indent=1))
    print(json.dumps(report, indent=1))
    return report


SOURCES = {
    "hotpot_train100": "shared/data/hotpotqa/train100.hotpot.json + train100.corpus.json",
    "hotpot_dev250_499": "shared/data/hotpotqa/dev500.ircot.jsonl questions 250..499 "
                         "(corpus: their own paragraphs)",
    "musique_train100": "shared/data/musique/train100.musique.json + train100.corpus.json",
    "hotpot_dev0_249": "shared/data/hotpotqa/dev500.ircot.jsonl questions 0..249 "
                       "(corpus: all 4,858 dev500 paragraphs)",
    "musique_dev100": "shared/data/musique/dev100.musique.json",
    "2wiki_train500": "shared/data/2wiki/train500.2wiki.json (corpus: its own paragraphs)",
    "2wiki_dev182": "shared/data/2wiki/dev182.2wiki.json (corpus: its own paragraphs)",
}


def speed(reps: int = 300) -> dict:
    """Median time of one `predict` call on 40 real pairs (features + forward pass)."""
    from drrag_cli.select import DocView, RelevanceClassifier
    from drrag_cli.select.features import text_info

    pool = load_pools()["hotpot_dev0_249"]
    clf = RelevanceClassifier.load()
    q = 0
    triples = [(q, d1, d2) for d1 in pool.static[q][:2] for d2 in pool.qstar_lists[(q, d1)][:21] if d2 != d1][:40]
    c = pool.corpus
    view = {i: DocView(c[i].title, c[i].text, pool.corpus_vecs[i]) for t in triples
            for i in t[1:]}
    pairs = [(view[a], view[b]) for _, a, b in triples]
    qstar = [pool.qstar[(q, a)] for _, a, _ in triples]
    res = {}
    for label, qs, cold in (("with_qstar", qstar, False), ("no_qstar", None, False),
                            ("with_qstar_cold_text_cache", qstar, True)):
        times = []
        for _ in range(reps):
            if cold:  # every passage new to the process: lexical analysis not cached
                text_info.cache_clear()
            t = time.perf_counter()
            clf.predict(pool.questions[q], pool.q_vecs[q], pairs, qs)
            times.append(time.perf_counter() - t)
        res[label] = {"pairs": len(pairs), "median_ms": round(1000 * float(np.median(times)), 3),
                      "p90_ms": round(1000 * float(np.percentile(times, 90)), 3)}
    print(json.dumps(res))
    return res


if __name__ == "__main__":
    cmd = sys.argv[1] if len(sys.argv) > 1 else "final"
    if cmd == "mine":
        mine()
    elif cmd == "compare":
        compare(sys.argv[2:] or None)
    elif cmd == "final":
        final(sys.argv[2:])
    elif cmd == "speed":
        speed()
    else:
        print(json.dumps({"error": f"unknown command {cmd}"}))
