"""What the sampler may write, and how sure the model was of what it wrote.

A constrained answer (yes/no, "A or B", a stated year or number) is a llama.cpp grammar
over its options; a free answer, decoded greedily, is held to runs of the fed text's tokens
(:class:`SpanOnly`, for base models) and watched by a logits processor that keeps the
lowest probability of a token the model chose (``"confidence"`` in ``--json`` and in
``drrag eval`` records). No llama.cpp or numpy import until a call needs them.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any


def sampling_kwargs(
    options: Sequence[str], temperature: float, copy: SpanOnly | None = None, avoid: Avoid | None = None
) -> tuple[dict[str, Any], LeastProb | None]:
    """``create_completion`` keyword arguments for one answer (a grammar for ``options``,
    else a :class:`LeastProb` watcher when decoding is greedy, after ``avoid`` and ``copy``
    when the answer may not start as an earlier one did or must be a span of the fed text)
    and that watcher."""
    kwargs: dict[str, Any] = {"temperature": temperature}
    if options:
        kwargs["grammar"] = grammar(options)
        return kwargs, None
    if temperature:
        return kwargs, None  # a sampled token need not be the most likely one
    from llama_cpp import LogitsProcessorList

    least = LeastProb()
    kwargs["logits_processor"] = LogitsProcessorList([p for p in (avoid, copy) if p is not None] + [least])
    return kwargs, least


_LEAD = re.compile(r"\s*(?:(?:the|a|an)\s+)?", re.IGNORECASE)


class Avoid:
    """A llama.cpp logits processor that keeps an answer from starting as an earlier one did:
    the tokens up to the first one of its first word past "the" / "a" / "an" are never
    written again, in either case of that word's first letter. A second answer to a
    question whose first answer only echoed it ("Whose sister played Susie …?" → "Susie")
    is the model's next choice, not the same words again (.answer)."""

    def __init__(self, prefixes: Iterable[Sequence[int]], prompt_len: int) -> None:
        self.prefixes = [list(p) for p in prefixes if p]
        self.prompt_len = prompt_len

    @classmethod
    def of(cls, answers: Sequence[str], tokenize: Callable[[str], list[int]], prompt_len: int) -> Avoid:
        """For earlier ``answers`` as the model wrote them (a completion's with its leading space)."""
        prefixes = []
        for answer in answers:
            lead = _LEAD.match(answer)
            start = lead.end() if lead else 0
            if start >= len(answer):
                continue
            head = answer[:start].rstrip()
            before = len(tokenize(head)) if head.strip() else 0
            for first in {answer[start].lower(), answer[start].upper()}:
                tokens = tokenize(answer[:start] + first + answer[start + 1 :])
                prefixes.append(tokens[: before + 1])
        return cls(prefixes, prompt_len)

    def __call__(self, input_ids: Any, scores: Any) -> Any:
        written = [int(t) for t in input_ids[self.prompt_len :]]
        for prefix in self.prefixes:
            if len(prefix) == len(written) + 1 and prefix[:-1] == written:
                scores[prefix[-1]] = -float("inf")
        return scores


class LeastProb:
    """A llama.cpp logits processor that changes nothing and keeps the lowest probability
    of the most likely token over the steps of a greedy completion: the probability of the
    least sure token the model wrote (the newline that ends the answer included). A weak
    signal of a wrong answer: ROC AUC 0.74 over Gemma's free HotpotQA answers (q0-99),
    0.62 on q250-499, 0.44 on MuSiQue (docs/BENCHMARKS.md); so it is reported, not acted on."""

    def __init__(self) -> None:
        self.value = 2.0  # above any probability: nothing seen yet

    @property
    def seen(self) -> float | None:
        """The lowest probability seen, or None before the first step."""
        return self.value if self.value <= 1.0 else None

    def __call__(self, _input_ids: Any, scores: Any) -> Any:
        import numpy as np

        top = float(scores.max())
        self.value = min(self.value, 1.0 / float(np.exp(scores - top).sum()))
        return scores


def grammar(options: Sequence[str]) -> Any:
    """A GBNF grammar whose only sentences are ``options`` (quotes and backslashes escaped),
    after an optional space: a completion prompt ends in "Answer:", and the model's own
    next token carries the space (" 2014"); without it the grammar forces tokens the
    model rarely writes there, and its choice among the options changes."""
    from llama_cpp import LlamaGrammar

    quoted = [json.dumps(o, ensure_ascii=False) for o in options]
    return LlamaGrammar.from_string('root ::= " "? (' + " | ".join(quoted) + ")", verbose=False)


def end_tokens(tokenize: Callable[[str], list[int]], eos: int) -> list[int]:
    """Tokens that end an answer: end of text and each newline token ("\n" … 32 of them)."""
    return [eos, *(t for k in range(1, 33) for t in tokenize("\n" * k))]


