"""Reader "release": the date a changelog writes after the version asked about."""

from __future__ import annotations

import pytest

from tests.answer.readers.cases import Docs, read

LOG = ("Heron changelog", "# Heron changelog ## [1.1.0] - 2023-05-02 ### Added - Usage report export. "
       "## [1.0.0] - 2023-03-14 First stable release. ## [0.9.0] - 2023-01-20 ### Added - Search UI.")
READ = [
    ("When was Heron 1.0.0 released?", [LOG], "2023-03-14"),
    ("When did Heron v1.0 ship", [LOG], "2023-03-14"),
    ("When was Heron 0.9 released?", [("Pilot notes", "Heron 0.9.0 (20 January 2023) went to the pilot.")],
     "20 January 2023"),
]
LEFT = [
    ("When was Plover 1.0.0 released?", [LOG]),
    ("When was Heron 2.0 released?", [LOG]),
    ("What changed in Heron 1.0.0?", [LOG]),
]
LEFT_IDS = ["not its changelog", "no such version", "not when"]


@pytest.mark.parametrize(("question", "docs", "expected"), READ)
def test_read(question: str, docs: Docs, expected: str) -> None:
    assert read("release", question, docs) == expected


@pytest.mark.parametrize(("question", "docs"), LEFT, ids=LEFT_IDS)
def test_left_to_the_model(question: str, docs: Docs) -> None:
    assert read("release", question, docs) is None
