"""Reader "kin": who a kin word names, its links walked through the fed documents and the last
read in words."""

from __future__ import annotations

import pytest

from drrag_cli.answer.relatives import relative_named
from tests.answer.readers.cases import Docs, read

MARTA = ("Marta Lindqvist", "Marta Lindqvist (born 1988) is a Swedish cellist, the daughter of the painter Oskar "
         "Lindqvist and the architect Hanna Berg.")
OSKAR = ("Oskar Lindqvist", "Oskar Lindqvist (1950–2019) was a Swedish painter. His father was the boatbuilder "
         "Anders Lindqvist; his elder sister, Greta Lindqvist, ran the yard.")
HANNA = ("Hanna Berg", "Hanna Berg is a Norwegian architect. Born in Bergen to Nils Berg and Sigrid Dahl, she married "
         "the painter Oskar Lindqvist in 1979.")
READ = [
    ("Who is the paternal grandfather of Marta Lindqvist?", [MARTA, OSKAR], "Anders Lindqvist"),
    ("Who is Marta Lindqvist's maternal grandmother?", [MARTA, HANNA], "Sigrid Dahl"),
    ("Who is Marta Lindqvist's maternal grandfather?", [HANNA, MARTA], "Nils Berg"),  # any order fed
    ("Who is the aunt of Marta Lindqvist?", [MARTA, OSKAR], "Greta Lindqvist"),  # a parent's sister
    ("Who is Oskar Lindqvist's father?", [OSKAR], "Anders Lindqvist"),  # one link: read in the named document
    ("Who is the father-in-law of Hanna Berg?", [HANNA, OSKAR], "Anders Lindqvist"),
]  # fmt: skip
LEFT = [
    ("Who is the paternal grandfather of Marta Lindqvist?", [MARTA]),  # the father's page is not fed
    ("Where was Marta Lindqvist's paternal grandfather born?", [MARTA, OSKAR]),  # a trait: bridge-trait's
    ("Who is Marta Lindqvist's paternal grandmother?", [MARTA, OSKAR]),  # the text names no mother of his
    ("Who is older, Marta Lindqvist or Oskar Lindqvist?", [MARTA, OSKAR]),
]


@pytest.mark.parametrize(("question", "docs", "expected"), READ)
def test_read(question: str, docs: Docs, expected: str) -> None:
    assert read("kin", question, docs) == expected


@pytest.mark.parametrize(("question", "docs"), LEFT)
def test_left_to_the_model(question: str, docs: Docs) -> None:
    assert read("kin", question, docs) is None


@pytest.mark.parametrize(
    ("text", "link", "expected"),
    [
        ("He was the only son of king Charles the Simple and his second wife Eadgifu of Wessex.", "father",
         "Charles the Simple"),
        ("He was the only son of king Charles the Simple and his second wife Eadgifu of Wessex.", "mother",
         "Eadgifu of Wessex"),
        ("Born in Florence to Jerome, 4th Count de Salis-Soglio and Henrietta Foster, he went to Eton.", "father",
         "Jerome, 4th Count de Salis-Soglio"),
        ("He was a son of Ali ibn Abi Talib and Muhammad's daughter Fatimah. He is revered.", "mother", "Fatimah"),
        ("After the death of his father Haytham II Shirvanshah he fought the Khazars.", "father",
         "Haytham II Shirvanshah"),
        ("She is married to the engineer Jonas Weber.", "spouse", "Jonas Weber"),
        ("Oskar Lindqvist (1950–2019) was a Swedish painter.", "father", None),
    ],
)  # fmt: skip
def test_relative_named(text: str, link: str, expected: str | None) -> None:
    assert relative_named(text, link) == expected


def test_the_subject_is_never_its_own_relative() -> None:
    text = "Sir Roger Martin, 3rd Baronet was the son of Sir Roger Martin, 2nd Baronet."
    assert relative_named(text, "father", "Sir Roger Martin, 3rd Baronet") == "Sir Roger Martin, 2nd Baronet"
