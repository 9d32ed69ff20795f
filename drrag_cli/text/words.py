"""One module for words: one word pattern, one stop-word list, one stemmer, one answer
normaliser, shared by selection (named hops), the answer stage and evaluation.

When each rule kept its own, they disagreed on what a word is ("headquartered" met
"headquarters" in one and not in the next). :func:`stem` is the one crude stem every
match by stem uses; :func:`normalize_answer` is SQuAD's, so the answer stage's "is this
answer in the fed text" and the scorer's "is this answer right" read an answer alike.
"""

from __future__ import annotations

import re
import string

STOP = frozenset(
    "a an the of in on at to for from by with as and or is are was were be been has have had that this who which "
    "what whose whom where when how did does do it its their his her "
    "i me my we us our you your they them he him she".split()  # "tells you to use": no pointer
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


def stem(word: str) -> str:
    """A crude stem, enough to match a question's words with a note's: the first five
    letters ("backup"/"backups", "restoring"/"restore", "headquarters"/"headquartered")."""
    return word[:5]


def uninflected(word: str) -> str:
    """A word without its ending (-ing, -ed, -es, -s) when enough is left (four letters or
    more): what the readers compare attribute and role words by ("founded"/"found",
    "cocktails"/"cocktail", "directed"/"direct"), where a five-letter :func:`stem` would
    join "director" with "directed" and decide comparisons from the wrong statement."""
    for suffix in ("ing", "ed", "es", "s"):
        if len(word) > len(suffix) + 3 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


def content(text: str) -> set[str]:
    """The stems of the content words of ``text``, lower-case."""
    return {stem(w) for w in WORD_RE.findall(text.lower()) if w not in STOP}


def content_words(text: str) -> set[str]:
    """The content words of ``text``, lower-case, unstemmed."""
    return {w for w in WORD_RE.findall(text.lower()) if w not in STOP}


def same_stem(a: str, b: str) -> bool:
    """"joined" / "join", "languages" / "language", "role" / "roles": four letters at least,
    and all but the shorter word's last letter when it has five or more."""
    n = min(len(a), len(b))
    n = n - 1 if n > 4 else n
    return n >= 4 and a[:n] == b[:n]


def same_word(a: str, b: str) -> bool:
    """The same word, or two words of one stem (:func:`same_stem`): "on" / "on", "works" / "work"."""
    return a == b or same_stem(a, b)


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
