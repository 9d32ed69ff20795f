"""Reader "definition": what a sentence says the asked name is."""

from __future__ import annotations

import pytest

from tests.answer.readers.cases import Docs, read

REPORT = ("Saltmarsh: Compact Sentence Embeddings", "Abstract We describe Saltmarsh, a compact sentence "
          "embedding model for document search in small organisations, that work in Dutch.")
GLOSSARY = ("Glossary", "**Saltmarsh** : Our compact sentence embedding model, used for dense retrieval.")
MAREN = ("Maren Okafor", "# Maren Okafor | | | |---|---| | **Role** | Co-founder, CEO and head of research | "
         "| **Office** | Ghent |")
READ = [
    ("What is Saltmarsh?", [GLOSSARY, REPORT],
     "a compact sentence embedding model for document search in small organisations"),
    ("What is Saltmarsh?", [GLOSSARY], "Our compact sentence embedding model"),
    ("Who is Maren Okafor?", [MAREN], "Co-founder, CEO and head of research"),
]
LEFT = [
    ("What is Saltmarsh?", [("Saltmarsh: Compact Sentence Embeddings", "Saltmarsh is weak on short queries.")]),
    ("What is the plan?", [REPORT]),
    ("Is Saltmarsh a model?", [GLOSSARY]),
]
LEFT_IDS = ["'is weak' is not what it is", "a description, not a name", "yes/no"]


@pytest.mark.parametrize(("question", "docs", "expected"), READ)
def test_read(question: str, docs: Docs, expected: str) -> None:
    assert read("definition", question, docs) == expected


@pytest.mark.parametrize(("question", "docs"), LEFT, ids=LEFT_IDS)
def test_left_to_the_model(question: str, docs: Docs) -> None:
    assert read("definition", question, docs) is None
