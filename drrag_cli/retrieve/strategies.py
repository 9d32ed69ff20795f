"""Retrieval strategies with one signature, chosen by name (SPEC §3).

    result = get_strategy("cfs").run(question, index, settings)

* bm25 / sm / hybrid: one ranked list, top k.
* qdc: k1 static docs from the first stage; for each, q*_i = q + d_i retrieves a list and
  the first result not yet in the context joins it (round-robin until k documents).
* cfs: like qdc, but each q*_i list is walked (≤ depth) and a candidate d_j joins only if
  the relevance classifier says C(q, d_i, d_j) ≥ threshold; the first `per_static`
  positives per d_i are kept (rule `first`, the paper's). Rule `best` keeps the most
  probable candidates of the list instead (with the model's lower `best` threshold).
  May feed fewer than k documents — by design.
* cis: the qdc context, then every pair scored by C; a document whose pairs with all
  the others are negative is dropped.

Each returns the selected passages plus a trace of every stage for --explain / --json.
The q* lists use the first-stage retriever (hybrid by default): BM25 over q* sees the
bridge entity's name, which dense-only q* retrieval often misses.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from drrag_cli.config import Settings
from drrag_cli.errors import InputError
from drrag_cli.retrieve.concat import concat_query
from drrag_cli.types import Passage

if TYPE_CHECKING:
    import numpy as np

    from drrag_cli.index.api import Index

STRATEGIES = ("bm25", "sm", "hybrid", "qdc", "cfs", "cis")
FIRST_STAGE_MODES = {"hybrid": "hybrid", "dense": "dense", "sm": "dense", "bm25": "bm25"}


@dataclass
class Selected:
    passage: Passage
    stage: str  # "first-stage" | "static" | "dynamic"
    score: float  # retrieval score in the list it came from
    classifier_prob: float | None = None
    via: int | None = None  # for dynamic docs: the static passage id whose q* found it


@dataclass
class RetrievalResult:
    strategy: str
    question: str
    documents: list[Selected]
    trace: dict[str, Any] = field(default_factory=dict)
    timings: dict[str, float] = field(default_factory=lambda: {"retrieve_s": 0.0, "classify_s": 0.0})
    rewrites: Any = None  # DMQR: retrieve.rewrite.Rewrites, when the first stage was rewritten
    refined: Any = None  # DSLR: refine.dslr.RefineResult, when the passages were refined
    llm_calls: int = 0  # LLM calls spent before the answer (rewrites)

    @property
    def passages(self) -> list[Passage]:
        """What the LLM reads: the selected passages, refined by DSLR when it ran."""
        if self.refined is not None:
            return list(self.refined.passages)
        return [d.passage for d in self.documents]


def first_stage_mode(settings: Settings) -> str:
    """The index mode of ``retrieval.first_stage`` (sm = dense); an unknown name is an InputError."""
    mode = settings.retrieval.first_stage
    if mode not in FIRST_STAGE_MODES:
        raise InputError(f"unknown first stage {mode!r} (choose hybrid, dense or bm25)")
    return FIRST_STAGE_MODES[mode]


def resolve_k1(settings: Settings) -> int:
    """k1 = ceil(k / 2) unless set: the paper's k/2, rounded so k = 3 keeps two static docs."""
    k = settings.retrieval.k
    k1 = settings.retrieval.k1 or math.ceil(k / 2)
    return max(1, min(k1, k))


