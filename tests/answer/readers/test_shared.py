"""Reader "shared": what two named sides have in common."""

from __future__ import annotations

import pytest

from tests.answer.readers.cases import Docs, read
from tests.answer.test_shared import (
    AVAKIAN,
    BITTER,
    CANNON,
    HATTON_CASTLE,
    HATTON_HILL,
    JESTER,
    MENGES,
    SICKO,
    SIMON,
)  # fmt: skip

READ = [
    ("What occupation do Chris Menges and Aram Avakian share?", [MENGES, AVAKIAN], "director"),
    ("What professions did S. Sylvan Simon and Danny Cannon have in common?", [CANNON, SIMON],
     "director and producer"),
    ("What type of media does Bitter Jester and Sicko have in common?", [SICKO, JESTER, BITTER], "documentary"),
    ("Chris Menges and Aram Avakian are both what?", [MENGES, AVAKIAN], "director"),
    ("What country does Hatton Hill and Hatton Castle, Angus have in common?", [HATTON_HILL, HATTON_CASTLE],
     "Scotland"),
]
LEFT = [
    ("The movies Chris Menges and Aram Avakian were both made by which company?", [MENGES, AVAKIAN]),
    ("Are Chris Menges and Aram Avakian both directors?", [MENGES, AVAKIAN]),
    ("What occupation does Chris Menges share with his brother?", [MENGES]),
    ("What is the shared country of ancestry between Chris Menges and Aram Avakian?", [MENGES, AVAKIAN]),
    ("What do Chris Menges and S. Sylvan Simon have in common?", [("Chris Menges", "A poet."), SIMON]),
]
LEFT_IDS = ["a verb after both", "yes/no", "one side", "ancestry", "nothing shared"]


@pytest.mark.parametrize(("question", "docs", "expected"), READ)
def test_read(question: str, docs: Docs, expected: str) -> None:
    assert read("shared", question, docs) == expected


@pytest.mark.parametrize(("question", "docs"), LEFT, ids=LEFT_IDS)
def test_left_to_the_model(question: str, docs: Docs) -> None:
    assert read("shared", question, docs) is None
