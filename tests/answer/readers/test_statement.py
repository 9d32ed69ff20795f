"""Reader "statement": the value a sentence states after the question's verb."""

from __future__ import annotations

import pytest

from tests.answer.readers.cases import Docs, read
from tests.answer.test_statements import PROFILE

TOBIAS = ("Tobias Lindqvist", "He studied computer science at Uppsala University and then moved to Belgium.")
READ = [
    ("Where was Inês Carvalho born?", [PROFILE], "Braga"),
    ("When was Scott Derrickson born?", [("Scott Derrickson", "Scott Derrickson (born July 16, 1966) is a director.")],
     "July 16, 1966"),
    ("Who was Jaws directed by?", [("Jaws (film)", "Jaws is a 1975 American thriller film directed by Steven "
                                   "Spielberg.")], "Steven Spielberg"),
    ("Where did Tobias Lindqvist study?", [TOBIAS], "Uppsala University"),
    ("In which city was Inês Carvalho born?", [PROFILE], "Braga"),
]  # fmt: skip
LEFT = [
    ("Where was Inês Carvalho born?", [PROFILE, ("Inês Carvalho (old)", "Inês was born in Porto.")]),
    ("Where was the Porto office lead born?", [PROFILE]),
    ("Why was Inês Carvalho born in Braga?", [PROFILE]),
    ("When was Inês Carvalho born?", [PROFILE]),
    ("Was Inês Carvalho born in Braga?", [PROFILE]),
]
LEFT_IDS = ["two values", "a description, not a name", "why", "no date follows", "yes/no"]


@pytest.mark.parametrize(("question", "docs", "expected"), READ)
def test_read(question: str, docs: Docs, expected: str) -> None:
    assert read("statement", question, docs) == expected


@pytest.mark.parametrize(("question", "docs"), LEFT, ids=LEFT_IDS)
def test_left_to_the_model(question: str, docs: Docs) -> None:
    assert read("statement", question, docs) is None
