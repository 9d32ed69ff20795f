"""A fact the text states outright, read in code (generate/statements.py)."""

from __future__ import annotations

from drrag_cli.generate.statements import read_statement

PROFILE = (
    "Inês Carvalho",
    "# Inês Carvalho | | | |---|---| | **Role** | Senior data engineer, Porto office lead | "
    "## Background Inês was born in Braga and studied computer engineering at the University of Minho. "
    "She spent five years at a telecom operator in Lisbon.",
)


def test_the_value_after_the_question_s_verb_is_read() -> None:
    read = read_statement("Where was Inês Carvalho born?", [PROFILE])
    assert read is not None and (read.answer, read.row, read.column, read.document) == (
        "Braga", "Inês Carvalho", "born", 0)  # fmt: skip


def test_a_pronoun_or_a_bare_verb_in_the_subject_s_own_document_counts() -> None:
    note = ("Marisol Okonkwo", "Hydrologist at the regional water board. Born and raised in Porto; moved in 2009.")
    assert read_statement("Where was Marisol Okonkwo born?", [note]).answer == "Porto"  # type: ignore[union-attr]
    hale = ("Peter Hale", "Peter Hale chaired the garden club. He was born in Leeds and taught chemistry.")
    assert read_statement("Where was Peter Hale born?", [hale]).answer == "Leeds"  # type: ignore[union-attr]


def test_dates_and_agents() -> None:
    director = ("Scott Derrickson", "Scott Derrickson (born July 16, 1966) is an American director.")
    assert read_statement("When was Scott Derrickson born?", [director]).answer == "July 16, 1966"  # type: ignore[union-attr]
    film = ("Jaws (film)", "Jaws is a 1975 American thriller film directed by Steven Spielberg.")
    assert read_statement("Who was Jaws directed by?", [film]).answer == "Steven Spielberg"  # type: ignore[union-attr]
    founded = ("Halyard Labs", "Halyard Labs was founded in 2019 in Ghent.")
    assert read_statement("When was Halyard Labs founded?", [founded]).answer == "2019"  # type: ignore[union-attr]


def test_the_model_answers_when_the_text_disagrees_is_silent_or_is_about_someone_else() -> None:
    other = ("Sofie Janssens", "Sofie was born in Mechelen.")
    assert read_statement("Where was Inês Carvalho born?", [PROFILE, other]).answer == "Braga"  # type: ignore[union-attr]
    twice = ("Inês Carvalho (old)", "Inês was born in Porto.")
    assert read_statement("Where was Inês Carvalho born?", [PROFILE, twice]) is None
    assert read_statement("Where was Sofie Janssens born?", [PROFILE]) is None
    assert read_statement("When was Inês Carvalho born?", [PROFILE]) is None  # no date follows "born"


def test_only_a_plain_question_about_a_name_is_read() -> None:
    assert read_statement("Where was the Porto office lead born?", [PROFILE]) is None  # a description
    assert read_statement("How did Inês Carvalho study?", [PROFILE]) is None
    assert read_statement("Why was Inês Carvalho born in Braga?", [PROFILE]) is None


def test_a_plain_verb_after_did_or_does_is_read_in_its_past_or_present_form() -> None:
    tobias = ("Tobias Lindqvist", "He studied computer science at Uppsala University and then moved to Belgium.")
    read = read_statement("Where did Tobias Lindqvist study?", [tobias])
    assert read is not None and (read.answer, read.column) == ("Uppsala University", "study")
    hannah = ("Hannah Osei", "Hannah was born in Kumasi, Ghana, and grew up in London.")
    assert read_statement("Where did Hannah Osei grow up?", [hannah]).answer == "London"  # type: ignore[union-attr]
    aiko = ("Aiko Tanabe", "Aiko lives in Ghent and works in the Dok Noord office.")
    assert read_statement("Where does Aiko Tanabe live?", [aiko]).answer == "Ghent"  # type: ignore[union-attr]
    died = ("Ada Byron", "Ada Byron died in London in 1852.")
    assert read_statement("When did Ada Byron die?", [died]).answer == "1852"  # type: ignore[union-attr]
    assert read_statement("Where did Ada Byron die?", [died]).answer == "London"  # type: ignore[union-attr]
    assert read_statement("Where did Inês Carvalho study?", [PROFILE]).answer == "University of Minho"  # type: ignore[union-attr]
    clause = ("Ruben De Smet", "Ruben studied economics and then worked in Brussels.")
    assert read_statement("Where did Ruben De Smet study?", [clause]) is None  # "then": another clause's place


def test_a_question_typed_without_its_question_mark_is_read_too() -> None:
    assert read_statement("Where was Inês Carvalho born", [PROFILE]).answer == "Braga"  # type: ignore[union-attr]
    assert read_statement("where did Inês Carvalho study", [PROFILE]).answer == "University of Minho"  # type: ignore[union-attr]
