"""Training pairs for C(q, d1, d2), mined the way CFS meets them.

For each labelled question the pipeline is replayed over the dataset's own corpus with an
in-memory hybrid retriever (BM25 over title + text fused with dense cosine by reciprocal
rank fusion, like the index's first stage):

* static docs = top ``n_static`` for q; every gold paragraph also acts as a static doc,
  so (gold, gold) pairs always come with a real q* embedding;
* for each static doc d1, q*_1 = concat_query(q, d1) retrieves a list; its top
  ``pair_depth`` candidates d2 give realistic pairs (label: d1 and d2 both gold);
* the paper's random pairs from the question's own context are added:
  (gold, non-gold), (non-gold, gold), (non-gold, non-gold).

Embedding is the only expensive step; every text goes through ``embedder.encode`` once.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from drrag_cli.errors import InputError
from drrag_cli.evaluate.datasets import Paragraph, QAExample
from drrag_cli.index.embedder import passage_embed_text
from drrag_cli.retrieve.concat import concat_query

RRF_K = 60
_TERM = re.compile(r"[^\W_]+")


def _terms(text: str) -> list[str]:
    """Lowercase terms with a light plural strip (tantivy's en_stem does more)."""
    out = []
    for t in _TERM.findall(text.lower()):
        if len(t) > 3 and t.endswith("s") and not t.endswith("ss"):
            t = t[:-1]
        out.append(t)
    return out


class HybridRetriever:
    """BM25 (title boosted ×2, k1=1.2, b=0.75) + dense cosine, fused by RRF (k=60)."""

    def __init__(self, corpus: Sequence[Paragraph], vecs: np.ndarray, depth: int = 100) -> None:
        from scipy import sparse

        self.vecs = np.asarray(vecs, dtype=np.float32)
        self.depth = depth
        self.vocab: dict[str, int] = {}
        mats = []
        for field_texts in ([p.title for p in corpus], [p.text for p in corpus]):
            rows, cols, vals = [], [], []
            lengths = np.zeros(len(corpus))
            for i, text in enumerate(field_texts):
                toks = _terms(text)
                lengths[i] = len(toks)
                counts: dict[int, int] = {}
                for t in toks:
                    j = self.vocab.setdefault(t, len(self.vocab))
                    counts[j] = counts.get(j, 0) + 1
                rows += [i] * len(counts)
                cols += list(counts)
                vals += list(counts.values())
            mats.append((rows, cols, vals, lengths))
        n, v = len(corpus), len(self.vocab)
        fields = []
        for boost, (rows, cols, vals, lengths) in zip((2.0, 1.0), mats, strict=True):
            tf = sparse.csr_matrix((np.asarray(vals, float), (rows, cols)), shape=(n, v))
            df = np.bincount(np.asarray(cols, dtype=np.int64), minlength=v)
            idf = np.log(1 + (n - df + 0.5) / (df + 0.5))
            norm = 1.2 * (0.25 + 0.75 * lengths / max(lengths.mean(), 1e-9))
            tf = tf.tocoo()
            w = tf.data * 2.2 / (tf.data + norm[tf.row]) * idf[tf.col] * boost
            fields.append(sparse.csr_matrix((w, (tf.row, tf.col)), shape=(n, v)))
        self.weights = (fields[0] + fields[1]).tocsc()

    def bm25(self, text: str) -> np.ndarray:
        ids = [self.vocab[t] for t in set(_terms(text)) if t in self.vocab]
        if not ids:
            return np.zeros(self.vecs.shape[0])
        return np.asarray(self.weights[:, ids].sum(axis=1)).ravel()

    def search(self, text: str, vec: np.ndarray, n: int,
               exclude: set[int] | frozenset[int] = frozenset()) -> list[int]:
        """Top-n corpus indices by RRF of BM25(text) and cosine(vec)."""
        fused: dict[int, float] = {}
        lexical = self.bm25(text)
        dense = self.vecs @ np.asarray(vec, np.float32)
        for scores, lists_zero in ((lexical, False), (dense, True)):
            top = np.argsort(-scores, kind="stable")[: self.depth]
            for rank, i in enumerate(top):
                if lists_zero or scores[i] > 0:  # BM25 lists only matching passages
                    fused[int(i)] = fused.get(int(i), 0.0) + 1.0 / (RRF_K + rank + 1)
        order = sorted(fused, key=lambda i: (-fused[i], i))
        return [i for i in order if i not in exclude][:n]


@dataclass
class PairPool:
    """All mined pairs of one dataset, with the vectors their features need."""

    name: str
    questions: list[str]
    gold: list[set[int]]  # corpus indices of each question's gold paragraphs
    corpus: list[Paragraph]
    corpus_vecs: np.ndarray
    q_vecs: np.ndarray
    qstar: dict[tuple[int, int], np.ndarray] = field(default_factory=dict)
    static: list[list[int]] = field(default_factory=list)  # first-stage ranking per q
    walks: dict[tuple[int, int], list[int]] = field(default_factory=dict)
    qi: list[int] = field(default_factory=list)
    i1: list[int] = field(default_factory=list)
    i2: list[int] = field(default_factory=list)
    label: list[int] = field(default_factory=list)
    source: list[str] = field(default_factory=list)  # 'gold' | 'walk' | 'random'

    def add(self, q: int, a: int, b: int, source: str, seen: set) -> None:
        if a == b or (q, a, b) in seen:
            return
        seen.add((q, a, b))
        self.qi.append(q)
        self.i1.append(a)
        self.i2.append(b)
        self.label.append(int(a in self.gold[q] and b in self.gold[q]))
        self.source.append(source)


def mine_pairs(
    name: str,
    examples: Sequence[QAExample],
    corpus: Sequence[Paragraph],
    encode: Callable[[list[str]], np.ndarray],
    *,
    n_static: int = 4,
    pair_depth: int = 10,
    walk_depth: int = 20,
    n_random: int = 2,
    seed: int = 0,
    progress: Callable[[str], None] | None = None,
) -> PairPool:
    """Replay the first stage and the q* walks for every example; collect labelled pairs."""
    say = progress or (lambda _msg: None)
    rng = random.Random(seed)
    corpus = list(corpus)
    if not corpus or not examples:
        raise InputError(f"{name}: no questions or no paragraphs to mine training pairs from")
    index = {p.key: i for i, p in enumerate(corpus)}
    say(f"{name}: embedding {len(corpus)} passages")
    cvecs = encode([passage_embed_text(p.title, p.text) for p in corpus])
    qvecs = encode([ex.question for ex in examples])
    retriever = HybridRetriever(corpus, cvecs)
    gold = [{index[k] for k in ex.gold_keys if k in index} for ex in examples]
    pool = PairPool(name, [ex.question for ex in examples], gold, corpus, cvecs, qvecs)
    d1s: list[list[int]] = []
    for qi, ex in enumerate(examples):
        static = retriever.search(ex.question, qvecs[qi], max(n_static, 10))
        pool.static.append(static)
        ctx = [index[p.key] for p in ex.paragraphs if p.key in index]
        others = [i for i in ctx if i not in gold[qi] and i not in static[:n_static]]
        extra = rng.sample(others, min(n_random, len(others)))
        d1s.append(list(dict.fromkeys(sorted(gold[qi]) + static[:n_static] + extra)))
    jobs = [(qi, d1) for qi, ds in enumerate(d1s) for d1 in ds]
    say(f"{name}: embedding {len(jobs)} concatenated queries q*")
    texts = [concat_query(examples[qi].question, corpus[d1].title, corpus[d1].text)
             for qi, d1 in jobs]
    svecs = encode(texts)
    seen: set = set()
    for (qi, d1), text, svec in zip(jobs, texts, svecs, strict=True):
        pool.qstar[(qi, d1)] = svec
        walk = retriever.search(text, svec, walk_depth, exclude={d1})
        pool.walks[(qi, d1)] = walk
        for d2 in walk[:pair_depth]:
            pool.add(qi, d1, d2, "walk", seen)
    for qi, ex in enumerate(examples):
        g = sorted(gold[qi])
        for a in g:
            for b in g:
                pool.add(qi, a, b, "gold", seen)
        ctx = [index[p.key] for p in ex.paragraphs if p.key in index]
        non = [i for i in ctx if i not in gold[qi]]
        non_d1 = [i for i in non if (qi, i) in pool.qstar]
        for a in g:
            for b in rng.sample(non, min(2, len(non))):
                pool.add(qi, a, b, "random", seen)
        for a in non_d1:
            for b in g + rng.sample(non, min(2, len(non))):
                pool.add(qi, a, b, "random", seen)
    say(f"{name}: {len(pool.label)} pairs, {sum(pool.label)} positive")
    return pool