class _Run:
    """Shared state of one question's retrieval: embeddings, lists, timings, trace."""

    def __init__(
        self, name: str, question: str, index: Index, settings: Settings, fused: list[tuple[int, float]] | None = None
    ) -> None:
        if settings.retrieval.k < 1:
            raise InputError(f"retrieval k must be at least 1 (got {settings.retrieval.k})")
        self.name, self.question, self.index, self.settings = name, question, index, settings
        self.mode = first_stage_mode(settings)
        mode = settings.retrieval.first_stage
        self.k = settings.retrieval.k
        self.timings = {"retrieve_s": 0.0, "classify_s": 0.0}
        self.trace: dict[str, Any] = {"strategy": name, "k": self.k, "first_stage": mode}
        self._q_vec: np.ndarray | None = None
        self.fused = fused  # DMQR: the fused first stage of the question and its rewrites
        if fused is not None:
            self.trace["first_stage"] = f"dmqr ({mode} lists of the question and its rewrites, RRF)"

    def timed(self, key: str, fn: Callable[[], Any]) -> Any:
        t0 = time.perf_counter()
        try:
            return fn()
        finally:
            self.timings[key] += time.perf_counter() - t0

    @property
    def q_vec(self) -> np.ndarray | None:
        if self._q_vec is None and self.mode != "bm25":
            self._q_vec = self.timed("retrieve_s", lambda: self.index.embed([self.question])[0])
        return self._q_vec

    def first_stage(self, n: int, mode: str | None = None) -> list[tuple[int, float]]:
        if self.fused is not None:
            return self.fused[:n]
        mode = mode or self.mode
        vec = self.q_vec if mode != "bm25" else None
        return self.timed("retrieve_s", lambda: self.index.ranked(self.question, mode, n, vec=vec))

    def qstar_lists(self, statics: list[Passage], depth: int) -> tuple[list[str], list, list[list[tuple[int, float]]]]:
        """q*_i texts, their embeddings (None for bm25) and ranked lists, batched."""

        def go() -> tuple[list[str], list, list[list[tuple[int, float]]]]:
            texts = [concat_query(self.question, p.title, p.text) for p in statics]
            vecs: list = [None] * len(texts)
            if self.mode != "bm25" and texts:
                vecs = list(self.index.embed(texts))
            lists = [self.index.ranked(t, self.mode, depth, vec=v) for t, v in zip(texts, vecs, strict=True)]
            return texts, vecs, lists

        return self.timed("retrieve_s", go)

    def fetch(self, ids: list[int]) -> dict[int, Passage]:
        return self.timed("retrieve_s", lambda: self.index.passages(ids))

    def result(self, documents: list[Selected]) -> RetrievalResult:
        self.trace["kept"] = [d.passage.passage_id for d in documents]
        return RetrievalResult(self.name, self.question, documents, self.trace, self.timings)


def threshold_for(settings: Settings, classifier: Any, use: str) -> float:
    """The configured threshold, else the model's own for this use (first | best | cis)."""
    if settings.classifier.threshold:
        return settings.classifier.threshold
    thresholds = getattr(classifier, "thresholds", None)
    return float(thresholds[use]) if thresholds and use in thresholds else float(classifier.threshold)


def _brief(p: Passage, score: float | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"passage_id": p.passage_id, "title": p.title, "source": p.source}
    if score is not None:
        out["score"] = round(float(score), 6)
    return out


def run_single_list(
    name: str, question: str, index: Index, settings: Settings, fused: list | None = None
) -> RetrievalResult:
    """bm25 / sm / hybrid: the top k of one retriever (or of the DMQR fused list)."""
    run = _Run(name, question, index, settings, fused)
    ranked = run.first_stage(run.k, mode={"sm": "dense"}.get(name, name))
    found = run.fetch([pid for pid, _ in ranked])
    docs = [Selected(found[pid], "first-stage", s) for pid, s in ranked if pid in found]
    run.trace["candidates"] = [_brief(d.passage, d.score) for d in docs]
    return run.result(docs)


def _static_docs(run: _Run) -> list[Selected]:
    k1 = resolve_k1(run.settings)
    ranked = run.first_stage(k1)
    found = run.fetch([pid for pid, _ in ranked])
    statics = [Selected(found[pid], "static", s) for pid, s in ranked if pid in found]
    run.trace["k1"] = k1
    run.trace["static"] = [_brief(d.passage, d.score) for d in statics]
    return statics


