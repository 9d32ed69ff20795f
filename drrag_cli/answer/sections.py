"""A note's section read as the answer: "What does Tobias Lindqvist work on?" is the first
sentence (or the list) under his note's "## What he works on".

Which heading fits the question is :mod:`drrag_cli.text.sections`, shared with retrieval,
which feeds that passage (``retrieve.strategies._section``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from drrag_cli.answer.tables import Lookup
from drrag_cli.ingest.units import statement_units
from drrag_cli.text.sections import fitting_section, section_heading
from drrag_cli.text.tables import linearise


def read_section(question: str, docs: Sequence[tuple[str, str]]) -> Lookup | None:
    """"What does Tobias Lindqvist work on?" over his note's "## What he works on Ranking,
    indexing, query parsing and evaluation harnesses. …": the first sentence (or the list)
    under the one heading of a note the question names by its whole title that fits the
    question best (:func:`~drrag_cli.text.sections.heading_fit`); None when no heading fits, or two fit as well."""
    from drrag_cli.select.bridges import names_title

    found = fitting_section(question, [
        (number, title, text) for number, (title, text) in enumerate(docs)
        if names_title(question, title) and _under_heading(text)
    ])  # fmt: skip
    if found is None:
        return None
    number, heading, body = found
    title = docs[number][0]
    if body[:2] in ("- ", "* "):  # a list: its items ("Ask me about - inverted indexes … - Swedish fika etiquette")
        items = [item.strip() for item in re.split(r"(?:^|\s)[-*]\s+", body) if item.strip()]
        return Lookup("; ".join(items[:_LIST_ITEMS]), title, heading, number, "list")
    first = statement_units(linearise(body))
    return Lookup(first[0].strip(), title, heading, number, "text") if first else None


def _under_heading(text: str) -> bool:
    """The passage opens with a heading and has text under it (a bare heading has nothing to read)."""
    section = section_heading(text)
    return section is not None and bool(section[1])


_LIST_ITEMS = 6  # a section's list read as the answer: its first items
