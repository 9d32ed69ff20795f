"""Adaptive-Note (paper 002, SPEC §6): gather knowledge into a note, answer from the best note.

    result = run_note(question, llm, retrieve, settings.note)
    result.answer.text, result.stop_reason, result.llm_calls, result.steps

1. Retrieve ``top_k`` for the question; the LLM writes the initial note = the best note (M_opt).
2. Loop, while no stop condition holds:
   (a) the LLM asks the next query from the question, the best note and the asked queries;
   (b) retrieve ``top_k`` for it;
   (c) the LLM updates the best note with the retrieved passages the best note has not
       read yet (a passage read only by a rejected note gets another chance);
   (d) the LLM compares best note (A) with the updated note (B); B replaces A if better.
3. Stop when invalid updates >= T_IU, iterations >= T_CI or distinct retrieved passages
   >= T_RP (checked in that order, before each iteration, so also right after step 1).
4. Answer with the answer stage's ``generate_answer`` (handed in: ``run_note(answer=...)``),
   the best note as the only document (the tuned few-shot short-answer prompt, ``Answer:``,
   stop at newline, ``clean_answer``).

An update is *invalid* whenever it gains no knowledge: the comparison kept A, the verdict
was unreadable (neither A nor B), the updated note was empty or identical to the best
note, or no retrieved passage was new to the best note. The last two cost no LLM call.

Malformed outputs are never raised; each gets a default, recorded in ``fallbacks``:
empty initial note -> the passages' own text; empty/repeated query -> the question plus
note words no query used yet (if there are none the loop stops: ``no new query``);
empty updated note or unreadable verdict -> keep the best note (invalid update).

Every prompt is fitted into ``llm.n_ctx``: lowest-ranked passages are dropped first, then
the note is cut, then the one remaining passage; a prompt that cannot fit even so is
skipped (fallback), never an overflow.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from drrag_cli.config import NoteSettings
from drrag_cli.llm.generator import Generator
from drrag_cli.retrieve.note.prompts import (
    NotePrompt,
    compare_prompt,
    cut_words,
    fallback_query,
    init_prompt,
    largest_fitting,
    normalise,
    parse_note,
    parse_query,
    parse_verdict,
    query_prompt,
    update_prompt,
)
from drrag_cli.text.fence import neutralise
from drrag_cli.types import Passage

Retrieve = Callable[[str, int], list[Passage]]
Answerer = Callable[..., Any]  # generate_answer(llm, question, passages, *, max_tokens, on_token) -> Answer
Docs = list[tuple[str, str]]
QUERY_MAX_TOKENS = 32
VERDICT_MAX_TOKENS = {False: 4, True: 16}  # completion (one letter) / chat (may answer in JSON)
NOTE_SOURCE = "adaptive-note"


@dataclass
class NoteResult:
    """The answer and a trace for ``--explain`` / ``--json``.

    ``steps[i]["verdict"]``: ``initial`` (step 1), ``better`` / ``worse`` (the comparison),
    ``worse: <why>`` (rejected without a comparison call), ``fallback: <what>`` (malformed
    output, kept the best note) or ``stopped: <why>``.
    """

    answer: Any  # answer.Answer; llm_calls / generate_s are the whole run's; passages = those read into the best note
    best_note: str
    queries: list[str]  # every query retrieved with, the question first
    passages: list[Passage]  # all distinct passages retrieved, first-seen order
    steps: list[dict[str, object]]
    llm_calls: int
    stop_reason: str
    fallbacks: list[str] = field(default_factory=list)


def _key(passage: Passage) -> object:
    if passage.passage_id is not None:
        return passage.passage_id
    return (passage.source, passage.ordinal, passage.char_start, passage.char_end, passage.text)


def _docs(passages: Sequence[Passage]) -> Docs:
    return [(p.title, p.text) for p in passages]


def stop_reason(invalid: int, iterations: int, retrieved: int, settings: NoteSettings) -> str:
    """The paper's Stop = 1{IU >= T_IU or CI >= T_CI or RP >= T_RP}, as a reason ("" = go on)."""
    if invalid >= settings.t_iu:
        return f"invalid updates {invalid} >= T_IU {settings.t_iu}"
    if iterations >= settings.t_ci:
        return f"iterations {iterations} >= T_CI {settings.t_ci}"
    if retrieved >= settings.t_rp:
        return f"retrieved passages {retrieved} >= T_RP {settings.t_rp}"
    return ""


