"""What two named sides share, read in code (answer/shared.py): the pure reading first,
then a real `ask` (MiniLM index) that answers without a model call."""

from __future__ import annotations

from pathlib import Path

import pytest

from drrag_cli.answer.readers import registry
from drrag_cli.answer.shared import roles, shared, shared_roles
from drrag_cli.asked import parse
from drrag_cli.config import AnswerSettings
from tests.conftest import ask_notes

MENGES = ("Chris Menges", "Chris Menges BSC, ASC (born 15 September 1940) is an English cinematographer and film "
          "director. He is a member of both the American and British Societies of Cinematographers.")
AVAKIAN = ("Aram Avakian", "Aram A. Avakian (April 23, 1926 – January 17, 1987) was an Armenian-American film editor "
           "and director. His work in the latter role includes a jazz film.")
SIMON = ("S. Sylvan Simon", "S. Sylvan Simon (March 9, 1910 – May 17, 1951) was an American stage/film director and "
         "producer.")
CANNON = ("Danny Cannon", "John Danny Cannon (born 1968 in Luton, England) is a British film and television writer, "
          "director and producer.")
SICKO = ("Sicko", "Sicko is a 2007 American documentary film made by filmmaker Michael Moore. It investigates health "
         "care.")
JESTER = ("Jester", "A jester was historically an entertainer during the medieval and Renaissance eras.")
BITTER = ("Bitter Jester", "Bitter Jester is a documentary starring Maija DiGiorgio and Kenny Simmons.")
HATTON_HILL = ("Hatton Hill", "Hatton Hill is a hill in the Pentland Hills of Scotland.")
HATTON_CASTLE = ("Hatton Castle, Angus", "Hatton Castle is a restored 16th-century tower house near Newtyle in "
                 "Angus, Scotland.")


def answer(question: str, docs: list[tuple[str, str]]) -> str | None:
    found = shared(parse(question), docs)
    return found.answer if found else None


def test_a_documents_roles_are_what_its_opening_sentence_says_it_is() -> None:
    assert roles(MENGES[1]) == [["cinematographer"], ["film", "director"]]
    assert roles(AVAKIAN[1]) == [["film", "editor"], ["director"]]  # not cut at "A.", no "Armenian-American"
    assert roles(SIMON[1]) == [["stage"], ["film", "director"], ["producer"]]
    assert roles(SICKO[1]) == [["documentary", "film"]]  # no year, no nationality, not who made it
    assert roles("Plover runs on a laptop. It is a search pipeline.") == []  # only the first sentence's "is"


def test_a_profile_without_such_a_sentence_gives_its_role_row() -> None:
    tobias = "# Tobias Lindqvist\n\n| | |\n|---|---|\n| **Role** | Senior software engineer (search) |\n"
    dmitri = "# Dmitri Volkov\n\n| | |\n|---|---|\n| **Role** | Contract engineer |\n| **Office** | Ghent |\n"
    assert roles(tobias) == [["senior", "software", "engineer"]]
    docs = [("Tobias Lindqvist", "## What he works on\n\nRanking for Saltmarsh."), ("Tobias Lindqvist", tobias),
            ("Dmitri Volkov", dmitri)]  # his Role row is in the second passage fed
    assert answer("What do Tobias Lindqvist and Dmitri Volkov have in common?", docs) == "engineer"


def test_shared_roles_meet_at_their_ending_words_or_where_one_starts_the_other() -> None:
    assert shared_roles([["film", "director"]], [["film", "editor"], ["director"]]) == ["director"]
    assert shared_roles([["critic"], ["author", "of", "sixteen", "books"]], [["film", "critic"], ["author"]]) == [
        "critic", "author"]  # fmt: skip
    assert shared_roles([["mint", "cocktail"]], [["family", "of", "cocktails"]]) == ["cocktails"]
    assert shared_roles([["documentary"]], [["documentary", "film"]]) == ["documentary"]
    assert shared_roles([["poet"]], [["novelist"]]) == []


@pytest.mark.parametrize(
    ("question", "docs", "expected"),
    [
        ("What occupation do Chris Menges and Aram Avakian share?", [MENGES, AVAKIAN], "director"),
        ("What professions did S. Sylvan Simon and Danny Cannon have in common?", [CANNON, SIMON],
         "director and producer"),
        ("What type of media does Bitter Jester and Sicko have in common?", [SICKO, JESTER, BITTER], "documentary"),
        ("Chris Menges and Aram Avakian are both what?", [MENGES, AVAKIAN], "director"),
        ("What country does Hatton Hill and Hatton Castle, Angus have in common?", [HATTON_HILL, HATTON_CASTLE],
         "Scotland"),
    ],
    ids=["share", "in common, the question's order", "a name inside another", "are both what", "a country"],
)
def test_what_two_named_sides_share_is_read(question: str, docs, expected: str) -> None:  # noqa: ANN001
    assert answer(question, docs) == expected


@pytest.mark.parametrize(
    ("question", "docs"),
    [
        ("The movies Chris Menges and Aram Avakian were both made by which company?", [MENGES, AVAKIAN]),
        ("Are Chris Menges and Aram Avakian both directors?", [MENGES, AVAKIAN]),
        ("What occupation does Chris Menges share with his brother?", [MENGES]),
        ("What is the shared country of ancestry between Chris Menges and Aram Avakian?", [MENGES, AVAKIAN]),
        ("What do Chris Menges and S. Sylvan Simon have in common?", [("Chris Menges", "A poet."), SIMON]),
    ],
    ids=["a verb after both", "yes/no", "one side", "ancestry is not the opening's nationality", "nothing shared"],
)
def test_anything_else_is_left_to_the_model(question: str, docs) -> None:  # noqa: ANN001
    assert answer(question, docs) is None


def test_a_shared_role_is_decided_before_the_model_is_asked() -> None:
    question = "What occupation do Chris Menges and Aram Avakian share?"
    reading = registry.first(parse(question), [MENGES, AVAKIAN], AnswerSettings().readers)
    assert reading is not None and reading.reader == "shared"
    found = reading.compared
    assert found.kind == "shared"
    assert dict(found.values) == {"Chris Menges": "cinematographer, film director",
                                  "Aram Avakian": "film editor, director"}  # fmt: skip


def test_ask_reads_what_two_notes_share_without_a_model_call(cli, tmp_path: Path) -> None:  # noqa: ANN001
    notes = {
        "mara.md": "# Mara Quint\n\nMara Quint is a Dutch hydrologist and drone pilot. She leads the Osprey project.\n",
        "joost.md": "# Joost Brand\n\nJoost Brand is a Belgian engineer and drone pilot. He lives in Ghent.\n",
        "soup.md": "# Lentil soup\n\nSimmer red lentils with cumin for twenty minutes.\n",
    }
    doc = ask_notes(cli, tmp_path / "c", notes, "What do Mara Quint and Joost Brand have in common?")
    assert doc["answer"] == "drone pilot" and doc["llm_calls"] == 0 and doc["supported"]
    values = {"Mara Quint": "hydrologist, drone pilot", "Joost Brand": "engineer, drone pilot"}
    assert doc["compared"] == {"kind": "shared", "answer": "drone pilot", "values": values}
    code, out, _ = cli("ask", "What do Mara Quint and Joost Brand have in common?")
    assert code == 0 and out.splitlines()[0] == "drone pilot"
    said = "compared what each is: Mara Quint: hydrologist, drone pilot vs Joost Brand: engineer, drone pilot"
    assert said in " ".join(out.split())  # as rich wraps it
