"""What ``drrag ask --json`` and ``drrag search --json`` print: :class:`AskResult` (an
answer with its retrieval, citations and timings) and :func:`search_json` (a strategy's
selected context, no answer). The server's /ask and /search return the same documents."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from drrag_cli.answer.answer import Answer
    from drrag_cli.retrieve.context import RetrievalResult
    from drrag_cli.types import Passage


@dataclass
class AskResult:
    question: str
    retrieval: RetrievalResult
    answer: Answer | None
    timings: dict[str, float] = field(default_factory=dict)
    tokens_fed: int = 0  # LLM tokens of the passage texts the answer prompt holds (0: a reader answered)
    model: str | None = None  # the GGUF file that answered; None when no model call was made

    @property
    def note(self) -> Any:  # retrieve.note.loop.NoteResult, when the strategy was note
        return self.retrieval.note

    @property
    def llm_calls(self) -> int:
        return self.retrieval.llm_calls + (self.answer.llm_calls if self.answer else 0)

    @property
    def fed(self) -> list[Passage]:
        return self.answer.passages if self.answer else self.retrieval.passages

    def citations(self) -> list[dict[str, Any]]:
        return [{"n": n, **p.to_json()} for n, p in enumerate(self.fed, start=1)]

    def documents(self) -> list[dict[str, Any]]:
        fed = {p.passage_id for p in self.fed}  # not trimmed for n_ctx, not dropped by DSLR, read into the note
        return [
            d.passage.to_json(
                stage=d.stage,
                score=round(d.score, 6),
                classifier_prob=None if d.classifier_prob is None else round(d.classifier_prob, 4),
                fed=d.passage.passage_id in fed,
            )
            for d in self.retrieval.documents
        ]

    def to_json(self, explain: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {
            "question": self.question,
            "answer": self.answer.text if self.answer else None,
            "supported": self.answer.supported if self.answer else False,
            "confidence": round(c, 4) if self.answer and (c := self.answer.confidence) is not None else None,
            "evidence": ev.to_json() if self.answer and (ev := self.answer.evidence) else None,
            **({"strayed": True} if self.answer and self.answer.strayed else {}),
            **({"why_unsupported": self.answer.verdict.why} if self.answer and not self.answer.supported else {}),
            **({"asked": self.answer.asked} if self.answer and self.answer.asked not in ("", self.question) else {}),
            "reader": self.answer.reader if self.answer else None,  # the code reader that answered, None = the model
            **({"compared": self.answer.compared.to_json()} if self.answer and self.answer.compared else {}),
            **({"looked_up": self.answer.looked_up.to_json()} if self.answer and self.answer.looked_up else {}),
            **({"picked": self.answer.picked.to_json()} if self.answer and self.answer.picked else {}),
            **({"reasked": self.answer.reasked} if self.answer and self.answer.reasked else {}),
            "strategy": self.retrieval.strategy,
            "citations": self.citations(),
            "documents": self.documents(),
            "llm_calls": self.llm_calls,
            "tokens_fed": self.tokens_fed,
            **({"model": self.model} if self.model else {}),
            "timings": {k: round(v, 4) for k, v in self.timings.items()},
        }
        if self.answer and self.answer.trimmed:
            out["trimmed"] = [p.passage_id for p in self.answer.trimmed]
        if self.answer and self.answer.suspicious:
            out["suspicious_passages"] = [s.to_json() for s in self.answer.suspicious]
            if self.answer.withheld:
                out["withheld_answer"] = self.answer.withheld
            if why := withheld_why(self.answer):
                out["why"] = why
        out.update(extras_json(self.retrieval, explain))
        if explain:
            out["trace"] = self.retrieval.trace
            if self.answer:
                out["prompt"] = self.answer.prompt
        return out


def withheld_why(answer: Any) -> str:
    """Why an answer held back by the guard is the fallback, in words a script can show;
    "" when nothing was held back: a script that reads only ``answer`` learns why it got none."""
    if answer.withheld:
        return "the answer was found only in text that addresses the model (see suspicious_passages); withheld"
    if not answer.passages:
        return "every document found addresses the model (see suspicious_passages); none was read, so no answer"
    return ""


def extras_json(retrieval: RetrievalResult, explain: bool = False) -> dict[str, Any]:
    """The rewrite / refine / note parts of --json: every rewrite, DSLR's token counts, the note."""
    out: dict[str, Any] = {}
    if retrieval.rewrites is not None:
        out["rewrites"] = retrieval.rewrites.to_json()
    if retrieval.refined is not None:
        refined = retrieval.refined.to_json()
        if not explain:
            refined.pop("passages")
        out["refine"] = refined
    note = retrieval.note
    if note is not None:
        out["note"] = {
            "stop_reason": note.stop_reason,
            "llm_calls": note.llm_calls,
            "queries": note.queries,
            "best_note": note.best_note,
            "fallbacks": note.fallbacks,
        }
        if explain:
            out["note"]["steps"] = note.steps
    return out


def search_json(retrieval: RetrievalResult, explain: bool = False) -> dict[str, Any]:
    """What ``drrag search --strategy S --json`` prints: the context a strategy selected,
    with every document's text (and DSLR's refined text), no answer."""
    out = AskResult(retrieval.question, retrieval, None, dict(retrieval.timings)).to_json(explain=explain)
    out.pop("answer")
    out.pop("tokens_fed")  # counting needs the LLM's tokenizer; DSLR's refine section has its counts
    if not retrieval.llm_calls:
        out.pop("llm_calls")
    fed = {p.passage_id: p.text for p in retrieval.passages}
    for doc, selected in zip(out["documents"], retrieval.documents, strict=True):
        doc["text"] = selected.passage.text
        if retrieval.refined is not None:
            doc["refined_text"] = fed.get(selected.passage.passage_id)
    return out
