"""Recipes for the relevance classifier, compared out of fold on the training questions.

Each variant changes one thing of the shipped recipe (``drrag_cli/select/train.py``: 300
gradient-boosted trees over the 35 scalar features, 3 negatives per positive, half of them
from q* walks) and is scored the way `train_classifier.py compare` scores one: five folds
over whole training questions, every question's CFS walk triples scored by a model that
never saw it, then CFS replayed (``select/simulate.py``, rule "first" at the shipped 0.4).
It reports recall at k = 3 / 4 / 6 per training set and, over the walks of gold static
documents that hold a gold candidate, how often a gold candidate scores highest in its walk
("top-1"): the ranking that decides a "slot taken" miss. ``--test`` also fits each variant on
every training question and replays the two test sets, for the record only.

    .venv/bin/python benchmarks/classifier_variants.py [--only base,shared_names] [--test]
    .venv/bin/python benchmarks/classifier_variants.py --bridges   # the cues gold pairs carry

Needs ``benchmarks/out/pools.pkl`` (written once by `train_classifier.py mine`).
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from functools import lru_cache
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import train_classifier as tc  # noqa: E402

from drrag_cli.index.links import core_title  # noqa: E402
from drrag_cli.select.features import SCALAR_FEATURES, focus_joined, text_info  # noqa: E402
from drrag_cli.select.simulate import KS, cfs_triples, simulate_cfs  # noqa: E402
from drrag_cli.select.train import GBM_PARAMS, balanced_rows, fit_model  # noqa: E402
from drrag_cli.types import Paragraph  # noqa: E402

THRESHOLD = 0.4  # the shipped "first" threshold
MUSIQUE_TRAIN = ROOT.parent / "shared" / "data" / "musique" / "train100.musique.json"
_WORD = re.compile(r"[^\W_]+(?:['’.-][^\W_]+)*")
_CONNECT = frozenset("of de da von van del la le du der den di y and the".split())


def _joined(text: str) -> str:
    """" tok tok " of a text, lowercased: phrase search by ``in`` (the features' own, cached)."""
    return text_info(text).joined


@lru_cache(maxsize=65536)
def _names(text: str) -> frozenset[str]:
    """Runs of two or more capitalised words ("Henrik Ibsen", "Bank of England"), joined."""
    out, run, pending = set(), [], []
    for w in (m.group(0) for m in _WORD.finditer(text + " .")):
        if w[0].isupper():
            run, pending = run + pending + [w], []
        elif run and w.lower() in _CONNECT:
            pending.append(w)
        else:
            if sum(x[0].isupper() for x in run) >= 2:
                out.add(_joined(" ".join(run)))
            run, pending = [], []
    return frozenset(out)


def shared_names(pool, triples) -> np.ndarray:
    """Names d1 states (not in q, not d1's subject) that d2 also states: anywhere in d1, and
    in d1's question-focused units (the answer of the first hop, as MuSiQue composes them)."""
    c, rows = pool.corpus, []
    for q, a, b in triples:
        question = pool.questions[q]
        skip = _joined(question) + _joined(core_title(c[a].title))
        mine = [n for n in _names(c[a].text) if n not in skip]
        other = _joined(f"{c[b].title} . {c[b].text}")
        hits = [n for n in mine if n in other]
        focus = focus_joined(question, c[a].text, c[a].title)
        rows.append([math.log1p(len(hits)), math.log1p(sum(n in focus for n in hits))])
    return np.array(rows)


def _head(title: str) -> str:
    """"West Chicago, Illinois" → " west chicago "; "" for a title without a comma."""
    core = core_title(title)
    return _joined(core.split(", ", 1)[0]) if ", " in core else ""


def comma_titles(pool, triples) -> np.ndarray:
    """d2's title before its comma ("West Chicago, Illinois") in d1's text, in d1's
    question-focused units, and d1's in d2's text: the place names t2_in_1 misses."""
    c, rows = pool.corpus, []
    for q, a, b in triples:
        h2, h1 = _head(c[b].title), _head(c[a].title)
        focus = focus_joined(pool.questions[q], c[a].text, c[a].title)
        rows.append([float(bool(h2) and h2 in _joined(c[a].text)), float(bool(h2) and h2 in focus),
                     float(bool(h1) and h1 in _joined(c[b].text))])
    return np.array(rows)


@lru_cache(maxsize=1)
def _product_basis() -> tuple[np.ndarray, np.ndarray]:
    """Mean and principal directions of q*⊙d2 over the training sets' walk triples."""
    pools = tc.load_pools()
    x = np.concatenate([_qstar_d2(pools[n], cfs_triples(pools[n], range(len(pools[n].questions))))
                        for n in tc.TRAIN])
    mean = x.mean(axis=0)
    return mean, np.linalg.svd(x - mean, full_matrices=False)[2]


def _qstar_d2(pool, triples) -> np.ndarray:
    s = np.stack([pool.qstar[(q, a)] for q, a, _ in triples]).astype(np.float64)
    return s * pool.corpus_vecs[[b for _, _, b in triples]].astype(np.float64)


def qstar_d2_pca(pool, triples) -> np.ndarray:
    """The element-wise product q*⊙d2 (an interaction block the MLP overfit with), cut to
    its 8 principal directions over the training walks."""
    mean, directions = _product_basis()
    return (_qstar_d2(pool, triples) - mean) @ directions[:8].T


def walk_rank(pool, triples) -> np.ndarray:
    """log rank of d2 in q*_1's hybrid list (60 when it was offered otherwise)."""
    ranks: dict = {}
    out = []
    for q, a, b in triples:
        if (q, a) not in ranks:
            ranks[(q, a)] = {pid: r for r, pid in enumerate(pool.qstar_lists.get((q, a), []), 1)}
        out.append([math.log(ranks[(q, a)].get(b, 60))])
    return np.array(out)


def bridge_pairs(pool) -> dict[int, set[tuple[int, int]]]:
    """MuSiQue: question → its (d_i, d_j) gold pairs that a "#i" of the decomposition joins."""
    records = {r["question"]: r for r in json.loads(MUSIQUE_TRAIN.read_text())}
    index = {p.key: i for i, p in enumerate(pool.corpus)}
    out = {}
    for qi, question in enumerate(pool.questions):
        steps = records[question]["question_decomposition"]
        paras = records[question]["paragraphs"]
        ids = [index.get(Paragraph(paras[s["paragraph_support_idx"]]["title"],
                                   paras[s["paragraph_support_idx"]]["paragraph_text"]).key) for s in steps]
        out[qi] = {pair for j, s in enumerate(steps) for i in (int(m) - 1 for m in re.findall(r"#(\d+)", s["question"]))
                   for pair in ((ids[i], ids[j]), (ids[j], ids[i]))}
    return out


def _phrase(text: str) -> str:
    """A sub-question as the noun phrase a composed question uses: "Hello Love >> performer"
    → "the performer of Hello Love"; "Who was the first president of APA?" → "the first
    president of APA"."""
    if ">>" in text:
        parts = [p.strip() for p in text.split(">>")]
        phrase = parts[0]
        for relation in parts[1:]:
            phrase = f"the {relation} of {phrase}"
        return phrase
    rest = _WH.sub("", text.strip().rstrip("?").strip())
    return rest if rest.lower().startswith("the ") else f"the {rest}"


_WH = re.compile(r"^\s*(?:who|what|which|where|when|whom|whose|how many|how much|how)\b\s*"
                 r"(?:is|was|are|were|did|does|do|has|had|have)?\s*", re.I)


def _said(text: str, answers: list[str], upto: int) -> str:
    """"#k" replaced by step k's answer, for the steps before ``upto``."""
    return re.sub(r"#(\d+)", lambda ref: answers[int(ref[1]) - 1] if int(ref[1]) <= upto else ref[0], text)


def composed_examples() -> tuple[list, list[int]]:
    """Two-hop questions composed from MuSiQue train100's 3- and 4-hop decompositions: for
    each step j that uses step i's answer ("#i"), step j's question with "#i" said as step
    i's question ("When was #2 born?" → "When was the first president of APA born?"), gold
    = the two steps' paragraphs. Returns them and each one's source question (its fold)."""
    from drrag_cli.types import QAExample

    examples, source = [], []
    for qi, rec in enumerate(json.loads(MUSIQUE_TRAIN.read_text())):
        steps = rec["question_decomposition"]
        if len(steps) < 3:
            continue
        answers = [s["answer"] for s in steps]
        paras = [Paragraph(p["title"], p["paragraph_text"]) for p in rec["paragraphs"]]
        for j, step in enumerate(steps):
            for i in sorted({int(m) - 1 for m in re.findall(r"#(\d+)", step["question"])}):
                q = _said(step["question"].replace(f"#{i + 1}", _phrase(_said(steps[i]["question"], answers, i))),
                          answers, j)
                q = f"What is {_phrase(q)}?" if ">>" in q else q
                gold = [paras[steps[i]["paragraph_support_idx"]], paras[step["paragraph_support_idx"]]]
                q = re.sub(r"\s+", " ", q).replace(" ?", "?")
                examples.append(QAExample(f"{rec['id']}__{i}{j}", q[:1].upper() + q[1:],
                                          [answers[j]], paras, [p.key for p in gold], [p.title for p in gold]))
                source.append(qi)
    return examples, source


def composed_pool():
    """The composed questions' pairs, mined on MuSiQue train100's index (cached in benchmarks/out)."""
    import pickle

    path = tc.OUT / "composed_pool.pkl"
    if path.is_file():
        return pickle.loads(path.read_bytes())
    from drrag_cli.config import Settings
    from drrag_cli.evaluate.datasets import Dataset
    from drrag_cli.select.train import mine_datasets

    examples, source = composed_examples()
    corpus = tc.load_pools()["musique_train100"].corpus
    pool = mine_datasets([Dataset("musique_train100", "musique", examples, corpus)],
                         Settings().replace({"embedding.threads": 1}), progress=print)[0]
    pool.name = "musique_composed"
    path.write_bytes(pickle.dumps((pool, source)))
    return pool, source


def _without(*names: str) -> list[int]:
    return [i for i, s in enumerate(SCALAR_FEATURES) if s not in names]


# name → what it changes: neg, walk (share of walk negatives), weight (per training set),
# trees (GBM_PARAMS overrides), cols (features kept), extra (more features), labels, mlp,
# composed (composed_examples() joins the training questions at this weight)
VARIANTS: dict[str, dict] = {
    "base": {},
    "musique_x3": {"weight": {"musique_train100": 3.0}},
    "neg6_walk75": {"neg": 6.0, "walk": 0.75},
    "neg10_walk90": {"neg": 10.0, "walk": 0.9},
    "small_trees": {"trees": {"max_leaf_nodes": 15, "min_samples_leaf": 40}},
    "big_trees": {"trees": {"max_leaf_nodes": 63, "max_iter": 500}},
    "no_lengths": {"cols": _without("len1", "len2")},
    "bridge_labels": {"labels": "bridge"},
    "shared_names": {"extra": shared_names},
    "walk_rank": {"extra": walk_rank},
    "comma_titles": {"extra": comma_titles},
    "qstar_d2_pca8": {"extra": qstar_d2_pca},
    "composed": {"composed": 1.0},
    "composed_half": {"composed": 0.5},
    "trees_and_mlp": {"mlp": True},
}


class Bench:
    """The pools, their feature caches and the folds; fits and scores one variant."""

    def __init__(self) -> None:
        self.pools = tc.load_pools()
        self.feats = {n: tc.Feats(p) for n, p in self.pools.items()}
        self.fold = {n: tc.folds(len(self.pools[n].questions), n) for n in tc.TRAIN}
        self.bridges = bridge_pairs(self.pools["musique_train100"])

    def x(self, name: str, triples: list, v: dict) -> np.ndarray:
        x = self.feats[name].matrix(triples, ())
        if v.get("extra"):
            x = np.concatenate([x, v["extra"](self.pools[name], triples)], axis=1)
        return x[:, v["cols"]] if v.get("cols") else x

    def rows(self, name: str, questions: set, seed: int, v: dict) -> list[int]:
        pool = self.pools[name]
        rows = balanced_rows(pool, questions, seed, v.get("neg", 3.0), v.get("walk", 0.5))
        if v.get("labels") == "bridge" and name == "musique_train100":  # other gold pairs: left out
            rows = [r for r in rows if not pool.label[r] or (pool.i1[r], pool.i2[r]) in self.bridges[pool.qi[r]]]
        return rows

    def fit(self, questions: dict[str, set], seed: int, v: dict):
        from sklearn.ensemble import HistGradientBoostingClassifier

        xs, ys, ws = [], [], []
        for name, qs in questions.items():
            pool, rows = self.pools[name], self.rows(name, qs, seed, v)
            xs.append(self.x(name, tc.triples_of(pool, rows), v))
            ys.append(np.array([pool.label[r] for r in rows]))
            ws.append(np.full(len(rows), v.get("weight", {}).get(name, 1.0)))
        x, y, w = np.concatenate(xs), np.concatenate(ys), np.concatenate(ws)
        balance = np.where(y == 1, len(y) / (2 * y.sum()), len(y) / (2 * (len(y) - y.sum())))
        trees = HistGradientBoostingClassifier(random_state=seed, **{**GBM_PARAMS, **v.get("trees", {})})
        trees.fit(x, y, sample_weight=balance * w)
        if not v.get("mlp"):
            return lambda m: trees.predict_proba(m)[:, 1]
        mlp, _, _ = fit_model(x, y, hidden=(32,), alpha=1.0, seed=seed, meta={"vector_blocks": [], "dim": 384})
        return lambda m: 0.5 * trees.predict_proba(m)[:, 1] + 0.5 * mlp.forward(m)

    def report(self, name: str, questions: list[int], scores: dict) -> dict:
        pool = self.pools[name]
        top = tot = 0
        for q in questions:
            for d1 in pool.static[q][:2]:
                walk = [t for t in scores if t[0] == q and t[1] == d1]
                if d1 in pool.gold[q] and any(t[2] in pool.gold[q] for t in walk):
                    tot += 1
                    top += max(walk, key=scores.__getitem__)[2] in pool.gold[q]
        return {"recall": [simulate_cfs(pool, questions, scores, k, THRESHOLD)["recall"] for k in KS],
                "docs_k4": simulate_cfs(pool, questions, scores, 4, THRESHOLD)["docs"], "top1": f"{top}/{tot}"}

    def with_composed(self, v: dict) -> dict:
        """v ready to fit: the composed questions' pool and folds (their source question's)
        loaded when v asks for them, at v's weight."""
        if not v.get("composed"):
            return v
        if "musique_composed" not in self.pools:
            pool, source = composed_pool()
            self.pools[pool.name], self.feats[pool.name] = pool, tc.Feats(pool)
            self.fold[pool.name] = {q: self.fold["musique_train100"][s] for q, s in enumerate(source)}
        return {**v, "weight": {**v.get("weight", {}), "musique_composed": v["composed"]}}

    def training(self, v: dict, held_out: int | None) -> dict[str, set]:
        names = tc.TRAIN + (["musique_composed"] if v.get("composed") else [])
        return {n: {q for q, g in self.fold[n].items() if g != held_out} for n in names}

    def oof_scores(self, v: dict, names: tuple[str, ...] = tuple(tc.TRAIN)) -> dict[str, dict]:
        """Every CFS walk triple of the sets ``names`` scored by the fold model that never saw
        its question."""
        v = self.with_composed(v)
        scores: dict[str, dict] = {n: {} for n in names}
        for f in range(tc.FOLDS):
            model = self.fit(self.training(v, f), f, v)
            for n in names:
                triples = cfs_triples(self.pools[n], sorted(q for q, g in self.fold[n].items() if g == f))
                scores[n].update(zip(triples, model(self.x(n, triples, v)), strict=True))
        return scores

    def out_of_fold(self, v: dict) -> dict:
        scores = self.oof_scores(v)
        return {n: self.report(n, sorted(self.fold[n]), scores[n]) for n in tc.TRAIN}

    def test(self, v: dict) -> dict:
        v = self.with_composed(v)
        model = self.fit(self.training(v, None), 0, v)
        out = {}
        for n in tc.TEST:
            questions = list(range(len(self.pools[n].questions)))
            triples = cfs_triples(self.pools[n], questions)
            out[n] = self.report(n, questions, dict(zip(triples, model(self.x(n, triples, v)), strict=True)))
        return out


def bridge_cues(bench: Bench) -> None:
    """Of every (gold static d1, gold candidate d2) pair CFS meets, the share with a lexical
    cue the features can see: d2's title in d1's text or the reverse, a shared name, or
    d2's title in the question (and the same share among the non-gold candidates)."""
    col = {s: i for i, s in enumerate(SCALAR_FEATURES)}
    for name, pool in bench.pools.items():
        qs = range(len(pool.questions))
        triples = [t for t in cfs_triples(pool, qs) if t[1] in pool.gold[t[0]]]
        x = bench.feats[name].matrix(triples, ())
        cue = (x[:, col["t2_in_1"]] > 0) | (x[:, col["t1_in_2"]] > 0) | (x[:, col["t2_in_q"]] > 0)
        cue |= shared_names(pool, triples)[:, 0] > 0
        gold = np.array([t[2] in pool.gold[t[0]] for t in triples])
        share = {"gold_with_cue": round(float(cue[gold].mean()), 3),
                 "other_with_cue": round(float(cue[~gold].mean()), 3)}
        print(json.dumps({"set": name, "gold_pairs": int(gold.sum()), **share}), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", default="", help="comma-separated variant names (default: all)")
    parser.add_argument("--test", action="store_true", help="also replay the test sets (for the record)")
    parser.add_argument("--bridges", action="store_true", help="only the share of gold pairs with a lexical cue")
    args = parser.parse_args()
    names = [n for n in args.only.split(",") if n] or list(VARIANTS)
    unknown = sorted(set(names) - set(VARIANTS))
    if unknown:
        sys.exit(f"error: unknown variant {', '.join(unknown)} (choose from {', '.join(VARIANTS)})")
    bench = Bench()
    if args.bridges:
        return bridge_cues(bench)
    for name in names:
        row = {"variant": name, "out_of_fold": bench.out_of_fold(VARIANTS[name])}
        if args.test:
            row["test"] = bench.test(VARIANTS[name])
        print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
