"""A gold answer's other forms come from the documents and the question, never from a looser gold."""

from __future__ import annotations

from drrag_cli.evaluate.forms import accepted, gold_forms, opening_name

McRANEY = ("Gerald McRaney", "Gerald Lee McRaney (born August 19, 1947) is an American actor.")
OH = ("Sandra Oh", "Sandra Miju Oh (born July 20, 1971) is a Canadian actress.")
FILM = ("Kiss and Tell (1945 film)", "Kiss and Tell is a 1945 American comedy film starring Shirley Temple.")


def test_a_documents_opening_name_shares_a_word_with_its_title() -> None:
    assert opening_name(*McRANEY) == "Gerald Lee McRaney"
    assert opening_name(*FILM) == "Kiss and Tell"
    assert opening_name("Heron", "# Heron\n\nHeron is a sensor buoy project.") == "Heron"  # a note's heading
    assert opening_name("Gerald McRaney", "In 1990, he moved to Mississippi.") is None  # no name: no shared word


def test_the_title_and_the_opening_name_stand_for_each_other() -> None:
    docs = [McRANEY, OH, FILM]
    assert gold_forms(["Gerald Lee McRaney"], "Who starred in Simon & Simon?", docs) == ["Gerald McRaney"]
    assert gold_forms(["Sandra Oh"], "Which actress starred in Barrier Device?", docs) == ["Sandra Miju Oh"]
    assert gold_forms(["Shirley Temple"], "Who starred in Kiss and Tell?", docs) == []


def test_a_year_when_the_question_asks_a_year_and_a_country_for_its_people() -> None:
    assert gold_forms(["8 June 1951"], "In what year was Bonnie Tyler born?", []) == ["1951"]
    assert gold_forms(["8 June 1951"], "When was Bonnie Tyler born?", []) == []
    assert "United States" in gold_forms(["American"], "Which country is he from?", [])
    assert "Italian" in gold_forms(["Italy"], "Which country is her husband from?", [])


def test_accepted_holds_acc_and_forms_word_for_word() -> None:
    assert accepted("Gerald Lee McRaney", ["Gerald Lee McRaney"])  # Acc itself
    assert accepted("Gerald McRaney", ["Gerald Lee McRaney"], ["Gerald McRaney"])
    assert accepted("dog", ["Dogs"]) and accepted("the Dogs", ["dog"])  # singular and plural
    assert not accepted("Gerald", ["Gerald Lee McRaney"], ["Gerald McRaney"])  # a part of a form is not it
    assert not accepted("a focus group", ["American"], ["US"])  # a form stands as whole words only
    assert not accepted("United Kingdom", ["American"], gold_forms(["American"], "Which country?", []))
