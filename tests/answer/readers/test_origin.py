"""Readers "asked-origin" (two named sides) and "origin" (one): "What nationality …?"."""

from __future__ import annotations

import pytest

from tests.answer.readers.cases import Docs, read
from tests.answer.test_origin import DERRICKSON, LAXNESS, OSTAVA

GELL = ("Alfred Gell", "Alfred Antony Francis Gell (1945–1997) was a British social anthropologist.")
LEACH = ("Edmund Leach", "Sir Edmund Ronald Leach (1910–1989) was a British social anthropologist.")
READ = [
    ("asked-origin", "What nationality were social anthropologists Alfred Gell and Edmund Leach?", [GELL, LEACH],
     "British"),
    ("asked-origin", "What nationality were Scott Derrickson and Ostava?", [DERRICKSON, OSTAVA],
     "American and Bulgarian"),
    ("origin", "What nationality was Halldór Laxness?", [GELL, LAXNESS], "Icelandic"),
]
LEFT = [
    ("asked-origin", "Were Alfred Gell and Edmund Leach British?", [GELL, LEACH]),
    ("asked-origin", "What nationality was Halldór Laxness?", [GELL, LAXNESS]),
    ("origin", "What nationality was Ed Wood?", [("Ed Wood", "A filmmaker.")]),
    ("origin", "What nationality were Alfred Gell and Edmund Leach?", [GELL, LEACH]),
]
LEFT_IDS = ["yes/no is same-origin's", "one side is origin's", "none read", "two sides are asked-origin's"]


@pytest.mark.parametrize(("name", "question", "docs", "expected"), READ)
def test_read(name: str, question: str, docs: Docs, expected: str) -> None:
    assert read(name, question, docs) == expected


@pytest.mark.parametrize(("name", "question", "docs"), LEFT, ids=LEFT_IDS)
def test_left_to_the_model(name: str, question: str, docs: Docs) -> None:
    assert read(name, question, docs) is None
