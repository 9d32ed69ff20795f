"""Training's simulation and the product select the same documents for the same probabilities.

The bridge corpus is indexed as a dataset (one passage per paragraph), pairs are mined
on that index, and for every k and rule the simulated QDC / CFS / CIS context (built
from the recorded lists by :mod:`drrag_cli.select.simulate`) is compared with what
``Pipeline.retrieve`` selects on the same index — once with the shipped classifier and
once with a classifier whose probabilities are arbitrary but fixed, so many different
decisions are exercised.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest

from drrag_cli.config import Settings
from drrag_cli.index.api import Index
from drrag_cli.index.paragraphs import index_paragraphs, key_of
from drrag_cli.pipeline import Pipeline
from drrag_cli.select import simulate
from drrag_cli.select.classifier import RelevanceClassifier
from drrag_cli.select.mining import mine_pairs, qdc_context
from drrag_cli.types import Paragraph, QAExample
from tests.retrieve.bridge_corpus import DOCS, QUESTION


class FixedRandom:
    """C(q, d1, d2) = a fixed pseudo-random number per (d1, d2) title pair."""

    threshold = 0.5
    thresholds = {"first": 0.5, "best": 0.35, "cis": 0.3}

    def predict(self, question: str, q_vec: Any, pairs: Sequence, qstar_vecs: Any = None) -> np.ndarray:
        digest = [hashlib.sha1(f"{a.title}|{b.title}".encode()).digest()[0] / 255 for a, b in pairs]
        return np.asarray(digest, dtype=np.float64)


def paragraphs() -> list[Paragraph]:
    out = []
    for text in DOCS.values():
        head, _, body = text.partition("\n\n")
        out.append(Paragraph(head.lstrip("# ").strip(), body.strip()))
    return out


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, Index, Settings, list[Paragraph]]:
    cache = tmp_path_factory.mktemp("sim-cache")
    mp = pytest.MonkeyPatch()
    mp.setenv("XDG_CACHE_HOME", str(cache))
    # named hops (select/bridges.py) are kept outside the classifier, which is what the
    # training's replay chooses thresholds for: the replay and the product agree without them
    settings = Settings().replace({"index.chunk_words": 1000, "retrieval.named_hops": False})
    corpus = paragraphs()
    path, _ = index_paragraphs(corpus, settings, "bridge")
    index = Index.open(settings, path)
    gold = [p.key for p in corpus if p.title in ("Project Heron", "Tobias Lindqvist")]
    ex = QAExample("q0", QUESTION, ["Uppsala"], corpus, gold, ["Project Heron", "Tobias Lindqvist"])
    pool = mine_pairs("bridge", [ex], corpus, index)
    yield pool, index, settings, corpus
    mp.undo()


def product(index: Index, settings: Settings, classifier: Any, corpus: list[Paragraph], spec: str, k: int) -> list[int]:
    position = {p.key: i for i, p in enumerate(corpus)}
    result = Pipeline(settings, index=index, classifier=classifier).retrieve(QUESTION, spec, k=k)
    return sorted(position[key_of(d.passage.source)] for d in result.documents)  # fed in hop order


@pytest.mark.parametrize("which", ["shipped", "fixed-random"])
def test_simulated_and_real_selection_agree(world, which: str) -> None:  # noqa: ANN001
    pool, index, settings, corpus = world
    clf = RelevanceClassifier.load() if which == "shipped" else FixedRandom()
    scores = simulate.cfs_scores(pool, clf, [0])
    for k in (2, 3, 4, 6):
        assert product(index, settings, clf, corpus, "qdc", k) == sorted(qdc_context(pool, 0, k))
        for rule in ("first", "best"):
            ruled = settings.replace({"retrieval.cfs_rule": rule})
            real = product(index, ruled, clf, corpus, "cfs", k)
            sim = simulate.cfs_context(pool, 0, scores, k, clf.thresholds.get(rule, clf.threshold), rule)
            assert real == sorted(sim), (k, rule)
        ctx, probs = simulate.cis_pairs(pool, clf, 0, k)
        sim_cis = simulate.cis_context(ctx, probs, clf.thresholds["cis"])
        assert product(index, settings, clf, corpus, "cis", k) == sorted(sim_cis), k


def test_recorded_lists_are_the_products_lists(world) -> None:  # noqa: ANN001
    pool, index, settings, corpus = world
    position = {p.key: i for i, p in enumerate(corpus)}
    ranked = index.ranked(QUESTION, "hybrid", 5)
    firsts = [position[key_of(p.source)] for p in index.passages([pid for pid, _ in ranked]).values()]
    assert sorted(pool.static[0][:5]) == sorted(firsts)
    assert pool.qstar and all(v is not None for v in pool.qstar.values())
