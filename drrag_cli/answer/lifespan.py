"""A person's birth and death dates as their document states them, told apart.

A comparison of "who died first" that takes a person document's first date reads the
birth: "William Reeves Eason (October 2, 1886 – June 9, 1956) was …" states both, the
birth before the dash. Wikipedia-style openings give the span in the first bracket that
holds a date ("( 19 February 1913, Vienna, Austria – 13 July 1997 New York City)",
"(born 3 December 1950)", "(died 1990)", "(c. 1200 – 1260)"; a lone "(1886)" says neither); without one, a sentence's
"born …" or "died …" is read. :func:`life_dates` returns each as (key, as written) with the
key of :func:`~drrag_cli.answer.compare.dates`, or None when the text does not state it.
"""

from __future__ import annotations

import re

from drrag_cli.answer.dates import dates
from drrag_cli.text.sentences import opening, sentences

Dated = tuple[tuple[int, int, int], str]

_BRACKET = re.compile(r"\(([^()]*)\)")
# the span's dash: spaced, an en / em dash, a hyphen between two years ("1886-1956") or
# after a place ("19 July 1886, London- 29 September 1972"), or "born 5 April 1937, died 25 September 2004"
_DASH = re.compile(r"\s[-–—]\s|[–—]|(?<=\d{4})-(?=\d{4}\b)|(?<=[a-z])-\s(?=\d)|\s+to\s+|[,;]\s*(?=(?:died|d\.)\s)")
_DIED = re.compile(r"\b(?:died|d\.|death)\s", re.IGNORECASE)
_BORN = re.compile(r"\b(?:born|b\.)\s", re.IGNORECASE)
_OPENING = 300  # the span stands in the opening sentence; a later bracket dates something else


def life_dates(text: str) -> tuple[Dated | None, Dated | None]:
    """(birth, death) as ``text`` states them; either None when it does not."""
    first = opening(text)[:_OPENING]
    for bracket in _BRACKET.finditer(first):
        span = _span(bracket.group(1))
        if span != (None, None):
            return span
    return _stated(text, _BORN), _stated(text, _DIED)


def life_span(text: str) -> tuple[str, str] | None:
    """The opening's bracket that :func:`life_dates` reads, as its two sides around the dash
    (birth, death; "" after a lone date): where :mod:`.trait` reads the places beside the
    dates. None when no bracket of the opening states a birth or death."""
    for bracket in _BRACKET.finditer(opening(text)[:_OPENING]):
        if _span(bracket.group(1)) != (None, None):
            parts = _DASH.split(bracket.group(1), maxsplit=1)
            return parts[0], parts[1] if len(parts) == 2 else ""
    return None


def _span(inside: str) -> tuple[Dated | None, Dated | None]:
    """The birth and death a bracket states: dates before and after its dash, or the one
    date a "born" / "died" marks; (None, None) when it holds no date."""
    parts = _DASH.split(inside, maxsplit=1)
    first = dates(parts[0])[0]
    if len(parts) == 2:
        second = dates(parts[1])[0]
        return (first[0] if first else None), (second[0] if second else None)
    if not first:
        return None, None
    if _DIED.search(inside + " "):
        return None, first[0]
    return (first[0], None) if _BORN.search(inside + " ") else (None, None)  # "(1886)" says neither


def _stated(text: str, marker: re.Pattern[str]) -> Dated | None:
    """The first date after ``marker`` ("born", "died") in the sentence that says it."""
    for sentence in sentences(text):
        found = marker.search(sentence + " ")
        if found:
            after = dates(sentence[found.end() :])[0]
            if after:
                return after[0]
    return None


def comparable(a: tuple[int, int, int], b: tuple[int, int, int]) -> bool:
    """Two date keys that order the same whatever a missing part would be: both with a year,
    and in different years unless both give the month (and day, if the month is the same)."""
    if a[0] == 0 or b[0] == 0:
        return False
    if a[0] != b[0]:
        return True
    if a[1] == 0 or b[1] == 0:
        return False
    return a[1] != b[1] or (a[2] != 0 and b[2] != 0)
