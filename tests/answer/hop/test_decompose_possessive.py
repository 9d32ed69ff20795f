"""A possessive description of the bridge ("Heron's lead engineer"), asked about by name."""

from __future__ import annotations

import pytest

from drrag_cli.answer.hop.decompose import bridge_question

HERON = "| lead engineer | tobias lindqvist |"  # what the overview says where it names him


@pytest.mark.parametrize(
    ("question", "entity", "near", "about", "expected"),
    [
        ("Where was Heron's lead engineer born?", "Tobias Lindqvist", HERON, "Heron: project overview",
         "Where was Tobias Lindqvist born?"),
        ("In which city was Project Heron's lead engineer born?", "Tobias Lindqvist", HERON, "Heron: project overview",
         "In which city was Tobias Lindqvist born?"),
        ("Which instrument does the Tidepool design's author play?", "Priya Raman", "| author | priya raman |",
         "Design: Tidepool, a second-stage reranker", "Which instrument does Priya Raman play?"),
        # a birthplace is where the document says someone was born
        ("What county is Erik Hort's birthplace a part of?", "Montebello, New York",
         "erik hort (born 1987 in montebello, new york) is a baseball player", "Erik Hort",
         "What county is Montebello, New York a part of?"),
        # a possessed phrase that possesses in turn keeps its "'s", also after "Who is"
        ("Where was Heron's lead engineer's mother born?", "Tobias Lindqvist", HERON, "Heron: project overview",
         "Where was Tobias Lindqvist's mother born?"),
        ("Who is Heron's lead engineer's wife?", "Tobias Lindqvist", HERON, "Heron: project overview",
         "Who is Tobias Lindqvist's wife?"),
        # the document does not say the possessed words where it names the entity
        ("Where was Heron's product manager born?", "Tobias Lindqvist", HERON, "Heron: project overview", None),
        # another possessor than the static document's title
        ("Where was Curlew's lead engineer born?", "Tobias Lindqvist", HERON, "Heron: project overview", None),
        # "What / Who is [Heron's lead engineer]?" asks for the entity itself
        ("Who is Heron's lead engineer?", "Tobias Lindqvist", HERON, "Heron: project overview", None),
        ("What was Heron's lead engineer?", "Tobias Lindqvist", HERON, "Heron: project overview", None),
        # no static-document context
        ("Where was Heron's lead engineer born?", "Tobias Lindqvist", None, "", None),
    ],
)  # fmt: skip
def test_a_possessive_description_is_replaced_when_the_static_document_says_it(
    question: str, entity: str, near: str | None, about: str, expected: str | None
) -> None:
    assert bridge_question(question, entity, near, about) == expected


def test_a_possessive_description_inside_a_definite_one_is_the_one_replaced() -> None:
    """"the university attended by [Heron's lead engineer]": the static document says where
    he studied too, yet the university is what is asked about, not him."""
    near = "tobias studied at lund university | lead engineer | tobias lindqvist"
    question = "When was the university attended by Heron's lead engineer founded?"
    assert bridge_question(question, "Tobias Lindqvist", near, "Heron: project overview") == (
        "When was the university attended by Tobias Lindqvist founded?"
    )
