"""DSLR: sentence-level refinement of the selected passages (SPEC §4, paper 001).

    scorer = DenseScorer(index.embed)
    refined = refine_dslr(question, passages, scorer, threshold=0.3)
    refined.passages          # what the LLM reads: same passages, fewer sentences

Each passage is split into sentences (the spaCy sentencizer that chunking uses), every
sentence is scored against the question, sentences under the threshold are dropped and
the passage is rebuilt from the kept sentences **in their original order** (the paper's
reconstruction step: order carries the narrative that a bridge fact depends on).

A passage with no sentence over the threshold is never dropped silently: with
``empty="keep-best"`` its single best sentence stays; with ``empty="drop"`` it leaves the
context and :attr:`RefineResult.dropped` says so (the CLI prints it, eval counts it).

The threshold is absolute. The paper sets it to a percentile of the scores seen on sample
data; :func:`calibrate_threshold` computes that from scores (``drrag eval
--calibrate-dslr P`` runs it over a dataset's retrieved passages).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from drrag_cli.errors import InputError
from drrag_cli.types import Passage

if TYPE_CHECKING:
    import numpy as np



class SentenceScorer(Protocol):
    """Scores sentences against a question; higher = more relevant. Any ranking model fits."""

    def score(self, question: str, sentences: Sequence[str]) -> list[float]: ...


class DenseScorer:
    """Cosine similarity of question and sentence with the index's embedding model.

    The vectors are L2-normalised by the embedder, so the dot product is the cosine.
    """

    def __init__(self, embed: Callable[[Sequence[str]], np.ndarray]) -> None:
        self.embed = embed

    def score(self, question: str, sentences: Sequence[str]) -> list[float]:
        if not sentences:
            return []
        vecs = self.embed([question, *sentences])
        return [float(v) for v in vecs[1:] @ vecs[0]]


@dataclass
class RefinedPassage:
    original: Passage
    sentences: list[str]
    scores: list[float]
    kept: list[int]  # indices into `sentences`, ascending (original order)
    rescued: bool = False  # nothing passed the threshold; the best sentence was kept
    dropped: bool = False  # nothing passed the threshold and empty="drop"

    @property
    def text(self) -> str:
        return " ".join(self.sentences[i] for i in self.kept)

    def to_json(self) -> dict:
        return self.original.to_json(
            sentences=len(self.sentences),
            kept=self.kept,
            scores=[round(s, 4) for s in self.scores],
            rescued=self.rescued,
            dropped=self.dropped,
        )


@dataclass
class RefineResult:
    passages: list[Passage]  # the refined passages, in the input order, dropped ones left out
    details: list[RefinedPassage]
    threshold: float
    tokens_before: int
    tokens_after: int
    notes: list[str] = field(default_factory=list)  # one line per passage rescued or dropped
    seconds: float = 0.0

    @property
    def dropped(self) -> list[Passage]:
        return [d.original for d in self.details if d.dropped]

    def to_json(self) -> dict:
        return {
            "method": "dslr",
            "threshold": round(self.threshold, 4),
            "tokens_before": self.tokens_before,
            "tokens_after": self.tokens_after,
            "sentences_before": sum(len(d.sentences) for d in self.details),
            "sentences_after": sum(len(d.kept) for d in self.details if not d.dropped),
            "notes": self.notes,
            "passages": [d.to_json() for d in self.details],
        }


def split_sentences(text: str) -> list[str]:
    from drrag_cli.ingest.chunking import sentence_spans

    return [text[a:b] for a, b in sentence_spans(text)]


def word_count(text: str) -> int:
    return len(text.split())


def refine_dslr(
    question: str,
    passages: Sequence[Passage],
    scorer: SentenceScorer,
    threshold: float,
    *,
    empty: str = "keep-best",
    count_tokens: Callable[[str], int] = word_count,
    min_sentences: int = 1,
) -> RefineResult:
    """Drop the sentences scoring under ``threshold``; rebuild each passage in order.

    Each kept passage holds at least its ``min_sentences`` best sentences: question
    similarity undervalues the second-hop sentence that carries the answer but not the
    question's words, and a floor of two keeps it far more often (docs/BENCHMARKS.md).
    """
    split = [split_sentences(p.text) or [p.text] for p in passages]
    flat = [s for sents in split for s in sents]
    scores = scorer.score(question, flat) if flat else []
    details, out, notes, at = [], [], [], 0
    for p, sents in zip(passages, split, strict=True):
        mine = scores[at : at + len(sents)]
        at += len(sents)
        passing = [i for i, s in enumerate(mine) if s >= threshold]
        kept = passing
        if passing or empty == "keep-best":  # the floor: each kept passage's best min_sentences
            ranked = sorted(range(len(mine)), key=lambda i: (-mine[i], i))
            kept = sorted(set(passing) | set(ranked[:min_sentences]))
        d = RefinedPassage(p, sents, mine, kept)
        if not passing:
            best = max(range(len(mine)), key=lambda i: (mine[i], -i))
            where = f"passage {p.passage_id} ({p.title or p.source})"
            if empty == "drop":
                d.dropped = True
                notes.append(f"dslr dropped {where}: best sentence scored {mine[best]:.3f} < {threshold:.3f}")
            else:
                d.rescued = True
                notes.append(f"dslr kept only the best sentence(s) of {where} ({mine[best]:.3f} < {threshold:.3f})")
        details.append(d)
        if not d.dropped:
            out.append(dataclasses.replace(p, text=d.text))
    before = sum(count_tokens(p.text) for p in passages)
    after = sum(count_tokens(p.text) for p in out)
    return RefineResult(out, details, threshold, before, after, notes)


def calibrate_threshold(scores: Iterable[float], percentile: float) -> float:
    """The ``percentile``-th percentile (0–100) of sentence scores: the paper's T."""
    import numpy as np

    values = np.asarray(list(scores), dtype=float)
    if not 0 <= percentile <= 100:
        raise InputError(f"the DSLR calibration percentile must be between 0 and 100 (got {percentile:g})")
    if values.size == 0:
        raise InputError("no sentences to calibrate the DSLR threshold on (did retrieval return nothing?)")
    return float(np.percentile(values, percentile))


SCORERS: dict[str, Callable[[Callable[[Sequence[str]], np.ndarray]], SentenceScorer]] = {"dense": DenseScorer}


def make_scorer(name: str, embed: Callable[[Sequence[str]], np.ndarray]) -> SentenceScorer:
    """The ``refine.scorer`` named (validated with the config: config.RefineSettings)."""
    return SCORERS[name](embed)