class SpanOnly:
    """A llama.cpp logits processor that holds a free answer to the fed text: each token
    the model writes must continue a run of tokens that one fed line holds (``spans``, each
    a token list), or end the answer (``ends``: newlines, end of text). The first token may
    also be a fed word capitalised (``capital``: token → its capitalised token), as answers
    start ("The cello." from "... plays the cello"). A model whose next choice is a comma
    (``pauses``; not one after a digit: "1,000") the text does not have there, or after a
    comma no source's word, stops, as ``answer.supported_part`` cuts a free "Uppsala,
    Sweden" to what the text holds. Gemma-3-270M, free, writes names and numbers no
    source holds; held, it copies the sources' words (docs/BENCHMARKS.md).
    ``strayed`` records that the model's own choice was masked at some step: such an
    answer is marked unsupported, as a free answer outside the text was."""

    def __init__(
        self, spans: Sequence[Sequence[int]], ends: Sequence[int], prompt_len: int,
        capital: dict[int, int] | None = None, pauses: Sequence[int] = (), numeric: Iterable[int] = (),
        not_first: Iterable[int] = (), titled: Iterable[int] = (),
    ) -> None:
        import numpy as np

        flat: list[int] = []
        for span in spans:
            flat += [*span, -1]
        self.flat = np.asarray(flat, dtype=np.int64)
        capital = capital or {}
        self.capital = np.asarray([capital.get(t, -1) for t in flat], dtype=np.int64)
        self.at = np.flatnonzero(self.flat >= 0)  # where the next token may come from
        self.ends = np.asarray(sorted(set(ends)), dtype=np.int64)
        self.pauses = frozenset(pauses)  # a comma: where the model may stop instead of straying
        self.numeric = frozenset(numeric)  # tokens ending in a digit: a comma after one is "1,000"'s
        self.not_first = np.asarray(sorted(set(not_first)), dtype=np.int64)  # never the whole answer ("No")
        self.titled = np.asarray(sorted(set(titled)), dtype=np.int64)  # of those, the forms a title starts with
        self.prompt_len, self.read, self.strayed = prompt_len, 0, False

    @classmethod
    def of(
        cls, lines: Sequence[str], tokenize: Callable[[str], list[int]], detokenize: Callable[[int], str],
        ends: Sequence[int], prompt_len: int, not_first: Sequence[str] = (),
    ) -> SpanOnly:
        """For fed ``lines`` as the model copies them after "Answer:" (a space before the
        first word), ending at any of ``ends``. A word of ``not_first`` (one token, lower or
        capitalised) is never the whole answer: it may only start one as the text writes it
        capitalised, and go on ("No Escape", not "No"). Each fed word's capitalised token
        comes from one tokenizer call over all of them (one call per word cost 75 ms per answer)."""
        spans = [tokenize(f" {line}") for line in lines]
        lower, numeric = {}, set()
        for token in {t for span in spans for t in span}:
            word = detokenize(token)  # " the"
            if len(word) > 1 and word[0] == " " and word[1].islower():
                lower[token] = f" {word[1].upper()}{word[2:]}"
            if word[-1:].isdigit():
                numeric.add(token)
        upper = {detokenize(t): t for t in tokenize("".join(lower.values()))}
        capital = {token: upper[up] for token, up in lower.items() if up in upper}
        lone = {f: tokenize(f" {f}") for word in not_first for f in (word.lower(), word.capitalize())}
        banned = {f: ids[0] for f, ids in lone.items() if len(ids) == 1}  # in pieces: none ("Y" starts "Yale")
        titled = [t for f, t in banned.items() if f[:1].isupper()]
        return cls(spans, ends, prompt_len, capital, tokenize(","), numeric, banned.values(), titled)

    def __call__(self, input_ids: Any, scores: Any) -> Any:
        import numpy as np

        written = input_ids[self.prompt_len :]
        for token in written[self.read :]:
            hit = self.flat[self.at] == int(token)
            if self.read == 0:
                hit |= self.capital[self.at] == int(token)
            self.at = self.at[hit] + 1
            self.read += 1
        nxt = self.flat[self.at]
        keep = np.unique(nxt[nxt >= 0])
        ends = self.ends
        if self.read == 0:
            cap = self.capital[self.at]
            banned = np.setdiff1d(self.not_first, np.intersect1d(self.titled, keep))  # "No Escape" as written
            keep = np.setdiff1d(np.union1d(keep, cap[cap >= 0]), banned)
        elif self.read == 1 and np.isin(int(written[0]), self.not_first) and len(keep):
            ends = ends[:0]  # "No" goes on: "No Escape"
        keep = np.concatenate([keep, ends])
        top = int(scores.argmax())
        if not np.isin(top, keep):
            last = int(written[-1]) if len(written) else None
            if last is not None and ((top in self.pauses and last not in self.numeric) or last in self.pauses):
                keep = self.ends  # "Uppsala" then "," or "Uppsala," then "Sweden": the answer ends at the comma
            else:
                self.strayed = True
        out = np.full_like(scores, -np.inf)
        out[keep] = scores[keep]
        return out
