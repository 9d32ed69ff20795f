"""What kind of thing a question asks for, and whether a document says it is one.

"Which American film director hosted ...?" asks for a director (:func:`asked_kind`); "John
Waters is an American film director" says its subject is one (:func:`says_it_is`). Used
where a rewrite or a picked document must be of the asked kind. Pure string rules.
"""

from __future__ import annotations

import re

from drrag_cli.answer.hop.description import BE, DO, PARTICIPLE_RE, PREPOSITIONS
from drrag_cli.text.words import STOP, WORD_RE

OPENING = 200  # characters of the bridge's document where it says what it is ("... is an American film director")


def says_it_is(kind: str, entity: str, opening: str) -> bool:
    """The bridge's name or its document's opening says it is a ``kind``: "Lund University",
    "John Waters is an American film director" (a form of be, then at most five words). A
    profile that says its subject "studied ... at Musashino Art University" does not make
    her a university."""
    if kind in WORD_RE.findall(entity.lower()):
        return True
    said = re.compile(rf"\b(?:is|was|are|were)\s+(?:[\w'’-]+\s+){{0,5}}?{re.escape(kind)}s?\b", re.IGNORECASE)
    return bool(said.search(opening))


def asked_kind(question: str) -> str:
    """The noun a "What / Which <noun> ...?" question asks for, lower-case: the last word of
    the words after the question word, up to a preposition, a form of be / do / have or a
    past participle ("Which American film [director] hosted ...", "In which [city] was
    ..."); "" for other questions ("Who ...?", "Where ...?")."""
    words = WORD_RE.findall(question.lower())
    at = next((i for i, w in enumerate(words[:3]) if w in ("what", "which")), None)
    if at is None:
        return ""
    kind = ""
    for word in words[at + 1 :]:
        if word in PREPOSITIONS or word in BE or word in DO or word in STOP or PARTICIPLE_RE.search(word):
            break
        kind = word
    return kind
