"""Decomposed answers when the question describes a fed document's own subject."""

from __future__ import annotations

from drrag_cli.generate.decompose import bridge_context, bridged
from tests.generate.test_decompose import selected

PROFILE = "| **Role** | Senior data engineer, Porto office lead |"
BORN = "Inês was born in Braga and studied computer engineering."


def test_a_description_one_profile_states_is_asked_about_its_subject() -> None:
    """"the Porto office lead" is a row of Inês Carvalho's profile and of no other fed
    document: the question is asked about her, and her profile is what the model reads
    (Sofie's "born in Mechelen", fed beside it, answered it before)."""
    ines_row = selected(1, "people/ines.md", "Inês Carvalho", PROFILE)
    ines_bio = selected(2, "people/ines.md", "Inês Carvalho", BORN)
    sofie = selected(3, "people/sofie.md", "Sofie Janssens", "Sofie was born in Mechelen.")
    question = "Where was the Porto office lead born?"
    asked, bridge = bridged(question, [ines_row, ines_bio, sofie])
    assert (asked, bridge.entity, bridge.source) == ("Where was Inês Carvalho born?", "Inês Carvalho", "people/ines.md")
    passages = [d.passage for d in (ines_row, ines_bio, sofie)]
    assert [p.source for p in bridge_context(bridge, passages)] == ["people/ines.md", "people/ines.md"]


def test_no_subject_rewrite_when_the_description_is_not_one_document_s() -> None:
    ines_row = selected(1, "people/ines.md", "Inês Carvalho", PROFILE)
    sofie = selected(3, "people/sofie.md", "Sofie Janssens", "Sofie was the Porto office lead until 2021.")
    assert bridged("Where was the Porto office lead born?", [ines_row, sofie]) is None  # two hold it
    assert bridged("Where was the Ghent office lead born?", [ines_row, sofie]) is None  # none holds "ghent"
    # a person asked for is the subject itself; an indefinite description is no reference
    fateh = selected(1, "fateh.md", "Eenasul Fateh", "Eenasul Fateh, known as Aladin, is a management consultant.")
    assert bridged("Who was known by his stage name Aladin and worked as a consultant?", [fateh]) is None
    assert bridged("Where did Aladin work as a consultant?", [fateh]) is None
    # the object of a preposition inside a longer description is not the subject
    said = "She is the only female music director in the Telugu film industry."
    srilekha = selected(1, "srilekha.md", "M. M. Srilekha", said)
    asked = "Which comedy had music by the only female music director in the Telugu film industry?"
    assert bridged(asked, [srilekha]) is None
