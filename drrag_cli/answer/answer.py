"""One LLM call (two when the first answer only echoes the question): fit the passages
into n_ctx, prompt, post-process the answer.

Passages arrive best-first. When the prompt would not fit in ``n_ctx - max_tokens``
the lowest-ranked passages are dropped (and reported in :attr:`Answer.trimmed`); when
not even the best one fits, its text is cut to what fits, provided a useful part
(:data:`MIN_USEFUL_WORDS`) does. Citation numbers are the positions in
:attr:`Answer.passages`, which is exactly what the prompt numbered ``[1]..[n]``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

from drrag_cli.answer.compare import Comparison
from drrag_cli.answer.entity import Picked, asked_document
from drrag_cli.answer.evidence import Evidence, beside_question, evidence
from drrag_cli.answer.guard import Suspicion, defuse, suspicions
from drrag_cli.answer.prompts import (
    DEFAULT_STYLE,
    FALLBACK_ANSWER,
    PromptStyle,
    chat_messages,
    clean_answer,
    completion_prompt,
    named_part,
    place_answer,
    typed_options,
)
from drrag_cli.answer.readers import registry
from drrag_cli.answer.readers.base import Reading
from drrag_cli.answer.sides import titled_sides
from drrag_cli.answer.support import each_supported, echoes_either, fed_texts, is_supported, supported_part
from drrag_cli.answer.tables import Lookup
from drrag_cli.asked import Question, parse
from drrag_cli.config import AnswerSettings
from drrag_cli.errors import ModelError
from drrag_cli.llm.generator import Generator
from drrag_cli.text.fence import document_lines
from drrag_cli.types import Passage

MIN_USEFUL_WORDS = 20
# never the whole of a copied answer to an open question: a yes/no ("D1NZ is a series based on
# what technique?" was answered "No") or a pronoun ("Kaiser Ventures was founded by an
# industrialist who became known as the father of what?" was answered "he", copied mid-sentence)
NOT_AN_OPEN_ANSWER = ("yes", "no", "he", "she", "it", "they", "him", "her", "his", "its", "them", "their")
COMPLETION_STOP = ["\n"]


@dataclass(frozen=True)
class Verdict:
    """Whether an answer is supported by what the model read and, when not, why: ``no-answer``
    (the fallback; ``no-answer-strayed`` when the model's own answer left the fed text),
    ``echo`` (it only repeats the question), ``second-choice`` (the first answer was an
    echo), ``strayed`` (copied after the model's own choice left the text), ``elsewhere``
    (in the text, but not beside the question's words) or ``absent`` (not in the text)."""

    supported: bool
    why: str = ""


@dataclass
class Answer:
    text: str
    passages: list[Passage]  # in prompt order: citation [i] is passages[i-1]
    trimmed: list[Passage]  # dropped to fit n_ctx, lowest-ranked first
    prompt: str  # the exact text sent (rendered chat template or completion prompt)
    llm_calls: int
    generate_s: float
    prompt_tokens: int
    truncated: bool = False  # the only passage was cut to fit n_ctx
    raw: str = field(default="", repr=False)  # model output before post-processing
    asked: str = ""  # the question the model was asked (answer.mode decompose may rewrite it)
    original: str = ""  # the question as the user wrote it, when ``asked`` is a rewrite of it
    # passages that address the model: held out of the prompt (shown defused only when
    # every passage does); not in `passages`, so never cited as a source of the answer
    suspicious: list[Suspicion] = field(default_factory=list)
    withheld: str = ""  # an answer found only in text addressed to the model, not shown
    compared: Comparison | None = None  # a comparison decided in code, not by the model (.compare)
    looked_up: Lookup | None = None  # a table cell or a stated value read in code, not by the model (.tables)
    reader: str | None = None  # the reader that answered (.readers), None when the model did
    typed: bool = False  # the model could only pick a year or number the fed text states (.prompts)
    # the lowest probability of a token the model wrote (a free answer from LocalLLM): a weak
    # signal, in --json and eval records only (docs/BENCHMARKS.md measures how weak)
    confidence: float | None = None
    # the model's own choice left the fed text and it was held to copying it (.sampling.SpanOnly)
    strayed: bool = False
    # the model copied a sentence; the fed document the question asks for is the answer (.entity)
    picked: Picked | None = None
    # the model's first answer, which only echoed the question; the answer is its second
    # one, which may not start the same way (:func:`answer_again`)
    reasked: str = ""

    @cached_property
    def verdict(self) -> Verdict:
        """Whether the answer is supported, and why not, judged once (the CLI and the server
        only render it). Supported: grounded in what the model read (:func:`is_supported`),
        more than an echo of the question (:func:`echoes`) and, when the model could only
        pick a year or number the text states, beside the question's words
        (:func:`.evidence.beside_question`). A copied answer the model strayed from is not,
        nor the second choice of a model whose first answer only echoed the question: over
        five benchmark sets 6 of 39 such second answers were right (docs/BENCHMARKS.md). A
        list decided in code ("director and producer", :mod:`.shared`) is, when each item is.
        Judged on first use, after the answer is complete (Adaptive-Note sets its passages)."""
        texts = fed_texts(self.passages)
        stated = is_supported(self.text, texts)
        grounded = stated or (self.compared is not None and each_supported(self.text, texts))
        if self.strayed or self.reasked or not grounded or self.echoed:
            return Verdict(False, self._why_not(stated))
        if self.typed and not beside_question(self.text, self.asked, self.passages):
            return Verdict(False, self._why_not(stated))
        return Verdict(True)

    def _why_not(self, stated: bool) -> str:
        """The first reason that holds (:class:`Verdict`)."""
        if self.text == FALLBACK_ANSWER:  # nothing to trust or distrust: why there is no answer
            return "no-answer-strayed" if self.strayed else "no-answer"
        if self.echoed:
            return "echo"
        if self.reasked:
            return "second-choice"
        if self.strayed:
            return "strayed"
        return "elsewhere" if stated else "absent"

    @property
    def supported(self) -> bool:
        return self.verdict.supported

    @property
    def echoed(self) -> bool:
        """The answer only repeats the question (:func:`.support.echoes_either`): as asked, or as the user
        wrote it before it was asked about the bridge ("Where did the current chair of the
        Elmstead garden club grow up?", asked as "Where did Marisol Okonkwo grow up?", is
        not answered "Elmstead garden club"). A comparison decided in code names one of the
        sides it compared, though the question's punctuation hides them ("Which film was
        released first: Sacred Planet or Oz the Great and Powerful?")."""
        if self.compared is not None:
            return False
        return echoes_either(self.text, self.asked, self.original)  # "" echoes nothing

    @property
    def evidence(self) -> Evidence | None:
        """The sentence or table row of a cited passage that states a supported answer the
        model gave (:mod:`.evidence`), or that a value read in code came from (.statements);
        None for yes/no, an unsupported answer, or a comparison or table cell decided in code
        (those say what they read)."""
        table = self.looked_up is not None and self.looked_up.source == "table"
        if (self.llm_calls == 0 and self.looked_up is None) or self.compared is not None or table or not self.supported:
            return None
        return evidence(self.text, self.asked, self.passages)


def _docs(passages: Sequence[Passage], flagged: frozenset[int] = frozenset()) -> list[tuple[str, str]]:
    """(title, text) as the prompt shows them; a flagged passage (``id()`` in ``flagged``)
    loses what addresses the model."""
    return [(defuse(p.title), defuse(p.text)) if id(p) in flagged else (p.title, p.text) for p in passages]


def _render(llm: Generator, question: str, docs: list[tuple[str, str]], style: PromptStyle) -> str:
    if llm.has_chat_template:
        return llm.render_chat(chat_messages(question, docs, style))
    return completion_prompt(question, docs, style)


def _fit(
    llm: Generator,
    question: str,
    passages: Sequence[Passage],
    budget: int,
    style: PromptStyle,
    flagged: frozenset[int] = frozenset(),
) -> tuple[int, list[tuple[str, str]], str, int]:
    """(passages kept, the (title, text) docs in the prompt, the prompt, its tokens)."""
    for keep in range(len(passages), 0, -1):
        docs = _docs(passages[:keep], flagged)
        prompt = _render(llm, question, docs, style)
        tokens = llm.count_tokens(prompt)
        if tokens <= budget:
            return keep, docs, prompt, tokens
    title, text = _docs(passages[:1], flagged)[0]
    words = text.split()
    low, high, found = min(MIN_USEFUL_WORDS, len(words)), len(words) - 1, None
    while low <= high:  # largest word prefix of the best passage that still fits
        mid = (low + high) // 2
        docs = [(title, " ".join(words[:mid]) + " …")]
        prompt = _render(llm, question, docs, style)
        tokens = llm.count_tokens(prompt)
        if tokens <= budget:
            found, low = (docs, prompt, tokens), mid + 1
        else:
            high = mid - 1
    if found is None:
        raise ModelError(
            f"n_ctx {llm.n_ctx} is too small for even one passage; raise llm.n_ctx (or lower llm.max_tokens)"
        )
    return 1, *found


def generate_answer(
    llm: Generator,
    question: str,
    passages: Sequence[Passage],
    *,
    max_tokens: int | None = None,
    on_token: Callable[[str], None] | None = None,
    style: PromptStyle = DEFAULT_STYLE,
    guard: bool = True,
    cleared: Collection[tuple[str, str]] = frozenset(),
    readers: Sequence[str] | None = None,
    pick: bool = True,
    rewritten_from: str = "",
    copy: bool = True,
    no_bias: float | str | None = "auto",
) -> Answer:
    """Answer ``question`` from ``passages`` (best-first) with exactly one LLM call.

    No passages: the fallback, no call. ``style``: the instruction and few-shot examples.
    ``guard``: passages that address the model (:mod:`.guard`; not those ``cleared`` by the
    caller) are held out of the prompt (all: shown defused); an answer only they gave is withheld.
    The first of ``readers`` (:mod:`.readers.registry` names in order; None = the default, () =
    none) that reads the answer in the fed text gives it with no call; a year, "how many" or price
    question gets a value the text states (``typed``); own options are scored (:func:`_prior`;
    ``no_bias`` "auto": ``llm.no_bias``, the model's own); ``pick``: see :mod:`.entity`."""
    max_tokens = max_tokens if max_tokens is not None else llm.max_tokens
    if not passages:
        return Answer(FALLBACK_ANSWER, [], [], "", 0, 0.0, 0)
    suspicious = suspicions([p for p in passages if (p.title, p.text) not in cleared]) if guard else []
    flagged = frozenset(id(s.passage) for s in suspicious)
    shown = [p for p in passages if id(p) not in flagged] or list(passages)
    if found := _read_all(question, shown, flagged, style, readers):
        return _streamed(_decided(question, shown, [], suspicious, found, rewritten_from), on_token)
    keep, docs, prompt, tokens = _fit(llm, question, shown, llm.n_ctx - max_tokens, style, flagged)
    trimmed = list(reversed(shown[keep:]))  # lowest-ranked first
    stream = None if suspicious else on_token  # with a hostile passage around, show the checked answer
    asked = _asked(question, docs, style)
    start = time.perf_counter()
    fed = [f"{title} {text}" for title, text in docs]
    allowed = asked.options or (typed_options(f"{question} {rewritten_from}", fed) if style.constrain else ())
    prior = _prior(asked.options, _bias(llm, no_bias)) if asked.options else ()
    raw = _ask_model(llm, question, docs, prompt, max_tokens, stream, allowed, style, copy, prior=prior)
    both = (question, rewritten_from)  # an answer that only echoes it is asked for once more
    raw, reasked, calls = _unless_echo(llm, both, (docs, fed), prompt, max_tokens, raw, style, copy, allowed)
    elapsed = time.perf_counter() - start
    text, picked = _answer_text(question, raw, fed, docs, pick=pick and not allowed)
    withheld = ""
    if suspicious and text not in asked.options and not is_supported(text, fed):
        withheld, text = text, FALLBACK_ANSWER  # only the removed instructions could have said it
    if on_token is not None and stream is None:
        on_token(text)
    truncated = docs[-1][1] != _docs(shown[keep - 1 : keep], flagged)[0][1]
    call = getattr(llm, "last_call", None)
    return Answer(
        text=text, passages=list(shown[:keep]), trimmed=trimmed, prompt=prompt, llm_calls=calls, generate_s=elapsed,
        prompt_tokens=tokens, truncated=truncated, raw=raw, asked=question, original=rewritten_from,
        suspicious=suspicious, withheld=withheld,
        typed=bool(allowed) and not asked.options, confidence=getattr(call, "least_prob", None),
        strayed=getattr(call, "strayed", False) and picked is None, picked=picked, reasked=reasked,
    )  # fmt: skip


def read_in_code(question: str, passages: Sequence[Passage], readers: Sequence[str] | None = None) -> Reading | None:
    """What the first of ``readers`` (None = the default order) reads for ``question`` in
    ``passages``, as :func:`generate_answer` tries before the model, or None. The pipeline
    asks it before a decomposed rewrite: a reader that follows the bridge itself ("Where was
    the director of film X born?") must not lose the question to a rewrite about the wrong
    person the film's page names."""
    docs = _docs(passages)
    return _read(_asked(question, docs, DEFAULT_STYLE), docs, readers)


def _read_all(
    question: str, shown: list[Passage], flagged: frozenset[int], style: PromptStyle, readers: Sequence[str] | None
) -> tuple[Reading, float] | None:
    """(what the first of ``readers`` reads in every shown passage, the seconds it took), or
    None. Readers run before a prompt is fitted: n_ctx bounds the model only, and an answer
    found in code needs no tokenizer, so no model is loaded for it."""
    start = time.perf_counter()
    docs = _docs(shown, flagged)
    reading = _read(_asked(question, docs, style), docs, readers)
    return (reading, time.perf_counter() - start) if reading else None


def _read(asked: Question, docs: list[tuple[str, str]], readers: Sequence[str] | None) -> Reading | None:
    return registry.first(asked, docs, AnswerSettings().readers if readers is None else readers)


def _prior(options: Sequence[str], no_bias: float | None) -> tuple[float, ...]:
    """What each of the question's ``options`` (yes / no, its two sides) gets added to its
    log-probability when the model scores each whole (:func:`~drrag_cli.llm.choice.scored_choice`):
    ``no_bias`` for "no", 0 for the others; () when ``no_bias`` is None: then the model writes
    its greedy choice, as it does for a year or a number."""
    return () if no_bias is None else tuple(no_bias if option == "no" else 0.0 for option in options)


def _bias(llm: Generator, no_bias: float | str | None) -> float | None:
    """``no_bias`` as a number (or None): "auto" is the model's own (``llm.no_bias``; a generator
    without one gets the embedded model's). Read only when a choice reaches the model: the
    catalogue's module is no import of a reader's answer."""
    if no_bias != "auto":
        return float(no_bias) if no_bias is not None else None
    from drrag_cli.models import EMBEDDED_NO_BIAS

    return float(getattr(llm, "no_bias", EMBEDDED_NO_BIAS))


def _asked(question: str, docs: list[tuple[str, str]], style: PromptStyle) -> Question:
    """The question, parsed once; "A or B" that two fed titles name is a choice too (.sides);
    a prompt style without constraints offers no options."""
    if not style.constrain:
        return replace(parse(question), options=())
    return titled_sides(parse(question), [title for title, _ in docs])


def _streamed(answer: Answer, on_token: Callable[[str], None] | None) -> Answer:
    """``answer``, its text given to ``on_token`` first (an answer decided without streaming)."""
    if on_token is not None:
        on_token(answer.text)
    return answer


def _unless_echo(
    llm: Generator, asked: tuple[str, str], fed: tuple[list[tuple[str, str]], list[str]], prompt: str,
    max_tokens: int, raw: str, style: PromptStyle, copy: bool, allowed: Sequence[str],
) -> tuple[str, str, int]:
    """(the raw answer, the echo it replaced or "", the model calls spent): a free first
    answer (no ``allowed`` options) that only echoes the question is asked once more
    (:func:`answer_again`). ``fed``: the prompt's (title, text) docs and their joined texts."""
    question, original = asked
    docs, texts = fed
    echo = _cleaned(question, raw, texts)
    if allowed or not echoes_either(echo, question, original):
        return raw, "", 1
    first = getattr(llm, "last_call", None)
    again = _ask_model(llm, question, docs, prompt, max_tokens, None, (), style, copy, avoid=(raw,))
    return (*answer_again((raw, echo), again, asked, texts, first, llm), 2)


def answer_again(
    first_answer: tuple[str, str], again: str, asked: tuple[str, str], fed: list[str], first: object, llm: Generator
) -> tuple[str, str]:
    """(the raw answer to keep, the echo it replaced or ""). A first answer that only echoed
    the question ("Whose sister played Susie in Miracle on 34th Street?" → "Susie"; raw and
    cleaned in ``first_answer``) was asked once more, the model barred from starting it the
    same way (:class:`.sampling.Avoid`); the second answer stands when it is something and
    no echo itself, else the first stands, with its own call's record (``llm.last_call``)
    put back. ``asked``: the question as asked and as the user wrote it (:func:`echoes_either`)."""
    question, original = asked
    raw, echo = first_answer
    text = _cleaned(question, again, fed)
    if text and text != FALLBACK_ANSWER and not echoes_either(text, question, original):
        return again, echo
    if first is not None and hasattr(llm, "last_call"):
        llm.last_call = first  # type: ignore[attr-defined]
    return raw, ""


def _cleaned(question: str, raw: str, fed: list[str]) -> str:
    """The model's answer cleaned and cut to what the fed text supports."""
    return supported_part(named_part(question, place_answer(question, clean_answer(raw))), fed)


def _answer_text(
    question: str, raw: str, fed: list[str], docs: list[tuple[str, str]], *, pick: bool
) -> tuple[str, Picked | None]:
    """The model's answer cleaned and cut to what the fed text supports; with ``pick``, a
    copied sentence gives way to the fed document the question asks for (:mod:`.entity`)."""
    text = _cleaned(question, raw, fed)
    picked = asked_document(question, text, docs) if pick else None
    return (picked.document, picked) if picked is not None else (text, None)


def _ask_model(
    llm: Generator, question: str, docs: list[tuple[str, str]], prompt: str, max_tokens: int,
    stream: Callable[[str], None] | None, allowed: Sequence[str], style: PromptStyle, copy: bool,
    avoid: Sequence[str] = (),
    prior: Sequence[float] = (),
) -> str:
    """The model call: chat with an instruct model's template, else a completion whose
    free answer (no ``allowed`` options) is copied from the fed lines when ``copy``; never
    starting as an ``avoid`` answer did; ``allowed`` scored with a ``prior`` each when given."""
    held: dict[str, Sequence[Any]] = {"avoid": avoid} if avoid else {}  # a Generator without them still works
    if prior:
        held["prior"] = prior
    if llm.has_chat_template:
        messages = chat_messages(question, docs, style)
        return llm.chat(messages, max_tokens=max_tokens, on_token=stream, options=allowed, **held)
    if copy and not allowed:
        held["spans"] = document_lines(docs)
        if not parse(question).options:  # "D1NZ is a series based on what technique?" is not answered "No"
            held["not_first"] = NOT_AN_OPEN_ANSWER
    return llm.complete(prompt, max_tokens=max_tokens, stop=COMPLETION_STOP, on_token=stream, options=allowed, **held)


def _decided(
    question: str,
    fed: list[Passage],
    trimmed: list[Passage],
    suspicious: list[Suspicion],
    found: tuple[Reading, float],
    original: str = "",
) -> Answer:
    """The answer a reader (:mod:`.readers`) read in the fed text in ``seconds``, with no model call
    (``found``: the reading, the seconds): a comparison of two named sides (``compared``) or one
    stated value (``looked_up``)."""
    reading, seconds = found
    return Answer(
        text=reading.answer, passages=fed, trimmed=trimmed, prompt="", llm_calls=0, generate_s=seconds,
        prompt_tokens=0, asked=question, original=original, suspicious=suspicious, compared=reading.compared,
        looked_up=reading.looked_up, reader=reading.reader,
    )  # fmt: skip
