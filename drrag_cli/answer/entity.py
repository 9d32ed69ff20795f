"""An answer the model copied as a whole sentence, replaced by the fed document the question
asks for.

Asked "D1NZ is a series based on what oversteering technique?", Gemma-3-270M copied "D1NZ is
a production car drifting series in New Zealand." although the passage of *Drifting*, "a
driving technique", was fed beside it. In a two-hop question the answer is often the second hop's
document itself, the one the question does not name. When the model's answer is a sentence
(:data:`LONG_COPY` words or more) or it gave none, the question asks for a kind of thing
("what / which / this <kind>") and exactly one fed document the question does not name says
it is that kind in its opening (:func:`.kinds.says_it_is`), that document's title is
the answer. Several such documents narrow to those a named document mentions; more than one
left, and the model's answer stands.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from drrag_cli.answer.hop.kinds import OPENING, says_it_is
from drrag_cli.answer.prompts import FALLBACK_ANSWER
from drrag_cli.asked import parse
from drrag_cli.index.links import core_title
from drrag_cli.text.words import words

LONG_COPY = 8  # words: an answer this long is a copied sentence, not a name
# a date, a count, a reason or a manner is not a document's title
_NOT_A_THING = re.compile(r"\b(?:when|why|how|year|because)\b", re.IGNORECASE)


@dataclass(frozen=True)
class Picked:
    """The fed document taken as the answer, the kind the question asked for, and the
    sentence the model had copied instead."""

    document: str
    kind: str
    copied: str

    def to_json(self) -> dict[str, str]:
        return {"document": self.document, "kind": self.kind, "copied": self.copied}


def asked_document(question: str, answer: str, docs: Sequence[tuple[str, str]]) -> Picked | None:
    """The title (without a trailing "(…)" or ": …") of the one fed document ((title, text))
    the question asks for, when the model's ``answer`` is a copied sentence or none; else None."""
    if answer != FALLBACK_ANSWER and len(answer.split()) < LONG_COPY:
        return None
    asked_for = parse(question)
    if asked_for.options or _NOT_A_THING.search(question):
        return None
    kind = asked_for.kind  # (:attr:`drrag_cli.asked.Question.kind`)
    if not kind:
        return None
    asked = set(words(question).split())  # a title is named when all its words are ("Scott [Andrew] Buchholz")
    named = [words(text) for title, text in docs if set(words(core_title(title)).split()) <= asked]
    kinds = {
        name: text
        for title, text in docs
        if (name := core_title(title))
        and not set(words(name).split()) <= asked
        and says_it_is(kind, name, text[:OPENING])
    }
    if len(kinds) > 1:  # those a document the question names mentions, as whole words
        kinds = {name: text for name, text in kinds.items() if any(words(name) in said for said in named)}
    return Picked(next(iter(kinds)), kind, answer) if len(kinds) == 1 else None
