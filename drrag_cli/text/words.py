"""One module for words: one word pattern, one stop-word list, one stemmer, one answer
normaliser, shared by retrieval (the relevance classifier, named hops), the answer stage
and evaluation. When each rule kept its own, they disagreed on what a word is
("headquartered" met "headquarters" in one rule and not in the next).

**Stop words.** :data:`STOP` holds the words no match is made on: articles, prepositions,
pronouns, the auxiliaries and the question words. :data:`VAGUE` is its one extension: words
too general to tell two passages apart ("about", "more", "first", "same", "such"), left
out of the relevance classifier's word features and of the adaptive note's fallback
queries as ``STOP | VAGUE``. The answer stage keeps them, since "first" or "before" can be
what a question asks.

**The stem.** :func:`stem` is the one stemmer: every match "by stem" (a question's word
in a note, a table header, a counted noun, a role compared) calls it, or :func:`same_word`
or :func:`content` built on it. It strips inflections, never a derivation, so the
forms of one word meet and two words of one root do not:

* ``-ies`` → ``-y`` ("studies" → "study"), ``-es`` after s, x, z, ch or sh ("matches" →
  "match"), ``-s`` but not ``-ss``, ``-us`` or ``-is`` ("backups" → "backup"; "class",
  "genus", "analysis" stay); then ``-ing`` or ``-ed`` ("restoring", "joined", "buildings"),
  undoubling a consonant they leave ("starring" → "star"; not l, s or z: "called" → "call");
* then a final ``-e`` goes ("restore" → "restor", meeting "restoring"; "languages" and
  "language" → "languag"), and a final ``-y`` after a consonant becomes ``-i`` ("cities"
  and "city" → "citi", "movies" and "movie" → "movi");
* at least four letters stay: "role" and "roles" are "role", "used" stays "used"; a
  word too short to lose its ``-ed`` loses the ``-d`` after its ``-e`` ("moved" → "move").

Agent nouns keep their ``-er``/``-or``: "director" does not meet "directed", or a
comparison of who directed two films would read the statement about a film's director
of photography. Only the named hops, which look for where a note names the entity a
question describes ("the director of X": "X is a film directed by Y"), match an agent
noun with its verb, by :func:`root`: the stem, then ``-er``/``-or`` off it (four letters
kept), on both sides of the match; a stem that ends so by losing its ``-e`` is cut too
("restor" → "rest"), alike on both sides.

:func:`normalize_answer` is SQuAD's, so the answer stage's "is this answer in the fed
text" and the scorer's "is this answer right" read an answer alike.
"""

from __future__ import annotations

import re
import string
from functools import lru_cache

STOP = frozenset(
    "a an the of in on at to for from by with as and or is are was were be been has have had that this who which "
    "what whose whom where when how did does do it its their his her "
    "i me my we us our you your they them he him she".split()  # "tells you to use": no pointer
)
VAGUE = frozenset(
    "about after all also any before being between both but can could done during each first here if into may "
    "might more most no not one only onto other over same shall should some such than then there these those "
    "two under why will would yes".split()
)
CALENDAR = frozenset(
    "january february march april may june july august september october november december "
    "monday tuesday wednesday thursday friday saturday sunday".split()
)
MONTHS = {m: i for i, m in enumerate(
    "january february march april may june july august september october november december".split(), start=1)}
MONTHS |= {m[:3]: i for m, i in list(MONTHS.items())} | {"sept": 9}
WORD_RE = re.compile(r"[^\W_]+")
PARTICLES = "van|von|de|der|den|du|da|di|del|della|dos|la|le|al|bin|ibn"  # "Vincent van Gogh", "Mies van der Rohe"


def words(text: str) -> str:
    """``text``'s words, lower-case, one space apart and one space around: a phrase test
    by ``in`` (" kestrel rail " in words(text))."""
    return f" {' '.join(WORD_RE.findall(text.lower()))} "


MIN_STEM = 4  # letters a stem keeps at least
_SIBILANT_ES = ("ses", "xes", "zes", "ches", "shes")
_NOT_PLURAL = ("ss", "us", "is")
_VOWELS = frozenset("aeiou")


