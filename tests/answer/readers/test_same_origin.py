"""Reader "same-origin": a yes/no question about two named sides' nationality."""

from __future__ import annotations

import pytest

from tests.answer.readers.cases import Docs, read
from tests.answer.test_origin import ARCHAINBAUD, DERRICKSON, LAXNESS, OSTAVA, SKIN_YARD, WOOD

READ = [
    ("Were Scott Derrickson and Ed Wood of the same nationality?", [DERRICKSON, WOOD], "yes"),
    ("Were Halldór Laxness and Ed Wood from the same country?", [LAXNESS, ("Lund", "A Swedish city."), WOOD], "no"),
    ("Are both Scott Derrickson and George Archainbaud American?", [DERRICKSON, ARCHAINBAUD], "yes"),
    ("Were the bands Skin Yard and Ostava from the U.S.?", [SKIN_YARD, OSTAVA], "no"),
]
LEFT = [
    ("Are Scott Derrickson and Ed Wood both directors?", [DERRICKSON, WOOD]),
    ("Were Scott Derrickson and Ed Wood of the same nationality?", [DERRICKSON, ("Ed Wood", "A filmmaker.")]),
    ("Was Scott Derrickson American?", [DERRICKSON]),
    ("Who is American, Scott Derrickson or Ed Wood?", [DERRICKSON, WOOD]),
]
LEFT_IDS = ["not a nationality", "a side without one", "one side", "not yes/no"]


@pytest.mark.parametrize(("question", "docs", "expected"), READ)
def test_read(question: str, docs: Docs, expected: str) -> None:
    assert read("same-origin", question, docs) == expected


@pytest.mark.parametrize(("question", "docs"), LEFT, ids=LEFT_IDS)
def test_left_to_the_model(question: str, docs: Docs) -> None:
    assert read("same-origin", question, docs) is None
