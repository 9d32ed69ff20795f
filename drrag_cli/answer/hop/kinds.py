"""What kind of thing a question asks for, and whether a document says it is one.

"Which American film director hosted ...?" asks for a director
(:attr:`drrag_cli.asked.Question.kind`, parsed once); "John Waters is an American film
director" says its subject is one (:func:`says_it_is`). Used where a rewrite or a picked
document must be of the asked kind. Pure string rules.
"""

from __future__ import annotations

import re

from drrag_cli.text.words import WORD_RE

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