def run_qdc(
    question: str, index: Index, settings: Settings, run: _Run | None = None, fused: list | None = None
) -> tuple[RetrievalResult, list]:
    """QDC; also returns the q* embeddings per selected doc. CIS passes its own run, so
    the question embedding, timings and trace carry over instead of being redone."""
    run = run or _Run("qdc", question, index, settings, fused)
    statics = _static_docs(run)
    depth = max(run.k, 10)
    texts, vecs, lists = run.qstar_lists([s.passage for s in statics], depth)
    context = {s.passage.passage_id for s in statics}
    picks: list[tuple[int, float, int]] = []  # (pid, score, static index)
    cursors = [0] * len(lists)
    while len(context) < run.k and any(c < len(lst) for c, lst in zip(cursors, lists, strict=True)):
        for i, ranked in enumerate(lists):
            while cursors[i] < len(ranked) and ranked[cursors[i]][0] in context:
                cursors[i] += 1
            if cursors[i] < len(ranked) and len(context) < run.k:
                pid, score = ranked[cursors[i]]
                context.add(pid)
                picks.append((pid, score, i))
    found = run.fetch([pid for pid, _s, _i in picks])
    docs = list(statics)
    docs += [Selected(found[pid], "dynamic", s, via=statics[i].passage.passage_id) for pid, s, i in picks]
    run.trace["queries"] = [
        {"from": statics[i].passage.passage_id, "text": texts[i], "picked": [pid for pid, _s, j in picks if j == i]}
        for i in range(len(statics))
    ]
    qstar_by_doc = {s.passage.passage_id: v for s, v in zip(statics, vecs, strict=True)}
    return run.result(docs), [qstar_by_doc.get(d.passage.passage_id) for d in docs]


def run_cfs(
    question: str, index: Index, settings: Settings, classifier: Any, fused: list | None = None
) -> RetrievalResult:
    from drrag_cli.select.classifier import DocView

    run = _Run("cfs", question, index, settings, fused)
    statics = _static_docs(run)
    depth = settings.retrieval.depth
    texts, qstar_vecs, lists = run.qstar_lists([s.passage for s in statics], depth + len(statics))
    static_ids = {s.passage.passage_id for s in statics}
    # (pid, score, rank in the q* list), statics removed, at most `depth` candidates each
    walks = [
        [(pid, sc, r) for r, (pid, sc) in enumerate(ranked, start=1) if pid not in static_ids][:depth]
        for ranked in lists
    ]
    ids = sorted({pid for walk in walks for pid, _, _ in walk} | static_ids)
    found = run.fetch(ids)
    vec_of = dict(zip(ids, run.timed("retrieve_s", lambda: index.vectors(ids)), strict=True))

    def view(pid: int) -> DocView:
        p = found[pid]
        return DocView(p.title, p.text, vec_of[pid])

    pairs, owners, qstars = [], [], []
    for i, (static, walk) in enumerate(zip(statics, walks, strict=True)):
        for pid, _, _ in walk:
            if pid in found:
                pairs.append((view(static.passage.passage_id), view(pid)))
                owners.append((i, pid))
                qstars.append(qstar_vecs[i])
    probs = run.timed(
        "classify_s",
        lambda: (
            classifier.predict(question, run.q_vec if run.q_vec is not None else None, pairs, qstars) if pairs else []
        ),
    )
    rule = settings.retrieval.cfs_rule
    if rule not in ("first", "best"):
        raise InputError(f"unknown retrieval.cfs_rule {rule!r} (choose first or best)")
    threshold = threshold_for(settings, classifier, rule)
    prob_of = {(i, pid): float(p) for (i, pid), p in zip(owners, probs, strict=True)}
    if rule == "best":  # walk each list best-probability first instead of rank order
        walks = [sorted(walk, key=lambda item, i=i: -prob_of.get((i, item[0]), -1.0)) for i, walk in enumerate(walks)]
    context = list(statics)
    in_context = set(static_ids)
    run.trace["threshold"] = threshold
    run.trace["rule"] = rule
    run.trace["queries"] = []
    for i, (static, walk) in enumerate(zip(statics, walks, strict=True)):
        kept = 0
        walked = []
        for pid, score, rank in walk:
            prob = prob_of.get((i, pid))
            if pid in in_context:
                decision = "already in context"
            elif len(context) >= run.k:
                decision = "context full"
            elif kept >= settings.retrieval.per_static:
                decision = "not needed (static doc satisfied)"
            elif prob is not None and prob >= threshold:
                decision = "kept"
                kept += 1
                in_context.add(pid)
                context.append(Selected(found[pid], "dynamic", score, prob, via=static.passage.passage_id))
            else:
                decision = "below threshold"
            walked.append(
                {
                    **_brief(found[pid], score),
                    "rank": rank,
                    "classifier_prob": None if prob is None else round(prob, 4),
                    "decision": decision,
                }
            )
        run.trace["queries"].append({"from": static.passage.passage_id, "text": texts[i], "candidates": walked})
    return run.result(context)


