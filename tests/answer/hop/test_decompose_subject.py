"""Decomposed answers when the question describes a fed document's own subject."""

from __future__ import annotations

from drrag_cli.answer.hop.decompose import _after_do, bridge_context, bridged
from tests.answer.hop.test_decompose import selected

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
    # a note that only mentions the description does not say its subject is it
    said = "The second Heron buoy costs €4,800 in parts, and the LoRa gateway another 650 euros."
    budget = selected(1, "budget.md", "Heron budget", said)
    assert bridged("How much does the LoRa gateway cost?", [budget]) is None  # was "How much does Heron budget cost?"
    # a description that opens the question, after a stray space, is no error (it was an IndexError)
    assert bridged(" The Porto office lead was born in which city?", [ines_row, sofie]) is None


def test_a_profile_s_own_subject_outranks_a_person_it_names_for_its_own_role() -> None:
    """Ruben's profile ("Role | Co-founder and COO") names Maren Okafor as his co-founder,
    and CFS reached her profile through it: "the co-founder and COO" is still Ruben."""
    ruben = selected(1, "people/ruben.md", "Ruben De Smet",
                     "| **Role** | Co-founder and COO |\n\nHe co-founded Halyard Labs with Maren Okafor in 2018.")
    maren = selected(5, "people/maren.md", "Maren Okafor", "Maren was born in Manchester.", via=1)
    asked, bridge = bridged("Where was the co-founder and COO born?", [ruben, maren])
    assert (asked, bridge.source) == ("Where was Ruben De Smet born?", "people/ruben.md")
    # a description the hop's words state whole stays the hop's
    heron = selected(1, "heron.md", "Heron: overview", "| Lead engineer | Tobias Lindqvist |")
    tobias = selected(5, "tobias.md", "Tobias Lindqvist", "Tobias was born in Uppsala.", via=1)
    lead = "In which city was the lead engineer of Project Heron born?"
    assert bridged(lead, [heron, tobias])[1].source == "tobias.md"
    # ...unless they say it of the subject: Hannah is the product manager, not Heron
    said = "| **Role** | Product manager |\n\nHannah is the product manager for Heron, our search product."
    hannah = selected(1, "people/hannah.md", "Hannah Osei", said)
    project = selected(5, "heron.md", "Heron", "Heron is our document search product.", via=1)
    asked, bridge = bridged("Where was the product manager born?", [hannah, project])
    assert (asked, bridge.source) == ("Where was Hannah Osei born?", "people/hannah.md")


def test_a_description_after_do_is_as_long_as_the_subject_s_document_states() -> None:
    """"Where did [the infrastructure engineer] study?": after do / does / did only the
    profile says where the description ends (no title delimits it, as in "the lead of
    Project Plover")."""
    said = "| **Role** | Infrastructure engineer |\n\nJonas studied at the Karlsruhe Institute of Technology."
    jonas = selected(1, "people/jonas.md", "Jonas Weber", said)
    other = selected(2, "people/wout.md", "Wout Peeters", "Wout studied informatics at Ghent University.")
    asked, bridge = bridged("Where did the infrastructure engineer study?", [jonas, other])
    assert (asked, bridge.source) == ("Where did Jonas Weber study?", "people/jonas.md")
    assert bridged("Where did the infrastructure team study?", [jonas, other]) is None  # "team": not stated
    # the verb phrase is the last word, or two with a particle; never a description ending in "a"
    assert _after_do("What does the Porto office lead work on?", "Inês") == ["What does Inês work on?"]
    assert _after_do("What did the actress in My Fair Lady win a Tony for?", "Audrey Hepburn") == []
