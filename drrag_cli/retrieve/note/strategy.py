"""Adaptive-Note (SPEC §6) as a strategy at the pipeline level.

It has the one strategy signature, ``run(question, ctx)``, but its retrieval is a loop
of LLM calls that ends in the answer, so its :class:`RetrievalResult` carries the answer
(``result.answer``) and the note (``result.note``); the pipeline then calls no LLM again.
It needs ``ctx.services``: ``generator`` (the LLM), ``note`` (NoteSettings), ``answer``
(the answer stage's ``generate_answer``: retrieval imports no stage above it),
``answer_max_tokens`` and optionally ``on_token``. It takes no rewrite or refine part.
"""

from __future__ import annotations

from drrag_cli.retrieve.context import BaseStrategy, RetrievalResult, RunContext, Selected
from drrag_cli.types import Passage


class Note(BaseStrategy):
    name = "note"
    composable = False
    answers = True  # its result carries the answer; it needs the LLM even for retrieval

    def run(self, question: str, ctx: RunContext) -> RetrievalResult:
        from drrag_cli.retrieve.note.loop import run_note

        mode = ctx.params.mode

        def retrieve(query: str, n: int) -> list[Passage]:
            ids = [pid for pid, _ in ctx.timed("retrieve_s", lambda: ctx.index.ranked(query, mode, n))]
            found = ctx.fetch(ids)
            return [found[pid] for pid in ids if pid in found]

        services = ctx.services
        note = run_note(
            question,
            services["generator"],
            retrieve,
            services["note"],
            answer=services["answer"],
            answer_max_tokens=services.get("answer_max_tokens", 48),
            on_token=services.get("on_token"),
        )
        ctx.trace.update(stop_reason=note.stop_reason, queries=note.queries, steps=note.steps)
        result = ctx.result(self.name, [Selected(p, "note", 0.0) for p in note.passages])
        result.answer, result.note = note.answer, note
        return result
