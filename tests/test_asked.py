"""What a yes/no question asks two sides to have alike, parsed once (drrag_cli/asked.py, ``Question.alike``)."""

from __future__ import annotations

import pytest

from drrag_cli.asked import Alike, parse

CASES = [
    ("Were Scott Derrickson and Ed Wood of the same nationality?", Alike("same", "nationality")),
    ("Are Mauritz Stiller and Johannes Grenzfurthner both of the same nationality?", Alike("same", "nationality")),
    ("Do Kestrel and Plover belong to different film genres?", Alike("different", "film genres")),
    ("Are Daryl Hall and Gerry Marsden both musicians?", Alike("both", "musicians")),
    ("Are both Cypress and Ajuga genera?", Alike("both", "cypress and ajuga genera")),
    ("Are both Elko Airport and Ford Airport located in Michigan?",
     Alike("both", "elko airport and ford airport located in michigan")),
    ("Are the directors of films Kiss Me and The Bat both from the same country?",
     Alike("same", "country", through="director")),
    ("Was Scott Derrickson American?", None),
    ("Who is older, Ed Wood or Scott Derrickson?", None),
    ("What occupation do Chris Menges and Aram Avakian both have?", None),  # not yes/no: the reader "shared"'s
]  # fmt: skip


@pytest.mark.parametrize(("question", "expected"), CASES)
def test_what_two_sides_are_asked_to_have_alike(question: str, expected: Alike | None) -> None:
    assert parse(question).alike == expected
