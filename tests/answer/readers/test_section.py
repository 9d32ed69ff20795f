"""Reader "section": the first sentence under the heading of a named note the question says."""

from __future__ import annotations

import pytest

from tests.answer.readers.cases import Docs, read

WORKS = ("Tobias Lindqvist", "## What he works on Ranking, indexing, query parsing and evaluation harnesses. "
         "He reviews most changes.")
OUTSIDE = ("Tobias Lindqvist", "## Outside work Tobias is a keen long-distance skater. He bakes buns.")
ASK = ("Tobias Lindqvist", "## Ask me about - inverted indexes, BM25 and hybrid ranking - Swedish fika etiquette")
DOCS = [WORKS, OUTSIDE, ASK]
READ = [
    ("What does Tobias Lindqvist work on?", DOCS, "Ranking, indexing, query parsing and evaluation harnesses."),
    ("What does Tobias Lindqvist do outside work?", DOCS, "Tobias is a keen long-distance skater."),
    ("What can I ask Tobias Lindqvist about?", DOCS,
     "inverted indexes, BM25 and hybrid ranking; Swedish fika etiquette"),
]
LEFT = [
    ("Where was Tobias Lindqvist born?", DOCS),
    ("What does the search lead work on?", DOCS),
]
LEFT_IDS = ["no heading says it", "the note is not named"]


@pytest.mark.parametrize(("question", "docs", "expected"), READ)
def test_read(question: str, docs: Docs, expected: str) -> None:
    assert read("section", question, docs) == expected


@pytest.mark.parametrize(("question", "docs"), LEFT, ids=LEFT_IDS)
def test_left_to_the_model(question: str, docs: Docs) -> None:
    assert read("section", question, docs) is None
