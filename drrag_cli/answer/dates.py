"""Dates as a text writes them, read as sortable (year, month, day) keys.

"14 June 2019", "June 14, 2019", "2019-06-14", "June 2019" and "2019" are all read; each
date is blanked out of the text once read, so the comparison (:mod:`.compare`) never reads a
day or a year as a count, and the life span (:mod:`.lifespan`) splits a bracket's dates.
"""

from __future__ import annotations

import re

from drrag_cli.text.words import MONTHS

_MONTH = (r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?"
          r"|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?")
_DATE_RES = (  # (regex, group order): day month year / month day year / iso / month year / year
    (re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+({_MONTH})(?:,?\s+(\d{{4}}))?\b", re.I), "dmy"),
    (re.compile(rf"\b({_MONTH})\s+(\d{{1,2}})(?:st|nd|rd|th)?(?:,?\s+(\d{{4}}))?\b", re.I), "mdy"),
    (re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b"), "iso"),
    (re.compile(rf"\b({_MONTH})\s+(\d{{4}})\b", re.I), "my"),
    (re.compile(r"(?<![\d.,])(1[0-9]{3}|20[0-9]{2})(?![\d.,]\d)"), "y"),
)


def dates(text: str) -> tuple[list[tuple[tuple[int, int, int], str]], str]:
    """The dates in ``text`` as ((year, month, day), as written), and the text with them
    blanked out (so a day is never read as a count). A date without a year has year 0."""
    found: list[tuple[int, tuple[int, int, int], str]] = []
    for regex, order in _DATE_RES:
        for m in regex.finditer(text):
            g = m.groups()
            if order == "dmy":
                key = (int(g[2] or 0), MONTHS[g[1].lower().rstrip(".")], int(g[0]))
            elif order == "mdy":
                key = (int(g[2] or 0), MONTHS[g[0].lower().rstrip(".")], int(g[1]))
            elif order == "iso":
                key = (int(g[0]), int(g[1]), int(g[2]))
            elif order == "my":
                key = (int(g[1]), MONTHS[g[0].lower().rstrip(".")], 0)
            else:
                key = (int(g[0]), 0, 0)
            found.append((m.start(), key, m.group(0)))
            text = text[: m.start()] + " " * (m.end() - m.start()) + text[m.end() :]
    return [(key, shown) for _, key, shown in sorted(found)], text
