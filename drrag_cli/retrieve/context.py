"""What a retrieval strategy works with: one question's :class:`RunContext`, and what it
returns, a :class:`RetrievalResult`.

Every strategy has one signature, ``run(question, ctx) -> RetrievalResult``
(:class:`Strategy`). The context carries the per-call values (:class:`Params`: k, k1,
the first-stage mode, CFS's walk depth, rule and threshold), the index behind the small
:class:`Retriever` protocol, the classifier when the strategy needs one, and the
question's shared state: its embedding, the lists retrieved so far, timings and the
trace that ``--explain`` and ``--json`` show.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Protocol

from drrag_cli.retrieve.concat import concat_query
from drrag_cli.types import Passage

QSTAR_WEIGHTS = (0.357523, 0.757794)  # the shipped classifier's qstar_fallback, for a strategy without it
MAX_SIBLINGS = 64  # CFS reads a static document's links from all its passages up to this many

if TYPE_CHECKING:
    import numpy as np

Ranked = list[tuple[int, float]]  # (passage id, score), best first


class Retriever(Protocol):
    """The part of :class:`drrag_cli.index.api.Index` strategies use."""

    def embed(self, texts: Sequence[str]) -> np.ndarray: ...

    def ranked(self, text: str, mode: str, n: int, vec: np.ndarray | None = None) -> Ranked: ...

    def ranked_many(
        self, texts: Sequence[str], mode: str, n: int, vecs: Sequence[np.ndarray | None] | None = None
    ) -> list[Ranked]: ...

    def vectors(self, ids: Sequence[int]) -> np.ndarray: ...

    def passages(self, ids: Sequence[int]) -> dict[int, Passage]: ...

    def linked(self, ids: Sequence[int]) -> dict[int, list[list[int]]]: ...

    def siblings(self, ids: Sequence[int]) -> dict[int, list[int]]: ...

    def aliases(self, ids: Sequence[int]) -> dict[int, tuple[str, ...]]: ...

    def frequency(self, phrase: str) -> tuple[int, int]: ...


class Classifier(Protocol):
    """The relevance classifier C(q, d1, d2) as CFS and CIS call it."""

    threshold: float

    @property
    def thresholds(self) -> dict[str, float]: ...

    def predict(self, question: str, q_vec: Any, pairs: Sequence[tuple[Any, Any]], qstar_vecs: Any = None) -> Any: ...


@dataclass(frozen=True)
class Params:
    """Per-call retrieval values (from the settings, overridable per call)."""

    k: int = 4  # documents for the LLM
    k1: int = 2  # static documents, already resolved (select.core.resolve_k1)
    mode: str = "hybrid"  # the first-stage index mode: hybrid | dense | bm25
    first_stage: str = "hybrid"  # as configured (sm = dense), for the trace
    depth: int = 20  # how far CFS walks each q* list
    per_static: int = 1  # positives CFS keeps per static document
    rule: str = "first"  # CFS rule: first | best
    threshold: float = 0.0  # classifier threshold; 0 = the model's own for the use
    focus: int = 0  # q* keeps the static doc's `focus` units closest to q (0 = whole text)
    qstar_vectors: str = "encode"  # q*'s embedding: "encode" it, or "composed" from q's and the document's
    static_passages: int = 2  # passages one static document brings from the first stage
    links: bool = True  # CFS offers the documents a static document links to (index/links.py)
    named_hops: bool = True  # CFS keeps a candidate about a name its static document states (select/bridges.py)
    beside_named: bool = True  # ...and, in a free slot, the walk's first positive beside a low-scored one
    named_yield: float = 0.8  # ...yielding to a candidate scored >= this when doubted or 0.4 less sure
    relation_yield: bool = False  # a relation hop ("directed by X") yields too; off: it never does
    chain: float = 0.8  # CFS walks each kept dynamic document for a third hop scored >= this (0 = off)
    chain_links: int = 0  # a question with this many links (Question.links) may take k + 1 for it (0 = never)
    spare: float = 0.7  # a barren walk: a spare first-stage document's pair scored >= this joins (0 = off)
    confident: float = 0.9  # a walk's most probable candidate scored >= this goes before its first keep (0 = off)
    fill: float = 0.0  # a barren walk keeps, in a free slot, a candidate it links to scored >= this (0 = off)


@dataclass
class Selected:
    passage: Passage
    stage: str  # "first-stage" | "static" | "dynamic" | "note"
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
    llm_calls: int = 0  # LLM calls spent before the answer (rewrites, notes)
    answer: Any = None  # answer.answer.Answer, when the strategy answers itself (Adaptive-Note)
    note: Any = None  # retrieve.note.loop.NoteResult of Adaptive-Note

    @property
    def passages(self) -> list[Passage]:
        """What the LLM reads: the selected passages, refined by DSLR when it ran."""
        if self.refined is not None:
            return list(self.refined.passages)
        return [d.passage for d in self.documents]


def hop_order(documents: list[Selected]) -> list[Selected]:
    """The context in the order of its hops: each static document (all its passages), then
    the documents its q* found, then the next static document. A small model reads the
    bridge entity before the document about it; ranked lists keep their order."""
    if all(d.via is None for d in documents):
        return documents
    groups: dict[str, list[Selected]] = {}
    for d in documents:
        if d.via is None:
            groups.setdefault(d.passage.source, []).append(d)
    out: list[Selected] = []
    for group in groups.values():
        ids = {d.passage.passage_id for d in group}
        out += group + [d for d in documents if d.via in ids]
    placed = {id(d) for d in out}
    return out + [d for d in documents if id(d) not in placed]


def linked_context(documents: list[Selected], passages: list[Passage]) -> list[Passage]:
    """``passages`` (what the LLM would read, in order) kept to the hops CFS linked: each
    dynamic document and the static document whose q* found it. A static document that
    led nowhere can distract a small model once a pair is found (``answer.context:
    linked``; docs/BENCHMARKS.md has what it gains and loses). Without a dynamic document,
    every passage stays."""
    vias = {d.via for d in documents if d.via is not None}
    if not vias:
        return passages
    static_sources = {d.passage.source for d in documents if d.via is None and d.passage.passage_id in vias}
    keep = {d.passage.passage_id for d in documents if d.via is not None or d.passage.source in static_sources}
    return [p for p in passages if p.passage_id in keep]


class Strategy(Protocol):
    """A retrieval strategy, registered by name in :mod:`drrag_cli.retrieve.registry`."""

    name: str
    uses_classifier: bool  # needs ctx.classifier (CFS, CIS)
    list_mode: str | None  # a single list's index mode (bm25/sm/hybrid); None = the first stage's
    composable: bool  # may take a rewrite (dmqr) and a refine (dslr) part
    answers: bool  # its result carries the answer (Adaptive-Note): it needs the LLM to retrieve

    def run(self, question: str, ctx: RunContext) -> RetrievalResult: ...


class BaseStrategy:
    """Defaults for a new strategy: subclass, set ``name``, write ``run``, register it."""

    name = ""
    uses_classifier = False
    list_mode: str | None = None
    composable = True
    answers = False

    def run(self, question: str, ctx: RunContext) -> RetrievalResult:  # pragma: no cover - abstract
        raise NotImplementedError


class RunContext:
    """One question's retrieval: per-call values, the index, lists, timings and trace."""

    def __init__(
        self,
        question: str,
        index: Retriever,
        params: Params,
        *,
        classifier: Classifier | None = None,
        fused: Ranked | None = None,
        services: dict[str, Any] | None = None,
    ) -> None:
        self.question, self.index, self.params = question, index, params
        self.classifier = classifier
        self.fused = fused  # DMQR: the fused first stage of the question and its rewrites
        self.services = services or {}  # what a pipeline-level strategy needs (note: the LLM)
        self.timings = {"retrieve_s": 0.0, "classify_s": 0.0}
        self.trace: dict[str, Any] = {"strategy": "", "k": params.k, "first_stage": params.first_stage}
        if fused is not None:
            self.trace["first_stage"] = f"dmqr ({params.first_stage} lists of the question and its rewrites, RRF)"
        self._q_vec: np.ndarray | None = None
        self._found: dict[int, Passage] = {}
        self._siblings: dict[int, list[int]] = {}

    @property
    def k(self) -> int:
        return self.params.k

    def timed(self, key: str, fn: Callable[[], Any]) -> Any:
        t0 = time.perf_counter()
        try:
            return fn()
        finally:
            self.timings[key] = self.timings.get(key, 0.0) + time.perf_counter() - t0

    @property
    def q_vec(self) -> np.ndarray | None:
        """The question's embedding (computed once). None in bm25 mode, unless a classifier
        reads it: CFS and CIS score (q, d1, d2) on embeddings whatever the first stage was
        (with a bm25 first stage they once got None, "expects 384-d embeddings, got 1-d")."""
        if self._q_vec is None and (self.params.mode != "bm25" or self.classifier is not None):
            self._q_vec = self.timed("retrieve_s", lambda: self.index.embed([self.question])[0])
        return self._q_vec

    def first_stage(self, n: int, mode: str | None = None) -> Ranked:
        """The top n of the first stage (or of the DMQR fused list)."""
        if self.fused is not None:
            return self.fused[:n]
        mode = mode or self.params.mode
        vec = self.q_vec if mode != "bm25" else None
        return self.timed("retrieve_s", lambda: self.index.ranked(self.question, mode, n, vec=vec))

    def qstar_text(self, passages: Sequence[Passage]) -> str:
        """q*_i for one static document: q + its title + its passages' text (focused)."""
        text = " ".join(p.text for p in passages)
        return concat_query(self.question, passages[0].title, text, self.params.focus)

    def qstar_lists(
        self, statics: Sequence[Sequence[Passage]], depth: int
    ) -> tuple[list[str], list[Any], list[Ranked]]:
        """q*_i texts, their embeddings (None in bm25 mode) and ranked lists, batched.
        Each static document is given as its passages (the first one leads)."""

        def go() -> tuple[list[str], list[Any], list[Ranked]]:
            texts = [self.qstar_text(group) for group in statics]
            vecs: list[Any] = [None] * len(texts)
            if self.params.mode != "bm25" and texts:
                composed = self.params.qstar_vectors == "composed"
                vecs = list(self._composed(statics) if composed else self.index.embed(texts))
            return texts, vecs, self.index.ranked_many(texts, self.params.mode, depth, vecs)  # Milvus: batched

        return self.timed("retrieve_s", go)

    def _composed(self, statics: Sequence[Sequence[Passage]]) -> Any:
        """q*'s embeddings without running the encoder: normalise(a·q + b·d), d the mean of the
        static document's stored passage vectors, (a, b) the classifier's fitted
        ``qstar_fallback`` (:func:`drrag_cli.select.features.qstar_fallback`)."""
        import numpy as np

        from drrag_cli.select.features import qstar_fallback

        weights = getattr(self.classifier, "fallback", None) or QSTAR_WEIGHTS
        vecs = self.index.vectors([p.passage_id for group in statics for p in group])  # one store read
        ends = np.cumsum([len(group) for group in statics])[:-1]
        docs = np.stack([part.mean(axis=0) for part in np.split(vecs, ends)])
        return qstar_fallback(np.asarray(self.q_vec), docs, weights)

    def fetch(self, ids: Sequence[int]) -> dict[int, Passage]:
        """Passages by id (each read from the store once per question)."""
        todo = [pid for pid in dict.fromkeys(ids) if pid not in self._found]
        if todo:
            self._found.update(self.timed("retrieve_s", lambda: self.index.passages(todo)))
        return {pid: self._found[pid] for pid in ids if pid in self._found}

    def doc_of(self, pid: int) -> str:
        """The document (source file or record) a passage belongs to: what the selection
        core counts as one document of the context."""
        if pid not in self._found:
            self.fetch([pid])
        found = self._found.get(pid)
        return found.source if found is not None else f"#{pid}"

    def vectors(self, ids: Sequence[int]) -> np.ndarray:
        return self.timed("retrieve_s", lambda: self.index.vectors(list(ids)))

    def document(self, group: Sequence[int]) -> list[int]:
        """All passage ids of the document whose passages ``group`` holds (the first one's),
        in order; just ``group`` when the document has more than :data:`MAX_SIBLINGS`."""
        if not group:
            return []
        if group[0] not in self._siblings:
            self._siblings.update(self.timed("retrieve_s", lambda: self.index.siblings(list(group))))
        ids = self._siblings.get(group[0], list(group))
        return ids if len(ids) <= MAX_SIBLINGS else list(group)

    def answering(self, pid: int, adds: frozenset[str] = frozenset(), name: str = "") -> Passage:
        """The passage of ``pid``'s document that the model reads of a second-hop document:
        the one holding most of ``adds`` (the question's words its first document lacks,
        :func:`drrag_cli.select.bridges.missing`: what the second hop has to add), then one
        naming ``name`` (the bridge a named hop came by: the onboarding page's tools table,
        not its intro, for `ebbtide`), then the closest to the question (cosine with q). The
        walk found the document through what links it to the first one ("Tobias Lindqvist"
        in a profile's header table); the answer ("born in Uppsala", "the Nortada Ferries
        headquarters in Aveiro") is often in another of its passages, and the passage closest
        to the whole question can be one about the first hop's topic instead (the Tern pilot
        in the Nortada visit notes)."""
        found = self.fetch([pid])[pid]
        ids = self.document([pid])
        if len(ids) < 2 or self.q_vec is None:
            return found
        from drrag_cli.select.bridges import most_added

        whole = self.fetch(ids)
        texts = [whole[i].text if i in whole else "" for i in ids]
        best = most_added(ids, list(self.vectors(ids) @ self.q_vec), texts, adds, name)
        return whole[best]

    def linked(self, groups: Sequence[Sequence[int]], lists: Sequence[Ranked]) -> list[list[int]]:
        """For each static document (its passage ids) the documents it links to (from any
        of its passages, up to :data:`MAX_SIBLINGS`; a bigger document: from these ones),
        one passage each (the one its q* list ranks highest, else the document's first), in
        the order CFS offers them (:func:`drrag_cli.select.features.link_order`)."""
        from drrag_cli.select.features import link_order

        if not self.params.links:
            return [[] for _ in groups]

        wholes = [self.document(g) for g in groups]
        found = self.timed("retrieve_s", lambda: self.index.linked([pid for d in wholes for pid in d]))
        out = []
        for group, ranked in zip(wholes, lists, strict=True):
            rank = {pid: r for r, (pid, _) in enumerate(ranked)}
            docs = [doc for pid in group for doc in found.get(pid, [])]
            docs = list({tuple(d): d for d in docs}.values())  # once per linked document
            picks = [min(doc, key=lambda pid: (rank.get(pid, len(rank)), doc.index(pid))) for doc in docs]
            passages = self.fetch([*group, *picks])
            own = [passages[pid] for pid in group if pid in passages]
            text = " ".join(p.text for p in own)
            titled = [(pid, passages[pid].title) for pid in picks if pid in passages]
            out.append(link_order(self.question, own[0].title if own else "", text, titled, rank))
        return out

    def threshold(self, use: str) -> float:
        """The configured threshold, else the classifier's own for this use (first | best | cis)."""
        if self.params.threshold:
            return self.params.threshold
        assert self.classifier is not None
        return float(self.classifier.thresholds.get(use, self.classifier.threshold))

    def result(self, name: str, documents: list[Selected]) -> RetrievalResult:
        documents = self._with_version(hop_order(documents))
        self.trace["strategy"] = name
        self.trace["kept"] = [d.passage.passage_id for d in documents]
        return RetrievalResult(name, self.question, documents, self.trace, self.timings)

    def _with_version(self, documents: list[Selected]) -> list[Selected]:
        """When the question names a version that no fed passage dates, the first fed
        document's passage that does, after that document's passages: "When was Heron 1.0.0
        released?" found the changelog by its 0.9.0 and 1.1.0 sections."""
        from drrag_cli.text.versions import named_version, release_dates

        version = named_version(self.question) if documents else None
        if version is None or any(release_dates(d.passage.text, version) for d in documents):
            return documents
        have = {d.passage.passage_id for d in documents}
        for doc in dict.fromkeys(self.doc_of(d.passage.passage_id) for d in documents):
            group = [i for i, d in enumerate(documents) if self.doc_of(d.passage.passage_id) == doc]
            others = self.fetch([p for p in self.document([documents[group[0]].passage.passage_id]) if p not in have])
            dated = next((p for p in others.values() if release_dates(p.text, version)), None)
            if dated is not None:  # beside its document, found as that document was
                at = group[-1] + 1
                joined = replace(documents[at - 1], passage=dated, classifier_prob=None)
                return [*documents[:at], joined, *documents[at:]]
        return documents
