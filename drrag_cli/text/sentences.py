"""Where a sentence of a document ends, for the readers that read a document's opening
("X (1 May 1920 – 2 June 1990) was an American director.") or its sentences one by one.

A sentence ends at ".", "!" or "?" after a word of three or more letters, digits or a
closing bracket or quote, before a capital: not after an initial ("John R. "Johnny" Cash
(born J. R. Cash; …)", "George E. Marshall") or "Dr.", which would cut an opening before
what it says the person is.
"""

from __future__ import annotations

import re

SENTENCE_END = re.compile(r"(?<=[a-z0-9)\"”]{3}[.!?])\s+(?=[A-Z])")


def sentences(text: str) -> list[str]:
    """``text``'s sentences, in order."""
    return SENTENCE_END.split(text.strip())


def opening(text: str, n: int = 1) -> str:
    """``text``'s first ``n`` sentences."""
    return " ".join(SENTENCE_END.split(text.strip(), maxsplit=n)[:n])
