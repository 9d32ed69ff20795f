"""Training pairs for C(q, d1, d2), mined the way CFS meets them — with the product's own
retrieval.

For each labelled question the pipeline is replayed on a real index of the dataset's
paragraphs (:func:`drrag_cli.index.paragraphs.index_paragraphs`: the same tantivy BM25,
hnswlib HNSW and RRF fusion as ``drrag ask``), and every ranked list is recorded, so the
simulation (:mod:`drrag_cli.select.simulate`) can replay QDC, CFS and CIS through the
product's own selection core on exactly the lists the product would see:

* static docs = the first-stage ranking for q (top ``max(n_static, 10)``);
* for each static doc, each gold paragraph and a few random context paragraphs d1,
  q*_1 = concat_query(q, d1) retrieves a list (deep enough for a CFS walk); the top
  ``pair_depth`` candidates d2 ≠ d1 give realistic pairs (label: d1 and d2 both gold);
* the paper's random pairs from the question's own context are added:
  (gold, non-gold), (non-gold, gold), (non-gold, non-gold);
* each d1's linked paragraphs (its text names their titles, :mod:`drrag_cli.index.links`)
  give pairs too, as CFS offers them beside the q* list;
* every document of a QDC context (k = 3, 4, 6) gets its q* embedding too, as CIS needs.

Vectors are the index's stored ones and the question / q* embeddings come from the
index's embedder, as in the product.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from drrag_cli.errors import InputError
from drrag_cli.index.paragraphs import key_of
from drrag_cli.retrieve.concat import concat_query
from drrag_cli.select import core
from drrag_cli.types import Paragraph, QAExample

if TYPE_CHECKING:
    from drrag_cli.index.api import Index

KS: tuple[int, ...] = (3, 4, 6)  # the k the simulation replays (and chooses thresholds over)
WALK_DEPTH = 20  # CFS's walk depth (retrieval.depth) the recorded q* lists must cover


@dataclass
class PairPool:
    """All mined pairs of one dataset, with the lists and vectors the simulation replays."""

    name: str
    questions: list[str]
    gold: list[set[int]]  # corpus indices of each question's gold paragraphs
    corpus: list[Paragraph]
    corpus_vecs: np.ndarray  # the index's stored vectors, in corpus order
    q_vecs: np.ndarray
    mode: str = "hybrid"  # the first-stage mode the lists were retrieved with
    focus: int = 0  # retrieval.qstar_focus the q* texts were built with
    qstar: dict[tuple[int, int], np.ndarray] = field(default_factory=dict)  # (q, d1) -> emb(q*_1)
    static: list[list[int]] = field(default_factory=list)  # first-stage ranking per q
    qstar_lists: dict[tuple[int, int], list[int]] = field(default_factory=dict)  # (q, d1) -> q*_1's ranking
    links: dict[int, list[int]] = field(default_factory=dict)  # d1 -> the paragraphs it links to (index/links.py)
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


class _Lists:
    """The index seen in corpus indices: ranked lists and vectors, batched embeddings."""

    def __init__(self, index: Index, corpus: Sequence[Paragraph], mode: str) -> None:
        position = {p.key: i for i, p in enumerate(corpus)}
        self.index, self.mode = index, mode
        self.pid_of: dict[int, int] = {}
        self.idx_of: dict[int, int] = {}
        ids = [row[0] for row in index.store.all_passages()]
        for pid, passage in sorted(index.passages(ids).items()):
            i = position.get(key_of(passage.source))
            if i is not None and i not in self.pid_of:
                self.pid_of[i], self.idx_of[pid] = pid, i
        missing = len(corpus) - len(self.pid_of)
        if missing:
            raise InputError(f"{missing} paragraphs are not in the index given for mining; index the dataset's corpus")

    def vectors(self) -> np.ndarray:
        return np.asarray(self.index.vectors([self.pid_of[i] for i in range(len(self.pid_of))]), dtype=np.float32)

    def ranked(self, text: str, vec: np.ndarray | None, n: int) -> list[int]:
        return [self.idx_of[pid] for pid, _ in self.index.ranked(text, self.mode, n, vec=vec) if pid in self.idx_of]

    def links(self) -> dict[int, list[int]]:
        """Corpus index → the paragraphs it links to (each paragraph is one document)."""
        found = self.index.linked(list(self.idx_of))
        return {
            self.idx_of[pid]: [self.idx_of[doc[0]] for doc in docs if doc and doc[0] in self.idx_of]
            for pid, docs in found.items()
            if pid in self.idx_of
        }

    def embed(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, 0), dtype=np.float32)
        return np.asarray(self.index.embed(texts), dtype=np.float32)


def mine_pairs(
    name: str,
    examples: Sequence[QAExample],
    corpus: Sequence[Paragraph],
    index: Index,
    *,
    mode: str = "hybrid",
    n_static: int = 4,
    pair_depth: int = 10,
    n_random: int = 2,
    seed: int = 0,
    focus: int = 0,
    progress: Callable[[str], None] | None = None,
) -> PairPool:
    """Replay the first stage and the q* walks for every example on ``index`` (an index of
    ``corpus``: :func:`drrag_cli.index.paragraphs.index_paragraphs`); collect labelled pairs."""
    say = progress or (lambda _msg: None)
    rng = random.Random(seed)
    corpus = list(corpus)
    if not corpus or not examples:
        raise InputError(f"{name}: no questions or no paragraphs to mine training pairs from")
    lists = _Lists(index, corpus, mode)
    position = {p.key: i for i, p in enumerate(corpus)}
    say(f"{name}: embedding {len(examples)} questions")
    qvecs = lists.embed([ex.question for ex in examples])
    gold = [{position[k] for k in ex.gold_keys if k in position} for ex in examples]
    pool = PairPool(name, [ex.question for ex in examples], gold, corpus, lists.vectors(), qvecs, mode, focus)
    pool.links = lists.links()
    d1s: list[list[int]] = []
    for qi, ex in enumerate(examples):
        static = lists.ranked(ex.question, qvecs[qi] if mode != "bm25" else None, max(n_static, 10))
        pool.static.append(static)
        own = [position[p.key] for p in ex.paragraphs if p.key in position]
        others = [i for i in own if i not in gold[qi] and i not in static[:n_static]]
        extra = rng.sample(others, min(n_random, len(others)))
        d1s.append(list(dict.fromkeys(sorted(gold[qi]) + static[:n_static] + extra)))
    _record_qstar(pool, lists, [(qi, d1) for qi, ds in enumerate(d1s) for d1 in ds], n_static, say)
    # CIS scores every pair of a QDC context, each led by its own q*: embed the missing ones
    ctx_jobs = [
        (qi, d)
        for qi in range(len(examples))
        for k in KS
        for d in qdc_context(pool, qi, k)
        if (qi, d) not in pool.qstar
    ]
    _record_qstar(pool, lists, list(dict.fromkeys(ctx_jobs)), n_static, say, lists_too=False)
    seen: set = set()
    for qi, ds in enumerate(d1s):
        for d1 in ds:
            for d2 in [d for d in pool.qstar_lists[(qi, d1)] if d != d1][:pair_depth]:
                pool.add(qi, d1, d2, "walk", seen)
            for d2 in pool.links.get(d1, [])[:pair_depth]:  # CFS offers linked documents too
                pool.add(qi, d1, d2, "link", seen)
    _random_pairs(pool, examples, position, rng, seen)
    say(f"{name}: {len(pool.label)} pairs, {sum(pool.label)} positive")
    return pool


def _record_qstar(
    pool: PairPool,
    lists: _Lists,
    jobs: list[tuple[int, int]],
    n_static: int,
    say: Callable[[str], None],
    lists_too: bool = True,
) -> None:
    """Embed q*_1 = concat_query(q, d1) for each (q, d1) and, with ``lists_too``, record
    its ranked list, deep enough for any CFS walk (depth + the static documents)."""
    if not jobs:
        return
    say(f"{pool.name}: embedding {len(jobs)} concatenated queries q*")
    texts = [
        concat_query(pool.questions[qi], pool.corpus[d1].title, pool.corpus[d1].text, pool.focus) for qi, d1 in jobs
    ]
    vecs = lists.embed(texts) if pool.mode != "bm25" else [None] * len(texts)
    for (qi, d1), text, vec in zip(jobs, texts, vecs, strict=True):
        pool.qstar[(qi, d1)] = vec
        if lists_too:
            pool.qstar_lists[(qi, d1)] = lists.ranked(text, vec, WALK_DEPTH + max(n_static, max(KS)))


def _random_pairs(
    pool: PairPool, examples: Sequence[QAExample], position: dict[str, int], rng: random.Random, seen: set
) -> None:
    """The paper's pairs from the question's own context: every ordered (gold, gold), and
    (gold, non-gold), (non-gold, gold), (non-gold, non-gold) samples."""
    for qi, ex in enumerate(examples):
        g = sorted(pool.gold[qi])
        for a in g:
            for b in g:
                pool.add(qi, a, b, "gold", seen)
        own = [position[p.key] for p in ex.paragraphs if p.key in position]
        non = [i for i in own if i not in pool.gold[qi]]
        non_d1 = [i for i in non if (qi, i) in pool.qstar_lists]
        for a in g:
            for b in rng.sample(non, min(2, len(non))):
                pool.add(qi, a, b, "random", seen)
        for a in non_d1:
            for b in g + rng.sample(non, min(2, len(non))):
                pool.add(qi, a, b, "random", seen)


def qdc_context(pool: PairPool, q: int, k: int) -> list[int]:
    """The QDC context the product builds for question q at k (select.core.qdc_select
    over the recorded lists, each cut to the depth QDC retrieves)."""
    statics = pool.static[q][: core.resolve_k1(k)]
    lists = [pool.qstar_lists[(q, d1)][: core.qstar_depth(k)] for d1 in statics]
    return statics + [pid for pid, _ in core.qdc_select(statics, lists, k)]


def triple_features(
    pool: PairPool,
    triples: Sequence[tuple[int, int, int]],
    blocks: Sequence[str],
    fallback: Sequence[float] | None = None,
) -> np.ndarray:
    """Features of (question, d1, d2) index triples through ``build_features``, the
    classifier's own inference path, grouped by question. With ``fallback`` the q*
    embedding is replaced by its approximation, to measure what callers without it lose.
    """
    from drrag_cli.select.features import SCALAR_FEATURES, build_features, qstar_fallback

    width = len(SCALAR_FEATURES) + pool.corpus_vecs.shape[1] * len(blocks)
    out = np.zeros((len(triples), width))
    by_q: dict[int, list[int]] = {}
    for pos, t in enumerate(triples):
        by_q.setdefault(t[0], []).append(pos)
    c = pool.corpus
    for q, positions in by_q.items():
        a = [triples[p][1] for p in positions]
        b = [triples[p][2] for p in positions]
        v1, v2 = pool.corpus_vecs[a], pool.corpus_vecs[b]
        if fallback is None:
            s = np.stack([pool.qstar[(q, i)] for i in a])
        else:
            s = qstar_fallback(pool.q_vecs[q].astype(np.float64), v1.astype(np.float64), fallback)
        out[positions] = build_features(
            pool.questions[q], pool.q_vecs[q], [c[i].title for i in a], [c[i].text for i in a],
            v1, [c[i].title for i in b], [c[i].text for i in b], v2, s, blocks,
        )  # fmt: skip
    return out


def pool_features(
    pool: PairPool, rows: Sequence[int], blocks: Sequence[str], fallback: Sequence[float] | None = None
) -> np.ndarray:
    """Feature matrix for rows of the pool's pair lists."""
    triples = [(pool.qi[r], pool.i1[r], pool.i2[r]) for r in rows]
    return triple_features(pool, triples, blocks, fallback)
