"""Where a document names the one a relation noun asks for: "directed by Claude Zidi".

A question reaches a value through a relation ("Which film has the director who is older,
Stadium Nuts or Lady for a Day?"): each side's document names its director, and that one's
document states the birth date. The side's document rarely uses the noun itself; it uses
the noun's verb ("director" → "directed by X"), or a few irregular words ("author" → "wrote",
"father" → "son of"). :func:`named_by` gives those word starts; :func:`related` finds which
of some titles a document names nearest after (or right before) one of them. Retrieval keeps
that document as the side's second hop (:mod:`drrag_cli.retrieve.strategies`), and the
answer stage compares the values it states (:mod:`drrag_cli.answer.bridge`). Pure string
rules.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from drrag_cli.text.words import root, words

_PARENT_OR_CHILD = ("son", "daughter", "child", "father", "mother")  # "X is the son of Y" names both
# relation nouns whose documents name them with another word than the noun's own stem
_NAMED_BY = {
    "author": ("author", "writ", "wrote", "novel"),
    "writer": ("writ", "wrote", "author"),
    "father": ("father", "son", "daughter", "child"),
    "mother": ("mother", "son", "daughter", "child"),
    "parent": _PARENT_OR_CHILD,
    "child": _PARENT_OR_CHILD,
    "spouse": ("spouse", "married", "wife", "husband", "consort", "widow"),
    "wife": ("wife", "married", "husband", "consort", "widow"),
    "husband": ("husband", "married", "wife", "consort", "widow"),
    "singer": ("sing", "sung", "sang", "perform"),
    "performer": ("perform", "sing", "sung", "sang", "record"),
    "composer": ("compos", "music", "score", "writ", "wrote"),
}
# relations a work's maker stands in: a document that never says "directed" may say "a film by X"
MADE_BY = frozenset({"director", "author", "writer", "creator", "performer"})  # "a song by X"
AFTER, BEFORE = 25, 3  # how far (plain characters) a name stands after / before the relation word
# a relative is often described before named: "a son of former Lillestrøm player Kjetil Osvold"
KIN = frozenset({"father", "mother", "parent", "child", "spouse", "wife", "husband"})
KIN_AFTER = 50
_TRAILING = re.compile(r"\s*\([^)]*\)\s*$")


def without_aside(title: str) -> str:
    """A title without its trailing "(…)": "Peter Curtis (tennis)" → "Peter Curtis"."""
    return _TRAILING.sub("", title)


def named_by(noun: str) -> tuple[str, ...]:
    """The word starts a side's document names the relation ``noun`` with: the noun, its
    verb when the noun is an agent ("director" → direct), or :data:`_NAMED_BY`'s words."""
    if noun in _NAMED_BY:
        return _NAMED_BY[noun]
    verb = root(noun)  # the one stemmer's agent-noun root: "director" → "direct"
    if verb != noun and noun.endswith(("or", "er")) and len(noun) >= 7:
        return noun, verb
    return (noun,)


def plain(text: str) -> str:
    """``text``'s :func:`~drrag_cli.text.words.words`, accents folded: "Jean- Pierre Mocky" and
    "Emile Chautard" are found as the titles "Jean-Pierre Mocky" and "Émile Chautard" write them."""
    return words(unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode())  # Émile: emile


def title_name(title: str) -> str:
    """A document's title as a text names it: without a trailing "(film)", plain."""
    return plain(without_aside(title))


def nearest(text: str, starts: tuple[str, ...], titles: Sequence[str], after: int = AFTER) -> int | None:
    """The index of the title in ``titles`` that ``text`` (plain) names right after a word
    starting with one of ``starts`` ("directed by X"), or right before one ("X directed"):
    the nearest; None when none is named within ``after`` characters."""
    cues = [m for m in re.finditer(r"(?<= )\w+", text) if m.group(0).startswith(starts)]
    best, distance = None, None
    for i, title in enumerate(titles):
        name = title_name(title)
        if len(name) < 5:  # a one- or two-letter title names anything
            continue
        for found in re.finditer(re.escape(name), text):
            at, end = found.start() + 1, found.end() - 1
            gaps = [at - c.end() for c in cues if 0 <= at - c.end() <= after]
            gaps += [2 * (c.start() - end) + 1 for c in cues if 0 <= c.start() - end <= BEFORE]
            if gaps and (distance is None or min(gaps) < distance):
                best, distance = i, min(gaps)
    return best


def related(title: str, text: str, noun: str, titles: Sequence[str]) -> int | None:
    """The index of the title in ``titles`` that the document ``title`` / ``text`` names as its
    ``noun`` ("directed by X" → X), or None. A document that never writes "<relation> by"
    may name a maker with "by" alone ("a 2012 film by X"); its own title never counts ("The
    Prairie King" does not name "The Prairie")."""
    starts = named_by(noun)
    text = plain(text).replace(title_name(title), " ")
    found = nearest(text, starts, titles, KIN_AFTER if noun in KIN else AFTER)
    if found is None and noun in MADE_BY and not re.search(rf" (?:{'|'.join(starts)})\w* by ", text):
        found = nearest(text, ("by",), titles)  # "a 2012 film by X", never after "directed by <not fed>"
    return found
