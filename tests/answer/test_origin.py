"""Yes/no questions about two named sides' nationality, decided in code (answer/origin.py):
the pure reading first, then a real `ask` (MiniLM index + the embedded Gemma) that answers
without a model call."""

from __future__ import annotations

from pathlib import Path

import pytest

from drrag_cli.answer.origin import asked_origin, nationality, read_origin, same_origin
from drrag_cli.asked import parse
from tests.conftest import ask_notes

DERRICKSON = ("Scott Derrickson", "Scott Derrickson (born July 16, 1966) is an American director, screenwriter and "
              "producer. He lives in Los Angeles.")
WOOD = ("Ed Wood", "Edward Davis Wood Jr. (October 10, 1924 – December 10, 1978) was an American filmmaker.")
ARCHAINBAUD = ("George Archainbaud", "George Archainbaud (May 7, 1890 – February 20, 1959) was a French-born "
               "American film and television director.")
LAXNESS = ("Halldór Laxness", "Halldór Kiljan Laxness (born Halldór Guðjónsson; 23 April 1902 – 8 February 1998) "
           "was a twentieth-century Icelandic writer.")
OSTAVA = ("Ostava", "Ostava (Bulgarian: Остава) is a Bulgarian rock band from Sofia. They toured the U.S. in 2009.")
SKIN_YARD = ("Skin Yard", "Skin Yard was an American grunge band from Seattle, Washington.")


def decide(question: str, docs: list[tuple[str, str]]) -> str | None:
    found = same_origin(parse(question), docs)
    return found.answer if found else None


def test_the_nationality_is_the_opening_sentences_first_demonym_or_country() -> None:
    assert nationality(DERRICKSON[1]) == ("United States", "American")
    assert nationality(ARCHAINBAUD[1]) == ("United States", "American")  # "French-born" is skipped
    assert nationality(OSTAVA[1]) == ("Bulgaria", "Bulgarian")  # not the bracket's, not the second sentence's U.S.
    assert nationality("Plover is a search pipeline. It was built in Portugal.") is None  # only the first sentence


@pytest.mark.parametrize(
    ("question", "docs", "expected"),
    [
        ("Were Scott Derrickson and Ed Wood of the same nationality?", [DERRICKSON, WOOD], "yes"),
        ("Were Halldór Laxness and Ed Wood from the same country?", [LAXNESS, ("Lund", "A Swedish city."), WOOD],
         "no"),
        ("Are both Scott Derrickson and George Archainbaud American?", [DERRICKSON, ARCHAINBAUD], "yes"),
        ("Were the bands Skin Yard and Ostava from the U.S.?", [SKIN_YARD, OSTAVA], "no"),
        ("Are Ed Wood and Halldór Laxness both American directors?", [WOOD, LAXNESS], "no"),
    ],
)
def test_two_named_sides_nationalities_decide_the_yes_or_no(question: str, docs, expected: str) -> None:  # noqa: ANN001
    assert decide(question, docs) == expected


@pytest.mark.parametrize(
    ("question", "docs"),
    [
        ("Are Scott Derrickson and Ed Wood both directors?", [DERRICKSON, WOOD]),
        ("Were Scott Derrickson and Ed Wood of the same nationality?", [DERRICKSON, ("Ed Wood", "A filmmaker.")]),
        ("Was Scott Derrickson American?", [DERRICKSON]),
        ("Were Scott Derrickson and Ed Wood born in the same city?", [DERRICKSON, WOOD]),
        ("Who is American, Scott Derrickson or Ed Wood?", [DERRICKSON, WOOD]),
    ],
    ids=["not a nationality", "a side without one", "one side", "not a country", "not yes/no"],
)
def test_anything_else_is_left_to_the_model(question: str, docs) -> None:  # noqa: ANN001
    assert decide(question, docs) is None


def test_ask_decides_a_nationality_question_without_a_model_call(cli, tmp_path: Path) -> None:  # noqa: ANN001
    notes = {
        "mara.md": "# Mara Quint\n\nMara Quint is a Dutch hydrologist who leads the Osprey drone project.\n",
        "joost.md": "# Joost Brand\n\nJoost Brand is a Belgian engineer. He builds weather balloons in Ghent.\n",
        "soup.md": "# Lentil soup\n\nSimmer red lentils with cumin for twenty minutes.\n",
    }
    doc = ask_notes(cli, tmp_path / "c", notes, "Are Mara Quint and Joost Brand of the same nationality?")
    assert doc["answer"] == "no" and doc["llm_calls"] == 0 and doc["supported"]
    assert doc["compared"]["kind"] == "origin"
    assert doc["compared"]["values"] == {"Mara Quint": "Dutch", "Joost Brand": "Belgian"}
    code, out, _ = cli("ask", "Are Mara Quint and Joost Brand of the same nationality?")
    assert code == 0 and out.splitlines()[0] == "no"
    assert "compared nationalities: Mara Quint: Dutch vs Joost Brand: Belgian" in out


def test_what_nationality_is_read_for_one_or_two_named_sides() -> None:
    gell = ("Alfred Gell", "Alfred Antony Francis Gell (June 12, 1945 – January 28, 1997) was a British social "
            "anthropologist. He was trained by Edmund Leach.")
    leach = ("Edmund Leach", "Sir Edmund Ronald Leach (1910 – 1989) was a British social anthropologist.")
    asked = parse("What nationality were social anthropologists Alfred Gell and Edmund Leach?")
    both = asked_origin(asked, [gell, leach])
    assert both is not None and both.answer == "British" and both.kind == "origin"
    mixed = asked_origin(parse("What nationality were Scott Derrickson and Ostava?"), [DERRICKSON, OSTAVA])
    assert mixed is not None and mixed.answer == "American and Bulgarian"
    one = read_origin(parse("What nationality was Halldór Laxness?"), [gell, LAXNESS])
    assert one is not None and (one.answer, one.row, one.document) == ("Icelandic", "Halldór Laxness", 1)
    assert read_origin(parse("What nationality was Ed Wood?"), [("Ed Wood", "A filmmaker.")]) is None  # none read
    yes_no = parse("Were Alfred Gell and Edmund Leach British?")
    assert asked_origin(yes_no, [gell, leach]) is None  # yes/no: same_origin
