"""Reader "verify": a yes/no question about one named subject, its value compared with the one
the open question reads, or its property checked on the subject's opening sentence."""

from __future__ import annotations

import pytest

from drrag_cli.answer.verify import open_question
from drrag_cli.asked import parse
from tests.answer.readers.cases import Docs, read

HARBOUR = ("Harbour Lights (film)", "Harbour Lights is a 1994 Norwegian drama film directed by Maren Solberg and "
           "starring Ilse Varga.")  # fmt: skip
MAREN = ("Maren Solberg", "Maren Solberg (born 12 March 1951 in Tromsø, Norway) is a Norwegian film director.")
ILSE = ("Ilse Varga", "Ilse Varga (born 3 June 1960 in Graz) is an Austrian actress. She died in Vienna in 2019.")
ALL = [HARBOUR, MAREN, ILSE]

READ = [
    ("Was Harbour Lights directed by Maren Solberg?", "yes"),
    ("Was Harbour Lights directed by Ilse Varga?", "no"),  # she stars in the sentence that names the director
    ("Was Maren Solberg born in Tromsø?", "yes"),
    ("Was Maren Solberg born in Norway?", "yes"),  # the region written after the town
    ("Was Maren Solberg born in Graz?", "no"),
    ("Was Maren Solberg born in 1951?", "yes"),
    ("Was Ilse Varga born in 1951?", "no"),
    ("Did Ilse Varga die in Vienna?", "yes"),
    ("Is Ilse Varga an Austrian actress?", "yes"),
    ("Is Maren Solberg Austrian?", "no"),
    ("Is Maren Solberg Norwegian?", "yes"),
    ("Is Ilse Varga a film director?", "no"),
    ("Is Harbour Lights a Norwegian film?", "yes"),
]
LEFT = [
    ("Was Ilse Varga born in Austria?", ALL),  # a country the sentence does not write: not said
    ("Was Harbour Lights directed by Maren Solberg?", [ILSE]),  # the film's page not fed
    ("Is Ilse Varga a wonderful person?", ALL),  # no kind the opening says
    ("Are Maren Solberg and Ilse Varga both Austrian?", ALL),  # two sides: the reader "both"'s
    ("Where was Maren Solberg born?", ALL),  # not yes/no
]
LEFT_IDS = ["a country not written", "the subject's page not fed", "a property not read", "two sides", "open"]


@pytest.mark.parametrize(("question", "expected"), READ)
def test_read(question: str, expected: str) -> None:
    assert read("verify", question, ALL) == expected


@pytest.mark.parametrize(("question", "docs"), LEFT, ids=LEFT_IDS)
def test_left_to_the_model(question: str, docs: Docs) -> None:
    assert read("verify", question, docs) is None


def test_the_open_question_asks_who_where_or_when_by_the_value() -> None:
    assert open_question(parse("Was Harbour Lights directed by Maren Solberg?")) == (
        "Who was Harbour Lights directed by?", "Maren Solberg")  # fmt: skip
    assert open_question(parse("Was Maren Solberg born in Tromsø?")) == ("Where was Maren Solberg born?", "Tromsø")
    assert open_question(parse("Did Ilse Varga die in 2019?")) == ("When did Ilse Varga die?", "2019")
    assert open_question(parse("Is Maren Solberg Austrian?")) is None
