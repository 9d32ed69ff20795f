"""Version numbers a question names and the dates a changelog gives them.

"When was Heron 1.0.0 released?": retrieval adds the changelog passage that dates the
version when no fed passage does (``retrieve.context``), and the answer stage reads the
date (``answer.statements.read_release``); both read versions this one way.
"""

from __future__ import annotations

import re

from drrag_cli.text.words import MONTHS

_LETTERS = re.compile(r"[^\W\d_]+")
VERSION_RE = re.compile(r"(?<![\w.])v?(\d+(?:\.\d+)+)(?![\w.]*\d)")
_DATED_VERSION = re.compile(  # "## [1.0.0] - 2023-03-14", "1.2 (14 March 2023)", "v2.0: March 3, 2024"
    r"(?<![\w.])\[?v?(\d+(?:\.\d+)+)\]?\s*(?:[-–—:(|]\s*)+(\d{4}-\d{2}-\d{2}|\d{1,2}\s+[A-Z][a-z]+\.?\s+\d{4}"
    r"|[A-Z][a-z]+\.?\s+\d{1,2},?\s+\d{4})"
)


def named_version(question: str) -> str | None:
    """The one version number the question names ("Heron 1.0.0", "v2.1"), without its zero
    tail ("1", "2.1"); None when it names none, or two."""
    versions = {_zero_tail(v) for v in VERSION_RE.findall(question)}
    return next(iter(versions)) if len(versions) == 1 else None


def release_dates(text: str, version: str) -> list[tuple[str, str]]:
    """(version as written, date) wherever the text dates ``version`` (as :func:`named_version`
    gives it) right after it: a changelog's "## [1.0.0] - 2023-03-14", "1.2 (14 March
    2023)", "v2.0: March 3, 2024"."""
    out = []
    for match in _DATED_VERSION.finditer(text):
        written, date = match.groups()
        month = {w.lower() for w in _LETTERS.findall(date)} - {"st", "nd", "rd", "th"}
        if _zero_tail(written) == version and (not month or month <= set(MONTHS)):
            out.append((written, date))
    return out


def _zero_tail(version: str) -> str:
    return re.sub(r"(?:\.0)+$", "", version)
