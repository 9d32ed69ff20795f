"""A passage's units: sentences, table rows, headings, list items.

Stored passage text has its whitespace collapsed (line breaks cannot be relied on), so the
units are found by their marks: a sentence end before a capital, a blank line, the
boundary of two table rows (``| … | | … |``), a heading's hashes, a list item's dash. The
classifier's focus features, the bridge check of ``answer.mode: decompose`` and the
comparison reader all read passages unit by unit. Pure ``re``: the CLI's client path
imports it too.
"""

from __future__ import annotations

import re

UNIT_RE = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(\[])|\n\s*\n|\s\|\s*\|\s|\s+(?=#{1,6}\s)|\s+-\s+(?=\S)")


def units(text: str) -> list[str]:
    """The units of ``text``, stripped, in order."""
    return [u.strip() for u in UNIT_RE.split(text) if u and u.strip()]


# For reading values: a dash before a digit joins, so "## [1.0.0] - 2023-03-14" stays one
# statement (the classifier's features keep UNIT_RE, the split they were trained with).
_STATEMENT_RE = re.compile(UNIT_RE.pattern.replace(r"\s+-\s+(?=\S)", r"\s+-\s+(?=[^\s\d])"))


def statement_units(text: str) -> list[str]:
    """:func:`units`, except that a dash before a digit does not start a list item."""
    return [u.strip() for u in _STATEMENT_RE.split(text) if u and u.strip()]


# A unit that ends in an initial or a title's abbreviation ("James P.", "Dr.") goes on in the next
# (the rule text/sentences.py keeps for a document's opening; units() itself stays the classifier's).
_ABBREVIATED = re.compile(r"(?:^|[\s(])(?:[A-Z]|Mr|Mrs|Ms|Dr|St|Jr|Sr|Mt|Prof|Gen|Col|Lt|Capt|Rev)\.$")


def whole_units(text: str) -> list[str]:
    """:func:`units`, an initial's full stop not ending one: "James P. Hogan" and "J. M. Barrie"
    stay in their sentence (the bridge's sentences of ``answer.mode: decompose``)."""
    out: list[str] = []
    for unit in units(text):
        if out and _ABBREVIATED.search(out[-1]):
            out[-1] = f"{out[-1]} {unit}"
        else:
            out.append(unit)
    return out
