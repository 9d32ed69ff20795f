"""What a question asks of the person its relation leads to, read in that person's document:
"Where was the director of film Ugly Me born?", "What is the date of death of the composer
of film Dus Lakh?", "What nationality is the performer of song Madan?", "Where did Isabel
Moctezuma's father die?".

The named side's document (the film, the song, the child) names the person the relation
(:attr:`~drrag_cli.asked.Question.bridge`, or a parent or spouse asked by a possessive) asks
for ("directed by Arthur Rosson", "son of Moctezuma II": :func:`.bridge.bridge_of`, the one
mechanism :mod:`.bridge` compares two sides through), and that person's fed document states the
trait (:attr:`~drrag_cli.asked.Question.trait`):

* a birth or death date: the life span of its opening, else a "born" / "died" sentence
  (:mod:`.lifespan`), as written (its year when the question asks "what year");
* a place of birth or death: the place after the date in the opening's life span
  ("(19 February 1913, Vienna, Austria – 13 July 1997, New York City)"), else the place a
  "born" / "died" sentence names after "in" or "at", with the regions written after it
  ("Vienna, Austria", "Hastings, Minnesota": a town alone does not hold a gold "Hastings,
  Minnesota", the longer answer holds both; docs/ANSWERS.md);
* a nationality: the demonym of the opening sentence (:func:`.origin.nationality`).

A small model, asked the question whole, names the bridge ("Arthur Rosson") or reads the
film's own date. When the side's document, the bridge or the trait is not fed, or the
question names no side whose document names the relation, the model answers.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass

from drrag_cli.answer.bridge import bridge_of
from drrag_cli.answer.dates import dates
from drrag_cli.answer.lifespan import life_dates, life_span
from drrag_cli.answer.origin import demonym, named_sides, nationality
from drrag_cli.asked import Question
from drrag_cli.text.sentences import sentences

Passage = tuple[str, str]

# a place name: capitalised words (accented capitals too: "Ålesund", "Évora"), with "upon", "de",
# "of" … between them ("Stratford-upon-Avon", "Rio de Janeiro", "Isle of Man")
_CAPITAL = "[A-ZÀ-ÖØ-Þ]"
_PLACE = rf"{_CAPITAL}[\w'’.-]*(?:\s+(?:(?:de|del|do|da|di|of|upon|on|am|an|la|le|el)\s+)?{_CAPITAL}[\w'’-]*)*"
# what follows the town: ", Minnesota", ", Vienna, Austria"; a name that a clause goes on after
# is no region ("A native of Florence, Soffici moved to …")
_REGIONS = re.compile(rf"(?:,\s*{_PLACE}(?=\s*(?:[,.;:()–—-]|$|(?:in|on|at|and|to|where)\b)))*")
# "born in X", "a native of X"; never "born …, the Governor of Alabama": "of" only after "native"
_AT_PLACE = re.compile(rf"(?:\b(?:in|at)\s+(?:the\s+)?|(?<=native of)\s+)({_PLACE})")
_MARK = {"birthplace": re.compile(r"\bborn\b|\bnative\s+of\b", re.IGNORECASE),
         "deathplace": re.compile(r"\bdied\b", re.IGNORECASE)}
# capitalised words after "in" that name no place: a month, a pronoun, an era ("died in 1469 C.E.")
_NOT_PLACE = re.compile(r"^(?:January|February|March|April|May|June|July|August|September|October|November|"
                        r"December|The|His|Her|He|She|C\.?E\.?|B\.?C\.?E?\.?|A\.?D\.?)$")  # fmt: skip


@dataclass(frozen=True)
class Trait:
    """The trait read (as written), whose it is and which fed document says it."""

    answer: str
    person: str  # the bridge's title: "Arthur Rosson"
    trait: str  # Question.trait: birth | death | birthplace | deathplace | nationality
    document: int


def bridged_trait(question: Question, docs: Sequence[Passage]) -> Trait | None:
    """The trait ``question`` asks of its bridge, read in the bridge's fed document, or None."""
    relation = question.bridge or question.kin
    if not question.trait or not relation or question.options:
        return None
    for side, _ in named_sides(question, docs):
        bridge = bridge_of(side, relation, docs)
        if bridge is None:
            continue
        value = read_trait(question.trait, bridge[1])
        if value is not None and question.trait in ("birth", "death") and question.kind == "year":
            value = (re.findall(r"\b\d{3,4}\b", value) or [value])[-1]  # "In what year …?": 1886, not the date
        return None if value is None else Trait(value, bridge[0], question.trait, docs.index(bridge))
    return None


def own_trait(question: Question, docs: Sequence[Passage]) -> Trait | None:
    """The trait ``question`` asks of the one fed document it names ("Where was Maren Solberg
    born?" over "Maren Solberg (born 12 March 1951 in Tromsø)" → Tromsø), or None."""
    sides = named_sides(question, docs)
    if not question.trait or question.options or len(sides) != 1:
        return None
    value = read_trait(question.trait, sides[0][1])
    return None if value is None else Trait(value, sides[0][0], question.trait, docs.index(sides[0]))


def read_trait(trait: str, text: str) -> str | None:
    """``trait`` of the person ``text`` is about, as written, or None when it does not say."""
    if trait in ("birth", "death"):
        birth, death = life_dates(text)
        found = birth if trait == "birth" else death
        return found[1] if found else None
    if trait == "nationality":
        found = nationality(text)
        return demonym(found[0]) if found else None
    return _place(trait, text)


def _place(trait: str, text: str) -> str | None:
    """The place of birth or death: in the opening's life span, else after "in" / "at" in
    the first sentence that says "born" / "died"."""
    span = life_span(text)
    if span is not None and (found := _first_place(span[0] if trait == "birthplace" else span[1])):
        return found
    for sentence in sentences(text):
        mark = _MARK[trait].search(sentence)
        if mark is None:
            continue
        at = _AT_PLACE.search(sentence, mark.end())
        if at is not None and not _NOT_PLACE.match(at.group(1).split()[0]):
            region = _REGIONS.match(sentence, at.end(1))
            return (at.group(1) + region.group(0)).rstrip(".")  # the sentence's full stop
    return None


def _first_place(part: str) -> str | None:
    """The first name after the date in one side of a life span and the names after it:
    "19 February 1913, Vienna, Austria" → Vienna, Austria; None without a date ("born John
    Winston Lennon; 9 October 1940" names no place after it)."""
    stated = dates(part)[0]
    if not stated:
        return None
    after = part[part.rfind(stated[-1][1]) + len(stated[-1][1]) :]
    pieces = after.split(",")
    for i, piece in enumerate(pieces):
        piece = re.sub(r"^\s*(?:in|at)\s+", "", piece.strip())
        found = re.match(_PLACE, piece)
        if found and not re.search(r"\d", piece) and not _NOT_PLACE.match(found.group(0).split()[0]):
            regions = itertools.takewhile(bool, (re.fullmatch(_PLACE, p.strip()) for p in pieces[i + 1 :]))
            return ", ".join([found.group(0), *(region.group(0) for region in regions)])
    return None