def run_cis(
    question: str, index: Index, settings: Settings, classifier: Any, fused: list | None = None
) -> RetrievalResult:
    from drrag_cli.select.classifier import DocView

    run = _Run("cis", question, index, settings, fused)
    qdc, qstar_vecs = run_qdc(question, index, settings, run=run)
    docs = qdc.documents
    if len(docs) < 2:
        return qdc
    ids = [d.passage.passage_id for d in docs]
    missing = [i for i, v in enumerate(qstar_vecs) if v is None]
    if missing and run.mode != "bm25":
        texts = [concat_query(question, docs[i].passage.title, docs[i].passage.text) for i in missing]
        for i, v in zip(missing, run.timed("retrieve_s", lambda: index.embed(texts)), strict=True):
            qstar_vecs[i] = v
    vecs = run.timed("retrieve_s", lambda: index.vectors(ids))
    views = [DocView(d.passage.title, d.passage.text, v) for d, v in zip(docs, vecs, strict=True)]
    order = [(m, n) for m in range(len(docs)) for n in range(len(docs)) if m != n]
    probs = run.timed(
        "classify_s",
        lambda: classifier.predict(
            question, run.q_vec, [(views[m], views[n]) for m, n in order], [qstar_vecs[m] for m, _ in order]
        ),
    )
    # "Negative" is the classifier's own decision (its main threshold), as in the paper.
    threshold = settings.classifier.threshold or float(classifier.threshold)
    best = [0.0] * len(docs)
    for (m, n), p in zip(order, probs, strict=True):
        best[m] = max(best[m], float(p))
        best[n] = max(best[n], float(p))
    kept = [
        Selected(d.passage, d.stage, d.score, round(b, 4), d.via)
        for d, b in zip(docs, best, strict=True)
        if b >= threshold
    ]
    if not kept:  # never feed nothing: keep the best-ranked document
        kept = [Selected(docs[0].passage, docs[0].stage, docs[0].score, round(best[0], 4))]
    run.trace["threshold"] = threshold
    run.trace["pairs"] = [
        {"a": ids[m], "b": ids[n], "classifier_prob": round(float(p), 4)}
        for (m, n), p in zip(order, probs, strict=True)
    ]
    kept_ids = {k.passage.passage_id for k in kept}
    run.trace["dropped"] = [
        {**_brief(d.passage), "best_pair_prob": round(b, 4), "reason": "negative with every other document"}
        for d, b in zip(docs, best, strict=True)
        if d.passage.passage_id not in kept_ids
    ]
    return run.result(kept)


def run_strategy(
    name: str,
    question: str,
    index: Index,
    settings: Settings,
    classifier: Any = None,
    fused: list[tuple[int, float]] | None = None,
) -> RetrievalResult:
    """The one entry point: any strategy by name. ``fused`` replaces the question's first
    stage (DMQR); the q* lists of qdc / cfs / cis still use the first-stage retriever."""
    if name in ("bm25", "sm", "hybrid"):
        return run_single_list(name, question, index, settings, fused)
    if name == "qdc":
        return run_qdc(question, index, settings, fused=fused)[0]
    if name in ("cfs", "cis"):
        if classifier is None:
            classifier = load_classifier(settings)
        return (run_cfs if name == "cfs" else run_cis)(question, index, settings, classifier, fused)
    raise InputError(f"unknown strategy {name!r} (choose one of: {', '.join(STRATEGIES)})")


def load_classifier(settings: Settings) -> Any:
    from drrag_cli.select.classifier import RelevanceClassifier

    return RelevanceClassifier.load(settings.classifier.path or None)
