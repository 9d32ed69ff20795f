"""Reader "count": the number a sentence writes before the counted noun."""

from __future__ import annotations

import pytest

from tests.answer.readers.cases import Docs, read

SALTMARSH = ("Saltmarsh: Compact Sentence Embeddings", "We describe Saltmarsh, a compact embedding model. "
             "Saltmarsh has 22 million parameters and produces 384-dimensional vectors.")
HALLIBURTON = ("Halliburton", "An American multinational corporation. It has operations in more than 70 "
               "countries and employs approximately 50,000 people.")
OSPREY = ("Project Osprey", "Osprey is a sailing drone. It carries 12 onboard sensors.")
READ = [
    ("How many parameters does Saltmarsh have?", [SALTMARSH], "22 million"),
    ("How many sensors does Osprey carry?", [OSPREY], "12"),
    ("How many sensors does the drone carry?", [OSPREY], "12"),
    ("Halliburton has operations in how many countries?", [HALLIBURTON], "more than 70"),
]
LEFT = [
    ("How many dimensions does Saltmarsh have?", [SALTMARSH]),
    ("How many parameters does Saltmarsh have?", [SALTMARSH, ("Tidepool", "Saltmarsh has 110 million parameters.")]),
    ("How many times did Halliburton move?", [HALLIBURTON]),
    ("Is Saltmarsh bigger than 20 million parameters?", [SALTMARSH]),
]
LEFT_IDS = ["not written so", "two values", "times are counted in passing", "yes/no"]


@pytest.mark.parametrize(("question", "docs", "expected"), READ)
def test_read(question: str, docs: Docs, expected: str) -> None:
    assert read("count", question, docs) == expected


@pytest.mark.parametrize(("question", "docs"), LEFT, ids=LEFT_IDS)
def test_left_to_the_model(question: str, docs: Docs) -> None:
    assert read("count", question, docs) is None
