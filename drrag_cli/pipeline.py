"""`Pipeline`: [rewrite] → retrieval strategy → [refine] → one LLM call → answer with citations.

    from drrag_cli import Pipeline, load_settings
    result = Pipeline(load_settings()).ask("In which city was Heron's lead engineer born?")
    print(result.answer, [c["source"] for c in result.citations()])
    Pipeline(settings).ask(question, "dmqr+cfs+dslr")   # any spec of drrag_cli.plan

With DMQR the LLM is also called for the rewrites (cached on disk), and Adaptive-Note
(``note``) is a loop of LLM calls; ``AskResult.llm_calls`` counts them all.

Models (embedder, classifier, GGUF) load lazily and once per Pipeline; `eval` reuses one
Pipeline for every question. A generator can be injected (tests, other backends).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

from drrag_cli.config import Settings, user_cache_dir
from drrag_cli.plan import Plan, resolve_plan
from drrag_cli.retrieve.strategies import (
    FIRST_STAGE_MODES,
    RetrievalResult,
    Selected,
    first_stage_mode,
    run_strategy,
)

if TYPE_CHECKING:
    from collections.abc import Callable

    from drrag_cli.generate.answer import Answer
    from drrag_cli.generate.note import NoteResult
    from drrag_cli.index.api import Index
    from drrag_cli.types import Passage


@dataclass
class AskResult:
    question: str
    retrieval: RetrievalResult
    answer: Answer | None
    timings: dict[str, float] = field(default_factory=dict)
    tokens_fed: int = 0  # LLM tokens of the passage texts the answer prompt holds
    note: NoteResult | None = None  # Adaptive-Note's run, when strategy is note

    @property
    def llm_calls(self) -> int:
        return self.retrieval.llm_calls + (self.answer.llm_calls if self.answer else 0)

    @property
    def fed(self) -> list:
        return self.answer.passages if self.answer else self.retrieval.passages

    def citations(self) -> list[dict[str, Any]]:
        return [
            {
                "n": n,
                "passage_id": p.passage_id,
                "title": p.title,
                "source": p.source,
                "lines": p.lines,
                "page": p.page,
            }
            for n, p in enumerate(self.fed, start=1)
        ]

    def documents(self) -> list[dict[str, Any]]:
        fed = {p.passage_id for p in self.fed}  # not trimmed for n_ctx, not dropped by DSLR, read into the note
        return [
            {
                "passage_id": d.passage.passage_id,
                "title": d.passage.title,
                "source": d.passage.source,
                "stage": d.stage,
                "score": round(d.score, 6),
                "classifier_prob": None if d.classifier_prob is None else round(d.classifier_prob, 4),
                "fed": d.passage.passage_id in fed,
            }
            for d in self.retrieval.documents
        ]

    def to_json(self, explain: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {
            "question": self.question,
            "answer": self.answer.text if self.answer else None,
            "strategy": self.retrieval.strategy,
            "citations": self.citations(),
            "documents": self.documents(),
            "llm_calls": self.llm_calls,
            "tokens_fed": self.tokens_fed,
            "timings": {k: round(v, 4) for k, v in self.timings.items()},
        }
        if self.answer and self.answer.trimmed:
            out["trimmed"] = [p.passage_id for p in self.answer.trimmed]
        out.update(extras_json(self.retrieval, explain))
        if self.note is not None:
            note = self.note
            out["note"] = {
                "stop_reason": note.stop_reason,
                "llm_calls": note.llm_calls,
                "queries": note.queries,
                "best_note": note.best_note,
                "fallbacks": note.fallbacks,
            }
            if explain:
                out["note"]["steps"] = note.steps
        if explain:
            out["trace"] = self.retrieval.trace
            if self.answer:
                out["prompt"] = self.answer.prompt
        return out


def extras_json(retrieval: RetrievalResult, explain: bool = False) -> dict[str, Any]:
    """The rewrite / refine parts of --json: every rewrite, tokens before and after DSLR."""
    out: dict[str, Any] = {}
    if retrieval.rewrites is not None:
        out["rewrites"] = retrieval.rewrites.to_json()
    if retrieval.refined is not None:
        refined = retrieval.refined.to_json()
        if not explain:
            refined.pop("passages")
        out["refine"] = refined
    return out


class Pipeline:
    def __init__(
        self, settings: Settings, index: Index | None = None, generator: Any = None, classifier: Any = None
    ) -> None:
        self.settings = settings
        self._index = index
        self._generator = generator
        self._classifier = classifier

    @cached_property
    def index(self) -> Index:
        if self._index is not None:
            return self._index
        from drrag_cli.index.api import Index

        return Index.open(self.settings)

    @property
    def classifier(self) -> Any:
        if self._classifier is None:
            from drrag_cli.retrieve.strategies import load_classifier

            self._classifier = load_classifier(self.settings)
        return self._classifier

    @property
    def generator(self) -> Any:
        if self._generator is None:
            from drrag_cli.generate.llm import LocalLLM

            self._generator = LocalLLM(self.settings.llm)
        return self._generator

    def plan(self, strategy: str | Plan | None = None, *, use_config: bool = True) -> Plan:
        if isinstance(strategy, Plan):
            return strategy
        return resolve_plan(strategy, self.settings, use_config=use_config)

    def count_tokens(self, text: str) -> int:
        """LLM tokens of a passage text (BOS not counted)."""
        return max(0, self.generator.count_tokens(text) - 1) if text else 0

    def tokens(self, passages: list[Passage]) -> int:
        """LLM tokens of the passages' texts: what ``tokens_fed`` reports."""
        return sum(self.count_tokens(p.text) for p in passages)

    def retrieve(self, question: str, strategy: str | Plan | None = None) -> RetrievalResult:
        """Rewrite (DMQR) → strategy → refine (DSLR), as the plan says; no answer."""
        from drrag_cli.errors import InputError

        plan = self.plan(strategy)
        if plan.strategy == "note":
            raise InputError("strategy note writes notes with the LLM; use drrag ask (or eval), not search")
        index = self.index  # a missing index is the first thing to report
        settings = self.settings
        classifier = self.classifier if plan.uses_classifier else None
        fused, rewrites, dmqr_trace, fuse_s = None, None, None, 0.0
        if plan.rewrite:
            from drrag_cli.retrieve.dmqr import fused_first_stage
            from drrag_cli.retrieve.rewrite import RewriteCache, rewrite_question

            cache = RewriteCache(user_cache_dir() / "rewrites" if settings.rewrite.cache else None)
            rewrites = rewrite_question(
                self.generator,
                question,
                plan.rewrite_strategies(settings),
                cache,
                max_tokens=settings.rewrite.max_tokens,
            )
            if plan.strategy in ("bm25", "sm", "hybrid"):
                mode = FIRST_STAGE_MODES[plan.strategy]
            else:
                mode = first_stage_mode(settings)
            depth = max(settings.search.candidates, settings.retrieval.depth)
            t0 = time.perf_counter()
            fused, dmqr_trace = fused_first_stage(
                rewrites,
                index,
                mode=mode,
                depth=depth,
                rrf_k=settings.search.rrf_k,
                original_weight=settings.rewrite.original_weight,
            )
            fuse_s = time.perf_counter() - t0
        result = run_strategy(plan.strategy, question, index, settings, classifier, fused)
        result.strategy = plan.name
        result.trace["strategy"] = plan.name
        if rewrites is not None:
            result.rewrites = rewrites
            result.llm_calls += rewrites.llm_calls
            result.timings["retrieve_s"] += fuse_s
            result.timings["rewrite_s"] = rewrites.seconds
            result.trace["dmqr"] = {**rewrites.to_json(), **(dmqr_trace or {})}
        if plan.refine:
            result.refined = self._refine(question, result.passages)
            result.timings["refine_s"] = result.refined.seconds
            result.trace["dslr"] = result.refined.to_json()
        return result

    def _refine(self, question: str, passages: list[Passage]) -> Any:
        from drrag_cli.refine.dslr import make_scorer, refine_dslr

        cfg = self.settings.refine
        t0 = time.perf_counter()
        refined = refine_dslr(
            question,
            passages,
            make_scorer(cfg.scorer, self.index.embed),
            cfg.threshold,
            empty=cfg.empty,
            count_tokens=self.count_tokens,
            min_sentences=cfg.min_sentences,
        )
        refined.seconds = time.perf_counter() - t0
        return refined

    def ask(
        self,
        question: str,
        strategy: str | Plan | None = None,
        on_token: Callable[[str], None] | None = None,
    ) -> AskResult:
        from drrag_cli.errors import InputError
        from drrag_cli.generate.answer import generate_answer

        if not question.strip():
            raise InputError('the question is empty; ask something, e.g. drrag ask "who leads project X?"')
        plan = self.plan(strategy)
        if plan.strategy == "note":
            return self._ask_note(question, plan, on_token)
        t0 = time.perf_counter()
        retrieval = self.retrieve(question, plan)
        answer = generate_answer(
            self.generator, question, retrieval.passages, max_tokens=self.settings.llm.max_tokens, on_token=on_token
        )
        timings = {
            "retrieve_s": retrieval.timings["retrieve_s"],
            "classify_s": retrieval.timings["classify_s"],
            **{k: retrieval.timings[k] for k in ("rewrite_s", "refine_s") if k in retrieval.timings},
            "generate_s": answer.generate_s,
            "total_s": time.perf_counter() - t0,
        }
        return AskResult(question, retrieval, answer, timings, tokens_fed=self.tokens(answer.passages))

    def _ask_note(self, question: str, plan: Plan, on_token: Callable[[str], None] | None) -> AskResult:
        """Adaptive-Note: the loop retrieves with the first-stage retriever, top_k per query."""
        from drrag_cli.generate.note import run_note

        index, settings = self.index, self.settings
        mode = first_stage_mode(settings)
        spent = {"retrieve_s": 0.0}

        def retrieve(query: str, n: int) -> list[Passage]:
            t = time.perf_counter()
            ids = [pid for pid, _score in index.ranked(query, mode, n)]
            found = index.passages(ids)
            spent["retrieve_s"] += time.perf_counter() - t
            return [found[pid] for pid in ids if pid in found]

        t0 = time.perf_counter()
        note = run_note(
            question,
            self.generator,
            retrieve,
            settings.note,
            answer_max_tokens=settings.llm.max_tokens,
            on_token=on_token,
        )
        documents = [Selected(p, "note", 0.0) for p in note.passages]
        trace = {"strategy": plan.name, "stop_reason": note.stop_reason, "queries": note.queries, "steps": note.steps}
        retrieval = RetrievalResult(plan.name, question, documents, trace, {**spent, "classify_s": 0.0})
        timings = {
            "retrieve_s": spent["retrieve_s"],
            "classify_s": 0.0,
            "generate_s": note.answer.generate_s,
            "total_s": time.perf_counter() - t0,
        }
        tokens = self.tokens(note.answer.passages)
        return AskResult(question, retrieval, note.answer, timings, tokens_fed=tokens, note=note)
