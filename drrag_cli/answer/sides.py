"""The two sides a question offers, read against the fed documents' titles: "Did Frankie
Valli sing with Hellogoodbye or The Four Seasons?", "Which film was released first: Sacred
Planet or Oz the Great and Powerful?", "Is the Marsilea or the Brabejum the genus of more
species?".

The question's own text shows its sides only where punctuation bounds them ("…, A or B?",
:func:`drrag_cli.text.options.answer_options`); elsewhere a side's first or last word cannot
be told from the question's. A fed document's title can: when the question writes "A or B"
(each side with or without "the"; or, asking which or who, "between A and B") and A and B
are two fed documents' titles (without a trailing "(…)"), those are its sides, and the
answer stage treats it as any choice question: the comparison readers decide it, or the
model may answer only A or B.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from drrag_cli.answer.origin import side_name
from drrag_cli.asked import Question
from drrag_cli.text.relations import without_aside


def titled_sides(question: Question, titles: Sequence[str]) -> Question:
    """``question`` with the two fed ``titles`` it offers as "A or B" as its options; as it
    is when it already has options (its sides, or yes | no) or names no such pair."""
    if question.options:
        return question
    asked = f" {question.plain} "
    names = {side_name(title): without_aside(title) for title in titles if side_name(title)}
    joins = [" or "] + ([" and "] if " which " in asked or " who " in asked else [])
    pairs = [
        (len(a) + len(b), names[a], names[b])
        for a in names
        for b in names
        if a != b and any(_offered(asked, a, join, b) for join in joins)
    ]
    if not pairs:
        return question
    _, first, second = max(pairs)  # the longest titles: "Battle of Peleliu", not "Peleliu"
    return replace(question, options=(first, second))


def _offered(asked: str, a: str, join: str, b: str) -> bool:
    """``asked`` (plain words, spaced) offers ``a`` and ``b`` as "a or b" (either with "the"),
    or, for ``join`` "and", as "between a and b"."""
    lead = " between " if join == " and " else " "
    return any(f"{lead}{x}{a}{join}{y}{b} " in asked for x in ("", "the ") for y in ("", "the "))
