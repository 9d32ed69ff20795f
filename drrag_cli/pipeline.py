"""`Pipeline`: retrieval strategy → one LLM call → answer with citations.

    from drrag_cli import Pipeline, load_settings
    result = Pipeline(load_settings()).ask("In which city was Heron's lead engineer born?")
    print(result.answer, [c["source"] for c in result.citations()])

Models (embedder, classifier, GGUF) load lazily and once per Pipeline; `eval` reuses one
Pipeline for every question. A generator can be injected (tests, other backends).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

from drrag_cli.config import Settings
from drrag_cli.retrieve.strategies import RetrievalResult, run_strategy

if TYPE_CHECKING:
    from collections.abc import Callable

    from drrag_cli.generate.answer import Answer
    from drrag_cli.index.api import Index


@dataclass
class AskResult:
    question: str
    retrieval: RetrievalResult
    answer: Answer | None
    timings: dict[str, float] = field(default_factory=dict)

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
        trimmed = {p.passage_id for p in (self.answer.trimmed if self.answer else [])}
        return [
            {
                "passage_id": d.passage.passage_id,
                "title": d.passage.title,
                "source": d.passage.source,
                "stage": d.stage,
                "score": round(d.score, 6),
                "classifier_prob": None if d.classifier_prob is None else round(d.classifier_prob, 4),
                "fed": d.passage.passage_id not in trimmed,
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
            "llm_calls": self.answer.llm_calls if self.answer else 0,
            "timings": {k: round(v, 4) for k, v in self.timings.items()},
        }
        if self.answer and self.answer.trimmed:
            out["trimmed"] = [p.passage_id for p in self.answer.trimmed]
        if explain:
            out["trace"] = self.retrieval.trace
            if self.answer:
                out["prompt"] = self.answer.prompt
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

    def retrieve(self, question: str, strategy: str | None = None) -> RetrievalResult:
        name = strategy or self.settings.retrieval.strategy
        index = self.index  # a missing index is the first thing to report
        classifier = self.classifier if name in ("cfs", "cis") else None
        return run_strategy(name, question, index, self.settings, classifier)

    def ask(
        self, question: str, strategy: str | None = None, on_token: Callable[[str], None] | None = None
    ) -> AskResult:
        from drrag_cli.errors import InputError
        from drrag_cli.generate.answer import generate_answer

        if not question.strip():
            raise InputError('the question is empty; ask something, e.g. drrag ask "who leads project X?"')
        t0 = time.perf_counter()
        retrieval = self.retrieve(question, strategy)
        answer = generate_answer(
            self.generator, question, retrieval.passages, max_tokens=self.settings.llm.max_tokens, on_token=on_token
        )
        timings = {
            "retrieve_s": retrieval.timings["retrieve_s"],
            "classify_s": retrieval.timings["classify_s"],
            "generate_s": answer.generate_s,
            "total_s": time.perf_counter() - t0,
        }
        return AskResult(question, retrieval, answer, timings)