@lru_cache(maxsize=1 << 16)
def stem(word: str) -> str:
    """The one stem of a lower-case word (the module's manual says how): "backups" →
    "backup", "restoring" and "restore" → "restor", "joined" → "join", "role" and "roles"
    → "role"; "director" stays itself, "directed" is "direct"."""
    bare = _without_ending(word)
    if len(bare) > MIN_STEM and bare[-1] == "e":
        return bare[:-1]
    if len(bare) >= MIN_STEM and bare[-1] == "y" and bare[-2] not in _VOWELS:
        return bare[:-1] + "i"
    return bare


def _without_ending(word: str) -> str:
    """``word`` without a plural or third-person ending, then without ``-ing`` or ``-ed``
    ("buildings" → "build", "hundreds" → "hundr" as "hundred"), each only when
    :data:`MIN_STEM` letters are left."""
    if word.endswith("ies") and len(word) - 2 >= MIN_STEM:
        return word[:-3] + "y"
    if word.endswith(_SIBILANT_ES) and len(word) - 2 >= MIN_STEM:
        return word[:-2]
    if word.endswith("s") and not word.endswith(_NOT_PLURAL) and len(word) - 1 >= MIN_STEM:
        word = word[:-1]
    for ending in ("ing", "ed"):
        if word.endswith(ending) and len(word) - len(ending) >= MIN_STEM:
            bare = word[: -len(ending)]
            doubled = bare[-1] == bare[-2] and bare[-1] not in _VOWELS and bare[-1] not in "lsz"
            return bare[:-1] if doubled and len(bare) > MIN_STEM else bare
    if word.endswith("ed") and len(word) > MIN_STEM and word[-3] not in _VOWELS:
        return word[:-1]  # a short word's -d after its -e: "moved" → "move", as "move" stays
    return word


def content(text: str) -> set[str]:
    """The :func:`stem` of each content word of ``text`` (lower-case, not in :data:`STOP`)."""
    return {stem(w) for w in WORD_RE.findall(text.lower()) if w not in STOP}


def root(word: str) -> str:
    """A word's :func:`stem`, and an agent noun's the stem of the verb it is made from
    ("director" → "direct", as "directed"; "composers" → "compos", as "composed"): the key
    a named hop matches a question's "the director of X" with a note's "directed by Y"."""
    bare = stem(word)
    if bare.endswith(("er", "or")) and len(bare) - 2 >= MIN_STEM:
        return bare[:-2]
    return bare


def roots(text: str) -> set[str]:
    """The :func:`root` of each content word of ``text`` (lower-case, not in :data:`STOP`)."""
    return {root(w) for w in WORD_RE.findall(text.lower()) if w not in STOP}


def content_words(text: str) -> set[str]:
    """The content words of ``text``, lower-case, unstemmed."""
    return {w for w in WORD_RE.findall(text.lower()) if w not in STOP}


def same_word(a: str, b: str) -> bool:
    """Two lower-case words of one :func:`stem`: "works" / "work", "joined" / "join", "on" / "on"."""
    return a == b or stem(a) == stem(b)


_ARTICLES = re.compile(r"\b(a|an|the)\b")
_PUNCT = frozenset(string.punctuation)


def normalize_answer(text: str) -> str:
    """SQuAD normalisation: lowercase, drop punctuation, drop a/an/the, collapse spaces.

    Same order as the official script (punctuation before articles), so "the-end"
    becomes "theend" there too and scores stay comparable.
    """
    text = "".join(ch for ch in text.lower() if ch not in _PUNCT)
    return " ".join(_ARTICLES.sub(" ", text).split())


def stands_in(norm: str, text: str) -> bool:
    """True when ``norm`` (a phrase already through :func:`normalize_answer`) stands, word
    for word and in order, in ``text`` once normalised: "uppsala" in "Born in Uppsala."."""
    return f" {norm} " in f" {normalize_answer(text)} "
