"""Two-sided comparisons whose values are one hop away, decided in code: "Which film has
the director who died first, The Prairie King or Confessions of an Opium Eater?"

The sides' own documents do not state the value compared; each names the person (or thing)
the question's bridge relation asks for (:attr:`~drrag_cli.asked.Question.bridge`:
director, composer, author, founder, father …), and that one's document states it. For
each side: its document (titled by the side), then in it the statement that uses the
relation ("directed by B. Reeves Eason") and names a fed document's title, the nearest
after the relation word; then in that document the value: a birth or death date
(:mod:`.lifespan`) when the question asks about a life, else the statement with a value of
the cue's kind that shares most words with the question (:mod:`.compare`). One mechanism
for any relation noun: a noun's verb stem ("director" → "direct", "composer" → "compos")
and a few irregular ones ("author" → "wrote", "father" → "son of") are what a side's
document uses to name it. Only when both sides' values are read, comparable and different
does this decide; otherwise :func:`bridge_compare` returns None and the model answers.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from drrag_cli.answer.compare import CUES, Comparison, side_value, tokens
from drrag_cli.answer.lifespan import comparable, life_dates
from drrag_cli.answer.origin import without_aside
from drrag_cli.asked import Question
from drrag_cli.text.words import root, words

Passage = tuple[str, str]

# relation nouns whose documents name them with another word than the noun's own stem
_NAMED_BY = {
    "author": ("author", "writ", "wrote", "novel"),
    "writer": ("writ", "wrote", "author"),
    "father": ("father", "son", "daughter", "child"),
    "mother": ("mother", "son", "daughter", "child"),
    "spouse": ("spouse", "married", "wife", "husband", "consort", "widow"),
    "wife": ("wife", "married", "husband", "consort", "widow"),
    "husband": ("husband", "married", "wife", "consort", "widow"),
    "singer": ("sing", "sung", "sang", "perform"),
    "performer": ("perform", "sing", "sung", "sang", "record"),
    "composer": ("compos", "music", "score", "writ", "wrote"),
}
# relations a work's maker stands in: a document that never says "directed" may say "a film by X"
_MADE_BY = frozenset({"director", "author", "writer", "creator", "performer"})  # "a song by X"
_AFTER, _BEFORE = 25, 3  # how far (plain characters) a name stands after / before the relation word


def named_by(noun: str) -> tuple[str, ...]:
    """The word starts a side's document names the relation ``noun`` with: the noun, its
    verb when the noun is an agent ("director" → direct), or :data:`_NAMED_BY`'s words."""
    if noun in _NAMED_BY:
        return _NAMED_BY[noun]
    verb = root(noun)  # the one stemmer's agent-noun root: "director" → "direct"
    if verb != noun and noun.endswith(("or", "er")) and len(noun) >= 7:
        return noun, verb
    return (noun,)


def _own(side: str, passages: Sequence[Passage]) -> list[Passage]:
    """The fed documents titled by ``side``, the exact title first."""
    key = tokens(side)
    titled = [p for p in passages if key and key <= tokens(p[0])]
    return sorted(titled, key=lambda p: tokens(p[0]) != key)


def _plain(text: str) -> str:
    """``text``'s :func:`~drrag_cli.text.words.words`, accents folded: "Jean- Pierre Mocky" and
    "Emile Chautard" are found as the titles "Jean-Pierre Mocky" and "Émile Chautard" write them."""
    return words(unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode())  # Émile: emile


def _name(title: str) -> str:
    """A document's title as a text names it: without a trailing "(film)", plain."""
    return _plain(without_aside(title))


def _nearest(text: str, starts: tuple[str, ...], others: Sequence[Passage]) -> Passage | None:
    """The document of ``others`` that ``text`` (plain) names right after a word starting
    with one of ``starts`` ("directed by X"), or right before one ("X directed"): the
    nearest; None when none is named within :data:`_AFTER` characters."""
    cues = [m for m in re.finditer(r"(?<= )\w+", text) if m.group(0).startswith(starts)]
    best, distance = None, None
    for passage in others:
        name = _name(passage[0])
        if len(name) < 5:  # a one- or two-letter title names anything
            continue
        for found in re.finditer(re.escape(name), text):
            at, end = found.start() + 1, found.end() - 1
            gaps = [at - c.end() for c in cues if 0 <= at - c.end() <= _AFTER]
            gaps += [2 * (c.start() - end) + 1 for c in cues if 0 <= c.start() - end <= _BEFORE]
            if gaps and (distance is None or min(gaps) < distance):
                best, distance = passage, min(gaps)
    return best


def bridge_of(side: str, noun: str, passages: Sequence[Passage]) -> Passage | None:
    """The fed document the side's own document names as its ``noun`` ("directed by X" →
    X's document), or None when the side's document or that one is not fed. A document that
    never writes "<relation> by" may name a maker with "by" alone ("a 2012 film by X")."""
    own = _own(side, passages)
    others = [p for p in passages if p not in own]
    starts = named_by(noun)
    for title, text in own:
        plain = _plain(text).replace(_name(title), " ")  # "The Prairie King" never names "The Prairie"
        found = _nearest(plain, starts, others)
        if found is None and noun in _MADE_BY and not re.search(rf" (?:{'|'.join(starts)})\w* by ", plain):
            found = _nearest(plain, ("by",), others)  # "a 2012 film by X", never after "directed by <not fed>"
        if found is not None:
            return found
    return None


def _bridged_value(question: Question, bridge: Passage):
    """The value compared, read in the bridge's document: its life date when the question
    asks about a life, else the statement of the cue's kind nearest the question's words."""
    assert question.cue is not None
    if question.cue.kind == "time" and question.life:
        birth, death = life_dates(bridge[1])
        return birth if question.life == "birth" else death
    head = question.text.split(",")[0]
    attribute = tokens(head) - tokens(" ".join(question.options)) - set(CUES) - {question.bridge}
    return side_value(bridge[0], attribute, question.cue.kind, [bridge])


def bridge_compare(question: Question, passages: Sequence[Passage]) -> Comparison | None:
    """Decide ``question`` between its two sides through each side's ``bridge`` document,
    or None when it has no bridge or a side's document, bridge or value is not fed."""
    cue = question.cue
    if not question.bridge or len(question.options) != 2 or question.yes_no or cue is None:
        return None
    found = []
    for side in question.options:
        bridge = bridge_of(side, question.bridge, passages)
        value = None if bridge is None else _bridged_value(question, bridge)
        if value is None:
            return None
        found.append((bridge[0], value))
    (a_name, (a, a_shown)), (b_name, (b, b_shown)) = found
    if a_name == b_name or a == b or (cue.kind == "time" and not comparable(a, b)):
        return None
    wins = 0 if (a > b) == cue.larger_wins else 1
    values = ((question.options[0], f"{a_name}: {a_shown}"), (question.options[1], f"{b_name}: {b_shown}"))
    return Comparison(question.options[wins], f"{cue.kind} of the {question.bridge}", values)
