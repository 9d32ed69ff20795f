"""A note's sections: the heading a question says, fed by retrieval and read by the answer.

"What does Tobias Lindqvist work on?" is answered by his note's "## What he works on"
section: :func:`fitting_section` picks the heading every content word of which the question
says (by stem, besides the note's title words); ``retrieve.strategies._section`` feeds that
passage and :func:`drrag_cli.answer.sections.read_section` reads its first sentence or list.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TypeVar

from drrag_cli.text.words import STOP, WORD_RE, same_word

T = TypeVar("T")

# a passage's heading: its text keeps the "##" but not the line break after the heading, so
# the heading ends where the paragraph's capital (or a list, table or emphasis) starts
_HEADING = re.compile(r"^#{1,6}\s+((?:[\w'’]+\s+)*?[\w'’]+)(?=\s+(?:[A-Z0-9*_`(\[|-]|$))")


def section_heading(text: str) -> tuple[str, str] | None:
    """(heading, the text under it) of a passage that opens with a Markdown heading."""
    found = _HEADING.match(text)
    return (found.group(1), text[found.end() :].strip()) if found else None


def heading_fit(question: str, title: str, heading: str) -> int:
    """How many content words ``heading`` has when the question says every one of them
    (by stem) besides the words of the note's ``title``; 0 when it leaves one unsaid:
    "What does Tobias Lindqvist work on?" fits "What he works on" (1), not "Outside work"."""

    named = WORD_RE.findall(title.lower())
    asked = [w for w in WORD_RE.findall(question.lower()) if w not in STOP]
    asked = [w for w in asked if not any(same_word(w, t) for t in named)]
    words = [w for w in WORD_RE.findall(heading.lower()) if w not in STOP]
    fits = bool(words) and all(any(same_word(w, a) for a in asked) for w in words)
    return len(words) if fits else 0


def fitting_section(question: str, passages: Iterable[tuple[T, str, str]]) -> tuple[T, str, str] | None:
    """Of ``passages`` (key, note title, text), the one whose heading fits the question best
    (:func:`heading_fit`), as (key, heading, the text under it); None when no heading fits,
    or two fit as well. The answer stage reads it (``answer.sections.read_section``); retrieval feeds
    it (``retrieve.strategies._section``)."""
    scored = []
    for key, title, text in passages:
        section = section_heading(text)
        if section is not None and (fit := heading_fit(question, title, section[0])):
            scored.append((fit, key, section))
    best = max((fit for fit, *_ in scored), default=0)
    top = [(key, *section) for fit, key, section in scored if fit == best]
    return top[0] if len(top) == 1 else None