class _Run:
    """One question's loop: the best note, counters, LLM calls and their seconds, the trace."""

    def __init__(self, question: str, llm: Generator, retrieve: Retrieve, settings: NoteSettings) -> None:
        self.question, self.llm, self.settings = question, llm, settings
        self._retrieve = retrieve
        self.chat = llm.has_chat_template
        self.calls, self.seconds, self.invalid, self.iterations = 0, 0.0, 0, 0
        self.best = ""  # the best note (M_opt)
        self.best_read: list[Passage] = []  # the passages read into the best note, first-seen order
        self.queries: list[str] = []
        self.passages: list[Passage] = []
        self.steps: list[dict[str, object]] = []
        self.fallbacks: list[str] = []
        self._seen: set[object] = set()

    # -- retrieval -----------------------------------------------------------------------
    def retrieve(self, query: str) -> tuple[list[Passage], int]:
        """(the top_k hits, how many were never retrieved before)."""
        hits = list(self._retrieve(query, self.settings.top_k))[: self.settings.top_k]
        self.queries.append(query)
        new = 0
        for passage in hits:
            if _key(passage) not in self._seen:
                self._seen.add(_key(passage))
                self.passages.append(passage)
                new += 1
        return hits, new

    # -- LLM calls -----------------------------------------------------------------------
    def _fits(self, prompt: NotePrompt, max_tokens: int) -> bool:
        text = self.llm.render_chat(prompt.messages) if self.chat else prompt.completion
        return self.llm.count_tokens(text) + max_tokens <= self.llm.n_ctx

    def _call(self, prompt: NotePrompt, max_tokens: int) -> str:
        start = time.perf_counter()
        if self.chat:
            raw = self.llm.chat(prompt.messages, max_tokens=max_tokens)
        else:
            raw = self.llm.complete(prompt.completion, max_tokens=max_tokens, stop=list(prompt.stop))
        self.seconds += time.perf_counter() - start
        self.calls += 1
        return raw

    def _fit_docs(
        self, build: Callable[[str, Docs], NotePrompt], note: str, passages: Sequence[Passage], max_tokens: int
    ) -> tuple[NotePrompt, list[Passage]] | None:
        """Drop the lowest-ranked passages, then cut the note, then the best passage, until it fits."""
        for keep in range(len(passages), 0, -1):
            prompt = build(note, _docs(passages[:keep]))
            if self._fits(prompt, max_tokens):
                return prompt, list(passages[:keep])
        first = list(passages[:1])
        words = largest_fitting(
            lambda n: self._fits(build(cut_words(note, n), _docs(first)), max_tokens), len(note.split())
        )
        if words is not None:
            return build(cut_words(note, words), _docs(first)), first
        title, text = first[0].title, first[0].text

        def fits(n: int) -> bool:
            return self._fits(build("", [(title, cut_words(text, n))]), max_tokens)

        words = largest_fitting(fits, len(text.split()))
        return (build("", [(title, cut_words(text, words))]), first) if words else None

    def _passage_note(self, passages: Sequence[Passage]) -> str:
        return cut_words(" ".join(neutralise(p.text) for p in passages), self.settings.max_tokens * 3 // 4)

    def write_init(self, passages: list[Passage]) -> tuple[str, list[Passage]]:
        size = self.settings.max_tokens
        fitted = self._fit_docs(lambda _, docs: init_prompt(self.question, docs), "", passages, size)
        if fitted is None:
            self.fallbacks.append("init: prompt does not fit n_ctx -> note = the best passage's text")
            return self._passage_note(passages[:1]), passages[:1]
        prompt, read = fitted
        note = parse_note(self._call(prompt, size))
        if not note:
            self.fallbacks.append("init: empty note -> note = the passages' own text")
            note = self._passage_note(read)
        return note, read

    def next_query(self) -> str:
        """The LLM's next query, or a fallback; ``""`` when there is no new query to ask."""

        def build(words: int) -> NotePrompt:
            return query_prompt(self.question, cut_words(self.best, words), self.queries)

        words = largest_fitting(lambda n: self._fits(build(n), QUERY_MAX_TOKENS), len(self.best.split()))
        query = parse_query(self._call(build(words), QUERY_MAX_TOKENS)) if words is not None else ""
        # a copy of the note or of the whole asked list (base models do that) is no new query either
        asked = {normalise(q) for q in self.queries} | {normalise(self.best), normalise(" ".join(self.queries))}
        if normalise(query) and normalise(query) not in asked:
            return query
        if words is None:
            why = "prompt does not fit n_ctx"
        else:
            why = f"repeated query {query[:60]!r}" if normalise(query) else "empty query"
        default = fallback_query(self.question, self.best, self.queries)
        if default and normalise(default) not in asked:
            self.fallbacks.append(f"query: {why} -> question + unasked note words: {default!r}")
            return default
        self.fallbacks.append(f"query: {why}, and the note has no unasked words -> stop")
        return ""

    def compare(self, new: str) -> tuple[str | None, str]:
        """(verdict "A"/"B"/None, why it is None) for best note A vs updated note B."""
        size = VERDICT_MAX_TOKENS[self.chat]

        def build(words: int) -> NotePrompt:
            return compare_prompt(self.question, cut_words(self.best, words), cut_words(new, words))

        words = largest_fitting(lambda n: self._fits(build(n), size), max(len(self.best.split()), len(new.split())))
        if words is None:
            return None, "comparison prompt does not fit n_ctx"
        raw = self._call(build(words), size)
        return parse_verdict(raw), f"unreadable verdict {raw.strip()[:60]!r}"

    # -- steps ---------------------------------------------------------------------------
    def _step(self, kind: str, query: str, hits: list[Passage], new: int, note: str, verdict: str, calls: int) -> None:
        self.steps.append(
            {
                "step": kind,
                "n": self.iterations,
                "query": query,
                "retrieved": [p.passage_id if p.passage_id is not None else p.location for p in hits],
                "new": new,
                "note": note,
                "verdict": verdict,
                "llm_calls": self.calls - calls,
            }
        )

    def initialise(self) -> str:
        """Step 1; returns a stop reason when there is nothing to write a note from."""
        hits, new = self.retrieve(self.question)
        if not hits:
            self._step("init", self.question, hits, new, "", "stopped: nothing retrieved", self.calls)
            return "no passages retrieved for the question"
        calls = self.calls
        self.best, self.best_read = self.write_init(hits)
        self._step("init", self.question, hits, new, self.best, "initial", calls)
        return ""

    def iterate(self) -> str:
        """One iteration (a)-(d); returns a stop reason only when no new query can be asked."""
        calls = self.calls
        self.iterations += 1
        query = self.next_query()
        if not query:
            self._step("iteration", "", [], 0, "", "stopped: no new query", calls)
            return "no new query (the model's was empty or repeated and the note has no unasked words)"
        hits, new = self.retrieve(query)
        read = {_key(p) for p in self.best_read}
        unread = [p for p in hits if _key(p) not in read]
        if unread:
            candidate, verdict = self._update_and_compare(unread)
        else:
            candidate, verdict = "", "worse: no retrieved passage is new to the best note"
        if verdict != "better":
            self.invalid += 1
        self._step("iteration", query, hits, new, candidate, verdict, calls)
        return ""

    def _update_and_compare(self, unread: list[Passage]) -> tuple[str, str]:
        size = self.settings.max_tokens
        fitted = self._fit_docs(lambda note, docs: update_prompt(self.question, note, docs), self.best, unread, size)
        if fitted is None:
            self.fallbacks.append(f"update {self.iterations}: prompt does not fit n_ctx -> kept the best note")
            return "", "fallback: update prompt does not fit n_ctx"
        prompt, read = fitted
        candidate = parse_note(self._call(prompt, size))
        if not candidate:
            self.fallbacks.append(f"update {self.iterations}: empty note -> kept the best note (invalid update)")
            return "", "fallback: empty updated note"
        if normalise(candidate) == normalise(self.best):
            return candidate, "worse: identical to the best note"
        letter, why = self.compare(candidate)
        if letter is None:
            self.fallbacks.append(f"compare {self.iterations}: {why} -> kept the best note (invalid update)")
            return candidate, f"fallback: {why}"
        if letter == "A":
            return candidate, "worse"
        self.best, self.best_read = candidate, self.best_read + read
        return candidate, "better"

    # -- answer --------------------------------------------------------------------------
    def answer(self, answer_with: Answerer, max_tokens: int, on_token: Callable[[str], None] | None) -> Any:
        note = [] if not self.best else [Passage(NOTE_SOURCE, "Notes", self.best, 0, 0, len(self.best))]
        answer = answer_with(self.llm, self.question, note, max_tokens=max_tokens, on_token=on_token)
        self.calls += answer.llm_calls
        self.seconds += answer.generate_s
        answer.passages, answer.trimmed = list(self.best_read), []
        answer.llm_calls, answer.generate_s = self.calls, self.seconds
        return answer


def run_note(
    question: str,
    llm: Generator,
    retrieve: Retrieve,
    settings: NoteSettings,
    *,
    answer: Answerer,
    answer_max_tokens: int = 48,
    on_token: Callable[[str], None] | None = None,
) -> NoteResult:
    """Answer ``question`` the Adaptive-Note way; ``on_token`` streams the final answer only.

    ``retrieve(query, n)`` returns the top-``n`` passages, best first; ``answer`` is the
    answer stage's ``generate_answer``, handed in by the pipeline (retrieval imports no
    stage above it), called once on the best note. LLM errors
    (:class:`~drrag_cli.errors.ModelError`) and retriever errors propagate; malformed
    LLM outputs never do (see ``NoteResult.fallbacks``).
    """
    run = _Run(question, llm, retrieve, settings)
    stop = run.initialise()
    while not stop:
        stop = stop_reason(run.invalid, run.iterations, len(run.passages), settings) or run.iterate()
    final = run.answer(answer, answer_max_tokens, on_token)
    return NoteResult(
        answer=final,
        best_note=run.best,
        queries=run.queries,
        passages=run.passages,
        steps=run.steps,
        llm_calls=run.calls,
        stop_reason=stop,
        fallbacks=run.fallbacks,
    )
