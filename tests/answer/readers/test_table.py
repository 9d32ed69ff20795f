"""Reader "table": a cell, a key's value or a timeline's date the question names."""

from __future__ import annotations

import pytest

from tests.answer.readers.cases import Docs, read
from tests.answer.test_tables import REGISTER

DOCS = [("Board update", "Kestrel Rail signed."), ("Client register", REGISTER)]
READ = [
    ("In which city is Kestrel Rail headquartered?", DOCS, "Linz, Austria"),
    ("Who is the account owner of Kestrel Rail?", DOCS, "Ruben De Smet"),
]
LEFT = [
    ("What is Kestrel Rail?", DOCS),
    ("Is Kestrel Rail headquartered in Linz?", DOCS),
    ("In which city is Vellmar headquartered?", DOCS),
    ("How is Kestrel Rail headquartered?", DOCS),
    ("Which is headquartered in Linz, Kestrel Rail or Stadsarchief Aalst?", DOCS),
]
LEFT_IDS = ["no column asked for", "yes/no", "no such row", "not a wh-question a cell answers", "a choice"]


@pytest.mark.parametrize(("question", "docs", "expected"), READ)
def test_read(question: str, docs: Docs, expected: str) -> None:
    assert read("table", question, docs) == expected


@pytest.mark.parametrize(("question", "docs"), LEFT, ids=LEFT_IDS)
def test_left_to_the_model(question: str, docs: Docs) -> None:
    assert read("table", question, docs) is None
